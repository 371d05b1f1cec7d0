#!/usr/bin/env python3
"""The shipped rules and dashboards against a real Prometheus and Alertmanager.

usage: test_fleet.py WEARWATCH_BINARY SOURCE_DIR

Starts the fleet of fleet.py (three replaying wearwatch hosts, one drive id on
two of them, a target that is down; Debian's prometheus and
prometheus-alertmanager on loopback) and checks:
- every alert of contrib/prometheus/wearwatch-rules.yml that has a scenario
  here reaches Alertmanager for exactly the (host, drive) pairs the scenario
  names, with instance, job and drive labels (TargetDown: instance and job);
  an alert without a scenario must be listed with the reason
  (Fleet.no_scenario), and an alert that fires for a pair no scenario names
  fails the test;
- one page per drive: with alertmanager-example.yml's route and inhibit
  rules, each (host, drive) with an alert gets exactly one notification, and
  it holds exactly the one alert expected for that scenario (the verdict
  alert or the most specific one, never both); its severity is the drive's
  verdict level; summaries carry the verdict's numbers;
- no rule is in health "err" (a many-to-many join on the shared drive id
  would be) and every rule has been evaluated;
- every recording rule returns data (each query retried until it has, within
  one shared deadline: some need two samples of a rule's output);
- every query of every panel and variable of the fleet and host dashboards
  of contrib/grafana/ returns data, with the variables filled in as Grafana
  would for host A; and the JSON files are what
  contrib/grafana/make_dashboards.py writes;
- the drive dashboard, per drive: every query of it returns data for host
  A's worn NVMe (the QEMU capture, rated) and host D's real NVMe, SATA hard
  disk and SAS drive (fleet.REAL_DRIVES), except where its panel says the
  query is for other drives ("Data for: ..." in the description: kinds, or
  rated drives) or FIXTURE_GAPS below says which fixture lacks the data;
  prints the coverage per drive.
Bounded: the fleet must be up within 40 s, the alerts there within 60 s and
every query answered with data within 60 s of the first query asked.
Exits 0 when every check passed, 1 otherwise; prints "N passed, N failed".
"""
import glob
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fleet as F  # noqa: E402
from fleet import PASSED, FAILED, check  # noqa: E402


def expected_alerts(fl):
    """alertname -> set of (instance, drive) from the scenarios of fleet.py."""
    a, b, c = (fl.hosts[h]["instance"] for h in "abc")
    worn = F.drive_id("WWNVME0001")
    n = {s: F.drive_id(s) for s in F.SCENARIOS}
    return {
        # 95 % of its rating: the verdict's rated_endurance_near_end
        "WearwatchDriveNearRatedEndurance": {(a, worn), (b, worn)},
        "WearwatchDriveWearoutBeforeWarrantyEnd": {(a, worn), (b, worn)},
        "WearwatchDriveWearoutSoon": {(a, worn), (b, worn)},
        # only host A's history holds 7 days of writes (seeded)
        "WearwatchDriveWritesAboveRating": {(a, worn)},
        "WearwatchDriveCriticalWarning": {(c, n["WWNVME0003"])},
        "WearwatchDrivePowerLossProtectionFailed": {(c, n["WWNVME0003"])},
        "WearwatchDriveSmartFailed": {(c, n["WWNVME0003"])},
        "WearwatchDriveTemperatureOverLimit": {(c, n["WWNVME0005"])},
        "WearwatchDriveTemperatureCritical": {(c, n["WWNVME0006"])},
        "WearwatchCollectionFailing": {(c, n["WWNVME0008"])},
        "WearwatchDriveHealthCritical": {(a, worn), (b, worn), (c, n["WWNVME0003"]),
                                         (c, n["WWNVME0004"]), (c, n["WWNVME0006"]),
                                         (c, n["WWNVME0009"])},
        "WearwatchDriveHealthWarning": {(c, n["WWNVME0005"]), (c, n["WWNVME0007"]),
                                        (c, "ata-pending")},
        "WearwatchTargetDown": {(fl.down_instance, None)},
        # docs/migrating.md's block
        "WearwatchDriveMediaErrors": {(c, n["WWNVME0007"])},
        "WearwatchDriveSpareBelowThreshold": {(c, n["WWNVME0004"])},
        "WearwatchDriveTemperatureAbove60C": {(c, n["WWNVME0005"]), (c, n["WWNVME0006"])},
    }


