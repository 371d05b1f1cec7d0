#!/bin/sh
# Builds the decoder fuzz harness with clang's libFuzzer + ASan + UBSan and runs
# it for a bounded time, seeded with the pages under tests/fixtures (vm/ captures,
# scsi/, ata/, nvme/ hex) behind every selector.
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
# seeds: each real capture behind every selector byte, one per registry row
# (the harness lists them) and the SAT sense parser after the last row
WW_FUZZ_LIST_ROWS=1 "$work/fuzz_decode" >"$work/rows.txt"
nsel=$(wc -l <"$work/rows.txt")
[ "$nsel" -gt 1 ] && [ "$nsel" -le 256 ] || { echo "fuzz_decoders: $nsel selectors"; exit 1; }
echo "fuzz_decoders: $nsel targets ($(cut -d' ' -f2 "$work/rows.txt" | tr '\n' ' '))"
# and the hex fixtures (spec-constructed and real pages, "# ..." comments)
hex2bin() {
	printf "$(sed 's/#.*//' "$1" | awk -v x=0123456789abcdef '{ for (i = 1; i <= NF; i++) {
		h = tolower($i); hi = index(x, substr(h, 1, 1)) - 1; lo = index(x, substr(h, 2, 1)) - 1
		printf "\\%03o", hi * 16 + lo } }')"
}
i=0
for f in "$src"/tests/fixtures/vm/*/*.bin "$src"/tests/fixtures/scsi/*.hex \
	 "$src"/tests/fixtures/ata/*.hex "$src"/tests/fixtures/nvme/*.hex; do
	case $f in
	*.hex) hex2bin "$f" >"$work/page.bin" ;;
	*) cp "$f" "$work/page.bin" ;;
	esac
	while read -r sel name; do
		{ printf "\\$(printf %03o "$sel")"; cat "$work/page.bin"; } >"$work/corpus/seed-$i-$name"
	done <"$work/rows.txt"
	i=$((i + 1))
done
rc=0
"$work/fuzz_decode" -max_total_time="$secs" -max_len=8192 -print_final_stats=1 \
	-artifact_prefix="$work/" "$work/corpus" >"$work/fuzz.log" 2>&1 || rc=$?
tail -8 "$work/fuzz.log"
[ "$rc" -eq 0 ] || { echo "fuzz_decoders: crash or sanitizer report (exit $rc), input saved in $work/"; grep -m20 -A15 "ERROR\|runtime error" "$work/fuzz.log"; }
exit "$rc"
