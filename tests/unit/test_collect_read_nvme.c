/* The NVMe reader (src/collect/read_nvme.c): ww_read_nvme through the
 * replay-backed fake device (ww_fake_device.h).
 *
 * The drive is SPEC-CONSTRUCTED (NVMe Base 2.0): Identify Controller and
 * Namespace data structures built here, Get Log Page
 * 02h answered with the netdata log (tests/fixtures/nvme/netdata-nvme-cli-2.11.hex),
 * Get Log Page C0h with Invalid Log Page (SCT 1, SC 09h) as QEMU's controller
 * answers it, or with an OCP C0h log built below, Get Log Page 01h (Error
 * Information, ELPE 63: the reader asks for the newest 16 entries) with four
 * entries whose Error Counts 212..209 end at the netdata log's Number of
 * Error Information Log Entries (212), and, where OACS bit 4 is set, Get Log
 * Page 06h (Device Self-test) with a passed short test at 100 h and an
 * extended test that failed in a segment (result 7) at 90 h, failing LBA
 * 4096 (NVMe Base 2.0 Self-test Result Data Structure); written as capture
 * blocks so the reader's commands and what it was answered read as a
 * capture. Where a test needs Get Log Page with an LSI (log 09h), a
 * recording transport in front of the fake answers it (struct rec).
 * No ../shared/fixtures needed. */
#include "ww_test.h"
#include "ww_fake_device.h"

#include "wearwatch/decode.h"
#include "wearwatch/collect.h"
#include "wearwatch/model.h"

#include <stdbool.h>
#include <stdlib.h>

/* what the constructed drive answers */
struct nvme_drive {
	uint8_t smart[512];
	ww_cmd_result_t log_result;	/* what Get Log Page 02h ends with */
	uint16_t log_status;
	bool ns2_inactive;		/* Identify NS 2 returns zeros */
	bool has_c0;			/* C0h answered with c0[], else Invalid Log Page */
	uint8_t c0[512];
	bool self_test;			/* OACS bit 4, 06h answered */
	bool endurance_groups;          /* CTRATT bit 4, namespace 1 in ENDGID 1 */
	bool ctrl_unsupported;          /* Identify Controller: Invalid Opcode */
};

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Identify Controller: SN (bytes 4-23), MN (24-63), FR (64-71), WCTEMP 343 K
 * and CCTEMP 373 K (266, 268), NN 2 (516); no endurance groups in CTRATT. */
static void id_ctrl(uint8_t *buf, bool self_test)
{
	memset(buf, 0, 4096);
	memset(buf + 4, ' ', 20);
	memcpy(buf + 4, "SN0001", 6);
	memset(buf + 24, ' ', 40);
	memcpy(buf + 24, "Fake NVMe", 9);
	memcpy(buf + 64, "FW1     ", 8);
	put_le(buf + 266, 343, 2);
	put_le(buf + 268, 373, 2);
	put_le(buf + 516, 2, 4);
	buf[262] = 63; /* ELPE: 64 error log entries */
	if (self_test)
		buf[256] = 0x10; /* OACS bit 4: Device Self-test */
}

/* Error Information log, 16 entries of 64 bytes: Error Count (0-7), SQID
 * (8-9), Status Field (12-13); the newest first */
static void error_log(uint8_t *buf)
{
	memset(buf, 0, 1024);
	for (int i = 0; i < 4; i++) {
		put_le(buf + 64 * i, 212 - i, 8);
		put_le(buf + 64 * i + 8, 1, 2);
		put_le(buf + 64 * i + 12, 0x0281 << 1, 2); /* SCT 2, SC 81h: read error */
	}
}

/* Device Self-test log: 20 results of 28 bytes from byte 4, Fh = unused */
static void self_test_log(uint8_t *buf)
{
	memset(buf, 0, 564);
	for (int i = 0; i < 20; i++)
		buf[4 + 28 * i] = 0x0f;
	buf[4] = 0x10;                 /* short (1h), no error */
	put_le(buf + 4 + 4, 100, 8);
	buf[32] = 0x27;                /* extended (2h), segment failed (7h) */
	buf[32 + 2] = 0x02;            /* failing LBA valid */
	put_le(buf + 32 + 4, 90, 8);
	put_le(buf + 32 + 16, 4096, 8);
}

