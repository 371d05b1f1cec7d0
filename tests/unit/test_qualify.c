/* qualify's pure parts: the profile table against seed-facts.md, the load
 * and custom profile syntax, the accumulators against exact arithmetic on
 * known sample sets, the SNIA PTS steady-state rule on round series whose
 * verdict follows from the rule by hand, and the write guard's sysfs checks
 * (partitions, holders, mounts, swap) on a constructed sysfs tree. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "wearwatch/qualify.h"
#include "ww_test.h"

static bool near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) + 1e-12;
}

static void test_profiles(void)
{
	/* seed-facts.md "How the reviews measure": synthetic and server profiles */
	static const struct {
		const char *name;
		uint32_t bs;
		unsigned rd;
		bool random;
	} want[] = {
		{ "4k-random-read", 4096, 100, true },  { "4k-random-write", 4096, 0, true },
		{ "8k-random-70-30", 8192, 70, true },  { "8k-random-read", 8192, 100, true },
		{ "8k-random-write", 8192, 0, true },   { "128k-seq-read", 131072, 100, false },
		{ "128k-seq-write", 131072, 0, false }, { "oltp", 8192, 66, true },
		{ "workstation", 8192, 80, true },
	};
	const ww_qualify_profile_t *fs;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const ww_qualify_profile_t *p = ww_qualify_profile_find(want[i].name);

		CHECK(p != NULL);
		if (!p)
			continue;
		CHECK_EQ_U64(p->n_sizes, 1);
		CHECK_EQ_U64(p->sizes[0].bytes, want[i].bs);
		CHECK_EQ_U64(p->read_percent, want[i].rd);
		CHECK(p->random == want[i].random);
		CHECK(ww_qualify_profile_writes(p) == (want[i].rd < 100));
	}
	/* the IOMeter file server mix as The SSD Review prints it */
	fs = ww_qualify_profile_find("file-server");
	CHECK(fs && fs->n_sizes == 8 && fs->read_percent == 80 && fs->random);
	if (fs) {
		CHECK_EQ_U64(fs->sizes[0].bytes, 512);
		CHECK_EQ_U64(fs->sizes[0].percent, 10);
		CHECK_EQ_U64(fs->sizes[3].bytes, 4096);
		CHECK_EQ_U64(fs->sizes[3].percent, 60);
		CHECK_EQ_U64(fs->sizes[7].bytes, 65536);
		CHECK_EQ_U64(fs->sizes[7].percent, 10);
	}
	/* every row: shares add to 100, sizes whole 512-byte blocks, a source,
	 * names unique */
	for (size_t i = 0; i < ww_qualify_n_profiles; i++) {
		const ww_qualify_profile_t *p = &ww_qualify_profiles[i];
		unsigned sum = 0;

		for (unsigned k = 0; k < p->n_sizes; k++) {
			sum += p->sizes[k].percent;
			CHECK(p->sizes[k].bytes && p->sizes[k].bytes % 512 == 0);
		}
		CHECK_EQ_U64(sum, 100);
		CHECK(p->source && p->source[0]);
		CHECK(ww_qualify_profile_find(p->name) == p);
		CHECK(p->random || p->read_percent == 0 || p->read_percent == 100);
	}
	CHECK(ww_qualify_profile_find("web-server") == NULL); /* shares unpublished */
}

