#!/usr/bin/env python3
"""rusage.py OUT COMMAND [ARGS...]: runs COMMAND with this process's standard streams and
writes "wall_s user_s sys_s maxrss_kb" of it to OUT, at microsecond resolution (GNU time
rounds CPU time to 10 ms, too coarse for runs of a tenth of a second). Exits with the
command's status."""
import os
import sys
import time


def main() -> int:
    out, command = sys.argv[1], sys.argv[2:]
    started = time.monotonic()
    pid = os.posix_spawnp(command[0], command, os.environ)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - started
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"{wall:.6f} {usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss}\n")
    return os.waitstatus_to_exitcode(status) & 0xFF


if __name__ == "__main__":
    sys.exit(main())
