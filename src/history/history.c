/* History in SQLite (contract in history.h, costs in priv.h). SQLite because
 * it is Debian's well-kept embedded database: crash-safe commits, WAL for
 * readers beside the writer, and integrity_check for tests. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "history/priv.h"

const ww_hmetric_info_t ww_hmetrics[WW_HM_MAX] = {
	{ "host_written_bytes", "bytes", true, false },
	{ "host_read_bytes", "bytes", true, false },
	{ "endurance_used_percent", "percent", false, false },
	{ "temperature_celsius", "celsius", false, false },
	{ "power_on_seconds", "seconds", true, false },
	{ "unsafe_shutdowns", "count", true, false },
	{ "media_errors", "count", true, false },
	{ "available_spare_percent", "percent", false, false },
	{ "present", "boolean", false, false },
	{ "probe_latency_p50_seconds", "seconds", false, false },
	{ "probe_latency_p99_seconds", "seconds", false, false },
	{ "probe_latency_max_seconds", "seconds", false, true },
	{ "latency_drift_p99_seconds", "seconds", false, true },
	{ "latency_drift_baseline_p99_seconds", "seconds", false, false },
};

int ww_hmetric_find(const char *name)
{
	for (int i = 0; name && i < WW_HM_MAX; i++)
		if (!strcmp(ww_hmetrics[i].name, name))
			return i;
	return -1;
}


/* Thinning of tier ?4 into ?5 in [?2, ?3) of drive ?1, buckets of ?6 s:
 * the last row of each bucket moves up a tier, the others go. */
#define THIN_KEEP \
	"UPDATE sample_rows SET tier=?5 WHERE n=?1 AND t>=?2 AND t<?3 AND tier=?4 AND NOT EXISTS" \
	" (SELECT 1 FROM sample_rows s WHERE s.n=?1 AND s.t>sample_rows.t AND s.t<?3" \
	" AND s.t<(sample_rows.t/?6+1)*?6 AND s.tier=?4)"
/* Probe bursts of a bucket become one row at its last burst's time: mean
 * p50/p99 (NULLs of all-error bursts ignored), largest max, summed counts. */
#define PTHIN_ADD \
	"INSERT OR REPLACE INTO probe_rows SELECT ?1, max(t), ?5, avg(p50_seconds)," \
	" avg(p99_seconds), max(max_seconds), sum(reads), sum(errors) FROM probe_rows" \
	" WHERE n=?1 AND t>=?2 AND t<?3 AND tier=?4 GROUP BY t/?6"

