/* History: one sample per drive per successful poll, in SQLite (WAL), keyed
 * by the drive's stable id (a replaced drive in the same slot has another id,
 * so it never inherits the old one's history). A counter that goes backwards
 * (host bytes written, power-on time) starts a new segment, so no rate is ever
 * computed across a reset. Samples older than the raw retention are thinned
 * to the last one of each hour, older than the hourly retention to the last
 * one of each day (kept forever: ~365 rows per drive per year).
 *
 * Writes: samples and probe bursts are kept in memory and written together,
 * in one transaction, every commit_s seconds (WW_HISTORY_COMMIT_S by
 * default: five minutes), hourly with the thinning, before counts and
 * baselines are read, by ww_history_flush() and at close; history queries
 * read the pending rows from memory beside the file, without a commit.
 * Each commit rewrites whole pages (in the WAL, again at the checkpoint,
 * and the WAL index), so a commit per poll wrote 16-47 MB per drive per day
 * for a few hundred bytes of samples; commits of 1 KiB pages every five
 * minutes stay near 1 MB a day (docs/benchmarks.md). Every read and the
 * endurance windows see the pending samples; ww_history_pending() says how
 * many there are (wearwatch_history_pending_rows).
 *
 * Durability: WAL with synchronous=NORMAL: a committed sample survives the
 * process being killed (kill -9), samples not yet committed do not (at most
 * commit_s seconds of them; SIGTERM commits them); an OS crash or power loss
 * can lose the last transactions too (never corrupt the file). A process
 * that finds the file was not closed by its predecessor (meta "running",
 * set at the first open for writing and cleared by a clean close) commits
 * every row for its first commit_s seconds: a service killed again and
 * again (a crash loop) keeps what each run collected, not one row a start.
 * One writing connection, serialised by a mutex, and a read-only one for
 * the queries; every call is thread-safe. Times are the `now` arguments.
 *
 * Cost per call: no SQL is parsed after a statement's first use; the latest
 * sample and the window baselines of each drive are kept in memory (read
 * once from the file), so appending costs the same on a 90-day file as on a
 * new one; see src/history/priv.h.
 */
#ifndef WEARWATCH_HISTORY_H
#define WEARWATCH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wearwatch/model.h"
#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WW_HISTORY_DEFAULT_DIR "/var/lib/wearwatch"
#define WW_HISTORY_FILE "history.db"
#define WW_HISTORY_RAW_S (7 * 86400)
#define WW_HISTORY_HOURLY_S (90 * 86400)
#define WW_HISTORY_COMMIT_S 300

/** Stored metrics, in column order; names are the API's `metric` values.
 * WW_HM_PROBE_* come from the probe_samples table (one row per finished
 * latency-probe burst, see ww_history_append_probe), WW_HM_DRIFT_* from
 * drift_rows (one row per latency-drift burst: its p99 and the baseline it
 * was compared with, ww_history_append_drift), the others from the
 * per-poll samples table. */
typedef enum ww_hmetric {
	WW_HM_WRITTEN = 0, WW_HM_READ, WW_HM_PCT_USED, WW_HM_TEMP, WW_HM_POH,
	WW_HM_UNSAFE, WW_HM_MEDIA_ERR, WW_HM_SPARE, WW_HM_PRESENT,
	WW_HM_PROBE_P50,
	WW_HM_PROBE_P99,
	WW_HM_PROBE_MAX,
	WW_HM_DRIFT_P99,
	WW_HM_DRIFT_BASE_P99,
	WW_HM_MAX
} ww_hmetric_t;

typedef struct ww_hmetric_info {
	const char *name;  /* "host_written_bytes" */
	const char *unit;  /* "bytes" */
	bool counter;      /* downsample by last value (else mean) */
	bool bucket_max;   /* gauge downsampled by its largest value (probe max) */
} ww_hmetric_info_t;
extern const ww_hmetric_info_t ww_hmetrics[WW_HM_MAX];

/** Metric by API name, or -1. */
int ww_hmetric_find(const char *name);

