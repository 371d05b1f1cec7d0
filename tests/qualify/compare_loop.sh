#!/bin/sh
# --compare on two real runs: `qualify` on a loop device at 1T2Q and 2T2Q
# (old.json), then again at 2T2Q and 4T4Q with --compare old.json. The new
# report's "comparison" block must hold, for 2T2Q reads and writes, the old
# report's own figures and the new report's own figures (the same numbers
# both reports print), the change in % of old computed from them, 4T4Q as
# unmatched and the old run's identity; the text table on stdout and the
# HTML report's side-by-side table must print the same rows.
# Needs root and a loop device; exit 77 without them.
# Usage: compare_loop.sh WEARWATCH
set -u
ww=$1
. "$(dirname "$0")/loop_dev.sh"
loop_dev compare 64M
: >"$work/empty.conf"
q() {
	"$ww" qualify "$d" --profile 8k-random-70-30 --seconds 1 --config "$work/empty.conf" \
		--destroy-data="dev-${d#/dev/}" "$@"
}
q --load 1T2Q,2T2Q --json "$work/old.json" >/dev/null 2>"$work/err1" ||
	{ echo "FAIL: first run"; cat "$work/err1"; exit 1; }
q --load 2T2Q,4T4Q --json "$work/new.json" --html "$work/new.html" \
	--compare "$work/old.json" >"$work/out" 2>"$work/err2" ||
	{ echo "FAIL: second run"; cat "$work/err2"; exit 1; }
python3 - "$work" <<'PY'
import json, re, sys
w = sys.argv[1]
old, new = json.load(open(w + "/old.json")), json.load(open(w + "/new.json"))
out, html = open(w + "/out").read(), open(w + "/new.html").read()
cmp = new["comparison"]
keys = ["iops", "mean_s", "p99_s", "max_s"]
pt = lambda doc, load: next(p for p in doc["points"] if p["load"] == load)
fails = []
def want(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)
want(new["compared_with"] == w + "/old.json", "compared_with names the old report")
want(cmp["old"]["started"] == old["started"] and cmp["old"]["profile"] == old["profile"]["name"]
     and cmp["old"]["device_id"] == old["device"]["id"], "old run's identity: %s" % cmp["old"])
want([(r["load"], r["kind"]) for r in cmp["rows"]] == [("2T2Q", "read"), ("2T2Q", "write")],
     "rows: %s" % [(r["load"], r["kind"]) for r in cmp["rows"]])
want(cmp["unmatched"] == ["4T4Q"], "unmatched %s" % cmp["unmatched"])
for r in cmp["rows"]:
    o, n = pt(old, "2T2Q")[r["kind"]], pt(new, "2T2Q")[r["kind"]]
    for k in keys:
        ch = (n[k] - o[k]) / o[k] * 100
        want(r["old"][k] == o[k] and r["new"][k] == n[k] and abs(r["change_percent"][k] - ch) < 1e-9,
             "2T2Q %s %s: old %.6g new %.6g change %+.1f %%" % (r["kind"], k, o[k], n[k], ch))
    # the text table: IOPS old, new and the change as printed
    table = out[out.find("IOPS old/new"):]
    line = re.search(r"^2T2Q\s+%s\s+(.*)$" % r["kind"], table, re.M)
    cells = line.group(1).split() if line else []
    want(cells[:3] == ["%.0f" % o["iops"], "%.0f" % n["iops"], "%+.1f%%" % r["change_percent"]["iops"]],
         "text row %s: %s" % (r["kind"], " ".join(cells)))
    row = "<tr><th>2T2Q</th><td class=l>%s</td><td>%.0f</td><td>%.0f</td><td>%+.1f %%</td>" % (
        r["kind"], o["iops"], n["iops"], r["change_percent"]["iops"])
    want(row in html, "HTML row %s" % row)
want("<h2>Compared with %s/old.json</h2>" % w in html, "HTML section names the old report")
print("%d passed, %d failed" % (0 if fails else 1, 1 if fails else 0))
sys.exit(1 if fails else 0)
PY
