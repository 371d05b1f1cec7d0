/* The SCSI reader (src/collect/read_scsi.c): ww_read_scsi() against the
 * replay-backed fake device (ww_fake_device.h) answering with the
 * spec-constructed pages of tests/fixtures/scsi (each file names its spec
 * section; test_decode_scsi.c checks them against sg_logs --inhex): what it
 * asks in which order, what it decodes, what counts as unsupported. No
 * shared fixtures needed: always runs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/collect.h"
#include "ww_test.h"
#include "ww_fake_device.h"

static char fixdir[4096];

/* ---- the constructed SAS drive, answering through the fake device ---- */
struct script {
	bool subpages_supported;   /* answer LOG SENSE 0x00/0xFF */
	const char *subpages;      /* its file; NULL = log_00ff_supported_subpages.hex */
	const char *page_0d;       /* file for page 0x0D */
	bool util_rejected;        /* LOG SENSE 0x0E/0x01: ILLEGAL REQUEST */
	bool lists_18;             /* page 0x00 also lists 0x18 (SAS port) */
	bool defects10_rejected;   /* READ DEFECT DATA (10): ILLEGAL REQUEST */
};

/* One block answering `cdb` with tests/fixtures/scsi/FILE, or, for a NULL
 * file, with CHECK CONDITION, ILLEGAL REQUEST, INVALID FIELD IN CDB (fixed
 * sense, SPC-5 4.4.3; ASC/ASCQ 24h/00h) as a drive rejects a page it lacks. */
static void answer(ww_cap_t *c, const uint8_t *cdb, size_t cdb_len, size_t alloc,
		   const char *file, const uint8_t *bytes, size_t n)
{
	static const uint8_t invalid_field[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10,
						   0, 0, 0, 0, 0x24, 0x00 };
	char req[96], path[4200];
	uint8_t tmp[4096];

	ww_req_scsi(req, sizeof(req), cdb, cdb_len, alloc);
	if (file) {
		snprintf(path, sizeof(path), "%s/scsi/%s", fixdir, file);
		n = ww_load_hex(path, tmp, sizeof(tmp));
		CHECK(n > 0);
		bytes = tmp;
	}
	if (!bytes || !n) {
		ww_cap_sense(c, req, invalid_field, sizeof(invalid_field));
		return;
	}
	ww_cap_ok(c, req, bytes, n < alloc ? n : alloc);
}

