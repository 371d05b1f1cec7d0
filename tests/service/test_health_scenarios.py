#!/usr/bin/env python3
"""The scenario table of docs/health.md, replayed through the service.

Every row whose input is `scenarios/NAME` is served from
tests/fixtures/scenarios/NAME/ (spec-constructed captures, see
make_scenarios.py there, whose output must be current) by one
`wearwatch serve --replay`, with the rows' wearwatch.conf.part lines and a
notification program that records its environment. A row with a next/
capture gets it in place once every drive was read (a counter that rose).
For each row the test asserts that /metrics (wearwatch_drive_health_status,
wearwatch_drive_health_reason), /api/v1/drives (verdict), `wearwatch decode`
of the capture and the notification program's environment all give the
table's status and exactly its reasons (decode: the table's decode column).
Then `exclude = yes` for one drive plus SIGHUP: the drive is dropped, never
"missing", and no notification is sent; and the shipped notification
programs (contrib/notify/) deliver a recorded event: the webhook to a local
HTTP server, the mail to a stand-in sendmail.

usage: test_health_scenarios.py WEARWATCH_BINARY"""
import filecmp
import glob
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svc_common import FAILS, check, curl, free_port, wait_for  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCN = os.path.join(SRC, "tests", "fixtures", "scenarios")
STATUS = {"ok": 0, "warning": 1, "critical": 2, "unknown": 3}


def codes(cell):
    return set(re.findall(r"`([a-z0-9_]+)`", cell))


