#!/usr/bin/env bash
# Byte-for-byte check of the JSON and YAML writers against upstream's renders of the corpus
# catalogs, plus timings. Needs the corpus (/work/shared/corpus or $OPM_CORPUS) and a release
# build (cmake --preset release && cmake --build --preset release).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${OPM_CORPUS:-/work/shared/corpus}
build=${OPM_BUILD:-$root/build/release}
[[ -d $corpus/expected ]] || { echo "no corpus at $corpus" >&2; exit 77; }
[[ -f $build/libopm_lib.a ]] || { echo "no library at $build/libopm_lib.a" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++23 -O2 -I"$root/src" "$root/bench/writer_conformance.cpp" "$build/libopm_lib.a" \
  -Wl,--as-needed -lfmt -lyaml -lssl -lcrypto -lz -lsqlite3 -ltomlplusplus -o "$work/writer_conformance"
status=0
for v in v4.16 v4.22; do
  mkdir -p "$work/$v"
  xz -dc "$corpus/expected/$v/_all/render.json.xz" >"$work/$v/render.json"
  xz -dc "$corpus/expected/$v/_all/render.yaml.xz" >"$work/$v/render.yaml"
  echo "== $v"
  "$work/writer_conformance" "$work/$v" "${REPEATS:-5}" || status=1
  # Each package's catalog.yaml is upstream's YAML render of that package.
  for expected in "$corpus/expected/$v"/*/render.json.xz; do
    pkg=$(basename "$(dirname "$expected")")
    [[ $pkg == _all ]] && continue
    mkdir -p "$work/$v/$pkg"
    xz -dc "$expected" >"$work/$v/$pkg/render.json"
    cp "$corpus/catalogs/$v/$pkg/catalog.yaml" "$work/$v/$pkg/render.yaml"
    if ! out=$("$work/writer_conformance" "$work/$v/$pkg" 1); then
      echo "$pkg:"
      echo "$out"
      status=1
    fi
  done
  echo "per-package renders of $v checked"
done
exit $status
