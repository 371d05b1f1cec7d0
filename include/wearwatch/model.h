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

/** Where a drive's rating came from. The model takes them in this order
 * (pick_rating, src/model/endurance.c): config, the drive's own estimate
 * (09h over C0h), a table row (ratings files, ratings.d, shipped rows, in
 * the table's order), the drive's own wear (derived), none. The numbers are
 * no order and never stored: the name is what goes out. */
typedef enum ww_rating_source {
	WW_RATING_NONE = 0,
	WW_RATING_CONFIG,       /* --rating / config file, per drive */
	WW_RATING_NVME_EG,      /* NVMe Endurance Group Information log 09h */
	WW_RATING_OCP_C0,       /* OCP SMART / Health Information Extended C0h */
	WW_RATING_TABLE,        /* a shipped row, data/ratings/NAME.tsv */
	WW_RATING_FILE,         /* a row of --ratings-file / [endurance] ratings_file */
	WW_RATING_RATINGS_D,    /* a row of /etc/wearwatch/ratings.d (--ratings-dir) */
	WW_RATING_DERIVED,      /* no rating known: host bytes written / the
				   drive's own used fraction (ww_model_derive_rating) */
	WW_RATING_MAX
} ww_rating_source_t;

/** "none", "config", "nvme_endurance_group", "ocp_c0", "table",
 * "ratings_file", "ratings_d", "derived_percentage_used": the `source` label
 * of /metrics and "source" of the JSON API. */
const char *ww_rating_source_name(ww_rating_source_t s);

/** True for a rating a document or an administrator gives for the drive
 * (config, 09h, C0h, table rows), false for none and derived: what counts
 * as a known rating. */
bool ww_rating_source_stated(ww_rating_source_t s);

/** One ratings row: a table line (model regex, interface, nominal capacity,
 * DWPD, rated bytes, warranty years, source) or a configured override (pattern
 * matched against the drive id or serial exactly, else as a regex against the
 * model). Zero means "not given" for every number. */
typedef struct ww_rating_row {
	char pattern[128];
	ww_pattern_t *re;          /* bounded pattern (record.h); NULL: an override
				      that is no valid pattern (matches ids and
				      serials only) */
	char interface[16];        /* "sas", "sata", "nvme", "" = any */
	uint64_t capacity_bytes;   /* nominal capacity of the row */
	double dwpd;               /* rated drive writes per day */
	uint64_t rated_bytes;      /* rated bytes written (TBW x 10^12) */
	unsigned warranty_years;
	time_t warranty_start;     /* config only; 0 = not configured */
	char source[256];          /* source column / "--rating" */
	char basis[16];            /* workload basis column: "jesd219", "random4k",
				      "sequential", "not_stated"; "" = not given */
	char origin[96];           /* file the row came from ("built-in:x.tsv") */
	ww_rating_source_t kind;   /* WW_RATING_TABLE from ww_ratings_parse;
				      the service marks rows of ratings files
				      WW_RATING_FILE and of ratings.d
				      WW_RATING_RATINGS_D; overrides
				      WW_RATING_CONFIG */
	unsigned lineno;           /* its line there, 1-based; 0 for --rating */
	char line[512];            /* the row as written, for the JSON API */
} ww_rating_row_t;

typedef struct ww_ratings {
	ww_rating_row_t *rows;
	size_t n;
} ww_ratings_t;

/* Limits of a rating: plain decimals, no exponent or hex. 1000 DWPD is ten
 * times the highest rated drives (storage-class memory, 100 DWPD). */
#define WW_RATING_MIN_DWPD 0.01
#define WW_RATING_MAX_DWPD 1000.0
#define WW_RATINGS_MAX_FILE (4 << 20) /* bytes of a ratings file */
#define WW_RATINGS_MAX_DIR_FILES 64   /* *.tsv files read from a ratings directory */
#define WW_RATINGS_MAX_LINE 511       /* bytes of a table line */
/* Tables the administrator keeps current between releases: read at start
 * and at reload, before the shipped rows (so they win). */
#define WW_RATINGS_DIR "/etc/wearwatch/ratings.d"
/* rated bytes and DWPD x capacity x 365 x years may differ by this much
 * (vendors round both) before the lint calls the row inconsistent */
#define WW_RATINGS_LINT_TOLERANCE 0.01
#define WW_DATE_MIN_YEAR 1970

/** "YYYY-MM-DD", a day that exists (2021-02-30 and 2021-02-29 are refused),
 * year WW_DATE_MIN_YEAR-9999, into midnight UTC. Returns 0 or -EINVAL. */
int ww_date_parse(const char *s, time_t *out);

/** Parse a tab-separated table (columns as data/ratings/README.md: model_regex,
 * interface, capacity_bytes, rated_dwpd, rated_bytes_written, warranty_years,
 * source and, optionally, basis; '#' lines and blank lines ignored) and
 * append its rows to t. origin names the text (row->origin); a line
 * "#@ NAME" renames it to NAME and restarts the line count, which is how the
 * shipped files keep their own names and lines once compiled in as one text.
 * Returns rows added, or -EINVAL (bad row or pattern), -E2BIG (pattern over
 * the limits of record.h), both with *bad_line set (1-based), or -ENOMEM. */