/* Identify Namespace: NSZE (0), FLBAS (26) choosing LBA format 0 (512 B,
 * LBADS 9 at 130) or 1 (4096 B, LBADS 12 at 134), EUI64 (120) */
static void id_ns(uint8_t *buf, uint32_t nsid)
{
	memset(buf, 0, 4096);
	put_le(buf, nsid == 1 ? 2097152 : 1024, 8);
	buf[26] = nsid == 1 ? 0 : 1;
	buf[128 + 2] = 9;
	buf[132 + 2] = 12;
	buf[120] = 0x52, buf[121] = 0x54, buf[127] = (uint8_t)nsid;
}

/* The drive as capture text, opened as the fake device */
static void open_drive(const struct nvme_drive *dr, ww_fake_t *f)
{
	static uint8_t buf[4096];
	char req[96];
	ww_cap_t c;

	ww_cap_open(&c);
	id_ctrl(buf, dr->self_test);
	if (dr->endurance_groups)
		put_le(buf + 96, WW_NVME_CTRATT_ENDURANCE_GROUPS, 4);
	ww_req_nvme_identify(req, sizeof(req), WW_NVME_CNS_CTRL, 0);
	if (dr->ctrl_unsupported)
		ww_cap_nvme_status(&c, req, WW_CMD_UNSUPPORTED, 0x0001);
	else
		ww_cap_ok(&c, req, buf, 4096);
	id_ns(buf, 1);
	if (dr->endurance_groups)
		put_le(buf + 102, 1, 2); /* ENDGID */
	ww_cap_ok(&c, ww_req_nvme_identify(req, sizeof(req), WW_NVME_CNS_NS, 1), buf, 4096);
	if (dr->ns2_inactive)
		memset(buf, 0, sizeof(buf));
	else
		id_ns(buf, 2);
	ww_cap_ok(&c, ww_req_nvme_identify(req, sizeof(req), WW_NVME_CNS_NS, 2), buf, 4096);
	ww_req_nvme_log(req, sizeof(req), WW_NVME_LID_SMART, 0xFFFFFFFFu, 512);
	if (dr->log_result == WW_CMD_OK)
		ww_cap_ok(&c, req, dr->smart, 512);
	else
		ww_cap_nvme_status(&c, req, dr->log_result, dr->log_status);
	ww_req_nvme_log(req, sizeof(req), 0xC0, 0xFFFFFFFFu, 512);
	if (dr->has_c0)
		ww_cap_ok(&c, req, dr->c0, 512);
	else
		ww_cap_nvme_status(&c, req, WW_CMD_UNSUPPORTED, 0x0109);
	error_log(buf);
	ww_cap_ok(&c, ww_req_nvme_log(req, sizeof(req), 0x01, 0xFFFFFFFFu, 1024), buf, 1024);
	self_test_log(buf);
	ww_cap_ok(&c, ww_req_nvme_log(req, sizeof(req), 0x06, 0xFFFFFFFFu, 564), buf, 564);
	CHECK(ww_fake_open_cap(f, &c) == 0);
	ww_cap_free(&c);
}

/* A number field ("nsid", "len", "cns", "lid") of sent request i */
static unsigned long long field(const ww_fake_t *f, size_t i, const char *name)
{
	char key[16];
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = i < f->n_sent ? strstr(f->sent[i], key) : NULL;
	return p ? strtoull(p + strlen(key), NULL, 10) : ~0ull;
}

static bool is_log(const ww_fake_t *f, size_t i)
{
	return i < f->n_sent && !strncmp(f->sent[i], "nvme_get_log ", 13);
}

static bool is_identify(const ww_fake_t *f, size_t i)
{
	return i < f->n_sent && !strncmp(f->sent[i], "nvme_identify ", 14);
}

