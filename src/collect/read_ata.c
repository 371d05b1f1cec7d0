/* ATA reader through SAT (see collect.h): power check first, then IDENTIFY,
 * SMART, the Device Statistics log and the error and self-test logs. Only
 * sat.h commands are sent, all of them reads. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collect/drivedb.h"
#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/collect.h"

/* Record a command; a failure the SAT layer saw without the backend having
 * classified it (short transfer, not issued) must not read as "ok". */
static void ww_ata_note(ww_read_report_t *r, const char *what, ww_cmd_status_t *st, int rc)
{
	if (rc < 0 && rc != -ENODATA &&
	    (st->result == WW_CMD_OK || st->result == WW_CMD_RECOVERED)) {
		if (rc == -EMSGSIZE) {
			st->result = WW_CMD_TRANSPORT_ERROR;
		} else {
			st->result = WW_CMD_OS_ERROR;
			st->os_errno = -rc;
		}
	}
	ww_report_cmd(r, what, st);
}

static void ww_ata_decoded(ww_read_report_t *r, int rc)
{
	if (rc < 0 && rc != -ENOTSUP)
		r->n_decode_errors++;
}

/* One Device Statistics page of registry row d, when page 0 lists it and the
 * GP log directory counts enough pages; a page answering with another page
 * number is not that page (ww_decoder_run: -EINVAL, a decode error). */
static void ww_read_ata_devstat_page(ww_xport_t *x, const ww_decoder_t *d, uint8_t *buf,
				     ww_health_t *h, ww_read_report_t *r)
{
	uint8_t page = (uint8_t)d->sub;
	ww_cmd_status_t st;
	bool listed = false;
	char what[48];
	int rc;

	for (size_t k = 0; k < h->ata.n_devstat_pages; k++)
		listed |= h->ata.devstat_pages[k] == page;
	if (!listed || page >= h->ata.devstat_log_pages)
		return;
	rc = ww_sat_read_log_ext(x, 0x04, page, 1, buf, WW_ATA_SECTOR, &st);
	snprintf(what, sizeof(what), "READ LOG EXT 04h page %u", page);
	ww_ata_note(r, what, &st, rc);
	if (rc < 0)
		return;
	ww_ata_decoded(r, ww_decoder_run(d, buf, WW_ATA_SECTOR, h));
}

/* GP log directory, Device Statistics page 0 (the list), then every page of
 * log 04h the decoder registry has a row for. */
static void ww_read_ata_devstat(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[WW_ATA_SECTOR];
	ww_cmd_status_t st;
	int rc;

	rc = ww_sat_read_log_ext(x, 0x00, 0, 1, buf, sizeof(buf), &st);
	ww_ata_note(r, "READ LOG EXT 00h (GP log directory)", &st, rc);
	if (rc < 0)
		return;
	ww_ata_decoded(r, rc = ww_decode_ata_log_directory(buf, sizeof(buf), h));
	if (rc < 0 || !h->ata.devstat_supported)
		return;

	rc = ww_sat_read_log_ext(x, 0x04, 0, 1, buf, sizeof(buf), &st);
	ww_ata_note(r, "READ LOG EXT 04h page 0", &st, rc);
	if (rc < 0)
		return;
	ww_ata_decoded(r, rc = ww_decode_ata_devstat(buf, sizeof(buf), h));
	if (rc < 0 || buf[2] != 0x00)
		return;

	for (size_t i = 0; i < ww_n_decoders; i++) {
		const ww_decoder_t *d = &ww_decoders[i];

		if (d->cmd == WW_DEC_ATA_LOG && d->id == 0x04 && d->sub != WW_DEC_ANY &&
		    d->sub != 0x00)
			ww_read_ata_devstat_page(x, d, buf, h, r);
	}
}

/* One log into its registry row's decoder: READ LOG EXT of `pages` pages
 * from page 0 (smart: SMART READ LOG, one sector) */
