# Assertion helpers for end-to-end tests that compare several outputs and report all
# failures at the end (sourced, not run by ctest).
set -euo pipefail

: "${OPM:?OPM must point at the opm binary}"
: "${OPM_TESTS:?OPM_TESTS must point at the tests directory}"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -40 || true
    failures=$((failures + 1))
  fi
}

# expect_file_eq NAME EXPECTED_FILE ACTUAL_FILE  (byte-exact)
expect_file_eq() {
  if ! cmp -s "$2" "$3"; then
    echo "FAIL: $1"
    diff "$2" "$3" | head -40 || true
    failures=$((failures + 1))
  fi
}

# Strip logrus/Go-log timestamps so stderr can be compared.
strip_time() {
  sed -E -e 's/^time="[^"]*" /time="T" /' -e 's/^[0-9]{4}\/[0-9]{2}\/[0-9]{2} [0-9:]{8} /T /'
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
}
