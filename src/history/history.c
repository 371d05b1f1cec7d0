/* History in SQLite (contract in history.h). SQLite because it is Debian's
 * well-kept embedded database: crash-safe commits, WAL for readers beside
 * the writer, and integrity_check for tests. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "wearwatch/history.h"
#include "history/query.h"

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
};

/* What the file allows: written and read; only read (a read-only state
 * directory: existing history is served, writes are retried); neither (it
 * could not be opened: retried). */
enum hstate { H_CLOSED, H_READONLY, H_WRITABLE };

#define NOTE_LEN 9216 /* two paths and SQLite's reason */

struct ww_history {
	sqlite3 *db;               /* the writer's connection (read-only in H_READONLY) */
	pthread_mutex_t lock;
	ww_history_cfg_t cfg;
	time_t last_maintain;
	uint64_t write_errors;     /* failed sample/probe writes since open */
	bool write_failing;        /* the last write failed */
	ww_history_error_fn hook;
	void *hook_ctx;
	/* open, degrade, heal */
	char path[4096];
	enum hstate state;
	char why_not[256];         /* why not writable (H_CLOSED, H_READONLY) */
	time_t retry_at;           /* next reopen for writing (append's `now`) */
	time_t moved_at;           /* last corrupt file moved aside, 0 never */
	bool corrupt;              /* a query or write met a corrupt page */
	time_t told_ok_at, ok_since; /* "works again" told; successes since */
	bool ok_pending;           /* works again, not told yet (flapping) */
	char notice[NOTE_LEN];     /* what open_heal did, for the hook (unlocked) */
	/* queries: a connection of their own (WAL readers do not wait for the
	 * writer), serialised by qlock (query.c) */
	sqlite3 *rdb;
	pthread_mutex_t qlock;
};

void ww_history_set_error_hook(ww_history_t *h, ww_history_error_fn fn, void *ctx)
{
	pthread_mutex_lock(&h->lock);
	h->hook = fn;
	h->hook_ctx = ctx;
	pthread_mutex_unlock(&h->lock);
}

uint64_t ww_history_write_errors(ww_history_t *h)
{
	/* read without the lock: every /metrics asks, and a write holds the
	 * lock for its whole transaction (hundreds of ms on a big database) */
	return __atomic_load_n(&h->write_errors, __ATOMIC_RELAXED);
}

/* The end of a write, under the lock: count a failure; returns the hook to
 * call after unlocking (every failure, and a success after them) or NULL.
 * A success is told at once after failures, unless "works again" was told
 * less than WW_HISTORY_FLAP_S ago: writes that fail and work by turns (a
 * file with bad pages, a disk at its limit) are then told to work again
 * only after WW_HISTORY_HEAL_S of successes, not at every poll. */
static ww_history_error_fn write_done_locked(ww_history_t *h, int ret, time_t now, void **ctx)
{
	bool tell = ret < 0;

	if (ret < 0) {
		__atomic_add_fetch(&h->write_errors, 1, __ATOMIC_RELAXED);
		h->ok_since = 0;
	} else if (h->write_failing || h->ok_pending) {
		if (!h->ok_since)
			h->ok_since = now;
		tell = !h->told_ok_at || now - h->told_ok_at >= WW_HISTORY_FLAP_S ||
		       now - h->ok_since >= WW_HISTORY_HEAL_S;
		h->ok_pending = !tell;
		if (tell)
			h->told_ok_at = now;
	}
	if (ret < 0 && h->ok_pending)
		h->ok_pending = false; /* still failing: no "works again" owed */
	h->write_failing = ret < 0;
	*ctx = h->hook_ctx;
	return tell ? h->hook : NULL;
}

