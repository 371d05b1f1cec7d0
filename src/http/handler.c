/* The request half of the HTTP front end (see front.h): method and URI
 * checks, basic auth (cache, limit, then bcrypt on the auth pool), the
 * dashboard's files, and every other route fetched on a job pool. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/front.h"
#include "http/assets.h"
#include "wearwatch/basic.h"

/* the connection's deadline record (connection_event in webfront.c) */
static ww_gconn_t *gconn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		ww_mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* queue response r (NULL: out of memory) with our headers, and drop it */
static MHD_RESULT queue(struct ww_req *q, struct MHD_Connection *c, unsigned status,
			const char *type, struct MHD_Response *r, const char *encoding)
{
	MHD_RESULT ret;

	if (!r)
		return MHD_NO;
	ww_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ww_mhd.add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (encoding) {
		ww_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, encoding);
		ww_mhd.add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
	}
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		ww_mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	/* seconds: until the next login token; a busy pool or collector */
	if (status == MHD_HTTP_TOO_MANY_REQUESTS || status == MHD_HTTP_SERVICE_UNAVAILABLE) {
		char ra[16];

		snprintf(ra, sizeof(ra), "%u", status == MHD_HTTP_SERVICE_UNAVAILABLE || !q ? 1u :
			 (ww_guard_refill_ms(q->w->guard) + 999) / 1000);
		ww_mhd.add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, ra);
	}
	if (status == MHD_HTTP_UNAUTHORIZED)
		ret = ww_mhd.queue_basic_auth_fail_response(c, "wearwatch", r);
	else
		ret = ww_mhd.queue_response(c, status, r);
	ww_mhd.destroy_response(r);
	if (q)
		ww_guard_conn_phase(q->w->guard, gconn_of(c), WW_GC_SEND);
	return ret;
}

static MHD_RESULT reply_enc(struct ww_req *q, struct MHD_Connection *c, unsigned status,
			    const char *type, char *body, size_t len, const char *encoding)
{
	struct MHD_Response *r = ww_mhd.create_response_from_buffer(len, body,
								    MHD_RESPMEM_MUST_FREE);

	if (!r)
		free(body);
	return queue(q, c, status, type, r, encoding);
}

static MHD_RESULT reply(struct ww_req *q, struct MHD_Connection *c, unsigned status,
			const char *type, char *body, size_t len)
{
	return reply_enc(q, c, status, type, body, len, NULL);
}

/* bodies this large are sent gzipped to a client that accepts it */
#define GZIP_MIN_BYTES 1024

/* A route's answer (its body is the request's until here), gzipped when
 * the client accepts it: a shared body (the render cache's, or the web
 * side's copy of the collector's) carries its compressed form, made once,
 * and is sent from its own bytes, given back when libmicrohttpd has sent
 * them; any other body is compressed for this answer. */
static MHD_RESULT reply_route(struct ww_req *q, struct MHD_Connection *c)
{
	ww_route_reply_t r = q->r;
	struct MHD_Response *resp;
	const char *data = r.body, *enc = NULL;
	size_t len = r.len;
	char *gz;
	size_t gzlen;

	memset(&q->r, 0, sizeof(q->r)); /* the response owns the body now */
	if (r.status == MHD_HTTP_OK && r.len >= GZIP_MIN_BYTES &&
	    ww_http_accepts_gzip(ww_mhd.lookup_connection_value(c, MHD_HEADER_KIND,
								MHD_HTTP_HEADER_ACCEPT_ENCODING))) {
		if (r.shared && ww_http_body_gzip(r.shared, &data, &len) == 0) {
			enc = "gzip";
		} else if (!r.shared && ww_http_gzip(r.body, r.len, &gz, &gzlen) == 0) {
			free(r.body);
			return reply_enc(q, c, r.status, r.type, gz, gzlen, "gzip");
		} else {
			data = r.body;
			len = r.len;
		}
	}
	if (!r.shared)
		return reply(q, c, r.status, r.type, r.body, r.len);
	resp = ww_mhd.create_response_from_buffer_with_free_callback_cls(
		len, (void *)data, ww_http_body_unref, r.shared);
	if (!resp)
		ww_http_body_unref(r.shared);
	return queue(q, c, r.status, r.type, resp, enc);
}

