"""`wearwatch verify DEVICE` on the VM's three drives.

verify reads a drive natively and through smartctl (`smartctl -j -x`) and prints
both side by side. Asserted per drive: exit status 0 and the summary line
"verify: N differences, 0 unexplained" (every difference flagged DIFF carries a
"why:" line). For the scsi_debug drive the temperature must agree: both sides
40 C, the Environmental Reporting subpage 0x0D/0x01 that smartctl 7.3 prints
(sg_logs in the same guest: tests/fixtures/vm/sas/log-0d-01.txt; page 0x0D
says 38, log-0d.txt, and is exported beside it). The SATA disk is kept on (power/control "on") for the run so
that neither path meets a suspended disk, then returned to "auto".
"""
import re

ROLES = (("nvme", "$NVME_NS"), ("sata", "$SATA"), ("sas", "$SAS"))


def _power(ctx, mode):
    ctx.vm.run(r"""
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
for p in "$port" "$d"; do echo %s >"$p/power/control"; done
sleep 0.5
""" % mode, timeout=60)


def run(ctx):
    _power(ctx, "on")
    try:
        for role, dev in ROLES:
            def one(role=role, dev=dev):
                rc, out = ctx.vm.run('"%s" verify %s; echo "rc=$?"\n' % (ctx.binary, dev), timeout=180)
                m = re.search(r"verify: (\d+) differences, (\d+) unexplained", out)
                rcm = re.search(r"rc=(\d+)", out)
                diffs = [l.split()[0] for l in out.splitlines() if l.rstrip().endswith("DIFF")]
                whys = len(re.findall(r"^\s+why: ", out, re.M))
                ok = bool(m) and m.group(2) == "0" and rcm and rcm.group(1) == "0" and whys == len(diffs)
                extra = ""
                if role == "sas":
                    t = re.search(r"^temperature_celsius\s+(\S+)\s+(\S+)\s+(\S+)", out, re.M)
                    known = t is not None and t.groups() == ("40", "40", "same")
                    ok = ok and known
                    extra = "; temperature native/smartctl/flag %s (want 40/40/same)" % (
                        (t.groups() if t else None),)
                return ok, "%s: %s, rc %s, flagged %s, %d explained%s" % (
                    dev, m.group(0) if m else "no summary: " + out[-300:],
                    rcm.group(1) if rcm else "?", diffs, whys, extra)
            ctx.c.check("verify_%s" % role, one)
    finally:
        _power(ctx, "auto")
