/* The health record: the one contract between decode and everything after it
 * (model, store, exposition). Decoders fill it from device bytes; nothing after
 * decode ever sees bytes.
 *
 * Conventions
 *  - Every optional value is a ww_u64/ww_i64 whose `source` names where it came
 *    from ("NVMe SMART/Health log 02h bytes 48-63", "ATA attribute 9", "SCSI log
 *    page 0x19 param 0x0001"). source == NULL means "not reported". A value
 *    cannot be set without naming its source: use WW_SET().
 *  - Units are in field names (_bytes, _seconds, _celsius, _percent).
 *  - Counters that the wire carries as 128 bits are kept whole in the protocol
 *    section (ww_u128); the normalised u64 field saturates at UINT64_MAX and sets
 *    `saturated`.
 *  - Functions return 0 or a negative errno (-EINVAL garbage, -EMSGSIZE short
 *    buffer, -ENOTSUP unsupported page/command).
 */
#ifndef WEARWATCH_RECORD_H
#define WEARWATCH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Optional unsigned value with its provenance. Present iff source != NULL. */
typedef struct ww_u64 {
	uint64_t value;
	const char *source; /* static string; NULL = not reported */
	bool saturated;     /* wire value did not fit in 64 bits */
	const char *label;  /* short stable name of the source for metric labels
			       ("nvme_data_units", "ata_devstat"); set by the
			       finish step on values with a `source` label */
} ww_u64;

/** Optional signed value with its provenance. Present iff source != NULL. */
typedef struct ww_i64 {
	int64_t value;
	const char *source;
} ww_i64;

/** 128-bit little-endian counter as read from an NVMe log, kept whole. */
typedef struct ww_u128 {
	uint64_t lo, hi;
} ww_u128;

#define WW_SET(field, val, src)                                                \
	do {                                                                   \
		(field).value = (val);                                         \
		(field).source = (src);                                        \
	} while (0)
#define WW_HAS(field) ((field).source != NULL)

/** Command set the drive's health is read with. */
typedef enum ww_protocol {
	WW_PROTO_NONE = 0, /* no health interface (virtio-blk, unknown) */
	WW_PROTO_NVME,
	WW_PROTO_ATA,  /* SAT ATA PASS-THROUGH through an SG device */
	WW_PROTO_SCSI, /* SCSI LOG SENSE / INQUIRY */
	WW_PROTO_MAX
} ww_protocol_t;

/** Physical attachment, as admins name it (sysfs transport class, else VPD 0x83
 * protocol identifier). */
typedef enum ww_transport {
	WW_TRANSPORT_OTHER = 0,
	WW_TRANSPORT_NVME,
	WW_TRANSPORT_SATA,
	WW_TRANSPORT_SAS,
	WW_TRANSPORT_USB,
	WW_TRANSPORT_VIRTIO,
	WW_TRANSPORT_MAX
} ww_transport_t;

/** SMART overall verdict as the drive states it. */
typedef enum ww_smart_status {
	WW_SMART_UNKNOWN = 0,
	WW_SMART_PASSED,
	WW_SMART_FAILED,
} ww_smart_status_t;

/* ---------------------------------------------------------------- NVMe --- */

/** NVMe SMART / Health Information log (Log Identifier 02h), every field.
 * Source: NVM Express Base Specification 2.0, Figure 207. Temperatures are kept
 * in Kelvin as on the wire; 0 means "not reported" for sensors 1-8. */
typedef struct ww_nvme_smart {
	uint8_t critical_warning;            /* byte 0 bit field */
	uint16_t composite_temperature_kelvin; /* bytes 1-2 */
	uint8_t available_spare_percent;     /* byte 3 */
	uint8_t available_spare_threshold_percent; /* byte 4 */
	uint8_t percentage_used;             /* byte 5, may exceed 100, saturates at 255 */
	uint8_t endurance_group_critical_warning; /* byte 6 */
	ww_u128 data_units_read;             /* bytes 32-47, units of 1000 x 512 B */
	ww_u128 data_units_written;          /* bytes 48-63 */
	ww_u128 host_read_commands;          /* bytes 64-79 */
	ww_u128 host_write_commands;         /* bytes 80-95 */
	ww_u128 controller_busy_time_minutes; /* bytes 96-111 */
	ww_u128 power_cycles;                /* bytes 112-127 */
	ww_u128 power_on_hours;              /* bytes 128-143 */
	ww_u128 unsafe_shutdowns;            /* bytes 144-159 */
	ww_u128 media_errors;                /* bytes 160-175 */
	ww_u128 error_log_entries;           /* bytes 176-191 */
	uint32_t warning_temperature_time_minutes;  /* bytes 192-195 */
	uint32_t critical_temperature_time_minutes; /* bytes 196-199 */
	uint16_t temperature_sensor_kelvin[8];      /* bytes 200-215 */
	uint32_t thermal_mgmt_temp1_transitions;    /* bytes 216-219 */
	uint32_t thermal_mgmt_temp2_transitions;    /* bytes 220-223 */
	uint32_t thermal_mgmt_temp1_time_seconds;   /* bytes 224-227 */
	uint32_t thermal_mgmt_temp2_time_seconds;   /* bytes 228-231 */
	/* Fields the source did not carry (one bit per field, see
	 * ww_nvme_smart_present): smartctl's JSON leaves out the thermal
	 * management counters, the endurance group warning and, before 7.0,
	 * the composite temperature times. A native read of log 02h carries
	 * every field: 0. An absent field is absent everywhere, never 0. */
	uint32_t absent;
} ww_nvme_smart_t;