static MHD_RESULT text(struct ww_req *q, struct MHD_Connection *c, unsigned status,
		       const char *t)
{
	char *b = strdup(t);

	return b ? reply(q, c, status, "text/plain; charset=utf-8", b, strlen(b)) : MHD_NO;
}

static void resume(struct ww_req *q)
{
	ww_mhd.resume_connection(q->c);
}

/* -------------------------------------------------------------- auth --- */

static void auth_job(ww_job_t *j, bool cancelled)
{
	struct ww_req *q = (struct ww_req *)j;
	bool ok;

	/* a check that waited its whole time (a CPU busy with cheap requests
	 * runs background jobs late) is answered busy, not run */
	cancelled |= ww_http_now_ms() >= q->deadline_ms;
	ok = !cancelled && ww_webcfg_check_user(&q->w->wc, q->user, q->pass);

	if (ok)
		ww_guard_cache_put(q->w->guard, q->key, (struct sockaddr *)&q->addr);
	/* a check that never ran is no failure of the client */
	ww_guard_auth_done(q->w->guard, (struct sockaddr *)&q->addr, ok || cancelled);
	explicit_bzero(q->pass, strlen(q->pass));
	q->auth_ok = ok;
	q->busy = cancelled;
	resume(q);
}

static void copy_addr(struct ww_req *q, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		ww_mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;

	if (sa)
		memcpy(&q->addr, sa, sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
				     sizeof(struct sockaddr_in));
}

static MHD_RESULT too_many(struct ww_req *q, struct MHD_Connection *c, unsigned retry)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "too many failed logins from this address; retry in %u s\n",
		 retry);
	return text(q, c, MHD_HTTP_TOO_MANY_REQUESTS, msg);
}

/* Returns MHD_YES with the connection suspended (a check is running),
 * MHD_YES/NO of a queued answer, or -1: authorised, go on. */
static int auth_begin(struct ww_req *q, struct MHD_Connection *c)
{
	char *pass = NULL, *user = ww_mhd.basic_auth_get_username_password(c, &pass);
	unsigned retry = 1;
	int rc;

	copy_addr(q, c);
	if (!user || !pass || ww_guard_auth_blocked(q->w->guard, (struct sockaddr *)&q->addr,
						     &retry)) {
		bool blocked = user && pass;

		if (pass) {
			explicit_bzero(pass, strlen(pass));
			ww_mhd.free(pass);
		}
		if (user)
			ww_mhd.free(user);
		return blocked ? too_many(q, c, retry) :
				 text(q, c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n");
	}
	q->user = strdup(user);
	q->pass = strdup(pass);
	explicit_bzero(pass, strlen(pass));
	ww_mhd.free(pass);
	ww_mhd.free(user);
	if (!q->user || !q->pass)
		return text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n");
	/* user:password longer than WW_HTTP_AUTH_INPUT_MAX is no login */
	if (ww_guard_auth_key(q->w->guard, q->user, q->pass, q->key))
		return text(q, c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n");
	if (ww_guard_cache_has(q->w->guard, q->key))
		return -1;
	rc = ww_guard_auth_admit(q->w->guard, (struct sockaddr *)&q->addr, &retry);
	if (rc == -EBUSY)
		return text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: logins from this address "
			    "are being checked\n");
	if (rc)
		return too_many(q, c, retry);
	q->state = WW_REQ_AUTH;
	q->job.run = auth_job;
	q->deadline_ms = ww_http_now_ms() + WW_HTTP_AUTH_WAIT_MS;
	ww_mhd.suspend_connection(c);
	rc = ww_jobq_submit(q->w->authq, &q->job);
	if (rc) {
		ww_guard_auth_done(q->w->guard, (struct sockaddr *)&q->addr, true);
		q->busy = true;
		resume(q);
	}
	return MHD_YES;
}

/* ------------------------------------------------------------- fetch --- */

/* GET /api/v1/fleet: Prometheus asked on the fleet pool (ww_fleet_fetch) */
static void fleet_job(ww_job_t *j, bool cancelled)
{
	struct ww_req *q = (struct ww_req *)j;

	if (cancelled)
		q->rc = -ESHUTDOWN;
	else
		q->rc = ww_fleet_fetch(&q->w->conf.fleet, q->fleet_page, &q->r.body, &q->r.len,
				       &q->r.status);
	snprintf(q->r.type, sizeof(q->r.type), "application/json");
	resume(q);
}

static void fetch_job(ww_job_t *j, bool cancelled)
{
	struct ww_req *q = (struct ww_req *)j;
	long long left = q->deadline_ms - ww_http_now_ms();

	if (cancelled)
		q->rc = -ESHUTDOWN;
	else if (left <= 0)
		q->rc = -ETIMEDOUT; /* it waited its whole time in the queue */
	else
		q->rc = q->w->fetch(q->w->ctx, &q->w->conf, q->path, (int)left, &q->r);
	resume(q);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
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

/* GET /api/v1/host: who answers (the page header and title name the host) */
static MHD_RESULT host(struct ww_req *q, struct MHD_Connection *c)
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
		     q->w->conf.fleet.prometheus[0] ? "true" : "false");
	if (n < 0)
		return MHD_NO;
	return reply(q, c, MHD_HTTP_OK, "application/json", b, (size_t)n);
}

