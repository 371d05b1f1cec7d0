/* The reviews' workload profiles, and the load point syntax (qualify.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/qualify.h"

#define SEED "seed-facts.md, \"How the reviews measure\" (the Toshiba drive reviews)"
#define FILESRV                                                                                    \
	"The SSD Review, Toshiba HK4R review p. 7 (thessdreview.com/featured/"                     \
	"toshiba-hk4r-enterprise-ssd-review-1920gb/7): 80 % read, sizes as listed; "               \
	"100 % random: Tweakers.net, SATA RAID 5 adapters comparison p. 20 "                       \
	"(tweakers.net/reviews/557/20)"

/* One row per profile. The server profiles are those whose mix a source
 * gives in full: web server (sizes up to 512 KiB, shares not published) and
 * e-mail (random or sequential not said) are left out. */
/* not formatted: one profile a row, read as a table */
/* clang-format off */
const ww_qualify_profile_t ww_qualify_profiles[] = {
	{ "4k-random-read",    { { 4096, 100 } },   1, 100, true,  SEED },
	{ "4k-random-write",   { { 4096, 100 } },   1, 0,   true,  SEED },
	{ "8k-random-70-30",   { { 8192, 100 } },   1, 70,  true,  SEED },
	{ "8k-random-read",    { { 8192, 100 } },   1, 100, true,  SEED },
	{ "8k-random-write",   { { 8192, 100 } },   1, 0,   true,  SEED },
	{ "128k-seq-read",     { { 131072, 100 } }, 1, 100, false, SEED },
	{ "128k-seq-write",    { { 131072, 100 } }, 1, 0,   false, SEED },
	{ "oltp",              { { 8192, 100 } },   1, 66,  true,  SEED " (server profiles: OLTP)" },
	{ "workstation",       { { 8192, 100 } },   1, 80,  true,  SEED " (server profiles: workstation)" },
	{ "file-server",       { { 512, 10 }, { 1024, 5 }, { 2048, 5 }, { 4096, 60 }, { 8192, 2 },
				 { 16384, 4 }, { 32768, 4 }, { 65536, 10 } }, 8, 80, true, FILESRV },
};
/* clang-format on */
const size_t ww_qualify_n_profiles = sizeof(ww_qualify_profiles) / sizeof(ww_qualify_profiles[0]);

const ww_qualify_profile_t *ww_qualify_profile_find(const char *name)
{
	for (size_t i = 0; i < ww_qualify_n_profiles; i++)
		if (!strcmp(ww_qualify_profiles[i].name, name))
			return &ww_qualify_profiles[i];
	return NULL;
}

bool ww_qualify_profile_writes(const ww_qualify_profile_t *p)
{
	return p->read_percent < 100;
}

static const char *size_label(uint32_t b, char *buf, size_t len)
{
	if (b >= 1048576 && b % 1048576 == 0)
		snprintf(buf, len, "%uM", b / 1048576);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%uk", b / 1024);
	else
		snprintf(buf, len, "%u", b);
	return buf;
}

const char *ww_qualify_sizes_label(const ww_qualify_profile_t *p, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < p->n_sizes && o < len; i++) {
		char s[16];

		size_label(p->sizes[i].bytes, s, sizeof(s));
		if (p->n_sizes == 1)
			o += (size_t)snprintf(buf + o, len - o, "%s", s);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%s:%u%%", i ? "," : "", s,
					      p->sizes[i].percent);
	}
	return buf;
}

/* "4k", "8K", "131072", "1m": bytes, a multiple of 512, at most 16 MiB */
static int parse_bytes(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == 'k' || *end == 'K')
		v *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1048576, end++;
	if (*end || !v || v % 512 || v > 16u * 1048576)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

int ww_qualify_profile_parse(const char *spec, ww_qualify_profile_t *out, char *err, size_t errlen)
{
	char buf[64], *f[3], *save = NULL;
	unsigned n = 0;
	char *end;
	unsigned long rd;

	if (strlen(spec) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == 3)
			goto bad;
		f[n++] = t;
	}
	if (n != 3)
		goto bad;
	memset(out, 0, sizeof(*out));
	out->name = "custom";
	out->source = "the command line";
	out->n_sizes = 1;
	out->sizes[0].percent = 100;
	if (parse_bytes(f[0], &out->sizes[0].bytes)) {
		snprintf(err, errlen, "block size '%s': a multiple of 512 up to 16M (4k, 128k)",
			 f[0]);
		return -EINVAL;
	}
	errno = 0;
	rd = strtoul(f[1], &end, 10);
	if (!isdigit((unsigned char)*f[1]) || *end || errno || rd > 100) {
		snprintf(err, errlen, "read share '%s': a whole percentage 0..100", f[1]);
		return -EINVAL;
	}
	out->read_percent = (unsigned)rd;
	if (!strcmp(f[2], "random")) {
		out->random = true;
	} else if (strcmp(f[2], "sequential")) {
		snprintf(err, errlen, "'%s': random or sequential", f[2]);
		return -EINVAL;
	}
	if (!out->random && out->read_percent != 0 && out->read_percent != 100) {
		snprintf(err, errlen, "a sequential profile reads 100 %% or 0 %%");
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "'%s': expected BS,READ%%,random|sequential (16k,90,random)", spec);
	return -EINVAL;
}

int ww_qualify_parse_load(const char *s, unsigned *threads, unsigned *depth)
{
	char *end;
	unsigned long t, q;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	t = strtoul(s, &end, 10);
	if (*end == 'T' || *end == 't' || *end == 'x' || *end == 'X')
		end++;
	else
		return -EINVAL;
	if (!isdigit((unsigned char)*end))
		return -EINVAL;
	q = strtoul(end, &end, 10);
	if (*end == 'Q' || *end == 'q')
		end++;
	if (*end || !t || !q || t > 256 || q > 256)
		return -EINVAL;
	*threads = (unsigned)t;
	*depth = (unsigned)q;
	return 0;
}
