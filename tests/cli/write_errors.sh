#!/usr/bin/env bash
# Output that cannot be written fails the command: a full device gives Go's
# "write /dev/stdout: no space left on device" and exit 1, and a reader that goes away
# early never leaves a success exit behind.
source "$OPM_TESTS/cli/lib/common.bash"

catalog="$DATA/catalogs/edge"
[ -w /dev/full ] || { echo "no /dev/full here"; exit 77; }

# to_full NAME STYLE ARGS...: opm ARGS > /dev/full fails with the write error in STYLE
# (logrus: time="..." level=fatal msg="..."; golog: DATE message).
to_full() {
  local name=$1 style=$2 rc=0
  shift 2
  "$OPM" "$@" >/dev/full 2>"$WORK/err" || rc=$?
  normalized_err >"$WORK/err.norm"
  local message="write /dev/stdout: no space left on device"
  local expected="time=\"T\" level=fatal msg=\"$message\""
  [ "$style" = golog ] && expected="DATE $message"
  check "$name exits 1" test "$rc" -eq 1
  check "$name names the write error" grep -qxF -- "$expected" "$WORK/err.norm"
}

to_full "render -o json" golog render "$catalog" -o json
to_full "render -o yaml" golog render "$catalog" -o yaml
to_full "render-graph" golog alpha render-graph "$catalog"
to_full "validate -o json" logrus validate "$catalog" -o json
to_full "init" logrus init my-operator -c stable
to_full "alpha list bundles" logrus alpha list bundles "$catalog"
to_full "version" logrus version

# A catalog far larger than a pipe's buffer, read by a reader that stops at once.
big="$WORK/big"
mkdir -p "$big/pkg"
{
  printf '{"schema":"olm.package","name":"pkg","defaultChannel":"stable"}\n'
  printf '{"schema":"olm.channel","package":"pkg","name":"stable","entries":[{"name":"pkg.v0"}]}\n'
  for i in $(seq 0 1999); do
    printf '{"schema":"olm.bundle","package":"pkg","name":"pkg.v%d","image":"example.com/pkg:v%d","properties":[{"type":"olm.package","value":{"packageName":"pkg","version":"0.0.%d"}}]}\n' "$i" "$i" "$i"
  done
} >"$big/pkg/catalog.json"
"$OPM" render "$big" 2>/dev/null | head -c 1 >/dev/null
rc=${PIPESTATUS[0]}
check "a closed pipe is not a success (exit $rc)" test "$rc" -ne 0

finish
