#!/usr/bin/env python3
"""Every reason code the docs, the shipped rules and their tests, and the
Grafana dashboards name is one the verdict has (src/model/verdict.c's table):
an alert, silence or query copied from them must match what /metrics says.

usage: check_reason_names.py SOURCE_DIR; exit 1 naming each unknown code."""
import glob
import os
import re
import sys

src = sys.argv[1]
table = open(os.path.join(src, "src/model/verdict.c")).read()
codes = set(re.findall(r'\[WW_R_\w+\]\s*=\s*\{\s*"([a-z0-9_]+)"', table))
if len(codes) < 20:
    sys.exit("check_reason_names: found only %d codes in verdict.c" % len(codes))
files = (glob.glob(os.path.join(src, "docs/*.md")) + glob.glob(os.path.join(src, "README.md")) +
         glob.glob(os.path.join(src, "contrib/**/*.yml"), recursive=True) +
         glob.glob(os.path.join(src, "contrib/**/*.json"), recursive=True) +
         glob.glob(os.path.join(src, "man/*.[1-9]")))
# reason="x" / reason=~"x|y" in PromQL, and prose "reason `x`" / "reasons `x`, `y`"
promql = re.compile(r'reason=~?\\?"([a-z0-9_|]+)\\?"')
prose = re.compile(r'reasons? ((?:`[a-z0-9_]+`(?:,? (?:and |or )?)?)+)')
bad = []
checked = 0
for f in sorted(files):
    text = open(f, errors="replace").read()
    names = []
    for m in promql.finditer(text):
        names += m.group(1).split("|")
    for m in prose.finditer(text):
        names += re.findall(r'`([a-z0-9_]+)`', m.group(1))
    for n in names:
        checked += 1
        if n not in codes:
            bad.append("%s: reason '%s' is no code of the verdict" % (os.path.relpath(f, src), n))
for b in bad:
    print(b)
print("check_reason_names: %d mentions checked against %d codes, %d unknown" %
      (checked, len(codes), len(bad)))
sys.exit(1 if bad else 0)
