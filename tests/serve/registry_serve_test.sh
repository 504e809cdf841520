#!/usr/bin/env bash
# opm registry serve over index databases upstream v1.26.5 wrote (tests/data/sqlite): every
# rpc answers as upstream's server did on the same database (golden files made with it),
# the user's file stays byte-identical, the private copy in $TMPDIR is removed on exit, and
# the failures that are only warnings leave a server whose every call fails.
source "$OPM_TESTS/serve/lib/common.bash"

SQL="$OPM_TESTS/data/sqlite"
GOLDEN="$DATA/registry"
mkdir tmp

# start_registry_server ARGS...: `opm registry serve ARGS -p PORT` in the background with
# TMPDIR=$WORK/tmp; returns once the health check answers SERVING.
start_registry_server() {
  PORT=$(free_port)
  TMPDIR="$WORK/tmp" "$OPM" registry serve "$@" -p "$PORT" >server.out 2>server.err &
  SERVER_PID=$!
  wait_serving "127.0.0.1:$PORT" "$SERVER_PID" 2>/dev/null && return 0
  kill -0 "$SERVER_PID" 2>/dev/null || fail "server exited: $(cat server.err)"
  fail "server did not become ready"
}

# The stderr lines after the registry group's deprecation notice, times normalized.
server_warnings() {
  grep -c 'DEPRECATION NOTICE' server.err | grep -qx 1 || fail "no deprecation notice"
  grep -v 'DEPRECATION NOTICE\|^Sqlite-based\|^them will\|^to the new' server.err | normalize_times
}

expect_no_copy_left() {
  [ -z "$(ls -A tmp)" ] || fail "temporary files left: $(ls -A tmp)"
}

# An upstream-written database: the golden answers, the logs on stdout, the copy.
cp "$SQL/kiwi.db" kiwi.db
start_registry_server -d kiwi.db -t "$WORK/termination-log"
copies=$(ls tmp)
[[ $copies == db-* ]] && [ "$(wc -w <<<"$copies")" -eq 1 ] || fail "expected one db-* copy: $copies"
run_calls "127.0.0.1:$PORT" "$GOLDEN/calls.txt" >answers.txt
expect_file answers.txt "$GOLDEN/kiwi-answers.txt"
call reflection/list >services.txt
expect_text services.txt $'api.Registry\ngrpc.health.v1.Health\ngrpc.reflection.v1.ServerReflection\ngrpc.reflection.v1alpha.ServerReflection\n'
stop_server
expect_rc 0
normalize_times <server.out >server.out.norm
expect_text server.out.norm "time=\"T\" level=info msg=\"Keeping server open for infinite seconds\" database=kiwi.db port=$PORT
time=\"T\" level=info msg=\"serving registry\" database=kiwi.db port=$PORT
time=\"T\" level=info msg=\"shutting down...\" database=kiwi.db port=$PORT
"
server_warnings >warnings.txt
expect_text warnings.txt ""
expect_file kiwi.db "$SQL/kiwi.db"
expect_no_copy_left
[ -f termination-log ] && [ ! -s termination-log ] || fail "termination log not created empty"

# Replaces chains from semver mode, served without migrating.
start_registry_server -d "$SQL/semver.db" --skip-migrate -t /dev/null
run_calls "127.0.0.1:$PORT" "$GOLDEN/calls.txt" >answers.txt
expect_file answers.txt "$GOLDEN/semver-answers.txt"
stop_server
expect_rc 0

# Edge cases added with SQL: stranded bundles without manifests, objects around the CSV, a
# bundle without a bundle path (its manifests stay in ListBundles), a core API's plural,
# repeated and malformed property and dependency rows.
cp "$SQL/kiwi.db" edge.db
/usr/bin/python3 -c 'import sqlite3, sys
db = sqlite3.connect("edge.db")
db.executescript(open(sys.argv[1]).read())
db.commit()' "$GOLDEN/edge.sql" || fail "cannot build edge.db"
start_registry_server -d edge.db -t /dev/null
run_calls "127.0.0.1:$PORT" "$GOLDEN/edge-calls.txt" >answers.txt
expect_file answers.txt "$GOLDEN/edge-answers.txt"
stop_server
expect_rc 0

