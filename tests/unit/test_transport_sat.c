/* SAT layer, fixture-free. All sense bytes and CDBs below are SPEC-CONSTRUCTED
 * by hand from the SAT-4 layouts (ATA Status Return descriptor 09h; fixed
 * format ATA PASS-THROUGH sense; ATA PASS-THROUGH(16) CDB) and the ACS-4
 * register values (CHECK POWER MODE count, SMART RETURN STATUS LBA mid/high),
 * not captured from a device. */
#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "ww_fake_device.h"

/* descriptor format, RECOVERED ERROR, ASC/ASCQ 00h/1Dh, one 09h descriptor */
static const uint8_t desc_power_active[] = {
	0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 0x0e,
	0x09, 0x0c, 0x00, /*err*/ 0x00, /*cnt hi*/ 0x00, /*cnt*/ 0xff,
	/*lba 31:24*/ 0, /*7:0*/ 0, /*39:32*/ 0, /*15:8*/ 0, /*47:40*/ 0, /*23:16*/ 0,
	/*dev*/ 0x00, /*status*/ 0x50,
};
static const uint8_t desc_power_standby[] = {
	0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 0x0e,
	0x09, 0x0c, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x50,
};
static const uint8_t desc_smart_passed[] = {
	0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 0x0e,
	0x09, 0x0c, 0x00, 0x00, 0x00, 0x00, 0, 0x00, 0, 0x4f, 0, 0xc2, 0xa0, 0x50,
};
static const uint8_t desc_smart_failed[] = {
	0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 0x0e,
	0x09, 0x0c, 0x00, 0x00, 0x00, 0x00, 0, 0x00, 0, 0xf4, 0, 0x2c, 0xa0, 0x50,
};
/* an information descriptor (00h, 10 bytes) before the ATA descriptor, and
 * EXTEND set with a 48-bit LBA 0x665544332211 and count 0x1234 */
static const uint8_t desc_extend_second[] = {
	0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 0x1a,
	0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x09, 0x0c, 0x01, 0x00, 0x12, 0x34, 0x44, 0x11, 0x55, 0x22, 0x66, 0x33, 0x40, 0x50,
};
/* fixed format: INFORMATION = error, status, device, count; CSI = flags, LBA */
static const uint8_t fixed_power_active[] = {
	0x70, 0, 0x01, /*err*/ 0x00, /*status*/ 0x50, /*dev*/ 0x00, /*count*/ 0xff, 0x0a,
	/*flags*/ 0x00, /*lba 7:0*/ 0, /*15:8*/ 0, /*23:16*/ 0, 0x00, 0x1d, 0, 0, 0, 0,
};
static const uint8_t fixed_power_standby[] = {
	0x70, 0, 0x01, 0x00, 0x50, 0x00, 0x00, 0x0a, 0x00, 0, 0, 0, 0x00, 0x1d, 0, 0, 0, 0,
};
static const uint8_t fixed_smart_passed[] = {
	0x70, 0, 0x01, 0x00, 0x50, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x4f, 0xc2, 0x00, 0x1d, 0, 0, 0, 0,
};
static const uint8_t fixed_smart_failed[] = {
	0x70, 0, 0x01, 0x00, 0x50, 0x00, 0x00, 0x0a, 0xe0, 0x00, 0xf4, 0x2c, 0x00, 0x1d, 0, 0, 0, 0,
};
/* ABORTED COMMAND with the ATA error register's ABRT bit (libata's path) */
static const uint8_t fixed_aborted[] = {
	0x70, 0, 0x0b, 0x04, 0x51, 0x00, 0x00, 0x0a, 0x00, 0, 0, 0, 0x00, 0x00, 0, 0, 0, 0,
};
/* ILLEGAL REQUEST / INVALID FIELD IN CDB: no ATA registers in it */
static const uint8_t fixed_invalid_field[] = {
	0x70, 0, 0x05, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x24, 0x00, 0, 0, 0, 0,
};

