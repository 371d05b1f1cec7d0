#!/bin/sh
# ctest entry of the qualify report's browser test (label browser): two real
# `wearwatch qualify` runs on a loop device over a 64 MiB file of our own
# (8k-random-70-30 at 1T2Q,2T2Q; then preconditioned to steady state and
# 2T2Q,4T4Q with --compare on the first), and the second run's HTML
# report opened offline in headless /usr/bin/chromium by
# test_qualify_report.js, which checks it against the run's JSON.
# Needs root and a free loop device: exit 77 (skipped, said) without them.
# usage: run_qualify.sh WEARWATCH_BINARY ARTIFACT_DIR
set -eu
ww=$1
art=$2
cd "$(dirname "$0")"
for t in /usr/bin/chromium npm; do
	command -v "$t" >/dev/null || { echo "FAIL: $t is missing (scripts/deps.sh test installs it)"; exit 1; }
done
mkdir -p "$art"
. ../qualify/loop_dev.sh
loop_dev qreport 64M
: >"$work/empty.conf"
q() {
	"$ww" qualify "$d" --profile 8k-random-70-30 --config "$work/empty.conf" \
		--destroy-data="dev-${d#/dev/}" "$@"
}
q --load 1T2Q,2T2Q --seconds 2 --json "$work/old.json" >/dev/null 2>"$work/err1" ||
	{ echo "FAIL: first run"; cat "$work/err1"; exit 1; }
q --load 2T2Q,4T4Q --seconds 2 --precondition --precondition-load 2T2Q --round-seconds 1 \
	--json "$art/qualify.json" --html "$art/qualify.html" --compare "$work/old.json" \
	>/dev/null 2>"$work/err2" || { echo "FAIL: second run"; cat "$work/err2"; exit 1; }
npm ci --no-audit --no-fund --loglevel=error >/dev/null
# not exec: the shell's exit trap detaches the loop device afterwards
node test_qualify_report.js "$art"
