#!/usr/bin/env bash
# The serve program: `opm` itself links no gRPC, protobuf or abseil and hands every serve
# command over to opm-serve (the same process, exec'd), found next to itself or in ../lib/opm
# (the installed layout). Without it the serve commands fail with one fatal line, and every
# other command still works.
source "$OPM_TESTS/serve/lib/common.bash"

PROGRAM="$(dirname "$OPM")/opm-serve"
[ -x "$PROGRAM" ] || fail "no opm-serve beside $OPM"

if linked=$(ldd "$OPM" | grep -E 'grpc|protobuf|absl|libssl|libcrypto'); then
  fail "opm links the serve libraries: $linked"
fi

# place FILE DEST: a hard link when possible (the binaries are large), else a copy.
place() { mkdir -p "$(dirname "$2")" && { ln "$1" "$2" 2>/dev/null || cp -p "$1" "$2"; }; }

place "$OPM" alone/bin/opm
missing="serve program not found: install opm-serve at $WORK/alone/bin/opm-serve or $WORK/alone/lib/opm/opm-serve"
OPM="$WORK/alone/bin/opm" run_opm serve "$DATA/catalog" -t /dev/null --cache-only
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"$missing\""
OPM="$WORK/alone/bin/opm" run_opm registry serve -d "$WORK/none.db" -t /dev/null
expect_rc 1
normalized_err | tail -1 >err.last
expect_text err.last "time=\"T\" level=fatal msg=\"$missing\"
"
ln -s opm alone/bin/grpc_health_probe
RC=0
alone/bin/grpc_health_probe -addr=127.0.0.1:1 >probe.out 2>probe.err || RC=$?
expect_rc 2
expect_text probe.err "error: $missing
"
OPM="$WORK/alone/bin/opm" run_opm version
expect_rc 0
OPM="$WORK/alone/bin/opm" run_opm validate "$DATA/catalog"
expect_rc 0

# An opm-serve that cannot be run is named, with the reason.
place "$OPM" unrunnable/bin/opm
cp "$PROGRAM" unrunnable/bin/opm-serve
chmod -x unrunnable/bin/opm-serve
OPM="$WORK/unrunnable/bin/opm" run_opm serve "$DATA/catalog" -t /dev/null --cache-only
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"cannot run $WORK/unrunnable/bin/opm-serve: Permission denied\""

place "$OPM" installed/bin/opm
place "$PROGRAM" installed/lib/opm/opm-serve
OPM="$WORK/installed/bin/opm" run_opm serve "$DATA/catalog" -t /dev/null --cache-dir cache --cache-only
expect_rc 0
[ -f cache/digest ] || fail "the installed opm-serve did not build the cache"

# The serving process is the one opm started, now running opm-serve.
OPM="$WORK/installed/bin/opm" start_server "$DATA/catalog" -t /dev/null
running=$(readlink "/proc/$SERVER_PID/exe")
[ "$running" = "$WORK/installed/lib/opm/opm-serve" ] || fail "the server runs $running"
expect_eq "the server's process name" "opm" "$(cat "/proc/$SERVER_PID/comm")"
stop_server
expect_rc 0

# A notice about the command line is given once, by opm-serve, not again by opm.
OPM="$WORK/installed/bin/opm" run_opm registry serve --skip-tls -d "$WORK/none.db" -t /dev/null
for notice in "Flag --skip-tls has been deprecated" "DEPRECATION NOTICE"; do
  given=$(grep -c "$notice" "$WORK/err" || true)
  [ "$given" = 1 ] || fail "\"$notice\" was given $given times: $(cat "$WORK/err")"
done

echo ok