static const char *const stmt_sql[HS_QUERY0] = {
	[HS_BEGIN] = "BEGIN IMMEDIATE",
	[HS_COMMIT] = "COMMIT",
	[HS_ROLLBACK] = "ROLLBACK",
	[HS_DATA_VERSION] = "PRAGMA data_version",
	[HS_DRIVE_FIND] = "SELECT n FROM drives WHERE id=?1",
	[HS_DRIVE_ADD] = "INSERT INTO drives(id) VALUES(?1) ON CONFLICT(id) DO NOTHING",
	[HS_DRIVES] = "SELECT n FROM drives",
	[HS_INSERT] = "INSERT OR REPLACE INTO sample_rows(n, t, tier, segment, " COLS
		      ") VALUES(?1, ?2, 0, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[HS_PINSERT] = "INSERT OR REPLACE INTO probe_rows(n, t, tier, " PCOLS
		       ") VALUES(?1, ?2, 0, ?3, ?4, ?5, ?6, ?7)",
	[HS_LATEST] = "SELECT " SAMPLE_COLS " FROM sample_rows WHERE n=?1 ORDER BY t DESC LIMIT 1",
	[HS_BASELINE] = "SELECT " SAMPLE_COLS " FROM sample_rows WHERE n=?1 AND t>=?3"
			" AND segment=?2 AND host_written_bytes IS NOT NULL ORDER BY t LIMIT 1",
	[HS_BASELINE_AHEAD] =
		"SELECT " SAMPLE_COLS " FROM sample_rows WHERE n=?1 AND t>=?3"
		" AND segment=?2 AND host_written_bytes IS NOT NULL ORDER BY t LIMIT 16",
	[HS_THIN_KEEP] = THIN_KEEP,
	[HS_THIN_DROP] = "DELETE FROM sample_rows WHERE n=?1 AND t>=?2 AND t<?3 AND tier=?4",
	[HS_PTHIN_ADD] = PTHIN_ADD,
	[HS_PTHIN_DROP] = "DELETE FROM probe_rows WHERE n=?1 AND t>=?2 AND t<?3 AND tier=?4",
	[HS_EXPIRE] = "DELETE FROM sample_rows WHERE n=?1 AND t<?2",
	[HS_PEXPIRE] = "DELETE FROM probe_rows WHERE n=?1 AND t<?2",
	[HS_META_GET] = "SELECT v FROM meta WHERE k=?1",
	[HS_META_SET] = "INSERT OR REPLACE INTO meta(k, v) VALUES(?1, ?2)",
	[HS_COUNT] = "SELECT tier, count(*) FROM sample_rows WHERE n=?1 GROUP BY tier",
	[HS_PCOUNT] = "SELECT tier, count(*) FROM probe_rows WHERE n=?1 GROUP BY tier",
	[HS_KNOWN] = "SELECT EXISTS(SELECT 1 FROM sample_rows WHERE n=?1)"
		     " OR EXISTS(SELECT 1 FROM probe_rows WHERE n=?1)"
		     " OR EXISTS(SELECT 1 FROM drift_rows WHERE n=?1)",
	[HS_DINSERT] = "INSERT OR REPLACE INTO drift_rows(n, t, " DCOLS ") VALUES(?1, ?2, ?3,"
		       " ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
	/* rows neither among the newest ?2 nor among the newest ?3 of the
	 * baseline (a NULL bound, fewer rows than that, keeps them) */
	[HS_DBOUND] = "DELETE FROM drift_rows WHERE n=?1 AND t<(SELECT t FROM drift_rows WHERE"
		      " n=?1 ORDER BY t DESC LIMIT 1 OFFSET ?2) AND (NOT in_baseline OR t<(SELECT t"
		      " FROM drift_rows WHERE n=?1 AND in_baseline ORDER BY t DESC LIMIT 1"
		      " OFFSET ?3))",
	[HS_DBASE] = "SELECT p99_seconds FROM drift_rows WHERE n=?1 AND in_baseline AND"
		     " p99_seconds IS NOT NULL ORDER BY t DESC LIMIT ?2",
	[HS_DLATEST] = "SELECT t, " DCOLS " FROM drift_rows WHERE n=?1 ORDER BY t DESC LIMIT 1",
	[HS_DCOUNT] = "SELECT count(*) FROM drift_rows WHERE n=?1",
	/* the reader connection's copy of one drive's pending rows, in memory
	 * (query.c): queries see them without a commit of their own */
	[HS_PEND_SETUP] =
		"PRAGMA temp_store=MEMORY;"
		" CREATE TEMP TABLE IF NOT EXISTS pend_sample AS SELECT * FROM sample_rows"
		" WHERE 0; CREATE TEMP TABLE IF NOT EXISTS pend_probe AS SELECT * FROM"
		" probe_rows WHERE 0; CREATE INDEX IF NOT EXISTS temp.pend_sample_nt ON"
		" pend_sample(n, t); CREATE INDEX IF NOT EXISTS temp.pend_probe_nt ON"
		" pend_probe(n, t);",
	[HS_PEND_CLEAR] = "DELETE FROM temp.pend_sample; DELETE FROM temp.pend_probe;",
	[HS_PEND_SAMPLE] = "INSERT INTO temp.pend_sample(n, t, tier, segment, " COLS
			   ") VALUES(?1, ?2, 0, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[HS_PEND_PROBE] = "INSERT INTO temp.pend_probe(n, t, tier, " PCOLS
			  ") VALUES(?1, ?2, 0, ?3, ?4, ?5, ?6, ?7)",
};

/* probe_rows column of each WW_HM_PROBE_* metric, then drift_rows' of each
 * WW_HM_DRIFT_* one */
static const char *const probe_cols[] = { "p50_seconds", "p99_seconds", "max_seconds",
					  "p99_seconds", "base_p99_seconds" };

/* History queries, five per metric: the rows of [?2, ?3] oldest first (at
 * most ?4), and the first and the last row of [?2, ?3) (a bucket: query.c
 * reads a bucket by such searches, never every row in it) in the file and
 * among the pending rows (temp tables of the reader connection, filled per
 * query: query.c). Columns: t, value, segment. Each part is one range of
 * an index on (n, t), searched, never sorted. */
static char query_sql[5 * WW_HM_MAX][512];
static pthread_once_t query_once = PTHREAD_ONCE_INIT;

static void make_queries(void)
{
	for (int m = 0; m < WW_HM_MAX; m++) {
		bool probe = m >= WW_HM_PROBE_P50, drift = m >= WW_HM_DRIFT_P99;
		const char *col = probe ? probe_cols[m - WW_HM_PROBE_P50] : ww_hmetrics[m].name;
		const char *seg = probe ? "0" : "segment";
		const char *table = drift ? "drift_rows" : probe ? "probe_rows" : "sample_rows";
		/* drift bursts are written at once, never pending: their pending
		 * part is empty */
		const char *pend = drift ? "(SELECT * FROM drift_rows WHERE 0)"
			: probe          ? "temp.pend_probe"
					 : "temp.pend_sample";

		snprintf(
			query_sql[m], sizeof(query_sql[m]),
			"SELECT t, v, seg FROM (SELECT t, %s AS v, %s AS seg FROM %s WHERE n=?1 AND"
			" t>=?2 AND t<=?3 UNION ALL SELECT t, %s, %s FROM %s WHERE n=?1 AND"
			" t>=?2 AND t<=?3) ORDER BY t LIMIT ?4",
			col, seg, table, col, seg, pend);
		for (int k = 0; k < 4; k++)
			snprintf(
				query_sql[(1 + k) * WW_HM_MAX + m], sizeof(query_sql[0]),
				"SELECT t, %s, %s FROM %s WHERE n=?1 AND t>=?2 AND t<?3 ORDER BY t%s"
				" LIMIT 1",
				col, seg, k < 2 ? table : pend, k % 2 ? " DESC" : "");
	}
}

const char *ww_history_sql(int which)
{
	if (which < 0 || which >= HS_MAX)
		return NULL;
	if (which < HS_QUERY0)
		return stmt_sql[which];
	pthread_once(&query_once, make_queries);
	return query_sql[which - HS_QUERY0];
}

bool ww_history_sql_per_collection(int which)
{
	/* what a collection (append, latest, window baselines) and the thinning
	 * it starts run per drive; the list of drives, history queries and
	 * counts are not */
	return which >= 0 && which < HS_DRIVES;
}

/* The statement, prepared on first use and kept; NULL on failure. */
sqlite3_stmt *ww_hist_stmt(ww_history_t *h, enum hstmt which)
{
	if (!h->db) /* not open (history.h: degrade, then heal) */
		return NULL;
	if (!h->st[which]) {
		if (sqlite3_prepare_v3(h->db, ww_history_sql(which), -1, SQLITE_PREPARE_PERSISTENT,
				       &h->st[which], NULL) != SQLITE_OK)
			return NULL;
		h->prepares++;
	}
	return h->st[which];
}

/* After stepping st to its end (or an error): reset it and clear its
 * bindings; passes rc through. */
int ww_hist_done(sqlite3_stmt *st, int rc)
{
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
	return rc;
}

static int run(ww_history_t *h, enum hstmt which)
{
	sqlite3_stmt *st = ww_hist_stmt(h, which);

	if (!st)
		return -EIO;
	return ww_hist_done(st, sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO);
}

uint64_t ww_history_prepares(ww_history_t *h)
{
	uint64_t n;

	pthread_mutex_lock(&h->lock);
	n = h->prepares;
	pthread_mutex_unlock(&h->lock);
	return n;
}

void ww_history_set_error_hook(ww_history_t *h, ww_history_error_fn fn, void *ctx)
{
	pthread_mutex_lock(&h->lock);
	h->hook = fn;
	h->hook_ctx = ctx;
	pthread_mutex_unlock(&h->lock);
}

uint64_t ww_history_write_errors(ww_history_t *h)
{
	/* read without the lock: every /metrics asks, and a commit holds the
	 * lock for its whole transaction */
	return __atomic_load_n(&h->write_errors, __ATOMIC_RELAXED);
}

static void note_pending_locked(ww_history_t *h)
{
	__atomic_store_n(&h->pending_rows, (uint64_t)(h->n_ps + h->n_pp), __ATOMIC_RELAXED);
}

uint64_t ww_history_pending(ww_history_t *h)
{
	return __atomic_load_n(&h->pending_rows, __ATOMIC_RELAXED);
}

/* true when another connection committed since the last call (a script
 * seeding rows, the sqlite3 shell): what is kept in memory is read again */
bool ww_hist_changed_locked(ww_history_t *h)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_DATA_VERSION);
	int64_t v;

	if (!st || sqlite3_step(st) != SQLITE_ROW)
		return ww_hist_done(st, false);
	v = sqlite3_column_int64(st, 0);
	ww_hist_done(st, 0);
	if (v == h->data_version)
		return false;
	h->data_version = v;
	return true;
}

