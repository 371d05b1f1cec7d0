#!/bin/sh
# Builds the decoder fuzz harness with clang's libFuzzer + ASan + UBSan and runs
# it for a bounded time, seeded with the real bytes under tests/fixtures/vm.
# Usage: tests/fuzz/run.sh SOURCE_DIR WORK_DIR [SECONDS]
# Exit 77 (skip) only when clang or libFuzzer's runtime is not installed.
set -eu
src=$1; work=$2; secs=${3:-30}
command -v clang >/dev/null || { echo "SKIP: clang not installed (scripts/deps.sh test)"; exit 77; }
mkdir -p "$work/corpus"
if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-D_GNU_SOURCE -I"$src/include" -I"$src/src" \
	"$src/tests/fuzz/fuzz_decode.c" "$src"/src/decode/*.c "$src"/src/record/*.c \
	"$src/src/transport/sat.c" "$src/src/transport/xport.c" \
	-o "$work/fuzz_decode" 2>"$work/build.log"; then
	if grep -q "libclang_rt.fuzzer" "$work/build.log"; then
		echo "SKIP: libFuzzer runtime missing (libclang-rt-14-dev)"; exit 77
	fi
	cat "$work/build.log"; exit 1
fi
# seeds: each real capture behind every selector byte
i=0
for f in "$src"/tests/fixtures/vm/*/*.bin; do
	for sel in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		{ printf "\\$(printf %03o "$sel")"; cat "$f"; } >"$work/corpus/seed-$i-$sel"
	done
	i=$((i + 1))
done
rc=0
"$work/fuzz_decode" -max_total_time="$secs" -max_len=8192 -print_final_stats=1 \
	-artifact_prefix="$work/" "$work/corpus" >"$work/fuzz.log" 2>&1 || rc=$?
tail -8 "$work/fuzz.log"
[ "$rc" -eq 0 ] || { echo "fuzz_decoders: crash or sanitizer report (exit $rc), input saved in $work/"; grep -m20 -A15 "ERROR\|runtime error" "$work/fuzz.log"; }
exit "$rc"
