/* ww_read_nvme through a scripted in-memory transport, and the live NVMe
 * transport's error paths on nodes that are not NVMe devices.
 *
 * The scripted transport answers Identify Controller/Namespace with hand-built
 * structures and Get Log Page 02h with the spec-constructed netdata log
 * (tests/fixtures/nvme/netdata-nvme-cli-2.11.hex), and records every command
 * so the test can assert what was sent. No ../shared/fixtures needed. */
#include "ww_test.h"

#include "wearwatch/decode.h"
#include "wearwatch/collect.h"
#include "wearwatch/model.h"

#include <stdbool.h>

struct sent {
	bool is_log;
	uint8_t code;
	uint32_t nsid;
	size_t len;
};

struct fake {
	struct sent sent[16];
	size_t n_sent;
	uint8_t smart[512];
	ww_cmd_result_t log_result;	/* what Get Log Page ends with */
	uint16_t log_status;
	bool ns2_inactive;		/* Identify NS 2 returns zeros */
	bool has_c0;			/* C0h answered with c0[], else Invalid Log Page */
	uint8_t c0[512];
};

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int f_identify(ww_xport_t *x, uint8_t cns, uint32_t nsid, uint8_t *buf,
		      size_t len, ww_cmd_status_t *st)
{
	struct fake *f = x->priv;

	f->sent[f->n_sent++] = (struct sent){ false, cns, nsid, len };
	memset(st, 0, sizeof(*st));
	memset(buf, 0, len);
	if (cns == WW_NVME_CNS_CTRL) {
		memset(buf + 4, ' ', 20);
		memcpy(buf + 4, "SN0001", 6);
		memset(buf + 24, ' ', 40);
		memcpy(buf + 24, "Fake NVMe", 9);
		memcpy(buf + 64, "FW1     ", 8);
		put_le(buf + 266, 343, 2);
		put_le(buf + 268, 373, 2);
		put_le(buf + 516, 2, 4);
	} else if (cns == WW_NVME_CNS_NS && !(nsid == 2 && f->ns2_inactive)) {
		put_le(buf, nsid == 1 ? 2097152 : 1024, 8);
		buf[26] = nsid == 1 ? 0 : 1;
		buf[128 + 2] = 9;
		buf[132 + 2] = 12;
		buf[120] = 0x52, buf[121] = 0x54, buf[127] = (uint8_t)nsid;
	} else if (cns != WW_NVME_CNS_NS) {
		st->result = WW_CMD_UNSUPPORTED;
		st->nvme_status = 0x0002;
		return 0;
	}
	st->result = WW_CMD_OK;
	st->data_len = len;
	return 0;
}

static int f_get_log(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint8_t *buf,
		     size_t len, ww_cmd_status_t *st)
{
	struct fake *f = x->priv;

	f->sent[f->n_sent++] = (struct sent){ true, lid, nsid, len };
	memset(st, 0, sizeof(*st));
	if (lid == 0xC0) {
		/* QEMU's controller answers Invalid Log Page (SCT 1, SC 09h) */
		st->result = f->has_c0 ? WW_CMD_OK : WW_CMD_UNSUPPORTED;
		st->nvme_status = f->has_c0 ? 0 : 0x0109;
		if (f->has_c0 && len >= 512) {
			memcpy(buf, f->c0, 512);
			st->data_len = 512;
		}
		return 0;
	}
	st->result = f->log_result;
	st->nvme_status = f->log_status;
	if (f->log_result == WW_CMD_OK && lid == WW_NVME_LID_SMART && len >= 512) {
		memcpy(buf, f->smart, 512);
		st->data_len = 512;
	}
	return 0;
}

static const ww_xport_ops_t fake_ops = {
	.nvme_identify = f_identify,
	.nvme_get_log = f_get_log,
};

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

static void setup(struct fake *f, ww_xport_t *x, ww_drive_t *d)
{
	memset(x, 0, sizeof(*x));
	x->ops = &fake_ops;
	x->fd = -1;
	x->priv = f;
	memset(d, 0, sizeof(*d));
	snprintf(d->ctrl, sizeof(d->ctrl), "nvme0");
	snprintf(d->namespaces[0], sizeof(d->namespaces[0]), "nvme0n1");
	snprintf(d->namespaces[1], sizeof(d->namespaces[1]), "nvme0n2");
	d->n_namespaces = 2;
	d->protocol = WW_PROTO_NVME;
}

static void test_read_ok(void)
{
	static struct fake f;
	static ww_health_t h;
	static ww_read_report_t r;
	ww_xport_t x;
	ww_drive_t d;

	memset(&f, 0, sizeof(f));
	CHECK(load_smart(f.smart));
	f.log_result = WW_CMD_OK;
	setup(&f, &x, &d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));

	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), 0);

	/* exactly: Identify CNS 01h, Identify CNS 00h NSID 1 and 2, Get Log 02h
	 * NSID FFFFFFFFh of 512 bytes, Get Log C0h (OCP SMART extended) NSID
	 * FFFFFFFFh of 512 bytes; nothing else (CTRATT has no endurance groups:
	 * no 09h) */
	CHECK_EQ_U64(f.n_sent, 5);
	CHECK(!f.sent[0].is_log && f.sent[0].code == 0x01 && f.sent[0].nsid == 0);
	CHECK(!f.sent[1].is_log && f.sent[1].code == 0x00 && f.sent[1].nsid == 1);
	CHECK(!f.sent[2].is_log && f.sent[2].code == 0x00 && f.sent[2].nsid == 2);
	CHECK(f.sent[3].is_log && f.sent[3].code == 0x02);
	CHECK_EQ_U64(f.sent[3].nsid, 0xFFFFFFFFu);
	CHECK_EQ_U64(f.sent[3].len, 512);
	CHECK_EQ_U64(f.sent[0].len, 4096);
	CHECK(f.sent[4].is_log && f.sent[4].code == 0xC0);
	CHECK_EQ_U64(f.sent[4].nsid, 0xFFFFFFFFu);
	CHECK_EQ_U64(f.sent[4].len, 512);

	CHECK_EQ_U64(r.n_cmds, 5);
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
}