typedef struct ww_history_cfg {
	uint64_t raw_s;     /* 0 = WW_HISTORY_RAW_S */
	uint64_t hourly_s;  /* 0 = WW_HISTORY_HOURLY_S */
	uint64_t keep_s;    /* 0 = forever; else every sample older is dropped
			       (wearwatch.conf [history] retention) */
	uint64_t retry_s;   /* 0 = WW_HISTORY_RETRY_S (tests: shorter) */
	unsigned query_budget_ms; /* 0 = WW_HISTORY_QUERY_BUDGET_MS (tests) */
	uint64_t commit_s;  /* 0 = WW_HISTORY_COMMIT_S: pending rows are
			       written this often */
	bool commit_each;   /* write every append at once (tests of
			       durability and write failures) */
} ww_history_cfg_t;

/* Degrade, then heal. A database that cannot be written is not the end of
 * history:
 * - a read-only state directory (or file): the existing history is opened
 *   read-only and served; opening for writing is retried every
 *   WW_HISTORY_RETRY_S (by the writes, at their `now`);
 * - a file that cannot be opened at all (a full disk at start): no history
 *   until a retry succeeds;
 * - a corrupt file (SQLITE_CORRUPT or SQLITE_NOTADB, at open, a write or a
 *   query): moved aside as "<path>.corrupt-<unix time>" (with its -wal and
 *   -shm), kept for inspection, and a new database started; at most once per
 *   WW_HISTORY_FLAP_S. Each of these is told once through the error hook
 *   (what "database").
 * A write that fails is counted and told; "works again" is told at the first
 * success, but when it was told less than WW_HISTORY_FLAP_S before, only after
 * WW_HISTORY_HEAL_S of successes, so writes that fail and work by turns do
 * not make the log flap every poll. */
#define WW_HISTORY_RETRY_S 60
#define WW_HISTORY_FLAP_S 3600
#define WW_HISTORY_HEAL_S 600

/** Queries: at most this many points, and this long (then -ETIME). */
#define WW_HISTORY_MAX_POINTS 10000
#define WW_HISTORY_QUERY_BUDGET_MS 2000

typedef struct ww_history ww_history_t;

/** Open (creating) the database file at path. Returns 0 with *out set,
 * also when the file could only be opened read-only, not at all, or was
 * moved aside as corrupt (see above): errmsg then says what ("" when it
 * opened for writing as it was); -ENOMEM, -ENAMETOOLONG. */
int ww_history_open(const char *path, const ww_history_cfg_t *cfg, ww_history_t **out,
		    char *errmsg, size_t errlen);
void ww_history_close(ww_history_t *h);

/** True when the database is open for writing now. */
bool ww_history_writable(ww_history_t *h);

/** Append one sample of drive id at now (kept in memory; written with the
 * next commit, see above). rec may be NULL (only `present` stored). Sets
 * *latest (may be NULL) to the sample with its segment. Thins old samples
 * about once an hour. Returns 0, or -EIO when the commit this call made
 * failed (the rows stay pending for the next one) or the drive's latest
 * sample could not be read. */
int ww_history_append(ww_history_t *h, const char *id, const ww_health_t *rec, bool present,
		      time_t now, ww_sample_t *latest);

/** Oldest sample of `segment` with t >= from and bytes written (the window
 * baseline). Returns 1 found, 0 none, -EIO. */
int ww_history_baseline(ww_history_t *h, const char *id, int64_t segment, time_t from,
			ww_sample_t *out);

/** Newest sample of the drive (from memory after the first call). Returns
 * 1 found, 0 none, -EIO. */
int ww_history_latest(ww_history_t *h, const char *id, ww_sample_t *out);

/** The endurance model's baselines of drive id at now, from memory: for
 * each window w (ww_window_days[w] days) in base[w], and for the last 24 h
 * in base[WW_WIN_MAX], what ww_history_baseline(h, id, latest segment,
 * now - window) answers. has[k] false when there is none (or no sample at
 * all). A baseline is searched in the file (one index search) only when it
 * left its window or thinning removed it. Returns 0, -ENOMEM or -EIO. */