void ww_hist_bind_sample(sqlite3_stmt *st, int64_t n, const struct psample *p)
{
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, p->t);
	sqlite3_bind_int64(st, 3, p->segment);
	for (int c = 0; c < WW_HS_COLS; c++)
		if (p->has & (1u << c))
			sqlite3_bind_int64(st, 4 + c, p->v[c]);
		else
			sqlite3_bind_null(st, 4 + c);
}

void ww_hist_bind_probe(sqlite3_stmt *st, int64_t n, const struct pprobe *p)
{
	const double q[3] = { p->p.p50_s, p->p.p99_s, p->p.max_s };

	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, p->t);
	for (int k = 0; k < 3; k++)
		if (p->p.has_latency)
			sqlite3_bind_double(st, 3 + k, q[k]);
		else
			sqlite3_bind_null(st, 3 + k);
	sqlite3_bind_int64(st, 6, p->p.reads);
	sqlite3_bind_int64(st, 7, p->p.errors);
}

/* give every drive of the pending rows its number in the file */
static int number_drives(ww_history_t *h, struct hdrive *d)
{
	sqlite3_stmt *st;

	if (d->n)
		return 0;
	st = ww_hist_stmt(h, HS_DRIVE_ADD);
	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, d->id, -1, SQLITE_STATIC);
	if (ww_hist_done(st, sqlite3_step(st)) != SQLITE_DONE)
		return -EIO;
	d->n = ww_hist_drive_n_locked(h, d->id);
	return d->n > 0 ? 0 : -EIO;
}

