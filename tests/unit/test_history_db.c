/* History database: fake-clock samples (thinning, segments on reset, drive
 * swap = another id, baselines, query downsampling), the service computing
 * windows from history across a reopen (restart), and a kill -9 loop: a
 * forked writer is SIGKILLed repeatedly mid-stream; afterwards
 * PRAGMA integrity_check is "ok" and every sample the writer reported as
 * committed is in the database; at the default commit interval a kill -9
 * loses the pending rows only, and a crash loop none. Seeded randomness
 * prints its seed. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "wearwatch/store.h"
#include "wearwatch/history.h"
#include "ww_test.h"

#define T0 1700000000
#define DAY 86400

static char dir[] = "/tmp/ww_history_XXXXXX";
static char path[256];

static void rec(ww_health_t *h, uint64_t written, uint64_t poh)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "M");
	WW_SET(h->host_written_bytes, written, "test");
	WW_SET(h->power_on_seconds, poh, "test");
	WW_SET(h->temperature_celsius, 30, "test");
	WW_SET(h->media_errors, 0, "test");
}

static void test_thinning_segments_swap(void)
{
	static ww_health_t h;
	ww_history_t *db;
	ww_sample_t s, latest;
	long cnt[3];
	ww_hpoint_t *p;
	long n;

	snprintf(path, sizeof(path), "%s/a.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &db, NULL, 0), 0);
	/* 100 days, one sample every 30 minutes, 1 GB per sample */
	for (long i = 0; i <= 100 * 48; i++) {
		rec(&h, 1000000000ull * (uint64_t)i, 3600 + 1800 * (uint64_t)i);
		CHECK_EQ_I64(ww_history_append(db, "drive-a", &h, true, T0 + i * 1800, &latest), 0);
	}
	CHECK_EQ_I64(ww_history_maintain(db, T0 + 100 * DAY), 0);
	CHECK_EQ_I64(ww_history_count(db, "drive-a", cnt), 0);
	/* raw: the last 7 days (7 x 48 + 1 samples, +1 for the cut's partial
	 * hour); hourly: days 10..93 (83-84 days x 24: cuts align to whole days/hours); daily:
	 * days 0..10, one per day */
	printf("rows raw %ld hourly %ld daily %ld\n", cnt[0], cnt[1], cnt[2]);
	CHECK(cnt[0] >= 7 * 48 + 1 && cnt[0] <= 7 * 48 + 2);
	CHECK(cnt[1] >= 83 * 24 - 1 && cnt[1] <= 84 * 24 + 1); /* cuts align to whole days/hours */
	CHECK(cnt[2] >= 10 && cnt[2] <= 11);
	CHECK_EQ_I64(latest.segment, 0);

	/* baseline of the 30-day window: oldest sample >= now - 30 d (hourly tier) */
	CHECK_EQ_I64(ww_history_baseline(db, "drive-a", 0, T0 + 70 * DAY, &s), 1);
	CHECK(s.t >= T0 + 70 * DAY && s.t < T0 + 70 * DAY + 3600);

	/* counter backwards (drive reformatted) -> segment 1 */
	rec(&h, 5, 3600 + 1800 * 100 * 48 + 1800);
	CHECK_EQ_I64(ww_history_append(db, "drive-a", &h, true, T0 + 100 * DAY + 1800, &latest), 0);
	CHECK_EQ_I64(latest.segment, 1);
	CHECK_EQ_I64(ww_history_baseline(db, "drive-a", 1, T0, &s), 1);
	CHECK_EQ_U64(s.written_bytes, 5);

	/* a replacement drive in the same slot has another id: no history */
	CHECK_EQ_I64(ww_history_latest(db, "drive-b", &s), 0);
	CHECK_EQ_I64(ww_history_query(db, "drive-b", WW_HM_WRITTEN, T0, T0 + 200 * DAY, 10, &p), -ENOENT);

	/* query: the last day raw = 49 points; max_points 24 -> 24 buckets,
	 * counters take each bucket's last sample */
	n = ww_history_query(db, "drive-a", WW_HM_WRITTEN, T0 + 99 * DAY, T0 + 100 * DAY, 1000, &p);
	CHECK_EQ_I64(n, 49);
	CHECK_EQ_U64((uint64_t)p[0].value, 1000000000ull * 99 * 48);
	free(p);
	n = ww_history_query(db, "drive-a", WW_HM_WRITTEN, T0 + 99 * DAY, T0 + 100 * DAY - 1, 24, &p);
	CHECK_EQ_I64(n, 24);
	CHECK_EQ_I64(p[0].t, T0 + 99 * DAY + 1800); /* last sample of the first hour */
	free(p);
	n = ww_history_query(db, "drive-a", WW_HM_TEMP, T0 + 99 * DAY, T0 + 100 * DAY - 1, 24, &p);
	CHECK_EQ_I64(n, 24);
	CHECK(p[5].has_value && p[5].value == 30); /* gauge: mean */
	free(p);
	ww_history_close(db);
}

