/* Issue 6 gaps: [drive] settings reach their modules' parsers (probe policy,
 * smartctl forcing, block-name checks), the history route's query
 * validation, and a health change between two snapshots running the
 * notification program (a real child process; its environment is read back).
 * Expected values come from the configuration text and the snapshots built
 * here; the probe defaults from ww_probe_policy_default (issue 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "wearwatch/service.h"
#include "wearwatch/http.h"
#include "ww_test.h"

static void test_probe_policy(void)
{
	ww_probe_policy_t p, d;
	char err[200];

	ww_probe_policy_default(&d);
	p = d;
	CHECK(ww_probe_policy_parse(&p, "off", err, sizeof(err)) == 0);
	CHECK(!p.enabled);
	p = d;
	CHECK(ww_probe_policy_parse(&p, "interval=300,qd=4,bs=8k,rotational=never", err,
				    sizeof(err)) == 0);
	CHECK(p.enabled);
	CHECK_EQ_U64(p.interval_s, 300);
	CHECK_EQ_U64(p.queue_depth, 4);
	CHECK_EQ_U64(p.block_bytes, 8192);
	CHECK(p.rotational == WW_PROBE_ROT_NEVER);
	CHECK_EQ_U64(p.count, d.count); /* untouched keys keep the default */
	CHECK(ww_probe_policy_parse(&p, "speed=9", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "unknown probe key 'speed'") != NULL);
	CHECK(ww_probe_policy_parse(&p, "qd=0", err, sizeof(err)) == -EINVAL);
	CHECK(ww_probe_policy_parse(&p, "maybe", err, sizeof(err)) == -EINVAL);
}

static void test_drive_sections(void)
{
	ww_conf_t *c = malloc(sizeof(*c));
	char err[512];

	ww_conf_defaults(c);
	CHECK_EQ_U64(c->retention_s, 0); /* forever unless configured */
	CHECK(ww_conf_load_string(c,
		"[history]\nretention = 30d\nmissing_retention = 2h\n"
		"[drive nvme-QEMU_NVMe_Ctrl_deadbeef]\nrating = 1:5\nwarranty_start = 2024-02-29\n"
		"probe = interval=120\nsmartctl = megaraid,3\n"
		"[drive dm-3]\ninclude = yes\n[drive sdb]\nexclude = yes\n",
		"t.conf", err, sizeof(err)) == 0);
	CHECK_EQ_U64(c->retention_s, 30 * 86400);
	CHECK_EQ_U64(c->missing_retention_s, 7200);
	CHECK_EQ_U64(c->n_drives, 3);
	CHECK_STR(c->drives[0].smartctl, "megaraid,3");
	CHECK_STR(c->drives[0].probe, "interval=120");
	CHECK_EQ_I64(c->drives[1].monitor, 1);
	CHECK_EQ_I64(c->drives[2].monitor, 0);
	CHECK(ww_conf_drive_find(c, "x", "sdb") == &c->drives[2]);

	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[drive a]\nprobe = qd=999\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(!strncmp(err, "t.conf:2: probe qd", 18));
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[drive /dev/nvme0n1]\nrating = 1:5\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "t.conf:2: rating: [drive /dev/nvme0n1] is a block device name"));
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[drive a]\nsmartctl = sat;rm\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(ww_conf_is_block_name("sda") && ww_conf_is_block_name("/dev/nvme12n1") &&
	      ww_conf_is_block_name("dm-0") && ww_conf_is_block_name("md127"));
	CHECK(!ww_conf_is_block_name("nvme-Samsung_SSD_980_S123") &&
	      !ww_conf_is_block_name("S3Z9NB0K123456") && !ww_conf_is_block_name("nvme0n1p1"));
	free(c);
}

