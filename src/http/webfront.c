/* HTTP(S) front end of `web` and `serve` (see webfront.h). Moved out of
 * web.c so `serve` runs the very same handler, TLS and auth. */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "wearwatch/http.h"
#include "http/assets.h"
#include "wearwatch/basic.h"
#include "wearwatch/conf.h"

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

struct ww_webfront {
	ww_conf_t conf;
	ww_webcfg_t wc;
	struct MHD_Daemon *mhd;
	int fd;
	bool activated; /* fd came from systemd (wearwatch-web.socket) */
	uint16_t port;
	ww_webfront_fetch_fn fetch;
	void *ctx;
	int fleet_jobs;    /* fleet queries running (atomic): stop() waits for them */
};

/* GET /api/v1/fleet: Prometheus is asked on a thread of its own while the
 * connection is suspended, so a slow Prometheus never holds up /metrics
 * (one polling thread serves every connection). */
struct fleet_job {
	ww_webfront_t *w;
	struct MHD_Connection *c;
	ww_conf_fleet_t conf;   /* a copy: a reload may replace w->conf meanwhile */
	char *body;
	size_t len;
	unsigned status;
	int rc;
};

#define WW_FLEET_MAX_JOBS 4

/* queue response r (NULL: out of memory) with our headers, and drop it */
static MHD_RESULT queue(struct MHD_Connection *c, unsigned status, const char *type,
			struct MHD_Response *r, bool auth_fail, const char *encoding)
{
	MHD_RESULT ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (encoding) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, encoding);
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
	}
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (auth_fail)
		ret = MHD_queue_basic_auth_fail_response(c, "wearwatch", r);
	else
		ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static MHD_RESULT reply_enc(struct MHD_Connection *c, unsigned status, const char *type,
			    char *body, size_t len, bool auth_fail, const char *encoding)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);

	if (!r)
		free(body);
	return queue(c, status, type, r, auth_fail, encoding);
}

static MHD_RESULT reply(struct MHD_Connection *c, unsigned status, const char *type,
			char *body, size_t len, bool auth_fail)
{
	return reply_enc(c, status, type, body, len, auth_fail, NULL);
}

/* bodies this large are sent gzipped to a client that accepts it */
#define GZIP_MIN_BYTES 1024

/* r's body, gzipped when the client accepts it (the compressed form of an
 * unchanged body is kept: gzip.c) */
static MHD_RESULT reply_route(struct MHD_Connection *c, const char *path, ww_route_reply_t *r)
{
	struct MHD_Response *resp;
	char *gz;
	size_t gzlen;

	if (r->status == MHD_HTTP_OK && r->len >= GZIP_MIN_BYTES &&
	    ww_http_accepts_gzip(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							     MHD_HTTP_HEADER_ACCEPT_ENCODING)) &&
	    ww_http_gzip(path, r->body, r->len, &gz, &gzlen) == 0) {
		if (r->release)
			r->release(r->release_arg);
		else
			free(r->body);
		return reply_enc(c, r->status, r->type, gz, gzlen, false, "gzip");
	}
	if (!r->release)
		return reply(c, r->status, r->type, r->body, r->len, false);
	/* the render cache's buffer, given back when MHD has sent it */
	resp = MHD_create_response_from_buffer_with_free_callback_cls(r->len, r->body, r->release,
								       r->release_arg);
	if (!resp)
		r->release(r->release_arg);
	return queue(c, r->status, r->type, resp, false, NULL);
}

static MHD_RESULT text(struct MHD_Connection *c, unsigned status, const char *t, bool auth_fail)
{
	char *b = strdup(t);

	return b ? reply(c, status, "text/plain; charset=utf-8", b, strlen(b), auth_fail) : MHD_NO;
}

struct qbuf {
	char *p;
	size_t len, cap;
	bool bad;
};

/* MHD hands the query decoded; it is re-joined here and route.c's
 * ww_route_path_valid() then accepts only known names and plain values, so
 * nothing needs re-encoding */
static MHD_RESULT add_arg(void *cls, enum MHD_ValueKind kind, const char *k, const char *v)
{
	struct qbuf *q = cls;
	int n;

	(void)kind;
	if (!v) {
		q->bad = true;
		return MHD_NO;
	}
	n = snprintf(q->p + q->len, q->cap - q->len, "%s%s=%s", q->len ? "&" : "?", k, v);
	if (n < 0 || (size_t)n >= q->cap - q->len) {
		q->bad = true;
		return MHD_NO;
	}
	q->len += (size_t)n;
	return MHD_YES;
}

static void *fleet_run(void *arg)
{
	struct fleet_job *j = arg;
	ww_webfront_t *w = j->w;

	j->rc = ww_fleet_fetch(&j->conf, &j->body, &j->len, &j->status);
	MHD_resume_connection(j->c);
	__atomic_sub_fetch(&w->fleet_jobs, 1, __ATOMIC_RELEASE);
	return NULL;
}

