#!/bin/sh
# What the service costs with many drives: replays N copies of each VM capture
# (tests/fixtures/captures, ids made unique) with a 10 s poll, then reports CPU
# per collection, the /metrics scrape time and size, and resident memory.
# usage: scripts/bench-fleet.sh [BINARY] [COPIES]   (default build/wearwatch 100)
set -eu
BIN=${1:-build/wearwatch}
COPIES=${2:-100}
PORT=19852
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
for k in nvme sas sata; do
	f=$(ls tests/fixtures/captures/$k/*.capture)
	id=$(sed -n 's/^fact id //p' "$f")
	i=1
	while [ "$i" -le "$COPIES" ]; do
		sed "s/^fact id .*/fact id $id-fleet$i/" "$f" >"$dir/$k-$i.capture"
		i=$((i + 1))
	done
done
mkdir "$dir/state"
"$BIN" serve --replay "$dir" --listen 127.0.0.1:$PORT --state-dir "$dir/state" \
	--poll-interval 10 --poll-interval-rotational 10 --no-probe >"$dir/log" 2>&1 &
pid=$!
sleep 15   # every drive read once
hz=$(getconf CLK_TCK)
c0=$(curl -s localhost:$PORT/metrics | awk '/^wearwatch_drive_collections_total/ {s += $2} END {print s}')
t0=$(cut -d' ' -f14,15 /proc/$pid/stat | awk '{print $1 + $2}')
sleep 60
t1=$(cut -d' ' -f14,15 /proc/$pid/stat | awk '{print $1 + $2}')
c1=$(curl -s localhost:$PORT/metrics | awk '/^wearwatch_drive_collections_total/ {s += $2} END {print s}')
drives=$(curl -s localhost:$PORT/metrics | grep -c '^wearwatch_drive_info')
echo "drives: $drives"
# every per-drive family has a series for every drive it applies to: all of
# them, or all drives of the protocols it is about (COPIES per capture)
curl -s localhost:$PORT/metrics | awk -v copies="$COPIES" '
	/^wearwatch_drive_[a-z_]*\{drive="/ {
		split($0, a, "{drive=\""); split(a[2], b, "\""); fam = a[1]
		sub(/_(bucket|sum|count)$/, "", fam)
		if (!seen[fam, b[1]]++) n[fam]++
	}
	END {
		for (f in n) { if (n[f] % copies) odd = odd " " f "=" n[f]; total[n[f]]++ }
		for (k in total) printf "families with %d drives: %d\n", k, total[k]
		print odd ? "families not covering whole copies:" odd : "every per-drive family covers whole copies of the captures"
	}'
echo "drives with a health verdict: $(curl -s localhost:$PORT/metrics | grep -c '^wearwatch_drive_health_status{')"
echo "collections in 60 s: $((c1 - c0)); CPU: $(( (t1 - t0) * 1000 / hz )) ms;" \
	"per collection: $(awk "BEGIN {printf \"%.2f\", ($t1 - $t0) * 1000 / $hz / ($c1 - $c0)}") ms"
for i in 1 2 3 4 5; do
	curl -s -o /dev/null -w "scrape /metrics: %{time_total} s, %{size_download} bytes\n" localhost:$PORT/metrics
done
grep VmRSS /proc/$pid/status
echo "history database: $(du -sh "$dir/state" | cut -f1)"
