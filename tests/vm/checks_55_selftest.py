"""Scheduled self-tests on the VM's emulated drives (docs/health.md "Self-tests").

The service runs with checks_50_health's configuration file (its SERVE_ARGS
and qemu_args; `--only checks_55_selftest` keeps them). This module writes
[health] self_test_schedule and self_test_concurrent = 4 into it, sends
SIGHUP at each step, and takes the schedule away again at the end. What it
shows, each against the guest's own tools:

- the plan: a short test at the guest's hour + 2 (`S/../.././HH`), not due
  in the run: every drive read says what it runs (API drive_kinds: the
  SATA disk short/extended/offline, SMART READ DATA byte 367 = 19h;
  scsi_debug short/extended; the NVMe drive none) and the next test is the
  start of that hour, in the API and /metrics;
- standby left alone: the SATA disk runtime-suspended (QEMU's CHECK POWER
  MODE always answers FFh, active, so ATA standby itself cannot be
  emulated; the runtime suspend is what the kernel offers), then a schedule
  due now (`S/../.././(HH|HH+1)`): its short test is pending, nothing is
  attempted, runtime_active_time does not move (never woken), while
  scsi_debug gets its test;
- ATA: the disk resumed (power/control on), the due test starts: SMART
  EXECUTE OFF-LINE IMMEDIATE, which QEMU's ide-hd answers and logs at once;
  `smartctl -l selftest` shows the new "Short offline" entry, and the API
  (the drive's record) and /metrics give the log and the start;
- SCSI: scsi_debug got SEND DIAGNOSTIC with SELF-TEST CODE 001b (background
  short): with scsi_debug opts=1 the guest's kernel log has every CDB
  ("cmd 1d 20 00 00 00 00"), kept by `dmesg -w` (the probes' reads wrap the
  ring buffer within a minute); it has no page 0x10, so the service counts
  it as testing for its own 30 minutes (docs/health.md);
- NVMe: QEMU 7.2's controller has OACS bit 4 clear and answers Device
  Self-test with Invalid Command Opcode (nvme-cli); the API says it runs
  no kind (drive_kinds []) and nothing is started or due. Were the bit set,
  the check wants the started test instead;
- md: an md RAID1 of the SATA disk and scsi_debug (mdadm, --assume-clean)
  and a new schedule text for the same hours (a changed schedule looks at
  the current hour again): the SATA disk, active, due, with room under
  self_test_concurrent, is held ("a drive of the same set is testing") on
  every API sample while the array stands and scsi_debug's test counts as
  running; once the array is stopped its test starts, at a guest time
  after the stop.

Left as found: the array stopped and both superblocks zeroed, scsi_debug
opts 0, the SATA disk's power/control back to auto (runtime-suspended as the
base checks left it), the configuration back to checks_50_health's.
"""
import json
import os
import re
import time
import urllib.request

import checks_50_health as health
from vmlab import find_obj, wait

CONF = os.path.join("health", "wearwatch.conf")  # under the share
MD = "/dev/md/wwselftest"
SDEBUG_OPTS = "/sys/bus/pseudo/drivers/scsi_debug/opts"
SATA_PM = r"""d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
"""
PROBE_PM = SATA_PM + 'echo "status=$(cat $d/power/runtime_status) active_ms=$(cat $d/power/runtime_active_time)"\n'