int ww_ratings_parse(ww_ratings_t *t, const char *text, const char *origin,
		     unsigned *bad_line);

/** Read a table file and parse it (see ww_ratings_parse): a regular file of
 * at most WW_RATINGS_MAX_FILE bytes, no NUL byte. Returns rows added or
 * -errno with "path:line: what" (or "path: what") in err. */
int ww_ratings_load_file(ww_ratings_t *t, const char *path, char *err, size_t errlen);

/** Every "*.tsv" regular file of dir in byte order of the names (so
 * "10-site.tsv" comes before "50-vendor.tsv"), each as ww_ratings_load_file,
 * at most WW_RATINGS_MAX_DIR_FILES. A missing dir is no table: 0. Returns
 * rows added or -errno with "path:line: what" in err (the first bad file
 * stops the load: a half-read directory would silently change ratings). */
int ww_ratings_load_dir(ww_ratings_t *t, const char *dir, char *err, size_t errlen);

/** One problem the lint found: origin and 1-based line (0 when the problem
 * is the file itself), and what is wrong in words. */
typedef void (*ww_ratings_lint_fn)(void *arg, const char *origin, unsigned line, const char *what);

/** Check the tables texts[0..n) (origins[i] names texts[i]) as one set, the
 * way a maintainer would before shipping them: every row parses (columns,
 * plain decimal units, interface sas/sata/nvme/empty, a known basis), has a
 * source and a basis, DWPD comes with warranty years, DWPD x capacity x 365
 * x years is within WW_RATINGS_LINT_TOLERANCE of the rated bytes when a row
 * gives all four, no two rows have the same pattern, interface and capacity,
 * and no row's pattern matches another row's model (the pattern spelled out:
 * literal text, first member of each [class]) with other figures. Calls fn
 * per problem; returns how many, or -ENOMEM. */
int ww_ratings_lint(const char *const *texts, const char *const *origins, size_t n,
		    ww_ratings_lint_fn fn, void *arg);

/** ww_ratings_lint on files: each read as ww_ratings_load_file reads it (a
 * file that cannot be read is one problem, line 0). */
int ww_ratings_lint_files(const char *const *paths, size_t n, ww_ratings_lint_fn fn, void *arg);

/** The table shipped with the project (data/ratings/NAME.tsv in name order,
 * compiled in at build time as one text with "#@ NAME" lines). */
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
 * ("@date" = warranty start, UTC, ww_date_parse; DWPD within
 * WW_RATING_MIN_DWPD-WW_RATING_MAX_DWPD, bytes from 1 GB, plain decimals).
 * PATTERN is a drive id, a serial, or a pattern (record.h) on the model.
 * Returns 0, -EINVAL or -E2BIG (pattern over the limits), message in err, or
 * -ENOMEM. */
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

typedef enum ww_capacity_basis { WW_CAP_NONE = 0, WW_CAP_TABLE, WW_CAP_CONFIG, WW_CAP_DRIVE } ww_capacity_basis_t;
const char *ww_capacity_basis_name(ww_capacity_basis_t b); /* "table_nominal", "config", "drive" */

typedef enum ww_wstart_basis { WW_WS_NONE = 0, WW_WS_CONFIG, WW_WS_MANUFACTURE, WW_WS_POWER_ON, WW_WS_FIRST_SEEN } ww_wstart_basis_t;
const char *ww_wstart_basis_name(ww_wstart_basis_t b); /* "config", "manufacture_date", "power_on_time", "first_seen" */

/** Everything the model derives for one drive at one instant. Optional values
 * have a has_ flag; absent ones are omitted from /metrics (never NaN/+Inf). */
typedef struct ww_endurance {
	time_t computed;                 /* now */
	ww_rating_source_t rating_source;
	char rating_row[512];  /* the table line / override used */
	char rating_note[256]; /* source column, or what the rating is in words
				  ("no rating known", "estimated from ...") */
	char rating_ref[112];  /* a table row as a code, "ORIGIN:LINE"
				  ("built-in:micron.tsv:12"); "" otherwise */
	char rating_basis[16]; /* the row's workload basis, "" when none */
	/* WW_RATING_DERIVED only: the used percent it came from, where it was
	 * read (the record's source, and its machine label), and the rated
	 * bytes for used - WW_DERIVED_SLACK_PERCENT (high) and + (low) */
	unsigned derived_used_percent;
	char derived_used_source[128];
	char derived_used_label[32];
	bool has_rated_range;
	uint64_t rated_bytes_low, rated_bytes_high;
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
} ww_model_in_t;

/* The derived rating (WW_RATING_DERIVED): only from this much used on, as
 * below it one percent step is a fifth or more of the figure. */
