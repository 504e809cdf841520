# Waiting for the processes a suite started; sourced.

# wait_exit PID [SECONDS]: waits for the child PID to end, for at most SECONDS (default 30),
# and leaves its exit status in $RC. A child still running by then has its threads' stacks
# printed (with gdb, where installed) before it is killed and the script fails, so that a
# hang is a quick failure that shows where it hung. Safe under `set -e`.
wait_exit() {
  local pid=$1 limit=${2:-30} state="" i
  for ((i = 0; i < limit * 20; i++)); do
    state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$pid/status" 2>/dev/null || true)
    if [ -z "$state" ] || [ "$state" = Z ]; then
      break
    fi
    sleep 0.05
  done
  if [ -n "$state" ] && [ "$state" != Z ]; then
    echo "process $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline")) still running after ${limit}s" >&2
    if command -v gdb >/dev/null; then
      gdb -batch -p "$pid" -ex "thread apply all bt" 2>&1 | grep -E '^(Thread|#)' >&2
    fi
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    fail "process $pid did not end within ${limit}s"
  fi
  RC=0
  wait "$pid" || RC=$?
}
