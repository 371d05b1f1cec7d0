/* The poller keeps going when a drive hangs: a read that never returns marks
 * that drive hung, it gets no second command, the other drives keep being
 * read on their interval, and a scrape (metrics render of the snapshot) is
 * served meanwhile. Drives and reads are fakes injected through the poller's
 * discover/collect hooks, and time is a fake clock (cfg.clock) the test steps
 * by hand; the rest (store, scheduler, worker threads, renderer) is the real
 * code. The test waits only for the worker threads to settle
 * (ww_poller_busy), never for a timer. */
#include <pthread.h>
#include <time.h>

#include "ww_test.h"

#include "wearwatch/sched.h"
#include "wearwatch/expo.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t release_cv = PTHREAD_COND_INITIALIZER;
static bool released;
static int calls_a, calls_b, calls_c;
static double fake_now = 1000.0; /* seconds, any origin; under mu */

static double fake_clock(void *ctx)
{
	double t;

	(void)ctx;
	pthread_mutex_lock(&mu);
	t = fake_now;
	pthread_mutex_unlock(&mu);
	return t;
}

static void step(double s)
{
	pthread_mutex_lock(&mu);
	fake_now += s;
	pthread_mutex_unlock(&mu);
}

static int fake_discover(const char *sysroot, const char *const *include, ww_drive_t **list)
{
	const char *ids[] = { "drive-a", "drive-b-hangs", "drive-c" };
	ww_drive_t *out = calloc(3, sizeof(*out));

	if (!out)
		return -ENOMEM;
	*list = out;
	for (size_t i = 0; i < 3; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].id, sizeof(out[i].id), "%s", ids[i]);
		snprintf(out[i].dev_path, sizeof(out[i].dev_path), "/dev/fake%zu", i);
		out[i].protocol = WW_PROTO_SCSI;
	}
	return 3;
}

static int fake_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r)
{
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	h->protocol = WW_PROTO_SCSI;
	WW_SET(h->temperature_celsius, 30, "test");
	pthread_mutex_lock(&mu);
	if (!strcmp(d->id, "drive-b-hangs")) {
		calls_b++;
		while (!released) /* like an SG_IO stuck in the kernel */
			pthread_cond_wait(&release_cv, &mu);
	} else if (!strcmp(d->id, "drive-a")) {
		calls_a++;
	} else {
		calls_c++;
	}
	pthread_mutex_unlock(&mu);
	return 0;
}

/* Wait (bounded, 5 s of real time) until `busy` reads are out and drive b
 * was called at least `b` times: the workers have finished what the last
 * tick queued. */
static bool settle(ww_poller_t *p, unsigned busy, int b)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 5000; i++) {
		bool ok;

		pthread_mutex_lock(&mu);
		ok = calls_b >= b;
		pthread_mutex_unlock(&mu);
		if (ok && ww_poller_busy(p) == busy)
			return true;
		nanosleep(&ms, NULL);
	}
	return false;
}

static const ww_drive_state_t *state(const ww_snapshot_t *s, const char *id)
{
	return ww_snapshot_find(s, id);
}

/* a large JBOD: 1000 drives discovered, every one of them watched (a fixed
 * table of 256 once kept only the first ones without saying so) */
static int many_discover(const char *sysroot, const char *const *include, ww_drive_t **list)
{
	size_t n = 1000;
	ww_drive_t *out = calloc(n, sizeof(*out));

	if (!out)
		return -ENOMEM;
	*list = out;
	for (size_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].id, sizeof(out[i].id), "jbod-%04zu", i);
		out[i].protocol = WW_PROTO_SCSI;
	}
	return (int)n;
}

static int quick_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			 ww_read_report_t *r)
{
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	return 0;
}

static void test_many_drives(void)
{
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "", .interval_s = 60, .interval_rotational_s = 60, .rediscover_s = 60,
		.workers = 2, .hung_after_s = 30, .discover = many_discover, .collect = quick_collect,
		.clock = fake_clock,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	ww_snapshot_t *s;

	CHECK(p != NULL);
	if (!p)
		return;
	ww_poller_tick(p, NULL);
	s = ww_store_acquire(store);
	CHECK_EQ_U64(s->n, 1000);
	CHECK(ww_snapshot_find(s, "jbod-0999") != NULL);
	ww_snapshot_release(s);
	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
}

