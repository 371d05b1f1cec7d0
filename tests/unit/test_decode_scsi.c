/* SCSI decoders on spec-constructed pages (tests/fixtures/scsi/NAME.hex, values
 * from SPC-5/SBC-4 layouts filled with the Toshiba AL15SEB060N figures of
 * smartmontools ticket 1653) and on the scsi_debug pages captured in the VM
 * (tests/fixtures/vm/sas). Both live in the repository, so this test always
 * runs. Each constructed log page is also decoded by sg_logs --inhex (an
 * independent decoder) when it is installed, and its figures must equal ours. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/decode.h"
#include "ww_test.h"

static char fixdir[4096];
static bool have_sg_logs;



/* Decode from a heap block of exactly len bytes so ASan sees any overread. */
static int decode_exact(int (*fn)(const uint8_t *, size_t, ww_health_t *),
			const uint8_t *b, size_t len, ww_health_t *h)
{
	uint8_t *p = malloc(len ? len : 1);
	int rc;

	memcpy(p, b, len);
	rc = fn(p, len, h);
	free(p);
	return rc;
}

static size_t fixture(const char *name, uint8_t *out, size_t max)
{
	char p[4200];
	size_t n;

	snprintf(p, sizeof(p), "%s/scsi/%s", fixdir, name);
	n = ww_load_hex(p, out, max);
	if (!n)
		fprintf(stderr, "fixture %s empty or missing\n", p);
	return n;
}

/* Run sg_logs --inhex on a fixture and return the first integer after `label`
 * on the line containing it (base 0: "0x5d" works). false when absent. */
static bool sg_logs_value(const char *name, const char *label, long long *v)
{
	char cmd[4400], line[512];
	bool found = false;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "sg_logs --inhex='%s/scsi/%s' 2>/dev/null", fixdir, name);
	f = popen(cmd, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, label), *e;

		if (found || !s)
			continue;
		s += strlen(label);
		while (*s == ' ' || *s == '=' || *s == ':')
			s++;
		*v = strtoll(s, &e, 0);
		found = e != s;
	}
	pclose(f);
	return found;
}

/* Our value must equal sg_logs' figure (when sg_logs is installed). */
#define CHECK_SG(file, label, ours)                                            \
	do {                                                                   \
		long long sv_;                                                 \
		if (have_sg_logs) {                                            \
			CHECK(sg_logs_value(file, label, &sv_));               \
			CHECK_EQ_I64((long long)(ours), sv_);                  \
		}                                                              \
	} while (0)

static int decode_log(const char *name, ww_health_t *h)
{
	uint8_t b[4096];
	size_t n = fixture(name, b, sizeof(b));

	CHECK(n > 4);
	return decode_exact(ww_decode_scsi_log_page, b, n, h);
}

/* Every proper prefix of a page must be rejected, the whole page accepted,
 * and the record must not change on rejection. */
static void check_truncations(const char *name)
{
	uint8_t b[4096];
	size_t n = fixture(name, b, sizeof(b));
	unsigned bad = 0;

	for (size_t k = 0; k < n; k++) {
		ww_health_t h, ref;
		memset(&h, 0, sizeof(h));
		memset(&ref, 0, sizeof(ref));
		int rc = decode_exact(ww_decode_scsi_log_page, b, k, &h);
		if (rc != -EMSGSIZE || memcmp(&h, &ref, sizeof(h)) != 0)
			bad++;
	}
	if (bad)
		fprintf(stderr, "%s: %u truncations not rejected\n", name, bad);
	CHECK(n > 0 && bad == 0);
}

