"""Health verdict and notifications in the VM (docs/health.md).

The service runs with a configuration file in the share (SERVE_ARGS):
[notify] exec is a small recorder that writes each event's WEARWATCH_EVENT,
_DRIVE, _OLD_STATE, _NEW_STATE, _REASON_CODES and _ADDED to a file the host
reads; flap_limit is raised so the suite's many changes of the NVMe drive are
all sent. Checks:

- QMP critical-warning bits set one after another on the NVMe drive (0x04,
  then 0x0C, then 0x1C): three notifications, the first a status change to
  critical (critical_warning_reliability), then two "reason_added"
  (critical_warning_read_only, power_loss_protection_failed), and /metrics
  gives those three reasons; back to 0: one status change to ok;
- `exclude = yes` for the SAS drive plus SIGHUP: the drive leaves /metrics
  and the API, no "missing" event is sent; included again afterwards;
- the SATA disk, runtime-suspended since the base checks, is still never
  woken (runtime_active_time does not move over three polls) and its verdict
  and notifications do not change;
- after the harness hot-removes the NVMe drive (run_after_removal): exactly
  one "missing" notification, and /metrics says critical, drive_missing.
"""
import glob
import os
import re
import time

GUEST_DIR = "/run/ww-share/health"
SERVE_ARGS = ["--config", GUEST_DIR + "/wearwatch.conf"]
RECORDER = r"""#!/bin/sh
d=%s/events
mkdir -p "$d"
f="$d/$(date +%%s%%N)-$$.env"
{
	printf 'EVENT=%%s\nDRIVE=%%s\nOLD=%%s\nNEW=%%s\nCODES=%%s\n' "$WEARWATCH_EVENT" \
		"$WEARWATCH_DRIVE" "$WEARWATCH_OLD_STATE" "$WEARWATCH_NEW_STATE" "$WEARWATCH_REASON_CODES"
	printf 'ADDED=%%s\n' "$(printf '%%s' "$WEARWATCH_ADDED" | tr '\n' '|')"
} >"$f.tmp" && mv "$f.tmp" "$f"
""" % GUEST_DIR
BASE_CONF = "[notify]\nexec = %s/record.sh\nflap_limit = 50\n" % GUEST_DIR


def qemu_args(vm, imgdir):
    """not a QEMU argument: the share's health/ directory, before boot (the
    service's --config must exist when it starts)"""
    d = os.path.join(vm.share, "health")
    os.makedirs(os.path.join(d, "events"), exist_ok=True)
    with open(os.path.join(d, "record.sh"), "w") as f:
        f.write(RECORDER)
    os.chmod(os.path.join(d, "record.sh"), 0o755)
    with open(os.path.join(d, "wearwatch.conf"), "w") as f:
        f.write(BASE_CONF)
    return []


def events(ctx, did):
    out = []
    for p in sorted(glob.glob(os.path.join(ctx.vm.share, "health", "events", "*.env"))):
        ev = dict(line.split("=", 1) for line in open(p).read().splitlines() if "=" in line)
        if ev.get("DRIVE") == did:
            out.append(ev)
    return out


def verdict(ctx, did):
    samples = ctx.c.scrape("health")[2]
    st = ctx.one(samples, "wearwatch_drive_health_status", did)
    reasons = {lb.get("reason") for n, lb, v in samples
               if n == "wearwatch_drive_health_reason" and lb.get("drive") == did}
    return st, reasons


def wait(pred, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.5)
    return False


def critical_bits(ctx):
    nv = ctx.ids.get("nvme")
    if not nv:
        return None, "no NVMe drive id"
    n0 = len(events(ctx, nv))
    steps = ((0x04, "critical_warning_reliability"), (0x0C, "critical_warning_read_only"),
             (0x1C, "power_loss_protection_failed"))
    for k, (value, code) in enumerate(steps, 1):
        ctx.vm.qmp.cmd("qom-set", path="/machine/peripheral/nvme0",
                       property="smart_critical_warning", value=value)
        wait(lambda: len(events(ctx, nv)) >= n0 + k and
             code in events(ctx, nv)[-1].get("CODES", "").split(), 2 * ctx.poll + 15)
    got = events(ctx, nv)[n0:]
    st, reasons = verdict(ctx, nv)
    want = [("status_change", {steps[0][1]}), ("reason_added", {s[1] for s in steps[:2]}),
            ("reason_added", {s[1] for s in steps})]
    ok = (len(got) == 3 and all(g.get("EVENT") == w[0] and g.get("NEW") == "critical" and
                                set(g.get("CODES", "").split()) == w[1] for g, w in zip(got, want))
          and st == 2 and reasons == {s[1] for s in steps})
    detail = "events %s; /metrics status %s reasons %s" % (
        [(g.get("EVENT"), g.get("NEW"), g.get("CODES")) for g in got], st, sorted(reasons))
    ctx.vm.qmp.cmd("qom-set", path="/machine/peripheral/nvme0", property="smart_critical_warning",
                   value=0)
    back = wait(lambda: len(events(ctx, nv)) > n0 + 3 and events(ctx, nv)[-1].get("NEW") == "ok",
                2 * ctx.poll + 15)
    last = events(ctx, nv)[-1] if events(ctx, nv) else {}
    return ok and back, detail + "; back to 0: %s -> %s" % (last.get("EVENT"), last.get("NEW"))


