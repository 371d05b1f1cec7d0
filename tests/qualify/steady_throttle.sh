#!/bin/sh
# qualify's preconditioning on a device whose speed changes mid-run: a loop
# device written by `qualify --precondition` (rounds of 1 s at 1T4Q), its
# writes throttled to 100 per second (cgroup v1 blkio.throttle, the kernel's
# block throttling: Documentation/admin-guide/cgroup-v1/blkio-controller.rst)
# once round 4 has started. The SNIA PTS rule must find steady state only in
# a window of rounds that all come after the change: the window starts after
# the throttled round, every round in it is at most the throttle (100 IOPS,
# 25 % slack: the throttle lets a burst through as it starts),
# and every round before the change was faster than any in the window.
# Needs root, a loop device and the blkio controller; exit 77 without them.
# Usage: steady_throttle.sh WEARWATCH
set -u
ww=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
blk=/sys/fs/cgroup/blkio
[ -w "$blk/cgroup.procs" ] && [ -e "$blk/blkio.throttle.write_iops_device" ] ||
	{ echo "SKIP: no cgroup v1 blkio throttling here"; exit 77; }
losetup -f >/dev/null 2>&1 || { echo "SKIP: no free loop device"; exit 77; }
work=$(mktemp -d /tmp/ww-steady.XXXXXX)
grp=$blk/ww-steady-$$
cleanup() {
	[ -n "${mm:-}" ] && echo "$mm 0" >"$grp/blkio.throttle.write_iops_device" 2>/dev/null
	[ -n "${d:-}" ] && losetup -d "$d" 2>/dev/null
	rmdir "$grp" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
truncate -s 64M "$work/disk.img"
d=$(losetup -f --show "$work/disk.img") || { echo "FAIL: losetup"; exit 1; }
mm=$(cat "/sys/block/${d#/dev/}/dev")
mkdir "$grp" || { echo "SKIP: cannot make a blkio group"; exit 77; }
: >"$work/empty.conf"
sh -c "echo \$\$ >$grp/cgroup.procs; exec \"$ww\" qualify $d --profile 4k-random-write \
	--precondition --precondition-load 1T4Q --round-seconds 1 --load 1T4Q --seconds 1 \
	--config $work/empty.conf --destroy-data=dev-${d#/dev/} --json $work/r.json" \
	>"$work/out" 2>"$work/err" &
run=$!
i=0
until grep -q 'round 4' "$work/err" 2>/dev/null || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
echo "$mm 100" >"$grp/blkio.throttle.write_iops_device"
wait $run; rc=$?
python3 - "$work/r.json" "$rc" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pc = doc["precondition"]
ss = pc["steady_state"]
iops = [r["write"]["iops"] for r in pc["rounds"]]
first, last = ss["window_first_round"], ss["window_last_round"]
window = iops[first - 1:last] if first else []
print("rounds IOPS", [round(v) for v in iops], "throttled to 100/s once round 4 started")
print("steady state", ss["reached"], "in rounds", first, "-", last,
      "average %.0f range %.2f %% slope %.2f %%" % (ss["average"] or 0,
      (ss["range_ratio"] or 0) * 100, (ss["slope_ratio"] or 0) * 100))
ok = (sys.argv[2] == "0" and ss["reached"] and first > 4 and last == len(iops) and
      window and max(window) <= 125 and max(window) < min(iops[:3]))
print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
sys.exit(0 if ok else 1)
PY