/* SQLite's reason for the last failure, before a ROLLBACK replaces it */
static void why_locked(ww_history_t *h, char *why, size_t len)
{
	snprintf(why, len, "%.*s", (int)len - 1, h->db ? sqlite3_errmsg(h->db) : h->why_not);
	/* bad pages: the file is moved aside at the next write (open_heal) */
	if (h->db && (sqlite3_errcode(h->db) == SQLITE_CORRUPT ||
		      sqlite3_errcode(h->db) == SQLITE_NOTADB))
		h->corrupt = true;
}

int ww_hmetric_find(const char *name)
{
	for (int i = 0; name && i < WW_HM_MAX; i++)
		if (!strcmp(ww_hmetrics[i].name, name))
			return i;
	return -1;
}

static const char schema[] =
	"PRAGMA journal_mode=WAL;"
	"PRAGMA synchronous=NORMAL;"
	"CREATE TABLE IF NOT EXISTS samples("
	" drive TEXT NOT NULL, tier INTEGER NOT NULL, t INTEGER NOT NULL,"
	" segment INTEGER NOT NULL,"
	" host_written_bytes INTEGER, host_read_bytes INTEGER,"
	" endurance_used_percent INTEGER, temperature_celsius INTEGER,"
	" power_on_seconds INTEGER, unsafe_shutdowns INTEGER, media_errors INTEGER,"
	" available_spare_percent INTEGER, present INTEGER,"
	" PRIMARY KEY(drive, tier, t)) WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS samples_t ON samples(drive, t);";

/* Migrations by PRAGMA user_version, each in one transaction with the
 * version bump, so a file is either at the old or at the new version. A file
 * written before probe history (version 0) keeps its samples untouched and
 * gains the probe_samples table. */
static const char *const migrations[WW_HISTORY_SCHEMA_VERSION] = {
	/* 0 -> 1: one row per finished probe burst (ww_history_append_probe) */
	"CREATE TABLE IF NOT EXISTS probe_samples("
	" drive TEXT NOT NULL, tier INTEGER NOT NULL, t INTEGER NOT NULL,"
	" p50_seconds REAL, p99_seconds REAL, max_seconds REAL,"
	" reads INTEGER NOT NULL, errors INTEGER NOT NULL,"
	" PRIMARY KEY(drive, tier, t)) WITHOUT ROWID;",
};

static int user_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int migrate(sqlite3 *db, char **err)
{
	int v;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, err) != SQLITE_OK)
		return -1;
	v = user_version(db);
	if (v < 0)
		goto fail;
	for (; v < WW_HISTORY_SCHEMA_VERSION; v++) {
		char bump[64];

		snprintf(bump, sizeof(bump), "PRAGMA user_version=%d", v + 1);
		if (sqlite3_exec(db, migrations[v], NULL, NULL, err) != SQLITE_OK ||
		    sqlite3_exec(db, bump, NULL, NULL, err) != SQLITE_OK)
			goto fail;
	}
	/* a newer file (v > ours) is left as it is: its extra tables are unused */
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, err) == SQLITE_OK)
		return 0;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

#define COLS "host_written_bytes, host_read_bytes, endurance_used_percent, " \
	     "temperature_celsius, power_on_seconds, unsafe_shutdowns, media_errors, " \
	     "available_spare_percent, present"

/* the writer's connection: file created, schema, migrations; SQLite's
 * primary result code, reason in why */
static int open_writer(ww_history_t *h, char *why, size_t len)
{
	char *err = NULL;
	int rc;

	rc = sqlite3_open_v2(h->path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_FULLMUTEX, NULL);
	if (rc == SQLITE_OK)
		sqlite3_busy_timeout(h->db, 5000);
	if (rc == SQLITE_OK && (rc = sqlite3_exec(h->db, schema, NULL, NULL, &err)) == SQLITE_OK &&
	    migrate(h->db, &err) < 0)
		rc = sqlite3_errcode(h->db) ? sqlite3_errcode(h->db) : SQLITE_ERROR;
	if (rc != SQLITE_OK) {
		snprintf(why, len, "%s", err ? err : h->db ? sqlite3_errmsg(h->db) : "cannot open");
		sqlite3_free(err);
		sqlite3_close(h->db);
		h->db = NULL;
	}
	return rc & 0xff;
}

