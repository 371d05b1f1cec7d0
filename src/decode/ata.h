/* ATA decoders: IDENTIFY DEVICE, SMART READ DATA / THRESHOLDS, the GP log
 * directory and Device Statistics pages, into the health record.
 *
 * All functions are pure: no I/O, allocation, clock or logging. They read only
 * the `len` bytes they are given and return 0 or a negative errno:
 *   -EINVAL   NULL arguments or bytes that cannot be what they claim to be
 *   -EMSGSIZE buffer shorter than the structure (every ATA sector is 512 B)
 *   -ENOTSUP  a Device Statistics page this decoder does not read
 *
 * Spec sources: ACS-4 (T13/BSR INCITS 529) 7.12 IDENTIFY DEVICE, 9.5 Device
 * Statistics, 9.2 General Purpose Log Directory; SMART attribute layout from
 * ATA-8/ACS-2 (obsolete SMART READ DATA) as documented by smartmontools.
 */
#ifndef WW_DECODE_ATA_H
#define WW_DECODE_ATA_H

#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WW_ATA_SECTOR 512

/** IDENTIFY DEVICE data (512 B, little-endian words as the drive sends them).
 * Fills h->model (words 27-46), serial (10-19), firmware (23-26) (ASCII, two
 * characters per word high byte first, NUL padding treated as space, trimmed);
 * h->logical_block_bytes (512, or words 117-118 x 2 when word 106 bit 12);
 * h->physical_block_bytes (logical x 2^(word 106 bits 3:0) when bit 13);
 * h->capacity_bytes (words 100-103 LBA48 count when nonzero, else words 60-61
 * LBA28 count, times the logical sector size); h->wwn ("0x" + words 108-111 as
 * 16 hex digits, when nonzero); h->rotation_rate_rpm and h->ata.rotation_rate
 * (word 217: 1 = non-rotating, 0401h-FFFEh rpm); h->ata.smart_supported /
 * smart_enabled (words 82/85 bit 0); gp_log_supported (word 84 or 87 bit 5,
 * each only when its bits 15:14 are 01b); identify_has_checksum /
 * identify_checksum_ok (word 255: low byte A5h and the 512 bytes sum to 0
 * mod 256). A bad checksum is noted, not fatal: the data is decoded anyway.
 * Sets h->protocol = WW_PROTO_ATA. len >= 512 or -EMSGSIZE. */
int ww_decode_ata_identify(const uint8_t *buf, size_t len, ww_health_t *h);

/** SMART READ DATA (512 B): revision (bytes 0-1), 30 attribute entries of 12
 * bytes from offset 2 (id, flags LE16, value, worst, raw 6 bytes LE, reserved;
 * id 0 = empty slot), checksum (sum of the 512 bytes == 0 mod 256) into
 * h->ata.smart_data_checksum_ok. Replaces h->ata.attrs and clears any
 * thresholds, so decode thresholds after this. Each attribute gets
 * smartmontools' default name (ww_ata_attr_name()). len >= 512 or -EMSGSIZE. */
int ww_decode_ata_smart_data(const uint8_t *buf, size_t len, ww_health_t *h);

/** SMART READ THRESHOLDS (512 B): 30 entries of 12 bytes from offset 2 (id,
 * threshold); each sets attrs[i].threshold/has_threshold of the attribute
 * with the same id. Checksum into h->ata.thresholds_checksum_ok; a bad
 * checksum keeps the values (USB bridges get it wrong: smartmontools ticket
 * 1920). Sets h->ata.has_thresholds. len >= 512 or -EMSGSIZE. */
int ww_decode_ata_smart_thresholds(const uint8_t *buf, size_t len, ww_health_t *h);

/** General Purpose Log Directory (READ LOG EXT log 00h, 512 B): word N is the
 * number of pages of log address N. Sets h->ata.devstat_log_pages (log 04h)
 * and devstat_supported when it is >= 1. -EINVAL when the version word
 * (bytes 0-1) is 0. len >= 512 or -EMSGSIZE. */
int ww_decode_ata_log_directory(const uint8_t *buf, size_t len, ww_health_t *h);

/** One Device Statistics page (log 04h, 512 B). Header: bytes 0-1 revision
 * (nonzero), byte 2 page number. Each statistic is a LE qword whose byte 7
 * holds flags (bit 63 supported, bit 62 valid); a statistic is taken only
 * when both are set.
 *  page 0: byte 8 = n, bytes 9.. = supported page numbers -> h->ata.devstat_pages
 *  page 1: 0x10 power-on hours (32 bit), 0x18 logical sectors written (48 bit),
 *          0x28 logical sectors read (48 bit)
 *  page 5: 0x08 current temperature (signed 8 bit, Celsius)
 *  page 7: 0x08 percentage used endurance indicator (8 bit)
 * Other pages: -ENOTSUP. len >= 512 or -EMSGSIZE. */
