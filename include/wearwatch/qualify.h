/* qualify: the drive reviews' load tests of one drive (named profiles, T
 * threads x Q depth of io_uring workers, per-second and per-load-point
 * latency statistics, the SNIA PTS steady-state rule, the write guard) and
 * their JSON, CSV and HTML reports.
 *
 * Units: latencies in nanoseconds inside, seconds in the reports; sizes in
 * bytes; MB/s in decimal megabytes (10^6 bytes). Errors are negative errno
 * values. Nothing here talks to the service: `wearwatch qualify` (src/cli)
 * joins the run, the drive's health records and the files.
 */
#ifndef WEARWATCH_QUALIFY_H
#define WEARWATCH_QUALIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wearwatch/probe.h"
#include "wearwatch/record.h"

struct json_object;

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ profiles --- */

#define WW_QUALIFY_MAX_SIZES 10

/** One size of a profile's transfer-size mix: `percent` of the I/Os are
 * `bytes` long. */
typedef struct ww_qualify_size {
	uint32_t bytes;
	uint32_t percent;
} ww_qualify_size_t;

/** A workload: transfer sizes (percentages adding up to 100), the share of
 * reads (the rest are writes), random or sequential offsets, and where the
 * mix comes from (document and where it can be read). */
typedef struct ww_qualify_profile {
	const char *name;
	ww_qualify_size_t sizes[WW_QUALIFY_MAX_SIZES];
	unsigned n_sizes;
	unsigned read_percent; /* 0..100 */
	bool random;
	const char *source;
} ww_qualify_profile_t;

/** The built-in profiles, in the order --list-profiles prints them. */
extern const ww_qualify_profile_t ww_qualify_profiles[];
extern const size_t ww_qualify_n_profiles;

/** Profile by name (case-sensitive), or NULL. */
const ww_qualify_profile_t *ww_qualify_profile_find(const char *name);

/** A custom profile from "BS,READ%,random|sequential" ("16k,90,random").
 * Returns 0, or -EINVAL with why in err. name is left "custom". */
int ww_qualify_profile_parse(const char *spec, ww_qualify_profile_t *out, char *err, size_t errlen);

/** Whether the profile ever writes (read_percent < 100). */
bool ww_qualify_profile_writes(const ww_qualify_profile_t *p);

/** "4k", "8k/16k mix" ...: the sizes as one short label in buf. */
const char *ww_qualify_sizes_label(const ww_qualify_profile_t *p, char *buf, size_t len);

/** One load point "TxQ" ("2T2Q", "16x16"): threads and queue depth per
 * thread, each 1..256. Returns 0 or -EINVAL. */
int ww_qualify_parse_load(const char *s, unsigned *threads, unsigned *depth);

/* --------------------------------------------------- statistics (pure) --- */

/** Latency of one kind of I/O (reads or writes) over an interval: exact
 * count, byte count, sum, sum of squares, min and max; quantiles from the
 * probe's log-linear histogram (within 1 % relative error, WW_HIST_SUB_BITS).
 * Memory is fixed: it does not grow with the number of I/Os. */
typedef struct ww_qualify_acc {
	uint64_t ios, errors, bytes;
	uint64_t min_ns, max_ns;
	long double sum_ns, sumsq_ns;
	ww_hist_t hist;
} ww_qualify_acc_t;

void ww_qualify_acc_reset(ww_qualify_acc_t *a);
/** One completed I/O: ok with its latency, or an error (counted, no
 * latency). */
void ww_qualify_acc_add(ww_qualify_acc_t *a, bool ok, uint32_t bytes, uint64_t lat_ns);
/** a += b. */
void ww_qualify_acc_merge(ww_qualify_acc_t *a, const ww_qualify_acc_t *b);

/** What the reports show of an accumulator over `seconds`. Latencies in
 * seconds; mean and population standard deviation exact (from the sums),
 * p50/p99/p99.9 by nearest rank on the histogram; all 0 when ios = 0. */
typedef struct ww_qualify_stats {
	uint64_t ios, errors, bytes;
	double iops, mb_per_s;
	double min_s, mean_s, max_s, stddev_s, p50_s, p99_s, p999_s;
} ww_qualify_stats_t;

void ww_qualify_acc_stats(const ww_qualify_acc_t *a, double seconds, ww_qualify_stats_t *out);

/* ------------------------------------------------- steady state (pure) --- */

/** SNIA Solid State Storage Performance Test Specification (PTS) Enterprise
 * 2.0.2, 2.1.24 "Steady State" and 3.2.1.2.3 (the IOPS test's loop): the
 * Measurement Window is the last five Rounds (Round x-4 to Round x); the
 * device is in steady state when, over the window, (a) max(y) - min(y) is no
 * more than 20 % of the window's average of y, and (b) the excursion of the
 * least-squares line through the window's y values (its value at the last
 * round minus its value at the first) is within 10 % of that average. If no
 * window satisfies both by Round 25 the test may stop there. Published at
 * snia.org (technical_work/PTS/SSS_PTS_2.0.2.pdf). */
