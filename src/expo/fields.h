/* The health record's fields as data, for the JSON and text renderers.
 *
 * A section of the record (ww_health_t's normalised values, the NVMe SMART
 * log, a SCSI error counter page, one SAS phy, ...) is one table of rows:
 * the field's offset and shape, its JSON key, its label and unit for people,
 * and when it is shown. json.c and text.c walk the tables as metrics.c walks
 * the metric rows, so a field added to the record is a row here and shows in
 * `show`, `decode` and the API without touching a renderer.
 * tests/layers/check_fields.py fails the suite when a numeric field of
 * record.h is in no table and not listed in ww_fields_by_hand (fields.c). */
#ifndef WW_EXPO_FIELDS_H
#define WW_EXPO_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wearwatch/record.h"

/** The shape of the value at a row's offset. */
typedef enum ww_fkind {
	WW_FK_U64 = 0, /* ww_u64: shown when WW_HAS, with its source */
	WW_FK_I64,     /* ww_i64: likewise */
	WW_FK_U8,      /* plain integers: always shown (see ww_fwhen_t) */
	WW_FK_U16,
	WW_FK_U32,
	WW_FK_RAW64, /* uint64_t; with WW_FF_HEX an identifier: JSON "0x%016x" text */
	WW_FK_U128,  /* ww_u128: a JSON integer when it fits int64, else a string */
	WW_FK_BOOL,
} ww_fkind_t;

/** How text shows the number (JSON always carries the number itself). */
typedef enum ww_ffmt {
	WW_FF_NUM = 0,  /* decimal, then the unit */
	WW_FF_HEX,      /* 0x%02x: bit fields */
	WW_FF_BYTES,    /* "N bytes (1.92 TB)" */
	WW_FF_SECONDS,  /* "N seconds (H h)" */
	WW_FF_ROTATION, /* 1 = "non-rotating (solid state)", else rpm */
	WW_FF_VERSION,  /* NVMe VER: major.minor.tertiary */
	WW_FF_YESNO,    /* booleans: "yes" / "no" */
} ww_ffmt_t;

/** When a row is shown. */
typedef enum ww_fwhen {
	WW_FW_ALWAYS = 0, /* plain kinds; ww_u64/ww_i64 rows always need WW_HAS */
	WW_FW_NONZERO,    /* 0 means "not reported" on the wire */
	WW_FW_NVME,       /* the source carried it (ww_nvme_smart_present) */
	WW_FW_NOT_FF,     /* 0xff means "none" (VPD 0x83 protocol identifier) */
} ww_fwhen_t;

typedef struct ww_field {
	const char *member; /* the record's member name (checks); NULL ends */
	const char *key;    /* JSON key */
	const char *label;  /* text label */
	const char *unit;   /* JSON "unit" of a sourced value, and the text unit */
	size_t off;         /* offsetof in the section's struct */
	ww_fkind_t kind;
	ww_ffmt_t fmt;
	ww_fwhen_t when;
	const char *source; /* text: where a plain value came from, or NULL */
} ww_field_t;

/* The tables; each ends with a row whose member is NULL. */
extern const ww_field_t ww_fields_health[];     /* ww_health_t normalised values */
extern const ww_field_t ww_fields_nvme_smart[]; /* ww_nvme_smart_t, log 02h */
extern const ww_field_t ww_fields_nvme_ctrl[];  /* ww_nvme_ctrl_t, Identify CNS 01h */
extern const ww_field_t ww_fields_nvme_ns[];    /* ww_nvme_ns_t, Identify CNS 00h */
extern const ww_field_t ww_fields_ata[];        /* ww_ata_t scalars */
extern const ww_field_t ww_fields_devstat[];    /* ww_ata_t Device Statistics values */
extern const ww_field_t ww_fields_scsi[];       /* ww_scsi_t scalars */
extern const ww_field_t ww_fields_errcnt[];     /* ww_scsi_errcnt_t, pages 02h/03h/05h */
extern const ww_field_t ww_fields_sas_phy[];    /* ww_sas_phy_t, page 18h */
extern const ww_field_t ww_fields_errlog[];     /* ww_errlog_t */
extern const ww_field_t ww_fields_selftest[];   /* ww_selftest_log_t */
extern const ww_field_t ww_fields_link[];
extern const ww_field_t ww_fields_selftest_now[]; /* ww_link_t */

/** "struct.member" of the fields json.c and text.c show by hand (with the
 * reason beside each in fields.c), NULL-terminated; "struct.*" for a whole
 * struct. */
extern const char *const ww_fields_by_hand[];

/** Whether row f of the section at base is shown. */
bool ww_field_shown(const ww_field_t *f, const void *base);

/** Add every shown row of table t over base to the json_object *o (void *
 * so this header needs no json-c): a sourced value as {"value", "unit",
 * "source"[, "saturated"]}, a plain one as the number or boolean. */
void ww_fields_json(void *o, const ww_field_t *t, const void *base);

/** One line per shown row of t over base: indent, the label padded, the
 * value as fmt says, the unit, and "[source]" when there is one. label_pre
 * (may be NULL) goes before every label ("write " for the write error
 * counters). */
void ww_fields_text(FILE *f, const ww_field_t *t, const void *base, const char *label_pre);

#endif