# A file that is not a database is served; every call fails.
printf 'not a database\n' >not.db
start_registry_server -d not.db -t /dev/null
run_calls "127.0.0.1:$PORT" "$GOLDEN/calls.txt" >answers.txt
expect_file answers.txt "$GOLDEN/not-a-database-answers.txt"
stop_server
expect_rc 0
server_warnings >warnings.txt
fields="database=not.db error=\"file is not a database\" port=$PORT"
expect_text warnings.txt "time=\"T\" level=warning msg=\"error setting soft heap limit for sqlite\" $fields
time=\"T\" level=warning msg=\"couldn't migrate db\" $fields
time=\"T\" level=warning msg=\"couldn't list tables in db\" $fields
time=\"T\" level=warning msg=\"no tables found in db\" database=not.db port=$PORT
"
expect_text not.db $'not a database\n'
expect_no_copy_left

# An empty file: migrated into an empty index; with --skip-migrate it has no tables.
: >empty.db
start_registry_server -d empty.db -t /dev/null
call api.Registry/ListPackages >answers.txt
expect_text answers.txt ""
stop_server
[ ! -s empty.db ] || fail "the user's empty file was written"
start_registry_server -d empty.db --skip-migrate -t /dev/null
call api.Registry/ListPackages >answers.txt
expect_text answers.txt $'error UNKNOWN: no such table: package\n'
stop_server
server_warnings >warnings.txt
expect_text warnings.txt "time=\"T\" level=warning msg=\"no tables found in db\" database=empty.db port=$PORT
"

# The termination log cannot be opened: a warning, and every line stays on stderr.
start_registry_server -d kiwi.db -t "$WORK/no/such/dir"
stop_server
[ -s server.out ] && fail "unexpected stdout: $(cat server.out)"
server_warnings >warnings.txt
expect_text warnings.txt "time=\"T\" level=warning msg=\"unable to set termination log path\" error=\"open $WORK/no/such/dir: no such file or directory\"
time=\"T\" level=info msg=\"Keeping server open for infinite seconds\" database=kiwi.db port=$PORT
time=\"T\" level=info msg=\"serving registry\" database=kiwi.db port=$PORT
time=\"T\" level=info msg=\"shutting down...\" database=kiwi.db port=$PORT
"

# --timeout-seconds stops the server gracefully, and the command exits by itself.
start_registry_server -d kiwi.db -t /dev/null --timeout-seconds 1
wait_server
expect_rc 0
grep -q 'level=info msg="Timeout expired. Gracefully stopping." database=kiwi.db' server.out ||
  fail "no timeout line: $(cat server.out)"
expect_no_copy_left

# Command errors: cobra's "Error:" and usage, exit 1, no copy left behind.
expect_command_error() { # MESSAGE ARGS...
  local message=$1
  shift
  RC=0
  TMPDIR="$WORK/tmp" "$OPM" registry serve "$@" -t /dev/null >out 2>err || RC=$?
  expect_rc 1
  grep -qxF "Error: $message" err || fail "wanted \"Error: $message\": $(cat err)"
  grep -qxF "  opm registry serve [flags]" err || fail "no usage: $(cat err)"
  expect_no_copy_left
}
port=$(free_port)
expect_command_error 'strconv.ParseUint: parsing "abc": invalid syntax' \
  -d kiwi.db -p "$port" --timeout-seconds abc
normalize_times <out >out.norm
expect_text out.norm "time=\"T\" level=info msg=\"Keeping server open for abc seconds\" database=kiwi.db port=$port
"
expect_command_error 'strconv.ParseUint: parsing "65536": value out of range' \
  -d kiwi.db -p "$port" --timeout-seconds 65536
expect_command_error "open missing.db: no such file or directory" -d missing.db
expect_command_error "tmp is not a regular file" -d tmp
expect_command_error "failed to listen: listen tcp: address tcp/abc: unknown port" \
  -d kiwi.db -p abc
expect_file kiwi.db "$SQL/kiwi.db"
echo ok
