#!/usr/bin/env python3
"""alertmanager-example.yml keeps one alert per drive, for every drive alert.

usage: check_inhibit.py SOURCE_DIR

The example's inhibit rules are a chain: rule i's source is one alert name,
its targets every name after it plus the verdict alerts (WearwatchDrive-
HealthCritical, ...Warning); the verdict's critical alert holds back its
warning one. Checked here, against the alerts of
contrib/prometheus/wearwatch-rules.yml and of docs/migrating.md's rule block:
- every alert with a drive label (all but WearwatchTargetDown) is in the
  chain, once; the chain names no alert that exists in neither file;
- each rule's targets are exactly the names after its source (a regex over
  the names: it must match those and no other known alert), equal on
  instance, job and drive;
- the route groups by instance, job and drive.
Exits 0 when all hold, 1 otherwise (each failure printed).
"""
import os
import re
import sys

import yaml

VERDICT = ["WearwatchDriveHealthCritical", "WearwatchDriveHealthWarning"]


def alerts(text):
    return re.findall(r"(?m)^\s+- alert: (\w+)$", text)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.argv[1]
    am = yaml.safe_load(open(os.path.join(src, "contrib/prometheus/alertmanager-example.yml")))
    shipped = alerts(open(os.path.join(src, "contrib/prometheus/wearwatch-rules.yml")).read())
    mig = open(os.path.join(src, "docs/migrating.md")).read()
    block = re.search(r"```yaml\n(groups:.*?)```", mig, re.S)
    suggested = alerts(block.group(1)) if block else []
    known = shipped + suggested
    drive_alerts = [a for a in known if a != "WearwatchTargetDown" and a not in VERDICT]
    bad = []
    if not suggested:
        bad.append("docs/migrating.md has no rule block")
    if sorted(am["route"].get("group_by", [])) != ["drive", "instance", "job"]:
        bad.append("route.group_by is not [instance, job, drive]: %s" % am["route"].get("group_by"))
    rules = am["inhibit_rules"]
    chain = []
    for r in rules:
        src_m = r["source_matchers"]
        m = re.fullmatch(r'alertname="(\w+)"', src_m[0]) if len(src_m) == 1 else None
        if not m:
            bad.append("inhibit rule source is not one alert name: %s" % src_m)
            continue
        chain.append((m.group(1), r))
    names = [n for n, _ in chain]
    order = [n for n in names if n not in VERDICT]
    for a in drive_alerts:
        if order.count(a) != 1:
            bad.append("%s is %d times in the inhibit chain (once wanted)" % (a, order.count(a)))
    for n in names:
        if n not in known:
            bad.append("inhibit chain names %s, an alert of neither rule file" % n)
    for i, (name, r) in enumerate(chain):
        if name in VERDICT:
            want = set(VERDICT[VERDICT.index(name) + 1:])
        else:
            want = set(order[order.index(name) + 1:]) | set(VERDICT)
        tm = r["target_matchers"]
        m = re.fullmatch(r'alertname(=~?)"(.*)"', tm[0]) if len(tm) == 1 else None
        if not m:
            bad.append("%s: target is not one alertname matcher: %s" % (name, tm))
            continue
        rx = m.group(2) if m.group(1) == "=~" else re.escape(m.group(2))
        got = {a for a in known if re.fullmatch(rx, a)}
        if got != want:
            bad.append("%s holds back %s, wanted %s (missing %s, extra %s)" % (
                name, sorted(got), sorted(want), sorted(want - got), sorted(got - want)))
        if sorted(r.get("equal", [])) != ["drive", "instance", "job"]:
            bad.append("%s: equal is not [instance, job, drive]" % name)
    for b in bad:
        print("FAIL " + b)
    print("%d drive alerts (%d shipped, %d from docs/migrating.md), %d inhibit rules: %s" % (
        len(drive_alerts), len(shipped), len(suggested), len(rules), "ok" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
