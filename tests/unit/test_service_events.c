/* Drive events (src/service/events.c, event.c): the verdict's changes
 * between snapshots run the notification program (a real child process; its
 * environment is read back), nothing is sent twice, a flapping drive is
 * summarised, and the collector's spool. Expected values come from the
 * snapshots built here and the verdict's sentences (docs/health.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/service.h"
#include "ww_test.h"

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
	static ww_health_t ha, hb;
	static ww_drive_t da;
	static const ww_read_report_t no_report;
	static const ww_drive_state_t *pa[] = { &a }, *pb[] = { &b }, *pc[] = { &c };
	ww_snapshot_t s1 = { .generation = 1, .n = 1, .drives = pa };
	ww_snapshot_t s2 = { .generation = 2, .n = 1, .drives = pb };
	ww_snapshot_t s3 = { .generation = 3, .n = 1, .drives = pc };
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
	snprintf(da.id, sizeof(da.id), "ata-TEST_DISK_1");
	snprintf(da.dev_path, sizeof(da.dev_path), "/dev/sdq");
	da.protocol = WW_PROTO_ATA;
	a.drive = &da;
	a.present = true;
	a.health = &ha;
	a.report = &no_report;
	a.values_time = a.last_collect = t0;
	a.collections_total = a.last_success = 1;
	ha.protocol = WW_PROTO_ATA;
	snprintf(ha.model, sizeof(ha.model), "TEST DISK");
	snprintf(ha.serial, sizeof(ha.serial), "SN123");
	ha.smart_status = WW_SMART_PASSED;
	ha.smart_status_source = "ATA SMART RETURN STATUS";
	b = a;
	hb = ha;
	b.health = &hb;
	hb.smart_status = WW_SMART_FAILED;
	b.values_time = b.last_collect = t0 + 60;
	b.collections_total = 2;

	/* the first verdict (ok) is logged, not sent; the same state again: nothing */
	CHECK_EQ_I64(
		ww_events_update(
			ev, &(ww_render_ctx_t){ .snap = &s1, .endurance = NULL, .now = t0 }, NULL),
		1);
	CHECK_EQ_I64(ww_events_update(
			     ev,
			     &(ww_render_ctx_t){ .snap = &s1, .endurance = NULL, .now = t0 + 1 },
			     &s1),
		     0);
	CHECK(access(out, R_OK) != 0);
	/* FAILED: one event, critical */
	CHECK_EQ_I64(ww_events_update(
			     ev,
			     &(ww_render_ctx_t){ .snap = &s2, .endurance = NULL, .now = t0 + 60 },
			     &s1),
		     1);
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
	CHECK_EQ_I64(ww_events_update(
			     ev,
			     &(ww_render_ctx_t){ .snap = &s2, .endurance = NULL, .now = t0 + 120 },
			     &s2),
		     0);
	/* gone from discovery: one "missing" event */
	c = b;
	c.present = false;
	c.missing_since = t0 + 180;
	CHECK_EQ_I64(ww_events_update(
			     ev,
			     &(ww_render_ctx_t){ .snap = &s3, .endurance = NULL, .now = t0 + 180 },
			     &s2),
		     1);
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
static void flip(ww_drive_state_t *d, ww_health_t *h, int i, time_t t)
{
	h->smart_status = i % 2 ? WW_SMART_FAILED : WW_SMART_PASSED;
	d->health = h;
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
	static ww_health_t ha;
	static ww_drive_t da;
	static const ww_read_report_t no_report;
	static const ww_drive_state_t *pa[] = { &a };
	ww_snapshot_t s = { .generation = 1, .n = 1, .drives = pa };
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
	snprintf(da.id, sizeof(da.id), "ata-FLAPPING");
	da.protocol = ha.protocol = WW_PROTO_ATA;
	a.drive = &da;
	a.health = &ha;
	a.report = &no_report;
	a.present = a.last_success = true;
	for (int i = 0; i < 7; i++) {
		flip(&a, &ha, i, t0 + 60 * i);
		ww_events_update(
			ev, &(ww_render_ctx_t){ .snap = &s, .endurance = NULL, .now = t0 + 60 * i },
			&s);
	}
	/* 6 changes (the first read finding it ok is not sent): 2 queued */
	CHECK_EQ_I64(count_files(spool, ".event"), 2);
	/* the window (from the first notification, t0 + 60) ends: one summary
	 * of the 4 held back */
	flip(&a, &ha, 6, t0 + 3659);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s, .endurance = NULL, .now = t0 + 3659 },
			 &s);
	CHECK_EQ_I64(count_files(spool, ".event"), 2);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s, .endurance = NULL, .now = t0 + 3660 },
			 &s);
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