static int one_discover(const char *sysroot, const char *const *include, ww_drive_t **list)
{
	ww_drive_t *out = calloc(1, sizeof(*out));

	if (!out)
		return -ENOMEM;
	snprintf(out->id, sizeof(out->id), "solo");
	out->protocol = WW_PROTO_SCSI;
	*list = out;
	return 1;
}

/* what the main loop sleeps on: the drive is due one interval after its read
 * ended, then the next rediscovery; a tick just after that reads it again */
static void test_next_tick(void)
{
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "", .interval_s = 60, .interval_rotational_s = 600, .rediscover_s = 3600,
		.workers = 1, .hung_after_s = 30, .discover = one_discover, .collect = quick_collect,
		.clock = fake_clock,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	ww_snapshot_t *s;
	double next = -1;

	CHECK(p != NULL);
	if (!p)
		return;
	/* discovery, first read queued: one out, and a tick asked for when it
	 * has waited 50 ms for a reader */
	CHECK_EQ_U64(ww_poller_tick(p, &next), 1);
	CHECK(next > 0.0499 && next < 0.0501);
	CHECK(settle(p, 0, 0));
	CHECK(ww_poller_next_tick(p) > 59.999 && ww_poller_next_tick(p) < 60.001);
	step(30);
	CHECK(ww_poller_next_tick(p) > 29.999 && ww_poller_next_tick(p) < 30.001);
	/* nothing due: no read, and the tick says what ww_poller_next_tick does */
	CHECK_EQ_U64(ww_poller_tick(p, &next), 0);
	CHECK(next > 29.999 && next < 30.001);
	CHECK_EQ_U64(ww_poller_busy(p), 0);
	step(30.01);
	CHECK_EQ_I64((long long)ww_poller_next_tick(p), 0);
	ww_poller_tick(p, NULL); /* due: read again */
	CHECK(settle(p, 0, 0));
	s = ww_store_acquire(store);
	CHECK(state(s, "solo") && state(s, "solo")->collections_total == 2);
	ww_snapshot_release(s);
	CHECK(ww_poller_next_tick(p) > 59.999 && ww_poller_next_tick(p) < 60.001);
	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
}

/* drive b's read holds until slow_done: scsi_debug's delay or a slow SAS
 * drive, still inside the read when a reload asks the readers to stop */
static bool slow_done;
static int slow_calls_a, slow_calls_b;

static int slow_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r)
{
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	pthread_mutex_lock(&mu);
	if (!strcmp(d->id, "drive-b-hangs")) {
		slow_calls_b++;
		while (!slow_done)
			pthread_cond_wait(&release_cv, &mu);
	} else if (!strcmp(d->id, "drive-a")) {
		slow_calls_a++;
	}
	pthread_mutex_unlock(&mu);
	return 0;
}

static int slow_calls(int *n)
{
	int v;

	pthread_mutex_lock(&mu);
	v = *n;
	pthread_mutex_unlock(&mu);
	return v;
}

/* ww_poller_try_stop with a read still running: the stop is undone, the
 * other drives are read on their interval as before; once the read is
 * back, the stop succeeds. It was ww_poller_stop, whose timeout left a
 * poller that read nothing more, and the service exited. */
static void test_try_stop(void)
{
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "",
		.interval_s = 1,
		.interval_rotational_s = 1,
		.rediscover_s = 60,
		.workers = 2,
		.hung_after_s = 30,
		.discover = fake_discover,
		.collect = slow_collect,
		.clock = fake_clock,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	struct timespec t0, t1;
	int a;

	CHECK(p != NULL);
	if (!p)
		return;
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 1, 0) && slow_calls(&slow_calls_b) == 1);
	a = slow_calls(&slow_calls_a);
	CHECK_EQ_I64(a, 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(!ww_poller_try_stop(p, 1));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* it waited its 1 s for the read */
	CHECK((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 > 0.9);
	for (int t = 1; t <= 3; t++) {
		step(1.0);
		ww_poller_tick(p, NULL);
		CHECK(settle(p, 1, 0));
	}
	CHECK_EQ_I64(slow_calls(&slow_calls_a), a + 3); /* read on its 1 s interval */
	CHECK_EQ_I64(slow_calls(&slow_calls_b), 1);     /* no second command meanwhile */
	pthread_mutex_lock(&mu);
	slow_done = true;
	pthread_cond_broadcast(&release_cv);
	pthread_mutex_unlock(&mu);
	CHECK(settle(p, 0, 0));
	step(1.0);
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 0, 0));
	CHECK_EQ_I64(slow_calls(&slow_calls_b), 2); /* b is read again after its read ended */
	CHECK(ww_poller_try_stop(p, 5));            /* nothing out: stopped and freed */
	ww_store_free(store);
}