static void test_error_counters(void)
{
	ww_health_t h = { 0 };

	CHECK_EQ_I64(decode_log("log_03_read_errors.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.read_errors.bytes_processed.value, 118978756000256ull);
	CHECK_STR(h.scsi.read_errors.bytes_processed.source, "SCSI log page 0x03 param 0x0005");
	/* smartctl prints 10^9 bytes with three decimals: 118978.756 */
	CHECK_EQ_U64((h.scsi.read_errors.bytes_processed.value + 500000) / 1000000, 118978756);
	CHECK_EQ_U64(h.scsi.read_errors.corrected_total.value, 0);
	CHECK(WW_HAS(h.scsi.read_errors.corrected_total));
	CHECK_EQ_U64(h.scsi.read_errors.uncorrected.value, 0);
	CHECK(WW_HAS(h.scsi.read_errors.uncorrected));
	CHECK_SG("log_03_read_errors.hex", "Total bytes processed", h.scsi.read_errors.bytes_processed.value);
	CHECK_SG("log_03_read_errors.hex", "Total errors corrected", h.scsi.read_errors.corrected_total.value);
	CHECK_SG("log_03_read_errors.hex", "Total uncorrected errors", h.scsi.read_errors.uncorrected.value);
	CHECK_SG("log_03_read_errors.hex", "Errors corrected without substantial delay", 221452);

	CHECK_EQ_I64(decode_log("log_02_write_errors.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.write_errors.bytes_processed.value, 203179008000ull);
	CHECK_EQ_U64((h.scsi.write_errors.bytes_processed.value + 500000) / 1000000, 203179);
	CHECK_SG("log_02_write_errors.hex", "Total bytes processed", h.scsi.write_errors.bytes_processed.value);
	CHECK_SG("log_02_write_errors.hex", "Total uncorrected errors", h.scsi.write_errors.uncorrected.value);

	CHECK_EQ_I64(decode_log("log_05_verify_errors.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.verify_errors.bytes_processed.value, 11060000256ull);
	CHECK_EQ_U64((h.scsi.verify_errors.bytes_processed.value + 500000) / 1000000, 11060);
	CHECK_SG("log_05_verify_errors.hex", "Total bytes processed", h.scsi.verify_errors.bytes_processed.value);
	CHECK_SG("log_05_verify_errors.hex", "Total uncorrected errors", h.scsi.verify_errors.uncorrected.value);
	/* the read page did not touch the write page's fields and vice versa */
	CHECK_EQ_U64(h.scsi.read_errors.bytes_processed.value, 118978756000256ull);
}

static void test_temperature(void)
{
	ww_health_t h = { 0 };
	long long sv;

	CHECK_EQ_I64(decode_log("log_0d_temperature.hex", &h), 0);
	CHECK_EQ_I64(h.scsi.temperature_celsius.value, 38);
	CHECK_STR(h.scsi.temperature_celsius.source, "SCSI log page 0x0D param 0x0000");
	CHECK_EQ_I64(h.scsi.reference_temperature_celsius.value, 65);
	CHECK_SG("log_0d_temperature.hex", "Current temperature", h.scsi.temperature_celsius.value);
	CHECK_SG("log_0d_temperature.hex", "Reference temperature", h.scsi.reference_temperature_celsius.value);

	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_log("log_0d_temperature_na.hex", &h), 0);
	CHECK(!WW_HAS(h.scsi.temperature_celsius));
	CHECK(!WW_HAS(h.scsi.reference_temperature_celsius));
	if (have_sg_logs) /* sg_logs prints "<not available>", no number */
		CHECK(!sg_logs_value("log_0d_temperature_na.hex", "Current temperature", &sv));

	CHECK_EQ_I64(decode_log("log_0d01_environment.hex", &h), 0);
	CHECK_EQ_I64(h.scsi.env_temperature_celsius.value, 40);
	CHECK_STR(h.scsi.env_temperature_celsius.source, "SCSI log page 0x0D/0x01 param 0x0000");
	CHECK_SG("log_0d01_environment.hex", "Temperature:", h.scsi.env_temperature_celsius.value);

	/* signed: -5 C; 0x80 = not valid */
	uint8_t neg[] = { 0x4d, 0x01, 0x00, 0x0c, 0x00, 0x00, 0x01, 0x08,
			  0x00, 0xfb, 0, 0, 0, 0, 0, 0 };
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, neg, sizeof(neg), &h), 0);
	CHECK_EQ_I64(h.scsi.env_temperature_celsius.value, -5);
	neg[9] = 0x80;
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, neg, sizeof(neg), &h), 0);
	CHECK(!WW_HAS(h.scsi.env_temperature_celsius));
}

static void test_other_pages(void)
{
	ww_health_t h = { 0 };
	long long sv;

	CHECK_EQ_I64(decode_log("log_0e_start_stop.hex", &h), 0);
	CHECK_STR(h.scsi.manufacture_year, "2021");
	CHECK_STR(h.scsi.manufacture_week, "47");
	CHECK_EQ_U64(h.scsi.specified_start_stop_cycles.value, 50000);
	CHECK_EQ_U64(h.scsi.start_stop_cycles.value, 59);
	CHECK_SG("log_0e_start_stop.hex", "Date of manufacture, year", atoll(h.scsi.manufacture_year));
	CHECK_SG("log_0e_start_stop.hex", "week", atoll(h.scsi.manufacture_week));
	CHECK_SG("log_0e_start_stop.hex", "Specified cycle count over device lifetime",
		 h.scsi.specified_start_stop_cycles.value);
	CHECK_SG("log_0e_start_stop.hex", "Accumulated start-stop cycles", h.scsi.start_stop_cycles.value);

	CHECK_EQ_I64(decode_log("log_11_ssm.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.percentage_used.value, 3);
	CHECK_SG("log_11_ssm.hex", "Percentage used endurance indicator", h.scsi.percentage_used.value);

	CHECK_EQ_I64(decode_log("log_06_non_medium.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.non_medium_errors.value, 33);
	CHECK_STR(h.scsi.non_medium_errors.source, "SCSI log page 0x06 param 0x0000");
	CHECK_SG("log_06_non_medium.hex", "Non-medium error count", h.scsi.non_medium_errors.value);

	CHECK_EQ_I64(decode_log("log_15_bg_scan.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.power_on_minutes.value, 259771);
	CHECK_SG("log_15_bg_scan.hex", "Accumulated power on minutes", h.scsi.power_on_minutes.value);

	CHECK_EQ_I64(decode_log("log_19_gen_stats.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.logical_blocks_written.value, 396834000ull);
	CHECK_EQ_U64(h.scsi.logical_blocks_read.value, 232380382813ull);
	CHECK_SG("log_19_gen_stats.hex", "number of logical blocks received", h.scsi.logical_blocks_written.value);
	CHECK_SG("log_19_gen_stats.hex", "number of logical blocks transmitted", h.scsi.logical_blocks_read.value);

	CHECK_EQ_I64(decode_log("log_2f_ie_ok.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.ie_asc.value, 0);
	CHECK(WW_HAS(h.scsi.ie_asc));
	CHECK_EQ_U64(h.scsi.ie_ascq.value, 0);
	CHECK_EQ_I64(h.scsi.ie_temperature_celsius.value, 38);
	CHECK_SG("log_2f_ie_ok.hex", "IE asc", h.scsi.ie_asc.value);
	CHECK_SG("log_2f_ie_ok.hex", "ascq", h.scsi.ie_ascq.value);
	CHECK_SG("log_2f_ie_ok.hex", "Current temperature", h.scsi.ie_temperature_celsius.value);

	ww_health_t f = { 0 };
	CHECK_EQ_I64(decode_log("log_2f_ie_failing.hex", &f), 0);
	CHECK_EQ_U64(f.scsi.ie_asc.value, 0x5d);
	CHECK_EQ_U64(f.scsi.ie_ascq.value, 0x10);
	CHECK_EQ_I64(f.scsi.ie_temperature_celsius.value, 51);
	CHECK_SG("log_2f_ie_failing.hex", "IE asc", f.scsi.ie_asc.value);
	CHECK_SG("log_2f_ie_failing.hex", "ascq", f.scsi.ie_ascq.value);
	CHECK_SG("log_2f_ie_failing.hex", "Current temperature", f.scsi.ie_temperature_celsius.value);
	ww_scsi_finish(&f);
	CHECK_EQ_I64(f.smart_status, WW_SMART_FAILED);
	CHECK_STR(f.smart_status_source, "SCSI log page 0x2F param 0x0000 ASC");
	(void)sv;
}

/* Pages sg_logs lists for a supported-pages page: lines "    0xPP[,0xSS] ..." */
static size_t sg_logs_pages(const char *name, uint16_t *out, size_t max)
{
	char cmd[4400], line[512];
	size_t n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "sg_logs --inhex='%s/scsi/%s' 2>/dev/null", fixdir, name);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned pg, spg = 0;
		if (strncmp(line, "    0x", 6) != 0 || sscanf(line, " %x,%x", &pg, &spg) < 1)
			continue;
		if (n < max)
			out[n++] = (uint16_t)(pg << 8 | spg);
	}
	pclose(f);
	return n;
}

static void check_pages_vs_sg_logs(const char *name, const ww_health_t *h, size_t expect)
{
	uint16_t sg[64];
	size_t n;

	if (!have_sg_logs)
		return;
	n = sg_logs_pages(name, sg, 64);
	CHECK_EQ_U64(n, expect);
	for (size_t i = 0; i < n; i++)
		CHECK(ww_scsi_page_supported(h, sg[i] >> 8, sg[i] & 0xff));
}

static void test_supported(void)
{
	static const uint8_t want[] = { 0x00, 0x02, 0x03, 0x05, 0x0d, 0x0e, 0x11, 0x15, 0x19, 0x2f };
	ww_health_t h = { 0 };

	CHECK_EQ_I64(decode_log("log_00_supported.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.n_supported_pages, sizeof(want));
	for (size_t i = 0; i < sizeof(want); i++)
		CHECK(ww_scsi_page_supported(&h, want[i], 0));
	CHECK(!ww_scsi_page_supported(&h, 0x0d, 0x01));
	check_pages_vs_sg_logs("log_00_supported.hex", &h, sizeof(want));

	ww_health_t s = { 0 };
	CHECK_EQ_I64(decode_log("log_00ff_supported_subpages.hex", &s), 0);
	CHECK_EQ_U64(s.scsi.n_supported_pages, 6);
	CHECK(ww_scsi_page_supported(&s, 0x0d, 0x01));
	CHECK(ww_scsi_page_supported(&s, 0x00, 0xff));
	check_pages_vs_sg_logs("log_00ff_supported_subpages.hex", &s, 6);

	/* merged into an existing list without duplicates: 10 + 0x00/0xFF + 0x0D/0x01 */
	CHECK_EQ_I64(decode_log("log_00ff_supported_subpages.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.n_supported_pages, 12);
}

/* Toshiba pages together, then ww_scsi_finish: normalised fields and sources */
static void test_finish(void)
{
	static const char *const pages[] = {
		"log_02_write_errors.hex", "log_03_read_errors.hex", "log_05_verify_errors.hex",
		"log_0d_temperature.hex", "log_0e_start_stop.hex", "log_15_bg_scan.hex",
		"log_2f_ie_ok.hex",
	};
	ww_health_t h = { 0 };

	WW_SET(h.logical_block_bytes, 512, "test");
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		CHECK_EQ_I64(decode_log(pages[i], &h), 0);
	ww_scsi_finish(&h);
	CHECK_EQ_I64(h.temperature_celsius.value, 38);
	CHECK_STR(h.temperature_celsius.source, "SCSI log page 0x0D param 0x0000");
	CHECK_EQ_I64(h.temperature_reference_celsius.value, 65);
	/* no page 0x19: error counter byte counts */
	CHECK_EQ_U64(h.host_written_bytes.value, 203179008000ull);
	CHECK_STR(h.host_written_bytes.source, "SCSI log page 0x02 param 0x0005");
	CHECK_EQ_U64(h.host_read_bytes.value, 118978756000256ull);
	CHECK_STR(h.host_read_bytes.source, "SCSI log page 0x03 param 0x0005");
	CHECK_EQ_U64(h.power_on_seconds.value, 259771ull * 60);
	CHECK_EQ_U64(h.power_on_seconds.value / 3600, 4329); /* smartctl 4329:31 */
	CHECK_EQ_U64(h.power_on_seconds.value % 3600 / 60, 31);
	CHECK(!WW_HAS(h.power_cycles)); /* start-stop cycles are not power cycles */
	CHECK_EQ_U64(h.media_errors.value, 0);
	CHECK_STR(h.media_errors.source, "SCSI log pages 0x02/0x03/0x05 param 0x0006 (sum)");
	CHECK_EQ_I64(h.smart_status, WW_SMART_PASSED);
	CHECK(!WW_HAS(h.endurance_used_percent));

	/* page 0x19 present: block counts x block size win, source says so */
	CHECK_EQ_I64(decode_log("log_19_gen_stats.hex", &h), 0);
	CHECK_EQ_I64(decode_log("log_11_ssm.hex", &h), 0);
	ww_scsi_finish(&h);
	CHECK_EQ_U64(h.host_written_bytes.value, 396834000ull * 512);
	CHECK_STR(h.host_written_bytes.source,
		  "SCSI log page 0x19 param 0x0001 logical blocks received x logical block size");
	CHECK_EQ_U64(h.host_read_bytes.value, 232380382813ull * 512);
	CHECK(strstr(h.host_read_bytes.source, "0x19") != NULL);
	CHECK_EQ_U64(h.endurance_used_percent.value, 3);

	/* temperature fallbacks: 0x0D 0xFF -> 0x0D/0x01 -> 0x2F byte 6 */
	ww_health_t t = { 0 };
	CHECK_EQ_I64(decode_log("log_0d_temperature_na.hex", &t), 0);
	CHECK_EQ_I64(decode_log("log_2f_ie_failing.hex", &t), 0);
	ww_scsi_finish(&t);
	CHECK_EQ_I64(t.temperature_celsius.value, 51);
	CHECK_STR(t.temperature_celsius.source, "SCSI log page 0x2F param 0x0000 byte 6");
	CHECK_EQ_I64(decode_log("log_0d01_environment.hex", &t), 0);
	ww_scsi_finish(&t);
	CHECK_EQ_I64(t.temperature_celsius.value, 40);
	CHECK(!WW_HAS(t.temperature_reference_celsius));

	/* media errors add up across pages */
	uint8_t p3[] = { 0x03, 0, 0, 8, 0, 6, 2, 4, 0, 0, 0, 7 };
	uint8_t p5[] = { 0x05, 0, 0, 8, 0, 6, 2, 4, 0, 0, 0, 5 };
	ww_health_t m = { 0 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, p3, sizeof(p3), &m), 0);
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, p5, sizeof(p5), &m), 0);
	ww_scsi_finish(&m);
	CHECK_EQ_U64(m.media_errors.value, 12);
	CHECK(!WW_HAS(m.host_read_bytes));
	CHECK_EQ_I64(m.smart_status, WW_SMART_UNKNOWN);
}

static void test_iterator_and_counters(void)
{
	ww_health_t h = { 0 }, ref;

	/* second parameter says 8 bytes but only 4 remain in the page */
	uint8_t over[] = { 0x02, 0, 0, 16, 0, 3, 2, 4, 0, 0, 0, 9, 0, 5, 2, 8, 0, 0, 0, 1 };
	memcpy(&ref, &h, sizeof(h));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, over, sizeof(over), &h), -EINVAL);
	CHECK(memcmp(&h, &ref, sizeof(h)) == 0); /* nothing committed */
	ww_scsi_log_iter_t it;
	ww_scsi_log_param_t p;
	uint8_t pg, spg;
	CHECK_EQ_I64(ww_scsi_log_begin(over, sizeof(over), &pg, &spg, &it), 0);
	CHECK_EQ_I64(ww_scsi_log_next(&it, &p), 1);
	CHECK_EQ_U64(p.code, 3);
	CHECK_EQ_I64(ww_scsi_log_next(&it, &p), -EINVAL);
	CHECK_EQ_I64(ww_scsi_log_next(&it, &p), 0); /* stopped */
	/* a 2-byte tail that cannot hold a parameter header */
	uint8_t tail[] = { 0x0d, 0, 0, 8, 0, 0, 3, 2, 0, 30, 0, 1 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, tail, sizeof(tail), &h), -EINVAL);
	/* SPF = 0 with a nonzero subpage byte */
	uint8_t spf[] = { 0x0d, 0x01, 0, 0 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, spf, sizeof(spf), &h), -EINVAL);
	/* unknown page */
	uint8_t unk[] = { 0x30, 0, 0, 0 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, unk, sizeof(unk), &h), -ENOTSUP);

	/* counters: 8 bytes of 0xFF = UINT64_MAX exactly; 9 significant bytes saturate */
	uint8_t c8[] = { 0x02, 0, 0, 12, 0, 5, 2, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, c8, sizeof(c8), &h), 0);
	CHECK_EQ_U64(h.scsi.write_errors.bytes_processed.value, UINT64_MAX);
	CHECK(!h.scsi.write_errors.bytes_processed.saturated);
	uint8_t c9[] = { 0x02, 0, 0, 13, 0, 5, 2, 9, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, c9, sizeof(c9), &h), 0);
	CHECK_EQ_U64(h.scsi.write_errors.bytes_processed.value, UINT64_MAX);
	CHECK(h.scsi.write_errors.bytes_processed.saturated);
	uint8_t c9z[] = { 0x02, 0, 0, 13, 0, 5, 2, 9, 0, 0, 0, 0, 0, 0, 0, 0, 42 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, c9z, sizeof(c9z), &h), 0);
	CHECK_EQ_U64(h.scsi.write_errors.bytes_processed.value, 42);
	CHECK(!h.scsi.write_errors.bytes_processed.saturated);
	/* 0x19 blocks x block size overflowing 64 bits saturates */
	ww_health_t o = { 0 };
	WW_SET(o.scsi.logical_blocks_written, UINT64_MAX / 2, "test");
	WW_SET(o.logical_block_bytes, 4096, "test");
	ww_scsi_finish(&o);
	CHECK_EQ_U64(o.host_written_bytes.value, UINT64_MAX);
	CHECK(o.host_written_bytes.saturated);
}

static void test_identity(void)
{
	uint8_t b[512];
	size_t n;
	ww_health_t h = { 0 };

	n = fixture("inquiry_al15seb060n.hex", b, sizeof(b));
	CHECK_EQ_U64(n, 96);
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_inquiry, b, n, &h), 0);
	CHECK_STR(h.vendor, "TOSHIBA");
	CHECK_STR(h.model, "AL15SEB060N");
	CHECK_STR(h.firmware, "3101");
	CHECK_EQ_U64(h.scsi.peripheral_type, 0);
	for (size_t k = 0; k < 36; k++)
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_inquiry, b, k, &h), -EMSGSIZE);
	b[4] = 20; /* ADDITIONAL LENGTH says the data stops before byte 36 */
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_inquiry, b, n, &h), -EMSGSIZE);
	b[4] = 91;
	b[0] = 0x60; /* qualifier 011b: no logical unit */
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_inquiry, b, n, &h), -ENODEV);

	n = fixture("vpd80_serial.hex", b, sizeof(b));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_serial, b, n, &h), 0);
	CHECK_STR(h.serial, "Y1Q0A02KFYVH");
	for (size_t k = 0; k < n; k++)
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_serial, b, k, &h), -EMSGSIZE);
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_devid, b, n, &h), -EINVAL); /* wrong page */

	n = fixture("vpd83_devid.hex", b, sizeof(b));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_devid, b, n, &h), 0);
	CHECK_STR(h.wwn, "0x5000039b48736e9d"); /* smartctl "Logical Unit id" */
	CHECK_EQ_U64(h.scsi.protocol_id, 6);    /* SAS */
	for (size_t k = 0; k < n; k++)
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_devid, b, k, &h), -EMSGSIZE);
	b[7] = 0x20; /* first designator length runs past the page */
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_devid, b, n, &h), -EINVAL);
	b[7] = 8;
	b[17] &= 0x7f; /* no PIV on any descriptor -> protocol identifier unknown */
	b[29] &= 0x7f;
	b[37] &= 0x7f;
	ww_health_t nopiv = { 0 };
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_devid, b, n, &nopiv), 0);
	CHECK_EQ_U64(nopiv.scsi.protocol_id, 0xff);

	n = fixture("vpdb1_bdc.hex", b, sizeof(b));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_bdc, b, n, &h), 0);
	CHECK_EQ_U64(h.scsi.medium_rotation_rate, 10500);
	CHECK_EQ_U64(h.rotation_rate_rpm.value, 10500);

	n = fixture("read_capacity16.hex", b, sizeof(b));
	CHECK_EQ_U64(n, 32);
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_read_capacity16, b, n, &h), 0);
	CHECK_EQ_U64(h.capacity_bytes.value, 600127266816ull); /* smartctl User Capacity */
	CHECK_EQ_U64(h.logical_block_bytes.value, 512);
	CHECK_EQ_U64(h.physical_block_bytes.value, 512);
	for (size_t k = 0; k < n; k++)
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_read_capacity16, b, k, &h), -EMSGSIZE);
	b[13] = 0x03; /* 8 logical per physical: 4096-byte physical blocks */
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_read_capacity16, b, n, &h), 0);
	CHECK_EQ_U64(h.physical_block_bytes.value, 4096);
	memset(b, 0xff, 12); /* last LBA 2^64-1: capacity saturates */
	b[8] = 0, b[9] = 0, b[10] = 2, b[11] = 0;
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_read_capacity16, b, n, &h), 0);
	CHECK(h.capacity_bytes.saturated);
	b[10] = 0; /* block length 0 */
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_read_capacity16, b, n, &h), -EINVAL);

	/* VPD 0x00: 0x89 listed or not */
	uint8_t v0[] = { 0, 0, 0, 4, 0x00, 0x80, 0x83, 0x89 };
	CHECK_EQ_I64(ww_decode_scsi_vpd_pages(v0, sizeof(v0)), 1);
	CHECK_EQ_I64(ww_scsi_vpd_lists(v0, sizeof(v0), 0xb1), 0);
	v0[7] = 0xb1;
	CHECK_EQ_I64(ww_decode_scsi_vpd_pages(v0, sizeof(v0)), 0);
	CHECK_EQ_I64(ww_decode_scsi_vpd_pages(v0, 7), -EMSGSIZE);
}

