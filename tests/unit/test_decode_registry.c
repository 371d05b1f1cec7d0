/* The decoder registry (wearwatch/decode.h): names unique and found, rows
 * found by their identifiers, ww_decoder_run() refusing a page that is not
 * the row's, the NVMe rows' commands and predicates, and LOG SENSE dispatch
 * through the rows (pages from
 * tests/fixtures/scsi, spec-constructed; ATA page from tests/fixtures/ata). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "ww_test.h"

static char fixdir[4096];

static size_t fixture(const char *name, uint8_t *out, size_t max)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s", fixdir, name);
	return ww_load_hex(p, out, max);
}

static void test_rows(void)
{
	size_t n_log = 0;

	CHECK(ww_n_decoders > 0);
	for (size_t i = 0; i < ww_n_decoders; i++) {
		const ww_decoder_t *d = &ww_decoders[i];

		CHECK(d->name && d->name[0] && d->title && d->title[0] && d->decode);
		CHECK(ww_decoder_by_name(d->name) == d); /* unique */
		CHECK(ww_decoder_find(d->cmd, d->id, d->sub) == d);
		CHECK(d->protocol > WW_PROTO_NONE && d->protocol < WW_PROTO_MAX);
		if (d->cmd == WW_DEC_SCSI_LOG && d->id != WW_DEC_ANY)
			n_log++;
		/* a LOG SENSE row walks parameters or has a decoder of its own */
		if (d->log_params)
			CHECK(d->cmd == WW_DEC_SCSI_LOG && d->decode == ww_decode_scsi_log_page);
	}
	CHECK(n_log >= 13);
	/* the names `wearwatch decode --type` always took */
	CHECK(ww_decoder_by_name("nvme-smart") != NULL);
	CHECK(ww_decoder_by_name("ata-smart") != NULL);
	CHECK(ww_decoder_by_name("ata-devstat") != NULL);
	CHECK(ww_decoder_by_name("scsi-log") != NULL);
	CHECK(ww_decoder_by_name("no-such-page") == NULL);
	CHECK(ww_decoder_by_name(NULL) == NULL);
	CHECK(ww_decoder_find(WW_DEC_SCSI_LOG, 0x30, 0) == NULL);
	CHECK_EQ_I64(ww_decoder_run(NULL, (const uint8_t *)"", 0, NULL), -EINVAL);
}

static void test_run(void)
{
	const ww_decoder_t *temp = ww_decoder_by_name("scsi-temperature");
	const ww_decoder_t *werr = ww_decoder_by_name("scsi-write-errors");
	const ww_decoder_t *any = ww_decoder_by_name("scsi-log");
	uint8_t b[4096];
	size_t n = fixture("scsi/log_0d_temperature.hex", b, sizeof(b));
	ww_health_t h;

	memset(&h, 0, sizeof(h));
	CHECK(temp && werr && any && n == 16);
	CHECK_EQ_I64(ww_decoder_run(werr, b, n, &h), -EINVAL); /* page 0x0D, not 0x02 */
	CHECK(!WW_HAS(h.scsi.temperature_celsius));
	CHECK_EQ_I64(ww_decoder_run(temp, b, n - 1, &h), -EMSGSIZE);
	CHECK_EQ_I64(ww_decoder_run(temp, b, n, &h), 0);
	CHECK_EQ_I64(h.scsi.temperature_celsius.value, 38);
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(ww_decoder_run(any, b, n, &h), 0);
	CHECK_EQ_I64(h.scsi.reference_temperature_celsius.value, 65);

	/* Utilization (0x0E/0x01) has its own decoder; LOG SENSE dispatch
	 * reaches it through its row */
	n = fixture("scsi/log_0e01_utilization.hex", b, sizeof(b));
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(ww_decode_scsi_log_page(b, n, &h), 0);
	CHECK_EQ_U64(h.workload_utilization_centipercent.value, 3000);

	/* Device Statistics: the row's page number against byte 2 */
	n = fixture("ata/samsung-860evo-devstat-p5.hex", b, sizeof(b));
	CHECK_EQ_U64(n, 512);
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(ww_decoder_run(ww_decoder_by_name("ata-devstat-general"), b, n, &h), -EINVAL);
	CHECK_EQ_I64(ww_decoder_run(ww_decoder_by_name("ata-devstat-temperature"), b, 511, &h),
		     -EMSGSIZE);
	CHECK_EQ_I64(ww_decoder_run(ww_decoder_by_name("ata-devstat-temperature"), b, n, &h), 0);
	CHECK(WW_HAS(h.ata.devstat_temperature_celsius));
}

