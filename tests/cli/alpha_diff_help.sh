#!/usr/bin/env bash
# opm alpha diff --help (and -h, and `opm help alpha diff`) prints cobra's help: the long
# description with every upgrade rule, usage, examples and flags; on stdout, exit 0.
source "$OPM_TESTS/cli/lib/common.bash"

for args in "alpha diff --help" "alpha diff -h" "help alpha diff"; do
  # shellcheck disable=SC2086
  run_opm $args
  expect_rc 0
  [ -s err ] && fail "stderr for $args: $(cat err)"
  expect_file out "$DATA/alpha_diff_help.txt"
done
echo "ok - alpha diff help"
