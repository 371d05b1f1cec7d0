"""Latency drift in service (docs/health.md "Latency drift") in the VM, in
the one boot: `latency_drift` raised by an injected delay and cleared after
it is removed.

The service runs with `--probe-drift-interval 0` (SERVE_ARGS): no drive has
a drift schedule, so none of the other modules sees a drift burst (one on
the SATA disk would keep it from suspending). This module then gives the
scsi_debug disk alone a short schedule through the configuration file that
checks_50_health.py passes with --config, a `[drive ID]` section with
`probe = drift-interval=2,drift-seconds=3,drift-qd=4,count=4` (light
bursts of 4 reads, so that at the injected delay they leave the disk idle
for the drift slices, which wait for due light probes), the baseline's default
length, `latency_drift_bursts = 5`, and `latency_drift_percent = 200`;
SIGHUP reloads it (a drive without a drift schedule gets one at the next
scan, its first burst one interval later). Why not the default +30 %:
under TCG on the shared 2-core host a burst's p99 at delay 0 is the host's
scheduling, not the disk: 4.2-5.7 ms in one run, 10.7-24.2 ms in the next
and 20-54 ms after the delay was removed in that one, 16-48 ms in a third,
so a +30 % limit says how busy the host is, and so does a fixed injection
(50 ms was under 3 x a 39 ms baseline). What is tested is the mechanism
(raised above baseline x (1 + percent/100), cleared back within it, the
raised bursts kept out of the baseline) with an injection of 10 x the
baseline's p99 (at least 50 ms, at most 900 ms: scsi_debug takes less
than 1 s), far above the host's noise;
the default's arithmetic is tested on burst series in test_model_drift.
History is on (--state-dir, checks_10_endurance.py): the baseline is kept
in it.

Checks, with where the expected values come from:
- drift_baseline: bursts arrive every few seconds at depth 4, the API's
  `probe.drift.baseline_bursts` reaches 5 and no burst before the injection
  is `latency_drift`.
- drift_raised: scsi_debug's delay raised through its driver attribute
  (`echo NS >/sys/bus/pseudo/drivers/scsi_debug/ndelay`: every command is
  answered NS late; kernel Documentation/scsi/scsi_debug.rst), 10 x the
  baseline. The burst after the one in progress at the switch has a p99 of
  at least the delay scsi_debug waits (no injected read completes sooner), above the
  baseline by more than 200 %: the verdict has `latency_drift` (warning)
  with `value` the burst's p99 and `baseline` the API's
  baseline_p99_seconds, in us, and `limit` 3 x baseline; /metrics has
  wearwatch_drive_health_reason{reason="latency_drift"} 1 and the same
  numbers in
  wearwatch_drive_health_reason_value; the notification recorder of
  checks_50_health.py got "latency_drift" among the reason codes.
- drift_cleared: `echo 0 >.../delay` (delay and ndelay both 0: writing
  ndelay=0 alone would bring back the default one-jiffy delay). The first
  burst whose p99 is back within the limit clears the reason (API and
  /metrics): the one in progress at the switch may already be; under TCG
  on a shared host a burst can jitter above the limit, so up to 5 bursts
  are waited for and the detail says how many it took. The first burst
  after the switch was compared with the same baseline as the injected
  ones: they did not enter it. Afterwards the section is removed again
  (SIGHUP) and the delay stays 0.
"""
import json
import os
import re
import time

SERVE_ARGS = ["--probe-drift-interval", "0"]
INTERVAL_S, SECONDS, QD, BURSTS, PERCENT, COUNT = 2, 3, 4, 5, 200, 4
# the injected delay: 10 x the baseline's p99, at least 50 ms, below
# scsi_debug's limit of 1 s
NDELAY_MIN_NS, NDELAY_MAX_NS, NDELAY_TIMES = 50000000, 900000000, 10
SDEBUG = "/sys/bus/pseudo/drivers/scsi_debug"
CONF = ("[drive %%s]\nprobe = drift-interval=%d,drift-seconds=%d,drift-qd=%d,count=%d\n"
        "latency_drift_bursts = %d\nlatency_drift_percent = %d\n" % (
            INTERVAL_S, SECONDS, QD, COUNT, BURSTS, PERCENT))

