/* History that degrades, then heals (src/history/history.c, the hook in
 * src/service/history_log.c), each case made real:
 * - a read-only state directory (mode 0555; as root the test first drops
 *   CAP_DAC_OVERRIDE and CAP_FOWNER from its effective set, which root's
 *   permission checks then obey): the existing history is served, writes
 *   fail and are counted, and once the directory is writable again the next
 *   write after the retry interval works;
 * - a full disk at start (RLIMIT_FSIZE 0 while the file is created, what a
 *   full file system does with ENOSPC): no history, retried, and working
 *   once space is back (before: never retried);
 * - a garbage file and a file with bad pages: moved aside as
 *   history.db.corrupt-<time>, logged once, a new database started;
 * - writes that fail and work by turns: the log says "failed" and "works
 *   again" a bounded number of times, not at every poll.
 * Every append is written at once here (commit_each: the service commits
 * once an hour); rows that could not be written stay pending and are written
 * when the file works again, so no sample is lost on the way. Log lines are
 * read back from stderr (redirected to a file). */
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <sys/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "wearwatch/basic.h"
#include "wearwatch/history.h"
#include "wearwatch/service.h"
#include "ww_test.h"

#define T0 1700006400

static char dir[] = "/tmp/ww-hopen-XXXXXX", logpath[128];
static int saved_err = -1;

static void log_to_file(void)
{
	int fd;

	snprintf(logpath, sizeof(logpath), "%s/stderr", dir);
	fflush(stderr);
	saved_err = dup(2);
	fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
}

static const char *log_back(void)
{
	static char buf[65536];
	int fd;
	ssize_t n;

	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	fd = open(logpath, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	unlink(logpath);
	return buf;
}

static ww_health_t sample(uint64_t written)
{
	ww_health_t h;

	memset(&h, 0, sizeof(h));
	WW_SET(h.host_written_bytes, written, "test");
	return h;
}

/* root's file access ignores modes unless these are off */
static void dac_override(bool on)
{
	cap_value_t v[] = { CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_DAC_READ_SEARCH };
	cap_t c = cap_get_proc();

	if (!c)
		return;
	cap_set_flag(c, CAP_EFFECTIVE, 3, v, on ? CAP_SET : CAP_CLEAR);
	cap_set_proc(c);
	cap_free(c);
}

static void test_readonly_dir(void)
{
	char sub[160], path[200];
	ww_history_cfg_t cfg = { .retry_s = 60, .commit_each = true };
	ww_history_t *h = NULL;
	ww_hpoint_t *p = NULL;
	ww_health_t rec;
	char note[9216];

	snprintf(sub, sizeof(sub), "%s/ro", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/history.db", sub);
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, note, sizeof(note)), 0);
	for (int i = 0; i < 5; i++) {
		rec = sample(1000 + (uint64_t)i);
		CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 60 * i, NULL), 0);
	}
	ww_history_close(h);
	dac_override(false);
	chmod(sub, 0555);
	chmod(path, 0444);
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, note, sizeof(note)), 0);
	CHECK(strstr(note, "existing history is served read-only") != NULL);
	CHECK(!ww_history_writable(h));
	/* served: every stored sample */
	CHECK_EQ_I64(ww_history_query(h, "ata-A", WW_HM_WRITTEN, T0, T0 + 600, 100, &p), 5);
	if (p)
		CHECK_EQ_U64((uint64_t)p[4].value, 1004);
	free(p);
	/* writes fail and are counted (each pending row once); the first one
	 * tried to reopen */
	rec = sample(2000);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 600, NULL), -EIO);
	rec = sample(2001);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 630, NULL), -EIO);
	CHECK_EQ_U64(ww_history_write_errors(h), 2);
	/* writable again: the next write after the retry interval works */
	chmod(sub, 0755);
	chmod(path, 0644);
	rec = sample(2002);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 640, NULL), -EIO);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 600 + 60, NULL), 0);
	CHECK(ww_history_writable(h));
	/* the five served, and the four that waited: none lost */
	CHECK_EQ_I64(ww_history_query(h, "ata-A", WW_HM_WRITTEN, T0, T0 + 700, 100, &p), 9);
	if (p) {
		CHECK_EQ_U64((uint64_t)p[5].value, 2000);
		CHECK_EQ_U64((uint64_t)p[8].value, 2002);
		CHECK_EQ_I64(p[8].t, T0 + 660);
	}
	free(p);
	dac_override(true);
	ww_history_close(h);
}

