/* History in SQLite (contract in history.h). SQLite because it is Debian's
 * well-kept embedded database: crash-safe commits, WAL for readers beside
 * the writer, and integrity_check for tests. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "wearwatch/history.h"

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

/* probe_samples column of each WW_HM_PROBE_* metric */
static const char *const probe_cols[] = { "p50_seconds", "p99_seconds", "max_seconds" };

static bool is_probe(int m)
{
	return m >= WW_HM_PROBE_P50 && m <= WW_HM_PROBE_MAX;
}

struct ww_history {
	sqlite3 *db;
	pthread_mutex_t lock;
	ww_history_cfg_t cfg;
	time_t last_maintain;
	uint64_t write_errors;     /* failed sample/probe writes since open */
	bool write_failing;        /* the last write failed */
	ww_history_error_fn hook;
	void *hook_ctx;
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
	uint64_t n;

	pthread_mutex_lock(&h->lock);
	n = h->write_errors;
	pthread_mutex_unlock(&h->lock);
	return n;
}

/* The end of a write, under the lock: count a failure; returns the hook to
 * call after unlocking (every failure, and the first success after them) or
 * NULL. */
static ww_history_error_fn write_done_locked(ww_history_t *h, int ret, void **ctx)
{
	bool tell = ret < 0 || h->write_failing;

	if (ret < 0)
		h->write_errors++;
	h->write_failing = ret < 0;
	*ctx = h->hook_ctx;
	return tell ? h->hook : NULL;
}

