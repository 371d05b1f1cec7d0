"""What polling costs, measured in the guest.

The suite's service runs with latency probes (SERVE_ARGS of checks_10_probe),
so its CPU time would mix probes and polls. This check starts a second,
probe-free `wearwatch serve` in the guest on its own port and state directory,
keeps the SATA disk awake for the window (power/control=on, restored to auto
afterwards so the suspend checks see the same disk), and divides the second
instance's CPU time (utime + stime from /proc/PID/stat) by the collections it
made (its wearwatch_drive_collections_total). The wall time of each read is its
wearwatch_drive_collect_duration_seconds. Results go to vm-service-cost.json in
the artifacts directory and are quoted in docs/benchmarks.md.

The check asserts that the window really covered polls of all three drives and
that every one succeeded; the figures themselves are a benchmark, not a
pass/fail threshold.
"""
import json
import os
import re

WINDOW_S = 20
PORT = 9799

SCRIPT = r"""
WW=%(ww)s
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
for p in "$d" "$port"; do echo on >"$p/power/control"; done
rm -rf /tmp/ww-cost; mkdir -p /tmp/ww-cost
"$WW" serve --listen 127.0.0.1:%(port)d --no-probe --poll-interval 2 --poll-interval-rotational 2 \
	--state-dir /tmp/ww-cost >/tmp/ww-cost/log 2>&1 &
P=$!
scrape() { curl -s http://127.0.0.1:%(port)d/metrics; }
i=0; until scrape | grep -q '^wearwatch_drive_collections_total'; do sleep 0.5; i=$((i+1)); [ $i -gt 60 ] && break; done
sleep 3   # past every drive's first (cold) read
hz=$(getconf CLK_TCK)
t0=$(cut -d' ' -f14,15 /proc/$P/stat)
scrape >/tmp/ww-cost/m0
sleep %(window)d
t1=$(cut -d' ' -f14,15 /proc/$P/stat)
scrape >/tmp/ww-cost/m1
kill $P; wait $P
for p in "$d" "$port"; do echo auto >"$p/power/control"; done
echo "hz=$hz t0=$t0 t1=$t1"
echo "--m0"; grep -E '^wearwatch_drive_(collections_total|collect_duration_seconds|collect_success|info)' /tmp/ww-cost/m0
echo "--m1"; grep -E '^wearwatch_drive_(collections_total|collect_duration_seconds|collect_success|info)' /tmp/ww-cost/m1
"""


def _series(text, name):
    out = {}
    for line in text.splitlines():
        m = re.match(r'%s\{drive="([^"]+)"[^}]*\} (\S+)' % name, line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def run(ctx):
    def cost():
        rc, out = ctx.vm.run(SCRIPT % {"ww": ctx.binary, "port": PORT, "window": WINDOW_S},
                             timeout=WINDOW_S + 90)
        m = re.search(r"hz=(\d+) t0=(\d+) (\d+) t1=(\d+) (\d+)", out)
        if not m or "--m1" not in out:
            return False, "no measurement: %s" % out[-400:]
        hz = int(m.group(1))
        cpu_s = (int(m.group(4)) + int(m.group(5)) - int(m.group(2)) - int(m.group(3))) / hz
        m0, m1 = out.split("--m1")
        c0 = _series(m0, "wearwatch_drive_collections_total")
        c1 = _series(m1, "wearwatch_drive_collections_total")
        dur = _series(m1, "wearwatch_drive_collect_duration_seconds")
        ok_ = _series(m1, "wearwatch_drive_collect_success")
        kinds = {v: k for k, v in ctx.ids.items()}
        per = {kinds.get(i, i): c1[i] - c0.get(i, 0) for i in c1 if i in kinds}
        n = sum(per.values())
        res = {
            "window_s": WINDOW_S, "poll_interval_s": 2, "probes": "off (second instance)",
            "collections": per, "service_cpu_s": cpu_s,
            "cpu_ms_per_collection": round(1000 * cpu_s / n, 2) if n else None,
            "cpu_ms_per_poll_of_3_drives": round(3000 * cpu_s / n, 2) if n else None,
            "last_read_wall_s": {kinds.get(i, i): v for i, v in dur.items() if i in kinds},
            "note": "TCG guest, 1 vCPU; the suite's own service (with probes) runs meanwhile",
        }
        with open(os.path.join(ctx.vm.art, "vm-service-cost.json"), "w") as f:
            json.dump(res, f, indent=1)
        ok = (len(per) == 3 and all(v >= 5 for v in per.values())
              and all(ok_.get(ctx.ids[k]) == 1 for k in ("nvme", "sata", "sas")))
        return ok, ("%.2f s CPU over %d s for %s collections = %s ms CPU per collection, "
                    "last read wall %s (want >= 5 successful collections of each drive)"
                    % (cpu_s, WINDOW_S, per, res["cpu_ms_per_collection"], res["last_read_wall_s"]))
    ctx.c.check("service_cpu_per_poll", cost)
