/* The probe scheduler of `wearwatch serve` on two constructed drives: regular
 * files opened O_DIRECT (made in the build tree; tmpfs before 6.6 has no
 * O_DIRECT) behind a constructed sysfs tree (sizes, inflight, stat and
 * runtime_status as the kernel formats them). Checks:
 * - bursts of different drives never overlap: both drives are due at once,
 *   each burst is paced to >= 190 ms (20 reads at 100 IOPS), so the second
 *   burst ends >= 150 ms after the first; run together they would end within
 *   a few ms of each other;
 * - a drive is probed again when its interval (60 s) has passed on the
 *   scheduler's clock: a fake clock (cfg.clock) the test steps by hand
 *   (waking the thread, as the service's store changes do); until then
 *   the thread goes not once round its loop (ww_probe_sched_rounds);
 * - a drive whose runtime_status turns "suspended" during its burst gets no
 *   further read: its burst of 100 paced reads (~1 s) ends early, and the
 *   store's summary says "runtime-suspended". The test turns it after the
 *   scheduler has checked runtime_status 30 times (inotify IN_OPEN on that
 *   file; it is checked before every read), not after a sleep.
 * - latency-drift bursts: due one drift interval after a drive is first
 *   seen (fake clock), run after the due light probes, in slices whose
 *   reads stay out of the light probes' window (a's window holds exactly
 *   its light reads), with the hook's baseline in the summary; a drive with
 *   I/O in flight gets none ("busy"); a restarted scheduler shows the
 *   drive's kept burst (drift_latest) before any new one.
 * Bursts are paced by the engine on the real clock; the test waits for them
 * by polling the after_burst counts, bounded. */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "wearwatch/sched.h"
#include "wearwatch/conf.h"
#include "wearwatch/cli.h"
#include "ww_test.h"

#define FILE_BYTES (1u << 20)

struct seen {
	pthread_mutex_t mu;
	uint64_t end_ns[2];
	uint32_t reads[2];
	int n[2];
};

static pthread_mutex_t clock_mu = PTHREAD_MUTEX_INITIALIZER;
static double fake_now = 1000.0; /* seconds, any origin */

static double fake_clock(void *ctx)
{
	double t;

	(void)ctx;
	pthread_mutex_lock(&clock_mu);
	t = fake_now;
	pthread_mutex_unlock(&clock_mu);
	return t;
}

/* the scheduler running: a step of its clock wakes it, as the service's
 * store changes do (it sleeps until its next due time, not in ticks) */
static ww_probe_sched_t *running;

static void step(double s)
{
	pthread_mutex_lock(&clock_mu);
	fake_now += s;
	pthread_mutex_unlock(&clock_mu);
	ww_probe_sched_wake(running);
}

/* Wait (bounded, 5 s) until `path` has been opened `n` times. */
static bool wait_opens(int ifd, unsigned n)
{
	char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	unsigned seen = 0;

	for (int i = 0; i < 500 && seen < n; i++) {
		struct pollfd pfd = { .fd = ifd, .events = POLLIN };
		ssize_t len;

		if (poll(&pfd, 1, 10) <= 0)
			continue;
		len = read(ifd, ev, sizeof(ev));
		for (ssize_t o = 0; o < len;) {
			const struct inotify_event *e = (const void *)(ev + o);

			seen += (e->mask & IN_OPEN) != 0;
			o += (ssize_t)(sizeof(*e) + e->len);
		}
	}
	return seen >= n;
}

static void after_burst(void *arg, const char *id, const ww_hprobe_t *p, time_t now)
{
	struct seen *s = arg;
	int i = id[0] == 'a' ? 0 : 1;

	(void)now;
	pthread_mutex_lock(&s->mu);
	if (!s->n[i]++) {
		s->end_ns[i] = ww_probe_now_ns();
		s->reads[i] = p->reads + p->errors;
	}
	pthread_mutex_unlock(&s->mu);
}

struct drifts {
	pthread_mutex_t mu;
	int n;
	ww_hdrift_t last;
	time_t kept_t; /* drift_latest's answer, 0 = none */
};

static void after_drift(void *arg, const ww_drive_t *d, ww_hdrift_t *b)
{
	struct drifts *x = arg;

	CHECK_STR(d->id, "a-drive");
	b->base_n = 7; /* what the service's hook would fill in */
	b->base_p99_s = 0.5;
	pthread_mutex_lock(&x->mu);
	x->n++;
	x->last = *b;
	pthread_mutex_unlock(&x->mu);
}

