/* Capture transport: forwards to a live one and records (see capture.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/transport.h"

struct ww_capture {
	ww_xport_t *inner;
	FILE *out;
	const char *const *redact;
};

static void hex_line(FILE *f, const char *tag, const uint8_t *b, size_t n)
{
	fprintf(f, "%s ", tag);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
	fputc('\n', f);
}

/* Replace s by 'X' in buf, as stored and as ATA IDENTIFY stores strings
 * (each 16-bit word byte-swapped), at any alignment. */
static void redact_one(uint8_t *buf, size_t len, const char *s)
{
	size_t n = strlen(s);
	uint8_t *t;

	if (n < 4 || n > len || !(t = malloc(len)))
		return;
	for (size_t i = 0; i < len; i++)
		t[i] = (i ^ 1) < len ? buf[i ^ 1] : buf[i];
	for (size_t off = 0; off + n <= len; off++) {
		if (!memcmp(t + off, s, n))
			for (size_t k = off; k < off + n; k++)
				if ((k ^ 1) < len)
					buf[k ^ 1] = 'X';
		if (!memcmp(buf + off, s, n))
			memset(buf + off, 'X', n);
	}
	free(t);
}

static void redact(struct ww_capture *c, uint8_t *buf, size_t len)
{
	uint8_t sum = 0;

	if (!c->redact || !*c->redact)
		return;
	for (size_t i = 0; i < len && len == 512; i++)
		sum += buf[i];
	for (const char *const *s = c->redact; *s; s++)
		redact_one(buf, len, *s);
	/* ATA IDENTIFY: byte 511 is the checksum when byte 510 is A5h; keep a
	 * valid one valid */
	if (len == 512 && buf[510] == 0xa5 && sum == 0) {
		sum = 0;
		for (size_t i = 0; i < 511; i++)
			sum += buf[i];
		buf[511] = (uint8_t)-sum;
	}
}

static void record(struct ww_capture *c, const char *req, int ret,
		   const uint8_t *buf, const ww_cmd_status_t *st)
{
	FILE *f = c->out;
	size_t n = st->data_len;
	uint8_t *copy = NULL;

	fprintf(f, "cmd %s\n", req);
	fprintf(f, "st ret=%d result=%s errno=%d scsi_status=0x%02x sense_key=0x%x "
		   "asc=0x%02x ascq=0x%02x nvme_status=0x%04x nvme_result=0x%08x data_len=%zu\n",
		ret, ww_cmd_result_name(st->result), st->os_errno, st->scsi_status,
		st->sense_key, st->asc, st->ascq, st->nvme_status, st->nvme_result, n);
	if (st->sense_len)
		hex_line(f, "sense", st->sense, st->sense_len > sizeof(st->sense) ?
						 sizeof(st->sense) : st->sense_len);
	if (n && buf && (copy = malloc(n))) {
		memcpy(copy, buf, n);
		redact(c, copy, n);
		for (size_t off = 0; off < n; off += 32)
			hex_line(f, "data", copy + off, n - off < 32 ? n - off : 32);
	}
	free(copy);
	fputs("end\n", f);
	fflush(f);
}

static int cap_scsi_in(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len,
		       uint8_t *buf, size_t len, int timeout_s, ww_cmd_status_t *st)
{
	struct ww_capture *c = x->priv;
	char req[128];
	size_t o;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = c->inner->ops->scsi_in(c->inner, cdb, cdb_len, buf, len, timeout_s, st);
	o = (size_t)snprintf(req, sizeof(req), "scsi_in cdb=");
	for (size_t i = 0; i < cdb_len && o + 3 < sizeof(req); i++)
		o += (size_t)snprintf(req + o, sizeof(req) - o, "%02x", cdb[i]);
	snprintf(req + o, sizeof(req) - o, " len=%zu", len);
	if (st->data_len > len)
		st->data_len = len;
	record(c, req, ret, buf, st);
	return ret;
}

static int cap_identify(ww_xport_t *x, uint8_t cns, uint32_t nsid, uint8_t *buf,
			size_t len, ww_cmd_status_t *st)
{
	struct ww_capture *c = x->priv;
	char req[96];
	int ret;

	memset(st, 0, sizeof(*st));
	ret = c->inner->ops->nvme_identify(c->inner, cns, nsid, buf, len, st);
	snprintf(req, sizeof(req), "nvme_identify cns=%u nsid=%u len=%zu", cns, nsid, len);
	if (st->data_len > len)
		st->data_len = len;
	record(c, req, ret, buf, st);
	return ret;
}

static int cap_get_log(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint8_t *buf,
		       size_t len, ww_cmd_status_t *st)
{
	struct ww_capture *c = x->priv;
	char req[96];
	int ret;

	memset(st, 0, sizeof(*st));
	ret = c->inner->ops->nvme_get_log(c->inner, lid, nsid, buf, len, st);
	snprintf(req, sizeof(req), "nvme_get_log lid=%u nsid=%u len=%zu", lid, nsid, len);
	if (st->data_len > len)
		st->data_len = len;
	record(c, req, ret, buf, st);
	return ret;
}

static void cap_close(ww_xport_t *x)
{
	struct ww_capture *c = x->priv;

	if (c)
		ww_xport_close(c->inner);
	free(c);
	x->priv = NULL;
}

static const ww_xport_ops_t cap_ops = {
	.scsi_in = cap_scsi_in,
	.nvme_identify = cap_identify,
	.nvme_get_log = cap_get_log,
	.close = cap_close,
};

int ww_xport_capture_wrap(ww_xport_t *inner, FILE *out, const char *const *red,
			  ww_xport_t *outer)
{
	struct ww_capture *c;

	if (!inner || !out || !outer)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->inner = inner;
	c->out = out;
	c->redact = red;
	memset(outer, 0, sizeof(*outer));
	outer->ops = &cap_ops;
	outer->fd = -1;
	snprintf(outer->path, sizeof(outer->path), "%s", inner->path);
	outer->priv = c;
	return 0;
}
