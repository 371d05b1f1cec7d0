/* Opening the history file, and what happens when it cannot be written
 * (contract in history.h: degrade, then heal): the schema and its
 * migrations, the writer's and the queries' connections, a read-only or
 * missing file retried, a corrupt one moved aside. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "wearwatch/basic.h"
#include "history/priv.h"

/* The file as version 0 wrote it (a new file starts there and migrates). */
static const char schema_v0[] =
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
 * version bump, so a file is either at the old or at the new version. */
static const char *const migrations[WW_HISTORY_SCHEMA_VERSION] = {
	/* 0 -> 1: one row per finished probe burst (ww_history_append_probe) */
	"CREATE TABLE IF NOT EXISTS probe_samples("
	" drive TEXT NOT NULL, tier INTEGER NOT NULL, t INTEGER NOT NULL,"
	" p50_seconds REAL, p99_seconds REAL, max_seconds REAL,"
	" reads INTEGER NOT NULL, errors INTEGER NOT NULL,"
	" PRIMARY KEY(drive, tier, t)) WITHOUT ROWID;",
	/* 1 -> 2: rows keyed by (drive number, t): one b-tree per table instead
	 * of a table and an index each keyed by the drive's name, so a row is
	 * about 45 bytes instead of 150 and a commit touches half the pages; a
	 * drive's rows in time order are one range of the key (latest, window
	 * baseline, history query and thinning are index searches). A time has
	 * one row (the finest tier: thinning never leaves two). `samples` and
	 * `probe_samples` stay as views with the old columns, and inserts into
	 * them work as before (scripts seed history that way). */
	"ALTER TABLE samples RENAME TO samples_v1;"
	"ALTER TABLE probe_samples RENAME TO probe_samples_v1;"
	"CREATE TABLE drives(n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);"
	"CREATE TABLE sample_rows(n INTEGER NOT NULL, t INTEGER NOT NULL, tier INTEGER NOT NULL,"
	" segment INTEGER NOT NULL, host_written_bytes INTEGER, host_read_bytes INTEGER,"
	" endurance_used_percent INTEGER, temperature_celsius INTEGER,"
	" power_on_seconds INTEGER, unsafe_shutdowns INTEGER, media_errors INTEGER,"
	" available_spare_percent INTEGER, present INTEGER,"
	" PRIMARY KEY(n, t)) WITHOUT ROWID;"
	"CREATE TABLE probe_rows(n INTEGER NOT NULL, t INTEGER NOT NULL, tier INTEGER NOT NULL,"
	" p50_seconds REAL, p99_seconds REAL, max_seconds REAL,"
	" reads INTEGER NOT NULL, errors INTEGER NOT NULL, PRIMARY KEY(n, t)) WITHOUT ROWID;"
	"CREATE TABLE meta(k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;"
	"INSERT INTO drives(id) SELECT drive FROM samples_v1 UNION SELECT drive FROM probe_samples_v1;"
	"INSERT OR REPLACE INTO sample_rows SELECT d.n, s.t, s.tier, s.segment, " COLS
	" FROM samples_v1 s JOIN drives d ON d.id = s.drive ORDER BY d.n, s.t, s.tier DESC;"
	"INSERT OR REPLACE INTO probe_rows SELECT d.n, p.t, p.tier, " PCOLS
	" FROM probe_samples_v1 p JOIN drives d ON d.id = p.drive ORDER BY d.n, p.t, p.tier DESC;"
	"DROP TABLE samples_v1;"
	"DROP TABLE probe_samples_v1;"
	"CREATE VIEW samples AS SELECT d.id AS drive, r.tier, r.t, r.segment, " COLS
	" FROM sample_rows r JOIN drives d USING (n);"
	"CREATE VIEW probe_samples AS SELECT d.id AS drive, r.tier, r.t, " PCOLS
	" FROM probe_rows r JOIN drives d USING (n);"
	"CREATE TRIGGER samples_insert INSTEAD OF INSERT ON samples BEGIN"
	" INSERT INTO drives(id) SELECT NEW.drive WHERE NOT EXISTS"
	"  (SELECT 1 FROM drives WHERE id = NEW.drive);"
	" INSERT OR REPLACE INTO sample_rows VALUES((SELECT n FROM drives WHERE id = NEW.drive),"
	"  NEW.t, NEW.tier, NEW.segment, NEW.host_written_bytes, NEW.host_read_bytes,"
	"  NEW.endurance_used_percent, NEW.temperature_celsius, NEW.power_on_seconds,"
	"  NEW.unsafe_shutdowns, NEW.media_errors, NEW.available_spare_percent, NEW.present);"
	"END;"
	"CREATE TRIGGER probe_samples_insert INSTEAD OF INSERT ON probe_samples BEGIN"
	" INSERT INTO drives(id) SELECT NEW.drive WHERE NOT EXISTS"
	"  (SELECT 1 FROM drives WHERE id = NEW.drive);"
	" INSERT OR REPLACE INTO probe_rows VALUES((SELECT n FROM drives WHERE id = NEW.drive),"
	"  NEW.t, NEW.tier, NEW.p50_seconds, NEW.p99_seconds, NEW.max_seconds, NEW.reads,"
	"  NEW.errors);"
	"END;",
	/* 2 -> 3: one row per latency-drift burst (ww_history_append_drift),
	 * bounded per drive by the append itself */
	"CREATE TABLE IF NOT EXISTS drift_rows(n INTEGER NOT NULL, t INTEGER NOT NULL,"
	" p50_seconds REAL, p99_seconds REAL, mean_seconds REAL, reads INTEGER NOT NULL,"
	" errors INTEGER NOT NULL, base_p99_seconds REAL, base_n INTEGER NOT NULL,"
	" in_baseline INTEGER NOT NULL, PRIMARY KEY(n, t)) WITHOUT ROWID;",
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
	if (v < 0 || (v == 0 && sqlite3_exec(db, schema_v0, NULL, NULL, err) != SQLITE_OK))
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

/* the last thinning cut of tier k (0 when never: the first pass looks at
 * every row once) */
static time_t meta_get(ww_history_t *h, const char *k)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_META_GET);
	time_t v = 0;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, k, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = (time_t)sqlite3_column_int64(st, 0);
	return ww_hist_done(st, v);
}

