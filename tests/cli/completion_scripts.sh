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
expect_text probe.out $'generate\ndockerfile\n--base-image --builder-image\n--default-channel --description\n\nlist\nbundles channels images packages\n'

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
# PowerShell: the tables the completer reads, with and without descriptions.
"$OPM" completion powershell >opm.ps1 || fail "opm completion powershell failed"
grep -qx "Register-ArgumentCompleter -Native -CommandName 'opm' -ScriptBlock {" opm.ps1 || fail "no completer registered"
sed -n "/^        'opm generate dockerfile' = @(/,/^        )/p" opm.ps1 >ps.out
expect_text ps.out "        'opm generate dockerfile' = @(
            '--base-image', 'Image base to use to build catalog.'
            '-i', 'Image base to use to build catalog.'
            '--builder-image', 'Image to use as a build stage.'
            '-b', 'Image to use as a build stage.'
            '--extra-labels', 'Extra labels to include in the generated Dockerfile. Labels should be of the form ''key=value''.'
            '-l', 'Extra labels to include in the generated Dockerfile. Labels should be of the form ''key=value''.'
            '--help', 'help for dockerfile'
            '-h', 'help for dockerfile'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm generate dockerfile' = @(
            '--base-image'
            '-i'
            '--builder-image'
            '-b'
            '--extra-labels'
            '-l'
        )
"
"$OPM" completion powershell --no-descriptions >plain.ps1 || fail "opm completion powershell --no-descriptions failed"
grep -qx "            'list', 'list'" plain.ps1 || fail "without descriptions the tooltip is the word"
if command -v pwsh >/dev/null; then
  pwsh -NoProfile -Command '. ./opm.ps1; (TabExpansion2 "opm gen" 7).CompletionMatches.CompletionText' >pwsh.out ||
    fail "pwsh completion failed"
  expect_text pwsh.out $'generate\n'
fi
exit 0
