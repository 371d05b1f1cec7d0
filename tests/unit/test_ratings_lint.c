/* The ratings lint on the shipped table and on wrong rows, and the tables an
 * administrator drops into ratings.d winning over the shipped rows
 * (src/model/ratings.c, ww_service_ratings_build). Prints what it catches. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/model.h"
#include "wearwatch/service.h"
#include "ww_test.h"

struct seen {
	int n;
	char last[600];
};

static void keep(void *arg, const char *origin, unsigned line, const char *what)
{
	struct seen *s = arg;

	s->n++;
	snprintf(s->last, sizeof(s->last), "%s:%u: %s", origin, line, what);
	printf("  lint: %s\n", s->last);
}

static int lint1(const char *text, struct seen *s)
{
	const char *origin = "t.tsv";

	memset(s, 0, sizeof(*s));
	return ww_ratings_lint(&text, &origin, 1, keep, s);
}

static void test_shipped_clean(void)
{
	struct seen s = { 0 };
	const char *origin = "built-in";
	ww_ratings_t t = { 0 };
	unsigned bad = 0;

	CHECK_EQ_I64(ww_ratings_lint((const char *const[]){ ww_builtin_ratings_tsv }, &origin, 1,
				     keep, &s),
		     0);
	CHECK(ww_ratings_parse(&t, ww_builtin_ratings_tsv, "built-in", &bad) >= 20);
	/* rows keep their own file and line once compiled in as one text */
	CHECK(t.n && !strncmp(t.rows[0].origin, "built-in:", 9) && t.rows[0].lineno > 1);
	printf("shipped table: %zu rows, lint clean\n", t.n);
	ww_ratings_free(&t);
}

static void test_wrong_rows(void)
{
	struct seen s;

	/* the P4500 2.0TB pair as Lenovo prints it: 0.5 DWPD is not 1.89 PB */
	CHECK_EQ_I64(lint1("# c\n^INTEL SSDPE2KX020T7\tnvme\t2000000000000\t0.5\t1890000000000000"
			   "\t5\tguide\tnot_stated\n",
			   &s),
		     1);
	CHECK(strstr(s.last, "t.tsv:2: DWPD 0.5 x 2000000000000 B") != NULL);
	CHECK(strstr(s.last, "3.4 % apart") != NULL);
	/* within 1 %: the 1.0TB pair */
	CHECK_EQ_I64(
		lint1("^A\tnvme\t1000000000000\t0.75\t1380000000000000\t5\tg\tnot_stated\n", &s),
		0);
	CHECK_EQ_I64(lint1("^A\tsata\t\t1\t\t5\t\tnot_stated\n", &s), 1);
	CHECK(strstr(s.last, "no source") != NULL);
	CHECK_EQ_I64(lint1("^A\tsata\t\t1\t\t5\tsrc\n", &s), 1);
	CHECK(strstr(s.last, "no basis") != NULL);
	CHECK_EQ_I64(lint1("^A\tusb\t\t1\t\t5\tsrc\tjesd219\n", &s), 1);
	CHECK_EQ_I64(lint1("^A\tsata\t\t1\t\t\tsrc\tjesd219\n", &s), 1);
	CHECK(strstr(s.last, "DWPD without warranty years") != NULL);
	CHECK_EQ_I64(lint1("^A\tsata\t\t1\t\t5\tsrc\tmaybe\n", &s), 1);
	CHECK(strstr(s.last, "unknown basis") != NULL);
	CHECK_EQ_I64(lint1("^A\tsata\t\t1TB\t\t5\tsrc\tjesd219\n", &s), 1);
	CHECK(strstr(s.last, "t.tsv:1: not a row") != NULL);
	/* same pattern twice; a broader row shadowing a narrower one */
	CHECK_EQ_I64(
		lint1("^A1\tsata\t\t1\t\t5\ts\tjesd219\n^A1\tsata\t\t3\t\t5\ts\tjesd219\n", &s), 1);
	CHECK(strstr(s.last, "t.tsv:2: duplicate of t.tsv:1") != NULL);
	CHECK_EQ_I64(
		lint1("^PX04S\tsas\t\t1\t\t5\ts\tjesd219\n^PX04S[HM]B\tsas\t\t10\t\t5\ts\tjesd219\n",
		      &s),
		1);
	CHECK(strstr(s.last, "'PX04SHB' (this row's model) matches t.tsv:1 first") != NULL);
	/* one set: a user file's row against a second file's; a "#@ NAME"
	 * origin marker is the shipped table's only, a comment in a user's
	 * file (a row there cannot pose as another file's) */
	{
		const char *texts[] = { "^B\tnvme\t\t1\t\t5\ts\tjesd219\n",
					"#@ other.tsv\n^B\tnvme\t\t1\t\t5\ts\tjesd219\n" };
		const char *origins[] = { "a.tsv", "b.tsv" };

		memset(&s, 0, sizeof(s));
		CHECK_EQ_I64(ww_ratings_lint(texts, origins, 2, keep, &s), 1);
		CHECK(strstr(s.last, "b.tsv:2: duplicate of a.tsv:1") != NULL);
	}
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_ratings_d(void)
{
	char dir[] = "/tmp/ww-ratings-d-XXXXXX", a[160], b[160], c[160], err[1024];
	ww_conf_endurance_opts_t o = { 0 };
	ww_ratings_t t;
	const ww_rating_row_t *r;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(a, sizeof(a), "%s/10-site.tsv", dir);
	snprintf(b, sizeof(b), "%s/50-vendor.tsv", dir);
	snprintf(c, sizeof(c), "%s/notes.txt", dir);
	put(b,
	    "^INTEL SSDPE2KX020T7\tnvme\t2000000000000\t\t1000000000000000\t5\tlater\tnot_stated\n");
	put(a,
	    "# our own figure\n^INTEL SSDPE2KX020T7\tnvme\t2000000000000\t\t3000000000000000\t5"
	    "\tsite contract 2024\tnot_stated\n");
	put(c, "not a table\n");
	/* shipped row without the directory */
	o.ratings_dir = "/nonexistent/ratings.d";
	CHECK(ww_service_ratings_build(&o, &t, err, sizeof(err)) > 0);
	r = ww_ratings_match(&t, "INTEL SSDPE2KX020T7", "nvme");
	CHECK(r && r->rated_bytes == 1890000000000000ULL &&
	      !strcmp(r->origin, "built-in:intel-solidigm.tsv"));
	ww_ratings_free(&t);
	/* ratings.d: its rows first, its files in name order, other names ignored */
	o.ratings_dir = dir;
	CHECK(ww_service_ratings_build(&o, &t, err, sizeof(err)) > 0);
	r = ww_ratings_match(&t, "INTEL SSDPE2KX020T7", "nvme");
	CHECK(r && r->rated_bytes == 3000000000000000ULL && !strcmp(r->origin, a) &&
	      r->lineno == 2);
	if (r)
		printf("ratings.d: %s:%u wins (%s)\n", r->origin, r->lineno, r->source);
	ww_ratings_free(&t);
	/* a bad file in the directory stops the build with its line */
	put(b, "^X\tnvme\t\tmany\t\t5\ts\tjesd219\n");
	CHECK(ww_service_ratings_build(&o, &t, err, sizeof(err)) < 0 && t.n == 0);
	CHECK(strstr(err, "50-vendor.tsv:1:") != NULL);
	unlink(a);
	unlink(b);
	unlink(c);
	rmdir(dir);
}

int main(void)
{
	test_shipped_clean();
	test_wrong_rows();
	test_ratings_d();
	return ww_test_done("test_ratings_lint");
}