static void test_syntax(void)
{
	unsigned t = 0, q = 0;
	ww_qualify_profile_t p;
	char err[200];

	CHECK(ww_qualify_parse_load("2T2Q", &t, &q) == 0 && t == 2 && q == 2);
	CHECK(ww_qualify_parse_load("16t16q", &t, &q) == 0 && t == 16 && q == 16);
	CHECK(ww_qualify_parse_load("4x32", &t, &q) == 0 && t == 4 && q == 32);
	CHECK(ww_qualify_parse_load("0T2Q", &t, &q) == -EINVAL);
	CHECK(ww_qualify_parse_load("2T", &t, &q) == -EINVAL);
	CHECK(ww_qualify_parse_load("257T1Q", &t, &q) == -EINVAL);
	CHECK(ww_qualify_parse_load("2T2Qx", &t, &q) == -EINVAL);
	CHECK(ww_qualify_parse_load("", &t, &q) == -EINVAL);

	CHECK(ww_qualify_profile_parse("16k,90,random", &p, err, sizeof(err)) == 0);
	CHECK(p.sizes[0].bytes == 16384 && p.read_percent == 90 && p.random);
	CHECK(ww_qualify_profile_parse("1m,0,sequential", &p, err, sizeof(err)) == 0);
	CHECK(p.sizes[0].bytes == 1048576 && !p.random && ww_qualify_profile_writes(&p));
	CHECK(ww_qualify_profile_parse("1000,50,random", &p, err, sizeof(err)) == -EINVAL);
	CHECK(ww_qualify_profile_parse("4k,101,random", &p, err, sizeof(err)) == -EINVAL);
	CHECK(ww_qualify_profile_parse("4k,50,sequential", &p, err, sizeof(err)) == -EINVAL);
	CHECK(ww_qualify_profile_parse("4k,50", &p, err, sizeof(err)) == -EINVAL);
	CHECK(ww_qualify_profile_parse("4k,50,random,x", &p, err, sizeof(err)) == -EINVAL);
}

static void test_acc(void)
{
	ww_qualify_acc_t *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)),
			 *c = calloc(1, sizeof(*c));
	ww_qualify_stats_t s;

	/* 1..1000 us, 4 KiB each, over 2 s: mean 500.5 us; population
	 * standard deviation sqrt((n^2 - 1) / 12) = 288.6750 us; nearest rank
	 * p50 = 500 us, p99 = 990 us, p99.9 = 999 us (histogram: within 1 %) */
	ww_qualify_acc_reset(a);
	for (uint64_t i = 1; i <= 1000; i++)
		ww_qualify_acc_add(a, true, 4096, i * 1000);
	ww_qualify_acc_add(a, false, 4096, 0);
	ww_qualify_acc_stats(a, 2.0, &s);
	CHECK_EQ_U64(s.ios, 1000);
	CHECK_EQ_U64(s.errors, 1);
	CHECK_EQ_U64(s.bytes, 4096000);
	CHECK(near(s.iops, 500, 1e-12));
	CHECK(near(s.mb_per_s, 2.048, 1e-12));
	CHECK(near(s.mean_s, 500.5e-6, 1e-12));
	CHECK(near(s.stddev_s, sqrt((1000.0 * 1000 - 1) / 12) * 1e-6, 1e-9));
	CHECK(near(s.min_s, 1e-6, 1e-12));
	CHECK(near(s.max_s, 1000e-6, 1e-12));
	CHECK(near(s.p50_s, 500e-6, 0.01));
	CHECK(near(s.p99_s, 990e-6, 0.01));
	CHECK(near(s.p999_s, 999e-6, 0.01));

	/* merging two halves gives the figures of the whole */
	ww_qualify_acc_reset(b);
	ww_qualify_acc_reset(c);
	for (uint64_t i = 1; i <= 1000; i++)
		ww_qualify_acc_add(i % 2 ? b : c, true, 4096, i * 1000);
	ww_qualify_acc_add(c, false, 4096, 0);
	ww_qualify_acc_merge(b, c);
	CHECK_EQ_U64(b->ios, a->ios);
	CHECK_EQ_U64(b->errors, a->errors);
	CHECK_EQ_U64(b->min_ns, a->min_ns);
	CHECK_EQ_U64(b->max_ns, a->max_ns);
	CHECK(b->sum_ns == a->sum_ns && b->sumsq_ns == a->sumsq_ns);
	CHECK(memcmp(b->hist.counts, a->hist.counts, sizeof(a->hist.counts)) == 0);

	/* one slow I/O among fast ones: the average hides it, p99.9 and max
	 * do not (the reviews' reason for scatter plots). 999 x 100 us + 1 x
	 * 50 ms: mean 149.9 us; nearest rank p99.9 is the 999th = 100 us, max
	 * 50 ms */
	ww_qualify_acc_reset(a);
	for (int i = 0; i < 999; i++)
		ww_qualify_acc_add(a, true, 8192, 100000);
	ww_qualify_acc_add(a, true, 8192, 50000000);
	ww_qualify_acc_stats(a, 1.0, &s);
	CHECK(near(s.mean_s, 149.9e-6, 1e-12));
	CHECK(near(s.max_s, 0.05, 1e-12));
	CHECK(near(s.p999_s, 100e-6, 0.01));
	/* population sd: sqrt(E[x^2] - mean^2) */
	CHECK(near(s.stddev_s, sqrt((999 * 1e-8 + 2.5e-3) / 1000 - 149.9e-6 * 149.9e-6), 1e-9));

	/* nothing: all zero, no division */
	ww_qualify_acc_reset(a);
	ww_qualify_acc_stats(a, 0, &s);
	CHECK(s.ios == 0 && s.iops == 0 && s.mean_s == 0 && s.p99_s == 0);

	/* memory does not depend on the number of I/Os: the struct is all */
	CHECK(sizeof(ww_qualify_acc_t) < 20000);
	free(a);
	free(b);
	free(c);
}

