"""Latency probes in the VM, in the one boot.

The service runs with short probe bursts (SERVE_ARGS) and probes rotational
drives too, so QEMU's SATA disk (the kernel calls it rotational) is probed
until the base check `sata_runtime_suspend` lets it suspend; that check, run
before this module, must still pass: probes never wake a suspended disk.

Checks, with where the expected values come from:
- probe_sata_not_woken: the SATA disk had probe reads before it suspended
  (so it really was probed), and over this whole module its probe read count
  and /sys runtime_active_time stay put while it stays runtime-suspended.
- probe_sas_latency_injected: scsi_debug reloaded with `delay=0
  ndelay=2000000` (scsi_debug answers each command 2 ms late; kernel
  Documentation/scsi/scsi_debug.rst). The reloaded disk comes back under the
  same device name and the same NAA id (so the same drive id), and its rolling
  window still holds pre-reload reads; the service's window p50 (/metrics
  summary, and the API) is read once --probe-window (1000) reads came back
  after the reload, so the window holds injected reads only. What the code
  must do, not how fast this machine is: no injected read can complete in
  less than the 2 ms scsi_debug waits, so the injected p50 is at least 2 ms
  and its rise over the baseline p50 at least 1.8 ms (the baseline's own
  p50, tens of us, comes off); a wrong unit or scale (us read as ms) would be
  a factor of 1000, so the rise must stay under 10x the injection. A window
  of 1.8-3 ms failed on a quiet machine at +3.24 ms: a loaded host adds its
  scheduling delay to every read. `wearwatch probe` in the guest before and
  after must show a rise within the same bounds.
- probe_errors_counted: scsi_debug opts=2 (medium error) over sectors
  [0, 65536) of its 131072: every 4 KiB read in the first half of the disk
  fails with MEDIUM ERROR, so about half of a burst's random reads fail. Over
  one whole burst sent under injection, wearwatch_probe_errors_total plus the
  good reads must add up to the burst's count, with an error fraction of
  0.25-0.75, while the NVMe drive's probe reads keep rising. The injection is
  then cleared (scsi_debug's defaults: opts 0, start 0x1234, count 10).
- probe_nvme_no_writes: across >= 500 probe reads on the NVMe drive, Data Units
  Written and Host Write Commands (nvme-cli smart-log and /metrics) do not
  move. "Before" is taken after the base checks' 100 MiB dd.
- probe_scsi_debug_restored: scsi_debug reloaded with `delay=0` (its default
  delay=1 is a jiffy), devices.env names and the harness's SAS id updated so
  later checks find the drive.
"""
import json
import re
import time

INTERVAL_S = 5
COUNT = 256
WINDOW = 1000
SERVE_ARGS = ["--probe-interval", str(INTERVAL_S), "--probe-count", str(COUNT),
              "--probe-rotational", "always", "--probe-window", str(WINDOW)]

NDELAY_NS = 2000000
SAS_SECTORS = 64 * 1024 * 1024 // 512
ERR_SECTORS = SAS_SECTORS // 2
NVME_MIN_READS = 500

RELOAD = r"""
i=0
while :; do
	err=$(rmmod scsi_debug 2>&1) && break
	i=$((i + 1))
	[ $i -ge 150 ] && { echo "rmmod failed after $i tries: $err"; exit 1; }
	sleep 0.1
done
echo "rmmod_retries=$i"
modprobe scsi_debug dev_size_mb=64 %(params)s || { echo "modprobe failed"; exit 2; }
udevadm settle --timeout=30 >/dev/null 2>&1
n=""; sg=""; i=0
while [ $i -lt 100 ]; do
	for b in /sys/block/sd*; do
		[ -e "$b" ] || continue
		case "$(cat "$b/device/model" 2>/dev/null)" in
		scsi_debug*) n=${b##*/}; sg=$(ls "$b/device/scsi_generic" 2>/dev/null | head -n1) ;;
		esac
	done
	[ -n "$n" ] && [ -n "$sg" ] && break
	sleep 0.1; i=$((i + 1))
done
echo "SAS=/dev/$n"
echo "SAS_SG=/dev/$sg"
echo "delay=$(cat /sys/module/scsi_debug/parameters/delay)"
echo "ndelay=$(cat /sys/module/scsi_debug/parameters/ndelay)"
echo "rotational=$(cat /sys/block/$n/queue/rotational)"
echo "wwid=$(cat /sys/block/$n/device/wwid 2>/dev/null)"
"""


