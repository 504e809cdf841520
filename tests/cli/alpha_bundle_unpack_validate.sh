#!/usr/bin/env bash
# opm alpha bundle unpack and validate pull a bundle image with the registry client and check
# it as upstream does: format (manifests/, metadata/, annotations, dependencies) and content
# (kinds, CSV name and replaces, CRD schemas, owned CRDs). validate lists every problem at
# once, each with its file; unpack writes nothing unless the bundle passes, and never writes
# through a link it finds in the output directory.
source "$OPM_TESTS/cli/lib/common.bash"
export OLM_CACHE_DIR="$WORK/cache"

# layout DIR NAME: DIR as a one-layer image oci:NAME:v1 labelled with its annotations.
layout() {
  # shellcheck disable=SC2046
  python3 "$OPM_TESTS/registry/tools/imagetool.py" layout "$2" v1 --files "$1" \
    $(sed -n 's/^  \([^:]*\): \(.*\)$/--label \1=\2/p' "$1/metadata/annotations.yaml") >/dev/null ||
    fail "layout $1"
}

cp -r "$DATA/bundle_valid" good
layout good good_image

run_opm alpha bundle validate -t oci:good_image:v1 -b none
expect_rc 0
head -1 err >err.first
expect_text err.first 'Command "validate" is deprecated, This subcommand is deprecated and will be removed in a future release. Migrate to operator-sdk bundle validate
'
normalize_times <err | grep -v 'level=debug' | sed 's/Create a temp directory at .*" /Create a temp directory at D" /' >err.norm
expect_text err.norm 'Command "validate" is deprecated, This subcommand is deprecated and will be removed in a future release. Migrate to operator-sdk bundle validate
time="T" level=info msg="Create a temp directory at D" container-tool=none
time="T" level=info msg="Unpacked image layers, validating bundle image format & contents" container-tool=none
time="T" level=info msg="All validation tests have been completed successfully" container-tool=none
'
grep -qF 'level=debug msg="Found dependencies file" container-tool=none' err || fail "no debug lines"
grep -qF 'level=debug msg="Validating \"apiextensions.k8s.io/v1, Kind=CustomResourceDefinition\" from file \"gizmos.example.com.crd.yaml\"" container-tool=none' err ||
  fail "no line per manifest"

run_opm alpha bundle unpack oci:good_image:v1 -o unpacked
expect_rc 0
diff -r good unpacked >/dev/null || fail "unpack did not give the bundle back"

# Broken annotations, a CRD without a schema and a CSV that replaces itself: one run, every
# problem, each named with its file.
cp -r good broken
sed -i '/bundle.package.v1/d; s/bundle.channels.v1: stable/bundle.channels.v1: ""/' broken/metadata/annotations.yaml
sed -i '/schema:/,$d' broken/manifests/gizmos.example.com.crd.yaml
sed -i 's/replaces: gizmo.v0.2.0/replaces: gizmo.v0.3.0/' broken/manifests/gizmo.clusterserviceversion.yaml
layout broken broken_image
run_opm alpha bundle validate -t oci:broken_image:v1 -b none
expect_rc 1
grep '^Error' err >err.line
expect_text err.line 'Error: Bundle validation errors: metadata/annotations.yaml: Missing annotation "operators.operatorframework.io.bundle.package.v1",metadata/annotations.yaml: Expecting annotation "operators.operatorframework.io.bundle.channels.v1" to have non-empty value,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) spec.replaces names the CSV itself,manifests/gizmos.example.com.crd.yaml: spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required
'

# unpack stops at the format problems, as upstream, and leaves the output directory unmade.
run_opm alpha bundle unpack oci:broken_image:v1 -o not_made
expect_rc 1
grep '^Error' err >err.line
expect_text err.line 'Error: bundle format validation failed: Bundle validation errors: metadata/annotations.yaml: Missing annotation "operators.operatorframework.io.bundle.package.v1",metadata/annotations.yaml: Expecting annotation "operators.operatorframework.io.bundle.channels.v1" to have non-empty value
'
[ -e not_made ] && fail "output directory made for a failed unpack"
run_opm alpha bundle unpack oci:broken_image:v1 -o skipped --skip-validation
expect_rc 0
normalized_err >err.norm
expect_text err.norm 'time="T" level=info msg="skipping bundle validation" cmd=unpack
'
[ -f skipped/manifests/gizmos.example.com.crd.yaml ] || fail "--skip-validation did not unpack"

