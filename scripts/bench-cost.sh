#!/bin/sh
# The six cost figures of docs/benchmarks.md in one run, each next to the
# same run's baseline where it has one. Replayed drives (copies of the VM
# captures in tests/fixtures/captures, ids made unique), history on.
#   1. CPU per collection with a 90-day database (scripts/mkhistory.py) / fresh
#   2. CPU per collection at 300 drives, 10 s poll, probes off
#   3. /metrics and /api/v1/drives at 256 drives: wrk -c1 p50/p99, sizes
#   4. resident memory of serve with 64 drives (probes on: the default)
#   5. bytes written per drive per day (bench_history_io: fresh, and on top
#      of a 90-day database)
#   6. wakeups per second of serve with 3 drives, 60 s poll, probes off
# usage: scripts/bench-cost.sh [BINARY [HISTORY_IO]]
#   (defaults build/wearwatch build/bench_history_io; HISTORY_IO "-" skips 5,
#   e.g. for a binary from before it existed)
set -eu
BIN=${1:-build/wearwatch}
HIO=${2:-build/bench_history_io}
SRC=$(cd "$(dirname "$0")/.." && pwd)
PORT=19853
dir=$(mktemp -d /var/tmp/ww-cost.XXXXXX)   # on disk: figure 5 counts disk writes
pid=
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; fi; rm -rf "$dir"' EXIT INT TERM

