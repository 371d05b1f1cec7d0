/* SCSI decoders: standard INQUIRY, VPD pages, READ CAPACITY(16) and LOG SENSE
 * pages into the health record.
 *
 * All functions are pure: no I/O, allocation, logging or clock. They read at
 * most `len` bytes of `buf` (pass the bytes that arrived, i.e. the transport's
 * data_len, not the allocation length) and return 0 or a negative errno:
 *  -EINVAL   the bytes are not the page they claim to be, or are inconsistent
 *            (wrong page code, parameter running past the page end)
 *  -EMSGSIZE the buffer is shorter than the header says / than the fixed part
 *  -ENOTSUP  a LOG SENSE page we have no handler for
 *  -ENODEV   INQUIRY peripheral qualifier 011b (no logical unit)
 * On error the record is left as it was (each decoder commits at the end).
 *
 * Specs (cited by clause name; numbers differ between revisions): SPC-5
 * INQUIRY command, log parameters, vital product data parameters; SBC-4 READ
 * CAPACITY (16) command, its VPD pages and log pages.
 */
#ifndef WW_DECODE_SCSI_H
#define WW_DECODE_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

/* ------------------------------------------------- INQUIRY and VPD --- */

/** Standard INQUIRY data (SPC-5 standard INQUIRY data): peripheral device type (byte 0 bits
 * 4-0) -> h->scsi.peripheral_type; T10 VENDOR IDENTIFICATION (bytes 8-15) ->
 * h->vendor, PRODUCT IDENTIFICATION (16-31) -> h->model, PRODUCT REVISION LEVEL
 * (32-35) -> h->firmware, each space-trimmed. Needs 36 bytes (buffer and
 * ADDITIONAL LENGTH + 5), else -EMSGSIZE. Qualifier 011b -> -ENODEV. */
int ww_decode_scsi_inquiry(const uint8_t *buf, size_t len, ww_health_t *h);

/** VPD 0x00 Supported VPD Pages (SPC-5): returns 1 when `page` is
 * listed, 0 when not, -EINVAL (not page 0x00) or -EMSGSIZE (truncated). */
int ww_scsi_vpd_lists(const uint8_t *buf, size_t len, uint8_t page);

/** VPD 0x00: whether page 0x89 (ATA Information, SAT-4 12.4.2) is listed, i.e.
 * the device is an ATA device behind a SAT layer. 1, 0 or -errno as above. */
int ww_decode_scsi_vpd_pages(const uint8_t *buf, size_t len);

/** VPD 0x80 Unit Serial Number (SPC-5) -> h->serial, trimmed. */
int ww_decode_scsi_vpd_serial(const uint8_t *buf, size_t len, ww_health_t *h);

/** VPD 0x83 Device Identification (SPC-5). The first NAA designator
 * (type 3) with association 00b (logical unit) -> h->wwn as "0x" + lowercase
 * hex of the 8 or 16 designator bytes ("0x5000c500..."); the PROTOCOL
 * IDENTIFIER of the first descriptor with PIV = 1 and association 01b/10b
 * (target port/device) -> h->scsi.protocol_id (6 = SAS, SPC-5 protocol identifier values), else
 * 0xFF. A designator running past the page -> -EINVAL. */
int ww_decode_scsi_vpd_devid(const uint8_t *buf, size_t len, ww_health_t *h);

/** VPD 0xB1 Block Device Characteristics (SBC-4): MEDIUM ROTATION RATE
 * (bytes 4-5) -> h->scsi.medium_rotation_rate and, when 1 (non-rotating) or
 * 0x0401-0xFFFE (rpm), h->rotation_rate_rpm. 0 = not reported. */
int ww_decode_scsi_vpd_bdc(const uint8_t *buf, size_t len, ww_health_t *h);

/** READ CAPACITY (16) parameter data (SBC-4, 32 bytes): (RETURNED
 * LOGICAL BLOCK ADDRESS + 1) x LOGICAL BLOCK LENGTH IN BYTES -> capacity_bytes
 * (saturated on overflow), block length -> logical_block_bytes, block length
 * << LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT (byte 13 bits 3-0) ->
 * physical_block_bytes. Block length 0 -> -EINVAL. */
int ww_decode_scsi_read_capacity16(const uint8_t *buf, size_t len, ww_health_t *h);

/* ------------------------------------------------------- LOG SENSE --- */

/** One log parameter (SPC-5 log parameter format): code, control byte, and the
 * PARAMETER LENGTH bytes that follow the 4-byte parameter header. */
typedef struct ww_scsi_log_param {
	uint16_t code;
	uint8_t control;
	uint8_t len;
	const uint8_t *data;
} ww_scsi_log_param_t;

/** Bounds-checked walk over the parameters of one log page. */
typedef struct ww_scsi_log_iter {
	const uint8_t *buf;
	size_t off, end; /* end = 4 + PAGE LENGTH, never beyond len */
} ww_scsi_log_iter_t;

