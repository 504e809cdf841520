#!/usr/bin/env bash
# opm alpha render-template: basic, semver and substitutes templates over bundle images
# (OCI layouts), the type named or detected from the schema, file or standard input, json,
# yaml and mermaid output, and latest upstream's errors (cobra style: "Error: ..." plus usage,
# except a template that does not render: one line naming the file, as render fails); local
# directories are refused as bundle references.
source "$OPM_TESTS/cli/lib/common.bash"
T="$OPM_TESTS/data/templates"
bundle_layouts "$T/bundles" bundles

run_opm alpha render-template "$T/basic.yaml"
expect_rc 0
expect_file out "$T/basic.json"

run_opm alpha render-template basic "$T/basic.yaml" -o yaml
expect_rc 0
expect_file out "$T/basic.out.yaml"


run_opm alpha render-template "$T/semver.yaml" -o yaml
expect_rc 0
expect_file out "$T/semver.out.yaml"

run_opm alpha render-template semver "$T/semver.yaml" --output mermaid
expect_rc 0
expect_file out "$T/semver.mermaid"

# The substitutes template checks the result as a catalog, where an oci: reference is not a
# valid image: the registry suite renders it from registry images (render_template_test.sh).

# Errors: the first line of stderr, then the usage block; a template that does not render
# fails on one Go log line instead, naming the template file (the last argument) first.
fails_with() { # MESSAGE ARGS... (stdin from $STDIN, /dev/null when unset)
  local want=$1
  shift
  RC=0
  "$OPM" alpha render-template "$@" <"${STDIN:-/dev/null}" >out 2>err || RC=$?
  expect_rc 1
  if [[ $want == "rendering template: "* ]]; then
    local file="${*: -1}: "
    case ${*: -1} in basic | semver | substitutes) file="" ;; esac
    expect_eq "$*" "DATE $file$want" "$(normalize_times <err | head -n 1)"
    if grep -q '^Usage:' err; then fail "usage after: $want"; fi
    if [ -s out ]; then fail "unexpected stdout for: $want"; fi
    return
  fi
  expect_eq "$*" "Error: $want" "$(head -n 1 err)"
  grep -q '^  opm alpha render-template \[TYPE\] \[FILE\] \[flags\]$' err ||
    fail "no usage after: $want"
  if [ -s out ]; then fail "unexpected stdout for: $want"; fi
}

fails_with 'invalid template type "nope", must be one of: [basic semver substitutes]' nope x
fails_with 'unable to open "missing.yaml": open missing.yaml: no such file or directory' \
  missing.yaml
fails_with 'invalid --output value "toml", expected (json|yaml|mermaid)' "$T/basic.yaml" -o toml
fails_with 'auto-detecting template type: decoding template input: EOF'
printf 'foo: bar\n' >noschema.yaml
fails_with "auto-detecting template type: template input missing required 'schema' field" \
  noschema.yaml
printf 'schema: olm.package\nname: x\n' >package.yaml
fails_with 'auto-detecting template type: unknown template schema: olm.package' package.yaml
fails_with 'rendering template: decoding template schema: EOF' basic
fails_with 'unknown migration level "nope"' --migrate-level nope "$T/basic.yaml"

cat >fields.yaml <<'EOF'
schema: olm.template.basic
entries:
- schema: olm.bundle
  image: oci:bundles/tpl-v0.1.0
- schema: olm.bundle
  image: oci:bundles/tpl-v0.2.0
  package: tpl
EOF
fails_with 'rendering template: unexpected fields present in basic template bundle' fields.yaml

mkdir -p broken/broken/manifests broken/broken/metadata
printf 'apiVersion: v1\nkind: ConfigMap\n' >broken/broken/manifests/cm.yaml
printf 'annotations:\n  operators.operatorframework.io.bundle.package.v1: broken\n' >broken/broken/metadata/annotations.yaml
bundle_layouts broken images
printf 'schema: olm.template.basic\nentries:\n- {schema: olm.bundle, image: oci:bundles/tpl-v0.1.0}\n- {schema: olm.bundle, image: oci:images/broken}\n' >broken.yaml
fails_with 'rendering template: render reference "oci:images/broken": no csv in bundle' broken.yaml

printf 'schema: olm.template.basic\nentries:\n- {image: x}\n' >noentryschema.yaml
# Latest quotes the object with its trailing newline.
fails_with "rendering template: object '{\"image\":\"x\"}" noentryschema.yaml
expect_eq "second line" "' is missing root schema field" "$(sed -n 2p err)"

