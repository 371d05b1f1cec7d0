"""`wearwatch qualify` in the VM, in the one boot.

Checks, with where the expected values come from:
- qualify_nvme_read_health: a read-only profile (4k-random-read, 1T4Q, 3 s)
  on QEMU's NVMe namespace while the service monitors it: exit 0, three
  per-second rows, and the health record before and after from the NVMe
  SMART log: Data Units Read (host_read_bytes: log 02h bytes 32-47, in
  units of 1000 x 512 bytes) rises by at least the bytes the run read less
  one unit,
  and host_written_bytes does not move (cost 0: nothing written).
- qualify_nvme_guard_monitored: a writing profile on the same namespace
  with its own serial (WWNVME0001, QEMU's -device nvme serial=) is refused
  with check "monitored" (the service runs with the default configuration,
  which monitors it), and nvme-cli's Host Write Commands before and after
  are equal.
- qualify_steady_ndelay: preconditioning on the scsi_debug disk whose
  latency changes mid-run: `4k-random-read --precondition` (the fill
  writes, so the guard must pass: the disk is left out of the service with
  `[drive ID] exclude = yes` in the configuration checks_50_health.py gives
  it, SIGHUP, and qualify is given that same file; --destroy-data takes
  the value the guard's first refusal names), rounds of 3 s at 1T4Q;
  once round 4 has started scsi_debug's delay is switched to 20 ms
  (`echo 20000000 >/sys/bus/pseudo/drivers/scsi_debug/ndelay`; kernel
  Documentation/scsi/scsi_debug.rst). With 4 reads in flight, none
  answered in less than 20 ms, a round after the switch can do at most
  4 / 0.020 = 200 IOPS. The SNIA PTS rule must find steady state in a
  window that starts after the round the switch fell in, every window
  round at most 200 IOPS and below every round before the switch. (At
  ndelay 5 ms TCG's jitter on a shared host moved rounds between 86 and
  410 IOPS, and no window passed; at 20 ms a read's fixed wait outweighs
  it. tests/qualify/steady_throttle.sh does the same on the host.)
  The delay is set back to 0 and the disk included again.
- qualify_guard_md_holder: a writing profile on the scsi_debug disk while
  it is the one member of a degraded md RAID1 (`mdadm --create --level=1
  --raid-devices=2 $SAS missing`): refused with check "holders", naming
  the md device that /sys/block/X/holders lists, and the disk's md5sum
  before and after the refusal is the same (read while the array stands).
  Then the array is stopped: nothing holds the disk, but its md superblock
  is still there, and the same command is refused with check "signature"
  (libblkid: TYPE=linux_raid_member), the md5sum again unchanged. Last the
  superblock is zeroed.
"""
import json
import os
import re


def _nvme_read(ctx):
    rc, out = ctx.vm.run(
        '"%s" qualify "$NVME_NS" --profile 4k-random-read --load 1T4Q --seconds 3 '
        '--json /tmp/q-nvme.json >/tmp/q-nvme.out 2>&1; echo "rc=$?"; '
        'cat /tmp/q-nvme.json\n' % ctx.binary, timeout=180)
    m = re.search(r"rc=(\d+)", out)
    if not m or m.group(1) != "0":
        return False, "exit %s: %s" % (m.group(1) if m else "?", out[-600:])
    doc = json.loads(out[out.index("{"):])
    pt = doc["points"][0]
    h = doc["health"]
    rb = h["before"]["host_read_bytes"]
    ra = h["after"]["host_read_bytes"]
    if not rb or not ra:
        return False, "no host_read_bytes in the health record: %s" % h
    read = doc["totals"]["bytes_read"]
    rose = ra["value"] - rb["value"]
    ok = (len(pt["per_second"]) == 3 and pt["read"]["ios"] > 0 and
          rose >= read - 512000 and h["cost"]["host_written_bytes"] == 0 and
          doc["totals"]["bytes_written"] == 0)
    return ok, ("%d per-second rows, %d reads at %.0f IOPS p99 %.3f ms; host_read_bytes "
                "%d -> %d (+%d, the run read %d; %s); host_written_bytes cost %s" %
                (len(pt["per_second"]), pt["read"]["ios"], pt["read"]["iops"],
                 pt["read"]["p99_s"] * 1e3, rb["value"], ra["value"], rose, read,
                 rb["source"], h["cost"]["host_written_bytes"]))