def expected_pages(fl):
    """(instance, drive) -> the one alert its one notification holds."""
    a, b, c = (fl.hosts[h]["instance"] for h in "abc")
    worn = F.drive_id("WWNVME0001")
    n = {s: F.drive_id(s) for s in F.SCENARIOS}
    return {
        (a, worn): "WearwatchDriveWearoutSoon",
        (b, worn): "WearwatchDriveWearoutSoon",
        (c, n["WWNVME0003"]): "WearwatchDrivePowerLossProtectionFailed",
        (c, n["WWNVME0004"]): "WearwatchDriveSpareBelowThreshold",
        (c, n["WWNVME0005"]): "WearwatchDriveTemperatureOverLimit",
        (c, n["WWNVME0006"]): "WearwatchDriveTemperatureCritical",
        (c, n["WWNVME0007"]): "WearwatchDriveMediaErrors",
        (c, n["WWNVME0008"]): "WearwatchCollectionFailing",
        (c, n["WWNVME0009"]): "WearwatchDriveHealthCritical",
        (c, "ata-pending"): "WearwatchDriveHealthWarning",
        (fl.down_instance, None): "WearwatchTargetDown",
    }


def am_alerts(fl):
    got = {}
    for al in F.http_json(fl.am + "/api/v2/alerts"):
        lab = dict(al["labels"], _state=al["status"]["state"])
        got.setdefault(lab["alertname"], []).append(lab)
    return got


def pages(fl):
    """(instance, drive) -> [the firing alerts of each notification]."""
    out = {}
    for note in list(fl.notifications):
        g = note.get("groupLabels", {})
        out.setdefault((g.get("instance"), g.get("drive")), []).append(
            [x["labels"] for x in note.get("alerts", []) if x.get("status") == "firing"])
    return out


def check_pages(fl):
    """alertmanager-example.yml: one notification per drive with a problem,
    holding one alert, the expected one, at the verdict's severity."""
    want = expected_pages(fl)
    F.wait_for(lambda: set(want) <= set(pages(fl)), 60, step=0.5)
    # a second notification of a group would come group_interval (20 s)
    # after the first: wait that long past the last one
    last = [len(fl.notifications)]

    def quiet():
        time.sleep(25)
        now = len(fl.notifications)
        done = now == last[0]
        last[0] = now
        return done
    F.wait_for(quiet, 90, step=0)
    got = pages(fl)
    status = {(x["metric"]["instance"], x["metric"]["drive"]): int(x["value"][1])
              for x in F.promql(fl.prom, "wearwatch_drive_health_status")["data"]["result"]}
    for key, name in sorted(want.items(), key=str):
        notes = got.get(key, [])
        names = sorted({a["alertname"] for n in notes for a in n})
        check(len(notes) == 1 and names == [name],
              "%s %s: one page, %s" % (key[0], key[1] or "(target)", name),
              "%d notifications, alerts %s" % (len(notes), names))
        if key[1] and notes:
            sev = {a.get("severity") for n in notes for a in n}
            exp = "critical" if status.get(key) == 2 else "warning"
            check(sev == {exp}, "%s %s: severity %s, the verdict's" % (key[0], key[1], exp),
                  "got %s (status %s)" % (sev, status.get(key)))
    for key in got:
        check(key in want, "page for %s has a scenario" % (key,))
    print("pages per drive: %s" % json.dumps(
        {"%s %s" % k: len(v) for k, v in sorted(got.items(), key=str)}))
    # the verdict's numbers in the summaries
    alerts = {(x["labels"]["alertname"], x["labels"].get("drive")): x
              for x in F.http_json(fl.am + "/api/v2/alerts")}
    for (name, drive), text in (
            (("WearwatchDriveHealthWarning", "ata-pending"), "pending sectors: 8 sectors (limit 1)"),
            (("WearwatchDriveMediaErrors", F.drive_id("WWNVME0007")), "reports 8 media and data"),
            (("WearwatchDriveTemperatureCritical", F.drive_id("WWNVME0006")),
             "is at 101 °C, at or above its critical limit of 100 °C")):
        summary = alerts.get((name, drive), {}).get("annotations", {}).get("summary", "")
        check(text in summary, "%s %s summary says '%s'" % (name, drive, text), summary)
    print("summary: %s" % alerts.get(("WearwatchDriveHealthWarning", "ata-pending"), {})
          .get("annotations", {}).get("summary"))


def pairs(labels):
    return {(x.get("instance"), x.get("drive")) for x in labels}


