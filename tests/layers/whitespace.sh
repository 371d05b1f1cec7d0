#!/bin/sh
# git diff --check over the whole committed tree (against the empty tree)
# and over what the working tree changes on top of it: trailing blanks,
# blank lines at the end of a file, space before tab in the indent.
# Verbatim kernel and tool output is marked -whitespace in .gitattributes.
# Usage: whitespace.sh SOURCE_DIR
set -u
src=${1:?usage: whitespace.sh SOURCE_DIR}
if ! command -v git >/dev/null 2>&1; then
	echo "SKIP: git is not installed"
	exit 77
fi
if ! git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	echo "SKIP: $src is not a git checkout (a release tarball): nothing to diff"
	exit 77
fi
rc=0
# 4b825dc...: git's empty tree, so every committed line counts as added
git -C "$src" diff --check 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD -- || rc=1
git -C "$src" diff --check HEAD -- || rc=1
[ $rc -eq 0 ] && echo "whitespace: committed tree and working tree clean"
exit $rc
