/* HTTP endpoints over libmicrohttpd (see http.h, docs/api.md). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "daemon/http.h"
#include "daemon/http_assets.h"
#include "wearwatch/expo.h"

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

struct ww_http {
	struct MHD_Daemon *mhd;
	int fd;
	uint16_t port;
	ww_store_t *store;
};

int ww_http_parse_listen(const char *spec, char *host, size_t hlen, uint16_t *port)
{
	const char *colon, *p;
	char *end;
	unsigned long v;
	size_t n;

	if (!spec || !*spec)
		return -EINVAL;
	if (spec[0] == '[') {
		const char *rb = strchr(spec, ']');

		if (!rb || rb[1] != ':')
			return -EINVAL;
		n = (size_t)(rb - spec - 1);
		p = rb + 2;
		spec++;
	} else {
		colon = strrchr(spec, ':');
		if (!colon) {
			n = 0;
			p = spec;
		} else {
			if (strchr(spec, ':') != colon)
				return -EINVAL; /* bare IPv6 needs brackets */
			n = (size_t)(colon - spec);
			p = colon + 1;
		}
	}
	if (n + 1 > hlen)
		return -EINVAL;
	memcpy(host, spec, n);
	host[n] = 0;
	if (!strcmp(host, "::") || !strcmp(host, "*"))
		host[0] = 0;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (!*p || *end || errno || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

static int bind_one(int family, const struct sockaddr *sa, socklen_t len, bool dual)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, zero = 0, err;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, dual ? &zero : &one, sizeof(int));
	if (bind(fd, sa, len) < 0 || listen(fd, 64) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int open_listener(const char *host, uint16_t port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char ps[8];
	int fd = -EADDRNOTAVAIL, rc;

	if (!host[0]) {
		struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
					   .sin6_addr = IN6ADDR_ANY_INIT };
		struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(port),
					  .sin_addr.s_addr = htonl(INADDR_ANY) };

		fd = bind_one(AF_INET6, (struct sockaddr *)&s6, sizeof(s6), true);
		if (fd < 0 && fd != -EADDRINUSE)
			fd = bind_one(AF_INET, (struct sockaddr *)&s4, sizeof(s4), false);
		return fd;
	}
	snprintf(ps, sizeof(ps), "%u", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc)
		return rc == EAI_SYSTEM ? -errno : -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = bind_one(ai->ai_family, ai->ai_addr, ai->ai_addrlen, false);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	return fd;
}

static MHD_RESULT reply(struct MHD_Connection *c, unsigned status, const char *type,
			char *body, size_t len)
{
	struct MHD_Response *r;
	MHD_RESULT ret;

	if (!body)
		return MHD_NO;
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static MHD_RESULT reply_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	char *b = strdup(text);

	return reply(c, status, "text/plain; charset=utf-8", b, b ? strlen(b) : 0);
}

static MHD_RESULT reply_json_error(struct MHD_Connection *c, unsigned status,
				   const char *msg, const char *drive)
{
	json_object *o = json_object_new_object();
	char *b;

	json_object_object_add(o, "error", json_object_new_string(msg));
	if (drive)
		json_object_object_add(o, "drive", json_object_new_string(drive));
	b = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return reply(c, status, "application/json", b, b ? strlen(b) : 0);
}

#define DRIVES_PATH "/api/v1/drives"

