#!/bin/sh
# `wearwatch qualify` against fio on the same device, per profile and load
# point: IOPS, mean, p50, p99 and max latency, and CPU seconds per I/O (user +
# system of each tool's process, from getrusage of the child). Both use
# io_uring, O_DIRECT, T threads x Q depth, uniform random offsets aligned to
# the block size (fio: norandommap, randrepeat=0), per-thread regions for
# sequential profiles (fio: offset_increment), and total latency (fio:
# lat_percentiles=1, so its percentiles are of submission to completion as
# ours are). Runs alternate (qualify, fio, qualify, fio ...) so that a change
# in the machine's load hits both. Prints a Markdown table for
# docs/benchmarks.md, with `uptime` before and after.
#
# Usage: scripts/qualify-vs-fio.sh DEVICE [--seconds N] [--loads 2T2Q,16T16Q]
#            [--profiles P,P...] [--destroy-data=ID]
#   Profiles that write need --destroy-data=ID (wearwatch's guard checks it;
#   fio is run on the device only after wearwatch's guard let it through).
#   Default: every synthetic profile, 2T2Q and 16T16Q, 10 s each.
# Needs fio (scripts/deps.sh test) and a built wearwatch ($WEARWATCH or
# build/wearwatch).
set -eu
exec python3 - "$@" <<'PY'
import json, os, resource, subprocess, sys, tempfile

args = sys.argv[1:]
if not args or args[0].startswith("-"):
    sys.exit("usage: qualify-vs-fio.sh DEVICE [--seconds N] [--loads L] [--profiles P] [--destroy-data=ID]")
dev, seconds, destroy = args[0], 10, None
loads = ["2T2Q", "16T16Q"]
profiles = ["4k-random-read", "4k-random-write", "8k-random-70-30", "8k-random-read",
            "8k-random-write", "128k-seq-read", "128k-seq-write"]
i = 1
while i < len(args):
    a = args[i]
    if a == "--seconds": seconds = int(args[i + 1]); i += 2
    elif a == "--loads": loads = args[i + 1].split(","); i += 2
    elif a == "--profiles": profiles = args[i + 1].split(","); i += 2
    elif a.startswith("--destroy-data="): destroy = a.split("=", 1)[1]; i += 1
    else: sys.exit(f"qualify-vs-fio.sh: unknown argument {a}")
ww = os.environ.get("WEARWATCH") or os.path.join(os.path.dirname(os.path.abspath(".")), "build/wearwatch")
if not os.path.exists(ww):
    ww = "build/wearwatch"

# profile -> fio rw, rwmixread, bs (the same rows as `wearwatch qualify --list-profiles`)
table = {}
for line in subprocess.run([ww, "qualify", "--list-profiles"], check=True,
                           capture_output=True, text=True).stdout.splitlines()[1:]:
    f = line.split()
    table[f[0]] = (f[1], int(f[2]), f[3])

def size_bytes(s):
    return int(s[:-1]) * 1024 if s.endswith("k") else int(s)

def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, cpu

def dev_bytes():
    with open(dev, "rb") as f:
        return f.seek(0, 2)

def ours(profile, load, tmp):
    out = os.path.join(tmp, "q.json")
    cmd = [ww, "qualify", dev, "--profile", profile, "--load", load, "--seconds", str(seconds),
           "--json", out]
    if destroy:
        cmd.append("--destroy-data=" + destroy)
    p, cpu = run(cmd)
    if p.returncode != 0:
        sys.exit(f"wearwatch qualify failed ({p.returncode}): {p.stderr.strip()}")
    pt = json.load(open(out))["points"][0]
    res = {}
    for k in ("read", "write"):
        s = pt[k]
        if s["ios"]:
            res[k] = dict(iops=s["iops"], mean=s["mean_s"], p50=s["p50_s"], p99=s["p99_s"],
                          max=s["max_s"], ios=s["ios"])
    return res, cpu

def fio(profile, load, tmp):
    sizes, rd, pattern = table[profile]
    t, q = load.upper().rstrip("Q").split("T")
    rw = {("random", 100): "randread", ("random", 0): "randwrite",
          ("sequential", 100): "read", ("sequential", 0): "write"}.get((pattern, rd), "randrw")
    n = int(t)
    out = os.path.join(tmp, "f.json")
    cmd = ["fio", "--name=cmp", "--filename=" + dev, "--ioengine=io_uring", "--direct=1",
           "--thread", "--group_reporting", "--time_based", f"--runtime={seconds}",
           f"--numjobs={n}", f"--iodepth={q}", f"--bs={size_bytes(sizes)}", f"--rw={rw}",
           "--norandommap", "--randrepeat=0", "--lat_percentiles=1",
           "--percentile_list=50:99", "--output-format=json", "--output=" + out]
    if rw == "randrw":
        cmd.append(f"--rwmixread={rd}")
    if pattern == "sequential":
        part = dev_bytes() // n // 131072 * 131072
        cmd += [f"--size={part}", f"--offset_increment={part}"]
    p, cpu = run(cmd)
    if p.returncode != 0:
        sys.exit(f"fio failed ({p.returncode}): {p.stderr.strip()}")
    job = json.load(open(out))["jobs"][0]
    res = {}
    for k in ("read", "write"):
        s = job[k]
        if s["total_ios"]:
            pc = s["lat_ns"].get("percentile", {})
            res[k] = dict(iops=s["iops"], mean=s["lat_ns"]["mean"] / 1e9,
                          p50=pc.get("50.000000", 0) / 1e9, p99=pc.get("99.000000", 0) / 1e9,
                          max=s["lat_ns"]["max"] / 1e9, ios=s["total_ios"])
    return res, cpu

print("uptime before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
print(f"device {dev}, {seconds} s per run, io_uring, O_DIRECT\n")
print("| profile | load | kind | tool | IOPS | avg ms | p50 ms | p99 ms | max ms | CPU us/IO |")
print("|---|---|---|---|---|---|---|---|---|---|")
with tempfile.TemporaryDirectory() as tmp:
    for prof in profiles:
        if prof not in table:
            sys.exit(f"no profile {prof}")
        if table[prof][1] < 100 and not destroy:
            print(f"(skipped {prof}: it writes; give --destroy-data=ID)")
            continue
        for load in loads:
            a, ca = ours(prof, load, tmp)
            b, cb = fio(prof, load, tmp)
            ia = sum(v["ios"] for v in a.values()) or 1
            ib = sum(v["ios"] for v in b.values()) or 1
            for k in ("read", "write"):
                for tool, r, cpu, ios in (("qualify", a, ca, ia), ("fio", b, cb, ib)):
                    if k not in r:
                        continue
                    v = r[k]
                    print(f"| {prof} | {load} | {k} | {tool} | {v['iops']:.0f} | {v['mean']*1e3:.3f} | "
                          f"{v['p50']*1e3:.3f} | {v['p99']*1e3:.3f} | {v['max']*1e3:.3f} | "
                          f"{cpu / ios * 1e6:.2f} |")
            sys.stdout.flush()
print("\nuptime after:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
PY
