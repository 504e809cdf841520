#!/usr/bin/env bash
# Builds and runs the whole test suite: unit tests, end-to-end CLI tests and the
# real-registry tests, in a release build and in an ASan+UBSan build.
#   scripts/test.sh            both builds
#   scripts/test.sh release    one preset (release, asan or debug)
set -euo pipefail
cd "$(dirname "$0")/.."

presets=("$@")
if [ "${#presets[@]}" -eq 0 ]; then
  presets=(release asan)
fi

jobs=$(nproc 2>/dev/null || echo 2)
for preset in "${presets[@]}"; do
  echo "== $preset: build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== $preset: test"
  # intercept_tls_get_addr=0: see src/main.cpp, which makes it opm's own default; the test
  # binaries get it here.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --preset "$preset" -j "$jobs"
done
