/* Replay transport: answers commands from a capture file (see capture.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/basic.h"
#include "wearwatch/transport.h"

struct ww_rblock {
	char req[128];
	int ret;
	ww_cmd_status_t st;
	uint8_t *data;
	unsigned served;
};

struct ww_replay {
	struct ww_rblock *b;
	size_t n, cap;
};

static ww_cmd_result_t result_by_name(const char *s)
{
	for (int r = 0; r < WW_CMD_RESULT_MAX; r++)
		if (!strcmp(ww_cmd_result_name((ww_cmd_result_t)r), s))
			return (ww_cmd_result_t)r;
	return WW_CMD_TRANSPORT_ERROR;
}

/* value of one hex digit, or -1 */
static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Pairs of hex digits into bytes, at most max, up to the first character that is not
 * one (end of line). Decoded here rather than by sscanf("%2x") per byte: a
 * replayed collection reads every data line again, and scanf was a third of
 * its CPU. */
static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	int hi, lo;

	while (n < max && (hi = nibble(s[0])) >= 0 && (lo = nibble(s[1])) >= 0) {
		out[n++] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	return n;
}

static void replay_free(struct ww_replay *r)
{
	for (size_t i = 0; r && i < r->n; i++)
		free(r->b[i].data);
	if (r)
		free(r->b);
	free(r);
}

static int load(FILE *f, struct ww_replay *r, int *bad)
{
	char line[512], res[32];
	struct ww_rblock *cur = NULL;
	size_t have = 0;
	bool have_st = false;
	int ln = 0;

	while (fgets(line, sizeof(line), f)) {
		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "cmd ", 4)) {
			if (cur || strlen(line + 4) >= sizeof(cur->req))
				goto bad;
			if (r->n == r->cap) {
				size_t nc = r->cap ? r->cap * 2 : 32;
				struct ww_rblock *nb = realloc(r->b, nc * sizeof(*nb));

				if (!nb)
					return -ENOMEM;
				r->b = nb;
				r->cap = nc;
			}
			cur = &r->b[r->n++];
			memset(cur, 0, sizeof(*cur));
			memcpy(cur->req, line + 4, strlen(line + 4) + 1);
			have = 0;
			have_st = false;
		} else if (!strncmp(line, "st ", 3) && cur) {
			unsigned ss, sk, asc, ascq, ns, nr;
			size_t dl;

			/* one status per block: a second one would size the
			 * data buffer anew under the bytes already read */
			if (have_st)
				goto bad;
			have_st = true;
			if (sscanf(line, "st ret=%d result=%31s errno=%d scsi_status=0x%x "
					 "sense_key=0x%x asc=0x%x ascq=0x%x nvme_status=0x%x "
					 "nvme_result=0x%x data_len=%zu",
				   &cur->ret, res, &cur->st.os_errno, &ss, &sk, &asc, &ascq,
				   &ns, &nr, &dl) != 10 || dl > (1u << 20))
				goto bad;
			cur->st.result = result_by_name(res);
			cur->st.scsi_status = (uint8_t)ss;
			cur->st.sense_key = (uint8_t)sk;
			cur->st.asc = (uint8_t)asc;
			cur->st.ascq = (uint8_t)ascq;
			cur->st.nvme_status = (uint16_t)ns;
			cur->st.nvme_result = nr;
			cur->st.data_len = dl;
			if (dl && !(cur->data = calloc(1, dl)))
				return -ENOMEM;
		} else if (!strncmp(line, "sense ", 6) && cur) {
			cur->st.sense_len = unhex(line + 6, cur->st.sense, sizeof(cur->st.sense));
		} else if (!strncmp(line, "data ", 5) && cur && cur->data && have < cur->st.data_len) {
			have += unhex(line + 5, cur->data + have, cur->st.data_len - have);
		} else if (!strcmp(line, "end") && cur) {
			if (have != cur->st.data_len)
				goto bad;
			cur = NULL;
		} else if (line[0] && line[0] != '#' && strncmp(line, "fact ", 5)) {
			goto bad;
		}
	}
	if (!cur)
		return 0;
bad:
	if (bad)
		*bad = ln;
	return -EINVAL;
}

static int answer(ww_xport_t *x, const char *req, uint8_t *buf, size_t len,
		  ww_cmd_status_t *st)
{
	struct ww_replay *r = x->priv;
	struct ww_rblock *first = NULL, *pick = NULL;

	memset(st, 0, sizeof(*st));
	/* blocks with this request, in order: the first not yet served, else
	 * the last one again */
	for (size_t i = 0; r && i < r->n; i++) {
		if (strcmp(r->b[i].req, req))
			continue;
		if (!first)
			first = &r->b[i];
		pick = &r->b[i];
		if (!r->b[i].served)
			break;
	}
	if (!pick) {
		st->result = WW_CMD_UNSUPPORTED; /* never recorded */
		return 0;
	}
	pick->served++;
	*st = pick->st;
	st->duration_ns = 0;
	if (st->data_len > len)
		st->data_len = len;
	if (buf && st->data_len)
		memcpy(buf, pick->data, st->data_len);
	(void)first;
	return pick->ret;
}