static void test_history_route(void)
{
	const char *h = "/api/v1/drives/nvme-QEMU_NVMe_Ctrl_deadbeef/history";
	char p[512];

	CHECK(ww_route_path_valid(h));
	snprintf(p, sizeof(p), "%s?metric=host_written_bytes&from=1&to=1700000000&max_points=400", h);
	CHECK(ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=x&metric=y", h);  /* repeated name */
	CHECK(!ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?step=1", h);             /* unknown name */
	CHECK(!ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=a%%2fb", h);      /* '%' not a value byte */
	CHECK(!ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=", h);            /* empty value */
	CHECK(!ww_route_path_valid(p));
	CHECK(!ww_route_path_valid("/api/v1/drives/x?metric=a")); /* query on a drive */
	CHECK(!ww_route_path_valid("/api/v1/drives/../history"));
	CHECK(ww_route_path_valid("/table"));
	/* RFC 3339 times, as docs/api.md lets from/to be */
	snprintf(p, sizeof(p), "%s?metric=present&from=2024-01-31T12:00:00Z", h);
	CHECK(ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=present&to=2024-01-31T12:00:00.5+02:00", h);
	CHECK(ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=present&to=2024-01-31 12:00:00", h); /* no space */
	CHECK(!ww_route_path_valid(p));
}

/* the notification program's environment file, once it appeared */
static void read_env(const char *out, char *all, size_t len)
{
	char line[1024];
	FILE *f;

	all[0] = 0;
	for (int i = 0; i < 100 && access(out, R_OK); i++) {
		usleep(50000);
		ww_events_reap(30);
	}
	f = fopen(out, "r");
	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f))
		strncat(all, line, len - strlen(all) - 1);
	if (f)
		fclose(f);
	unlink(out);
}

/* snapshots of one ATA drive: SMART overall status PASSED, then FAILED, then
 * the same again (nothing sent twice), then gone (missing) */
static void test_health_change_runs_program(void)
{
	char dir[] = "/tmp/ww-events-XXXXXX", prog[300], out[300];
	static char all[16384];
	static ww_drive_state_t a, b, c;
	ww_snapshot_t s1 = { .generation = 1, .n = 1, .drives = &a };
	ww_snapshot_t s2 = { .generation = 2, .n = 1, .drives = &b };
	ww_snapshot_t s3 = { .generation = 3, .n = 1, .drives = &c };
	ww_events_t *ev = ww_events_new();
	time_t t0 = 1700000000;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(prog, sizeof(prog), "%s/notify.sh", dir);
	snprintf(out, sizeof(out), "%s/env.txt", dir);
	f = fopen(prog, "w");
	fprintf(f, "#!/bin/sh\nenv | grep ^WEARWATCH_ | sort > %s.tmp && mv %s.tmp %s\n", out, out,
		out);
	fclose(f);
	chmod(prog, 0755);
	ww_events_configure(ev, prog, "", 4, 3600);

	memset(&a, 0, sizeof(a));
	snprintf(a.drive.id, sizeof(a.drive.id), "ata-TEST_DISK_1");
	snprintf(a.drive.dev_path, sizeof(a.drive.dev_path), "/dev/sdq");
	a.drive.protocol = WW_PROTO_ATA;
	a.present = true;
	a.has_health = true;
	a.values_time = a.last_collect = t0;
	a.collections_total = a.last_success = 1;
	a.health.protocol = WW_PROTO_ATA;
	snprintf(a.health.model, sizeof(a.health.model), "TEST DISK");
	snprintf(a.health.serial, sizeof(a.health.serial), "SN123");
	a.health.smart_status = WW_SMART_PASSED;
	a.health.smart_status_source = "ATA SMART RETURN STATUS";
	b = a;
	b.health.smart_status = WW_SMART_FAILED;
	b.values_time = b.last_collect = t0 + 60;
	b.collections_total = 2;

	/* the first verdict (ok) is logged, not sent; the same state again: nothing */
	CHECK_EQ_I64(ww_events_update(ev, NULL, NULL, &s1, t0), 1);
	CHECK_EQ_I64(ww_events_update(ev, NULL, &s1, &s1, t0 + 1), 0);
	CHECK(access(out, R_OK) != 0);
	/* FAILED: one event, critical */
	CHECK_EQ_I64(ww_events_update(ev, NULL, &s1, &s2, t0 + 60), 1);
	read_env(out, all, sizeof(all));
	CHECK(strstr(all, "WEARWATCH_EVENT=status_change\n"));
	CHECK(strstr(all, "WEARWATCH_DRIVE=ata-TEST_DISK_1\n"));
	CHECK(strstr(all, "WEARWATCH_DEVICE=/dev/sdq\n"));
	CHECK(strstr(all, "WEARWATCH_MODEL=TEST DISK\n"));
	CHECK(strstr(all, "WEARWATCH_SERIAL=SN123\n"));
	CHECK(strstr(all, "WEARWATCH_OLD_STATE=ok\n"));
	CHECK(strstr(all, "WEARWATCH_NEW_STATE=critical\n"));
	CHECK(strstr(all, "WEARWATCH_REASONS=critical: SMART overall-health self-assessment: "
			  "FAILED (ATA SMART RETURN STATUS)\n"));
	CHECK(strstr(all, "WEARWATCH_REASON_CODES=smart_failed\n"));
	CHECK(strstr(all, "WEARWATCH_CHANGED=ok -> critical; added: smart_failed\n"));
	CHECK(strstr(all, "WEARWATCH_MESSAGE=health ok -> critical: SMART overall-health "
			  "self-assessment: FAILED (ATA SMART RETURN STATUS)\n"));
	CHECK(strstr(all, "WEARWATCH_MESSAGE_ID=8b28107f9849479e8d6b9a3b23d6de85\n"));
	CHECK(strstr(all, "WEARWATCH_JSON={\"event\":\"status_change\""));
	/* re-read, unchanged: not sent again */
	b.collections_total = 3;
	b.last_collect = t0 + 120;
	CHECK_EQ_I64(ww_events_update(ev, NULL, &s2, &s2, t0 + 120), 0);
	/* gone from discovery: one "missing" event */
	c = b;
	c.present = false;
	c.missing_since = t0 + 180;
	CHECK_EQ_I64(ww_events_update(ev, NULL, &s2, &s3, t0 + 180), 1);
	read_env(out, all, sizeof(all));
	CHECK(strstr(all, "WEARWATCH_EVENT=missing\n"));
	CHECK(strstr(all, "WEARWATCH_REASON_CODES=drive_missing\n"));
	CHECK(strstr(all, "WEARWATCH_CLEARED=\n")); /* a gone drive's reasons did not clear */
	ww_events_reap(30);
	ww_events_free(ev);
	unlink(prog);
	rmdir(dir);
}

/* a drive that flips between SMART PASSED and FAILED every minute */
static void flip(ww_drive_state_t *d, int i, time_t t)
{
	d->health.smart_status = i % 2 ? WW_SMART_FAILED : WW_SMART_PASSED;
	d->values_time = d->last_collect = t;
	d->collections_total = (uint64_t)i + 1;
}

static int count_files(const char *dir, const char *suffix)
{
	char cmd[512], buf[32] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '%s$'", dir, suffix);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = 0;
	pclose(p);
	return atoi(buf);
}

/* flapping: 2 notifications a window, then one summary; the collector's
 * spool and `wearwatch notify-deliver` (failed ones kept, then delivered) */
static void test_flapping_and_spool(void)
{
	char dir[] = "/tmp/ww-spool-XXXXXX", spool[300], prog[300], out[300], cmd[1200];
	static char all[16384];
	static ww_drive_state_t a;
	ww_snapshot_t s = { .generation = 1, .n = 1, .drives = &a };
	ww_events_t *ev = ww_events_new();
	const char *bin = getenv("WW_BINARY");
	time_t t0 = 1700000000;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(spool, sizeof(spool), "%s/notify", dir);
	snprintf(prog, sizeof(prog), "%s/notify.sh", dir);
	snprintf(out, sizeof(out), "%s/env.txt", dir);
	f = fopen(prog, "w");
	fprintf(f, "#!/bin/sh\n[ -e %s/fail ] && exit 3\nenv | grep ^WEARWATCH_ | sort >> %s\n", dir,
		out);
	fclose(f);
	chmod(prog, 0755);
	/* queued, as the collector does: no program runs here */
	ww_events_configure(ev, prog, spool, 2, 3600);
	memset(&a, 0, sizeof(a));
	snprintf(a.drive.id, sizeof(a.drive.id), "ata-FLAPPING");
	a.drive.protocol = a.health.protocol = WW_PROTO_ATA;
	a.present = a.has_health = a.last_success = true;
	for (int i = 0; i < 7; i++) {
		flip(&a, i, t0 + 60 * i);
		ww_events_update(ev, NULL, &s, &s, t0 + 60 * i);
	}
	/* 6 changes (the first read finding it ok is not sent): 2 queued */
	CHECK_EQ_I64(count_files(spool, ".event"), 2);
	/* the window (from the first notification, t0 + 60) ends: one summary
	 * of the 4 held back */
	flip(&a, 6, t0 + 3659);
	ww_events_update(ev, NULL, &s, &s, t0 + 3659);
	CHECK_EQ_I64(count_files(spool, ".event"), 2);
	ww_events_update(ev, NULL, &s, &s, t0 + 3660);
	CHECK_EQ_I64(count_files(spool, ".event"), 3);
	ww_events_free(ev);
	if (!bin) {
		printf("note: WW_BINARY unset, notify-deliver not run\n");
		return;
	}
	/* the program fails: every event kept as .failed, exit 1 */
	snprintf(cmd, sizeof(cmd), "touch %s/fail; %s notify-deliver --config /dev/null --spool %s "
		 "--notify-exec %s 2>/dev/null", dir, bin, spool, prog);
	CHECK(WEXITSTATUS(system(cmd)) == 1);
	CHECK_EQ_I64(count_files(spool, ".failed"), 3);
	/* it works again: all three delivered in order, the queue empty */
	snprintf(cmd, sizeof(cmd), "rm %s/fail; %s notify-deliver --config /dev/null --spool %s "
		 "--notify-exec %s", dir, bin, spool, prog);
	CHECK(WEXITSTATUS(system(cmd)) == 0);
	CHECK_EQ_I64(count_files(spool, "[a-z]"), 0);
	read_env(out, all, sizeof(all));
	CHECK(strstr(all, "WEARWATCH_EVENT=status_change\n") != NULL);
	CHECK(strstr(all, "WEARWATCH_EVENT=flapping\n") != NULL);
	CHECK(strstr(all, "WEARWATCH_SUPPRESSED=4\n") != NULL);
	CHECK(strstr(all, "WEARWATCH_MESSAGE=4 changes within 3600 s not notified (flapping); "
			  "health now ok\n") != NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	test_probe_policy();
	test_drive_sections();
	test_history_route();
	test_health_change_runs_program();
	test_flapping_and_spool();
	return ww_test_done("test_service_conf");
}
