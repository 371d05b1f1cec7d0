/* NVMe reader (contract in collect.h): Identify Controller, Identify
 * Namespace per namespace, SMART / Health log, the endurance logs, the Error
 * Information and Device Self-test logs. Nothing but Identify and Get Log
 * Page is ever sent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/collect.h"

/* Issue one command (Get Log Page when is_log, else Identify), note it in the
 * report, and return 0 when want bytes arrived, else -errno. */
static int run(ww_xport_t *x, ww_read_report_t *r, const char *what, int is_log,
	       uint8_t code, uint32_t nsid, uint8_t *buf, size_t want)
{
	ww_cmd_status_t st = { 0 };
	int rc;

	memset(buf, 0, want);
	if (is_log)
		rc = x->ops->nvme_get_log ?
			x->ops->nvme_get_log(x, code, nsid, buf, want, &st) : -ENOTSUP;
	else
		rc = x->ops->nvme_identify ?
			x->ops->nvme_identify(x, code, nsid, buf, want, &st) : -ENOTSUP;
	if (rc < 0)
		ww_cmd_status_not_issued(&st, rc);
	ww_report_cmd(r, what, &st);
	rc = ww_cmd_errno(&st);
	if (rc == 0 && st.data_len < want)
		rc = -EMSGSIZE;
	return rc;
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

/* Error Information log (01h): the newest 16 entries at most, as smartctl
 * reads them (ELPE + 1 are kept); the Device Self-test log (06h) only where
 * OACS bit 4 says the controller has device self-test. Get Log Page with
 * RAE = 1: nothing is cleared. */
static void read_nvme_logs(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[16 * WW_NVME_ERROR_ENTRY_LEN];
	size_t n = 16;

	if (!h->has_nvme_ctrl)
		return;
	if ((size_t)h->nvme_ctrl.elpe + 1 < n)
		n = (size_t)h->nvme_ctrl.elpe + 1;
	if (run(x, r, "Get Log Page 01h", 1, WW_NVME_LID_ERROR, WW_NVME_NSID_ALL, buf,
		n * WW_NVME_ERROR_ENTRY_LEN) == 0 &&
	    ww_decode_nvme_error_log(buf, n * WW_NVME_ERROR_ENTRY_LEN, h) < 0)
		r->n_decode_errors++;
	if (!(h->nvme_ctrl.oacs & WW_NVME_OACS_SELFTEST))
		return;
	if (run(x, r, "Get Log Page 06h", 1, WW_NVME_LID_SELFTEST, WW_NVME_NSID_ALL, buf,
		WW_NVME_SELFTEST_LOG_LEN) == 0 &&
	    ww_decode_nvme_selftest_log(buf, WW_NVME_SELFTEST_LOG_LEN, h) < 0)
		r->n_decode_errors++;
}

int ww_read_nvme(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[WW_NVME_IDENTIFY_LEN];
	char what[48];
	int rc;

	if (!x || !x->ops || !d || !h || !r)
		return -EINVAL;
	h->protocol = WW_PROTO_NVME;

	if (run(x, r, "Identify Controller", 0, WW_NVME_CNS_CTRL, 0, buf,
		sizeof(buf)) == 0 &&
	    ww_decode_nvme_id_ctrl(buf, sizeof(buf), h) < 0)
		r->n_decode_errors++;

	for (size_t i = 0; i < d->n_namespaces && i < WW_NVME_MAX_NS; i++) {
		uint32_t nsid = nsid_of(d->namespaces[i]);
		ww_nvme_ns_t ns = { 0 };

		if (!nsid || h->n_nvme_ns >= WW_NVME_MAX_NS)
			continue;
		snprintf(what, sizeof(what), "Identify Namespace %u", nsid);
		if (run(x, r, what, 0, WW_NVME_CNS_NS, nsid, buf, sizeof(buf)))
			continue;
		if (ww_decode_nvme_id_ns(buf, sizeof(buf), &ns) < 0) {
			r->n_decode_errors++;
			continue;
		}
		ns.nsid = nsid;
		snprintf(ns.block_name, sizeof(ns.block_name), "%s", d->namespaces[i]);
		h->nvme_ns[h->n_nvme_ns++] = ns;
	}

	rc = run(x, r, "Get Log Page 02h", 1, WW_NVME_LID_SMART, WW_NVME_NSID_ALL,
		 buf, WW_NVME_SMART_LOG_LEN);
	if (rc == 0) {
		rc = ww_decode_nvme_smart_log(buf, WW_NVME_SMART_LOG_LEN, h);
		if (rc < 0)
			r->n_decode_errors++;
	}

	ww_nvme_finish(h);
	if (rc == 0) {
		ww_read_nvme_endurance(x, h, r);
		read_nvme_logs(x, h, r);
	}
	return rc;
}
