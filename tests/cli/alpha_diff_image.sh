#!/usr/bin/env bash
# opm alpha diff takes catalog images as render does (here an OCI layout): the diff is the
# same as of the directories the image holds, problems in an image carry no location (its
# files were unpacked to a directory that is gone), and an image that cannot be read is one
# line naming it, exit 1, nothing on stdout.
source "$OPM_TESTS/cli/lib/common.bash"
export OLM_CACHE_DIR="$WORK/cache"

cp -r "$OPM_TESTS/data/diff"/{base,removed-head} .
mkdir -p img/configs
cp -r removed-head/* img/configs/
python3 "$OPM_TESTS/registry/tools/imagetool.py" layout layout latest --files img \
  --label operators.operatorframework.io.index.configs.v1=/configs >/dev/null

run_opm alpha diff base removed-head
expect_rc 0
cp out from-directory
run_opm alpha diff base oci:layout
expect_rc 0
expect_file out from-directory

run_opm alpha diff base oci:layout --check-upgrades -o github
expect_rc 1
expect_text out '::error title=opm alpha diff%3A upgrade-path::package "foo": channel "fast": previous head "foo.v1.2.0" has no upgrade path to the channel head "foo.v1.1.0"
::error title=opm alpha diff%3A upgrade-path::package "foo": channel "stable": previous head "foo.v1.2.0" has no upgrade path to the channel head "foo.v1.1.0"
::error title=opm alpha diff%3A head-downgrade::package "foo": channel "fast": head moves from "foo.v1.2.0" (1.2.0) to "foo.v1.1.0" (1.1.0), a lower version
::error title=opm alpha diff%3A head-downgrade::package "foo": channel "stable": head moves from "foo.v1.2.0" (1.2.0) to "foo.v1.1.0" (1.1.0), a lower version
::error title=opm alpha diff%3A default-channel::package "foo": default channel "stable" neither contains "foo.v1.2.0", the head of the previous default channel "stable", nor upgrades it
'

run_opm alpha diff base oci:missing
expect_rc 1
[ -s out ] && fail "unexpected stdout: $(cat out)"
expect_err_line 'time="T" level=fatal msg="render reference \"oci:missing\": failed to pull image \"oci:missing\": missing is not an OCI image layout: open missing/index.json: no such file or directory"'
echo "ok - alpha diff image"
