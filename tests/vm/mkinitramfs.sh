#!/bin/sh
# Builds the VM test's initramfs: busybox-static plus only the kernel modules
# needed to mount the host's root read-only over virtio-9p. Everything else
# (wearwatch, smartctl, nvme-cli, sg3-utils, modprobe, the guest kernel's
# /lib/modules) is used from the host root inside the guest via chroot.
#
# Usage: mkinitramfs.sh KVER OUT.cpio.gz
#   KVER  kernel version of /boot/vmlinuz-KVER (its modules must be in
#         /lib/modules/KVER, installed by linux-image-amd64)
set -eu
kver=$1
out=$2
busybox=/bin/busybox
[ -x "$busybox" ] || { echo "mkinitramfs: $busybox missing (apt package busybox-static)" >&2; exit 1; }
moddir=/lib/modules/$kver
[ -d "$moddir" ] || { echo "mkinitramfs: $moddir missing" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/host" "$tmp/mods"
cp "$busybox" "$tmp/bin/busybox"

# Resolve dependencies depth-first so the load order is dependencies first.
order=""
add() {
	case " $order " in *" $1 "*) return 0 ;; esac
	deps=$(modinfo -k "$kver" -F depends "$1" 2>/dev/null) || {
		# built into the kernel: nothing to load
		if grep -q "/$1.ko" "$moddir/modules.builtin" 2>/dev/null; then return 0; fi
		echo "mkinitramfs: module $1 not found for $kver" >&2; exit 1; }
	for d in $(echo "$deps" | tr ',' ' '); do add "$d"; done
	case " $order " in *" $1 "*) return 0 ;; esac
	order="$order $1"
}
for m in virtio_pci 9pnet_virtio 9p; do add "$m"; done
: >"$tmp/mods/order"
for m in $order; do
	f=$(modinfo -k "$kver" -F filename "$m")
	case "$f" in
	*.ko) cp "$f" "$tmp/mods/$m.ko" ;;
	*.ko.xz) xz -dc "$f" >"$tmp/mods/$m.ko" ;;
	*.ko.zst) zstd -dqc "$f" >"$tmp/mods/$m.ko" ;;
	*.ko.gz) gzip -dc "$f" >"$tmp/mods/$m.ko" ;;
	*) echo "mkinitramfs: $m: unexpected file $f" >&2; exit 1 ;;
	esac
	echo "$m" >>"$tmp/mods/order"
done

cat >"$tmp/init" <<'INIT'
#!/bin/busybox sh
# Guest PID 1: mount the host root (ro) and the artifacts share (rw) over 9p,
# then chroot into the host root and run the guest script named on the
# kernel command line (ww.guest=PATH), then power off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "ww-init: loading $(cat /mods/order | tr '\n' ' ')"
for m in $(cat /mods/order); do insmod /mods/$m.ko || echo "ww-init: insmod $m failed"; done
guest=""; args=""; keep=""
for w in $(cat /proc/cmdline); do
	case "$w" in
	ww.guest=*) guest=${w#ww.guest=} ;;
	ww.arg=*) args="$args ${w#ww.arg=}" ;;
	ww.keep=*) keep="$keep ${w#ww.keep=}" ;;
	esac
done
o=trans=virtio,version=9p2000.L,msize=262144
if ! mount -t 9p -o $o,ro hostroot /host; then
	echo "ww-init: FATAL cannot mount host root"; poweroff -f
fi
mount -t proc proc /host/proc
mount -t sysfs sysfs /host/sys
mount -t devtmpfs devtmpfs /host/dev
mkdir -p /host/dev/pts 2>/dev/null; mount -t devpts devpts /host/dev/pts 2>/dev/null
# The guest gets empty, writable /tmp and /var/tmp; a checkout or build that
# lives under the host's /tmp (CI clones anywhere) is bound back in place.
mkdir -p /hosttmp /hostvartmp
mount -o bind /host/tmp /hosttmp
mount -o bind /host/var/tmp /hostvartmp 2>/dev/null
mount -t tmpfs tmpfs /host/tmp
mount -t tmpfs tmpfs /host/run
mount -t tmpfs tmpfs /host/var/tmp 2>/dev/null
for k in $guest $keep; do
	case "$k" in
	/tmp/*) r=${k#/tmp/}; top=${r%%/*}; src=/hosttmp/$top; dst=/host/tmp/$top ;;
	/var/tmp/*) r=${k#/var/tmp/}; top=${r%%/*}; src=/hostvartmp/$top; dst=/host/var/tmp/$top ;;
	*) continue ;;
	esac
	[ -d "$dst" ] && continue
	mkdir -p "$dst" && mount -o bind "$src" "$dst" && echo "ww-init: kept $src at ${dst#/host}"
done
[ -d /host/var/lib/wearwatch ] && mount -t tmpfs tmpfs /host/var/lib/wearwatch
mkdir -p /host/run/ww-share
if ! mount -t 9p -o $o,rw artifacts /host/run/ww-share; then
	echo "ww-init: FATAL cannot mount artifacts share"; poweroff -f
fi
echo "ww-init: running $guest$args"
chroot /host /bin/sh "$guest" $args
echo "ww-init: guest script exited $?"
sync
poweroff -f
INIT
chmod 755 "$tmp/init"
(cd "$tmp" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out"
echo "mkinitramfs: $out ($(wc -c <"$out") bytes; modules:$order)"