static int write_pending(ww_history_t *h)
{
	sqlite3_stmt *st;

	for (size_t i = 0; i < h->n_ps; i++) {
		const struct psample *p = &h->ps[i];

		if (number_drives(h, p->d) || !(st = ww_hist_stmt(h, HS_INSERT)))
			return -EIO;
		ww_hist_bind_sample(st, p->d->n, p);
		if (ww_hist_done(st, sqlite3_step(st)) != SQLITE_DONE)
			return -EIO;
	}
	for (size_t i = 0; i < h->n_pp; i++) {
		const struct pprobe *p = &h->pp[i];

		if (number_drives(h, p->d) || !(st = ww_hist_stmt(h, HS_PINSERT)))
			return -EIO;
		ww_hist_bind_probe(st, p->d->n, p);
		if (ww_hist_done(st, sqlite3_step(st)) != SQLITE_DONE)
			return -EIO;
	}
	return 0;
}

/* The end of a write, under the lock: count failed rows; returns the hook to
 * call after unlocking (every failure, and a success after them) or NULL.
 * A success is told at once after failures, unless "works again" was told
 * less than WW_HISTORY_FLAP_S ago: writes that fail and work by turns (a
 * file with bad pages, a disk at its limit) are then told to work again
 * only after WW_HISTORY_HEAL_S of successes, not at every commit. */
static ww_history_error_fn write_done_locked(ww_history_t *h, int ret, uint64_t rows,
					     time_t now, void **ctx)
{
	bool report = ret < 0;

	if (ret < 0) {
		__atomic_add_fetch(&h->write_errors, rows, __ATOMIC_RELAXED);
		h->ok_since = 0;
		h->ok_pending = false; /* still failing: no "works again" owed */
	} else if (h->write_failing || h->ok_pending) {
		if (!h->ok_since)
			h->ok_since = now;
		report = !h->told_ok_at || now - h->told_ok_at >= WW_HISTORY_FLAP_S ||
			now - h->ok_since >= WW_HISTORY_HEAL_S;
		h->ok_pending = !report;
		if (report)
			h->told_ok_at = now;
	}
	h->write_failing = ret < 0;
	*ctx = h->hook_ctx;
	return report ? h->hook : NULL;
}

