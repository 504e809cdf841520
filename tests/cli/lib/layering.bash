# Helpers for the tests of scripts/check-layering.sh; sourced after common.bash.

# layering_tree MODULE...: a tree with the project's check script and empty src/MODULE folders.
layering_tree() {
  local module
  mkdir -p tree/scripts
  for module in "$@"; do
    mkdir -p "tree/src/$module"
  done
  cp "$OPM_TESTS/../scripts/check-layering.sh" tree/scripts/
}

# layering_passes WHAT: the check accepts the tree; WHAT says what it refused otherwise.
layering_passes() {
  bash tree/scripts/check-layering.sh >err 2>&1 || fail "$1 refused: $(cat err)"
}

# layering_refuses PATTERN WHAT: the check fails with exit 1 and a line matching PATTERN.
layering_refuses() {
  RC=0
  bash tree/scripts/check-layering.sh >err 2>&1 || RC=$?
  expect_rc 1
  grep -q "$1" err || fail "$2 is not named: $(cat err)"
}