def exclude(ctx):
    sas = ctx.ids.get("sas")
    if not sas:
        return None, "no SAS drive id"
    conf = os.path.join(ctx.vm.share, "health", "wearwatch.conf")
    n0 = len(events(ctx, sas))
    with open(conf, "a") as f:
        f.write("[drive %s]\nexclude = yes\n" % sas)
    ctx.vm.run('kill -HUP "$(cat /run/wearwatch.pid)"\n')
    gone = wait(lambda: verdict(ctx, sas)[0] is None, 2 * ctx.poll + 15)
    time.sleep(2 * ctx.poll + 1)
    st, _ = verdict(ctx, sas)
    got = events(ctx, sas)[n0:]
    with open(conf, "w") as f:
        f.write(BASE_CONF)
    ctx.vm.run('kill -HUP "$(cat /run/wearwatch.pid)"\n')
    again = wait(lambda: verdict(ctx, sas)[0] == 0, 3 * ctx.poll + 20)
    later = events(ctx, sas)[n0:]
    return (gone and st is None and not got and again and not later,
            "excluded: gone from /metrics %s (status now %s), events while excluded %s; included "
            "again: status 0 %s, events %s" % (gone, st, got, again, later))


def suspended(ctx):
    sa = ctx.ids.get("sata")
    if not sa:
        return None, "no SATA drive id"
    probe = ('d=$(readlink -f /sys/block/${SATA#/dev/}/device)\n'
             'echo "status=$(cat $d/power/runtime_status) active_ms=$(cat $d/power/runtime_active_time)"\n')
    rc, out = ctx.vm.run(probe)
    m = re.search(r"status=(\S+) active_ms=(\d+)", out)
    if not m or m.group(1) != "suspended":
        return False, "the SATA disk is not runtime-suspended after the base checks: %s" % out.strip()
    st0, r0 = verdict(ctx, sa)
    n0 = len(events(ctx, sa))
    time.sleep(3 * ctx.poll + 2)
    rc, out2 = ctx.vm.run(probe)
    m2 = re.search(r"status=(\S+) active_ms=(\d+)", out2)
    st1, r1 = verdict(ctx, sa)
    sb = ctx.one(ctx.c.scrape("health-standby")[2], "wearwatch_drive_standby", sa)
    moved = int(m2.group(2)) - int(m.group(2)) if m2 else -1
    ok = (m2 and m2.group(1) == "suspended" and 0 <= moved < 500 and sb == 1 and
          (st0, r0) == (st1, r1) and len(events(ctx, sa)) == n0)
    return ok, ("runtime_status %s, runtime_active_time +%d ms over 3 polls (want < 500); standby %s; "
                "verdict %s %s -> %s %s; events %d -> %d" % (m2.group(1) if m2 else out2, moved, sb,
                                                           st0, sorted(r0), st1, sorted(r1), n0,
                                                           len(events(ctx, sa))))


def run(ctx):
    ctx.c.check("health_critical_warning_three_notifications", lambda: critical_bits(ctx))
    ctx.c.check("health_exclude_sighup_no_missing", lambda: exclude(ctx))
    ctx.c.check("health_suspended_disk_never_woken", lambda: suspended(ctx))


def run_after_removal(ctx):
    """after the harness's hot removal of the NVMe drive (test_vm.py)"""
    nv = ctx.ids.get("nvme")

    def missing():
        if not nv:
            return None, "no NVMe drive id"
        wait(lambda: any(e.get("EVENT") == "missing" for e in events(ctx, nv)), 2 * ctx.poll + 15)
        time.sleep(2 * ctx.poll + 1)
        evs = events(ctx, nv)
        idx = [i for i, e in enumerate(evs) if e.get("EVENT") == "missing"]
        st, reasons = verdict(ctx, nv)
        ok = (len(idx) == 1 and idx[0] == len(evs) - 1 and evs[-1].get("NEW") == "critical" and
              evs[-1].get("CODES") == "drive_missing" and st == 2 and reasons == {"drive_missing"})
        return ok, ("missing events %d (want 1, the last): %s; /metrics status %s reasons %s" % (
            len(idx), evs[-1] if evs else None, st, sorted(reasons)))
    ctx.c.check("health_hot_removed_one_missing_notification", missing)