/* meta "running" is 1 from the first open for writing to a clean close: a 1
 * at open means the last process was killed (kill -9, a crash, power
 * loss), so samples of its last minutes were lost and it may be looping;
 * its successor then commits every sample for commit_s seconds
 * (history.h). A failure to mark only costs that. */
static void mark_running(ww_history_t *h)
{
	sqlite3_stmt *st;

	if (h->marked) /* a reopen by this process: its own mark */
		return;
	if (meta_get(h, "running"))
		h->unclean = true;
	st = ww_hist_stmt(h, HS_META_SET);
	if (!st)
		return;
	sqlite3_bind_text(st, 1, "running", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, 1);
	h->marked = ww_hist_done(st, sqlite3_step(st)) == SQLITE_DONE;
}

/* the mark cleared after the last commit of a clean close */
static void mark_stopped(ww_history_t *h)
{
	sqlite3_stmt *st;

	pthread_mutex_lock(&h->lock);
	st = h->marked && !h->n_ps && !h->n_pp && h->state == H_WRITABLE
		? ww_hist_stmt(h, HS_META_SET)
		: NULL;
	if (st) {
		sqlite3_bind_text(st, 1, "running", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, 0);
		ww_hist_done(st, sqlite3_step(st));
	}
	pthread_mutex_unlock(&h->lock);
}

/* Page size of the file. A commit writes every page it changed, whole,
 * twice (WAL, then checkpoint), and appending a drive's hour of samples
 * changes a few leaf pages per table plus their parents whatever their size:
 * 1 KiB pages write a quarter of the bytes of SQLite's default 4 KiB. */
#define PAGE_SIZE "1024"

/* Frames the WAL holds before they are copied into the file (default 1000):
 * the pages a commit changes are mostly the ones the previous commit changed
 * (each drive's newest rows), and a checkpoint writes each page once however
 * often it changed since the last one; 16 MiB of WAL at most. */
#define CHECKPOINT_PAGES "16384"

/* Page cache of the connection (SQLite's default: 2 MiB). A collection
 * reads nothing from the file (memory, see priv.h) but the pages its baseline
 * searches and the hourly commit touch: a few per drive. */
#define CACHE_KIB "-512"

/* A file made with other pages is rewritten once (VACUUM needs the rollback
 * journal); when that fails it stays as it is and works the same. */
