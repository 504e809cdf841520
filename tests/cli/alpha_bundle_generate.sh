#!/usr/bin/env bash
# opm alpha bundle generate writes metadata/annotations.yaml beside the manifests and
# bundle.Dockerfile in the working directory, as upstream writes them; package and channels
# come from the flags or from the package directory around a nested bundle.
source "$OPM_TESTS/cli/lib/common.bash"
DATA_BUNDLES="$OPM_TESTS/data/bundles"

# Given package, channels and default channel.
cp -r "$DATA_BUNDLES/release" given && rm -r given/metadata
run_opm alpha bundle generate -d given/manifests -p gizmo -c stable,fast -e stable
expect_rc 0
expect_text given/metadata/annotations.yaml 'annotations:
  operators.operatorframework.io.bundle.channel.default.v1: stable
  operators.operatorframework.io.bundle.channels.v1: stable,fast
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: gizmo
'
expect_text bundle.Dockerfile 'FROM scratch

LABEL operators.operatorframework.io.bundle.mediatype.v1=registry+v1
LABEL operators.operatorframework.io.bundle.manifests.v1=manifests/
LABEL operators.operatorframework.io.bundle.metadata.v1=metadata/
LABEL operators.operatorframework.io.bundle.package.v1=gizmo
LABEL operators.operatorframework.io.bundle.channels.v1=stable,fast
LABEL operators.operatorframework.io.bundle.channel.default.v1=stable

COPY given/manifests /manifests/
COPY given/metadata /metadata/
'
normalized_err >err.norm
expect_text err.norm "time=\"T\" level=info msg=\"Building annotations.yaml\"
time=\"T\" level=info msg=\"Writing annotations.yaml in $WORK/given/metadata\"
time=\"T\" level=info msg=\"Building Dockerfile\"
time=\"T\" level=info msg=\"Writing bundle.Dockerfile in $WORK\"
"
[ -s out ] && fail "unexpected stdout: $(cat out)"

# Without a default channel there is no blank line before COPY; --base-image names FROM.
rm -r bundle.Dockerfile given/metadata
run_opm alpha bundle generate -d given/manifests -p gizmo -c stable --base-image example.com/base:1
expect_rc 0
expect_text bundle.Dockerfile 'FROM example.com/base:1

LABEL operators.operatorframework.io.bundle.mediatype.v1=registry+v1
LABEL operators.operatorframework.io.bundle.manifests.v1=manifests/
LABEL operators.operatorframework.io.bundle.metadata.v1=metadata/
LABEL operators.operatorframework.io.bundle.package.v1=gizmo
LABEL operators.operatorframework.io.bundle.channels.v1=stable
COPY given/manifests /manifests/
COPY given/metadata /metadata/
'

# Inferred from the package manifest beside the bundle: the channels whose replaces chain
# reaches the bundle's CSV, sorted, and the package's default channel.
cp -r "$DATA/bundle_package" pkg
(cd pkg && "$OPM" alpha bundle generate -d 0.2.0 >../out 2>../err) || fail "inference failed: $(cat err)"
grep -qx '  operators.operatorframework.io.bundle.channels.v1: candidate,stable' pkg/metadata/annotations.yaml ||
  fail "channels not inferred: $(cat pkg/metadata/annotations.yaml)"
grep -qx 'COPY 0.2.0 /manifests/' pkg/bundle.Dockerfile || fail "wrong COPY: $(cat pkg/bundle.Dockerfile)"
normalize_times <err | head -4 >err.norm
expect_text err.norm 'time="T" level=info msg="Bundle channels and package name information not provided, inferring from parent package directory"
time="T" level=info msg="Inferred channels: candidate,stable"
time="T" level=info msg="Inferred package name: gizmo"
time="T" level=info msg="Inferred default channel: stable"
'
(cd pkg && rm -r metadata && "$OPM" alpha bundle generate -d 0.1.0 -p gizmo >/dev/null 2>&1) ||
  fail "inference of channels only failed"
grep -qx '  operators.operatorframework.io.bundle.channels.v1: candidate,legacy,stable' \
  pkg/metadata/annotations.yaml || fail "0.1.0 channels: $(cat pkg/metadata/annotations.yaml)"

# Nothing to infer from: upstream's message, with the usage, exit 1.
cp -r "$DATA_BUNDLES/release" lone
run_opm alpha bundle generate -d lone/manifests -p gizmo
expect_rc 1
sed -n 2p err >err.first
expect_text err.first "Error: please manually input channels and packageName, error interpreting bundle from directory $WORK/lone/manifests, error getting CSVs from bundles in the package directory, no ClusterServiceVersion object found in $WORK/lone/metadata
"

# -u copies the manifests (a nested directory's files land in manifests/manifests, as
# upstream puts them) and writes metadata/ there; COPY names the copies.
mkdir work && cd work || exit 1
run_opm alpha bundle generate -d "$DATA_BUNDLES/full/manifests" -p example-operator -c stable -u ../copy
cd .. || exit 1
expect_rc 0
[ -f copy/manifests/example-operator.clusterserviceversion.yaml ] || fail "manifests not copied"
[ -f copy/manifests/.hidden.yaml ] || fail "hidden file not copied"
[ -f copy/manifests/manifests/nested.yaml ] || fail "nested file not where upstream puts it"
grep -qx 'COPY ../copy/manifests /manifests/' work/bundle.Dockerfile || fail "COPY: $(cat work/bundle.Dockerfile)"
[ -f copy/metadata/annotations.yaml ] || fail "no annotations in the output directory"

# Media types: a Chart.yaml naming a chart is helm; manifests without a CSV are plain.
mkdir -p chart/manifests plain/manifests empty/manifests
printf 'apiVersion: v2\nname: demo\nversion: 0.1.0\n' >chart/manifests/Chart.yaml
cp "$DATA_BUNDLES/full/manifests/widgets.example.com.crd.yaml" plain/manifests/
for kind in chart plain; do
  run_opm alpha bundle generate -d $kind/manifests -p p -c c
  expect_rc 0
done
grep -qx 'LABEL operators.operatorframework.io.bundle.mediatype.v1=plain' bundle.Dockerfile ||
  fail "not plain: $(cat bundle.Dockerfile)"
grep -qx '  operators.operatorframework.io.bundle.mediatype.v1: helm' chart/metadata/annotations.yaml ||
  fail "not helm: $(cat chart/metadata/annotations.yaml)"
run_opm alpha bundle generate -d empty/manifests -p p -c c
expect_rc 1
head -1 err >err.first
expect_text err.first "Error: The directory $WORK/empty/manifests contains no yaml files
"
[ -e empty/metadata ] && fail "metadata written for a failed run"

# Required flag and a missing directory.
run_opm alpha bundle generate -p p -c c
expect_rc 1
head -1 err >err.first
expect_text err.first 'Error: required flag(s) "directory" not set
'
run_opm alpha bundle generate -d missing -p p -c c
expect_rc 1
head -1 err >err.first
expect_text err.first "Error: stat $WORK/missing: no such file or directory
"
exit 0