def table():
    """rows of docs/health.md "## Scenarios" with a scenarios/ input"""
    text = open(os.path.join(SRC, "docs", "health.md"), encoding="utf-8").read()
    sec = text.split("## Scenarios", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("signal", "---"):
            continue
        m = re.match(r"`scenarios/([\w-]+)`", cells[1])
        if not m:
            continue
        dec = cells[4]
        if dec == "same":
            dstat, dcodes = cells[2], codes(cells[3])
        else:
            dstat, dcodes = dec.split(":")[0].strip(), codes(dec)
        rows.append({"signal": cells[0], "name": m.group(1), "status": cells[2],
                     "reasons": codes(cells[3]), "dstatus": dstat, "dreasons": dcodes})
    return rows


def fact_id(path):
    for line in open(path):
        if line.startswith("fact id "):
            return line.split(" ", 2)[2].strip()
    return None


def parse_prom(text):
    out = []
    for line in text.splitlines():
        m = re.match(r"(\w+)(?:\{(.*)\})? (\S+)$", line)
        if m and not line.startswith("#"):
            labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
            out.append((m.group(1), labels, float(m.group(3))))
    return out


def generator_current(tmp):
    out = os.path.join(tmp, "regen")
    subprocess.run([sys.executable, os.path.join(SCN, "make_scenarios.py"), out], check=True,
                   capture_output=True)
    made = sorted(os.path.relpath(p, out) for p in glob.glob(out + "/**/*", recursive=True)
                  if os.path.isfile(p))
    have = sorted(os.path.relpath(p, SCN) for p in glob.glob(SCN + "/**/*", recursive=True)
                  if os.path.isfile(p) and not p.endswith(".py"))
    same = made == have and all(filecmp.cmp(os.path.join(out, f), os.path.join(SCN, f), False)
                                for f in made)
    check(same, "tests/fixtures/scenarios is what make_scenarios.py makes (%d files)" % len(made))


RECORDER = """#!%s
import json, os, time
d = os.path.join(%r, os.environ.get("WEARWATCH_DRIVE", "none"))
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "%%020d.json" %% time.time_ns()), "w") as f:
    json.dump({k: v for k, v in os.environ.items() if k.startswith("WEARWATCH_")}, f)
"""


def notifications(out, did):
    files = sorted(glob.glob(os.path.join(out, did, "*.json")))
    return [json.load(open(f)) for f in files]


class Serve:
    def __init__(self, tmp, rows):
        self.tmp, self.rows = tmp, rows
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.out = os.path.join(tmp, "notified")
        self.conf = os.path.join(tmp, "wearwatch.conf")
        rec = os.path.join(tmp, "record.py")
        with open(rec, "w") as f:
            f.write(RECORDER % (sys.executable, self.out))
        os.chmod(rec, 0o755)
        parts = "".join(open(p).read() for p in sorted(glob.glob(SCN + "/*/wearwatch.conf.part")))
        self.conf_text = "[notify]\nexec = %s\nflap_limit = 100\n%s" % (rec, parts)
        with open(self.conf, "w") as f:
            f.write(self.conf_text)
        self.caps = {}
        for r in rows:
            src = glob.glob(os.path.join(SCN, r["name"], "*.capture"))[0]
            dst = os.path.join(tmp, "caps", r["name"], os.path.basename(src))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(src, dst)
            r["id"], r["capture"], r["served"] = fact_id(src), src, dst
            r["next"] = (glob.glob(os.path.join(SCN, r["name"], "next", "*.capture")) or [None])[0]
            part = os.path.join(SCN, r["name"], "wearwatch.conf.part")
            r["part"] = part if os.path.exists(part) else None

    def start(self):
        args = [BIN, "serve", "--listen", "127.0.0.1:%d" % self.port, "--web-config", "",
                "--state-dir", os.path.join(self.tmp, "state"), "--no-probe",
                "--poll-interval", "2", "--poll-interval-rotational", "2", "--config", self.conf]
        for r in self.rows:
            args += ["--replay", r["served"]]
        self.log = open(os.path.join(self.tmp, "serve.log"), "w+")
        self.p = subprocess.Popen(args, stderr=self.log)

    def api(self):
        code, body = curl(self.base + "/api/v1/drives")
        return {d["id"]: d for d in json.loads(body)} if code == "200" else {}

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()


def check_row(s, r, samples, api):
    did, name = r["id"], r["name"]
    st = [v for n, lb, v in samples if n == "wearwatch_drive_health_status" and lb.get("drive") == did]
    got = {lb["reason"]: lb["severity"] for n, lb, v in samples
           if n == "wearwatch_drive_health_reason" and lb.get("drive") == did}
    check(st == [STATUS[r["status"]]] and set(got) == r["reasons"],
          "%s: /metrics status %s reasons %s (want %s %s)" % (name, st, sorted(got), r["status"],
                                                           sorted(r["reasons"])))
    v = (api.get(did) or {}).get("verdict") or {}
    sev = {x["code"]: x["severity"] for x in v.get("reasons", [])}
    check(v.get("status") == r["status"] and set(sev) == r["reasons"] and sev == got and
          all(x.get("text") and x.get("source") is not None for x in v.get("reasons", [])),
          "%s: API verdict %s %s, sentences and severities as /metrics" % (name, v.get("status"),
                                                                         sorted(sev)))
    cmd = [BIN, "decode", r["capture"], "--json"] + (["--config", r["part"]] if r["part"] else [])
    d = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    try:
        dv = json.loads(d.stdout).get("verdict") or {}
    except ValueError:
        dv = {}
    dc = {x["code"] for x in dv.get("reasons", [])}
    check(dv.get("status") == r["dstatus"] and dc == r["dreasons"],
          "%s: decode %s %s (want %s %s)" % (name, dv.get("status"), sorted(dc), r["dstatus"],
                                            sorted(r["dreasons"])))
    ns = notifications(s.out, did)
    texts = "\n".join("%s: %s" % (x["severity"], x["text"]) for x in v.get("reasons", []))
    if r["status"] in ("warning", "critical"):
        last = ns[-1] if ns else {}
        check(last.get("WEARWATCH_NEW_STATE") == r["status"] and
              set(last.get("WEARWATCH_REASON_CODES", "").split()) == r["reasons"] and
              last.get("WEARWATCH_REASONS") == texts and
              json.loads(last.get("WEARWATCH_JSON", "{}")).get("new_status") == r["status"],
              "%s: notified %s (%d events), reasons as the API's sentences" % (
                  name, last.get("WEARWATCH_NEW_STATE"), len(ns)))
    else:
        check(not ns, "%s: %s is not notified (%d events)" % (name, r["status"], len(ns)))


def swap_and_wait(s):
    for r in s.rows:
        if r["next"]:
            tmp = r["served"] + ".new"
            shutil.copy(r["next"], tmp)
            os.replace(tmp, r["served"])

    def risen():
        api = s.api()
        return all(r["reasons"] <= {x["code"] for x in (api.get(r["id"]) or {}).get("verdict", {})
                                    .get("reasons", [])} for r in s.rows if r["next"])
    check(wait_for(risen, timeout=30, step=0.5), "the next reads show the counters that rose")


def exclude(s, row):
    with open(s.conf, "a") as f:
        f.write("[drive %s]\nexclude = yes\n" % row["id"])
    n0 = len(notifications(s.out, row["id"]))
    s.p.send_signal(signal.SIGHUP)
    gone = wait_for(lambda: row["id"] not in s.api(), timeout=10)
    time.sleep(5)  # two polls
    code, text = curl(s.base + "/metrics")
    ns = notifications(s.out, row["id"])
    s.log.seek(0)
    log = s.log.read()
    check(gone and row["id"] not in text and len(ns) == n0 and
          not any(n.get("WEARWATCH_EVENT") == "missing" for n in ns) and
          "%s: excluded by configuration" % row["id"] in log,
          "exclude = yes + SIGHUP: %s dropped from the API and /metrics, no 'missing', no "
          "notification (%d -> %d)" % (row["id"], n0, len(ns)))


class Hook(http.server.BaseHTTPRequestHandler):
    got = []

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        Hook.got.append((self.headers.get("Content-Type"), self.rfile.read(n)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *a):
        pass


def contrib(tmp, env):
    srv = http.server.HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = dict(os.environ, NOTIFY_ENV="/nonexistent", **env)
    r = subprocess.run([os.path.join(SRC, "contrib/notify/wearwatch-webhook")],
                       env=dict(base, WEBHOOK_URL="http://127.0.0.1:%d/hook" % srv.server_port),
                       capture_output=True, text=True, timeout=30)
    srv.shutdown()
    body = json.loads(Hook.got[0][1]) if Hook.got else {}
    check(r.returncode == 0 and Hook.got and Hook.got[0][0] == "application/json" and
          body.get("new_status") == env["WEARWATCH_NEW_STATE"] and
          [x["code"] for x in body.get("reasons", [])] == env["WEARWATCH_REASON_CODES"].split(),
          "contrib/notify/wearwatch-webhook POSTs the event's JSON (rc %d %s)" % (r.returncode,
                                                                                r.stderr.strip()))
    mail = os.path.join(tmp, "mail.txt")
    fake = os.path.join(tmp, "sendmail")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho \"$*\" > %s.args\ncat > %s\n" % (mail, mail))
    os.chmod(fake, 0o755)
    r = subprocess.run([os.path.join(SRC, "contrib/notify/wearwatch-mail")],
                       env=dict(base, SENDMAIL=fake, MAIL_TO="storage@example.org"),
                       capture_output=True, text=True, timeout=30)
    m = open(mail).read() if os.path.exists(mail) else ""
    check(r.returncode == 0 and "To: storage@example.org\n" in m and
          ("Subject: [wearwatch] %s: %s " % (env["WEARWATCH_HOST"], env["WEARWATCH_DRIVE"])) in m and
          env["WEARWATCH_REASONS"] in m and open(mail + ".args").read().strip() == "-t -oi",
          "contrib/notify/wearwatch-mail hands sendmail -t a mail with the reasons (rc %d %s)" % (
              r.returncode, r.stderr.strip()))


def main():
    rows = table()
    names = {r["name"] for r in rows}
    dirs = {os.path.basename(os.path.dirname(p)) for p in glob.glob(SCN + "/*/*.capture")}
    check(len(rows) >= 25 and names == dirs,
          "docs/health.md names every scenario capture and only those (%d rows; not in the "
          "table: %s; no capture: %s)" % (len(rows), sorted(dirs - names), sorted(names - dirs)))
    tmp = tempfile.mkdtemp(prefix="ww-health-")
    generator_current(tmp)
    s = Serve(tmp, [r for r in rows if r["name"] in dirs])
    s.start()
    try:
        ok = wait_for(lambda: all((s.api().get(r["id"]) or {}).get("last_collect", {})
                                  .get("timestamp") for r in s.rows), timeout=30, step=0.5)
        check(ok, "serve --replay read all %d scenario drives" % len(s.rows))
        swap_and_wait(s)
        time.sleep(1)
        code, text = curl(s.base + "/metrics")
        samples, api = parse_prom(text), s.api()
        for r in s.rows:
            check_row(s, r, samples, api)
        crit = next(r for r in s.rows if r["name"] == "nvme-reliability")
        contrib(tmp, notifications(s.out, crit["id"])[-1])
        exclude(s, next(r for r in s.rows if r["name"] == "nvme-pct99"))
    finally:
        s.stop()
    if not FAILS:
        shutil.rmtree(tmp)
    else:
        print("artifacts in " + tmp)
    print("%d failed" % len(FAILS))
    return 1 if FAILS else 0


sys.exit(main())
