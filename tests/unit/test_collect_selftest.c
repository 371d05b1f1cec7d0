/* Starting a self-test (src/collect/selftest_start.c) on the fake device:
 * QEMU's AHCI disk's own SMART READ DATA sector
 * (tests/fixtures/vm/sata/smart-read-data.bin: byte 363 = 0, no test
 * running; byte 367 = 19h, off-line immediate and self-tests but no
 * conveyance, as smartctl -x printed for it: "conveyance_self_test_supported":
 * false) behind a SATL. The start command itself goes to a recorder (the
 * replay transport never sends the self-test class). What must hold: the
 * power mode and the running test are read again right before the start;
 * standby is left alone unless asked; a running test is never replaced
 * (an ATA drive would abort it); an unsupported kind is not sent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ww_test.h"
#include "ww_fake_device.h"
#include "wearwatch/collect.h"

static uint8_t qemu_smart[512];
static unsigned n_started;
static uint8_t started_cdb[16];
static bool was_armed;

static int recorder(ww_xport_t *x, const uint8_t *cdb, size_t len, ww_cmd_status_t *st)
{
	n_started++;
	was_armed = x->self_test_armed;
	memcpy(started_cdb, cdb, len < 16 ? len : 16);
	memset(st, 0, sizeof(*st));
	st->result = WW_CMD_OK;
	return 0;
}

/* a SATL drive answering CHECK POWER MODE with `mode` and SMART READ DATA
 * with `smart`; the start goes to the recorder */
static int start_on(int mode, const uint8_t *smart, unsigned kind, bool wake, const char **why)
{
	ww_cap_t c;
	ww_fake_t f;
	ww_sat_drive_t d = { .power_mode = mode, .smart_data = smart, .smart_status = 1 };
	ww_xport_ops_t ops;
	ww_cmd_status_t st;
	int rc;

	ww_cap_open(&c);
	ww_cap_sat_drive(&c, &d);
	if (ww_fake_open_cap(&f, &c) < 0) {
		CHECK(!"fake device");
		ww_cap_free(&c);
		return -99;
	}
	ops = *f.x.ops;
	ops.self_test = recorder;
	f.x.ops = &ops;
	rc = ww_collect_start_on_xport(&f.x, WW_PROTO_ATA, kind, wake, &st, why);
	ww_fake_close(&f);
	ww_cap_free(&c);
	return rc;
}

static void test_ata(void)
{
	static const uint8_t want[16] = { 0x85, 0x06, 0x20, 0, 0xd4, 0, 0,    0,
					  0x02, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	uint8_t running[512];
	const char *why;

	/* active, idle: the extended test starts, in off-line mode, armed */
	n_started = 0;
	CHECK_EQ_I64(start_on(WW_ATA_PM_ACTIVE_IDLE, qemu_smart, WW_STK_EXTENDED, false, &why), 0);
	CHECK_EQ_U64(n_started, 1);
	CHECK(was_armed);
	CHECK(memcmp(started_cdb, want, 16) == 0);
	CHECK_STR(why, "started");

	/* standby: left alone, nothing sent; asked to wake: started */
	n_started = 0;
	CHECK_EQ_I64(start_on(WW_ATA_PM_STANDBY, qemu_smart, WW_STK_SHORT, false, &why), 1);
	CHECK_EQ_U64(n_started, 0);
	CHECK_STR(why, "in standby");
	CHECK_EQ_I64(start_on(WW_ATA_PM_STANDBY, qemu_smart, WW_STK_SHORT, true, &why), 0);
	CHECK_EQ_U64(n_started, 1);
	CHECK_EQ_U64(started_cdb[8], WW_ATA_ST_SHORT);

	/* a test runs (byte 363 = F3h: in progress, 30 % left; the
	 * administrator's, say): never replaced */
	memcpy(running, qemu_smart, 512);
	running[363] = 0xf3;
	n_started = 0;
	CHECK_EQ_I64(start_on(WW_ATA_PM_ACTIVE_IDLE, running, WW_STK_SHORT, false, &why), -EBUSY);
	CHECK_EQ_U64(n_started, 0);

	/* QEMU's disk has no conveyance test (byte 367 bit 5 clear) */
	CHECK_EQ_I64(start_on(WW_ATA_PM_ACTIVE_IDLE, qemu_smart, WW_STK_CONVEYANCE, false, &why),
		     -ENOTSUP);
	CHECK_EQ_U64(n_started, 0);
	/* off-line data collection: bit 0 set, subcommand 00h */
	CHECK_EQ_I64(start_on(WW_ATA_PM_ACTIVE_IDLE, qemu_smart, WW_STK_OFFLINE, false, &why), 0);
	CHECK_EQ_U64(n_started, 1);
	CHECK_EQ_U64(started_cdb[8], WW_ATA_ST_OFFLINE);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char p[4200];
	size_t len = 0;
	unsigned char *b;

	snprintf(p, sizeof(p), "%s/tests/fixtures/vm/sata", src ? src : ".");
	b = ww_read_file(p, "smart-read-data.bin", &len);
	CHECK(b && len == 512);
	if (b && len == 512) {
		memcpy(qemu_smart, b, 512);
		test_ata();
	}
	free(b);
	return ww_test_done("test_collect_selftest");
}
