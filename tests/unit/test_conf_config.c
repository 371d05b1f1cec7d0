/* Strict wearwatch.conf and serve flags (src/conf/config.c,
 * endurance_opts.c): the values that were accepted silently and made the
 * service run with something else than what was written. Each is refused
 * with file:line (or the flag), which makes a start exit 2 and a reload keep
 * the last good configuration (tests/service/test_hostile.py runs that end
 * to end). */
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "ww_test.h"

static char dir[] = "/tmp/ww-strict-XXXXXX";

static int conf_text(const char *text, char *err, size_t len)
{
	ww_conf_t *c = malloc(sizeof(*c));
	char path[128];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/wearwatch.conf", dir);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	ww_conf_defaults(c);
	rc = ww_conf_load(c, path, false, err, len);
	ww_conf_free(c);
	free(c);
	return rc;
}

static int flags(int argc, char **argv, char *err, size_t len)
{
	ww_conf_t *c = malloc(sizeof(*c));
	int rc;

	ww_conf_defaults(c);
	rc = ww_conf_apply_args(c, argc, argv, err, len);
	ww_conf_free(c);
	free(c);
	return rc;
}

/* No fixed list limit: 1000 --include names (the 33rd was "invalid value"),
 * 1000 include lines and 1000 [drive] sections in a file, each kept in
 * order, and a copy that owns its lists (the original freed, the copy
 * intact). */
static void test_no_list_limit(void)
{
	enum {
		N = 1000
	};
	ww_conf_t *c = calloc(1, sizeof(*c)), *d = calloc(1, sizeof(*d));
	char **argv = calloc(2 * N + 2, sizeof(*argv)), err[512] = "", path[128], name[32];
	FILE *f;
	bool ok = true;

	if (!c || !d || !argv)
		return;
	argv[0] = "serve";
	for (int i = 0; i < N; i++) {
		argv[1 + 2 * i] = "--include";
		argv[2 + 2 * i] = malloc(32);
		snprintf(argv[2 + 2 * i], 32, "sd%04d", i);
	}
	ww_conf_defaults(c);
	CHECK_EQ_I64(ww_conf_apply_args(c, 2 * N + 1, argv, err, sizeof(err)), 0);
	CHECK_EQ_U64(c->n_include, N);
	for (int i = 0; i < N && c->n_include == N; i++)
		ok = ok && !strcmp(c->include[i], argv[2 + 2 * i]);
	CHECK(ok);
	ww_conf_free(c);
	CHECK(c->include == NULL && c->n_include == 0);

	snprintf(path, sizeof(path), "%s/many.conf", dir);
	f = fopen(path, "w");
	fputs("[collector]\n", f);
	for (int i = 0; i < N; i++)
		fprintf(f, "include = vd%04d\n", i);
	for (int i = 0; i < N; i++)
		fprintf(f, "[drive wwn-0x5000c500%08d]\nexclude = yes\n", i);
	fclose(f);
	ww_conf_defaults(c);
	CHECK_EQ_I64(ww_conf_load(c, path, false, err, sizeof(err)), 0);
	CHECK_EQ_U64(c->n_include, N);
	CHECK_EQ_U64(c->n_drives, N);
	CHECK_EQ_I64(ww_conf_copy(d, c), 0);
	ww_conf_free(c);
	ok = d->n_include == N && d->n_drives == N;
	for (int i = 0; i < N && ok; i++) {
		snprintf(name, sizeof(name), "vd%04d", i);
		ok = !strcmp(d->include[i], name);
		snprintf(name, sizeof(name), "wwn-0x5000c500%08d", i);
		ok = ok && !strcmp(d->drives[i].name, name) && d->drives[i].monitor == 0;
	}
	CHECK(ok);
	CHECK(ww_conf_drive_find(d, "wwn-0x5000c50000000999", "sdq") == &d->drives[999]);
	ww_conf_free(d);
	unlink(path);
	for (int i = 0; i < N; i++)
		free(argv[2 + 2 * i]);
	free(argv);
	free(c);
	free(d);
}

