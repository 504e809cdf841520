#!/usr/bin/env bash
# Regenerates the files derived from the command definitions: completions/ and man/.
# Run after changing a command, a flag or a help text; tests/cli/generated_files.sh
# fails until the committed copies match the binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opm="${1:-$root/build/debug/opm}"
unset HELP_ALPHA
mkdir -p "$root/completions"
"$opm" completion bash > "$root/completions/opm.bash"
"$opm" completion zsh > "$root/completions/_opm"
"$opm" completion fish > "$root/completions/opm.fish"
"$opm" completion powershell > "$root/completions/opm.ps1"
rm -rf "$root/man"
"$opm" __generate-man "$root/man"