/* Pending rows a failing file keeps for the next try, at most: beyond, the
 * oldest go (counted as failed writes). */
#define PENDING_MAX 65536

static void keep_pending(ww_history_t *h)
{
	if (h->n_ps > PENDING_MAX) {
		memmove(h->ps, h->ps + h->n_ps - PENDING_MAX, PENDING_MAX * sizeof(*h->ps));
		h->n_ps = PENDING_MAX;
	}
	if (h->n_pp > PENDING_MAX) {
		memmove(h->pp, h->pp + h->n_pp - PENDING_MAX, PENDING_MAX * sizeof(*h->pp));
		h->n_pp = PENDING_MAX;
	}
}

struct hook_call {
	ww_history_t *h;           /* its reopen notice, if any, is told first */
	ww_history_error_fn fn;
	void *ctx;
	int err;
	const char *what;
	char id[256];
	char why[160];
	time_t now;
};

enum { THIN_NONE = 0, THIN_PERIODIC, THIN_EXACT };

/* Write every pending row (and thin unless THIN_NONE) in one transaction.
 * On failure the rows stay pending and the hook is told (*call). */
static int flush_locked(ww_history_t *h, time_t now, int thin, struct hook_call *call)
{
	uint64_t rows = h->n_ps + h->n_pp;
	const time_t lo[2] = { h->thin_lo[0], h->thin_lo[1] };
	int ret;

	memset(call, 0, sizeof(*call));
	call->h = h;
	call->now = now;
	if (!rows && !thin)
		return 0;
	call->what = h->n_ps ? "sample" : "probe burst";
	snprintf(call->id, sizeof(call->id), "%s", h->n_ps ? h->ps[0].d->id :
		 h->n_pp ? h->pp[0].d->id : "-");
	if (!ww_hist_writable_locked(h, now)) {
		/* read-only or not open: the rows wait for a reopen */
		snprintf(call->why, sizeof(call->why), "%.159s", h->why_not);
		keep_pending(h);
		ret = -EIO;
		goto done;
	}
	if (ww_hist_changed_locked(h)) /* another writer: re-read what is cached */
		ww_hist_forget_locked(h, 0, true);
	ret = run(h, HS_BEGIN);
	if (!ret)
		ret = write_pending(h);
	if (!ret && thin)
		ret = ww_hist_thin_locked(h, now, thin == THIN_EXACT);
	if (!ret)
		ret = run(h, HS_COMMIT);
	if (ret) {
		int code = sqlite3_errcode(h->db);

		snprintf(call->why, sizeof(call->why), "%s", sqlite3_errmsg(h->db));
		/* bad pages: the file is moved aside at the next write */
		if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
			h->corrupt = true;
		run(h, HS_ROLLBACK);
		for (size_t i = 0; i < ww_idmap_count(&h->drives); i++) {
			struct hdrive *d = ww_idmap_at(&h->drives, i);

			/* numbers given in the rollback */
			if (d->n && ww_hist_drive_n_locked(h, d->id) <= 0)
				d->n = 0;
		}
		keep_pending(h);
		h->thin_lo[0] = lo[0];
		h->thin_lo[1] = lo[1];
	} else {
		h->n_ps = h->n_pp = 0;
	}
done:
	h->last_flush = now;
	if (thin)
		h->last_maintain = now;
	/* a row that fails again at the next try is counted once */
	call->fn = write_done_locked(h, ret, rows > h->counted ? rows - h->counted : 0, now,
				     &call->ctx);
	h->counted = ret < 0 ? h->n_ps + h->n_pp : 0;
	note_pending_locked(h);
	call->err = ret;
	return ret;
}

static void tell(const struct hook_call *c)
{
	if (c->h)
		ww_hist_tell_notice(c->h, c->now);
	if (c->fn)
		c->fn(c->ctx, c->err, c->what, c->id, c->why, c->now);
}

