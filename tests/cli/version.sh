#!/usr/bin/env bash
# opm version prints Go's %#v of upstream's version struct.
source "$OPM_TESTS/cli/lib/common.bash"

run_opm version
expect_rc 0
grep -Eqx 'Version: version\.Version\{OpmVersion:"v[0-9]+\.[0-9]+\.[0-9]+[^"]*", GitCommit:"[^"]*", BuildDate:"[^"]*", GoOs:"linux", GoArch:"[a-z0-9]+"\}' out \
  || fail "unexpected version line: $(cat out)"
exit 0