static int drift_latest(void *arg, const char *id, ww_hdrift_t *out)
{
	struct drifts *x = arg;

	if (!x->kept_t || strcmp(id, "a-drive"))
		return 0;
	memset(out, 0, sizeof(*out));
	out->t = x->kept_t;
	out->has_latency = true;
	out->p99_s = 0.123;
	out->base_n = 5;
	out->base_p99_s = 0.1;
	return 1;
}

static void put(const char *root, const char *rel, const char *text)
{
	char p[4096], cmd[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	if (system(cmd))
		return;
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void make_drive(const char *root, ww_drive_t *d, const char *id, const char *block,
		       const char *path)
{
	char rel[128];
	unsigned char *buf = calloc(1, FILE_BYTES);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && buf && write(fd, buf, FILE_BYTES) == (ssize_t)FILE_BYTES);
	if (fd >= 0)
		close(fd);
	free(buf);
	memset(d, 0, sizeof(*d));
	snprintf(d->id, sizeof(d->id), "%s", id);
	snprintf(d->block, sizeof(d->block), "%s", block);
	snprintf(d->dev_path, sizeof(d->dev_path), "%s", path);
	d->logical_block_bytes = 512;
	snprintf(rel, sizeof(rel), "sys/block/%s/size", block);
	put(root, rel, "2048\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/inflight", block);
	put(root, rel, "       0        0\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/stat", block);
	put(root, rel, "     100        0     800       10        0        0        0        0        0       10       10\n");
	snprintf(rel, sizeof(rel), "sys/block/%s/device/power/runtime_status", block);
	put(root, rel, "active\n");
}

static bool wait_bursts(struct seen *s, int a, int b, unsigned ms)
{
	for (unsigned i = 0; i < ms / 10; i++) {
		bool ok;

		pthread_mutex_lock(&s->mu);
		ok = s->n[0] >= a && s->n[1] >= b;
		pthread_mutex_unlock(&s->mu);
		if (ok)
			return true;
		usleep(10000);
	}
	return false;
}

static bool lookup(void *ctx, const ww_drive_t *d, ww_probe_policy_t *out)
{
	ww_probe_policy_t *p = ctx;

	*out = d->id[0] == 'a' ? p[0] : p[1];
	return true;
}

static bool drift_count(struct drifts *x, int n)
{
	bool ok = false;

	for (int i = 0; i < 1000 && !ok; i++) {
		pthread_mutex_lock(&x->mu);
		ok = x->n >= n;
		pthread_mutex_unlock(&x->mu);
		if (!ok)
			usleep(10000);
	}
	return ok;
}

/* drive id's state from the store without its health and report (these
 * tests read the scheduler's parts only) */
static int state_of(ww_store_t *s, const char *id, ww_drive_state_t *ds)
{
	int rc = ww_store_get(s, id, ds);

	if (rc == 0)
		ww_drive_state_put(ds);
	return rc;
}

/* the store's summary of drive id, bounded wait for cond */
static bool summary_until(ww_store_t *st, const char *id, ww_drive_state_t *ds,
			  bool (*cond)(const ww_drive_state_t *))
{
	for (int i = 0; i < 500; i++) {
		if (state_of(st, id, ds) == 0 && cond(ds))
			return true;
		usleep(10000);
	}
	return false;
}

static bool is_busy(const ww_drive_state_t *ds)
{
	return ds->probe.drift_skip && !strcmp(ds->probe.drift_skip, "busy");
}

static bool light_done(const ww_drive_state_t *ds)
{
	return ds->has_probe && ds->probe.window_reads == 4;
}

static bool light_done2(const ww_drive_state_t *ds)
{
	return ds->has_probe && ds->probe.window_reads == 8;
}

static bool has_kept(const ww_drive_state_t *ds)
{
	return ds->probe.has_drift;
}

static void test_drift(const char *root, ww_store_t *st, ww_probe_policy_t *pol,
		       ww_probe_sched_cfg_t *cfg)
{
	struct drifts x = { .mu = PTHREAD_MUTEX_INITIALIZER };
	ww_drive_state_t *ds = malloc(sizeof(*ds));
	ww_probe_sched_t *sc;
	int err = 0;

	put(root, "sys/block/pa/device/power/runtime_status", "active\n");
	for (int i = 0; i < 2; i++) {
		ww_probe_policy_default(&pol[i]);
		pol[i].interval_s = 60;
		pol[i].count = 4;
	}
	pol[0].drift_interval_s = 100;
	pol[0].drift_seconds = 2;
	pol[0].drift_qd = 4;
	pol[1].drift_interval_s = 0;
	cfg->after_burst = NULL;
	cfg->after_drift = after_drift;
	cfg->drift_latest = drift_latest;
	cfg->after_burst_arg = &x;
	sc = ww_probe_sched_start(cfg, st, &err);
	running = sc;
	CHECK(sc != NULL && ds != NULL);
	if (!sc || !ds)
		goto out;
	/* not due before a drift interval on the scheduler's clock, not even
	 * with the next light probes */
	CHECK(summary_until(st, "a-drive", ds, light_done));
	CHECK(!ds->probe.has_drift);
	CHECK_EQ_U64(x.n, 0);
	step(60.0);
	CHECK(summary_until(st, "a-drive", ds, light_done2));
	CHECK_EQ_U64(x.n, 0);
	step(40.0);
	CHECK(drift_count(&x, 1));
	CHECK(state_of(st, "a-drive", ds) == 0);
	printf("drift burst: %u reads at qd %u, p50 %.6f s p99 %.6f s mean %.6f s\n",
	       ds->probe.drift_reads, ds->probe.drift_qd, ds->probe.drift_p50_s,
	       ds->probe.drift_p99_s, ds->probe.drift_mean_s);
	CHECK(ds->probe.has_drift);
	CHECK_EQ_U64(ds->probe.drift_qd, 4);
	CHECK(ds->probe.drift_reads > 0 && ds->probe.drift_reads == x.last.reads);
	CHECK_EQ_U64(ds->probe.drift_errors, 0);
	CHECK(x.last.has_latency && x.last.p99_s >= x.last.p50_s && x.last.p50_s > 0);
	CHECK_EQ_U64(ds->probe.drift_base_n, 7);
	CHECK(ds->probe.drift_base_p99_s == 0.5);
	CHECK(ds->probe.drift_skip == NULL);
	/* the drift reads stayed out of the light probes' window: 2 bursts x 4 */
	CHECK_EQ_U64(ds->probe.window_reads, 8);
	CHECK_EQ_U64(ds->probe.reads_total, 8);
	CHECK_EQ_U64(x.n, 1);

	/* at idle only: I/O in flight on a, the next drift burst waits */
	put(root, "sys/block/pa/inflight", "       2        0\n");
	step(100.0);
	CHECK(summary_until(st, "a-drive", ds, is_busy));
	CHECK_EQ_U64(x.n, 1);
	ww_probe_sched_stop(sc);
	running = NULL;
	put(root, "sys/block/pa/inflight", "       0        0\n");

	/* a restart shows the kept burst before any new one */
	x.kept_t = time(NULL) - 10;
	ww_store_set_probe(st, "a-drive", &(ww_probe_summary_t){ 0 }, time(NULL));
	sc = ww_probe_sched_start(cfg, st, &err);
	running = sc;
	CHECK(sc != NULL);
	CHECK(summary_until(st, "a-drive", ds, has_kept));
	CHECK(ds->probe.drift_p99_s == 0.123 && ds->probe.drift_base_n == 5);
	CHECK_EQ_U64(x.n, 1);
	ww_probe_sched_stop(sc);
	running = NULL;
out:
	free(ds);
}

int main(void)
{
	char root[] = "/tmp/ww-probe-sched-XXXXXX", cmd[128];
	const char *fa = "ww-probe-sched-a.img", *fb = "ww-probe-sched-b.img";
	ww_probe_policy_t pol[2];
	ww_probe_sched_cfg_t cfg;
	ww_probe_sched_t *sc;
	struct seen s = { .mu = PTHREAD_MUTEX_INITIALIZER };
	ww_drive_t d[2];
	ww_store_t *st = ww_store_new(0);
	ww_snapshot_t *snap;
	uint64_t t0, gap;
	unsigned long rounds;
	int err = 0, ifd;
	char rs[4200], caller_root[sizeof(root)];

	CHECK(mkdtemp(root) != NULL && st);
	make_drive(root, &d[0], "a-drive", "pa", fa);
	make_drive(root, &d[1], "b-drive", "pb", fb);
	CHECK(ww_store_sync(st, d, 2, 1000) == 0);

	for (int i = 0; i < 2; i++) {
		ww_probe_policy_default(&pol[i]);
		pol[i].interval_s = 60;
		pol[i].count = 20;
		pol[i].max_iops = 100;
		pol[i].drift_interval_s = 0;
	}
	memset(&cfg, 0, sizeof(cfg));
	/* the caller's sysroot string is gone after the start (a reload frees
	 * the generation it was in): overwritten below, the scheduler must
	 * still probe under the tree it was started with */
	snprintf(caller_root, sizeof(caller_root), "%s", root);
	cfg.sysroot = caller_root;
	ww_probe_policy_default(&cfg.policy);
	cfg.lookup = lookup;
	cfg.lookup_ctx = pol;
	cfg.after_burst = after_burst;
	cfg.after_burst_arg = &s;
	cfg.clock = fake_clock;

	/* 1: both due at once, one after the other */
	t0 = ww_probe_now_ns();
	sc = ww_probe_sched_start(&cfg, st, &err);
	running = sc;
	CHECK(sc != NULL && err == 0);
	snprintf(caller_root, sizeof(caller_root), "/nonexistent-sysroot");
	CHECK(wait_bursts(&s, 1, 1, 5000));
	gap = s.end_ns[0] > s.end_ns[1] ? s.end_ns[0] - s.end_ns[1] : s.end_ns[1] - s.end_ns[0];
	printf("bursts ended %.3f s and %.3f s after start, %.3f s apart\n",
	       (double)(s.end_ns[0] - t0) / 1e9, (double)(s.end_ns[1] - t0) / 1e9, (double)gap / 1e9);
	CHECK(gap >= 150000000ull);
	CHECK_EQ_U64(s.reads[0], 20);
	CHECK_EQ_U64(s.reads[1], 20);
	/* the 60 s interval on the scheduler's clock: nothing more until it
	 * passes, then one more burst each */
	pthread_mutex_lock(&s.mu);
	CHECK(s.n[0] == 1 && s.n[1] == 1);
	pthread_mutex_unlock(&s.mu);
	/* and meanwhile the thread sleeps: not one round of its loop in a
	 * second with both drives 60 s from due (it went round every 200 ms) */
	usleep(100000);
	rounds = ww_probe_sched_rounds(sc);
	usleep(1000000);
	printf("rounds of the idle probe thread in 1 s: %lu\n", ww_probe_sched_rounds(sc) - rounds);
	CHECK_EQ_U64(ww_probe_sched_rounds(sc) - rounds, 0);
	step(60.0);
	CHECK(wait_bursts(&s, 2, 2, 5000));
	ww_probe_sched_stop(sc);
	running = NULL;
	cfg.sysroot = root;

	/* 2: drive a suspends 300 ms into a ~1 s burst */
	memset(s.n, 0, sizeof(s.n));
	pol[0].count = 100;
	pol[1].enabled = false;
	snprintf(rs, sizeof(rs), "%s/sys/block/pa/device/power/runtime_status", root);
	ifd = inotify_init1(IN_CLOEXEC);
	CHECK(ifd >= 0 && inotify_add_watch(ifd, rs, IN_OPEN) >= 0);
	sc = ww_probe_sched_start(&cfg, st, &err);
	running = sc;
	CHECK(sc != NULL);
	CHECK(wait_opens(ifd, 30));
	put(root, "sys/block/pa/device/power/runtime_status", "suspended\n");
	close(ifd);
	CHECK(wait_bursts(&s, 1, 0, 5000));
	ww_probe_sched_stop(sc);
	running = NULL;
	printf("burst on the suspending drive: %u of 100 reads\n", s.reads[0]);
	CHECK(s.reads[0] >= 5 && s.reads[0] < 90);
	snap = ww_store_acquire(st);
	for (size_t i = 0; i < snap->n; i++)
		if (!strcmp(snap->drives[i]->drive->id, "a-drive")) {
			CHECK(snap->drives[i]->has_probe);
			CHECK_STR(snap->drives[i]->probe.skip_reason, "runtime-suspended");
			CHECK_EQ_U64(snap->drives[i]->probe.last_reads, s.reads[0]);
		}
	ww_snapshot_release(snap);

	test_drift(root, st, pol, &cfg);
	ww_store_free(st);
	unlink(fa);
	unlink(fb);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return ww_test_done("test_sched_probe");
}
