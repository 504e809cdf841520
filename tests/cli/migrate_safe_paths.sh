#!/usr/bin/env bash
# opm migrate refuses a package name that is not one safe path element (upstream wrote
# "../../escaped" outside the output directory) before writing anything, and a migrate that
# fails leaves the output directory as it was: missing, or empty.
source "$OPM_TESTS/cli/lib/common.bash"

catalog() { # DIR PACKAGE...: a catalog directory with an olm.package for each name
  local dir=$1
  shift
  mkdir -p "$dir"
  for name in "$@"; do
    printf '{"schema":"olm.package","name":"%s","defaultChannel":"stable"}\n' "$name"
  done >"$dir/index.json"
}
fatal_line() { # MESSAGE: the last line of stderr, the fatal log line of MESSAGE
  normalized_err | tail -n 1 >err.last
  expect_text err.last "time=\"T\" level=fatal msg=\"$1\""$'\n'
}
only() { # ENTRY...: the working directory holds exactly these
  expect_eq "working directory" "$(printf '%s\n' "$@" | sort)" "$(ls -A | grep -vx -e err -e out -e err.last -e err.norm -e expected | sort)"
}

catalog escape ok '../../escaped'
run_opm migrate escape dest/a/b
expect_rc 1
fatal_line 'escape/index.json:2: invalid package name \"../../escaped\": must be a single local path element'
only escape

catalog dotdot '..' ok
run_opm migrate dotdot dest
expect_rc 1
fatal_line 'dotdot/index.json:1: invalid package name \"..\": must be a single local path element'
only escape dotdot

catalog nested a/b
run_opm migrate nested dest
expect_rc 1
fatal_line 'nested/index.json:1: invalid package name \"a/b\": must be a single local path element'
only escape dotdot nested

# A write that fails after the first package was written (a name longer than a directory
# entry may be) leaves no trace: neither the output directory, nor its parents, nor the
# directory it was built in.
long=$(printf 'b%.0s' {1..300})
catalog toolong aaa "$long"
run_opm migrate toolong dest/a/b
expect_rc 1
fatal_line "mkdir dest/a/b/$long: file name too long"
only escape dotdot nested toolong

mkdir empty
chmod 750 empty
run_opm migrate toolong empty
expect_rc 1
fatal_line "mkdir empty/$long: file name too long"
only escape dotdot nested toolong empty
expect_eq "empty stays empty" "" "$(ls -A empty)"

# An empty output directory that exists gets the packages and keeps its mode.
catalog good kiwi plum
run_opm migrate good empty
expect_rc 0
expect_eq "packages in the existing directory" "kiwi plum" "$(ls -A empty | tr '\n' ' ' | sed 's/ $//')"
expect_eq "its mode kept" 750 "$(stat -c %a empty)"
only escape dotdot nested toolong empty good

run_opm migrate good fresh/new
expect_rc 0
expect_eq "packages in a new directory" "kiwi plum" "$(ls -A fresh/new | tr '\n' ' ' | sed 's/ $//')"
expect_eq "only the new directory beside it" "new" "$(ls -A fresh)"