static void test_read_failures(void)
{
	static struct fake f;
	static ww_health_t h;
	static ww_read_report_t r;
	ww_xport_t x;
	ww_drive_t d;

	/* Get Log Page rejected with Invalid Log Page (SCT 1, SC 09h):
	 * unsupported, not an error; identity still decoded */
	memset(&f, 0, sizeof(f));
	f.log_result = WW_CMD_UNSUPPORTED;
	f.log_status = 0x0109;
	f.ns2_inactive = true;
	setup(&f, &x, &d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), -ENOTSUP);
	CHECK_EQ_U64(r.n_unsupported, 1);
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.cmds[3].nvme_status, 0x0109);
	/* inactive namespace 2 (all-zero Identify) is a decode error */
	CHECK_EQ_U64(r.n_decode_errors, 1);
	CHECK_EQ_U64(h.n_nvme_ns, 1);
	CHECK(!h.has_nvme_smart);
	CHECK_STR(h.model, "Fake NVMe");
	CHECK_EQ_U64(h.capacity_bytes.value, 2097152ull * 512);

	/* device error on the log; a namespace name without a number is skipped */
	memset(&f, 0, sizeof(f));
	f.log_result = WW_CMD_DEVICE_ERROR;
	f.log_status = 0x0006;
	setup(&f, &x, &d);
	snprintf(d.namespaces[1], sizeof(d.namespaces[1]), "nvme0");
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), -EIO);
	CHECK_EQ_U64(r.n_errors, 1);
	CHECK_EQ_U64(f.n_sent, 3);

	/* a transport without NVMe ops */
	static const ww_xport_ops_t none = { 0 };
	x.ops = &none;
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), -ENOTSUP);
	CHECK_EQ_U64(r.n_unsupported, 3);
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
	static struct fake f;
	static ww_health_t h;
	static ww_read_report_t r;
	static ww_endurance_t e;
	ww_model_in_t in = { 0 };
	ww_xport_t x;
	ww_drive_t d;

	memset(&f, 0, sizeof(f));
	CHECK(load_smart(f.smart));
	f.log_result = WW_CMD_OK;
	f.has_c0 = true;
	ocp_c0(f.c0);
	setup(&f, &x, &d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), 0);
	CHECK_EQ_U64(f.n_sent, 5);
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
	static struct fake f;
	static ww_health_t h;
	static ww_read_report_t r;
	ww_xport_t x;
	ww_drive_t d;

	memset(&f, 0, sizeof(f));
	CHECK(load_smart(f.smart));
	f.log_result = WW_CMD_OK;
	f.has_c0 = true;
	ocp_c0(f.c0);
	memcpy(f.c0 + 496, "VENDOR-LOG-C0h\0\0", 16);
	setup(&f, &x, &d);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	CHECK_EQ_I64(ww_read_nvme(&x, &d, &h, &r), 0);
	CHECK_EQ_U64(f.n_sent, 5);
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

/* The live transport: open errors, and the ioctl failing on a node that is
 * not an NVMe device (/dev/null: ENOTTY -> unsupported). */
static void test_live_transport(void)
{
	ww_xport_t x;
	ww_cmd_status_t st;
	uint8_t buf[4096];

	CHECK_EQ_I64(ww_xport_open_nvme("/nonexistent/nvme9", &x), -ENOENT);
	CHECK_EQ_I64(x.fd, -1);
	CHECK_EQ_I64(ww_xport_open_nvme(NULL, &x), -EINVAL);

	CHECK_EQ_I64(ww_xport_open_nvme("/dev/null", &x), 0);
	CHECK(x.fd >= 0);
	CHECK(x.ops && x.ops->scsi_in == NULL);
	CHECK_STR(x.path, "/dev/null");
	CHECK_EQ_I64(x.ops->nvme_identify(&x, 1, 0, buf, sizeof(buf), &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_I64(st.os_errno, ENOTTY);
	CHECK_EQ_U64(st.data_len, 0);
	CHECK_EQ_I64(x.ops->nvme_get_log(&x, 2, 0xFFFFFFFF, buf, 512, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_I64(x.ops->nvme_identify(&x, 1, 0, buf, 100, &st), -EMSGSIZE);
	CHECK_EQ_I64(x.ops->nvme_get_log(&x, 2, 0, buf, 0, &st), -EINVAL);
	ww_xport_close(&x);
	CHECK_EQ_I64(x.fd, -1);
}

int main(void)
{
	test_read_ok();
	test_read_failures();
	test_read_ocp_c0();
	test_read_c0_not_ocp();
	test_live_transport();
	return ww_test_done("test_nvme_read");
}
