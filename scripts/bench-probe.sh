#!/bin/sh
# Accuracy and overhead of `wearwatch probe` against fio (io_uring, direct,
# randread, 4k, iodepth 1) and ioping on the same device in the same run.
# Tools alternate in every round (wearwatch, fio A, ioping, fio B); each sends
# COUNT back-to-back reads (same pacing). Medians over ROUNDS rounds are
# compared: wearwatch p50/p99 against fio A's total latency (lat, submission
# to completion, the span wearwatch times), fio B against fio A for the
# fio-against-fio spread, ioping's mean against wearwatch's mean. CPU is
# user+system of each tool's process per read.
#
# usage: scripts/bench-probe.sh [BINARY] [ROUNDS] [COUNT] [DEVICE]
#   BINARY  wearwatch binary (default build/wearwatch)
#   ROUNDS  default 5; COUNT default 20000 reads per tool per round
#   DEVICE  default: a direct-I/O loop device over a 1 GiB file of random
#           data in $WW_BENCH_DIR (default /var/tmp; root needed); falls back
#           to the file itself
#           (O_DIRECT) when loop devices are unavailable
set -eu
BIN=${1:-build/wearwatch}
ROUNDS=${2:-5}
COUNT=${3:-20000}
DEV=${4:-}
IMG=${WW_BENCH_DIR:-/var/tmp}/ww-bench-probe.img
LOOP=""

cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null; rm -f "$IMG"; }
if [ -z "$DEV" ]; then
	trap cleanup EXIT INT TERM
	dd if=/dev/urandom of="$IMG" bs=1M count=1024 status=none
	sync
	if LOOP=$(losetup --direct-io=on -f --show "$IMG" 2>/dev/null); then
		DEV=$LOOP
		echo "device: $DEV (loop, dio=$(cat /sys/block/${DEV#/dev/}/loop/dio)) over $IMG"
	else
		LOOP=""
		DEV=$IMG
		echo "device: $DEV (regular file, O_DIRECT; loop devices unavailable)"
	fi
fi
for t in fio ioping python3; do
	command -v $t >/dev/null || { echo "bench-probe: $t not installed (scripts/deps.sh test)"; exit 1; }
done
echo "commands per round:"
echo "  $BIN probe $DEV --bs 4k --qd 1 --count $COUNT --json"
echo "  fio --name=ww --filename=$DEV --ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=1 --number_ios=$COUNT --time_based=0 --size=100% --lat_percentiles=1 --output-format=json"
echo "  ioping -D -c $COUNT -i 0 -s 4k -q -B $DEV"

python3 - "$BIN" "$ROUNDS" "$COUNT" "$DEV" <<'PY'
import json, os, resource, statistics as st, subprocess, sys

binary, rounds, count, dev = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return out, cpu

def ww():
    out, cpu = run([binary, "probe", dev, "--bs", "4k", "--qd", "1", "--count", str(count), "--json"])
    j = json.loads(out)
    return dict(p50=j["p50_seconds"] * 1e6, p99=j["p99_seconds"] * 1e6,
                mean=j["mean_seconds"] * 1e6, n=j["reads"], cpu=cpu / j["reads"] * 1e6)

def fio():
    out, cpu = run(["fio", "--name=ww", "--filename=" + dev, "--ioengine=io_uring", "--direct=1",
                    "--rw=randread", "--bs=4k", "--iodepth=1", "--number_ios=%d" % count,
                    "--size=100%", "--lat_percentiles=1", "--output-format=json"])
    j = json.loads(out[out.index("{"):])["jobs"][0]["read"]
    lat, clat = j["lat_ns"], j["clat_ns"]
    return dict(p50=lat["percentile"]["50.000000"] / 1e3, p99=lat["percentile"]["99.000000"] / 1e3,
                mean=lat["mean"] / 1e3, clat_p50=clat["percentile"]["50.000000"] / 1e3,
                clat_p99=clat["percentile"]["99.000000"] / 1e3, n=j["total_ios"],
                cpu=cpu / j["total_ios"] * 1e6)

def ioping():
    out, cpu = run(["ioping", "-D", "-c", str(count), "-i", "0", "-s", "4k", "-q", "-B", dev])
    f = out.split()
    return dict(mean=int(f[5]) / 1e3, n=int(f[8]), cpu=cpu / int(f[8]) * 1e6)

res = {"wearwatch": [], "fio A": [], "ioping": [], "fio B": []}
for r in range(rounds):
    res["wearwatch"].append(ww())
    res["fio A"].append(fio())
    res["ioping"].append(ioping())
    res["fio B"].append(fio())
    print("round %d: wearwatch p50 %.1f p99 %.1f | fio A p50 %.1f p99 %.1f | fio B p50 %.1f p99 %.1f | ioping mean %.1f us"
          % (r + 1, res["wearwatch"][-1]["p50"], res["wearwatch"][-1]["p99"], res["fio A"][-1]["p50"],
             res["fio A"][-1]["p99"], res["fio B"][-1]["p50"], res["fio B"][-1]["p99"], res["ioping"][-1]["mean"]),
          flush=True)

med = {t: {k: st.median(x[k] for x in v) for k in v[0]} for t, v in res.items()}
print()
print("| tool | reads/run | p50 us | p99 us | mean us | CPU us/read |")
print("|---|---|---|---|---|---|")
for t in ("wearwatch", "fio A", "fio B", "ioping"):
    m = med[t]
    print("| %s | %d | %s | %s | %.1f | %.2f |" % (t, m["n"], "%.1f" % m["p50"] if "p50" in m else "-",
          "%.1f" % m["p99"] if "p99" in m else "-", m["mean"], m["cpu"]))
w, a, b = med["wearwatch"], med["fio A"], med["fio B"]
print()
print("wearwatch / fio A (lat):  p50 %.3f  p99 %.3f  mean %.3f" % (w["p50"] / a["p50"], w["p99"] / a["p99"], w["mean"] / a["mean"]))
print("wearwatch / fio A (clat): p50 %.3f  p99 %.3f" % (w["p50"] / a["clat_p50"], w["p99"] / a["clat_p99"]))
print("fio B / fio A (spread):   p50 %.3f  p99 %.3f" % (b["p50"] / a["p50"], b["p99"] / a["p99"]))
sp = [abs(x["p99"] / y["p99"] - 1) for x, y in zip(res["fio B"], res["fio A"])]
print("per-round |fio B/fio A - 1| of p99: max %.1f %%, median %.1f %%" % (100 * max(sp), 100 * st.median(sp)))
print("ioping mean / wearwatch mean: %.3f" % (med["ioping"]["mean"] / w["mean"]))
ok = abs(w["p50"] / a["p50"] - 1) <= 0.05 and abs(w["p99"] / a["p99"] - 1) <= 0.15
print("target (p50 within 5 %%, p99 within 15 %% of fio): %s" % ("met" if ok else "NOT met"))
sys.exit(0 if ok else 1)
PY
