/* The heap trim of the service's tick (ww_runtime_tick, src/service/
 * runtime.c) runs once a round's reads are in, not at every tick that saw
 * the store change: a trim between two reads gave back pages the next read
 * faulted in again. Counted, not timed (ww_runtime_trims): the three
 * captures of tests/fixtures/captures are read by a fake collect function
 * (the runtime's reader hook) that holds every read until the test lets
 * them go; ticks while they are out trim nothing, the round's end trims
 * once (made: the test leaves 1 MiB free in the middle of the heap), and
 * ticks with nothing changed after it trim nothing. The ticks while reads
 * are out ask to be called again within a second, the ones after the
 * round not before the drives are due again. A change after that trim
 * makes no second one within the minute (TRIM_EVERY_S) on the runtime's
 * clock, here a fake one: none at a tick 58.5 s on, with nothing read then,
 * and past a minute the one held back. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/collect.h"
#include "wearwatch/service.h"
#include "ww_test.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool let_go;
static int reads;
/* the runtime's clock (ww_runtime_opts_t.clock), ms: read by the readers too */
static long long fake_ms = 1000000;

static double fake_clock(void *ctx)
{
	(void)ctx;
	return __atomic_load_n(&fake_ms, __ATOMIC_RELAXED) / 1e3;
}

static void advance(double s)
{
	__atomic_add_fetch(&fake_ms, (long long)(s * 1e3), __ATOMIC_RELAXED);
}

static int held_collect(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r)
{
	(void)sysroot;
	(void)d;
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	h->protocol = d->protocol;
	pthread_mutex_lock(&mu);
	reads++;
	pthread_cond_broadcast(&cv);
	while (!let_go)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return 0;
}

/* 1 MiB freed in the middle of the heap (a pin above it keeps it off the
 * top), as a round that took much and gave it back leaves it */
static void *freed_middle(void)
{
	void *chunk[64], *pin;

	for (int i = 0; i < 64; i++)
		chunk[i] = malloc(16 * 1024);
	pin = malloc(64);
	for (int i = 0; i < 64; i++)
		free(chunk[i]);
	return pin;
}

static void nap_ms(long ms)
{
	struct timespec t = { 0, ms * 1000000 };

	nanosleep(&t, NULL);
}

/* drives in the store, and how many of them were read */
static size_t collected(ww_runtime_t *rt, size_t *n)
{
	ww_snapshot_t *s = ww_store_acquire(ww_runtime_store(rt));
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		k += s->drives[i]->collections_total > 0;
	*n = s->n;
	ww_snapshot_release(s);
	return k;
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	const char *kinds[] = { "nvme", "sas", "sata" };
	char dir[4096], err[512] = "";
	ww_conf_endurance_opts_t eo = { .no_history = true };
	ww_runtime_opts_t o = {
		.replay = true, .endurance = &eo, .collect = held_collect, .clock = fake_clock
	};
	static ww_conf_t c;
	ww_runtime_t *rt;
	size_t n = 0;
	int ticks = 0;
	void *pin;

	for (size_t i = 0; i < 3; i++) {
		snprintf(dir, sizeof(dir), "%s/tests/fixtures/captures/%s", src ? src : ".",
			 kinds[i]);
		if (ww_replay_add(dir) <= 0) {
			fprintf(stderr, "test_service_trim: no capture in %s\n", dir);
			return 1;
		}
	}
	ww_conf_defaults(&c);
	c.history_off = true;
	/* no probe thread: its look at the drives after a change would be a
	 * change of the store of its own, after the round */
	c.probe.enabled = false;
	rt = ww_runtime_start(&c, &o, err, sizeof(err));
	CHECK(rt != NULL);
	if (!rt) {
		fprintf(stderr, "  %s\n", err);
		return ww_test_done("test_service_trim");
	}
	/* the drives are in the store (a change), their reads are out */
	pthread_mutex_lock(&mu);
	while (reads < 1)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	/* while reads are out the loop is asked back within a second (their
	 * events wait at most that long; the round's end wakes it at once) */
	for (int i = 0; i < 3; i++)
		CHECK(ww_runtime_tick(rt) <= 1.0);
	CHECK_EQ_U64(collected(rt, &n), 0);
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_U64(ww_runtime_trims(rt), 0);

	/* the reads come in one after another; the ticks meanwhile see the
	 * store change, the one after the last read trims: it is made, as the
	 * heap has 1 MiB to give back */
	pin = freed_middle();
	pthread_mutex_lock(&mu);
	let_go = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 1000 && (collected(rt, &n) < 3 || !ww_runtime_trims(rt)); i++) {
		ww_runtime_tick(rt);
		ticks++;
		nap_ms(5);
	}
	CHECK_EQ_U64(collected(rt, &n), 3);
	CHECK_EQ_U64(ww_runtime_trims(rt), 1);
	/* nothing changed since: no trim, and the loop may sleep until the
	 * drives are due again (the default poll interval, a minute) */
	for (int i = 0; i < 5; i++)
		CHECK(ww_runtime_tick(rt) > 1.0);
	printf("one round of 3 reads, %d ticks while they came in: %llu trim\n", ticks,
	       (unsigned long long)ww_runtime_trims(rt));
	CHECK_EQ_U64(ww_runtime_trims(rt), 1);
#ifndef __SANITIZE_ADDRESS__
	/* under AddressSanitizer malloc is its allocator: mallinfo2() says
	 * nothing of it, so nothing is ever worth trimming there */
	CHECK_EQ_U64(ww_runtime_trims_made(rt), 1);
#endif

	/* a change of the store (a drive marked hung and back) with 1 MiB
	 * more to give back: due, but held back within the minute */
	{
		ww_snapshot_t *s = ww_store_acquire(ww_runtime_store(rt));
		char id[sizeof(s->drives[0]->drive->id)];
		void *pin2;

		snprintf(id, sizeof(id), "%s", s->drives[0]->drive->id);
		ww_snapshot_release(s);
		pin2 = freed_middle();
		ww_store_set_hung(ww_runtime_store(rt), id, true, time(NULL));
		ww_store_set_hung(ww_runtime_store(rt), id, false, time(NULL));
		ww_runtime_tick(rt);
		CHECK_EQ_U64(ww_runtime_trims(rt), 1);
		/* 58.5 s on: idle (no drive due before 60 s, less the second
		 * the poller reads early: the tick asks for no call within a
		 * second), and the trim still held back */
		advance(58.5);
		CHECK(ww_runtime_tick(rt) > 1.0);
		CHECK_EQ_U64(ww_runtime_trims(rt), 1);
		/* past the minute: the trim held back (the drives, due again,
		 * are read first: the trim waits for the round's end) */
		advance(1.6);
		for (int i = 0; i < 1000 && ww_runtime_trims(rt) < 2; i++) {
			ww_runtime_tick(rt);
			nap_ms(5);
		}
		CHECK_EQ_U64(ww_runtime_trims(rt), 2);
#ifndef __SANITIZE_ADDRESS__
		CHECK_EQ_U64(ww_runtime_trims_made(rt), 2);
#endif
		printf("a change, idle 58.5 s after the trim: none; past a minute: %llu trims\n",
		       (unsigned long long)ww_runtime_trims(rt));
		free(pin2);
	}
	ww_runtime_stop(rt);
	free(pin);
	return ww_test_done("test_service_trim");
}
