/* Model: endurance arithmetic on top of the health record. Pure functions:
 * no I/O except the ratings file loader, no clock (every time is the `now`
 * argument, seconds since the epoch), no allocation except the ratings table.
 *
 * Units are decimal (1 TB = 10^12 bytes, 1 PB = 10^15 bytes). Rated bytes
 * written = DWPD x capacity x 365 x warranty years, with the table row's
 * nominal capacity when it gives one, else the drive's capacity.
 * docs/endurance.md explains every figure and its source.
 */
#ifndef WEARWATCH_MODEL_H
#define WEARWATCH_MODEL_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WW_DAY_S 86400
#define WW_YEAR_DAYS 365

/* ----------------------------------------------------------- ratings --- */

/** Where a drive's rating came from, best first. */
typedef enum ww_rating_source {
	WW_RATING_NONE = 0,
	WW_RATING_CONFIG,       /* --rating / config file, per drive */
	WW_RATING_NVME_EG,      /* NVMe Endurance Group Information log 09h */
	WW_RATING_OCP_C0,       /* OCP SMART / Health Information Extended C0h */
	WW_RATING_TABLE,        /* data/drive-ratings.tsv or a user table */
	WW_RATING_MAX
} ww_rating_source_t;

/** "config", "nvme_endurance_group", "ocp_c0", "table", "none". */
const char *ww_rating_source_name(ww_rating_source_t s);

/** One ratings row: a table line (model regex, interface, nominal capacity,
 * DWPD, rated bytes, warranty years, source) or a configured override (pattern
 * matched against the drive id or serial exactly, else as a regex against the
 * model). Zero means "not given" for every number. */
typedef struct ww_rating_row {
	char pattern[128];
	regex_t re;                /* POSIX extended, REG_NOSUB */
	bool compiled;
	char interface[16];        /* "sas", "sata", "nvme", "" = any */
	uint64_t capacity_bytes;   /* nominal capacity of the row */
	double dwpd;               /* rated drive writes per day */
	uint64_t rated_bytes;      /* rated bytes written (TBW x 10^12) */
	unsigned warranty_years;
	time_t warranty_start;     /* config only; 0 = not configured */
	char source[160];          /* source column / "--rating" */
	char line[320];            /* the row as written, for the JSON API */
} ww_rating_row_t;

typedef struct ww_ratings {
	ww_rating_row_t *rows;
	size_t n;
} ww_ratings_t;

/** Parse a tab-separated table (columns as data/drive-ratings.tsv: model_regex,
 * interface, capacity_bytes, rated_dwpd, rated_bytes_written, warranty_years,
 * source; '#' lines and blank lines ignored) and append its rows to t.
 * origin names the text in error messages. Returns rows added, or -EINVAL
 * (bad row or regex: *bad_line set, 1-based) or -ENOMEM. */
int ww_ratings_parse(ww_ratings_t *t, const char *text, const char *origin,
		     unsigned *bad_line);

/** Read a table file and parse it (see ww_ratings_parse). Returns rows added
 * or -errno. */
int ww_ratings_load_file(ww_ratings_t *t, const char *path, unsigned *bad_line);

/** The table shipped with the project (data/drive-ratings.tsv, compiled in
 * at build time as text). */
extern const char ww_builtin_ratings_tsv[];

/** Free every row. The struct may be reused after. */
void ww_ratings_free(ww_ratings_t *t);

/** First table row whose regex matches model and whose interface is empty or
 * equals iface ("sas", "sata", "nvme"; NULL = any). NULL when none. */
const ww_rating_row_t *ww_ratings_match(const ww_ratings_t *t, const char *model,
					const char *iface);

/** Parse a per-drive override "PATTERN=VALUE" and append it to t (the config
 * file calls this with the same text, so both spell a rating alike). VALUE is
 *   DWPD:YEARS[:CAPACITY_BYTES][@YYYY-MM-DD]   e.g. "10:5", "30:5:400000000000"
 *   BYTES{B|TB|PB}:YEARS[@YYYY-MM-DD]          e.g. "21.9PB:5", "5475TB:5"
 * ("@date" = warranty start, UTC). PATTERN is a drive id, a serial, or a POSIX
 * extended regex on the model. Returns 0, -EINVAL (message in err) or -ENOMEM. */