static void ww_read_ata_log(ww_xport_t *x, bool smart, uint8_t log, uint16_t pages,
			    const char *what, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[4 * WW_ATA_SECTOR];
	const ww_decoder_t *d = smart ? ww_decoder_find(WW_DEC_ATA_SMART, 0xd5, log) :
					ww_decoder_find(WW_DEC_ATA_LOG, log, 0);
	ww_cmd_status_t st;
	int rc;

	if (pages > 4)
		pages = 4;
	rc = smart ? ww_sat_smart_read_log(x, log, buf, &st) :
		     ww_sat_read_log_ext(x, log, 0, pages, buf, (size_t)pages * WW_ATA_SECTOR, &st);
	ww_ata_note(r, what, &st, rc);
	if (rc == 0)
		ww_ata_decoded(r, ww_decoder_run(d, buf, (size_t)pages * WW_ATA_SECTOR, h));
}

/* The error and self-test logs, as smartctl -x reads them: the extended log
 * where the GP log directory lists it, else the SMART log where SMART READ
 * DATA (byte 370 bit 0, byte 367 bit 4) or IDENTIFY (word 84/87 bits 0, 1)
 * says the drive keeps it. Reads only (SMART READ LOG, READ LOG EXT). */
static void ww_read_ata_logs(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r)
{
	const ww_ata_t *a = &h->ata;

	if (!a->smart_supported || !a->smart_enabled)
		return;
	if (a->xerror_log_pages)
		ww_read_ata_log(x, false, 0x03, 1, "READ LOG EXT 03h page 0", h, r);
	else if ((a->has_smart_caps && (a->errorlog_capability & 1)) || a->id_smart_errlog)
		ww_read_ata_log(x, true, 0x01, 1, "SMART READ LOG 01h", h, r);
	if (a->xselftest_log_pages)
		ww_read_ata_log(x, false, 0x07, a->xselftest_log_pages, "READ LOG EXT 07h", h, r);
	else if ((a->has_smart_caps && (a->offline_capability & 0x10)) || a->id_smart_selftest)
		ww_read_ata_log(x, true, 0x06, 1, "SMART READ LOG 06h", h, r);
}

int ww_read_ata(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r)
{
	uint8_t buf[512];
	ww_cmd_status_t st;
	ww_smart_status_t status;
	ww_ata_regs_t regs;
	uint8_t mode;
	int rc;

	(void)d;
	if (!x || !h || !r)
		return -EINVAL;
	h->protocol = WW_PROTO_ATA;

	/* A drive that cannot answer the power check is read anyway, as
	 * smartctl -n standby does; one that says standby is left alone. */
	rc = ww_sat_check_power_mode(x, &mode, &st);
	ww_ata_note(r, "CHECK POWER MODE", &st, rc);
	if (rc == 0) {
		h->ata.power_mode = mode;
		h->ata.has_power_mode = true;
		if (ww_sat_power_mode_is_standby(mode)) {
			r->standby = true;
			return 0;
		}
	}

	rc = ww_sat_identify(x, buf, &st);
	ww_ata_note(r, "IDENTIFY DEVICE", &st, rc);
	if (rc < 0)
		return rc;
	rc = ww_decode_ata_identify(buf, sizeof(buf), h);
	if (rc < 0) {
		r->n_decode_errors++;
		return rc;
	}

	if (h->ata.smart_supported) {
		rc = ww_sat_smart_return_status(x, &regs, &st);
		if (rc == 0 && (status = ww_decode_ata_smart_status(regs.lba)) == WW_SMART_UNKNOWN)
			rc = -ENODATA;
		ww_ata_note(r, "SMART RETURN STATUS", &st, rc);
		if (rc == 0)
			h->ata.return_status = status;

		rc = ww_sat_smart_read_data(x, buf, &st);
		ww_ata_note(r, "SMART READ DATA", &st, rc);
		if (rc == 0) {
			ww_ata_decoded(r, rc = ww_decode_ata_smart_data(buf, sizeof(buf), h));
			if (rc == 0) {
				rc = ww_sat_smart_read_thresholds(x, buf, &st);
				ww_ata_note(r, "SMART READ THRESHOLDS", &st, rc);
				if (rc == 0)
					ww_ata_decoded(r, ww_decode_ata_smart_thresholds(
								  buf, sizeof(buf), h));
			}
		}
	}

	if (h->ata.gp_log_supported)
		ww_read_ata_devstat(x, h, r);
	ww_read_ata_logs(x, h, r);

	ww_ata_finish_db(h); /* + drive database presets: per-model attribute meanings */
	return 0;
}