/** Whether the field at `offset` (offsetof(ww_nvme_smart_t, field); the
 * thermal management pairs by their first member) was carried by the
 * source. */
bool ww_nvme_smart_present(const ww_nvme_smart_t *s, size_t offset);

/** Mark the field at `offset` as not carried by the source. */
void ww_nvme_smart_set_absent(ww_nvme_smart_t *s, size_t offset);

/** Identify Controller (CNS 01h) fields the record keeps. */
typedef struct ww_nvme_ctrl {
	uint16_t vid;
	uint32_t version;                /* VER, 0 on pre-1.2 controllers */
	uint16_t wctemp_kelvin;          /* bytes 266-267, 0 = not reported */
	uint16_t cctemp_kelvin;          /* bytes 268-269 */
	ww_u128 tnvmcap_bytes;           /* bytes 280-295, often 0 */
	uint32_t nn;                     /* number of namespaces */
	uint8_t ieee_oui[3];             /* as printed by smartctl: [2][1][0] */
	uint32_t ctratt;                 /* bit 4: endurance groups */
	uint16_t oacs;                   /* bytes 256-257; bit 4 Device Self-test */
	uint8_t lpa;
	uint8_t elpe;                    /* byte 262: error log entries - 1 */
} ww_nvme_ctrl_t;

/** One namespace of an NVMe controller (Identify Namespace, CNS 00h). */
typedef struct ww_nvme_ns {
	uint32_t nsid;
	uint64_t size_blocks;   /* NSZE */
	uint32_t lba_bytes;     /* 2^LBADS of the formatted LBA format */
	uint8_t eui64[8];       /* all-zero when not reported */
	uint8_t nguid[16];
	uint16_t endgid;
	char block_name[32];    /* "nvme0n1" */
} ww_nvme_ns_t;

#define WW_NVME_MAX_NS 16

/* ----------------------------------------------------------------- ATA --- */

/** One SMART attribute as the drive stores it (SMART READ DATA entry, 12
 * bytes) plus its threshold (SMART READ THRESHOLDS). raw is the 48-bit
 * little-endian integer smartctl calls raw.value. */
typedef struct ww_ata_attr {
	uint8_t id;
	uint16_t flags;    /* entry bytes 1-2; smartctl prints bits 0-5 as
			      "POSRCK" (ww_ata_attr_flags_str) */
	uint8_t value, worst, threshold;
	bool has_threshold;
	uint64_t raw;      /* 48-bit */
	uint8_t raw_bytes[6];
	uint8_t reserved;  /* entry byte 11 ('r' in a drive database byte order) */
	/* The name as the source gives it (smartctl JSON `name`), else the
	 * drive database's name for this model, else smartmontools' default
	 * for the id ("Unknown_Attribute", "Unknown_SSD_Attribute", ...).
	 * Static or interned text (src/collect/drivedb.c): records are copied
	 * whole. */
	const char *name;
	bool name_from_source; /* `name` came with the data: never replaced */
	/* The raw value decoded under the drive database's -v format for this
	 * model and id (smartmontools' ata_format_attr_raw_value), filled by
	 * the ATA finish step (ww_ata_finish_presets). */
	uint64_t raw_value;    /* the bytes the format's byte order selects, as
				  one integer (smartctl JSON raw.value) */
	bool raw_value_given;  /* raw_value came from the source (smartctl
				  JSON): it is already in the format's order */
	char raw_string[32];   /* RAW_VALUE as smartctl prints it: "1 1 1",
				  "34 (Min/Max 15/54)", "4377h+12m+01.000s" */
	/* The raw value is one count: the format is raw48/raw56/raw64, or
	 * a number with vendor data in parentheses (raw16(raw16),
	 * raw24(raw8), raw16(avg16)); `count` is that number (the one smartctl
	 * prints first). False for raw8/raw16 triples, hex, ratios, durations
	 * and temperatures: Seagate's 188 is raw16 ("1 1 1"), its raw48 is not
	 * a count of anything. Seagate's 1, 7 and 195 pack error and operation
	 * counts too, but smartmontools 7.3 formats them raw48: true, as
	 * smartctl prints them; has_count below never takes them. */
	bool raw_is_count;
	uint64_t count;
	/* `count` is the count the attribute's default meaning names (the
	 * drive database keeps the id's default name: 5 reallocated sectors,
	 * 197 pending sectors, ...), the format makes it one number, and the
	 * id is one the health verdict counts (ww_ata_verdict_count_id: 5, 10,
	 * 187, 196, 197, 198). What the verdict reads; false for the
	 * vendor-packed Seagate 1, 7, 188, 195 (not counted ids, or not one
	 * number) and for an id the database gives another meaning (198
	 * Host_Reads_GiB). Set by the ATA finish step (ww_ata_finish_presets). */
	bool has_count;
	bool default_meaning; /* the name is the id's default one (or smartd's
				 old "increasing" form): what the per-id
				 families (reallocated sectors, ...) require */
	const char *format_source; /* the -v preset applied ("drivedb.h
				      \"FAMILY\": -v 188,raw16"); NULL = the
				      default for the id */
} ww_ata_attr_t;