int ww_decode_ata_devstat(const uint8_t *buf, size_t len, ww_health_t *h);

/** Fill the normalised health fields from what the decoders above stored.
 * Each field names its source; the choices:
 *  - power_on_seconds: Device Statistics POH x 3600, else attribute 9 taken as
 *    HOURS using its low 32 bits only (Seagate puts unrelated bytes above bit
 *    32: ST9100821AS raw48 123914101461273 -> 4377 h). There is no per-model
 *    unit table yet, so drives counting minutes (Maxtor 96147H8, Fujitsu
 *    MHY2xx0BH fw 0085000B, Toshiba MK..51GSY) or half-minutes (Samsung
 *    MP0804H) are over-reported by 60x / 30x.
 *  - temperature_celsius: Device Statistics page 5, else attribute 194 low
 *    byte, else 190 low byte; an attribute low byte of 0 or > 127 is not a
 *    reading (MCCOE64GEMPP #190 is all zero).
 *  - host_written_bytes / host_read_bytes: Device Statistics logical sectors
 *    x logical sector size only (attribute 241/242 units are vendor-specific),
 *    saturating.
 *  - power_cycles: attribute 12 raw48.
 *  - media_errors: attribute 187 Reported_Uncorrect raw48 (errors the drive
 *    could not correct, the nearest to NVMe's media errors). Attribute 5
 *    (reallocations are repairs, and Fujitsu packs vendor data in its raw)
 *    and 197/198 are not folded in; they stay separate attributes.
 *  - endurance_used_percent: Device Statistics page 7.
 *  - smart_status: h->ata.return_status (SMART RETURN STATUS). */
void ww_ata_finish(ww_health_t *h);

/** Attribute meaning by model/firmware (issue 7), looked up outside decode
 * (src/collect/drivedb.c: smartmontools' drivedb.h presets, then
 * data/attribute-quirks.tsv) and handed in; decode stays pure. */
typedef enum ww_ata_poh_unit {
	WW_ATA_POH_HOURS = 0,   /* default (drivedb "-v 9,raw24(raw8)" etc.) */
	WW_ATA_POH_MINUTES,     /* "-v 9,minutes" */
	WW_ATA_POH_HALFMINUTES, /* "-v 9,halfminutes" */
	WW_ATA_POH_SECONDS,     /* "-v 9,seconds" */
} ww_ata_poh_unit_t;

typedef struct ww_ata_presets {
	ww_ata_poh_unit_t poh_unit;
	const char *poh_source;        /* "drivedb: Fujitsu MHZ BJ" ...; NULL = none */
	uint64_t written_unit_bytes;   /* attribute 241 raw unit in bytes (32 MiB for
					  Host_Writes_32MiB); 0 = none. WW_ATA_UNIT_LBA
					  = the logical sector size */
	const char *written_source;    /* e.g. "drivedb 241 Host_Writes_32MiB" */
	uint8_t unsafe_shutdown_id[3]; /* 174, 192, 235 the database names an
					  unsafe-shutdown count, in its order; 0 = none.
					  The first one the drive reports is used */
	const char *unsafe_source[3];
} ww_ata_presets_t;

#define WW_ATA_UNIT_LBA UINT64_MAX

/** ww_ata_finish() with presets (p may be NULL = ww_ata_finish):
 *  - attribute 9 (when Device Statistics has no POH) in p->poh_unit, low 32
 *    bits;
 *  - host_written_bytes, when Device Statistics has none: attribute 241 raw48
 *    x p->written_unit_bytes (label "ata_attribute_241");
 *  - unsafe_shutdowns: the first of p->unsafe_shutdown_id[] present, raw48. */
void ww_ata_finish_presets(ww_health_t *h, const ww_ata_presets_t *p);

/** smartmontools' default attribute name for id (its drivedb "DEFAULT"
 * entry), "Unknown_Attribute" otherwise. Never NULL. */
const char *ww_ata_attr_name(uint8_t id);

/** The attribute with this id, or NULL. */
const ww_ata_attr_t *ww_ata_find_attr(const ww_health_t *h, uint8_t id);

#ifdef __cplusplus
}
#endif
#endif
