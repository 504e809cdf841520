# Shared by the bench scripts: locate the binary and the corpus.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
OPM=${OPM:-$repo/build/release/opm}
if [ -z "${OPM_CORPUS:-}" ]; then
  for c in "$repo/../shared/corpus" "$repo/../../shared/corpus"; do
    [ -d "$c" ] && OPM_CORPUS=$(cd "$c" && pwd) && break
  done
fi
if [ -z "${OPM_CORPUS:-}" ] || [ ! -d "$OPM_CORPUS/catalogs" ]; then
  echo "corpus not found: set OPM_CORPUS to the corpus directory" >&2
  exit 2
fi
if [ ! -x "$OPM" ]; then
  echo "no opm binary at $OPM: build the release preset first (or set OPM)" >&2
  exit 2
fi
