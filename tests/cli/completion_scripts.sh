#!/usr/bin/env bash
# The completion scripts complete commands and flags, the alpha ones included (bash and
# fish exercised; zsh syntax-checked), without calling opm.
source "$OPM_TESTS/cli/lib/common.bash"

"$OPM" completion bash >opm.bash || fail "opm completion bash failed"
bash -n opm.bash || fail "bash syntax"
cat >probe.bash <<'PROBE'
source ./opm.bash
probe() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); __opm_complete; echo "${COMPREPLY[*]}"; }
probe opm ge
probe opm generate ''
probe opm generate dockerfile --b
probe opm --use-http init -o json --d
probe opm init -o ''
probe opm alpha l
probe opm alpha list ''
PROBE
bash probe.bash >probe.out || fail "bash completion failed"
expect_text probe.out $'generate\ndockerfile\n--base-image --builder-image\n--default-channel --description\n\nlist\nbundles channels packages\n'

if command -v zsh >/dev/null; then
  "$OPM" completion zsh >_opm && zsh -n _opm || fail "zsh syntax"
fi
if command -v fish >/dev/null; then
  "$OPM" completion fish >opm.fish || fail "opm completion fish failed"
  fish -n opm.fish || fail "fish syntax"
  fish -c 'source opm.fish; complete -C"opm generate "; complete -C"opm init -o json --des"' >fish.out \
    || fail "fish completion failed"
  expect_text fish.out $'dockerfile\tGenerate a Dockerfile for a file-based catalog\n--description\tPath to the operator\'s README.md (or other documentation)\n'
fi
exit 0