static void test_steady(void)
{
	ww_qualify_steady_t s;
	/* flat: range 0, slope 0 */
	double flat[] = { 900, 100, 1000, 1000, 1000, 1000, 1000 };
	/* y = 95,105,100,95,105 at x = 0..4: average 100, range 10 %; least
	 * squares by hand: sum (x-2)(y-100) = 10, sum (x-2)^2 = 10, slope 1,
	 * excursion over the window 4 = 4 % -> steady */
	double wobble[] = { 95, 105, 100, 95, 105 };
	/* range exactly 20 % of the average (y: 90,110,100,90,110 avg 100;
	 * slope 2 -> excursion 8 %): passes, the limit is "no more than" */
	double edge[] = { 90, 110, 100, 90, 110 };
	/* range 22 %: fails (a) */
	double wide[] = { 89, 111, 100, 89, 111 };
	/* a steady climb of 3 % a round: range 12 %, excursion 12 % -> fails (b) */
	double climb[] = { 94, 97, 100, 103, 106 };
	/* a write cliff: fast, then the drive settles lower; steady only once
	 * the last five rounds are past the cliff */
	double cliff[] = { 400, 390, 380, 200, 150, 101, 99, 100, 101, 99 };

	ww_qualify_steady_check(flat, 7, &s);
	CHECK(s.reached && s.first == 2 && s.last == 6);
	CHECK(s.average == 1000 && s.range == 0 && s.slope_excursion < 1e-9);
	ww_qualify_steady_check(flat, 4, &s);
	CHECK(!s.reached); /* fewer rounds than the window */
	ww_qualify_steady_check(flat, 5, &s);
	CHECK(!s.reached); /* window holds the 100 */
	ww_qualify_steady_check(wobble, 5, &s);
	CHECK(s.reached && near(s.range_ratio, 0.10, 1e-9) && near(s.slope_ratio, 0.04, 1e-9));
	ww_qualify_steady_check(edge, 5, &s);
	CHECK(s.reached && near(s.range_ratio, 0.20, 1e-9));
	ww_qualify_steady_check(wide, 5, &s);
	CHECK(!s.reached && near(s.range_ratio, 0.22, 1e-9));
	ww_qualify_steady_check(climb, 5, &s);
	CHECK(!s.reached && near(s.range_ratio, 0.12, 1e-9) && near(s.slope_ratio, 0.12, 1e-9));
	for (unsigned n = 5; n <= 9; n++) {
		ww_qualify_steady_check(cliff, n, &s);
		CHECK(!s.reached);
	}
	ww_qualify_steady_check(cliff, 10, &s);
	CHECK(s.reached && s.first == 5 && s.last == 9 && near(s.average, 100, 1e-12));
}

