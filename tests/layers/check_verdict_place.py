#!/usr/bin/env python3
"""The health verdict is decided in one place: src/model/ (ww_verdict),
reached through ww_drive_verdict() (src/store/endurance_svc.c). Everything
else prints it. This check fails when

  - a file outside src/model/ calls ww_verdict() itself (other than
    src/store/ and the unit tests), so an output could hand it other inputs;
  - a file outside src/model/ defines a reason name or a status word table
    of its own (the strings come from ww_reason_name / ww_status_name);
  - the dashboard (web/*.js) compares a health figure with a number or
    a threshold, or classifies status words itself (a verdict of its own).

usage: check_verdict_place.py SOURCE_DIR"""
import os
import re
import sys

# figures of a drive as web/model.js names them, and record field names
FIGURES = (r"(?:\bm\.(?:temp|tempWarn|tempCrit|rated|own|dwpd|dwpdRated|wearout|"
           r"unsafe|mediaErrors|capHealth|plpCount)\b|threshold|available_spare|critical_warning|"
           r"smart_status|percentage_used|endurance_used)")
COMPARE = re.compile(FIGURES + r"[^;,]*?(?:<=|>=|<(?!-)|>(?!=)|===?|!==?)\s*[-\w.(']")
WORDS = re.compile(r"/\^?\(?(?:ok|fail|crit|warn)[a-z|]*\)?")  # a regex over status words


def check(src):
    bad = []
    for root, _dirs, files in os.walk(os.path.join(src, "src")):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)
            if rel.startswith("src/model/"):
                continue
            text = open(path, encoding="utf-8", errors="replace").read()
            if re.search(r"\bww_verdict\s*\(", text) and not rel.startswith("src/store/"):
                bad.append(f"{rel}: calls ww_verdict() (outputs use ww_drive_verdict)")
            if re.search(r'"(?:drive_missing|spare_below_threshold|smart_failed)"', text):
                bad.append(f"{rel}: a reason code of its own (use ww_reason_name)")
    for f in sorted(os.listdir(os.path.join(src, "web"))):
        if not f.endswith(".js"):
            continue
        rel = os.path.join("web", f)
        for n, line in enumerate(open(os.path.join(src, rel), encoding="utf-8"), 1):
            code = line.split("//")[0]
            if code.lstrip().startswith(("*", "/*")):
                continue
            if COMPARE.search(code):
                bad.append(f"{rel}:{n}: compares a health figure: {line.strip()[:100]}")
            if WORDS.search(code):
                bad.append(f"{rel}:{n}: classifies status words: {line.strip()[:100]}")
    return bad


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    bad = check(sys.argv[1])
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} place(s) decide health outside src/model/")
        return 1
    print("verdict: decided in src/model/ only; src/ and web/ print it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
