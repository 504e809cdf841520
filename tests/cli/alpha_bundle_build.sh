#!/usr/bin/env bash
# opm alpha bundle build generates, then builds: with -b none the image is made here, one
# layer of manifests/ and metadata/ labelled with the annotations, dated SOURCE_DATE_EPOCH,
# and renders as the directory does. Disagreeing annotations stop it before anything is written.
source "$OPM_TESTS/cli/lib/common.bash"
export OLM_CACHE_DIR="$WORK/cache" SOURCE_DATE_EPOCH=1700000000
cp -r "$OPM_TESTS/data/bundles/full" b
args=(-d b/manifests -p example-operator -c "stable,fast" -e stable)

run_opm alpha bundle build "${args[@]}" -t oci:layout:v1 -b none
expect_rc 0
grep -qx 'sha256:[0-9a-f]\{64\}' out || fail "no digest printed: $(cat out)"
digest=$(cat out)
normalize_times <err | tail -1 >err.last
expect_text err.last 'time="T" level=info msg="Building bundle image"
'
run_opm render oci:layout:v1
expect_rc 0
mv out from_image.json
run_opm render b --alpha-image-ref-template oci:layout:v1
expect_rc 0
expect_file from_image.json out

# The same input and time give the same image.
run_opm alpha bundle build "${args[@]}" -t oci:again:v1 -b none
expect_rc 0
expect_text out "$digest
"

# A docker archive renders too.
run_opm alpha bundle build "${args[@]}" -t docker-archive:b.tar -b none
expect_rc 0
run_opm render docker-archive:b.tar
expect_rc 0
grep -q '"name": "example-operator.v1.2.3"' out || fail "archive does not render the bundle"

# An existing annotations.yaml that disagrees (build does not overwrite by default): upstream's
# message, exit 1, and neither copies nor a Dockerfile are written.
rm bundle.Dockerfile
mkdir -p out_dir/metadata && cp b/metadata/annotations.yaml out_dir/metadata/
run_opm alpha bundle build -d b/manifests -p other -c stable,fast -e stable -t oci:x:v1 -b none -u out_dir
expect_rc 1
sed -n 5p err >err.line
expect_text err.line "Error: $WORK/out_dir/metadata/annotations.yaml: Expect field \"operators.operatorframework.io.bundle.package.v1\" to have value \"other\" instead of \"example-operator\"
"
[ -e bundle.Dockerfile ] && fail "Dockerfile written for a failed build"
[ -e out_dir/manifests ] && fail "manifests copied for a failed build"
[ -e x ] && fail "image written for a failed build"
# Every disagreement at once (without -e no default channel is expected).
run_opm alpha bundle build -d b/manifests -p other -c beta -t oci:x:v1 -b none
expect_rc 1
grep -qF "Error: $WORK/b/metadata/annotations.yaml: "'[Expect field "operators.operatorframework.io.bundle.channels.v1" to have value "beta" instead of "stable,fast", Expect field "operators.operatorframework.io.bundle.package.v1" to have value "other" instead of "example-operator"]' err ||
  fail "not every disagreement listed: $(cat err)"

# A file that does not parse is named with the parser's message.
printf 'annotations:\n  a: [\n' >bad.yaml
mkdir -p bad/metadata bad/manifests && cp b/manifests/*.yaml bad/manifests/ && mv bad.yaml bad/metadata/annotations.yaml
run_opm alpha bundle build -d bad/manifests -p p -c c -t oci:x:v1 -b none
expect_rc 1
grep '^Error' err >err.line
expect_text err.line "Error: $WORK/bad/metadata/annotations.yaml: yaml: line 2: did not find expected node content
"

# --overwrite replaces it.
run_opm alpha bundle build -d b/manifests -p other -c beta -t oci:x:v1 -b none --overwrite
expect_rc 0
grep -qx '  operators.operatorframework.io.bundle.package.v1: other' b/metadata/annotations.yaml ||
  fail "annotations not overwritten"

# Engines: an unknown one, and one that is not installed.
run_opm alpha bundle build "${args[@]}" -t x:1 -b rkt -o
expect_rc 1
grep -qx 'Error: rkt is not supported image builder' err || fail "unknown builder: $(cat err)"
PATH=/nonexistent run_opm alpha bundle build "${args[@]}" -t x:1 -b podman -o
expect_rc 1
grep -qxF 'Error: Failed to exec []string{"podman", "build", "-f", "bundle.Dockerfile", "-t", "x:1", "."}: exec: "podman": executable file not found in $PATH' err ||
  fail "missing engine: $(cat err)"

# Engines run in the working directory on bundle.Dockerfile, their output passed through.
mkdir bin
for tool in docker podman buildah; do
  printf '#!/bin/sh\necho "%s $*"\necho "on stderr" >&2\nexit ${FAKE_EXIT:-0}\n' "$tool" >bin/$tool
  chmod +x bin/$tool
done
for tool in docker podman; do
  PATH="$WORK/bin:$PATH" run_opm alpha bundle build "${args[@]}" -t x:1 -b $tool -o
  expect_rc 0
  expect_text out "$tool build -f bundle.Dockerfile -t x:1 .
"
  grep -qx 'on stderr' err || fail "$tool stderr not passed through"
done
PATH="$WORK/bin:$PATH" run_opm alpha bundle build "${args[@]}" -t x:1 -b buildah -o
expect_rc 0
expect_text out 'buildah bud --format=docker -f bundle.Dockerfile -t x:1 .
'
FAKE_EXIT=3 PATH="$WORK/bin:$PATH" run_opm alpha bundle build "${args[@]}" -t x:1 -o
expect_rc 1
grep -qxF 'Error: Failed to exec []string{"docker", "build", "-f", "bundle.Dockerfile", "-t", "x:1", "."}: exit status 3' err ||
  fail "failed engine: $(cat err)"

# Required flags.
run_opm alpha bundle build -d b/manifests
expect_rc 1
head -1 err >err.first
expect_text err.first 'Error: required flag(s) "tag" not set
'
exit 0
