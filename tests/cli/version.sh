#!/usr/bin/env bash
# opm version prints Go's %#v of upstream's version struct. OpmVersion is the upstream release
# whose behaviour this opm follows, with this implementation's version as semver build metadata;
# the build date is ISO 8601 in UTC, as upstream's.
source "$OPM_TESTS/cli/lib/common.bash"

run_opm version
expect_rc 0
grep -Eqx 'Version: version\.Version\{OpmVersion:"v1\.73\.0\+cpp\.[0-9]+\.[0-9]+\.[0-9]+", GitCommit:"([0-9a-f]{12}|unknown)", BuildDate:"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", GoOs:"linux", GoArch:"[a-z0-9]+"\}' out \
  || fail "unexpected version line: $(cat out)"
exit 0
