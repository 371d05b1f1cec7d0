# Sourced by the tests that run `wearwatch qualify` on a loop device of their
# own. loop_dev NAME SIZE: skips (exit 77, said) without root or a free loop
# device; else makes $work, a temporary folder /tmp/ww-NAME.XXXXXX, and $d, a
# loop device over a SIZE file in it (truncate's sizes: 64M), and removes
# both when the shell exits.
loop_dev_cleanup() {
	[ -n "${d:-}" ] && losetup -d "$d" 2>/dev/null
	rm -rf "$work"
}
loop_dev() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for a loop device"; exit 77; }
	losetup -f >/dev/null 2>&1 || { echo "SKIP: no free loop device"; exit 77; }
	work=$(mktemp -d "/tmp/ww-$1.XXXXXX")
	d=
	trap loop_dev_cleanup EXIT INT TERM
	truncate -s "$2" "$work/disk.img"
	d=$(losetup -f --show "$work/disk.img") || { echo "FAIL: losetup"; exit 1; }
}
