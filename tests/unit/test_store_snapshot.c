/* Store: present -> missing -> dropped after retention, standby keeps the last
 * values with their age, failures count errors, and snapshot references keep
 * an old snapshot valid while new ones are swapped in. All times are a fake
 * clock passed as `now`. */
#include <errno.h>
#include <pthread.h>

#include "ww_test.h"
#include "wearwatch/store.h"

static ww_drive_t mk_drive(const char *id, const char *block)
{
	ww_drive_t d;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "%s", id);
	snprintf(d.block, sizeof(d.block), "%s", block);
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/%s", block);
	d.protocol = WW_PROTO_NVME;
	d.transport = WW_TRANSPORT_NVME;
	return d;
}

static void test_lifecycle(void)
{
	ww_store_t *s = ww_store_new(100);
	ww_drive_t d[2] = { mk_drive("nvme-b", "nvme1n1"), mk_drive("nvme-a", "nvme0n1") };
	ww_snapshot_t *snap;
	const ww_drive_state_t *st;
	time_t t0 = 1700000000;

	CHECK(s != NULL);
	CHECK_EQ_I64(ww_store_sync(s, d, 2, t0), 0);
	snap = ww_store_acquire(s);
	CHECK_EQ_U64(snap->n, 2);
	/* sorted by id */
	CHECK_STR(snap->drives[0]->drive->id, "nvme-a");
	CHECK_STR(snap->drives[1]->drive->id, "nvme-b");
	st = ww_snapshot_find(snap, "nvme-b");
	CHECK(st && st->present && st->first_seen == t0 && st->missing_since == 0);
	CHECK(ww_snapshot_find(snap, "nope") == NULL);
	ww_snapshot_release(snap);

	/* nvme-b disappears at t0+10 */
	CHECK_EQ_I64(ww_store_sync(s, d + 1, 1, t0 + 10), 0);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "nvme-b");
	CHECK(st && !st->present);
	CHECK_EQ_I64(st ? st->missing_since : 0, t0 + 10);
	CHECK(!ww_drive_state_expired(st, 100, t0 + 110));
	CHECK(ww_drive_state_expired(st, 100, t0 + 111));
	ww_snapshot_release(snap);

	/* still gone at t0+110 (exactly the retention): kept, missing_since unchanged */
	ww_store_sync(s, d + 1, 1, t0 + 110);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "nvme-b");
	CHECK(st && !st->present);
	CHECK_EQ_I64(st ? st->missing_since : 0, t0 + 10);
	ww_snapshot_release(snap);

	/* one second past the retention: dropped */
	ww_store_sync(s, d + 1, 1, t0 + 111);
	snap = ww_store_acquire(s);
	CHECK_EQ_U64(snap->n, 1);
	CHECK(ww_snapshot_find(snap, "nvme-b") == NULL);
	CHECK(ww_snapshot_find(snap, "nvme-a") != NULL);
	ww_snapshot_release(snap);

	/* a drive that comes back before expiry is present again */
	ww_store_sync(s, d, 1, t0 + 200); /* only nvme-b, new again */
	ww_store_sync(s, d + 1, 1, t0 + 210); /* b gone, a back */
	ww_store_sync(s, d, 2, t0 + 220);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "nvme-a");
	CHECK(st && st->present && st->missing_since == 0);
	st = ww_snapshot_find(snap, "nvme-b");
	CHECK(st && st->present && st->first_seen == t0 + 200);
	ww_snapshot_release(snap);
	ww_store_free(s);
}

