/* Bounded patterns (contract in record.h): PCRE2, Debian's libpcre2-8, with
 * limits on the pattern's length, nesting and compile memory, and on the
 * steps, depth and heap of every match. POSIX regcomp() has none: a 43-byte
 * counted repetition took 778 MB to compile, and a ratings row 16 GB. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "wearwatch/record.h"

struct ww_pattern {
	pcre2_code *code;
	pcre2_match_context *mctx;
	pcre2_general_context *gctx;
	size_t used;                  /* bytes the compile allocated (gctx) */
};

/* Compile memory is counted through PCRE2's general context: each block
 * carries its size in front of it. */
struct block {
	size_t size;
	max_align_t align[];
};

static void *counted_malloc(size_t n, void *data)
{
	struct ww_pattern *p = data;
	struct block *b;

	if (n > WW_PATTERN_COMPILE_BYTES - p->used)
		return NULL;
	b = malloc(sizeof(*b) + n);
	if (!b)
		return NULL;
	b->size = n;
	p->used += n;
	/* cppcheck-suppress memleak ; counted_free frees b from this pointer */
	return b->align;
}

static void counted_free(void *ptr, void *data)
{
	struct ww_pattern *p = data;
	struct block *b;

	if (!ptr)
		return;
	b = (struct block *)((char *)ptr - offsetof(struct block, align));
	p->used -= b->size;
	free(b);
}

void ww_pattern_free(ww_pattern_t *p)
{
	if (!p)
		return;
	pcre2_code_free(p->code);
	pcre2_match_context_free(p->mctx);
	pcre2_general_context_free(p->gctx);
	free(p);
}

/* compile errors that are a limit, not a syntax error */
static bool over_limit(int code)
{
	return code == PCRE2_ERROR_PATTERN_TOO_LARGE || code == PCRE2_ERROR_PATTERN_STRING_TOO_LONG ||
	       code == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP || code == PCRE2_ERROR_HEAP_FAILED ||
	       code == PCRE2_ERROR_NOMEMORY || code == PCRE2_ERROR_TOO_MANY_CAPTURES;
}

static int compile_with(ww_pattern_t *p, const char *re, unsigned flags, char *err,
			size_t errlen)
{
	pcre2_compile_context *cctx = pcre2_compile_context_create(p->gctx);
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE off = 0;
	int code = 0;

	if (!cctx)
		return -ENOMEM;
	pcre2_set_max_pattern_length(cctx, WW_PATTERN_MAX_LEN);
	pcre2_set_parens_nest_limit(cctx, WW_PATTERN_MAX_NEST);
	p->code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				PCRE2_NO_AUTO_CAPTURE | PCRE2_DOLLAR_ENDONLY |
				((flags & WW_PATTERN_WHOLE) ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0),
				&code, &off, cctx);
	pcre2_compile_context_free(cctx);
	if (p->code)
		return 0;
	pcre2_get_error_message(code, msg, sizeof(msg));
	if (over_limit(code)) {
		snprintf(err, errlen,
			 "pattern over the limits (%d bytes, %d nested groups, "
			 "%u KiB to compile): %s",
			 WW_PATTERN_MAX_LEN, WW_PATTERN_MAX_NEST, WW_PATTERN_COMPILE_BYTES / 1024,
			 (const char *)msg);
		return -E2BIG;
	}
	snprintf(err, errlen, "bad pattern at offset %zu: %s", (size_t)off, (const char *)msg);
	return -EINVAL;
}

int ww_pattern_compile(const char *re, unsigned flags, ww_pattern_t **out, char *err,
		       size_t errlen)
{
	ww_pattern_t *p;
	char dummy[8];
	int rc;

	*out = NULL;
	if (!err) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	if (!re)
		return -EINVAL;
	if (strlen(re) > WW_PATTERN_MAX_LEN) {
		snprintf(err, errlen, "pattern over the limits (longer than %d bytes)",
			 WW_PATTERN_MAX_LEN);
		return -E2BIG;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->gctx = pcre2_general_context_create(counted_malloc, counted_free, p);
	p->mctx = pcre2_match_context_create(NULL);
	if (!p->gctx || !p->mctx) {
		ww_pattern_free(p);
		return -ENOMEM;
	}
	pcre2_set_match_limit(p->mctx, WW_PATTERN_MATCH_STEPS);
	pcre2_set_depth_limit(p->mctx, WW_PATTERN_MATCH_DEPTH);
	pcre2_set_heap_limit(p->mctx, WW_PATTERN_MATCH_HEAP_KIB);
	rc = compile_with(p, re, flags, err, errlen);
	if (rc) {
		ww_pattern_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int ww_pattern_match(const ww_pattern_t *p, const char *s)
{
	pcre2_match_data *md;
	int rc;

	if (!p || !s)
		return 0;
	/* one ovector pair: no captures are kept (PCRE2_NO_AUTO_CAPTURE);
	 * the match's own heap frames come from the default allocator, under
	 * the heap limit of the match context */
	md = pcre2_match_data_create(1, NULL);
	if (!md)
		return -ENOMEM;
	rc = pcre2_match(p->code, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, md, p->mctx);
	pcre2_match_data_free(md);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	return rc == PCRE2_ERROR_NOMEMORY ? -ENOMEM : -E2BIG;
}