# a driver attribute write answers EBUSY while commands are queued: retry
SET = r"""
i=0
until echo %(v)s >%(d)s/%(attr)s 2>/dev/null; do
	i=$((i + 1)); [ $i -ge 3000 ] && { echo "write failed"; exit 1; }; sleep 0.01
done
echo "retries=$i delay=$(cat %(d)s/delay) ndelay=$(cat %(d)s/ndelay)"
"""


def _conf_path(ctx):
    return os.path.join(ctx.vm.share, "health", "wearwatch.conf")


def _hup(ctx):
    ctx.vm.run('kill -HUP "$(cat /run/wearwatch.pid)"\n')


def _drive(ctx, sid, tag):
    """The API's record of one drive (saved under scrapes/)."""
    st, body, _ = ctx.vm.http("/api/v1/drives/%s" % sid)
    ctx.c.scrape_n += 1
    p = os.path.join(ctx.vm.art, "scrapes", "%03d-%s.json" % (ctx.c.scrape_n, tag))
    with open(p, "w") as f:
        f.write(body if st else "ERROR %s\n" % body)
    try:
        return json.loads(body) if st == 200 else {}
    except ValueError:
        return {}


def _drift(doc):
    return ((doc.get("probe") or {}).get("drift")) or {}


def _reason(doc):
    for r in (doc.get("verdict") or {}).get("reasons", []):
        if r.get("code") == "latency_drift":
            return r
    return None


def _metrics_reason(ctx, sid, tag):
    samples = ctx.c.scrape(tag)[2]
    on = ctx.one(samples, "wearwatch_drive_health_reason", sid, reason="latency_drift")
    vals = {lb.get("kind"): v for n, lb, v in samples
            if n == "wearwatch_drive_health_reason_value" and lb.get("drive") == sid
            and lb.get("reason") == "latency_drift"}
    return on, vals


def _next_burst(ctx, sid, after, tag, timeout):
    """The API record once a drift burst that ended after `after` (Unix time,
    the guest's clock) is shown; None after timeout."""
    end = time.time() + timeout
    while time.time() < end:
        doc = _drive(ctx, sid, tag)
        if (_drift(doc).get("timestamp") or 0) > after:
            return doc
        time.sleep(0.5)
    return None


def _events(ctx, sid):
    """checks_50_health's recorded notifications of the drive that name
    latency_drift: their EVENT"""
    d = os.path.join(ctx.vm.share, "health", "events")
    out = []
    for p in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if p.endswith(".env"):
            with open(os.path.join(d, p)) as f:
                ev = f.read()
            if "DRIVE=%s\n" % sid in ev and "latency_drift" in ev:
                out.append(re.search(r"^EVENT=(.*)$", ev, re.M).group(1))
    return out


def _guest_now(ctx):
    rc, out = ctx.vm.run("date +%s.%N\n")
    return float(out.strip().splitlines()[-1])


def _set(ctx, attr, v):
    rc, out = ctx.vm.run(SET % {"v": v, "d": SDEBUG, "attr": attr}, timeout=60)
    return rc == 0, out.strip()


def _show(doc):
    d = _drift(doc)
    return "p99 %.0f us (base %s of %s bursts, reads %s)" % (
        (d.get("p99_seconds") or 0) * 1e6,
        "%.0f us" % (d["baseline_p99_seconds"] * 1e6) if d.get("baseline_p99_seconds") else "none",
        d.get("baseline_bursts"), d.get("reads"))


def run(ctx):
    sid = ctx.ids.get("sas")
    conf = _conf_path(ctx)
    if not sid or not os.path.exists(conf):
        ctx.c.record(False, "drift_plugin", "needs the SAS drive id (%s) and checks_50_health's "
                     "--config file %s" % (sid, conf))
        return
    with open(conf) as f:
        saved = f.read()
    state = {}
    try:
        _run(ctx, sid, conf, saved, state)
    finally:
        with open(conf, "w") as f:
            f.write(saved)
        _hup(ctx)
        _set(ctx, "delay", 0)