/* five drives whose reads take 0.2, 0.4 ... 1.0 s on the fake clock, one
 * reader: a round of them takes 3 s; a sixth (1.2 s) once round_more */
static const char *const round_ids[] = { "round-0", "round-1", "round-2",
					 "round-3", "round-4", "round-5" };
static int round_calls[6];
static bool round_more;

/* drives named ids[0..n-1], of one protocol, into *list (a discover hook) */
static int list_of(const char *const *ids, int n, ww_protocol_t proto, ww_drive_t **list)
{
	ww_drive_t *out = calloc((size_t)n, sizeof(*out));

	if (!out)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		snprintf(out[i].id, sizeof(out[i].id), "%s", ids[i]);
		out[i].protocol = proto;
	}
	*list = out;
	return n;
}

static int round_discover(const char *sysroot, const char *const *include, ww_drive_t **list)
{
	return list_of(round_ids, round_more ? 6 : 5, WW_PROTO_NVME, list);
}

static int round_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			 ww_read_report_t *r)
{
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < 6; i++)
		if (!strcmp(d->id, round_ids[i])) {
			pthread_mutex_lock(&mu);
			round_calls[i]++;
			fake_now += 0.2 * (double)(i + 1);
			pthread_mutex_unlock(&mu);
		}
	return 0;
}

/* the drives read in one tick are due together again: twenty rounds are
 * twenty ticks that each read all five, though the reads ended up to 3 s
 * apart. Due one interval after its own read's end, each drive's round
 * moved by its read's length: the second round took five ticks. And a
 * drive found between two rounds (due 0.5 s before the round) joins it. */
static void test_rounds_together(void)
{
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "",
		.interval_s = 10,
		.interval_rotational_s = 10,
		.rediscover_s = 3600,
		.workers = 1,
		.hung_after_s = 30,
		.discover = round_discover,
		.collect = round_collect,
		.clock = fake_clock,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	int ticks = 0;
	bool all_each_tick = true;

	CHECK(p != NULL);
	if (!p)
		return;
	for (int round = 1; round <= 20; round++) {
		ww_poller_tick(p, NULL);
		ticks++;
		CHECK(settle(p, 0, 0));
		pthread_mutex_lock(&mu);
		for (size_t i = 0; i < 5; i++)
			all_each_tick = all_each_tick && round_calls[i] == round;
		pthread_mutex_unlock(&mu);
		/* 3 s of reads, then the round's start plus 10 s */
		double wait = ww_poller_next_tick(p);

		CHECK(wait > 6.999 && wait < 7.001);
		step(wait + 0.01);
	}
	CHECK(all_each_tick);
	CHECK_EQ_I64(ticks, 20);

	/* round 21; then, 9.5 s after its start, a sixth drive is found: the
	 * five, due 0.5 s later, are read with it, and the six go on together */
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 0, 0));
	step(6.5);
	pthread_mutex_lock(&mu);
	round_more = true;
	pthread_mutex_unlock(&mu);
	ww_poller_device_event(p, "add", "round-5");
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 0, 0));
	pthread_mutex_lock(&mu);
	CHECK_EQ_I64(round_calls[0], 22);
	CHECK_EQ_I64(round_calls[4], 22);
	CHECK_EQ_I64(round_calls[5], 1);
	pthread_mutex_unlock(&mu);
	double wait = ww_poller_next_tick(p); /* 3 + 1.2 s of reads */

	CHECK(wait > 5.799 && wait < 5.801);
	step(wait + 0.01);
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 0, 0));
	pthread_mutex_lock(&mu);
	CHECK_EQ_I64(round_calls[0], 23);
	CHECK_EQ_I64(round_calls[5], 2);
	pthread_mutex_unlock(&mu);
	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
}