def _kv(out):
    return dict(re.findall(r"^(\w+)=(.*)$", out, re.M))


def _probe(ctx, samples, drive):
    """Service's probe figures for one drive from parsed /metrics."""
    one = ctx.one
    return {
        "reads": one(samples, "wearwatch_probe_read_latency_seconds_count", drive),
        "errors": one(samples, "wearwatch_probe_errors_total", drive),
        "p50": one(samples, "wearwatch_probe_read_latency_window_seconds", drive, quantile="0.5"),
        "window": one(samples, "wearwatch_probe_read_latency_window_seconds_count", drive),
        "present": one(samples, "wearwatch_drive_present", drive),
    }


def _api_probe(ctx, tag, drive):
    _st, doc = ctx.c.api(tag)
    for d in doc if isinstance(doc, list) else (doc or {}).get("drives", []):
        if isinstance(d, dict) and d.get("id") == drive:
            return d.get("probe") or {}
    return {}


def _wait(ctx, tag, pred, timeout):
    """Scrape until pred(samples) is true or timeout; returns the last samples."""
    deadline = time.time() + timeout
    while True:
        samples = ctx.c.scrape(tag)[2]
        if pred(samples) or time.time() > deadline:
            return samples
        time.sleep(1)


def _cli(ctx, dev, count):
    rc, out = ctx.vm.run('"%s" probe %s --count %d --json\n' % (ctx.binary, dev, count), timeout=120)
    try:
        return rc, json.loads(out[out.index("{"):])
    except ValueError:
        return rc, {"raw": out[:300]}


def _nvme_counters(ctx, tag):
    g = ctx.guest_json(ctx.vm, "nvme smart-log $NVME_CTRL -o json")
    samples = ctx.c.scrape(tag)[2]
    nv = ctx.ids.get("nvme")
    return {"nvme_cli_duw": int(g["data_units_written"]), "nvme_cli_hwc": int(g["host_write_commands"]),
            "metric_duw": ctx.one(samples, "wearwatch_drive_nvme_data_units_written_total", nv),
            "metric_hwc": ctx.one(samples, "wearwatch_drive_nvme_host_write_commands_total", nv),
            "probe_reads": ctx.one(samples, "wearwatch_probe_read_latency_seconds_count", nv)}


def _sata_pm(ctx):
    rc, out = ctx.vm.run('d=$(readlink -f /sys/block/${SATA#/dev/}/device)\n'
                         'echo "status=$(cat $d/power/runtime_status)"\n'
                         'echo "active_ms=$(cat $d/power/runtime_active_time)"\n')
    return _kv(out)


def _reload(ctx, params):
    rc, out = ctx.vm.run(RELOAD % {"params": params}, timeout=120)
    kv = _kv(out)
    if rc != 0 or kv.get("SAS", "") in ("", "/dev/") or kv.get("SAS_SG", "") in ("", "/dev/"):
        raise RuntimeError("scsi_debug reload (%s) rc %d: %s" % (params, rc, out.strip()[-300:]))
    return kv


def _sas_id(ctx, dev, tag, timeout):
    """Drive id the service gives the reloaded scsi_debug disk (device name
    `dev`), once it is present again."""
    name = dev.rsplit("/", 1)[-1]
    found = {}

    def pred(samples):
        for n, lb, _v in samples:
            if (n == "wearwatch_drive_info" and lb.get("device") == name and lb.get("model") == "scsi_debug"
                    and ctx.one(samples, "wearwatch_drive_present", lb.get("drive")) == 1):
                found["id"] = lb["drive"]
                return True
        return False
    _wait(ctx, tag, pred, timeout)
    return found.get("id")