#define WW_ATA_MAX_ATTRS 30

/** One Device Statistics entry (log 04h, ACS-4 9.5), flagged supported and
 * valid by the drive (byte 7 bits 7, 6); the value in the entry's size
 * (ww_ata_devstat_name), signed for the temperatures. */
typedef struct ww_ata_devstat {
	uint8_t page;
	uint16_t offset;     /* byte offset of the qword in its page */
	int64_t value;
	bool normalized;     /* byte 7 bit 5: a normalised value, not a count */
	const char *name;    /* as smartctl prints it (static text) */
} ww_ata_devstat_t;

/* ACS-4 defines 42 statistics over pages 1-7 */
#define WW_ATA_MAX_DEVSTATS 48

typedef struct ww_ata {
	ww_ata_attr_t attrs[WW_ATA_MAX_ATTRS];
	size_t n_attrs;
	bool smart_supported, smart_enabled;
	bool smart_support_known;         /* the two above were read (IDENTIFY
					     words 82/85, or smartctl's JSON);
					     false for a lone SMART page */
	bool smart_data_checksum_ok, thresholds_checksum_ok, has_thresholds;
	bool gp_log_supported;            /* IDENTIFY word 84 bit 5 / 87 bit 5 */
	bool devstat_supported;           /* log 04h listed in the GP log directory */
	uint8_t power_mode;               /* CHECK POWER MODE count register */
	bool has_power_mode;
	ww_u64 devstat_power_on_hours;        /* page 1 offset 0x10 */
	ww_u64 devstat_logical_sectors_written; /* page 1 offset 0x18 */
	ww_u64 devstat_logical_sectors_read;  /* page 1 offset 0x28 */
	ww_i64 devstat_temperature_celsius;   /* page 5 offset 0x08 */
	ww_u64 devstat_percentage_used;       /* page 7 offset 0x08 */
	uint16_t rotation_rate;               /* IDENTIFY word 217: 1 = SSD */
	/* added for the ATA decoders (src/decode/ata.c) */
	bool identify_has_checksum;           /* word 255 low byte = A5h */
	bool identify_checksum_ok;            /* ... and the 512 bytes sum to 0 */
	uint16_t smart_revision;              /* SMART READ DATA bytes 0-1 */
	ww_smart_status_t return_status;      /* SMART RETURN STATUS (or blob SMST) */
	uint16_t devstat_log_pages;           /* GP log directory count for log 04h */
	uint8_t devstat_pages[32];            /* Device Statistics page 0 list */
	size_t n_devstat_pages;
	ww_ata_devstat_t devstats[WW_ATA_MAX_DEVSTATS]; /* every entry read, in
						 page and offset order */
	size_t n_devstats;
	const char *devstats_source;
	/* what the logs of errors and self-tests need to be read */
	bool id_smart_errlog, id_smart_selftest; /* IDENTIFY word 84/87 bits 0/1 */
	bool has_smart_caps;                  /* SMART READ DATA bytes 362-373 read: */
	uint8_t self_test_exec_status;        /* byte 363 */
	uint8_t offline_capability;           /* byte 367 (bit 4 self-test) */
	uint16_t smart_capability;            /* bytes 368-369 */
	uint8_t errorlog_capability;          /* byte 370 (bit 0 error logging) */
	uint16_t xerror_log_pages;            /* GP log directory count, log 03h */
	uint16_t xselftest_log_pages;         /* GP log directory count, log 07h */
} ww_ata_t;

