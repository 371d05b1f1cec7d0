"""Capture and replay fidelity in the VM (docs/capture-format.md).

In the one boot, after the base checks (which leave the SATA disk runtime-
suspended with autosuspend on):

1. `wearwatch capture $SATA` while the disk is runtime-suspended: the capture
   must hold the drive's facts (runtime_status suspended) and no command, and
   the disk must still be suspended afterwards (capturing never wakes it).
2. The SATA disk is resumed and kept on (power/control "on"); each live drive
   is captured into the artifacts share (share/captures/<role>/), the SATA disk
   a second time with --redact (share/captures/sata-redacted/).
3. A second service, `wearwatch serve --replay <the three dirs>` on
   127.0.0.1:9787, is scraped next to the live one (right after a live poll that
   followed the captures); every /metrics series of the three drives must have
   the same value, apart from the series docs/capture-format.md excludes
   (durations, timestamps, last-read, probe figures, build/process metrics, the
   backend label). Counters that moved between the capture and the live poll
   (the latency probe's reads on the NVMe drive) make a try fail: it is retried
   with fresh captures, three tries at most.

The captures in tests/fixtures/captures/ were copied from share/captures/ of a
run of this check (see tests/fixtures/captures/README.md).
"""
import os
import re
import time

PORT2 = 9787
CAP = "/run/ww-share/captures"

# docs/capture-format.md, "Replay fidelity": excluded series.
EXCLUDE = [
    re.compile(r"_duration_seconds"),
    re.compile(r"_timestamp_seconds$"),
    re.compile(r"_last_read"),
    re.compile(r"^wearwatch_build_info$"),
    re.compile(r"^(process|go|promhttp|wearwatch_scrape|wearwatch_http)_"),
    re.compile(r"^wearwatch_probe_"),          # latency probe (timing of the live drive's reads)
    re.compile(r"^wearwatch_drive_collections_total$"),   # how often each service polled
    re.compile(r"^wearwatch_drive_collect_errors_total$"),
    # the endurance model's figures from the service's own history window
    re.compile(r"^wearwatch_drive_(writes_per_day|wearout_timestamp_seconds|workload_utilization_ratio"
               r"|write_amplification_ratio)$"),
]
IGNORED_LABELS = ("backend",)

# Read-side counters the live service's own latency probe moves (it reads the
# live drive between the capture and the live poll; the replayed drive is not
# probed): accepted when live - replay is within what the probe read in that
# window (wearwatch_probe_read_latency_seconds_count + _errors_total deltas),
# in commands, 512,000-byte data units (rounded up) or bytes.
PROBE_MOVED = {
    "wearwatch_drive_nvme_host_read_commands_total": "commands",
    "wearwatch_drive_nvme_data_units_read_total": "units",
    "wearwatch_drive_host_read_bytes_total": "bytes",
}


def _probe_reads(samples, ctx, drive):
    n = 0
    for name in ("wearwatch_probe_read_latency_seconds_count", "wearwatch_probe_errors_total"):
        v = ctx.one(samples, name, drive)
        n += int(v or 0)
    return n


def _probe_bs(ctx):
    try:
        with open(os.path.join(ctx.vm.share, "serve-cmdline.txt")) as f:
            argv = f.read().split()
        i = argv.index("--probe-bs")
        v = argv[i + 1].lower()
        mult = {"k": 1024, "m": 1024 * 1024}.get(v[-1], 1)
        return int(v.rstrip("km")) * mult
    except (OSError, ValueError, IndexError):
        return 4096


def _excluded(name):
    return any(p.search(name) for p in EXCLUDE)


def _sata_power(ctx, mode):
    """Set power/control of the SATA disk and its ATA port ('on' or 'auto')."""
    return ctx.vm.run(r"""
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
for p in "$port" "$d"; do echo %s >"$p/power/control"; done
sleep 0.5
echo "status=$(cat $d/power/runtime_status)"
""" % mode, timeout=60)


def _keyed(samples, drive_ids):
    """{(name, sorted labels without 'backend'): value} for the given drives."""
    out = {}
    for n, lb, v in samples:
        if lb.get("drive") not in drive_ids or _excluded(n):
            continue
        key = (n, tuple(sorted((k, x) for k, x in lb.items() if k not in IGNORED_LABELS)))
        out[key] = v
    return out


def _guest_scrape(ctx, port):
    rc, out = ctx.vm.run("curl -sS --max-time 20 http://127.0.0.1:%d/metrics\n" % port, timeout=60)
    return rc, out