static void test_parse(void)
{
	ww_ata_regs_t r;

	CHECK(ww_sat_parse_sense(desc_power_active, sizeof(desc_power_active), &r) == 0);
	CHECK_EQ_U64(r.count, 0xff);
	CHECK_EQ_U64(r.status, 0x50);
	CHECK(!r.fixed_format);
	CHECK(!ww_sat_power_mode_is_standby((uint8_t)r.count));
	CHECK(ww_sat_parse_sense(desc_power_standby, sizeof(desc_power_standby), &r) == 0);
	CHECK_EQ_U64(r.count, 0x00);
	CHECK(ww_sat_power_mode_is_standby((uint8_t)r.count));

	CHECK(ww_sat_parse_sense(desc_smart_passed, sizeof(desc_smart_passed), &r) == 0);
	CHECK_EQ_U64(r.lba, 0xc24f00);
	CHECK_EQ_U64(r.device, 0xa0);
	CHECK(ww_decode_ata_smart_status(r.lba) == WW_SMART_PASSED);
	CHECK(ww_sat_parse_sense(desc_smart_failed, sizeof(desc_smart_failed), &r) == 0);
	CHECK(ww_decode_ata_smart_status(r.lba) == WW_SMART_FAILED);

	CHECK(ww_sat_parse_sense(desc_extend_second, sizeof(desc_extend_second), &r) == 0);
	CHECK(r.extend);
	CHECK_EQ_U64(r.count, 0x1234);
	CHECK_EQ_U64(r.lba, 0x665544332211ull);
	CHECK_EQ_U64(r.device, 0x40);

	CHECK(ww_sat_parse_sense(fixed_power_active, sizeof(fixed_power_active), &r) == 0);
	CHECK(r.fixed_format);
	CHECK_EQ_U64(r.count, 0xff);
	CHECK_EQ_U64(r.status, 0x50);
	CHECK(ww_sat_parse_sense(fixed_power_standby, sizeof(fixed_power_standby), &r) == 0);
	CHECK(ww_sat_power_mode_is_standby((uint8_t)r.count));
	CHECK(ww_sat_parse_sense(fixed_smart_passed, sizeof(fixed_smart_passed), &r) == 0);
	CHECK(ww_decode_ata_smart_status(r.lba) == WW_SMART_PASSED);
	CHECK(ww_sat_parse_sense(fixed_smart_failed, sizeof(fixed_smart_failed), &r) == 0);
	CHECK(ww_decode_ata_smart_status(r.lba) == WW_SMART_FAILED);
	CHECK(r.extend && r.count_upper_nonzero && r.lba_upper_nonzero);
	CHECK(ww_sat_parse_sense(fixed_aborted, sizeof(fixed_aborted), &r) == 0);
	CHECK_EQ_U64(r.status, 0x51);
	CHECK_EQ_U64(r.error, 0x04);
	CHECK(ww_sat_parse_sense(fixed_invalid_field, sizeof(fixed_invalid_field), &r) == -ENOENT);

	/* power modes (ACS-4 CHECK POWER MODE normal outputs) */
	CHECK(ww_sat_power_mode_is_standby(0x01));
	CHECK(!ww_sat_power_mode_is_standby(0x80));
	CHECK(!ww_sat_power_mode_is_standby(0x81));

	/* cut short: the 09h descriptor is incomplete */
	CHECK(ww_sat_parse_sense(desc_smart_passed, 20, &r) == -EMSGSIZE);
	CHECK(ww_sat_parse_sense(desc_smart_passed, 5, &r) == -EMSGSIZE);
	CHECK(ww_sat_parse_sense(fixed_smart_passed, 13, &r) == -EMSGSIZE);
	CHECK(ww_sat_parse_sense(desc_smart_passed, 0, &r) == -ENOENT);
	CHECK(ww_sat_parse_sense(NULL, 10, &r) == -EINVAL);
	/* only a non-ATA descriptor: nothing to return */
	CHECK(ww_sat_parse_sense(desc_extend_second, 18, &r) == -ENOENT);

	/* every prefix of every sample parses or fails cleanly */
	const uint8_t *all[] = { desc_power_active, desc_smart_failed, desc_extend_second,
				 fixed_smart_failed, fixed_aborted };
	const size_t lens[] = { sizeof(desc_power_active), sizeof(desc_smart_failed),
				sizeof(desc_extend_second), sizeof(fixed_smart_failed),
				sizeof(fixed_aborted) };
	int bad = 0;
	for (size_t i = 0; i < 5; i++)
		for (size_t n = 0; n < lens[i]; n++) {
			int rc = ww_sat_parse_sense(all[i], n, &r);
			bad += !(rc == 0 || rc == -ENOENT || rc == -EMSGSIZE);
		}
	CHECK(bad == 0);
	/* garbage descriptors with lengths pointing past the end */
	uint8_t g[64];
	memset(g, 0xff, sizeof(g));
	g[0] = 0x72;
	CHECK(ww_sat_parse_sense(g, sizeof(g), &r) < 0);
	g[8] = 0x09;
	g[9] = 0x0c;
	g[7] = 0xff;
	CHECK(ww_sat_parse_sense(g, 21, &r) == -EMSGSIZE);
}

