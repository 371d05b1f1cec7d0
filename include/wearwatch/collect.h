/* Collect: reads one drive once. Joins transport (commands) and decode (bytes
 * to record) in the order each protocol needs; runs on worker threads only,
 * never on the HTTP or timer thread.
 *
 * Power rules every reader keeps: the caller has already checked sysfs runtime
 * status (ww_runtime_suspended); the ATA reader sends CHECK POWER MODE first and
 * stops when the drive is in standby. Nothing here writes to a drive.
 */
#ifndef WEARWATCH_COLLECT_H
#define WEARWATCH_COLLECT_H

#include "wearwatch/drive.h"
#include "wearwatch/record.h"
#include "wearwatch/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WW_READ_MAX_CMDS 48

/** One command a reader sent and how it ended (for the JSON API, `scan`, and
 * the per-drive error counters). */
typedef struct ww_cmd_note {
	char what[48];          /* "LOG SENSE 0x0d", "SMART READ DATA", "Get Log Page 02h" */
	ww_cmd_result_t result;
	int os_errno;
	uint8_t sense_key, asc, ascq;
	uint16_t nvme_status;
} ww_cmd_note_t;

/** What a read did, beside the record it filled. */
typedef struct ww_read_report {
	ww_cmd_note_t cmds[WW_READ_MAX_CMDS];
	size_t n_cmds;
	unsigned n_errors;       /* commands that failed (not "unsupported") */
	unsigned n_unsupported;  /* pages/commands the drive does not support */
	unsigned n_decode_errors; /* bytes arrived but a decoder rejected them */
	bool standby;            /* ATA CHECK POWER MODE said standby/sleep: stopped */
} ww_read_report_t;

/** Append a command outcome to the report and count it. */
void ww_report_cmd(ww_read_report_t *r, const char *what, const ww_cmd_status_t *st);

/** NVMe: Identify Controller, Identify Namespace for each namespace in
 * d->namespaces, SMART / Health log (02h, NSID FFFFFFFFh). x is the controller.
 * Returns 0 when the SMART log was read, -errno otherwise (report says why). */
int ww_read_nvme(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** NVMe endurance logs (src/collect/read_nvme_endurance.c): the OCP SMART
 * extended log C0h (512 bytes, NSID FFFFFFFFh) on every controller, decoded
 * only when its GUID/version match (else noted "unsupported"), then the
 * Endurance Group Information log 09h (LSI = first namespace ENDGID) only
 * when h->nvme_ctrl.ctratt bit 4 is set; fill endurance_estimate_bytes,
 * media_written_bytes, capacitor health, PLP start count. Called by
 * ww_read_nvme after the SMART log. */
void ww_read_nvme_endurance(ww_xport_t *x, ww_health_t *h, ww_read_report_t *r);

/** ATA through SAT: CHECK POWER MODE (stop if standby: returns 0 with
 * r->standby set), IDENTIFY DEVICE, SMART RETURN STATUS, SMART READ DATA,
 * SMART READ THRESHOLDS, READ LOG EXT of the GP log directory and the Device
 * Statistics pages. Returns 0 when IDENTIFY succeeded, -errno otherwise. */
int ww_read_ata(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** SCSI: INQUIRY, VPD 0x80/0x83/0xB1, READ CAPACITY(16), LOG SENSE (SP=0,
 * PC=01b) of page 0x00 and every supported page of 0x02, 0x03, 0x05, 0x0D
 * (and 0x0D/0x01), 0x0E, 0x11, 0x15, 0x19, 0x2F. Returns 0 when INQUIRY
 * succeeded, -errno otherwise. */
int ww_read_scsi(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** Ask an SG device whether it is an ATA device behind a SAT layer: standard
 * INQUIRY vendor is "ATA" and VPD page 0x00 lists page 0x89 (ATA Information;
 * scsi_debug lists 0x89 too, so the page alone is not proof). *is_ata set;
 * returns 0 or -errno. */
int ww_scsi_probe_ata(ww_xport_t *x, bool *is_ata);

/** Read one drive on an already open transport (live, capture or replay): the
 * protocol dispatch (SAT probe for SG devices), then identity the device did
 * not report filled from sysfs. h and r are not cleared first. Returns as
 * ww_collect_drive. */
int ww_collect_on_xport(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r);

/** Read one drive once: checks runtime status, opens the right transport
 * read-only, dispatches by protocol, closes. Returns 0, 1 when the drive was
 * left alone because it is runtime-suspended or in standby, or -errno.
 * sysroot is "" for the live system. */
int ww_collect_drive(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
		     ww_read_report_t *r);

#ifdef __cplusplus
}
#endif
#endif