/* three drives, four readers. The first round (no read times yet) wakes a
 * reader per drive; after it, the three short reads of a round are one
 * reader's, in a row. The next round the first drive's read blocks: the
 * others wait for the tick 50 ms after the round was queued
 * (ww_poller_next_tick says so), which wakes every reader, and they are
 * read while the first is still blocked. */
static const char *const share_ids[] = { "share-0-slow", "share-1", "share-2" };
static int share_calls[3];
static pthread_t share_thread[3];
static bool share_block, share_blocked;

static int share_discover(const char *sysroot, const char *const *include, ww_drive_t **list)
{
	return list_of(share_ids, 3, WW_PROTO_SCSI, list);
}

static int share_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			 ww_read_report_t *r)
{
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(d->id, share_ids[i])) {
			share_calls[i]++;
			share_thread[i] = pthread_self();
		}
	if (!strcmp(d->id, share_ids[0]) && share_block) {
		share_blocked = true;
		pthread_cond_broadcast(&release_cv);
		while (share_block)
			pthread_cond_wait(&release_cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	return 0;
}

static void test_reader_share(void)
{
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "",
		.interval_s = 10,
		.interval_rotational_s = 10,
		.rediscover_s = 3600,
		.workers = 4,
		.hung_after_s = 30,
		.discover = share_discover,
		.collect = share_collect,
		.clock = fake_clock,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	struct timespec ms = { 0, 1000000 };
	bool one_reader = true;

	CHECK(p != NULL);
	if (!p)
		return;
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 0, 0));
	for (int round = 2; round <= 6; round++) {
		step(10.0);
		ww_poller_tick(p, NULL);
		CHECK(settle(p, 0, 0));
		pthread_mutex_lock(&mu);
		one_reader = one_reader && share_calls[2] == round &&
			pthread_equal(share_thread[0], share_thread[1]) &&
			pthread_equal(share_thread[1], share_thread[2]);
		pthread_mutex_unlock(&mu);
	}
	CHECK(one_reader);

	pthread_mutex_lock(&mu);
	share_block = true;
	pthread_mutex_unlock(&mu);
	step(10.0);
	ww_poller_tick(p, NULL);
	pthread_mutex_lock(&mu);
	while (!share_blocked)
		pthread_cond_wait(&release_cv, &mu);
	pthread_mutex_unlock(&mu);
	/* the one reader is inside the blocked read; the other two wait */
	nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	CHECK_EQ_I64(slow_calls(&share_calls[1]), 6);
	CHECK_EQ_I64(slow_calls(&share_calls[2]), 6);
	double wait = ww_poller_next_tick(p);

	CHECK(wait > 0.049 && wait < 0.051);
	step(wait + 0.001);
	ww_poller_tick(p, NULL);
	for (int i = 0;
	     i < 5000 && (slow_calls(&share_calls[1]) < 7 || slow_calls(&share_calls[2]) < 7); i++)
		nanosleep(&ms, NULL);
	CHECK_EQ_I64(slow_calls(&share_calls[1]), 7);
	CHECK_EQ_I64(slow_calls(&share_calls[2]), 7);
	CHECK_EQ_I64(slow_calls(&share_calls[0]), 7); /* still inside it */
	/* one wake of everyone per round: no tick asked for again */
	CHECK(ww_poller_next_tick(p) > 1.0);
	pthread_mutex_lock(&mu);
	share_block = false;
	pthread_cond_broadcast(&release_cv);
	pthread_mutex_unlock(&mu);
	CHECK(settle(p, 0, 0));
	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
}

/* On the monotonic clock the readers start each round themselves: after
 * the first tick nobody ticks, and every drive is still read once a second
 * (interval 1 s), the three together, with one wake of the caller per
 * round (its end). Real time: 2.5 s. */
static int keeper_calls[3], keeper_wakes;

static int keeper_discover(const char *sysroot, const char *const *include, ww_drive_t **list)
{
	ww_drive_t *out = calloc(3, sizeof(*out));

	if (!out)
		return -ENOMEM;
	*list = out;
	for (size_t i = 0; i < 3; i++) {
		snprintf(out[i].id, sizeof(out[i].id), "keeper-%zu", i);
		out[i].protocol = WW_PROTO_SCSI;
	}
	return 3;
}

static int keeper_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			  ww_read_report_t *r)
{
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	__atomic_add_fetch(&keeper_calls[d->id[7] - '0'], 1, __ATOMIC_RELAXED);
	return 0;
}

