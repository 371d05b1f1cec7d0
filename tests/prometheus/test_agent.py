#!/usr/bin/env python3
"""The two paths of docs/fleet.md beyond one Prometheus, on remote-write receivers.

usage: test_agent.py WEARWATCH_BINARY SOURCE_DIR

Agents: a site's Prometheus in agent mode scrapes and forwards everything, a
central store evaluates the shipped rules. Site Prometheus: a full
Prometheus per site evaluates the rules and alerts itself and forwards only
the series docs/fleet.md's remote_write block keeps. Started here, all on
loopback with ports the kernel picked, all stopped at exit:
- one `wearwatch serve --replay` host on 127.0.0.1: the VM's NVMe capture
  (healthy) and the pending-sector SATA scenario of tests/fixtures/scenarios
  (8 current pending sectors: a verdict warning);
- a second target on 127.0.0.4 where nothing listens (up == 0);
- Debian's prometheus with --enable-feature=agent (scrape every second,
  external label site="site-a", remote_write to the receiver, nothing
  evaluated);
- Debian's prometheus with --web.enable-remote-write-receiver, no scrape
  configuration, the shipped contrib/prometheus/wearwatch-rules.yml
  (`for:` shortened to 1s by substitution, the expressions as shipped)
  evaluated every second (the "global" store of the agent path);
- the site path: Debian's prometheus (external label site="site-b")
  scraping the same targets with the shipped rules, remote-writing through
  docs/fleet.md's remote_write block (its write_relabel_configs, the URL
  replaced) to a third prometheus, a receiver with no rules; the host's
  [fleet] prometheus points at that receiver.
Checks of the agent path: the agent answers no query (it is an agent); on the receiver every
rule is evaluated and none is in health "err"; the recording rule
instance:wearwatch_drive_health_status:count{status="warning"} is 1 for the
host with its instance, job and the agent's site label; the alerts
WearwatchDriveHealthWarning (the pending-sector drive) and WearwatchTargetDown
(the silent target) fire there with instance, job, site (and drive) labels,
the first with the verdict's numbers in its summary, which its template
queries from the receiver's own data.
Checks of the site path: on its receiver, every query of the fleet dashboard
(contrib/grafana/wearwatch-fleet.json) that has data at the site returns the
same number of series for the host (the ones about rated drives have none
here), and the
host's fleet page data (GET /api/v1/fleet, asking that receiver) answers
every query and lists the pending-sector drive; prints the series kept per
drive against what the site Prometheus holds.
Bounded: the receiver must have the alerts within 60 s of the start.
Exits 0 when every check passed, 1 otherwise; prints "N passed, N failed".
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fleet as F  # noqa: E402
from fleet import PASSED, FAILED, check  # noqa: E402

SITE = "site-a"
SITE_B = "site-b"


def keep_block(src):
    """docs/fleet.md's remote_write block (a site Prometheus to the global store)."""
    text = open(os.path.join(src, "docs/fleet.md")).read()
    m = re.search(r"```yaml\n(remote_write:\n.*?)```", text, re.S)
    if not m:
        raise RuntimeError("docs/fleet.md has no ```yaml remote_write: block")
    return m.group(1)