static void test_standby_and_errors(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d = mk_drive("ata-X", "sda");
	ww_health_t h;
	ww_read_report_t r;
	ww_snapshot_t *snap;
	const ww_drive_state_t *st;
	time_t t0 = 1700000000;

	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	WW_SET(h.temperature_celsius, 41, "test");
	WW_SET(h.power_on_seconds, 3600, "test");
	r.n_errors = 2;
	ww_store_sync(s, &d, 1, t0);
	CHECK_EQ_I64(ww_store_update(s, "ata-X", 0, &h, &r, 0.25, t0 + 1), 0);
	CHECK_EQ_I64(ww_store_update(s, "unknown", 0, &h, &r, 0.25, t0 + 1), -ENOENT);

	/* standby at t0+61: values kept, standby since then */
	CHECK_EQ_I64(ww_store_update(s, "ata-X", 1, NULL, NULL, 0.01, t0 + 61), 0);
	/* still standby at t0+121: since unchanged */
	ww_store_update(s, "ata-X", 1, NULL, NULL, 0.01, t0 + 121);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "ata-X");
	CHECK(st && st->standby && st->health && st->last_success);
	CHECK_EQ_I64(st->standby_since, t0 + 61);
	CHECK_EQ_I64(st->health->temperature_celsius.value, 41);
	CHECK_EQ_I64(st->values_time, t0 + 1);
	CHECK_EQ_I64(ww_drive_state_values_age(st, t0 + 121), 120);
	CHECK_EQ_I64(st->last_collect, t0 + 121);
	CHECK_EQ_U64(st->collections_total, 3);
	CHECK_EQ_U64(st->errors_total, 2); /* two failed commands in the first read */
	ww_snapshot_release(snap);

	/* failure: values still kept, error counted, success 0 */
	ww_store_update(s, "ata-X", -EIO, NULL, NULL, 5.0, t0 + 181);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "ata-X");
	CHECK(st && !st->last_success && st->health);
	CHECK_EQ_I64(st->last_rc, -EIO);
	CHECK_EQ_U64(st->errors_total, 3);
	ww_snapshot_release(snap);

	/* a new read ends standby and refreshes the values */
	h.temperature_celsius.value = 39;
	r.n_errors = 0;
	ww_store_update(s, "ata-X", 0, &h, &r, 0.2, t0 + 241);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "ata-X");
	CHECK(st && !st->standby && st->standby_since == 0 && st->last_success);
	CHECK_EQ_I64(st->health->temperature_celsius.value, 39);
	CHECK_EQ_I64(ww_drive_state_values_age(st, t0 + 241), 0);
	ww_snapshot_release(snap);

	/* hung: set once (since kept), cleared by the next update */
	ww_store_set_hung(s, "ata-X", true, t0 + 300);
	ww_store_set_hung(s, "ata-X", true, t0 + 310);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "ata-X");
	CHECK(st && st->hung);
	CHECK_EQ_I64(st->hung_since, t0 + 300);
	ww_snapshot_release(snap);
	ww_store_update(s, "ata-X", -ETIMEDOUT, NULL, NULL, 90, t0 + 320);
	snap = ww_store_acquire(s);
	st = ww_snapshot_find(snap, "ata-X");
	CHECK(st && !st->hung && st->hung_since == 0);
	ww_snapshot_release(snap);
	ww_store_free(s);
}

static void test_refcount(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d = mk_drive("nvme-a", "nvme0n1");
	ww_health_t h;
	ww_snapshot_t *old, *cur;
	uint64_t gen;

	memset(&h, 0, sizeof(h));
	ww_store_sync(s, &d, 1, 1000);
	WW_SET(h.temperature_celsius, 30, "test");
	ww_store_update(s, "nvme-a", 0, &h, NULL, 0.1, 1001);
	old = ww_store_acquire(s);
	gen = old->generation;

	/* writers swap in many new snapshots while the reader holds `old` */
	for (int i = 0; i < 50; i++) {
		h.temperature_celsius.value = 31 + i;
		ww_store_update(s, "nvme-a", 0, &h, NULL, 0.1, 1002 + i);
	}
	cur = ww_store_acquire(s);
	CHECK(cur != old);
	CHECK_EQ_U64(cur->generation, gen + 50);
	CHECK_EQ_I64(cur->drives[0]->health->temperature_celsius.value, 80);
	/* the old one is unchanged and readable */
	CHECK_EQ_U64(old->n, 1);
	CHECK_EQ_I64(old->drives[0]->health->temperature_celsius.value, 30);
	CHECK_EQ_U64(old->generation, gen);
	CHECK_EQ_U64(__atomic_load_n(&old->refs_, __ATOMIC_ACQUIRE), 1);
	/* the store holds one reference on the current one, we hold the other */
	CHECK_EQ_U64(__atomic_load_n(&cur->refs_, __ATOMIC_ACQUIRE), 2);
	ww_snapshot_release(old);

	/* freeing the store leaves a held snapshot valid */
	ww_store_free(s);
	CHECK_EQ_U64(__atomic_load_n(&cur->refs_, __ATOMIC_ACQUIRE), 1);
	CHECK_STR(cur->drives[0]->drive->id, "nvme-a");
	ww_snapshot_release(cur);
}

