#!/usr/bin/env python3
"""QEMU VM integration test for wearwatch (python3 standard library only).

Boots Debian's kernel under TCG once, with an NVMe drive (QEMU nvme), a SATA
drive (QEMU AHCI + ide-hd) and a SAS-like drive (guest scsi_debug), runs
`wearwatch serve` in the guest (tests/vm/guest.sh) and checks its /metrics,
/api/v1/drives and /healthz against what smartctl / nvme-cli read from the
same drives in the same guest, with QMP fault injection.

Exit codes: 0 all checks passed, 1 a check failed, 77 skipped because
qemu-system-x86_64 or /boot/vmlinuz-* is missing.

  test_vm.py --binary build/wearwatch --source . --artifacts build/vm-artifacts
  test_vm.py ... --capture-fixtures tests/fixtures/vm   # raw-byte capture boot
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request



from vmlab import SKIP, VM, find_kernel, log


# ------------------------------------------------------ capture fixtures --

CAPTURE_SCRIPT = r'''
O=/run/ww-share/capture
rm -rf $O; mkdir -p $O/nvme $O/sata $O/sas
v() { echo "## $*" >>$O/versions.txt; "$@" >>$O/versions.txt 2>&1; }
v uname -r
v smartctl --version
v nvme version
v sg_logs --version
# NVMe (QEMU nvme, serial WWNVME0001)
nvme id-ctrl $NVME_CTRL --raw-binary >$O/nvme/id-ctrl.bin
nvme id-ctrl $NVME_CTRL -o json >$O/nvme/id-ctrl.json
nvme id-ns $NVME_NS --raw-binary >$O/nvme/id-ns-1.bin
nvme id-ns $NVME_NS -o json >$O/nvme/id-ns-1.json
nvme smart-log $NVME_CTRL --raw-binary >$O/nvme/smart-log.bin
nvme smart-log $NVME_CTRL -o json >$O/nvme/smart-log.json
nvme get-log $NVME_CTRL --log-id=0x09 --log-len=512 --raw-binary >$O/nvme/endurance-log-09h.bin 2>$O/nvme/endurance-log-09h.err; echo "rc=$?" >>$O/nvme/endurance-log-09h.err
smartctl -j -x $NVME_CTRL >$O/nvme/smartctl-x.json
# SATA (QEMU AHCI ide-hd, model WWSATA_DISK) through the SAT layer.
# ATA PASS-THROUGH(16): PIO data-in, T_DIR=1, BYTE_BLOCK=1, T_LENGTH=sector count, CK_COND=0
sg_raw -r 512 -o $O/sata/identify.bin $SATA_SG 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 >$O/sata/identify.sg_raw.txt 2>&1
sg_raw -r 512 -o $O/sata/smart-read-data.bin $SATA_SG 85 08 0e 00 d0 00 01 00 00 00 4f 00 c2 00 b0 00 >$O/sata/smart-read-data.sg_raw.txt 2>&1
sg_raw -r 512 -o $O/sata/smart-read-thresholds.bin $SATA_SG 85 08 0e 00 d1 00 01 00 01 00 4f 00 c2 00 b0 00 >$O/sata/smart-read-thresholds.sg_raw.txt 2>&1
# IDENTIFY with CK_COND=1 (the lab says QEMU aborts it): keep the outcome
sg_raw -r 512 $SATA_SG 85 08 2e 00 00 00 01 00 00 00 00 00 00 00 ec 00 >$O/sata/identify-ck_cond1.sg_raw.txt 2>&1; echo "rc=$?" >>$O/sata/identify-ck_cond1.sg_raw.txt
smartctl -r ioctl,2 -a $SATA >$O/sata/smartctl-r-ioctl2-a.txt 2>&1
smartctl -j -a $SATA >$O/sata/smartctl-a.json
smartctl -j -x $SATA >$O/sata/smartctl-x.json
sg_sat_identify --raw $SATA_SG >$O/sata/identify.sg_sat_identify.bin 2>/dev/null
# SAS-like (scsi_debug dev_size_mb=64 delay=0)
sg_logs --raw -p 0x0 $SAS_SG >$O/sas/log-00.bin
sg_logs -p 0x0 $SAS_SG >$O/sas/log-00.txt 2>&1
sg_logs --raw -p 0xd $SAS_SG >$O/sas/log-0d.bin
sg_logs -p 0xd $SAS_SG >$O/sas/log-0d.txt 2>&1
sg_logs --raw -p 0xd,0x1 $SAS_SG >$O/sas/log-0d-01.bin
sg_logs -p 0xd,0x1 $SAS_SG >$O/sas/log-0d-01.txt 2>&1
sg_logs --raw -p 0x2f $SAS_SG >$O/sas/log-2f.bin
sg_logs -p 0x2f $SAS_SG >$O/sas/log-2f.txt 2>&1
sg_logs -p 0x0,0xff $SAS_SG >$O/sas/log-00-ff.txt 2>&1
sg_inq --raw $SAS_SG >$O/sas/inquiry.bin
sg_inq $SAS_SG >$O/sas/inquiry.txt 2>&1
sg_vpd --raw -p 0x0 $SAS_SG >$O/sas/vpd-00.bin
sg_vpd -p 0x0 $SAS_SG >$O/sas/vpd-00.txt 2>&1
sg_vpd --raw -p 0x83 $SAS_SG >$O/sas/vpd-83.bin
sg_vpd -p 0x83 $SAS_SG >$O/sas/vpd-83.txt 2>&1
sg_vpd --raw -p 0x80 $SAS_SG >$O/sas/vpd-80.bin
sg_vpd -p 0x80 $SAS_SG >$O/sas/vpd-80.txt 2>&1
sg_vpd --raw -p 0xb1 $SAS_SG >$O/sas/vpd-b1.bin
sg_vpd -p 0xb1 $SAS_SG >$O/sas/vpd-b1.txt 2>&1
smartctl -j -x $SAS >$O/sas/smartctl-x.json
smartctl -x $SAS >$O/sas/smartctl-x.txt 2>&1
ls -l $O/nvme $O/sata $O/sas
'''


def capture(vm, dest):
    rc, out = vm.run(CAPTURE_SCRIPT, timeout=300)
    log(out)
    src = os.path.join(vm.share, "capture")
    if not os.path.isdir(src):
        log("capture: nothing captured (rc %d)" % rc)
        return 1
    os.makedirs(dest, exist_ok=True)
    for root, _dirs, files in os.walk(src):
        for fn in files:
            s = os.path.join(root, fn)
            d = os.path.join(dest, os.path.relpath(s, src))
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copyfile(s, d)
    log("capture: copied to %s" % dest)
    return 0


# ---------------------------------------------------------------- checks --

def parse_prom(text):
    """Prometheus text format -> list of (name, labels dict, float value)."""
    out = []
    lre = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$', line)
        if not m:
            continue
        labels = {}
        if m.group(3):
            for k, v in lre.findall(m.group(3)):
                labels[k] = v.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")
        try:
            val = float(m.group(4))
        except ValueError:
            continue
        out.append((m.group(1), labels, val))
    return out


class Checks:
    def __init__(self, vm):
        self.vm = vm
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.results = []
        self.scrape_n = 0

    def record(self, ok, name, detail):
        tag = "PASS" if ok else "FAIL"
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        self.results.append({"check": name, "result": tag, "detail": detail})
        log("%s %s: %s" % (tag, name, detail))

    def skip(self, name, detail):
        self.skipped += 1
        self.results.append({"check": name, "result": "SKIP", "detail": detail})
        log("SKIP %s: %s" % (name, detail))

    def check(self, name, fn):
        try:
            ok, detail = fn()
        except Exception as e:  # a check that crashes fails
            ok, detail = False, "exception %s: %s" % (type(e).__name__, e)
        if ok is None:
            self.skip(name, detail)
        else:
            self.record(ok, name, detail)

    def scrape(self, tag):
        """GET /metrics, save it, return (status, text, samples)."""
        st, body, hdr = self.vm.http("/metrics")
        self.scrape_n += 1
        p = os.path.join(self.vm.art, "scrapes", "%03d-%s.prom" % (self.scrape_n, tag))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(body if st else "# ERROR %s\n" % body)
        return st, body, (parse_prom(body) if st == 200 else []), hdr

    def api(self, tag):
        st, body, _ = self.vm.http("/api/v1/drives")
        self.scrape_n += 1
        p = os.path.join(self.vm.art, "scrapes", "%03d-%s.json" % (self.scrape_n, tag))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(body if st else "ERROR %s\n" % body)
        if st != 200:
            return st, None
        try:
            return st, json.loads(body)
        except ValueError:
            return st, None


def api_drive_list(doc):
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        for k in ("drives", "items", "data"):
            if isinstance(doc.get(k), list):
                return doc[k]
    return []


def flat_strings(obj, depth=0):
    """Every string/number leaf of a JSON object (for matching a drive)."""
    out = []
    if depth > 4:
        return out
    if isinstance(obj, dict):
        for v in obj.values():
            out += flat_strings(v, depth + 1)
    elif isinstance(obj, list):
        for v in obj:
            out += flat_strings(v, depth + 1)
    elif isinstance(obj, (str, int)):
        out.append(str(obj))
    return out


def guest_json(vm, cmd, timeout=120):
    rc, out = vm.run(cmd + "\n", timeout=timeout)
    try:
        return json.loads(out[out.index("{"):])
    except ValueError:
        raise RuntimeError("`%s` rc %d, not JSON: %s" % (cmd, rc, out[:300]))


TIMING_SCRIPT = r"""
jobs="start - /bin/true"
for d in $NVME_NS $SATA $SAS; do jobs="$jobs ;; wearwatch_show $d $WW show $d --json"; done
for d in $NVME_CTRL $SATA $SAS; do jobs="$jobs ;; smartctl_x $d smartctl -j -x $d"; done
/usr/bin/python3 $SRC/tests/vm/guest_time.py 3 -- $jobs
"""


def series(samples, name, drive_id, **labels):
    """Values of metric `name` for drive_id whose labels include `labels`."""
    out = []
    for n, lb, v in samples:
        if n != name or lb.get("drive") != drive_id:
            continue
        if all(lb.get(k) == val for k, val in labels.items()):
            out.append((lb, v))
    return out


def one(samples, name, drive_id, **labels):
    r = series(samples, name, drive_id, **labels)
    if len(r) != 1:
        return None
    return r[0][1]


def drive_ids(samples, devices):
    """Map role (nvme/sata/sas) -> drive label, from wearwatch_drive_info{device=}."""
    want = {"nvme": {os.path.basename(devices.get("NVME_NS", "")),
                     os.path.basename(devices.get("NVME_CTRL", ""))},
            "sata": {os.path.basename(devices.get("SATA", ""))},
            "sas": {os.path.basename(devices.get("SAS", ""))}}
    ids = {}
    for n, lb, _v in samples:
        if n != "wearwatch_drive_info":
            continue
        for role, names in want.items():
            if lb.get("device") in names and lb.get("device"):
                ids[role] = lb.get("drive")
    return ids


def find_key(obj, keys, depth=0):
    """First value under any key in `keys` anywhere in a JSON object."""
    if depth > 6:
        return None
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in keys and not isinstance(v, (dict, list)):
                return v
        for v in obj.values():
            r = find_key(v, keys, depth + 1)
            if r is not None:
                return r
    elif isinstance(obj, list):
        for v in obj:
            r = find_key(v, keys, depth + 1)
            if r is not None:
                return r
    return None


def timing_check(vm, c, ww):
    """Wall and CPU time of one poll of the three drives, wearwatch vs smartctl."""
    rc, out = vm.run("WW=%s\nSRC=%s\n%s" % (ww, os.path.abspath(vm.args.source), TIMING_SCRIPT),
                     timeout=600)
    runs = []
    for line in out.splitlines():
        if line.startswith("{"):
            runs.append(json.loads(line))
    if not runs:
        return False, "no timings: rc %d %s" % (rc, out[:300])
    summ = {}
    for tool in ("start", "wearwatch_show", "smartctl_x"):
        for rep in (1, 2, 3):
            rr = [r for r in runs if r["tool"] == tool and r["rep"] == rep]
            if rr:
                summ.setdefault(tool, []).append({
                    "wall_s": round(sum(r["wall_s"] for r in rr), 3),
                    "cpu_s": round(sum(r["user_s"] + r["sys_s"] for r in rr), 3),
                    "all_rc0": all(r["rc"] == 0 for r in rr)})
    per_drive = {}
    for r in runs:
        per_drive.setdefault("%s %s" % (r["tool"], r["device"]), []).append(r)
    per_drive_median = {}
    for k, rr in per_drive.items():
        w = sorted(r["wall_s"] for r in rr)
        cpu = sorted(r["user_s"] + r["sys_s"] for r in rr)
        per_drive_median[k] = {"wall_s": round(w[len(w) // 2], 4), "cpu_s": round(cpu[len(cpu) // 2], 4),
                               "rc": sorted({r["rc"] for r in rr})}
    doc = {"what": "one poll of the three VM drives (NVMe, SATA, scsi_debug): `wearwatch show DEV --json` "
                   "per drive vs `smartctl -j -x` per drive, in the QEMU TCG guest (1 vCPU); wall = perf_counter, "
                   "CPU = user+sys from wait4() rusage (tests/vm/guest_time.py); 3 repetitions; "
                   "per_poll_sums = sum over the 3 drives per repetition",
           "guest_kernel": vm.kver, "per_drive_median": per_drive_median,
           "per_poll_sums": summ, "per_run": runs}
    with open(os.path.join(vm.art, "vm-timing.json"), "w") as f:
        json.dump(doc, f, indent=1)
    def med(tool, k):
        v = sorted(x[k] for x in summ.get(tool, []))
        return v[len(v) // 2] if v else None
    ww_ok = all(x["all_rc0"] for x in summ.get("wearwatch_show", [{"all_rc0": False}]))
    for k, m in sorted(per_drive_median.items()):
        log("vm-timing: %-28s median of 3: wall %.4f s CPU %.4f s (exit %s)" % (k, m["wall_s"], m["cpu_s"], m["rc"]))
    line = ("3 drives, median of 3: wearwatch show wall %.4f s CPU %.4f s; smartctl -j -x wall %.4f s CPU %.4f s; "
            "process start /bin/true CPU %.4f s" % (med("wearwatch_show", "wall_s") or 0, med("wearwatch_show", "cpu_s") or 0,
                                                   med("smartctl_x", "wall_s") or 0, med("smartctl_x", "cpu_s") or 0,
                                                   med("start", "cpu_s") or 0))
    log("vm-timing: " + line)
    return ww_ok, line + ("" if ww_ok else "; `wearwatch show` exited non-zero (see vm-timing.json)")


def service_exit(vm):
    """guest.sh sends SIGTERM at power-off and records the exit status."""
    p = os.path.join(vm.share, "service.rc")
    if not os.path.exists(p):
        return False, "no service.rc: the guest did not reach its orderly power-off"
    with open(p) as f:
        rc = f.read().strip()
    gl = ""
    with open(os.path.join(vm.share, "guest.log")) as f:
        gl = f.read()
    killed = "ignored SIGTERM" in gl
    return rc == "0" and not killed, "exit status %s after SIGTERM%s" % (
        rc, " (needed SIGKILL after 5 s)" if killed else "")


def run_checks(vm, c, args):
    t_boot = time.time()
    if not vm.wait_ready(300):
        c.record(False, "guest_boot", "guest not ready in 300 s (QEMU %s); see console.log"
                 % ("running" if vm.alive() else "exited"))
        return
    dev = vm.devices
    c.record(all(dev.get(k) for k in ("NVME_CTRL", "NVME_NS", "SATA", "SATA_SG", "SAS", "SAS_SG")),
             "guest_drives", "ready after %.1f s: %s" % (time.time() - t_boot,
                                                      " ".join("%s=%s" % kv for kv in sorted(dev.items()))))
    help_txt = ""
    try:
        with open(os.path.join(vm.share, "serve-help.txt")) as f:
            help_txt = f.read()
    except OSError:
        pass
    has_poll_flag = "--poll-interval" in help_txt
    poll = args.poll if has_poll_flag else 60
    log("vm: `wearwatch serve --help` in the guest: %s" % help_txt.strip().replace("\n", " | ")[:400])
    if not has_poll_flag:
        log("vm: serve has no --poll-interval; assuming a %d s poll" % poll)
    ww = os.path.abspath(args.binary)

    # Service up: /healthz answers.
    deadline = time.time() + 90
    st = None
    while time.time() < deadline:
        st, body, _ = vm.http("/healthz", timeout=5)
        if st is not None:
            break
        if not vm.alive():
            break
        rc_, out_ = vm.run('kill -0 "$(cat /run/wearwatch.pid 2>/dev/null)" 2>/dev/null && echo alive || echo dead\n', timeout=30)
        if "dead" in out_:
            break
        time.sleep(1)
    if st is None:
        svc = ""
        try:
            with open(os.path.join(vm.share, "service.log"), errors="replace") as f:
                svc = f.read()[-400:]
        except OSError:
            pass
        c.record(False, "service_up", "no HTTP answer on the forwarded port (service exited or 90 s passed); service log: %r" % svc)
    else:
        c.record(st == 200, "healthz", "GET /healthz -> %s %r" % (st, body[:80]))

    if st is None:
        # Nothing else can be checked against the service; still measure the
        # guest-side timing so the harness and the guest tools are exercised.
        c.check("timing_show_vs_smartctl", lambda: timing_check(vm, c, ww))
        return

    # First poll of all three drives.
    samples, ids, text = [], {}, ""
    deadline = time.time() + poll + 60
    while st is not None and time.time() < deadline:
        sst, text, samples, hdr = c.scrape("first")
        ids = drive_ids(samples, dev)
        if len(ids) == 3 and all(one(samples, "wearwatch_drive_temperature_celsius", i) is not None
                                 for i in ids.values()):
            break
        time.sleep(2)
    c.record(len(ids) == 3, "metrics_drives",
             "wearwatch_drive_info lists %s" % ids)

    nv, sa, ss = ids.get("nvme"), ids.get("sata"), ids.get("sas")

    # Keep what `wearwatch scan` and `show` say about each drive (triage).
    vm.run("""WW=%s