static void keeper_wake(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&keeper_wakes, 1, __ATOMIC_RELAXED);
}

static void test_keeper(void)
{
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "",
		.interval_s = 1,
		.interval_rotational_s = 1,
		.rediscover_s = 3600,
		.workers = 2,
		.hung_after_s = 30,
		.discover = keeper_discover,
		.collect = keeper_collect,
		.wake = keeper_wake,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	struct timespec wait = { 2, 500000000 };
	int n[3], wakes;

	CHECK(p != NULL);
	if (!p)
		return;
	ww_poller_tick(p, NULL); /* the discovery and the first round */
	nanosleep(&wait, NULL);
	for (int i = 0; i < 3; i++)
		n[i] = __atomic_load_n(&keeper_calls[i], __ATOMIC_RELAXED);
	wakes = __atomic_load_n(&keeper_wakes, __ATOMIC_RELAXED);
	/* rounds at 0, 1 and 2 s: three reads of each drive, none more */
	CHECK_EQ_I64(n[0], 3);
	CHECK_EQ_I64(n[1], 3);
	CHECK_EQ_I64(n[2], 3);
	/* the caller was woken at each round's end only */
	CHECK_EQ_I64(wakes, 3);
	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
}

int main(void)
{
	test_keeper();
	test_many_drives();
	test_next_tick();
	test_try_stop();
	test_rounds_together();
	test_reader_share();
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "", .interval_s = 1, .interval_rotational_s = 1, .rediscover_s = 60,
		.workers = 2, .hung_after_s = 2, .discover = fake_discover, .collect = fake_collect,
		.clock = fake_clock,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	int a_at_hang, c_at_hang;

	CHECK(p != NULL);
	if (!p)
		return ww_test_done("test_sched_poller");
	/* t = 0: all three read; b's read never returns. t = 1, 2: a and c
	 * again (1 s interval), b still out but not yet over hung_after_s.
	 * t = 3: b's read is 3 s old (> 2 s): hung; a and c read a 4th time. */
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 1, 1));
	for (int t = 1; t <= 3; t++) {
		step(1.0);
		ww_poller_tick(p, NULL);
		CHECK(settle(p, 1, 1));
	}

	ww_snapshot_t *s = ww_store_acquire(store);
	const ww_drive_state_t *b = state(s, "drive-b-hangs");
	const ww_drive_state_t *a = state(s, "drive-a");
	CHECK(b && b->hung);
	CHECK(a && !a->hung && a->health && a->collections_total >= 3);
	pthread_mutex_lock(&mu);
	a_at_hang = calls_a;
	c_at_hang = calls_c;
	CHECK_EQ_I64(calls_b, 1); /* no second command to a hung drive */
	pthread_mutex_unlock(&mu);
	CHECK(a_at_hang >= 3 && c_at_hang >= 3); /* others kept their 1 s interval */
	CHECK_EQ_I64(a_at_hang, 4);
	CHECK_EQ_I64(c_at_hang, 4);

	/* a scrape during the hang: rendered from the snapshot, says hung */
	size_t len = 0;
	char *text = ww_metrics_render(&(ww_render_ctx_t){ .snap = s, .now = time(NULL) }, &len);
	CHECK(text && len > 0);
	CHECK(text && strstr(text, "wearwatch_drive_hung{drive=\"drive-b-hangs\"} 1"));
	CHECK(text && strstr(text, "wearwatch_drive_temperature_celsius{drive=\"drive-a\"} 30"));
	free(text);
	ww_snapshot_release(s);

	/* the read returns: hung clears, values appear, polling resumes */
	pthread_mutex_lock(&mu);
	released = true;
	pthread_cond_broadcast(&release_cv);
	pthread_mutex_unlock(&mu);
	CHECK(settle(p, 0, 1));
	step(1.0);
	ww_poller_tick(p, NULL);
	CHECK(settle(p, 0, 2));
	s = ww_store_acquire(store);
	b = state(s, "drive-b-hangs");
	CHECK(b && !b->hung && b->health);
	ww_snapshot_release(s);
	pthread_mutex_lock(&mu);
	CHECK(calls_b >= 2);
	pthread_mutex_unlock(&mu);

	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
	return ww_test_done("test_sched_poller");
}
