/* History internals shared by the files of src/history/ (contract in
 * wearwatch/history.h).
 *
 * Cost model, so that a collection costs the same on a 90-day database as on
 * a new one and the host's disk sees few writes:
 *  - every SQL statement is prepared once (at open, or at its first use) and
 *    reset after each use;
 *  - each drive's latest sample and its window baselines live in memory,
 *    read from the database once (at the drive's first use after open, or
 *    after another connection changed the file); a baseline is looked up
 *    again only when it left its window, with one index search;
 *  - samples and probe bursts wait in memory and are written together, one
 *    INSERT per row in one transaction, every commit_s seconds (and before
 *    counts and baselines are read, at close and by ww_history_flush());
 *    the API's queries copy one drive's pending rows into temp tables of
 *    their connection instead of committing them;
 *  - thinning visits, per drive, only the rows between the previous cut and
 *    this one (the primary key is (drive number, t), so each is one range).
 *
 * Queries for the API run on a read-only connection of their own (WAL: the
 * writer and readers do not wait for each other), bounded in points (SQLite
 * buckets the rows) and time (a progress handler), see query.c. The file
 * degrades and heals as history.h says (open_heal_locked in history.c).
 */
#ifndef WW_HISTORY_PRIV_H
#define WW_HISTORY_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include <sqlite3.h>

#include "wearwatch/basic.h"
#include "wearwatch/history.h"

/* Prepared statements, by job; SQL in history.c's stmt_sql[]. */
enum hstmt {
	/* a collection's (append, latest, windows) and its thinning's */
	HS_BEGIN, HS_COMMIT, HS_ROLLBACK, HS_DATA_VERSION,
	HS_DRIVE_FIND, HS_DRIVE_ADD,
	HS_INSERT, HS_PINSERT, HS_LATEST, HS_BASELINE, HS_BASELINE_AHEAD,
	HS_THIN_KEEP, HS_THIN_DROP, HS_PTHIN_ADD, HS_PTHIN_DROP, HS_EXPIRE, HS_PEXPIRE,
	HS_META_GET, HS_META_SET,
	/* the hourly thinning's list of drives (one row each), and reads for
	 * the API and tests */
	HS_DRIVES, HS_COUNT, HS_PCOUNT, HS_KNOWN,
	/* latency-drift bursts, one a day per drive (drift_rows.c) */
	HS_DINSERT,
	HS_DBOUND,
	HS_DBASE,
	HS_DLATEST,
	HS_DCOUNT,
	/* the API's queries, on the reader connection (query.c): one per
	 * metric, every row in a range, and the same in buckets */
	HS_PEND_SETUP, HS_PEND_CLEAR, HS_PEND_SAMPLE, HS_PEND_PROBE,
	HS_QUERY0, /* HS_QUERY0 + ww_hmetric_t */
	/* a bucket's first and last row in the file, then among the pending */
	HS_FIRST0 = HS_QUERY0 + WW_HM_MAX,
	HS_LAST0 = HS_FIRST0 + WW_HM_MAX,
	HS_PFIRST0 = HS_LAST0 + WW_HM_MAX,
	HS_PLAST0 = HS_PFIRST0 + WW_HM_MAX,
	HS_MAX = HS_PLAST0 + WW_HM_MAX
};

/* What the file allows: written and read; only read (a read-only state
 * directory: existing history is served, writes are retried); neither (it
 * could not be opened: retried). */
enum hstate { H_CLOSED, H_READONLY, H_WRITABLE };

#define WW_HNOTE_LEN 9216 /* two paths and SQLite's reason */

/* Columns of the rows, in the order of ww_hmetrics */
#define COLS "host_written_bytes, host_read_bytes, endurance_used_percent, " \
	     "temperature_celsius, power_on_seconds, unsafe_shutdowns, media_errors, " \
	     "available_spare_percent, present"
#define SAMPLE_COLS "t, segment, host_written_bytes, power_on_seconds, media_errors"
#define PCOLS "p50_seconds, p99_seconds, max_seconds, reads, errors"
#define DCOLS                                                                                      \
	"p50_seconds, p99_seconds, mean_seconds, reads, errors, base_p99_seconds, "                \
	"base_n, in_baseline"

/* Values of one pending sample, in the column order of ww_hmetrics */
#define WW_HS_COLS 9

/* Cached baseline slots: the model's windows, then the last 24 h */
#define WW_HBASE (WW_WIN_MAX + 1)

enum { BASE_UNKNOWN = 0, BASE_NONE, BASE_FOUND };

/* Rows after a baseline read with it (the next baselines as the window
 * moves on: at a 60 s poll the 1-day and 7-day ones move every poll) */
#define WW_HAHEAD 16
struct hahead {
	ww_sample_t row[WW_HAHEAD - 1];
	unsigned n, pos;
};

struct hdrive {
	char id[256];
	int64_t n;               /* drives.n; 0 = not in the file yet */
	bool loaded;             /* `latest` read from the file */
	bool has_latest;
	ww_sample_t latest;
	int base_state[WW_HBASE];
	ww_sample_t base[WW_HBASE];
	struct hahead *ahead[WW_HBASE]; /* malloc'd at the first search */
};

