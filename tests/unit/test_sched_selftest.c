/* The self-test stagger (src/sched/selftest_sched.c) and the sets it reads
 * (src/discover/holders.c), on a fake sysfs tree the test builds and a
 * clock it steps (TZ=UTC, 2026-12-02 is a Wednesday). The start command is a
 * recorder: which drive got which test, when.
 *
 * The tree: sda1 and sdb1 are members of md0 (holders/md0, as the kernel
 * links them); sdc and sdd hold dm-0 and dm-1, two logical volumes of one
 * LVM volume group (dm/uuid "LVM-" + VG UUID + LV UUID); sde is a ZFS pool
 * member by udev's database (E:ID_FS_TYPE=zfs_member, E:ID_FS_UUID the pool
 * GUID) and sdf of the same pool; sdg stands alone. Schedule: a short test
 * daily at 02:00 ("S/../.././02"), self_test_concurrent 3. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ww_test.h"
#include "wearwatch/collect.h"
#include "wearwatch/expo.h"
#include "wearwatch/sched.h"

static char root[] = "/tmp/ww-sched-selftest-XXXXXX";
static char started[16][200];
static size_t n_started;
static int start_rc;

static ww_selftest_span_t last_span;
static unsigned n_spans_given;

static int recorder(const char *sysroot, const ww_drive_t *d, ww_protocol_t proto, unsigned kind,
		    const ww_selftest_span_t *span, bool wake, ww_cmd_status_t *st,
		    const char **why)
{
	(void)sysroot;
	(void)proto;
	(void)wake;
	memset(st, 0, sizeof(*st));
	CHECK_EQ_I64(span != NULL, kind == WW_STK_SELECTIVE);
	if (span) {
		last_span = *span;
		n_spans_given++;
	}
	if (start_rc == 0 && n_started < 16)
		snprintf(started[n_started++], sizeof(started[0]), "%s:%s",
			 *d->block ? d->block : d->id, ww_selftest_kind_names[kind]);
	*why = start_rc == 0 ? "started" : "a self-test is running";
	return start_rc;
}

static void put(const char *rel, const char *text)
{
	char p[4200], *s;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	if (text) {
		FILE *f = fopen(p, "w");

		if (f) {
			fputs(text, f);
			fclose(f);
		}
	} else {
		mkdir(p, 0755);
	}
}

static void tree(void)
{
	put("/sys/block/sda/sda1/partition", "1\n");
	put("/sys/block/sda/sda1/holders/md0", NULL);
	put("/sys/block/sdb/sdb1/partition", "1\n");
	put("/sys/block/sdb/sdb1/holders/md0", NULL);
	put("/sys/block/md0/holders", NULL);
	put("/sys/block/sdc/holders/dm-0", NULL);
	put("/sys/block/sdd/holders/dm-1", NULL);
	put("/sys/block/dm-0/dm/uuid",
	    "LVM-Wc2p8Ixs0d8aA9o7Pxy2f3VtIu7VmKs1aWqqQbBnCHzr1Yv2GdfN3kDLcUy4Wh5T\n");
	put("/sys/block/dm-1/dm/uuid",
	    "LVM-Wc2p8Ixs0d8aA9o7Pxy2f3VtIu7VmKs1Zx0e7Kc9pQeR5tHwYbMnUj3iLo6aSd2F\n");
	put("/sys/block/sde/dev", "8:64\n");
	put("/sys/block/sdf/dev", "8:80\n");
	put("/run/udev/data/b8:64", "E:ID_FS_TYPE=zfs_member\nE:ID_FS_UUID=6871384918232187532\n");
	put("/run/udev/data/b8:80", "E:ID_FS_TYPE=zfs_member\nE:ID_FS_UUID=6871384918232187532\n");
	put("/sys/block/sdg/holders", NULL);
}

static time_t at(int day, int hour, int min)
{
	struct tm tm = {
		.tm_year = 126, .tm_mon = 11, .tm_mday = day, .tm_hour = hour, .tm_min = min
	};

	return timegm(&tm);
}

static ww_drive_t drive(const char *block)
{
	ww_drive_t d;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "ata-TEST_%s", block);
	snprintf(d.block, sizeof(d.block), "%s", block);
	d.protocol = WW_PROTO_ATA;
	return d;
}

/* an ATA read: self-tests supported (SMART READ DATA byte 367 bit 4, as
 * QEMU's disk: 19h), running or not (byte 363 = F0h / 00h) */