/* a read-only connection that can read the file (trial read); when the
 * directory is read-only, SQLite cannot create the WAL index and a plain
 * read-only open fails, so the file is then opened as immutable (a cleanly
 * closed database has no WAL content left to miss) */
static sqlite3 *open_reader(const char *path)
{
	char uri[3 * 4096 + 32];
	sqlite3 *db = NULL;
	size_t o = 5;

	/* a URI: '%', '?' and '#' of the path escaped */
	memcpy(uri, "file:", 5);
	for (const char *p = path; *p && o < sizeof(uri) - 20; p++)
		o += (size_t)(strchr("%?#", *p) ? snprintf(uri + o, 4, "%%%02x", *p) :
			      (uri[o] = *p, 1));
	uri[o] = '\0';
	for (int k = 0; k < 2; k++) {
		int rc;

		if (k == 1)
			snprintf(uri + o, sizeof(uri) - o, "?immutable=1");
		rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
				     SQLITE_OPEN_FULLMUTEX, NULL);
		/* a file of our schema: an empty one (created on a full disk)
		 * has no history to serve */
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(db, "SELECT 1 FROM samples LIMIT 1", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return db;
		sqlite3_close(db);
		db = NULL;
	}
	return NULL;
}

static void close_all_locked(ww_history_t *h)
{
	pthread_mutex_lock(&h->qlock);
	sqlite3_close(h->rdb);
	h->rdb = NULL;
	pthread_mutex_unlock(&h->qlock);
	sqlite3_close(h->db);
	h->db = NULL;
	h->state = H_CLOSED;
}

/* "<path>.corrupt-<unix time>" with its -wal and -shm beside it: kept for
 * inspection, out of the way of the new database */
static int move_aside_locked(ww_history_t *h, time_t now, char *to, size_t len)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };

	close_all_locked(h);
	snprintf(to, len, "%s.corrupt-%lld", h->path, (long long)now);
	for (int i = 0; i < 3; i++) {
		char a[4200], b[4300];

		snprintf(a, sizeof(a), "%s%s", h->path, suffix[i]);
		snprintf(b, sizeof(b), "%s%s", to, suffix[i]);
		if (rename(a, b) < 0 && errno != ENOENT)
			return -errno;
	}
	return 0;
}

/* Open for writing, else for reading, else nothing (under the lock). A
 * corrupt file (SQLITE_CORRUPT, SQLITE_NOTADB) is moved aside and a new one
 * started, at most once per WW_HISTORY_FLAP_S; `note` says what happened
 * ("" when the file opened for writing as it was). */
static void open_heal_locked(ww_history_t *h, time_t now, char *note, size_t len)
{
	char why[256] = "", to[4300];
	int rc;

	note[0] = '\0';
	close_all_locked(h);
	rc = open_writer(h, why, sizeof(why));
	if ((rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB || h->corrupt) &&
	    (!h->moved_at || now - h->moved_at >= WW_HISTORY_FLAP_S)) {
		if (h->db)
			close_all_locked(h);
		h->moved_at = now;
		h->corrupt = false;
		if (move_aside_locked(h, now, to, sizeof(to)) == 0) {
			snprintf(note, len, "%s: %s: moved to %s, a new database was started",
				 h->path, why[0] ? why : "database disk image is malformed", to);
			rc = open_writer(h, why, sizeof(why));
		}
	}
	if (rc == SQLITE_OK) {
		h->state = H_WRITABLE;
		h->rdb = open_reader(h->path);
		return;
	}
	snprintf(h->why_not, sizeof(h->why_not), "%s", why);
	h->retry_at = now + (time_t)(h->cfg.retry_s ? h->cfg.retry_s : WW_HISTORY_RETRY_S);
	h->db = open_reader(h->path);
	h->rdb = h->db ? open_reader(h->path) : NULL;
	h->state = h->db ? H_READONLY : H_CLOSED;
	snprintf(note + strlen(note), len - strlen(note), "%s%s: %s; %s, opened again for "
		 "writing every %llu s", note[0] ? "; " : "", h->path, why,
		 h->db ? "existing history is served read-only" : "no history until then",
		 (unsigned long long)(h->cfg.retry_s ? h->cfg.retry_s : WW_HISTORY_RETRY_S));
}

