/* A reload while a drive read is still running (ww_runtime_reload,
 * src/service/runtime.c). It was: SIGHUP with a read out longer than 5 s
 * (scsi_debug's delay, a slow SAS drive) logged "reload: cannot restart
 * reader threads: Device or resource busy", then "error: stopping", exit 1.
 * Now the readers keep running with the poll settings they had, the rest
 * of the configuration is applied, and the next reload applies the poll
 * settings. The drive is the NVMe capture of tests/fixtures/captures read
 * by a fake collect function (the runtime's reader hook) whose first read
 * holds until the test lets it go. Then 100 reloads with renders running
 * must leave one configuration generation in memory. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/collect.h"
#include "wearwatch/http.h"
#include "wearwatch/service.h"
#include "ww_test.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool let_go;
static int reads;

/* the first read holds until let_go, like an SG_IO still in the kernel */
static int slow_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r)
{
	(void)sysroot;
	(void)d;
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	h->protocol = WW_PROTO_NVME;
	pthread_mutex_lock(&mu);
	reads++;
	pthread_cond_broadcast(&cv);
	while (reads == 1 && !let_go)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return 0;
}

/* wait (up to 10 s) until `n` reads were started */
static bool reads_reach(int n)
{
	struct timespec dl;
	bool ok;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 10;
	pthread_mutex_lock(&mu);
	while (reads < n && pthread_cond_timedwait(&cv, &mu, &dl) == 0)
		;
	ok = reads >= n;
	pthread_mutex_unlock(&mu);
	return ok;
}

static double mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static atomic_bool rendering;
static unsigned long renders;

/* /metrics and the drive list rendered in a loop, as HTTP threads do */
static void *render_loop(void *arg)
{
	const ww_route_src_t *src = arg;

	while (atomic_load(&rendering)) {
		ww_route_reply_t r;

		if (ww_route_render(src, renders % 2 ? "/metrics" : "/api/v1/drives", 1700000000,
				    &r) == 0)
			free(r.body);
		renders++;
	}
	return NULL;
}

/* Reload generations are freed once nothing holds them: they were kept
 * until stop (68-77 KiB per SIGHUP). Counted, not timed: 100 reloads with
 * renders running meanwhile (each restarts the readers: the interval
 * alternates) leave one generation; a render holding one keeps it through
 * a reload, and its drop frees it. */
static void test_generations(ww_runtime_t *rt, ww_conf_t *next)
{
	const ww_route_src_t *src = ww_runtime_route_src(rt);
	const ww_thresholds_t *held;
	pthread_t th;
	size_t most = 0;

	/* the current one, and the one the readers still run with (the last
	 * reload did not restart them) */
	CHECK_EQ_U64(ww_runtime_generations(rt), 2);
	atomic_store(&rendering, true);
	CHECK(pthread_create(&th, NULL, render_loop, (void *)src) == 0);
	for (int i = 0; i < 100; i++) {
		size_t n;

		next->interval_s = 60 + (unsigned)(i % 2) * 60;
		CHECK_EQ_I64(ww_runtime_reload(rt, next), 0);
		n = ww_runtime_generations(rt);
		most = n > most ? n : most;
	}
	atomic_store(&rendering, false);
	pthread_join(th, NULL);
	printf("100 reloads, %lu renders meanwhile: at most %zu generations live, %zu after\n",
	       renders, most, ww_runtime_generations(rt));
	CHECK(most <= 3); /* the current, the one a render holds, the previous */
	CHECK_EQ_U64(ww_runtime_generations(rt), 1);
	held = src->hold(src->hold_arg);
	next->interval_s += 60; /* the readers restart: only the render holds it */
	CHECK_EQ_I64(ww_runtime_reload(rt, next), 0);
	CHECK_EQ_U64(ww_runtime_generations(rt), 2);
	CHECK(held->generation + 1 == src->thresholds->generation);
	src->drop(src->hold_arg, held);
	CHECK_EQ_U64(ww_runtime_generations(rt), 1);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char dir[4096], err[512] = "";
	ww_conf_endurance_opts_t eo = { .no_history = true };
	ww_runtime_opts_t o = { .replay = true, .endurance = &eo, .collect = slow_collect };
	const ww_thresholds_t *before;
	static ww_conf_t c, next;
	ww_runtime_t *rt;
	double t0;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/captures/nvme", src ? src : ".");
	if (ww_replay_add(dir) <= 0) {
		fprintf(stderr, "test_service_reload: no capture in %s\n", dir);
		return 1;
	}
	ww_conf_defaults(&c);
	c.history_off = true;
	rt = ww_runtime_start(&c, &o, err, sizeof(err));
	CHECK(rt != NULL);
	if (!rt) {
		fprintf(stderr, "  %s\n", err);
		return ww_test_done("test_service_reload");
	}
	CHECK(reads_reach(1)); /* the first read is out, and stays out */

	/* new poll interval and retention: the poller cannot stop */
	next = c;
	next.interval_s = c.interval_s * 2;
	next.missing_retention_s = c.missing_retention_s + 60;
	before = ww_runtime_route_src(rt)->thresholds;
	t0 = mono();
	CHECK_EQ_I64(ww_runtime_reload(rt, &next), 1);
	CHECK(mono() - t0 > 4.5); /* it gave the read its 5 s */
	/* the rest was applied: a new generation's thresholds are rendered */
	CHECK(ww_runtime_route_src(rt)->thresholds != before);
	CHECK_EQ_U64(ww_runtime_poll_conf(rt)->interval_s, c.interval_s);

	/* the read returns: its drive is in the store, read by the same
	 * readers (no restart, so no second read yet) */
	pthread_mutex_lock(&mu);
	let_go = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 500; i++) {
		ww_snapshot_t *s = ww_store_acquire(ww_runtime_store(rt));
		bool done = s->n == 1 && s->drives[0]->collections_total == 1;

		ww_snapshot_release(s);
		if (done)
			break;
		struct timespec ms = { 0, 10000000 };
		nanosleep(&ms, NULL);
	}
	ww_snapshot_t *s = ww_store_acquire(ww_runtime_store(rt));
	CHECK(s->n == 1 && s->drives[0]->collections_total == 1);
	ww_snapshot_release(s);

	/* the same file again: the poll settings still differ from what the
	 * readers run with, so now they restart (a new discovery reads the
	 * drive at once) */
	t0 = mono();
	CHECK_EQ_I64(ww_runtime_reload(rt, &next), 0);
	CHECK(reads_reach(2));
	CHECK_EQ_U64(ww_runtime_poll_conf(rt)->interval_s, next.interval_s);
	/* and once more: nothing to restart */
	CHECK_EQ_I64(ww_runtime_reload(rt, &next), 0);
	test_generations(rt, &next);
	ww_runtime_stop(rt);
	return ww_test_done("test_service_reload");
}