class Run:
    def __init__(self, ctx):
        self.ctx = ctx
        self.vm = ctx.vm
        self.ids = ctx.ids
        self.samples = []  # (host time, {role: schedule state}) of every API look
        self.facts = {}

    # ---- the guest
    def sh(self, script, timeout=120):
        return self.vm.run(script, timeout=timeout)

    def hup(self):
        self.sh('kill -HUP "$(cat /run/wearwatch.pid)"\n')

    def write_conf(self, extra):
        with open(os.path.join(self.vm.share, CONF), "w") as f:
            f.write(health.BASE_CONF + extra)
        self.hup()

    def pm(self):
        rc, out = self.sh(PROBE_PM)
        m = re.search(r"status=(\S+) active_ms=(\d+)", out)
        return (m.group(1), int(m.group(2))) if m else (out.strip(), -1)

    # ---- the service
    def api(self, tag="selftest"):
        _st, doc = self.ctx.c.api(tag)
        drives = doc.get("drives", doc) if isinstance(doc, dict) else (doc or [])
        by = {}
        for d in drives if isinstance(drives, list) else []:
            for role, did in self.ids.items():
                if isinstance(d, dict) and d.get("id") == did:
                    by[role] = d
        self.samples.append((time.time(), {r: (d.get("self_test_schedule") or None)
                                           for r, d in by.items()}))
        return by

    def record(self, role, tag):
        """/api/v1/drives/{drive}: the drive's record with its logs (the list has none)"""
        st, body, _ = self.vm.http("/api/v1/drives/" + urllib.request.quote(self.ids[role], safe=""))
        c = self.ctx.c
        c.scrape_n += 1
        with open(os.path.join(self.vm.art, "scrapes", "%03d-%s.json" % (c.scrape_n, tag)), "w") as fh:
            fh.write(body if st else "ERROR %s\n" % body)
        try:
            return json.loads(body) if st == 200 else None
        except ValueError:
            return None

    def sched(self, role, tag="selftest"):
        return (self.api(tag).get(role) or {}).get("self_test_schedule")

    def prom(self, tag):
        return self.ctx.c.scrape(tag)

    def lines(self, text, did, names):
        out = []
        for line in text.splitlines():
            if line.startswith("#"):
                continue
            if 'drive="%s"' % did in line and line.split("{")[0] in names:
                out.append(line)
        return out


def logs_of(d):
    """the self-test logs (health.logs.self_tests) of one drive's record"""
    return find_obj(d, "self_tests") or {}


def started(s, kind="short"):
    return ((s or {}).get("started_total") or {}).get(kind)


METRICS = ("wearwatch_drive_self_tests", "wearwatch_drive_self_test_failures",
           "wearwatch_drive_self_test_last_passed", "wearwatch_drive_self_test_last_status",
           "wearwatch_drive_self_test_running", "wearwatch_drive_self_test_pending",
           "wearwatch_drive_self_tests_started_total", "wearwatch_drive_self_test_scheduled_running",
           "wearwatch_drive_self_test_next_timestamp_seconds", "wearwatch_drive_standby")


def run(ctx):
    r = Run(ctx)
    sa, ss, nv = ctx.ids.get("sata"), ctx.ids.get("sas"), ctx.ids.get("nvme")
    if not (sa and ss and nv):
        ctx.c.check("selftest_setup", lambda: (False, "drive ids %s" % ctx.ids))
        return
    conf = os.path.join(ctx.vm.share, CONF)
    if not os.path.exists(conf):
        ctx.c.check("selftest_setup", lambda: (
            False, "no %s: this module needs checks_50_health's --config (SERVE_ARGS)" % conf))
        return
    try:
        _run(ctx, r, sa, ss, nv)
    finally:
        cleanup(r)


