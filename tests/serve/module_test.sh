#!/usr/bin/env bash
# The serve module: `opm` itself links no gRPC, protobuf or abseil, and finds opm-serve.so
# next to itself or in ../lib/opm (the installed layout); without it `opm serve` fails with
# one fatal line while every other command still works.
source "$OPM_TESTS/serve/lib/common.bash"

MODULE="$(dirname "$OPM")/opm-serve.so"
[ -f "$MODULE" ] || fail "no module beside $OPM"

if linked=$(ldd "$OPM" | grep -E 'grpc|protobuf|absl'); then
  fail "opm links the serve libraries: $linked"
fi

# place FILE DEST: a hard link when possible (the binary is large), else a copy.
place() { mkdir -p "$(dirname "$2")" && { ln "$1" "$2" 2>/dev/null || cp "$1" "$2"; }; }

place "$OPM" alone/bin/opm
OPM="$WORK/alone/bin/opm" run_opm serve "$DATA/catalog" -t /dev/null --cache-only
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"serve module not found: install opm-serve.so at $WORK/alone/bin/opm-serve.so or $WORK/alone/lib/opm/opm-serve.so\""
OPM="$WORK/alone/bin/opm" run_opm version
expect_rc 0

place "$OPM" installed/bin/opm
place "$MODULE" installed/lib/opm/opm-serve.so
OPM="$WORK/installed/bin/opm" run_opm serve "$DATA/catalog" -t /dev/null --cache-dir cache --cache-only
expect_rc 0
[ -f cache/digest ] || fail "the installed module did not build the cache"

echo ok