/* --------------------------------------------- error and self-test logs --- */

/** A drive's error log. ATA: the SMART summary error log (SMART READ LOG
 * 01h) and the extended comprehensive error log (READ LOG EXT 03h); NVMe:
 * the Error Information log (Get Log Page 01h). */
typedef struct ww_errlog {
	const char *source;   /* the log read; NULL = not read */
	uint64_t count;       /* errors the drive counted over its life: ATA
				 device error count (bytes 452-453 of 01h,
				 500-501 of 03h, wraps at 65535); NVMe the Error
				 Count of the newest entry */
	uint32_t entries;     /* entries the log holds now */
} ww_errlog_t;

enum { WW_ERRLOG_ATA_SUMMARY = 0, WW_ERRLOG_ATA_EXTENDED, WW_ERRLOG_NVME, WW_ERRLOG_MAX };

/** A drive's self-test log. ATA: SMART READ LOG 06h (standard) or READ LOG
 * EXT 07h (extended); NVMe: Device Self-test log 06h; SCSI: Self-Test
 * Results log page 0x10. */
typedef struct ww_selftest_log {
	const char *source;   /* NULL = not read */
	uint32_t entries;     /* tests the log holds */
	uint32_t failed;      /* of them, ended in a failure (ATA status 3-8,
				 SCSI results 3-7, NVMe results 5-7: what
				 smartctl counts as self-test errors) */
	bool has_last;        /* the most recent test: */
	uint8_t last_status;  /* ATA self-test execution status bits 7-4, SCSI
				 SELF-TEST RESULTS, NVMe result bits 3-0 */
	int8_t last_passed;   /* 1 completed without error, 0 failed, -1
				 neither (aborted, interrupted, running) */
	uint64_t last_hours;  /* power-on hours when it ran (ATA: 16 bits) */
	bool has_failing_lba; /* the most recent failed test's first failing */
	uint64_t failing_lba; /* LBA, when the log gives one */
	uint8_t last_kind;    /* ww_selftest_kind_t of the most recent test */
	/* the newest failed test that no later test of the same kind or a
	 * longer one passed (ww_selftest_covers): what the verdict reports,
	 * even when a shorter test passed since */
	bool has_open_failure;
	uint8_t open_kind;   /* ww_selftest_kind_t */
	uint8_t open_status; /* status code, as last_status */
	uint64_t open_hours; /* power-on hours when it ran */
	bool open_has_lba;
	uint64_t open_lba; /* its first failing LBA, when the log gives one */
} ww_selftest_log_t;

/** Kinds of self-test. ATA: the SMART EXECUTE OFF-LINE IMMEDIATE
 * subcommand a log descriptor names (byte 0: 0 off-line data collection, 1/81h
 * short, 2/82h extended, 3/83h conveyance, 4/84h selective; ACS-4 "SMART
 * EXECUTE OFF-LINE IMMEDIATE"); NVMe: the Self-test Code (1h short, 2h
 * extended, Eh vendor; NVMe Base 2.0 "Device Self-test"); SCSI: the SELF-TEST
 * CODE (1/5 short, 2/6 extended; SPC-5 "SEND DIAGNOSTIC"). */
typedef enum ww_selftest_kind {
	WW_STK_NONE = 0, /* not known */
	WW_STK_SHORT,
	WW_STK_EXTENDED,
	WW_STK_CONVEYANCE,
	WW_STK_SELECTIVE,
	WW_STK_OFFLINE, /* ATA off-line data collection (smartd's "O") */
	WW_STK_VENDOR,
	WW_STK_MAX
} ww_selftest_kind_t;

/** "unknown", "short", "extended", "conveyance", "selective", "offline",
 * "vendor": the `kind` label and JSON value. */
extern const char *const ww_selftest_kind_names[WW_STK_MAX];

/** The LBA range of one selective self-test span, both ends in it (ATA
 * Selective self-test log 09h, ACS-4 "Selective self-test log": "Starting
 * LBA" and "Ending LBA" of a test span; logical sectors). */
typedef struct ww_selftest_span {
	uint64_t first_lba, last_lba;
} ww_selftest_span_t;

/** Whether a passing test of kind `passed` clears a failure of kind
 * `failed`: the same kind, or an extended test (it reads every LBA, what
 * each shorter one samples). An unknown kind clears nothing and is cleared
 * only by an extended test; so is a selective one (the self-test logs do
 * not say which span a selective entry read, so a later span passing says
 * nothing of the one that failed). Pure. */
