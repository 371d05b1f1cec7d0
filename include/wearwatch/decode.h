/* decode: pure functions from the bytes a drive returned to the health record
 * (wearwatch/record.h). No I/O, allocation, clock or logging; every decoder
 * reads only the `len` bytes it is given and returns 0 or a negative errno.
 * The decoder registry (ww_decoders[], at the end of this header) lists every
 * page and log with its command, identifier, name, decoder and finish step:
 * the readers, `wearwatch decode --type` and the fuzz harness walk it. */
#ifndef WEARWATCH_DECODE_H
#define WEARWATCH_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#define WW_ATA_SECTOR 512

/** SMART RETURN STATUS outcome from the LBA register the drive returned
 * (ACS-4 7.48.8 SMART RETURN STATUS: LBA mid/high (bits 23:8) 4Fh/C2h =
 * passed, F4h/2Ch = threshold exceeded). WW_SMART_UNKNOWN for anything else.
 * Pure. */
ww_smart_status_t ww_decode_ata_smart_status(uint64_t lba);

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

/** SMART summary error log (SMART READ LOG 01h, 512 B; ACS-4): bytes
 * 452-453 device error count -> h->error_logs[WW_ERRLOG_ATA_SUMMARY].count
 * (what smartctl prints as "ATA Error Count", JSON ata_smart_error_log.
 * summary.count); entries = the data structures it holds (byte 1 index
 * nonzero: min(count, 5)). -EMSGSIZE under 512 bytes. */
int ww_decode_ata_error_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** The ww_selftest_kind_t of an ATA self-test log descriptor's byte 0 (the
 * SMART EXECUTE OFF-LINE IMMEDIATE subcommand: 0 off-line, 1/81h short,
 * 2/82h extended, 3/83h conveyance, 4/84h selective, 40h-7Eh vendor). */
unsigned ww_ata_selftest_kind(uint8_t sub);

/** Extended Comprehensive SMART Error log (READ LOG EXT 03h, pages read
 * from page 0; ACS-4): byte 0 version 01h (else -EINVAL), bytes 2-3 index,
 * bytes 500-501 device error count -> error_logs[WW_ERRLOG_ATA_EXTENDED]
 * (smartctl's ata_smart_error_log.extended.count). */
