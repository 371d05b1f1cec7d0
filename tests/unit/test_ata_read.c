/* ww_read_ata through a fake SAT transport, fixture-free. The fake device
 * answers from SPEC-CONSTRUCTED sectors (IDENTIFY/SMART built here,
 * Device Statistics pages from tests/fixtures/ata/samsung-860evo-*.hex and
 * hgst-*-gplogdir.hex). Asserts the power rule (nothing after CHECK POWER
 * MODE on standby), that only read commands go out, and what gets decoded. */
#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/collect.h"
#include "test_ata_fake.h"

#include "test_ata_device.h"

/* Every CDB the fake saw is an ATA PASS-THROUGH(16) of a read command. */
static int only_reads(const fake_ata_t *f)
{
	int bad = 0;

	for (size_t i = 0; i < f->n_cdbs; i++) {
		const uint8_t *c = f->cdbs[i];

		bad += c[0] != 0x85;
		switch (c[14]) {
		case 0xe5: case 0xec: case 0x2f:
			bad += c[4] != 0;
			break;
		case 0xb0:
			bad += c[4] != 0xd0 && c[4] != 0xd1 && c[4] != 0xda;
			break;
		default:
			bad++;
		}
	}
	return bad;
}

static void test_standby(int mode)
{
	fake_ata_t f;
	ww_xport_t x;
	static ww_health_t h;
	ww_read_report_t r;

	device(&f, mode);
	fake_xport(&x, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK(ww_read_ata(&x, NULL, &h, &r) == 0);
	CHECK(r.standby);
	CHECK_EQ_U64(f.n_cdbs, 1);
	CHECK_EQ_U64(f.cdbs[0][14], 0xe5);
	CHECK_EQ_U64(r.n_cmds, 1);
	CHECK_STR(r.cmds[0].what, "CHECK POWER MODE");
	CHECK(h.ata.has_power_mode && h.ata.power_mode == mode);
	CHECK(h.model[0] == '\0');
}

static void test_active(int fixed)
{
	/* opcode / feature / log address sequence expected from collect.h's order */
	static const uint8_t want[][3] = {
		{ 0xe5, 0, 0 }, { 0xec, 0, 0 }, { 0xb0, 0xda, 0 }, { 0xb0, 0xd0, 0 },
		{ 0xb0, 0xd1, 0 }, { 0x2f, 0, 0x00 }, { 0x2f, 0, 0x04 }, { 0x2f, 0, 0x04 },
		{ 0x2f, 0, 0x04 }, { 0x2f, 0, 0x04 },
	};
	static const uint8_t want_page[] = { 0, 0, 0, 0, 0, 0, 0, 1, 5, 7 };
	fake_ata_t f;
	ww_xport_t x;
	static ww_health_t h;
	ww_read_report_t r;

	device(&f, 0xff);
	f.fixed_sense = fixed;
	fake_xport(&x, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK(ww_read_ata(&x, NULL, &h, &r) == 0);
	CHECK(!r.standby);
	CHECK_EQ_U64(only_reads(&f), 0);
	CHECK_EQ_U64(f.n_cdbs, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < f.n_cdbs && i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK_EQ_U64(f.cdbs[i][14], want[i][0]);
		CHECK_EQ_U64(f.cdbs[i][4], want[i][1]);
		if (want[i][0] == 0x2f) {
			CHECK_EQ_U64(f.cdbs[i][8], want[i][2]);
			CHECK_EQ_U64(f.cdbs[i][10], want_page[i]);
		}
	}
	CHECK_EQ_U64(r.n_cmds, f.n_cdbs);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_unsupported, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_STR(h.model, "SPEC SATA SSD");
	CHECK(h.smart_status == WW_SMART_PASSED);
	CHECK_EQ_U64(h.ata.n_attrs, 3);
	CHECK(h.ata.attrs[0].has_threshold && h.ata.attrs[0].threshold == 0);
	/* devstat values (Samsung 860 EVO, scrutiny smart-ata-full.json) win */
	CHECK_EQ_U64(h.host_written_bytes.value, 33166218315776ull);
	CHECK_EQ_U64(h.power_on_seconds.value, 14551ull * 3600);
	CHECK_EQ_I64(h.temperature_celsius.value, 36);
	CHECK_EQ_U64(h.endurance_used_percent.value, 19);
	CHECK_EQ_U64(h.power_cycles.value, 13);
}

static void test_unsupported(void)
{
	fake_ata_t f;
	ww_xport_t x;
	static ww_health_t h;
	ww_read_report_t r;

	/* no power mode, SMART RETURN STATUS and READ LOG EXT abort: unsupported,
	 * not errors; attributes still read, #9 fallback used */
	device(&f, -1);
	f.smart_status = -1;
	f.log_dir = NULL;
	fake_xport(&x, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK(ww_read_ata(&x, NULL, &h, &r) == 0);
	CHECK_EQ_U64(only_reads(&f), 0);
	CHECK_EQ_U64(r.n_unsupported, 3);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK(!h.ata.has_power_mode);
	CHECK(h.smart_status == WW_SMART_UNKNOWN);
	CHECK_EQ_U64(h.power_on_seconds.value, 14551ull * 3600);
	CHECK(strstr(h.power_on_seconds.source, "attribute 9") != NULL);
	CHECK(!WW_HAS(h.host_written_bytes));

	/* SMART failed */
	device(&f, 0x80);
	f.smart_status = 0;
	fake_xport(&x, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK(ww_read_ata(&x, NULL, &h, &r) == 0);
	CHECK(h.smart_status == WW_SMART_FAILED);

	/* IDENTIFY aborted: reader fails, nothing else sent */
	device(&f, 0xff);
	f.identify = NULL;
	fake_xport(&x, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK(ww_read_ata(&x, NULL, &h, &r) < 0);
	CHECK_EQ_U64(f.n_cdbs, 2);
}

int main(void)
{
	build();
	test_standby(0x00);
	test_standby(0x01);
	test_active(0);
	test_active(1);
	test_unsupported();
	return ww_test_done("test_ata_read");
}
