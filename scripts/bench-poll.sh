#!/bin/sh
# What one collection costs beyond its device commands, at several fleet
# sizes: replayed drives (copies of the VM captures in
# tests/fixtures/captures, ids made unique), history on, probes off, 10 s
# poll. Replayed drives send no device command, so every syscall and every
# microsecond counted here is overhead (replay parsing included).
#   a. CPU per collection at each size (schedstat of every thread, a
#      window after every drive was read once)
#   b. syscalls per collection at 64 drives (strace -c -f over a window),
#      and how many of them open, stat or readlink a path; then the same on
#      the live read path: serve --sysroot on a copy of the fake sysfs tree
#      (tests/fixtures/sysfs/basic, its device nodes made as plain files, so
#      discovery, the power checks and the node opens are the real ones and
#      the device commands fail at once with ENOTTY: the ioctls are counted)
#   c. resident memory of serve at 64 drives (probes on, the default) and of
#      the collector on this machine's own drives, on the fake tree, and on
#      the fake tree with 57 more NVMe controllers (64 drives listed: the
#      collector cannot replay)
#   d. /metrics CPU per scrape (plain and gzip) at 256 and 1,000 drives,
#      default 60 s poll: the service's CPU over 100 scrapes less its CPU
#      over as long a window without scrapes; then the same through the
#      split units (collector on the fake tree with more NVMe controllers,
#      web as nobody: needs root and setpriv), both processes' CPU
#   e. wakeups per second of serve idle, 3 drives, 60 s poll, probes off
#      and on (every thread's context switches over 120 s)
#   f. where a round goes at 3 drives: CPU and times run (slices) of the
#      main thread and of the readers over 4 x WINDOW, 10 s poll, probes off
#      (not in the default steps)
# With HISTORY_IO (build/bench_history_io) step a runs each size twice,
# fresh and on a 90-day database (scripts/mkhistory.py, as bench-cost.sh),
# and prints aged / fresh. Each figure of step a is the median of REPEAT
# (environment, default 3) windows.
# usage: scripts/bench-poll.sh [BINARY [SIZES [WINDOW [STEPS [HISTORY_IO]]]]]
#   (defaults build/wearwatch "3 64 300 1000" 30 "a b c d e" -)
# Run it under the shared lock on a shared machine:
#   flock /tmp/ww-heavy.lock scripts/bench-poll.sh build/wearwatch
set -eu
BIN=${1:-build/wearwatch}
SIZES=${2:-3 64 300 1000}
WINDOW=${3:-30}
STEPS=${4:-a b c d e}
HIO=${5:--}
REPEAT=${REPEAT:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
PORT=19953
dir=$(mktemp -d /var/tmp/ww-poll.XXXXXX)
pid=
wpid=
trap 'for p in $pid $wpid; do kill "$p" 2>/dev/null; done; rm -rf "$dir"' EXIT INT TERM

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
# more_nvme ROOT N: N more one-namespace NVMe controllers (nvme1..N, made
# from the tree's nvme0) in a copy of the fake sysfs tree, device nodes as
# plain files
more_nvme() {
	base=$1/sys/devices/pci0000:00/0000:00:04.0/nvme
	k=1
	while [ "$k" -le "$2" ]; do
		c=$base/nvme$k n=$base/nvme$k/nvme${k}n1
		mkdir -p "$n/queue" "$c/power"
		cp "$base/nvme0/model" "$base/nvme0/firmware_rev" "$base/nvme0/transport" "$c/"
		cp "$base/nvme0/power/runtime_status" "$c/power/"
		echo "242:$k" >"$c/dev"
		printf 'S5GXNF0R%07dX     \n' "$k" >"$c/serial"
		cp "$base/nvme0/nvme0n1/queue/"* "$n/queue/"
		cp "$base/nvme0/nvme0n1/size" "$base/nvme0/nvme0n1/nsid" "$n/"
		h=$(printf '%06x' "$k")
		echo "eui.0025388b91$h" >"$n/wwid"
		echo "00 25 38 8b 91 $(echo "$h" | sed 's/\(..\)\(..\)\(..\)/\1 \2 \3/')" >"$n/eui"
		ln -s "../../nvme$k" "$n/device"
		ln -s ../../../0000:00:04.0 "$c/device"
		ln -s "../devices/pci0000:00/0000:00:04.0/nvme/nvme$k/nvme${k}n1" "$1/sys/block/nvme${k}n1"
		: >"$1/dev/nvme$k"
		k=$((k + 1))
	done
}
metric_sum() { curl -s localhost:$PORT/metrics | awk -v m="$1" '$0 ~ "^" m "[{ ]" {s += $NF} END {print s + 0}'; }
rss() { awk '/^(VmRSS|RssAnon|RssFile):/ {v[$1] = $2} END {printf "%.1f MiB (anon %.1f, file %.1f)", v["VmRSS:"] / 1024, v["RssAnon:"] / 1024, v["RssFile:"] / 1024}' /proc/$pid/status; }
# CPU ns of the service (and of the web side while $wpid is set)
cpu_ns() { cat /proc/$pid/task/*/schedstat ${wpid:+/proc/$wpid/task/*/schedstat} | awk '{s += $1} END {printf "%d", s}'; }
# the fake sysfs tree copied to DIR, its device nodes as plain files
tree() {
	mkdir -p "$1"
	cp -a "$SRC/tests/fixtures/sysfs/basic/." "$1/"
	for k in nvme0 sg0 sg1 sg4 sg5; do : >"$1/dev/$k"; done
}
start() {
	st=$1 fl=$2
	shift 2
	mkdir -p "$st"
	PORT=$((PORT + 1))
	"$BIN" serve ${fl:+--replay "$fl"} --listen 127.0.0.1:$PORT --state-dir "$st" "$@" >"$st.log" 2>&1 &
	pid=$!
	n=${NDRIVES:-$(ls "$fl" | wc -l)}
	i=0
	until [ "$(curl -s localhost:$PORT/metrics 2>/dev/null | grep -c '^wearwatch_drive_collections_total')" -ge "$n" ]; do
		sleep 1
		i=$((i + 1))
		[ $i -lt 300 ] || { echo "service did not read $n drives"; tail -3 "$st.log"; exit 1; }
	done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

echo "binary: $BIN ($(git -C "$SRC" describe --always --dirty 2>/dev/null || echo '?')); window $WINDOW s"
step() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
# window N: CPU per collection over REPEAT windows of WINDOW s back to back
# (after every drive was read once); us is their median. One window at 3
# drives holds 9 collections, about 1 ms of CPU, which a single stall of a
# thread (a few ms now and then on this kind of machine, in fresh and aged
# runs alike) doubles: the median of three is what aged / fresh compares.
window() {
	sleep 5
	all=
	k=0
	c1=$(metric_sum wearwatch_drive_collections_total)
	while [ "$k" -lt "$REPEAT" ]; do
		# the scrape that counts is outside the window
		c0=$c1 t0=$(cpu_ns)
		sleep "$WINDOW"
		t1=$(cpu_ns); c1=$(metric_sum wearwatch_drive_collections_total)
		all="$all $(awk -v t="$((t1 - t0))" -v c="$((c1 - c0))" 'BEGIN {printf "%.1f", t / 1e3 / c}')"
		k=$((k + 1))
	done
	us=$(echo "$all" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
	echo "a. $1 drives$2: $((c1 - c0)) collections a window, $us us CPU each (median of$all) (load: $(cut -d' ' -f1-3 /proc/loadavg))"
}
step a && for n in $SIZES; do
	fleet "$n" "$dir/f$n"
	start "$dir/s$n" "$dir/f$n" --poll-interval 10 --poll-interval-rotational 10 --no-probe
	window "$n" ""
	fresh=$us
	stop
	[ "$HIO" != - ] || continue
	mkdir -p "$dir/a$n"
	"$HIO" "$dir/a$n/history.db" 0 0 >/dev/null   # this binary's schema
	python3 "$SRC/scripts/mkhistory.py" "$dir/a$n/history.db" "$(date +%s)" 90 \
		$(sed -n 's/^fact id //p' "$dir/f$n"/*.capture) >/dev/null
	start "$dir/a$n" "$dir/f$n" --poll-interval 10 --poll-interval-rotational 10 --no-probe
	window "$n" ", 90-day database ($(du -sh "$dir/a$n" | cut -f1))"
	echo "a. $n drives: aged / fresh $(awk -v a="$us" -v f="$fresh" 'BEGIN {printf "%.2f", a / f}')"
	stop
	rm -rf "$dir/a$n"
done

# strace_window LABEL: syscalls of the running service per collection
strace_window() {
	sleep 5
	c0=$(metric_sum wearwatch_drive_collections_total)
	timeout -s INT "$WINDOW" strace -c -f -q -p "$pid" -o "$dir/strace" 2>/dev/null || true
	c1=$(metric_sum wearwatch_drive_collections_total)
	stop
	# the scrapes that count collections are in the window too: two of them
	awk -v c="$((c1 - c0))" -v label="$1" '
		$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { name = $NF; calls = $4; all += calls
			if (name ~ /^(open|openat|stat|newfstatat|lstat|statx|readlink|readlinkat|access|faccessat|faccessat2|getdents64)$/) path += calls
			if (name == "ioctl") io += calls
			row[name] = calls }
		END {
			printf "b. %s: %d collections, %.1f syscalls each: %.2f open/stat/readlink/getdents, %.2f ioctl\n", label, c, all / c, path / c, io / c
			for (k in row) if (row[k] / c >= 0.5) printf "   %-16s %.2f per collection\n", k, row[k] / c
		}' "$dir/strace"
}
if step b && command -v strace >/dev/null; then
	[ -d "$dir/f64" ] || fleet 64 "$dir/f64"
	start "$dir/t64" "$dir/f64" --poll-interval 10 --poll-interval-rotational 10 --no-probe
	strace_window "64 replayed drives"
	# the live read path on the fake tree: 5 drives with a health interface
	tree "$dir/root"
	# rediscovery at its default (a tree gets no udev notices: every poll
	# interval), then every 10 min as with udev's notices on a live system
	NDRIVES=7 start "$dir/live" "" --sysroot "$dir/root" --poll-interval 2 \
		--poll-interval-rotational 2 --no-probe
	strace_window "fake sysfs tree, live read path, 5 drives read, 2 s poll"
	NDRIVES=7 start "$dir/live10" "" --sysroot "$dir/root" --poll-interval 2 \
		--poll-interval-rotational 2 --no-probe --rediscover 10m
	strace_window "the same, --rediscover 10m"
fi

if step c; then
[ -d "$dir/f64" ] || fleet 64 "$dir/f64"
start "$dir/m64" "$dir/f64"
sleep 20
echo "c. serve, 64 drives (probes on): $(rss)," \
	"$(grep -c '\.so' /proc/$pid/maps | tr -d ' ') mapped library ranges, $(awk '/\.so/ {print $6}' /proc/$pid/maps | sort -u | wc -l) libraries"
stop
mkdir -p "$dir/coll"
"$BIN" collector --socket "$dir/coll.sock" --state-dir "$dir/coll" --no-probe >"$dir/coll.log" 2>&1 &
pid=$!
sleep 10
if kill -0 "$pid" 2>/dev/null; then
	echo "c. collector, this machine's drives ($("$BIN" scan 2>/dev/null | tail -n +2 | wc -l) listed): $(rss)," \
		"$(awk '/\.so/ {print $6}' /proc/$pid/maps | sort -u | wc -l) libraries" \
		"(TLS/HTTP client: $(awk '/\.so/ {print $6}' /proc/$pid/maps | sort -u | grep -c -E 'gnutls|curl|nettle|hogweed|p11-kit|tasn1|idn2|ssl|crypto' || true))"
	stop
	# and on the fake tree's drives (as in b: device nodes as plain files)
	if [ ! -d "$dir/root" ]; then
		mkdir -p "$dir/root"
		cp -a "$SRC/tests/fixtures/sysfs/basic/." "$dir/root/"
		for n in nvme0 sg0 sg1 sg4 sg5; do : >"$dir/root/dev/$n"; done
	fi
	mkdir -p "$dir/coll2"
	"$BIN" collector --socket "$dir/coll2.sock" --state-dir "$dir/coll2" --sysroot "$dir/root" \
		--poll-interval 2 --poll-interval-rotational 2 --no-probe >"$dir/coll2.log" 2>&1 &
	pid=$!
	sleep 10
	echo "c. collector, fake tree (7 drives listed, 5 read): $(rss)," \
		"$(awk '/\.so/ {print $6}' /proc/$pid/maps | sort -u | wc -l) libraries" \
		"(TLS/HTTP: $(awk '/\.so/ {print $6}' /proc/$pid/maps | sort -u | grep -c -E 'microhttpd|gnutls|curl|nettle|hogweed|p11-kit|tasn1|idn2|ssl|crypto' || true))"
	stop
	# 64 drives listed: 57 more NVMe controllers in the tree (each read
	# fails at once with ENOTTY, as on the tree's own nodes)
	[ -d "$dir/root/sys/block/nvme1n1" ] || more_nvme "$dir/root" 57
	mkdir -p "$dir/coll3"
	"$BIN" collector --socket "$dir/coll3.sock" --state-dir "$dir/coll3" --sysroot "$dir/root" \
		--poll-interval 2 --poll-interval-rotational 2 --no-probe >"$dir/coll3.log" 2>&1 &
	pid=$!
	sleep 15
	echo "c. collector, fake tree and 57 more NVMe controllers ($("$BIN" scan --sysroot "$dir/root" 2>/dev/null | tail -n +2 | wc -l) listed): $(rss)," \
		"$(awk '/\.so/ {print $6}' /proc/$pid/maps | sort -u | wc -l) libraries (load: $(cut -d' ' -f1-3 /proc/loadavg))"
	stop
else
	echo "c. collector did not start: $(tail -2 "$dir/coll.log")"
	pid=
fi
fi

# d: /metrics CPU per scrape at 256 and 1,000 drives, default poll
# scrapes LABEL: 100 scrapes of /metrics, plain then gzip, on $PORT; the
# CPU they cost beyond what the processes spend meanwhile without them
scrapes() {
	for enc in identity gzip; do
		t0=$(cpu_ns); sleep 5; t1=$(cpu_ns)   # what the service spends meanwhile
		s0=$(date +%s%N); t2=$(cpu_ns)
		k=0
		while [ $k -lt 100 ]; do
			curl -s -H "Accept-Encoding: $enc" -o /dev/null localhost:$PORT/metrics
			k=$((k + 1))
		done
		t3=$(cpu_ns); s1=$(date +%s%N)
		size=$(curl -s -H "Accept-Encoding: $enc" -o /dev/null -w '%{size_download}' localhost:$PORT/metrics)
		awk -v what="$1" -v e="$enc" -v b="$((t1 - t0))" -v w="$((s1 - s0))" -v c="$((t3 - t2))" -v sz="$size" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
			'BEGIN {printf "d. %s, %s: %.0f us CPU per scrape (%d bytes; %.0f us idle CPU per 5 s subtracted) (load: %s)\n", what, e, (c - b / 5e9 * w) / 1e3 / 100, sz, b / 1e3, l}'
	done
}
step d && for n in 256 1000; do
	[ -d "$dir/f$n" ] || fleet "$n" "$dir/f$n"
	start "$dir/d$n" "$dir/f$n" --no-probe
	sleep 5
	scrapes "/metrics, $n drives"
	stop
done

# d, split: the units' way (collector + web as an unprivileged user): the
# collector on the fake tree with more NVMe controllers (N listed: no
# replay for the collector, so the bodies hold no health values and are
# smaller), the CPU of both processes over 100 scrapes through the web side
step d && command -v setpriv >/dev/null && for sz in 256 1000; do
	rm -rf "$dir/droot"
	tree "$dir/droot"
	more_nvme "$dir/droot" $((sz - 7))
	mkdir -p "$dir/dc$sz"
	chmod 755 "$dir"
	PORT=$((PORT + 1))
	"$BIN" collector --socket "$dir/dc$sz.sock" --state-dir "$dir/dc$sz" --sysroot "$dir/droot" \
		--no-probe >"$dir/dc$sz.log" 2>&1 &
	pid=$!
	sleep 3
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$BIN" web --listen 127.0.0.1:$PORT --socket "$dir/dc$sz.sock" >"$dir/dw$sz.log" 2>&1 &
	wpid=$!
	i=0
	until [ "$(curl -s localhost:$PORT/metrics 2>/dev/null | grep -c '^wearwatch_drive_info')" -ge "$sz" ]; do
		sleep 1
		i=$((i + 1))
		[ $i -lt 120 ] || { echo "d. split: web did not show $sz drives"; tail -2 "$dir/dw$sz.log"; break; }
	done
	sleep 5
	scrapes "split, /metrics through web, $sz listed drives (fake tree), collector and web"
	echo "d. split, $sz listed drives: web resident $(awk '/^VmRSS:/ {printf "%.1f MiB", $2 / 1024}' /proc/$wpid/status)," \
		"collector $(awk '/^VmRSS:/ {printf "%.1f MiB", $2 / 1024}' /proc/$pid/status), after the scrapes"
	kill "$wpid"
	wait "$wpid" 2>/dev/null || true
	wpid=
	stop
done

# e: idle wakeups, 3 drives, 60 s poll, probes off, then on (the default)
sw() { cat /proc/$pid/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
step e && for probe in --no-probe ""; do
	[ -d "$dir/f3" ] || fleet 3 "$dir/f3"
	start "$dir/e3$probe" "$dir/f3" $probe
	sleep 10
	w0=$(sw)
	sleep 120
	w1=$(sw)
	echo "e. idle, 3 drives, 60 s poll, ${probe:-probes on}: $(awk -v d="$((w1 - w0))" 'BEGIN {printf "%.3f", d / 120}') wakeups/s" \
		"($(ls /proc/$pid/task | wc -l) threads) (load: $(cut -d' ' -f1-3 /proc/loadavg))"
	stop
done

# f: per thread at 3 drives (schedstat: CPU ns, slices), main thread apart
threads() { for t in /proc/$pid/task/*; do echo "${t##*/} $(cut -d' ' -f1,3 "$t/schedstat")"; done; }
step f && {
	[ -d "$dir/f3" ] || fleet 3 "$dir/f3"
	start "$dir/f3s" "$dir/f3" --poll-interval 10 --poll-interval-rotational 10 --no-probe
	sleep 5
	c0=$(metric_sum wearwatch_drive_collections_total)
	threads >"$dir/th0"
	sleep $((WINDOW * 4))
	threads >"$dir/th1"
	c1=$(metric_sum wearwatch_drive_collections_total)
	# the main thread's task id is the process id; the rest is every
	# other thread (the readers, and what serves the two scrapes)
	awk -v pid="$pid" -v c="$((c1 - c0))" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" '
		FNR == NR { t[$1] = $2; s[$1] = $3; next }
		($1 in t) { k = $1 == pid ? "main" : "rest"; cpu[k] += $2 - t[$1]; sl[k] += $3 - s[$1] }
		END { printf "f. 3 drives, %d collections: main thread %.0f us in %d slices, other threads %.0f us in %d slices: %.1f us per collection (load: %s)\n",
			c, cpu["main"] / 1e3, sl["main"], cpu["rest"] / 1e3, sl["rest"], (cpu["main"] + cpu["rest"]) / 1e3 / c, l }' "$dir/th0" "$dir/th1"
	stop
}
exit 0
