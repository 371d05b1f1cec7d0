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

/* the collector's drive-facing settings in the file ([probe], [endurance],
 * [history]) with the flags on top, and [fleet]; every key of the shipped
 * example, uncommented, parses */
static void test_collector_sections(void)
{
	ww_conf_t *c = malloc(sizeof(*c));
	ww_probe_policy_t d;
	char err[512], *argv[] = { "collector", "--probe-count", "8", "--no-probe", NULL };
	char path[1024], line[512], *text = calloc(1, 1 << 16);
	FILE *f;

	ww_probe_policy_default(&d);
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c,
		"[probe]\nenabled = no\ninterval = 300\nbs = 8k\nmax-iops = 50\n"
		"rotational = never\n[endurance]\nratings_file = /etc/wearwatch/a.tsv\n"
		"ratings_file = /etc/wearwatch/b.tsv\n"
		"[history]\nenabled = no\nraw_retention = 14d\nhourly_retention = 1h\n"
		"[fleet]\nprometheus = https://prom.example:9090/prefix/\nbasic_auth_user = ww\n"
		"basic_auth_password_file = /run/credentials/x/p\ntimeout = 3s\n",
		"t.conf", err, sizeof(err)) == 0);
	/* a KEY=VALUE does not turn probing back on: only enabled does */
	CHECK(!c->probe.enabled);
	CHECK_EQ_U64(c->probe.interval_s, 300);
	CHECK_EQ_U64(c->probe.block_bytes, 8192);
	CHECK_EQ_U64(c->probe.max_iops, 50);
	CHECK(c->probe.rotational == WW_PROBE_ROT_NEVER);
	CHECK_EQ_U64(c->probe.count, d.count);
	CHECK_EQ_U64(c->n_ratings_files, 2);
	CHECK_STR(c->ratings_files[1], "/etc/wearwatch/b.tsv");
	CHECK(c->history_off);
	CHECK_EQ_U64(c->history_raw_s, 14 * 86400);
	CHECK_EQ_U64(c->history_hourly_s, 3600);
	CHECK_STR(c->fleet.prometheus, "https://prom.example:9090/prefix/");
	CHECK_STR(c->fleet.user, "ww");
	CHECK_EQ_U64(c->fleet.timeout_s, 3);
	/* flags win over the file */
	CHECK(ww_conf_apply_args(c, 4, argv, err, sizeof(err)) == 0);
	CHECK_EQ_U64(c->probe.count, 8);
	CHECK_EQ_U64(c->probe.interval_s, 300);
	CHECK(!c->probe.enabled);

	ww_conf_defaults(c);
	CHECK(c->probe.enabled && c->fleet.timeout_s == 10 && !c->fleet.prometheus[0]);
	CHECK(ww_conf_load_string(c, "[probe]\nqd = 0\n", "t.conf", err, sizeof(err)) == -EINVAL);
	CHECK(!strncmp(err, "t.conf:2: qd: expected interval, count", 38));
	CHECK(ww_conf_load_string(c, "[probe]\nspeed = 3\n", "t.conf", err, sizeof(err)) ==
	      -EINVAL);
	CHECK(ww_conf_load_string(c, "[fleet]\nprometheus = prom:9090\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(!strcmp(err, "t.conf:2: prometheus: expected an http:// or https:// URL, "
		      "got 'prom:9090'"));
	CHECK(ww_conf_load_string(c, "[endurance]\nratings_file = r.tsv\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[endurance]\nratings_file = /1\nratings_file = /2\n"
				  "ratings_file = /3\nratings_file = /4\nratings_file = /5\n"
				  "ratings_file = /6\nratings_file = /7\nratings_file = /8\n"
				  "ratings_file = /9\n", "t.conf", err, sizeof(err)) == -EINVAL);
	CHECK(!strncmp(err, "t.conf:10: ratings_file:", 24));

	/* etc/wearwatch.conf.example with every "#key = value" line made live */
	snprintf(path, sizeof(path), "%s/etc/wearwatch.conf.example",
		 getenv("WW_SOURCE_DIR") ? getenv("WW_SOURCE_DIR") : ".");
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (f && text && fgets(line, sizeof(line), f)) {
		const char *l = line;

		if (line[0] == '#' && line[1] != ' ' && line[1] != '\n' && strchr(line, '='))
			l = line + 1;
		else if (line[0] == '#' && line[1] == '[')
			l = line + 1;
		strncat(text, l, (1 << 16) - strlen(text) - 1);
	}
	if (f)
		fclose(f);
	ww_conf_defaults(c);
	int rc = ww_conf_load_string(c, text, "example", err, sizeof(err));

	if (rc)
		fprintf(stderr, "example: %s\n", err);
	CHECK(rc == 0);
	CHECK(c->fleet.prometheus[0] && c->n_ratings_files == 1 && c->n_drives >= 1);
	free(text);
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