/* SQLite's reason for the last failure, before a ROLLBACK replaces it */
static void why_locked(ww_history_t *h, char *why, size_t len)
{
	snprintf(why, len, "%s", sqlite3_errmsg(h->db));
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

int ww_history_open(const char *path, const ww_history_cfg_t *cfg, ww_history_t **out,
		    char *errmsg, size_t errlen)
{
	ww_history_t *h = calloc(1, sizeof(*h));
	char *err = NULL;

	*out = NULL;
	if (!h)
		return -ENOMEM;
	if (cfg)
		h->cfg = *cfg;
	if (!h->cfg.raw_s)
		h->cfg.raw_s = WW_HISTORY_RAW_S;
	if (!h->cfg.hourly_s)
		h->cfg.hourly_s = WW_HISTORY_HOURLY_S;
	if (sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(h->db, 5000) != SQLITE_OK ||
	    sqlite3_exec(h->db, schema, NULL, NULL, &err) != SQLITE_OK ||
	    migrate(h->db, &err) < 0) {
		if (errmsg)
			snprintf(errmsg, errlen, "%s: %s", path,
				 err ? err : h->db ? sqlite3_errmsg(h->db) : "cannot open");
		sqlite3_free(err);
		sqlite3_close(h->db);
		free(h);
		return -EIO;
	}
	pthread_mutex_init(&h->lock, NULL);
	*out = h;
	return 0;
}

void ww_history_close(ww_history_t *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	pthread_mutex_destroy(&h->lock);
	free(h);
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
	hook = write_done_locked(h, ret, &hook_ctx);
	pthread_mutex_unlock(&h->lock);
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
	if (sqlite3_prepare_v2(h->db, "INSERT OR REPLACE INTO probe_samples(drive, tier, t,"
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
	if (ret < 0)
		why_locked(h, why, sizeof(why));
	sqlite3_finalize(st);
	hook = write_done_locked(h, ret, &hook_ctx);
	pthread_mutex_unlock(&h->lock);
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
	rc = sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
	if (!rc)
		rc = thin(h, 0, now - (time_t)h->cfg.raw_s, 3600);
	if (!rc)
		rc = thin(h, 1, now - (time_t)h->cfg.hourly_s, 86400);
	if (!rc)
		rc = thin_probe(h, 0, now - (time_t)h->cfg.raw_s, 3600);
	if (!rc)
		rc = thin_probe(h, 1, now - (time_t)h->cfg.hourly_s, 86400);
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

/* 1 when the drive has rows in either table, 0 when none, -EIO */
static int drive_known(ww_history_t *h, const char *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM samples WHERE drive=?1 UNION ALL"
			       " SELECT 1 FROM probe_samples WHERE drive=?1 LIMIT 1", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

/* every stored point of metric m in [from, to], oldest first, into *out
 * (malloc'd): their number or -errno */
static long query_points(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
			 time_t to, ww_hpoint_t **out)
{
	sqlite3_stmt *st = NULL;
	ww_hpoint_t *raw = NULL;
	size_t n = 0, cap = 0;
	char sql[256];
	int rc;

	/* one row per time: the finest tier wins where tiers overlap */
	if (is_probe(m))
		snprintf(sql, sizeof(sql), "SELECT t, %s, 0 FROM probe_samples WHERE drive=?1"
			 " AND t>=?2 AND t<=?3 GROUP BY t HAVING tier=min(tier) ORDER BY t",
			 probe_cols[m - WW_HM_PROBE_P50]);
	else
		snprintf(sql, sizeof(sql), "SELECT t, %s, segment FROM samples WHERE drive=?1"
			 " AND t>=?2 AND t<=?3 GROUP BY t HAVING tier=min(tier) ORDER BY t",
			 ww_hmetrics[m].name);
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			void *nr = realloc(raw, (cap = cap ? cap * 2 : 256) * sizeof(*raw));

			if (!nr) {
				sqlite3_finalize(st);
				free(raw);
				return -ENOMEM;
			}
			raw = nr;
		}
		raw[n].t = (time_t)sqlite3_column_int64(st, 0);
		raw[n].has_value = sqlite3_column_type(st, 1) != SQLITE_NULL;
		raw[n].value = !raw[n].has_value ? 0 : is_probe(m) ? sqlite3_column_double(st, 1)
				: (double)sqlite3_column_int64(st, 1);
		raw[n].segment = sqlite3_column_int64(st, 2);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(raw);
		return -EIO;
	}
	*out = raw;
	return (long)n;
}

/* n points into max_points equal buckets over [from, to]: counters take the
 * bucket's last sample, gauges the mean of its samples that have a value,
 * bucket_max gauges the largest; returns the number of buckets written */
static size_t bucket(const ww_hpoint_t *raw, size_t n, ww_hmetric_t m, time_t from, time_t to,
		     unsigned max_points, ww_hpoint_t *pts)
{
	long double width = ((long double)(to - from) + 1) / max_points;
	size_t k = 0;

	for (size_t i = 0; i < n;) {
		size_t b = (size_t)((raw[i].t - from) / width), j = i;
		double sum = 0, top = 0;
		size_t cnt = 0;

		while (j < n && (size_t)((raw[j].t - from) / width) == b) {
			if (raw[j].has_value) {
				sum += raw[j].value;
				if (!cnt || raw[j].value > top)
					top = raw[j].value;
				cnt++;
			}
			j++;
		}
		pts[k] = raw[j - 1];
		if (ww_hmetrics[m].bucket_max) {
			pts[k].has_value = cnt > 0;
			pts[k].value = top;
		} else if (!ww_hmetrics[m].counter) {
			pts[k].has_value = cnt > 0;
			pts[k].value = cnt ? sum / cnt : 0;
		}
		k++;
		i = j;
	}
	return k;
}

long ww_history_query(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
		      time_t to, unsigned max_points, ww_hpoint_t **out)
{
	ww_hpoint_t *raw = NULL, *pts;
	long n;
	int known;

	*out = NULL;
	if (m < 0 || m >= WW_HM_MAX || to < from || !max_points)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	known = drive_known(h, id);
	n = known < 0 ? known : !known ? -ENOENT : query_points(h, id, m, from, to, &raw);
	pthread_mutex_unlock(&h->lock);
	if (n < 0 || (unsigned long)n <= max_points) {
		*out = raw;
		return n;
	}
	pts = calloc(max_points, sizeof(*pts));
	if (!pts) {
		free(raw);
		return -ENOMEM;
	}
	n = (long)bucket(raw, (size_t)n, m, from, to, max_points, pts);
	free(raw);
	*out = pts;
	return n;
}
