# Assertions shared by the end-to-end suites (tests/cli/, tests/registry/); sourced after
# the suite has set $OPM (the binary) and $WORK (its scratch directory).
#
# Two kinds: expect_rc, expect_file, expect_text, expect_eq and expect_err_line stop the
# script at the first difference (through `fail`); expect_ok, expect_fail and check count
# "ok"/"not ok" and go on, and `finish` ends the script with the tally.

: "${OPM:?OPM must name the opm binary}"
: "${WORK:?WORK must name the scratch directory}"
PASSED=0
FAILED=0

pass() {
  PASSED=$((PASSED + 1))
  echo "ok - $1"
}

failed() {
  FAILED=$((FAILED + 1))
  echo "not ok - $1"
}

# fail MESSAGE: the script fails here.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# finish: prints the tally; fails when a counted check failed.
finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ] || exit 1
}

# run_opm ARGS...: runs opm, leaving stdout in $WORK/out, stderr in $WORK/err and the exit
# status in $RC.
run_opm() {
  RC=0
  "$OPM" "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
}

expect_rc() { # STATUS
  [ "$RC" -eq "$1" ] || fail "expected exit $1, got $RC (stderr: $(cat "$WORK/err"))"
}

# expect_file ACTUAL EXPECTED: byte comparison with a diff on failure.
expect_file() {
  if ! cmp -s "$1" "$2"; then
    diff -u "$2" "$1" >&2
    fail "$1 differs from $2"
  fi
}

# expect_text FILE TEXT: FILE holds exactly TEXT (printf-style escapes are not applied).
expect_text() {
  printf '%s' "$2" >"$WORK/expected"
  expect_file "$1" "$WORK/expected"
}

# expect_eq NAME EXPECTED ACTUAL: two strings are equal.
expect_eq() {
  if [ "$2" != "$3" ]; then
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -40 >&2 || true
    fail "$1"
  fi
}

# Filters logrus and Go log lines, their timestamps replaced (time="T", "DATE "), so they
# can be compared.
normalize_times() {
  sed -E -e 's/^time="[^"]*"/time="T"/' \
    -e 's#^[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} #DATE #'
}

normalized_err() { normalize_times <"$WORK/err"; }

# expect_err_line LINE: stderr is exactly LINE once its timestamp is normalized.
expect_err_line() {
  normalized_err >"$WORK/err.norm"
  printf '%s\n' "$1" >"$WORK/expected"
  expect_file "$WORK/err.norm" "$WORK/expected"
}

expect_ok() { # NAME ARGS...: opm succeeds
  local name=$1
  shift
  run_opm "$@"
  if [ "$RC" -eq 0 ]; then
    pass "$name"
  else
    failed "$name (exit $RC)"
    sed 's/^/    /' "$WORK/err" | tail -n 15
  fi
}

expect_fail() { # NAME EXPECTED_SUBSTRING ARGS...: opm fails and says so on stderr
  local name=$1 want=$2
  shift 2
  run_opm "$@"
  if [ "$RC" -ne 0 ] && grep -qF -- "$want" "$WORK/err"; then
    pass "$name"
  else
    failed "$name (exit $RC, wanted \"$want\")"
    sed 's/^/    /' "$WORK/err" | tail -n 15
  fi
}

check() { # NAME COMMAND...: passes when the command succeeds
  local name=$1
  shift
  if "$@"; then
    pass "$name"
  else
    failed "$name"
  fi
}

out_has() { grep -qF -- "$1" "$WORK/out"; }
err_has() { grep -qF -- "$1" "$WORK/err"; }