static void open_script(const struct script *s, ww_fake_t *f)
{
	static const uint8_t v0[] = { 0, 0, 0, 4, 0x00, 0x80, 0x83, 0xb1 };
	static const struct { uint8_t pg, sp; const char *file; } logs[] = {
		{ 0x00, 0x00, "log_00_supported.hex" },
		{ 0x02, 0x00, "log_02_write_errors.hex" },
		{ 0x03, 0x00, "log_03_read_errors.hex" },
		{ 0x05, 0x00, "log_05_verify_errors.hex" },
		{ 0x0d, 0x01, "log_0d01_environment.hex" },
		{ 0x0e, 0x00, "log_0e_start_stop.hex" },
		{ 0x11, 0x00, "log_11_ssm.hex" },
		{ 0x15, 0x00, "log_15_bg_scan.hex" },
		{ 0x19, 0x00, "log_19_gen_stats.hex" },
		{ 0x2f, 0x00, "log_2f_ie_ok.hex" },
	};
	/* the reader's CDBs (SPC-5 INQUIRY, SBC-4 READ CAPACITY(16), LOG SENSE
	 * with PC 01b and allocation length FFFCh) */
	uint8_t inq[6] = { 0x12, 0, 0, 0, 96, 0 }, vpd[6] = { 0x12, 1, 0, 0, 0xfc, 0 };
	uint8_t rc16[16] = { 0x9e, 0x10, [13] = 32 };
	uint8_t ls[10] = { 0x4d, 0, 0x40, 0, 0, 0, 0, 0xff, 0xfc, 0 };
	ww_cap_t c;

	ww_cap_open(&c);
	answer(&c, inq, 6, 96, "inquiry_al15seb060n.hex", NULL, 0);
	inq[4] = 36; /* the ATA probe's INQUIRY */
	answer(&c, inq, 6, 36, "inquiry_al15seb060n.hex", NULL, 0);
	answer(&c, vpd, 6, 252, NULL, v0, sizeof(v0));
	vpd[2] = 0x80;
	answer(&c, vpd, 6, 252, "vpd80_serial.hex", NULL, 0);
	vpd[2] = 0x83;
	answer(&c, vpd, 6, 252, "vpd83_devid.hex", NULL, 0);
	vpd[2] = 0xb1;
	answer(&c, vpd, 6, 252, "vpdb1_bdc.hex", NULL, 0);
	answer(&c, rc16, 16, 32, "read_capacity16.hex", NULL, 0);
	for (size_t i = s->lists_18 ? 1 : 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		ls[2] = 0x40 | logs[i].pg;
		ls[3] = logs[i].sp;
		answer(&c, ls, 10, 0xfffc, logs[i].file, NULL, 0);
	}
	if (s->lists_18) { /* log_00_supported.hex's list + 0x18 (SPC-5 page 0x00) */
		static const uint8_t l00[] = { 0x00, 0, 0, 11, 0x00, 0x02, 0x03, 0x05, 0x0d,
					       0x0e, 0x11, 0x15, 0x18, 0x19, 0x2f };

		ls[2] = 0x40;
		ls[3] = 0x00;
		answer(&c, ls, 10, 0xfffc, NULL, l00, sizeof(l00));
		ls[2] = 0x58;
		answer(&c, ls, 10, 0xfffc, "log_18_sas_port.hex", NULL, 0);
	}
	ls[2] = 0x40;
	ls[3] = 0xff;
	answer(&c, ls, 10, 0xfffc, !s->subpages_supported ? NULL : s->subpages ? s->subpages
				   : "log_00ff_supported_subpages.hex", NULL, 0);
	ls[2] = 0x4d;
	ls[3] = 0x00;
	answer(&c, ls, 10, 0xfffc, s->page_0d, NULL, 0);
	ls[2] = 0x4e;
	ls[3] = 0x01;
	answer(&c, ls, 10, 0xfffc, s->util_rejected ? NULL : "log_0e01_utilization.hex", NULL, 0);
	/* READ DEFECT DATA list headers (SBC-4): GLISTV, format 100b, length 0:
	 * the Toshiba's "Elements in grown defect list: 0"; (12) length 8 x 3 */
	{
		static const uint8_t c10[10] = { 0x37, 0, 0x0c, 0, 0, 0, 0, 0, 4, 0 };
		static const uint8_t c12[12] = { 0xb7, 0x0c, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0 };
		static const uint8_t h10[4] = { 0, 0x0c, 0, 0 };
		static const uint8_t h12[8] = { 0, 0x0c, 0, 0, 0, 0, 0, 24 };

		answer(&c, c10, 10, 4, NULL, s->defects10_rejected ? NULL : h10, 4);
		answer(&c, c12, 12, 8, NULL, h12, 8);
	}
	CHECK(ww_fake_open_cap(f, &c) == 0);
	ww_cap_free(&c);
}

static bool sent_log(ww_fake_t *f, uint8_t pg, uint8_t sp)
{
	ww_fake_sent(f);
	for (size_t i = 0; i < f->n_sent; i++)
		if (f->cdbs[i][0] == 0x4d && (f->cdbs[i][2] & 0x3f) == pg && f->cdbs[i][3] == sp)
			return true;
	return false;
}

static void check_log_cdbs(ww_fake_t *f)
{
	bool first = true;

	ww_fake_sent(f);
	for (size_t i = 0; i < f->n_sent; i++) {
		const uint8_t *c = f->cdbs[i];
		if (c[0] != 0x4d)
			continue;
		CHECK_EQ_U64(c[1] & 0x01, 0);    /* SP = 0: never save parameters */
		CHECK_EQ_U64(c[2] & 0xc0, 0x40); /* PC = 01b cumulative */
		CHECK(((unsigned)c[7] << 8 | c[8]) > 4); /* allocation length */
		if (first) /* supported pages first */
			CHECK(c[2] == 0x40 && c[3] == 0);
		first = false;
	}
}

