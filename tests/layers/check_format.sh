#!/bin/sh
# The C lines changed since the recorded base follow .clang-format
# (git-clang-format compares only those lines: the tree before the base is
# kept as it was written, since no clang-format 14 setting reproduces its
# braced tables; every change after it is held to the file).
# Usage: check_format.sh SOURCE_DIR
set -u
src=${1:?usage: check_format.sh SOURCE_DIR}
cd "$src" || exit 1
base=$(sed -n 's/^base //p' tests/layers/format-base)
if ! command -v git-clang-format >/dev/null 2>&1 || ! command -v clang-format >/dev/null 2>&1; then
	echo "SKIP: clang-format is not installed (scripts/deps.sh test installs it)"
	exit 77
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "SKIP: not a git checkout: no changed lines to check"
	exit 77
fi
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "SKIP: format base $base is not in this clone's history (shallow clone?)"
	exit 77
fi
out=$(git clang-format --binary clang-format --diff --extensions c,h "$base" -- src include tests 2>&1)
case "$out" in
"" | "no modified files to format" | "clang-format did not modify any files")
	echo "format: every C line changed since $base follows .clang-format"
	exit 0
	;;
esac
printf '%s\n' "$out"
echo "format: the lines above differ from .clang-format; run: git clang-format $base"
exit 1
