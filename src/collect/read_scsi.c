/* SCSI/SAS reader (see collect.h): identity from INQUIRY, VPD and READ
 * CAPACITY(16), health from LOG SENSE pages.
 *
 * LOG SENSE is always sent with SP = 0 (SP = 1 makes the device save its
 * parameters, a write) and PC = 01b (cumulative values). Page 0x00 comes first
 * and only listed pages are read. Page 0x0D/0x01 (environmental reporting):
 * we ask for the supported pages and subpages list (0x00/0xFF); when the drive
 * answers it, 0x0D/0x01 is read iff listed (scsi_debug lists it); drives that
 * predate subpages (0x00/0xFF unsupported) get 0x0D/0x01 only when page 0x0D
 * gave no current temperature (absent or 0xFF), as a probe whose
 * "unsupported" answer is counted as a capability, not an error. Page
 * 0x0E/0x01 (utilization) is read only when 0x00/0xFF lists it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/collect.h"

#define SCSI_TIMEOUT_S 20
#define LOG_ALLOC 0xfffc /* max allocation length, multiple of 4 for HBAs */
#define INQ_ALLOC 0xfc

/* Issue one command and note it. Returns 0 when data arrived (st->data_len
 * bytes valid), else a negative errno describing the failure. */
static int run(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, uint8_t *buf,
	       size_t len, const char *what, ww_cmd_status_t *st, ww_read_report_t *r)
{
	int rc = x->ops->scsi_in(x, cdb, cdb_len, buf, len, SCSI_TIMEOUT_S, st);

	if (rc < 0) {
		memset(st, 0, sizeof(*st));
		st->result = WW_CMD_OS_ERROR;
		st->os_errno = -rc;
		ww_report_cmd(r, what, st);
		return rc;
	}
	ww_report_cmd(r, what, st);
	return ww_cmd_errno(st);
}

static int inquiry(ww_xport_t *x, bool evpd, uint8_t page, uint8_t *buf, size_t len,
		   const char *what, ww_cmd_status_t *st, ww_read_report_t *r)
{
	uint8_t cdb[6] = { 0x12, evpd ? 1 : 0, page, (uint8_t)(len >> 8), (uint8_t)len, 0 };

	return run(x, cdb, sizeof(cdb), buf, len, what, st, r);
}

static void decoded(ww_read_report_t *r, int rc)
{
	if (rc < 0 && r)
		r->n_decode_errors++;
}

int ww_scsi_probe_ata(ww_xport_t *x, bool *is_ata)
{
	uint8_t buf[INQ_ALLOC];
	ww_cmd_status_t st;
	int rc;

	if (!x || !x->ops || !x->ops->scsi_in || !is_ata)
		return -EINVAL;
	*is_ata = false;
	/* VPD 0x89 alone is not enough: scsi_debug lists it too. A SATL (libata,
	 * SAS HBAs) reports T10 vendor "ATA", the same test smartctl uses to pick
	 * -d sat on its own. */
	rc = inquiry(x, false, 0x00, buf, 36, "INQUIRY", &st, NULL);
	if (rc < 0)
		return rc;
	if (st.data_len < 16 || memcmp(buf + 8, "ATA     ", 8) != 0)
		return 0;
	rc = inquiry(x, true, 0x00, buf, sizeof(buf), "INQUIRY VPD 0x00", &st, NULL);
	if (rc == -ENOTSUP)
		return 0; /* no VPD pages at all: not a SATL */
	if (rc < 0)
		return rc;
	rc = ww_decode_scsi_vpd_pages(buf, st.data_len);
	if (rc < 0)
		return rc;
	*is_ata = rc == 1;
	return 0;
}

/* LOG SENSE (SPC-5): byte 2 = PC 01b << 6 | page, byte 3 subpage, SP = 0. */
static int log_sense(ww_xport_t *x, uint8_t page, uint8_t subpage, uint8_t *buf,
		     ww_cmd_status_t *st, ww_read_report_t *r)
{
	uint8_t cdb[10] = { 0x4d, 0x00, (uint8_t)(0x40 | (page & 0x3f)), subpage,
			    0, 0, 0, (uint8_t)(LOG_ALLOC >> 8), (uint8_t)LOG_ALLOC, 0 };
	char what[48];

	if (subpage)
		snprintf(what, sizeof(what), "LOG SENSE 0x%02x/0x%02x", page, subpage);
	else
		snprintf(what, sizeof(what), "LOG SENSE 0x%02x", page);
	return run(x, cdb, sizeof(cdb), buf, LOG_ALLOC, what, st, r);
}

/* Read and decode one page; the response must be the page asked for.
 * Returns true when it decoded. */
static bool read_log_page(ww_xport_t *x, uint8_t page, uint8_t subpage, uint8_t *buf,
			  ww_health_t *h, ww_read_report_t *r)
{
	ww_cmd_status_t st;
	uint8_t pg, spg;
	int rc;

	if (log_sense(x, page, subpage, buf, &st, r) < 0)
		return false;
	if (ww_scsi_log_begin(buf, st.data_len, &pg, &spg, NULL) < 0 ||
	    pg != page || spg != subpage) {
		decoded(r, -EINVAL);
		return false;
	}
	rc = ww_decode_scsi_log_page(buf, st.data_len, h);
	decoded(r, rc);
	return rc == 0;
}

