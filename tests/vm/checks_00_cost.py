"""What polling costs, measured in the guest, fresh and with a week of history.

The suite's service runs with latency probes (SERVE_ARGS of checks_10_probe),
so its CPU time would mix probes and polls. This check starts a second,
probe-free `wearwatch serve` in the guest on its own port and state directory,
keeps the SATA disk awake for the window (power/control=on, restored to auto
afterwards, and when it was runtime-suspended before, waited for until it is
again, so the probe checks after this module see the disk as they expect),
and divides the second
instance's CPU time (the run time in ns of its threads from
/proc/PID/task/*/schedstat; utime + stime from /proc/PID/stat, in 10 ms
ticks, where the kernel has no schedstat) by the collections it
made (its wearwatch_drive_collections_total). It does so twice: with a new
history database, then after scripts/mkhistory.py wrote a week of history at
the default 60 s poll into that database for the three drives (continuing
their own bytes written and power-on time, so the service's samples extend
it). The wall time of each read is its wearwatch_drive_collect_duration_seconds.
Beside them: `smartctl -j -x` CPU time per drive, from the suite's timing
check (vm-timing.json), and the ratio of a poll of the three drives to it.
Results go to vm-service-cost.json in the artifacts directory and are quoted
in docs/benchmarks.md.

The check asserts that each window really covered polls of all three drives
and that every one succeeded; the figures themselves are a benchmark, not a
pass/fail threshold.
"""
import json
import os
import re

WINDOW_S = 30
PORT = 9799

SCRIPT = r"""
WW=%(ww)s
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
was=$(cat "$d/power/runtime_status")
for p in "$d" "$port"; do echo on >"$p/power/control"; done
[ -n "%(seed)s" ] || { rm -rf /tmp/ww-cost; mkdir -p /tmp/ww-cost; }
if [ -n "%(seed)s" ]; then
	/usr/bin/python3 %(src)s/scripts/mkhistory.py /tmp/ww-cost/history.db $(( $(date +%%s) - 30 )) 7 %(seed)s \
		>/dev/null || echo "seeding failed"
	echo "seeded: $(du -k /tmp/ww-cost/history.db | cut -f1) KiB"
fi
"$WW" serve --listen 127.0.0.1:%(port)d --no-probe --poll-interval 2 --poll-interval-rotational 2 \
	--state-dir /tmp/ww-cost >/tmp/ww-cost/log 2>&1 &
P=$!
scrape() { curl -s http://127.0.0.1:%(port)d/metrics; }
i=0; until scrape | grep -q '^wearwatch_drive_collections_total'; do sleep 0.5; i=$((i+1)); [ $i -gt 60 ] && break; done
sleep 3   # past every drive's first (cold) read
hz=$(getconf CLK_TCK)
# run time in ns of every thread (the pools live as long as the process)
ns() { cat /proc/$P/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%%d", s}'; }
n0=$(ns)
t0=$(cut -d' ' -f14,15 /proc/$P/stat)
scrape >/tmp/ww-cost/m0
sleep %(window)d
t1=$(cut -d' ' -f14,15 /proc/$P/stat)
n1=$(ns)
scrape >/tmp/ww-cost/m1
kill $P; wait $P
for p in "$d" "$port"; do echo auto >"$p/power/control"; done
# left as found: a disk that was runtime-suspended suspends again (the
# probe checks after this module start from a suspended SATA disk)
i=0
while [ "$was" = suspended ] && [ "$(cat "$d/power/runtime_status")" != suspended ] && [ $i -lt 120 ]; do
	sleep 0.5; i=$((i+1))
done
echo "hz=$hz t0=$t0 t1=$t1 ns=$n0 $n1"
M='^wearwatch_drive_(collections_total|collect_duration_seconds|collect_success|info|host_written_bytes_total|power_on_seconds_total)'
echo "--m0"; grep -E "$M" /tmp/ww-cost/m0
echo "--m1"; grep -E "$M" /tmp/ww-cost/m1
"""