def run(ctx):
    ww = ctx.binary
    ids = ctx.ids
    state = {}

    def capture_suspended():
        rc, out = ctx.vm.run(r"""
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
a0=$(cat $d/power/runtime_active_time)
echo "before=$(cat $d/power/runtime_status)"
rm -rf %(cap)s/sata-suspended; mkdir -p %(cap)s/sata-suspended
"%(ww)s" capture $SATA %(cap)s/sata-suspended; echo "capture_rc=$?"
sleep 1
echo "after=$(cat $d/power/runtime_status) active_delta_ms=$(( $(cat $d/power/runtime_active_time) - a0 ))"
cat %(cap)s/sata-suspended/*.capture
""" % {"cap": CAP, "ww": ww}, timeout=120)
        before = re.search(r"before=(\S+)", out)
        after = re.search(r"after=(\S+) active_delta_ms=(-?\d+)", out)
        ncmd = len(re.findall(r"^cmd ", out, re.M))
        susp_fact = re.search(r"^fact runtime_status suspended", out, re.M) is not None
        ok = (before and before.group(1) == "suspended" and after and after.group(1) == "suspended"
              and int(after.group(2)) < 500 and "capture_rc=0" in out and susp_fact and ncmd == 0)
        return ok, ("runtime_status %s -> %s (active +%s ms), %s, fact runtime_status suspended: %s, "
                    "%d commands recorded (want 0)" % (
                        before.group(1) if before else "?", after.group(1) if after else "?",
                        after.group(2) if after else "?",
                        (re.search(r"capture_rc=\d+", out) or [None])[0], susp_fact, ncmd))
    ctx.c.check("capture_sata_runtime_suspended", capture_suspended)

    def capture_all():
        rc, out = ctx.vm.run(r"""
rm -rf %(cap)s/nvme %(cap)s/sata %(cap)s/sas %(cap)s/sata-redacted
mkdir -p %(cap)s/nvme %(cap)s/sata %(cap)s/sas %(cap)s/sata-redacted
"%(ww)s" capture $NVME_NS %(cap)s/nvme; echo "nvme_rc=$?"
"%(ww)s" capture $SATA %(cap)s/sata; echo "sata_rc=$?"
"%(ww)s" capture $SAS %(cap)s/sas; echo "sas_rc=$?"
"%(ww)s" capture $SATA %(cap)s/sata-redacted --redact; echo "redact_rc=$?"
date +%%s > %(cap)s/.t
for r in nvme sata sas sata-redacted; do
	echo "$r: $(ls %(cap)s/$r) $(grep -c '^cmd ' %(cap)s/$r/*.capture) cmds"
done
""" % {"cap": CAP, "ww": ww}, timeout=180)
        try:  # guest clock: compared with the live service's timestamps
            with open(os.path.join(ctx.vm.share, "captures", ".t")) as f:
                state["t_capture"] = int(f.read().strip())
        except (OSError, ValueError):
            return False, "no capture time: " + out
        rcs = dict(re.findall(r"(\w+)_rc=(\d+)", out))
        ok = all(rcs.get(k) == "0" for k in ("nvme", "sata", "sas", "redact"))
        return ok, out.strip().replace("\n", " | ")

    def redacted():
        share = os.path.join(ctx.vm.share, "captures")
        def text(role):
            d = os.path.join(share, role)
            fs = [f for f in os.listdir(d) if f.endswith(".capture")] if os.path.isdir(d) else []
            if len(fs) != 1:
                return None, None
            with open(os.path.join(d, fs[0])) as f:
                return fs[0], f.read()
        fn, plain = text("sata")
        fr, red = text("sata-redacted")
        if plain is None or red is None:
            return False, "captures missing"
        serial = "WWSATA0001"
        swapped = "".join(serial[i + 1] + serial[i] for i in range(0, len(serial) - 1, 2))
        hx = serial.encode().hex()
        hxs = swapped.encode().hex()
        # the plain capture holds the serial as text and byte-swapped in IDENTIFY;
        # the redacted one nowhere, as text or hex
        plain_has = serial in plain and (hxs in plain.replace("\n", "") or hx in plain.replace("\n", ""))
        red_has = serial in red or hx in red.replace("\n", "") or hxs in red.replace("\n", "")
        ncmd_p = plain.count("\ncmd ")
        ncmd_r = red.count("\ncmd ")
        ok = plain_has and not red_has and ncmd_p == ncmd_r and ncmd_p > 0 and serial not in fr
        return ok, ("plain %s holds %s (text + IDENTIFY bytes): %s; redacted %s holds it: %s; "
                    "%d/%d commands" % (fn, serial, plain_has, fr, red_has, ncmd_p, ncmd_r))

    def fidelity_once(tries_left):
        before = ctx.c.scrape("replay-before-capture")[2]
        probe0 = {i: _probe_reads(before, ctx, i) for i in ids.values()}
        ok_cap, detail_cap = capture_all()
        if not ok_cap:
            return False, "capture failed: " + detail_cap
        extra = []
        try:  # the live service's rating flags (checks_10_endurance), so the same ratings apply
            with open(os.path.join(ctx.vm.share, "serve-cmdline.txt")) as f:
                argv = f.read().split()
            for i, a in enumerate(argv[:-1]):
                if a in ("--rating", "--ratings-file"):
                    extra += [a, argv[i + 1]]
        except OSError:
            pass
        rc, out = ctx.vm.run(r"""
[ -f /tmp/ww-replay.pid ] && kill "$(cat /tmp/ww-replay.pid)" 2>/dev/null && sleep 0.5
rm -rf /tmp/ww-replay-state
"%(ww)s" serve --replay %(cap)s/nvme --replay %(cap)s/sata --replay %(cap)s/sas \
	--listen 127.0.0.1:%(port)d --poll-interval 2 --poll-interval-rotational 2 --no-probe \
	--state-dir /tmp/ww-replay-state %(extra)s >/run/ww-share/replay-service.log 2>&1 &
echo $! >/tmp/ww-replay.pid
sleep 0.3; kill -0 $! && echo started
""" % {"cap": CAP, "ww": ww, "port": PORT2, "extra": " ".join(extra)}, timeout=60)
        if "started" not in out:
            return False, "replay service did not start: %s" % out
        # live: wait for a poll of every drive that started after the captures
        t_cap = state["t_capture"]
        live = None
        deadline = time.time() + 4 * ctx.poll + 20
        while time.time() < deadline:
            time.sleep(ctx.poll)
            _st, text, samples, _h = ctx.c.scrape("replay-live")
            ts = [ctx.one(samples, "wearwatch_drive_last_collect_timestamp_seconds", i) for i in ids.values()]
            if all(t is not None and t >= t_cap for t in ts):
                live = samples
                break
        # replay service: all three drives read once
        rep = None
        for _ in range(20):
            rc, body = _guest_scrape(ctx, PORT2)
            s = ctx.parse_prom(body) if rc == 0 else []
            got = {lb.get("drive") for n, lb, _v in s if n == "wearwatch_drive_info"}
            if all(i in got for i in ids.values()) and all(
                    ctx.one(s, "wearwatch_drive_temperature_celsius", i) is not None for i in ids.values()):
                rep = s
                with open(os.path.join(ctx.vm.art, "scrapes", "replay-service.prom"), "w") as f:
                    f.write(body)
                break
            time.sleep(1)
        if live is None or rep is None:
            return False, "no live poll after the captures (%s) or replay scrape (%s)" % (
                live is not None, rep is not None)
        a = _keyed(live, set(ids.values()))
        b = _keyed(rep, set(ids.values()))
        only_live = sorted(set(a) - set(b))
        only_rep = sorted(set(b) - set(a))
        diff = sorted(k for k in set(a) & set(b) if a[k] != b[k])
        bs = _probe_bs(ctx)
        moved = []
        for k in list(diff):
            kind = PROBE_MOVED.get(k[0])
            drive = dict(k[1]).get("drive")
            reads = _probe_reads(live, ctx, drive) - probe0.get(drive, 0)
            d = a[k] - b[k]
            lim = {"commands": reads, "units": -(-reads * bs // 512000) + 1,
                   "bytes": (-(-reads * bs // 512000) + 1) * 512000}.get(kind)
            if kind and 0 <= d <= lim:
                diff.remove(k)
                moved.append("%s +%d (probe read %d x %d B in between, limit %d)" % (k[0], d, reads, bs, lim))
        backend = sorted({lb.get("backend") for n, lb, _v in rep
                          if n == "wearwatch_drive_info" and lb.get("drive") in ids.values()})
        def fmt(keys, src):
            return ", ".join("%s{%s}=%s" % (k[0], ",".join("%s=%s" % kv for kv in k[1] if kv[0] != "drive"),
                                           src[k] if src else "") for k in keys[:8])
        ok = not only_live and not only_rep and not diff and len(a) > 30
        detail = ("%d series of %d drives compared (excluded: %s); only live: %d [%s]; only replay: %d [%s]; "
                  "different: %d [%s]; replay backend label %s" % (
                      len(a), len(ids), ", ".join(p.pattern for p in EXCLUDE), len(only_live), fmt(only_live, a),
                      len(only_rep), fmt(only_rep, b), len(diff),
                      "; ".join("%s{%s} live %s replay %s" % (k[0], ",".join("%s=%s" % kv for kv in k[1]
                                                                             if kv[0] != "drive"), a[k], b[k])
                                for k in diff[:8]), backend))
        if moved:
            detail += "; moved only by the live probe's reads: " + "; ".join(moved)
        return ok, detail

    def fidelity():
        if len(ids) != 3:
            return False, "drive ids %s" % ids
        rc, out = _sata_power(ctx, "on")
        if "status=active" not in out:
            return False, "SATA did not resume: %s" % out
        details = []
        for i in range(3):
            ok, d = fidelity_once(2 - i)
            details.append("try %d: %s" % (i + 1, d))
            if ok:
                break
        return ok, " || ".join(details)

    ctx.c.check("replay_fidelity_metrics", fidelity)
    ctx.c.check("capture_redact", redacted)

    def cleanup():
        rc, out = ctx.vm.run('[ -f /tmp/ww-replay.pid ] && kill "$(cat /tmp/ww-replay.pid)"; '
                             'sleep 0.5; kill -0 "$(cat /tmp/ww-replay.pid)" 2>/dev/null && echo alive || echo stopped\n',
                             timeout=30)
        _sata_power(ctx, "auto")  # as the base checks left it
        return "stopped" in out, "replay service %s; SATA power/control back to auto" % out.strip()
    ctx.c.check("replay_service_stopped", cleanup)
