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

# corpus_bundle_list FILE: "<package>/<version>" of every corpus bundle, a line each.
corpus_bundle_list() {
  local dir
  : >"$1"
  for dir in "$OPM_CORPUS"/bundles/*/*/; do
    dir=${dir%/}
    echo "$(basename "$(dirname "$dir")")/$(basename "$dir")" >>"$1"
  done
}

# push_corpus_bundles REGISTRY LIST: pushes the listed bundles as
# REGISTRY/corpus/<package>-bundle:<version> (needs the registry harness's $TOOLS).
push_corpus_bundles() {
  python3 "$here/bundle_images.py" push "$TOOLS" "$1" "$OPM_CORPUS/bundles" "$2"
}

# corpus_bundle_refs REGISTRY LIST: the pushed references, comma-separated.
corpus_bundle_refs() {
  while read -r entry; do
    echo "$1/corpus/${entry%/*}-bundle:${entry#*/}"
  done <"$2" | paste -sd,
}

# measure_runs STATUS WORKDIR BINARY ARGS... -> "wall_s cpu_s rss_kb": medians of RUNS runs
# (the RSS the largest), each run expected to exit with STATUS, timed to the microsecond.
measure_runs() {
  local want=$1 dir=$2 bin=$3
  shift 3
  local walls=() cpus=() rss=0 wall user sys kb status
  for _ in $(seq "${RUNS:-3}"); do
    status=0
    python3 "$here/rusage.py" "$dir/time" "$bin" "$@" >/dev/null 2>"$dir/err" || status=$?
    [ "$status" -eq "$want" ] || { echo "$bin $*: exit $status" >&2; cat "$dir/err" >&2; return 1; }
    read -r wall user sys kb <"$dir/time"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  local mid=$(((${RUNS:-3} + 1) / 2))
  echo "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")" \
    "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")" "$rss"
}
