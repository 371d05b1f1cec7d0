/* History write failures (src/history/history.c, src/service/history_log.c):
 * counted, logged once and then rate-limited, and published as
 * wearwatch_history_write_errors_total. The adversarial finding: with a full
 * disk under --state-dir the service kept serving and said nothing.
 *
 * The failure is made real: after the database is created, RLIMIT_FSIZE is
 * set to the size the files have, so SQLite's next write that grows the WAL
 * fails with EFBIG (what a full file system does with ENOSPC; it works as
 * root, unlike a read-only mode). Log lines are read back from stderr
 * (redirected to a file; the sink writes "wearwatch[warning]: ..."). */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/service.h"
#include "wearwatch/basic.h"
#include "wearwatch/store.h"
#include "wearwatch/expo.h"
#include "wearwatch/history.h"
#include "ww_test.h"

#define T0 1700006400

static char *slurp(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static ww_health_t sample(uint64_t written)
{
	ww_health_t h;

	memset(&h, 0, sizeof(h));
	WW_SET(h.host_written_bytes, written, "test");
	return h;
}

int main(void)
{
	char dir[] = "/tmp/ww-herr-XXXXXX", db[256], wal[300], logf[300];
	struct rlimit old, lim;
	ww_history_t *h = NULL;
	ww_store_endurance_t *svc;
	ww_store_t *store = ww_store_new(0);
	ww_snapshot_t *snap;
	ww_health_t rec;
	struct stat st;
	int saved_err, fd;
	size_t len;
	char *log, *m;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(db, sizeof(db), "%s/history.db", dir);
	snprintf(wal, sizeof(wal), "%s-wal", db);
	snprintf(logf, sizeof(logf), "%s/stderr", dir);
	/* every append its own commit, so each one meets the full disk (the
	 * default batches them: see test_history_cost.c for a failing batch) */
	CHECK_EQ_I64(ww_history_open(db, &(ww_history_cfg_t){ .commit_each = true }, &h, NULL, 0), 0);
	if (!h)
		return ww_test_done("test_history_errors");
	svc = ww_store_endurance_new(NULL, NULL, h);
	ww_log_set_journal(0);
	ww_history_log_attach(h, db);

	/* stderr to a file, for the log lines */
	fflush(stderr);
	saved_err = dup(2);
	fd = open(logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);

	rec = sample(1000);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0, NULL), 0);
	CHECK_EQ_U64(ww_history_write_errors(h), 0);

	/* the file system is full: no file may grow */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	CHECK(stat(wal, &st) == 0);
	lim.rlim_cur = (rlim_t)st.st_size;
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	for (int i = 1; i <= 5; i++) {
		rec = sample(1000 + (uint64_t)i * 4096);
		/* each sample is a new row: the WAL must grow */
		CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + i * 60, NULL), -EIO);
	}
	{
		ww_hprobe_t b = { .has_latency = true, .p50_s = 1e-4, .p99_s = 1e-3, .max_s = 2e-3, .reads = 64 };

		CHECK_EQ_I64(ww_history_append_probe(h, "ata-A", &b, T0 + 400), -EIO);
	}
	CHECK_EQ_U64(ww_history_write_errors(h), 6);

	/* published: the counter as it stands */
	snap = ww_store_acquire(store);
	m = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .endurance = svc, .now = T0 + 400 },
			      &len);
	ww_snapshot_release(snap);
	CHECK(m && strstr(m, "# TYPE wearwatch_history_write_errors_total counter\n"));
	CHECK(m && strstr(m, "\nwearwatch_history_write_errors_total 6\n"));
	free(m);

	/* space again: the next write works and says so once */
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	rec = sample(999999);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 500, NULL), 0);
	rec = sample(1999999);
	CHECK_EQ_I64(ww_history_append(h, "ata-A", &rec, true, T0 + 560, NULL), 0);
	CHECK_EQ_U64(ww_history_write_errors(h), 6);

	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	log = slurp(logf);
	/* one warning for six failures, naming the file and SQLite's reason */
	CHECK_EQ_I64(ww_count(log, "history write failed"), 1);
	CHECK(strstr(log, "wearwatch[warning]: history write failed (sample of ata-A): "));
	CHECK(strstr(log, db));
	CHECK_EQ_I64(ww_count(log, "history writes work again (5 failures not logged)"), 1);
	CHECK_EQ_I64(ww_count(log, "wearwatch["), 2);
	if (ww_t_fail)
		fprintf(stderr, "log was:\n%s", log);

	ww_store_endurance_free(svc);
	ww_store_free(store);
	unlink(logf);
	unlink(db);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", db);
	unlink(wal);
	rmdir(dir);
	return ww_test_done("test_history_errors");
}