static ww_health_t h_idle, h_running;

static void read_of(ww_selftests_t *s, const char *block, int rc, bool running, time_t now)
{
	ww_drive_t d = drive(block);

	ww_selftests_after_read(s, NULL, &d, rc, running ? &h_running : &h_idle, now);
}

static bool was_started(const char *what)
{
	for (size_t i = 0; i < n_started; i++)
		if (!strcmp(started[i], what))
			return true;
	return false;
}

/* s runs schedule expr with the defaults otherwise (concurrent 0: the
 * default self_test_concurrent); cfg and th are the caller's, kept while s
 * uses them */
static void schedule(ww_selftests_t *s, ww_health_cfg_t *cfg, ww_thresholds_t *th, const char *expr,
		     unsigned concurrent)
{
	ww_health_cfg_defaults(cfg);
	snprintf(cfg->self_test_schedule, sizeof(cfg->self_test_schedule), "%s", expr);
	if (concurrent)
		cfg->self_test_concurrent = concurrent;
	*th = (ww_thresholds_t){ .dflt = cfg };
	ww_selftests_set_thresholds(s, th);
}

static void test_sets(void)
{
	char sets[8][WW_SET_KEY];
	ww_drive_t a = drive("sda"), c = drive("sdc"), e = drive("sde"), g = drive("sdg");

	CHECK_EQ_U64(ww_drive_sets(root, &a, sets, 8), 1);
	CHECK_STR(sets[0], "md:md0");
	CHECK_EQ_U64(ww_drive_sets(root, &c, sets, 8), 1);
	CHECK_STR(sets[0], "lvm:Wc2p8Ixs0d8aA9o7Pxy2f3VtIu7VmKs1");
	CHECK_EQ_U64(ww_drive_sets(root, &e, sets, 8), 1);
	CHECK_STR(sets[0], "zfs:6871384918232187532");
	CHECK_EQ_U64(ww_drive_sets(root, &g, sets, 8), 0);
}

static void test_stagger(void)
{
	ww_health_cfg_t cfg;
	ww_thresholds_t th;
	ww_selftests_t *s =
		ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = root, .start = recorder });
	const char *all[] = { "sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg" };

	schedule(s, &cfg, &th, "S/../.././02", 3);

	/* 01:30: nothing due */
	for (size_t i = 0; i < 7; i++)
		read_of(s, all[i], 0, false, at(2, 1, 30));
	CHECK_EQ_U64(n_started, 0);
	/* 02:05, every drive read once: one of each set, and only three */
	for (size_t i = 0; i < 7; i++)
		read_of(s, all[i], 0, false, at(2, 2, 5));
	CHECK_EQ_U64(n_started, 3);
	CHECK(was_started("sda:short") && was_started("sdc:short") && was_started("sde:short"));
	CHECK_EQ_U64(ww_selftests_testing(s), 3);
	/* 02:10: the three run; the others still wait (set members, limit) */
	read_of(s, "sda", 0, true, at(2, 2, 10));
	read_of(s, "sdc", 0, true, at(2, 2, 10));
	read_of(s, "sde", 0, true, at(2, 2, 10));
	for (size_t i = 0; i < 7; i++)
		if (strcmp(all[i], "sda") && strcmp(all[i], "sdc") && strcmp(all[i], "sde"))
			read_of(s, all[i], 0, false, at(2, 2, 10));
	CHECK_EQ_U64(n_started, 3);
	/* 02:20: sda's ended; sdb (same md set) may start now, sdg still not:
	 * sdb took the freed slot */
	read_of(s, "sda", 0, false, at(2, 2, 20));
	read_of(s, "sdb", 0, false, at(2, 2, 20));
	read_of(s, "sdg", 0, false, at(2, 2, 20));
	CHECK_EQ_U64(n_started, 4);
	CHECK(was_started("sdb:short"));
	CHECK(!was_started("sdg:short"));
	/* sda is not tested twice in one scheduled hour */
	read_of(s, "sda", 0, false, at(2, 2, 30));
	CHECK_EQ_U64(n_started, 4);
	/* the LVM and ZFS tests end: sdd, sdf, sdg in turn (the limit of 3
	 * with sdb running lets two of them go) */
	read_of(s, "sdc", 0, false, at(2, 2, 40));
	read_of(s, "sde", 0, false, at(2, 2, 40));
	read_of(s, "sdd", 0, false, at(2, 2, 41));
	read_of(s, "sdf", 0, false, at(2, 2, 41));
	read_of(s, "sdg", 0, false, at(2, 2, 41));
	CHECK(was_started("sdd:short") && was_started("sdf:short"));
	CHECK(!was_started("sdg:short"));
	CHECK_EQ_U64(n_started, 6);
	read_of(s, "sdb", 0, false, at(2, 3, 0));
	read_of(s, "sdg", 0, false, at(2, 3, 1)); /* still due: it waited */
	CHECK(was_started("sdg:short"));
	CHECK_EQ_U64(n_started, 7);
	ww_selftests_free(s);
}