/* The NVMe rows the reader sends: each one it can send (CNS or LID, a length
 * it has a buffer for, whole dwords for a log), its predicate over the
 * Identify Controller fields, and the SMART log the one the read needs. */
static void test_nvme_rows(void)
{
	static ww_health_t full, none;
	const ww_decoder_t *first = NULL, *required = NULL;
	ww_nvme_args_t a;
	size_t n = 0;

	memset(&full, 0, sizeof(full));
	memset(&none, 0, sizeof(none));
	full.has_nvme_ctrl = true;
	full.nvme_ctrl.oacs = 0xffff;
	full.nvme_ctrl.ctratt = 0xffffffffu;
	full.nvme_ctrl.elpe = 255;
	full.n_nvme_ns = 1;
	full.nvme_ns[0].endgid = 7;
	for (size_t i = 0; i < ww_n_decoders; i++) {
		const ww_decoder_t *d = &ww_decoders[i];

		if (d->protocol != WW_PROTO_NVME || !d->nvme.what)
			continue;
		n++;
		first = first ? first : d;
		if (d->flags & WW_DEC_REQUIRED) {
			CHECK(!required);
			required = d;
		}
		CHECK(d->cmd == WW_DEC_NVME_IDENTIFY || d->cmd == WW_DEC_NVME_LOG);
		CHECK(d->id <= 0xff);
		CHECK(d->len || d->nvme.when); /* a length, fixed or from what is known */
		a = (ww_nvme_args_t){ .nsid = d->nvme.nsid, .len = d->len };
		CHECK(!d->nvme.when || d->nvme.when(&full, &a));
		CHECK(a.len > 0 && a.len <= WW_NVME_IDENTIFY_LEN);
		CHECK(d->cmd != WW_DEC_NVME_LOG || a.len % 4 == 0);
		CHECK(!a.lsi || d->nvme.lsi_name);
	}
	CHECK_EQ_U64(n, 7);
	CHECK(first == ww_decoder_by_name("nvme-id-ctrl")); /* the predicates read it */
	CHECK(required == ww_decoder_by_name("nvme-smart"));

	/* nothing known of the controller: no 01h, 06h or 09h; C0h always */
	const char *gated[] = { "nvme-error-log", "nvme-selftest-log", "nvme-endurance-group" };
	for (size_t i = 0; i < 3; i++) {
		const ww_decoder_t *d = ww_decoder_by_name(gated[i]);

		a = (ww_nvme_args_t){ .len = d->len };
		CHECK(d->nvme.when && !d->nvme.when(&none, &a));
	}
	CHECK(!ww_decoder_by_name("nvme-ocp-smart-ext")->nvme.when);
	/* 01h: ELPE + 1 entries of 64 bytes, at most 16; 09h: LSI = ENDGID */
	full.nvme_ctrl.elpe = 3;
	a = (ww_nvme_args_t){ 0 };
	CHECK(ww_decoder_by_name("nvme-error-log")->nvme.when(&full, &a));
	CHECK_EQ_U64(a.len, 4 * WW_NVME_ERROR_ENTRY_LEN);
	a = (ww_nvme_args_t){ 0 };
	CHECK(ww_decoder_by_name("nvme-endurance-group")->nvme.when(&full, &a));
	CHECK_EQ_U64(a.lsi, 7);
	full.nvme_ns[0].endgid = 0;
	CHECK(!ww_decoder_by_name("nvme-endurance-group")->nvme.when(&full, &a));
	full.nvme_ctrl.oacs = (uint16_t)~WW_NVME_OACS_SELFTEST;
	CHECK(!ww_decoder_by_name("nvme-selftest-log")->nvme.when(&full, &a));
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures", src ? src : ".");
	test_rows();
	test_run();
	test_nvme_rows();
	return ww_test_done("test_decode_registry");
}