# Without its CSV the manifests are plain, which the annotations contradict.
cp -r good no_csv && rm no_csv/manifests/gizmo.clusterserviceversion.yaml
layout no_csv no_csv_image
run_opm alpha bundle validate -t oci:no_csv_image:v1 -b none
expect_rc 1
grep '^Error' err >err.line
expect_text err.line 'Error: Bundle validation errors: metadata/annotations.yaml: Expecting annotation "operators.operatorframework.io.bundle.mediatype.v1" to have value "plain" instead of "registry+v1"
'

# An unsupported kind, an object without a name, a CSV name that is no <name>.vX.Y.Z and an
# owned CRD the bundle lacks.
cp -r good odd
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n' >odd/manifests/deploy.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n' >odd/manifests/cm.yaml
sed -i 's/name: gizmo.v0.3.0/name: gizmo/; s/name: gizmos.example.com$/name: gadgets.example.com/' odd/manifests/gizmo.clusterserviceversion.yaml
layout odd odd_image
run_opm alpha bundle validate -t oci:odd_image:v1 -b none
expect_rc 1
grep '^Error' err >err.line
expect_text err.line 'Error: Bundle validation errors: manifests/cm.yaml: error validating object metadata: metadata.name: Required value: name or generateName is required,Deployment is not supported type for registryV1 bundle: manifests/deploy.yaml,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo) metadata.name "gizmo" must have format: {operator name}.(v)X.Y.Z,manifests: Error: Value { Gizmo gadgets.example.com v1}: owned CRD gadgets.example.com/v1 not found in bundle "gizmo"
'

# The optional bundle-objects rules.
cp -r good objects
printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: p\nvalue: 1\nglobalDefault: true\n' >objects/manifests/pc.yaml
layout objects objects_image
run_opm alpha bundle validate -t oci:objects_image:v1 -b none
expect_rc 0
run_opm alpha bundle validate -t oci:objects_image:v1 -b none -o bundle-objects
expect_rc 1
grep '^Error' err >err.line
expect_text err.line 'Error: Bundle validation errors: manifests/pc.yaml: Error: globalDefault field cannot be set to true
'

# The optional operatorhub rules, with operatorhub.io's categories or a custom list.
cp -r good hub
python3 - hub/manifests/gizmo.clusterserviceversion.yaml <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
text = text.replace("    alm-examples:", "    capabilities: Basic\n    categories: Storage,Toys\n    alm-examples:")
text = text.replace("  displayName: Gizmo\n", "  displayName: Gizmo\n  maintainers:\n  - name: ann\n"
                    "    email: ann.example.com\n  links:\n  - name: docs\n    url: docs.example.com\n"
                    "  icon:\n  - base64data: PHN2Zy8+\n    mediatype: image/bmp\n")
open(path, "w").write(text)
PY
layout hub hub_image
run_opm alpha bundle validate -t oci:hub_image:v1 -b none
expect_rc 0
hub_errors='Error: Bundle validation errors: manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) csv.Spec.Provider.Name not specified,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) csv.Spec.Maintainers email ann.example.com is invalid: mail: missing '"'@'"' or angle-addr,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) csv.Spec.Links url docs.example.com is invalid: parse "docs.example.com": invalid URI for request,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) csv.Metadata.Annotations.Capabilities Basic is not a valid capabilities level,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) csv.Spec.Icon image/bmp does not have a valid mediatype'
run_opm alpha bundle validate -t oci:hub_image:v1 -b none -o operatorhub
expect_rc 1
grep '^Error' err >err.line
expect_text err.line "$hub_errors,manifests/gizmo.clusterserviceversion.yaml: Error: Value : (gizmo.v0.3.0) csv.Metadata.Annotations.Categories Toys is not a valid category
"
printf '{"categories": ["Toys", "Storage"]}\n' >categories.json
OPERATOR_BUNDLE_CATEGORIES=categories.json run_opm alpha bundle validate -t oci:hub_image:v1 -b none -o operatorhub
expect_rc 1
grep '^Error' err >err.line
expect_text err.line "$hub_errors
"
OPERATOR_BUNDLE_CATEGORIES=missing.json run_opm alpha bundle validate -t oci:hub_image:v1 -b none -o operatorhub
expect_rc 1
grep -qx 'Error: could not extract custom categories: reading category file: open missing.json: no such file or directory' err ||
  fail "missing categories file: $(cat err)"