/* A start that timed out (smartctl -t hanging, an SG_IO timeout) may have
 * reached the drive: the md set's other member waits until a read of the
 * first says no test runs */
static void test_start_timeout(void)
{
	ww_health_cfg_t cfg;
	ww_thresholds_t th;
	ww_selftests_t *s =
		ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = root, .start = recorder });

	n_started = 0;
	schedule(s, &cfg, &th, "S/../.././02", 4);
	read_of(s, "sda", 0, false, at(2, 1, 30));
	read_of(s, "sdb", 0, false, at(2, 1, 30));
	start_rc = -ETIMEDOUT;
	read_of(s, "sda", 0, false, at(2, 2, 5));
	start_rc = 0;
	CHECK_EQ_U64(ww_selftests_testing(s), 1);
	read_of(s, "sdb", 0, false, at(2, 2, 6));
	CHECK_EQ_U64(n_started, 0);
	/* sda's next read: no test runs, so the slot is free and sdb starts */
	read_of(s, "sda", 0, false, at(2, 2, 10));
	read_of(s, "sdb", 0, false, at(2, 2, 11));
	CHECK_EQ_U64(n_started, 1);
	CHECK(was_started("sdb:short"));
	ww_selftests_free(s);
}

static void test_standby_and_busy(void)
{
	ww_health_cfg_t cfg, wake;
	ww_threshold_rule_t rule;
	ww_thresholds_t th;
	ww_selftests_t *s =
		ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = root, .start = recorder });

	n_started = 0;
	ww_health_cfg_defaults(&cfg);
	snprintf(cfg.self_test_schedule, sizeof(cfg.self_test_schedule), "L/../../6/03");
	wake = cfg;
	wake.self_test_in_standby = true;
	rule = (ww_threshold_rule_t){ .name = "sdb", .cfg = &wake };
	th = (ww_thresholds_t){ .dflt = &cfg, .rules = &rule, .n = 1 };
	ww_selftests_set_thresholds(s, &th);
	/* a read of each while active on Friday: kinds known, nothing due */
	read_of(s, "sdg", 0, false, at(4, 12, 0));
	read_of(s, "sdb", 0, false, at(4, 12, 0));
	/* Saturday 03:10: sdg is in standby (rc 1): left alone, and again at
	 * 04:00 (the test stays due); sdb in standby with self_test_in_standby */
	read_of(s, "sdg", 1, false, at(5, 3, 10));
	read_of(s, "sdb", 1, false, at(5, 3, 10));
	CHECK_EQ_U64(n_started, 1);
	CHECK(was_started("sdb:extended"));
	read_of(s, "sdg", 1, false, at(5, 4, 0));
	CHECK_EQ_U64(n_started, 1);
	/* active again at 05:00, but sdb holds the one slot
	 * (self_test_concurrent 1) until a read says its test ended */
	read_of(s, "sdg", 0, false, at(5, 5, 0));
	CHECK_EQ_U64(n_started, 1);
	read_of(s, "sdb", 0, false, at(5, 5, 10));
	/* then the extended test sdg missed starts */
	read_of(s, "sdg", 0, false, at(5, 5, 20));
	CHECK(was_started("sdg:extended"));
	CHECK_EQ_U64(n_started, 2);
	/* a week on, the administrator's test runs on sdg: the read says so,
	 * so nothing is sent; the start re-check finding one (-EBUSY) skips */
	read_of(s, "sdg", 0, false, at(11, 12, 0)); /* ours ended */
	read_of(s, "sdg", 0, true, at(12, 3, 5));
	CHECK_EQ_U64(n_started, 2);
	read_of(s, "sdb", 0, false, at(11, 12, 0));
	start_rc = -EBUSY;
	read_of(s, "sdb", 0, false, at(12, 3, 5));
	start_rc = 0;
	read_of(s, "sdb", 0, false, at(12, 3, 30));
	CHECK_EQ_U64(n_started, 2); /* skipped, not retried within the hour */
	ww_selftests_free(s);
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