def _series(text, name):
    out = {}
    for line in text.splitlines():
        m = re.match(r'%s\{drive="([^"]+)"[^}]*\} (\S+)' % name, line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def _measure(ctx, seed):
    """One window; (result dict, m1 text) or (None, reason)."""
    src = os.path.abspath(ctx.vm.args.source)
    rc, out = ctx.vm.run(SCRIPT % {"ww": ctx.binary, "port": PORT, "window": WINDOW_S,
                                   "seed": seed, "src": src}, timeout=WINDOW_S + 150)
    m = re.search(r"hz=(\d+) t0=(\d+) (\d+) t1=(\d+) (\d+) ns=(\d*) (\d*)", out)
    if not m or "--m1" not in out:
        return None, "no measurement: %s" % out[-400:]
    hz = int(m.group(1))
    tick_s = (int(m.group(4)) + int(m.group(5)) - int(m.group(2)) - int(m.group(3))) / hz
    # schedstat's run time (ns) where the kernel has it: the ticks of
    # /proc/PID/stat count 10 ms at a time, a tenth of the window's CPU
    ns_s = (int(m.group(7)) - int(m.group(6))) / 1e9 if m.group(6) and m.group(7) else None
    cpu_s = ns_s if ns_s else tick_s
    m0, m1 = out.split("--m1")
    c0 = _series(m0, "wearwatch_drive_collections_total")
    c1 = _series(m1, "wearwatch_drive_collections_total")
    kinds = {v: k for k, v in ctx.ids.items()}
    per = {kinds.get(i, i): c1[i] - c0.get(i, 0) for i in c1 if i in kinds}
    n = sum(per.values())
    seeded = re.search(r"seeded: (\d+) KiB", out)
    return {
        "collections": per, "service_cpu_s": round(cpu_s, 6),
        "cpu_source": "schedstat" if ns_s else "utime+stime ticks",
        "service_cpu_s_in_ticks": tick_s,
        "cpu_ms_per_collection": round(1000 * cpu_s / n, 3) if n else None,
        "cpu_ms_per_poll_of_3_drives": round(3000 * cpu_s / n, 3) if n else None,
        "last_read_wall_s": {kinds.get(i, i): v for i, v in
                             _series(m1, "wearwatch_drive_collect_duration_seconds").items() if i in kinds},
        "success": {kinds.get(i, i): v for i, v in
                    _series(m1, "wearwatch_drive_collect_success").items() if i in kinds},
        "history_kib": int(seeded.group(1)) if seeded else None,
        "seeding_failed": "seeding failed" in out,
    }, m1


def _smartctl_cpu(ctx):
    """smartctl -j -x CPU seconds per drive (medians), from the timing check."""
    try:
        with open(os.path.join(ctx.vm.art, "vm-timing.json")) as f:
            med = json.load(f)["per_drive_median"]
    except (OSError, ValueError, KeyError):
        return {}
    return {k.split(" ", 1)[1]: v["cpu_s"] for k, v in med.items() if k.startswith("smartctl_x ")}


def _seed_args(ctx, m1):
    """mkhistory.py drive arguments: id[=written,power_on] per drive"""
    w = _series(m1, "wearwatch_drive_host_written_bytes_total")
    poh = _series(m1, "wearwatch_drive_power_on_seconds_total")
    args = []
    for i in ctx.ids.values():
        args.append("%s=%d,%d" % (i, w[i], poh[i]) if i in w and i in poh else i)
    return " ".join("'%s'" % a for a in args)


def run(ctx):
    def cost():
        fresh, m1 = _measure(ctx, "")
        if fresh is None:
            return False, m1
        week, why = _measure(ctx, _seed_args(ctx, m1))
        if week is None:
            return False, why
        smart = _smartctl_cpu(ctx)
        smart_poll = sum(smart.values()) if len(smart) == 3 else None
        res = {
            "window_s": WINDOW_S, "poll_interval_s": 2, "probes": "off (second instance)",
            "fresh": fresh, "week_of_history": week,
            "smartctl_x_cpu_s_per_drive": smart,
            "smartctl_x_cpu_s_per_poll_of_3_drives": smart_poll,
            "smartctl_over_service_poll": {
                k: round(smart_poll / (r["cpu_ms_per_poll_of_3_drives"] / 1000), 1)
                for k, r in (("fresh", fresh), ("week_of_history", week))
                if smart_poll and r["cpu_ms_per_poll_of_3_drives"]},
            "note": "TCG guest, 1 vCPU; the suite's own service (with probes) runs meanwhile",
        }
        with open(os.path.join(ctx.vm.art, "vm-service-cost.json"), "w") as f:
            json.dump(res, f, indent=1)
        ok = all(len(r["collections"]) == 3 and all(v >= 5 for v in r["collections"].values())
                 and all(r["success"].get(k) == 1 for k in ("nvme", "sata", "sas"))
                 and not r["seeding_failed"] for r in (fresh, week))
        return ok, ("CPU per collection: fresh %s ms, with a week of history (%s KiB) %s ms; "
                    "collections %s / %s; smartctl -j -x %s s CPU per poll of 3 drives = %s x a service "
                    "poll (want >= 5 successful collections of each drive in each window)"
                    % (fresh["cpu_ms_per_collection"], week["history_kib"],
                       week["cpu_ms_per_collection"], fresh["collections"], week["collections"],
                       smart_poll, res["smartctl_over_service_poll"]))
    ctx.c.check("service_cpu_per_poll", cost)
