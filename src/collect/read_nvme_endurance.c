/* NVMe Endurance Group Information log (09h) for the endurance model. Sent
 * only when Identify Controller CTRATT bit 4 says endurance groups exist and a
 * namespace names its ENDGID; a controller that rejects it (QEMU 7.2 answers
 * Invalid Log Page) is "unsupported", a capability, not an error. */
#include <stdio.h>
#include <string.h>

#include "decode/nvme_endurance.h"
#include "wearwatch/collect.h"

void ww_read_nvme_endurance(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
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
	if (rc == 0 && (st.result == WW_CMD_OK || st.result == WW_CMD_RECOVERED) &&
	    st.data_len >= sizeof(buf) && ww_decode_nvme_endurance_group(buf, sizeof(buf), h) < 0)
		r->n_decode_errors++;
}