/* readers acquire/release concurrently with a writer; run under ASan/TSan to
 * catch use-after-free, here it checks every snapshot seen is consistent */
struct race {
	ww_store_t *s;
	int stop;
	int bad;
};

static void *reader(void *arg)
{
	struct race *rc = arg;

	while (!__atomic_load_n(&rc->stop, __ATOMIC_ACQUIRE)) {
		ww_snapshot_t *snap = ww_store_acquire(rc->s);

		if (snap->n != 1 ||
		    snap->drives[0]->health->power_on_seconds.value !=
			    (uint64_t)snap->drives[0]->health->temperature_celsius.value * 10)
			__atomic_add_fetch(&rc->bad, 1, __ATOMIC_RELAXED);
		ww_snapshot_release(snap);
	}
	return NULL;
}

static void test_concurrent(void)
{
	struct race rc = { ww_store_new(0), 0, 0 };
	ww_drive_t d = mk_drive("nvme-a", "nvme0n1");
	ww_health_t h;
	pthread_t t[3];

	memset(&h, 0, sizeof(h));
	ww_store_sync(rc.s, &d, 1, 1);
	WW_SET(h.temperature_celsius, 0, "t");
	WW_SET(h.power_on_seconds, 0, "t");
	ww_store_update(rc.s, "nvme-a", 0, &h, NULL, 0, 1);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, reader, &rc);
	for (int i = 1; i <= 2000; i++) {
		h.temperature_celsius.value = i;
		h.power_on_seconds.value = (uint64_t)i * 10;
		ww_store_update(rc.s, "nvme-a", 0, &h, NULL, 0, 1 + i);
	}
	__atomic_store_n(&rc.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ_I64(rc.bad, 0);
	ww_store_free(rc.s);
}

/* A tick with one changed drive copies that drive's record and no other:
 * the new snapshot shares every unchanged record with the old one (the same
 * pointers), the old one keeps the changed drive's old values, a second
 * change before the next publication copies nothing more, and a discovery
 * that changes nothing copies nothing. */
