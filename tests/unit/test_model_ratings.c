/* Ratings table, --rating and [drive] rating values (src/model/ratings.c) on
 * hostile input: each was accepted silently before and is refused now with
 * a reason (and the table file with its line). The inputs are the minimal
 * ones found; the file cases are kept as fuzz seeds in tests/fuzz/regress/. */
#include <unistd.h>

#include "wearwatch/model.h"
#include "ww_test.h"

static int override(const char *spec, char *err, size_t len)
{
	ww_ratings_t t = { 0 };
	int rc = ww_rating_override_parse(&t, spec, err, len);

	ww_ratings_free(&t);
	return rc;
}

static int file_rows(const char *path, const void *bytes, size_t n, char *err, size_t len)
{
	ww_ratings_t t = { 0 };
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -errno;
	fwrite(bytes, 1, n, f);
	fclose(f);
	rc = ww_ratings_load_file(&t, path, err, len);
	ww_ratings_free(&t);
	return rc;
}

int main(void)
{
	char err[512], dir[] = "/tmp/ww-ratings-XXXXXX", path[128];
	static const char nul_file[] = "^A\tsata\t\t1\t\t5\tok\n^B\t\0sata\t\t1\t\t5\tcut\n^C\tsata\t\t1\t\t5\tlost\n";
	ww_ratings_t t = { 0 };
	time_t when;

	/* numbers strtod() took: 1e308, a hex float, a denormal, inf */
	CHECK_EQ_I64(override("M=1e308:5", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "DWPD a decimal 0.01-1000") != NULL);
	CHECK_EQ_I64(override("M=0x1p-1000:5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=inf:5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=1001:5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=0.001:5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=1e308PB:5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=0x1p-1000PB:5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=0.4B:5", err, sizeof(err)), -EINVAL);     /* no whole byte */
	CHECK_EQ_I64(override("M=20000000PB:5", err, sizeof(err)), -EINVAL); /* 2^64 and more */
	CHECK_EQ_I64(override("M=1:+5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=1:5: 400000000000", err, sizeof(err)), -EINVAL);
	/* what they are for still works */
	CHECK_EQ_I64(override("M=0.3:5", err, sizeof(err)), 0);
	CHECK_EQ_I64(override("M=21.9PB:5", err, sizeof(err)), 0);
	CHECK_EQ_I64(override("M=1000:5:400000000000", err, sizeof(err)), 0);

	/* dates: 2021-02-30 was stored as 2021-03-02 (strptime + timegm) */
	CHECK_EQ_I64(override("M=1:5@2021-02-30", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bad warranty start '2021-02-30'") != NULL);
	CHECK_EQ_I64(override("M=1:5@2021-02-29", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=1:5@2021-2-3", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=1:5@2021-04-31", err, sizeof(err)), -EINVAL);
	CHECK_EQ_I64(override("M=1:5@2024-02-29", err, sizeof(err)), 0);
	CHECK_EQ_I64(ww_date_parse("2024-02-29", &when), 0);
	CHECK_EQ_I64(when, 1709164800); /* date -u -d 2024-02-29 +%s */
	CHECK_EQ_I64(ww_date_parse("1900-02-29", &when), -EINVAL);
	CHECK_EQ_I64(ww_date_parse("2000-02-29", &when), 0);

	/* a pattern over the limits (1.1 GB in glibc's regcomp) is refused; a
	 * pattern that is no regex still names an id or serial */
	CHECK_EQ_I64(override("(((a{1,100}){1,100}){1,100})=1:5", err, sizeof(err)), -E2BIG);
	CHECK(strstr(err, "pattern over the limits") != NULL);
	CHECK_EQ_I64(ww_rating_override_parse(&t, "SERIAL[1=1:5", err, sizeof(err)), 0);
	CHECK(t.n == 1 && t.rows[0].re == NULL);
	CHECK(ww_ratings_match_override(&t, NULL, "SERIAL[1", "any") == &t.rows[0]);
	ww_ratings_free(&t);
	CHECK_EQ_I64(ww_rating_override_parse(&t, "Samsung SSD 8[67]0=1:5", err, sizeof(err)), 0);
	CHECK(ww_ratings_match_override(&t, "id", "s", "Samsung SSD 860 EVO 1TB") == &t.rows[0]);
	ww_ratings_free(&t);

	/* the table: a row over the limits fails with its line */
	unsigned bad = 0;

	CHECK_EQ_I64(ww_ratings_parse(&t, "# c\n(((a{1,100}){1,100}){1,100})\tsata\t\t1\t\t5\tx\n",
				      "t", &bad), -E2BIG);
	CHECK_EQ_I64(bad, 2);
	CHECK_EQ_I64(ww_ratings_parse(&t, "^A\tsata\t\t1e308\t\t5\tx\n", "t", &bad), -EINVAL);
	CHECK_EQ_I64(bad, 1);
	ww_ratings_free(&t);

	/* files: a NUL byte ended the text silently (the rows after it were
	 * ignored); now its line is the error. A directory is no file. */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/r.tsv", dir);
	CHECK_EQ_I64(file_rows(path, nul_file, sizeof(nul_file) - 1, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "r.tsv:2: NUL byte in the line") != NULL);
	CHECK_EQ_I64(file_rows(path, nul_file, 17, err, sizeof(err)), 1);
	CHECK_EQ_I64(ww_ratings_load_file(&t, dir, err, sizeof(err)), -EISDIR);
	CHECK(strstr(err, "Is a directory") != NULL);
	unlink(path);
	rmdir(dir);
	return ww_test_done("test_model_ratings");
}
