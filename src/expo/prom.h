/* The one writer of the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/, "Text format
 * details"), into a growing memory buffer.
 *
 * A family is opened with ww_prom_family(); its "# HELP" and "# TYPE" lines
 * are written with its first sample, so a family without a sample leaves no
 * trace. Every sample of a per-drive family starts with the drive label of
 * ww_prom_drive(), then the family's label names with the values the sample
 * gives, in the family's order. Label values are escaped here and only here
 * (backslash, double quote, line feed). Integers are printed digit by digit,
 * never through a double, so 64- and 128-bit counters stay exact. */
#ifndef WW_EXPO_PROM_H
#define WW_EXPO_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Label names after `drive` a family may have. */
#define WW_PROM_MAX_LABELS 8

typedef struct ww_prom {
	char *buf;                 /* NUL-terminated output, len bytes */
	size_t len, cap;
	bool oom;                  /* an allocation failed: output unusable */
	/* current family */
	const char *name, *type, *help;
	const char *const *labels; /* NULL-terminated label names (may be NULL) */
	bool hdr;                  /* HELP/TYPE written */
	/* current drive label value; NULL = a family without drive */
	const char *drive;
	size_t drive_len;
	bool drive_plain;          /* nothing in it to escape: copied as is */
} ww_prom_t;

/** How a double is written: "%.17g" (reads back as the same double), "%.9g",
 * "%.6f", "%.15g" (the process_* figures, as Prometheus' client libraries
 * write them). */
typedef enum ww_dbl_fmt { WW_DBL_G17, WW_DBL_G9, WW_DBL_F6, WW_DBL_G15 } ww_dbl_fmt_t;

/** One sample value: an exact integer, a percentage written as a ratio, or a
 * double with its format. Build with the ww_pv_* helpers. */
typedef struct ww_pval {
	enum { WW_PV_U64, WW_PV_I64, WW_PV_U128, WW_PV_PERCENT, WW_PV_DOUBLE } kind;
	union {
		uint64_t u;
		int64_t i;
		unsigned __int128 x;
		double d;
	};
	ww_dbl_fmt_t fmt;          /* WW_PV_DOUBLE */
} ww_pval_t;

static inline ww_pval_t ww_pv_u64(uint64_t v)
{
	return (ww_pval_t){ .kind = WW_PV_U64, .u = v };
}

static inline ww_pval_t ww_pv_i64(int64_t v)
{
	return (ww_pval_t){ .kind = WW_PV_I64, .i = v };
}

static inline ww_pval_t ww_pv_u128(unsigned __int128 v)
{
	return (ww_pval_t){ .kind = WW_PV_U128, .x = v };
}

/** percent / 100 written exactly: 3 -> 0.03, 120 -> 1.2, 100 -> 1 */
static inline ww_pval_t ww_pv_percent(uint64_t percent)
{
	return (ww_pval_t){ .kind = WW_PV_PERCENT, .u = percent };
}

static inline ww_pval_t ww_pv_double(double v, ww_dbl_fmt_t fmt)
{
	return (ww_pval_t){ .kind = WW_PV_DOUBLE, .d = v, .fmt = fmt };
}

/** Empty writer with room for about `hint` bytes. Returns 0 or -ENOMEM. */
int ww_prom_init(ww_prom_t *w, size_t hint);

/** The text (malloc'd, NUL-terminated; *len bytes without the NUL, len may
 * be NULL), or NULL when an allocation failed. The writer is empty after. */
char *ww_prom_finish(ww_prom_t *w, size_t *len);

/** Start a family: name, type ("gauge", "counter", "histogram", "summary"),
 * help text (written as is: no line feed or backslash in it) and its label
 * names after `drive` (NULL-terminated array, or NULL for none). */
void ww_prom_family(ww_prom_t *w, const char *name, const char *type, const char *help,
		    const char *const *labels);

/** The drive label value of the samples that follow (escaped when
 * written), or NULL for samples without a drive label. id must stay valid
 * while they are written. */
void ww_prom_drive(ww_prom_t *w, const char *id);

/** One sample of the current family: name + suffix (NULL, or "_bucket",
 * "_sum", "_count" of a histogram or summary), the drive label, then one
 * value per label name of the family from lv (lv NULL: none of them; a NULL
 * value is written as ""), then the value. */
void ww_prom_sample(ww_prom_t *w, const char *suffix, const char *const *lv, ww_pval_t v);

static inline void ww_prom_u64(ww_prom_t *w, const char *const *lv, uint64_t v)
{
	ww_prom_sample(w, NULL, lv, ww_pv_u64(v));
}

static inline void ww_prom_i64(ww_prom_t *w, const char *const *lv, int64_t v)
{
	ww_prom_sample(w, NULL, lv, ww_pv_i64(v));
}

/** Append s with the label-value escapes of the format (\\, \", \n). */
void ww_prom_escape(ww_prom_t *w, const char *s);

/** Append the n bytes at s as they are. */
void ww_prom_put(ww_prom_t *w, const char *s, size_t n);

#endif