static MHD_RESULT fleet(ww_webfront_t *w, struct MHD_Connection *c, void **req_cls)
{
	struct fleet_job *j = *req_cls;
	pthread_attr_t at;
	pthread_t t;

	if (j) { /* resumed: the answer is there */
		*req_cls = NULL;
		if (j->rc) {
			free(j);
			return text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n", false);
		}
		MHD_RESULT r = reply(c, j->status, "application/json", j->body, j->len, false);

		free(j);
		return r;
	}
	if (__atomic_add_fetch(&w->fleet_jobs, 1, __ATOMIC_ACQ_REL) > WW_FLEET_MAX_JOBS ||
	    !(j = calloc(1, sizeof(*j)))) {
		__atomic_sub_fetch(&w->fleet_jobs, 1, __ATOMIC_RELEASE);
		return text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: too many fleet queries\n",
			    false);
	}
	j->w = w;
	j->c = c;
	j->conf = w->conf.fleet;
	*req_cls = j;
	MHD_suspend_connection(c);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &at, fleet_run, j)) {
		j->rc = -EAGAIN;
		MHD_resume_connection(c);
		__atomic_sub_fetch(&w->fleet_jobs, 1, __ATOMIC_RELEASE);
	}
	pthread_attr_destroy(&at);
	return MHD_YES;
}

/* a connection closed while its fleet job ran, or before its answer went out */
static void completed(void *cls, struct MHD_Connection *c, void **req_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct fleet_job *j = *req_cls;

	(void)cls; (void)c; (void)toe;
	if (j) {
		free(j->body);
		free(j);
		*req_cls = NULL;
	}
}

/* GET /api/v1/host: who answers (the page header and title name the host) */
static MHD_RESULT host(ww_webfront_t *w, struct MHD_Connection *c)
{
	char name[256] = "", *b = NULL;
	int n;

	if (gethostname(name, sizeof(name) - 1))
		snprintf(name, sizeof(name), "unknown");
	/* host names are letters, digits, '-' and '.': nothing to escape */
	for (char *p = name; *p; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
			*p = '?';
	n = asprintf(&b, "{\"host\":\"%s\",\"fleet\":%s}", name,
		     w->conf.fleet.prometheus[0] ? "true" : "false");
	if (n < 0)
		return MHD_NO;
	return reply(c, MHD_HTTP_OK, "application/json", b, (size_t)n, false);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static MHD_RESULT handle(void *cls, struct MHD_Connection *c, const char *url,
			 const char *method, const char *version, const char *upload,
			 size_t *upload_size, void **req_cls)
{
	ww_webfront_t *w = cls;
	ww_route_reply_t r;
	char path[WW_ROUTE_MAX_PATH + 2];
	int rc;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n", false);
	if (w->wc.n_users) {
		char *pass = NULL, *user = MHD_basic_auth_get_username_password(c, &pass);
		bool ok = user && pass && ww_webcfg_check_user(&w->wc, user, pass);

		if (pass) {
			explicit_bzero(pass, strlen(pass));
			MHD_free(pass);
		}
		if (user)
			MHD_free(user);
		if (!ok)
			return text(c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n", true);
	}
	{
		int aret; /* dashboard files are in this binary: no collector needed */

		if (ww_http_assets_reply(c, url, &aret))
			return (MHD_RESULT)aret;
	}
	if (!strcmp(url, "/api/v1/fleet"))
		return fleet(w, c, req_cls);
	if (!strcmp(url, "/api/v1/host"))
		return host(w, c);
	if (strlen(url) > WW_ROUTE_MAX_PATH)
		return text(c, MHD_HTTP_NOT_FOUND, "not found\n", false);
	snprintf(path, sizeof(path), "%s", url);
	if (ends_with(url, "/history")) {
		/* the one route with parameters: forwarded, validated below */
		struct qbuf q = { path + strlen(path), 0, sizeof(path) - strlen(path), false };

		MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_arg, &q);
		if (q.bad || !ww_route_path_valid(path))
			return text(c, MHD_HTTP_BAD_REQUEST,
				    "bad query (metric, from, to, max_points only)\n", false);
	}
	if (!ww_route_path_valid(path))
		return text(c, MHD_HTTP_NOT_FOUND, "not found\n", false);
	memset(&r, 0, sizeof(r));
	rc = w->fetch(w->ctx, &w->conf, path, &r);
	if (rc < 0) {
		ww_log(WW_LOG_WARNING, "collector at %s: %s", w->conf.socket_path, strerror(-rc));
		return text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "collector unavailable\n", false);
	}
	return reply_route(c, path, &r);
}

int ww_webfront_fetch_store(void *ctx, const ww_conf_t *conf, const char *path,
			    ww_route_reply_t *r)
{
	(void)conf;
	return ww_route_render_shared(ctx, path, time(NULL), r);
}

/* At most 128 connections, 16 from one address: the 15 s timeout is for
 * inactivity, so a client trickling a header line every few seconds holds
 * its slots for ever; without a per-address cap one host doing that on 128
 * connections kept every scraper out. */
#define WW_WEB_CONN_LIMIT 128
#define WW_WEB_CONN_PER_IP 16

static int start(ww_webfront_t *w, int fd)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC |
			 MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	w->fd = fd;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		w->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
				ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port : 0);
	if (w->wc.tls) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
			return -EPROTONOSUPPORT;
		w->mhd = MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handle, w,
					  MHD_OPTION_LISTEN_SOCKET, fd,
					  MHD_OPTION_HTTPS_MEM_CERT, w->wc.cert_pem,
					  MHD_OPTION_HTTPS_MEM_KEY, w->wc.key_pem,
					  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)15,
					  MHD_OPTION_CONNECTION_LIMIT, (unsigned)WW_WEB_CONN_LIMIT,
					  MHD_OPTION_PER_IP_CONNECTION_LIMIT,
					  (unsigned)WW_WEB_CONN_PER_IP,
					  MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
					  MHD_OPTION_END);
	} else {
		w->mhd = MHD_start_daemon(flags, 0, NULL, NULL, handle, w,
					  MHD_OPTION_LISTEN_SOCKET, fd,
					  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)15,
					  MHD_OPTION_CONNECTION_LIMIT, (unsigned)WW_WEB_CONN_LIMIT,
					  MHD_OPTION_PER_IP_CONNECTION_LIMIT,
					  (unsigned)WW_WEB_CONN_PER_IP,
					  MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
					  MHD_OPTION_END);
	}
	return w->mhd ? 0 : -EIO;
}