static void test_full_at_start(void)
{
	char sub[160], path[200], note[9216];
	ww_history_cfg_t cfg = { .retry_s = 60, .commit_each = true };
	struct rlimit old, lim;
	ww_history_t *h = NULL;
	ww_hpoint_t *p = NULL;
	ww_health_t rec = sample(5);

	snprintf(sub, sizeof(sub), "%s/full", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/history.db", sub);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 0;
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, note, sizeof(note)), 0);
	CHECK(strstr(note, "no history until then") != NULL);
	CHECK_EQ_I64(ww_history_query(h, "ata-A", WW_HM_WRITTEN, T0, T0 + 600, 100, &p), -EAGAIN);
	/* the first write retries at once, then every 60 s */
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0, NULL), -EIO);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 30, NULL), -EIO);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 60, NULL), 0);
	CHECK(ww_history_writable(h));
	/* the two samples that waited are written too */
	CHECK_EQ_I64(ww_history_query(h, "ata-A", WW_HM_WRITTEN, T0, T0 + 600, 100, &p), 3);
	free(p);
	ww_history_close(h);
}

/* overwrite every page after the first two KiB (the header and the first
 * page of the schema stay: the file still opens as SQLite's) */
static void spoil_pages(const char *path)
{
	struct stat st;
	char junk[1024];
	int fd = open(path, O_WRONLY);

	memset(junk, 0x5a, sizeof(junk));
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 16 * 1024);
	for (off_t o = 2 * 1024; fd >= 0 && o + 1024 <= st.st_size; o += 1024)
		CHECK(pwrite(fd, junk, sizeof(junk), o) == (ssize_t)sizeof(junk));
	if (fd >= 0)
		close(fd);
}

static int corrupt_files(const char *sub)
{
	char pat[200];
	glob_t g;
	int n;

	snprintf(pat, sizeof(pat), "%s/history.db.corrupt-*", sub);
	if (glob(pat, 0, NULL, &g))
		return 0;
	n = (int)g.gl_pathc;
	globfree(&g);
	return n;
}

static void test_corrupt(void)
{
	char sub[160], path[200], note[9216];
	ww_history_cfg_t cfg = { .commit_each = true };
	ww_history_t *h = NULL;
	ww_hpoint_t *p = NULL;
	int failed;
	ww_health_t rec;
	const char *log;
	int fd;

	snprintf(sub, sizeof(sub), "%s/bad", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/history.db", sub);
	/* garbage: moved aside at open */
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	for (int i = 0; i < 64; i++)
		CHECK(write(fd, "this is no SQLite database, but it is long enough to be read ",
			    62) == 62);
	close(fd);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, note, sizeof(note)), 0);
	CHECK(strstr(note, "moved to ") && strstr(note, "a new database was started"));
	CHECK_EQ_I64(corrupt_files(sub), 1);
	CHECK(ww_history_writable(h));
	/* bad pages: met at open (the schema) or by the first write that reads
	 * them; either way the file is moved aside once, a new one started,
	 * and the samples after it (the failed one too) are kept */
	for (int i = 0; i < 3000; i++) {
		rec = sample((uint64_t)i);
		ww_history_append(h, i % 2 ? "ata-A" : "ata-B", &rec, true, T0 + i, NULL);
	}
	ww_history_close(h);
	spoil_pages(path);
	log_to_file();
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, note, sizeof(note)), 0);
	ww_history_log_attach(h, path);
	for (int i = 0; i < 10; i++) {
		rec = sample(100000 + (uint64_t)i);
		ww_history_append(h, "ata-A", &rec, true, T0 + 4000 + 60 * i, NULL);
	}
	failed = (int)ww_history_write_errors(h);
	CHECK(failed <= 1);
	CHECK_EQ_I64(ww_history_query(h, "ata-A", WW_HM_WRITTEN, T0 + 4000, T0 + 5000, 100, &p),
		     10);
	if (p)
		CHECK_EQ_U64((uint64_t)p[9].value, 100009);
	free(p);
	ww_history_close(h);
	log = log_back();
	CHECK_EQ_I64(ww_count(log, "history write failed"), failed);
	CHECK_EQ_I64(ww_count(log, "a new database was started") + ww_count(note, "a new database was "
								 "started"), 1);
	CHECK_EQ_I64(ww_count(log, "history writes work again"), failed);
	CHECK_EQ_I64(corrupt_files(sub), 2);
	if (ww_t_fail)
		fprintf(stderr, "log was:\n%s", log);
}