static void small_pages(sqlite3 *db)
{
	sqlite3_stmt *st;
	int size = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		size = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (size == atoi(PAGE_SIZE))
		return;
	sqlite3_exec(db, "PRAGMA journal_mode=DELETE; PRAGMA page_size=" PAGE_SIZE "; VACUUM;",
		     NULL, NULL, NULL);
	sqlite3_exec(db, "PRAGMA journal_mode=WAL;", NULL, NULL, NULL);
}

static void defaults(ww_history_t *h, const ww_history_cfg_t *cfg)
{
	if (cfg)
		h->cfg = *cfg;
	if (!h->cfg.raw_s)
		h->cfg.raw_s = WW_HISTORY_RAW_S;
	if (!h->cfg.hourly_s)
		h->cfg.hourly_s = WW_HISTORY_HOURLY_S;
	if (!h->cfg.commit_s)
		h->cfg.commit_s = WW_HISTORY_COMMIT_S;
	if (!h->cfg.retry_s)
		h->cfg.retry_s = WW_HISTORY_RETRY_S;
	if (!h->cfg.query_budget_ms)
		h->cfg.query_budget_ms = WW_HISTORY_QUERY_BUDGET_MS;
}

/* The writer's connection: file created, settings, migrations. SQLite's
 * primary result code; its reason in why. */
static int open_writer(ww_history_t *h, char *why, size_t len)
{
	char *err = NULL;
	int rc = ww_check_regular(h->path);

	/* SQLite's open of a FIFO waits for a writer, holding the history's
	 * lock (and with it every collection) for good */
	if (rc && rc != -ENOENT) {
		snprintf(why, len, "%s", rc == -EISDIR ? "a directory, not a database file" :
			 "not a regular file");
		return SQLITE_CANTOPEN;
	}
	/* WAL: a commit appends its pages, readers beside the writer;
	 * synchronous=NORMAL: no fsync per commit (kill -9 keeps what was
	 * committed; power loss may drop the last commits, never corrupts) */
	rc = sqlite3_open_v2(h->path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_FULLMUTEX, NULL);
	if (rc == SQLITE_OK)
		sqlite3_busy_timeout(h->db, 5000);
	if (rc == SQLITE_OK &&
	    (rc = sqlite3_exec(h->db, "PRAGMA page_size=" PAGE_SIZE "; PRAGMA journal_mode=WAL;"
			       " PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint="
			       CHECKPOINT_PAGES "; PRAGMA cache_size=" CACHE_KIB ";",
			       NULL, NULL, &err)) == SQLITE_OK &&
	    migrate(h->db, &err) < 0)
		rc = sqlite3_errcode(h->db) ? sqlite3_errcode(h->db) : SQLITE_ERROR;
	if (rc != SQLITE_OK) {
		snprintf(why, len, "%s", err ? err : h->db ? sqlite3_errmsg(h->db) : "cannot open");
		sqlite3_free(err);
		sqlite3_close(h->db);
		h->db = NULL;
		return rc & 0xff;
	}
	small_pages(h->db);
	ww_hist_changed_locked(h);
	h->thin_lo[0] = meta_get(h, "thin0");
	h->thin_lo[1] = meta_get(h, "thin1");
	mark_running(h);
	return SQLITE_OK;
}

/* A read-only connection that can read the file (a trial read). When the
 * directory is read-only SQLite cannot create the WAL index and a plain
 * read-only open fails, so the file is then opened as immutable (a cleanly
 * closed database has no WAL content left to miss). */
static sqlite3 *open_reader(const char *path)
{
	char uri[3 * 4096 + 32];
	sqlite3 *db = NULL;
	size_t o = 5;

	if (ww_check_regular(path))
		return NULL;

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
			rc = sqlite3_exec(db, "PRAGMA cache_size=" CACHE_KIB ";"
					  " SELECT 1 FROM sample_rows LIMIT 1", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return db;
		sqlite3_close(db);
		db = NULL;
	}
	return NULL;
}

/* Both connections closed; what memory holds of the file (drive numbers,
 * latest samples, baselines) is read again from the next one. Pending rows
 * stay. */
static void close_all_locked(ww_history_t *h)
{
	pthread_mutex_lock(&h->qlock);
	sqlite3_close(h->rdb);
	h->rdb = NULL;
	pthread_mutex_unlock(&h->qlock);
	for (int i = 0; i < HS_MAX; i++) {
		sqlite3_finalize(h->st[i]);
		h->st[i] = NULL;
	}
	sqlite3_close(h->db);
	h->db = NULL;
	if (h->wal_fd >= 0)
		close(h->wal_fd);
	h->wal_fd = -1;
	h->wal_known = false;
	h->state = H_CLOSED;
	ww_hist_forget_locked(h, 0, true);
	for (size_t i = 0; i < ww_idmap_count(&h->drives); i++)
		((struct hdrive *)ww_idmap_at(&h->drives, i))->n = 0;
}