/* hands the listening socket back (not closed); a suspended connection
 * must be resumed before the daemon stops: fleet queries are waited for (they
 * end within their timeout) */
static int stop(ww_webfront_t *w)
{
	int fd = MHD_quiesce_daemon(w->mhd);

	for (int i = 0; i < 20 * 60 && __atomic_load_n(&w->fleet_jobs, __ATOMIC_ACQUIRE); i++)
		usleep(50000);
	MHD_stop_daemon(w->mhd);
	w->mhd = NULL;
	return fd;
}

static ww_webfront_t *prepare(const ww_conf_t *conf, ww_webfront_fetch_fn fetch, void *ctx,
			      char *err, size_t errlen)
{
	ww_webfront_t *w = calloc(1, sizeof(*w));

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->conf = *conf;
	w->fetch = fetch;
	w->ctx = ctx;
	w->fd = -1;
	if (conf->web_config[0] && ww_webcfg_load(&w->wc, conf->web_config, err, errlen)) {
		ww_webcfg_clear(&w->wc);
		free(w);
		return NULL;
	}
	return w;
}

static void discard(ww_webfront_t *w)
{
	ww_webcfg_clear(&w->wc);
	free(w);
}

ww_webfront_t *ww_webfront_open(const ww_conf_t *conf, int fd, ww_webfront_fetch_fn fetch,
				void *ctx, char *err, size_t errlen)
{
	ww_webfront_t *w = prepare(conf, fetch, ctx, err, errlen);
	int rc;

	if (!w)
		return NULL;
	w->activated = fd >= 0;
	if (fd < 0)
		fd = ww_http_bind_listen(conf->listen);
	if (fd < 0 || (rc = start(w, fd))) {
		snprintf(err, errlen, "cannot serve on %s: %s", conf->listen,
			 strerror(fd < 0 ? -fd : -rc));
		if (fd >= 0 && !w->activated)
			close(fd);
		discard(w);
		return NULL;
	}
	return w;
}

int ww_webfront_reload(ww_webfront_t **wp, const ww_conf_t *conf, char *err, size_t errlen)
{
	ww_webfront_t *w = *wp, *n = prepare(conf, w->fetch, w->ctx, err, errlen);
	int fd, rc;

	if (!n)
		return -EINVAL;
	n->activated = w->activated;
	if (w->activated || !strcmp(n->conf.listen, w->conf.listen)) {
		/* same socket, new settings (TLS, users) */
		fd = stop(w);
		rc = start(n, fd);
		if (rc && start(w, fd)) {
			snprintf(err, errlen, "cannot restart on %s", w->conf.listen);
			discard(n);
			return -EIO;
		}
	} else {
		fd = ww_http_bind_listen(n->conf.listen);
		rc = fd < 0 ? fd : start(n, fd);
		if (!rc)
			close(stop(w));
		else if (fd >= 0)
			close(fd);
	}
	if (rc) {
		snprintf(err, errlen, "cannot serve on %s: %s; keeping %s", n->conf.listen,
			 strerror(-rc), w->conf.listen);
		discard(n);
		return rc;
	}
	discard(w);
	*wp = n;
	return 0;
}

uint16_t ww_webfront_port(const ww_webfront_t *w)
{
	return w ? w->port : 0;
}

const char *ww_webfront_scheme(const ww_webfront_t *w)
{
	return w && w->wc.tls ? "https" : "http";
}

bool ww_webfront_auth(const ww_webfront_t *w)
{
	return w && w->wc.n_users;
}

void ww_webfront_close(ww_webfront_t *w)
{
	if (!w)
		return;
	if (w->mhd)
		close(stop(w));
	discard(w);
}
