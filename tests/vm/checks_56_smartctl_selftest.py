"""A scheduled self-test started through a smartctl child (docs/health.md
"Drives read through smartctl").

The SATA disk (QEMU's ide-hd behind AHCI) is configured `[drive ID]
smartctl = sat` with its own self_test_schedule due in the guest's current
hour, in checks_50_health's configuration file (SIGHUP, then a udev change
event so the drive is discovered again with the type). In the guest, the
smartctl the service runs is a wrapper bind-mounted over /usr/sbin/smartctl
that logs every argv before running the real one (copied to /tmp), so the
commands the service sent are the guest's own record of them. Shown:

- the drive is read through smartctl (the record's smartctl_exit_status,
  wearwatch_drive_smartctl_info{type="sat"}, its
  self-test log from `ata_smart_self_test_log`, what it runs from
  `ata_smart_data.capabilities`: short/extended/offline for QEMU's byte 367
  = 19h);
- the start: the wrapper's log has the read `-j -x -n standby,3 -d sat DEV`
  and then `-n standby,3 -t short -d sat DEV`, and nothing with force, -X
  or -C; the API says last_outcome "started", started_total.short 1;
- the result: QEMU logs the test at once, `smartctl -j -l selftest` in the
  guest shows one more "Short offline" entry that passed, and the record's
  standard log (from the service's next smartctl read) has the same count.

Left as found: the configuration back to checks_50_health's, the drive
discovered again without the type, the wrapper unmounted, the SATA disk's
power/control back to auto.
"""
import json
import os
import re
import time
import urllib.request

import checks_50_health as health
from vmlab import find_obj, find_val, wait

CONF = os.path.join("health", "wearwatch.conf")
SATA_PM = r"""d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
"""
WRAP = r"""#!/bin/sh
echo "$*" >>/tmp/ww-smartctl-argv.log
exec /tmp/smartctl.real "$@"
"""


