"""What the running service costs per poll, measured in the guest.

CPU = utime + stime of the service process from /proc/PID/stat over a window of
several polls, divided by the number of drive collections that happened in it
(wearwatch_drive_collections_total). Written to vm-service-cost.json in the
artifacts directory and quoted in docs/benchmarks.md. The check asserts that the
window really covered polls of all three drives; the figure itself is a
benchmark, not a pass/fail threshold.
"""
import json
import os
import time

WINDOW_S = 20


def _cpu_ticks(vm):
    rc, out = vm.run('P=$(cat /run/wearwatch.pid); '
                     'echo "$(cut -d" " -f14,15 /proc/$P/stat) $(getconf CLK_TCK)"\n', timeout=30)
    u, s, hz = (int(x) for x in out.split()[:3])
    return u + s, hz


def _collections(ctx):
    samples = ctx.c.scrape("cost")[2]
    return {k: ctx.one(samples, "wearwatch_drive_collections_total", i) or 0
            for k, i in ctx.ids.items()}


def run(ctx):
    def cost():
        c0 = _collections(ctx)
        t0, hz = _cpu_ticks(ctx.vm)
        w0 = time.time()
        time.sleep(WINDOW_S)
        t1, _ = _cpu_ticks(ctx.vm)
        w1 = time.time()
        c1 = _collections(ctx)
        per = {k: c1[k] - c0[k] for k in c0}
        n = sum(per.values())
        cpu_s = (t1 - t0) / hz
        res = {
            "window_s": round(w1 - w0, 1), "poll_interval_s": ctx.poll,
            "collections": per, "service_cpu_s": cpu_s,
            "cpu_ms_per_collection": round(1000 * cpu_s / n, 2) if n else None,
            "cpu_ms_per_poll_of_3_drives": round(3000 * cpu_s / n, 2) if n else None,
            "note": "TCG guest, 1 vCPU; includes the scrapes that bracket the window",
        }
        with open(os.path.join(ctx.vm.art, "vm-service-cost.json"), "w") as f:
            json.dump(res, f, indent=1)
        ok = all(v >= 3 for v in per.values())
        return ok, ("%.2f s CPU over %.0f s for %s collections = %s ms CPU per collection "
                    "(want >= 3 collections of each drive in the window)"
                    % (cpu_s, w1 - w0, per, res["cpu_ms_per_collection"]))
    ctx.c.check("service_cpu_per_poll", cost)