bool ww_selftest_covers(unsigned passed, unsigned failed);

/** One log entry, walked newest first, into l's open failure: a failed
 * entry (failed) of `kind` becomes it when l has none yet and no kind in
 * passed_later (a bit per ww_selftest_kind_t: the kinds that passed in
 * newer entries) covers it. The decoders of every self-test log share it. */
void ww_selftest_fold(ww_selftest_log_t *l, unsigned passed_later, unsigned kind, bool failed,
		      uint8_t status, uint64_t hours, bool has_lba, uint64_t lba);

/** One log entry, walked newest first, into l: its counts, the most recent
 * test when `newest`, the first failing LBA of the newest failed test, the
 * open failure (ww_selftest_fold) and, when status is 0 (completed without
 * error in every log's codes), its kind into *passed_later. Every self-test
 * log reader (the native decoders and smartctl's JSON) takes an entry so. */
void ww_selftest_entry(ww_selftest_log_t *l, unsigned *passed_later, bool newest, unsigned kind,
		       uint8_t status, bool failed, uint64_t hours, bool has_lba, uint64_t lba);

/** What the drive says of the self-test running now and how long its tests
 * take. ATA: SMART READ DATA byte 363 (self-test execution status 15 = in
 * progress, bits 3-0 tenths remaining) and bytes 372-376 (polling minutes;
 * the kind is not given); NVMe: Device Self-test log 06h bytes 0-1 (Current
 * Device Self-Test Operation and Completion) and Identify Controller EDSTT;
 * SCSI: the newest Self-Test Results parameter with result Fh (in progress). */
typedef struct ww_selftest_now {
	const char *source; /* NULL = not known */
	bool running;
	uint8_t kind;                 /* ww_selftest_kind_t; NONE when not given */
	int8_t remaining_percent;     /* of the running test; -1 not given */
	uint32_t expected_short_s;    /* how long the drive says a test of this */
	uint32_t expected_extended_s; /* kind takes; 0 = not given */
	uint32_t expected_conveyance_s;
} ww_selftest_now_t;

enum {
	WW_SELFTEST_ATA_STANDARD = 0, WW_SELFTEST_ATA_EXTENDED, WW_SELFTEST_NVME,
	WW_SELFTEST_SCSI, WW_SELFTEST_MAX
};

/** The label each log is exported with ("summary", "extended", "nvme";
 * "standard", "extended", "nvme", "scsi": smartctl JSON's names). */
extern const char *const ww_errlog_names[WW_ERRLOG_MAX];
extern const char *const ww_selftest_names[WW_SELFTEST_MAX];

/** SCSI power conditions of log page 0x1A, in ww_scsi_t.power_transitions
 * order: "active", "idle_a", "idle_b", "idle_c", "standby_z", "standby_y". */
extern const char *const ww_scsi_power_condition_names[6];

/** Interface speed in bits per second, as smartctl reports it. */
typedef struct ww_link {
	ww_u64 max_bps;       /* SATA IDENTIFY word 76 (fastest generation) */
	ww_u64 current_bps;   /* SATA word 77; SAS page 0x18 negotiated rate
				 (NVMe: the PCIe link, in ww_drive_t) */
} ww_link_t;

/* ---------------------------------------------------------------- SCSI --- */

/** SCSI log pages the drive lists in page 0x00 (page<<8 | subpage). */
#define WW_SCSI_MAX_PAGES 64

typedef struct ww_scsi_errcnt {
	ww_u64 corrected_total;       /* param 0x0003 */
	ww_u64 bytes_processed;       /* param 0x0005 */
	ww_u64 uncorrected;           /* param 0x0006 */
} ww_scsi_errcnt_t;

/** One SAS phy of a target port, from its SAS phy log descriptor in the
 * Protocol Specific Port log page (0x18; SPL-4 "Protocol-Specific Port log
 * page for SAS"). Byte offsets are relative to the descriptor; the counters
 * are 32-bit on the wire and stop at FFFFFFFFh. smartctl prints them with
 * `-l sasphy`. */
typedef struct ww_sas_phy {
	uint16_t port;                     /* relative target port identifier
					      (the parameter code), 1 = port A */
	uint8_t phy;                       /* byte 1 PHY IDENTIFIER */
	uint64_t sas_address;              /* bytes 8-15 */
	uint32_t invalid_dwords;           /* bytes 32-35 INVALID DWORD COUNT */
	uint32_t running_disparity_errors; /* bytes 36-39 RUNNING DISPARITY ERROR COUNT */
	uint32_t loss_of_dword_sync;       /* bytes 40-43 LOSS OF DWORD SYNCHRONIZATION */
	uint32_t phy_reset_problems;       /* bytes 44-47 PHY RESET PROBLEM */
	uint8_t link_rate;                 /* byte 5 bits 3-0 NEGOTIATED LOGICAL
					      LINK RATE: 8h 1.5, 9h 3, Ah 6, Bh 12,
					      Ch 22.5 Gbit/s; below 8h not up */
} ww_sas_phy_t;