static bool load_smart(uint8_t *out)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char p[1024];
	size_t len;
	unsigned char *txt;

	snprintf(p, sizeof(p), "%s/tests/fixtures/nvme/netdata-nvme-cli-2.11.hex",
		 src ? src : ".");
	txt = ww_read_file(NULL, p, &len);
	if (!txt)
		return false;
	for (size_t i = 0; i < len; i++)
		if (txt[i] == '#')
			while (i < len && txt[i] != '\n')
				txt[i++] = ' ';
	size_t n = ww_hex_to_bytes((char *)txt, out, 512);
	free(txt);
	return n == 512;
}

static void setup(ww_drive_t *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->ctrl, sizeof(d->ctrl), "nvme0");
	snprintf(d->namespaces[0], sizeof(d->namespaces[0]), "nvme0n1");
	snprintf(d->namespaces[1], sizeof(d->namespaces[1]), "nvme0n2");
	d->n_namespaces = 2;
	d->protocol = WW_PROTO_NVME;
}

static void test_read_ok(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	ww_fake_t f;
	ww_drive_t d;

	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	open_drive(&dr, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));

	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), 0);
	ww_fake_sent(&f);

	/* exactly: Identify CNS 01h, Identify CNS 00h NSID 1 and 2, Get Log 02h
	 * NSID FFFFFFFFh of 512 bytes, Get Log C0h (OCP SMART extended) NSID
	 * FFFFFFFFh of 512 bytes, Get Log 01h of 16 entries; nothing else (CTRATT
	 * has no endurance groups: no 09h; OACS without self-test: no 06h) */
	CHECK_EQ_U64(f.n_sent, 6);
	CHECK(is_log(&f, 5) && field(&f, 5, "lid") == 0x01 && field(&f, 5, "len") == 1024);
	CHECK(is_identify(&f, 0) && field(&f, 0, "cns") == 0x01 && field(&f, 0, "nsid") == 0);
	CHECK(is_identify(&f, 1) && field(&f, 1, "cns") == 0x00 && field(&f, 1, "nsid") == 1);
	CHECK(is_identify(&f, 2) && field(&f, 2, "cns") == 0x00 && field(&f, 2, "nsid") == 2);
	CHECK(is_log(&f, 3) && field(&f, 3, "lid") == 0x02);
	CHECK_EQ_U64(field(&f, 3, "nsid"), 0xFFFFFFFFu);
	CHECK_EQ_U64(field(&f, 3, "len"), 512);
	CHECK_EQ_U64(field(&f, 0, "len"), 4096);
	CHECK(is_log(&f, 4) && field(&f, 4, "lid") == 0xC0);
	CHECK_EQ_U64(field(&f, 4, "nsid"), 0xFFFFFFFFu);
	CHECK_EQ_U64(field(&f, 4, "len"), 512);

	CHECK_EQ_U64(r.n_cmds, 6);
	CHECK_STR(r.cmds[5].what, "Get Log Page 01h");
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_NVME].entries, 4);
	CHECK_EQ_U64(h.error_logs[WW_ERRLOG_NVME].count, 212);
	CHECK(!h.self_tests[WW_SELFTEST_NVME].source);
	CHECK_STR(r.cmds[0].what, "Identify Controller");
	CHECK_STR(r.cmds[1].what, "Identify Namespace 1");
	CHECK_STR(r.cmds[3].what, "Get Log Page 02h");
	CHECK_STR(r.cmds[4].what, "Get Log Page C0h");
	CHECK_EQ_U64(r.cmds[4].nvme_status, 0x0109);
	CHECK_EQ_U64(r.n_errors, 0);
	/* C0h Invalid Log Page: a capability, not an error */
	CHECK_EQ_U64(r.n_unsupported, 1);
	CHECK(!WW_HAS(h.endurance_estimate_bytes));
	CHECK_EQ_U64(r.n_decode_errors, 0);

	CHECK(h.protocol == WW_PROTO_NVME);
	CHECK_STR(h.model, "Fake NVMe");
	CHECK_STR(h.serial, "SN0001");
	CHECK_STR(h.firmware, "FW1");
	CHECK_EQ_I64(h.temperature_critical_celsius.value, 100);
	CHECK_EQ_U64(h.n_nvme_ns, 2);
	CHECK_EQ_U64(h.nvme_ns[0].nsid, 1);
	CHECK_STR(h.nvme_ns[1].block_name, "nvme0n2");
	CHECK_EQ_U64(h.nvme_ns[1].lba_bytes, 4096);
	/* 2097152 x 512 + 1024 x 4096 */
	CHECK_EQ_U64(h.capacity_bytes.value, 2097152ull * 512 + 1024ull * 4096);
	CHECK_EQ_U64(h.logical_block_bytes.value, 512);
	CHECK_STR(h.wwn, "eui.5254000000000001");
	/* SMART values from the netdata log */
	CHECK_EQ_I64(h.temperature_celsius.value, 51);
	CHECK_EQ_U64(h.host_written_bytes.value, 987485941760000ull);
	CHECK(h.smart_status == WW_SMART_PASSED);
	ww_fake_close(&f);
}

