/* The poller keeps going when a drive hangs: a read that never returns marks
 * that drive hung, it gets no second command, the other drives keep being
 * read on their interval, and a scrape (metrics render of the snapshot) is
 * served meanwhile. Drives and reads are fakes injected through the poller's
 * discover/collect hooks; the rest (store, scheduler, workers, renderer) is
 * the real code. Real time: about 6 s. */
#include <pthread.h>
#include <unistd.h>

#include "ww_test.h"

#include "wearwatch/sched.h"
#include "wearwatch/expo.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t release_cv = PTHREAD_COND_INITIALIZER;
static bool released;
static int calls_a, calls_b, calls_c;

static int fake_discover(const char *sysroot, const char *const *include, ww_drive_t *out,
			 size_t max)
{
	const char *ids[] = { "drive-a", "drive-b-hangs", "drive-c" };

	for (size_t i = 0; i < 3 && i < max; i++) {
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

static const ww_drive_state_t *state(const ww_snapshot_t *s, const char *id)
{
	return ww_snapshot_find(s, id);
}

/* a large JBOD: 1000 drives discovered, every one of them watched (the poller
 * used to keep only the first 256 without saying so) */
static int many_discover(const char *sysroot, const char *const *include, ww_drive_t *out,
			 size_t max)
{
	size_t n = max < 1000 ? max : 1000;

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
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	ww_snapshot_t *s;

	CHECK(p != NULL);
	if (!p)
		return;
	ww_poller_tick(p);
	s = ww_store_acquire(store);
	CHECK_EQ_U64(s->n, 1000);
	CHECK(ww_snapshot_find(s, "jbod-0999") != NULL);
	ww_snapshot_release(s);
	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
}

int main(void)
{
	test_many_drives();
	ww_store_t *store = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = "", .interval_s = 1, .interval_rotational_s = 1, .rediscover_s = 60,
		.workers = 2, .hung_after_s = 2, .discover = fake_discover, .collect = fake_collect,
	};
	ww_poller_t *p = ww_poller_start(&cfg, store);
	int a_at_hang, c_at_hang;

	CHECK(p != NULL);
	if (!p)
		return ww_test_done("test_poller");
	for (int i = 0; i < 5; i++) { /* 5 s with the 1 s timer step */
		ww_poller_tick(p);
		sleep(1);
	}
	ww_poller_tick(p);

	ww_snapshot_t *s = ww_store_acquire(store);
	const ww_drive_state_t *b = state(s, "drive-b-hangs");
	const ww_drive_state_t *a = state(s, "drive-a");
	CHECK(b && b->hung);
	CHECK(a && !a->hung && a->has_health && a->collections_total >= 3);
	pthread_mutex_lock(&mu);
	a_at_hang = calls_a;
	c_at_hang = calls_c;
	CHECK_EQ_I64(calls_b, 1); /* no second command to a hung drive */
	pthread_mutex_unlock(&mu);
	CHECK(a_at_hang >= 3 && c_at_hang >= 3); /* others kept their 1 s interval */

	/* a scrape during the hang: rendered from the snapshot, says hung */
	size_t len = 0;
	char *text = ww_metrics_render(s, time(NULL), &len);
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
	for (int i = 0; i < 3; i++) {
		ww_poller_tick(p);
		sleep(1);
	}
	s = ww_store_acquire(store);
	b = state(s, "drive-b-hangs");
	CHECK(b && !b->hung && b->has_health);
	ww_snapshot_release(s);
	pthread_mutex_lock(&mu);
	CHECK(calls_b >= 2);
	pthread_mutex_unlock(&mu);

	CHECK(ww_poller_stop(p, 5));
	ww_store_free(store);
	return ww_test_done("test_poller");
}