static MHD_RESULT fetch_begin(struct ww_req *q, struct MHD_Connection *c, const char *url)
{
	bool history = ends_with(url, "/history");
	ww_jobq_t *pool = history ? q->w->slowq : q->w->fastq;
	int rc;

	if (!strcmp(url, "/api/v1/host"))
		return host(q, c);
	q->fleet = !strcmp(url, "/api/v1/fleet");
	if (strlen(url) > WW_ROUTE_MAX_PATH)
		return text(q, c, MHD_HTTP_NOT_FOUND, "not found\n");
	snprintf(q->path, sizeof(q->path), "%s", url);
	if (!strcmp(url, "/metrics")) {
		/* ?profile=fleet|full, else [metrics] profile (docs/metrics.md) */
		const char *pr = ww_mhd.lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
								"profile");

		if (pr && strcmp(pr, "fleet") && strcmp(pr, "full"))
			return text(q, c, MHD_HTTP_BAD_REQUEST,
				    "bad query (profile=fleet or full)\n");
		if (pr ? !strcmp(pr, "fleet") : q->w->conf.metrics_fleet)
			snprintf(q->path, sizeof(q->path), "/metrics?profile=fleet");
	}
	if (history) {
		/* the one route with parameters: forwarded, validated below */
		struct qbuf b = { q->path + strlen(q->path), 0, sizeof(q->path) - strlen(q->path),
				  false };

		ww_mhd.get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_arg, &b);
		if (b.bad || !ww_route_path_valid(q->path))
			return text(q, c, MHD_HTTP_BAD_REQUEST,
				    "bad query (metric, from, to, max_points only)\n");
	}
	if (q->fleet) {
		/* the one argument: a page number, nothing else reaches Prometheus */
		const char *pg = ww_mhd.lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "page");
		char *end = NULL;
		unsigned long v = pg ? strtoul(pg, &end, 10) : 1;

		if (pg && (!*pg || *end || v < 1 || v > 1000000))
			return text(q, c, MHD_HTTP_BAD_REQUEST, "bad query (page=N only)\n");
		q->fleet_page = (unsigned)v;
	}
	if (!q->fleet && !ww_route_path_valid(q->path))
		return text(q, c, MHD_HTTP_NOT_FOUND, "not found\n");
	q->state = WW_REQ_FETCH;
	q->job.run = q->fleet ? fleet_job : fetch_job;
	if (q->fleet)
		pool = q->w->fleetq;
	q->deadline_ms = ww_http_now_ms() + (history ? WW_HTTP_HISTORY_MS : WW_HTTP_FETCH_MS);
	ww_mhd.suspend_connection(c);
	rc = ww_jobq_submit(pool, &q->job);
	if (rc) {
		q->busy = true;
		q->rc = rc;
		resume(q);
	}
	return MHD_YES;
}

