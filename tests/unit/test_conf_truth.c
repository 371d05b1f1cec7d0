/* wearwatch.conf says what runs, or is refused (src/conf/config.c,
 * smartctl_types.c; ww_runtime_check_conf in src/service/runtime.c, which a
 * reload now runs as a start does; ww_webfront_reload). Each of these was
 * taken without a word and ran something else than what was written:
 * - `interval = 1\0x` (a NUL byte in a line) was 1 s;
 * - a [drive] section's model pattern PCRE2 cannot compile was kept as
 *   literal text (its rating applied to no drive);
 * - `smartctl = abc` was taken, and every read of the drive then failed on
 *   smartctl's usage text;
 * - ratings_file = /etc/passwd was "reloaded", and the next start failed;
 * - a changed listen under socket activation was dropped. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "wearwatch/http.h"
#include "wearwatch/service.h"
#include "ww_test.h"

static char dir[] = "/tmp/ww-truth-XXXXXX";

/* load `len` bytes of wearwatch.conf (NUL bytes kept) into *c */
static int conf_bytes(ww_conf_t *c, const char *text, size_t len, char *err, size_t errlen)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/wearwatch.conf", dir);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len) {
		if (f)
			fclose(f);
		return -EIO;
	}
	fclose(f);
	ww_conf_free(c); /* the lists of the text before */
	ww_conf_defaults(c);
	err[0] = 0;
	return ww_conf_load(c, path, false, err, errlen);
}

static int conf_text(const char *text, char *err, size_t errlen)
{
	static ww_conf_t c;

	return conf_bytes(&c, text, strlen(text), err, errlen);
}

static void test_nul_byte(void)
{
	static const char t[] = "[poll]\ninterval = 1\0x\n";
	static const char comment[] = "# a comment\0 with a NUL\n[poll]\ninterval = 2m\n";
	static ww_conf_t c;
	char err[512];

	CHECK_EQ_I64(conf_bytes(&c, t, sizeof(t) - 1, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: NUL byte in the line"));
	CHECK_EQ_I64(conf_bytes(&c, comment, sizeof(comment) - 1, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:1: NUL byte in the line"));
	/* the same lines without the NUL are fine */
	CHECK_EQ_I64(conf_text("[poll]\ninterval = 1\n", err, sizeof(err)), 0);
}

static void test_drive_pattern(void)
{
	char err[512];

	CHECK_EQ_I64(
		conf_text("[drive Samsung SSD 8(60|70 EVO.*]\nrating = 0.3:5\n", err, sizeof(err)),
		-EINVAL);
	CHECK(strstr(err,
		     "wearwatch.conf:2: rating: [drive Samsung SSD 8(60|70 EVO.*] is not a "
		     "pattern: "));
	CHECK_EQ_I64(conf_text("[drive *MZ7]\nrating = 0.3:5\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: rating: [drive *MZ7] is not a pattern"));
	/* patterns and plain ids and serials that compile */
	CHECK_EQ_I64(
		conf_text("[drive Samsung SSD 8(60|70) EVO.*]\nrating = 0.3:5\n", err, sizeof(err)),
		0);
	CHECK_EQ_I64(
		conf_text("[drive nvme-eui.0025388b71b0e2f4]\nrating = 1:5\n", err, sizeof(err)),
		0);
	CHECK_EQ_I64(conf_text("[drive S3Z9NB0K123456X]\nrating = 600TB:5\n", err, sizeof(err)), 0);
}

/* A schedule that compiles but can never start a test was accepted and
 * said nothing: a one-digit hour (smartd builds HH with two), a type
 * letter smartd has not; a bad pattern says why after the value */
static void test_self_test_schedule(void)
{
	char err[512];

	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = S/../.././2\n", err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: self_test_schedule: ") &&
	      strstr(err, "got 'S/../.././2': it matches no hour"));
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = X\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "got 'X': it matches no hour"));
	/* one that backtracks past the match limit: refused at once, not
	 * asked for 312,480 texts */
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = (.?.?.?.?.?.?.?.?)*[a-z]\n", err,
			       sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: self_test_schedule: ") &&
	      strstr(err, "too slow: over 100000 match steps on texts like S/01/01/1/00"));
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = L/(01|02\n", err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "got 'L/(01|02': bad pattern at offset"));
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = S/../.././02\n", err, sizeof(err)),
		     0);
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = off\n", err, sizeof(err)), 0);
	/* smartd's next selective span n runs; its c and r alone never do */
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = n/../.././02\n", err, sizeof(err)),
		     0);
	CHECK_EQ_I64(conf_text("[health]\nself_test_schedule = c/../.././02\n", err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "types are L, n, S, C, O"));
	/* the spans a selective test splits a drive into: [health] and [drive] */
	{
		static ww_conf_t c;
		static const char t[] = "[health]\nself_test_spans = 30\n"
					"[drive sdb]\nself_test_spans = 4\n";

		CHECK_EQ_I64(conf_bytes(&c, t, sizeof(t) - 1, err, sizeof(err)), 0);
		CHECK_EQ_U64(c.health.self_test_spans, 30);
		CHECK(c.n_drives == 1 && c.drives[0].health.self_test_spans == 4);
		CHECK_EQ_I64(conf_text("[health]\nself_test_spans = 0\n", err, sizeof(err)),
			     -EINVAL);
		CHECK(strstr(err, "self_test_spans: expected a number of spans, 1 to 1000"));
		ww_conf_free(&c);
	}
	{
		ww_health_cfg_t d;

		ww_health_cfg_defaults(&d);
		CHECK_EQ_U64(d.self_test_spans, WW_SELFTEST_SPANS_DEFAULT);
	}
}

