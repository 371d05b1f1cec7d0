/* SCSI LOG SENSE decoding of real drive responses: libscsicmd's AFL seeds in
 * ../shared/fixtures/libscsicmd-afl (format ",<CDB hex>,,<response hex>").
 * Expected values: SOURCES.md (sg_logs --inhex of the same bytes). Skips (77)
 * when the shared fixtures are absent. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "ww_test.h"

/* CDB and response bytes of a libscsicmd csv line (2nd and 4th field) */
static size_t load_csv(const char *dir, const char *rel, uint8_t *out, size_t max,
		       uint8_t *cdb, size_t *cdb_len)
{
	size_t len, n = 0;
	char *t = (char *)ww_read_file(dir, rel, &len), *f[4] = { 0 };
	int k = 0;

	if (!t)
		return 0;
	for (char *p = t; *p && k < 4; p++)
		if (*p == ',')
			f[k++] = p + 1;
	if (k == 3) { /* fields: "", CDB, "", response */
		*(f[1] - 1) = 0;
		*cdb_len = ww_hex_to_bytes(f[0], cdb, 16);
		n = ww_hex_to_bytes(f[2], out, max);
	}
	free(t);
	return n;
}

static int decode_exact(const uint8_t *b, size_t len, ww_health_t *h)
{
	uint8_t *p = malloc(len ? len : 1);
	int rc;

	memcpy(p, b, len);
	rc = ww_decode_scsi_log_page(p, len, h);
	free(p);
	return rc;
}

int main(void)
{
	const char *dir = ww_fixtures_dir();
	uint8_t b[4096], cdb[16];
	size_t n, cl = 0;
	ww_health_t h = { 0 };

	/* page 0x02, write error counters */
	n = load_csv(dir, "libscsicmd-afl/log_sense_e987c846782a969f2786eb64e5ce751f10b2161b.csv",
		     b, sizeof(b), cdb, &cl);
	CHECK_EQ_U64(n, 56);
	CHECK(cl == 10 && cdb[0] == 0x4d && (cdb[2] & 0xc0) == 0x40 && !(cdb[1] & 1));
	CHECK_EQ_I64(decode_exact(b, n, &h), 0);
	CHECK_EQ_U64(h.scsi.write_errors.bytes_processed.value, 252399715432960ull);
	CHECK_EQ_U64(h.scsi.write_errors.corrected_total.value, 258);
	CHECK_EQ_U64(h.scsi.write_errors.uncorrected.value, 0);
	CHECK(WW_HAS(h.scsi.write_errors.uncorrected));
	for (size_t k = 0; k < n; k++)
		CHECK_EQ_I64(decode_exact(b, k, &h), -EMSGSIZE);
	ww_scsi_finish(&h);
	CHECK_EQ_U64(h.host_written_bytes.value, 252399715432960ull);
	CHECK_STR(h.host_written_bytes.source, "SCSI log page 0x02 param 0x0005");
	CHECK_EQ_U64(h.media_errors.value, 0);

	/* page 0x0D, temperature, vendor parameters after the standard ones */
	ww_health_t t = { 0 };
	n = load_csv(dir, "libscsicmd-afl/log_sense_eaf8bc4deb09eadd1c294aa94b1b32d246bc2268.csv",
		     b, sizeof(b), cdb, &cl);
	CHECK_EQ_U64(n, 124);
	CHECK_EQ_I64(decode_exact(b, n, &t), 0);
	CHECK_EQ_I64(t.scsi.temperature_celsius.value, 21);
	CHECK_EQ_I64(t.scsi.reference_temperature_celsius.value, 68);
	for (size_t k = 0; k < n; k++)
		CHECK_EQ_I64(decode_exact(b, k, &t), -EMSGSIZE);
	/* a parameter length that overruns the page stops the walk with an error */
	b[4 + 6 + 3] = 0xf0;
	ww_health_t o = { 0 };
	CHECK_EQ_I64(decode_exact(b, n, &o), -EINVAL);
	CHECK(!WW_HAS(o.scsi.temperature_celsius));
	return ww_test_done("test_decode_scsi_real");
}
