"""Probe summaries in the history database, in the VM.

The service runs with --state-dir (checks_10_endurance) and probes every few
seconds (checks_10_probe), so by now the QEMU NVMe drive has finished many
bursts. Checks:

- probe_history_last_burst: the drive's last finished burst in the JSON API
  (`probe.last`: timestamp, max_seconds) is in the history under the same
  time: `probe_latency_max_seconds` equal to `last.max_seconds`, and
  `probe_latency_p50_seconds` / `probe_latency_p99_seconds` of that burst are
  > 0 and not above its max (+1 %: p50/p99 are histogram bucket values within
  1 %, max is exact);
- probe_history_points: over the last 10 minutes there are several bursts,
  each with p50 <= p99 <= max (+1 %) at the same time.
"""
import json
import time


def _get(ctx, path):
    st, body, _ = ctx.vm.http(path)
    try:
        return st, json.loads(body)
    except ValueError:
        return st, None


def _hist(ctx, nv, metric, frm, to):
    st, doc = _get(ctx, "/api/v1/drives/%s/history?metric=%s&from=%d&to=%d&max_points=10000"
                   % (nv, metric, frm, to))
    pts = (doc or {}).get("points") or []
    return st, {p[0]: p[1] for p in pts}


def run(ctx):
    nv = ctx.ids.get("nvme")
    state = {}

    def last_burst():
        if not nv:
            return False, "no NVMe drive id"
        detail = "no finished burst"
        for _ in range(20):
            st, d = _get(ctx, "/api/v1/drives/%s" % nv)
            last = ((d or {}).get("probe") or {}).get("last") or {}
            ts, mx = last.get("timestamp"), last.get("max_seconds")
            if st == 200 and ts and mx:
                s1, hmax = _hist(ctx, nv, "probe_latency_max_seconds", ts - 1, ts + 1)
                s2, h50 = _hist(ctx, nv, "probe_latency_p50_seconds", ts - 1, ts + 1)
                s3, h99 = _hist(ctx, nv, "probe_latency_p99_seconds", ts - 1, ts + 1)
                state["now"] = ts
                if ts in hmax and ts in h50 and ts in h99:
                    m, p50, p99 = hmax[ts], h50[ts], h99[ts]
                    ok = (s1 == s2 == s3 == 200 and m is not None and abs(m - mx) <= 1e-6 * mx
                          and p50 and p99 and 0 < p50 <= p99 * 1.01 and p99 <= m * 1.01)
                    return ok, ("burst at %d: API max %.6g s; history max %s, p50 %s, p99 %s"
                                % (ts, mx, m, p50, p99))
                detail = "burst at %d not (yet) in the history: %s %s %s" % (ts, hmax, h50, h99)
            time.sleep(0.5)
        return False, detail
    ctx.c.check("probe_history_last_burst", last_burst)

    def points():
        if not nv or "now" not in state:
            return None, "no burst seen"
        now = state["now"]
        _, hmax = _hist(ctx, nv, "probe_latency_max_seconds", now - 600, now)
        _, h50 = _hist(ctx, nv, "probe_latency_p50_seconds", now - 600, now)
        _, h99 = _hist(ctx, nv, "probe_latency_p99_seconds", now - 600, now)
        ts = sorted(t for t in hmax if t in h50 and t in h99 and hmax[t] is not None)
        bad = [t for t in ts if not (0 < h50[t] <= h99[t] * 1.01 and h99[t] <= hmax[t] * 1.01)]
        ok = len(ts) >= 3 and not bad
        med = sorted(h50[t] for t in ts)[len(ts) // 2] if ts else None
        return ok, ("%d bursts in the last 10 min, median p50 %s s, out of order at %s"
                    % (len(ts), med, bad[:5]))
    ctx.c.check("probe_history_points", points)