static void test_conf(void)
{
	char err[512], path[160];

	/* --config DIR ran with the defaults */
	{
		ww_conf_t *c = malloc(sizeof(*c));

		ww_conf_defaults(c);
		CHECK_EQ_I64(ww_conf_load(c, dir, false, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, ": a directory, expected the configuration file"));
		free(c);
	}
	/* out of range: each key its range, the same for the flag */
	CHECK_EQ_I64(conf_text("[poll]\ninterval = 8d\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: interval: expected a duration of 1s-7d"));
	CHECK_EQ_I64(conf_text("[collector]\nhung_after = 2h\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: hung_after: expected a duration of 1s-1h"));
	CHECK_EQ_I64(conf_text("[notify]\ntimeout = 2000000000\n", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(conf_text("[history]\nretention = 1h\n", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(conf_text("[history]\nretention = 400d\n", err, sizeof(err)), 0);
	CHECK_EQ_I64(conf_text("[poll]\ninterval = 7d\n", err, sizeof(err)), 0);
	{
		char *a1[] = { "x", "--poll-interval", "8d", NULL }, *a2[] = { "x", "--workers", "65",
									      NULL };
		char *a3[] = { "x", "--hung-after", "30", NULL };

		CHECK_EQ_I64(flags(3, a1, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "--poll-interval: invalid value '8d'"));
		CHECK_EQ_I64(flags(3, a2, err, sizeof(err)), -EINVAL);
		CHECK_EQ_I64(flags(3, a3, err, sizeof(err)), 0);
	}
	/* impossible dates */
	CHECK_EQ_I64(conf_text("[drive ata-X]\nrating = 1:5\nwarranty_start = 2021-02-30\n", err,
			       sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:3: warranty_start: expected YYYY-MM-DD"));
	CHECK_EQ_I64(conf_text("[drive ata-X]\nrating = 1:5@2021-02-30\n", err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: rating: bad warranty start '2021-02-30'"));
	/* numbers the rating took */
	CHECK_EQ_I64(conf_text("[drive ata-X]\nrating = 1e308:5\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:2: rating: bad DWPD"));
	/* a [drive] pattern over the limits: 1.1 GB in glibc's regcomp() */
	CHECK_EQ_I64(conf_text("[poll]\ninterval = 60\n[drive (((a{1,100}){1,100}){1,100})]\n"
			       "rating = 1:5\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:4: rating: pattern over the limits"));
	/* a line longer than inih reads (its rest was parsed as a line of its
	 * own: the end of a comment became a key) is an error with its number */
	{
		char text[600];

		snprintf(text, sizeof(text), "[web]\n# %0300d listen = 127.0.0.1:19111\n", 0);
		CHECK_EQ_I64(conf_text(text, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "wearwatch.conf:2: line longer than "));
	}
	/* a key before any section names itself */
	CHECK_EQ_I64(conf_text("interval = 60\n[poll]\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf:1: 'interval' comes before any [section]"));
	/* thresholds that contradict each other, in [health] or under a drive's */
	CHECK_EQ_I64(conf_text("[health]\ntemperature_warning = 80\ntemperature_critical = 70\n",
			       err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "wearwatch.conf: [health]: temperature_warning 80 is not below "
		      "temperature_critical 70"));
	CHECK_EQ_I64(conf_text("[health]\npercentage_used_critical = 90\n[drive ata-X]\n"
			       "percentage_used_warning = 95\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "[drive ata-X]: percentage_used_warning 95 is above "
		      "percentage_used_critical 90"));
	CHECK_EQ_I64(conf_text("[health]\nrated_endurance_warning = 90\n", err, sizeof(err)), 0);
	/* the probe keys with underscores; a bad value names its key */
	CHECK_EQ_I64(conf_text("[probe]\nmax_iops = 50\nbusy_inflight = 2\n", err, sizeof(err)), 0);
	CHECK_EQ_I64(conf_text("[drive ata-X]\nprobe = max_iops=50,interval=0\n", err,
			       sizeof(err)), -EINVAL);
	CHECK(strstr(err, "probe interval: invalid value '0'"));
	/* a FIFO is refused at once (open() waited for a writer forever) */
	{
		ww_conf_t *c = malloc(sizeof(*c));

		snprintf(path, sizeof(path), "%s/fifo.conf", dir);
		CHECK(mkfifo(path, 0600) == 0);
		ww_conf_defaults(c);
		CHECK_EQ_I64(ww_conf_load(c, path, false, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "fifo.conf: not a regular file, expected the configuration file"));
		unlink(path);
		free(c);
	}
	/* /dev/null is "no file", not an error */
	{
		ww_conf_t *c = malloc(sizeof(*c));

		ww_conf_defaults(c);
		CHECK_EQ_I64(ww_conf_load(c, "/dev/null", false, err, sizeof(err)), 0);
		free(c);
	}
	snprintf(path, sizeof(path), "%s/wearwatch.conf", dir);
	unlink(path);
}

static void test_serve_opts(void)
{
	ww_conf_endurance_opts_t o;
	char path[160];
	FILE *f;

	memset(&o, 0, sizeof(o));
	CHECK_EQ_I64(ww_conf_endurance_opt(WW_OPT_END_RATING, "M=0x1p-1000:5", &o), -EINVAL);
	CHECK_EQ_I64(ww_conf_endurance_opt(WW_OPT_END_RATING, "M=1:5@2021-02-30", &o), -EINVAL);
	CHECK_EQ_I64(ww_conf_endurance_opt(WW_OPT_END_RATINGS_FILE, dir, &o), -EINVAL);
	snprintf(path, sizeof(path), "%s/r.tsv", dir);
	f = fopen(path, "w");
	fwrite("^A\tsata\t\t1\t\t5\tok\n^B\0", 1, 20, f);
	fclose(f);
	CHECK_EQ_I64(ww_conf_endurance_opt(WW_OPT_END_RATINGS_FILE, path, &o), -EINVAL);
	CHECK_EQ_U64(o.n_files, 0);
	unlink(path);
	ww_ratings_free(&o.overrides);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	chmod(dir, 0755);
	test_conf();
	test_serve_opts();
	test_no_list_limit();
	rmdir(dir);
	return ww_test_done("test_conf_config");
}