static int rp_scsi_in(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len,
		      uint8_t *buf, size_t len, int timeout_s, ww_cmd_status_t *st)
{
	static const char hex[] = "0123456789abcdef";
	char req[128];
	size_t o = (size_t)snprintf(req, sizeof(req), "scsi_in cdb=");

	/* by hand: a snprintf per byte stood out in a replayed read's profile */
	for (size_t i = 0; i < cdb_len && o + 3 < sizeof(req); i++) {
		req[o++] = hex[cdb[i] >> 4];
		req[o++] = hex[cdb[i] & 15];
	}
	req[o] = '\0';
	snprintf(req + o, sizeof(req) - o, " len=%zu", len);
	return answer(x, req, buf, len, st);
}

static int rp_identify(ww_xport_t *x, uint8_t cns, uint32_t nsid, uint8_t *buf,
		       size_t len, ww_cmd_status_t *st)
{
	char req[96];

	snprintf(req, sizeof(req), "nvme_identify cns=%u nsid=%u len=%zu", cns, nsid, len);
	return answer(x, req, buf, len, st);
}

static int rp_get_log(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint8_t *buf,
		      size_t len, ww_cmd_status_t *st)
{
	char req[96];

	snprintf(req, sizeof(req), "nvme_get_log lid=%u nsid=%u len=%zu", lid, nsid, len);
	return answer(x, req, buf, len, st);
}

static void rp_close(ww_xport_t *x)
{
	replay_free(x->priv);
	x->priv = NULL;
}

/* a transport on a loaded capture (ww_xport_open_replay_loaded): the
 * blocks stay with their owner */
static void rp_close_loaded(ww_xport_t *x)
{
	x->priv = NULL;
}

static const ww_xport_ops_t rp_ops = {
	.scsi_in = rp_scsi_in,
	.nvme_identify = rp_identify,
	.nvme_get_log = rp_get_log,
	.close = rp_close,
};

static const ww_xport_ops_t rp_loaded_ops = {
	.scsi_in = rp_scsi_in,
	.nvme_identify = rp_identify,
	.nvme_get_log = rp_get_log,
	.close = rp_close_loaded,
};

/* a transport answering from capture r, named after its file */
static void attach(ww_xport_t *out, const ww_xport_ops_t *ops, struct ww_replay *r,
		   const char *file)
{
	memset(out, 0, sizeof(*out));
	out->ops = ops;
	out->fd = -1;
	snprintf(out->path, sizeof(out->path), "%s", file);
	out->priv = r;
}

int ww_xport_open_replay_stream(FILE *f, const char *file, ww_xport_t *out, int *bad_line)
{
	ww_replay_t *r;
	int ret;

	if (!f || !file || !out)
		return -EINVAL;
	ret = ww_replay_load(f, &r, bad_line);
	if (ret < 0)
		return ret;
	attach(out, &rp_ops, r, file);
	return 0;
}

int ww_replay_load(FILE *f, ww_replay_t **out, int *bad_line)
{
	struct ww_replay *r;
	int ret;

	if (!f || !out)
		return -EINVAL;
	rewind(f);
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	ret = load(f, r, bad_line);
	if (ret < 0) {
		replay_free(r);
		return ret;
	}
	/* a kept capture holds its blocks, not the room they grew into (32
	 * at first, doubling: most captures have under ten) */
	if (r->n < r->cap) {
		struct ww_rblock *nb = r->n ? realloc(r->b, r->n * sizeof(*nb)) : NULL;

		if (nb || !r->n) {
			if (!r->n)
				free(r->b);
			r->b = nb;
			r->cap = r->n;
		}
	}
	*out = r;
	return 0;
}

void ww_replay_free(ww_replay_t *r)
{
	replay_free(r);
}

int ww_xport_open_replay_loaded(ww_replay_t *r, const char *file, ww_xport_t *out)
{
	if (!r || !file || !out)
		return -EINVAL;
	/* answered from the first block again, as a capture read anew is */
	for (size_t i = 0; i < r->n; i++)
		r->b[i].served = 0;
	attach(out, &rp_loaded_ops, r, file);
	return 0;
}

int ww_xport_open_replay(const char *file, ww_xport_t *out, int *bad_line)
{
	FILE *f;
	int ret;

	if (!file || !out)
		return -EINVAL;
	f = ww_fopen_regular(file); /* a FIFO or /dev/zero would never end */
	if (!f)
		return -errno;
	ret = ww_xport_open_replay_stream(f, file, out, bad_line);
	fclose(f);
	return ret;
}

size_t ww_replay_n_cmds(const ww_xport_t *x)
{
	return x && (x->ops == &rp_ops || x->ops == &rp_loaded_ops) && x->priv
		? ((struct ww_replay *)x->priv)->n
		: 0;
}