/* scsi_debug pages captured in the VM (tests/fixtures/vm/sas, expected values
 * from sg_logs/sg_vpd in the guest: README.md and *.txt there). */
static void test_vm_scsi_debug(void)
{
	char dir[4200];
	const char *names[] = { "log-00.bin", "log-0d.bin", "log-0d-01.bin", "log-2f.bin" };
	ww_health_t h = { 0 };
	size_t n;
	uint8_t *b;

	snprintf(dir, sizeof(dir), "%s/vm/sas", fixdir);
	b = ww_read_file(dir, "log-00.bin", &n);
	if (!b) {
		printf("SKIP part: no VM captures in %s\n", dir);
		return;
	}
	free(b);
	for (size_t i = 0; i < 4; i++) {
		b = ww_read_file(dir, names[i], &n);
		CHECK(b != NULL);
		if (b)
			CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, b, n, &h), 0);
		free(b);
	}
	CHECK(ww_scsi_page_supported(&h, 0x0d, 0));
	CHECK(ww_scsi_page_supported(&h, 0x2f, 0));
	CHECK_EQ_I64(h.scsi.temperature_celsius.value, 38);
	CHECK_EQ_I64(h.scsi.reference_temperature_celsius.value, 65);
	CHECK_EQ_I64(h.scsi.env_temperature_celsius.value, 40);
	CHECK_EQ_U64(h.scsi.ie_asc.value, 0);
	CHECK_EQ_I64(h.scsi.ie_temperature_celsius.value, 38);
	ww_scsi_finish(&h);
	/* what smartctl 7.3 printed for this drive (smartctl-x.txt: "Current
	 * temperature = 40", from the environmental subpage) */
	CHECK_EQ_I64(h.temperature_celsius.value, 40);
	CHECK_STR(h.temperature_celsius.source, "SCSI log page 0x0D/0x01 param 0x0000");
	CHECK_EQ_I64(h.smart_status, WW_SMART_PASSED);

	b = ww_read_file(dir, "inquiry.bin", &n);
	if (b) {
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_inquiry, b, n, &h), 0);
		CHECK_STR(h.vendor, "Linux");
		CHECK_STR(h.model, "scsi_debug");
		CHECK_STR(h.firmware, "0191");
	}
	free(b);
	b = ww_read_file(dir, "vpd-80.bin", &n);
	if (b) {
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_serial, b, n, &h), 0);
		CHECK_STR(h.serial, "14000");
	}
	free(b);
	b = ww_read_file(dir, "vpd-83.bin", &n);
	if (b) {
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_devid, b, n, &h), 0);
		CHECK_STR(h.wwn, "0x33333330000036b0"); /* smartctl "Logical Unit id" */
		CHECK_EQ_U64(h.scsi.protocol_id, 6);
	}
	free(b);
	b = ww_read_file(dir, "vpd-b1.bin", &n);
	if (b) {
		CHECK_EQ_I64(decode_exact(ww_decode_scsi_vpd_bdc, b, n, &h), 0);
		CHECK_EQ_U64(h.scsi.medium_rotation_rate, 1); /* "Solid State Device" */
	}
	free(b);
	b = ww_read_file(dir, "vpd-00.bin", &n);
	if (b) /* scsi_debug emulates the ATA Information page too */
		CHECK_EQ_I64(ww_decode_scsi_vpd_pages(b, n), 1);
	free(b);
}