A=/run/ww-share/show
mkdir -p $A
"$WW" scan >$A/scan.txt 2>&1; echo "rc=$?" >>$A/scan.txt
for d in $NVME_NS $SATA $SAS; do
	n=${d#/dev/}
	"$WW" show $d --json >$A/$n.json 2>$A/$n.stderr; echo "rc=$?" >>$A/$n.stderr
	"$WW" show $d >$A/$n.txt 2>&1; echo "rc=$?" >>$A/$n.txt
done
""" % ww, timeout=120)

    # /api/v1/drives
    def api_check():
        ast, doc = c.api("api")
        lst = api_drive_list(doc)
        tr = {}
        for d in lst:
            t = d.get("transport") if isinstance(d, dict) else None
            leaves = set(flat_strings(d))
            for role, did in ids.items():
                if did in leaves:
                    tr[role] = t
        others = [d.get("id") if isinstance(d, dict) else d for d in lst
                  if not (isinstance(d, dict) and d.get("id") in ids.values())]
        ok = ast == 200 and tr == {"nvme": "nvme", "sata": "sata", "sas": "sas"} and not others
        return ok, "status %s, %d drives, transports by role %s (want nvme/sata/sas), other drives %s" % (
            ast, len(lst), tr, others or "none")
    c.check("api_drives_transports", api_check)

    def promtool_check():
        if not shutil.which("promtool"):
            return None, "promtool not installed (apt package prometheus)"
        if not text:
            return False, "no /metrics text"
        r = subprocess.run(["promtool", "check", "metrics"], input=text.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = r.stdout.decode(errors="replace").strip()
        return r.returncode == 0, "rc %d %s" % (r.returncode, out[:600])
    c.check("promtool_check_metrics", promtool_check)

    # ---- NVMe temperature and limits
    sl0 = guest_json(vm, "nvme smart-log $NVME_CTRL -o json")
    def nvme_temp():
        v = one(samples, "wearwatch_drive_temperature_celsius", nv)
        g = sl0["temperature"] - 273
        return v == 50 and v == g, "metric %s, nvme-cli %d K = %d C, expected 50" % (v, sl0["temperature"], g)
    c.check("nvme_temperature", nvme_temp)

    def nvme_limits():
        w = one(samples, "wearwatch_drive_temperature_limit_celsius", nv, kind="warning")
        cr = one(samples, "wearwatch_drive_temperature_limit_celsius", nv, kind="critical")
        return w == 70 and cr == 100, "warning %s (want 70), critical %s (want 100)" % (w, cr)
    c.check("nvme_temperature_limits", nvme_limits)

    # ---- SAS (scsi_debug)
    def sas_temp():
        v = one(samples, "wearwatch_drive_temperature_celsius", ss)
        ref = one(samples, "wearwatch_drive_temperature_limit_celsius", ss, kind="reference")
        sj = guest_json(vm, "smartctl -j -x $SAS")
        sm = (sj.get("temperature") or {}).get("current")
        env = find_key(sj.get("scsi_environmental_reports", {}), ("current",))
        rc, lg = vm.run("sg_logs -p 0xd $SAS_SG\n")
        m = re.search(r"Current temperature = (\d+)", lg)
        lp = int(m.group(1)) if m else None
        # the headline is what smartctl 7.3 prints (the environmental subpage,
        # 40 C); page 0x0D's own reading (38 C, as sg_logs prints it) is
        # exported beside it with its page
        p0d = one(samples, "wearwatch_drive_scsi_temperature_celsius", ss, page="0x0d")
        penv = one(samples, "wearwatch_drive_scsi_temperature_celsius", ss, page="0x0d/0x01")
        return (v is not None and v == env and v == penv and ref == 65 and lp == 38 and p0d == lp,
                "metric %s (smartctl 7.3 environmental subpage 0x0D/0x01: %s; temperature.current %s), "
                "page 0x0D series %s (sg_logs: %s, want 38), 0x0D/0x01 series %s, reference %s (want 65)"
                % (v, env, sm, p0d, lp, penv, ref))
    c.check("sas_temperature", sas_temp)

    def sas_health():
        v = one(samples, "wearwatch_drive_smart_healthy", ss)
        rc, lg = vm.run("sg_logs -p 0x2f $SAS_SG\n")
        ie_ok = "IE asc = 0x0, ascq = 0x0" in lg
        asc = one(samples, "wearwatch_drive_scsi_informational_exception_asc", ss)
        return v == 1 and ie_ok, "smart_healthy %s (want 1), IE asc metric %s, sg_logs IE ASC 0: %s" % (v, asc, ie_ok)
    c.check("sas_smart_healthy", sas_health)

    # ---- SATA attributes, power-on hours, temperature
    sj = guest_json(vm, "smartctl -j -A -H $SATA")
    with open(os.path.join(vm.art, "sata-smartctl-A-H.json"), "w") as f:
        json.dump(sj, f, indent=1)
    _st, _t, samples, _h = c.scrape("sata")

    def sata_attrs():
        table = sj.get("ata_smart_attributes", {}).get("table", [])
        if not table:
            return False, "smartctl returned no attribute table"
        bad = []
        for a in table:
            want = {"value": a["value"], "worst": a["worst"], "threshold": a["thresh"],
                    "raw": a["raw"]["value"]}
            for kind, wv in want.items():
                r = series(samples, "wearwatch_drive_ata_attribute", sa, id=str(a["id"]), kind=kind)
                if len(r) != 1:
                    bad.append("%d/%s: %d series" % (a["id"], kind, len(r)))
                    continue
                lb, v = r[0]
                if v != wv:
                    bad.append("%d/%s: %s != smartctl %s" % (a["id"], kind, v, wv))
                if lb.get("name") != a["name"]:
                    bad.append("%d: name %r != smartctl %r" % (a["id"], lb.get("name"), a["name"]))
        ids_m = sorted({int(lb["id"]) for n, lb, v in samples
                        if n == "wearwatch_drive_ata_attribute" and lb.get("drive") == sa and lb.get("id", "").isdigit()})
        ids_s = sorted(a["id"] for a in table)
        if ids_m != ids_s:
            bad.append("attribute ids %s != smartctl %s" % (ids_m, ids_s))
        return not bad, ("%d attributes x 4 kinds equal smartctl" % len(table)) if not bad else "; ".join(bad[:12])
    c.check("sata_ata_attributes", sata_attrs)

    def sata_poh():
        v = one(samples, "wearwatch_drive_power_on_seconds_total", sa)
        h = (sj.get("power_on_time") or {}).get("hours")
        if h is None:
            return False, "smartctl -A did not report power_on_time"
        return v is not None and int(v // 3600) == h, "power_on_seconds_total %s (= %s h), smartctl %s h" % (
            v, None if v is None else v / 3600, h)
    c.check("sata_power_on_hours", sata_poh)

    def sata_temp():
        v = one(samples, "wearwatch_drive_temperature_celsius", sa)
        t = (sj.get("temperature") or {}).get("current")
        return v is not None and v == t, "metric %s, smartctl temperature.current %s" % (v, t)
    c.check("sata_temperature", sata_temp)

    def sata_health():
        v = one(samples, "wearwatch_drive_smart_healthy", sa)
        p = (sj.get("smart_status") or {}).get("passed")
        return p is True and v == 1, "smart_healthy %s, smartctl passed %s" % (v, p)
    c.check("sata_smart_healthy", sata_health)

    c.check("timing_show_vs_smartctl", lambda: timing_check(vm, c, ww))

    # ---- NVMe written bytes after 100 MiB O_DIRECT
    def nvme_written():
        b = guest_json(vm, "nvme smart-log $NVME_CTRL -o json")
        m0 = one(c.scrape("nvme-before-dd")[2], "wearwatch_drive_host_written_bytes_total", nv)
        rc, out = vm.run("dd if=/dev/zero of=$NVME_NS bs=1M count=100 oflag=direct 2>&1\n", timeout=300)
        if rc != 0:
            return False, "dd failed rc %d: %s" % (rc, out[-200:])
        a = guest_json(vm, "nvme smart-log $NVME_CTRL -o json")
        du0, du1 = int(b["data_units_written"]), int(a["data_units_written"])
        want = du1 * 512000
        deadline = time.time() + 2 * poll + 10
        v = du = None
        while time.time() < deadline:
            smp = c.scrape("nvme-after-dd")[2]
            v = one(smp, "wearwatch_drive_host_written_bytes_total", nv)
            du = one(smp, "wearwatch_drive_nvme_data_units_written_total", nv)
            if v == want:
                break
            time.sleep(1)
        ok = du1 - du0 >= 204 and v == want and du == du1
        return ok, ("nvme-cli data_units_written %d -> %d (+%d, want >= 204); host_written_bytes_total %s -> %s, "
                    "want %d x 512000 = %d; nvme_data_units_written_total %s (want %d)"
                    % (du0, du1, du1 - du0, m0, v, du1, want, du, du1))
    c.check("nvme_host_written_bytes", nvme_written)

    def nvme_written_api():
        a = guest_json(vm, "nvme smart-log $NVME_CTRL -o json")
        want = int(a["data_units_written"]) * 512000
        _s, doc = c.api("api-after-dd")
        for d in api_drive_list(doc):
            if nv in set(flat_strings(d)):
                v = find_key(d, ("host_written_bytes", "host_written_bytes_total"))
                if v is None:
                    st2, body, _ = vm.http("/api/v1/drives/" + urllib.request.quote(nv, safe=""))
                    try:
                        v = find_key(json.loads(body), ("host_written_bytes", "host_written_bytes_total"))
                    except ValueError:
                        v = None
                if isinstance(v, dict):
                    v = v.get("value")
                return v is not None and int(v) == want, "API host_written_bytes %s, nvme-cli %d" % (v, want)
        return False, "NVMe drive %s not in /api/v1/drives" % nv
    c.check("nvme_host_written_bytes_api", nvme_written_api)

    # ---- SATA runtime suspend: stays suspended across >= 3 polls, standby 1
    def sata_suspend():
        script = r"""
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
echo "disk=$d port=$port"
for p in "$d" "$port"; do
	echo 1000 >"$p/power/autosuspend_delay_ms" 2>/dev/null
	echo auto >"$p/power/control"
done
i=0
while [ $i -lt 100 ]; do
	s=$(cat "$d/power/runtime_status")
	[ "$s" = suspended ] && break
	sleep 0.2; i=$((i+1))
done
echo "status=$s after=$i"
echo "active_ms=$(cat $d/power/runtime_active_time)"
"""
        rc, out = vm.run(script, timeout=60)
        m = re.search(r"status=(\S+)", out)
        if not m or m.group(1) != "suspended":
            return False, "disk did not suspend: %s" % out.strip().replace("\n", " | ")
        act0 = int(re.search(r"active_ms=(\d+)", out).group(1))
        t0 = time.time()
        time.sleep(3 * poll + 2)
        rc, out2 = vm.run('d=$(readlink -f /sys/block/${SATA#/dev/}/device)\n'
                          'echo "status=$(cat $d/power/runtime_status) active_ms=$(cat $d/power/runtime_active_time)"\n')
        m2 = re.search(r"status=(\S+) active_ms=(\d+)", out2)
        stay = m2 and m2.group(1) == "suspended"
        act1 = int(m2.group(2)) if m2 else -1
        sb = one(c.scrape("sata-suspended")[2], "wearwatch_drive_standby", sa)
        ok = bool(stay) and act1 - act0 < 500 and sb == 1
        return ok, ("suspended, after %.0f s (>= 3 polls of %d s): runtime_status %s, runtime_active_time +%d ms "
                    "(want < 500: never resumed); wearwatch_drive_standby %s (want 1)"
                    % (time.time() - t0, poll, m2.group(1) if m2 else out2, act1 - act0, sb))
    c.check("sata_runtime_suspend", sata_suspend)

    # ---- checks from tests/vm/checks_*.py (before the NVMe faults below)
    ctx = Ctx(vm, c, ids, poll, ww)
    for mod in getattr(vm, "plugins", []):
        if not selected(mod, args.only):
            log("vm: %s not run (--only)" % mod.__name__)
            continue
        try:
            mod.run(ctx)
        except Exception as e:  # a plugin that crashes fails, the rest go on
            c.record(False, mod.__name__, "plugin raised %s: %s" % (type(e).__name__, e))

    # ---- NVMe critical warning injection
    def nvme_cw():
        vm.qmp.cmd("qom-set", path="/machine/peripheral/nvme0", property="smart_critical_warning", value=16)
        t0 = time.time()
        g = guest_json(vm, "nvme smart-log $NVME_CTRL -o json")
        deadline = t0 + poll + 5
        r = []
        while time.time() < deadline:
            r = series(c.scrape("nvme-cw")[2], "wearwatch_drive_critical_warning", nv)
            bits = {lb.get("bit"): v for lb, v in r}
            if bits.get("volatile_memory_backup_failed") == 1:
                break
            time.sleep(0.5)
        bits = {lb.get("bit"): v for lb, v in r}
        others = {k: v for k, v in bits.items() if k != "volatile_memory_backup_failed" and v != 0}
        ok = g.get("critical_warning") == 16 and bits.get("volatile_memory_backup_failed") == 1 and not others
        return ok, ("qom-set 16 -> nvme-cli critical_warning %s; metric volatile_memory_backup_failed=%s after %.1f s "
                    "(poll %d s); other bits raised: %s" % (g.get("critical_warning"),
                    bits.get("volatile_memory_backup_failed"), time.time() - t0, poll, others or "none"))
    c.check("nvme_critical_warning_injection", nvme_cw)

    # ---- LAST: hot-remove the NVMe drive
    def nvme_remove():
        vm.qmp.cmd("device_del", id="nvme0")
        ev = vm.qmp.wait_event("DEVICE_DELETED", 60)
        t0 = time.time()
        rc, out = vm.run("ls /dev/nvme* 2>&1; echo end\n")
        deadline = t0 + 2 * poll + 10
        pres = None
        while time.time() < deadline:
            pres = one(c.scrape("nvme-removed")[2], "wearwatch_drive_present", nv)
            if pres == 0:
                break
            time.sleep(1)
        hz, _b, _h = vm.http("/healthz")
        ms, mt, _x, _hh = c.scrape("after-removal")
        rc2, alive = vm.run('kill -0 "$(cat /run/wearwatch.pid)" && echo alive || echo dead\n')
        ok = ev is not None and pres == 0 and hz == 200 and ms == 200 and "alive" in alive
        return ok, ("DEVICE_DELETED %s; guest /dev: %s; wearwatch_drive_present %s after %.1f s (want 0); "
                    "then /healthz %s, /metrics %s, service %s" % (
                        "seen" if ev else "NOT seen", out.strip().replace("\n", " "), pres,
                        time.time() - t0, hz, ms, alive.strip()))
    c.check("nvme_hot_remove", nvme_remove)

    # ---- checks from tests/vm/checks_*.py that need the removal done
    for mod in getattr(vm, "plugins", []):
        if hasattr(mod, "run_after_removal") and selected(mod, args.only):
            try:
                mod.run_after_removal(ctx)
            except Exception as e:
                c.record(False, mod.__name__, "plugin raised %s: %s" % (type(e).__name__, e))


def selected(mod, only):
    """--only: the modules whose run() is called (by name, e.g. checks_70_drift;
    every module's SERVE_ARGS and qemu_args still apply, so the boot and the
    service are the full suite's)"""
    return not only or mod.__name__ in only.split(",")


def load_plugins(source):
    """tests/vm/checks_*.py modules, sorted by name (see README "Adding checks")."""
    import importlib.util
    mods = []
    for path in sorted(glob.glob(os.path.join(source, "tests/vm/checks_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append(mod)
    return mods


class Ctx:
    """What a plugin's run(ctx) gets: the VM, the check recorder, the drive ids
    by kind ("nvme", "sata", "sas"), the poll interval, the binary path, and
    the harness helpers."""
    def __init__(self, vm, c, ids, poll, binary):
        self.vm, self.c, self.ids, self.poll, self.binary = vm, c, ids, poll, binary
        self.series, self.one, self.guest_json = series, one, guest_json
        self.parse_prom = parse_prom


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="")
    ap.add_argument("--source", required=True)
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--poll", type=int, default=2, help="service poll interval, s")
    ap.add_argument("--only", default="", metavar="MODULE[,MODULE...]",
                    help="run only these checks_*.py modules' checks (the base checks always run)")
    ap.add_argument("--capture-fixtures", metavar="DIR",
                    help="capture boot: write raw drive responses to DIR, no service")
    args = ap.parse_args()

    if not shutil.which("qemu-system-x86_64"):
        log("SKIP vm_integration: qemu-system-x86_64 not installed (scripts/deps.sh test)")
        return SKIP
    if not glob.glob("/boot/vmlinuz-*"):
        log("SKIP vm_integration: no /boot/vmlinuz-* (apt package linux-image-amd64; scripts/deps.sh test)")
        return SKIP
    kver, kernel = find_kernel()
    if not kernel:
        log("FAIL vm_integration: /boot/vmlinuz-* present but no matching /lib/modules/KVER")
        log("vm_integration: 0 passed, 1 failed")
        return 1
    # ctest's timeout sends SIGTERM (or SIGKILL): end QEMU with us either way.
    def on_signal(signum, _frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    art = os.path.abspath(args.artifacts)
    args.artifacts = art
    if os.path.isdir(art):
        shutil.rmtree(art)
    os.makedirs(art)
    log("vm: kernel %s, artifacts %s" % (kernel, art))

    if args.capture_fixtures:
        vm = VM(args, kver, kernel, serve=False)
        try:
            vm.start()
            if not vm.wait_ready(240):
                log("capture: guest not ready; see %s/console.log" % art)
                return 1
            log("vm: guest ready after %.1f s: %s" % (time.time() - vm.t0, vm.devices))
            return capture(vm, os.path.abspath(args.capture_fixtures))
        finally:
            vm.stop()

    if not args.binary or not os.access(args.binary, os.X_OK):
        log("FAIL vm_integration: wearwatch binary %r not executable" % args.binary)
        log("vm_integration: 0 passed, 1 failed")
        return 1

    vm = VM(args, kver, kernel, serve=True)
    vm.plugins = load_plugins(os.path.abspath(args.source))
    log("vm: plugins %s" % [m.__name__ for m in vm.plugins])
    c = Checks(vm)
    try:
        vm.start()
        run_checks(vm, c, args)
    except (Exception, KeyboardInterrupt) as e:
        c.record(False, "harness", "%s: %s" % (type(e).__name__, e))
    finally:
        vm.stop()
    if os.path.exists(os.path.join(vm.share, "serve-cmdline.txt")):
        c.check("service_sigterm_exit", lambda: service_exit(vm))
    with open(os.path.join(art, "results.json"), "w") as f:
        json.dump(c.results, f, indent=1)
    log("vm_integration: %d passed, %d failed" % (c.passed, c.failed)
        + (" (%d skipped)" % c.skipped if c.skipped else ""))
    return 0 if c.failed == 0 and c.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
