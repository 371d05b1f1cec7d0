#!/bin/sh
# Builds wearwatch and runs the whole suite: unit tests (decoders on real
# fixtures from ../shared/fixtures, model, exposition) and the QEMU VM
# integration test against the kernel's nvme, ahci and scsi_debug drivers;
# then the unit label again under AddressSanitizer and UBSan.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh test
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
rc=0
ctest --test-dir build --output-on-failure -j2 || rc=1
# A read past a buffer or undefined arithmetic usually passes in the plain
# build; here it fails the test (UBSan does not recover: -DWW_SANITIZE=ON).
# Only what the unit label runs is built: about 3 min on 2 cores.
cmake -S . -B build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWW_SANITIZE=ON >/dev/null
cmake --build build-san -j"$(nproc)" --target unit_tests
UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-san --output-on-failure -j2 -L unit || rc=1
exit $rc