def run(ctx):
    nv, sa, ss = ctx.ids.get("nvme"), ctx.ids.get("sata"), ctx.ids.get("sas")
    st = {}
    if not (nv and sa and ss):
        ctx.c.record(False, "probe_plugin", "drive ids missing: %s" % ctx.ids)
        return

    # Figures at the start of the module.
    samples0 = ctx.c.scrape("probe-start")[2]
    st["sata0"] = _probe(ctx, samples0, sa)
    st["sata_pm0"] = _sata_pm(ctx)
    st["nvme0"] = _nvme_counters(ctx, "probe-nvme-before")

    # ---- 1: injected latency read back
    def in_bounds(rise):
        """at least the injection less a baseline's p50 (0.9 x), less than a
        unit error's factor (10 x)"""
        return 0.9 * NDELAY_NS / 1e9 <= rise < 10 * NDELAY_NS / 1e9

    def latency():
        base = _probe(ctx, _wait(ctx, "probe-sas-baseline",
                                 lambda s: (_probe(ctx, s, ss)["window"] or 0) >= WINDOW,
                                 (WINDOW // COUNT + 2) * INTERVAL_S + 10), ss)
        api0 = _api_probe(ctx, "probe-sas-baseline-api", ss)
        rc0, cli0 = _cli(ctx, "$SAS", 200)
        old_dev = ctx.vm.devices.get("SAS")
        kv = _reload(ctx, "delay=0 ndelay=%d" % NDELAY_NS)
        ctx.vm.devices["SAS"], ctx.vm.devices["SAS_SG"] = kv["SAS"], kv["SAS_SG"]
        sid = _sas_id(ctx, kv["SAS"], "probe-sas-reloaded", 4 * ctx.poll + 20)
        if not sid:
            return False, "reloaded scsi_debug (%s) not seen present by the service" % kv
        ctx.ids["sas"] = sid
        # The window holds only injected reads once WINDOW reads came back
        # after the reload (a new id starts from an empty window anyway).
        r0 = _probe(ctx, ctx.c.scrape("probe-sas-reloaded-reads")[2], sid)["reads"] or 0
        inj = _probe(ctx, _wait(ctx, "probe-sas-injected",
                                lambda s: ((_probe(ctx, s, sid)["reads"] or 0) - r0 >= WINDOW
                                           and (_probe(ctx, s, sid)["window"] or 0) >= WINDOW),
                                (WINDOW // COUNT + 2) * INTERVAL_S + 15), sid)
        api1 = _api_probe(ctx, "probe-sas-injected-api", sid)
        rc1, cli1 = _cli(ctx, "$SAS", 200)
        if base["p50"] is None or inj["p50"] is None:
            return False, "no window p50: baseline %s, injected %s" % (base, inj)
        rise = inj["p50"] - base["p50"]
        a_rise = ((api1.get("window") or {}).get("p50_seconds", 0) -
                  (api0.get("window") or {}).get("p50_seconds", 0))
        c_rise = cli1.get("p50_seconds", 0) - cli0.get("p50_seconds", 0)
        fresh = (inj["reads"] or 0) - r0
        # scsi_debug shows delay=-9999 (JDELAY_OVERRIDDEN) while ndelay rules
        ok = (kv.get("ndelay") == str(NDELAY_NS) and kv.get("delay") in ("0", "-9999")
              and fresh >= WINDOW and inj["window"] >= WINDOW
              and inj["p50"] >= NDELAY_NS / 1e9 and in_bounds(rise) and in_bounds(a_rise)
              and rc0 == 0 and rc1 == 0 and in_bounds(c_rise))
        return ok, ("service window p50 %.1f us over %d reads -> %.1f us over %d reads, all %d of them after "
                    "the reload with ndelay=%s (delay shows %s): +%.3f ms (want >= 1.8, < 20: the injected 2 ms "
                    "less the baseline, no unit error); API p50 rise %.3f ms; "
                    "`wearwatch probe --count 200` p50 %.1f -> %.1f us (+%.3f ms, rc %d/%d); "
                    "drive %s at %s -> %s at %s (wwid %s)"
                    % (base["p50"] * 1e6, base["window"] or 0, inj["p50"] * 1e6, inj["window"] or 0, fresh,
                       kv.get("ndelay"), kv.get("delay"), rise * 1e3, a_rise * 1e3,
                       cli0.get("p50_seconds", 0) * 1e6, cli1.get("p50_seconds", 0) * 1e6, c_rise * 1e3,
                       rc0, rc1, ss, old_dev, sid, kv["SAS"], kv.get("wwid")))
    ctx.c.check("probe_sas_latency_injected", latency)

    # ---- 2: injected read errors counted, other drives' probes go on
    def next_burst(tag, sid, after):
        """Scrape until a SAS burst finished after `after` (reads+errors moved)."""
        done = (after["reads"] or 0) + (after["errors"] or 0)
        return _probe(ctx, _wait(ctx, tag, lambda s: (_probe(ctx, s, sid)["reads"] or 0)
                                 + (_probe(ctx, s, sid)["errors"] or 0) > done,
                                 2 * INTERVAL_S + 10), sid)

    def errors():
        sid = ctx.ids["sas"]
        n0 = _probe(ctx, ctx.c.scrape("probe-errors-nvme")[2], nv)
        rc, out = ctx.vm.run(
            "P=/sys/module/scsi_debug/parameters\n"
            "echo 0 >$P/medium_error_start && echo %d >$P/medium_error_count && "
            "echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts || exit 1\n"
            "echo \"opts=$(cat /sys/bus/pseudo/drivers/scsi_debug/opts) "
            "start=$(cat $P/medium_error_start) count=$(cat $P/medium_error_count)\"\n" % ERR_SECTORS)
        if rc != 0:
            return False, "could not inject medium errors: %s" % out.strip()
        inj = out.strip().splitlines()[-1]
        # the first burst to finish may have started before the injection;
        # the one after it is all under injection
        e0 = next_burst("probe-errors-first", sid, _probe(ctx, ctx.c.scrape("probe-errors-inj")[2], sid))
        e1 = next_burst("probe-errors-next", sid, e0)
        api = _api_probe(ctx, "probe-errors-api", sid)
        n1 = _probe(ctx, ctx.c.scrape("probe-errors-nvme-after")[2], nv)
        rc_c, cli = _cli(ctx, "$SAS", 100)
        rc2, out2 = ctx.vm.run(
            "P=/sys/module/scsi_debug/parameters\n"
            "echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts; echo 10 >$P/medium_error_count; "
            "echo 4660 >$P/medium_error_start\n"
            "echo \"opts=$(cat /sys/bus/pseudo/drivers/scsi_debug/opts)\"\n")
        de = (e1["errors"] or 0) - (e0["errors"] or 0)
        dr = (e1["reads"] or 0) - (e0["reads"] or 0)
        dn = (n1["reads"] or 0) - (n0["reads"] or 0)
        frac = de / (de + dr) if de + dr else 0
        last = api.get("last") or {}
        ok = (de > 0 and de + dr == COUNT and 0.25 <= frac <= 0.75 and dn > 0
              and api.get("errors_total") is not None and api.get("errors_total") >= e1["errors"]
              and "opts=0" in out2 and cli.get("errors", 0) > 0)
        return ok, ("%s: one whole burst under injection: wearwatch_probe_errors_total %s -> %s (+%d) and "
                    "+%d good reads (= %d, want the burst's %d), error fraction %.2f (want 0.25-0.75: half "
                    "the sectors fail); API errors_total %s, last burst %s errors / %s reads, error %r; "
                    "NVMe probe reads %s -> %s (+%d, want > 0); `wearwatch probe --count 100`: %s errors "
                    "(%s); cleared: %s"
                    % (inj, e0["errors"], e1["errors"], de, dr, de + dr, COUNT, frac, api.get("errors_total"),
                       last.get("errors"), last.get("reads"), last.get("error"), n0["reads"], n1["reads"], dn,
                       cli.get("errors"), cli.get("last_error"), out2.strip()))
    ctx.c.check("probe_errors_counted", errors)

    # ---- restore scsi_debug delay=0 for later checks
    def restore():
        kv = _reload(ctx, "delay=0")
        ctx.vm.devices["SAS"], ctx.vm.devices["SAS_SG"] = kv["SAS"], kv["SAS_SG"]
        sid = _sas_id(ctx, kv["SAS"], "probe-sas-restored", 4 * ctx.poll + 20)
        if sid:
            ctx.ids["sas"] = sid
        ok = kv.get("delay") == "0" and kv.get("ndelay") == "0" and sid is not None
        return ok, "scsi_debug delay=%s ndelay=%s, %s (%s) is drive %s for later checks" % (
            kv.get("delay"), kv.get("ndelay"), kv["SAS"], kv["SAS_SG"], sid)
    ctx.c.check("probe_scsi_debug_restored", restore)

    # ---- 3: probes never write
    def no_writes():
        b = st["nvme0"]
        _wait(ctx, "probe-nvme-reads",
              lambda s: (_probe(ctx, s, nv)["reads"] or 0) >= (b["probe_reads"] or 0) + NVME_MIN_READS,
              (NVME_MIN_READS // COUNT + 2) * INTERVAL_S + 10)
        time.sleep(ctx.poll + 1)    # a poll after the last counted burst
        a = _nvme_counters(ctx, "probe-nvme-after")
        n = (a["probe_reads"] or 0) - (b["probe_reads"] or 0)
        same = all(a[k] == b[k] for k in ("nvme_cli_duw", "nvme_cli_hwc", "metric_duw", "metric_hwc"))
        ok = n >= NVME_MIN_READS and same and b["metric_duw"] == b["nvme_cli_duw"]
        return ok, ("%d probe reads on the NVMe drive in between (want >= %d); Data Units Written nvme-cli %d -> %d, "
                    "metric %s -> %s; Host Write Commands nvme-cli %d -> %d, metric %s -> %s"
                    % (n, NVME_MIN_READS, b["nvme_cli_duw"], a["nvme_cli_duw"], b["metric_duw"], a["metric_duw"],
                       b["nvme_cli_hwc"], a["nvme_cli_hwc"], b["metric_hwc"], a["metric_hwc"]))
    ctx.c.check("probe_nvme_no_writes", no_writes)

    # ---- SATA: probed while awake, untouched while suspended
    def sata():
        s1 = _probe(ctx, ctx.c.scrape("probe-sata-end")[2], sa)
        pm1 = _sata_pm(ctx)
        s0, pm0 = st["sata0"], st["sata_pm0"]
        api = _api_probe(ctx, "probe-sata-api", sa)
        d_act = int(pm1.get("active_ms", -1)) - int(pm0.get("active_ms", 0))
        ok = ((s0["reads"] or 0) >= COUNT and s1["reads"] == s0["reads"]
              and pm0.get("status") == "suspended" and pm1.get("status") == "suspended" and 0 <= d_act < 500
              and api.get("skipped") in ("standby", "runtime-suspended"))
        return ok, ("SATA probe reads %s before it suspended (want >= %d: --probe-rotational always), %s at the end "
                    "(want unchanged); runtime_status %s -> %s, runtime_active_time +%d ms (want < 500); "
                    "API skipped %r" % (s0["reads"], COUNT, s1["reads"], pm0.get("status"), pm1.get("status"),
                                        d_act, api.get("skipped")))
    ctx.c.check("probe_sata_not_woken", sata)