int ww_history_windows(ww_history_t *h, const char *id, time_t now,
		       ww_sample_t base[WW_WIN_MAX + 1], bool has[WW_WIN_MAX + 1]);

/** Write the pending rows now (one transaction). Returns 0 or -EIO (they
 * stay pending). NULL is a no-op. */
int ww_history_flush(ww_history_t *h);

/** SQL statements the module prepared since open: each is prepared once, so
 * this stops growing once every kind of call was made (a test's check). */
uint64_t ww_history_prepares(ww_history_t *h);

/** Text of prepared statement `which` (0, 1, ... until NULL), for tests and
 * EXPLAIN QUERY PLAN; per_collection: whether appending a sample, reading the
 * latest one or the window baselines, or thinning runs it. */
const char *ww_history_sql(int which);
bool ww_history_sql_per_collection(int which);

/** One point of a history query. */
typedef struct ww_hpoint {
	time_t t;
	bool has_value;
	double value;
	int64_t segment;
} ww_hpoint_t;

/** Samples of one metric in [from, to], at most max_points (1 to
 * WW_HISTORY_MAX_POINTS). More rows than that are bucketed: max_points
 * equal spans of time, a row at t in bucket floor((t - from) max_points /
 * (to - from + 1)); a bucket's point has its last row's time and segment,
 * and the value of its last row (counters), the mean (gauges) or the
 * largest (bucket_max) of the rows read. A bucket is read by index
 * searches on the queries' own read-only connection, not row by row (at
 * most about 16 384 searches a query, whatever the number of rows): its
 * last row, and the first row of each of up to 32 equal slots of its span,
 * so a gauge's value is over every row when no two share a slot, else over
 * one row per slot (a mean over time). Probe metrics
 * have segment 0. *out is malloc'd (caller frees). Returns the number of
 * points, or -ENOENT (drive has no samples and no probe rows at all),
 * -ETIME (longer than WW_HISTORY_QUERY_BUDGET_MS), -EAGAIN (the database
 * could not be opened), -EINVAL, -ENOMEM, -EIO. */
long ww_history_query(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
		      time_t to, unsigned max_points, ww_hpoint_t **out);

/** Index searches the bucketed queries made since open (a test's count:
 * it must not grow with the rows in the range). */
uint64_t ww_history_query_seeks(ww_history_t *h);

/** Summary of one finished latency-probe burst (src/sched/probe_sched.c):
 * quantiles of that burst's successful reads (nearest rank over the probe
 * histogram, within 1 %), its slowest read, and its read/error counts.
 * has_latency is false when no read succeeded (quantiles stored as NULL). */
typedef struct ww_hprobe {
	bool has_latency;
	double p50_s, p99_s, max_s;   /* seconds */
	uint32_t reads, errors;       /* successful reads, failed or short reads */
} ww_hprobe_t;

/** Append one probe burst of drive id ending at now (one transaction; same
 * key, tiers and retention as the samples). Thinning promotes per hour, then
 * per day: p50/p99 the mean of the bucket's bursts, max the largest, reads
 * and errors their sums. Returns 0, -EINVAL or -EIO. */
int ww_history_append_probe(ww_history_t *h, const char *id, const ww_hprobe_t *p,
			    time_t now);

/** Rows of probe bursts of a drive per tier, like ww_history_count. */
int ww_history_count_probe(ww_history_t *h, const char *id, long counts[3]);

/** One latency-drift burst (probe.h drift-*): nearest-rank p50/p99 and the
 * mean of its successful reads, its counts, the baseline it was compared
 * with (model.h ww_drift_baseline; base_n 0: none yet) and whether it
 * entered the baseline (ww_drift_enters). Times in seconds. */
typedef struct ww_hdrift {
	time_t t;         /* its end */
	bool has_latency; /* a read succeeded (else quantiles NULL) */
	double p50_s, p99_s, mean_s;
	uint32_t reads, errors;
	double base_p99_s;
	uint32_t base_n;
	bool in_baseline;
} ww_hdrift_t;

