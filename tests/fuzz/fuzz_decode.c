/* libFuzzer harness over every pure decoder: the first input byte picks a row
 * of the decoder registry (ww_decoders[], so a new row is fuzzed with no edit
 * here) or, past the last row, the SAT sense parser of src/transport/sat.c
 * and the ATA Selective self-test log 09h decoder (read back before a
 * selective test, then rebuilt: the rebuilt sector must decode with a good
 * checksum and the span it was given); the rest is the buffer. The row's decoder runs through ww_decoder_run(),
 * then its finish step, as `wearwatch decode --type` does. Decoders must
 * return an error on any garbage without reading outside [buf, buf+len) (ASan
 * checks that) and without undefined behaviour (UBSan). Built and run by
 * tests/fuzz/run.sh, which asks for the row names (WW_FUZZ_LIST_ROWS=1) to
 * seed every selector. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/record.h"

/* With WW_FUZZ_LIST_ROWS set: print "SELECTOR NAME" per target and exit. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!getenv("WW_FUZZ_LIST_ROWS"))
		return 0;
	for (size_t i = 0; i < ww_n_decoders; i++)
		printf("%zu %s\n", i, ww_decoders[i].name);
	printf("%zu sat-sense\n", ww_n_decoders);
	printf("%zu ata-selective-log\n", ww_n_decoders + 1);
	exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_health_t h;
	ww_ata_regs_t regs;
	uint8_t *buf;
	size_t len, sel;

	if (size < 1)
		return 0;
	len = size - 1;
	/* an exact-size heap copy so that any over-read is caught */
	buf = malloc(len ? len : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, len);
	memset(&h, 0, sizeof(h));
	sel = data[0] % (ww_n_decoders + 2);
	if (sel < ww_n_decoders) {
		const ww_decoder_t *d = &ww_decoders[sel];

		ww_decoder_run(d, buf, len, &h);
		if (d->finish)
			d->finish(&h);
	} else if (sel == ww_n_decoders) {
		ww_sat_parse_sense(buf, len, &regs);
	} else {
		ww_ata_selective_log_t log, back;
		uint8_t out[512];

		if (ww_decode_ata_selective_log(buf, len, &log) == 0 &&
		    ww_ata_selective_log_build(buf, &log.span[0], out) == 0) {
			if (ww_decode_ata_selective_log(out, sizeof(out), &back) != 0 ||
			    !back.checksum_ok || back.span[0].first_lba != log.span[0].first_lba ||
			    back.span[0].last_lba != log.span[0].last_lba || back.current_span ||
			    back.span[1].last_lba)
				abort();
		}
	}
	free(buf);
	return 0;
}