/* Before a write (under the lock): reopen when not writable and the retry
 * is due, or when a corrupt page was met. True when the write may go on
 * (it may still fail: a read-only connection refuses it, and that failure
 * is counted like any other). */
static bool writable_locked(ww_history_t *h, time_t now, char *why, size_t len)
{
	char note[NOTE_LEN];

	if ((h->state != H_WRITABLE && now >= h->retry_at) ||
	    (h->corrupt && (!h->moved_at || now - h->moved_at >= WW_HISTORY_FLAP_S))) {
		open_heal_locked(h, now, note, sizeof(note));
		snprintf(h->notice, sizeof(h->notice), "%s", note);
	}
	if (!h->db)
		snprintf(why, len, "%.*s", (int)len - 1, h->why_not);
	return h->db != NULL;
}

/* what a reopen did, to the hook, without the lock */
static void tell_notice(ww_history_t *h, time_t now)
{
	char note[sizeof(h->notice)];
	ww_history_error_fn hook;
	void *ctx;
	bool writable;

	pthread_mutex_lock(&h->lock);
	snprintf(note, sizeof(note), "%s", h->notice);
	h->notice[0] = '\0';
	hook = h->hook;
	ctx = h->hook_ctx;
	writable = h->state == H_WRITABLE;
	pthread_mutex_unlock(&h->lock);
	if (note[0] && hook)
		hook(ctx, writable ? 0 : -EROFS, "database", NULL, note, now);
}

int ww_history_open(const char *path, const ww_history_cfg_t *cfg, ww_history_t **out,
		    char *errmsg, size_t errlen)
{
	ww_history_t *h = calloc(1, sizeof(*h));
	char note[NOTE_LEN];

	*out = NULL;
	if (errmsg && errlen)
		errmsg[0] = '\0';
	if (!h)
		return -ENOMEM;
	if (strlen(path) >= sizeof(h->path)) {
		free(h);
		return -ENAMETOOLONG;
	}
	snprintf(h->path, sizeof(h->path), "%s", path);
	if (cfg)
		h->cfg = *cfg;
	if (!h->cfg.raw_s)
		h->cfg.raw_s = WW_HISTORY_RAW_S;
	if (!h->cfg.hourly_s)
		h->cfg.hourly_s = WW_HISTORY_HOURLY_S;
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->qlock, NULL);
	open_heal_locked(h, time(NULL), note, sizeof(note));
	h->retry_at = 0; /* the first write tries again, on the writes' clock */
	if (errmsg)
		snprintf(errmsg, errlen, "%s", note);
	*out = h;
	return 0;
}

