/* NVMe reader (contract in collect.h): the NVMe rows of the decoder registry
 * (ww_decoders[]) in their order, each sent when its read-when predicate
 * says so over what the rows before it decoded: Identify Controller,
 * Identify Namespace per namespace, the SMART / Health log, the endurance
 * logs, the Error Information and Device Self-test logs. Nothing but
 * Identify and Get Log Page is ever sent, Get Log Page with RAE = 1 (the
 * transport's allow-list): nothing is cleared. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/collect.h"

/* Send row d's command as a says (Get Log Page with an LSI, Get Log Page, or
 * Identify). st holds the outcome; returns 0 when a->len bytes arrived, else
 * -errno (-EMSGSIZE for a short transfer). */
static int send(ww_xport_t *x, const ww_decoder_t *d, const ww_nvme_args_t *a, uint8_t *buf,
		ww_cmd_status_t *st)
{
	const ww_xport_ops_t *o = x->ops;
	uint8_t code = (uint8_t)d->id;
	int rc = -ENOTSUP;

	memset(buf, 0, a->len);
	memset(st, 0, sizeof(*st));
	if (a->lsi && !o->nvme_get_log_lsi) {
		/* a capture or replay: cannot send an LSI; not sent, no errno */
		st->result = WW_CMD_UNSUPPORTED;
		return -ENOTSUP;
	}
	if (a->lsi)
		rc = o->nvme_get_log_lsi(x, code, a->nsid, a->lsi, buf, a->len, st);
	else if (d->cmd == WW_DEC_NVME_LOG && o->nvme_get_log)
		rc = o->nvme_get_log(x, code, a->nsid, buf, a->len, st);
	else if (d->cmd == WW_DEC_NVME_IDENTIFY && o->nvme_identify)
		rc = o->nvme_identify(x, code, a->nsid, buf, a->len, st);
	if (rc < 0)
		ww_cmd_status_not_issued(st, rc);
	rc = ww_cmd_errno(st);
	if (rc == 0 && st->data_len < a->len)
		rc = -EMSGSIZE;
	return rc;
}

/* Read and decode one row; ns names the namespace of a WW_DEC_EACH_NS row
 * (nsid in a). The command is noted after decoding, because a page of
 * another layout (d->nvme.other_layout) is noted as such. Returns the
 * command's or the decoder's error for a WW_DEC_REQUIRED row, else 0. */
static int read_row(ww_xport_t *x, const ww_decoder_t *d, ww_nvme_args_t *a, const char *ns,
		    ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[WW_NVME_IDENTIFY_LEN];
	ww_cmd_status_t st;
	size_t n_ns = h->n_nvme_ns;
	char what[64];
	int rc, drc = 0;

	if (d->nvme.when && !d->nvme.when(h, a))
		return 0;
	if (!a->len || a->len > sizeof(buf))
		return 0; /* not a row the reader can send (test_decode_registry) */
	if (ns)
		snprintf(what, sizeof(what), "%s %u", d->nvme.what, a->nsid);
	else if (a->lsi && d->nvme.lsi_name)
		snprintf(what, sizeof(what), "%s %s %u", d->nvme.what, d->nvme.lsi_name, a->lsi);
	else
		snprintf(what, sizeof(what), "%s", d->nvme.what);
	rc = send(x, d, a, buf, &st);
	if (rc == 0)
		drc = ww_decoder_run(d, buf, a->len, h);
	if (drc == -ENOTSUP && d->nvme.other_layout) {
		st.result = WW_CMD_UNSUPPORTED;
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " (%s)",
			 d->nvme.other_layout);
		drc = 0;
	}
	ww_report_cmd(r, what, &st);
	if (drc < 0)
		r->n_decode_errors++;
	if (drc == 0 && rc == 0 && ns && h->n_nvme_ns == n_ns + 1) {
		h->nvme_ns[n_ns].nsid = a->nsid;
		snprintf(h->nvme_ns[n_ns].block_name, sizeof(h->nvme_ns[n_ns].block_name), "%s",
			 ns);
	}
	if (!(d->flags & WW_DEC_REQUIRED))
		return 0;
	return rc ? rc : drc;
}

/* NSID from a namespace block name: "nvme0n3" -> 3, "nvme1c2n5" -> 5. */
static uint32_t nsid_of(const char *name)
{
	const char *n = strrchr(name, 'n');
	unsigned long v;
	char *end;

	if (!n || n == name || n[1] < '0' || n[1] > '9')
		return 0;
	errno = 0;
	v = strtoul(n + 1, &end, 10);
	if (errno || *end || v == 0 || v >= 0xFFFFFFFFul)
		return 0;
	return (uint32_t)v;
}

/* A WW_DEC_EACH_NS row for every namespace of d with a number, in order */
static int read_each_ns(ww_xport_t *x, const ww_decoder_t *row, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r)
{
	int rc = 0;

	for (size_t i = 0; i < d->n_namespaces && i < WW_NVME_MAX_NS && rc == 0; i++) {
		ww_nvme_args_t a = { .nsid = nsid_of(d->namespaces[i]), .len = row->len };

		if (a.nsid)
			rc = read_row(x, row, &a, d->namespaces[i], h, r);
	}
	return rc;
}

int ww_read_nvme(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r)
{
	int rc = 0;

	if (!x || !x->ops || !d || !h || !r)
		return -EINVAL;
	h->protocol = WW_PROTO_NVME;

	for (size_t i = 0; i < ww_n_decoders && rc == 0; i++) {
		const ww_decoder_t *row = &ww_decoders[i];
		ww_nvme_args_t a = { .nsid = row->nvme.nsid, .len = row->len };

		if (row->protocol != WW_PROTO_NVME || !row->nvme.what)
			continue;
		if (row->cmd != WW_DEC_NVME_IDENTIFY && row->cmd != WW_DEC_NVME_LOG)
			continue;
		if (row->flags & WW_DEC_EACH_NS)
			rc = read_each_ns(x, row, d, h, r);
		else
			rc = read_row(x, row, &a, NULL, h, r);
	}
	ww_nvme_finish(h);
	return rc;
}