static MHD_RESULT handle(void *cls, struct MHD_Connection *c, const char *url,
			 const char *method, const char *version, const char *upload,
			 size_t *upload_size, void **req_cls)
{
	ww_http_t *h = cls;
	ww_snapshot_t *snap;
	time_t now = time(NULL);
	char *body = NULL;
	size_t len = 0;
	MHD_RESULT ret;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n");
	if (!strcmp(url, "/healthz"))
		return reply_text(c, MHD_HTTP_OK, "ok\n");
	{
		int aret; /* dashboard: /, /drives/{drive}, /assets/NAME (http_assets.c) */

		if (ww_http_assets_reply(c, url, &aret))
			return (MHD_RESULT)aret;
	}

	snap = ww_store_acquire(h->store);
	if (!strcmp(url, "/metrics")) {
		body = ww_metrics_render(snap, now, &len);
		ret = reply(c, MHD_HTTP_OK, WW_METRICS_CONTENT_TYPE, body, len);
	} else if (!strcmp(url, DRIVES_PATH) || !strcmp(url, DRIVES_PATH "/")) {
		body = ww_json_render_drives(snap, now);
		ret = reply(c, MHD_HTTP_OK, "application/json", body, body ? strlen(body) : 0);
	} else if (!strncmp(url, DRIVES_PATH "/", sizeof(DRIVES_PATH)) &&
		   strlen(url) > sizeof(DRIVES_PATH) + 8 &&
		   !strcmp(url + strlen(url) - 8, "/history")) {
		/* issue 3: GET /api/v1/drives/{drive}/history (docs/api.md) */
		char hid[256];
		unsigned status = 500;

		snprintf(hid, sizeof(hid), "%.*s", (int)(strlen(url) - 8 - sizeof(DRIVES_PATH)),
			 url + sizeof(DRIVES_PATH));
		body = ww_json_render_history(hid,
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "metric"),
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "from"),
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "to"),
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "max_points"),
			now, &status);
		ret = reply(c, status, "application/json", body, body ? strlen(body) : 0);
	} else if (!strncmp(url, DRIVES_PATH "/", sizeof(DRIVES_PATH))) {
		const char *id = url + sizeof(DRIVES_PATH);
		bool found;

		body = ww_json_render_drive(snap, id, now, &found);
		if (!found)
			ret = reply_json_error(c, MHD_HTTP_NOT_FOUND, "unknown drive", id);
		else
			ret = reply(c, MHD_HTTP_OK, "application/json", body, body ? strlen(body) : 0);
	} else if (!strcmp(url, "/table")) { /* no-JavaScript table; / is the dashboard */
		body = ww_html_render_index(snap, now);
		ret = reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", body, body ? strlen(body) : 0);
	} else {
		ret = reply_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
	}
	ww_snapshot_release(snap);
	return ret;
}

ww_http_t *ww_http_start(const char *listen_spec, ww_store_t *store, int *err)
{
	ww_http_t *h;
	char host[256];
	uint16_t port;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int rc;

	rc = ww_http_parse_listen(listen_spec, host, sizeof(host), &port);
	if (rc < 0)
		goto fail;
	h = calloc(1, sizeof(*h));
	if (!h) {
		rc = -ENOMEM;
		goto fail;
	}
	h->store = store;
	h->fd = open_listener(host, port);
	if (h->fd < 0) {
		rc = h->fd;
		free(h);
		goto fail;
	}
	if (getsockname(h->fd, (struct sockaddr *)&ss, &sl) == 0)
		h->port = ntohs(ss.ss_family == AF_INET6 ?
				((struct sockaddr_in6 *)&ss)->sin6_port :
				((struct sockaddr_in *)&ss)->sin_port);
	h->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC |
				  MHD_USE_ERROR_LOG,
				  0, NULL, NULL, handle, h,
				  MHD_OPTION_LISTEN_SOCKET, h->fd,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)15,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)128,
				  MHD_OPTION_END);
	if (!h->mhd) {
		close(h->fd);
		free(h);
		rc = -EIO;
		goto fail;
	}
	return h;
fail:
	if (err)
		*err = rc;
	return NULL;
}

uint16_t ww_http_port(const ww_http_t *h)
{
	return h ? h->port : 0;
}

void ww_http_stop(ww_http_t *h)
{
	if (!h)
		return;
	/* quiesce hands the listen socket back, so it is closed exactly once */
	int fd = MHD_quiesce_daemon(h->mhd);

	MHD_stop_daemon(h->mhd);
	if (fd >= 0)
		close(fd);
	free(h);
}