/* The service after a restart: windows come from the database. */
static void test_restart_keeps_windows(void)
{
	static ww_health_t h;
	static ww_drive_state_t st;
	static ww_drive_t d;
	ww_history_t *db;
	ww_ratings_t table = { 0 }, ov = { 0 };
	ww_store_endurance_t *svc;
	ww_endurance_t e;
	char err[64];

	snprintf(path, sizeof(path), "%s/b.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &db, NULL, 0), 0);
	/* 31 days, hourly, 2 GB/day on a 1 GB drive = 2 DWPD */
	for (long i = 0; i <= 31 * 24; i++) {
		rec(&h, 2000000000ull / 24 * (uint64_t)i, 3600 * (uint64_t)(i + 1));
		ww_history_append(db, "nvme-x", &h, true, T0 + i * 3600, NULL);
	}
	ww_history_close(db);

	CHECK_EQ_I64(ww_history_open(path, NULL, &db, NULL, 0), 0);
	CHECK_EQ_I64(ww_rating_override_parse(&ov, "nvme-x=10:5:1000000000", err, sizeof(err)), 0);
	svc = ww_store_endurance_new(&table, &ov, db);
	memset(&st, 0, sizeof(st));
	snprintf(d.id, sizeof(d.id), "nvme-x");
	st.drive = &d;
	st.present = true;
	st.first_seen = T0;
	st.health = &h;
	ww_store_endurance_compute(svc, &st, NULL, T0 + 31 * 24 * 3600, &e);
	for (int w = 0; w < WW_WIN_MAX; w++) {
		CHECK(e.has_window[w]);
		CHECK(e.window_dwpd[w] > 1.9999 && e.window_dwpd[w] < 2.0001);
	}
	CHECK(e.has_wearout_write_rate);
	ww_store_endurance_free(svc);
}

/* kill -9 loop */
static void writer(const char *p, int fd, long start)
{
	static ww_health_t h;
	ww_history_t *db;

	/* each sample committed before it is reported (the default keeps
	 * samples in memory for WW_HISTORY_COMMIT_S); raw samples kept 10 years,
	 * so thinning leaves every one of the minutes written here */
	ww_history_cfg_t cfg = { .commit_each = true, .raw_s = 3650ull * DAY };

	if (ww_history_open(p, &cfg, &db, NULL, 0) < 0)
		_exit(2);
	for (long i = start;; i++) {
		rec(&h, (uint64_t)i * 4096, (uint64_t)i * 60);
		if (ww_history_append(db, "killme", &h, true, T0 + i * 60, NULL) < 0)
			_exit(3);
		/* report only after the commit returned */
		if (write(fd, &i, sizeof(i)) != sizeof(i))
			_exit(4);
	}
}

static void test_kill9_loop(void)
{
	unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL);
	long committed = -1, next = 0, v;
	int rounds = 25;
	sqlite3 *db;
	sqlite3_stmt *st;
	long missing = 0, rows = 0;

	printf("kill -9 loop seed %u\n", seed);
	srand(seed);
	snprintf(path, sizeof(path), "%s/kill.db", dir);
	for (int r = 0; r < rounds; r++) {
		int fds[2];
		pid_t pid;

		CHECK(pipe(fds) == 0);
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			writer(path, fds[1], next);
		}
		close(fds[1]);
		usleep(20000 + (unsigned)(rand() % 80000));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		while (read(fds[0], &v, sizeof(v)) == sizeof(v))
			committed = v;
		close(fds[0]);
		next = committed + 1;
	}
	CHECK(committed > 0);
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	CHECK_STR((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	/* every reported sample 0..committed is there */
	CHECK(sqlite3_prepare_v2(db, "SELECT count(*), sum(t BETWEEN ?1 AND ?2) FROM samples"
				 " WHERE drive='killme'", -1, &st, NULL) == SQLITE_OK);
	sqlite3_bind_int64(st, 1, T0);
	sqlite3_bind_int64(st, 2, T0 + committed * 60);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	rows = sqlite3_column_int64(st, 0);
	missing = committed + 1 - sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	printf("kill -9 x %d: %ld samples reported committed, %ld rows in the database, %ld missing, integrity ok\n",
	       rounds, committed + 1, rows, missing);
	CHECK_EQ_I64(missing, 0);
	/* at most one sample per killed round beyond the last report (committed
	 * but killed before it could tell us) */
	CHECK(rows - (committed + 1) >= 0 && rows - (committed + 1) <= rounds);
}

/* The default commit interval under kill -9, no timing: a writer appends
 * `count` samples a minute apart on the fake clock, tells how many it
 * holds uncommitted (ww_history_pending), then waits to be killed. */
static void paused_writer(const char *p, int fd, long start, long count, bool close_it)
{
	static ww_health_t h;
	ww_history_cfg_t cfg = { .raw_s = 3650ull * DAY };
	ww_history_t *db;
	uint64_t pend;

	if (ww_history_open(p, &cfg, &db, NULL, 0) < 0)
		_exit(2);
	for (long i = start; i < start + count; i++) {
		rec(&h, (uint64_t)i * 4096, (uint64_t)i * 60);
		if (ww_history_append(db, "loop", &h, true, T0 + i * 60, NULL) < 0)
			_exit(3);
	}
	pend = ww_history_pending(db);
	if (close_it)
		ww_history_close(db);
	if (write(fd, &pend, sizeof(pend)) != sizeof(pend))
		_exit(4);
	if (close_it)
		_exit(0);
	for (;;)
		pause();
}

static long rows_of(const char *p, const char *id)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long n = -1;

	CHECK(sqlite3_open(p, &db) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM samples WHERE drive=?1", -1, &st,
				 NULL) == SQLITE_OK);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* one run of paused_writer; killed unless close_it. Returns the pending
 * count it told. */