static void put(const char *root, const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mk(const char *root, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	mkdir(p, 0755);
}

/* The sysfs checks on a constructed tree (the signature and O_EXCL checks
 * need a real device: tests/qualify/guard_loop.sh) */
static void test_guard_sysfs(void)
{
	char root[] = "/tmp/ww_qualify_guardXXXXXX", why[1024], mi[600], sw[600];
	ww_qualify_guard_in_t in = { 0 };
	int fd = 0;

	if (!mkdtemp(root)) {
		CHECK(false);
		return;
	}
	mk(root, "/sys");
	mk(root, "/sys/block");
	mk(root, "/sys/class");
	mk(root, "/sys/class/block");
	mk(root, "/sys/block/fake0");
	put(root, "/sys/block/fake0/dev", "250:0\n");
	mk(root, "/sys/block/fake0/holders");
	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	snprintf(sw, sizeof(sw), "%s/swaps", root);
	put(root, "/mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n");
	put(root, "/swaps", "Filename\tType\tSize\tUsed\tPriority\n");

	in.sysroot = root;
	in.block = "fake0";
	in.dev_path = "/nonexistent/fake0";
	in.serial = "S1";
	in.id = "dev-fake0";
	in.mountinfo = mi;
	in.swaps = sw;

	/* no --destroy-data: the first refusal, naming the serial to type */
	CHECK(ww_qualify_guard_check(&in, &fd, why, sizeof(why)) == WW_GUARD_DESTROY_FLAG);
	CHECK(fd == -1 && strstr(why, "--destroy-data=S1"));
	in.destroy_data = "S1";

	/* a holder (an md array or a dm map on top) */
	mk(root, "/sys/block/fake0/holders/md0");
	CHECK(ww_qualify_guard_check(&in, &fd, why, sizeof(why)) == WW_GUARD_HOLDERS);
	CHECK(strstr(why, "md0") != NULL);
	snprintf(why, sizeof(why), "%s/sys/block/fake0/holders/md0", root);
	rmdir(why);

	/* mounted: mountinfo names its device number */
	put(root, "/mountinfo",
	    "22 1 0:21 / /proc rw - proc proc rw\n"
	    "40 1 250:0 / /srv/data rw - ext4 /dev/fake0 rw\n");
	CHECK(ww_qualify_guard_check(&in, &fd, why, sizeof(why)) == WW_GUARD_MOUNTED);
	CHECK(strstr(why, "/srv/data") != NULL);
	put(root, "/mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n");

	/* unreadable mountinfo: cannot tell, so refused */
	in.mountinfo = "/nonexistent/mountinfo";
	CHECK(ww_qualify_guard_check(&in, &fd, why, sizeof(why)) == WW_GUARD_MOUNTED);
	in.mountinfo = mi;

	/* a partition */
	mk(root, "/sys/block/fake0/fake0p1");
	put(root, "/sys/block/fake0/fake0p1/partition", "1\n");
	put(root, "/sys/block/fake0/fake0p1/dev", "250:1\n");
	CHECK(ww_qualify_guard_check(&in, &fd, why, sizeof(why)) == WW_GUARD_PARTITIONS);
	CHECK(strstr(why, "fake0p1") != NULL);

	/* past the sysfs checks the signature probe of a missing node refuses */
	snprintf(why, sizeof(why), "%s/sys/block/fake0/fake0p1/partition", root);
	unlink(why);
	CHECK(ww_qualify_guard_check(&in, &fd, why, sizeof(why)) == WW_GUARD_SIGNATURE);
	CHECK(fd == -1);

	CHECK_STR(ww_qualify_guard_name(WW_GUARD_HOLDERS), "holders");
	CHECK_STR(ww_qualify_guard_name(WW_GUARD_SERIAL), "serial");
	snprintf(why, sizeof(why), "rm -rf '%s'", root);
	CHECK(system(why) == 0);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	*len = f && buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/* --compare's parser on a real report (tests/fuzz/regress/qualify-report.json,
 * written by `qualify` on a loop device) and on what is not one */
static void test_compare(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char path[512], err[512];
	size_t len;
	char *text;
	struct json_object *o;
	ww_qualify_point_t pt = { .threads = 2, .depth = 2, .elapsed_s = 1 };
	ww_qualify_report_t now = { .points = &pt, .n_points = 1 };
	FILE *out = tmpfile();
	static const char *const bad[] = {
		"",
		"{",
		"[]",
		"{\"schema\":\"other/1\",\"points\":[]}",
		"{\"schema\":\"wearwatch-qualify/1\"}",
		"{\"schema\":\"wearwatch-qualify/1\",\"points\":{}}",
		"{\"schema\":\"wearwatch-qualify/1\",\"points\":[{\"threads\":2}]}",
		"{\"schema\":\"wearwatch-qualify/1\",\"points\":[]} x",
	};

	snprintf(path, sizeof(path), "%s/tests/fuzz/regress/qualify-report.json", src ? src : ".");
	text = slurp(path, &len);
	CHECK(len > 0);
	o = ww_qualify_compare_parse(text, len, err, sizeof(err));
	CHECK(o != NULL);
	ww_qualify_acc_add(&pt.rd, true, 8192, 100000);
	ww_qualify_acc_add(&pt.wr, true, 8192, 100000);
	/* that report has 1T2Q and 2T2Q, reads and writes: two rows for 2T2Q */
	CHECK(out && o && ww_qualify_compare_print(out, o, &now) == 2);
	json_object_put(o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		CHECK(ww_qualify_compare_parse(bad[i], strlen(bad[i]), err, sizeof(err)) == NULL);
		CHECK(err[0] != 0);
	}
	/* trailing newline after the object is fine */
	{
		const char *t = "{\"schema\":\"wearwatch-qualify/1\",\"points\":[]}\n";

		CHECK((o = ww_qualify_compare_parse(t, strlen(t), err, sizeof(err))) != NULL);
	}
	json_object_put(o);
	if (out)
		fclose(out);
	free(text);
}

/* the old report's figure points[i].kind.key, read here on its own */
static double file_num(struct json_object *o, size_t i, const char *kind, const char *key)
{
	struct json_object *pts, *k, *v;

	json_object_object_get_ex(o, "points", &pts);
	json_object_object_get_ex(json_object_array_get_idx(pts, i), kind, &k);
	return json_object_object_get_ex(k, key, &v) ? json_object_get_double(v) : NAN;
}

static struct json_object *at(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* --compare in the JSON report's "comparison" block and the HTML report:
 * the old run is the real loop-device report (its 2T2Q point is points[1]),
 * this run spec-constructed: 2T2Q with three 8 KiB reads of 100, 200 and
 * 300 us and one write of 400 us over 1 s (so 3 read IOPS, mean 200 us,
 * max 300 us; 1 write IOPS, 400 us), and 4T4Q, which the old run lacks */
static void test_compare_report(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char path[512], err[512];
	size_t len;
	char *text, *js, *html = NULL;
	struct json_object *old, *doc, *cmp, *rows, *row;
	ww_qualify_point_t pts[2] = { { .threads = 2, .depth = 2, .elapsed_s = 1 },
				      { .threads = 4, .depth = 4, .elapsed_s = 1 } };
	ww_qualify_report_t now = { .points = pts,
				    .n_points = 2,
				    .dev_path = "/dev/loop9",
				    .id = "dev-loop9",
				    .serial = "",
				    .model = "",
				    .compare_path = "old.json" };
	FILE *f;

	now.profile = ww_qualify_profile_find("8k-random-70-30");
	snprintf(path, sizeof(path), "%s/tests/fuzz/regress/qualify-report.json", src ? src : ".");
	text = slurp(path, &len);
	old = ww_qualify_compare_parse(text, len, err, sizeof(err));
	CHECK(old != NULL);
	if (!old || !now.profile) {
		free(text);
		return;
	}
	now.compare = old;
	ww_qualify_acc_add(&pts[0].rd, true, 8192, 100000);
	ww_qualify_acc_add(&pts[0].rd, true, 8192, 200000);
	ww_qualify_acc_add(&pts[0].rd, true, 8192, 300000);
	ww_qualify_acc_add(&pts[0].wr, true, 8192, 400000);
	ww_qualify_acc_add(&pts[1].rd, true, 8192, 100000);

	js = ww_qualify_report_json(&now);
	doc = js ? json_tokener_parse(js) : NULL;
	cmp = at(doc, "comparison");
	CHECK(cmp != NULL);
	CHECK_STR(json_object_get_string(at(at(cmp, "old"), "path")), "old.json");
	CHECK_STR(json_object_get_string(at(at(cmp, "old"), "started")), "2026-12-02T00:46:43Z");
	CHECK_STR(json_object_get_string(at(at(cmp, "old"), "profile")), "8k-random-70-30");
	CHECK_STR(json_object_get_string(at(at(cmp, "old"), "device_id")), "dev-loop0");
	CHECK_STR(json_object_get_string(at(doc, "compared_with")), "old.json");
	rows = at(cmp, "rows");
	CHECK(rows && json_object_array_length(rows) == 2);
	for (size_t i = 0; rows && i < json_object_array_length(rows) && i < 2; i++) {
		const char *kind = i ? "write" : "read";
		double want_now[WW_QCMP_N] = { i ? 1 : 3, i ? 400e-6 : 200e-6, 0,
					       i ? 400e-6 : 300e-6 };

		row = json_object_array_get_idx(rows, i);
		CHECK_STR(json_object_get_string(at(row, "load")), "2T2Q");
		CHECK_STR(json_object_get_string(at(row, "kind")), kind);
		for (unsigned k = 0; k < WW_QCMP_N; k++) {
			const char *key = ww_qualify_compare_key(k);
			double o = json_object_get_double(at(at(row, "old"), key));
			double n = json_object_get_double(at(at(row, "new"), key));
			double c = json_object_get_double(at(at(row, "change_percent"), key));

			/* old: the file's own number, to the last digit json-c prints */
			CHECK(near(o, file_num(old, 1, kind, key), 1e-15));
			if (k != WW_QCMP_P99) /* p99: the histogram's, within 1 % */
				CHECK(near(n, want_now[k], 1e-9));
			else
				CHECK(near(n, i ? 400e-6 : 300e-6, 0.01));
			CHECK(near(c, (n - o) / o * 100, 1e-9));
		}
	}
	CHECK(json_object_array_length(at(cmp, "unmatched")) == 1);
	CHECK_STR(json_object_get_string(json_object_array_get_idx(at(cmp, "unmatched"), 0)),
		  "4T4Q");

	/* the HTML report: both runs side by side, the old 2T2Q read IOPS as
	 * the text table prints it (whole), the new one (3), and the change */
	len = 0;
	f = open_memstream(&html, &len);
	CHECK(f && ww_qualify_report_html(f, &now) == 0);
	if (f)
		fclose(f);
	snprintf(path, sizeof(path),
		 "<tr><th>2T2Q</th><td class=l>read</td><td>%.0f</td><td>3</td>"
		 "<td>%+.1f %%</td>",
		 file_num(old, 1, "read", "iops"),
		 (3 - file_num(old, 1, "read", "iops")) / file_num(old, 1, "read", "iops") * 100);
	CHECK(html && strstr(html, "<h2>Compared with old.json</h2>") != NULL);
	CHECK(html && strstr(html, path) != NULL);
	CHECK(html && strstr(html, "<td class=l>2026-12-02T00:46:43Z</td>") != NULL);
	CHECK(html && strstr(html, "<p>Not in the old run: 4T4Q</p>") != NULL);

	/* without --compare the block is null and the page has no section */
	now.compare = NULL;
	free(js);
	json_object_put(doc);
	js = ww_qualify_report_json(&now);
	doc = js ? json_tokener_parse(js) : NULL;
	CHECK(doc && json_object_object_get_ex(doc, "comparison", &cmp) && cmp == NULL);
	json_object_put(doc);
	json_object_put(old);
	free(js);
	free(html);
	free(text);
}

int main(void)
{
	test_profiles();
	test_syntax();
	test_acc();
	test_steady();
	test_guard_sysfs();
	test_compare();
	test_compare_report();
	return ww_test_done("test_qualify");
}