static void test_reader(void)
{
	struct script s = { .subpages_supported = true, .page_0d = "log_0d_temperature.hex" };
	ww_fake_t f, f2, f3, f4, f5;
	ww_drive_t d = { 0 };
	ww_health_t h;
	ww_read_report_t r;

	open_script(&s, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f.x, &d, &h, &r), 0);
	check_log_cdbs(&f);
	CHECK_EQ_I64(h.protocol, WW_PROTO_SCSI);
	CHECK_STR(h.model, "AL15SEB060N");
	CHECK_STR(h.serial, "Y1Q0A02KFYVH");
	CHECK_STR(h.wwn, "0x5000039b48736e9d");
	CHECK_EQ_U64(h.scsi.protocol_id, 6);
	CHECK_EQ_U64(h.capacity_bytes.value, 600127266816ull);
	CHECK_EQ_U64(h.rotation_rate_rpm.value, 10500);
	CHECK(sent_log(&f, 0x0d, 0x01)); /* listed in 0x00/0xFF */
	CHECK(!sent_log(&f, 0x0e, 0x01)); /* not listed there */
	CHECK(!WW_HAS(h.workload_utilization_centipercent));
	CHECK(!sent_log(&f, 0x30, 0));
	/* smartctl 7.3's precedence: the environmental subpage (its 40 C) */
	CHECK_EQ_I64(h.temperature_celsius.value, 40);
	CHECK_EQ_I64(h.scsi.temperature_celsius.value, 38);
	CHECK_EQ_I64(h.scsi.env_temperature_celsius.value, 40);
	CHECK_EQ_U64(h.host_written_bytes.value, 396834000ull * 512);
	CHECK_EQ_U64(h.power_on_seconds.value, 259771ull * 60);
	CHECK_EQ_U64(h.endurance_used_percent.value, 3);
	CHECK_EQ_I64(h.smart_status, WW_SMART_PASSED);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_EQ_U64(r.n_unsupported, 0);
	/* INQUIRY, VPD 00/80/83/B1, RC16, LOG SENSE 00, 00/FF, 9 pages, 0D/01,
	 * READ DEFECT DATA(10) = 19 */
	CHECK_EQ_U64(r.n_cmds, 19);
	CHECK_STR(r.cmds[0].what, "INQUIRY");
	CHECK_STR(r.cmds[18].what, "READ DEFECT DATA(10)");
	CHECK_EQ_U64(h.scsi.grown_defects.value, 0);
	CHECK(WW_HAS(h.scsi.grown_defects));
	ww_fake_close(&f);

	/* no subpage list, 0x0D gives a temperature: 0x0D/0x01 is not asked */
	struct script s2 = { .subpages_supported = false, .page_0d = "log_0d_temperature.hex" };
	open_script(&s2, &f2);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f2.x, &d, &h, &r), 0);
	CHECK(!sent_log(&f2, 0x0d, 0x01));
	CHECK_EQ_U64(r.n_unsupported, 1); /* 0x00/0xFF */
	CHECK_EQ_U64(r.n_errors, 0);

	/* no subpage list, 0x0D current temperature 0xFF: probe 0x0D/0x01 */
	struct script s3 = { .subpages_supported = false, .page_0d = "log_0d_temperature_na.hex" };
	open_script(&s3, &f3);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f3.x, &d, &h, &r), 0);
	CHECK(sent_log(&f3, 0x0d, 0x01));
	CHECK_EQ_I64(h.temperature_celsius.value, 40);
	CHECK_STR(h.temperature_celsius.source, "SCSI log page 0x0D/0x01 param 0x0000");
	check_log_cdbs(&f3);
	ww_fake_close(&f3);

	/* 0x00/0xFF lists 0x0E/0x01 (utilization): it is asked once, after the
	 * health pages, and decoded: 3000 = 30.00 % of the annual workload
	 * rating (the spec-constructed page; sg_logs --inhex reads the same, see
	 * test_decode_scsi.c) */
	struct script s4 = { .subpages_supported = true,
			     .subpages = "log_00ff_supported_subpages_util.hex",
			     .page_0d = "log_0d_temperature.hex" };
	open_script(&s4, &f4);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f4.x, &d, &h, &r), 0);
	check_log_cdbs(&f4);
	CHECK(sent_log(&f4, 0x0e, 0x01));
	CHECK_EQ_U64(f4.cdbs[f4.n_sent - 2][0], 0x4d); /* the last LOG SENSE */
	CHECK_EQ_U64(f4.cdbs[f4.n_sent - 2][2], 0x4e);
	CHECK_EQ_U64(f4.cdbs[f4.n_sent - 2][3], 0x01);
	CHECK_EQ_U64(f4.cdbs[f4.n_sent - 1][0], 0x37); /* then READ DEFECT DATA(10) */
	CHECK_EQ_U64(h.workload_utilization_centipercent.value, 3000);
	CHECK_STR(h.workload_utilization_centipercent.label, "scsi_utilization");
	CHECK_EQ_U64(r.n_cmds, 20);
	CHECK_STR(r.cmds[18].what, "LOG SENSE 0x0e/0x01");
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_EQ_U64(r.n_unsupported, 0);
	ww_fake_close(&f4);
	/* same list, but the drive rejects the page: unsupported, not an error */
	struct script s5 = s4;
	s5.util_rejected = true;
	open_script(&s5, &f5);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f5.x, &d, &h, &r), 0);
	CHECK(sent_log(&f5, 0x0e, 0x01));
	CHECK(!WW_HAS(h.workload_utilization_centipercent));
	CHECK_EQ_U64(r.n_unsupported, 1);
	CHECK_EQ_U64(r.n_errors, 0);
	/* no subpage list at all (s2 above): 0x0E/0x01 is never guessed */
	CHECK(!sent_log(&f2, 0x0e, 0x01));
	ww_fake_close(&f2);

	/* READ DEFECT DATA (10) rejected: (12) is asked, 24 bytes / 8 = 3 */
	struct script s6 = { .subpages_supported = true, .page_0d = "log_0d_temperature.hex",
			     .defects10_rejected = true };
	ww_fake_t f6;

	open_script(&s6, &f6);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f6.x, &d, &h, &r), 0);
	CHECK_STR(r.cmds[r.n_cmds - 2].what, "READ DEFECT DATA(10)");
	CHECK_EQ_U64(r.cmds[r.n_cmds - 2].result, WW_CMD_UNSUPPORTED);
	CHECK_STR(r.cmds[r.n_cmds - 1].what, "READ DEFECT DATA(12)");
	CHECK_EQ_U64(h.scsi.grown_defects.value, 3);
	CHECK_STR(h.scsi.grown_defects.source,
		  "SCSI READ DEFECT DATA (12) grown defect list length / descriptor size");
	ww_fake_close(&f6);

	/* the probe: VPD 0x00 without 0x89 */
	bool is_ata = true;
	CHECK_EQ_I64(ww_scsi_probe_ata(&f5.x, &is_ata), 0);
	CHECK(!is_ata);
	ww_fake_close(&f5);
}