#define WW_PTS_WINDOW_ROUNDS 5
#define WW_PTS_RANGE_LIMIT 0.20
#define WW_PTS_SLOPE_LIMIT 0.10
#define WW_PTS_MAX_ROUNDS 25

typedef struct ww_qualify_steady {
	bool reached;
	unsigned first, last;            /* window: 0-based round indexes */
	double average;                  /* of y over the window */
	double range;                    /* max - min over the window */
	double slope_excursion;          /* |fit(last) - fit(first)| */
	double range_ratio, slope_ratio; /* of the average */
} ww_qualify_steady_t;

/** The PTS rule on the last WW_PTS_WINDOW_ROUNDS values of y[0..n). Fills
 * *out (reached false when n is below the window or the average is not
 * positive). Pure. */
void ww_qualify_steady_check(const double *y, unsigned n, ww_qualify_steady_t *out);

/* ------------------------------------------------------- write guard --- */

/** Everything the guard needs to decide, gathered by the caller (the CLI)
 * or by ww_qualify_guard_check itself. */
typedef struct ww_qualify_guard_in {
	const char *sysroot;       /* "" = the live system */
	const char *block;         /* kernel name: "sda", "loop3" */
	const char *dev_path;      /* "/dev/sda" */
	const char *serial;        /* the drive's own serial, "" = none known */
	const char *id;            /* stable id (`wearwatch scan`) */
	const char *destroy_data;  /* --destroy-data=VALUE, NULL = not given */
	bool monitored;            /* the collector's configuration monitors it */
	const char *monitored_why; /* which configuration says so */
	const char *mountinfo;     /* path, NULL = /proc/self/mountinfo */
	const char *swaps;         /* path, NULL = /proc/swaps */
} ww_qualify_guard_in_t;

/** Every check a writing profile must pass, in the order they are made;
 * the first that fails is the refusal. */
enum ww_qualify_guard_check {
	WW_GUARD_OK = 0,
	WW_GUARD_DESTROY_FLAG, /* --destroy-data=SERIAL not given */
	WW_GUARD_PARTITIONS,   /* /sys/block/X/X* partitions */
	WW_GUARD_HOLDERS,      /* /sys/block/X/holders not empty */
	WW_GUARD_MOUNTED,      /* in mountinfo (the device or a partition) */
	WW_GUARD_SWAP,         /* in /proc/swaps */
	WW_GUARD_SIGNATURE,    /* libblkid: filesystem, RAID/LVM/ZFS member, partition table */
	WW_GUARD_MONITORED,    /* the collector is told to monitor it */
	WW_GUARD_SERIAL,       /* --destroy-data names another serial */
	WW_GUARD_EXCL,         /* open(O_EXCL) failed: someone holds it */
};

/** Short stable name of a check ("partitions", "holders", ...). */
const char *ww_qualify_guard_name(enum ww_qualify_guard_check c);

/** Run every check. Returns WW_GUARD_OK with *fd an O_RDWR | O_DIRECT |
 * O_EXCL descriptor of dev_path (the caller closes it), else the failing
 * check with the sentence saying why in why (*fd = -1). */
enum ww_qualify_guard_check ww_qualify_guard_check(const ww_qualify_guard_in_t *in, int *fd,
						   char *why, size_t whylen);

/* -------------------------------------------------------------- a run --- */

/** Per-second figures of one load point. */
typedef struct ww_qualify_second {
	ww_qualify_stats_t rd, wr;
} ww_qualify_second_t;

/** One load point of a run: its configuration in, its figures out. */
typedef struct ww_qualify_point {
	unsigned threads, depth;
	unsigned seconds; /* asked */
	/* out */
	double elapsed_s;
	ww_qualify_acc_t rd, wr;         /* the whole point */
	ww_qualify_second_t *per_second; /* n_seconds of them (malloc'd) */
	unsigned n_seconds;
	double cpu_user_s, cpu_sys_s; /* this process, during the point */
} ww_qualify_point_t;

/** What a run does on an open descriptor. */
typedef struct ww_qualify_job {
	int fd; /* O_DIRECT; O_RDWR only for writing profiles */
	const ww_qualify_profile_t *profile;
	uint64_t range_start, range_len; /* bytes, multiples of lbs */
	uint32_t lbs;                    /* logical block size */
	uint64_t seed;
	volatile sig_atomic_t *stop; /* set by a signal handler: drain and stop */
	FILE *progress;              /* progress line (stderr), NULL = none */
	const char *phase;           /* label on the progress line */
	/* I/O error storm: stop after this many failed I/Os in a row (0 = 64) */
	unsigned error_storm;
	/* sequential fill: every block of the range written once, then stop
	 * (profile must be sequential, 0 % reads) */
	bool fill_once;
} ww_qualify_job_t;

/** Totals of a run so far (what it wrote, why it stopped). */
typedef struct ww_qualify_tally {
	uint64_t bytes_written, writes, bytes_read, reads, errors;
	uint64_t write_errors;                    /* of `writes`: failed (may have written part) */
	uint64_t lowest_written, highest_written; /* byte offsets, end exclusive */
	const char *stopped;                      /* NULL, "signal", "error storm" */
	int last_error;                           /* -errno */
} ww_qualify_tally_t;

