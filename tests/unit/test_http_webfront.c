/* The HTTP front end `serve` runs (src/http/webfront.c with the in-process
 * store fetch) on 127.0.0.1, ephemeral port, over a hand-made store (no
 * devices): each endpoint's status and Content-Type, bodies that come from
 * the snapshot, 404 for unknown paths and drives, 405 for other methods,
 * HEAD without a body, slow clients not keeping a scraper out; and
 * libmicrohttpd (with GnuTLS behind it) mapped only once a front starts. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "ww_test.h"
#include "http/mhd.h"
#include "wearwatch/http.h"
#include "wearwatch/store.h"

struct resp {
	int status;
	char ctype[128];
	char allow[64];
	long clen;
	char *body;
	size_t body_len;
};

static void header(const char *hdrs, const char *name, char *out, size_t len)
{
	size_t n = strlen(name);

	out[0] = 0;
	for (const char *p = hdrs; p && *p; p = strstr(p, "\r\n") ? strstr(p, "\r\n") + 2 : NULL) {
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1, *e = strstr(v, "\r\n");

			while (*v == ' ')
				v++;
			snprintf(out, len, "%.*s", (int)(e ? e - v : (long)strlen(v)), v);
			return;
		}
	}
}

static int request(uint16_t port, const char *method, const char *path, struct resp *r)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	char req[512], *buf = NULL, *sep, tmp[32];
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd;

	memset(r, 0, sizeof(*r));
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
		 method, path);
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		close(fd);
		return -1;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!buf)
		return -1;
	buf[len] = 0;
	sep = strstr(buf, "\r\n\r\n");
	if (!sep || sscanf(buf, "HTTP/1.%*d %d", &r->status) != 1) {
		free(buf);
		return -1;
	}
	*sep = 0;
	header(buf, "Content-Type", r->ctype, sizeof(r->ctype));
	header(buf, "Allow", r->allow, sizeof(r->allow));
	header(buf, "Content-Length", tmp, sizeof(tmp));
	r->clen = tmp[0] ? atol(tmp) : -1;
	r->body_len = len - (size_t)(sep + 4 - buf);
	r->body = strdup(sep + 4);
	free(buf);
	return 0;
}

/* 128 connections from 127.0.0.2 that keep sending header lines (slowloris)
 * must not keep a scraper on 127.0.0.1 out: GET /healthz answered within 5 s */
static void test_slow_clients_leave_room(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 5 };
	const char *req = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	int slow[128], n = 0, fd;
	char buf[256] = "";
	ssize_t got = -1;

	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	inet_pton(AF_INET, "127.0.0.2", &src.sin_addr);
	for (int i = 0; i < 128; i++) {
		slow[n] = socket(AF_INET, SOCK_STREAM, 0);
		if (slow[n] < 0)
			break;
		if (bind(slow[n], (struct sockaddr *)&src, sizeof(src)) < 0 ||
		    connect(slow[n], (struct sockaddr *)&a, sizeof(a)) < 0) {
			close(slow[n]);
			break;
		}
		/* refused when over the per-address limit: fine */
		(void)!write(slow[n], "GET /metrics HTTP/1.1\r\n", 23);
		n++;
	}
	/* no wait needed here: the server accepts in arrival order, so the slow
	 * connections above are taken before the scraper's */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    write(fd, req, strlen(req)) == (ssize_t)strlen(req))
		got = read(fd, buf, sizeof(buf) - 1);
	CHECK(got > 0 && !strncmp(buf, "HTTP/1.1 200", 12));
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < n; i++)
		close(slow[i]);
}

/* how many of this process's mappings are of a file whose name has `lib` */
static int mapped(const char *lib)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, lib))
			n++;
	fclose(f);
	return n;
}

