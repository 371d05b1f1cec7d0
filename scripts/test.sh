#!/bin/sh
# Builds wearwatch and runs the whole suite: unit tests (decoders on real
# fixtures from ../shared/fixtures, model, exposition) and the QEMU VM
# integration test against the kernel's nvme, ahci and scsi_debug drivers.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh test
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j2
