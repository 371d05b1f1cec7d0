#!/bin/sh
# A normal scraper's /metrics p50/p99 quiet and under each attack of
# scripts/bench-slots.py, against one `wearwatch serve` it starts: the SATA
# capture of tests/fixtures replayed, basic auth (bcrypt cost 10, the login
# cached first), no probes, loopback only. Prints bench-slots.py's JSON lines
# (with the server's CPU seconds per condition) between two `uptime` lines.
#
# usage: scripts/bench-slots.sh [BINARY] [SECONDS] [CONDITION...]
#   default build/wearwatch, 15 s, quiet keepalive quiet trickle quiet rotate
#   ATTACK_NICE=N (default 19) is the attack's nice value (bench-slots.py).
set -eu
BIN=$(realpath "${1:-build/wearwatch}")
SECS=${2:-15}
[ $# -ge 2 ] && shift 2 || shift $#
SRC=$(cd "$(dirname "$0")/.." && pwd)
PORT=19854
# bcrypt of "bench", cost 10 (as scripts/bench-hostile.sh)
HASH='$2b$10$lQsQTYhM1mJtgFE.5/bhjOCm4EKoXmwnhqwwQeTCvBqjTEPiZxceu'
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
printf "basic_auth_users:\n  bench: '%s'\n" "$HASH" >"$dir/web.yml"
mkdir "$dir/state"
"$BIN" serve --replay "$SRC/tests/fixtures/captures/sata" --listen 127.0.0.1:$PORT \
	--web-config "$dir/web.yml" --state-dir "$dir/state" --no-probe >"$dir/log" 2>&1 &
pid=$!
i=0
until curl -sf -u bench:bench -o /dev/null http://127.0.0.1:$PORT/metrics; do
	i=$((i + 1)); [ $i -lt 100 ] || { cat "$dir/log"; exit 1; }; sleep 0.1
done
echo "# $(uptime)"
SERVER_PID=$pid python3 "$SRC/scripts/bench-slots.py" $PORT bench:bench "$SECS" "$@"
echo "# $(uptime)"
