#!/bin/sh
# ctest entry of the dashboard browser test (label browser): installs
# playwright-core from the committed package-lock.json into tests/browser/
# and runs test_dashboard.js in headless /usr/bin/chromium.
# usage: run.sh WEARWATCH_BINARY SOURCE_DIR ARTIFACT_DIR
set -eu
cd "$(dirname "$0")"
if [ ! -x /usr/bin/chromium ]; then
	echo "FAIL: /usr/bin/chromium is missing (scripts/deps.sh test installs it)"
	exit 1
fi
if ! command -v npm >/dev/null; then
	echo "FAIL: npm is missing (scripts/deps.sh test installs it)"
	exit 1
fi
npm ci --no-audit --no-fund --loglevel=error >/dev/null
exec node test_dashboard.js "$@"