int ww_rating_override_parse(ww_ratings_t *t, const char *spec, char *err, size_t errlen);

/** First override matching the drive: id or serial equal to the pattern, else
 * the pattern as a regex matching the model. NULL when none. */
const ww_rating_row_t *ww_ratings_match_override(const ww_ratings_t *t, const char *id,
						 const char *serial, const char *model);

/* ------------------------------------------------------------ history --- */

/** One stored poll of the counters the model needs (history.h stores more).
 * Counters are absent when has_* is false. */
typedef struct ww_sample {
	time_t t;
	int64_t segment;          /* changes when a counter went backwards */
	bool has_written, has_poh, has_media_errors;
	uint64_t written_bytes;
	uint64_t power_on_seconds;
	uint64_t media_errors;
} ww_sample_t;

/** Window lengths of wearwatch_drive_writes_per_day{window}. */
typedef enum ww_window { WW_WIN_1D = 0, WW_WIN_7D, WW_WIN_30D, WW_WIN_MAX } ww_window_t;
extern const unsigned ww_window_days[WW_WIN_MAX];   /* 1, 7, 30 */
extern const char *const ww_window_name[WW_WIN_MAX]; /* "1d", "7d", "30d" */

/** Fraction of a window history must cover before a window rate is given. */
#define WW_WINDOW_COVERAGE 0.9

/** Drive writes per day over a window ending at `latest`, from `base` (the
 * oldest sample of the same segment at or after now - window). Returns true
 * and sets *dwpd when both have bytes written, are in the same segment, the
 * span covers >= 90 % of the window and capacity > 0; never extrapolates. */
bool ww_model_window_dwpd(const ww_sample_t *base, const ww_sample_t *latest,
			  unsigned window_days, uint64_t capacity_bytes, double *dwpd);

/** Pick the baseline for a window from samples sorted by time (same rules as
 * the history query: latest sample's segment, t >= now - window). Returns the
 * index or -1. For tests and for callers that hold samples in memory. */
long ww_model_pick_base(const ww_sample_t *s, size_t n, time_t now, unsigned window_days);

/* ------------------------------------------------------------- result --- */

typedef enum ww_health_status { WW_HS_OK = 0, WW_HS_WARNING = 1, WW_HS_CRITICAL = 2 } ww_health_status_t;

/** Reasons of the verdict, one wearwatch_drive_health_reason{reason} each. */
typedef enum ww_reason {
	WW_R_RATED_ENDURANCE_80 = 0, /* warning: rated endurance used >= 80 % */
	WW_R_RATED_ENDURANCE_95,     /* critical: >= 95 % */
	WW_R_WEAROUT_BEFORE_WARRANTY,/* warning: projected wear-out < warranty end */
	WW_R_CRITICAL_WARNING,       /* critical: NVMe critical warning bits set */
	WW_R_SPARE_LOW,              /* critical: spare below its threshold */
	WW_R_PLP_FAILED,             /* critical: power-loss protection failed */
	WW_R_TEMPERATURE,            /* warning (>= WCTEMP) / critical (>= CCTEMP) */
	WW_R_MEDIA_ERRORS_24H,       /* warning: media errors increased in 24 h */
	WW_R_SMART_FAILED,           /* critical */
	WW_R_MISSING,                /* critical: drive no longer listed */
	WW_R_MAX
} ww_reason_t;

/** Label value of a reason ("rated_endurance_80", ...). */
const char *ww_reason_name(ww_reason_t r);

typedef enum ww_capacity_basis { WW_CAP_NONE = 0, WW_CAP_TABLE, WW_CAP_CONFIG, WW_CAP_DRIVE } ww_capacity_basis_t;
const char *ww_capacity_basis_name(ww_capacity_basis_t b); /* "table_nominal", "config", "drive" */

typedef enum ww_wstart_basis { WW_WS_NONE = 0, WW_WS_CONFIG, WW_WS_MANUFACTURE, WW_WS_POWER_ON, WW_WS_FIRST_SEEN } ww_wstart_basis_t;
const char *ww_wstart_basis_name(ww_wstart_basis_t b); /* "config", "manufacture_date", "power_on_time", "first_seen" */

