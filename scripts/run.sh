#!/bin/sh
# Builds wearwatch and runs the service in the foreground on this machine's
# drives (PID 1 is not systemd here, so no systemctl). Extra arguments go to
# `wearwatch serve`, e.g. --listen 127.0.0.1:9786.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
exec build/wearwatch serve "$@"