/* what the drive can run, published with the state: QEMU 7.2's NVMe
 * controller has OACS 010Ah (tests/fixtures/vm/nvme/id-ctrl.json), bit 4
 * Device Self-test clear, so no test is ever due on it; the API says so
 * ("drive_kinds": []) instead of an empty plan alone */
static void test_drive_kinds(void)
{
	static ww_drive_state_t ds;
	ww_health_cfg_t cfg;
	ww_thresholds_t th;
	ww_store_t *store = ww_store_new(0);
	ww_selftests_t *s =
		ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = root, .start = recorder });
	ww_drive_t d[2] = { drive("sdg"), drive("nvme0n1") };
	static ww_health_t nv;
	ww_snapshot_t *snap;
	json_object *j = NULL, *o, *k;
	char *js;

	n_started = 0;
	schedule(s, &cfg, &th, "S/../.././02", 0);
	snprintf(d[1].id, sizeof(d[1].id), "nvme-TEST_QEMU");
	d[1].protocol = WW_PROTO_NVME;
	CHECK(store && ww_store_sync(store, d, 2, at(2, 1, 0)) == 0);
	nv.protocol = WW_PROTO_NVME;
	nv.has_nvme_ctrl = true;
	nv.nvme_ctrl.oacs = 0x10a;
	/* a failed read first: the schedule applies, what it runs is unknown */
	ww_selftests_after_read(s, store, &d[1], -EIO, NULL, at(2, 1, 30));
	CHECK(state_of(store, d[1].id, &ds) == 0 && ds.has_self_test);
	CHECK(!ds.self_test.drive_kinds_known);
	ww_selftests_after_read(s, store, &d[1], 0, &nv, at(2, 2, 5));
	ww_selftests_after_read(s, store, &d[0], 0, &h_idle, at(2, 2, 5));
	CHECK(state_of(store, d[1].id, &ds) == 0 && ds.has_self_test);
	CHECK(ds.self_test.drive_kinds_known);
	CHECK_EQ_U64(ds.self_test.drive_kinds, 0);
	CHECK_EQ_U64(ds.self_test.pending, 0);
	CHECK_EQ_U64(ds.self_test.last_attempt, 0);
	CHECK_EQ_U64(ds.self_test.plan.next, 0);
	/* the ATA disk beside it (byte 367 = 19h) got its test */
	CHECK_EQ_U64(n_started, 1);
	CHECK(was_started("sdg:short"));
	CHECK(state_of(store, d[0].id, &ds) == 0);
	CHECK_EQ_U64(ds.self_test.drive_kinds,
		     1u << WW_STK_SHORT | 1u << WW_STK_EXTENDED | 1u << WW_STK_OFFLINE);

	snap = store ? ww_store_acquire(store) : NULL;
	js = snap ? ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = at(2, 2, 6) },
					 d[1].id, &(bool){ false })
		  : NULL;
	j = js ? json_tokener_parse(js) : NULL;
	CHECK(j && json_object_object_get_ex(j, "self_test_schedule", &o) &&
	      json_object_object_get_ex(o, "drive_kinds", &k) &&
	      json_object_is_type(k, json_type_array) && json_object_array_length(k) == 0);
	json_object_put(j);
	free(js);
	js = snap ? ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = at(2, 2, 6) },
					 d[0].id, &(bool){ false })
		  : NULL;
	j = js ? json_tokener_parse(js) : NULL;
	CHECK(j && json_object_object_get_ex(j, "self_test_schedule", &o) &&
	      json_object_object_get_ex(o, "drive_kinds", &k) && json_object_array_length(k) == 3 &&
	      !strcmp(json_object_get_string(json_object_array_get_idx(k, 0)), "short") &&
	      !strcmp(json_object_get_string(json_object_array_get_idx(k, 1)), "extended") &&
	      !strcmp(json_object_get_string(json_object_array_get_idx(k, 2)), "offline"));
	json_object_put(j);
	free(js);
	ww_snapshot_release(snap);
	ww_selftests_free(s);
	ww_store_free(store);
}

