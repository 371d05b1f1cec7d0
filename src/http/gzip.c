/* gzip of response bodies, and the shared bodies that keep their
 * compressed form (see http.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

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

static uint64_t compressions;

uint64_t ww_http_gzip_compressions(void)
{
	return __atomic_load_n(&compressions, __ATOMIC_RELAXED);
}

int ww_http_gzip(const char *body, size_t len, char **out, size_t *outlen)
{
	z_stream z;
	size_t cap;
	char *buf;
	int rc;

	if (len > UINT32_MAX)
		return -EIO;
	__atomic_add_fetch(&compressions, 1, __ATOMIC_RELAXED);
	memset(&z, 0, sizeof(z));
	/* 15 + 16: the gzip wrapper; level 1: a 1 MB /metrics in a few ms, and
	 * a shared body is compressed once */
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

/* Shared bodies. Why a tag and not a comparison: the web side used to keep
 * the last body of each path and compare every new one with it byte for
 * byte before reusing its compressed form, a third of a gzip scrape's CPU
 * at 256 drives (1.3 MB); the collector copied each body twice more to
 * send it. A tag names the bytes, so neither side reads a body it already
 * has. Tags start at a random number: the web side outlives a collector's
 * restart, and the new collector's first tags must not be the old one's. */
static pthread_mutex_t gz_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t tag_once = PTHREAD_ONCE_INIT;
static uint64_t next_tag;

static void tag_init(void)
{
	uint64_t t = 0;

	/* never waits for the entropy pool (a collector started early at
	 * boot would hold every answer): the clock and pid serve as well, as
	 * the tag needs to be new, not secret */
	if (getrandom(&t, sizeof(t), GRND_NONBLOCK) != sizeof(t)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		t = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
			((uint64_t)getpid() << 40);
	}
	/* below 2^63: room to count up, and never 0 */
	next_tag = (t >> 1) | 1;
}

ww_http_body_t *ww_http_body_new(char *data, size_t len, uint64_t tag)
{
	ww_http_body_t *b = data ? calloc(1, sizeof(*b)) : NULL;

	if (!b) {
		free(data);
		return NULL;
	}
	if (!tag) {
		pthread_once(&tag_once, tag_init);
		tag = __atomic_fetch_add(&next_tag, 1, __ATOMIC_RELAXED);
	}
	b->data = data;
	b->len = len;
	b->tag = tag;
	b->refs = 1;
	return b;
}

ww_http_body_t *ww_http_body_ref(ww_http_body_t *b)
{
	if (b)
		__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
	return b;
}

void ww_http_body_unref(void *arg)
{
	ww_http_body_t *b = arg;

	if (!b || __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(b->data);
	free(b->gz);
	free(b);
}

int ww_http_body_gzip(ww_http_body_t *b, const char **gz, size_t *gzlen)
{
	char *z = NULL;
	size_t zl = 0;
	int rc;

	/* compressed outside the lock (a 5 MB body takes milliseconds, and
	 * other bodies' answers would wait); two first requests at once both
	 * compress, and the second copy is dropped */
	pthread_mutex_lock(&gz_lock);
	z = b->gz;
	zl = b->gzlen;
	pthread_mutex_unlock(&gz_lock);
	if (!z) {
		rc = ww_http_gzip(b->data, b->len, &z, &zl);
		if (rc)
			return rc;
		pthread_mutex_lock(&gz_lock);
		if (b->gz) {
			free(z);
		} else {
			b->gz = z;
			b->gzlen = zl;
		}
		z = b->gz;
		zl = b->gzlen;
		pthread_mutex_unlock(&gz_lock);
	}
	*gz = z;
	*gzlen = zl;
	return 0;
}
