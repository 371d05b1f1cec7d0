#!/bin/sh
# Units: `systemd-analyze verify` must be silent, and `systemd-analyze
# security --offline=true` must rate each service at most 2.0 (lower is
# better; the figures come from systemd's own table of settings and weights).
# Prints the figures for docs/security.md, with smartd's unit from Debian's
# smartmontools scored the same way for comparison.
# usage: test_units.sh SOURCE_DIR WEARWATCH_BINARY
set -u
src=$1 bin=$2
command -v systemd-analyze >/dev/null || { echo "SKIP: systemd-analyze not installed (apt: systemd)"; exit 77; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
for u in "$src"/units/*.service "$src"/units/*.socket "$src"/units/*.path "$src"/units/*.timer; do
	sed "s#/usr/bin/wearwatch#$bin#" "$u" > "$tmp/$(basename "$u")"
done
out=$(cd "$tmp" && systemd-analyze verify --man=no ./*.service ./*.socket ./*.path ./*.timer 2>&1)
if [ -n "$out" ]; then
	echo "FAIL: systemd-analyze verify:"; echo "$out"; fail=1
else
	echo "ok: systemd-analyze verify (collector, web, socket, notify path/service/timer): no findings"
fi
# the collector's devices: what `include` and the probe open (read-only)
for g in block-sd block-blkext block-virtblk block-device-mapper block-md block-loop char-sg \
	char-nvme char-nvme-generic; do
	grep -qx "DeviceAllow=$g r" "$src/units/wearwatch-collector.service" ||
		{ echo "FAIL: wearwatch-collector.service lacks DeviceAllow=$g r"; fail=1; }
done
# its capabilities: the two the commands need, scheduled self-tests
# included, and the two src/service/caps.c keeps outside systemd. SG_IO of
# a command outside the kernel's read-safe list on a read-only open (ATA
# PASS-THROUGH for the reads; SEND DIAGNOSTIC and SMART EXECUTE OFF-LINE
# IMMEDIATE, the self-test class) needs CAP_SYS_RAWIO (scsi_cmd_allowed);
# NVMe admin commands (Identify, Get Log Page, Device Self-test)
# CAP_SYS_ADMIN. The drives stay read-only for self-tests too: no
# DeviceAllow grants w, and nothing in the collector's code opens a drive
# otherwise (qualify's writes are the CLI's, src/qualify)
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$src/units/wearwatch-collector.service")
[ "$caps" = "CAP_SYS_RAWIO CAP_SYS_ADMIN" ] ||
	{ echo "FAIL: wearwatch-collector.service CapabilityBoundingSet=$caps"; fail=1; }
grep -q 'keep\[\] = { CAP_SYS_RAWIO, CAP_SYS_ADMIN }' "$src/src/service/caps.c" ||
	{ echo "FAIL: src/service/caps.c keeps other capabilities than the unit"; fail=1; }
if grep -E '^DeviceAllow=.* [rm]*w' "$src/units/wearwatch-collector.service"; then
	echo "FAIL: wearwatch-collector.service lets a device be opened for writing"; fail=1
fi
if grep -rnE 'O_RDWR|O_WRONLY' "$src/src/transport" "$src/src/collect" | grep -v '"/dev/null", O_WRONLY'; then
	echo "FAIL: the collector's drive code opens something for writing"; fail=1
fi
[ $fail = 0 ] && echo "ok: collector capabilities CAP_SYS_RAWIO CAP_SYS_ADMIN (reads and self-tests), drives read-only"
# its system calls: @system-service less the denied groups must keep what
# the reads and the latency probe make (SG_IO/NVMe ioctl, io_uring); the
# probe's priority goes in each submission (sqe->ioprio), and nothing in
# src/ calls ioprio_set(2), which the denied @resources holds
# a group's calls, its nested groups (@aio in @system-service) expanded
expand() {
	for g in "$@"; do
		systemd-analyze syscall-filter "$g" 2>/dev/null | sed -n 's/^    \([@a-z0-9_-]*\)$/\1/p' |
		while read -r c; do
			case $c in @*) expand "$c" ;; *) echo "$c" ;; esac
		done
	done | sort -u
}
deny=$(sed -n 's/^SystemCallFilter=~//p' "$src/units/wearwatch-collector.service")
allow=$(sed -n 's/^SystemCallFilter=\([^~].*\)/\1/p' "$src/units/wearwatch-collector.service")
expand $allow > "$tmp/allow"
expand $deny > "$tmp/deny"
for c in ioctl io_uring_setup io_uring_enter io_uring_register openat pread64; do
	if ! grep -qx "$c" "$tmp/allow" || grep -qx "$c" "$tmp/deny"; then
		echo "FAIL: wearwatch-collector.service's SystemCallFilter denies $c"; fail=1
	fi
done
if grep -qx ioprio_set "$tmp/deny" && grep -rqE 'ioprio_set|SYS_ioprio_set' "$src/src"; then
	echo "FAIL: src/ calls ioprio_set, which the collector's SystemCallFilter denies"; fail=1
fi
[ $fail = 0 ] && echo "ok: collector devices and system calls (ioctl, io_uring allowed; no ioprio_set needed)"
# the opt-in drop-in, applied the way systemd applies it (appended settings)
cp "$tmp/wearwatch-collector.service" "$tmp/wearwatch-collector-megaraid.service"
cat "$src/units/wearwatch-collector.service.d.example/smartctl-megaraid.conf" \
	>> "$tmp/wearwatch-collector-megaraid.service"
score() {
	systemd-analyze security --offline=true "$1" 2>/dev/null |
		sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p'
}
for u in wearwatch-collector wearwatch-web wearwatch-collector-megaraid wearwatch-notify; do
	s=$(score "$tmp/$u.service")
	limit=2.0
	[ "$u" = wearwatch-collector-megaraid ] && limit=3.0
	# runs the administrator's program with network and the mail system
	# (docs/security.md): root, suid helpers allowed, no drives
	[ "$u" = wearwatch-notify ] && limit=3.5
	if [ -z "$s" ]; then
		echo "FAIL: no exposure figure for $u"; fail=1
	elif awk "BEGIN{exit !($s <= $limit)}"; then
		echo "ok: exposure $u.service = $s (limit $limit)"
	else
		echo "FAIL: exposure $u.service = $s > $limit"; fail=1
	fi
done
for ref in /lib/systemd/system/smartmontools.service; do
	[ -f "$ref" ] && echo "reference: exposure $(basename "$ref") = $(score "$ref")"
done
exit $fail