/** Run one load point for p->seconds (a fill: until the range is written)
 * with p->threads threads of p->depth I/Os in flight each. Fills p's output
 * and adds to *t. Returns 0 (also when stopped: see t->stopped), or -errno
 * (ring setup, memory, bad job). */
int ww_qualify_run_point(const ww_qualify_job_t *job, ww_qualify_point_t *p, ww_qualify_tally_t *t);

void ww_qualify_point_free(ww_qualify_point_t *p);

/* ------------------------------------------------------------ reports --- */

/** Everything one run's reports show. The caller owns every pointer. */
typedef struct ww_qualify_report {
	const char *version; /* wearwatch's */
	const char *dev_path, *block, *id, *serial, *model, *firmware;
	uint64_t capacity_bytes;
	uint32_t lbs;
	const ww_qualify_profile_t *profile;
	long long started, finished; /* seconds since the epoch */
	unsigned seconds;            /* per load point */
	bool writes;                 /* the profile writes (the guard passed) */
	ww_qualify_point_t *points;
	unsigned n_points;
	/* preconditioning, when asked: the fill and the workload rounds */
	bool preconditioned;
	ww_qualify_point_t *fill;   /* NULL = no fill */
	ww_qualify_point_t *rounds; /* n_rounds of them */
	unsigned n_rounds, round_seconds;
	ww_qualify_steady_t steady;
	/* the drive's health record before and after; NULL with *_note saying
	 * why (no health interface, standby, read failed) */
	const ww_health_t *before, *after;
	const char *before_note, *after_note;
	ww_qualify_tally_t tally;
	const char *compare_path;          /* --compare: the old report */
	const struct json_object *compare; /* its parsed JSON, NULL = none */
} ww_qualify_report_t;

/** The report as JSON text (docs/qualify.md: schema "wearwatch-qualify/1").
 * malloc'd, NULL on no memory. */
char *ww_qualify_report_json(const ww_qualify_report_t *r);

/** Per-second CSV: a header, then one row per load point, second and kind
 * (read, write). Returns 0 or -errno (write error). */
int ww_qualify_report_csv(FILE *f, const ww_qualify_report_t *r);

/** A self-contained HTML page (tables, Chart.js from Debian inlined, the
 * report's JSON inlined): opens offline. Returns 0 or -errno. */
int ww_qualify_report_html(FILE *f, const ww_qualify_report_t *r);

/** The JSON report's schema name (docs/qualify.md). */
#define WW_QUALIFY_SCHEMA "wearwatch-qualify/1"

/** An earlier report for --compare: parses text (outside input: any bytes)
 * and checks it is a "wearwatch-qualify/1" report with a "points" array.
 * Returns the json-c object (json_object_put it) or NULL with why in err. */
struct json_object *ww_qualify_compare_parse(const char *text, size_t len, char *err,
					     size_t errlen);

/** The figures --compare sets side by side, as indexes of the rows' arrays. */
enum {
	WW_QCMP_IOPS,
	WW_QCMP_MEAN,
	WW_QCMP_P99,
	WW_QCMP_MAX,
	WW_QCMP_N
};

/** One load point and kind of both runs: this run's figures (`now`) and the
 * old report's (`old`, NaN where it has none), IOPS and latencies in
 * seconds, by WW_QCMP_*. */
typedef struct ww_qualify_cmp_row {
	unsigned threads, depth;
	bool write; /* the writes of the point, else its reads */
	double old[WW_QCMP_N], now[WW_QCMP_N];
} ww_qualify_cmp_row_t;

/** The report key of a WW_QCMP_* figure ("iops", "mean_s", "p99_s",
 * "max_s"); NULL past the last. */
const char *ww_qualify_compare_key(unsigned fig);

/** The rows of `now` against `old` (a parsed report): for each load point of
 * now in old (same threads and depth), its reads then its writes, a kind
 * neither run did left out. Writes at most max to rows (rows may be NULL
 * with max 0) and returns how many there are. */
size_t ww_qualify_compare_rows(const struct json_object *old, const ww_qualify_report_t *now,
			       ww_qualify_cmp_row_t *rows, size_t max);

/** Whether old has a point of p's load. */
bool ww_qualify_compare_matched(const struct json_object *old, const ww_qualify_point_t *p);

/** The change of figure fig from old to now in % of old; NaN when old has
 * none or it is 0. */
double ww_qualify_compare_change(const ww_qualify_cmp_row_t *r, unsigned fig);

/** One row of the --compare table per ww_qualify_compare_rows row: IOPS,
 * mean, p99 and max latency, old against new and the change, printed to f.
 * Returns the rows printed. */
unsigned ww_qualify_compare_print(FILE *f, const struct json_object *old,
				  const ww_qualify_report_t *now);

/** The JSON report's "comparison" block (docs/qualify.md): the old report's
 * identity, the rows and this run's loads it lacks; NULL (JSON null)
 * without r->compare. The caller owns it (json_object_put). */
struct json_object *ww_qualify_compare_json(const ww_qualify_report_t *r);

#ifdef __cplusplus
}
#endif
#endif