def _host_writes(ctx):
    rc, out = ctx.vm.run('nvme smart-log "$NVME_CTRL" -o json 2>/dev/null\n', timeout=60)
    try:
        return json.loads(out[out.index("{"):])["host_write_commands"]
    except (ValueError, KeyError):
        return None


def _nvme_guard(ctx):
    before = _host_writes(ctx)
    rc, out = ctx.vm.run(
        '"%s" qualify "$NVME_NS" --profile 4k-random-write --load 1T4Q --seconds 2 '
        '--destroy-data=WWNVME0001 2>&1; echo "rc=$?"\n' % ctx.binary, timeout=120)
    after = _host_writes(ctx)
    ok = "rc=4" in out and "refused (monitored)" in out and before is not None and before == after
    return ok, "%s; Host Write Commands %s -> %s" % (
        " ".join(l for l in out.splitlines() if "refused" in l or "rc=" in l), before, after)


STEADY_NDELAY_NS = 20000000
STEADY_QD = 4
STEADY_CMD = ('"%(ww)s" qualify "$SAS" --profile 4k-random-read --precondition '
              '--precondition-load 1T%(qd)dQ --round-seconds 3 --load 1T%(qd)dQ --seconds 2 '
              '--config %(conf)s')
STEADY_RUN = r"""
rm -f /tmp/q-ss.err /tmp/q-ss.json
%(cmd)s --destroy-data=%(serial)s --json /tmp/q-ss.json >/tmp/q-ss.out 2>/tmp/q-ss.err &
q=$!
i=0
until grep -q 'round 4' /tmp/q-ss.err 2>/dev/null || [ $i -ge 3000 ]; do sleep 0.02; i=$((i + 1)); done
j=0
until echo %(ndelay)d >/sys/bus/pseudo/drivers/scsi_debug/ndelay 2>/dev/null; do
	j=$((j + 1)); [ $j -ge 1000 ] && break; sleep 0.01
done
echo "switched after $i waits, $j retries: ndelay=$(cat /sys/bus/pseudo/drivers/scsi_debug/ndelay)"
wait $q; echo "rc=$?"
tail -c 600 /tmp/q-ss.out
cat /tmp/q-ss.json
"""


def _steady(ctx):
    sid = ctx.ids.get("sas")
    conf = os.path.join(ctx.vm.share, "health", "wearwatch.conf")
    if not sid or not os.path.exists(conf):
        return False, "needs the SAS id (%s) and checks_50_health's --config %s" % (sid, conf)
    with open(conf) as f:
        saved = f.read()
    with open(conf, "w") as f:
        f.write(saved + "[drive %s]\nexclude = yes\n" % sid)
    ctx.vm.run('kill -HUP "$(cat /run/wearwatch.pid)"\n')
    try:
        cmd = STEADY_CMD % {"ww": ctx.binary, "qd": STEADY_QD,
                            "conf": "/run/ww-share/health/wearwatch.conf"}
        rc, out = ctx.vm.run(cmd + " 2>&1; echo rc=$?\n", timeout=60)
        m = re.search(r"--destroy-data=(\S+) \(the drive's", out)
        if not m:
            return False, "no --destroy-data value in the refusal: %s" % out[-400:]
        rc, out = ctx.vm.run(STEADY_RUN % {"cmd": cmd, "serial": m.group(1),
                                           "ndelay": STEADY_NDELAY_NS}, timeout=400)
    finally:
        ctx.vm.run("echo 0 >/sys/bus/pseudo/drivers/scsi_debug/delay\n")
        with open(conf, "w") as f:
            f.write(saved)
        ctx.vm.run('kill -HUP "$(cat /run/wearwatch.pid)"\n')
    sw = re.search(r"^switched.*$", out, re.M)
    if "rc=0" not in out or "{" not in out:
        return False, "qualify failed: %s" % out[-800:]
    doc = json.loads(out[out.index("{"):])
    pc = doc["precondition"]
    ss = pc["steady_state"]
    iops = [r["read"]["iops"] + r["write"]["iops"] for r in pc["rounds"]]
    first, last = ss["window_first_round"], ss["window_last_round"]
    window = iops[first - 1:last] if first else []
    bound = STEADY_QD / (STEADY_NDELAY_NS / 1e9)
    # the switch fell in round 4 or later (it waits for "round 4" on stderr)
    ok = (ss["reached"] and first > 4 and last == len(iops) and window and
          max(window) <= bound and max(window) < min(iops[:3]) and
          doc["points"][0]["read"]["iops"] <= bound)
    return ok, ("%s; fill %s writes; rounds IOPS %s; steady state %s in rounds %s-%s, average "
                "%.0f, range %.1f %%, slope %.1f %% (at most %.0f IOPS after the switch); "
                "measured 1T%dQ %.0f IOPS p99 %.1f ms" % (
                    sw.group(0) if sw else "no switch line",
                    (pc["fill"] or {}).get("write", {}).get("ios"),
                    [round(v) for v in iops], ss["reached"], first, last, ss["average"] or 0,
                    (ss["range_ratio"] or 0) * 100, (ss["slope_ratio"] or 0) * 100, bound,
                    STEADY_QD, doc["points"][0]["read"]["iops"],
                    doc["points"][0]["read"]["p99_s"] * 1e3))


