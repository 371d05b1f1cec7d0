/* HTTP(S) front end of `web` and `serve`, the daemon half: libmicrohttpd
 * started with a pool of polling threads, suspend/resume for the jobs, the
 * connection callbacks that feed the deadlines, TLS and reload (see front.h;
 * requests are handler.c). */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/http.h"
#include "http/front.h"
#include "wearwatch/basic.h"
#include "wearwatch/conf.h"

int ww_webfront_fetch_store(void *ctx, const ww_conf_t *conf, const char *path,
			    int timeout_ms, ww_route_reply_t *r)
{
	(void)conf;
	(void)timeout_ms;
	return ww_route_render_shared(ctx, path, ww_clock_wall(NULL), r);
}

/* The request line is in: the request's state starts here. A URI longer
 * than any route, or with more arguments than the routes take, is marked
 * for a 414, and its arguments are cut before libmicrohttpd parses them:
 * each one takes a record from the connection's 32 KiB memory pool, and when
 * the pool ran out (500 arguments) libmicrohttpd 0.9.75 neither answered
 * nor closed, holding the connection until its timeout. `uri` is that
 * connection's own buffer (libmicrohttpd has not yet split the query off,
 * so ending the string after '?' leaves it nothing to parse). */
static void *uri_begin(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct ww_req *q = calloc(1, sizeof(*q));
	char *query = strchr(uri, '?');
	unsigned args = 0;

	for (const char *p = query; p && *p; p++)
		args += *p == '&' || *p == '?';
	if (q) {
		q->w = cls;
		q->c = c;
		q->bad_uri = strlen(uri) > WW_ROUTE_MAX_PATH || args > WW_HTTP_MAX_ARGS;
	}
	if (query && (!q || q->bad_uri))
		query[1] = '\0';
	if (q) { /* no longer an idle kept-alive connection to close first */
		const union MHD_ConnectionInfo *ci =
			ww_mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

		if (ci)
			ww_guard_conn_begun(q->w->guard, ci->socket_context);
	}
	return q;
}

static void request_done(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	ww_webfront_t *w = cls;
	const union MHD_ConnectionInfo *ci =
		ww_mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	(void)toe;
	ww_http_req_free(*req_cls);
	*req_cls = NULL;
	/* keep-alive: the next request has its own deadline from now */
	if (ci)
		ww_guard_conn_phase(w->guard, ci->socket_context, WW_GC_RECV);
}

static void connection_event(void *cls, struct MHD_Connection *c, void **socket_context,
			     enum MHD_ConnectionNotificationCode toe)
{
	ww_webfront_t *w = cls;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fd =
			ww_mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *sa =
			ww_mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		*socket_context = fd ? ww_guard_conn_open(w->guard, fd->connect_fd,
							  sa ? sa->client_addr : NULL) : NULL;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		ww_guard_conn_close(w->guard, *socket_context);
		*socket_context = NULL;
	}
}

/* libmicrohttpd's messages (a client that went away, a bad request), rate
 * limited: a flood of bad clients must not become a flood of log lines */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	ww_log_failure("libmicrohttpd", ww_clock_wall(NULL), "http: %s", msg);
}

static void stop_parts(ww_webfront_t *w)
{
	/* queued jobs answer "unavailable", running ones finish (their own
	 * timeouts bound them); every suspended connection is resumed */
	ww_jobq_stop(w->authq);
	ww_jobq_stop(w->fastq);
	ww_jobq_stop(w->slowq);
	ww_jobq_stop(w->fleetq);
	w->authq = w->fastq = w->slowq = w->fleetq = NULL;
}

static int start_parts(ww_webfront_t *w, unsigned limit)
{
	w->guard = ww_guard_start(0, limit);
	/* bcrypt is CPU: two checks at most, in the background (jobs.h);
	 * routes from the collector wait on a socket; history queries on
	 * their own, so that they can never take the threads /metrics needs,
	 * and in the background too (with `serve` they run on these threads) */
	w->authq = ww_jobq_start(2, 32, true, "auth");
	w->fastq = ww_jobq_start(4, 64, false, "fetch");
	w->slowq = ww_jobq_start(2, 8, true, "history");
	/* the fleet page's queries wait on Prometheus (each within [fleet]
	 * timeout): a pool of their own, so a slow Prometheus holds only them */
	w->fleetq = ww_jobq_start(2, 8, false, "fleet");
	if (w->guard && w->authq && w->fastq && w->slowq && w->fleetq)
		return 0;
	stop_parts(w);
	ww_guard_stop(w->guard);
	w->guard = NULL;
	return -ENOMEM;
}

