#!/usr/bin/env bash
# Start-up failures of opm serve: upstream's fatal messages and exit 1, checked after the
# catalog is loaded and before the port is opened; catalog errors name the file and line first,
# as opm validate's do.
source "$OPM_TESTS/serve/lib/common.bash"

expect_fatal() { # MESSAGE ARGS...
  local message=$1
  shift
  run_opm serve "$@"
  expect_rc 1
  expect_err_line "time=\"T\" level=fatal msg=\"$message\""
  [ -s out ] && fail "unexpected stdout: $(cat out)"
}

expect_fatal "stat /nonexistent/.: no such file or directory" /nonexistent -t /dev/null
touch afile
expect_fatal "stat afile/.: not a directory" afile -t /dev/null
mkdir noname && printf '{"schema":"olm.package"}\n' >noname/a.json
expect_fatal "noname/a.json:1: config contains package with no name" noname -t /dev/null
mkdir noversion
printf '{"schema":"olm.package","name":"a"}\n{"schema":"olm.bundle","name":"b","package":"a"}\n' \
  >noversion/a.json
expect_fatal 'noversion/a.json:2: package \"a\" bundle \"b\" must have exactly 1 \"olm.package\" property, found 0' \
  noversion -t /dev/null

expect_fatal "failed to listen: listen tcp: address tcp/abc: unknown port" \
  "$DATA/catalog" -p abc -t /dev/null
expect_fatal "failed to listen: listen tcp: address 99999: invalid port" \
  "$DATA/catalog" -p 99999 -t /dev/null
expect_fatal "could not start pprof endpoint: listen tcp: address bad: missing port in address" \
  "$DATA/catalog" --pprof-addr bad -t /dev/null

# A port in use.
start_server "$DATA/catalog" -t /dev/null
expect_fatal "failed to listen: listen tcp :$PORT: bind: address already in use" \
  "$DATA/catalog" -p "$PORT" -t /dev/null
stop_server

# An unusable termination log is only a warning; --cache-only exits 0 without listening.
run_opm serve "$DATA/catalog" -t /nonexistent/dir/log --cache-only
expect_rc 0
expect_err_line 'time="T" level=warning msg="unable to set termination log path" error="open /nonexistent/dir/log: no such file or directory"'

# An empty port listens on any free port; logrus writes the empty value bare.
"$OPM" serve "$DATA/catalog" -p "" -t /dev/null 2>any.err &
any_pid=$!
for _ in $(seq 1 100); do
  grep -q 'serving registry' any.err && break
  sleep 0.1
done
kill -TERM "$any_pid"
wait "$any_pid" || fail "serve -p '' exited $?"
normalize_times <any.err | head -n 1 >any.txt
expect_text any.txt "time=\"T\" level=info msg=\"serving registry\" configs=$DATA/catalog port=
"

# Usage errors are cobra's.
run_opm serve a b
expect_rc 1
head -n 1 err >first.txt
expect_text first.txt $'Error: accepts 1 arg(s), received 2\n'
echo ok
