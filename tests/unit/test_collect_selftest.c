/* Starting a self-test (src/collect/selftest_start.c) on the fake device:
 * QEMU's AHCI disk's own SMART READ DATA sector
 * (tests/fixtures/vm/sata/smart-read-data.bin: byte 363 = 0, no test
 * running; byte 367 = 19h, off-line immediate and self-tests but no
 * conveyance, as smartctl -x printed for it: "conveyance_self_test_supported":
 * false) behind a SATL. The start command itself goes to a recorder (the
 * replay transport never sends the self-test class). What must hold: the
 * power mode and the running test are read again right before the start;
 * standby is left alone unless asked; a running test is never replaced
 * (an ATA drive would abort it); an unsupported kind is not sent.
 *
 * Selective tests: the same sector with byte 367 bit 6 set (selective
 * self-test supported, ACS-4 "Off-line data collection capability";
 * spec-constructed, QEMU's disk has no selective test) and a Selective
 * self-test log 09h built here by ACS-4's "Selective self-test log" table
 * (offsets as smartmontools' struct ata_selective_self_test_log): the
 * sector written back and the 04h start are checked byte for byte. And a
 * real drive that runs them: smartmontools ticket 1920's WDC WD80EFPX
 * (../shared/fixtures SOURCES.md pair #1; IDENTIFY 15628053168 sectors),
 * whose SMART READ DATA has byte 367 = 7Bh (bit 6: smartmontools'
 * isSupportSelectiveSelfTest) and byte 363 = F9h (a self-test in progress,
 * 90 % left, when it was captured): refused as busy, then, with byte 363
 * cleared (spec-constructed), its first span of 7 written and started. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ww_test.h"
#include "ww_fake_device.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"
#include "wearwatch/model.h"

static uint8_t qemu_smart[512];
static unsigned n_started, n_written;
static uint8_t started_cdb[16], written_cdb[16], written[512];
static bool was_armed, write_fails, written_first;
static const uint8_t *sel_log; /* log 09h as the drive gives it; NULL aborts */

static int recorder(ww_xport_t *x, const uint8_t *cdb, size_t len, ww_cmd_status_t *st)
{
	n_started++;
	was_armed = x->self_test_armed;
	memcpy(started_cdb, cdb, len < 16 ? len : 16);
	memset(st, 0, sizeof(*st));
	st->result = WW_CMD_OK;
	written_first = n_written > 0;
	return 0;
}

static int out_recorder(ww_xport_t *x, const uint8_t *cdb, size_t len, const uint8_t *buf,
			size_t blen, ww_cmd_status_t *st)
{
	n_written++;
	CHECK(x->self_test_armed);
	memcpy(written_cdb, cdb, len < 16 ? len : 16);
	CHECK_EQ_U64(blen, 512);
	memcpy(written, buf, blen < 512 ? blen : 512);
	memset(st, 0, sizeof(*st));
	st->result = write_fails ? WW_CMD_DEVICE_ERROR : WW_CMD_OK;
	return 0;
}

/* a SATL drive answering CHECK POWER MODE with `mode` and SMART READ DATA
 * with `smart`; the start goes to the recorder */
static int start_span(int mode, const uint8_t *smart, unsigned kind, const ww_selftest_span_t *span,
		      bool wake, const char **why)
{
	char req[128];
	ww_cap_t c;
	ww_fake_t f;
	ww_sat_drive_t d = { .power_mode = mode, .smart_data = smart, .smart_status = 1 };
	ww_xport_ops_t ops;
	ww_cmd_status_t st;
	int rc;

	ww_cap_open(&c);
	ww_cap_sat_drive(&c, &d);
	ww_cap_sat_sector(
		&c,
		ww_req_sat(req, sizeof(req), WW_ATA_SMART, WW_SMART_READ_LOG, 1, 0xc24f09, false),
		sel_log, false);
	if (ww_fake_open_cap(&f, &c) < 0) {
		CHECK(!"fake device");
		ww_cap_free(&c);
		return -99;
	}
	ops = *f.x.ops;
	ops.self_test = recorder;
	ops.self_test_out = out_recorder;
	f.x.ops = &ops;
	rc = ww_collect_start_on_xport(&f.x, WW_PROTO_ATA, kind, span, wake, &st, why);
	ww_fake_close(&f);
	ww_cap_free(&c);
	return rc;
}

