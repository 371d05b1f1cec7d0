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
};

int ww_hmetric_find(const char *name)
{
	for (int i = 0; name && i < WW_HM_MAX; i++)
		if (!strcmp(ww_hmetrics[i].name, name))
			return i;
	return -1;
}

#define COLS "host_written_bytes, host_read_bytes, endurance_used_percent, " \
	     "temperature_celsius, power_on_seconds, unsafe_shutdowns, media_errors, " \
	     "available_spare_percent, present"
#define SAMPLE_COLS "t, segment, host_written_bytes, power_on_seconds, media_errors"
#define PCOLS "p50_seconds, p99_seconds, max_seconds, reads, errors"

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
};

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
	[HS_BASELINE_AHEAD] = "SELECT " SAMPLE_COLS " FROM sample_rows WHERE n=?1 AND t>=?3"
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
		     " OR EXISTS(SELECT 1 FROM probe_rows WHERE n=?1)",
};

/* probe_rows column of each WW_HM_PROBE_* metric */
static const char *const probe_cols[] = { "p50_seconds", "p99_seconds", "max_seconds" };

/* History queries, two per metric: the rows of [?2, ?3] oldest first (at
 * most ?4), and the same rows in ?4 buckets of a range ?5 seconds long.
 * Columns: t, value, segment (then, bucketed, the mean and the largest
 * value). In a bucket, max(t) is the only min/max aggregate of a counter's
 * or a plain gauge's query, so SQLite takes value and segment from the row
 * it picks: the bucket's last; a bucket_max gauge adds max(value) and uses
 * only that. */
static char query_sql[2 * WW_HM_MAX][320];
static pthread_once_t query_once = PTHREAD_ONCE_INIT;

static void make_queries(void)
{
	for (int m = 0; m < WW_HM_MAX; m++) {
		bool probe = m >= WW_HM_PROBE_P50;
		const char *col = probe ? probe_cols[m - WW_HM_PROBE_P50] : ww_hmetrics[m].name;
		const char *seg = probe ? "0" : "segment";
		const char *table = probe ? "probe_rows" : "sample_rows";

		snprintf(query_sql[m], sizeof(query_sql[m]), "SELECT t, %s, %s FROM %s WHERE n=?1"
			 " AND t>=?2 AND t<=?3 ORDER BY t LIMIT ?4", col, seg, table);
		snprintf(query_sql[WW_HM_MAX + m], sizeof(query_sql[0]),
			 "SELECT max(t), %s, %s, avg(%s), %s%s%s FROM %s WHERE n=?1 AND t>=?2"
			 " AND t<=?3 GROUP BY (t - ?2) * ?4 / ?5 ORDER BY 1", col, seg, col,
			 ww_hmetrics[m].bucket_max ? "max(" : "NULL",
			 ww_hmetrics[m].bucket_max ? col : "",
			 ww_hmetrics[m].bucket_max ? ")" : "", table);
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
	int rc;

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
	h->state = H_CLOSED;
	ww_hist_forget_locked(h, 0, true);
	for (size_t i = 0; i < h->n_drives; i++)
		h->drives[i]->n = 0;
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
static bool writable_locked(ww_history_t *h, time_t now)
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
static void tell_notice(ww_history_t *h, time_t now)
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
	if (strlen(path) >= sizeof(h->path)) {
		free(h);
		return -ENAMETOOLONG;
	}
	snprintf(h->path, sizeof(h->path), "%s", path);
	defaults(h, cfg);
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->qlock, NULL);
	open_heal_locked(h, time(NULL), h->notice, sizeof(h->notice));
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

static void bind_v(sqlite3_stmt *st, int i, const struct psample *p, int c)
{
	if (p->has & (1u << c))
		sqlite3_bind_int64(st, i, p->v[c]);
	else
		sqlite3_bind_null(st, i);
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
		sqlite3_bind_int64(st, 1, p->d->n);
		sqlite3_bind_int64(st, 2, p->t);
		sqlite3_bind_int64(st, 3, p->segment);
		for (int c = 0; c < WW_HS_COLS; c++)
			bind_v(st, 4 + c, p, c);
		if (ww_hist_done(st, sqlite3_step(st)) != SQLITE_DONE)
			return -EIO;
	}
	for (size_t i = 0; i < h->n_pp; i++) {
		const struct pprobe *p = &h->pp[i];
		const double q[3] = { p->p.p50_s, p->p.p99_s, p->p.max_s };

		if (number_drives(h, p->d) || !(st = ww_hist_stmt(h, HS_PINSERT)))
			return -EIO;
		sqlite3_bind_int64(st, 1, p->d->n);
		sqlite3_bind_int64(st, 2, p->t);
		for (int k = 0; k < 3; k++)
			if (p->p.has_latency)
				sqlite3_bind_double(st, 3 + k, q[k]);
			else
				sqlite3_bind_null(st, 3 + k);
		sqlite3_bind_int64(st, 6, p->p.reads);
		sqlite3_bind_int64(st, 7, p->p.errors);
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
	bool tell = ret < 0;

	if (ret < 0) {
		__atomic_add_fetch(&h->write_errors, rows, __ATOMIC_RELAXED);
		h->ok_since = 0;
		h->ok_pending = false; /* still failing: no "works again" owed */
	} else if (h->write_failing || h->ok_pending) {
		if (!h->ok_since)
			h->ok_since = now;
		tell = !h->told_ok_at || now - h->told_ok_at >= WW_HISTORY_FLAP_S ||
		       now - h->ok_since >= WW_HISTORY_HEAL_S;
		h->ok_pending = !tell;
		if (tell)
			h->told_ok_at = now;
	}
	h->write_failing = ret < 0;
	*ctx = h->hook_ctx;
	return tell ? h->hook : NULL;
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
	time_t lo[2] = { h->thin_lo[0], h->thin_lo[1] };
	int ret;

	memset(call, 0, sizeof(*call));
	call->h = h;
	call->now = now;
	if (!rows && !thin)
		return 0;
	call->what = h->n_ps ? "sample" : "probe burst";
	snprintf(call->id, sizeof(call->id), "%s", h->n_ps ? h->ps[0].d->id :
		 h->n_pp ? h->pp[0].d->id : "-");
	if (!writable_locked(h, now)) {
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
		for (size_t i = 0; i < h->n_drives; i++) /* numbers given in the rollback */
			if (h->drives[i]->n && ww_hist_drive_n_locked(h, h->drives[i]->id) <= 0)
				h->drives[i]->n = 0;
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
	call->err = ret;
	return ret;
}

static void tell(const struct hook_call *c)
{
	if (c->h)
		tell_notice(c->h, c->now);
	if (c->fn)
		c->fn(c->ctx, c->err, c->what, c->id, c->why, c->now);
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

	/* a file that is not writable is tried again every retry_s */
	if (thin || h->cfg.commit_each || now - h->last_flush >= (time_t)h->cfg.commit_s ||
	    now < h->last_flush || (h->state != H_WRITABLE && now >= h->retry_at)) {
		ret = flush_locked(h, now, thin, &c);
		pthread_mutex_unlock(&h->lock);
		tell(&c);
		return ret;
	}
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