/** Phys kept from page 0x18. One port's parameter holds at most 5
 * descriptors (PARAMETER LENGTH is one byte: (255 - 4) / 48), fewer with phy
 * event descriptors; a SAS drive has one or two target ports with one phy
 * each (two or four on wide-port drives), so 8 keeps every phy of a
 * dual-ported wide-port drive. Descriptors past 8 are counted in
 * n_sas_phys_dropped, not kept. */
#define WW_SCSI_MAX_SAS_PHYS 8

typedef struct ww_scsi {
	uint16_t supported_pages[WW_SCSI_MAX_PAGES];
	size_t n_supported_pages;
	ww_scsi_errcnt_t write_errors, read_errors, verify_errors; /* 0x02/0x03/0x05 */
	ww_i64 temperature_celsius;           /* page 0x0D param 0 */
	ww_i64 reference_temperature_celsius; /* page 0x0D param 1 */
	ww_i64 env_temperature_celsius;       /* page 0x0D/0x01 param 0 */
	ww_u64 start_stop_cycles;             /* page 0x0E param 0x0004 */
	ww_u64 specified_start_stop_cycles;   /* page 0x0E param 0x0003 */
	ww_u64 load_unload_cycles;            /* page 0x0E param 0x0006 */
	ww_u64 specified_load_unload_cycles;  /* page 0x0E param 0x0005 */
	/* page 0x1A Power Condition Transitions: accumulated transitions to
	 * active, idle_a, idle_b, idle_c, standby_z, standby_y (params 0x0001
	 * to 0x0004, 0x0008, 0x0009; ww_scsi_power_condition_names) */
	ww_u64 power_transitions[6];
	ww_u64 grown_defects;                 /* READ DEFECT DATA GLIST entries */
	ww_u64 non_medium_errors;             /* page 0x06 param 0x0000 (SPC-5
						 Non-Medium Error log page) */
	ww_selftest_log_t self_test;          /* page 0x10 (copied to
						 self_tests[WW_SELFTEST_SCSI]) */
	ww_selftest_now_t self_test_now;      /* page 0x10 parameter 1 (copied
						 to ww_health_t.self_test_now) */
	char manufacture_year[5], manufacture_week[3]; /* page 0x0E param 1 */
	ww_u64 percentage_used;               /* page 0x11 param 1 */
	ww_u64 power_on_minutes;              /* page 0x15 param 0 */
	ww_u64 logical_blocks_written;        /* page 0x19 param 1 */
	ww_u64 logical_blocks_read;           /* page 0x19 param 1 */
	ww_u64 ie_asc, ie_ascq;               /* page 0x2F param 0 */
	ww_i64 ie_temperature_celsius;        /* page 0x2F param 0 byte 6 */
	ww_sas_phy_t sas_phys[WW_SCSI_MAX_SAS_PHYS]; /* page 0x18, in page order */
	size_t n_sas_phys, n_sas_phys_dropped;
	const char *sas_phys_source;          /* set when page 0x18 decoded */
	uint8_t peripheral_type;
	uint8_t protocol_id;                  /* VPD 0x83 PROTOCOL IDENTIFIER, 0xFF none */
	uint16_t medium_rotation_rate;        /* VPD 0xB1, 1 = non-rotating */
} ww_scsi_t;

/* ------------------------------------------------------ how a read went --- */

/** Outcome class of one command (after ioctl, SCSI status, host/driver status
 * and sense have all been looked at). */
typedef enum ww_cmd_result {
	WW_CMD_OK = 0,
	WW_CMD_UNSUPPORTED,   /* INVALID OPCODE / INVALID FIELD IN CDB / NVMe Invalid Log Page / ENOTTY */
	WW_CMD_RECOVERED,     /* data good, sense carried (e.g. SAT ATA return descriptor) */
	WW_CMD_DEVICE_ERROR,  /* CHECK CONDITION / NVMe status != 0 not meaning "unsupported" */
	WW_CMD_TRANSPORT_ERROR, /* host/driver status, aborted */
	WW_CMD_TIMEOUT,
	WW_CMD_OS_ERROR,      /* open/ioctl failed: see os_errno */
	WW_CMD_RESULT_MAX
} ww_cmd_result_t;

