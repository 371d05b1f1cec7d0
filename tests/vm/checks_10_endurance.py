"""Endurance model in the VM.

The QEMU NVMe drive (serial WWNVME0001) gets a configured rating of 10 DWPD for
5 years on a 1 GB capacity basis: rated bytes = 10 x 10^9 x 365 x 5 =
18.25 x 10^12. Writing 100 MiB in the guest must move
wearwatch_drive_rated_endurance_used_ratio by exactly the change of
wearwatch_drive_host_written_bytes_total divided by that rating, and that change
must be 100 MiB to within the NVMe data-unit granularity (512,000 bytes; QEMU
rounds units up). The history endpoint must hold the drive's samples.
"""
import json
import time

RATED = 10 * 10**9 * 365 * 5
SERVE_ARGS = ["--state-dir", "/tmp/wearwatch-state", "--rating", "WWNVME0001=10:5:1000000000"]
MIB100 = 100 * 1024 * 1024


def _vals(ctx, tag):
    samples = ctx.c.scrape(tag)[2]
    nv = ctx.ids.get("nvme")
    return (ctx.one(samples, "wearwatch_drive_host_written_bytes_total", nv),
            ctx.one(samples, "wearwatch_drive_rated_endurance_used_ratio", nv, source="config"),
            ctx.one(samples, "wearwatch_drive_rated_written_bytes", nv, source="config"),
            samples)


def run(ctx):
    nv = ctx.ids.get("nvme")
    state = {}

    def rating():
        if not nv:
            return False, "no NVMe drive id"
        w, r, rated, samples = _vals(ctx, "endurance-before")
        state["before"] = (w, r)
        info = ctx.series(samples, "wearwatch_drive_rating_info", nv)
        ok = rated == RATED and r is not None and w is not None and abs(r - w / RATED) < 1e-12
        return ok, "rated %s (want %d), used %s, written %s, info %s" % (rated, RATED, r, w, info)
    ctx.c.check("endurance_rating_configured", rating)

    def write_moves_ratio():
        if "before" not in state or state["before"][0] is None:
            return None, "no baseline"
        rc, out = ctx.vm.run("dd if=/dev/urandom of=$NVME_NS bs=1M count=100 oflag=direct "
                             "conv=fsync 2>&1 | tail -1\n", timeout=300)
        if rc != 0:
            return False, "dd rc %d: %s" % (rc, out[-200:])
        w0, r0 = state["before"]
        deadline = time.time() + 6 * ctx.poll + 30
        while time.time() < deadline:
            time.sleep(ctx.poll)
            w1, r1, _, _ = _vals(ctx, "endurance-after")
            if w1 is not None and w1 - w0 >= MIB100 - 512000:
                break
        dw = w1 - w0
        dr = r1 - r0
        want = dw / RATED
        ok = (MIB100 - 512000 <= dw <= MIB100 + 2 * 512000 and abs(dr - want) < 1e-12
              and abs(dr - MIB100 / RATED) < 2 * 512000 / RATED)
        return ok, ("host written +%d bytes (100 MiB = %d), rated endurance used %.9g -> %.9g "
                    "(+%.6g; expected +%.6g = delta/%.4g, 100 MiB alone +%.6g)"
                    % (dw, MIB100, r0, r1, dr, want, RATED, MIB100 / RATED))
    ctx.c.check("endurance_write_moves_rated_used", write_moves_ratio)

    def api_and_history():
        st, doc = ctx.c.api("endurance-api")
        drives = doc if isinstance(doc, list) else []
        d = next((x for x in drives if x.get("id") == nv), None)
        e = (d or {}).get("endurance") or {}
        rating_ok = (e.get("rating", {}).get("source") == "config"
                     and e.get("rating", {}).get("capacity_basis") == "config")
        # The default range is the last 7 days: with more samples than
        # max_points they are bucketed into 3.4 h buckets, and the minutes
        # this test ran fall into one or two of them depending on the time of
        # day. So the range asked is the half hour before the drive's last
        # collection (36 s buckets), where the polls before and after the
        # write are points of their own.
        samples = ctx.c.scrape("endurance-history")[2]
        last = ctx.one(samples, "wearwatch_drive_last_collect_timestamp_seconds", nv)
        t = int(last or time.time())
        st2, body, _ = ctx.vm.http("/api/v1/drives/%s/history?metric=host_written_bytes"
                                   "&from=%d&to=%d&max_points=50" % (nv, t - 1800, t + 5))
        try:
            h = json.loads(body)
        except ValueError:
            h = {}
        pts = h.get("points") or []
        ok = rating_ok and st2 == 200 and len(pts) >= 2 and pts[-1][1] >= pts[0][1]
        st3, _, _ = ctx.vm.http("/api/v1/drives/%s/history?metric=nope" % nv)
        ok = ok and st3 == 400
        return ok, "endurance %s; history %s with %d points (last %s); bad metric -> %s" % (
            json.dumps(e)[:400], st2, len(pts), pts[-1] if pts else None, st3)
    ctx.c.check("endurance_api_and_history", api_and_history)