/* Garbage, all-0xFF and all-zero inputs of every length through every decoder:
 * only documented errors, no out-of-bounds reads (run under -DWW_SANITIZE=ON). */
static void test_garbage(void)
{
	int (*const fns[])(const uint8_t *, size_t, ww_health_t *) = {
		ww_decode_scsi_log_page, ww_decode_scsi_inquiry, ww_decode_scsi_vpd_serial,
		ww_decode_scsi_vpd_devid, ww_decode_scsi_vpd_bdc, ww_decode_scsi_read_capacity16,
	};
	unsigned seed = (unsigned)getpid(), bad = 0;
	uint8_t b[600];
	ww_health_t h;

	printf("garbage seed %u\n", seed);
	srand(seed);
	for (int round = 0; round < 3000; round++) {
		size_t len = (size_t)rand() % sizeof(b);
		int mode = round % 3;
		for (size_t i = 0; i < len; i++)
			b[i] = mode == 0 ? 0xff : mode == 1 ? (uint8_t)rand() : 0;
		if (mode == 1 && len >= 4 && rand() % 2) {
			/* plausible header so the parameter walk runs */
			static const uint8_t pages[] = { 0, 2, 3, 5, 0xd, 0xe, 0x11, 0x15, 0x19, 0x2f };
			b[0] = pages[rand() % 10];
			b[1] = 0;
			b[2] = (uint8_t)((len - 4) >> 8);
			b[3] = (uint8_t)(len - 4);
		}
		for (size_t f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
			memset(&h, 0, sizeof(h));
			int rc = decode_exact(fns[f], b, len, &h);
			if (rc != 0 && rc != -EINVAL && rc != -EMSGSIZE && rc != -ENOTSUP && rc != -ENODEV)
				bad++;
			ww_scsi_finish(&h);
		}
		(void)ww_decode_scsi_vpd_pages(b, len);
	}
	CHECK_EQ_U64(bad, 0);
	/* all-0xFF log page with a consistent header: parameter length 0xFF overruns */
	memset(b, 0xff, 64);
	b[0] = 0x02, b[1] = 0, b[2] = 0, b[3] = 60;
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, b, 64, &h), -EINVAL);
	/* all-0xFF buffer: page 0x3F/0xFF with PAGE LENGTH 0xFFFF > buffer */
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, b + 4, 60, &h), -EMSGSIZE);
}

