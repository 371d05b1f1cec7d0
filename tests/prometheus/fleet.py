#!/usr/bin/env python3
"""A small wearwatch fleet under a real Prometheus and Alertmanager, on loopback.

Used by test_fleet.py (rules, alerts, recording rules, Grafana panel queries)
and by the dashboard browser test (the fleet page), which runs it as

    fleet.py WEARWATCH_BINARY SOURCE_DIR WORKDIR --ready FILE

and gets a JSON description of the fleet in FILE once everything answers; the
fleet stops when the process gets SIGTERM or its standard input closes.

What it starts, all bound to 127.0.0.0/8 addresses with ports the kernel
picked, all in WORKDIR, all stopped at exit:
- three `wearwatch serve --replay` instances, one per loopback address
  (127.0.0.1, .2, .3: three hosts to Prometheus), each from its own
  wearwatch.conf: host A and host B replay the same capture file (one drive
  id on two targets, as a dual-ported SAS drive in a shared JBOD is);
- with Fleet(kinds=True), host D on 127.0.0.5: `wearwatch serve` on the
  fake sysfs tree tests/fixtures/sysfs/basic reading two of its drives
  through the smartctl backend, a stand-in smartctl first on its PATH
  answering with the public smartctl JSON of three real drives
  (../shared/fixtures, SOURCES.md; REAL_DRIVES below): an NVMe drive, a
  SATA hard disk and a SAS hard disk (the VM's drives are emulated); the
  tree is copied with its NVMe controller's PCI device runtime-active
  (the tree has it suspended, which wearwatch leaves alone);
- a fourth target on 127.0.0.4 where nothing listens (up == 0);
- Debian's prometheus (scrape and evaluation every second; host A scraped
  in the fleet profile, /metrics?profile=fleet, B and C in the full one) with the shipped
  rules and the rule block docs/migrating.md suggests, `for:` durations
  shortened to 1s by a substitution (the expressions stay as shipped);
- Debian's prometheus-alertmanager (clustering off: it would listen on all
  addresses) with contrib/prometheus/alertmanager-example.yml, its timings
  shortened (group_wait 15 s: every alert of a drive arrives within it),
  sending to a webhook receiver here that keeps every notification
  (Fleet.notifications: the pages).

The drives are the VM captures of tests/fixtures/captures. Scenarios the VM
drives never showed are made from the NVMe capture by changing the bytes the
NVMe Base Specification 2.0 defines in the SMART / Health Information log
(log page 02h, Figure 207) and the serial in Identify Controller (bytes
23:04), documented per drive in SCENARIOS below; everything else replays as
recorded.
"""
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

NVME = "tests/fixtures/captures/nvme/nvme-QEMU_NVMe_Ctrl_WWNVME0001.capture"
SATA = "tests/fixtures/captures/sata"
SAS = "tests/fixtures/captures/sas"
NVME_SERIAL = "WWNVME0001"
# a SATA disk with 8 current pending sectors (tests/fixtures/scenarios)
PENDING = "tests/fixtures/scenarios/sata-pending-rose/ata-pending.capture"
NVME_ID = "nvme-QEMU_NVMe_Ctrl_"

# NVMe variants: serial -> (what it shows, SMART log changes). Bytes of log
# page 02h: 0 critical warning, 2:1 composite temperature (kelvin), 3
# available spare (%), 4 available spare threshold (%), 5 percentage used,
# 143:128 power-on hours. The QEMU controller's WCTEMP is 70 C and CCTEMP
# 100 C (Identify Controller bytes 267:266 and 269:268 of the capture).
SCENARIOS = {
    # host A and B: used half its life in 2000 power-on hours (wears out
    # within 90 days, before a 5-year warranty ends), 95 % of its rating
    # written (rating in wearwatch.conf)
    "WWNVME0001": ("worn", {5: [50], 128: (2000).to_bytes(16, "little")}),
    # host C
    "WWNVME0003": ("critical warning bit 4: volatile memory backup failed", {0: [0x10]}),
    "WWNVME0004": ("available spare 5 % below its threshold 10 % (bit 0 left clear: a "
                   "critical reason no specific alert covers)", {3: [5], 4: [10]}),
    "WWNVME0005": ("75 C: over its warning limit 70 C", {1: (75 + 273).to_bytes(2, "little")}),
    "WWNVME0006": ("101 C: over its critical limit 100 C",
                   {1: (101 + 273).to_bytes(2, "little")}),
    "WWNVME0007": ("8 media and data integrity errors (bytes 175:160)",
                   {160: (8).to_bytes(16, "little")}),
    "WWNVME0009": ("endurance group critical warning (byte 6) bit 2: a critical reason no "
                   "alert covers", {6: [0x04]}),
    "WWNVME0008": ("readable once, then its capture is removed: reads fail", {}),
}