/** Everything the model derives for one drive at one instant. Optional values
 * have a has_ flag; absent ones are omitted from /metrics (never NaN/+Inf). */
typedef struct ww_endurance {
	time_t computed;                 /* now */
	ww_rating_source_t rating_source;
	char rating_row[320];            /* the table line / override used */
	char rating_note[160];           /* source column, or "no rating known" */
	ww_capacity_basis_t capacity_basis;
	uint64_t capacity_bytes;         /* basis of DWPD figures */
	bool has_rated_bytes;
	uint64_t rated_bytes;
	bool has_rated_dwpd;
	double rated_dwpd;
	unsigned warranty_years;

	bool has_rated_used;
	double rated_used_ratio;         /* host written / rated bytes */
	bool has_drive_used;
	double drive_used_ratio;         /* drive's percentage used / 100 */
	bool used_disagree;              /* informational: differ by > 0.2 and 2x */

	bool has_window[WW_WIN_MAX];
	double window_dwpd[WW_WIN_MAX];
	bool has_lifetime_dwpd;
	double lifetime_dwpd;            /* host written / capacity / power-on days */

	ww_wstart_basis_t warranty_start_basis;
	time_t warranty_start;
	bool has_warranty_end;
	time_t warranty_end;

	bool has_wearout_write_rate;     /* at the 30-day write rate */
	time_t wearout_write_rate;
	bool has_wearout_pct;            /* at the drive's percentage-used rate */
	time_t wearout_pct;

	bool has_waf;
	double write_amplification;      /* media written / host written */

	bool has_utilization;
	double utilization_ratio;        /* SAS 0x0E/0x01, reads + writes */

	ww_health_status_t status;
	bool reason[WW_R_MAX];
} ww_endurance_t;

/** Inputs besides the record. Samples are NULL when history has none. */
typedef struct ww_model_in {
	const ww_health_t *h;            /* latest record, NULL when never read */
	const char *iface;               /* "sas", "sata", "nvme", "" */
	uint64_t drive_capacity_bytes;   /* discovery or record */
	bool present;
	time_t first_seen;
	const ww_rating_row_t *config;   /* matched override or NULL */
	const ww_rating_row_t *table;    /* matched table row or NULL */
	const ww_sample_t *latest;       /* newest stored sample (this poll) */
	const ww_sample_t *base[WW_WIN_MAX];
	const ww_sample_t *base_24h;     /* media errors baseline, same segment */
} ww_model_in_t;

/** Derive everything for one drive at `now`. Pure. */
void ww_model_compute(const ww_model_in_t *in, time_t now, ww_endurance_t *out);

/** Rated bytes from DWPD: dwpd x capacity x 365 x years (saturating). */
uint64_t ww_model_rated_bytes(double dwpd, uint64_t capacity_bytes, unsigned years);

/** Warranty start: configured date, SAS date of manufacture (page 0x0E
 * param 1, Monday of that ISO week, UTC), now - power-on time, first seen, in
 * that order. Returns the basis, sets *start. */
ww_wstart_basis_t ww_model_warranty_start(const ww_rating_row_t *config, const ww_health_t *h,
					  time_t first_seen, time_t now, time_t *start);

/* ------------------------------------------------------------ verdict --- */

/** Health state of a drive from its record alone (SMART status, NVMe critical
 * warning, spare, percentage used). */
typedef enum ww_health_state {
	WW_STATE_UNKNOWN, /* never read */
	WW_STATE_OK,
	WW_STATE_WARNING, /* spare below threshold, percentage used >= 100 */
	WW_STATE_FAILED,  /* SMART FAILED, NVMe critical warning bits set */
} ww_health_state_t;

const char *ww_health_state_name(ww_health_state_t s);

/** Pure: the state of one drive from its latest record (NULL: never read,
 * WW_STATE_UNKNOWN) and its reasons ("; "-joined, "" for ok). */
ww_health_state_t ww_health_state_of(const ww_health_t *h, char *reasons, size_t len);

#ifdef __cplusplus
}
#endif
#endif