void ww_hist_write_result_unlock(ww_history_t *h, int ret, const char *what, const char *id,
				 time_t now)
{
	struct hook_call c;

	memset(&c, 0, sizeof(c));
	c.h = h;
	c.now = now;
	c.what = what;
	c.err = ret;
	snprintf(c.id, sizeof(c.id), "%s", id);
	if (ret < 0)
		snprintf(c.why, sizeof(c.why), "%s",
			 h->state == H_WRITABLE && h->db ? sqlite3_errmsg(h->db) : "not writable");
	c.fn = write_done_locked(h, ret, ret < 0, now, &c.ctx);
	pthread_mutex_unlock(&h->lock);
	tell(&c);
}

/* A read's flush (the pending rows must be in the file before it is
 * queried): a failure is counted, and told with the next write. */
int ww_hist_flush_locked(ww_history_t *h)
{
	struct hook_call c;
	time_t now = h->n_ps ? h->ps[h->n_ps - 1].t : h->n_pp ? h->pp[h->n_pp - 1].t :
		     h->last_flush;

	if (h->state != H_WRITABLE) /* the writes' own retries reopen it */
		return -EROFS;
	return flush_locked(h, now, THIN_NONE, &c);
}

int ww_history_flush(ww_history_t *h)
{
	struct hook_call c;
	time_t now;
	int ret;

	if (!h)
		return 0;
	pthread_mutex_lock(&h->lock);
	now = h->n_ps ? h->ps[h->n_ps - 1].t : h->n_pp ? h->pp[h->n_pp - 1].t : h->last_flush;
	ret = flush_locked(h, now, THIN_NONE, &c);
	pthread_mutex_unlock(&h->lock);
	tell(&c);
	return ret;
}

int ww_history_maintain(ww_history_t *h, time_t now)
{
	struct hook_call c;
	int ret;

	pthread_mutex_lock(&h->lock);
	ret = flush_locked(h, now, THIN_EXACT, &c);
	pthread_mutex_unlock(&h->lock);
	tell(&c);
	return ret;
}

/* After a row was queued: write now when the commit interval (or the hourly
 * thinning) is due. Returns the flush's result, 0 when none. */
static int after_queue(ww_history_t *h, time_t now)
{
	struct hook_call c;
	int thin = now - h->last_maintain >= 3600 ? THIN_PERIODIC : THIN_NONE;
	int ret = 0;

	/* after an unclean stop, every row for commit_s: a service killed
	 * again and again keeps what each run collected */
	if (h->unclean && !h->eager_until)
		h->eager_until = now + (time_t)h->cfg.commit_s;
	/* a file that is not writable is tried again every retry_s */
	if (thin || h->cfg.commit_each || now < h->eager_until ||
	    now - h->last_flush >= (time_t)h->cfg.commit_s || now < h->last_flush ||
	    (h->state != H_WRITABLE && now >= h->retry_at)) {
		ret = flush_locked(h, now, thin, &c);
		pthread_mutex_unlock(&h->lock);
		tell(&c);
		return ret;
	}
	note_pending_locked(h);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	void *np;

	if (n < *cap)
		return p;
	np = realloc(p, (*cap ? *cap * 2 : 64) * size);
	if (np)
		*cap = *cap ? *cap * 2 : 64;
	return np;
}

static void set_col(struct psample *p, int c, bool has, int64_t v)
{
	if (has) {
		p->has |= (uint16_t)(1u << c);
		p->v[c] = v;
	}
}

static int64_t clamp(const ww_u64 *v)
{
	return v->value > INT64_MAX ? INT64_MAX : (int64_t)v->value;
}

/* A counter that went backwards starts a new segment. */
static bool went_backwards(const ww_sample_t *prev, const ww_health_t *rec)
{
	if (!rec)
		return false;
	if (prev->has_written && WW_HAS(rec->host_written_bytes) &&
	    rec->host_written_bytes.value < prev->written_bytes)
		return true;
	if (prev->has_poh && WW_HAS(rec->power_on_seconds) &&
	    rec->power_on_seconds.value + 3600 < prev->power_on_seconds) /* hour granularity */
		return true;
	return false;
}