/** Drift rows kept per drive besides the newest keep_base of the baseline:
 * about two months of daily bursts for the dashboard. Every append deletes
 * what is beyond, so a drive has at most WW_HISTORY_DRIFT_KEEP + keep_base
 * rows, whatever the age of the file. */
#define WW_HISTORY_DRIFT_KEEP 64

/** Write one drift burst of drive id now (its own transaction: one a day
 * per drive) and drop the drive's rows beyond the bound above. Returns 0,
 * -EINVAL, or -EIO (not writable, or the write failed: counted in
 * ww_history_write_errors). */
int ww_history_append_drift(ww_history_t *h, const char *id, const ww_hdrift_t *b,
			    unsigned keep_base);

/** The p99s (seconds) of the drive's newest bursts that entered the
 * baseline, newest first, at most max: one index range. Returns how many,
 * or -EIO. */
long ww_history_drift_baseline(ww_history_t *h, const char *id, double *p99_s, unsigned max);

/** The drive's newest drift burst into *out: 1 found, 0 none, -EIO. */
int ww_history_drift_latest(ww_history_t *h, const char *id, ww_hdrift_t *out);

/** One integer the service keeps across restarts under `key` (the meta
 * table, beside the thinning marks; e.g. the next selective self-test
 * span's first LBA of a drive, "selftest_span:" + its id), written at once
 * (not with the samples' commit). get: 1 found (*v set), 0 none, -EIO;
 * set: 0, -EROFS on a read-only history, -EIO. */
int ww_history_meta_get(ww_history_t *h, const char *key, int64_t *v);
int ww_history_meta_set(ww_history_t *h, const char *key, int64_t v);

/** Drift rows of a drive (tests of the bound): >= 0, or -EIO. */
long ww_history_count_drift(ww_history_t *h, const char *id);

/** Schema version the database is at after ww_history_open (PRAGMA
 * user_version): 0 = samples only (before probe history), 1 = probe_samples,
 * 2 = rows keyed by drive number and time (tables drives, sample_rows,
 * probe_rows; `samples` and `probe_samples` are views with the old columns
 * that accept inserts), 3 = drift_rows. Opening migrates older files in
 * place, values kept. */
#define WW_HISTORY_SCHEMA_VERSION 3

/** Write what is pending, thin and expire now, to the hour (the hourly
 * pass that append makes thins raw samples a whole day at a time: they are
 * kept 7 to 8 days). Returns 0 or -EIO. */
int ww_history_maintain(ww_history_t *h, time_t now);

/** Told about history writes (samples and probe bursts) that fail: err is
 * the -errno of the call (-EIO), what is "sample" or "probe burst", msg is
 * SQLite's reason ("database or disk is full"); and with err = 0 when writes
 * work again after failures (see above). Also what a reopen did, what =
 * "database", id NULL: err 0 (writable again, or a corrupt file was moved
 * aside and a new one started: msg says where) or -EROFS (read-only or not
 * open, msg says why). Called without the history's lock, from the writing
 * thread. */
typedef void (*ww_history_error_fn)(void *ctx, int err, const char *what, const char *id,
				    const char *msg, time_t now);

/** Install (fn NULL: remove) the failure hook. Thread-safe. */
void ww_history_set_error_hook(ww_history_t *h, ww_history_error_fn fn, void *ctx);

/** Sample and probe-burst writes that failed since open (counter; the
 * daemon publishes it as wearwatch_history_write_errors_total). Thread-safe. */
uint64_t ww_history_write_errors(ww_history_t *h);

/** Samples and probe bursts kept in memory, not in the file yet (what a
 * kill -9 now would lose); read without the lock, as often as /metrics
 * asks. */
uint64_t ww_history_pending(ww_history_t *h);

/** Number of stored rows of a drive per tier (0 raw, 1 hourly, 2 daily), for
 * tests and docs. Returns 0 or -EIO. */
int ww_history_count(ww_history_t *h, const char *id, long counts[3]);

#ifdef __cplusplus
}
#endif
#endif
