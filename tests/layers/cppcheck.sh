#!/bin/sh
# cppcheck over src/: any warning, style, performance or portability finding
# fails. A false positive is suppressed where it is, with
# /* cppcheck-suppress ID ; why */ on the line before.
# Usage: cppcheck.sh SOURCE_DIR
set -u
src=${1:?usage: cppcheck.sh SOURCE_DIR}
if ! command -v cppcheck >/dev/null 2>&1; then
	echo "SKIP: cppcheck is not installed (scripts/deps.sh test installs it)"
	exit 77
fi
cd "$src" || exit 1
cppcheck --version
# variableScope: declarations at the top of a function are this code's
# style; moving them into inner blocks changes no behaviour (36 findings).
exec cppcheck --enable=warning,style,performance,portability --inline-suppr \
	--suppress=variableScope --error-exitcode=1 -I include -I src --std=c11 -q -j2 src/
