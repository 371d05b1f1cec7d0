/* gzip of response bodies (see http.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>

#include "wearwatch/http.h"


bool ww_http_accepts_gzip(const char *v)
{
	while (v && *v) {
		size_t n;
		const char *q, *end = strchr(v, ',');

		v += strspn(v, " \t");
		n = strcspn(v, " \t;,");
		q = strchr(v, ';');
		if ((n == 4 && !strncasecmp(v, "gzip", 4)) || (n == 6 && !strncasecmp(v, "x-gzip", 6))) {
			if (!q || (end && q > end))
				return true;
			q += 1 + strspn(q + 1, " \t");
			/* q=0, q=0.0, q=0.00, q=0.000: refused */
			return !(!strncasecmp(q, "q=0", 3) && strspn(q + 3, ".0") == strcspn(q + 3, " \t,"));
		}
		v = end ? end + 1 : NULL;
	}
	return false;
}

/* The last body of each path the render cache serves (the caller says
 * which: `keep`, from ww_route_cached) and its compressed form. Only those: slots taken by the
 * first paths asked for (a drive, a history query) left /metrics to be
 * compressed again at every scrape. Other bodies are compressed each time. */
#define SLOTS 8
static struct slot {
	char path[64];
	char *plain, *gz;
	size_t len, gzlen;
} slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t compressions;

uint64_t ww_http_gzip_compressions(void)
{
	return __atomic_load_n(&compressions, __ATOMIC_RELAXED);
}

static int compress_gzip(const char *body, size_t len, char **out, size_t *outlen)
{
	z_stream z;
	size_t cap;
	char *buf;
	int rc;

	__atomic_add_fetch(&compressions, 1, __ATOMIC_RELAXED);
	memset(&z, 0, sizeof(z));
	/* 15 + 16: the gzip wrapper; level 1: a 1 MB /metrics in a few ms, and
	 * it is done once per body */
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	cap = deflateBound(&z, len) + 64;
	buf = malloc(cap);
	if (!buf) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)body;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)buf;
	z.avail_out = (uInt)cap;
	rc = deflate(&z, Z_FINISH);
	*outlen = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	return 0;
}

static struct slot *slot_for(const char *path)
{
	struct slot *free_slot = NULL;

	if (strlen(path) >= sizeof(slots[0].path))
		return NULL;
	for (size_t i = 0; i < SLOTS; i++) {
		if (!strcmp(slots[i].path, path))
			return &slots[i];
		if (!slots[i].path[0] && !free_slot)
			free_slot = &slots[i];
	}
	return free_slot;
}

int ww_http_gzip(const char *path, const char *body, size_t len, bool keep, char **out,
		 size_t *outlen)
{
	struct slot *s;
	int rc = 0;

	if (len > UINT32_MAX)
		return -EIO;
	pthread_mutex_lock(&lock);
	s = keep ? slot_for(path) : NULL;
	if (!s) {
		pthread_mutex_unlock(&lock);
		return compress_gzip(body, len, out, outlen);
	}
	if (!s->plain || s->len != len || memcmp(s->plain, body, len)) {
		char *plain = malloc(len ? len : 1), *gz = NULL;
		size_t gzlen = 0;

		rc = plain ? compress_gzip(body, len, &gz, &gzlen) : -ENOMEM;
		if (rc) {
			free(plain);
			goto out;
		}
		memcpy(plain, body, len);
		free(s->plain);
		free(s->gz);
		snprintf(s->path, sizeof(s->path), "%s", path);
		s->plain = plain;
		s->len = len;
		s->gz = gz;
		s->gzlen = gzlen;
	}
	*out = malloc(s->gzlen);
	if (*out) {
		memcpy(*out, s->gz, s->gzlen);
		*outlen = s->gzlen;
	}
	rc = *out ? 0 : -ENOMEM;
out:
	pthread_mutex_unlock(&lock);
	return rc;
}