#define WW_DERIVED_MIN_USED_PERCENT 5
/* The used figure is an integer percent, and neither NVMe Base 2.0 (SMART /
 * Health log byte 5), SPC-5 (log page 11h Percentage Used Endurance
 * Indicator) nor ACS-5 (Device Statistics page 07h) says how a drive rounds
 * it: truncated, P means P..P+1 %, rounded to nearest P-0.5..P+0.5 %, rounded
 * up P-1..P %. The range given covers all three: P - 1 .. P + 1 %. */
#define WW_DERIVED_SLACK_PERCENT 1

/** Rated bytes implied by the drive's own wear: written x 100 / used_percent
 * (*rated), and the range for used_percent + WW_DERIVED_SLACK_PERCENT
 * (*low) .. used_percent - WW_DERIVED_SLACK_PERCENT (*high). written is host
 * bytes written, the drive's own count. False (nothing set) when written is
 * 0, used_percent is below WW_DERIVED_MIN_USED_PERCENT, or 255 or more (NVMe
 * saturates Percentage Used at 255: no figure). Pure. */
bool ww_model_derive_rating(uint64_t written, unsigned used_percent, uint64_t *rated, uint64_t *low,
			    uint64_t *high);

/** True when ATA attribute a is a vendor wear attribute whose normalised
 * value counts down from 100 as the flash wears (used = 100 - value): by the
 * name the drive database gives it (an id means other things on other
 * drives), value at most 100, not an empty slot. */
bool ww_model_wear_attr(const ww_ata_attr_t *a);

/** The drive's own estimate of its life used, percent: the record's
 * endurance_used_percent (NVMe SMART / Health byte 5, SCSI log page 11h, ATA
 * Device Statistics page 07h offset 08h, smartctl JSON), else the first
 * vendor wear attribute (ww_model_wear_attr; *attr set, else NULL). False
 * when the drive gives neither. */
bool ww_model_wear_used(const ww_health_t *h, unsigned *percent, const ww_ata_attr_t **attr);

/** Derive the endurance figures of one drive at `now`. Pure. The health
 * verdict is ww_verdict() below, which takes these figures as one input. */
void ww_model_compute(const ww_model_in_t *in, time_t now, ww_endurance_t *out);

/** Rated bytes from DWPD: dwpd x capacity x 365 x years (saturating). */
uint64_t ww_model_rated_bytes(double dwpd, uint64_t capacity_bytes, unsigned years);

/** Warranty start: configured date, SAS date of manufacture (page 0x0E
 * param 1, Monday of that ISO week, UTC), now - power-on time, first seen, in
 * that order. Returns the basis, sets *start. */
ww_wstart_basis_t ww_model_warranty_start(const ww_rating_row_t *config, const ww_health_t *h,
					  time_t first_seen, time_t now, time_t *start);

/* --------------------------------------------------------- self-tests --- */

/* A self-test schedule is smartd's `-s REGEXP` as smartd.conf(5) defines
 * it: for each local hour the text "T/MM/DD/d/HH" (T the test type, MM month
 * 01-12, DD day 01-31, d weekday 1-7 with Monday 1, HH hour 00-23) is built
 * for the types L (extended), n (the next selective span, ATA), S (short),
 * C (conveyance) and O (off-line data collection), in that order of
 * priority, and the first the whole expression matches is the test of that
 * hour. smartd's other selective types c and r (continue, redo) are never
 * built, so an expression naming only them starts nothing. Expressions are
 * PCRE2 under the bounded-pattern limits
 * (record.h); POSIX extended expressions as smartd's examples write them
 * mean the same. */

typedef struct ww_selftest_sched ww_selftest_sched_t;

/** Tests are looked for at most this far back (catching up) and ahead
 * (the next one): 90 days, as smartd does. */
#define WW_SELFTEST_HORIZON_S (90L * 24 * 3600)

/** Compile an expression. Returns 0 with *out set, -EINVAL (empty, over
 * WW_SELFTEST_SCHED_MAX - 1 characters, or not an expression; why in err),
 * -E2BIG (over the pattern limits), -ENOMEM. */
int ww_selftest_sched_compile(const char *text, ww_selftest_sched_t **out, char *err,
			      size_t errlen);

/** Can s ever start a test? 1 yes; 0 when no text smartd builds (each
 * month, day, weekday, hour and type L, n, S, C, O) matches it:
 * "S/../.././2" (the hour has two digits), "X", an expression naming only
 * smartd's c and r; -E2BIG when a match of one of a week's texts, or of a
 * text before the first that matches, hits the pattern limits
 * (WW_PATTERN_MATCH_STEPS): the scheduler would pay that limit each hour it
 * asks. Up to 308 000 matches (tens of ms) for one that never matches;
 * the configuration asks once per key. */
int ww_selftest_sched_ever(const ww_selftest_sched_t *s);
void ww_selftest_sched_free(ww_selftest_sched_t *s);

/** The kind (ww_selftest_kind_t) the schedule starts in the local hour that
 * holds t, of those in `kinds` (a bit per kind: what the drive can run),
 * or WW_STK_NONE. Pure but for the time zone (localtime_r). */
unsigned ww_selftest_sched_due(const ww_selftest_sched_t *s, time_t t, unsigned kinds);