/* Page 0x18 (SAS port) is asked only when page 0x00 lists it: then among the
 * health pages, and its phys decoded (figures of log_18_sas_port.hex, which
 * test_decode_scsi checks against sg_logs --inhex). */
static void test_reader_sas_port(void)
{
	struct script s = { .subpages_supported = true, .page_0d = "log_0d_temperature.hex" };
	ww_fake_t f, f2;
	ww_drive_t d = { 0 };
	ww_health_t h;
	ww_read_report_t r;

	open_script(&s, &f);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f.x, &d, &h, &r), 0);
	CHECK(!sent_log(&f, 0x18, 0) && !h.scsi.sas_phys_source);
	ww_fake_close(&f);

	s.lists_18 = true;
	open_script(&s, &f2);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_scsi(&f2.x, &d, &h, &r), 0);
	CHECK(sent_log(&f2, 0x18, 0));
	CHECK_EQ_U64(r.n_cmds, 20);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_EQ_U64(h.scsi.n_sas_phys, 2);
	CHECK_EQ_U64(h.scsi.sas_phys[0].invalid_dwords, 16);
	CHECK_EQ_U64(h.scsi.sas_phys[0].loss_of_dword_sync, 4);
	check_log_cdbs(&f2);
	ww_fake_close(&f2);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures", src ? src : ".");
	test_reader();
	test_reader_sas_port();
	return ww_test_done("test_collect_read_scsi");
}
