/* ww_read_nvme through a scripted in-memory transport, and the live NVMe
 * transport's error paths on nodes that are not NVMe devices.
 *
 * The scripted transport answers Identify Controller/Namespace with hand-built
 * structures and Get Log Page 02h with the spec-constructed netdata log
 * (tests/fixtures/nvme/netdata-nvme-cli-2.11.hex), and records every command
 * so the test can assert what was sent. No ../shared/fixtures needed. */
#include "ww_test.h"

#include "decode/nvme.h"
#include "wearwatch/collect.h"

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
	 * NSID FFFFFFFFh of 512 bytes; nothing else */
	CHECK_EQ_U64(f.n_sent, 4);
	CHECK(!f.sent[0].is_log && f.sent[0].code == 0x01 && f.sent[0].nsid == 0);
	CHECK(!f.sent[1].is_log && f.sent[1].code == 0x00 && f.sent[1].nsid == 1);
	CHECK(!f.sent[2].is_log && f.sent[2].code == 0x00 && f.sent[2].nsid == 2);
	CHECK(f.sent[3].is_log && f.sent[3].code == 0x02);
	CHECK_EQ_U64(f.sent[3].nsid, 0xFFFFFFFFu);
	CHECK_EQ_U64(f.sent[3].len, 512);
	CHECK_EQ_U64(f.sent[0].len, 4096);

	CHECK_EQ_U64(r.n_cmds, 4);
	CHECK_STR(r.cmds[0].what, "Identify Controller");
	CHECK_STR(r.cmds[1].what, "Identify Namespace 1");
	CHECK_STR(r.cmds[3].what, "Get Log Page 02h");
	CHECK_EQ_U64(r.n_errors, 0);
	CHECK_EQ_U64(r.n_unsupported, 0);
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
	test_live_transport();
	return ww_test_done("test_nvme_read");
}