/** The highest-priority kind due in any hour from the one holding `from`
 * to `now` (at most WW_SELFTEST_HORIZON_S back), as smartd catches up on
 * tests a check interval passed over; WW_STK_NONE when none. */
unsigned ww_selftest_sched_since(const ww_selftest_sched_t *s, time_t from, time_t now,
				 unsigned kinds);

/** The kinds (a bit each) drive h can run, as its read says: NVMe short and
 * extended where OACS bit 4 is set (read through smartctl, whose JSON has no
 * OACS: where it relayed the Device Self-test log); SCSI short and extended; ATA by SMART
 * READ DATA byte 367 (bit 4 short and extended, bit 5 conveyance, bit 6
 * selective, bit 0 off-line data collection; selective only when IDENTIFY
 * gave the capacity and the drive was not read through smartctl, whose
 * start never sends -t select). Pure. */
unsigned ww_selftest_kinds(const ww_health_t *h);

/** A schedule around `now`: the next test, and the latest two hours each
 * kind was due, within WW_SELFTEST_HORIZON_S. */
typedef struct ww_selftest_plan {
	bool on;        /* a schedule applies */
	unsigned kinds; /* bit per kind due within the horizon */
	time_t next;    /* start of the next hour a test is due, 0 none */
	unsigned next_kind;
	time_t last[WW_STK_MAX];        /* latest hour <= now each kind was due, 0 none */
	time_t before_last[WW_STK_MAX]; /* the one before it */
} ww_selftest_plan_t;

/** Fill *p for schedule s (NULL: p->on false). Up to 4 x 4320 matches:
 * the scheduler computes it once an hour per drive, never per scrape. */
void ww_selftest_plan(const ww_selftest_sched_t *s, time_t now, unsigned kinds,
		      ww_selftest_plan_t *p);

/** The next selective span (smartd's type n) of a drive of `sectors`
 * logical sectors split into `spans` spans of ceil(sectors / spans)
 * sectors: from `next` (its first LBA; at or past the end: from 0 again) to
 * that size further, the last span ending at the drive's last LBA. Returns
 * the first LBA of the span after it (0 after the last span: the cursor
 * wraps), with *out set; *out zeroed and 0 returned when sectors or spans is
 * 0. Pure. */
uint64_t ww_selftest_next_span(uint64_t sectors, unsigned spans, uint64_t next,
			       ww_selftest_span_t *out);

/** What the scheduler (src/sched/selftest_sched.c) publishes per drive
 * with a schedule: its plan, the test due and not started, and what the
 * latest start attempt found. */
typedef struct ww_selftest_state {
	ww_selftest_plan_t plan;
	unsigned pending;      /* kind due, not started yet; 0 none */
	bool testing;          /* a test runs (read), or one was started
				         and no read since says it ended */
	unsigned started_kind; /* of the latest start, 0 none */
	time_t started;
	uint64_t started_total[WW_STK_MAX]; /* tests started, by kind */
	time_t last_attempt;                /* latest start attempt, 0 none */
	const char *last_outcome;           /* static: "started", "in standby",
				         "a self-test is running", ... */
	int last_rc;                        /* its return (ww_collect_start_self_test) */
	bool has_span;                      /* a selective test was started: */
	ww_selftest_span_t span;            /* the span the latest one reads */
	uint64_t span_next;                 /* first LBA of the next span (the
					       cursor, kept across restarts) */
	bool drive_kinds_known;             /* a read of the drive said what it runs */
	unsigned drive_kinds;               /* then: a bit per kind it can run
					       (ww_selftest_kinds of its latest
					       read); 0: none (an NVMe drive
					       without OACS bit 4), so no test
					       is ever due on it */
} ww_selftest_state_t;

/* ------------------------------------------------------------ verdict --- */

/* The health verdict: one pure function, ww_verdict(), whose result every
 * output prints (/metrics, the JSON API and through it the dashboard, /table,
 * `show` and `decode`, the journal and the notification program); nothing
 * else decides whether a drive is ok. Its inputs are plain values: the latest
 * record, the endurance figures, what the caller remembers of earlier reads
 * (ww_vmemory_t), the drive's state and the configured thresholds. Every
 * reason is a row of ww_reasons[] (src/model/verdict.c); docs/health.md holds
 * the scenario table, one row per signal. */

/** Status of a drive; the number is the value of
 * wearwatch_drive_health_status. */
typedef enum ww_status {
	WW_STATUS_OK = 0,
	WW_STATUS_WARNING = 1,
	WW_STATUS_CRITICAL = 2,
	WW_STATUS_UNKNOWN = 3, /* not monitored, or not read: never "ok" */
} ww_status_t;

/** "ok", "warning", "critical", "unknown". */
const char *ww_status_name(ww_status_t s);

/** Order of concern: ok 0, unknown 1, warning 2, critical 3. A drive's status
 * is that of its most severe reason; the dashboard sorts by this. */
int ww_status_rank(ww_status_t s);