class Path:
    """wearwatch -> agent -> receiver; start(), stop()."""

    def __init__(self, binary, src, work):
        self.bin, self.src, self.work = binary, src, work
        self.procs = []

    def spawn(self, name, argv):
        log = open(os.path.join(self.work, name + ".log"), "w")
        self.procs.append((name, subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)))

    def start(self):
        if not shutil.which("prometheus"):
            raise RuntimeError("prometheus is not installed (scripts/deps.sh test)")
        caps = os.path.join(self.work, "captures")
        os.makedirs(caps)
        shutil.copy(os.path.join(self.src, F.NVME), caps)
        shutil.copy(os.path.join(self.src, F.PENDING), caps)
        port = F.free_port("127.0.0.1")
        self.host = "127.0.0.1:%d" % port
        self.down = "127.0.0.4:%d" % F.free_port("127.0.0.4")
        recv_port, agent_port = F.free_port("127.0.0.1"), F.free_port("127.0.0.1")
        self.recv = "http://127.0.0.1:%d" % recv_port
        self.agent = "http://127.0.0.1:%d" % agent_port
        site_port, global_port = F.free_port("127.0.0.1"), F.free_port("127.0.0.1")
        self.site = "http://127.0.0.1:%d" % site_port
        self.glob = "http://127.0.0.1:%d" % global_port
        conf = os.path.join(self.work, "wearwatch.conf")
        with open(conf, "w") as f:
            f.write("[fleet]\nprometheus = %s\n" % self.glob)
        self.spawn("wearwatch", [self.bin, "serve", "--config", conf, "--replay", caps,
                                 "--listen", self.host, "--no-probe", "--poll-interval", "1",
                                 "--web-config", ""])
        rules = os.path.join(self.work, "rules.yml")
        with open(rules, "w") as f:
            f.write(F.short_for(open(os.path.join(
                self.src, "contrib/prometheus/wearwatch-rules.yml")).read()))
        recv_cfg = os.path.join(self.work, "receiver.yml")
        with open(recv_cfg, "w") as f:
            f.write("global:\n  evaluation_interval: 1s\nrule_files: [%s]\n" % json.dumps(rules))
        self.spawn("receiver", [
            "prometheus", "--config.file=" + recv_cfg, "--web.enable-remote-write-receiver",
            "--storage.tsdb.path=" + os.path.join(self.work, "receiver-data"),
            "--web.listen-address=127.0.0.1:%d" % recv_port])
        agent_cfg = os.path.join(self.work, "agent.yml")
        with open(agent_cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                    "  external_labels: {site: %s}\n" % SITE +
                    "scrape_configs:\n  - job_name: wearwatch\n    static_configs:\n"
                    "      - targets: %s\n" % json.dumps([self.host, self.down]) +
                    "remote_write:\n  - url: %s/api/v1/write\n" % self.recv +
                    "    queue_config: {batch_send_deadline: 1s}\n")
        self.spawn("agent", [
            "prometheus", "--enable-feature=agent", "--config.file=" + agent_cfg,
            "--storage.agent.path=" + os.path.join(self.work, "agent-data"),
            "--web.listen-address=127.0.0.1:%d" % agent_port])
        # the site path: rules at the site, the kept series to the global store
        glob_cfg = os.path.join(self.work, "global.yml")
        with open(glob_cfg, "w") as f:
            f.write("global:\n  evaluation_interval: 1s\n")
        self.spawn("global", [
            "prometheus", "--config.file=" + glob_cfg, "--web.enable-remote-write-receiver",
            "--storage.tsdb.path=" + os.path.join(self.work, "global-data"),
            "--web.listen-address=127.0.0.1:%d" % global_port])
        block = re.sub(r"(?m)^(  - url: ).*$", r"\g<1>%s/api/v1/write" % self.glob,
                       keep_block(self.src))
        site_cfg = os.path.join(self.work, "site.yml")
        with open(site_cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                    "  evaluation_interval: 1s\n  external_labels: {site: %s}\n" % SITE_B +
                    "rule_files: [%s]\n" % json.dumps(rules) +
                    "scrape_configs:\n  - job_name: wearwatch\n    static_configs:\n"
                    "      - targets: %s\n" % json.dumps([self.host, self.down]) + block)
        self.spawn("site", [
            "prometheus", "--config.file=" + site_cfg,
            "--storage.tsdb.path=" + os.path.join(self.work, "site-data"),
            "--web.listen-address=127.0.0.1:%d" % site_port])
        for url in (self.recv, self.agent, self.glob, self.site):
            if not F.wait_for(lambda: urllib.request.urlopen(url + "/-/ready", timeout=2), 30):
                raise RuntimeError("%s did not start" % url)

    def stop(self):
        for _, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for _, p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def log_tail(self, lines=15):
        return "\n".join("== %s\n%s" % (n, "".join(open(os.path.join(
            self.work, n + ".log")).readlines()[-lines:])) for n, _ in self.procs)


def result(base, expr):
    return F.promql(base, expr)["data"]["result"]


def firing(base):
    return [a for a in F.http_json(base + "/api/v1/alerts")["data"]["alerts"]
            if a["state"] == "firing"]


