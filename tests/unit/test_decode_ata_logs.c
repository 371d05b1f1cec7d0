/* ATA error and self-test logs, Device Statistics entries and the SATA link
 * speed (src/decode/ata_logs.c, ata.c, ata_names.c).
 *
 * Inputs are spec-constructed sectors in tests/fixtures/ata (ACS-4 layouts;
 * each file's comment names the clause and the real drive whose values it
 * carries) whose expected values are what smartctl printed for those drives:
 *  - hitachi-hds721050dle630-{selftest,errorlog}.hex: scrutiny
 *    smart-fail2.json (smartctl 7.1 --json): self-test count 21,
 *    error_count_total 3, table[0] short offline completed at 42 h, the
 *    newest read failure at LBA 104870168; error log count 56, logged 5;
 *  - hgst-huh721010aln600-{xselftest,xerror}.hex: the linuxhw
 *    HUH721010ALN600 smartctl -x text: 3 tests, the newest extended offline at
 *    521 h; "No Errors Logged";
 *  - samsung-860evo-devstat-*.hex: smart-ata-full.json
 *    ata_device_statistics, every entry with smartctl's name.
 * No independent decoder reads these logs from a file (smartctl and
 * sg_sat_read_gplog need a device), hence the sources' printed values. The
 * IDENTIFY words 76/77 figures are smartctl's JSON interface_speed for the
 * same encodings (sata_value 14 max, 3 current: 6.0 Gb/s). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "ww_test.h"

static char fixdir[4096];

static void load(const char *name, uint8_t *b)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/ata/%s", fixdir, name);
	memset(b, 0, 512);
	CHECK_EQ_U64(ww_load_hex(p, b, 512), 512);
}

static void test_selftest(void)
{
	uint8_t b[512];
	ww_health_t h = { 0 };
	const ww_selftest_log_t *l = &h.self_tests[WW_SELFTEST_ATA_STANDARD];

	load("hitachi-hds721050dle630-selftest.hex", b);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK_EQ_U64(l->entries, 21);
	CHECK_EQ_U64(l->failed, 3);
	CHECK(l->has_last && l->last_passed == 1 && l->last_status == 0);
	CHECK_EQ_U64(l->last_hours, 42);
	CHECK(l->has_failing_lba);
	CHECK_EQ_U64(l->failing_lba, 104870168);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 511, &h), -EMSGSIZE);
	/* index 0: nothing logged */
	b[508] = 0;
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK_EQ_U64(l->entries, 0);
	CHECK(!l->has_last);

	load("hgst-huh721010aln600-xselftest.hex", b);
	CHECK_EQ_I64(ww_decode_ata_xselftest_log(b, 512, &h), 0);
	l = &h.self_tests[WW_SELFTEST_ATA_EXTENDED];
	CHECK_EQ_U64(l->entries, 3);
	CHECK_EQ_U64(l->failed, 0);
	CHECK(l->last_passed == 1);
	CHECK_EQ_U64(l->last_hours, 521);
	b[0] = 2; /* not version 01h */
	CHECK_EQ_I64(ww_decode_ata_xselftest_log(b, 512, &h), -EINVAL);
}

static void test_error_logs(void)
{
	uint8_t b[512];
	ww_health_t h = { 0 };

	load("hitachi-hds721050dle630-errorlog.hex", b);
	CHECK_EQ_I64(ww_decode_ata_error_log(b, 512, &h), 0);
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_ATA_SUMMARY].count, 56);
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_ATA_SUMMARY].entries, 5);
	load("hgst-huh721010aln600-xerror.hex", b);
	CHECK_EQ_I64(ww_decode_ata_xerror_log(b, 512, &h), 0);
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_ATA_EXTENDED].count, 0);
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_ATA_EXTENDED].entries, 0);
	CHECK_EQ_I64(ww_decode_ata_xerror_log(b, 100, &h), -EMSGSIZE);
}