/** Human name of a command result ("ok", "unsupported", ...). */
const char *ww_cmd_result_name(ww_cmd_result_t r);

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
	size_t n_cmds;
	unsigned n_errors;       /* commands that failed (not "unsupported") */
	unsigned n_unsupported;  /* pages/commands the drive does not support */
	unsigned n_decode_errors; /* bytes arrived but a decoder rejected them */
	bool standby;            /* ATA CHECK POWER MODE said standby/sleep: stopped */
	bool runtime_suspended;  /* sysfs runtime_status "suspended": nothing sent */
	const char *partial;     /* the read is partial, why (static text): data
				    came, but some of it failed (smartctl exit
				    status bit 2) */
	/* last: the store keeps a report up to its n_cmds notes only
	 * (ww_read_report_size) */
	ww_cmd_note_t cmds[WW_READ_MAX_CMDS];
} ww_read_report_t;

/** Bytes of r up to its last note (n_cmds of them, at most
 * WW_READ_MAX_CMDS): what a kept copy of it needs. */
size_t ww_read_report_size(const ww_read_report_t *r);

/* --------------------------------------------------------- the record --- */

/** What one poll of one drive yields. Fill with decoders; read with anything. */
typedef struct ww_health {
	ww_protocol_t protocol;

	/* identity reported by the device itself (space-trimmed, NUL-terminated) */
	char model[64], serial[64], firmware[32], vendor[16];
	char wwn[40];   /* "0x5000cca..." NAA from IDENTIFY words 108-111 or VPD 0x83 */
	ww_u64 capacity_bytes;
	ww_u64 logical_block_bytes, physical_block_bytes;
	ww_u64 rotation_rate_rpm; /* 1 = non-rotating (ATA/SCSI convention) */

	/* normalised health, what the metrics are made of */
	ww_smart_status_t smart_status;
	const char *smart_status_source;
	ww_i64 temperature_celsius;
	ww_i64 temperature_warning_celsius;   /* NVMe WCTEMP */
	ww_i64 temperature_critical_celsius;  /* NVMe CCTEMP */
	ww_i64 temperature_reference_celsius; /* SCSI page 0x0D param 1 */
	ww_u64 host_written_bytes;
	ww_u64 host_read_bytes;
	ww_u64 power_on_seconds;
	ww_u64 power_cycles;
	ww_u64 unsafe_shutdowns;
	ww_u64 media_errors;
	ww_u64 endurance_used_percent;        /* drive's own percentage used */
	ww_u64 available_spare_percent;
	ww_u64 available_spare_threshold_percent;
	ww_u64 critical_warning;              /* NVMe bit field */
	ww_u64 error_log_entries;

	/* protocol detail, valid per `protocol` */
	ww_nvme_smart_t nvme_smart;
	bool has_nvme_smart;
	ww_nvme_ctrl_t nvme_ctrl;
	bool has_nvme_ctrl;
	ww_nvme_ns_t nvme_ns[WW_NVME_MAX_NS];
	size_t n_nvme_ns;
	ww_ata_t ata;
	ww_scsi_t scsi;

	/* which backend produced the values: NULL or "native" (our transports),
	 * "smartctl" (src/collect/smartctl.c: every value's source then starts
	 * with "smartctl"), "replay" (a recorded capture, src/transport/replay.c) */
	const char *backend;

	/* endurance, for the wear-out model (decoders in src/decode/nvme_endurance.c,
	 * src/decode/scsi_utilization.c) */
	ww_u64 endurance_estimate_bytes; /* NVMe log 09h bytes 32-47 x 10^9, or
					    OCP C0h bytes 176-191 (bytes) */
	ww_u64 media_written_bytes;      /* NVMe log 09h bytes 80-95 x 10^9, or
					    OCP C0h bytes 0-15 (bytes) */
	ww_u64 workload_utilization_centipercent; /* SCSI log page 0x0E/0x01
					    param 0x0000, 0.01 % of the annual
					    workload rating (reads + writes) */
	ww_u64 plp_start_count;          /* OCP C0h bytes 160-175 */
	ww_u64 capacitor_health_percent; /* OCP C0h bytes 128-129 */
	ww_u64 uncorrectable_read_errors; /* OCP C0h bytes 56-63 (Uncorrectable
					    Read Error Count) */

	/* error and self-test logs (ww_errlog_names / ww_selftest_names) */
	ww_errlog_t error_logs[WW_ERRLOG_MAX];
	ww_selftest_log_t self_tests[WW_SELFTEST_MAX];
	ww_selftest_now_t self_test_now; /* the running test, durations */
	ww_link_t link;       /* interface speed */

	/* smartctl's exit status for the run that produced this record
	 * (smartctl(8) "RETURN VALUES", a bit mask): bits 3-7 are facts about
	 * the drive (3 SMART status failing, 4 a pre-fail attribute at or
	 * below its threshold, 5 an attribute was at or below its threshold
	 * in the past, 6 the error log has records, 7 the self-test log has
	 * errors); bits 0-2 make the read a failure or partial (the report
	 * says so). has_smartctl_exit is false for every other source. */
	bool has_smartctl_exit;
	uint8_t smartctl_exit;

	/* values a decoder left out because the bytes are outside what their
	 * spec allows (an NVMe available spare above 100 %): a drive answering
	 * garbage shows this count, never the garbage as a value */
	uint32_t implausible_values;

	/* the device answered (identity read) but reports no SMART or
	 * health data at all ("reached, no SMART": QEMU's megasas disk, virtual
	 * volumes); set by the smartctl backend's reader (smartctl_members.c) */
	bool no_smart;
} ww_health_t;

