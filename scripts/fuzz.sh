#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (cmake preset "fuzz": clang 16, ASan, UBSan) and runs
# each for SECONDS (default 60) on a fresh copy of its seed corpus fuzz/corpus/<target>/.
# Prints executions and coverage per target; fails when any target finds a crash, a leak,
# an UBSan report, a timeout or an out-of-memory input (the input is kept, see below).
#   scripts/fuzz.sh                    every target, 60 s each
#   scripts/fuzz.sh 300 reference tar  two targets, 5 min each
# Environment:
#   OPM_FUZZ_PARALLEL=N   targets run at once (default 1)
#   OPM_FUZZ_WORK=DIR     where corpora, logs and crash inputs go (default build/fuzz/runs)
#   OPM_FUZZ_ARGS="..."   more libFuzzer flags, e.g. "-dict=my.dict -max_len=8192"
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi

all_targets=()
for source in fuzz/*_fuzz.cpp; do
  name=$(basename "$source" _fuzz.cpp)
  all_targets+=("$name")
done
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=("${all_targets[@]}")
fi
for t in "${targets[@]}"; do
  if [ ! -f "fuzz/${t}_fuzz.cpp" ]; then
    echo "fuzz.sh: unknown target \"$t\"; targets: ${all_targets[*]}" >&2
    exit 2
  fi
done

parallel=${OPM_FUZZ_PARALLEL:-1}
work=${OPM_FUZZ_WORK:-build/fuzz/runs}
read -r -a extra_args <<<"${OPM_FUZZ_ARGS:-}"

echo "== fuzz: build"
cmake --preset fuzz -DOPM_WERROR=ON >/dev/null
build_targets=()
for t in "${targets[@]}"; do
  build_targets+=("${t}_fuzz")
done
cmake --build --preset fuzz -j "$(nproc 2>/dev/null || echo 2)" --target "${build_targets[@]}"

# ASan and UBSan name functions and lines through llvm-symbolizer (package llvm-16).
for symbolizer in llvm-symbolizer-16 /usr/lib/llvm-16/bin/llvm-symbolizer llvm-symbolizer; do
  if command -v "$symbolizer" >/dev/null; then
    export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v "$symbolizer")}
    break
  fi
done

# One run: a copy of the seeds as the working corpus, crash inputs under artifacts/.
run_target() {
  local t=$1 dir="$work/$1"
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp fuzz/corpus/"$t"/* "$dir/corpus/"
  local rc=0
  # ASan's default 256 MB quarantine, spread over many allocation sizes, lets a long run's
  # RSS climb past the limit with no leak (grpc_request: 1.4 GB after 14 million inputs,
  # flat at 150 MB without a quarantine); 64 MB keeps use-after-free detection and the RSS.
  # intercept_tls_get_addr=0: see scripts/test.sh.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:quarantine_size_mb=64:intercept_tls_get_addr=0} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "build/fuzz/fuzz/${t}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "${extra_args[@]}" "$dir/corpus" \
    >"$dir/log" 2>&1 || rc=$?
  echo "$rc" >"$dir/rc"
}

# "<target>: <executions> execs, cov <edges>, ft <features>, corpus <units> (<new> new)" or FAILED.
report_target() {
  local t=$1 dir="$work/$1"
  local rc execs cov ft units added
  rc=$(cat "$dir/rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$dir/log" | tail -1 | cut -d' ' -f2)
  units=$(find "$dir/corpus" -type f | wc -l)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$dir/log" | tail -1)
  if [ "$rc" -ne 0 ]; then
    echo "$t: FAILED (exit $rc) after ${execs:-?} execs, cov ${cov:-?}; log $dir/log"
    grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*invariant failed|ALARM|==[0-9]+== ERROR)' \
      "$dir/log" || true
    find "$dir/artifacts" -type f -printf '  input: %p\n'
    return 1
  fi
  echo "$t: ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, corpus $units (${added:-0} new)"
}

echo "== fuzz: ${#targets[@]} target(s), ${seconds}s each, $parallel at a time"
running=0
for t in "${targets[@]}"; do
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=0
for t in "${targets[@]}"; do
  report_target "$t" || failed=1
done
exit "$failed"
