#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy) over the library sources, or over the files given.
#   scripts/tidy.sh [FILE...]     needs build/release/compile_commands.json
set -euo pipefail
cd "$(dirname "$0")/.."
db=build/release
[ -f "$db/compile_commands.json" ] || { echo "configure first: cmake --preset release" >&2; exit 2; }
if [ $# -eq 0 ]; then
  mapfile -t files < <(git ls-files 'src/*.cpp')
else
  files=("$@")
fi
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$db" --quiet 2>/dev/null