struct psample {
	struct hdrive *d;
	time_t t;
	int64_t segment;
	int64_t v[WW_HS_COLS];
	uint16_t has;            /* bit i: v[i] present */
};

struct pprobe {
	struct hdrive *d;
	time_t t;
	ww_hprobe_t p;
};

struct ww_history {
	sqlite3 *db;
	pthread_mutex_t lock;
	ww_history_cfg_t cfg;
	sqlite3_stmt *st[HS_MAX];
	uint64_t prepares;         /* statements prepared since open */
	int64_t data_version;      /* PRAGMA data_version last seen */
	time_t version_seen;       /* the collection time it was last looked at */
	/* the -wal file at that look (cache.c wal_moved), and a descriptor
	 * of it (-1: none yet) */
	int wal_fd;
	bool wal_known;
	ino_t wal_ino;
	off_t wal_size;
	struct timespec wal_ctime;
	time_t last_maintain, last_flush;
	time_t thin_lo[2];         /* rows of tier k older than this are thinned */
	uint64_t write_errors;     /* failed sample/probe writes since open */
	uint64_t pending_rows;     /* n_ps + n_pp, read without the lock */
	bool marked;               /* meta "running" set by this process */
	bool unclean;              /* the last process did not close the file */
	time_t eager_until;        /* commit every row until then (unclean) */
	uint64_t counted;          /* pending rows already in write_errors */
	bool write_failing;        /* the last write failed */
	ww_history_error_fn hook;
	void *hook_ctx;
	ww_idmap_t drives;         /* struct hdrive by id; pointers stay put */
	struct psample *ps;        /* pending samples, oldest first */
	size_t n_ps, cap_ps;
	struct pprobe *pp;         /* pending probe bursts */
	size_t n_pp, cap_pp;
	/* degrade and heal (history.h) */
	char path[4096];
	enum hstate state;
	char why_not[256];         /* why not writable (H_CLOSED, H_READONLY) */
	time_t retry_at;           /* next reopen for writing (the writes' `now`) */
	time_t moved_at;           /* last corrupt file moved aside, 0 never */
	bool corrupt;              /* a query or write met a corrupt page */
	time_t told_ok_at, ok_since; /* "works again" told; successes since */
	bool ok_pending;           /* works again, not told yet (flapping) */
	char notice[WW_HNOTE_LEN]; /* what a reopen did, for the hook */
	/* the queries' read-only connection, serialised by qlock */
	sqlite3 *rdb;
	pthread_mutex_t qlock;
	uint64_t query_seeks; /* index searches of bucketed queries */
};

/* open.c: the file's state. Before a write (under the lock): reopen when
 * not writable and the retry is due, or a corrupt page was met; true when
 * the file is writable. What a reopen did is told to the error hook by
 * ww_hist_tell_notice (without the lock). */
bool ww_hist_writable_locked(ww_history_t *h, time_t now);
void ww_hist_tell_notice(ww_history_t *h, time_t now);
unsigned ww_hist_query_budget_ms(ww_history_t *h);
sqlite3 *ww_hist_reader_lock(ww_history_t *h);
void ww_hist_reader_unlock(ww_history_t *h, int sqlite_rc);

/* history.c: a pending row's values bound as ?1 (drive number n), ?2 (t),
 * then the row's columns (HS_INSERT, HS_PINSERT, the reader's temp
 * tables) */
void ww_hist_bind_sample(sqlite3_stmt *st, int64_t n, const struct psample *p);
void ww_hist_bind_probe(sqlite3_stmt *st, int64_t n, const struct pprobe *p);

/* history.c: count a write that failed (or succeeded after failures) and
 * tell the hook, as the commits do; unlocks h->lock */
void ww_hist_write_result_unlock(ww_history_t *h, int ret, const char *what, const char *id,
				 time_t now);

/* history.c */
sqlite3_stmt *ww_hist_stmt(ww_history_t *h, enum hstmt which);
int ww_hist_done(sqlite3_stmt *st, int rc);
int ww_hist_flush_locked(ww_history_t *h);
bool ww_hist_changed_locked(ww_history_t *h);

/* cache.c */
struct hdrive *ww_hist_drive_locked(ww_history_t *h, const char *id, bool create);
int ww_hist_load_locked(ww_history_t *h, struct hdrive *d);
int64_t ww_hist_drive_n_locked(ww_history_t *h, const char *id);
void ww_hist_forget_locked(ww_history_t *h, time_t older_than, bool all);
void ww_hist_drives_init(ww_history_t *h);
void ww_hist_drives_free(ww_history_t *h);
void ww_hist_row_to_sample(sqlite3_stmt *st, int c0, ww_sample_t *s);
void ww_hist_note_sample(struct hdrive *d, const struct psample *p);

/* thin.c */
int ww_hist_thin_locked(ww_history_t *h, time_t now, bool exact);

#endif