static void test_read_failures(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	ww_xport_t x;
	ww_fake_t f;
	ww_drive_t d;

	/* Get Log Page rejected with Invalid Log Page (SCT 1, SC 09h):
	 * unsupported, not an error; identity still decoded */
	memset(&dr, 0, sizeof(dr));
	dr.log_result = WW_CMD_UNSUPPORTED;
	dr.log_status = 0x0109;
	dr.ns2_inactive = true;
	open_drive(&dr, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), -ENOTSUP);
	CHECK_EQ_U64(r.n_unsupported, 1);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.cmds[3].nvme_status, 0x0109);
	/* inactive namespace 2 (all-zero Identify) is a decode error */
	CHECK_EQ_U64(r.n_decode_errors, 1);
	CHECK_EQ_U64(h.n_nvme_ns, 1);
	CHECK(!h.has_nvme_smart);
	CHECK_STR(h.model, "Fake NVMe");
	CHECK_EQ_U64(h.capacity_bytes.value, 2097152ull * 512);
	ww_fake_close(&f);

	/* device error on the log (Internal Error, SC 06h); a namespace name
	 * without a number is skipped */
	memset(&dr, 0, sizeof(dr));
	dr.log_result = WW_CMD_DEVICE_ERROR;
	dr.log_status = 0x0006;
	open_drive(&dr, &f);
	setup(&d);
	snprintf(d.namespaces[1], sizeof(d.namespaces[1]), "nvme0");
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), -EIO);
	CHECK_EQ_U64(r.n_errors, 1);
	CHECK_EQ_U64(ww_fake_sent(&f), 3);
	ww_fake_close(&f);

	/* a transport without NVMe ops: the live SG_IO one (on /dev/null; the
	 * reader sends it nothing) */
	CHECK_EQ_I64(ww_xport_open_sg("/dev/null", &x), 0);
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), -ENOTSUP);
	CHECK_EQ_U64(r.n_unsupported, 3);
	ww_xport_close(&x);
	CHECK_EQ_I64(ww_read_nvme(NULL, &d, &h, &r), -EINVAL);
}

/* OCP Datacenter NVMe SSD Specification 2.0, SMART / Health Information
 * Extended log (C0h), spec-constructed: bytes 0-15 Physical Media Units
 * Written (bytes), 128-129 Capacitor Health, 160-175 PLP Start Count, 176-191
 * Endurance Estimate (bytes), 494-495 Log Page Version (0003h), 496-511 Log
 * Page GUID AFD514C97C6F4F9CA4F2BFEA2810AFC5 (little-endian). Values chosen
 * here: 1 234 567 890 123 456 bytes written to media, capacitor health 97 %,
 * 12 PLP starts, endurance estimate 7 008 000 000 000 000 bytes (= a 3.84 TB
 * drive at 1 DWPD for 5 years: 3.84e12 x 365 x 5). */
static void ocp_c0(uint8_t *p)
{
	static const uint8_t guid[16] = {
		0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
		0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF,
	};

	memset(p, 0, 512);
	put_le(p + 0, 1234567890123456ull, 8);
	put_le(p + 128, 97, 2);
	put_le(p + 160, 12, 8);
	put_le(p + 176, 7008000000000000ull, 8);
	put_le(p + 494, 3, 2);
	memcpy(p + 496, guid, 16);
}