static void test_one_change_one_copy(void)
{
	enum {
		N = 300
	};
	ww_store_t *s = ww_store_new(0);
	ww_drive_t *d = calloc(N, sizeof(*d));
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_snapshot_t *old, *cur;
	time_t t0 = 1700000000;
	uint64_t c0, c1;
	size_t same = 0;
	const char *id = "nvme-0150";

	if (!s || !d || !h)
		return;
	for (int i = 0; i < N; i++) {
		char name[32], blk[32];

		snprintf(name, sizeof(name), "nvme-%04d", i);
		snprintf(blk, sizeof(blk), "nvme%dn1", i);
		d[i] = mk_drive(name, blk);
	}
	CHECK_EQ_I64(ww_store_sync(s, d, N, t0), 0);
	for (int i = 0; i < N; i++) { /* every drive read once */
		WW_SET(h->temperature_celsius, 30, "test");
		CHECK_EQ_I64(ww_store_update(s, d[i].id, 0, h, NULL, 0.01, t0 + 1), 0);
	}
	old = ww_store_acquire(s);
	c0 = ww_store_record_copies(s);

	WW_SET(h->temperature_celsius, 41, "test");
	CHECK_EQ_I64(ww_store_update(s, id, 0, h, NULL, 0.01, t0 + 60), 0);
	WW_SET(h->temperature_celsius, 42, "test");
	CHECK_EQ_I64(ww_store_update(s, id, 0, h, NULL, 0.01, t0 + 61), 0);
	cur = ww_store_acquire(s);
	c1 = ww_store_record_copies(s);
	CHECK_EQ_U64(c1 - c0, 1);
	CHECK(cur != old && cur->n == N && old->n == N);
	for (size_t i = 0; i < N && cur->n == N && old->n == N; i++)
		same += cur->drives[i] == old->drives[i];
	CHECK_EQ_U64(same, N - 1);
	CHECK_EQ_I64(ww_snapshot_find(cur, id)->health->temperature_celsius.value, 42);
	CHECK_EQ_I64(ww_snapshot_find(old, id)->health->temperature_celsius.value, 30);
	CHECK_EQ_U64(ww_snapshot_find(cur, id)->collections_total, 3);
	CHECK_EQ_U64(ww_snapshot_find(old, id)->collections_total, 1);

	/* the same discovery again: nothing copied */
	CHECK_EQ_I64(ww_store_sync(s, d, N, t0 + 120), 0);
	CHECK_EQ_U64(ww_store_record_copies(s) - c1, 0);
	/* one drive gone: its record alone is copied (missing since now) */
	CHECK_EQ_I64(ww_store_sync(s, d, N - 1, t0 + 180), 0);
	CHECK_EQ_U64(ww_store_record_copies(s) - c1, 1);
	ww_snapshot_release(old);
	ww_snapshot_release(cur);
	cur = ww_store_acquire(s);
	CHECK(cur->n == N && !ww_snapshot_find(cur, d[N - 1].id)->present &&
	      ww_snapshot_find(cur, d[N - 1].id)->missing_since == t0 + 180);
	ww_snapshot_release(cur);
	ww_store_free(s);
	free(d);
	free(h);
}

/* an NVMe drive's record, its discovery result and its values: what
 * discovery and the read returned, once, however many records of the drive
 * there are */