def check_alerts(fl, shipped):
    want = expected_alerts(fl)
    for name in shipped:
        check(name in want or name in fl.no_scenario,
              "alert %s has a scenario or a stated reason for none" % name,
              "add one to tests/prometheus/fleet.py")
    for name, why in fl.no_scenario.items():
        print("note %s: no scenario here (%s); covered by wearwatch-rules.test.yml" % (name, why))
    got = {}

    def arrived():
        got.clear()
        got.update(am_alerts(fl))
        return all(want[k] <= pairs(got.get(k, [])) for k in want)
    t0 = time.time()
    F.wait_for(arrived, 60, step=0.5)
    print("alerts in Alertmanager after %.1f s" % (time.time() - t0))
    for name, exp in sorted(want.items()):
        labels = got.get(name, [])
        check(pairs(labels) == exp, "%s reaches Alertmanager for %s" % (name, sorted(exp, key=str)),
              "got %s" % sorted(pairs(labels), key=str))
        need = ("instance", "job") + (("drive",) if name != "WearwatchTargetDown" else ())
        check(labels and all(all(x.get(k) for k in need) for x in labels),
              "%s carries %s labels" % (name, ", ".join(need)))
    for name in got:
        check(name in want, "alert %s firing has a scenario" % name)
    check_pages(fl)


def check_fleet_api(fl):
    """GET /api/v1/fleet of host A against this Prometheus: the problem set
    holds every drive whose verdict is warning or critical, the first page
    every host and drive, the down list the target nothing answers on."""
    a = fl.hosts["a"]
    body = {}

    def answered():
        body.clear()
        body.update(F.http_json(a["url"] + "/api/v1/fleet", timeout=30))
        q = body.get("queries", {})
        return q.get("problems", {}).get("reason_values") and q.get("down")
    F.wait_for(answered, 30, step=1)
    q = body.get("queries", {})
    check(body.get("errors") == [], "fleet API: every query answered", str(body.get("errors")))
    keys = lambda rows: {(x["metric"].get("instance"), x["metric"].get("drive")) for x in rows}
    status = {(x["metric"]["instance"], x["metric"]["drive"]): int(x["value"][1])
              for x in F.promql(fl.prom, "wearwatch_drive_health_status")["data"]["result"]}
    bad = {k for k, v in status.items() if v in (1, 2)}
    check(bad and bad <= keys(q.get("problems", {}).get("health", [])),
          "fleet API: every warning or critical drive is in the problem set (%d)" % len(bad),
          str(sorted(bad - keys(q.get("problems", {}).get("health", [])), key=str)))
    every = {(h["instance"], d) for h in fl.hosts.values() for d in h["drives"]}
    check(body.get("page_hosts") == sorted(h["instance"] for h in fl.hosts.values()) and
          body.get("hosts_total") == len(fl.hosts) and body.get("pages") == 1,
          "fleet API: page 1 lists the %d hosts" % len(fl.hosts), str(body.get("page_hosts")))
    check(keys(q.get("page", {}).get("info", [])) == every,
          "fleet API: the page holds every drive of its hosts",
          str(sorted(keys(q.get("page", {}).get("info", [])) ^ every, key=str)))
    down = {x["metric"]["instance"]: float(x["value"][1]) for x in q.get("down", [])}
    check(down.get(fl.down_instance) == 0.0 and len(down) == 1,
          "fleet API: the down target is listed (no good scrape in the last day)", str(down))
    pend = [x for x in q.get("problems", {}).get("reason_values", [])
            if x["metric"]["drive"] == "ata-pending" and x["metric"]["kind"] == "value"]
    check(len(pend) == 1 and pend[0]["value"][1] == "8" and pend[0]["metric"]["unit"] == "sectors",
          "fleet API: the pending-sector drive's number (8 sectors)", str(pend))
    check(q.get("drives_total", [{}])[0].get("value", [0, ""])[1] == str(len(every)),
          "fleet API: drives_total counts every drive", str(q.get("drives_total")))


def query_count(fl, expr):
    try:
        return len(F.promql(fl.prom, expr)["data"]["result"])
    except OSError as e:
        print("query %s: %s" % (expr, e))
        return -1


# Some series need two samples in Prometheus before a query has data (an
# increase() over a recording rule's output, evaluated every second): under
# load the first look can come too early. Each query is retried until it has
# data, within one deadline shared by all of them so a rule that never
# returns data still fails in bounded time.
SETTLE_S = 60.0
_deadline = [None]


def count_eventually(fl, expr):
    """query_count once expr has data or the shared deadline has passed."""
    if _deadline[0] is None:
        _deadline[0] = time.time() + SETTLE_S
    n = [query_count(fl, expr)]

    def has_data():
        n[0] = query_count(fl, expr)
        return n[0] > 0
    if n[0] <= 0:
        F.wait_for(has_data, max(0.0, _deadline[0] - time.time()), step=0.5)
    return n[0]