/** Stable reason codes: the `reason` label of wearwatch_drive_health_reason,
 * `code` in the JSON API, WEARWATCH_REASON_CODES of the notification
 * program. Never renumbered in meaning; new ones go before WW_R_MAX. */
typedef enum ww_reason {
	/* state of the drive, from discovery and the poller */
	WW_R_MISSING = 0,           /* drive_missing: no longer listed */
	WW_R_HUNG,                  /* read_hung: a read has not returned */
	WW_R_READ_FAILING,          /* read_failing: reads fail, values are old */
	WW_R_NO_HEALTH_INTERFACE,   /* no_health_interface: not monitored */
	WW_R_NO_SMART,              /* no_smart_data: reached, reports no health data */
	WW_R_STANDBY_NEVER_READ,    /* standby_never_read */
	WW_R_NEVER_READ,            /* never_read */
	/* the drive's own verdict */
	WW_R_SMART_FAILED,          /* smart_failed: ATA SMART RETURN STATUS FAILED */
	WW_R_SCSI_IE,               /* informational_exception: SCSI IE ASC/ASCQ != 0 */
	/* NVMe SMART / Health log 02h */
	WW_R_SPARE_LOW,             /* spare_below_threshold (critical warning bit 0) */
	WW_R_CW_TEMPERATURE,        /* critical_warning_temperature (bit 1) */
	WW_R_CW_RELIABILITY,        /* critical_warning_reliability (bit 2) */
	WW_R_CW_READ_ONLY,          /* critical_warning_read_only (bit 3) */
	WW_R_PLP_FAILED,            /* power_loss_protection_failed (bit 4, OCP capacitor) */
	WW_R_CW_PMR,                /* critical_warning_pmr (bit 5) */
	WW_R_CW_OTHER,              /* critical_warning_other (bits 6-7) */
	WW_R_EG_CRITICAL_WARNING,   /* endurance_group_critical_warning (byte 6) */
	WW_R_MEDIA_ERRORS_INC,      /* media_errors_increased */
	WW_R_WARN_TEMP_TIME_INC,    /* warning_temperature_time_increased */
	WW_R_CRIT_TEMP_TIME_INC,    /* critical_temperature_time_increased */
	/* every protocol */
	WW_R_TEMP_WARNING,          /* temperature_warning */
	WW_R_TEMP_CRITICAL,         /* temperature_critical */
	WW_R_PCT_USED_HIGH,         /* percentage_used_high */
	WW_R_PCT_USED_EXHAUSTED,    /* percentage_used_exhausted */
	/* ATA SMART attributes */
	WW_R_ATA_PREFAIL,           /* ata_prefail_failing: failing now */
	WW_R_ATA_OLDAGE,            /* ata_oldage_failing */
	WW_R_REALLOCATED,           /* reallocated_sectors (5) */
	WW_R_REALLOCATED_INC,       /* reallocated_sectors_increased */
	WW_R_PENDING,               /* pending_sectors (197) */
	WW_R_PENDING_INC,           /* pending_sectors_increased */
	WW_R_OFFLINE_UNC,           /* offline_uncorrectable (198) */
	WW_R_OFFLINE_UNC_INC,       /* offline_uncorrectable_increased */
	WW_R_REPORTED_UNC,          /* reported_uncorrect (187) */
	WW_R_REPORTED_UNC_INC,      /* reported_uncorrect_increased */
	WW_R_SPIN_RETRY,            /* spin_retry (10) */
	WW_R_SPIN_RETRY_INC,        /* spin_retry_increased */
	WW_R_REALLOC_EVENTS,        /* reallocation_events (196) */
	WW_R_REALLOC_EVENTS_INC,    /* reallocation_events_increased */
	WW_R_ATTR_COUNT,            /* attribute_count_nonzero: critical_attributes */
	WW_R_ATTR_COUNT_INC,        /* attribute_count_increased */
	/* SCSI error counter log pages 0x02, 0x03, 0x05 */
	WW_R_SCSI_UNC_READ_INC,     /* uncorrected_read_errors_increased */
	WW_R_SCSI_UNC_WRITE_INC,    /* uncorrected_write_errors_increased */
	WW_R_SCSI_UNC_VERIFY_INC,   /* uncorrected_verify_errors_increased */
	/* endurance model */
	WW_R_RATED_HIGH,            /* rated_endurance_high */
	WW_R_RATED_NEAR_END,        /* rated_endurance_near_end */
	WW_R_RATED_EXHAUSTED,       /* rated_endurance_exhausted */
	WW_R_WEAROUT_BEFORE_WARRANTY, /* wearout_before_warranty_end */
	/* damage that counts at any level, by its size (levels below) */
	WW_R_MEDIA_ERRORS,        /* media_errors: NVMe media and data integrity errors */
	WW_R_COMMAND_TIMEOUT,     /* command_timeout (ATA 188) */
	WW_R_COMMAND_TIMEOUT_INC, /* command_timeout_increased */
	WW_R_GROWN_DEFECTS,       /* grown_defects: SCSI grown defect list entries */
	WW_R_GROWN_DEFECTS_INC,   /* grown_defects_increased */
	WW_R_SCSI_UNC_READ,       /* uncorrected_read_errors (page 0x03) */
	WW_R_SCSI_UNC_WRITE,      /* uncorrected_write_errors (page 0x02) */
	WW_R_SCSI_UNC_VERIFY,     /* uncorrected_verify_errors (page 0x05) */
	WW_R_SELF_TEST_FAILED,    /* self_test_failed: the newest self-test failed */
	WW_R_SELF_TEST_STUCK,     /* self_test_not_completing: running far past its time */
	WW_R_SELF_TEST_OVERDUE,   /* self_test_overdue: none in a scheduled period */
	WW_R_LATENCY_DRIFT,       /* latency_drift: drift burst p99 above its baseline */
	WW_R_IMPLAUSIBLE,         /* implausible_values: values outside their spec left out */
	WW_R_MAX
} ww_reason_t;