def _run(ctx, sid, conf, saved, state):
    ok, out = _set(ctx, "delay", 0)
    with open(conf, "w") as f:
        f.write(saved + CONF % sid)
    _hup(ctx)

    def baseline():
        seen, raised = [], []
        end = time.time() + 40 + BURSTS * (INTERVAL_S + SECONDS) * 4
        last = 0
        while time.time() < end:
            doc = _next_burst(ctx, sid, last, "drift-base", 30)
            if not doc:
                break
            d = _drift(doc)
            last = d["timestamp"]
            seen.append("%.0f" % ((d.get("p99_seconds") or 0) * 1e6))
            if _reason(doc):
                raised.append(_reason(doc).get("text"))
            if (d.get("baseline_bursts") or 0) >= BURSTS:
                state["base"] = d
                break
        ok = "base" in state and not raised
        return ok, ("burst p99s (us) %s; then %s; latency_drift before the injection: %s" % (
            " ".join(seen), _show({"probe": {"drift": state.get("base", {})}}), raised or "none"))
    ctx.c.check("drift_baseline", baseline)
    if "base" not in state:
        return

    def raised():
        base_ns = (state["base"].get("baseline_p99_seconds") or 0) * 1e9
        ndelay = int(min(NDELAY_MAX_NS, max(NDELAY_MIN_NS, NDELAY_TIMES * base_ns)))
        t0 = _guest_now(ctx)
        ok, out = _set(ctx, "ndelay", ndelay)
        if not ok:
            return False, "ndelay write: %s" % out
        # the burst in progress at the switch is mixed: judged is the next
        first = _next_burst(ctx, sid, t0, "drift-switch", 4 * (INTERVAL_S + SECONDS) + 30)
        doc = first and _next_burst(ctx, sid, _drift(first)["timestamp"], "drift-injected",
                                    4 * (INTERVAL_S + SECONDS) + 30)
        if not doc:
            return False, "no drift burst after the injection (%s)" % out
        end = time.time() + 10  # the verdict and the notification follow the burst
        while True:
            doc = _drive(ctx, sid, "drift-injected")
            codes = _events(ctx, sid)
            if (_reason(doc) and codes) or time.time() > end:
                break
            time.sleep(0.5)
        d, r = _drift(doc), _reason(doc)
        on, vals = _metrics_reason(ctx, sid, "drift-injected")
        base_us = (d.get("baseline_p99_seconds") or 0) * 1e6
        p99_us = (d.get("p99_seconds") or 0) * 1e6
        state["raised_base"] = d.get("baseline_p99_seconds")
        good = (r is not None and r.get("severity") == "warning" and p99_us >= ndelay / 1e3 and
                abs(r.get("value", 0) - p99_us) <= 1 and abs(r.get("baseline", 0) - base_us) <= 1 and
                abs(r.get("limit", 0) - base_us * (100 + PERCENT) / 100) <= 1 and on == 1 and
                vals.get("value") == r.get("value") and vals.get("baseline") == r.get("baseline") and
                bool(codes))
        return good, ("%s; ndelay %d ns: burst at the switch %s; next burst %s; API reason %s; "
                      "/metrics reason %s values %s; notifications %s" % (
                          out, ndelay, _show(first), _show(doc), r and {
                              k: r.get(k) for k in ("severity", "value", "baseline", "limit",
                                                    "unit", "text")}, on, vals, codes))
    ctx.c.check("drift_raised", raised)

    def cleared():
        t0 = _guest_now(ctx)
        ok, out = _set(ctx, "delay", 0)
        if not ok:
            return False, "delay write: %s" % out
        # from the burst in progress at the switch on (it may already be
        # within the limit), until one is
        seen, last, doc, first = [], t0, None, None
        for _ in range(5):
            doc = _next_burst(ctx, sid, last, "drift-removed", 4 * (INTERVAL_S + SECONDS) + 30)
            if not doc:
                break
            last = _drift(doc)["timestamp"]
            time.sleep(1)  # the verdict after the burst
            doc = _drive(ctx, sid, "drift-removed")
            first = first or doc
            seen.append(_show(doc) + (" raised" if _reason(doc) else " cleared"))
            if not _reason(doc):
                break
        on, vals = _metrics_reason(ctx, sid, "drift-removed")
        b0 = _drift(first or {}).get("baseline_p99_seconds")
        good = (doc is not None and not _reason(doc) and on is None and not vals and
                b0 == state.get("raised_base"))
        return good, ("%s; bursts from the switch on: %s; /metrics latency_drift %s; the first "
                      "was compared with a baseline of %.0f us, as the injected ones (%.0f us): "
                      "they did not enter it" % (out, "; ".join(seen), on, (b0 or 0) * 1e6,
                                                 (state.get("raised_base") or 0) * 1e6))
    ctx.c.check("drift_cleared", cleared)
