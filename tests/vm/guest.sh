#!/bin/sh
# Runs inside the QEMU guest as root, chrooted into the host's root (mounted
# read-only over 9p, see mkinitramfs.sh). The read-write share of the host's
# artifacts dir is at $SHARE. The host writes $SHARE/config.env before boot:
#   WW_BINARY=/path/to/wearwatch   (host path; the same path works here)
#   WW_POLL=SECONDS                poll interval for `wearwatch serve`
#   WW_PORT=9786                   port the service listens on (0.0.0.0)
#   WW_SERVE=1                     start the service (0: capture-only boot)
# Then this script: loads the drivers, waits for the three drives, brings up
# the network, writes $SHARE/devices.env, starts the service, writes
# $SHARE/ready and serves the command channel: every ctl/NNN.sh the host drops
# is run once (stdout+stderr to ctl/NNN.out, exit code to ctl/NNN.rc, written
# last). ctl/poweroff ends the script; /init then powers the guest off.
SHARE=/run/ww-share
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd /
log() { echo "ww-guest: $*"; echo "$(date +%T) $*" >>"$SHARE/guest.log"; }
WW_BINARY=""; WW_POLL=2; WW_PORT=9786; WW_SERVE=1
[ -f "$SHARE/config.env" ] && . "$SHARE/config.env"
: >"$SHARE/guest.log"
log "kernel $(uname -r), binary $WW_BINARY"

for m in nvme ahci sd_mod sg e1000; do
	modprobe "$m" || log "modprobe $m failed"
done
modprobe scsi_debug dev_size_mb=64 delay=0 || log "modprobe scsi_debug failed"

# udev (from the host root) gives /dev/disk/by-id and by-path, as on a server.
if [ -x /lib/systemd/systemd-udevd ]; then
	mkdir -p /run/udev
	# systemd refuses to act inside a chroot unless told to.
	export SYSTEMD_IGNORE_CHROOT=1
	/lib/systemd/systemd-udevd --daemon >"$SHARE/udevd.log" 2>&1 || log "udevd failed to start"
	udevadm trigger --action=add >>"$SHARE/udevd.log" 2>&1
	udevadm settle --timeout=30 >>"$SHARE/udevd.log" 2>&1
else
	log "no systemd-udevd: /dev/disk/by-id will be missing"
fi

# Find the drives by what sysfs says they are.
NVME_CTRL=""; NVME_NS=""; SATA=""; SATA_SG=""; SAS=""; SAS_SG=""
i=0
while [ $i -lt 60 ]; do
	[ -e /dev/nvme0n1 ] && { NVME_CTRL=/dev/nvme0; NVME_NS=/dev/nvme0n1; }
	for b in /sys/block/sd*; do
		[ -e "$b" ] || continue
		n=${b##*/}
		model=$(cat "$b/device/model" 2>/dev/null | tr -d ' ')
		sg=$(ls "$b/device/scsi_generic" 2>/dev/null | head -n1)
		case "$model" in
		WWSATA*) SATA=/dev/$n; [ -n "$sg" ] && SATA_SG=/dev/$sg ;;
		scsi_debug*) SAS=/dev/$n; [ -n "$sg" ] && SAS_SG=/dev/$sg ;;
		esac
	done
	[ -n "$NVME_NS" ] && [ -n "$SATA_SG" ] && [ -n "$SAS_SG" ] && break
	sleep 0.5
	i=$((i + 1))
done
cat >"$SHARE/devices.env" <<EOF
NVME_CTRL=$NVME_CTRL
NVME_NS=$NVME_NS
SATA=$SATA
SATA_SG=$SATA_SG
SAS=$SAS
SAS_SG=$SAS_SG
EOF
log "drives: nvme=$NVME_CTRL/$NVME_NS sata=$SATA($SATA_SG) sas=$SAS($SAS_SG)"
ls -l /dev/disk/by-id/ >"$SHARE/by-id.txt" 2>&1

# Network: QEMU user networking, host forwards 127.0.0.1:HOSTPORT here.
ifc=""
for d in /sys/class/net/*; do
	n=${d##*/}
	[ "$n" = lo ] && continue
	ifc=$n; break
done
command -v ip >/dev/null || log "ip not found (iproute2 missing on the host root: scripts/deps.sh test)"
ip link set lo up
if [ -n "$ifc" ]; then
	if ip link set "$ifc" up && ip addr add 10.0.2.15/24 dev "$ifc" &&
		ip route add default via 10.0.2.2; then
		log "network up on $ifc"
	else
		log "network set-up on $ifc FAILED"
	fi
else
	log "no network interface"
fi

SVC_PID=""
if [ "$WW_SERVE" = 1 ] && [ -x "$WW_BINARY" ]; then
	"$WW_BINARY" serve --help >"$SHARE/serve-help.txt" 2>&1
	echo "rc=$?" >>"$SHARE/serve-help.txt"
	set -- serve --listen "0.0.0.0:$WW_PORT"
	# One short interval for every drive (QEMU's ide-hd reports no rotation
	# rate, so the kernel calls it rotational).
	grep -q -- '--poll-interval ' "$SHARE/serve-help.txt" && set -- "$@" --poll-interval "$WW_POLL"
	grep -q -- '--poll-interval-rotational' "$SHARE/serve-help.txt" && set -- "$@" --poll-interval-rotational "$WW_POLL"
	# extra flags from tests/vm/checks_*.py SERVE_ARGS (no spaces inside one)
	# shellcheck disable=SC2086
	[ -n "${WW_SERVE_EXTRA:-}" ] && set -- "$@" $WW_SERVE_EXTRA
	log "starting: $WW_BINARY $*"
	echo "$WW_BINARY $*" >"$SHARE/serve-cmdline.txt"
	"$WW_BINARY" "$@" >"$SHARE/service.log" 2>&1 &
	SVC_PID=$!
	echo "$SVC_PID" >/run/wearwatch.pid
fi
echo ok >"$SHARE/ready"

# Command channel.
mkdir -p "$SHARE/ctl"
while :; do
	[ -e "$SHARE/ctl/poweroff" ] && break
	for f in "$SHARE"/ctl/*.sh; do
		[ -e "$f" ] || continue
		base=${f%.sh}
		[ -e "$base.rc" ] && continue
		sh "$f" >"$base.out" 2>&1
		rc=$?
		echo "$rc" >"$base.rc.tmp" && mv "$base.rc.tmp" "$base.rc"
	done
	sleep 0.2
done
log "poweroff requested"
if [ -n "$SVC_PID" ]; then
	if kill -0 "$SVC_PID" 2>/dev/null; then
		kill -TERM "$SVC_PID"
		i=0
		while kill -0 "$SVC_PID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -0 "$SVC_PID" 2>/dev/null && { log "service ignored SIGTERM for 5 s"; kill -KILL "$SVC_PID"; }
	fi
	wait "$SVC_PID" 2>/dev/null
	echo "$?" >"$SHARE/service.rc"
fi
dmesg >"$SHARE/dmesg.txt" 2>&1
sync
exit 0