# fleet N DIR: N drives, the three kinds in turn
fleet() {
	mkdir -p "$2"
	i=0
	while [ "$i" -lt "$1" ]; do
		for k in nvme sas sata; do
			[ "$i" -lt "$1" ] || break
			f=$(ls "$SRC"/tests/fixtures/captures/$k/*.capture)
			id=$(sed -n 's/^fact id //p' "$f")
			sed "s/^fact id .*/fact id $id-fleet$i/" "$f" >"$2/$k-$i.capture"
			i=$((i + 1))
		done
	done
}
ids() { sed -n 's/^fact id //p' "$1"/*.capture; }
metric_sum() { curl -s localhost:$PORT/metrics | awk -v m="$1" '$0 ~ "^" m "[{ ]" {s += $NF} END {print s + 0}'; }
# CPU time of every thread in ns (schedstat: utime/stime count 10 ms ticks,
# too coarse for 100 ms of CPU in a window)
cpu_ns() { cat /proc/$pid/task/*/schedstat | awk '{s += $1} END {printf "%d", s}'; }
# start STATE FLEET ARGS...: serve until every drive was read once
start() {
	st=$1 fl=$2
	shift 2
	mkdir -p "$st"
	PORT=$((PORT + 1))   # a port of its own: the last one's may be in TIME_WAIT
	"$BIN" serve --replay "$fl" --listen 127.0.0.1:$PORT --state-dir "$st" "$@" >"$st.log" 2>&1 &
	pid=$!
	n=$(ls "$fl" | wc -l)
	i=0
	until [ "$(curl -s localhost:$PORT/metrics 2>/dev/null | grep -c '^wearwatch_drive_collections_total')" -ge "$n" ]; do
		sleep 1
		i=$((i + 1))
		[ $i -lt 300 ] || { echo "service did not read $n drives"; tail -3 "$st.log"; exit 1; }
	done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
# cpu_per_collection WINDOW: microseconds of CPU per collection
cpu_per_collection() {
	sleep 5
	c0=$(metric_sum wearwatch_drive_collections_total); t0=$(cpu_ns)
	sleep "$1"
	t1=$(cpu_ns); c1=$(metric_sum wearwatch_drive_collections_total)
	awk -v t="$((t1 - t0))" -v c="$((c1 - c0))" \
		'BEGIN {printf "%d collections, %.1f us CPU each", c, t / 1e3 / c}'
}

fleet 300 "$dir/f300"; fleet 256 "$dir/f256"; fleet 64 "$dir/f64"; fleet 3 "$dir/f3"
echo "binary: $BIN ($(git -C "$SRC" describe --always --dirty 2>/dev/null || echo '?'))"

# 1 and 2: fresh, then aged, 300 drives, 10 s poll, probes off
start "$dir/fresh" "$dir/f300" --poll-interval 10 --poll-interval-rotational 10 --no-probe
fresh=$(cpu_per_collection 60)
stop
now=$(date +%s)
mkdir -p "$dir/aged"
[ "$HIO" = - ] || "$HIO" "$dir/aged/history.db" 0 0 >/dev/null   # this binary's schema
t=$(date +%s)
python3 "$SRC/scripts/mkhistory.py" "$dir/aged/history.db" "$now" 90 $(ids "$dir/f300") >/dev/null
echo "aged database: 300 drives x 90 days in $(( $(date +%s) - t )) s, $(du -sh "$dir/aged" | cut -f1)"
start "$dir/aged" "$dir/f300" --poll-interval 10 --poll-interval-rotational 10 --no-probe
aged=$(cpu_per_collection 60)
stop
echo "1+2. 300 drives, fresh database: $fresh"
echo "1+2. 300 drives, 90-day database: $aged"
echo "$fresh|$aged" | awk -F'|' '{split($1, a, " "); split($2, b, " "); printf "1. aged / fresh: %.2f\n", b[3] / a[3]}'

# 3: scrapes at 256 drives (60 s poll: the snapshot changes during the run)
start "$dir/s256" "$dir/f256" --no-probe
for p in /metrics /api/v1/drives; do
	size=$(curl -s -o /dev/null -w '%{size_download}' localhost:$PORT$p)
	gz=$(curl -s -H 'Accept-Encoding: gzip' -o /dev/null -w '%{size_download}' localhost:$PORT$p)
	wrk -t1 -c1 -d10s --latency http://127.0.0.1:$PORT$p >"$dir/wrk" 2>&1 || true
	awk -v p="$p" -v s="$size" -v g="$gz" '/Requests\/sec/ {r = $2} / 50%/ {p50 = $2} / 99%/ {p99 = $2}
		END {printf "3. %s, 256 drives: p50 %s p99 %s, %s req/s, %d bytes, %d gzipped\n", p, p50, p99, r, s, g}' "$dir/wrk"
done
stop

# 4: memory with 64 drives, the default settings (probes on; replayed drives are not probed)
start "$dir/m64" "$dir/f64"
sleep 20
echo "4. serve, 64 drives: $(grep VmRSS /proc/$pid/status | awk '{printf "%.1f MiB", $2 / 1024}') resident," \
	"threads $(ls /proc/$pid/task | wc -l)"
stop

# 5: bytes written per drive per day
if [ "$HIO" != - ]; then
	for n in 3 64; do
		"$HIO" "$dir/io-fresh-$n.db" "$n" 3 | sed "s/^/5. fresh, /"
	done
	"$HIO" "$dir/io-aged.db" 0 0 >/dev/null
	python3 "$SRC/scripts/mkhistory.py" "$dir/io-aged.db" "$now" 90 \
		$(i=0; while [ $i -lt 64 ]; do echo "nvme-bench-$i"; i=$((i + 1)); done) >/dev/null
	"$HIO" "$dir/io-aged.db" 64 2 "$((now + 60))" | sed "s/^/5. 90-day database, /"
fi

# 6: idle wakeups, 3 drives, default 60 s poll, probes off
start "$dir/idle" "$dir/f3" --no-probe
sleep 10
sw() { cat /proc/$pid/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
w0=$(sw)
sleep 120
w1=$(sw)
echo "6. idle, 3 drives, 60 s poll, no probes: $(awk -v d="$((w1 - w0))" 'BEGIN {printf "%.3f", d / 120}') wakeups/s" \
	"($(ls /proc/$pid/task | wc -l) threads), CPU $(awk -v t="$(cpu_ns)" 'BEGIN {printf "%.1f ms", t / 1e6}') since start"
stop