# YAML 1.1: a bare y is a boolean.
printf 'schema: olm.template.basic\nentries:\n- {schema: olm.package, name: y}\n' >yes.yaml
fails_with 'rendering template: unmarshalling template: expected value for key "name" to be a string, got true: true' \
  yes.yaml
# Keys of an entry that differ only by case.
printf 'schema: olm.template.basic\nentries:\n- {schema: olm.package, Name: a, name: b}\n' >dupkeys.yaml
fails_with 'rendering template: unmarshalling template: duplicate keys for key "name": [Name name]' \
  dupkeys.yaml

# A basic template must be one: a plain catalog stream or another schema is refused, whether
# the type is named or read from stdin.
fails_with 'rendering template: template has unknown schema ("olm.package"), should be "olm.template.basic"' \
  basic "$T/basic-stream.yaml"
STDIN="$T/basic-stream.yaml" fails_with 'rendering template: template has unknown schema ("olm.package"), should be "olm.template.basic"' \
  basic
printf 'schema: olm.template.unknown\nentries: []\n' >unknown-schema.yaml
fails_with 'rendering template: template has unknown schema ("olm.template.unknown"), should be "olm.template.basic"' \
  basic unknown-schema.yaml
printf -- '- schema: olm.template.basic\n' >list.yaml
fails_with 'rendering template: unmarshalling template: json: cannot unmarshal array into Go value of type basic.BasicTemplateData' \
  basic list.yaml

# A bundle image that cannot be pulled: one line naming the template, then what render says
# of the image, exit 1; from standard input, render's line after "rendering template: ".
printf 'schema: olm.template.basic\nentries:\n- {schema: olm.bundle, image: localhost:1/op/bundle:v1}\n' >unpullable.yaml
run_opm render localhost:1/op/bundle:v1
expect_rc 1
pull_failure=$(normalized_err | sed -E 's/after [0-9]+ ms/after N ms/; s/^DATE //')
expect_eq "render's line" 'render reference "localhost:1/op/bundle:v1": failed to pull image "localhost:1/op/bundle:v1": pinging container registry localhost:1: Get "https://localhost:1/v2/": Failed to connect to localhost port 1 after N ms: Couldn'"'"'t connect to server' "$pull_failure"
for input in file stdin; do
  RC=0
  if [ $input = file ]; then
    "$OPM" alpha render-template unpullable.yaml >out 2>err || RC=$?
    where="unpullable.yaml: "
  else
    "$OPM" alpha render-template <unpullable.yaml >out 2>err || RC=$?
    where=""
  fi
  expect_rc 1
  expect_eq "unpullable image from $input" "DATE ${where}rendering template: $pull_failure" \
    "$(normalized_err | sed -E 's/after [0-9]+ ms/after N ms/')"
  if [ -s out ]; then fail "unexpected stdout: $(cat out)"; fi
done

# Auto-detection of a file that is not an object.
fails_with 'auto-detecting template type: unmarshalling template schema: json: cannot unmarshal array into Go value of type struct { Schema string "json:\"schema\"" }' \
  list.yaml
printf 'just text\n' >text.yaml
fails_with 'auto-detecting template type: unmarshalling template schema: json: cannot unmarshal string into Go value of type struct { Schema string "json:\"schema\"" }' \
  text.yaml

# A template path given where the type goes, when no such file exists: latest has no
# composite command, so "composite" is a file name.
fails_with 'unable to open "composite": open composite: no such file or directory' composite

# Bundle references are images: a local bundle directory, a catalog directory or a database
# file is refused as upstream refuses it.
mkdir -p outside-bundle
cp -r "$T/bundles/tpl-v0.1.0/." outside-bundle/
mkdir work && cd work || exit 1
printf 'schema: olm.template.basic\nentries:\n- {schema: olm.bundle, image: ../outside-bundle}\n' >dir.yaml
fails_with 'rendering template: render reference "../outside-bundle": cannot render bundle directory "../outside-bundle": not allowed' \
  dir.yaml
printf 'schema: olm.semver\nstable:\n  bundles:\n  - image: /etc\n' >etc.yaml
fails_with 'rendering template: render reference "/etc": cannot render declarative config directory: not allowed' \
  etc.yaml
cd .. || exit 1

fails_with 'rendering template: template has unknown schema ("olm.semver"), should be "olm.template.basic"' \
  basic "$T/semver.yaml"

printf 'schema: olm.semver\nfoo: 1\n' >unknown.yaml
fails_with 'rendering template: render: unable to read file: error unmarshaling JSON: while decoding JSON: json: unknown field "foo"' \
  semver unknown.yaml
