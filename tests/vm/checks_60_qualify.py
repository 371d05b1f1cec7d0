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
(Steady state after a mid-run slowdown is tested on the host,
tests/qualify/steady_throttle.sh: under TCG on a shared host, scsi_debug's
delayed answers jitter by more than the PTS limits, 86 to 410 IOPS a round
at ndelay 5 ms in one run, so the rule rightly finds no steady state.)
"""
import json
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


def run(ctx):
    ctx.c.check("qualify_nvme_read_health", lambda: _nvme_read(ctx))
    ctx.c.check("qualify_nvme_guard_monitored", lambda: _nvme_guard(ctx))
