#!/usr/bin/env python3
"""Guest-side timer for the VM test: runs each command REPS times and prints
one JSON line per run with wall time (perf_counter) and the child's CPU time
from wait4() rusage (microsecond resolution, unlike GNU time's 10 ms).

  guest_time.py REPS -- TOOL DEV CMD... [;; TOOL DEV CMD...]...
"""
import json
import os
import sys
import time


def run(argv):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open("/dev/null", os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    return os.waitstatus_to_exitcode(status), wall, ru


def main():
    reps = int(sys.argv[1])
    args = sys.argv[3:]
    jobs, cur = [], []
    for a in args:
        if a == ";;":
            jobs.append(cur)
            cur = []
        else:
            cur.append(a)
    if cur:
        jobs.append(cur)
    for rep in range(1, reps + 1):
        for job in jobs:
            tool, dev, argv = job[0], job[1], job[2:]
            rc, wall, ru = run(argv)
            print(json.dumps({"tool": tool, "device": dev, "rep": rep, "rc": rc,
                              "wall_s": round(wall, 6), "user_s": round(ru.ru_utime, 6),
                              "sys_s": round(ru.ru_stime, 6), "maxrss_kb": ru.ru_maxrss}), flush=True)


if __name__ == "__main__":
    main()
