#!/bin/sh
# The write guard of `wearwatch qualify` on real block devices: each refusal
# on a loop device of its own (partition table, ext4 signature, read-only
# mount, md member, swap, held O_EXCL, monitored, no --destroy-data, wrong
# serial), with the device's SHA-256 before and after proving that not one
# byte was written; then one permitted run that does write, and says how
# much. Needs root and loop devices; exit 77 (skip) without them.
# Usage: guard_loop.sh SOURCE_DIR WEARWATCH
set -u
src=$1; ww=$2
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup missing"; exit 77; }
work=$(mktemp -d /tmp/ww-guard.XXXXXX)
loops=""
pass=0; fail=0; skip=0
cleanup() {
	for l in $loops; do
		swapoff "$l" 2>/dev/null
		umount "$l" 2>/dev/null
		losetup -d "$l" 2>/dev/null
	done
	[ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

newloop() { # NAME [losetup flags]: a 32 MiB loop device in $d (no subshell,
	# so that cleanup sees every device in $loops)
	truncate -s 32M "$work/$1.img"
	img="$work/$1.img"; shift
	d=$(losetup -f --show "$@" "$img") || { echo "FAIL: no loop device for $img"; exit 1; }
	loops="$loops $d"
}

# CASE EXPECT DEV [qualify args...]: refused with check EXPECT, bytes unchanged
refused() {
	name=$1; want=$2; dev=$3; shift 3
	before=$(sha256sum "$dev" | cut -c1-64)
	out=$("$ww" qualify "$dev" --profile 4k-random-write --load 1T4Q --seconds 1 \
		--config "$work/empty.conf" "$@" 2>&1); rc=$?
	after=$(sha256sum "$dev" | cut -c1-64)
	msg=$(echo "$out" | grep 'refused' | head -1)
	if [ $rc = 4 ] && echo "$msg" | grep -q "refused ($want)" && [ "$before" = "$after" ]; then
		echo "ok   $name: $msg"
		echo "     sha256 before = after = $before"
		pass=$((pass + 1))
	else
		echo "FAIL $name: exit $rc, want 4 and 'refused ($want)'; sha256 $before -> $after"
		echo "$out" | sed 's/^/     /'
		fail=$((fail + 1))
	fi
}

: >"$work/empty.conf"
id_of() { echo "dev-$(basename "$1")"; }

# no --destroy-data at all
losetup -f >/dev/null 2>&1 || { echo "SKIP: no free loop device"; exit 77; }
newloop flag
refused "no --destroy-data" destroy-data "$d"

# an MBR partition table, scanned by the kernel (losetup -P): partitions
newloop parts -P
python3 - "$d" <<'PY'
import struct, sys
# one MBR partition entry (type 0x83, LBA 2048, 20480 sectors) and 55 AA
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, 20480)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
PY
blockdev --rereadpt "$d" 2>/dev/null || partx -a "$d" 2>/dev/null
sleep 0.5
if [ -e "/sys/block/$(basename "$d")/$(basename "$d")p1" ]; then
	refused "partition table (scanned)" partitions "$d" --destroy-data="$(id_of "$d")"
else
	echo "skip partition table (scanned): the kernel did not list loop partitions"
	skip=$((skip + 1))
fi

# the same table, not scanned: libblkid's PTTYPE
newloop pttable
python3 - "$d" <<'PY'
import struct, sys
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, 20480)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
PY
refused "partition table (signature)" signature "$d" --destroy-data="$(id_of "$d")"

# ext4
newloop ext4
mkfs.ext4 -q -F "$d" >/dev/null 2>&1
refused "ext4 signature" signature "$d" --destroy-data="$(id_of "$d")"

# mounted (read-only, so the mount itself writes nothing either)
newloop mounted
mkfs.ext4 -q -F "$d" >/dev/null 2>&1
mkdir -p "$work/mnt"
if mount -o ro,noload "$d" "$work/mnt" 2>/dev/null; then
	refused "mounted" mounted "$d" --destroy-data="$(id_of "$d")"
	umount "$work/mnt"
else
	echo "skip mounted: mount failed here"; skip=$((skip + 1))
fi

# md RAID member (superblock 1.2, spec-constructed: no md driver needed)
newloop md
python3 "$src/tests/qualify/md_superblock.py" "$d"
refused "md member" signature "$d" --destroy-data="$(id_of "$d")"

# swap
newloop swap
mkswap "$d" >/dev/null 2>&1
if swapon "$d" 2>/dev/null; then
	refused "swap" swap "$d" --destroy-data="$(id_of "$d")"
	swapoff "$d"