static MHD_RESULT fetched(struct ww_req *q, struct MHD_Connection *c)
{
	q->state = WW_REQ_READY;
	/* a reload or stop drained the pools: no fault of the collector */
	if (q->rc == -ESHUTDOWN)
		return text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE, "reloading or stopping; try again\n");
	if (q->busy)
		return text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE, q->fleet ?
			    "busy: too many fleet queries\n" : "busy: too many requests waiting "
			    "for the collector\n");
	if (q->fleet)
		return q->rc < 0 ? text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n") :
				   reply_route(q, c);
	if (q->rc < 0) {
		ww_log_failure("collector", ww_clock_wall(NULL), "collector at %s: %s",
			       q->w->conf.socket_path, strerror(-q->rc));
		return text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE,
			    q->rc == -ETIMEDOUT ? "collector did not answer in time\n" :
						  "collector unavailable\n");
	}
	ww_log_failure_ok("collector", ww_clock_wall(NULL), "collector answers again");
	return reply_route(q, c);
}

/* ----------------------------------------------------------- handler --- */

/* a request that announces a body (GET and HEAD have none to send) */
static bool has_body(struct MHD_Connection *c)
{
	const char *cl = ww_mhd.lookup_connection_value(c, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (cl && strcmp(cl, "0")) ||
		ww_mhd.lookup_connection_value(c, MHD_HEADER_KIND,
					       MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

MHD_RESULT ww_http_handle(void *cls, struct MHD_Connection *c, const char *url,
			  const char *method, const char *version, const char *upload,
			  size_t *upload_size, void **req_cls)
{
	ww_webfront_t *w = cls;
	struct ww_req *q = *req_cls;
	int aret;

	(void)version;
	(void)upload;
	if (!q)
		return text(NULL, c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n");
	if (q->state == WW_REQ_FETCH)
		return fetched(q, c);
	if (q->state == WW_REQ_AUTH) {
		q->state = WW_REQ_READY;
		if (q->busy)
			return text(q, c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: too many logins "
				    "being checked\n");
		if (!q->auth_ok)
			return text(q, c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n");
	} else if (!q->headers_seen) {
		/* the first call has the headers: refuse what needs no more
		 * (an answer queued now closes the connection, as it should
		 * for these), else wait for the end of the request, so that
		 * the answer can keep the connection alive */
		q->headers_seen = true;
		if (q->bad_uri)
			return text(q, c, MHD_HTTP_URI_TOO_LONG, "URI too long or too many "
				    "query arguments\n");
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			return text(q, c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n");
		if (has_body(c))
			return text(q, c, MHD_HTTP_CONTENT_TOO_LARGE, "no request body is taken\n");
		return MHD_YES;
	} else {
		if (*upload_size) {
			*upload_size = 0; /* none announced: nothing to take */
			return MHD_YES;
		}
		ww_guard_conn_phase(w->guard, gconn_of(c), WW_GC_WORK);
		if (w->wc.n_users && (aret = auth_begin(q, c)) >= 0)
			return (MHD_RESULT)aret;
	}
	/* dashboard files are in this binary: no collector needed */
	if (ww_http_assets_reply(c, url, &aret)) {
		ww_guard_conn_phase(w->guard, gconn_of(c), WW_GC_SEND);
		return (MHD_RESULT)aret;
	}
	return fetch_begin(q, c, url);
}

void ww_http_req_free(struct ww_req *q)
{
	if (!q)
		return;
	if (q->pass) {
		explicit_bzero(q->pass, strlen(q->pass));
		free(q->pass);
	}
	free(q->user);
	ww_route_reply_free(&q->r);
	explicit_bzero(q->key, sizeof(q->key));
	free(q);
}
