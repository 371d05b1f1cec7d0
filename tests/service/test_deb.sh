#!/bin/sh
# Debian package: builds the .deb offline from a copy of the tree with
# `dpkg-buildpackage -us -uc -b`, lists it with `dpkg-deb -c`, checks the
# files the install must place, and runs lintian (any E: fails).
# usage: test_deb.sh SOURCE_DIR
set -u
src=$1
for t in dpkg-buildpackage dpkg-deb lintian dh; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed (scripts/deps.sh test)"; exit 77; }
done
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/wearwatch-0.1.0"
tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./debian/wearwatch \
	--exclude=./obj-* -cf - . | tar -C "$tmp/wearwatch-0.1.0" -xf -
cd "$tmp/wearwatch-0.1.0" || exit 1
if ! DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b > ../build.log 2>&1; then
	tail -40 ../build.log; echo "FAIL: dpkg-buildpackage"; exit 1
fi
deb=$(ls ../wearwatch_*.deb | head -1)
echo "== dpkg-deb -c $(basename "$deb")"
dpkg-deb -c "$deb" | awk '{print $1, $6}'
fail=0
for f in ./usr/bin/wearwatch ./lib/systemd/system/wearwatch-collector.service \
	./lib/systemd/system/wearwatch-web.service ./lib/systemd/system/wearwatch-web.socket \
	./usr/share/man/man8/wearwatch.8.gz ./usr/share/man/man5/wearwatch.conf.5.gz \
	./usr/share/doc/wearwatch/examples/wearwatch.conf.example ./usr/lib/systemd/catalog/wearwatch.catalog; do
	dpkg-deb -c "$deb" | awk '{print $6}' | grep -qx "$f" || { echo "FAIL: $f not in the package"; fail=1; }
done
dpkg-deb -I "$deb" postinst | grep -q 'deb-systemd-helper.*wearwatch-collector.service' ||
	{ echo "FAIL: postinst does not enable wearwatch-collector.service"; fail=1; }
echo "== lintian"
lintian --tag-display-limit 0 "$deb" 2>/dev/null | tee ../lintian.txt
grep -q '^E:' ../lintian.txt && { echo "FAIL: lintian errors"; fail=1; }
[ $fail = 0 ] && echo "ok: package builds, files in place, no lintian errors"
exit $fail
