#!/usr/bin/env bash
# On a terminal opm logs in logrus' coloured form; NO_COLOR, TERM=dumb and a stderr that is
# no terminal give the plain key=value form, with no escape code at all.
source "$OPM_TESTS/cli/lib/common.bash"

if ! command -v script > /dev/null 2>&1 || ! script -qec true /dev/null > /dev/null 2>&1; then
  echo "skipped: no pseudo-terminal for script(1)"
  exit 77
fi

mkdir bad
printf '{"schema":"olm.package"}\n' > bad/a.json

# on_terminal ENV...: runs `opm validate` of an invalid catalog with stderr on a
# pseudo-terminal, leaving what the terminal showed in $WORK/tty.
on_terminal() {
  env "$@" script -qec "\"$OPM\" validate \"$WORK/bad\" > /dev/null" /dev/null > "$WORK/tty" 2>&1 || true
}

ESC=$(printf '\033')
on_terminal TERM=xterm
grep -q "${ESC}\[31mFATA${ESC}\[0m\[0000\] " "$WORK/tty" || fail "no coloured fatal line on a terminal: $(cat -v "$WORK/tty")"

for setting in NO_COLOR=1 TERM=dumb; do
  on_terminal TERM=xterm "$setting"
  if grep -q "$ESC" "$WORK/tty"; then
    fail "$setting: escape codes on the terminal: $(cat -v "$WORK/tty")"
  fi
  grep -q '^time="[^"]*" level=fatal msg=' "$WORK/tty" || fail "$setting: no plain fatal line: $(cat -v "$WORK/tty")"
done

run_opm validate "$WORK/bad"
expect_rc 1
if grep -q "$ESC" "$WORK/err"; then
  fail "escape codes when stderr is a file: $(cat -v "$WORK/err")"
fi
exit 0
