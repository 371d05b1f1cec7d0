#!/bin/sh
# /metrics under wrk alone, and under wrk while hostile clients run
# (scripts/bench-attack.py: 16 wrong-password clients, a history-query loop
# over 600 000 samples, 300 trickling connections from 30 addresses). One
# `wearwatch serve` replaying the SATA capture of tests/fixtures with basic
# auth (bcrypt cost 10), its history seeded with 600 000 samples of that
# drive. The two conditions alternate ROUNDS times (the machine is shared:
# compare medians). Loopback only; every process is bounded in time.
#
# usage: scripts/bench-hostile.sh [BINARY] [ROUNDS] [SECONDS]
#   (default build/wearwatch 3 20); needs wrk (scripts/deps.sh bench).
#   PACE=0 in the environment makes the wrong-password clients a flood
#   (each asks again as soon as it has its answer); default 0.1 s.
# Prints one line per run: condition, wrk requests/s, p50, p90, p99,
# non-2xx and socket errors, the server's RSS after the run, and the
# attackers' counts.
set -eu
BIN=$(realpath "${1:-build/wearwatch}")
ROUNDS=${2:-3}
SECS=${3:-20}
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v wrk >/dev/null || { echo "bench-hostile: wrk is missing (scripts/deps.sh bench)"; exit 1; }
PORT=19853
DRIVE=ata-WWSATA_DISK_WWSATA0001
# bcrypt of "bench", cost 10 (Python's crypt.mksalt(METHOD_BLOWFISH, rounds=1024))
HASH='$2b$10$lQsQTYhM1mJtgFE.5/bhjOCm4EKoXmwnhqwwQeTCvBqjTEPiZxceu'
AUTH=bench:bench
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
printf "basic_auth_users:\n  bench: '%s'\n" "$HASH" >"$dir/web.yml"
mkdir "$dir/state"
start() {
	"$BIN" serve --replay "$SRC/tests/fixtures/captures/sata" --listen 127.0.0.1:$PORT \
		--web-config "$dir/web.yml" --state-dir "$dir/state" --no-probe >"$dir/log" 2>&1 &
	pid=$!
	i=0
	until curl -sf -u "$AUTH" -o /dev/null http://127.0.0.1:$PORT/healthz; do
		i=$((i + 1)); [ $i -lt 100 ] || { cat "$dir/log"; exit 1; }; sleep 0.1
	done
}
start
# 600 000 samples, one a second, ending now (the service's own schema)
now=$(date +%s)
sqlite3 "$dir/state/history.db" "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1
  FROM k WHERE i < 599999) INSERT OR IGNORE INTO samples(drive, tier, t, segment,
  host_written_bytes, temperature_celsius, present) SELECT '$DRIVE', 0, $now - 600005 + i, 0,
  1000 * i, 30 + i % 10, 1 FROM k;"
hdr="Authorization: Basic $(printf %s "$AUTH" | base64)"
curl -sf -u "$AUTH" -o /dev/null http://127.0.0.1:$PORT/metrics   # the login cached
echo "# condition req/s p50 p90 p99 non2xx sockerr rss_kb"
run() {
	wrk -t2 -c8 -d"${SECS}s" --timeout 10s --latency -H "$hdr" \
		http://127.0.0.1:$PORT/metrics >"$dir/wrk" 2>&1
	rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
	awk -v c="$1" -v rss="$rss" '
		/Requests\/sec/ { rps = $2 }
		/^ +50%/ { p50 = $2 } /^ +90%/ { p90 = $2 } /^ +99%/ { p99 = $2 }
		/Non-2xx/ { n2 = $NF }
		/Socket errors/ { se = $0; sub(/.*errors: /, "", se); gsub(/ /, "", se) }
		END { printf "%s %s %s %s %s %s %s %s\n", c, rps, p50, p90, p99, n2 + 0,
		      se == "" ? "-" : se, rss }' "$dir/wrk"
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
	run alone
	python3 "$SRC/scripts/bench-attack.py" $PORT "$AUTH" $DRIVE $((SECS + 4)) "${PACE:-0.1}" \
		>"$dir/att" &
	apid=$!
	sleep 2
	run attacked
	wait "$apid"
	sed "s/^/#   attackers: /" "$dir/att"
	r=$((r + 1))
done
