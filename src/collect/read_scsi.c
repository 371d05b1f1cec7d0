/* SCSI/SAS reader (see collect.h): identity from INQUIRY, VPD and READ
 * CAPACITY(16), health from LOG SENSE pages.
 *
 * LOG SENSE is always sent with SP = 0 (SP = 1 makes the device save its
 * parameters, a write) and PC = 01b (cumulative values). Page 0x00 comes first
 * and only listed pages are read, those the decoder registry (ww_decoders[])
 * has a row for; VPD pages likewise. Page 0x0D/0x01 (environmental reporting):
 * we ask for the supported pages and subpages list (0x00/0xFF); when the drive
 * answers it, 0x0D/0x01 is read iff listed (scsi_debug lists it); drives that
 * predate subpages (0x00/0xFF unsupported) get 0x0D/0x01 only when page 0x0D
 * gave no current temperature (absent or 0xFF), as a probe whose
 * "unsupported" answer is counted as a capability, not an error. Page
 * 0x0E/0x01 (utilization) is read only when 0x00/0xFF lists it. Then READ
 * DEFECT DATA for the grown defect list header (read_defects). */
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

/* Read and decode the page of registry row d; ww_decoder_run() rejects a
 * response that is not the page asked for. A page without the parameter its
 * decoder looks for (-ENOENT: 0x0E/0x01 without Workload Utilization) is
 * nothing to decode, not a decode error. Returns true when it decoded. */
static bool read_log_page(ww_xport_t *x, const ww_decoder_t *d, uint8_t *buf, ww_health_t *h,
			  ww_read_report_t *r)
{
	ww_cmd_status_t st;
	int rc;

	if (!d || log_sense(x, (uint8_t)d->id, (uint8_t)d->sub, buf, &st, r) < 0)
		return false;
	rc = ww_decoder_run(d, buf, st.data_len, h);
	decoded(r, rc == -ENOENT ? 0 : rc);
	return rc == 0;
}

/* The registry's LOG SENSE rows that name one page, other than the
 * supported-pages lists (page 0x00), with or without a subpage. */
static bool health_log_row(const ww_decoder_t *d, bool subpage)
{
	return d->cmd == WW_DEC_SCSI_LOG && d->id != WW_DEC_ANY && d->id != 0x00 &&
	       (d->sub != 0) == subpage;
}

/* Page 0x00 first; then every page of the registry the drive lists, pages
 * before subpages (each in registry order). */
static void read_logs(ww_xport_t *x, uint8_t *buf, ww_health_t *h, ww_read_report_t *r)
{
	bool have_subpages;

	if (!read_log_page(x, ww_decoder_find(WW_DEC_SCSI_LOG, 0x00, 0x00), buf, h, r))
		return;
	have_subpages = read_log_page(x, ww_decoder_find(WW_DEC_SCSI_LOG, 0x00, 0xff), buf, h, r);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ww_n_decoders; i++) {
			const ww_decoder_t *d = &ww_decoders[i];

			if (health_log_row(d, pass == 1) &&
			    ww_scsi_page_supported(h, (uint8_t)d->id, (uint8_t)d->sub))
				read_log_page(x, d, buf, h, r);
		}
	/* no subpage list: probe 0x0D/0x01 when 0x0D gave no current temperature */
	if (!have_subpages && ww_scsi_page_supported(h, 0x0d, 0) &&
	    !WW_HAS(h->scsi.temperature_celsius))
		read_log_page(x, ww_decoder_find(WW_DEC_SCSI_LOG, 0x0d, 0x01), buf, h, r);
}

/* READ DEFECT DATA (10), then (12) when (10) is unsupported or its 16-bit
 * length is full: the grown list header only (REQ_GLIST = 1, REQ_PLIST = 0,
 * format 100b bytes from index, allocation length = the header), as smartctl
 * asks for "Elements in grown defect list". A data-in command: the device
 * sends its list, nothing is changed. */
static void read_defects(ww_xport_t *x, uint8_t *buf, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t c10[10] = { 0x37, 0, 0x08 | 0x04, 0, 0, 0, 0, 0, 4, 0 };
	uint8_t c12[12] = { 0xb7, 0x08 | 0x04, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0 };
	ww_cmd_status_t st;
	int rc;

	if (h->scsi.peripheral_type != 0) /* direct-access block devices */
		return;
	rc = run(x, c10, sizeof(c10), buf, 4, "READ DEFECT DATA(10)", &st, r);
	if (rc == 0) {
		rc = ww_decoder_run(ww_decoder_find(WW_DEC_SCSI_READ_DEFECT, 10, 0), buf,
				    st.data_len, h);
		if (rc != -EOVERFLOW) {
			decoded(r, rc == -ENODATA || rc == -ENOTSUP ? 0 : rc);
			return;
		}
	} else if (rc != -ENOTSUP) {
		return;
	}
	if (run(x, c12, sizeof(c12), buf, 8, "READ DEFECT DATA(12)", &st, r) == 0) {
		rc = ww_decoder_run(ww_decoder_find(WW_DEC_SCSI_READ_DEFECT, 12, 0), buf,
				    st.data_len, h);
		decoded(r, rc == -ENODATA || rc == -ENOTSUP ? 0 : rc);
	}
}

/* The registry's VPD pages other than 0x00: those VPD 0x00 lists, or without
 * a list every page not marked WW_DEC_LISTED_ONLY. */
static void read_vpds(ww_xport_t *x, const uint8_t *list, size_t list_len, bool have_list,
		      uint8_t *buf, ww_health_t *h, ww_read_report_t *r)
{
	ww_cmd_status_t st;
	char what[32];

	for (size_t i = 0; i < ww_n_decoders; i++) {
		const ww_decoder_t *d = &ww_decoders[i];

		if (d->cmd != WW_DEC_SCSI_VPD || d->id == 0x00)
			continue;
		if (have_list ? ww_scsi_vpd_lists(list, list_len, (uint8_t)d->id) != 1
			      : (d->flags & WW_DEC_LISTED_ONLY))
			continue;
		snprintf(what, sizeof(what), "INQUIRY VPD 0x%02x", d->id);
		if (inquiry(x, true, (uint8_t)d->id, buf, INQ_ALLOC, what, &st, r) == 0)
			decoded(r, ww_decoder_run(d, buf, st.data_len, h));
	}
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
	read_vpds(x, vpd, vpd_len, vpd_list, buf, h, r);

	/* READ CAPACITY(16): SERVICE ACTION IN(16), service action 10h */
	uint8_t rc16[16] = { 0x9e, 0x10, [13] = 32 };
	if (run(x, rc16, sizeof(rc16), buf, 32, "READ CAPACITY(16)", &st, r) == 0)
		decoded(r, ww_decode_scsi_read_capacity16(buf, st.data_len, h));
	if (!WW_HAS(h->logical_block_bytes) && d && d->logical_block_bytes)
		WW_SET(h->logical_block_bytes, d->logical_block_bytes,
		       "sysfs queue/logical_block_size");

	read_logs(x, buf, h, r);
	read_defects(x, buf, h, r);
	ww_scsi_finish(h);
	rc = 0;
out:
	free(buf);
	return rc;
}