/* a drive in standby when its schedule is first seen (a service start, a
 * reload) has not said what it runs: the hours it sleeps through wait for
 * its first read, so the test due at 02:00 still starts when it wakes at
 * 04:20, as for a drive whose kinds were known (test_standby_and_busy) */
static void test_first_read_in_standby(void)
{
	static ww_drive_state_t ds;
	ww_health_cfg_t cfg;
	ww_thresholds_t th;
	ww_store_t *store = ww_store_new(0);
	ww_selftests_t *s =
		ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = root, .start = recorder });
	ww_drive_t d = drive("sdg");

	n_started = 0;
	schedule(s, &cfg, &th, "S/../.././02", 0);
	CHECK(store && ww_store_sync(store, &d, 1, at(2, 1, 0)) == 0);
	ww_selftests_after_read(s, store, &d, 1, NULL, at(2, 1, 50));
	ww_selftests_after_read(s, store, &d, 1, NULL, at(2, 2, 10));
	ww_selftests_after_read(s, store, &d, 1, NULL, at(2, 3, 10));
	ww_selftests_after_read(s, store, &d, 1, NULL, at(2, 4, 0));
	CHECK_EQ_U64(n_started, 0);
	ww_selftests_after_read(s, store, &d, 0, &h_idle, at(2, 4, 20));
	CHECK_EQ_U64(n_started, 1);
	CHECK(was_started("sdg:short"));
	/* the plan follows the kinds the read gave, within the same hour */
	CHECK(state_of(store, d.id, &ds) == 0);
	CHECK_EQ_U64(ds.self_test.plan.next, at(3, 2, 0));
	CHECK_EQ_U64(ds.self_test.plan.next_kind, WW_STK_SHORT);
	ww_selftests_free(s);
	ww_store_free(store);
}

/* RAID members read through smartctl, as `smartctl --scan -j` names them
 * (the two of smartctl_scan_megaraid.json on /dev/bus/0, a third on a
 * second controller /dev/bus/1): no two behind one controller test at
 * once, with self_test_concurrent 3 letting three go */
static void test_controllers(void)
{
	static const ww_smartctl_dev_t sc[3] = {
		{ .name = "/dev/bus/0", .type = "megaraid,0", .protocol = "SCSI" },
		{ .name = "/dev/bus/0", .type = "megaraid,1", .protocol = "SCSI" },
		{ .name = "/dev/bus/1", .type = "megaraid,0", .protocol = "SCSI" },
	};
	static ww_drive_state_t ds;
	ww_health_cfg_t cfg;
	ww_thresholds_t th;
	ww_store_t *store = ww_store_new(0);
	ww_selftests_t *s =
		ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = root, .start = recorder });
	ww_drive_t m[3];

	n_started = 0;
	for (int i = 0; i < 3; i++)
		CHECK(ww_smartctl_member_drive(&sc[i], &m[i]) == 0);
	schedule(s, &cfg, &th, "S/../.././02", 3);
	CHECK(store && ww_store_sync(store, m, 3, at(2, 1, 0)) == 0);
	for (int i = 0; i < 3; i++)
		ww_selftests_after_read(s, store, &m[i], 0, &h_idle, at(2, 1, 30));
	for (int i = 0; i < 3; i++)
		ww_selftests_after_read(s, store, &m[i], 0, &h_idle, at(2, 2, 5));
	CHECK_EQ_U64(n_started, 2);
	CHECK(was_started("smartctl-bus_0-megaraid_0:short"));
	CHECK(was_started("smartctl-bus_1-megaraid_0:short"));
	CHECK(state_of(store, m[1].id, &ds) == 0 && ds.self_test.pending == WW_STK_SHORT);
	CHECK_STR(ds.self_test.last_outcome, "a drive behind the same controller is testing");
	/* bus 0's first member runs, then ends: its neighbour goes */
	ww_selftests_after_read(s, store, &m[0], 0, &h_running, at(2, 2, 10));
	ww_selftests_after_read(s, store, &m[1], 0, &h_idle, at(2, 2, 10));
	CHECK_EQ_U64(n_started, 2);
	ww_selftests_after_read(s, store, &m[0], 0, &h_idle, at(2, 2, 20));
	ww_selftests_after_read(s, store, &m[1], 0, &h_idle, at(2, 2, 20));
	CHECK_EQ_U64(n_started, 3);
	CHECK(was_started("smartctl-bus_0-megaraid_1:short"));
	ww_selftests_free(s);
	ww_store_free(store);
}

