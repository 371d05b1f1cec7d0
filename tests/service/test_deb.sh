#!/bin/sh
# Debian package: builds the .deb offline from a copy of the tree with
# `dpkg-buildpackage -us -uc -b`, lists it with `dpkg-deb -c`, checks the
# files the install must place (binary, units, man pages, the conffile, the
# Prometheus rules, Grafana dashboards, docs), the conffiles, Recommends and
# Built-Using, and runs lintian (any E: or W: fails). Build-Depends are
# checked against CMake by check_build_depends.py (ctest packaging_build_depends).
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
# the copy as a git tree: after the build, .gitignore must cover every file
# dpkg-buildpackage left in it
git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm tree ||
	{ echo "FAIL: git init of the copy"; exit 1; }
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
	./usr/share/doc/wearwatch/examples/wearwatch.conf.example ./usr/lib/systemd/catalog/wearwatch.catalog \
	./etc/wearwatch/wearwatch.conf ./usr/share/wearwatch/prometheus/wearwatch-rules.yml \
	./usr/share/wearwatch/grafana/wearwatch-fleet.json ./usr/share/wearwatch/grafana/wearwatch-host.json \
	./usr/share/wearwatch/grafana/wearwatch-drive.json ./usr/share/doc/wearwatch/README.md.gz \
	./usr/share/doc/wearwatch/metrics.md.gz ./usr/share/doc/wearwatch/migrating.md.gz \
	./usr/share/doc/wearwatch/health.md.gz ./lib/systemd/system/wearwatch-notify.path \
	./lib/systemd/system/wearwatch-notify.service ./lib/systemd/system/wearwatch-notify.timer \
	./usr/share/wearwatch/notify/wearwatch-mail ./usr/share/wearwatch/notify/wearwatch-webhook; do
	dpkg-deb -c "$deb" | awk '{print $6}' | grep -qx "$f" || { echo "FAIL: $f not in the package"; fail=1; }
done
# every document the README's Documentation list names is installed
# (dh_compress gzips the larger ones)
for d in $(sed -n '/^## Documentation/,/^## Drives/p' README.md | grep -o 'docs/[a-z-]*\.md' |
	   sort -u); do
	b=$(basename "$d")
	dpkg-deb -c "$deb" | awk '{print $6}' |
		grep -qxE "\./usr/share/doc/wearwatch/$b(\.gz)?" ||
		{ echo "FAIL: $d (README's Documentation) not in the package"; fail=1; }
done
for b in architecture.md testing.md benchmarks.md; do
	dpkg-deb -c "$deb" | awk '{print $6}' | grep -qxE "\./usr/share/doc/wearwatch/$b(\.gz)?" ||
		{ echo "FAIL: docs/$b not in the package"; fail=1; }
done
# apt purge removes the state (history, notification queue)
dpkg-deb -I "$deb" postrm > ../postrm 2>/dev/null ||
	{ echo "FAIL: the package has no postrm"; fail=1; }
grep -q 'purge' ../postrm && grep -q 'rm -rf /var/lib/wearwatch' ../postrm ||
	{ echo "FAIL: postrm does not remove /var/lib/wearwatch on purge"; fail=1; }
left=$(git status --porcelain --untracked-files=all)
[ -z "$left" ] || { echo "FAIL: build outputs not in .gitignore:"; echo "$left"; fail=1; }
for u in wearwatch-collector.service wearwatch-notify.path wearwatch-notify.timer; do
	dpkg-deb -I "$deb" postinst | grep -q "deb-systemd-helper.*$u" ||
		{ echo "FAIL: postinst does not enable $u"; fail=1; }
done
echo "== conffiles"
dpkg-deb -I "$deb" conffiles | tee ../conffiles.txt
grep -qx /etc/wearwatch/wearwatch.conf ../conffiles.txt ||
	{ echo "FAIL: /etc/wearwatch/wearwatch.conf is not a conffile"; fail=1; }
echo "== control"
dpkg-deb -f "$deb" Depends Recommends Built-Using | tee ../fields.txt
grep -q '^Recommends:.*smartmontools' ../fields.txt ||
	{ echo "FAIL: smartmontools is not recommended"; fail=1; }
grep -q '^Built-Using: node-chart.js' ../fields.txt ||
	{ echo "FAIL: Built-Using does not name Chart.js"; fail=1; }
echo "== lintian"
lintian --tag-display-limit 0 "$deb" 2>/dev/null | tee ../lintian.txt
grep -q '^[EW]:' ../lintian.txt && { echo "FAIL: lintian errors or warnings"; fail=1; }
[ $fail = 0 ] && echo "ok: package builds, files in place, lintian clean"
exit $fail