/** One row of the reason table: the code, its severity (attribute counts
 * listed in critical_attributes are raised to critical) and what it means. */
typedef struct ww_reason_info {
	const char *code;
	ww_status_t severity;
	const char *what;
} ww_reason_info_t;

extern const ww_reason_info_t ww_reasons[WW_R_MAX];

/** Code of a reason ("drive_missing"); "unknown" out of range. */
const char *ww_reason_name(ww_reason_t r);

/** Reason of a code, or -1. */
int ww_reason_by_name(const char *code);

/** Signals whose size sets the severity: a count at or above `warning` is a
 * warning, at or above `critical` (0 = no critical level) critical. Keys
 * `NAME_warning` / `NAME_critical` of [health] and [drive NAME]
 * (src/conf/health_keys.c); the defaults and their sources are in
 * docs/health.md ("Levels"). */
typedef enum ww_level_sig {
	WW_LV_REALLOCATED = 0,  /* ATA 5 reallocated sectors: 1, 1100 */
	WW_LV_REPORTED_UNC,     /* ATA 187 reported uncorrectable errors: 1, 35 */
	WW_LV_COMMAND_TIMEOUT,  /* ATA 188 command timeouts: 1, none */
	WW_LV_REALLOC_EVENTS,   /* ATA 196 reallocation events: 1, none */
	WW_LV_PENDING,          /* ATA 197 current pending sectors: 1, 40 */
	WW_LV_OFFLINE_UNC,      /* ATA 198 offline uncorrectable sectors: 1, 2 */
	WW_LV_MEDIA_ERRORS,     /* NVMe media and data integrity errors: 1, 35 */
	WW_LV_GROWN_DEFECTS,    /* SCSI grown defect list entries: 1, 1100 */
	WW_LV_SCSI_UNCORRECTED, /* SCSI uncorrected read/write/verify errors: 1, 35 */
	WW_LV_MAX
} ww_level_sig_t;

typedef struct ww_level {
	uint64_t warning;  /* >= 1 */
	uint64_t critical; /* 0 = none, else >= warning */
} ww_level_t;

#define WW_SELFTEST_SCHED_MAX 512
/* a selective span a night covers the drive in a week (our figure) */
#define WW_SELFTEST_SPANS_DEFAULT 7

/** Thresholds of the verdict: [health] keys of wearwatch.conf, with a
 * [drive NAME] section's keys on top (conf.h parses both, wearwatch.conf(5)
 * documents them). Temperatures in degrees Celsius, levels in percent,
 * times in seconds. */
typedef struct ww_health_cfg {
	bool has_temp_warning, has_temp_critical; /* override the drive's limits */
	int temp_warning_celsius, temp_critical_celsius;
	unsigned pct_used_warning, pct_used_critical;  /* percentage used: 80, 100 */
	unsigned rated_warning, rated_critical;        /* rated endurance used: 80, 95
							  (exhausted at 100 always) */
	unsigned increase_window_s;   /* an increase stays a reason this long: 1 day */
	unsigned read_failing_after_s;/* failing reads with values this old: 1 h */
	uint8_t ignore_attrs[32];     /* ATA attribute ids (bit per id) never flagged */
	uint8_t critical_attrs[32];   /* ATA attribute ids whose raw count must stay 0:
					 non-zero or increased is critical */
	uint64_t silenced;            /* bit per ww_reason_t: dropped from the verdict */
	unsigned drift_percent;       /* latency_drift: p99 rise over the baseline, % (30) */
	unsigned drift_bursts;        /* bursts a drift baseline holds (5) */
	ww_level_t level[WW_LV_MAX];  /* counts by size (ww_level_sig_t) */
	/* self-tests: a smartd -s expression ("" = none: no test is started,
	 * the default), whether a drive in standby is woken for one, ([health]
	 * only) how many drives of the host test at once, and into how many
	 * spans of capacity / N the selective tests (type n) split the drive */
	char self_test_schedule[WW_SELFTEST_SCHED_MAX];
	bool self_test_in_standby;     /* false */
	unsigned self_test_concurrent; /* 1 */
	unsigned self_test_spans;      /* WW_SELFTEST_SPANS_DEFAULT */
	uint64_t set;                  /* keys given in this section (conf.h's table) */
} ww_health_cfg_t;