/* writes that fail and work by turns (the file may not grow on odd polls) */
static void test_flapping(void)
{
	char sub[160], path[200], wal[220];
	struct rlimit old, lim;
	ww_history_t *h = NULL;
	ww_health_t rec;
	const char *log;
	struct stat st;

	snprintf(sub, sizeof(sub), "%s/flap", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/history.db", sub);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	ww_history_cfg_t cfg = { .commit_each = true };

	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, NULL, 0), 0);
	ww_history_log_attach(h, path);
	getrlimit(RLIMIT_FSIZE, &old);
	log_to_file();
	/* 20 polls a minute apart: odd ones fail, even ones work */
	for (int i = 1; i <= 20; i++) {
		lim = old;
		if (i % 2 && stat(wal, &st) == 0) {
			lim.rlim_cur = (rlim_t)st.st_size;
			setrlimit(RLIMIT_FSIZE, &lim);
		}
		rec = sample(1000 + (uint64_t)i * 4096);
		CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 60 * i, NULL),
			     i % 2 ? -EIO : 0);
		setrlimit(RLIMIT_FSIZE, &old);
	}
	/* then 10 minutes of successes: told once */
	for (int i = 21; i <= 32; i++) {
		rec = sample(1000 + (uint64_t)i * 4096);
		CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 60 * i, NULL), 0);
	}
	ww_history_close(h);
	log = log_back();
	/* before: 10 "failed" and 10 "works again" lines */
	CHECK_EQ_I64(ww_count(log, "history write failed"), 2);
	CHECK_EQ_I64(ww_count(log, "history writes work again"), 2);
	if (ww_t_fail)
		fprintf(stderr, "log was:\n%s", log);
}

/* a FIFO where the file should be: SQLite's open would wait for a writer
 * forever, holding the history's lock (every collection with it) */
static void test_fifo(void)
{
	char path[200], note[9216];
	ww_history_cfg_t cfg = { .retry_s = 60, .commit_each = true };
	ww_history_t *h = NULL;
	ww_hpoint_t *p = NULL;
	ww_health_t rec = sample(7);

	snprintf(path, sizeof(path), "%s/fifo.db", dir);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, note, sizeof(note)), 0);
	CHECK(strstr(note, "not a regular file") && strstr(note, "no history until then"));
	CHECK(!ww_history_writable(h));
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0, NULL), -EIO);
	CHECK_EQ_I64(ww_history_query(h, "ata-A", WW_HM_WRITTEN, T0, T0 + 60, 10, &p), -EAGAIN);
	ww_history_close(h);
	unlink(path);
}

int main(void)
{
	char cmd[160];

	CHECK(mkdtemp(dir) != NULL);
	chmod(dir, 0755);
	ww_log_set_journal(0);
	test_readonly_dir();
	test_full_at_start();
	test_corrupt();
	test_flapping();
	test_fifo();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return ww_test_done("test_history_open");
}
