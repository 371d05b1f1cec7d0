#!/bin/sh
# Installs what wearwatch needs on Debian 12 (idempotent). Usage:
#   scripts/deps.sh build    # libraries and compiler to build and run the service
#   scripts/deps.sh package  # plus debhelper and dpkg-dev (dpkg-buildpackage)
#   scripts/deps.sh test     # plus what the test suite uses (QEMU, kernel, tools)
#   scripts/deps.sh bench    # plus what scripts/bench-hostile.sh uses (wrk)
set -eu
BUILD="build-essential cmake pkg-config libnvme-dev libsgutils2-dev libatasmart-dev
 libmicrohttpd-dev libgnutls28-dev libjson-c-dev libsqlite3-dev zlib1g-dev liburing-dev libblkid-dev libudev-dev libinih-dev
 libjs-chart.js
 libyaml-dev libcrypt-dev libpcre2-dev libcap-dev libcurl4-openssl-dev
 libssl-dev smartmontools"
# libssl-dev: Debian 12's libnvme.pc requires openssl; smartmontools: the
# service reads its drivedb.h and runs smartctl for RAID members.
TEST="qemu-system-x86 linux-image-amd64 busybox-static kmod cpio smartmontools nvme-cli
 sg3-utils libatasmart-bin prometheus prometheus-alertmanager curl python3 python3-yaml fio ioping udev
 chromium clang libclang-rt-14-dev"
# the unit tests lint_cppcheck and lint_format
TEST="$TEST cppcheck clang-format"
# service tests: systemd-analyze, TLS certificates, the .deb
TEST="$TEST systemd openssl debhelper dpkg-dev lintian"
# the VM guest runs the host's root: its network needs ip (iproute2), the
# self-test checks' md RAID1 mdadm
TEST="$TEST iproute2 mdadm"
# scripts/bench-hostile.sh: the load generator and the history seeding
BENCH="wrk sqlite3 curl"
# the package build (dpkg-buildpackage): the build set and debhelper
PACKAGE="debhelper dpkg-dev"
case "${1:-build}" in
build) want=$BUILD ;;
package) want="$BUILD $PACKAGE" ;;
test) want="$BUILD $TEST" ;;
bench) want="$BUILD $BENCH" ;;
*)
	echo "usage: scripts/deps.sh [build|package|test|bench]" >&2
	exit 2
	;;
esac
missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: everything for '${1:-build}' is installed"
fi
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# dashboard browser test (tests/browser/): npm installs playwright-core; some
# machines already carry a newer Node with its own npm, so only when missing
if [ "${1:-build}" = test ] && ! command -v npm >/dev/null; then
	echo "deps: installing nodejs npm"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