/* "<path>.corrupt-<unix time>" with its -wal and -shm beside it: kept for
 * inspection, out of the way of the new database */
static int move_aside_locked(ww_history_t *h, time_t now, char *to, size_t len)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };

	close_all_locked(h);
	/* a name no earlier move took (two in one second: "-2", ...) */
	snprintf(to, len, "%s.corrupt-%lld", h->path, (long long)now);
	for (int k = 2; access(to, F_OK) == 0 && k < 100; k++)
		snprintf(to, len, "%s.corrupt-%lld-%d", h->path, (long long)now, k);
	for (int i = 0; i < 3; i++) {
		char a[4200], b[4400];

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
	char why[256] = "", to[4400];
	int rc;

	note[0] = '\0';
	close_all_locked(h);
	rc = open_writer(h, why, sizeof(why));
	if ((rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB || h->corrupt) &&
	    (!h->moved_at || now - h->moved_at >= WW_HISTORY_FLAP_S)) {
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
	h->retry_at = now + (time_t)h->cfg.retry_s;
	h->db = open_reader(h->path);
	h->rdb = h->db ? open_reader(h->path) : NULL;
	h->state = h->db ? H_READONLY : H_CLOSED;
	snprintf(note + strlen(note), len - strlen(note), "%s%s: %s; %s, opened again for "
		 "writing every %llu s", note[0] ? "; " : "", h->path, why,
		 h->db ? "existing history is served read-only" : "no history until then",
		 (unsigned long long)h->cfg.retry_s);
}

/* Before a write (under the lock): reopen when not writable and the retry
 * is due, or when a corrupt page was met. True when the file is writable. */
bool ww_hist_writable_locked(ww_history_t *h, time_t now)
{
	if ((h->state != H_WRITABLE && now >= h->retry_at) ||
	    (h->corrupt && (!h->moved_at || now - h->moved_at >= WW_HISTORY_FLAP_S))) {
		enum hstate before = h->state;
		char note[WW_HNOTE_LEN];

		open_heal_locked(h, now, note, sizeof(note));
		/* told once per change: a retry that fails as before is not */
		if (h->state != before || h->moved_at == now)
			snprintf(h->notice, sizeof(h->notice), "%s", note);
	}
	return h->state == H_WRITABLE;
}

/* what a reopen did, to the hook, without the lock */
void ww_hist_tell_notice(ww_history_t *h, time_t now)
{
	char note[WW_HNOTE_LEN];
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

	*out = NULL;
	if (errmsg && errlen)
		errmsg[0] = '\0';
	if (!h)
		return -ENOMEM;
	h->wal_fd = -1;
	if (strlen(path) >= sizeof(h->path)) {
		free(h);
		return -ENAMETOOLONG;
	}
	snprintf(h->path, sizeof(h->path), "%s", path);
	ww_hist_drives_init(h);
	defaults(h, cfg);
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->qlock, NULL);
	open_heal_locked(h, ww_clock_wall(NULL), h->notice, sizeof(h->notice));
	if (errmsg)
		snprintf(errmsg, errlen, "%s", h->notice);
	h->notice[0] = '\0';
	h->retry_at = 0; /* the first write tries again, on the writes' clock */
	*out = h;
	return 0;
}

void ww_history_close(ww_history_t *h)
{
	if (!h)
		return;
	ww_history_flush(h);
	mark_stopped(h);
	close_all_locked(h);
	ww_hist_drives_free(h);
	free(h->ps);
	free(h->pp);
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

unsigned ww_hist_query_budget_ms(ww_history_t *h)
{
	return h->cfg.query_budget_ms;
}

sqlite3 *ww_hist_reader_lock(ww_history_t *h)
{
	pthread_mutex_lock(&h->qlock);
	return h->rdb;
}

void ww_hist_reader_unlock(ww_history_t *h, int sqlite_rc)
{
	/* a corrupt page: the file is moved aside at the next write */
	if (sqlite_rc == SQLITE_CORRUPT || sqlite_rc == SQLITE_NOTADB)
		__atomic_store_n(&h->corrupt, true, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&h->qlock);
}