else
	echo "skip swap in use: swapon refused here (the swap signature alone:)"
	refused "swap signature" signature "$d" --destroy-data="$(id_of "$d")"
fi

# monitored: the configuration's [collector] include lists it
newloop monitored
printf '[collector]\ninclude = %s\n' "$(basename "$d")" >"$work/mon.conf"
before=$(sha256sum "$d" | cut -c1-64)
out=$("$ww" qualify "$d" --profile 4k-random-write --load 1T4Q --seconds 1 \
	--config "$work/mon.conf" --destroy-data="$(id_of "$d")" 2>&1); rc=$?
after=$(sha256sum "$d" | cut -c1-64)
if [ $rc = 4 ] && echo "$out" | grep -q 'refused (monitored)' && [ "$before" = "$after" ]; then
	echo "ok   monitored: $(echo "$out" | grep refused)"
	echo "     sha256 before = after = $before"
	pass=$((pass + 1))
else
	echo "FAIL monitored: exit $rc: $out"; fail=$((fail + 1))
fi

# wrong serial
newloop serial
refused "wrong serial" serial "$d" --destroy-data=S0MEOTHERDRIVE

# held open O_EXCL by another process
newloop excl
python3 -c 'import os, sys, time; os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); open(sys.argv[2], "w").close(); time.sleep(60)' "$d" "$work/held" &
holder=$!
i=0; until [ -e "$work/held" ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
refused "held O_EXCL" exclusive-open "$d" --destroy-data="$(id_of "$d")"
kill "$holder"; wait "$holder" 2>/dev/null; holder=""

# a read-only profile on a device with a filesystem: runs, writes nothing
newloop ro
mkfs.ext4 -q -F "$d" >/dev/null 2>&1
before=$(sha256sum "$d" | cut -c1-64)
"$ww" qualify "$d" --profile 4k-random-read --load 1T4Q --seconds 1 >/dev/null 2>&1; rc=$?
after=$(sha256sum "$d" | cut -c1-64)
if [ $rc = 0 ] && [ "$before" = "$after" ]; then
	echo "ok   read-only profile on ext4: ran, sha256 unchanged"; pass=$((pass + 1))
else
	echo "FAIL read-only profile: exit $rc, sha256 $before -> $after"; fail=$((fail + 1))
fi

# every check passes: it writes, and says how much
newloop clean
before=$(sha256sum "$d" | cut -c1-64)
out=$("$ww" qualify "$d" --profile 4k-random-write --load 1T4Q --seconds 1 \
	--config "$work/empty.conf" --destroy-data="$(id_of "$d")" --json "$work/w.json" 2>&1); rc=$?
after=$(sha256sum "$d" | cut -c1-64)
said=$(echo "$out" | grep -o 'wrote [0-9]* bytes in [0-9]* writes ([0-9]* of them failed)')
json=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["totals"]; print("wrote %d bytes in %d writes (%d of them failed)" % (t["bytes_written"], t["writes"], t["write_errors"]))' "$work/w.json" 2>/dev/null)
if [ $rc = 0 ] && [ "$before" != "$after" ] && [ -n "$said" ] && [ "$said" = "$json" ]; then
	echo "ok   clean device, right id: ran and $said (JSON says the same)"; pass=$((pass + 1))
else
	echo "FAIL permitted run: exit $rc, said '$said', JSON '$json'"; echo "$out"; fail=$((fail + 1))
fi

# an I/O error storm: the device turns read-only under a writing run
newloop storm
"$ww" qualify "$d" --profile 4k-random-write --load 1T4Q --seconds 20 --config "$work/empty.conf" \
	--destroy-data="$(id_of "$d")" --json "$work/s.json" >"$work/s.out" 2>"$work/s.err" &
run=$!
# once the first second is reported the workers are writing
i=0; until grep -q ' 1/20 s' "$work/s.err" 2>/dev/null || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
blockdev --setro "$d"
wait $run; rc=$?
blockdev --setrw "$d"
stopped=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["totals"]; print(t["stopped"], t["last_error"], t["write_errors"] >= 64)' "$work/s.json" 2>/dev/null)
if [ $rc = 5 ] && grep -q 'stopped (error storm)' "$work/s.err" && [ "$stopped" = "error storm Operation not permitted True" ]; then
	echo "ok   error storm: $(grep 'stopped' "$work/s.err"); $(grep -o 'wrote .*failed)' "$work/s.err")"
	pass=$((pass + 1))
else
	echo "FAIL error storm: exit $rc, JSON '$stopped'"; tr '\r' '\n' <"$work/s.err" | tail -3; fail=$((fail + 1))
fi

echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