static void test_cdbs(void)
{
	/* expected bytes written from the SAT-4 ATA PASS-THROUGH(16) layout */
	static const uint8_t identify[16] = { 0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec, 0 };
	static const uint8_t smart_read[16] = { 0x85, 0x08, 0x0e, 0, 0xd0, 0, 1, 0, 0, 0, 0x4f, 0, 0xc2, 0, 0xb0, 0 };
	static const uint8_t smart_status[16] = { 0x85, 0x06, 0x20, 0, 0xda, 0, 0, 0, 0, 0, 0x4f, 0, 0xc2, 0, 0xb0, 0 };
	static const uint8_t power[16] = { 0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xe5, 0 };
	static const uint8_t log4p1[16] = { 0x85, 0x09, 0x0e, 0, 0, 0, 1, 0, 0x04, 0, 0x01, 0, 0, 0, 0x2f, 0 };
	uint8_t cdb[16];

	CHECK(ww_sat_build_cdb(cdb, 0xec, 0, 1, 0, false, false) == 0);
	CHECK(memcmp(cdb, identify, 16) == 0);
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xd0, 1, 0xc24f00, false, false) == 0);
	CHECK(memcmp(cdb, smart_read, 16) == 0);
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xda, 0, 0xc24f00, false, true) == 0);
	CHECK(memcmp(cdb, smart_status, 16) == 0);
	CHECK(ww_sat_build_cdb(cdb, 0xe5, 0, 0, 0, false, true) == 0);
	CHECK(memcmp(cdb, power, 16) == 0);
	CHECK(ww_sat_build_cdb(cdb, 0x2f, 0, 1, 0x0104, true, false) == 0);
	CHECK(memcmp(cdb, log4p1, 16) == 0);

	/* nothing that changes the drive can be built */
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xd8, 0, 0xc24f00, false, false) == -EPERM); /* SMART ENABLE */
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xd9, 0, 0xc24f00, false, false) == -EPERM); /* DISABLE */
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xd2, 0, 0xc24f00, false, false) == -EPERM); /* AUTOSAVE */
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xd4, 0, 0xc24f00, false, false) == -EPERM); /* OFFLINE IMM */
	CHECK(ww_sat_build_cdb(cdb, 0x3f, 0, 1, 0, true, false) == -EPERM); /* WRITE LOG EXT */
	CHECK(ww_sat_build_cdb(cdb, 0x35, 0, 1, 0, true, false) == -EPERM); /* WRITE DMA EXT */
	CHECK(ww_sat_build_cdb(cdb, 0xe0, 0, 0, 0, false, false) == -EPERM); /* STANDBY IMM */
	CHECK(ww_sat_build_cdb(cdb, 0xec, 0x01, 1, 0, false, false) == -EPERM);
}

/* The self-test class (its own builder): SMART EXECUTE OFF-LINE IMMEDIATE
 * in off-line mode, SAT-4 non-data with CK_COND, LBA low the subcommand
 * and LBA mid/high 4Fh/C2h (ACS-4); captive and abort refused */