# Host D's drives: block device of tests/fixtures/sysfs/basic -> (its id
# there, smartctl -d type, fixture under WW_FIXTURES, drive kind). All
# report a healthy verdict (no alert), with the logs the dashboards show.
REAL_DRIVES = {
    # INTEL SSDPE2KX020T8, smartctl 7.x JSON (smartctl_exporter's test data):
    # 22 % used after 36959 power-on hours, 1.35 PB written; no rating in
    # the built-in table (a rating derived from its wear), no error log
    "nvme0n1": ("nvme-eui.0025388b91b3a2c1", "nvme",
                "smartctl_exporter/nvme-null-INTEL_SSDPE2KX020T8-nvme2.json", "NVMe"),
    # WDC WD140EDFZ-11A0VA0, 5400 rpm, smartctl 7.0: 21 self-tests, error log
    # count 0, attributes 5/196/197/198 at 0 (scrutiny's test data)
    "sdf": ("ata-QEMU_HARDDISK_QM00003", "sat", "scrutiny/smart-ata.json", "SATA HDD"),
    # SEAGATE ST1200MM0088, 10500 rpm: grown defect list 0, error counter log
    "sdb": ("wwn-0x5000c500a1b2c3d4", "scsi", "scrutiny/smart-scsi2.json", "SAS"),
}
# the tree's other drives, which host D leaves alone
OTHER_BLOCKS = ("sda", "sdc", "sdd", "sde", "vda")
# the tree's NVMe controller's PCI device, suspended in the tree
NVME_PCI_POWER = "sys/devices/pci0000:00/0000:00:04.0/power/runtime_status"


# The tests' tally: check() prints "ok   WHAT" or "FAIL WHAT: DETAIL" and
# files WHAT under PASSED or FAILED, which each test's main reads at the end.
PASSED, FAILED = [], []


def check(cond, what, detail=""):
    (PASSED if cond else FAILED).append(what)
    print(("ok   " if cond else "FAIL ") + what + ("" if cond or not detail else ": " + detail))


def fixtures_dir(src):
    """WW_FIXTURES (cmake passes its cache entry), else ../shared/fixtures."""
    return os.environ.get("WW_FIXTURES") or os.path.join(src, "..", "shared", "fixtures")


def drive_id(serial):
    return NVME_ID + serial


def nvme_variant(src, out_dir, serial, changes):
    """Write the NVMe capture with another serial and changed SMART log bytes."""
    text = open(src).read()
    old_hex, new_hex = NVME_SERIAL.encode().hex(), serial.encode().hex()
    text = text.replace(NVME_SERIAL, serial).replace(old_hex, new_hex)
    lines = text.split("\n")
    start = lines.index("cmd nvme_get_log lid=2 nsid=4294967295 len=512")
    data = [i for i in range(start, len(lines)) if lines[i].startswith("data ")][:16]
    raw = bytearray(bytes.fromhex("".join(lines[i][5:] for i in data)))
    for off, val in changes.items():
        raw[off:off + len(val)] = bytes(val)
    for k, i in enumerate(data):
        lines[i] = "data " + raw[k * 32:(k + 1) * 32].hex()
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, drive_id(serial) + ".capture")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def short_for(rules_text):
    """The rules with every `for:` shortened to 1s (expressions as shipped)."""
    return re.sub(r"(?m)^(\s+)for: \S+$", r"\1for: 1s", rules_text)


def free_port(addr):
    s = socket.socket()
    s.bind((addr, 0))
    p = s.getsockname()[1]
    s.close()
    return p


def http_json(url, timeout=5, data=None):
    with urllib.request.urlopen(url, timeout=timeout, data=data) as r:
        return json.loads(r.read().decode())


def promql(base, expr):
    q = urllib.parse.urlencode({"query": expr})
    return http_json(base + "/api/v1/query?" + q)


def wait_for(pred, timeout, step=0.25):
    end = time.time() + timeout
    while time.time() < end:
        try:
            if pred():
                return True
        except OSError:
            pass
        time.sleep(step)
    return False