/** The defaults above. */
void ww_health_cfg_defaults(ww_health_cfg_t *c);

/** Whether a [drive NAME] section names a drive: NAME (a leading "/dev/"
 * ignored) is the drive's stable id or its block device name. id and block
 * may be NULL or "". Pure. */
bool ww_drive_name_matches(const char *name, const char *id, const char *block);

/** One [drive NAME] section's thresholds ([health] with its keys on top). */
typedef struct ww_threshold_rule {
	const char *name; /* as written: id or block device name */
	const ww_health_cfg_t *cfg;
} ww_threshold_rule_t;

/** The verdict's thresholds of every drive, as data: what the service builds
 * from its configuration and hands to renderers and to the verdict (no
 * lookup hook, no process-wide state). Valid while the configuration
 * generation that holds it lives (the service keeps every one until it
 * stops). */
typedef struct ww_thresholds {
	const ww_health_cfg_t *dflt;      /* [health]; NULL = ww_health_cfg_defaults() */
	const ww_threshold_rule_t *rules; /* first match wins, as in the file */
	size_t n;
	uint64_t generation; /* another for each configuration: what caches of
				renders key on (a freed one's address may be
				reused by the next) */
} ww_thresholds_t;

/** The thresholds of the drive with stable id `id` and block device `block`
 * (either may be NULL): its section's, else the default; NULL means the
 * built-in defaults (t NULL, or no default given). Pure, O(sections). */
const ww_health_cfg_t *ww_thresholds_for(const ww_thresholds_t *t, const char *id,
					 const char *block);

/** Whether ATA attribute id is in one of the id sets. */
static inline bool ww_attr_in(const uint8_t set[32], unsigned id)
{
	return id < 256 && (set[id / 8] >> (id % 8)) & 1;
}

/** What the verdict remembers of earlier reads of one drive: counters whose
 * increase is a reason (ATA raw counts, NVMe media errors and temperature
 * times, SCSI uncorrected errors and grown defect list entries). Kept by the
 * caller (the endurance service
 * keeps one per drive, in memory: after a restart the first read is the new
 * baseline). */
enum {
	WW_VC_NVME_MEDIA = 256,      /* keys above the ATA attribute ids */
	WW_VC_NVME_WARN_TIME,
	WW_VC_NVME_CRIT_TIME,
	WW_VC_SCSI_UNC_READ,
	WW_VC_SCSI_UNC_WRITE,
	WW_VC_SCSI_UNC_VERIFY,
	WW_VC_SCSI_GROWN, /* grown defect list entries */
	WW_VC_END
};

typedef struct ww_vcounter {
	uint16_t key;       /* ATA attribute id, or WW_VC_* */
	uint64_t last;      /* value at the latest read */
	uint64_t before;    /* value before the increases of the current window */
	time_t increased;   /* latest increase, 0 = none since the first read */
} ww_vcounter_t;

#define WW_VMEM_MAX (WW_ATA_MAX_ATTRS + (WW_VC_END - WW_VC_NVME_MEDIA))

typedef struct ww_vmemory {
	size_t n;
	ww_vcounter_t c[WW_VMEM_MAX];
	time_t first_read;         /* the first read folded in */
	time_t test_running_since; /* the first read that saw the self-test
				      running now; 0 = none running */
} ww_vmemory_t;

/** Fold the read h (taken at t) into m. A counter that rose keeps the value
 * before the first rise of the current window (window_s: the configured
 * increase_window) in `before`; one that went down (a reset, another drive)
 * starts over. Pure. */
void ww_verdict_remember(ww_vmemory_t *m, const ww_health_t *h, time_t t, unsigned window_s);

/** An ATA attribute's raw value as a count, as the verdict reads it: the
 * record's decoded count when the attribute is one (has_count; for 188
 * Command_Timeout, which has_count leaves out, the decoded count when the
 * drive database's format makes it one number with its default meaning),
 * else, only for ids in cfg->critical_attrs (the administrator says it is
 * one; cfg may be NULL), raw48. False when it is not a count. */
bool ww_verdict_attr_count(const ww_ata_attr_t *a, const ww_health_cfg_t *cfg, uint64_t *v);

/** Everything the verdict takes besides `now`. Plain values, so `show` and
 * `decode` (one read, no service) and the service call it alike. */
