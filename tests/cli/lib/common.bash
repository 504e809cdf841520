# Shared helpers for the end-to-end scripts in tests/cli/ (sourced, not run by ctest).
# Each script gets its own scratch directory, removed only when the script passes.
set -uo pipefail

: "${OPM:?OPM must name the opm binary}"
: "${OPM_TESTS:?OPM_TESTS must name the tests directory}"
DATA="$OPM_TESTS/data/cli"
unset HELP_ALPHA

WORK="$(mktemp -d "${TMPDIR:-/tmp}/opm-cli-test.XXXXXX")"
trap 'status=$?; if [ $status -eq 0 ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi' EXIT
cd "$WORK" || exit 1

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run_opm ARGS...: runs opm, leaving stdout in $WORK/out, stderr in $WORK/err, status in $rc.
run_opm() {
  "$OPM" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
}

expect_rc() {
  [ "$rc" -eq "$1" ] || fail "expected exit $1, got $rc (stderr: $(cat "$WORK/err"))"
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

# logrus and Go log lines with their timestamps replaced, so they can be compared.
normalized_err() {
  sed -E -e 's/^time="[^"]*"/time="T"/' -e 's#^[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} #DATE #' "$WORK/err"
}

expect_err_line() {
  normalized_err >"$WORK/err.norm"
  printf '%s\n' "$1" >"$WORK/expected"
  expect_file "$WORK/err.norm" "$WORK/expected"
}
