/* ww_read_ata through the replay-backed fake device (ww_fake_device.h),
 * fixture-free. The drive answers from SPEC-CONSTRUCTED sectors
 * (ww_ata_spec_drive.h: IDENTIFY/SMART built there, Device Statistics pages
 * from tests/fixtures/ata/samsung-860evo-*.hex and hgst-*-gplogdir.hex) and
 * SAT-4 register sense for the non-data commands. Asserts the power rule
 * (nothing after CHECK POWER MODE on standby), that only read commands go
 * out, and what gets decoded. */
#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/collect.h"
#include "ww_fake_device.h"
#include "ww_ata_sectors.h"

#include "ww_ata_spec_drive.h"

/* Read drive `d` through the fake; f stays open (ww_fake_sent done) for the
 * caller to look at what was sent. Returns ww_read_ata's result. */
static int read_drive(const ww_sat_drive_t *d, ww_fake_t *f, ww_health_t *h,
		      ww_read_report_t *r)
{
	ww_cap_t c;
	int rc;

	ww_cap_open(&c);
	ww_cap_sat_drive(&c, d);
	rc = ww_fake_open_cap(f, &c);
	ww_cap_free(&c);
	CHECK_EQ_I64(rc, 0);
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	rc = ww_read_ata(&f->x, NULL, h, r);
	ww_fake_sent(f);
	return rc;
}

/* Every CDB the drive saw is an ATA PASS-THROUGH(16) of a read command. */
static int only_reads(const ww_fake_t *f)
{
	int bad = 0;

	for (size_t i = 0; i < f->n_sent; i++) {
		const uint8_t *c = f->cdbs[i];

		bad += c[0] != 0x85;
		switch (c[14]) {
		case 0xe5: case 0xec: case 0x2f:
			bad += c[4] != 0;
			break;
		case 0xb0:
			bad += c[4] != 0xd0 && c[4] != 0xd1 && c[4] != 0xd5 && c[4] != 0xda;
			break;
		default:
			bad++;
		}
	}
	return bad;
}

static void test_standby(int mode)
{
	ww_sat_drive_t dev;
	ww_fake_t f;
	static ww_health_t h;
	ww_read_report_t r;

	device(&dev, mode);
	CHECK(read_drive(&dev, &f, &h, &r) == 0);
	CHECK(r.standby);
	CHECK_EQ_U64(f.n_sent, 1);
	CHECK_EQ_U64(f.cdbs[0][14], 0xe5);
	CHECK_EQ_U64(r.n_cmds, 1);
	CHECK_STR(r.cmds[0].what, "CHECK POWER MODE");
	CHECK(h.ata.has_power_mode && h.ata.power_mode == mode);
	CHECK(h.model[0] == '\0');
	ww_fake_close(&f);
}

