#!/usr/bin/env bash
# opm alpha diff colours its text report only when stdout is a terminal that takes escape
# codes: added lines green, removed red, changed yellow, package lines bold; NO_COLOR,
# TERM=dumb, a pipe and the other formats give plain text.
source "$OPM_TESTS/cli/lib/common.bash"

if ! command -v script > /dev/null 2>&1 || ! script -qec true /dev/null > /dev/null 2>&1; then
  echo "skipped: no pseudo-terminal for script(1)"
  exit 77
fi
cp -r "$OPM_TESTS/data/diff"/{base,head-added} .

# on_terminal ENV... -- ARGS...: opm alpha diff ARGS with stdout on a pseudo-terminal, what the
# terminal showed in $WORK/tty with CRs dropped.
on_terminal() {
  local envs=()
  while [ "$1" != -- ]; do
    envs+=("$1")
    shift
  done
  shift
  env "${envs[@]}" script -qec "\"$OPM\" alpha diff $* 2>/dev/null" /dev/null 2>&1 | tr -d '\r' >"$WORK/tty" || true
}

ESC=$(printf '\033')
on_terminal TERM=xterm -- base head-added
expect_text tty "${ESC}[1mpackage foo (changed)${ESC}[0m
  ${ESC}[32m+ bundle foo.v1.3.0${ESC}[0m
  ${ESC}[33m~ bundle foo.v1.1.0: image quay.io/example/foo-bundle:v1.1.0 -> quay.io/example/foo-bundle@sha256:1111111111111111111111111111111111111111111111111111111111111111${ESC}[0m
  channel stable:
    ${ESC}[33m~ head: foo.v1.2.0 -> foo.v1.3.0${ESC}[0m
    ${ESC}[32m+ entry foo.v1.3.0${ESC}[0m
    ${ESC}[32m+ edge foo.v1.3.0 replaces foo.v1.2.0${ESC}[0m
    ${ESC}[32m+ edge foo.v1.3.0 skipRange >=1.0.0 <1.2.0${ESC}[0m
"

for setting in NO_COLOR=1 TERM=dumb; do
  on_terminal TERM=xterm "$setting" -- base head-added
  grep -q "$ESC" tty && fail "$setting: escape codes on the terminal: $(cat -v tty)"
  grep -qx 'package foo (changed)' tty || fail "$setting: no plain report: $(cat -v tty)"
done
on_terminal TERM=xterm -- base head-added -o markdown
grep -q "$ESC" tty && fail "markdown: escape codes on the terminal: $(cat -v tty)"

run_opm alpha diff base head-added
grep -q "$ESC" out && fail "escape codes in a pipe: $(cat -v out)"
echo "ok - alpha diff colour"