# -b podman pulls and copies the image with podman, as the index commands do.
mkdir bin
cat >bin/podman <<'SH'
#!/bin/sh
case "$1" in
pull) echo "pulled $2" ;;
create) echo c0ffee ;;
cp) mkdir -p "$3" && cp -r "$FAKE_IMAGE_ROOT/." "$3" ;;
rm) echo "$2" ;;
esac
SH
chmod +x bin/podman
FAKE_IMAGE_ROOT=$WORK/good PATH="$WORK/bin:$PATH" run_opm alpha bundle validate -t quay.io/acme/gizmo-bundle:v1 -b podman
expect_rc 0
grep -qF "level=info msg=\"running $WORK/bin/podman pull quay.io/acme/gizmo-bundle:v1\" container-tool=podman" err ||
  fail "podman pull not logged: $(cat err)"
err_has 'All validation tests have been completed successfully' || fail "podman image not validated"
FAKE_IMAGE_ROOT=$WORK/broken PATH="$WORK/bin:$PATH" run_opm alpha bundle validate -t quay.io/acme/gizmo-bundle:v1 -b podman
expect_rc 1
grep -q '^Error: Bundle validation errors: metadata/annotations.yaml: Missing annotation' err ||
  fail "broken podman image: $(cat err)"

# A link in the output directory is replaced, never written through.
mkdir outside linked
ln -s ../outside linked/manifests
run_opm alpha bundle unpack oci:good_image:v1 -o linked
expect_rc 0
[ -L linked/manifests ] && fail "link in the output directory kept"
[ -z "$(ls outside)" ] || fail "written through a link: $(ls outside)"
diff -r good linked >/dev/null || fail "unpack into a directory with a link"

# A link in the image to an absolute path is read inside the image, and unpacked pointing
# inside the output directory.
printf '[{"name": "manifests/evil.yaml", "type": "symlink", "link": "/etc/passwd"}]\n' >evil.json
python3 "$OPM_TESTS/registry/tools/imagetool.py" layout evil_image v1 --files good --entry-json evil.json >/dev/null ||
  fail "layout evil_image"
run_opm alpha bundle unpack oci:evil_image:v1 -o evil_out
expect_rc 1
grep -qF 'Error: bundle format validation failed: Bundle validation errors: Unable to read file manifests/evil.yaml in bundle,' err ||
  fail "dangling link: $(cat err)"
run_opm alpha bundle unpack oci:evil_image:v1 -o evil_out -v
expect_rc 0
[ "$(readlink evil_out/manifests/evil.yaml)" = ../etc/passwd ] ||
  fail "link not kept inside: $(readlink evil_out/manifests/evil.yaml)"

# An output path that is a file, and a missing image.
touch afile
run_opm alpha bundle unpack oci:good_image:v1 -o afile
expect_rc 1
grep -qx 'Error: out afile is not a directory' err || fail "file as output: $(cat err)"
run_opm alpha bundle unpack oci:missing:v1 -o m
expect_rc 1
grep -q '^Error: .*missing' err || fail "missing image: $(cat err)"
[ -e m ] && fail "output directory made for a missing image"
run_opm alpha bundle validate -b none
expect_rc 1
grep -qx 'Error: required flag(s) "tag" not set' err || fail "required tag: $(cat err)"
exit 0