/** Parse the 4-byte log page header (SPC-5 log page format): page code (byte 0 bits
 * 5-0), subpage (byte 1, 0 unless SPF = byte 0 bit 6), PAGE LENGTH (bytes 2-3).
 * Sets up `it` over the parameters. -EMSGSIZE when len < 4 or len < 4 + PAGE
 * LENGTH; -EINVAL when SPF = 0 but the subpage byte is not 0. */
int ww_scsi_log_begin(const uint8_t *buf, size_t len, uint8_t *page,
		      uint8_t *subpage, ww_scsi_log_iter_t *it);

/** Next parameter: 1 with *p filled, 0 at the end of the page, -EINVAL when a
 * parameter header or its PARAMETER LENGTH runs past the end of the page
 * (the walk stops there). */
int ww_scsi_log_next(ww_scsi_log_iter_t *it, ww_scsi_log_param_t *p);

/** Unsigned big-endian counter of any length (SPC-5 log parameters carry 2-,
 * 4- or 8-byte counters). More than 8 significant bytes saturate at
 * UINT64_MAX and set *saturated (may be NULL). */
uint64_t ww_scsi_be_counter(const uint8_t *p, size_t n, bool *saturated);

/** Decode one LOG SENSE response (any page we know) into h->scsi, dispatching
 * on the page header through a (page, subpage) handler table:
 *   0x00/0x00, 0x00/0xFF supported pages (and subpages) -> supported_pages[]
 *   0x02, 0x03, 0x05 write/read/verify error counters: param 0x0003 total
 *        corrected, 0x0005 total bytes processed, 0x0006 total uncorrected
 *   0x0D temperature: param 0 byte 5 current (0xFF = not available), param 1
 *        byte 5 reference (SPC-5 Temperature log page)
 *   0x0D/0x01 environmental reporting: param 0x0000 byte 5 signed current
 *        (0x80 = not available) (SPC-5 Environmental Reporting log page)
 *   0x0E start-stop cycle counter: param 1 date of manufacture YYYYWW ASCII,
 *        3 specified cycles over device lifetime, 4 accumulated (SPC-5 Start-Stop Cycle Counter log page)
 *   0x11 solid state media: param 1 byte 7 percentage used endurance
 *        indicator (SBC-4 Solid State Media log page)
 *   0x15 background scan results: param 0 bytes 4-7 accumulated power on
 *        minutes (SBC-4 Background Scan Results log page)
 *   0x19 general statistics and performance: param 1 bytes 20-27 number of
 *        logical blocks received (written), 28-35 transmitted (read) (SPC-5
 *        General Access Statistics and Performance parameter)
 *   0x2F informational exceptions: param 0 byte 4 ASC, 5 ASCQ, 6 most recent
 *        temperature (SPC-5 Informational Exceptions log page)
 * Unknown and vendor parameters are skipped by length. Bytes beyond 4 + PAGE
 * LENGTH are ignored. Returns 0, -ENOTSUP (no handler), -EMSGSIZE, -EINVAL;
 * on error h is unchanged. */
int ww_decode_scsi_log_page(const uint8_t *buf, size_t len, ww_health_t *h);

/** Whether page/subpage is listed in h->scsi.supported_pages. */
bool ww_scsi_page_supported(const ww_health_t *h, uint8_t page, uint8_t subpage);

/** Fill the normalised health fields from h->scsi (and h->logical_block_bytes),
 * each with its source:
 *  - temperature_celsius: page 0x0D param 0, else 0x0D/0x01 param 0, else 0x2F
 *    param 0 byte 6 (0xFF = none); temperature_reference_celsius: 0x0D param 1
 *  - host_written_bytes: 0x19 logical blocks received x logical_block_bytes,
 *    else page 0x02 param 0x0005 total bytes processed; host_read_bytes: 0x19
 *    blocks transmitted x block size, else page 0x03 param 0x0005. Byte counts
 *    of the error counter pages include drive-internal retries, so 0x19 wins.
 *  - power_on_seconds: 0x15 accumulated power on minutes x 60
 *  - power_cycles: NOT set. Page 0x0E counts spindle start-stop cycles (START
 *    STOP UNIT and power cycles alike, often 0 on SSDs); it stays in
 *    h->scsi.start_stop_cycles and is not passed off as a power cycle count.
 *  - media_errors: sum of TOTAL UNCORRECTED ERRORS (param 0x0006) of pages
 *    0x02, 0x03 and 0x05 that are present (saturating)
 *  - endurance_used_percent: 0x11 percentage used endurance indicator
 *  - smart_status: 0x2F IE ASC 0x00 -> PASSED, 0x5D (failure prediction
 *    threshold exceeded, any ASCQ) -> FAILED, anything else (e.g. 0x0B
 *    warning) -> UNKNOWN; page absent -> untouched. */
void ww_scsi_finish(ww_health_t *h);

#endif