/* connections at most: WW_HTTP_CONN_LIMIT, within the open-file limit
 * (raised to its hard limit) less room for the rest of the process */
static unsigned conn_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 64;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > WW_HTTP_CONN_LIMIT + 64)
		return WW_HTTP_CONN_LIMIT;
	return rl.rlim_cur > 128 ? (unsigned)rl.rlim_cur - 64 : 64;
}

static int start(ww_webfront_t *w, int fd)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
			 MHD_USE_ERROR_LOG;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct MHD_OptionItem tls[3] = { { MHD_OPTION_END, 0, NULL } };
	unsigned limit;

	w->fd = fd;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		w->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
				ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port : 0);
	if (w->wc.tls) {
		if (ww_mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
			return -EPROTONOSUPPORT;
		flags |= MHD_USE_TLS;
		tls[0] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, w->wc.cert_pem };
		tls[1] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, w->wc.key_pem };
	}
	limit = conn_limit();
	if (start_parts(w, limit))
		return -ENOMEM;
	/* not formatted: libmicrohttpd's options, one (option, value) a line */
	/* clang-format off */
	w->mhd = ww_mhd.start_daemon(flags, 0, NULL, NULL, ww_http_handle, w,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, w,
				  MHD_OPTION_LISTEN_SOCKET, fd,
				  MHD_OPTION_THREAD_POOL_SIZE, (unsigned)WW_HTTP_IO_THREADS,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)WW_HTTP_IDLE_S,
				  MHD_OPTION_CONNECTION_LIMIT, limit,
				  MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)WW_HTTP_CONN_PER_IP,
				  MHD_OPTION_URI_LOG_CALLBACK, uri_begin, w,
				  MHD_OPTION_NOTIFY_COMPLETED, request_done, w,
				  MHD_OPTION_NOTIFY_CONNECTION, connection_event, w,
				  MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
	/* clang-format on */
	if (!w->mhd) {
		stop_parts(w);
		ww_guard_stop(w->guard);
		w->guard = NULL;
		return -EIO;
	}
	return 0;
}

/* Hands the listening socket back (not closed). libmicrohttpd's threads
 * serve the open connections until MHD_stop_daemon returns, and submit
 * jobs meanwhile: the pools are drained first (every suspended connection
 * resumed, as MHD_stop_daemon needs; later submits are refused and answered
 * 503), freed only after the daemon stopped. */
static int stop(ww_webfront_t *w)
{
	int fd = ww_mhd.quiesce_daemon(w->mhd);

	ww_jobq_drain(w->authq);
	ww_jobq_drain(w->fastq);
	ww_jobq_drain(w->slowq);
	ww_jobq_drain(w->fleetq);
	ww_mhd.stop_daemon(w->mhd);
	stop_parts(w);
	ww_guard_stop(w->guard);
	w->mhd = NULL;
	w->guard = NULL;
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
	/* the front end's own keys only: no lists (include, [drive]) to own */
	w->conf = *conf;
	w->conf.include = NULL;
	w->conf.n_include = 0;
	w->conf.drives = NULL;
	w->conf.n_drives = 0;
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
	if (ww_mhd_load(err, errlen)) {
		discard(w);
		return NULL;
	}
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
	if (w->activated && strcmp(n->conf.listen, w->conf.listen)) {
		/* the socket is systemd's: a new listen here cannot move it,
		 * and was dropped without a word */
		ww_log(WW_LOG_WARNING,
		       "reload: listen = %s is not applied: the socket comes from "
		       "systemd (wearwatch-web.socket); set ListenStream= there and restart the "
		       "socket unit; still serving on its port %u",
		       n->conf.listen, w->port);
		snprintf(n->conf.listen, sizeof(n->conf.listen), "%s", w->conf.listen);
	}
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

const char *ww_webfront_listen(const ww_webfront_t *w)
{
	return w ? w->conf.listen : "";
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