int ww_decode_ata_xerror_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** SMART self-test log (SMART READ LOG 06h, 512 B; ACS-4): 21 descriptors
 * of 24 bytes from byte 2 (byte 0 test, 1 execution status bits 7-4, 2-3
 * life timestamp in hours, 5-8 failing LBA), byte 508 the newest (1-21, 0 =
 * none) -> self_tests[WW_SELFTEST_ATA_STANDARD]: non-empty descriptors,
 * failed = status 3-8 (smartctl's error_count_total), the newest test's
 * status, hours and verdict, the newest failed test's LBA (not FFFFFFFFh). */
int ww_decode_ata_selftest_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** Extended SMART self-test log (READ LOG EXT 07h, 512-byte pages from page
 * 0, at most 16; ACS-4): byte 0 version 01h (else -EINVAL), bytes 2-3 the
 * newest descriptor's index, 19 descriptors of 26 bytes from byte 4 of every
 * page (failing LBA 48-bit at 5-10) -> self_tests[WW_SELFTEST_ATA_EXTENDED],
 * as the standard log. */
int ww_decode_ata_xselftest_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** The ATA Selective self-test log (SMART log address 09h, one 512-byte
 * sector; ACS-4 "Selective self-test log", smartmontools' struct
 * ata_selective_self_test_log): bytes 0-1 revision (1), five test spans of
 * a starting and an ending LBA (8 bytes each, little-endian) from byte 2,
 * bytes 492-499 the current LBA, 500-501 the current span (1-5 while a
 * selective test reads a span, above 5 while the off-line scan after it
 * runs), 502-503 flags, 504-507 vendor specific, 508-509 the pending time
 * (minutes), byte 511 the checksum (all 512 bytes sum to 0 mod 256). */
#define WW_ATA_SELECTIVE_SPANS 5
#define WW_ATA_SELECTIVE_FLAG_SCAN 0x0002    /* off-line scan after the spans */
#define WW_ATA_SELECTIVE_FLAG_PENDING 0x0008 /* the scan waits for a power-up */
#define WW_ATA_SELECTIVE_FLAG_ACTIVE 0x0010  /* the scan runs */

typedef struct ww_ata_selective_log {
	uint16_t revision;
	ww_selftest_span_t span[WW_ATA_SELECTIVE_SPANS];
	uint64_t current_lba;
	uint16_t current_span;
	uint16_t flags;
	uint16_t pending_minutes;
	bool checksum_ok;
} ww_ata_selective_log_t;

/** Decode a read of log 09h. 0, -EINVAL (NULL), -EMSGSIZE (under 512
 * bytes). A bad checksum is not an error (smartctl warns and goes on):
 * checksum_ok says. Pure. */
int ww_decode_ata_selective_log(const uint8_t *buf, size_t len, ww_ata_selective_log_t *out);

/** The sector to write to log 09h so that a selective self-test reads one
 * span: `read` as the drive gave it (its vendor-specific and reserved bytes
 * and the pending time kept, as smartctl keeps them), revision 1, span 1 =
 * *span and spans 2-5 zero, current LBA and span 0 (the host must clear
 * them before a start), the active and pending flags clear and the scan
 * flag too (smartctl's "-t afterselect,off": the span alone is read), and
 * the checksum of the result in byte 511 (ACS-4 "Selective self-test log";
 * smartmontools atacmds.cpp ataWriteSelectiveSelfTestLog). -EINVAL when
 * span->first_lba > span->last_lba. Pure. */
int ww_ata_selective_log_build(const uint8_t read[512], const ww_selftest_span_t *span,
			       uint8_t out[512]);

/** One Device Statistics page (log 04h, 512 B). Header: bytes 0-1 revision
 * (nonzero), byte 2 page number. Each statistic is a LE qword whose byte 7
 * holds flags (bit 63 supported, bit 62 valid); a statistic is taken only
 * when both are set.
 *  page 0: byte 8 = n, bytes 9.. = supported page numbers -> h->ata.devstat_pages
 *  pages 1-7: every entry ww_ata_devstat_name knows -> h->ata.devstats[]
 *          (an entry already there is replaced), and for the normalised fields:
 *  page 1: 0x10 power-on hours (32 bit), 0x18 logical sectors written (48 bit),
 *          0x28 logical sectors read (48 bit)
 *  page 5: 0x08 current temperature (signed 8 bit, Celsius)
 *  page 7: 0x08 percentage used endurance indicator (8 bit)
 * Other pages (FFh vendor specific): -ENOTSUP. len >= 512 or -EMSGSIZE. */
int ww_decode_ata_devstat(const uint8_t *buf, size_t len, ww_health_t *h);

/** Fill the normalised health fields from what the decoders above stored.
 * Each field names its source; the choices:
 *  - power_on_seconds: Device Statistics POH x 3600, else attribute 9 under
 *    its default format raw24(raw8): hours in bits 0-23, as smartctl prints
 *    it (Seagate puts unrelated bytes above: ST9100821AS raw48
 *    123914101461273 -> 4377 h). Drives counting minutes or half-minutes are
 *    read right only with the drive database's presets
 *    (ww_ata_finish_presets).
 *  - temperature_celsius: Device Statistics page 5, else attribute 194 low
 *    byte, else 190 low byte; an attribute low byte of 0 or > 127 is not a
 *    reading (MCCOE64GEMPP #190 is all zero).
 *  - host_written_bytes / host_read_bytes: Device Statistics logical sectors
 *    x logical sector size only (attribute 241/242 units are vendor-specific),
 *    saturating.
 *  - power_cycles: attribute 12, when its raw is one count (raw48).
 *  - media_errors: attribute 187 Reported_Uncorrect count (errors the drive
 *    could not correct, the nearest to NVMe's media errors). Attribute 5
 *    (reallocations are repairs, and Fujitsu packs vendor data in its raw)
 *    and 197/198 are not folded in; they stay separate attributes.
 *  - endurance_used_percent: Device Statistics page 7.
 *  - smart_status: h->ata.return_status (SMART RETURN STATUS). */
void ww_ata_finish(ww_health_t *h);

/* Raw value formats of smartmontools' drive database ("-v ID,FORMAT"; the
 * names as drivedb.h and smartctl -v spell them). Source: smartmontools 7.3
 * atacmds.cpp (format_names[], ata_format_attr_raw_value). */
typedef enum ww_ata_rawfmt {
	WW_RAWFMT_NONE = 0,      /* not given: the id's default applies */
	WW_RAWFMT_RAW8,          /* "raw8": six bytes, "%d %d %d %d %d %d" */
	WW_RAWFMT_RAW16,         /* "raw16": three words, "%u %u %u" */
	WW_RAWFMT_RAW48,         /* "raw48": one 48-bit number */
	WW_RAWFMT_HEX48,         /* "hex48" */
	WW_RAWFMT_RAW56,         /* "raw56": 56 bits (byte order r543210) */
	WW_RAWFMT_HEX56,         /* "hex56" */
	WW_RAWFMT_RAW64,         /* "raw64": 64 bits (543210wv) */
	WW_RAWFMT_HEX64,         /* "hex64" */
	WW_RAWFMT_RAW16_RAW16,   /* "raw16(raw16)": word 0, "(w2 w1)" if set */
	WW_RAWFMT_RAW16_AVG16,   /* "raw16(avg16)": word 0, "(Average w1)" */
	WW_RAWFMT_RAW24_RAW8,    /* "raw24(raw8)": bits 0-23, "(b5 b4 b3)" */
	WW_RAWFMT_RAW24_RAW24,   /* "raw24/raw24": bits 24-47 "/" bits 0-23 */
	WW_RAWFMT_RAW24_RAW32,   /* "raw24/raw32" */
	WW_RAWFMT_SEC2HOUR,      /* "sec2hour": seconds as "h+mm+ss" */
	WW_RAWFMT_MIN2HOUR,      /* "min2hour": minutes (bits 0-31) */
	WW_RAWFMT_HALFMIN2HOUR,  /* "halfmin2hour": 30-second units */
	WW_RAWFMT_MSEC24_HOUR32, /* "msec24hour32": hours bits 0-31, ms above */
	WW_RAWFMT_TEMPMINMAX,    /* "tempminmax": byte 0 Celsius, min/max found */
	WW_RAWFMT_TEMP10X,       /* "temp10x": word 0 = 10 x Celsius */
	WW_RAWFMT_MAX
} ww_ata_rawfmt_t;

/* ww_ata_attr_def_t.only: the name applies on this kind of drive only
 * (drivedb's ",HDD" / ",SSD"; IDENTIFY word 217 says which) */
#define WW_ATA_DEF_HDD 1
#define WW_ATA_DEF_SSD 2

/** One attribute's meaning from one "-v" preset. */
typedef struct ww_ata_attr_def {
	uint8_t format;     /* ww_ata_rawfmt_t; NONE = not set */
	uint8_t only;       /* 0, WW_ATA_DEF_HDD or WW_ATA_DEF_SSD */
	bool no_normval;    /* 'v' in the byte order or raw64/hex64: the
			       normalised value byte is raw data */
	bool increasing;    /* smartd's old "197,increasing" / "198,increasing"
			       ("raw48+"): the default count, never decreasing */
	char byteorder[9];  /* "543210", "r543210", "z54z10"...; "" = the
			       format's default */
	const char *name;   /* NULL = keep the name there is */
	const char *source; /* the preset text with its entry; NULL = default */
} ww_ata_attr_def_t;

/** Parse one "-v" argument ("188,raw16", "9,minutes", "241,raw48,Host_
 * Writes_32MiB", "197,raw48:54321", "6,raw48,Read_Channel_Margin,HDD"),
 * old names mapped as smartmontools maps them ("9,minutes" =
 * "9,min2hour,Power_On_Minutes", "194,10xCelsius", "193,loadunload"...).
 * The name is copied into name_buf (33 bytes) and def->name points there;
 * def->source is left alone. Returns the id (1-255), 0 for the "N,..."
 * form (every id), -EINVAL when it does not parse. Pure. */
int ww_ata_parse_attr_def(const char *arg, ww_ata_attr_def_t *def, char name_buf[33]);

/** Attribute meaning by model/firmware (vendors reuse ids), looked up outside decode
 * (src/collect/drivedb.c: smartmontools' drivedb.h presets, then
 * data/attribute-quirks.tsv) and handed in; decode stays pure. */
typedef enum ww_ata_poh_unit {
	WW_ATA_POH_HOURS = 0,   /* default (drivedb "-v 9,raw24(raw8)" etc.) */
	WW_ATA_POH_MINUTES,     /* "-v 9,minutes" */
	WW_ATA_POH_HALFMINUTES, /* "-v 9,halfminutes" */
	WW_ATA_POH_SECONDS,     /* "-v 9,seconds" */
} ww_ata_poh_unit_t;

typedef struct ww_ata_presets {
	/* every -v preset of the entry (and the quirk rows), by id; a later
	 * preset for the same id replaces an earlier one, as in smartctl */
	ww_ata_attr_def_t attr[256];
	/* what the presets say about the normalised values, derived from
	 * attr[] when they are parsed (src/collect/drivedb.c) */
	ww_ata_poh_unit_t poh_unit;
	const char *poh_source;        /* "drivedb: Fujitsu MHZ BJ" ...; NULL = none */
	uint64_t written_unit_bytes;   /* unit of the host-writes attribute in bytes
					  (32 MiB for Host_Writes_32MiB); 0 = none.
					  WW_ATA_UNIT_LBA = the logical sector size */
	uint8_t written_id;            /* 241, or 246 where the database names it
					  Total_LBAs_Written; 0 = 241 */
	const char *written_source;    /* e.g. "drivedb 241 Host_Writes_32MiB" */
	uint64_t read_unit_bytes;      /* attribute 242 the same way */
	const char *read_source;
	uint8_t unsafe_shutdown_id[3]; /* 174, 192, 235 the database names an
					  unsafe-shutdown count, in its order; 0 = none.
					  The first one the drive reports is used */
	const char *unsafe_source[3];
} ww_ata_presets_t;

#define WW_ATA_UNIT_LBA UINT64_MAX

/** ww_ata_finish() with presets (p may be NULL = ww_ata_finish):
 *  - every attribute: name (the source's, else p's for its id where the
 *    drive kind fits, else the default), raw_value / raw_string / count /
 *    raw_is_count under p's format for the id, else the default format
 *    (ww_ata_attr_format); has_count for the ids the health verdict reads
 *    as counts (5, 10, 187, 196, 197, 198: ww_ata_verdict_count_id) when the
 *    raw is one count and the attribute keeps its default meaning (its name
 *    is the id's default, or smartd's old "increasing" form of it);
 *  - attribute 9 (when Device Statistics has no POH) in the unit of its
 *    format (raw24(raw8) hours, msec24hour32 hours, min2hour minutes,
 *    halfmin2hour, sec2hour); p->poh_unit for the legacy -v 9 names;
 *  - host_written_bytes, when Device Statistics has none: the host-writes
 *    attribute (p->written_id, 241 by default) count x p->written_unit_bytes
 *    (label "ata_attribute_241" for a unit, "ata_attribute_241_lba" for
 *    Total_LBAs_Written x logical sector); host_read_bytes from 242 the
 *    same way;
 *  - unsafe_shutdowns: the first of p->unsafe_shutdown_id[] present;
 *  - power_cycles (12), media_errors (187): only when the attribute's raw is
 *    one count. */
void ww_ata_finish_presets(ww_health_t *h, const ww_ata_presets_t *p);

/** Decode a's raw under def (NULL or format NONE: the id's default, as
 * smartmontools' drivedb.h DEFAULT entry has it): raw_value (the bytes of
 * the byte order; kept when raw_value_given), raw_string, count,
 * raw_is_count, format_source. Pure. */
void ww_ata_attr_format(ww_ata_attr_t *a, const ww_ata_attr_def_t *def);

/** smartmontools' default attribute name for id (its drivedb "DEFAULT"
 * entry), "Unknown_Attribute" otherwise. Never NULL. */
const char *ww_ata_attr_name(uint8_t id);

/** The default name for id on a drive of rotation rate rpm (IDENTIFY word
 * 217: 1 = SSD, > 1 = HDD, 0 = unknown): names the DEFAULT entry marks
 * ",HDD" are "Unknown_SSD_Attribute" on an SSD, ",SSD" ones
 * "Unknown_HDD_Attribute" on an HDD, as smartctl prints them. Never NULL. */
const char *ww_ata_attr_name_rpm(uint8_t id, unsigned rpm);

/** Device Statistics entry of `page` (1-7) at `offset` as smartctl names it
 * ("Lifetime Power-On Resets", "Number of Interface CRC Errors"; ACS-4 9.5,
 * smartmontools' devstat_info tables); *size = its value's bytes, -1 for a
 * signed byte (temperatures). NULL for an offset the spec does not define
 * (then the entry is not read). */
const char *ww_ata_devstat_name(uint8_t page, uint16_t offset, int *size);

/** The name of a Device Statistics page ("General Statistics"), NULL past 7. */
const char *ww_ata_devstat_page_name(uint8_t page);

/** Whether the health verdict reads attribute id as a count (has_count):
 * 5 reallocated sectors, 10 spin retries, 187 reported uncorrectable, 196
 * reallocation events, 197 pending sectors, 198 offline uncorrectable. */
bool ww_ata_verdict_count_id(uint8_t id);

/** The DEFAULT entry's format for id (WW_RAWFMT_RAW48 for ids it does not
 * list). */
ww_ata_rawfmt_t ww_ata_attr_default_format(uint8_t id);

/** The attribute with this id, or NULL. */
const ww_ata_attr_t *ww_ata_find_attr(const ww_health_t *h, uint8_t id);

/* NVMe decoders: Identify Controller, Identify Namespace and the SMART /
 * Health Information log, from the bytes a Get Log Page / Identify returned
 * into the health record.
 *
 * Pure functions: no I/O, no allocation, no logging, no clock. Every decoder
 * reads only inside [buf, buf + len) and returns 0 or a negative errno:
 *   -EMSGSIZE  len shorter than the structure (nothing is written then)
 *   -EINVAL    NULL arguments or a value the spec forbids
 *
 * Source for every layout: NVM Express Base Specification 2.0 (SMART / Health
 * Information log: Figure 207; the Identify Controller data structure, CNS
 * 01h) and NVM Command Set Specification 1.0 (the Identify Namespace data
 * structure, CNS 00h). All multi-byte fields are little-endian on the wire.
 */

#define WW_NVME_SMART_LOG_LEN 512u	/* Log Identifier 02h */
#define WW_NVME_IDENTIFY_LEN 4096u	/* every Identify data structure */
#define WW_NVME_LID_SMART 0x02
#define WW_NVME_CNS_NS 0x00
#define WW_NVME_CNS_CTRL 0x01
#define WW_NVME_NSID_ALL 0xFFFFFFFFu	/* controller-wide SMART log */

/** Decode the SMART / Health Information log (LID 02h, 512 bytes).
 *
 * Fills h->nvme_smart with every defined field (128-bit counters kept whole,
 * temperatures in Kelvin as on the wire) and sets h->has_nvme_smart; then the
 * normalised fields, each with a source naming the log and byte range:
 *   temperature_celsius       bytes 1-2 minus 273 (absent when 0 K)
 *   host_read/written_bytes   data units x 512000 (a data unit is 1000 x 512 B
 *                             whatever the LBA format), saturating at 2^64-1
 *   power_on_seconds          hours x 3600, saturating
 *   power_cycles, unsafe_shutdowns, media_errors, error_log_entries
 *                             128-bit counters, saturating (->saturated set)
 *   endurance_used_percent    byte 5 (0-255, may exceed 100)
 *   available_spare(_threshold)_percent, critical_warning
 *   smart_status              FAILED when critical warning byte != 0, else
 *                             PASSED. This follows smartctl, which flags every
 *                             set bit including 5 (PMR read-only) and the
 *                             reserved bits 6-7 that later specs may define.
 * len >= 512 (extra bytes are ignored). Errors: -EMSGSIZE, -EINVAL (NULL). */
int ww_decode_nvme_smart_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** Decode Identify Controller (CNS 01h, 4096 bytes).
 *
 * model (MN, bytes 24-63), serial (SN, 4-23) and firmware (FR, 64-71) are
 * copied with leading/trailing spaces and NULs removed; bytes outside printable
 * ASCII become '?'. h->nvme_ctrl gets VID (0-1), IEEE OUI (73-75, wire order:
 * ieee_oui[0] = byte 73), VER (80-83), CTRATT (96-99), LPA (261), WCTEMP
 * (266-267) and CCTEMP (268-269) in Kelvin, TNVMCAP (280-295, 128-bit bytes)
 * and NN (516-519); has_nvme_ctrl is set. temperature_warning_celsius and
 * temperature_critical_celsius are set from WCTEMP/CCTEMP when non-zero.
 * Sets h->protocol = WW_PROTO_NVME. Errors: -EMSGSIZE (len < 4096), -EINVAL. */
int ww_decode_nvme_id_ctrl(const uint8_t *buf, size_t len, ww_health_t *h);

/** Decode Identify Namespace (CNS 00h, 4096 bytes) into *ns.
 *
 * size_blocks = NSZE (bytes 0-7); lba_bytes = 2^LBADS of the LBA format FLBAS
 * (byte 26) selects: index = bits 3:0 | bits 6:5 << 4 (NVMe 2.0 allows up to
 * 64 formats; LBAF n is at bytes 128 + 4n, LBADS is its byte 2); NGUID (104-119),
 * EUI64 (120-127), ENDGID (102-103). nsid and block_name are not touched (the
 * caller knows them). Errors: -EMSGSIZE (len < 4096); -EINVAL when the
 * selected LBADS is below 9 (the spec's minimum, 512 bytes) or above 31, which
 * is also what an inactive namespace (all zero) returns. */
int ww_decode_nvme_id_ns(const uint8_t *buf, size_t len, ww_nvme_ns_t *ns);

#define WW_NVME_LID_ERROR 0x01
#define WW_NVME_LID_SELFTEST 0x06
#define WW_NVME_ERROR_ENTRY_LEN 64u   /* one Error Information log entry */
#define WW_NVME_SELFTEST_LOG_LEN 564u /* Device Self-test log */
#define WW_NVME_OACS_SELFTEST (1u << 4)

/** Error Information log (LID 01h): len / 64 entries (Error Information Log
 * Entry, NVMe Base 2.0): bytes 0-7 Error Count, 0 = unused. ->
 * h->error_logs[WW_ERRLOG_NVME]: entries = the used ones, count = the
 * largest Error Count (the newest error's; the controller counts its errors
 * over its life, as SMART log 02h's Number of Error Information Log Entries
 * does). -EMSGSIZE under 64 bytes. */
int ww_decode_nvme_error_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** Device Self-test log (LID 06h, 564 bytes; NVMe Base 2.0): 20 Self-test
 * Result Data Structures of 28 bytes from byte 4, newest first: byte 0 bits
 * 3-0 result (0 no error, 1-4 and 8-9 aborted, 5 fatal, 6-7 segment(s)
 * failed, Fh unused), bytes 4-11 power on hours, byte 2 bit 1 failing LBA
 * valid, bytes 16-23 failing LBA -> h->self_tests[WW_SELFTEST_NVME]
 * (failed = results 5-7). -EMSGSIZE under 564 bytes. */
int ww_decode_nvme_selftest_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** Derive record fields that need several NVMe structures, after the
 * decoders above ran (h->nvme_ns[0..n_nvme_ns) filled):
 *   capacity_bytes       sum over namespaces of NSZE x LBA size (saturating);
 *                        TNVMCAP only when no namespace was decoded and it is
 *                        non-zero (it counts NVM capacity, not host-visible
 *                        blocks, and is 0 on many drives)
 *   logical_block_bytes  LBA size of the first namespace
 *   rotation_rate_rpm    1 (NVMe media is non-rotating by definition here)
 *   wwn                  when empty: the first namespace's identifier the way
 *                        the kernel writes sysfs "wwid" (and udev the
 *                        by-id "nvme-eui.*" links): "eui." + NGUID in hex when
 *                        non-zero, else "eui." + EUI64; left empty when both
 *                        are zero (the kernel then builds "nvme.<vid>-..."
 *                        from the serial, which is not a world-wide name).
 * Also sets h->protocol = WW_PROTO_NVME. Never fails; NULL is ignored. */
void ww_nvme_finish(ww_health_t *h);

/* Endurance logs the issue-3 model uses: NVMe Endurance Group Information log
 * (Log Identifier 09h) and the OCP Datacenter NVMe SSD SMART / Health
 * Information Extended log (C0h). Pure functions like decode/nvme.h: no I/O,
 * no allocation, no clock; return 0 or a negative errno (-EMSGSIZE short
 * buffer, -EINVAL NULL, -ENOTSUP for a C0h page that is not the OCP layout).
 *
 * Sources:
 *  - 09h: NVM Express Base Specification 2.0, Endurance Group Information log
 *    page (Figure 209): byte 0 Critical Warning, 3 Available Spare, 4 Available
 *    Spare Threshold, 5 Percentage Used, bytes 32-47 Endurance Estimate and
 *    80-95 Media Units Written, both "in units of one billion bytes" (10^9,
 *    NOT the 512,000-byte data units of log 02h), 48-63 Data Units Read,
 *    64-79 Data Units Written, 128-143 Media and Data Integrity Errors. The log
 *    exists only when Identify Controller CTRATT bit 4 (Endurance Groups) is
 *    set, and is read with Log Specific Identifier = the namespace's ENDGID.
 *  - C0h: OCP Datacenter NVMe SSD Specification 2.0, SMART / Health
 *    Information Extended log: bytes 0-15 Physical Media Units Written (bytes),
 *    56-63 Uncorrectable Read Error Count, 128-129 Capacitor Health (%),
 *    160-175 PLP Start Count, 176-191 Endurance
 *    Estimate (bytes), 494-495 Log Page Version, 496-511 Log Page GUID
 *    AFD514C97C6F4F9CA4F2BFEA2810AFC5 (stored little-endian: C5 AF 10 28 ...).
 *    Other vendors use C0h for unrelated layouts, so nothing is decoded unless
 *    the GUID matches; Endurance Estimate / PLP Start Count are there from
 *    log page version 2 (the OCP 1.0 layout) on.
 */

#define WW_NVME_LID_ENDURANCE_GROUP 0x09
#define WW_NVME_LID_OCP_SMART_EXT 0xC0
#define WW_NVME_ENDURANCE_LOG_LEN 512u
#define WW_NVME_OCP_C0_LEN 512u
#define WW_NVME_CTRATT_ENDURANCE_GROUPS (1u << 4)

/** Bytes of the OCP C0h Log Page GUID as they appear at offsets 496-511. */
extern const uint8_t ww_ocp_c0_guid[16];

/** Decode log 09h into h->endurance_estimate_bytes and h->media_written_bytes
 * (x 10^9, saturating; absent when the field is 0 = not reported).
 * Errors: -EMSGSIZE (len < 512), -EINVAL. */
int ww_decode_nvme_endurance_group(const uint8_t *buf, size_t len, ww_health_t *h);

/** Decode OCP C0h after checking its GUID (-ENOTSUP otherwise, nothing
 * written) and version (>= 1): media_written_bytes (bytes 0-15),
 * uncorrectable_read_errors, capacitor health; with version >= 2 also
 * endurance_estimate_bytes (label "ocp_c0") and plp_start_count. 128-bit
 * values saturate at 2^64-1.
 * Errors: -EMSGSIZE (len < 512), -EINVAL, -ENOTSUP. */
int ww_decode_ocp_smart_ext(const uint8_t *buf, size_t len, ww_health_t *h);

/** SCSI Utilization log page (0x0E subpage 0x01, SBC-4 "Utilization log
 * page"): parameter 0x0000 Workload Utilization, 2 bytes, in 0.01 % of the
 * vendor's annual workload rating (reads and writes). Sets
 * h->workload_utilization_centipercent. Errors: -EMSGSIZE, -EINVAL (wrong
 * page code/subpage), -ENOENT (parameter absent). */
int ww_decode_scsi_utilization(const uint8_t *buf, size_t len, ww_health_t *h);

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

/** READ DEFECT DATA (10) / (12) parameter data, the list header only
 * (SBC-4 "READ DEFECT DATA (10) parameter data", "... (12) ..."): byte 1 bit 3
 * GLISTV, bits 2-0 DEFECT LIST FORMAT; (10) bytes 2-3, (12) bytes 4-7 DEFECT
 * LIST LENGTH in bytes. The count of grown defects is the length over the
 * format's descriptor size (4 short block, 8 long block / bytes from index /
 * physical sector) -> h->scsi.grown_defects: smartctl's "Elements in grown
 * defect list" (JSON scsi_grown_defect_list). Returns 0; -EMSGSIZE under 4
 * (8) bytes; -ENODATA when GLISTV is 0 (no grown list returned); -ENOTSUP
 * for the vendor-specific format; -EINVAL for a reserved one; -EOVERFLOW when
 * the (10) length is FFFFh (the list may be longer: ask (12)). */
int ww_decode_scsi_defect_header(const uint8_t *buf, size_t len, bool twelve, ww_health_t *h);

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

/** Decode one LOG SENSE response (any page we know) into the record,
 * dispatching on the page header (page code, subpage) to its WW_DEC_SCSI_LOG
 * row of ww_decoders[] below. The pages, what each yields and the spec clause
 * are documented with their parameter walkers (src/decode/scsi_log.h);
 * `wearwatch decode --help` lists them. Parameters are walked on a copy of
 * h->scsi that is committed only when the whole page decoded. Unknown and
 * vendor parameters are skipped by length. Bytes beyond 4 + PAGE LENGTH are
 * ignored. Returns 0, -ENOTSUP (no row), -EMSGSIZE, -EINVAL, or what the
 * row's own decoder returns (0x0E/0x01: -ENOENT without its parameter); on
 * error h is unchanged. */
int ww_decode_scsi_log_page(const uint8_t *buf, size_t len, ww_health_t *h);

/** Whether page/subpage is listed in h->scsi.supported_pages. */
bool ww_scsi_page_supported(const ww_health_t *h, uint8_t page, uint8_t subpage);

/** Fill the normalised health fields from h->scsi (and h->logical_block_bytes),
 * each with its source:
 *  - temperature_celsius: page 0x0D/0x01 (environmental reporting) param 0,
 *    else 0x0D param 0, else 0x2F param 0 byte 6 (0xFF = none): smartctl
 *    7.3's precedence, so that both print the same; every reading stays in
 *    h->scsi with its source. temperature_reference_celsius: 0x0D param 1
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

/* ------------------------------------------------ decoder registry --- */

/* One row per page or log a decoder reads (the idea of sg3_utils' log page
 * table in sg_logs): which command returns the bytes, the page's identifier,
 * a short name, the decoder and the finish step that derives the normalised
 * fields. Readers pick the pages they ask for from it (SCSI VPD and LOG
 * SENSE pages, ATA Device Statistics pages, every NVMe Identify and log with
 * its read-when predicate), `wearwatch decode --type NAME` takes its names
 * and help from it, and the fuzz harness fuzzes every row. A new page is a
 * row here plus its decoder. */

/** The command whose data a row decodes; id and sub name the page within it
 * the way its spec does. */
typedef enum ww_decoder_cmd {
	WW_DEC_NVME_IDENTIFY = 0,  /* Identify; id = CNS */
	WW_DEC_NVME_LOG,           /* Get Log Page; id = Log Identifier */
	WW_DEC_ATA_IDENTIFY,       /* IDENTIFY DEVICE */
	WW_DEC_ATA_SMART,          /* SMART; id = FEATURE (D0h READ DATA, D1h READ
				      THRESHOLDS, D5h READ LOG: sub = log address) */
	WW_DEC_ATA_LOG,            /* READ LOG EXT; id = log address, sub = page number */
	WW_DEC_SCSI_INQUIRY,       /* standard INQUIRY data */
	WW_DEC_SCSI_VPD,           /* INQUIRY with EVPD = 1; id = page code */
	WW_DEC_SCSI_READ_CAPACITY, /* READ CAPACITY (16) parameter data */
	WW_DEC_SCSI_LOG,           /* LOG SENSE; id = page code, sub = subpage code */
	WW_DEC_SCSI_READ_DEFECT,   /* READ DEFECT DATA list header; id = 10 or 12 */
} ww_decoder_cmd_t;

/** id or sub of a row that takes any page of its command or log and
 * dispatches on the page's own header ("scsi-log", "ata-devstat"). Readers
 * skip such rows: they ask for pages by number. */
#define WW_DEC_ANY 0xFFFFu

/** Row flag: a reader asks for the page only when the device's supported
 * list names it, never blind (VPD 0xB1: devices without a VPD 0x00 list
 * predate it). LOG SENSE pages are always asked for only when listed. */
#define WW_DEC_LISTED_ONLY (1u << 0)

/** Row flag (NVMe): the read stands or falls with this row. When its command
 * or its decoder fails, the reader sends no later row and returns that error
 * (the SMART / Health log 02h: without it there is no health to report). */
#define WW_DEC_REQUIRED (1u << 1)

/** Row flag (NVMe): sent once per namespace of the drive (discovery's list,
 * in its order), NSID = the namespace's; the decoder appends one
 * h->nvme_ns[] entry, which the reader then names (nsid, block_name). */
#define WW_DEC_EACH_NS (1u << 2)

/** The command of an NVMe row as the reader sends it (NVMe Base 2.0 Identify,
 * Get Log Page); the CNS or Log Identifier is the row's id. */
typedef struct ww_nvme_args {
	uint32_t nsid; /* the row's nvme.nsid, or the namespace's (WW_DEC_EACH_NS) */
	uint16_t lsi;  /* Log Specific Identifier (CDW11 bits 31:16); 0 = none,
			   else sent through the transport's nvme_get_log_lsi */
	size_t len;    /* bytes to transfer, starts as the row's len; 1 to
			   WW_NVME_IDENTIFY_LEN, a multiple of 4 for a log */
} ww_nvme_args_t;

/** How the NVMe reader sends a row (WW_DEC_NVME_IDENTIFY and _LOG rows);
 * rows without `what` are decoded, never read. */
typedef struct ww_decoder_nvme {
	/** Read when: false = not sent. Looks only at what the rows before it
	 * decoded (Identify Controller fields such as OACS, LPA, CTRATT, ELPE;
	 * the namespaces' ENDGID) and may set a's len and lsi from it (the
	 * Error Information log's entries from ELPE, log 09h's ENDGID). NULL =
	 * always, as the row says. Pure. */
	bool (*when)(const ww_health_t *h, ww_nvme_args_t *a);
	uint32_t nsid;        /* 0 (Identify Controller), WW_NVME_NSID_ALL */
	const char *what;     /* the read report's name of the command:
				   "Get Log Page 02h"; " <nsid>" is added for
				   WW_DEC_EACH_NS, " <lsi_name> <lsi>" with an LSI */
	const char *lsi_name; /* what the LSI is ("ENDGID"); NULL = none */
	/** When the decoder answers -ENOTSUP, the drive's page under this id has
	 * another layout (a vendor's own C0h): the command is noted
	 * "<what> (<other_layout>)" as unsupported, not as a decode error.
	 * NULL = -ENOTSUP is a decode error like any other. */
	const char *other_layout;
} ww_decoder_nvme_t;

typedef struct ww_decoder {
	ww_protocol_t protocol;
	ww_decoder_cmd_t cmd;
	uint16_t id, sub;   /* see ww_decoder_cmd_t; 0 when the command has none */
	const char *name;   /* short, unique, stable: `decode --type`, fuzz seeds */
	const char *title;  /* the spec's name of the page */
	size_t len;         /* size of a fixed structure in bytes; 0 = the page
			       states its own length */
	/** Bytes -> record, 0 or -errno (the contracts above). WW_DEC_SCSI_LOG
	 * rows with log_params use ww_decode_scsi_log_page here. */
	int (*decode)(const uint8_t *buf, size_t len, ww_health_t *h);
	/** WW_DEC_SCSI_LOG rows: walks the page's parameters into a working
	 * copy of h->scsi (iterator already past the header); NULL otherwise. */
	int (*log_params)(ww_scsi_log_iter_t *it, ww_scsi_t *s);
	/** Derives the normalised fields once the protocol's pages are all
	 * decoded (ww_nvme_finish, ww_ata_finish, ww_scsi_finish); NULL = none. */
	void (*finish)(ww_health_t *h);
	unsigned flags;     /* WW_DEC_* flags */
	ww_decoder_nvme_t nvme; /* NVMe rows: how the reader sends the command */
} ww_decoder_t;

/** Every row (src/decode/registry.c), grouped by protocol. SCSI and ATA rows
 * are ordered by command and identifier, NVMe rows in the order the reader
 * sends them (a row's `when` sees what the rows above it decoded); either
 * way the order readers ask in. */
extern const ww_decoder_t ww_decoders[];
extern const size_t ww_n_decoders;

/** The row for exactly (cmd, id, sub), or NULL. Rows with WW_DEC_ANY are
 * found only when asked for with WW_DEC_ANY. */
const ww_decoder_t *ww_decoder_find(ww_decoder_cmd_t cmd, uint16_t id, uint16_t sub);

/** The row named `name`, or NULL (NULL name too). */
const ww_decoder_t *ww_decoder_by_name(const char *name);

/** Decode buf with row d. Where one decoder serves several rows, first checks
 * that the bytes are the row's page: a LOG SENSE page's header must name
 * (id, sub) (-EMSGSIZE / -EINVAL from ww_scsi_log_begin, -EINVAL for another
 * page); a Device Statistics page's byte 2 must be sub (-EMSGSIZE under 512
 * bytes, -EINVAL). Then d->decode. Does not run d->finish. -EINVAL for NULL
 * d. */
int ww_decoder_run(const ww_decoder_t *d, const uint8_t *buf, size_t len, ww_health_t *h);

#ifdef __cplusplus
}
#endif
#endif