MD_HOLDER = "/dev/md/wwqualify"
MD_GUARD = r"""
modprobe raid1 2>/dev/null
mdadm --create %(md)s --run --force --level=1 --raid-devices=2 --metadata=1.2 $SAS missing >/tmp/q-md.out 2>&1
echo "create_rc=$?"
tail -3 /tmp/q-md.out
udevadm settle --timeout=10 2>/dev/null
echo "holders=$(ls /sys/block/${SAS#/dev/}/holders)"
echo "sum_before=$(md5sum <$SAS | cut -d' ' -f1)"
"%(ww)s" qualify "$SAS" --profile 4k-random-write --load 1T4Q --seconds 2 --destroy-data=anything 2>&1
echo "rc=$?"
echo "sum_after=$(md5sum <$SAS | cut -d' ' -f1)"
mdadm --stop %(md)s >/dev/null 2>&1; echo "stop_rc=$?"
echo "holders_stopped=$(ls /sys/block/${SAS#/dev/}/holders)"
"%(ww)s" qualify "$SAS" --profile 4k-random-write --load 1T4Q --seconds 2 --destroy-data=anything 2>&1
echo "rc_stopped=$?"
echo "sum_stopped=$(md5sum <$SAS | cut -d' ' -f1)"
mdadm --zero-superblock $SAS >/dev/null 2>&1; echo "zero_rc=$?"
echo "holders_after=$(ls /sys/block/${SAS#/dev/}/holders)"
"""


def _md_holder(ctx):
    rc, out = ctx.vm.run(MD_GUARD % {"md": MD_HOLDER, "ww": ctx.binary}, timeout=240)
    g = dict(re.findall(r"^(create_rc|holders|sum_before|rc|sum_after|stop_rc|holders_stopped|"
                        r"rc_stopped|sum_stopped|zero_rc|holders_after)=(.*)$", out, re.M))
    refusals = [l for l in out.splitlines() if "refused" in l]
    held = g.get("holders", "")
    ok = (g.get("create_rc") == "0" and held.startswith("md") and g.get("rc") == "4" and
          len(refusals) == 2 and "refused (holders)" in refusals[0] and held in refusals[0] and
          g.get("holders_stopped") == "" and g.get("rc_stopped") == "4" and
          "refused (signature)" in refusals[1] and "linux_raid_member" in refusals[1] and
          g.get("sum_before") and
          g.get("sum_before") == g.get("sum_after") == g.get("sum_stopped") and
          g.get("holders_after") == "")
    return ok, ("holders %r; %s; rc %s; array stopped %s, holders %r; %s; rc %s; md5 %s -> %s -> %s; "
                "superblock zeroed %s" % (
                    held, refusals[0] if refusals else out[-500:], g.get("rc"), g.get("stop_rc"),
                    g.get("holders_stopped"), refusals[1] if len(refusals) > 1 else "-",
                    g.get("rc_stopped"), g.get("sum_before"), g.get("sum_after"),
                    g.get("sum_stopped"), g.get("zero_rc"))) + (
        "" if g.get("create_rc") == "0" else ": mdadm said " + out[:400])


def run(ctx):
    ctx.c.check("qualify_nvme_read_health", lambda: _nvme_read(ctx))
    ctx.c.check("qualify_nvme_guard_monitored", lambda: _nvme_guard(ctx))
    ctx.c.check("qualify_steady_ndelay", lambda: _steady(ctx))
    ctx.c.check("qualify_guard_md_holder", lambda: _md_holder(ctx))