void ww_history_close(ww_history_t *h)
{
	if (!h)
		return;
	close_all_locked(h);
	pthread_mutex_destroy(&h->qlock);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

bool ww_history_writable(ww_history_t *h)
{
	bool w;

	pthread_mutex_lock(&h->lock);
	w = h->state == H_WRITABLE;
	pthread_mutex_unlock(&h->lock);
	return w;
}

unsigned ww_history_query_budget_ms(ww_history_t *h)
{
	return h->cfg.query_budget_ms ? h->cfg.query_budget_ms : WW_HISTORY_QUERY_BUDGET_MS;
}

sqlite3 *ww_history_reader_lock(ww_history_t *h)
{
	pthread_mutex_lock(&h->qlock);
	return h->rdb;
}

void ww_history_reader_unlock(ww_history_t *h, int sqlite_rc)
{
	if (sqlite_rc == SQLITE_CORRUPT || sqlite_rc == SQLITE_NOTADB)
		__atomic_store_n(&h->corrupt, true, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&h->qlock);
}

static void bind_u64(sqlite3_stmt *st, int i, const ww_u64 *v)
{
	if (v && WW_HAS(*v))
		sqlite3_bind_int64(st, i, v->value > INT64_MAX ? INT64_MAX : (int64_t)v->value);
	else
		sqlite3_bind_null(st, i);
}

static void row_to_sample(sqlite3_stmt *st, int c0, ww_sample_t *s)
{
	/* c0: t, segment, written, poh, media_errors */
	memset(s, 0, sizeof(*s));
	s->t = (time_t)sqlite3_column_int64(st, c0);
	s->segment = sqlite3_column_int64(st, c0 + 1);
	if ((s->has_written = sqlite3_column_type(st, c0 + 2) != SQLITE_NULL))
		s->written_bytes = (uint64_t)sqlite3_column_int64(st, c0 + 2);
	if ((s->has_poh = sqlite3_column_type(st, c0 + 3) != SQLITE_NULL))
		s->power_on_seconds = (uint64_t)sqlite3_column_int64(st, c0 + 3);
	if ((s->has_media_errors = sqlite3_column_type(st, c0 + 4) != SQLITE_NULL))
		s->media_errors = (uint64_t)sqlite3_column_int64(st, c0 + 4);
}

#define SAMPLE_COLS "t, segment, host_written_bytes, power_on_seconds, media_errors"

static int latest_locked(ww_history_t *h, const char *id, ww_sample_t *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, "SELECT " SAMPLE_COLS " FROM samples WHERE drive=?1"
			       " ORDER BY t DESC, tier ASC LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		row_to_sample(st, 0, out);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

int ww_history_latest(ww_history_t *h, const char *id, ww_sample_t *out)
{
	int rc;

	pthread_mutex_lock(&h->lock);
	rc = latest_locked(h, id, out);
	pthread_mutex_unlock(&h->lock);
	return rc;
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

int ww_history_append(ww_history_t *h, const char *id, const ww_health_t *rec, bool present,
		      time_t now, ww_sample_t *latest)
{
	sqlite3_stmt *st = NULL;
	ww_sample_t prev;
	int64_t segment = 0;
	int rc, ret = -EIO;
	char why[160] = "";
	ww_history_error_fn hook;
	void *hook_ctx;

	pthread_mutex_lock(&h->lock);
	if (!writable_locked(h, now, why, sizeof(why)))
		goto out;
	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		why_locked(h, why, sizeof(why));
		goto out;
	}
	rc = latest_locked(h, id, &prev);
	if (rc < 0)
		goto rollback;
	if (rc == 1)
		segment = prev.segment + (went_backwards(&prev, rec) ? 1 : 0);
	if (sqlite3_prepare_v2(h->db, "INSERT OR REPLACE INTO samples(drive, tier, t, segment, " COLS
			       ") VALUES(?1, 0, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
			       -1, &st, NULL) != SQLITE_OK)
		goto rollback;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, segment);
	bind_u64(st, 4, rec ? &rec->host_written_bytes : NULL);
	bind_u64(st, 5, rec ? &rec->host_read_bytes : NULL);
	bind_u64(st, 6, rec ? &rec->endurance_used_percent : NULL);
	if (rec && WW_HAS(rec->temperature_celsius))
		sqlite3_bind_int64(st, 7, rec->temperature_celsius.value);
	else
		sqlite3_bind_null(st, 7);
	bind_u64(st, 8, rec ? &rec->power_on_seconds : NULL);
	bind_u64(st, 9, rec ? &rec->unsafe_shutdowns : NULL);
	bind_u64(st, 10, rec ? &rec->media_errors : NULL);
	bind_u64(st, 11, rec ? &rec->available_spare_percent : NULL);
	sqlite3_bind_int(st, 12, present);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto rollback;
	if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto rollback;
	ret = 0;
	if (latest) {
		memset(latest, 0, sizeof(*latest));
		latest->t = now;
		latest->segment = segment;
		if (rec && (latest->has_written = WW_HAS(rec->host_written_bytes)))
			latest->written_bytes = rec->host_written_bytes.value;
		if (rec && (latest->has_poh = WW_HAS(rec->power_on_seconds)))
			latest->power_on_seconds = rec->power_on_seconds.value;
		if (rec && (latest->has_media_errors = WW_HAS(rec->media_errors)))
			latest->media_errors = rec->media_errors.value;
	}
	goto out;
rollback:
	why_locked(h, why, sizeof(why));
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(st);
	hook = write_done_locked(h, ret, now, &hook_ctx);
	pthread_mutex_unlock(&h->lock);
	tell_notice(h, now);
	if (hook)
		hook(hook_ctx, ret, "sample", id, why, now);
	if (ret == 0 && now - h->last_maintain >= 3600)
		ww_history_maintain(h, now);
	return ret;
}

int ww_history_append_probe(ww_history_t *h, const char *id, const ww_hprobe_t *p,
			    time_t now)
{
	sqlite3_stmt *st = NULL;
	int ret = -EIO;
	char why[160] = "";
	ww_history_error_fn hook;
	void *hook_ctx;

	if (!h || !id || !p)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	if (writable_locked(h, now, why, sizeof(why)) &&
	    sqlite3_prepare_v2(h->db, "INSERT OR REPLACE INTO probe_samples(drive, tier, t,"
			       " p50_seconds, p99_seconds, max_seconds, reads, errors)"
			       " VALUES(?1, 0, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, now);
		for (int i = 0; i < 3; i++) {
			double v = i == 0 ? p->p50_s : i == 1 ? p->p99_s : p->max_s;

			if (p->has_latency)
				sqlite3_bind_double(st, 3 + i, v);
			else
				sqlite3_bind_null(st, 3 + i);
		}
		sqlite3_bind_int64(st, 6, p->reads);
		sqlite3_bind_int64(st, 7, p->errors);
		if (sqlite3_step(st) == SQLITE_DONE) /* autocommit: one transaction */
			ret = 0;
	}
	if (ret < 0 && h->db)
		why_locked(h, why, sizeof(why));
	sqlite3_finalize(st);
	hook = write_done_locked(h, ret, now, &hook_ctx);
	pthread_mutex_unlock(&h->lock);
	tell_notice(h, now);
	if (hook)
		hook(hook_ctx, ret, "probe burst", id, why, now);
	if (ret == 0 && now - h->last_maintain >= 3600)
		ww_history_maintain(h, now);
	return ret;
}

int ww_history_baseline(ww_history_t *h, const char *id, int64_t segment, time_t from,
			ww_sample_t *out)
{
	sqlite3_stmt *st;
	int rc;

	pthread_mutex_lock(&h->lock);
	rc = sqlite3_prepare_v2(h->db, "SELECT " SAMPLE_COLS " FROM samples WHERE drive=?1"
				" AND segment=?2 AND t>=?3 AND host_written_bytes IS NOT NULL"
				" ORDER BY t ASC LIMIT 1", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, segment);
		sqlite3_bind_int64(st, 3, from);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			row_to_sample(st, 0, out);
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&h->lock);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

/* Promote the last sample of each `bucket` seconds of tier `from` older than
 * cut to tier from + 1, then drop tier `from` older than cut. */
static int thin(ww_history_t *h, int from, time_t cut, int64_t bucket)
{
	char sql[1024];

	/* only whole buckets, so each is promoted once */
	cut = cut / bucket * bucket;
	snprintf(sql, sizeof(sql),
		 "INSERT OR REPLACE INTO samples(drive, tier, t, segment, " COLS ")"
		 " SELECT drive, %d, t, segment, " COLS " FROM samples s WHERE tier=%d AND t<%lld"
		 " AND t=(SELECT max(t) FROM samples s2 WHERE s2.drive=s.drive AND s2.tier=%d"
		 " AND s2.t<%lld AND s2.t/%lld=s.t/%lld);"
		 "DELETE FROM samples WHERE tier=%d AND t<%lld;",
		 from + 1, from, (long long)cut, from, (long long)cut, (long long)bucket,
		 (long long)bucket, from, (long long)cut);
	return sqlite3_exec(h->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

/* Probe bursts of tier `from` older than cut, whole buckets only, become one
 * row of tier from + 1 at the bucket's last burst time: mean p50/p99 (NULLs
 * of all-error bursts ignored), largest max, summed reads and errors. */
static int thin_probe(ww_history_t *h, int from, time_t cut, int64_t bucket)
{
	char sql[1024];

	cut = cut / bucket * bucket;
	snprintf(sql, sizeof(sql),
		 "INSERT OR REPLACE INTO probe_samples(drive, tier, t, p50_seconds, p99_seconds,"
		 " max_seconds, reads, errors)"
		 " SELECT drive, %d, max(t), avg(p50_seconds), avg(p99_seconds), max(max_seconds),"
		 " sum(reads), sum(errors) FROM probe_samples WHERE tier=%d AND t<%lld"
		 " GROUP BY drive, t/%lld;"
		 "DELETE FROM probe_samples WHERE tier=%d AND t<%lld;",
		 from + 1, from, (long long)cut, (long long)bucket, from, (long long)cut);
	return sqlite3_exec(h->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

int ww_history_maintain(ww_history_t *h, time_t now)
{
	int rc;

	pthread_mutex_lock(&h->lock);
	h->last_maintain = now;
	if (h->state != H_WRITABLE) {
		pthread_mutex_unlock(&h->lock);
		return -EROFS;
	}
	rc = sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
	if (!rc)
		rc = thin(h, 0, now - (time_t)h->cfg.raw_s, ww_history_tier_s[1]);
	if (!rc)
		rc = thin(h, 1, now - (time_t)h->cfg.hourly_s, ww_history_tier_s[2]);
	if (!rc)
		rc = thin_probe(h, 0, now - (time_t)h->cfg.raw_s, ww_history_tier_s[1]);
	if (!rc)
		rc = thin_probe(h, 1, now - (time_t)h->cfg.hourly_s, ww_history_tier_s[2]);
	if (!rc && h->cfg.keep_s) {
		char sql[160];

		snprintf(sql, sizeof(sql), "DELETE FROM samples WHERE t<%lld;"
			 "DELETE FROM probe_samples WHERE t<%lld;",
			 (long long)(now - (time_t)h->cfg.keep_s),
			 (long long)(now - (time_t)h->cfg.keep_s));
		rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
	}
	sqlite3_exec(h->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

static int count_rows(ww_history_t *h, const char *table, const char *id, long counts[3])
{
	sqlite3_stmt *st;
	char sql[128];
	int rc;

	counts[0] = counts[1] = counts[2] = 0;
	snprintf(sql, sizeof(sql), "SELECT tier, count(*) FROM %s WHERE drive=?1 GROUP BY tier",
		 table);
	pthread_mutex_lock(&h->lock);
	rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int tier = sqlite3_column_int(st, 0);

			if (tier >= 0 && tier < 3)
				counts[tier] = sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&h->lock);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int ww_history_count(ww_history_t *h, const char *id, long counts[3])
{
	return count_rows(h, "samples", id, counts);
}

int ww_history_count_probe(ww_history_t *h, const char *id, long counts[3])
{
	return count_rows(h, "probe_samples", id, counts);
}