static void test_read_ocp_c0(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	static ww_endurance_t e;
	ww_model_in_t in = { 0 };
	ww_fake_t f;
	ww_drive_t d;

	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	dr.has_c0 = true;
	ocp_c0(dr.c0);
	open_drive(&dr, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), 0);
	CHECK_EQ_U64(ww_fake_sent(&f), 6); /* ... C0h, 01h */
	ww_fake_close(&f);
	CHECK_STR(r.cmds[4].what, "Get Log Page C0h");
	CHECK_EQ_U64(r.n_unsupported, 0);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_EQ_U64(h.endurance_estimate_bytes.value, 7008000000000000ull);
	CHECK_STR(h.endurance_estimate_bytes.label, "ocp_c0");
	CHECK_EQ_U64(h.media_written_bytes.value, 1234567890123456ull);
	CHECK_EQ_U64(h.capacitor_health_percent.value, 97);
	CHECK_EQ_U64(h.plp_start_count.value, 12);

	/* the model takes the drive's own OCP estimate as the rating: rated
	 * endurance used = host written (netdata log: 987 485 941 760 000 bytes)
	 * / 7.008e15 */
	in.h = &h;
	in.iface = "nvme";
	in.drive_capacity_bytes = h.capacity_bytes.value;
	in.present = true;
	ww_model_compute(&in, 1700000000, &e);
	CHECK(e.rating_source == WW_RATING_OCP_C0);
	CHECK(e.has_rated_bytes && e.rated_bytes == 7008000000000000ull);
	CHECK(e.has_rated_used && e.rated_used_ratio == 987485941760000.0 / 7008000000000000.0);
	printf("OCP C0h estimate 7.008e15 B: rated endurance used %.6f\n", e.rated_used_ratio);
}

/* A drive whose C0h is a vendor log of another layout (here: the same bytes
 * with the GUID's last byte changed, and a vendor text at 496): nothing is
 * decoded from it, it is noted as unsupported, not a decode error. */
static void test_read_c0_not_ocp(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	ww_fake_t f;
	ww_drive_t d;

	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	dr.has_c0 = true;
	ocp_c0(dr.c0);
	memcpy(dr.c0 + 496, "VENDOR-LOG-C0h\0\0", 16);
	open_drive(&dr, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), 0);
	CHECK_EQ_U64(ww_fake_sent(&f), 6); /* ... C0h, 01h */
	ww_fake_close(&f);
	CHECK_STR(r.cmds[4].what, "Get Log Page C0h (not OCP)");
	CHECK(r.cmds[4].result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_U64(r.n_unsupported, 1);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK(!WW_HAS(h.endurance_estimate_bytes));
	CHECK(!WW_HAS(h.media_written_bytes));
	CHECK(!WW_HAS(h.capacitor_health_percent));
	CHECK(!WW_HAS(h.plp_start_count));
	/* the SMART values are untouched */
	CHECK_EQ_U64(h.host_written_bytes.value, 987485941760000ull);
}

/* OACS bit 4: the Device Self-test log is read after 01h */
static void test_read_self_test(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	const ww_selftest_log_t *l = &h.self_tests[WW_SELFTEST_NVME];
	ww_fake_t f;
	ww_drive_t d;

	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	dr.self_test = true;
	open_drive(&dr, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), 0);
	CHECK_EQ_U64(ww_fake_sent(&f), 7);
	CHECK(is_log(&f, 6) && field(&f, 6, "lid") == 0x06 && field(&f, 6, "len") == 564);
	ww_fake_close(&f);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_decode_errors, 0);
	CHECK_EQ_U64(l->entries, 2);
	CHECK_EQ_U64(l->failed, 1);
	CHECK(l->has_last && l->last_passed == 1 && l->last_status == 0);
	CHECK_EQ_U64(l->last_hours, 100);
	CHECK(l->has_failing_lba);
	CHECK_EQ_U64(l->failing_lba, 4096);
}

/* A transport in front of the fake device that can also send Get Log Page
 * with a Log Specific Identifier (capture and replay cannot) and records
 * every command in the order sent: "identify cns=C nsid=N len=L" or "log
 * lid=I nsid=N len=L lsi=S". Log 09h is answered with an Endurance Group
 * Information log (NVMe Base 2.0 Figure 209, spec-constructed): Endurance
 * Estimate 3840 (units of 10^9 bytes) at bytes 32-47, Media Units Written
 * 12 at 80-95. */
