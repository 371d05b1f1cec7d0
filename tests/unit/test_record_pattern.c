/* Bounded patterns (src/record/pattern.c): patterns that made glibc's
 * regcomp() take hundreds of MB or crash are refused at compile time with a
 * reason, a catastrophic backtracking match stops at its step limit, and the
 * drivedb.h/ratings shapes still match as POSIX extended expressions did.
 * The pattern inputs are also fuzz seeds (tests/fuzz/regress/). */
#include "wearwatch/record.h"
#include "ww_test.h"

static int compile(const char *re, unsigned flags, char *err, size_t len)
{
	ww_pattern_t *p = NULL;
	int rc = ww_pattern_compile(re, flags, &p, err, len);

	ww_pattern_free(p);
	return rc;
}

static int match(const char *re, unsigned flags, const char *s)
{
	ww_pattern_t *p = NULL;
	int rc = ww_pattern_compile(re, flags, &p, NULL, 0);

	if (rc)
		return rc;
	rc = ww_pattern_match(p, s);
	ww_pattern_free(p);
	return rc;
}

int main(void)
{
	char err[256], big[WW_PATTERN_MAX_LEN + 8], nest[2 * WW_PATTERN_MAX_NEST + 4];
	ww_pattern_t *p = NULL;
	int rc;

	/* nested counted repetition, 29 bytes: glibc's regcomp() expands it
	 * into an automaton that took 1.1 GB here (one level more: 2 GB and
	 * REG_ESPACE under a 2 GB address-space limit); refused by the
	 * compile memory limit, which is what bounds its cost */
	CHECK_EQ_I64(compile("(((a{1,100}){1,100}){1,100})", 0, err, sizeof(err)), -E2BIG);
	CHECK(strstr(err, "pattern over the limits") != NULL);
	CHECK_EQ_I64(compile("(((a{1,100}){1,100}){1,100}){1,100}", 0, err, sizeof(err)), -E2BIG);
	/* nesting and length */
	memset(nest, 0, sizeof(nest));
	memset(nest, '(', WW_PATTERN_MAX_NEST + 1);
	memset(nest + WW_PATTERN_MAX_NEST + 1, ')', WW_PATTERN_MAX_NEST + 1);
	CHECK_EQ_I64(compile(nest, 0, err, sizeof(err)), -E2BIG);
	memset(nest, '(', WW_PATTERN_MAX_NEST);
	memset(nest + WW_PATTERN_MAX_NEST, ')', WW_PATTERN_MAX_NEST);
	nest[2 * WW_PATTERN_MAX_NEST] = '\0';
	CHECK_EQ_I64(compile(nest, 0, err, sizeof(err)), 0);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ_I64(compile(big, 0, err, sizeof(err)), -E2BIG);
	CHECK(strstr(err, "longer than 4096 bytes") != NULL);
	/* syntax errors are -EINVAL with where */
	CHECK_EQ_I64(compile("([", 0, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bad pattern at offset 2") != NULL);

	/* catastrophic backtracking: stopped at a match limit (-E2BIG), not
	 * run to its end */
	rc = ww_pattern_compile("(a|aa)+$", 0, &p, err, sizeof(err));
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(
		ww_pattern_match(p, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"),
		-E2BIG);
	CHECK_EQ_I64(ww_pattern_match(p, "xaa"), 1);
	ww_pattern_free(p);

	/* what drivedb.h (smartmontools 7.3, "Samsung based SSDs") and the
	 * ratings table write, with the POSIX meaning: whole match, brackets,
	 * classes, alternation */
	CHECK_EQ_I64(match("SAMSUNG SSD PM8[05]0 .*|Samsung SSD 8[4-7]0 (EVO|PRO) [0-9]+[GT]B",
			   WW_PATTERN_WHOLE, "Samsung SSD 860 EVO 500GB"), 1);
	CHECK_EQ_I64(match("SAMSUNG SSD PM8[05]0 .*|Samsung SSD 8[4-7]0 (EVO|PRO) [0-9]+[GT]B",
			   WW_PATTERN_WHOLE, "Samsung SSD 860 EVO 500GB X"), 0);
	CHECK_EQ_I64(match("[[:digit:]]{2}\\.[0-9]", WW_PATTERN_WHOLE, "10.5"), 1);
	CHECK_EQ_I64(match("^INTEL SSDPE2KX", 0, "INTEL SSDPE2KX040T8"), 1);
	CHECK_EQ_I64(match("KXG50ZNV", 0, "KXG50ZNV512G NVMe TOSHIBA 512GB"), 1);
	CHECK_EQ_I64(match("KXG50ZNV", WW_PATTERN_WHOLE, "KXG50ZNV512G"), 0);
	return ww_test_done("test_record_pattern");
}