/* every Device Statistics entry of the Samsung's pages, smartctl's names */
static void test_devstats(void)
{
	static const struct { uint8_t page; uint16_t off; int64_t v; const char *name; } want[] = {
		{ 1, 0x08, 13, "Lifetime Power-On Resets" },
		{ 1, 0x10, 14551, "Power-on Hours" },
		{ 1, 0x18, 64777770148, "Logical Sectors Written" },
		{ 4, 0x10, 32, "Resets Between Cmd Acceptance and Completion" },
		{ 5, 0x08, 36, "Current Temperature" },
		{ 5, 0x20, 57, "Highest Temperature" },
		{ 6, 0x08, 133, "Number of Hardware Resets" },
		{ 7, 0x08, 19, "Percentage Used Endurance Indicator" },
	};
	static const char *const files[] = { "samsung-860evo-devstat-p1.hex",
		"samsung-860evo-devstat-p4.hex", "samsung-860evo-devstat-p5.hex",
		"samsung-860evo-devstat-p6.hex", "samsung-860evo-devstat-p7.hex" };
	ww_health_t h = { 0 };
	uint8_t b[512];

	for (size_t i = 0; i < 5; i++) {
		load(files[i], b);
		CHECK_EQ_I64(ww_decode_ata_devstat(b, 512, &h), 0);
	}
	CHECK_EQ_U64(h.ata.n_devstats, 17);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool found = false;

		for (size_t k = 0; k < h.ata.n_devstats; k++)
			if (h.ata.devstats[k].page == want[i].page &&
			    h.ata.devstats[k].offset == want[i].off) {
				found = true;
				CHECK_EQ_I64(h.ata.devstats[k].value, want[i].v);
				CHECK_STR(ww_ata_devstat_name(want[i].page, want[i].off, NULL),
					  want[i].name);
			}
		CHECK(found);
	}
	/* reading a page again replaces its entries */
	load("samsung-860evo-devstat-p6.hex", b);
	CHECK_EQ_I64(ww_decode_ata_devstat(b, 512, &h), 0);
	CHECK_EQ_U64(h.ata.n_devstats, 17);
	CHECK(ww_ata_devstat_name(1, 0x40, NULL) == NULL);
	CHECK(ww_ata_devstat_name(8, 0x08, NULL) == NULL);
	CHECK_STR(ww_ata_devstat_page_name(3), "Rotating Media Statistics");
}

/* IDENTIFY words 76/77 as smartctl reads them (JSON interface_speed) */
static void test_sata_speed(void)
{
	uint8_t id[512] = { 0 };
	ww_health_t h = { 0 };

	id[2 * 76] = 14; /* Gen1-3: max 6.0 Gb/s, smartctl sata_value 14 */
	id[2 * 77] = 3 << 1; /* current Gen3 */
	CHECK_EQ_I64(ww_decode_ata_identify(id, 512, &h), 0);
	CHECK_EQ_U64(h.link.max_bps.value, 6000000000ull);
	CHECK_EQ_U64(h.link.current_bps.value, 6000000000ull);
	memset(&h, 0, sizeof(h));
	id[2 * 76] = 6;      /* Gen1-2: 3.0 Gb/s (sata_value 6) */
	id[2 * 77] = 1 << 1; /* current Gen1: 1.5 Gb/s (smart-fail2.json) */
	CHECK_EQ_I64(ww_decode_ata_identify(id, 512, &h), 0);
	CHECK_EQ_U64(h.link.max_bps.value, 3000000000ull);
	CHECK_EQ_U64(h.link.current_bps.value, 1500000000ull);
	memset(&h, 0, sizeof(h));
	id[2 * 76] = id[2 * 76 + 1] = 0xff; /* not reported */
	id[2 * 77] = 0;
	CHECK_EQ_I64(ww_decode_ata_identify(id, 512, &h), 0);
	CHECK(!WW_HAS(h.link.max_bps) && !WW_HAS(h.link.current_bps));
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures", src ? src : ".");
	test_selftest();
	test_error_logs();
	test_devstats();
	test_sata_speed();
	return ww_test_done("test_decode_ata_logs");
}