static int start_on(int mode, const uint8_t *smart, unsigned kind, bool wake, const char **why)
{
	return start_span(mode, smart, kind, NULL, wake, why);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static void fix_sum(uint8_t *b)
{
	uint8_t sum = 0;

	for (int i = 0; i < 511; i++)
		sum = (uint8_t)(sum + b[i]);
	b[511] = (uint8_t)(0x100 - sum);
}

/* SMART WRITE LOG 09h then SMART EXECUTE OFF-LINE IMMEDIATE 04h */
static void test_selective(void)
{
	static const uint8_t want_start[16] = { 0x85, 0x06, 0x20, 0, 0xd4, 0, 0,    0,
						0x04, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	static const uint8_t want_write[16] = { 0x85, 0x0a, 0x06, 0, 0xd6, 0, 1,    0,
						0x09, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	const ww_selftest_span_t span = { 2000000, 2999999 };
	uint8_t sel_smart[512], log[512], want[512], running[512], sum = 0;
	const char *why;

	memcpy(sel_smart, qemu_smart, 512);
	sel_smart[367] |= 0x40;
	fix_sum(sel_smart);

	/* log 09h as a drive that ran a span before holds it: revision 1,
	 * span 1 = 0-999999, span 2 = 5-6 (a leftover), current LBA 1000000
	 * and span 1, flags 0012h (scan after the spans, scan active),
	 * vendor-specific bytes 338-491 and 504-507 nonzero, pending time 5 */
	memset(log, 0, 512);
	log[0] = 1;
	put64(log + 2, 0);
	put64(log + 10, 999999);
	put64(log + 18, 5);
	put64(log + 26, 6);
	for (int i = 338; i <= 491; i++)
		log[i] = (uint8_t)i;
	put64(log + 492, 1000000);
	log[500] = 1;
	log[502] = 0x12;
	log[504] = 0xa5;
	log[507] = 0x5a;
	log[508] = 5;
	fix_sum(log);

	/* what must be written: the same sector, span 1 = the new span, span 2
	 * cleared, current LBA and span 0, flags 0 (no scan after, not
	 * active), vendor bytes and pending time as read, checksum over it */
	memcpy(want, log, 512);
	memset(want + 2, 0, 80);
	put64(want + 2, 2000000);
	put64(want + 10, 2999999);
	memset(want + 492, 0, 10);
	want[502] = 0;
	fix_sum(want);

	sel_log = log;
	n_started = n_written = 0;
	CHECK_EQ_I64(
		start_span(WW_ATA_PM_ACTIVE_IDLE, sel_smart, WW_STK_SELECTIVE, &span, false, &why),
		0);
	CHECK_STR(why, "started");
	CHECK_EQ_U64(n_written, 1);
	CHECK(memcmp(written_cdb, want_write, 16) == 0);
	CHECK(memcmp(written, want, 512) == 0);
	for (int i = 0; i < 512; i++)
		sum = (uint8_t)(sum + written[i]);
	CHECK_EQ_U64(sum, 0);
	CHECK_EQ_U64(n_started, 1);
	CHECK(written_first);
	CHECK(memcmp(started_cdb, want_start, 16) == 0);
	{
		ww_ata_selective_log_t d;

		CHECK_EQ_I64(ww_decode_ata_selective_log(written, 512, &d), 0);
		CHECK(d.checksum_ok && d.revision == 1 && d.current_span == 0 && d.flags == 0);
		CHECK_EQ_U64(d.span[0].first_lba, 2000000);
		CHECK_EQ_U64(d.span[0].last_lba, 2999999);
		CHECK_EQ_U64(d.span[1].last_lba, 0);
		CHECK_EQ_U64(d.pending_minutes, 5);
		CHECK_EQ_I64(ww_decode_ata_selective_log(log, 512, &d), 0);
		CHECK(d.checksum_ok && d.current_span == 1 && d.flags == 0x12);
		CHECK_EQ_U64(d.current_lba, 1000000);
		CHECK_EQ_U64(d.span[1].first_lba, 5);
	}

	/* QEMU's own disk: no selective tests (byte 367 bit 6 clear):
	 * refused, nothing written or started */
	n_started = n_written = 0;
	CHECK_EQ_I64(
		start_span(WW_ATA_PM_ACTIVE_IDLE, qemu_smart, WW_STK_SELECTIVE, &span, false, &why),
		-ENOTSUP);
	CHECK_EQ_U64(n_written + n_started, 0);
	/* standby: left alone, nothing written */
	CHECK_EQ_I64(start_span(WW_ATA_PM_STANDBY, sel_smart, WW_STK_SELECTIVE, &span, false, &why),
		     1);
	CHECK_EQ_U64(n_written + n_started, 0);
	/* a test runs: the log is not touched */
	memcpy(running, sel_smart, 512);
	running[363] = 0xf3;
	fix_sum(running);
	CHECK_EQ_I64(
		start_span(WW_ATA_PM_ACTIVE_IDLE, running, WW_STK_SELECTIVE, &span, false, &why),
		-EBUSY);
	CHECK_EQ_U64(n_written + n_started, 0);
	/* no span given: nothing */
	CHECK_EQ_I64(
		start_span(WW_ATA_PM_ACTIVE_IDLE, sel_smart, WW_STK_SELECTIVE, NULL, false, &why),
		-EINVAL);
	CHECK_EQ_U64(n_written + n_started, 0);
	/* the drive does not give its log 09h: nothing written (smartctl's
	 * rule), nothing started */
	sel_log = NULL;
	CHECK(start_span(WW_ATA_PM_ACTIVE_IDLE, sel_smart, WW_STK_SELECTIVE, &span, false, &why) <
	      0);
	CHECK_STR(why, "SMART READ LOG 09h failed");
	CHECK_EQ_U64(n_written + n_started, 0);
	/* the write fails: no start */
	sel_log = log;
	write_fails = true;
	CHECK(start_span(WW_ATA_PM_ACTIVE_IDLE, sel_smart, WW_STK_SELECTIVE, &span, false, &why) <
	      0);
	CHECK_STR(why, "SMART WRITE LOG 09h failed");
	CHECK_EQ_U64(n_written, 1);
	CHECK_EQ_U64(n_started, 0);
	write_fails = false;
	/* a span that ends before it starts is never written */
	n_written = 0;
	CHECK(start_span(WW_ATA_PM_ACTIVE_IDLE, sel_smart, WW_STK_SELECTIVE,
			 &(ww_selftest_span_t){ 10, 9 }, false, &why) < 0);
	CHECK_EQ_U64(n_written + n_started, 0);
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

/* the fixtures directory, or NULL with a SKIP line (the rest of the test
 * runs without it) */
static const char *fixtures(void)
{
	const char *d = getenv("WW_FIXTURES");
	char p[4096];
	FILE *f;

	if (!d)
		d = "../shared/fixtures";
	snprintf(p, sizeof(p), "%s/SOURCES.md", d);
	f = fopen(p, "r");
	if (!f) {
		printf("SKIP: the WD80EFPX part: real-drive fixtures not found at %s "
		       "(set WW_FIXTURES)\n",
		       d);
		return NULL;
	}
	fclose(f);
	return d;
}

static void test_wd80efpx(void)
{
	static ww_health_t h;
	const char *dir = fixtures(), *why;
	const char *base = "smartmontools-trac/ticket-1920/smartctl-ioctl-A-WD-RD14X8DD";
	char rel[256];
	size_t li = 0, ld = 0;
	uint8_t *id = NULL, *sd = NULL, log[512] = { 0 }, idle[512];
	ww_selftest_span_t span;
	uint64_t sectors, next;
	ww_ata_selective_log_t d;

	if (!dir)
		return;
	snprintf(rel, sizeof(rel), "%s.identify.bin", base);
	id = ww_read_file(dir, rel, &li);
	snprintf(rel, sizeof(rel), "%s.smart_data.bin", base);
	sd = ww_read_file(dir, rel, &ld);
	CHECK(id && sd && li == 512 && ld == 512);
	if (!id || !sd || li != 512 || ld != 512)
		goto out;
	CHECK(ww_decode_ata_identify(id, li, &h) == 0);
	CHECK(ww_decode_ata_smart_data(sd, ld, &h) == 0);
	CHECK_EQ_U64(h.ata.offline_capability, 0x7b);
	CHECK(h.self_test_now.running);
	sectors = h.capacity_bytes.value / h.logical_block_bytes.value;
	CHECK_EQ_U64(sectors, 15628053168ull);
	next = ww_selftest_next_span(sectors, 7, 0, &span);
	CHECK_EQ_U64(span.last_lba, 15628053168ull / 7 - 1); /* 7 x 2232579024 exactly */
	CHECK_EQ_U64(next, 15628053168ull / 7);

	/* as captured: its own test runs, the log is left alone */
	log[0] = 1; /* a log 09h never used: revision 1, no span */
	fix_sum(log);
	sel_log = log;
	n_started = n_written = 0;
	CHECK_EQ_I64(start_span(WW_ATA_PM_ACTIVE_IDLE, sd, WW_STK_SELECTIVE, &span, false, &why),
		     -EBUSY);
	CHECK_EQ_U64(n_written + n_started, 0);
	/* that test over: its first span */
	memcpy(idle, sd, 512);
	idle[363] = 0;
	fix_sum(idle);
	CHECK_EQ_I64(start_span(WW_ATA_PM_ACTIVE_IDLE, idle, WW_STK_SELECTIVE, &span, false, &why),
		     0);
	CHECK_EQ_U64(n_written, 1);
	CHECK_EQ_U64(n_started, 1);
	CHECK_EQ_U64(started_cdb[8], WW_ATA_ST_SELECTIVE);
	CHECK_EQ_I64(ww_decode_ata_selective_log(written, 512, &d), 0);
	CHECK(d.checksum_ok && d.revision == 1);
	CHECK_EQ_U64(d.span[0].first_lba, 0);
	CHECK_EQ_U64(d.span[0].last_lba, 2232579023ull);
	/* LBA 2232579023 = 851273CFh, little-endian from byte 10 */
	CHECK(written[10] == 0xcf && written[11] == 0x73 && written[12] == 0x12 &&
	      written[13] == 0x85 && written[14] == 0);
out:
	free(id);
	free(sd);
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
		test_selective();
		test_wd80efpx();
	}
	free(b);
	return ww_test_done("test_collect_selftest");
}