static void test_active(int fixed)
{
	/* opcode / feature / log address sequence expected from collect.h's order */
	static const uint8_t want[][3] = {
		{ 0xe5, 0, 0 }, { 0xec, 0, 0 }, { 0xb0, 0xda, 0 }, { 0xb0, 0xd0, 0 },
		{ 0xb0, 0xd1, 0 }, { 0x2f, 0, 0x00 }, { 0x2f, 0, 0x04 }, { 0x2f, 0, 0x04 },
		{ 0x2f, 0, 0x04 }, { 0x2f, 0, 0x04 }, { 0x2f, 0, 0x04 }, { 0x2f, 0, 0x04 },
		{ 0x2f, 0, 0x03 }, { 0x2f, 0, 0x07 },
	};
	/* Device Statistics: every page page 0 lists (1, 4, 5, 6, 7); then the
	 * extended error and self-test logs the GP log directory lists */
	static const uint8_t want_page[] = { 0, 0, 0, 0, 0, 0, 0, 1, 4, 5, 6, 7, 0, 0 };
	ww_sat_drive_t dev;
	ww_fake_t f;
	static ww_health_t h;
	ww_read_report_t r;

	device(&dev, 0xff);
	dev.fixed_sense = fixed;
	CHECK(read_drive(&dev, &f, &h, &r) == 0);
	CHECK(!r.standby);
	CHECK_EQ_U64(only_reads(&f), 0);
	CHECK_EQ_U64(f.n_sent, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < f.n_sent && i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK_EQ_U64(f.cdbs[i][14], want[i][0]);
		CHECK_EQ_U64(f.cdbs[i][4], want[i][1]);
		if (want[i][0] == 0x2f) {
			CHECK_EQ_U64(f.cdbs[i][8], want[i][2]);
			CHECK_EQ_U64(f.cdbs[i][10], want_page[i]);
		}
	}
	CHECK_EQ_U64(r.n_cmds, f.n_sent);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_unsupported, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_STR(h.model, "SPEC SATA SSD");
	CHECK(h.smart_status == WW_SMART_PASSED);
	CHECK_EQ_U64(h.ata.n_attrs, 3);
	CHECK(h.ata.attrs[0].has_threshold && h.ata.attrs[0].threshold == 0);
	/* devstat values (Samsung 860 EVO, scrutiny smart-ata-full.json) win */
	CHECK_EQ_U64(h.host_written_bytes.value, 33166218315776ull);
	/* every listed Device Statistics page: smartctl's 17 entries of that JSON */
	CHECK_EQ_U64(h.ata.n_devstats, 17);
	/* the HGST's extended logs (linuxhw smartctl -x text): 3 tests, no error,
	 * the newest an extended offline test at 521 hours; no errors logged */
	CHECK_EQ_U64(h.self_tests[WW_SELFTEST_ATA_EXTENDED].entries, 3);
	CHECK_EQ_U64(h.self_tests[WW_SELFTEST_ATA_EXTENDED].failed, 0);
	CHECK_EQ_U64(h.self_tests[WW_SELFTEST_ATA_EXTENDED].last_hours, 521);
	CHECK(h.self_tests[WW_SELFTEST_ATA_EXTENDED].last_passed == 1);
	CHECK(h.error_logs[WW_ERRLOG_ATA_EXTENDED].source != NULL);
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_ATA_EXTENDED].count, 0);
	CHECK(!h.self_tests[WW_SELFTEST_ATA_STANDARD].source); /* extended read instead */
	CHECK_EQ_U64(h.power_on_seconds.value, 14551ull * 3600);
	CHECK_EQ_I64(h.temperature_celsius.value, 36);
	CHECK_EQ_U64(h.endurance_used_percent.value, 19);
	CHECK_EQ_U64(h.power_cycles.value, 13);
	ww_fake_close(&f);
}

static void test_unsupported(void)
{
	ww_sat_drive_t dev;
	ww_fake_t f;
	static ww_health_t h;
	ww_read_report_t r;

	/* no power mode, SMART RETURN STATUS and READ LOG EXT abort: unsupported,
	 * not errors; attributes still read, #9 fallback used */
	device(&dev, -1);
	dev.smart_status = -1;
	dev.log_dir = NULL;
	CHECK(read_drive(&dev, &f, &h, &r) == 0);
	CHECK_EQ_U64(only_reads(&f), 0);
	CHECK_EQ_U64(r.n_unsupported, 3);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK(!h.ata.has_power_mode);
	CHECK(h.smart_status == WW_SMART_UNKNOWN);
	CHECK_EQ_U64(h.power_on_seconds.value, 14551ull * 3600);
	CHECK(strstr(h.power_on_seconds.source, "attribute 9") != NULL);
	CHECK(!WW_HAS(h.host_written_bytes));
	ww_fake_close(&f);

	/* SMART failed */
	device(&dev, 0x80);
	dev.smart_status = 0;
	CHECK(read_drive(&dev, &f, &h, &r) == 0);
	CHECK(h.smart_status == WW_SMART_FAILED);
	ww_fake_close(&f);

	/* IDENTIFY aborted: reader fails, nothing else sent */
	device(&dev, 0xff);
	dev.identify = NULL;
	CHECK(read_drive(&dev, &f, &h, &r) < 0);
	CHECK_EQ_U64(f.n_sent, 2);
	ww_fake_close(&f);
}

int main(void)
{
	build();
	test_standby(0x00);
	test_standby(0x01);
	test_active(0);
	test_active(1);
	test_unsupported();
	return ww_test_done("test_collect_read_ata");
}