struct rec {
	ww_xport_t x; /* first: what the reader gets */
	ww_xport_ops_t ops;
	ww_fake_t *f;
	char sent[32][64];
	size_t n;
};

/* the next line of t->sent (the last one again when full) */
static char *rec_line(struct rec *t)
{
	return t->sent[t->n < 32 ? t->n++ : 31];
}

static int rec_identify(ww_xport_t *x, uint8_t cns, uint32_t nsid, uint8_t *buf, size_t len,
			ww_cmd_status_t *st)
{
	struct rec *t = (struct rec *)x;

	snprintf(rec_line(t), sizeof(t->sent[0]), "identify cns=%u nsid=%u len=%zu", cns, nsid,
		 len);
	return t->f->x.ops->nvme_identify(&t->f->x, cns, nsid, buf, len, st);
}

static int rec_log(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint8_t *buf, size_t len,
		   ww_cmd_status_t *st)
{
	struct rec *t = (struct rec *)x;

	snprintf(rec_line(t), sizeof(t->sent[0]), "log lid=%u nsid=%u len=%zu lsi=0", lid, nsid,
		 len);
	return t->f->x.ops->nvme_get_log(&t->f->x, lid, nsid, buf, len, st);
}

static int rec_log_lsi(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint16_t lsi, uint8_t *buf,
		       size_t len, ww_cmd_status_t *st)
{
	struct rec *t = (struct rec *)x;

	snprintf(rec_line(t), sizeof(t->sent[0]), "log lid=%u nsid=%u len=%zu lsi=%u", lid, nsid,
		 len, lsi);
	memset(st, 0, sizeof(*st));
	if (lid != WW_NVME_LID_ENDURANCE_GROUP || lsi != 1 || len != 512) {
		st->result = WW_CMD_UNSUPPORTED;
		return 0;
	}
	memset(buf, 0, len);
	put_le(buf + 32, 3840, 8);
	put_le(buf + 80, 12, 8);
	st->result = WW_CMD_OK;
	st->data_len = len;
	return 0;
}

static void rec_open(struct rec *t, ww_fake_t *f)
{
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->ops = *f->x.ops;
	t->ops.nvme_identify = rec_identify;
	t->ops.nvme_get_log = rec_log;
	t->ops.nvme_get_log_lsi = rec_log_lsi;
	t->x.ops = &t->ops;
	t->x.fd = -1;
}

/* Sent command k is row d's: Identify of its CNS or Get Log Page of its LID */
static bool sent_is_row(const struct rec *t, size_t k, const ww_decoder_t *d)
{
	char want[32];

	snprintf(want, sizeof(want), "%s=%u ",
		 d->cmd == WW_DEC_NVME_IDENTIFY ? "identify cns" : "log lid", d->id);
	return k < t->n && !strncmp(t->sent[k], want, strlen(want));
}

/* The read is the registry's NVMe rows, in their order: on a drive where
 * every predicate holds (self-test, endurance groups, an OCP C0h), every
 * row is sent (a WW_DEC_EACH_NS row once per namespace) and noted under
 * the row's name. */