/* Utilization log page (SBC-4, 0x0E/0x01): workload utilization in 0.01 %
 * of the vendor's annual workload rating. Asked only when the supported pages
 * and subpages list names it; a page without the Workload Utilization
 * parameter is nothing to decode, not a decode error. */
static void read_utilization(ww_xport_t *x, uint8_t *buf, ww_health_t *h, ww_read_report_t *r)
{
	ww_cmd_status_t st;
	uint8_t pg, spg;
	int rc;

	if (log_sense(x, 0x0e, 0x01, buf, &st, r) < 0)
		return;
	if (ww_scsi_log_begin(buf, st.data_len, &pg, &spg, NULL) < 0 || pg != 0x0e || spg != 0x01) {
		decoded(r, -EINVAL);
		return;
	}
	rc = ww_decode_scsi_utilization(buf, st.data_len, h);
	decoded(r, rc == -ENOENT ? 0 : rc);
}

static const uint8_t health_pages[] = { 0x02, 0x03, 0x05, 0x0d, 0x0e, 0x11, 0x15, 0x19, 0x2f };

static void read_logs(ww_xport_t *x, uint8_t *buf, ww_health_t *h, ww_read_report_t *r)
{
	bool have_subpages;

	if (!read_log_page(x, 0x00, 0x00, buf, h, r))
		return;
	have_subpages = read_log_page(x, 0x00, 0xff, buf, h, r);
	for (size_t i = 0; i < sizeof(health_pages); i++)
		if (ww_scsi_page_supported(h, health_pages[i], 0))
			read_log_page(x, health_pages[i], 0, buf, h, r);
	if (have_subpages ? ww_scsi_page_supported(h, 0x0d, 0x01)
			  : (ww_scsi_page_supported(h, 0x0d, 0) &&
			     !WW_HAS(h->scsi.temperature_celsius)))
		read_log_page(x, 0x0d, 0x01, buf, h, r);
	if (have_subpages && ww_scsi_page_supported(h, 0x0e, 0x01))
		read_utilization(x, buf, h, r);
}

int ww_read_scsi(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r)
{
	ww_cmd_status_t st;
	uint8_t *buf;
	bool vpd_list = false;
	int rc;

	if (!x || !x->ops || !x->ops->scsi_in || !h)
		return -EINVAL;
	buf = malloc(LOG_ALLOC);
	if (!buf)
		return -ENOMEM;
	h->protocol = WW_PROTO_SCSI;
	h->scsi.protocol_id = 0xff;

	rc = inquiry(x, false, 0, buf, 96, "INQUIRY", &st, r);
	if (rc == 0) {
		rc = ww_decode_scsi_inquiry(buf, st.data_len, h);
		decoded(r, rc);
	}
	if (rc < 0)
		goto out;

	/* VPD: use the supported list when there is one, else just try */
	if (inquiry(x, true, 0x00, buf, INQ_ALLOC, "INQUIRY VPD 0x00", &st, r) == 0) {
		int l = ww_scsi_vpd_lists(buf, st.data_len, 0x00);

		decoded(r, l);
		vpd_list = l >= 0;
	}
	uint8_t vpd[INQ_ALLOC];
	size_t vpd_len = vpd_list ? st.data_len : 0;
	memcpy(vpd, buf, vpd_len);
	static const struct {
		uint8_t page;
		const char *what;
		int (*fn)(const uint8_t *, size_t, ww_health_t *);
	} vpds[] = {
		{ 0x80, "INQUIRY VPD 0x80", ww_decode_scsi_vpd_serial },
		{ 0x83, "INQUIRY VPD 0x83", ww_decode_scsi_vpd_devid },
		{ 0xb1, "INQUIRY VPD 0xb1", ww_decode_scsi_vpd_bdc },
	};
	for (size_t i = 0; i < sizeof(vpds) / sizeof(vpds[0]); i++) {
		if (vpd_list ? ww_scsi_vpd_lists(vpd, vpd_len, vpds[i].page) != 1
			     : vpds[i].page == 0xb1)
			continue;
		if (inquiry(x, true, vpds[i].page, buf, INQ_ALLOC, vpds[i].what, &st, r) == 0)
			decoded(r, vpds[i].fn(buf, st.data_len, h));
	}

	/* READ CAPACITY(16): SERVICE ACTION IN(16), service action 10h */
	uint8_t rc16[16] = { 0x9e, 0x10, [13] = 32 };
	if (run(x, rc16, sizeof(rc16), buf, 32, "READ CAPACITY(16)", &st, r) == 0)
		decoded(r, ww_decode_scsi_read_capacity16(buf, st.data_len, h));
	if (!WW_HAS(h->logical_block_bytes) && d && d->logical_block_bytes)
		WW_SET(h->logical_block_bytes, d->logical_block_bytes,
		       "sysfs queue/logical_block_size");

	read_logs(x, buf, h, r);
	ww_scsi_finish(h);
	rc = 0;
out:
	free(buf);
	return rc;
}