def _run(ctx, r, sa, ss, nv):
    f = r.facts

    # ---- before: the guest's own view, the SATA disk active
    def setup():
        rc, out = r.sh(SATA_PM + r"""
for p in "$d" "$port"; do echo on >"$p/power/control"; done
echo "hour=$(date +%H) now=$(date +%s) tz=$(date +%Z)"
smartctl -j -l selftest $SATA >/run/ww-share/selftest-sata-before.json 2>&1; echo "smartctl_rc=$?"
nvme id-ctrl $NVME_CTRL -o json | sed -n 's/.*"oacs" *: *\([0-9]*\).*/oacs=\1/p'
nvme device-self-test $NVME_CTRL --self-test-code=1 2>&1 | head -n 2 | sed 's/^/dst: /'
modprobe raid1 2>&1; echo "raid1_rc=$?"
command -v mdadm >/dev/null && echo "mdadm=$(mdadm --version 2>&1)" || echo "mdadm=missing"
""")
        for k in ("hour", "now", "tz", "oacs", "smartctl_rc", "raid1_rc"):
            m = re.search(r"\b%s=(\S+)" % k, out)
            f[k] = m.group(1) if m else None
        f["dst"] = " ".join(re.findall(r"^dst: (.*)$", out, re.M))
        m = re.search(r"^mdadm=(.*)$", out, re.M)
        f["mdadm"] = m.group(1) if m else None
        try:
            with open(os.path.join(ctx.vm.share, "selftest-sata-before.json")) as fh:
                sj = json.load(fh)
            f["sata_log_before"] = len(((sj.get("ata_smart_self_test_log") or {}).get("standard") or {})
                                       .get("table") or [])
        except (OSError, ValueError):
            f["sata_log_before"] = None
        f["pm0"] = r.pm()
        ok = (f["hour"] is not None and f["smartctl_rc"] == "0" and f["sata_log_before"] is not None
              and f["pm0"][0] == "active")
        return ok, ("guest hour %s (%s), SATA self-test log entries before %s (smartctl rc %s), NVMe OACS %s, "
                    "nvme device-self-test: %r, raid1 modprobe rc %s, %s, SATA %s"
                    % (f["hour"], f["tz"], f["sata_log_before"], f["smartctl_rc"], f["oacs"], f["dst"],
                       f["raid1_rc"], f["mdadm"], f["pm0"]))
    ctx.c.check("selftest_setup", setup)
    if f.get("hour") is None:
        return
    h = int(f["hour"])
    f["sched0"] = "S/../.././%02d" % ((h + 2) % 24)  # not due in this run
    f["sched1"] = "S/../.././(%02d|%02d)" % (h, (h + 1) % 24)  # due now
    f["sched2"] = "(S/../.././%02d|S/../.././%02d)" % (h, (h + 1) % 24)  # the same hours, new text

    # ---- a schedule not due yet: every drive read once, its plan
    def plan():
        rc, out = r.sh('t=$(date -d "today %02d:00" +%%s); [ "$t" -le "$(date +%%s)" ] && t=$((t + 86400)); '
                       'echo "next=$t"\n' % ((h + 2) % 24))
        m = re.search(r"next=(\d+)", out)
        want = int(m.group(1)) if m else None
        r.write_conf("[health]\nself_test_schedule = %s\nself_test_concurrent = 4\n" % f["sched0"])
        by = wait(lambda: (lambda b: b if all((b.get(k) or {}).get("self_test_schedule") and
                                              b[k]["self_test_schedule"].get("drive_kinds") is not None
                                              for k in ("sata", "sas", "nvme")) else None)(r.api("selftest-plan")),
                  4 * ctx.poll + 30)
        if not by:
            return False, "no drive_kinds for every drive in the API: %s" % r.samples[-1:]
        s = {k: by[k]["self_test_schedule"] for k in ("sata", "sas", "nvme")}
        smp = r.prom("selftest-plan")[2]
        nx = {k: ctx.one(smp, "wearwatch_drive_self_test_next_timestamp_seconds", ctx.ids[k], kind="short")
              for k in ("sata", "sas", "nvme")}
        ok = (s["sata"]["drive_kinds"] == ["short", "extended", "offline"]
              and s["sas"]["drive_kinds"] == ["short", "extended"] and s["nvme"]["drive_kinds"] == []
              and s["sata"]["next_timestamp"] == want and s["sas"]["next_timestamp"] == want
              and s["nvme"]["next_timestamp"] is None and nx["sata"] == want and nx["sas"] == want
              and nx["nvme"] is None and all(started(s[k]) in (0, None) for k in s))
        return ok, ("%r: drive_kinds SATA %s, scsi_debug %s, NVMe %s; next_timestamp %s/%s/%s (want %s, the guest's "
                    "next %02d:00; NVMe none), metric %s; started_total %s"
                    % (f["sched0"], s["sata"]["drive_kinds"], s["sas"]["drive_kinds"], s["nvme"]["drive_kinds"],
                       s["sata"]["next_timestamp"], s["sas"]["next_timestamp"], s["nvme"]["next_timestamp"], want,
                       (h + 2) % 24, nx, {k: s[k].get("started_total") for k in s}))
    ctx.c.check("selftest_plan_and_kinds", plan)

    # ---- the SATA disk suspended (as the base checks do), then the
    # schedule due now: scsi_debug starts, the suspended disk does not
    def standby():
        r.sh(SATA_PM + r"""
for p in "$d" "$port"; do
	echo 1000 >"$p/power/autosuspend_delay_ms" 2>/dev/null
	echo auto >"$p/power/control"
done
i=0
while [ $i -lt 100 ]; do
	[ "$(cat $d/power/runtime_status)" = suspended ] && break
	sleep 0.2; i=$((i+1))
done
""", timeout=60)
        pm0 = r.pm()
        if pm0[0] != "suspended":
            return False, "the SATA disk did not suspend: %s" % (pm0,)
        # every CDB scsi_debug gets, from here on, kept in the guest's /tmp
        # (the probes' reads wrap the kernel's ring buffer within a minute)
        r.sh(r"""echo "ww-selftest: mark" >/dev/kmsg
echo 1 >""" + SDEBUG_OPTS + r"""
dmesg -w >/tmp/ww-selftest-kmsg.txt 2>&1 &
echo $! >/tmp/ww-selftest-kmsg.pid
""")
        r.write_conf("[health]\nself_test_schedule = %s\nself_test_concurrent = 4\n" % f["sched1"])
        t_hup = time.time()
        s_sas = wait(lambda: started(r.sched("sas")) == 1 and r.sched("sas"), 4 * ctx.poll + 30)
        r.sh("sleep 1; echo 0 >%s; kill $(cat /tmp/ww-selftest-kmsg.pid)\n" % SDEBUG_OPTS)
        # three more polls with the SATA disk due and suspended
        time.sleep(max(0, t_hup + 3 * ctx.poll + 2 - time.time()))
        s = r.sched("sata")
        pm1 = r.pm()
        _st, text, smp, _h = r.prom("selftest-standby")
        pend = ctx.one(smp, "wearwatch_drive_self_test_pending", sa, kind="short")
        sb = ctx.one(smp, "wearwatch_drive_standby", sa)
        f["standby_lines"] = r.lines(text, sa, METRICS)
        moved = pm1[1] - pm0[1]
        ok = (bool(s_sas) and s is not None and s.get("pending_kind") == "short"
              and started(s) == 0 and s.get("last_attempt") is None and pm1[0] == "suspended"
              and 0 <= moved < 500 and pend == 1 and sb == 1)
        return ok, ("%.0f s after SIGHUP with %r: scsi_debug started %s; SATA (runtime-suspended) "
                    "pending_kind %s, started_total.short %s, last_attempt %s, last_outcome %s; "
                    "runtime_status %s, runtime_active_time +%d ms (want < 500: never woken); "
                    "metrics pending{short} %s, standby %s | %s"
                    % (time.time() - t_hup, f["sched1"], started(s_sas) if s_sas else None,
                       s and s.get("pending_kind"), started(s), s and s.get("last_attempt"),
                       s and s.get("last_outcome"), pm1[0], moved, pend, sb, " | ".join(f["standby_lines"])))
    ctx.c.check("selftest_standby_left_alone", standby)

    # ---- resume the SATA disk: its due short test starts and is logged
    def ata():
        r.sh(SATA_PM + 'for p in "$d" "$port"; do echo on >"$p/power/control"; done\n')
        t0 = time.time()
        f["pm_resumed"] = r.pm()

        def done():
            d = r.record("sata", "selftest-ata")
            s = find_obj(d, "self_test_schedule")
            std = logs_of(d).get("standard") or {}
            if started(s) == 1 and std.get("last_passed") is True and \
                    (std.get("tests") or 0) > (f["sata_log_before"] or 0):
                return d
            return None
        d = wait(done, 4 * ctx.poll + 30)
        r.api("selftest-ata")
        s = find_obj(d, "self_test_schedule") or {}
        std = logs_of(d).get("standard") or {}
        f["sata_started1"] = s.get("last_started")
        rc, out = r.sh("smartctl -j -l selftest $SATA\n")
        try:
            sj = json.loads(out[out.index("{"):])
            tab = ((sj.get("ata_smart_self_test_log") or {}).get("standard") or {}).get("table") or []
        except ValueError:
            tab = []
        newest = tab[0] if tab else {}
        f["smartctl_newest"] = newest
        ok = (d is not None and s.get("last_outcome") == "started" and s.get("last_started_kind") == "short"
              and len(tab) == (f["sata_log_before"] or 0) + 1
              and (newest.get("type") or {}).get("string") == "Short offline"
              and (newest.get("status") or {}).get("passed") is True
              and std.get("tests") == len(tab) and std.get("last_kind") == "short")
        return ok, ("resumed; %.0f s later API: last_outcome %s, last_started_kind %s at %s, started_total %s; "
                    "log standard: entries %s, last_kind %s, last_status %s, last_passed %s; smartctl -l selftest: "
                    "%d entries (before %s), newest %r %r"
                    % (time.time() - t0, s.get("last_outcome"), s.get("last_started_kind"),
                       s.get("last_started"), s.get("started_total"), std.get("tests"), std.get("last_kind"),
                       std.get("last_status"), std.get("last_passed"), len(tab), f["sata_log_before"],
                       (newest.get("type") or {}).get("string"), (newest.get("status") or {}).get("string")))
    ctx.c.check("selftest_ata_short_scheduled", ata)

    # ---- scsi_debug: the SEND DIAGNOSTIC it received
    def scsi():
        rc, out = r.sh("K=/tmp/ww-selftest-kmsg.txt; sed -n '/ww-selftest: mark/,$p' $K | grep -c ' cmd 1d '; "
                       "sed -n '/ww-selftest: mark/,$p' $K | grep ' cmd 1d ' | head -n 3; "
                       "echo \"lines=$(sed -n '/ww-selftest: mark/,$p' $K | wc -l)\"; "
                       "sg_logs -p 0x10 $SAS_SG 2>&1 | head -n 2\n")
        n = int(out.split()[0]) if out.split() and out.split()[0].isdigit() else -1
        cdbs = re.findall(r"cmd ((?:[0-9a-f]{2} ?)+)", out)
        m = re.search(r"lines=(\d+)", out)
        d = r.record("sas", "selftest-sas")
        s = find_obj(d, "self_test_schedule")
        ok = (n == 1 and cdbs and cdbs[0].strip() == "1d 20 00 00 00 00" and s is not None
              and s.get("last_outcome") == "started" and s.get("testing") is True and started(s) == 1
              and "scsi" not in logs_of(d))
        return ok, ("guest kernel log from the SIGHUP to the start (%s lines, scsi_debug opts=1): %d SEND DIAGNOSTIC "
                    "CDB(s) %s (want one, 1d 20 00 00 00 00: SELF-TEST CODE 001b background short); API last_outcome "
                    "%s, testing %s, started_total %s; page 0x10 (sg_logs: %r) so no SCSI self-test log in the API: %s"
                    % (m.group(1) if m else "?", n, cdbs, s and s.get("last_outcome"), s and s.get("testing"),
                       s and s.get("started_total"), out.strip().splitlines()[-1] if out.strip() else "",
                       "scsi" not in logs_of(d)))
    ctx.c.check("selftest_scsi_send_diagnostic", scsi)

    # ---- NVMe: what this QEMU's controller can do
    def nvme():
        s = r.sched("nvme", "selftest-nvme")
        _st, text, smp, _h = r.prom("selftest-nvme")
        oacs = int(f["oacs"]) if f.get("oacs") and f["oacs"].isdigit() else None
        if oacs is None or s is None:
            return False, "OACS %s, API self_test_schedule %s" % (f.get("oacs"), s)
        if oacs & 0x10:
            ok = started(s) == 1 and s.get("last_outcome") == "started"
            return ok, "OACS %#x has Device Self-test: started_total %s, last_outcome %s" % (
                oacs, s.get("started_total"), s.get("last_outcome"))
        st_lines = [l for l in text.splitlines() if l.startswith("wearwatch_drive_self_tests_started_total")
                    and 'drive="%s"' % nv in l]
        ok = (s.get("drive_kinds") == [] and s.get("started_total") == {} and s.get("last_attempt") is None
              and s.get("next_timestamp") is None and not st_lines and "INVALID" in f["dst"].upper())
        return ok, ("OACS %#x (bit 4 Device Self-test clear), nvme device-self-test: %r; API drive_kinds %s, "
                    "started_total %s, next_timestamp %s, last_attempt %s; started_total series %s"
                    % (oacs, f["dst"], s.get("drive_kinds"), s.get("started_total"), s.get("next_timestamp"),
                       s.get("last_attempt"), st_lines or "none"))
    ctx.c.check("selftest_nvme_device_self_test", nvme)

    # ---- /metrics after the two starts
    def metrics():
        _st, text, smp, _h = r.prom("selftest-metrics")
        want = {
            (sa, "wearwatch_drive_self_tests_started_total", "short"): 1,
            (ss, "wearwatch_drive_self_tests_started_total", "short"): 1,
            (sa, "wearwatch_drive_self_test_scheduled_running", None): 0,
            (ss, "wearwatch_drive_self_test_scheduled_running", None): 1,
            (sa, "wearwatch_drive_self_test_last_passed", "standard"): 1,
            (sa, "wearwatch_drive_self_test_last_status", "standard"): 0,
            (sa, "wearwatch_drive_self_test_running", None): 0,
            (sa, "wearwatch_drive_self_tests", "standard"): (f["sata_log_before"] or 0) + 1,
        }
        bad = []
        for (did, name, lab), v in want.items():
            kw = {}
            if lab in ("short",):
                kw["kind"] = lab
            elif lab:
                kw["log"] = lab
            got = ctx.one(smp, name, did, **kw)
            if got != v:
                bad.append("%s{%s} %s: %s (want %s)" % (name, lab or "", did, got, v))
        lines = r.lines(text, sa, METRICS) + r.lines(text, ss, METRICS)
        f["metric_lines"] = lines
        return not bad, ("; ".join(bad) if bad else "as wanted") + " | " + " | ".join(lines)
    ctx.c.check("selftest_metrics", metrics)

    # ---- md RAID1 of the SATA disk and scsi_debug: never both testing
    def md():
        if not f.get("mdadm") or f["mdadm"] == "missing":
            return False, "mdadm missing in the guest (the host root; scripts/deps.sh test installs it)"
        rc, out = r.sh(r"""
mdadm --create %s --run --assume-clean --level=1 --raid-devices=2 --metadata=1.2 $SATA $SAS 2>&1; echo "create_rc=$?"
udevadm settle --timeout=10
md=$(basename "$(readlink -f %s)")
echo "md=$md t=$(date +%%s)"
echo "holders_sata=$(ls /sys/block/${SATA#/dev/}/holders) holders_sas=$(ls /sys/block/${SAS#/dev/}/holders)"
grep -A1 "^$md" /proc/mdstat
""" % (MD, MD), timeout=120)
        m = re.search(r"md=(\S+) t=(\d+)", out)
        hs = re.search(r"holders_sata=(\S*) holders_sas=(\S*)", out)
        if "create_rc=0" not in out or not m or not hs or hs.group(1) != m.group(1) or hs.group(2) != m.group(1):
            return False, "mdadm --create: %s" % out.strip().replace("\n", " | ")[-500:]
        mdname, t_create = m.group(1), int(m.group(2))
        f["md"] = mdname
        i0 = len(r.samples)
        r.write_conf("[health]\nself_test_schedule = %s\nself_test_concurrent = 4\n" % f["sched2"])
        t_h = time.time()

        def held():
            s = r.sched("sata", "selftest-md")
            return s if s and s.get("last_outcome") == "a drive of the same set is testing" else None
        s_held = wait(held, 4 * ctx.poll + 30)
        # keep looking for three more polls while the array stands
        end = time.time() + 3 * ctx.poll + 1
        while time.time() < end:
            r.api("selftest-md")
            time.sleep(0.5)
        s_last = r.sched("sata", "selftest-md")
        _st, text, smp, _h = r.prom("selftest-md")
        f["md_lines"] = r.lines(text, sa, ("wearwatch_drive_self_test_pending",
                                          "wearwatch_drive_self_tests_started_total",
                                          "wearwatch_drive_self_test_scheduled_running")) + \
            r.lines(text, ss, ("wearwatch_drive_self_test_scheduled_running",))
        rc2, out2 = r.sh("mdadm --stop %s 2>&1; echo \"stop_rc=$? t=$(date +%%s)\"\n"
                         "mdadm --zero-superblock $SATA $SAS 2>&1; echo \"zero_rc=$?\"\n"
                         "echo \"holders_sata=$(ls /sys/block/${SATA#/dev/}/holders)\"\n" % MD, timeout=120)
        m2 = re.search(r"stop_rc=(\d+) t=(\d+)", out2)
        t_stop = int(m2.group(2)) if m2 else None
        i1 = len(r.samples)
        during = r.samples[i0:i1]
        both = [round(t - t_h, 1) for t, by in during
                if (by.get("sata") or {}).get("testing") and (by.get("sas") or {}).get("testing")]
        sata_started_during = sorted({started(by.get("sata")) for _t, by in during if by.get("sata")})
        sas_testing = sorted({(by.get("sas") or {}).get("testing") for _t, by in during})

        def after():
            s = r.sched("sata", "selftest-md-after")
            return s if started(s) == 2 else None
        s_after = wait(after, 4 * ctx.poll + 30)
        t2 = (s_after or {}).get("last_started")
        ok = (s_held is not None and not both and sata_started_during == [1] and sas_testing == [True]
              and (s_last or {}).get("pending_kind") == "short" and m2 is not None and m2.group(1) == "0"
              and "zero_rc=0" in out2 and s_after is not None and t2 is not None and t_stop is not None
              and t2 >= t_stop and f.get("sata_started1") is not None and f["sata_started1"] < t_create)
        f["md_evidence"] = dict(t_create=t_create, t_stop=t_stop, sata_started=[f.get("sata_started1"), t2],
                                samples=len(during))
        return ok, ("%s (RAID1 of %s and %s) from guest time %s to %s; %d API samples while it stood: SATA and "
                    "scsi_debug testing at once in %s (want none), SATA started_total.short %s, scsi_debug testing "
                    "%s; SATA last_outcome %r, pending_kind %s (self_test_concurrent 4); after --stop SATA started "
                    "at %s (>= %s), first SATA test at %s (before the array) | %s"
                    % (mdname, ctx.vm.devices.get("SATA"), ctx.vm.devices.get("SAS"), t_create, t_stop,
                       len(during), both or "none", sata_started_during, sas_testing,
                       (s_held or {}).get("last_outcome"), (s_last or {}).get("pending_kind"), t2, t_stop,
                       f.get("sata_started1"), " | ".join(f["md_lines"])))
    ctx.c.check("selftest_md_members_never_together", md)


def cleanup(r):
    """leave the drives and the configuration as found"""
    try:
        r.write_conf("")
        if r.facts.get("md"):  # (the md check stops it; this is for a check that crashed)
            r.sh("[ -e %s ] && { mdadm --stop %s; mdadm --zero-superblock $SATA $SAS; }\n" % (MD, MD))
        r.sh("echo 0 >%s\n[ -e /tmp/ww-selftest-kmsg.pid ] && kill $(cat /tmp/ww-selftest-kmsg.pid) 2>/dev/null\n"
             % SDEBUG_OPTS + SATA_PM +
             'for p in "$d" "$port"; do echo auto >"$p/power/control"; done\n', timeout=120)
    except Exception as e:  # the checks above are recorded already
        r.ctx.c.record(False, "selftest_cleanup", "%s: %s" % (type(e).__name__, e))