/* two snapshots of one drive: SMART overall status PASSED, then FAILED */
static void test_health_change_runs_program(void)
{
	char dir[] = "/tmp/ww-events-XXXXXX", prog[300], out[300], line[512], all[4096] = "";
	ww_drive_state_t a, b;
	ww_snapshot_t s1 = { .generation = 1, .n = 1, .drives = &a };
	ww_snapshot_t s2 = { .generation = 2, .n = 1, .drives = &b };
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(prog, sizeof(prog), "%s/notify.sh", dir);
	snprintf(out, sizeof(out), "%s/env.txt", dir);
	f = fopen(prog, "w");
	fprintf(f, "#!/bin/sh\nenv | grep ^WEARWATCH_ | sort > %s.tmp && mv %s.tmp %s\n", out, out,
		out);
	fclose(f);
	chmod(prog, 0755);

	memset(&a, 0, sizeof(a));
	snprintf(a.drive.id, sizeof(a.drive.id), "ata-TEST_DISK_1");
	snprintf(a.drive.dev_path, sizeof(a.drive.dev_path), "/dev/sdq");
	a.present = true;
	a.has_health = true;
	snprintf(a.health.model, sizeof(a.health.model), "TEST DISK");
	snprintf(a.health.serial, sizeof(a.health.serial), "SN123");
	a.health.smart_status = WW_SMART_PASSED;
	b = a;
	b.health.smart_status = WW_SMART_FAILED;

	CHECK_EQ_I64(ww_events_diff(&s1, &s1, prog), 0); /* no change, no event */
	/* FAILED: a critical-warning event and the health change */
	CHECK_EQ_I64(ww_events_diff(&s1, &s2, prog), 2);
	for (int i = 0; i < 100 && access(out, R_OK); i++) {
		usleep(50000);
		ww_events_reap(30);
	}
	f = fopen(out, "r");
	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f))
		strncat(all, line, sizeof(all) - strlen(all) - 1);
	if (f)
		fclose(f);
	CHECK(strstr(all, "WEARWATCH_EVENT=health_change\n"));
	CHECK(strstr(all, "WEARWATCH_DRIVE=ata-TEST_DISK_1\n"));
	CHECK(strstr(all, "WEARWATCH_DEVICE=/dev/sdq\n"));
	CHECK(strstr(all, "WEARWATCH_MODEL=TEST DISK\n"));
	CHECK(strstr(all, "WEARWATCH_SERIAL=SN123\n"));
	CHECK(strstr(all, "WEARWATCH_OLD_STATE=ok\n"));
	CHECK(strstr(all, "WEARWATCH_NEW_STATE=failed\n"));
	CHECK(strstr(all, "WEARWATCH_REASONS=SMART overall status FAILED\n"));
	CHECK(strstr(all, "WEARWATCH_MESSAGE=health ok -> failed: SMART overall status FAILED\n"));
	ww_events_reap(30);
	unlink(out);
	unlink(prog);
	rmdir(dir);
}

int main(void)
{
	test_probe_policy();
	test_drive_sections();
	test_collector_sections();
	test_history_route();
	test_health_change_runs_program();
	return ww_test_done("test_service_conf");
}