static uint64_t run_round(const char *p, long start, long count, bool close_it)
{
	uint64_t pend = UINT64_MAX;
	int fds[2];
	pid_t pid;

	CHECK(pipe(fds) == 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		paused_writer(p, fds[1], start, count, close_it);
	}
	close(fds[1]);
	CHECK(read(fds[0], &pend, sizeof(pend)) == sizeof(pend));
	if (!close_it)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
	return pend;
}

/* Samples a kill -9 loses at the default commit interval: at most
 * WW_HISTORY_COMMIT_S of them, exactly the ones ww_history_pending counted;
 * a crash loop (each run killed after 3 polls) keeps every row of every
 * run (the file's "running" mark: commit each row after an unclean stop),
 * and after a clean stop the next run batches again. With hourly commits a
 * run of 30 polls lost 29, and a crash loop kept one row per start. */
static void test_kill9_default_commits(void)
{
	char p[300];
	long have = 0, n = 0;
	uint64_t pend;

	snprintf(p, sizeof(p), "%s/loop.db", dir);
	/* a long run killed: what it had not committed is lost, no more */
	pend = run_round(p, n, 30, false);
	n += 30;
	have = rows_of(p, "loop");
	printf("kill -9 after 30 polls at the default commit interval: %ld of 30 rows kept, "
	       "%llu pending when killed\n",
	       have, (unsigned long long)pend);
	CHECK_EQ_I64(30 - have, (long)pend);
	CHECK(pend > 0 && pend <= WW_HISTORY_COMMIT_S / 60);
	/* a crash loop: 10 runs of 3 polls, each killed */
	for (int r = 0; r < 10; r++) {
		pend = run_round(p, n, 3, false);
		n += 3;
		CHECK_EQ_U64(pend, 0);
	}
	printf("crash loop, 10 runs of 3 polls killed: %ld of %ld rows kept\n", rows_of(p, "loop"),
	       n);
	CHECK_EQ_I64(rows_of(p, "loop"), have + 30);
	/* a clean stop clears the mark: the next long run batches again */
	run_round(p, n, 3, true);
	n += 3;
	CHECK_EQ_I64(rows_of(p, "loop"), have + 33);
	pend = run_round(p, n, 30, false);
	n += 30;
	CHECK(pend > 0 && pend <= WW_HISTORY_COMMIT_S / 60);
	CHECK_EQ_I64(rows_of(p, "loop"), n - (long)pend - (30 - have));
}

/* the selective self-test cursor the service keeps per drive (meta
 * table): written at once, read back after a reopen (a restart), absent
 * for another drive; LBA 1953525167 (a 1 TB drive's last) needs 31 bits */
static void test_meta_survives_reopen(void)
{
	ww_history_t *db;
	int64_t v = -1;

	snprintf(path, sizeof(path), "%s/m.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &db, NULL, 0), 0);
	CHECK_EQ_I64(ww_history_meta_get(db, "selftest_span:ata-A", &v), 0);
	CHECK_EQ_I64(ww_history_meta_set(db, "selftest_span:ata-A", 390705034), 0);
	CHECK_EQ_I64(ww_history_meta_set(db, "selftest_span:ata-A", 1953525167), 0);
	ww_history_close(db);
	CHECK_EQ_I64(ww_history_open(path, NULL, &db, NULL, 0), 0);
	CHECK_EQ_I64(ww_history_meta_get(db, "selftest_span:ata-A", &v), 1);
	CHECK_EQ_I64(v, 1953525167);
	CHECK_EQ_I64(ww_history_meta_get(db, "selftest_span:ata-B", &v), 0);
	ww_history_close(db);
	CHECK_EQ_I64(ww_history_meta_get(NULL, "k", &v), -EIO);
	CHECK_EQ_I64(ww_history_meta_set(NULL, "k", 1), -EIO);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_thinning_segments_swap();
	test_restart_keeps_windows();
	test_kill9_loop();
	test_kill9_default_commits();
	test_meta_survives_reopen();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("could not remove %s\n", dir);
	}
	return ww_test_done("test_history_db");
}