/* where the service keeps the cursor (the history meta table): here one
 * value, as a restart finds it */
static bool saved_has;
static uint64_t saved_next;
static unsigned n_loads;

static int load_cursor(void *arg, const char *id, uint64_t *next)
{
	(void)arg;
	CHECK_STR(id, "ata-TEST_sdg");
	n_loads++;
	if (!saved_has)
		return 0;
	*next = saved_next;
	return 1;
}

static void save_cursor(void *arg, const char *id, uint64_t next)
{
	(void)arg;
	CHECK_STR(id, "ata-TEST_sdg");
	saved_has = true;
	saved_next = next;
}

/* Selective spans (smartd's n) on a 1 TB disk of 1953525168 sectors (the
 * IDENTIFY words 100-103 of a 1 TB drive; 512-byte sectors), split into
 * self_test_spans = 5 spans of ceil(1953525168 / 5) = 390705034 sectors,
 * the fifth ending at LBA 1953525167: a span a night at 02:00, the cursor
 * moving on at each start and wrapping to LBA 0 after the fifth, kept
 * across a restart through the span hooks; none on a drive that does not
 * run selective tests (byte 367 bit 6 clear), or of unknown capacity, or
 * in standby. */
static ww_health_t h_sel, h_sel_running;

static void sel_read(ww_selftests_t *s, ww_store_t *store, const ww_health_t *h, int rc, time_t t)
{
	ww_drive_t d = drive("sdg");

	ww_selftests_after_read(s, store, &d, rc, rc == 0 ? h : NULL, t);
}