static void test_selftest_cdbs(void)
{
	static const uint8_t shrt[16] = { 0x85, 0x06, 0x20, 0, 0xd4, 0, 0,    0,
					  0x01, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	uint8_t cdb[16];
	ww_cmd_status_t st;

	CHECK_EQ_I64(ww_sat_build_selftest_cdb(cdb, WW_ATA_ST_SHORT), 0);
	CHECK(memcmp(cdb, shrt, 16) == 0);
	for (unsigned sub = 0; sub < 256; sub++)
		CHECK_EQ_I64(ww_sat_build_selftest_cdb(cdb, (uint8_t)sub) == 0, sub <= 4);
	CHECK_EQ_I64(ww_sat_build_selftest_cdb(cdb, 0x7f), -EPERM); /* abort */
	CHECK_EQ_I64(ww_sat_build_selftest_cdb(cdb, 0x81), -EPERM); /* captive short */
	CHECK_EQ_I64(ww_sat_build_selftest_cdb(cdb, 0x84), -EPERM); /* captive selective */
	CHECK_EQ_I64(ww_sat_start_self_test(NULL, WW_ATA_ST_SHORT, &st), -ENODEV);
	CHECK_EQ_I64(ww_sat_start_self_test(NULL, 0x81, &st), -EPERM);
}

/* The self-test class's one write: SMART WRITE LOG (B0h/D6h) of the
 * Selective self-test log 09h, SAT-4 PIO data-out (PROTOCOL 5, T_DIR 0,
 * BYTE_BLOCK 1, T_LENGTH 2: COUNT sectors), COUNT 1, LBA low the log
 * address, mid/high 4Fh/C2h (ACS-4 "SMART WRITE LOG"); no other log */
static void test_selftest_log_cdb(void)
{
	static const uint8_t want[16] = { 0x85, 0x0a, 0x06, 0, 0xd6, 0, 1,    0,
					  0x09, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	uint8_t cdb[16], sector[512] = { 0 };
	ww_cmd_status_t st;

	CHECK_EQ_I64(ww_sat_build_selftest_log_cdb(cdb, WW_ATA_LOG_SELECTIVE), 0);
	CHECK(memcmp(cdb, want, 16) == 0);
	for (unsigned log = 0; log < 256; log++)
		CHECK_EQ_I64(ww_sat_build_selftest_log_cdb(cdb, (uint8_t)log) == 0, log == 9);
	/* the reads' builder still builds no write */
	CHECK(ww_sat_build_cdb(cdb, 0xb0, 0xd6, 1, 0xc24f09, false, false) == -EPERM);
	CHECK_EQ_I64(ww_sat_write_selective_log(NULL, sector, &st), -ENODEV);
}

/* The command functions against the fake device (ww_fake_device.h): the
 * drive's answers are blocks of capture text in the order they come back. */
static void test_commands(int fixed)
{
	ww_fake_t f;
	ww_cap_t c;
	ww_cmd_status_t st;
	ww_ata_regs_t regs;
	uint8_t mode = 0xaa, buf[512];
	char req[128];

	ww_cap_open(&c);
	/* CHECK POWER MODE: standby, then active idle, then aborted */
	ww_req_sat(req, sizeof(req), WW_ATA_CHECK_POWER_MODE, 0, 0, 0, false);
	ww_cap_sat_regs(&c, req, fixed, 0x00, 0);
	ww_cap_sat_regs(&c, req, fixed, 0xff, 0);
	ww_cap_sat_abort(&c, req, fixed);
	/* SMART RETURN STATUS: threshold exceeded (LBA mid/high F4h/2Ch), then
	 * passed (4Fh/C2h) */
	ww_req_sat(req, sizeof(req), WW_ATA_SMART, WW_SMART_RETURN_STATUS, 0, 0xc24f00, false);
	ww_cap_sat_regs(&c, req, fixed, 0, 0x2cf400);
	ww_cap_sat_regs(&c, req, fixed, 0, 0xc24f00);
	/* IDENTIFY DEVICE aborted */
	ww_cap_sat_abort(&c, ww_req_sat(req, sizeof(req), WW_ATA_IDENTIFY, 0, 1, 0, false), fixed);
	CHECK(ww_fake_open_cap(&f, &c) == 0);
	ww_cap_free(&c);

	CHECK(ww_sat_check_power_mode(&f.x, &mode, &st) == 0);
	CHECK_EQ_U64(mode, 0x00);
	CHECK(ww_sat_check_power_mode(&f.x, &mode, &st) == 0);
	CHECK_EQ_U64(mode, 0xff);
	CHECK(ww_sat_check_power_mode(&f.x, &mode, &st) == -ENOTSUP);
	CHECK(st.result == WW_CMD_UNSUPPORTED);

	CHECK(ww_sat_smart_return_status(&f.x, &regs, &st) == 0);
	CHECK(ww_decode_ata_smart_status(regs.lba) == WW_SMART_FAILED);
	CHECK(ww_sat_smart_return_status(&f.x, &regs, &st) == 0);
	CHECK(ww_decode_ata_smart_status(regs.lba) == WW_SMART_PASSED);

	/* IDENTIFY aborted by the drive -> unsupported, not an error */
	CHECK(ww_sat_identify(&f.x, buf, &st) == -ENOTSUP);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK(ww_sat_read_log_ext(&f.x, 0, 0, 1, buf, 100, &st) == -EINVAL);
	/* six commands went out: READ LOG EXT with a short buffer was refused
	 * before it reached the transport */
	CHECK_EQ_U64(ww_fake_sent(&f), 6);
	ww_fake_close(&f);

	ww_xport_t none = { 0 };
	CHECK(ww_sat_identify(&none, buf, &st) == -ENODEV);
}

int main(void)
{
	test_parse();
	test_cdbs();
	test_selftest_cdbs();
	test_selftest_log_cdb();
	test_commands(0);
	test_commands(1);
	return ww_test_done("test_transport_sat");
}