/* Spool files notify-deliver cannot deliver never stay as *.event, the
 * glob wearwatch-notify.path watches: each such file started the service
 * again at once after it exited, until systemd's start limit failed the
 * unit and later good events were never delivered. A malformed file and a
 * FIFO (it held the reader: fopen waits for a writer) are moved to
 * NAME.bad; with no [notify] exec the events become NAME.failed and are
 * delivered by the first run that has one. */
static void test_spool_never_loops(void)
{
	char dir[] = "/tmp/ww-spoolbad-XXXXXX", path[400], prog[300], out[300], cmd[1400];
	static char all[16384];
	const char *bin = getenv("WW_BINARY");
	static const char good[] = "WEARWATCH_EVENT=status_change\0WEARWATCH_DRIVE=ata-X\0";
	ww_event_t ev = { 0 };
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	/* the parser: every NUL-ended variable ours, one at least */
	CHECK_EQ_I64(ww_events_spool_parse(good, sizeof(good) - 1, &ev), 0);
	CHECK_EQ_I64((long)ev.n, 2);
	CHECK_EQ_I64(ww_events_spool_parse("WEARWATCH_X=1\0\0", 15, &ev), -EINVAL);
	CHECK_EQ_I64(ww_events_spool_parse("PATH=/tmp\0", 10, &ev), -EINVAL);
	CHECK_EQ_I64(ww_events_spool_parse("WEARWATCH_X\0", 12, &ev), -EINVAL);
	CHECK_EQ_I64(ww_events_spool_parse("", 0, &ev), -EINVAL);
	CHECK(ev.n == 0);
	if (!bin) {
		printf("note: WW_BINARY unset, notify-deliver not run\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/01-good.event", dir);
	f = fopen(path, "w");
	fwrite(good, 1, sizeof(good) - 1, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/02-malformed.event", dir);
	f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/03-fifo.event", dir);
	CHECK(mkfifo(path, 0600) == 0);
	/* no [notify] exec: nothing left as .event */
	snprintf(cmd, sizeof(cmd), "%s notify-deliver --config /dev/null --spool %s 2>%s/log1", bin,
		 dir, dir);
	CHECK(WEXITSTATUS(system(cmd)) == 1);
	CHECK_EQ_I64(count_files(dir, ".event"), 0);
	CHECK_EQ_I64(count_files(dir, ".failed"), 3);
	/* a program: the good one delivered, the others moved aside as .bad */
	snprintf(prog, sizeof(prog), "%s/notify.sh", dir);
	snprintf(out, sizeof(out), "%s/env.txt", dir);
	f = fopen(prog, "w");
	fprintf(f, "#!/bin/sh\nenv | grep ^WEARWATCH_ | sort >> %s\n", out);
	fclose(f);
	chmod(prog, 0755);
	snprintf(cmd, sizeof(cmd),
		 "timeout 20 %s notify-deliver --config /dev/null --spool %s "
		 "--notify-exec %s 2>%s/log2",
		 bin, dir, prog, dir);
	CHECK(WEXITSTATUS(system(cmd)) == 1);
	CHECK_EQ_I64(count_files(dir, ".event"), 0);
	CHECK_EQ_I64(count_files(dir, ".failed"), 0);
	CHECK_EQ_I64(count_files(dir, ".bad"), 2);
	read_env(out, all, sizeof(all));
	CHECK(strstr(all, "WEARWATCH_DRIVE=ata-X\n") != NULL);
	snprintf(path, sizeof(path), "%s/log2", dir);
	read_env(path, all, sizeof(all));
	printf("%s", all);
	CHECK(strstr(all, "02-malformed.failed: not a queued event (malformed); moved to") != NULL);
	CHECK(strstr(all, "03-fifo.failed: not a queued event (not a regular file)") != NULL);
	/* a later run finds nothing to do */
	CHECK(WEXITSTATUS(system(cmd)) == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/* A tick looks at the drives whose records changed since the snapshot it
 * looked at last, not at every drive (counted: ww_events_looks); every
 * drive again when its second look is due (60 s after its last verdict). */
static void test_unchanged_records_skipped(void)
{
	static ww_drive_state_t st[4];
	static ww_health_t h[3];
	static ww_drive_t d[3];
	static const ww_read_report_t no_report;
	static const ww_drive_state_t *p1[3], *p2[3];
	ww_snapshot_t s1 = { .generation = 1, .n = 3, .drives = p1 };
	ww_snapshot_t s2 = { .generation = 2, .n = 3, .drives = p2 };
	ww_events_t *ev = ww_events_new();
	time_t t0 = 1700000000;
	unsigned long l0;

	for (int i = 0; i < 3; i++) {
		memset(&st[i], 0, sizeof(st[i]));
		snprintf(d[i].id, sizeof(d[i].id), "ata-TEST_DISK_%d", i);
		d[i].protocol = WW_PROTO_ATA;
		st[i].drive = &d[i];
		st[i].present = true;
		st[i].health = &h[i];
		st[i].report = &no_report;
		st[i].values_time = st[i].last_collect = t0;
		st[i].collections_total = st[i].last_success = 1;
		h[i].protocol = WW_PROTO_ATA;
		h[i].smart_status = WW_SMART_PASSED;
		h[i].smart_status_source = "ATA SMART RETURN STATUS";
		p1[i] = p2[i] = &st[i];
	}
	/* drive 1 read again: a new record in s2 */
	st[3] = st[1];
	st[3].values_time = st[3].last_collect = t0 + 10;
	st[3].collections_total = 2;
	p2[1] = &st[3];

	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s1, .now = t0 }, NULL);
	CHECK_EQ_U64(ww_events_looks(ev), 3);
	l0 = ww_events_looks(ev);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s1, .now = t0 + 1 }, &s1);
	CHECK_EQ_U64(ww_events_looks(ev) - l0, 0);
	l0 = ww_events_looks(ev);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s2, .now = t0 + 10 }, &s1);
	CHECK_EQ_U64(ww_events_looks(ev) - l0, 1);
	l0 = ww_events_looks(ev);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s2, .now = t0 + 59 }, &s2);
	CHECK_EQ_U64(ww_events_looks(ev) - l0, 0);
	/* drives 0 and 2 were last evaluated at t0: due again */
	l0 = ww_events_looks(ev);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s2, .now = t0 + 60 }, &s2);
	CHECK_EQ_U64(ww_events_looks(ev) - l0, 3);
	/* a prev that is not the snapshot looked at last: every drive */
	l0 = ww_events_looks(ev);
	ww_events_update(ev, &(ww_render_ctx_t){ .snap = &s2, .now = t0 + 61 }, &s1);
	CHECK_EQ_U64(ww_events_looks(ev) - l0, 3);
	ww_events_free(ev);
}

int main(void)
{
	test_unchanged_records_skipped();
	test_health_change_runs_program();
	test_flapping_and_spool();
	test_spool_never_loops();
	return ww_test_done("test_service_events");
}
