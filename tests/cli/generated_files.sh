#!/usr/bin/env bash
# The committed completion scripts and manual pages are exactly what the binary
# generates from its command definitions (regenerate with scripts/update-generated.sh).
source "$OPM_TESTS/cli/lib/common.bash"
ROOT="$OPM_TESTS/.."

for shell in bash zsh fish powershell; do
  case $shell in
  bash) committed="$ROOT/completions/opm.bash" ;;
  zsh) committed="$ROOT/completions/_opm" ;;
  fish) committed="$ROOT/completions/opm.fish" ;;
  powershell) committed="$ROOT/completions/opm.ps1" ;;
  esac
  "$OPM" completion $shell >"$shell.out" || fail "opm completion $shell failed"
  cmp -s "$shell.out" "$committed" || fail "$committed is stale; run scripts/update-generated.sh"
done

"$OPM" __generate-man man || fail "opm __generate-man failed"
diff -r man "$ROOT/man" >/dev/null || fail "man/ is stale; run scripts/update-generated.sh"
for page in opm-alpha.1 opm-alpha-list-bundles.1 opm-alpha-render-graph.1 opm-alpha-render-template.1; do
  [ -f "man/$page" ] || fail "no manual page $page for an alpha command"
done
for section in ENVIRONMENT "EXIT STATUS"; do
  grep -qx ".SH $section" man/opm-render.1 || fail "opm-render(1) has no $section section"
done
grep -q 'OPM_DEBUG_REGISTRY' man/opm-render.1 || fail "opm-render(1) does not document OPM_DEBUG_REGISTRY"

# A deprecated command (alpha bundle validate) keeps its page, which says so, and its flags
# complete once it is typed; its parent does not offer it, as cobra does not.
for page in generate build unpack validate extract; do
  [ -f "man/opm-alpha-bundle-$page.1" ] || fail "no manual page for alpha bundle $page"
done
grep -qx '.SH DEPRECATED' man/opm-alpha-bundle-validate.1 ||
  fail "opm-alpha-bundle-validate(1) does not say it is deprecated"
grep -q 'opm-alpha-bundle-validate' man/opm-alpha-bundle.1 &&
  fail "opm-alpha-bundle(1) lists the deprecated validate among its commands"
grep -q "'opm alpha bundle validate') echo '.*--tag -t" bash.out ||
  fail "bash completion has no flags for alpha bundle validate"
grep "'opm alpha bundle') echo '[a-z ]*'" bash.out | grep -q validate &&
  fail "bash completion offers the deprecated validate as a command"
exit 0