int main(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_route_src_t src = { 0 };
	ww_drive_t d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_webfront_t *srv;
	ww_conf_t conf;
	char errbuf[256] = "";
	struct resp r;
	uint16_t port;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "nvme-eui.0025385b71b07e2f");
	snprintf(d.block, sizeof(d.block), "nvme0n1");
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/nvme0n1");
	d.protocol = WW_PROTO_NVME;
	d.transport = WW_TRANSPORT_NVME;
	ww_store_sync(s, &d, 1, time(NULL));
	h->protocol = WW_PROTO_NVME;
	snprintf(h->model, sizeof(h->model), "Samsung <SSD> 970");
	WW_SET(h->temperature_celsius, 47, "hand-made");
	WW_SET(h->host_written_bytes, 18446744073709551615ull, "hand-made");
	ww_store_update(s, d.id, 0, h, NULL, 0.05, time(NULL));

	ww_conf_defaults(&conf);
	snprintf(conf.listen, sizeof(conf.listen), "127.0.0.1:0");
	src.store = s;
	/* nothing of the HTTP server's libraries in a process that never
	 * started a front (the collector, the one-shot commands) */
	CHECK_EQ_I64(mapped("/libmicrohttpd.so"), 0);
	CHECK_EQ_I64(mapped("/libgnutls.so"), 0);
	CHECK_EQ_U64(ww_mhd_loads(), 0);
	srv = ww_webfront_open(&conf, -1, ww_webfront_fetch_store, &src, errbuf, sizeof(errbuf));
	CHECK(srv != NULL);
	CHECK_EQ_U64(ww_mhd_loads(), 1);
	CHECK(mapped("/libmicrohttpd.so.12") > 0);
	CHECK(mapped("/libgnutls.so") > 0);
	if (!srv) {
		fprintf(stderr, "cannot start server: %s\n", errbuf);
		return ww_test_done("test_http_webfront");
	}
	port = ww_webfront_port(srv);
	CHECK(port != 0);

	CHECK_EQ_I64(request(port, "GET", "/metrics", &r), 0);
	CHECK_EQ_I64(r.status, 200);
	CHECK_STR(r.ctype, "text/plain; version=0.0.4; charset=utf-8");
	CHECK(r.body && strstr(r.body, "wearwatch_drive_temperature_celsius{drive=\"nvme-eui.0025385b71b07e2f\"} 47\n"));
	CHECK(r.body && strstr(r.body, "} 18446744073709551615\n"));
	CHECK_EQ_I64(r.clen, (long)r.body_len);
	free(r.body);

	CHECK_EQ_I64(request(port, "HEAD", "/metrics", &r), 0);
	CHECK_EQ_I64(r.status, 200);
	CHECK_STR(r.ctype, "text/plain; version=0.0.4; charset=utf-8");
	CHECK_EQ_U64(r.body_len, 0);
	free(r.body);

	CHECK_EQ_I64(request(port, "GET", "/api/v1/drives", &r), 0);
	CHECK_EQ_I64(r.status, 200);
	CHECK_STR(r.ctype, "application/json");
	CHECK(r.body && r.body[0] == '[');
	CHECK(r.body && strstr(r.body, "\"id\":\"nvme-eui.0025385b71b07e2f\""));
	CHECK(r.body && strstr(r.body, "\"present\":true"));
	free(r.body);

	CHECK_EQ_I64(request(port, "GET", "/api/v1/drives/nvme-eui.0025385b71b07e2f", &r), 0);
	CHECK_EQ_I64(r.status, 200);
	CHECK_STR(r.ctype, "application/json");
	/* u64 above INT64_MAX goes out as a string, never through double */
	CHECK(r.body && strstr(r.body, "\"host_written_bytes\":{\"value\":\"18446744073709551615\""));
	free(r.body);

	CHECK_EQ_I64(request(port, "GET", "/api/v1/drives/no-such-drive", &r), 0);
	CHECK_EQ_I64(r.status, 404);
	CHECK_STR(r.ctype, "application/json");
	CHECK(r.body && strstr(r.body, "\"drive\":\"no-such-drive\""));
	free(r.body);

	CHECK_EQ_I64(request(port, "GET", "/healthz", &r), 0);
	CHECK_EQ_I64(r.status, 200);
	CHECK(r.body && !strcmp(r.body, "ok\n"));
	free(r.body);

	CHECK_EQ_I64(request(port, "GET", "/table", &r), 0);
	CHECK_EQ_I64(r.status, 200);
	CHECK_STR(r.ctype, "text/html; charset=utf-8");
	CHECK(r.body && strstr(r.body, "Samsung &lt;SSD&gt; 970")); /* escaped */
	CHECK(r.body && strstr(r.body, "<td>47 &deg;C</td>"));
	/* bytes written in decimal units, the exact count on hover */
	CHECK(r.body && strstr(r.body, "<td title=\"18446744073709551615 bytes\">18.45 EB</td>"));
	free(r.body);

	CHECK_EQ_I64(request(port, "GET", "/nope", &r), 0);
	CHECK_EQ_I64(r.status, 404);
	free(r.body);

	CHECK_EQ_I64(request(port, "POST", "/metrics", &r), 0);
	CHECK_EQ_I64(r.status, 405);
	CHECK_STR(r.allow, "GET, HEAD");
	free(r.body);
	CHECK_EQ_I64(request(port, "DELETE", "/api/v1/drives", &r), 0);
	CHECK_EQ_I64(r.status, 405);
	free(r.body);

	/* a snapshot swapped in while serving is what the next scrape sees */
	h->temperature_celsius.value = 52;
	ww_store_update(s, d.id, 0, h, NULL, 0.05, time(NULL));
	CHECK_EQ_I64(request(port, "GET", "/metrics", &r), 0);
	CHECK(r.body && strstr(r.body, "wearwatch_drive_temperature_celsius{drive=\"nvme-eui.0025385b71b07e2f\"} 52\n"));
	free(r.body);

	test_slow_clients_leave_room(port);

	ww_webfront_close(srv);
	/* the port is closed after stop */
	CHECK(request(port, "GET", "/healthz", &r) != 0);
	ww_store_free(s);
	free(h);
	return ww_test_done("test_http_webfront");
}