static void test_values_are_pieces(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d = mk_drive("nvme-a", "nvme0n1");
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	static const char *const what[] = { "Identify Controller", "Identify Namespace 1",
					    "Get Log Page 02h", "Get Log Page 06h",
					    "Get Log Page 01h" };
	const size_t report = offsetof(ww_read_report_t, cmds) + 5 * sizeof(r->cmds[0]);
	const ww_health_t *h1;
	ww_snapshot_t *old, *cur;
	ww_store_bytes_t b;
	time_t t0 = 1700000000;

	if (!s || !h || !r)
		return;
	CHECK_EQ_I64(ww_store_sync(s, &d, 1, t0), 0);
	ww_store_bytes(s, &b);
	CHECK_EQ_U64(b.records, 1);
	CHECK_EQ_U64(b.pieces, 1); /* not read yet: its discovery result alone */
	CHECK_EQ_U64(b.piece_bytes, sizeof(ww_drive_t));
	CHECK(sizeof(ww_drive_state_t) < 1024); /* counters, times, pointers */

	h->protocol = WW_PROTO_NVME;
	h->n_nvme_ns = 1;
	WW_SET(h->temperature_celsius, 30, "NVMe SMART/Health log 02h bytes 1-2");
	for (size_t i = 0; i < 5; i++)
		snprintf(r->cmds[r->n_cmds++].what, sizeof(r->cmds[0].what), "%s", what[i]);
	CHECK_EQ_U64(ww_read_report_size(r), report);
	CHECK_EQ_I64(ww_store_update(s, d.id, 0, h, r, 0.01, t0 + 1), 0);
	old = ww_store_acquire(s);
	h1 = ww_snapshot_find(old, d.id)->health;
	/* one record, its discovery result, health record and a report of its
	 * five notes */
	ww_store_bytes(s, &b);
	CHECK_EQ_U64(b.records, 1);
	CHECK_EQ_U64(b.pieces, 3);
	CHECK_EQ_U64(b.piece_bytes, sizeof(ww_drive_t) + sizeof(ww_health_t) + report);
	CHECK_STR(ww_snapshot_find(old, d.id)->report->cmds[4].what, "Get Log Page 01h");

	/* read again, the same bytes: the working copy's record is a copy
	 * (its counters moved), its values are the published ones */
	CHECK_EQ_I64(ww_store_update(s, d.id, 0, h, r, 0.01, t0 + 61), 0);
	ww_store_bytes(s, &b);
	CHECK_EQ_U64(b.records, 2);
	CHECK_EQ_U64(b.pieces, 3);
	CHECK_EQ_U64(b.piece_bytes, sizeof(ww_drive_t) + sizeof(ww_health_t) + report);
	cur = ww_store_acquire(s);
	CHECK(ww_snapshot_find(cur, d.id) != ww_snapshot_find(old, d.id));
	CHECK(ww_snapshot_find(cur, d.id)->health == h1);
	CHECK(ww_snapshot_find(cur, d.id)->drive == ww_snapshot_find(old, d.id)->drive);
	CHECK_EQ_U64(ww_snapshot_find(cur, d.id)->collections_total, 2);

	/* a new temperature: a new health record, the same report */
	WW_SET(h->temperature_celsius, 31, "NVMe SMART/Health log 02h bytes 1-2");
	CHECK_EQ_I64(ww_store_update(s, d.id, 0, h, r, 0.01, t0 + 121), 0);
	ww_store_bytes(s, &b);
	CHECK_EQ_U64(b.records, 2);
	CHECK_EQ_U64(b.pieces, 4);
	CHECK_EQ_U64(b.piece_bytes, sizeof(ww_drive_t) + 2 * sizeof(ww_health_t) + report);
	/* a failed read keeps the values it had */
	CHECK_EQ_I64(ww_store_update(s, d.id, -EIO, NULL, NULL, 0.01, t0 + 181), 0);
	ww_snapshot_release(old);
	ww_snapshot_release(cur);
	cur = ww_store_acquire(s);
	CHECK_EQ_I64(ww_snapshot_find(cur, d.id)->health->temperature_celsius.value, 31);
	CHECK(!ww_snapshot_find(cur, d.id)->last_success);
	/* the old values went with the last snapshot that held them */
	ww_store_bytes(s, &b);
	CHECK_EQ_U64(b.records, 1);
	CHECK_EQ_U64(b.pieces, 3);
	/* the same discovery again keeps the record; a changed one makes a
	 * record and a discovery result, and keeps the values */
	CHECK_EQ_I64(ww_store_sync(s, &d, 1, t0 + 240), 0);
	old = ww_store_acquire(s);
	CHECK(ww_snapshot_find(old, d.id) == ww_snapshot_find(cur, d.id));
	ww_snapshot_release(old);
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/nvme1n1");
	CHECK_EQ_I64(ww_store_sync(s, &d, 1, t0 + 300), 0);
	old = ww_store_acquire(s);
	CHECK(old != cur);
	/* the store's one record (the one `cur` still holds is not its) */
	ww_store_bytes(s, &b);
	CHECK_EQ_U64(b.records, 1);
	CHECK_EQ_U64(b.pieces, 3);
	CHECK_EQ_U64(b.piece_bytes, sizeof(ww_drive_t) + sizeof(ww_health_t) + report);
	CHECK_STR(ww_snapshot_find(old, d.id)->drive->dev_path, "/dev/nvme1n1");
	CHECK_STR(ww_snapshot_find(cur, d.id)->drive->dev_path, "/dev/nvme0n1");
	CHECK(ww_snapshot_find(old, d.id)->health == ww_snapshot_find(cur, d.id)->health);
	ww_snapshot_release(old);
	ww_snapshot_release(cur);
	ww_store_free(s);
	free(h);
	free(r);
}

int main(void)
{
	test_values_are_pieces();
	test_one_change_one_copy();
	test_lifecycle();
	test_standby_and_errors();
	test_refcount();
	test_concurrent();
	return ww_test_done("test_store_snapshot");
}