def check_rules(fl):
    groups = F.http_json(fl.prom + "/api/v1/rules")["data"]["groups"]
    rules = [r for g in groups for r in g["rules"]]
    bad = ["%s: %s %s" % (r["name"], r["health"], r.get("lastError", "")) for r in rules
           if r["health"] != "ok"]
    check(rules and not bad, "all %d rules evaluated, none in health err" % len(rules),
          "; ".join(bad))
    records = sorted({r["name"] for r in rules if r["type"] == "recording"})
    for name in records:
        n = count_eventually(fl, name)
        check(n > 0, "recording rule %s returns data (%d series)" % (name, n))
    return sorted({r["name"] for r in rules if r["type"] == "alerting"})


def fill(expr, values):
    """Grafana's variable interpolation for the names the dashboards use."""
    def sub(m):
        return values[m.group(1) or m.group(2)]
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", sub, expr)


def check_grafana(fl, src):
    gen = os.path.join(src, "contrib/grafana/make_dashboards.py")
    spec = importlib.util.spec_from_file_location("make_dashboards", gen)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    files = sorted(glob.glob(os.path.join(src, "contrib/grafana/*.json")))
    rendered = mod.render()
    check(sorted(os.path.basename(f) for f in files) == sorted(rendered),
          "contrib/grafana holds the dashboards make_dashboards.py writes")
    a = fl.hosts["a"]["instance"]
    values = {"job": "wearwatch", "instance": a, "drive": F.drive_id("WWNVME0001"),
              "__rate_interval": "1m", "__interval": "15s", "__range": "1h",
              "datasource": "prometheus"}
    for path in files:
        name = os.path.basename(path)
        text = open(path).read()
        check(text == rendered.get(name), "%s is make_dashboards.py's output" % name)
        d = json.loads(text)
        for v in d["templating"]["list"]:
            if v["type"] != "query":
                continue
            m = re.match(r"label_values\((.*), *(\w+)\)$", v["query"]["query"])
            q = urllib.parse.urlencode({"match[]": fill(m.group(1), values)})
            vals = F.http_json("%s/api/v1/label/%s/values?%s" % (fl.prom, m.group(2), q))["data"]
            check(vals, "%s: variable %s has values" % (name, v["name"]), v["query"]["query"])
        if name == "wearwatch-drive.json":
            check_kinds(fl, d)
            continue
        for p in d["panels"]:
            for t in p["targets"]:
                expr = fill(t["expr"], values)
                n = count_eventually(fl, expr)
                check(n > 0, "%s: panel '%s' query returns data" % (name, p["title"]), expr)


# An applicable query that no fixture here can give data for: (drive,
# panel title) -> which fixture lacks what. Printed, counted apart, never
# passed.
NO_NVME_SELFTEST = ("the QEMU NVMe controller offers no Device Self-test log (Identify "
                    "Controller OACS 0x010a, bit 4 clear, in its capture) and no NVMe "
                    "smartctl JSON of shared/fixtures has nvme_self_test_log")
FIXTURE_GAPS = {
    (F.drive_id("WWNVME0001"), "Self-tests"): NO_NVME_SELFTEST,
    ("nvme-eui.0025388b91b3a2c1", "Self-tests"): NO_NVME_SELFTEST,
    ("nvme-eui.0025388b91b3a2c1", "Error log"):
        "its smartctl 7.3 ran with --log=error, yet its JSON has no "
        "nvme_error_information_log, nor has any NVMe smartctl JSON of shared/fixtures",
    ("nvme-eui.0025388b91b3a2c1", "Temperature and the drive's limits"):
        "its smartctl ran with --info --health --attributes: no warning or critical "
        "temperature threshold in its JSON, nor in any NVMe smartctl JSON of shared/fixtures",
    ("wwn-0x5000c500a1b2c3d4", "Self-tests"):
        "no SCSI smartctl JSON of shared/fixtures has a self-test log (scsi_self_test_*)",
}
KIND_OF = {"NVMe": "NVMe", "SATA HDD": "SATA", "SAS": "SAS"}
RATED = "rated drives"
# a rating from a table or the configuration; none and one derived from the
# drive's own wear leave rated endurance used uncompared
UNRATED = ("none", "derived_percentage_used")


def applies(panel):
    """refId -> the kinds (make_dashboards.KINDS, RATED) its panel says it has
    data for; None: every drive."""
    desc = panel.get("description", "")
    every = re.search(r"(?:^|\. )Data for: ([^.]+)\.", desc)
    kinds = {t["refId"]: set(every.group(1).split(", ")) if every else None
             for t in panel["targets"]}
    for ref, which in re.findall(r"Query (\w) data for: ([^.]+)\.", desc):
        kinds[ref] = set(which.split(", "))
    return kinds