static void test_selective_spans(void)
{
	static const uint64_t size = 390705034, sectors = 1953525168;
	static ww_drive_state_t ds;
	ww_health_cfg_t cfg;
	ww_thresholds_t th;
	ww_selftests_cfg_t sc = { .sysroot = root,
				  .start = recorder,
				  .span_load = load_cursor,
				  .span_save = save_cursor };
	ww_store_t *store = ww_store_new(0);
	ww_drive_t d = drive("sdg");
	ww_selftests_t *s = ww_selftests_new(&sc);
	ww_health_t no_cap;

	h_sel = h_idle;
	h_sel.ata.offline_capability = 0x59; /* 19h and bit 6: selective */
	WW_SET(h_sel.capacity_bytes, sectors * 512, "spec-constructed");
	WW_SET(h_sel.logical_block_bytes, 512, "spec-constructed");
	h_sel_running = h_sel;
	h_sel_running.self_test_now.running = true;
	n_started = n_spans_given = n_loads = 0;
	saved_has = false;
	ww_health_cfg_defaults(&cfg);
	CHECK_EQ_U64(cfg.self_test_spans, WW_SELFTEST_SPANS_DEFAULT);
	cfg.self_test_spans = 5;
	snprintf(cfg.self_test_schedule, sizeof(cfg.self_test_schedule), "n/../.././02");
	th = (ww_thresholds_t){ .dflt = &cfg };
	ww_selftests_set_thresholds(s, &th);
	CHECK(store && ww_store_sync(store, &d, 1, at(2, 1, 0)) == 0);

	/* night 1: span 1, from LBA 0 (nothing kept yet) */
	sel_read(s, store, &h_sel, 0, at(2, 1, 30));
	CHECK_EQ_U64(n_started, 0);
	sel_read(s, store, &h_sel, 0, at(2, 2, 5));
	CHECK_EQ_U64(n_started, 1);
	CHECK(was_started("sdg:selective"));
	CHECK_EQ_U64(n_loads, 1);
	CHECK_EQ_U64(last_span.first_lba, 0);
	CHECK_EQ_U64(last_span.last_lba, size - 1);
	CHECK(saved_has);
	CHECK_EQ_U64(saved_next, size);
	CHECK(state_of(store, d.id, &ds) == 0 && ds.self_test.has_span);
	CHECK_EQ_U64(ds.self_test.span.last_lba, size - 1);
	CHECK_EQ_U64(ds.self_test.span_next, size);
	CHECK(ds.self_test.drive_kinds >> WW_STK_SELECTIVE & 1);
	CHECK_EQ_U64(ds.self_test.started_total[WW_STK_SELECTIVE], 1);
	/* the API and /metrics give the span and the cursor */
	{
		ww_snapshot_t *snap = ww_store_acquire(store);
		ww_render_ctx_t ctx = { .snap = snap, .now = at(2, 2, 6) };
		char *js = ww_json_render_drive(&ctx, d.id, &(bool){ false }), *m;
		json_object *j = js ? json_tokener_parse(js) : NULL, *o, *sp, *v;
		size_t len;

		CHECK(j && json_object_object_get_ex(j, "self_test_schedule", &o) &&
		      json_object_object_get_ex(o, "selective_span", &sp) &&
		      json_object_object_get_ex(sp, "last_lba", &v) &&
		      (uint64_t)json_object_get_int64(v) == size - 1 &&
		      json_object_object_get_ex(sp, "next_first_lba", &v) &&
		      (uint64_t)json_object_get_int64(v) == size);
		CHECK(o && json_object_object_get_ex(o, "last_started_kind", &v) &&
		      !strcmp(json_object_get_string(v), "selective"));
		json_object_put(j);
		free(js);
		m = ww_metrics_render(&ctx, &len);
		CHECK(m &&
		      strstr(m,
			     "wearwatch_drive_self_test_span_lba{drive=\"ata-TEST_sdg\","
			     "edge=\"last\"} 390705033\n"));
		CHECK(m &&
		      strstr(m,
			     "wearwatch_drive_self_test_span_next_lba{drive=\"ata-TEST_sdg\"} "
			     "390705034\n"));
		free(m);
		ww_snapshot_release(snap);
	}
	/* it runs, then ends; not again within the hour */
	sel_read(s, store, &h_sel_running, 0, at(2, 2, 30));
	sel_read(s, store, &h_sel, 0, at(2, 2, 50));
	CHECK_EQ_U64(n_started, 1);
	/* night 2: span 2; night 3 the drive is in standby at 02:00 (left
	 * alone) and gets span 3 when active at 03:10 */
	sel_read(s, store, &h_sel, 0, at(3, 2, 5));
	CHECK_EQ_U64(n_started, 2);
	CHECK_EQ_U64(last_span.first_lba, size);
	CHECK_EQ_U64(last_span.last_lba, 2 * size - 1);
	sel_read(s, store, &h_sel, 0, at(3, 12, 0));
	sel_read(s, store, &h_sel, 1, at(4, 2, 5));
	CHECK_EQ_U64(n_started, 2);
	sel_read(s, store, &h_sel, 0, at(4, 3, 10));
	CHECK_EQ_U64(n_started, 3);
	CHECK_EQ_U64(last_span.first_lba, 2 * size);
	CHECK_EQ_U64(saved_next, 3 * size);
	CHECK_EQ_U64(n_loads, 1); /* loaded once */
	ww_selftests_free(s);

	/* a restart: a new scheduler finds the cursor where it was kept */
	s = ww_selftests_new(&sc);
	ww_selftests_set_thresholds(s, &th);
	sel_read(s, store, &h_sel, 0, at(4, 12, 0));
	sel_read(s, store, &h_sel, 0, at(5, 2, 5));
	CHECK_EQ_U64(n_started, 4);
	CHECK_EQ_U64(n_loads, 2);
	CHECK_EQ_U64(last_span.first_lba, 3 * size);
	CHECK_EQ_U64(last_span.last_lba, 4 * size - 1);
	/* night 5: the last span, shorter, to the drive's last LBA; the
	 * cursor wraps */
	sel_read(s, store, &h_sel, 0, at(5, 12, 0));
	sel_read(s, store, &h_sel, 0, at(6, 2, 5));
	CHECK_EQ_U64(n_started, 5);
	CHECK_EQ_U64(last_span.first_lba, 4 * size);
	CHECK_EQ_U64(last_span.last_lba, sectors - 1);
	CHECK_EQ_U64(saved_next, 0);
	/* night 6: span 1 again */
	sel_read(s, store, &h_sel, 0, at(6, 12, 0));
	sel_read(s, store, &h_sel, 0, at(7, 2, 5));
	CHECK_EQ_U64(n_started, 6);
	CHECK_EQ_U64(last_span.first_lba, 0);
	CHECK_EQ_U64(last_span.last_lba, size - 1);
	CHECK_EQ_U64(n_spans_given, 6);
	ww_selftests_free(s);

	/* a drive without selective tests (QEMU's 19h) or whose capacity is
	 * not known: never due, nothing sent, and the state says why none */
	s = ww_selftests_new(&sc);
	ww_selftests_set_thresholds(s, &th);
	no_cap = h_sel;
	memset(&no_cap.capacity_bytes, 0, sizeof(no_cap.capacity_bytes));
	sel_read(s, store, &h_idle, 0, at(8, 1, 0));
	sel_read(s, store, &h_idle, 0, at(8, 2, 5));
	CHECK(state_of(store, d.id, &ds) == 0);
	CHECK(!(ds.self_test.drive_kinds >> WW_STK_SELECTIVE & 1));
	CHECK_EQ_U64(ds.self_test.plan.next, 0);
	sel_read(s, store, &no_cap, 0, at(9, 2, 5));
	CHECK_EQ_U64(n_started, 6);
	CHECK(state_of(store, d.id, &ds) == 0);
	CHECK(!(ds.self_test.drive_kinds >> WW_STK_SELECTIVE & 1));
	/* nor a RAID member read through smartctl, whatever its byte 367 */
	{
		static ww_health_t via;
		static const ww_smartctl_dev_t dev = { .name = "/dev/bus/0",
						       .type = "megaraid,0",
						       .protocol = "ATA" };
		ww_drive_t m;

		via = h_sel;
		via.backend = "smartctl";
		CHECK(ww_smartctl_member_drive(&dev, &m) == 0);
		CHECK(ww_store_sync(store, &m, 1, at(10, 1, 0)) == 0);
		ww_selftests_after_read(s, store, &m, 0, &via, at(10, 1, 30));
		ww_selftests_after_read(s, store, &m, 0, &via, at(10, 2, 5));
		CHECK_EQ_U64(n_started, 6);
		CHECK(state_of(store, m.id, &ds) == 0 && ds.self_test.drive_kinds_known);
		CHECK(!(ds.self_test.drive_kinds >> WW_STK_SELECTIVE & 1));
		CHECK(ds.self_test.drive_kinds >> WW_STK_SHORT & 1);
	}
	ww_selftests_free(s);

	/* the smallest drive: 3 sectors in 5 spans of 1, the last two empty
	 * ones never made: 0, 1, 2, then 0 again */
	{
		ww_selftest_span_t sp;

		CHECK_EQ_U64(ww_selftest_next_span(3, 5, 0, &sp), 1);
		CHECK(sp.first_lba == 0 && sp.last_lba == 0);
		CHECK_EQ_U64(ww_selftest_next_span(3, 5, 2, &sp), 0);
		CHECK(sp.first_lba == 2 && sp.last_lba == 2);
		CHECK_EQ_U64(ww_selftest_next_span(3, 5, 7, &sp), 1); /* past the end: 0 */
		CHECK(sp.first_lba == 0 && sp.last_lba == 0);
		CHECK_EQ_U64(ww_selftest_next_span(0, 5, 0, &sp), 0);
		CHECK(sp.first_lba == 0 && sp.last_lba == 0);
	}
	ww_store_free(store);
}

int main(void)
{
	char cmd[4200];

	setenv("TZ", "UTC", 1);
	tzset();
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	tree();
	h_idle.protocol = WW_PROTO_ATA;
	h_idle.ata.has_smart_caps = true;
	h_idle.ata.offline_capability = 0x19;
	h_idle.self_test_now.source = "spec-constructed";
	h_running = h_idle;
	h_running.self_test_now.running = true;
	test_sets();
	test_stagger();
	test_start_timeout();
	test_standby_and_busy();
	test_drive_kinds();
	test_first_read_in_standby();
	test_controllers();
	test_selective_spans();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return ww_test_done("test_sched_selftest");
}