def checks(p, t0):
    # an agent keeps no queryable storage: the query API refuses
    try:
        F.promql(p.agent, "up")
        refused = False
    except urllib.error.HTTPError:
        refused = True
    check(refused, "the agent answers no query (agent mode)")
    want = {("WearwatchDriveHealthWarning", p.host, "ata-pending"),
            ("WearwatchTargetDown", p.down, None)}

    def arrived():
        got = {(a["labels"]["alertname"], a["labels"].get("instance"), a["labels"].get("drive"))
               for a in firing(p.recv)}
        return want <= got
    F.wait_for(arrived, max(0.0, 60 - (time.time() - t0)), step=0.5)
    print("receiver has the alerts after %.1f s" % (time.time() - t0))
    up = {x["metric"]["instance"]: x for x in result(p.recv, 'up{job="wearwatch"}')}
    check(set(up) == {p.host, p.down} and all(x["metric"].get("site") == SITE for x in up.values()),
          "the receiver holds the agent's up series with the site label", str(list(up.values())))
    groups = F.http_json(p.recv + "/api/v1/rules")["data"]["groups"]
    rules = [r for g in groups for r in g["rules"]]
    bad = ["%s: %s %s" % (r["name"], r["health"], r.get("lastError", "")) for r in rules
           if r["health"] != "ok"]
    check(rules and not bad, "receiver: all %d shipped rules evaluated, none in health err"
          % len(rules), "; ".join(bad))
    rec = result(p.recv, 'instance:wearwatch_drive_health_status:count{status="warning"}')
    check(len(rec) == 1 and rec[0]["value"][1] == "1" and
          {k: rec[0]["metric"].get(k) for k in ("instance", "job", "site")} ==
          {"instance": p.host, "job": "wearwatch", "site": SITE},
          "receiver: recording rule instance:wearwatch_drive_health_status:count"
          "{status=\"warning\"} is 1 with instance, job and site", json.dumps(rec))
    fleetwide = result(p.recv, 'job:wearwatch_drive_health_status:count{status="ok"}')
    check(len(fleetwide) == 1 and fleetwide[0]["value"][1] == "1" and
          fleetwide[0]["metric"].get("site") == SITE and
          "instance" not in fleetwide[0]["metric"],
          "receiver: job:wearwatch_drive_health_status:count{status=\"ok\"} is 1 per site",
          json.dumps(fleetwide))
    alerts = {a["labels"]["alertname"]: a for a in firing(p.recv)}
    warn = alerts.get("WearwatchDriveHealthWarning", {})
    lab = warn.get("labels", {})
    check({k: lab.get(k) for k in ("instance", "job", "drive", "site", "severity")} ==
          {"instance": p.host, "job": "wearwatch", "drive": "ata-pending", "site": SITE,
           "severity": "warning"},
          "receiver: WearwatchDriveHealthWarning fires for ata-pending with instance, job, "
          "drive, site and severity warning", json.dumps(lab))
    summary = warn.get("annotations", {}).get("summary", "")
    check("pending sectors: 8 sectors (limit 1)" in summary,
          "receiver: its summary has the verdict's numbers", summary)
    print("summary: %s" % summary)
    down = alerts.get("WearwatchTargetDown", {}).get("labels", {})
    check({k: down.get(k) for k in ("instance", "job", "site")} ==
          {"instance": p.down, "job": "wearwatch", "site": SITE},
          "receiver: WearwatchTargetDown fires for the silent target with instance, job, site",
          json.dumps(down))
    names = sorted(alerts)
    check(names == ["WearwatchDriveHealthWarning", "WearwatchTargetDown"],
          "receiver: no other alert fires", str(names))


def check_site_path(p, src):
    """The site Prometheus' kept series suffice for the fleet dashboard and page."""
    gen = os.path.join(src, "contrib/grafana/make_dashboards.py")
    spec = importlib.util.spec_from_file_location("make_dashboards", gen)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    import test_fleet as T  # fill(): Grafana's variable interpolation
    d = json.loads(mod.render()["wearwatch-fleet.json"])
    values = {"job": "wearwatch", "instance": p.host, "__rate_interval": "1m",
              "__interval": "15s", "__range": "1h"}
    # what the site's own Prometheus answers, the global store must too
    # (queries the two drives here have no data for, such as the rated
    # endurance ones, are empty on both)
    at_site, missing = [], []
    for panel in d["panels"]:
        for t in panel["targets"]:
            expr = T.fill(t["expr"], values)
            n = {}

            def has(base, key):
                n[key] = len(result(base, expr))
                return n[key] > 0
            F.wait_for(lambda: has(p.site, "site"), 5, step=0.5)
            if not n["site"]:
                continue
            at_site.append(expr)
            F.wait_for(lambda: has(p.glob, "global") and n["global"] >= n["site"], 30,
                       step=0.5)
            if n["global"] != n["site"]:
                missing.append("%s: %s (%d series at the site, %d global)"
                               % (panel["title"], expr, n["site"], n["global"]))
    total = sum(len(x["targets"]) for x in d["panels"])
    check(at_site and not missing,
          "global store (site path): every fleet dashboard query with data at the site has "
          "the same series there (%d of the %d queries have data at the site)"
          % (len(at_site), total), "; ".join(missing))
    body = {}

    def answered():
        body.clear()
        body.update(F.http_json("http://%s/api/v1/fleet" % p.host, timeout=30))
        return body.get("queries", {}).get("problems", {}).get("health")
    F.wait_for(answered, 30, step=1)
    probs = {x["metric"].get("drive") for x in
             body.get("queries", {}).get("problems", {}).get("health", [])}
    check(body.get("errors") == [] and "ata-pending" in probs,
          "global store (site path): the fleet page answers every query and lists ata-pending",
          "errors %s, problems %s" % (body.get("errors"), sorted(probs)))
    per = {}
    for name, base in (("site", p.site), ("global", p.glob)):
        per[name] = {x["metric"]["drive"]: int(x["value"][1]) for x in result(
            base, 'count by (drive) ({job="wearwatch",drive!=""})')}
    print("series per drive, site Prometheus -> global store: %s" % json.dumps(
        {k: "%d -> %d" % (v, per["global"].get(k, 0)) for k, v in sorted(per["site"].items())}))
    check(per["global"] and all(0 < per["global"].get(k, 0) < v for k, v in per["site"].items()),
          "global store keeps part of each drive's series")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="ww-agent-") as work:
        p = Path(binary, src, work)
        try:
            p.start()
            checks(p, t0)
            check_site_path(p, src)
        except (RuntimeError, OSError) as e:
            check(False, "agent -> receiver path runs", str(e))
        if FAILED:
            print(p.log_tail())
        p.stop()
    print("wall time %.1f s" % (time.time() - t0))
    print("%d passed, %d failed" % (len(PASSED), len(FAILED)))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