printf 'schema: olm.semver\n' >empty-semver.yaml
fails_with 'rendering template: render: no bundles specified or no bundles could be rendered' \
  empty-semver.yaml
printf 'schema: olm.semver\ngenerateMinorChannels: false\ngenerateMajorChannels: true\ndefaultChannelTypePreference: minor\n' >pref.yaml
fails_with "rendering template: render: unable to read file: schema attribute mismatch: DefaultChannelTypePreference set to 'minor' doesn't make sense if not generating minor-version channels" \
  pref.yaml
printf 'schema: olm.semver\ndefaultChannelTypePreference: patch\n' >badpref.yaml
RC=0
"$OPM" alpha render-template badpref.yaml >out 2>err || RC=$?
expect_rc 1
expect_eq "unknown preference" \
  "$(printf '%s\n%s' 'DATE badpref.yaml: rendering template: render: unable to read file: unknown DefaultChannelTypePreference: "patch"' "Valid values are 'major' or 'minor'")" \
  "$(normalized_err | head -n 2)"
printf 'schema: olm.semver\nstable:\n  bundles:\n  - image: oci:bundles/tpl-v0.1.0\n  - image: oci:bundles/tpl-v0.1.0\n' >dup.yaml
fails_with 'rendering template: render: unable to post-process bundle info: duplicate bundle name "tpl.v0.1.0"' \
  dup.yaml

sed 's/base: tpl.v0.1.1/base: tpl.v9/' "$T/substitutes.yaml" >nobase.yaml
fails_with 'rendering template: render: error processing substitution "tpl.v9" -> "oci:bundles/tpl-v0.2.0": base bundle "tpl.v9" does not exist in catalog' \
  nobase.yaml
sed 's#name: oci:bundles/tpl-v0.2.0#name: oci:bundles/tpl-v0.1.0#' "$T/substitutes.yaml" >older.yaml
fails_with 'rendering template: render: error processing substitution "tpl.v0.1.1" -> "oci:bundles/tpl-v0.1.0": base bundle "tpl.v0.1.1" is not less than substitute bundle "oci:bundles/tpl-v0.1.0"' \
  older.yaml

# opm alpha convert-template: catalog -> template, then back again.
IN="$T/convert-input.json"
run_opm alpha convert-template basic "$IN"
expect_rc 0
expect_file out "$T/convert-basic.json"
run_opm alpha convert-template basic "$IN" -o yaml
expect_rc 0
expect_file out "$T/convert-basic.yaml"
RC=0
"$OPM" alpha convert-template substitutes - <"$IN" >out 2>err || RC=$?
expect_rc 0
expect_file out "$T/convert-substitutes.json"
run_opm alpha convert-template substitutes "$IN" -o yaml
expect_rc 0
expect_file out "$T/convert-substitutes.yaml"

# A substitutes template without substitutions renders back to the catalog it came from.
mkdir catalog && cp "$IN" catalog/
run_opm render catalog
cp out direct.json
run_opm alpha render-template "$T/convert-substitutes.json"
expect_rc 0
expect_file out direct.json
run_opm alpha render-template "$T/convert-substitutes.yaml"
expect_rc 0
expect_file out direct.json

run_opm alpha convert-template basic -o toml "$IN"
expect_rc 1
expect_err_line 'DATE invalid --output value "toml", expected (json|yaml)'
run_opm alpha convert-template basic missing.json
expect_rc 1
expect_eq "open failure" 'Error: unable to open input: "missing.json"' "$(head -n 1 err)"
printf '{"schema": "x"' >bad.json
run_opm alpha convert-template substitutes bad.json
expect_rc 1
err_has 'Error: converting: ' || fail "no converting error: $(cat err)"
# A YAML 1.1 boolean where the envelope needs a string.
printf 'schema: olm.package\nname: yes\n' >yes-name.yaml
run_opm alpha convert-template basic yes-name.yaml
expect_rc 1
expect_eq "bool name" 'Error: converting: expected value for key "name" to be a string, got true: true' "$(head -n 1 err)"
[ -s out ] && fail "convert wrote output: $(cat out)"

# Both generate flags false: minor channels, as latest upstream (v1.26.5 crashes).
printf 'schema: olm.semver\ngenerateMinorChannels: false\nstable:\n  bundles:\n  - image: oci:bundles/tpl-v0.1.0\n' >nogen.yaml
run_opm alpha render-template nogen.yaml -o yaml
expect_rc 0
out_has 'defaultChannel: stable-v0.1' || fail "no minor default channel: $(head -n 5 out)"

exit 0