/* Utilization log page 0x0E/0x01 (SBC-4), spec-constructed: our decoder and
 * sg_logs --inhex agree on the Workload Utilization, 3000 = 30.00 %. */
static void test_utilization_sg(void)
{
	uint8_t b[64];
	size_t n = fixture("log_0e01_utilization.hex", b, sizeof(b));
	ww_health_t h;

	memset(&h, 0, sizeof(h));
	CHECK_EQ_U64(n, 16);
	CHECK_EQ_I64(ww_decode_scsi_utilization(b, n, &h), 0);
	CHECK_EQ_U64(h.workload_utilization_centipercent.value, 3000);
	/* sg_logs prints "Workload utilization: 30.00 %": the integer part */
	CHECK_SG("log_0e01_utilization.hex", "Workload utilization", h.workload_utilization_centipercent.value / 100);
	CHECK_EQ_U64(h.workload_utilization_centipercent.value % 100, 0);
}

/* Every integer sg_logs --inhex prints on lines that start (after their
 * indentation) with `label`, in page order (base 0: "0x5000..." works).
 * Returns how many. */
static size_t sg_logs_values(const char *name, const char *label, long long *v, size_t max)
{
	char cmd[4400], line[512];
	size_t n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "sg_logs --inhex='%s/scsi/%s' 2>/dev/null", fixdir, name);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " "), *e;

		if (strncmp(s, label, strlen(label)) != 0)
			continue;
		s = strchr(s, '=');
		if (s && n < max) {
			v[n] = strtoll(s + 1, &e, 0);
			n += e != s + 1;
		}
	}
	pclose(f);
	return n;
}