def run(ctx):
    sa = ctx.ids.get("sata")
    conf = os.path.join(ctx.vm.share, CONF)
    if not sa or not os.path.exists(conf):
        ctx.c.check("smartctl_selftest_setup", lambda: (
            False, "SATA id %s, %s (needs checks_50_health's --config)" % (sa, conf)))
        return
    f = {}
    vm = ctx.vm

    def record(tag):
        st, body, _ = vm.http("/api/v1/drives/" + urllib.request.quote(sa, safe=""))
        ctx.c.scrape_n += 1
        with open(os.path.join(vm.art, "scrapes", "%03d-%s.json" % (ctx.c.scrape_n, tag)), "w") as fh:
            fh.write(body if st else "ERROR %s\n" % body)
        try:
            return json.loads(body) if st == 200 else None
        except ValueError:
            return None

    def hup():
        vm.run('kill -HUP "$(cat /run/wearwatch.pid)"\nsleep 1\nudevadm trigger --action=change $SATA\n')

    try:
        def setup():
            with open(os.path.join(vm.share, "smartctl-wrap.sh"), "w") as fh:
                fh.write(WRAP)
            rc, out = vm.run(SATA_PM + r"""
for p in "$d" "$port"; do echo on >"$p/power/control"; done
cp /usr/sbin/smartctl /tmp/smartctl.real && chmod 755 /tmp/smartctl.real
cp /run/ww-share/smartctl-wrap.sh /tmp/smartctl-wrap && chmod 755 /tmp/smartctl-wrap
: >/tmp/ww-smartctl-argv.log
mount --bind /tmp/smartctl-wrap /usr/sbin/smartctl; echo "bind_rc=$?"
echo "hour=$(date +%H) sata=$SATA"
smartctl -j -l selftest $SATA >/tmp/st-before.json 2>&1
python3 -c 'import json; j=json.load(open("/tmp/st-before.json")); print("before=%d" % len(j["ata_smart_self_test_log"]["standard"].get("table", [])))'
: >/tmp/ww-smartctl-argv.log
""")
            for k in ("bind_rc", "hour", "before", "sata"):
                m = re.search(r"\b%s=(\S+)" % k, out)
                f[k] = m.group(1) if m else None
            ok = f["bind_rc"] == "0" and f["hour"] is not None and f["before"] is not None
            return ok, "wrapper bind-mounted (rc %s), guest hour %s, %s self-test log entries before: %s" % (
                f["bind_rc"], f["hour"], f["sata"], f["before"])
        ctx.c.check("smartctl_selftest_setup", setup)
        if not f.get("hour") or f.get("before") is None:
            return
        h = int(f["hour"])
        sched = "S/../.././(%02d|%02d)" % (h, (h + 1) % 24)
        with open(os.path.join(vm.share, CONF), "w") as fh:
            fh.write(health.BASE_CONF + "[drive %s]\nsmartctl = sat\nself_test_schedule = %s\n" % (sa, sched))
        t0 = time.time()
        hup()

        def started():
            d = record("smartctl-selftest")
            s = find_obj(d, "self_test_schedule") or {}
            return d if (s.get("started_total") or {}).get("short") == 1 else None

        def start():
            d = wait(started, 6 * ctx.poll + 40)
            d = d or record("smartctl-selftest")
            s = find_obj(d, "self_test_schedule") or {}
            f["record"] = d
            rc, out = vm.run("cat /tmp/ww-smartctl-argv.log\n")
            lines = [l.strip() for l in out.splitlines() if l.strip()]
            f["argv"] = lines
            dev = f["sata"]
            read = "-j -x -n standby,3 -d sat %s" % dev
            go = "-n standby,3 -t short -d sat %s" % dev
            tests = [l for l in lines if " -t " in " %s " % l]
            bad = [l for l in lines if re.search(r"(^| )(-X|-C|--abort|--captive)( |$)|force", l)]
            # this drive's runs (the MegaRAID member's reads may come between)
            mine = [l for l in lines if l.endswith("-d sat %s" % dev)]
            i_go = mine.index(go) if go in mine else -1
            ok = (d is not None and s.get("last_outcome") == "started" and s.get("last_started_kind") == "short"
                  and tests == [go] and i_go > 0 and mine[i_go - 1] == read and not bad
                  and s.get("drive_kinds") == ["short", "extended", "offline"])
            return ok, ("%.0f s after SIGHUP with [drive %s] smartctl = sat, %r: API last_outcome %r, "
                        "last_started_kind %s, started_total %s, drive_kinds %s; the guest's smartctl argv log "
                        "(%d runs): -t runs %s, this drive's run before it %r; force/-X/-C: %s"
                        % (time.time() - t0, sa, sched, s.get("last_outcome"), s.get("last_started_kind"),
                           s.get("started_total"), s.get("drive_kinds"), len(lines), tests,
                           mine[i_go - 1] if i_go > 0 else None, bad or "none"))
        ctx.c.check("smartctl_selftest_started", start)

        def result():
            def logged():
                d = record("smartctl-selftest-log")
                std = (find_obj(d, "self_tests") or {}).get("standard") or {}
                return d if (std.get("tests") or 0) > int(f["before"]) else None
            d = wait(logged, 4 * ctx.poll + 30) or record("smartctl-selftest-log")
            std = (find_obj(d, "self_tests") or {}).get("standard") or {}
            # smartctl_exit_status: only a read through smartctl has one
            es = find_val(d, "smartctl_exit_status")
            samples = ctx.c.scrape("smartctl-selftest")[2]
            sc = ctx.series(samples, "wearwatch_drive_smartctl_info", sa)
            rc, out = vm.run("/tmp/smartctl.real -j -l selftest $SATA\n")
            with open(os.path.join(vm.art, "smartctl-selftest-after.json"), "w") as fh:
                fh.write(out)
            try:
                sj = json.loads(out[out.index("{"):])
                tab = ((sj.get("ata_smart_self_test_log") or {}).get("standard") or {}).get("table") or []
            except ValueError:
                tab = []
            newest = tab[0] if tab else {}
            ok = (len(tab) == int(f["before"]) + 1 and (newest.get("type") or {}).get("string") == "Short offline"
                  and (newest.get("status") or {}).get("passed") is True and std.get("tests") == len(tab)
                  and std.get("last_passed") is True and std.get("last_kind") == "short"
                  and es is not None and bool(sc) and sc[0][0].get("type") == "sat")
            return ok, ("record: smartctl_exit_status %r, smartctl_info %s; log standard entries %s, last_kind "
                        "%s, last_passed %s; guest smartctl -l selftest: %d entries (before %s), newest %r %r"
                        % (es, sc[0][0] if sc else None, std.get("tests"), std.get("last_kind"), std.get("last_passed"), len(tab),
                           f["before"], (newest.get("type") or {}).get("string"),
                           (newest.get("status") or {}).get("string")))
        ctx.c.check("smartctl_selftest_result", result)
    finally:
        try:
            with open(os.path.join(vm.share, CONF), "w") as fh:
                fh.write(health.BASE_CONF)
            hup()
            vm.run("cp /tmp/ww-smartctl-argv.log /run/ww-share/smartctl-argv.log 2>/dev/null\n"
                   "umount /usr/sbin/smartctl 2>/dev/null\n" + SATA_PM +
                   'for p in "$d" "$port"; do echo auto >"$p/power/control"; done\n', timeout=120)
        except Exception as e:
            ctx.c.record(False, "smartctl_selftest_cleanup", "%s: %s" % (type(e).__name__, e))