class Fleet:
    """Start with start(), stop with stop(); attributes describe the fleet."""

    def __init__(self, binary, src, work, kinds=False):
        self.bin, self.src, self.work, self.kinds = binary, src, work, kinds
        self.procs = []
        self.hosts = {}        # name -> {"addr", "port", "url", "state", "drives"}
        self.prom = self.am = None
        self.failing_capture = None
        self.notifications = []   # webhook bodies Alertmanager sent, in order
        self._hook = None
        self.no_scenario = {"WearwatchDriveMissing":
                            "a replayed drive list is fixed at start: no drive can leave it",
                            "WearwatchDriveRatedEnduranceExhausted":
                            "the worn drive has written 95 % of its rating, not 100 %"}

    # --- pieces -------------------------------------------------------
    def _spawn(self, name, argv):
        log = open(os.path.join(self.work, name + ".log"), "w")
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs.append((name, p))
        return p

    def _captures(self):
        src = os.path.join(self.src, NVME)
        cap = os.path.join(self.work, "captures")
        worn = nvme_variant(src, os.path.join(cap, "worn"), "WWNVME0001",
                            SCENARIOS["WWNVME0001"][1])
        c_dir = os.path.join(cap, "c")
        for serial, (_, changes) in SCENARIOS.items():
            if serial != "WWNVME0001":
                path = nvme_variant(src, c_dir, serial, changes)
                if serial == "WWNVME0008":
                    self.failing_capture = path
        shutil.copy(os.path.join(self.src, PENDING), c_dir)
        ratings = os.path.join(self.work, "ratings.tsv")
        with open(ratings, "w") as f:
            # the SATA disk's model, rated 0.3 DWPD over 3 years (a table row
            # the way data/drive-ratings.tsv writes them)
            f.write("^WWSATA_DISK$\tsata\t\t0.3\t\t3\ttest fleet table row\n")
        return {
            "a": ([os.path.dirname(worn), os.path.join(self.src, SATA)],
                  ["WWNVME0001"], ["ata-WWSATA_DISK_WWSATA0001"]),
            "b": ([os.path.dirname(worn), os.path.join(self.src, SAS)],
                  ["WWNVME0001"], ["wwn-0x33333330000036b0"]),
            "c": ([c_dir], [s for s in SCENARIOS if s != "WWNVME0001"], ["ata-pending"]),
        }, ratings

    def _conf(self, name, ratings):
        """wearwatch.conf of one host: the collector's drive-facing keys."""
        path = os.path.join(self.work, name + ".conf")
        with open(path, "w") as f:
            f.write("[endurance]\nratings_file = %s\n"
                    "[probe]\nenabled = no\n"
                    "[fleet]\nprometheus = %s\n"
                    "[drive %s]\nrating = 220000000B:5\n"
                    % (ratings, self.prom, drive_id("WWNVME0001")))
        return path

    def _start_hosts(self):
        layout, ratings = self._captures()
        for i, name in enumerate(("a", "b", "c")):
            addr = "127.0.0.%d" % (i + 1)
            port = free_port(addr)
            state = os.path.join(self.work, "state-" + name)
            os.makedirs(state)
            dirs, serials, others = layout[name]
            argv = [self.bin, "serve", "--config", self._conf(name, ratings),
                    "--listen", "%s:%d" % (addr, port), "--state-dir", state,
                    "--poll-interval", "1", "--rediscover", "3600"]
            for d in dirs:
                argv += ["--replay", d]
            self._spawn("wearwatch-" + name, argv)
            self.hosts[name] = {"addr": addr, "port": port, "instance": "%s:%d" % (addr, port),
                                "url": "http://%s:%d" % (addr, port), "state": state,
                                "drives": [drive_id(s) for s in serials] + others}

    def _start_real_host(self):
        """Host D: real drives' smartctl JSON through the smartctl backend."""
        fix = fixtures_dir(self.src)
        for _, _, path, _ in REAL_DRIVES.values():
            if not os.path.exists(os.path.join(fix, path)):
                raise RuntimeError("%s is missing (WW_FIXTURES, docs/testing.md)"
                                   % os.path.join(fix, path))
        bindir = os.path.join(self.work, "bin-d")
        os.makedirs(bindir)
        stand_in = os.path.join(bindir, "smartctl")
        table = {"/dev/" + b: os.path.join(fix, v[2]) for b, v in REAL_DRIVES.items()}
        with open(stand_in, "w") as f:
            # what smartctl -j printed for that drive, with its exit status
            f.write("#!%s\nimport json, sys\nT = %r\npath = T.get(sys.argv[-1])\n"
                    "if not path:\n    sys.exit(2)\ntext = open(path).read()\n"
                    "sys.stdout.write(text)\n"
                    "sys.exit(json.loads(text)['smartctl'].get('exit_status', 0))\n"
                    % (sys.executable, table))
        os.chmod(stand_in, 0o755)
        conf = os.path.join(self.work, "d.conf")
        with open(conf, "w") as f:
            f.write("[probe]\nenabled = no\n[fleet]\nprometheus = %s\n" % self.prom)
            for block, (_, dtype, _, _) in sorted(REAL_DRIVES.items()):
                f.write("[drive %s]\nsmartctl = %s\n" % (block, dtype))
            for block in OTHER_BLOCKS:
                f.write("[drive %s]\nexclude = yes\n" % block)
        root = os.path.join(self.work, "sysroot-d")
        shutil.copytree(os.path.join(self.src, "tests/fixtures/sysfs/basic"), root,
                        symlinks=True)
        with open(os.path.join(root, NVME_PCI_POWER), "w") as f:
            f.write("active\n")
        addr = "127.0.0.5"
        port = free_port(addr)
        state = os.path.join(self.work, "state-d")
        os.makedirs(state)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        log = open(os.path.join(self.work, "wearwatch-d.log"), "w")
        p = subprocess.Popen(
            [self.bin, "serve", "--config", conf, "--listen", "%s:%d" % (addr, port),
             "--sysroot", root,
             "--state-dir", state, "--poll-interval", "1", "--poll-interval-rotational", "1",
             "--rediscover", "3600"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env=env)
        self.procs.append(("wearwatch-d", p))
        self.hosts["d"] = {"addr": addr, "port": port, "instance": "%s:%d" % (addr, port),
                           "url": "http://%s:%d" % (addr, port), "state": state,
                           "drives": [v[0] for v in REAL_DRIVES.values()],
                           "kinds": {v[0]: v[3] for v in REAL_DRIVES.values()}}

    def _drives_up(self, name):
        h = self.hosts[name]
        d = http_json(h["url"] + "/api/v1/drives")
        drives = d.get("drives", d) if isinstance(d, dict) else d
        return len([x for x in drives if x.get("collections", 1)]) >= len(h["drives"])

    def _seed_history(self):
        """60 days of samples for host A's worn drive (tests/browser/
        seed_history.py): its 7- and 30-day write windows exist."""
        h = self.hosts["a"]
        db = os.path.join(h["state"], "history.db")
        wait_for(lambda: os.path.exists(db), 10)
        drv = http_json(h["url"] + "/api/v1/drives/" + drive_id("WWNVME0001"))
        seed = os.path.join(self.src, "tests/browser/seed_history.py")
        subprocess.run([sys.executable, seed, db, str(int(time.time())), json.dumps(drv)],
                       check=True, capture_output=True, timeout=30)

    def _rules(self):
        shipped = open(os.path.join(self.src, "contrib/prometheus/wearwatch-rules.yml")).read()
        mig = open(os.path.join(self.src, "docs/migrating.md")).read()
        block = re.search(r"```yaml\n(groups:.*?)```", mig, re.S).group(1)
        paths = []
        for name, text in (("rules.yml", shipped), ("migrating-rules.yml", block)):
            paths.append(os.path.join(self.work, name))
            with open(paths[-1], "w") as f:
                f.write(short_for(text))
        return paths

    def _start_webhook(self):
        fleet = self

        class Hook(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                fleet.notifications.append(json.loads(self.rfile.read(n).decode()))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *a):
                pass
        self._hook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
        threading.Thread(target=self._hook.serve_forever, daemon=True).start()
        return "http://127.0.0.1:%d/" % self._hook.server_address[1]

    def _start_alertmanager(self):
        port = free_port("127.0.0.1")
        cfg = os.path.join(self.work, "alertmanager.yml")
        # the shipped example: its route (timings shortened) and inhibit
        # rules; its receiver posts to the webhook here
        example = open(os.path.join(self.src, "contrib/prometheus/alertmanager-example.yml")).read()
        example = re.sub(r"(?m)^  group_wait: .*$", "  group_wait: 15s", example)
        example = re.sub(r"(?m)^  group_interval: .*$", "  group_interval: 20s", example)
        example = example.replace("receivers:\n  - name: ops\n", "receivers:\n  - name: ops\n"
                                  "    webhook_configs:\n      - url: %s\n"
                                  "        send_resolved: false\n" % self._start_webhook())
        with open(cfg, "w") as f:
            f.write(example)
        self._spawn("alertmanager", [
            "prometheus-alertmanager", "--config.file=" + cfg,
            "--storage.path=" + os.path.join(self.work, "am-data"),
            "--web.listen-address=127.0.0.1:%d" % port, "--cluster.listen-address="])
        self.am = "http://127.0.0.1:%d" % port

    def _start_prometheus(self, port):
        down = free_port("127.0.0.4")   # nothing listens there
        targets = [h["instance"] for h in self.hosts.values()] + ["127.0.0.4:%d" % down]
        self.down_instance = targets[-1]
        cfg = os.path.join(self.work, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                    "  scrape_timeout: 1s\n"
                    "rule_files: %s\n" % json.dumps(self._rules()) +
                    "alerting:\n  alertmanagers:\n    - static_configs:\n"
                    "        - targets: [%s]\n" % json.dumps(self.am[len("http://"):]) +
                    "scrape_configs:\n  - job_name: wearwatch\n    static_configs:\n"
                    "      - targets: %s\n" % json.dumps(targets) +
                    # host A in the fleet profile (docs/metrics.md): every
                    # rule, panel and the fleet page work with both
                    "    relabel_configs:\n      - source_labels: [__address__]\n"
                    "        regex: '127\\.0\\.0\\.1:.*'\n        target_label: __param_profile\n"
                    "        replacement: fleet\n")
        self._spawn("prometheus", [
            "prometheus", "--config.file=" + cfg,
            "--storage.tsdb.path=" + os.path.join(self.work, "prom-data"),
            "--web.listen-address=127.0.0.1:%d" % port])

    # --- lifetime -----------------------------------------------------
    def start(self, timeout=40):
        for tool in ("prometheus", "prometheus-alertmanager"):
            if not shutil.which(tool):
                raise RuntimeError("%s is not installed (scripts/deps.sh test)" % tool)
        prom_port = free_port("127.0.0.1")
        self.prom = "http://127.0.0.1:%d" % prom_port
        self._start_hosts()
        if self.kinds:
            self._start_real_host()
        self._start_alertmanager()
        for name in self.hosts:
            if not wait_for(lambda: self._drives_up(name), timeout):
                raise RuntimeError("wearwatch on host %s did not read its drives" % name)
        self._seed_history()
        os.remove(self.failing_capture)   # WWNVME0008: read once, now failing
        self._start_prometheus(prom_port)
        if not wait_for(lambda: urllib.request.urlopen(self.am + "/-/ready", timeout=2), timeout):
            raise RuntimeError("alertmanager did not start")
        if not wait_for(lambda: len(promql(self.prom, 'up{job="wearwatch"} == 1')
                                    ["data"]["result"]) == len(self.hosts), timeout):
            raise RuntimeError("prometheus does not scrape the %d hosts" % len(self.hosts))

    def stop(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for name, p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self._hook:
            self._hook.shutdown()

    def describe(self):
        return {"prometheus": self.prom, "alertmanager": self.am, "hosts": self.hosts,
                "down_instance": self.down_instance,
                "scenarios": {drive_id(s): w for s, (w, _) in SCENARIOS.items()}}

    def log_tail(self, lines=20):
        out = []
        for name, _ in self.procs:
            path = os.path.join(self.work, name + ".log")
            if os.path.exists(path):
                out.append("== %s\n%s" % (name, "".join(open(path).readlines()[-lines:])))
        return "\n".join(out)


def main():
    if len(sys.argv) != 6 or sys.argv[4] != "--ready":
        print(__doc__, file=sys.stderr)
        return 2
    binary, src, work, _, ready = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    fleet = Fleet(os.path.abspath(binary), os.path.abspath(src), os.path.abspath(work))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        fleet.start()
        with open(ready + ".tmp", "w") as f:
            json.dump(fleet.describe(), f)
        os.rename(ready + ".tmp", ready)
        sys.stdin.read()   # until the caller closes it or kills us
    except RuntimeError as e:
        print("fleet: %s\n%s" % (e, fleet.log_tail()), file=sys.stderr)
        return 1
    finally:
        fleet.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
