#!/usr/bin/env bash
# opm generate dockerfile writes <dir>.Dockerfile beside the catalog and prints nothing.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir cat
run_opm generate dockerfile cat/
expect_rc 0
[ -s out ] || [ -s err ] && fail "unexpected output: $(cat out err)"
expect_file cat.Dockerfile "$DATA/dockerfile_default.txt"

# Scratch base, a separate builder, CSV label lists, duplicates (last wins), sorted.
rm cat.Dockerfile
run_opm generate dockerfile ./cat -i scratch -b example.com/opm:v1 -l b=3 -l a=1,c=x=y \
  -l z=old --extra-labels='"x=1,2",z=q'
expect_rc 0
expect_file cat.Dockerfile "$DATA/dockerfile_scratch_labels.txt"

# An absolute path puts the file next to the directory; ADD names the last element.
mkdir -p deep/sub/cat
run_opm generate dockerfile "$WORK/deep/sub/cat"
expect_rc 0
[ -f deep/sub/cat.Dockerfile ] || fail "no deep/sub/cat.Dockerfile"
grep -qx 'ADD cat /configs' deep/sub/cat.Dockerfile || fail "wrong ADD line"

# "." becomes "..Dockerfile" with ADD . /configs.
(cd cat && "$OPM" generate dockerfile .) || fail "generate dockerfile . failed"
grep -qx 'ADD . /configs' cat/..Dockerfile || fail "wrong ADD line for ."

# The deprecated --binary-image names both images unless --builder-image is given.
mkdir old
run_opm generate dockerfile old --binary-image example.com/base:1
expect_rc 0
expect_text err $'Flag --binary-image has been deprecated, use --base-image instead\n'
grep -qx 'FROM example.com/base:1 as builder' old.Dockerfile || fail "builder not defaulted to base"
grep -qx 'FROM example.com/base:1' old.Dockerfile || fail "base image not used"
rm old.Dockerfile
run_opm generate dockerfile old --binary-image example.com/base:1 -b example.com/builder:2
expect_rc 0
grep -qx 'FROM example.com/builder:2 as builder' old.Dockerfile || fail "builder ignored"

# The file honours the umask like any new file.
rm old.Dockerfile
(umask 027 && "$OPM" generate dockerfile old) || fail "generate failed"
[ "$(stat -c %a old.Dockerfile)" = 640 ] || fail "mode $(stat -c %a old.Dockerfile)"
exit 0