static void fill(struct psample *p, const ww_health_t *rec, bool present)
{
	const ww_u64 *u[] = { rec ? &rec->host_written_bytes : NULL,
			      rec ? &rec->host_read_bytes : NULL,
			      rec ? &rec->endurance_used_percent : NULL };

	for (int c = 0; c < 3; c++)
		set_col(p, c, u[c] && WW_HAS(*u[c]), u[c] ? clamp(u[c]) : 0);
	if (rec) {
		set_col(p, 3, WW_HAS(rec->temperature_celsius), rec->temperature_celsius.value);
		set_col(p, 4, WW_HAS(rec->power_on_seconds), clamp(&rec->power_on_seconds));
		set_col(p, 5, WW_HAS(rec->unsafe_shutdowns), clamp(&rec->unsafe_shutdowns));
		set_col(p, 6, WW_HAS(rec->media_errors), clamp(&rec->media_errors));
		set_col(p, 7, WW_HAS(rec->available_spare_percent),
			clamp(&rec->available_spare_percent));
	}
	set_col(p, 8, true, present);
}

int ww_history_append(ww_history_t *h, const char *id, const ww_health_t *rec, bool present,
		      time_t now, ww_sample_t *latest)
{
	struct hdrive *d;
	struct psample *p;
	void *np;

	pthread_mutex_lock(&h->lock);
	d = ww_hist_drive_locked(h, id, true);
	np = grow(h->ps, &h->cap_ps, h->n_ps, sizeof(*h->ps));
	/* not open: the drive's rows in the file are read after a reopen
	 * (its sample is kept pending meanwhile) */
	if (!d || !np || (h->db && ww_hist_load_locked(h, d) < 0)) {
		struct hook_call c = { 0 };

		if (np)
			h->ps = np;
		c.fn = write_done_locked(h, -EIO, 1, now, &c.ctx);
		c.err = -EIO;
		c.what = "sample";
		snprintf(c.id, sizeof(c.id), "%s", id);
		snprintf(c.why, sizeof(c.why), "%s", d && np ? sqlite3_errmsg(h->db) : "out of memory");
		c.now = now;
		pthread_mutex_unlock(&h->lock);
		tell(&c);
		return -EIO;
	}
	h->ps = np;
	p = &h->ps[h->n_ps++];
	memset(p, 0, sizeof(*p));
	p->d = d;
	p->t = now;
	if (d->has_latest)
		p->segment = d->latest.segment + (went_backwards(&d->latest, rec) ? 1 : 0);
	fill(p, rec, present);
	ww_hist_note_sample(d, p);
	if (latest)
		*latest = d->latest;
	return after_queue(h, now);
}

int ww_history_append_probe(ww_history_t *h, const char *id, const ww_hprobe_t *p,
			    time_t now)
{
	struct hdrive *d;
	void *np;

	if (!h || !id || !p)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	d = ww_hist_drive_locked(h, id, true);
	np = grow(h->pp, &h->cap_pp, h->n_pp, sizeof(*h->pp));
	if (np)
		h->pp = np;
	if (!d || !np) {
		pthread_mutex_unlock(&h->lock);
		return -ENOMEM;
	}
	h->pp[h->n_pp].d = d;
	h->pp[h->n_pp].t = now;
	h->pp[h->n_pp++].p = *p;
	return after_queue(h, now);
}

int ww_history_meta_get(ww_history_t *h, const char *key, int64_t *v)
{
	sqlite3_stmt *st;
	int ret = 0, rc;

	if (!h || !key || !v)
		return -EIO;
	pthread_mutex_lock(&h->lock);
	st = h->state == H_CLOSED ? NULL : ww_hist_stmt(h, HS_META_GET);
	if (!st) {
		pthread_mutex_unlock(&h->lock);
		return -EIO;
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		ret = 1;
	} else if (rc != SQLITE_DONE) {
		ret = -EIO;
	}
	ret = ww_hist_done(st, ret);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

int ww_history_meta_set(ww_history_t *h, const char *key, int64_t v)
{
	sqlite3_stmt *st;
	int ret;

	if (!h || !key)
		return -EIO;
	pthread_mutex_lock(&h->lock);
	if (h->state != H_WRITABLE) {
		pthread_mutex_unlock(&h->lock);
		return -EROFS;
	}
	st = ww_hist_stmt(h, HS_META_SET);
	if (!st) {
		pthread_mutex_unlock(&h->lock);
		return -EIO;
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, v);
	ret = ww_hist_done(st, sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO);
	pthread_mutex_unlock(&h->lock);
	return ret;
}