/* Each phy's field against the sg_logs figure of the same label, in order. */
#define CHECK_SG_PHYS(file, label, h, member)                                  \
	do {                                                                   \
		long long sv_[WW_SCSI_MAX_SAS_PHYS];                           \
		if (have_sg_logs) {                                            \
			size_t n_ = sg_logs_values(file, label, sv_, WW_SCSI_MAX_SAS_PHYS); \
			CHECK_EQ_U64(n_, (h).scsi.n_sas_phys);                 \
			for (size_t i_ = 0; i_ < n_ && i_ < (h).scsi.n_sas_phys; i_++) \
				CHECK_EQ_I64((long long)(h).scsi.sas_phys[i_].member, sv_[i_]); \
		}                                                              \
	} while (0)

static void check_sas_vs_sg_logs(const char *file, const ww_health_t *h)
{
	CHECK_SG_PHYS(file, "phy identifier", *h, phy);
	CHECK_SG_PHYS(file, "SAS address", *h, sas_address);
	CHECK_SG_PHYS(file, "Invalid DWORD count", *h, invalid_dwords);
	CHECK_SG_PHYS(file, "Running disparity error count", *h, running_disparity_errors);
	CHECK_SG_PHYS(file, "Loss of DWORD synchronization", *h, loss_of_dword_sync);
	CHECK_SG_PHYS(file, "Phy reset problem", *h, phy_reset_problems);
}