static void test_smartctl_types(void)
{
	/* smartctl -h of smartmontools 7.3, each form of its -d list */
	static const char *good[] = {
		"ata",
		"scsi",
		"scsi+sat",
		"nvme",
		"nvme,1",
		"nvme,0xffffffff",
		"sat",
		"sat,auto",
		"sat,12",
		"sat,auto,16",
		"sat+megaraid,0",
		"usbcypress",
		"usbcypress,0x24",
		"usbjmicron",
		"usbjmicron,p",
		"usbjmicron,x,1",
		"usbjmicron,p,x,0",
		"usbprolific",
		"usbsunplus",
		"sntasmedia",
		"sntjmicron",
		"sntjmicron,1",
		"sntrealtek",
		"intelliprop,0",
		"intelliprop,1+sat",
		"jmb39x,0",
		"jmb39x-q,2,33,force",
		"jms56x,1+sat",
		"marvell",
		"megaraid,3",
		"aacraid,0,0,1",
		"cciss,12",
		"hpt,1/1",
		"hpt,1/2/3",
		"3ware,0",
		"areca,1",
		"areca,2/1",
		"auto",
		"test",
	};
	static const char *bad[] = {
		"",           "abc",          "sata",        "megaraid",      "megaraid,",
		"megaraid,x", "megaraid,3,4", "sat,13",      "sat,auto,auto", "nvme,",
		"nvme,1,2",   "ata,1",        "ata+sat",     "sat+abc",       "sat+scsi+sat",
		"cciss",      "hpt,1",        "hpt,1/2/3/4", "aacraid,0,0",   "areca,1/",
		"3ware,-1",   "usbjmicron,2", "SAT",         "sat ",          "scsi+",
	};
	char err[512], text[160];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(ww_conf_smartctl_type_valid(good[i]));
		if (!ww_conf_smartctl_type_valid(good[i]))
			fprintf(stderr, "  refused: %s\n", good[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(!ww_conf_smartctl_type_valid(bad[i]));
		if (ww_conf_smartctl_type_valid(bad[i]))
			fprintf(stderr, "  taken: '%s'\n", bad[i]);
	}
	CHECK_EQ_I64(conf_text("[drive sdb]\nsmartctl = abc\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: smartctl: expected a type smartctl -d takes"));
	CHECK(strstr(err, "got 'abc'"));
	snprintf(text, sizeof(text), "[drive sdb]\nsmartctl = megaraid,3\n");
	CHECK_EQ_I64(conf_text(text, err, sizeof(err)), 0);
}

/* what a reload now checks before it takes a configuration */
static void test_ratings_file(void)
{
	static ww_conf_t c;
	char err[512], text[300], tsv[160];
	FILE *f;

	CHECK_EQ_I64(conf_text("[endurance]\nratings_file = /etc/passwd\n", err, sizeof(err)), 0);
	ww_conf_defaults(&c);
	snprintf(text, sizeof(text), "[endurance]\nratings_file = /etc/passwd\n");
	CHECK_EQ_I64(conf_bytes(&c, text, strlen(text), err, sizeof(err)), 0);
	CHECK_EQ_I64(ww_runtime_check_conf(&c, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf: [endurance] ratings_file /etc/passwd: /etc/passwd:"));
	snprintf(text, sizeof(text), "[endurance]\nratings_file = %s/none.tsv\n", dir);
	CHECK_EQ_I64(conf_bytes(&c, text, strlen(text), err, sizeof(err)), 0);
	CHECK_EQ_I64(ww_runtime_check_conf(&c, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "none.tsv"));
	/* an empty table is a table */
	snprintf(tsv, sizeof(tsv), "%s/empty.tsv", dir);
	f = fopen(tsv, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	snprintf(text, sizeof(text), "[endurance]\nratings_file = %s\n", tsv);
	CHECK_EQ_I64(conf_bytes(&c, text, strlen(text), err, sizeof(err)), 0);
	CHECK_EQ_I64(ww_runtime_check_conf(&c, err, sizeof(err)), 0);
	if (err[0])
		fprintf(stderr, "  %s\n", err);
	unlink(tsv);
}

static int no_fetch(void *ctx, const ww_conf_t *conf, const char *path, int timeout_ms,
		    ww_route_reply_t *r)
{
	(void)ctx, (void)conf, (void)path, (void)timeout_ms, (void)r;
	return -ENOENT;
}

/* under socket activation a changed listen cannot be applied: kept, said */
static void test_listen_activated(void)
{
	static ww_conf_t c, next;
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ww_webfront_t *w;
	char err[512];

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) && !listen(fd, 8) &&
	      !getsockname(fd, (struct sockaddr *)&a, &l));
	ww_conf_defaults(&c);
	snprintf(c.listen, sizeof(c.listen), "127.0.0.1:%u", ntohs(a.sin_port));
	w = ww_webfront_open(&c, fd, no_fetch, NULL, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	next = c;
	snprintf(next.listen, sizeof(next.listen), "127.0.0.1:1");
	CHECK_EQ_I64(ww_webfront_reload(&w, &next, err, sizeof(err)), 0);
	CHECK_STR(ww_webfront_listen(w), c.listen);
	CHECK_EQ_U64(ww_webfront_port(w), ntohs(a.sin_port));
	ww_webfront_close(w);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_nul_byte();
	test_drive_pattern();
	test_smartctl_types();
	test_self_test_schedule();
	test_ratings_file();
	test_listen_activated();
	rmdir(dir);
	return ww_test_done("test_conf_truth");
}