/** smartctl's flags column for an attribute: "PO--CK" (P pre-failure bit 0,
 * O updated online 1, S performance 2, R error rate 3, C event count 4, K
 * auto-keep 5; '-' when clear) plus '+' when any of bits 6-15 is set.
 * Returns out (8 bytes). */
const char *ww_ata_attr_flags_str(uint16_t flags, char out[8]);

/** Human label of a protocol/transport ("nvme", "sata", ...). Never NULL. */
const char *ww_protocol_name(ww_protocol_t p);
const char *ww_transport_name(ww_transport_t t);

/** 128-bit helpers: value as u64 (saturating; *saturated set when it did not
 * fit), as long double (for exposition), and as a decimal string (buf >= 40). */
uint64_t ww_u128_to_u64(ww_u128 v, bool *saturated);
long double ww_u128_to_ld(ww_u128 v);
char *ww_u128_to_dec(ww_u128 v, char *buf, size_t len);

/** Bytes in decimal SI units as drive vendors rate them, two decimals
 * ("209.92 MB", "1.92 TB"; below 1000 "512 B"): what show, the verdict's
 * sentences and /table print (the dashboard's WW.fmtBytes is its
 * JavaScript twin). Returns buf (>= 16 bytes). */
const char *ww_bytes_human(uint64_t b, char *buf, size_t len);

/** Multiply a 128-bit counter by a small factor into a saturated u64 (NVMe data
 * units x 512000 -> bytes). */
ww_u64 ww_u128_scale(ww_u128 v, uint64_t factor, const char *source);

/* Bounded patterns. Drives are named by regular expressions in data and
 * configuration (the ratings table, --rating and [drive] overrides,
 * drivedb.h), so a pattern is outside input: it is compiled by PCRE2 under
 * limits on its length, nesting and compile memory, and every match runs
 * under a step, depth and heap limit. PCRE2's syntax is Perl's; the POSIX
 * extended expressions those files use (alternation, brackets, [[:digit:]],
 * counted repetition) mean the same. */

typedef struct ww_pattern ww_pattern_t;

#define WW_PATTERN_MAX_LEN 4096            /* bytes of pattern (drivedb.h's longest: ~1 KiB) */
#define WW_PATTERN_MAX_NEST 32             /* nested groups */
#define WW_PATTERN_COMPILE_BYTES (1u << 20) /* memory one compile may take */
#define WW_PATTERN_MATCH_STEPS 100000      /* pcre2_set_match_limit */
#define WW_PATTERN_MATCH_DEPTH 1000        /* pcre2_set_depth_limit */
#define WW_PATTERN_MATCH_HEAP_KIB 1024     /* pcre2_set_heap_limit */

enum { WW_PATTERN_WHOLE = 1 }; /* the pattern must match the whole subject */

/** Compile `re` (flags: WW_PATTERN_WHOLE or 0, then a match anywhere). Returns
 * 0 with *out set, -EINVAL (syntax: "bad pattern at offset N: what" in err),
 * -E2BIG (over a limit above: "pattern over the limits ..." in err) or
 * -ENOMEM. err may be NULL. */
int ww_pattern_compile(const char *re, unsigned flags, ww_pattern_t **out, char *err,
		       size_t errlen);

/** 1 when s matches, 0 when not, -E2BIG when the match hit a limit (callers
 * treat it as no match), -ENOMEM. Thread-safe (a compiled pattern is shared
 * read-only). */
int ww_pattern_match(const ww_pattern_t *p, const char *s);

/** Free a compiled pattern; NULL is a no-op. */
void ww_pattern_free(ww_pattern_t *p);

#ifdef __cplusplus
}
#endif
#endif