def check_kinds(fl, d):
    """Every query of the drive dashboard, for each drive of each kind."""
    a, worn = fl.hosts["a"]["instance"], F.drive_id("WWNVME0001")
    drives = [("NVMe", a, worn, "QEMU capture")]
    real = fl.hosts.get("d", {}).get("kinds", {})
    for drive, kind in sorted(real.items(), key=lambda x: x[1]):
        drives.append((kind, fl.hosts["d"]["instance"], drive, "real drive's smartctl JSON"))
    summary = []
    for kind, inst, drive, what in drives:
        sources = {x["metric"].get("source") for x in F.promql(
            fl.prom, 'wearwatch_drive_rating_info{instance="%s",drive="%s"}' % (inst, drive))
            ["data"]["result"]}
        tags = {KIND_OF[kind]} | ({RATED} if sources - set(UNRATED) else set())
        values = {"job": "wearwatch", "instance": inst, "drive": drive,
                  "__rate_interval": "1m", "__interval": "15s", "__range": "1h"}
        n_app = n_data = n_other = n_gap = 0
        for p in d["panels"]:
            for t in p["targets"]:
                expr = fill(t["expr"], values)
                label = "drive dashboard, %s %s: '%s' query %s" % (kind, drive, p["title"],
                                                                 t["refId"])
                want = applies(p)[t["refId"]]
                if want is not None and not want & tags:
                    n_other += 1
                    continue
                n_app += 1
                gap = FIXTURE_GAPS.get((drive, p["title"]))
                n = count_eventually(fl, expr)
                if gap and n <= 0:
                    n_gap += 1
                    print("gap  %s: no data, %s" % (label, gap))
                    continue
                check(n > 0, label + " returns data", expr)
                n_data += n > 0
        summary.append("%s %s (%s%s): %d/%d queries for it with data%s, %d for other drives"
                       % (kind, drive, what, ", rated" if RATED in tags else "", n_data, n_app,
                          " (%d without fixture data)" % n_gap if n_gap else "", n_other))
    print("drive dashboard coverage: " + "; ".join(summary))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="ww-fleet-") as work:
        # host D needs the real drives' JSON; without it the rest still runs
        # and the test ends skipped (77), naming the path
        fix = F.fixtures_dir(src)
        kinds = all(os.path.exists(os.path.join(fix, v[2])) for v in F.REAL_DRIVES.values())
        if not kinds:
            print("no %s (WW_FIXTURES, docs/testing.md): host D and the drive dashboard's "
                  "per-kind check left out" % fix)
        fl = F.Fleet(binary, src, work, kinds=kinds)
        try:
            fl.start()
            print("fleet up after %.1f s: %s" % (time.time() - t0, json.dumps(
                {k: v["instance"] for k, v in fl.hosts.items()})))
            # wearwatch.conf's [endurance] ratings_file reached the model
            # (fleet.py: a table row for the SATA disk's model)
            q = 'wearwatch_drive_rating_info{drive="ata-WWSATA_DISK_WWSATA0001",source="ratings_file"}'
            check(query_count(fl, q) == 1, "[endurance] ratings_file in wearwatch.conf rates a drive")
            # host A is scraped in the fleet profile: no attribute worst or
            # threshold series there, its value and raw series kept
            a_inst = fl.hosts["a"]["instance"]
            check(query_count(fl, 'wearwatch_drive_ata_attribute{instance="%s",kind=~"worst|threshold"}'
                              % a_inst) == 0 and
                  query_count(fl, 'wearwatch_drive_ata_attribute{instance="%s",kind="value"}'
                              % a_inst) > 0,
                  "host A's scrape is the fleet profile (no worst or threshold series)")
            rules = open(os.path.join(src, "contrib/prometheus/wearwatch-rules.yml")).read()
            rules += open(os.path.join(src, "docs/migrating.md")).read()
            check_alerts(fl, re.findall(r"(?m)^\s+- alert: (\w+)$", rules))
            # after the alerts: every rule has been evaluated many times
            check(sorted(re.findall(r"(?m)^\s+- alert: (\w+)$", rules)) == check_rules(fl),
                  "Prometheus loaded every shipped alert")
            check_grafana(fl, src)
            check_fleet_api(fl)
        except (RuntimeError, OSError) as e:
            check(False, "fleet runs", str(e))
        if FAILED:
            print(fl.log_tail())
        fl.stop()
    print("wall time %.1f s" % (time.time() - t0))
    print("%d passed, %d failed" % (len(PASSED), len(FAILED)))
    return 1 if FAILED else 0 if kinds else 77


if __name__ == "__main__":
    sys.exit(main())
