#!/bin/sh
# Builds the libFuzzer harnesses (tests/fuzz/fuzz_*.c: every parser of outside
# input) with clang, ASan and UBSan in a build of its own (cmake -DWW_FUZZ=ON),
# seeds each with real files and every regression input of tests/fuzz/regress,
# and runs each for SECONDS. A finding (crash, sanitizer report, leak, input
# over 10 s) fails the run; the input is saved as WORK_DIR/<harness>-crash-*.
#
# Usage: tests/fuzz/run.sh SOURCE_DIR WORK_DIR [SECONDS] [HARNESS...]
#   SECONDS per harness (default 30); HARNESS: names without fuzz_ (default
#   all), e.g. `tests/fuzz/run.sh . /tmp/fz 600 capture` for a 10-minute run.
#   The corpus grown in WORK_DIR/corpus-<harness> is kept for the next run.
#   $WW_FIXTURES (default ../shared/fixtures) adds the real-drive files.
# Exit 77 (skip) only when clang or libFuzzer's runtime is not installed.
set -eu
src=$(cd "$1" && pwd); work=$2; secs=${3:-30}
[ $# -ge 3 ] && shift 3 || shift $#
fixtures=${WW_FIXTURES:-$src/../shared/fixtures}
command -v clang >/dev/null || { echo "SKIP: clang not installed (scripts/deps.sh test)"; exit 77; }
mkdir -p "$work"
work=$(cd "$work" && pwd)
if ! { cmake -S "$src" -B "$work/build" -DWW_FUZZ=ON -DCMAKE_C_COMPILER=clang \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
	-DWW_FIXTURES="$fixtures" && cmake --build "$work/build" -j2 --target fuzzers; } \
	>"$work/build.log" 2>&1; then
	if grep -q "libclang_rt.fuzzer" "$work/build.log"; then
		echo "SKIP: libFuzzer runtime missing (libclang-rt-14-dev)"; exit 77
	fi
	tail -40 "$work/build.log"; exit 1
fi

all="decode capture smartctl_json drivedb conf webcfg ratings route atasmart_blob ioctl_trace fleet spool qualify_compare"
[ $# -gt 0 ] && all="$*"

# seed FILE... into the seeds dir as they are
add() { for f in "$@"; do [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"; done; return 0; }
# one selector byte, then FILE
add_sel() { sel=$1; shift; for f in "$@"; do [ -f "$f" ] && { printf "\\$(printf %03o "$sel")"; cat "$f"; } \
	>"$seeds/$sel-$(echo "$f" | tr / _)"; done; return 0; }

# a hex fixture ("# ..." comments) as bytes
hex2bin() {
	printf "$(sed 's/#.*//' "$1" | awk -v x=0123456789abcdef '{ for (i = 1; i <= NF; i++) {
		h = tolower($i); hi = index(x, substr(h, 1, 1)) - 1; lo = index(x, substr(h, 2, 1)) - 1
		printf "\\%03o", hi * 16 + lo } }')"
}

seed() {
	reg=$src/tests/fuzz/regress
	case $1 in
	decode) # each real page (VM captures, and the hex fixtures: spec-
		# constructed and real pages) behind every selector: one per
		# decoder registry row, as the harness lists them, and the SAT
		# sense parser and the ATA Selective self-test log after the last
		WW_FUZZ_LIST_ROWS=1 "$work/build/fuzz_decode" >"$work/rows.txt"
		nsel=$(wc -l <"$work/rows.txt")
		[ "$nsel" -gt 1 ] && [ "$nsel" -le 256 ] || { echo "fuzz_decode: $nsel selectors"; exit 1; }
		echo "fuzz_decode: $nsel targets ($(cut -d' ' -f2 "$work/rows.txt" | tr '\n' ' '))"
		i=0
		for f in "$src"/tests/fixtures/vm/*/*.bin "$src"/tests/fixtures/scsi/*.hex \
			"$src"/tests/fixtures/ata/*.hex "$src"/tests/fixtures/nvme/*.hex; do
			case $f in
			*.hex) hex2bin "$f" >"$work/page.bin" ;;
			*) cp "$f" "$work/page.bin" ;;
			esac
			i=$((i + 1))
			while read -r sel name; do
				{ printf "\\$(printf %03o "$sel")"; cat "$work/page.bin"; } \
					>"$seeds/$sel-$name-$i"
			done <"$work/rows.txt"
		done ;;
	capture) add "$src"/tests/fixtures/captures/*/*.capture "$reg"/capture-* ;;
	smartctl_json) add "$fixtures"/scrutiny/*.json "$fixtures"/scrutiny-starosdev/*.json \
		"$fixtures"/smartctl_exporter/*.json "$reg"/smartctl-* ;;
	drivedb) # the system's drivedb.h in pieces of 40 entries (whole lines)
		add "$reg"/drivedb-*
		if [ -f /usr/share/smartmontools/drivedb.h ]; then
			awk -v d="$seeds" '/^  \{ "/ { n++ } { print > (d "/drivedb-" int(n / 40)) }' \
				/usr/share/smartmontools/drivedb.h
		fi ;;
	conf) add "$src"/etc/wearwatch.conf.example "$reg"/conf-* ;;
	webcfg) add "$reg"/webcfg-* ;;
	ratings) add_sel 0 "$src"/data/ratings/*.tsv "$reg"/ratings-*
		add_sel 1 "$reg"/rating-* "$reg"/pattern-* ;;
	route) add_sel 0 "$reg"/route-*; add_sel 1 "$reg"/ipc-*; add_sel 3 "$reg"/ipcreq-* ;;
	atasmart_blob) add "$fixtures"/libatasmart-blobs/*--* ;;
	ioctl_trace) add "$fixtures"/smartmontools-trac/*/*.log ;;
	fleet) add "$reg"/fleet-* ;;
	spool) add "$reg"/spool-* ;;
	qualify_compare) add "$reg"/qualify-* ;;
	esac
}

rc=0
for h in $all; do
	bin=$work/build/fuzz_$h
	[ -x "$bin" ] || { echo "fuzz: no harness fuzz_$h"; rc=1; continue; }
	seeds=$work/seeds-$h
	rm -rf "$seeds"
	mkdir -p "$seeds" "$work/corpus-$h"
	seed "$h"
	r=0
	"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/$h-" "$work/corpus-$h" "$seeds" \
		>"$work/$h.log" 2>&1 || r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log")
	cov=$(grep -o "cov: [0-9]* ft: [0-9]*" "$work/$h.log" | tail -1)
	echo "fuzz_$h: ${secs} s, ${execs:-?} runs, ${cov:-no coverage line}, $(ls "$seeds" | wc -l) seeds, exit $r"
	if [ "$r" -ne 0 ]; then
		rc=1
		echo "fuzz_$h: a finding (input saved as $work/$h-*):"
		grep -m5 -A20 "ERROR\|runtime error\|Timeout\|out-of-memory" "$work/$h.log" || tail -30 "$work/$h.log"
	fi
done
exit "$rc"