/* Protocol Specific Port log page for SAS (0x18), spec-constructed: the
 * Toshiba AL15SEB060N's two ports as its smartctl -x prints them, and a wide
 * port with distinct counters; values from sg_logs --inhex (the comments of
 * the fixtures), which must print the same when installed. */
static void test_sas_port(void)
{
	ww_health_t h = { 0 }, w = { 0 };
	const ww_sas_phy_t *p = h.scsi.sas_phys, *q = w.scsi.sas_phys;

	CHECK_EQ_I64(decode_log("log_18_sas_port.hex", &h), 0);
	CHECK_STR(h.scsi.sas_phys_source, "SCSI log page 0x18 SAS phy log descriptors");
	CHECK_EQ_U64(h.scsi.n_sas_phys, 2);
	CHECK_EQ_U64(p[0].port, 1);
	CHECK_EQ_U64(p[0].phy, 0);
	CHECK_EQ_U64(p[0].sas_address, 0x5000039b48736e9eull);
	CHECK_EQ_U64(p[0].invalid_dwords, 16);
	CHECK_EQ_U64(p[0].running_disparity_errors, 16);
	CHECK_EQ_U64(p[0].loss_of_dword_sync, 4);
	CHECK_EQ_U64(p[0].phy_reset_problems, 0);
	CHECK_EQ_U64(p[1].port, 2);
	CHECK_EQ_U64(p[1].phy, 1);
	CHECK_EQ_U64(p[1].sas_address, 0x5000039b48736e9full);
	CHECK_EQ_U64(p[1].invalid_dwords + p[1].running_disparity_errors +
		     p[1].loss_of_dword_sync + p[1].phy_reset_problems, 0);
	check_sas_vs_sg_logs("log_18_sas_port.hex", &h);
	if (have_sg_logs) {
		long long ports[4];
		CHECK_EQ_U64(sg_logs_values("log_18_sas_port.hex", "relative target port id",
					    ports, 4), 2);
		CHECK_EQ_I64(ports[0], p[0].port);
		CHECK_EQ_I64(ports[1], p[1].port);
	}
	/* a second read replaces the list */
	CHECK_EQ_I64(decode_log("log_18_sas_port.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.n_sas_phys, 2);

	CHECK_EQ_I64(decode_log("log_18_sas_wide_port.hex", &w), 0);
	CHECK_EQ_U64(w.scsi.n_sas_phys, 2);
	CHECK(q[0].port == 1 && q[1].port == 1 && q[0].phy == 4 && q[1].phy == 5);
	CHECK_EQ_U64(q[0].invalid_dwords, 16909060);
	CHECK_EQ_U64(q[0].running_disparity_errors, 258);
	CHECK_EQ_U64(q[0].loss_of_dword_sync, 7);
	CHECK_EQ_U64(q[0].phy_reset_problems, 3);
	CHECK_EQ_U64(q[1].invalid_dwords, 70000); /* descriptor length 0: 48 bytes */
	CHECK_EQ_U64(q[1].running_disparity_errors, 12);
	CHECK_EQ_U64(q[1].loss_of_dword_sync, 0);
	CHECK_EQ_U64(q[1].phy_reset_problems, 1);
	check_sas_vs_sg_logs("log_18_sas_wide_port.hex", &w);
}

/* Page 0x18 bounds: 2 ports x 5 phys keep 8 and count 2; a port of another
 * protocol is skipped; a descriptor past its parameter is refused. */
static void test_sas_port_bounds(void)
{
	static uint8_t b[4 + 3 * 248];
	ww_health_t h = { 0 }, ref;
	size_t n = 4;

	for (int port = 1; port <= 3; port++) {
		/* parameter: code, control 03h, length 244; protocol, gen, phys */
		uint8_t hdr[8] = { 0, (uint8_t)port, 0x03, 244, port == 3 ? 0x00 : 0x06, 0, 0, 5 };

		memcpy(b + n, hdr, sizeof(hdr));
		n += sizeof(hdr);
		for (int k = 0; k < 5; k++, n += 48) {
			b[n + 1] = (uint8_t)(port * 10 + k); /* phy identifier */
			b[n + 3] = 44;
			b[n + 35] = (uint8_t)(port * 10 + k); /* invalid dwords */
		}
	}
	b[0] = 0x18;
	b[2] = (uint8_t)((n - 4) >> 8);
	b[3] = (uint8_t)(n - 4);
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, b, n, &h), 0);
	CHECK_EQ_U64(h.scsi.n_sas_phys, WW_SCSI_MAX_SAS_PHYS);
	CHECK_EQ_U64(h.scsi.n_sas_phys_dropped, 2);
	CHECK_EQ_U64(h.scsi.sas_phys[7].port, 2);
	CHECK_EQ_U64(h.scsi.sas_phys[7].phy, 22);
	CHECK_EQ_U64(h.scsi.sas_phys[7].invalid_dwords, 22);
	/* the last descriptor of port 1 says 60 bytes: past its parameter */
	b[4 + 8 + 4 * 48 + 3] = 56;
	memcpy(&ref, &h, sizeof(h));
	CHECK_EQ_I64(decode_exact(ww_decode_scsi_log_page, b, n, &h), -EINVAL);
	CHECK(memcmp(&h, &ref, sizeof(h)) == 0);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures", src ? src : ".");
	have_sg_logs = system("command -v sg_logs >/dev/null 2>&1") == 0;
	if (!have_sg_logs)
		printf("SKIP part: sg_logs not installed, no cross-check against sg_logs --inhex\n");

	test_error_counters();
	test_temperature();
	test_other_pages();
	test_supported();
	test_finish();
	test_iterator_and_counters();
	static const char *const files[] = {
		"log_00_supported.hex",     "log_00ff_supported_subpages.hex",
		"log_02_write_errors.hex",  "log_03_read_errors.hex",
		"log_05_verify_errors.hex", "log_0d_temperature.hex",
		"log_0d01_environment.hex", "log_0e_start_stop.hex",
		"log_06_non_medium.hex",    "log_11_ssm.hex",
		"log_15_bg_scan.hex",       "log_19_gen_stats.hex",
		"log_2f_ie_ok.hex",         "log_2f_ie_failing.hex",
		"log_18_sas_port.hex",      "log_18_sas_wide_port.hex",
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		check_truncations(files[i]);
	test_identity();
	test_vm_scsi_debug();
	test_garbage();
	test_utilization_sg();
	test_sas_port();
	test_sas_port_bounds();
	return ww_test_done("test_decode_scsi");
}
