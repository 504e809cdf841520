#!/usr/bin/env bash
# v1.26.5's opm alpha render-template composite: catalogs built from a catalog configuration
# and a composite configuration by the basic, semver, raw and custom builders, validated
# afterwards; configuration errors as upstream's fatal log lines (checked against v1.26.5).
source "$OPM_TESTS/cli/lib/common.bash"
T="$OPM_TESTS/data/templates"
bundle_layouts "$T/bundles" bundles
cp "$T/basic-stream.yaml" basic.yaml
cp "$T/semver.yaml" semver.yaml
mkdir catalog
cat >catalogs.yaml <<'EOF'
schema: olm.composite.catalogs
catalogs:
- name: v4.14
  destination:
    baseImage: quay.example/base:v4.14
    workingDir: built/v4.14
  builders: [olm.builder.basic, olm.builder.semver, olm.builder.raw, olm.builder.custom]
EOF
cat >catalog/config.yaml <<'EOF'
schema: olm.composite
components:
- name: v4.14
  destination: {path: basic}
  strategy:
    name: basic
    template:
      schema: olm.builder.basic
      config: {input: basic.yaml, output: catalog.yaml}
- name: v4.14
  destination: {path: semver}
  strategy:
    name: semver
    template:
      schema: olm.builder.semver
      config: {input: semver.yaml, output: catalog.yaml}
- name: v4.14
  destination: {path: raw}
  strategy:
    name: raw
    template:
      schema: olm.builder.raw
      config: {input: raw.json, output: catalog.yaml}
- name: v4.14
  destination: {path: custom}
  strategy:
    name: custom
    template:
      schema: olm.builder.custom
      config: {command: cat, args: [../../raw.json], output: catalog.yaml}
EOF
cat >raw.json <<'EOF'
{"schema":"olm.package","name":"raw","defaultChannel":"a"}
{"schema":"olm.channel","package":"raw","name":"a","entries":[{"name":"raw.v1"}]}
{"schema":"olm.bundle","package":"raw","name":"raw.v1","image":"quay.example/raw:v1","properties":[{"type":"olm.package","value":{"packageName":"raw","version":"1.0.0"}}]}
EOF

# Bundles come from OCI layouts, whose oci: references are not valid images for validation.
run_opm alpha render-template composite -o yaml --validate=false
expect_rc 0
expect_text out ""
expect_file built/v4.14/basic/catalog.yaml "$T/basic.out.yaml"
expect_file built/v4.14/semver/catalog.yaml "$T/semver.out.yaml"
mkdir rawdir && cp raw.json rawdir/
"$OPM" render rawdir -o yaml >raw.yaml
expect_file built/v4.14/raw/catalog.yaml raw.yaml
expect_file built/v4.14/custom/catalog.yaml raw.yaml

# Without flags, the default catalogs.yaml here makes "composite" v1.26.5's command (latest
# would read a template file named "composite"); it validates, which the oci: references fail.
run_opm alpha render-template composite -o yaml
expect_rc 1
err_has 'rendering the composite template: validating component "v4.14": validation failure in path "built/v4.14/basic": ' ||
  fail "composite did not build: $(cat err)"

fatal() { # MESSAGE ARGS...
  local want=$1
  shift
  run_opm alpha render-template composite "$@"
  expect_rc 1
  expect_err_line "DATE $want"
}
printf 'schema: olm.composite.catalogs\ncatalogs:\n- name: a\n  destination: {workingDir: w}\n- name: b\n  destination: {baseImage: x}\n' >bad1.yaml
fatal "$(printf 'catalog configuration file field validation failed: \nCatalog a:\n  - destination.baseImage must not be an empty string\n\nCatalog b:\n  - destination.workingDir must not be an empty string')" \
  -f bad1.yaml
printf 'schema: olm.composite.catalogs\ncatalogs:\n- name: a\n  destination: {workingDir: w, baseImage: x}\n  builders: [olm.builder.nope]\n' >bad2.yaml
fatal 'getting builder "olm.builder.nope" for catalog "a": unknown schema "olm.builder.nope"' \
  -f bad2.yaml
printf 'schema: other\n' >bad3.yaml
fatal 'catalog configuration file has unknown schema, should be "olm.composite.catalogs"' \
  -f bad3.yaml
fatal 'opening catalog config file "nope.yaml": open nope.yaml: no such file or directory' \
  -f nope.yaml
printf 'schema: olm.composite.catalogs\ncatalogs:\n- name: a\n  destination: {workingDir: w, baseImage: x}\n  builders: [olm.builder.basic, olm.builder.raw]\n' >good.yaml
fatal 'opening composite config file "nope.yaml": open nope.yaml: no such file or directory' \
  -f good.yaml -c nope.yaml
printf 'schema: olm.compositex\n' >c0.yaml
fatal '"c0.yaml" has unknown schema, should be "olm.composite"' -f good.yaml -c c0.yaml
printf 'schema: olm.composite\ncomponents:\n- name: zz\n' >c1.yaml
fatal 'rendering the composite template: building component "zz": component does not exist in the catalog configuration. Available components are: [a]' \
  -f good.yaml -c c1.yaml
printf 'schema: olm.composite\ncomponents:\n- name: a\n  strategy: {template: {schema: olm.builder.semver}}\n' >c2.yaml
fatal 'rendering the composite template: building component "a": no builder found for template schema "olm.builder.semver"' \
  -f good.yaml -c c2.yaml
printf 'schema: olm.composite\ncomponents:\n- name: a\n  strategy: {template: {schema: olm.builder.basic, config: {foo: 1}}}\n' >c3.yaml
fatal 'rendering the composite template: building component "a": unmarshalling basic template config: error unmarshaling JSON: while decoding JSON: json: unknown field "foo"' \
  -f good.yaml -c c3.yaml
printf 'schema: olm.composite\ncomponents:\n- name: a\n  strategy: {template: {schema: olm.builder.basic, config: {}}}\n' >c4.yaml
fatal 'rendering the composite template: building component "a": basic template configuration is invalid: basic template config must have a non-empty input (templateDefinition.config.input),basic template config must have a non-empty output (templateDefinition.config.output)' \
  -f good.yaml -c c4.yaml
printf 'schema: olm.composite\ncomponents:\n- name: a\n  destination: {path: p}\n  strategy: {template: {schema: olm.builder.raw, config: {input: missing.json, output: o.json}}}\n' >c5.yaml
fatal 'rendering the composite template: building component "a": error reading raw input file: missing.json, open missing.json: no such file or directory' \
  -f good.yaml -c c5.yaml
# An invalid catalog fails validation unless --validate=false.
printf '{"schema":"olm.package","name":"raw","defaultChannel":"nope"}\n' >invalid.json
printf 'schema: olm.composite\ncomponents:\n- name: a\n  destination: {path: p}\n  strategy: {template: {schema: olm.builder.raw, config: {input: invalid.json, output: o.json}}}\n' >c6.yaml
run_opm alpha render-template composite -f good.yaml -c c6.yaml
expect_rc 1
# The finding names its file and line, as opm validate names it, before upstream's tree.
err_has 'rendering the composite template: validating component "a": validation failure in path "w/p": w/p/o.json:1: invalid channel "nope": channel must contain at least one bundle (defaultChannel "nope" names no olm.channel of package "raw", which has none)' ||
  fail "no located validation failure: $(cat err)"
grep -qx 'invalid index:' "$WORK/err" || fail "no validation tree: $(cat err)"
run_opm alpha render-template composite -f good.yaml -c c6.yaml --validate=false
expect_rc 0
[ -s w/p/o.json ] || fail "nothing written without validation"