typedef struct ww_verdict_in {
	const ww_health_t *h;         /* latest values; NULL when never read */
	const ww_endurance_t *e;      /* ww_model_compute() of the drive, or NULL */
	const ww_vmemory_t *mem;      /* earlier reads, or NULL (no increases) */
	const ww_health_cfg_t *cfg;   /* NULL = ww_health_cfg_defaults() */
	ww_protocol_t protocol;       /* discovery's; WW_PROTO_NONE = no interface */
	const char *no_health_reason; /* discovery's words for that, or NULL */
	const char *smartctl_type;    /* "-d TYPE" when read through smartctl, or NULL */
	bool present;                 /* listed by the latest discovery */
	time_t missing_since;
	bool standby;                 /* the latest read left it alone */
	time_t standby_since;         /* 0 = not known */
	bool captured;                /* read from a capture: "when captured"
					 (captures record no time) */
	bool hung;                    /* a read has not returned */
	time_t hung_since;
	bool last_failed;             /* the latest read attempt failed */
	int last_rc;                  /* its -errno */
	time_t values_time;           /* when h was read; 0 = now (show, decode) */
	const struct ww_selftest_plan *plan; /* the drive's self-test schedule
					 around now (ww_selftest_plan); NULL
					 = none scheduled (no overdue reason) */
	/* the newest latency-drift burst and the baseline it was compared
	 * with (ww_drift_baseline), from the probe thread */
	bool has_drift;
	time_t drift_time;
	double drift_p99_s, drift_base_p99_s;
	unsigned drift_base_n;
} ww_verdict_in_t;

#define WW_VERDICT_TEXT 200
#define WW_VERDICT_MAX 32

/** Which numbers a reason carries (ww_vreason_t.has, a bit each). */
enum {
	WW_VN_VALUE = 1,
	WW_VN_PREVIOUS = 2,
	WW_VN_LIMIT = 4,
	WW_VN_BASELINE = 8
};

/** One reason of a verdict. The numbers are the sentence's, as data (the
 * JSON verdict's `value`, `previous`, `limit`, `unit`): `value` the figure
 * now (a count, degrees Celsius, a percentage), `previous` the figure before
 * a rise (the *_increased reasons), `limit` the level or limit it reached
 * (the critical one when critical, else the warning one). Counts above
 * INT64_MAX are given as INT64_MAX (the sentence has them whole). */
typedef struct ww_vreason {
	ww_reason_t code;
	ww_status_t severity;         /* warning, critical or unknown */
	uint16_t item;                /* ATA attribute id it is about, 0 = none */
	char text[WW_VERDICT_TEXT];   /* one sentence with the values in it */
	const char *source;           /* where the values came from (static) */
	unsigned has;                 /* WW_VN_* bits: which numbers are given */
	int64_t value, previous, limit;
	int64_t baseline; /* what value is compared with (latency_drift) */
	const char *unit; /* "sectors", "errors", "°C", "%", "min", "µs"; static,
					 "" = a plain count */
} ww_vreason_t;

typedef struct ww_verdict {
	ww_status_t status;           /* the most severe reason's; ok without any,
					 unknown when the only ones were silenced
					 reasons of severity unknown (no values) */
	size_t n;                     /* reasons, most severe first, then in
					 ww_reason_t order */
	ww_vreason_t r[WW_VERDICT_MAX];
	size_t n_dropped;             /* past WW_VERDICT_MAX (kept least severe out) */
	uint64_t silenced;            /* codes that applied but are silenced */
} ww_verdict_t;

/* ------------------------------------------------------ latency drift --- */

/* Latency drift: a drive's read latency under a fixed load against its own
 * past. Once a day (probe.h, drift-interval) the probe thread reads the
 * drive for a fixed time at a fixed depth; the baseline is the mean p99 of
 * the drive's last `drift_bursts` bursts that entered it, and a burst whose
 * p99 is above that by more than `drift_percent` is latency_drift (and does
 * not enter the baseline, so a drive that stays slow keeps its reason
 * instead of making its slowness the new normal). The defaults, 5 bursts and
 * +30 %, are the prior art's: docs/health.md, "Latency drift". Pure. */
#define WW_DRIFT_BURSTS_DEFAULT 5
#define WW_DRIFT_PERCENT_DEFAULT 30

typedef struct ww_drift_base {
	unsigned n;   /* bursts in it, at most the `want` asked for */
	double p99_s; /* their mean p99, seconds; 0 when n == 0 */
} ww_drift_base_t;

/** The baseline from the p99s (seconds) of bursts that entered it, newest
 * first: the mean of the first min(n, want). */
void ww_drift_baseline(const double *p99_s, size_t n, unsigned want, ww_drift_base_t *out);

/** The p99 above which a burst drifted: base x (100 + percent) / 100. */
double ww_drift_limit(double base_p99_s, unsigned percent);

/** Whether p99_s is latency drift against b: the baseline is full (`want`
 * bursts) and p99_s is above ww_drift_limit. */
bool ww_drift_exceeds(const ww_drift_base_t *b, unsigned want, unsigned percent, double p99_s);

/** Whether a new burst enters the baseline: it is not full yet, or the
 * burst is no drift. */
bool ww_drift_enters(const ww_drift_base_t *b, unsigned want, unsigned percent, double p99_s);

/** The verdict of one drive at `now`. Pure: no clock, no I/O. */
void ww_verdict(const ww_verdict_in_t *in, time_t now, ww_verdict_t *out);

/** The same reason (code and item): what notifications compare. */
static inline bool ww_vreason_same(const ww_vreason_t *a, const ww_vreason_t *b)
{
	return a->code == b->code && a->item == b->item;
}

#ifdef __cplusplus
}
#endif
#endif