static void test_read_walks_registry(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	static struct rec t;
	size_t k = 0, rows = 0;
	ww_fake_t f;
	ww_drive_t d;

	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	dr.self_test = dr.endurance_groups = dr.has_c0 = true;
	ocp_c0(dr.c0);
	open_drive(&dr, &f);
	rec_open(&t, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&t.x, &d, &h, &r), 0);
	ww_fake_close(&f);

	for (size_t i = 0; i < ww_n_decoders; i++) {
		const ww_decoder_t *row = &ww_decoders[i];
		size_t times = row->flags & WW_DEC_EACH_NS ? d.n_namespaces : 1;

		if (row->protocol != WW_PROTO_NVME || !row->nvme.what)
			continue;
		rows++;
		for (size_t j = 0; j < times; j++, k++) {
			CHECK(sent_is_row(&t, k, row));
			CHECK(k < r.n_cmds &&
			      !strncmp(r.cmds[k].what, row->nvme.what, strlen(row->nvme.what)));
		}
	}
	CHECK_EQ_U64(rows, 7);
	CHECK_EQ_U64(t.n, k);
	CHECK_EQ_U64(r.n_cmds, k);
	CHECK_EQ_U64(r.n_errors + r.n_unsupported + r.n_decode_errors, 0);

	/* 09h: NSID 0, LSI = namespace 1's ENDGID, after C0h; its estimate wins */
	for (k = 0; k < t.n && !strstr(t.sent[k], "lid=9 "); k++)
		;
	CHECK(k < t.n && k > 0 && strstr(t.sent[k - 1], "lid=192 "));
	CHECK_STR(t.sent[k], "log lid=9 nsid=0 len=512 lsi=1");
	CHECK_STR(r.cmds[k].what, "Get Log Page 09h ENDGID 1");
	CHECK_EQ_U64(h.endurance_estimate_bytes.value, 3840000000000ull);
	CHECK_EQ_U64(h.media_written_bytes.value, 12000000000ull);
	CHECK_EQ_U64(h.plp_start_count.value, 12); /* from C0h */
	CHECK_STR(r.cmds[r.n_cmds - 1].what, "Get Log Page 06h");
}

/* A row whose predicate is false is not sent: with Identify Controller
 * rejected nothing is known of OACS, CTRATT or ELPE, so 01h, 06h and 09h
 * stay unsent; C0h, whose row has no predicate, still goes. Through the
 * capture transport (no LSI): 09h, where its predicate holds, is noted
 * unsupported without being sent. */
static void test_read_predicates(void)
{
	static struct nvme_drive dr;
	static ww_health_t h;
	static ww_read_report_t r;
	static struct rec t;
	ww_fake_t f;
	ww_drive_t d;
	size_t skipped = 0;

	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	dr.self_test = dr.endurance_groups = dr.ctrl_unsupported = true;
	open_drive(&dr, &f);
	rec_open(&t, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&t.x, &d, &h, &r), 0);
	ww_fake_close(&f);
	CHECK(!h.has_nvme_ctrl);
	for (size_t i = 0; i < ww_n_decoders; i++) {
		const ww_decoder_t *row = &ww_decoders[i];
		ww_nvme_args_t a = { .nsid = row->nvme.nsid, .len = row->len };

		if (row->protocol != WW_PROTO_NVME || !row->nvme.when || row->nvme.when(&h, &a))
			continue;
		skipped++;
		for (size_t k = 0; k < t.n; k++)
			CHECK(!sent_is_row(&t, k, row));
	}
	CHECK_EQ_U64(skipped, 3);
	CHECK_EQ_U64(t.n, 5); /* Identify Controller, 2 namespaces, 02h, C0h */
	CHECK(strstr(t.sent[4], "lid=192 "));
	CHECK_STR(r.cmds[4].what, "Get Log Page C0h");

	/* CTRATT bit 4 and an ENDGID, but no LSI in the capture transport */
	memset(&dr, 0, sizeof(dr));
	CHECK(load_smart(dr.smart));
	dr.log_result = WW_CMD_OK;
	dr.endurance_groups = true;
	open_drive(&dr, &f);
	setup(&d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&f.x, &d, &h, &r), 0);
	CHECK_EQ_U64(ww_fake_sent(&f), 6); /* ... 02h, C0h, 01h */
	ww_fake_close(&f);
	CHECK_EQ_U64(r.n_cmds, 7);
	CHECK_STR(r.cmds[5].what, "Get Log Page 09h ENDGID 1");
	CHECK(r.cmds[5].result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_U64(r.cmds[5].os_errno, 0);
	CHECK_STR(r.cmds[6].what, "Get Log Page 01h");
}

int main(void)
{
	test_read_ok();
	test_read_self_test();
	test_read_failures();
	test_read_ocp_c0();
	test_read_c0_not_ocp();
	test_read_walks_registry();
	test_read_predicates();
	return ww_test_done("test_collect_read_nvme");
}
