/* Endurance logs of an NVMe controller for the endurance model (contract in
 * collect.h):
 *  - OCP Datacenter NVMe SMART / Health Information Extended log (C0h, 512
 *    bytes, NSID FFFFFFFFh), sent to every NVMe controller: it is a read, and
 *    the only way to learn whether a drive has it. On other drives C0h is a
 *    vendor log with another layout, or the controller answers Invalid Log
 *    Page: both are "unsupported" (a capability, not an error), and nothing
 *    is decoded unless the log page GUID and version match
 *    (ww_decode_ocp_smart_ext).
 *  - Endurance Group Information log (09h), sent only when Identify
 *    Controller CTRATT bit 4 says endurance groups exist and a namespace names
 *    its ENDGID; a controller that rejects it (QEMU 7.2 answers Invalid Log
 *    Page) is "unsupported" too. Read after C0h, so where a drive has both the
 *    standard log's Endurance Estimate and Media Units Written win. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/collect.h"

static bool got_data(int rc, const ww_cmd_status_t *st, size_t want)
{
	return rc == 0 && (st->result == WW_CMD_OK || st->result == WW_CMD_RECOVERED) &&
	       st->data_len >= want;
}

static void read_ocp_c0(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[WW_NVME_OCP_C0_LEN];
	ww_cmd_status_t st = { 0 };
	int rc = -ENOTSUP;

	memset(buf, 0, sizeof(buf));
	if (x->ops->nvme_get_log)
		rc = x->ops->nvme_get_log(x, WW_NVME_LID_OCP_SMART_EXT, WW_NVME_NSID_ALL, buf,
					  sizeof(buf), &st);
	if (rc < 0)
		ww_cmd_status_not_issued(&st, rc);
	if (!got_data(rc, &st, sizeof(buf))) {
		ww_report_cmd(r, "Get Log Page C0h", &st);
		return;
	}
	rc = ww_decode_ocp_smart_ext(buf, sizeof(buf), h);
	if (rc == -ENOTSUP) {
		/* the drive's own C0h (vendor layout): not the OCP log */
		st.result = WW_CMD_UNSUPPORTED;
		ww_report_cmd(r, "Get Log Page C0h (not OCP)", &st);
		return;
	}
	ww_report_cmd(r, "Get Log Page C0h", &st);
	if (rc < 0)
		r->n_decode_errors++;
}

static void read_endurance_group(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[WW_NVME_ENDURANCE_LOG_LEN];
	ww_cmd_status_t st = { 0 };
	uint16_t endgid = 0;
	char what[48];
	int rc;

	if (!h->has_nvme_ctrl || !(h->nvme_ctrl.ctratt & WW_NVME_CTRATT_ENDURANCE_GROUPS))
		return;
	for (size_t i = 0; i < h->n_nvme_ns && !endgid; i++)
		endgid = h->nvme_ns[i].endgid;
	if (!endgid)
		return;
	snprintf(what, sizeof(what), "Get Log Page 09h ENDGID %u", endgid);
	memset(buf, 0, sizeof(buf));
	if (!x->ops->nvme_get_log_lsi) {
		st.result = WW_CMD_UNSUPPORTED;
		ww_report_cmd(r, what, &st);
		return;
	}
	rc = x->ops->nvme_get_log_lsi(x, WW_NVME_LID_ENDURANCE_GROUP, 0, endgid, buf,
				      sizeof(buf), &st);
	if (rc < 0) {
		memset(&st, 0, sizeof(st));
		st.result = WW_CMD_OS_ERROR;
		st.os_errno = -rc;
	}
	ww_report_cmd(r, what, &st);
	if (got_data(rc, &st, sizeof(buf)) &&
	    ww_decode_nvme_endurance_group(buf, sizeof(buf), h) < 0)
		r->n_decode_errors++;
}

void ww_read_nvme_endurance(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
{
	read_ocp_c0(x, h, r);
	read_endurance_group(x, h, r);
}
