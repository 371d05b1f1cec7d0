/* Minimal test harness: CHECK macros that count, a fixture loader that skips
 * (exit 77, ctest's SKIP_RETURN_CODE) with a clear message when
 * ../shared/fixtures is absent, and a closing "N passed, N failed" line. */
#ifndef WW_TEST_H
#define WW_TEST_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ww_t_pass, ww_t_fail;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (cond) {                                                    \
			ww_t_pass++;                                           \
		} else {                                                       \
			ww_t_fail++;                                           \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_EQ_U64(got, want)                                                \
	do {                                                                   \
		unsigned long long g_ = (unsigned long long)(got),             \
				   w_ = (unsigned long long)(want);            \
		if (g_ == w_) {                                                \
			ww_t_pass++;                                           \
		} else {                                                       \
			ww_t_fail++;                                           \
			fprintf(stderr, "%s:%d: %s = %llu, want %llu\n",       \
				__FILE__, __LINE__, #got, g_, w_);             \
		}                                                              \
	} while (0)

#define CHECK_EQ_I64(got, want)                                                \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (g_ == w_) {                                                \
			ww_t_pass++;                                           \
		} else {                                                       \
			ww_t_fail++;                                           \
			fprintf(stderr, "%s:%d: %s = %lld, want %lld\n",       \
				__FILE__, __LINE__, #got, g_, w_);             \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (g_ && w_ && strcmp(g_, w_) == 0) {                         \
			ww_t_pass++;                                           \
		} else {                                                       \
			ww_t_fail++;                                           \
			fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n",   \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",  \
				w_ ? w_ : "(null)");                           \
		}                                                              \
	} while (0)

/** Print the closing line and return the process exit code. */
static inline int ww_test_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, ww_t_pass, ww_t_fail);
	return ww_t_fail ? 1 : 0;
}

/** Directory of the real-drive fixtures, or exit 77 (skip) with a message. */
static inline const char *ww_fixtures_dir(void)
{
	const char *d = getenv("WW_FIXTURES");
	FILE *f;
	char p[4096];

	if (!d)
		d = "../shared/fixtures";
	snprintf(p, sizeof(p), "%s/SOURCES.md", d);
	f = fopen(p, "r");
	if (!f) {
		printf("SKIP: real-drive fixtures not found at %s (set WW_FIXTURES)\n", d);
		exit(77);
	}
	fclose(f);
	return d;
}

/** Read a whole file (fixture-relative when rel is not absolute). Caller frees.
 * Returns NULL and sets *len = 0 on failure. */
static inline unsigned char *ww_read_file(const char *dir, const char *rel, size_t *len)
{
	char p[8192]; /* dir + "/" + rel, each up to PATH_MAX */
	FILE *f;
	unsigned char *buf = NULL;
	long n;

	*len = 0;
	if (rel[0] == '/' || !dir)
		snprintf(p, sizeof(p), "%s", rel);
	else
		snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", p, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = 0;
			*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/** Parse hex text ("0a 1b ..." or "0a1b..."; other characters ignored) into
 * out (max bytes). Returns the number of bytes. */
static inline size_t ww_hex_to_bytes(const char *hex, unsigned char *out, size_t max)
{
	size_t n = 0;
	int hi = -1;
	for (; *hex && n < max; hex++) {
		int v;
		char c = *hex;
		if (c >= '0' && c <= '9') v = c - '0';
		else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
		else { hi = -1; continue; }
		if (hi < 0) hi = v;
		else { out[n++] = (unsigned char)(hi << 4 | v); hi = -1; }
	}
	return n;
}

/** Load a .hex fixture (path as given): '#' starts a comment to the end of
 * the line (as `sg_logs --inhex` reads it), the rest is hex bytes. Returns
 * the byte count, 0 on failure. */
static inline size_t ww_load_hex(const char *path, unsigned char *out, size_t max)
{
	size_t len, n;
	unsigned char *txt = ww_read_file(NULL, path, &len);

	if (!txt)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (txt[i] == '#')
			while (i < len && txt[i] != '\n')
				txt[i++] = ' ';
	n = ww_hex_to_bytes((const char *)txt, out, max);
	free(txt);
	return n;
}

/** How often needle occurs in hay (log lines read back by a test). */
static inline int ww_count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

#endif
