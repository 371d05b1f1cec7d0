/* The sections of wearwatch.conf that set what `serve` also takes as flags
 * ([probe], [endurance], [history]) and [fleet] (src/conf/config.c): values,
 * flags on top, errors with file:line, and every key of the shipped
 * etc/wearwatch.conf.example. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/conf.h"
#include "ww_test.h"

/* the collector's drive-facing settings in the file ([probe], [endurance],
 * [history]) with the flags on top, and [fleet]; every key of the shipped
 * example, uncommented, parses */
static void test_collector_sections(void)
{
	ww_conf_t *c = calloc(1, sizeof(*c));
	ww_probe_policy_t d;
	char err[512], *argv[] = { "collector", "--probe-count", "8", "--no-probe", NULL };
	char path[1024], line[512], *text = calloc(1, 1 << 16);
	FILE *f;

	ww_probe_policy_default(&d);
	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(
		      c,
		      "[probe]\nenabled = no\ninterval = 300\nbs = 8k\nmax-iops = 50\n"
		      "rotational = never\n[endurance]\nratings_file = /etc/wearwatch/a.tsv\n"
		      "ratings_file = /etc/wearwatch/b.tsv\n"
		      "[history]\nenabled = no\nraw_retention = 14d\nhourly_retention = 1h\n"
		      "[fleet]\nprometheus = https://prom.example:9090/prefix/\nbasic_auth_user = ww\n"
		      "basic_auth_password_file = /run/credentials/x/p\ntimeout = 3s\n"
		      "header = X-Scope-OrgID: tenant-a\nheader = X-Api-Key: k1\njobs = ww-(fra|ams)\n",
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
	CHECK_EQ_U64(c->fleet.n_headers, 2);
	CHECK_STR(c->fleet.headers[0], "X-Scope-OrgID: tenant-a");
	CHECK_STR(c->fleet.headers[1], "X-Api-Key: k1");
	CHECK_STR(c->fleet.jobs, "ww-(fra|ams)");
	/* flags win over the file */
	CHECK(ww_conf_apply_args(c, 4, argv, err, sizeof(err)) == 0);
	CHECK_EQ_U64(c->probe.count, 8);
	CHECK_EQ_U64(c->probe.interval_s, 300);
	CHECK(!c->probe.enabled);

	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	CHECK(c->probe.enabled && c->fleet.timeout_s == 10 && !c->fleet.prometheus[0]);
	CHECK_STR(c->fleet.jobs, "wearwatch.*");
	/* a header is a token, a colon and a value without control characters,
	 * at most four */
	CHECK(ww_conf_load_string(c, "[fleet]\nheader = X Scope: t\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(!strncmp(err, "t.conf:2: header: expected 'Name: value'", 40));
	CHECK(ww_conf_load_string(c, "[fleet]\nheader = no-colon\n", "t.conf", err, sizeof(err)) ==
	      -EINVAL);
	CHECK(ww_conf_load_string(c,
				  "[fleet]\nheader = A: 1\nheader = B: 2\nheader = C: 3\n"
				  "header = D: 4\nheader = E: 5\n",
				  "t.conf", err, sizeof(err)) == -EINVAL);
	CHECK(!strncmp(err, "t.conf:6: header:", 17));
	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
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
	ww_conf_free(c); /* its lists, before they are reset */
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
	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	int rc = ww_conf_load_string(c, text, "example", err, sizeof(err));

	if (rc)
		fprintf(stderr, "example: %s\n", err);
	CHECK(rc == 0);
	CHECK(c->fleet.prometheus[0] && c->n_ratings_files == 1 && c->n_drives >= 1);
	free(text);
	ww_conf_free(c);
	free(c);
}

int main(void)
{
	test_collector_sections();
	return ww_test_done("test_conf_sections");
}
