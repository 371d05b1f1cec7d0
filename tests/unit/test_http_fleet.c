/* The fleet page's data (ww_fleet_fetch, src/http/fleet.c) when Prometheus
 * is not there: a port on loopback that nothing listens on (bound, then
 * closed). The page shows each error after "Prometheus: " (web/fleet.js), so
 * the one error says what libcurl said, without the name of the query that
 * found it out (it was "info: Couldn't connect to server").
 *
 * Then Prometheus' answers that are not what its API documents
 * (ww_fleet_answer_parse, src/http/fleet_answer.c): `{"status":null}` made
 * `serve` and `web` dereference a NULL string (SIGSEGV), a 27.5 MB answer
 * grew `serve` to 24 GB. Each is refused with the reason, through the
 * parser and through a server on loopback answering every query with it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "wearwatch/http.h"
#include "http/fleet_answer.h"
#include "ww_test.h"

/* a loopback port nothing listens on */
static unsigned closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned port = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &l))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* parse one answer: its rc, with the result or the error in out */
static int parse(const char *body, char *out, size_t len)
{
	char *res = NULL, err[512] = "";
	int rc = ww_fleet_answer_parse(body, strlen(body), 200, &res, err, sizeof(err));

	snprintf(out, len, "%s", rc ? err : res ? res : "(null)");
	free(res);
	return rc;
}

static void test_answers(void)
{
	static const struct {
		const char *body, *want;
	} bad[] = {
		{ "{\"status\":null}", "not a Prometheus API answer (status is not \"success\")" },
		{ "{\"status\":5,\"data\":{}}", "status is not" },
		{ "{\"status\":\"error\",\"errorType\":null,\"error\":null}", "status is not" },
		{ "[1]", "status is not" },
		{ "null", "status is not" },
		{ "{\"status\":\"success\"", "not JSON" },
		{ "{\"status\":\"success\"} x", "not JSON" },
		{ "{\"status\":\"success\"}", "data is not an object" },
		{ "{\"status\":\"success\",\"data\":null}", "data is not an object" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":5}}",
		  "data.result is not an array" },
		{ "{\"status\":\"success\",\"data\":{\"result\":5}}", "data.resultType is not" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}",
		  "data.resultType is not \"vector\"" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[5]}}",
		  "data.result[0] is not an object" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{}]}}",
		  "data.result[0].metric is not an object" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		  "[{\"metric\":{\"job\":null},\"value\":[1,\"1\"]}]}}",
		  "data.result[0].metric: a label value is not a string" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		  "[{\"metric\":{},\"value\":[1,\"1\"]},{\"metric\":{},\"value\":[1]}]}}",
		  "data.result[1].value is not [time, \"value\"]" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		  "[{\"metric\":{},\"value\":[\"1\",\"1\"]}]}}",
		  "value[0] is not a time" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		  "[{\"metric\":{},\"value\":[1,1]}]}}",
		  "value[1] is not a number" },
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		  "[{\"metric\":{},\"value\":[1,\"0x10\"]}]}}",
		  "value[1] is not a number" },
		{ "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}",
		  "HTTP 200: bad_data: parse error" },
		/* a label value of bytes that are no UTF-8 (what a strict parser
		 * on the page rejected the whole answer for) */
		{ "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		  "[{\"metric\":{\"host\":\"h\xff\xfe\"},\"value\":[1,\"1\"]}]}}",
		  "not JSON in UTF-8" },
	};
	char out[1024];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i].body, out, sizeof(out));

		CHECK_EQ_I64(rc, -EINVAL);
		CHECK(strstr(out, bad[i].want));
		if (!strstr(out, bad[i].want))
			fprintf(stderr, "  %s: %s\n", bad[i].body, out);
	}
	/* an answer as Prometheus 2.45 writes it: kept, less what the page
	 * does not read */
	CHECK_EQ_I64(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
			   "\"result\":[{\"metric\":{\"__name__\":\"wearwatch_drive_present\","
			   "\"drive\":\"d1\",\"instance\":\"h:9786\",\"job\":\"wearwatch\"},"
			   "\"value\":[1700000000.123,\"1\"],\"x\":1},"
			   "{\"metric\":{},\"value\":[1700000000,\"+Inf\"]},"
			   "{\"metric\":{},\"value\":[1,\"-1.5e+06\"]}]},\"warnings\":[]}\n",
			   out, sizeof(out)),
		     0);
	CHECK_STR(out,
		  "[{\"metric\":{\"__name__\":\"wearwatch_drive_present\",\"drive\":\"d1\","
		  "\"instance\":\"h:9786\",\"job\":\"wearwatch\"},\"value\":[1700000000.123,"
		  "\"1\"]},{\"metric\":{},\"value\":[1700000000,\"+Inf\"]},"
		  "{\"metric\":{},\"value\":[1,\"-1.5e+06\"]}]");
	CHECK_EQ_I64(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
			   "\"result\":[]}}",
			   out, sizeof(out)),
		     0);
	CHECK_STR(out, "[]");
	/* UTF-8 that is UTF-8 stays: a host named "hé" */
	CHECK_EQ_I64(
		parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
		      "\"result\":[{\"metric\":{\"host\":\"h\xc3\xa9\"},\"value\":[1,\"1\"]}]}}",
		      out, sizeof(out)),
		0);
	CHECK(strstr(out, "\"host\":\"h\xc3\xa9\"") != NULL);
}

/* a flood of tiny values under the byte limit: refused before json-c
 * builds a value of it */
static void test_answer_limits(void)
{
	const char *head = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
			   "\"result\":[";
	size_t n = WW_FLEET_ANSWER_VALUES + 1, len = strlen(head) + 2 * n + 3;
	char *b = malloc(WW_FLEET_ANSWER_MAX + 2), *res = (char *)1, err[256];

	CHECK(b != NULL);
	if (!b)
		return;
	memcpy(b, head, strlen(head));
	for (size_t i = 0; i < n; i++)
		memcpy(b + strlen(head) + 2 * i, i + 1 < n ? "0," : "0]", 2);
	memcpy(b + len - 3, "}}", 3);
	CHECK_EQ_I64(ww_fleet_answer_parse(b, len - 1, 200, &res, err, sizeof(err)), -E2BIG);
	CHECK(res == NULL);
	CHECK(strstr(err, "more than 1000000 JSON values"));
	memset(b, ' ', WW_FLEET_ANSWER_MAX + 1);
	CHECK_EQ_I64(ww_fleet_answer_parse(b, WW_FLEET_ANSWER_MAX + 1, 200, &res, err, sizeof(err)),
		     -E2BIG);
	CHECK(strstr(err, "answer over 8 MiB (the limit per query)"));
	free(b);
}

/* a loopback "Prometheus" that answers every request with `body`, a label
 * values request with `labels` when set (no Content-Length when `stream`:
 * the size shows only while it is received); it keeps the requests' heads */
#define FAKE_REQS 64
struct fake {
	int fd;
	const char *body, *labels;
	size_t len;
	bool stream;
	unsigned port;
	pthread_t t;
	size_t n_req;
	char *req[FAKE_REQS]; /* request line and headers, malloc'd */
};

static void *fake_serve(void *arg)
{
	struct fake *f = arg;
	int c;

	while ((c = accept(f->fd, NULL, NULL)) >= 0) {
		static char req[65536];
		char head[200];
		size_t got = 0, off = 0;
		const char *body = f->body;
		size_t len = f->len;

		while (got < sizeof(req) - 1) {
			ssize_t r = recv(c, req + got, sizeof(req) - 1 - got, 0);

			if (r <= 0)
				break;
			got += (size_t)r;
			req[got] = 0;
			if (strstr(req, "\r\n\r\n"))
				break;
		}
		req[got] = 0;
		if (f->n_req < FAKE_REQS)
			f->req[f->n_req++] = strdup(req);
		if (f->labels && strstr(req, "GET /api/v1/label/")) {
			body = f->labels;
			len = strlen(body);
		}
		if (f->stream)
			snprintf(head, sizeof(head),
				 "HTTP/1.1 200 OK\r\nContent-Type: "
				 "application/json\r\nConnection: close\r\n\r\n");
		else
			snprintf(head, sizeof(head),
				 "HTTP/1.1 200 OK\r\nContent-Type: "
				 "application/json\r\nContent-Length: %zu\r\nConnection: "
				 "close\r\n\r\n",
				 len);
		if (send(c, head, strlen(head), MSG_NOSIGNAL) > 0)
			while (off < len) {
				ssize_t w = send(c, body + off, len - off, MSG_NOSIGNAL);

				if (w <= 0)
					break;
				off += (size_t)w;
			}
		close(c);
	}
	return NULL;
}

static int fake_start(struct fake *f)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	f->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (f->fd < 0 || bind(f->fd, (struct sockaddr *)&a, sizeof(a)) || listen(f->fd, 16) ||
	    getsockname(f->fd, (struct sockaddr *)&a, &l))
		return -1;
	f->port = ntohs(a.sin_port);
	return pthread_create(&f->t, NULL, fake_serve, f) ? -1 : 0;
}

static void fake_stop(struct fake *f)
{
	shutdown(f->fd, SHUT_RDWR);
	close(f->fd);
	pthread_join(f->t, NULL);
	for (size_t i = 0; i < f->n_req; i++)
		free(f->req[i]);
	f->n_req = 0;
}

/* ww_fleet_fetch against a server answering body: its status and body */
static unsigned fetch_from(const char *body, size_t len, bool stream, char **out)
{
	struct fake fk = { .body = body, .len = len, .stream = stream };
	ww_conf_fleet_t f;
	size_t blen = 0;
	unsigned status = 0;

	*out = NULL;
	if (fake_start(&fk))
		return 0;
	memset(&f, 0, sizeof(f));
	snprintf(f.prometheus, sizeof(f.prometheus), "http://127.0.0.1:%u", fk.port);
	f.timeout_s = 10;
	if (ww_fleet_fetch(&f, 1, out, &blen, &status))
		status = 0;
	fake_stop(&fk);
	return status;
}

static void test_fetch_hostile(void)
{
	const char *ok = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
			 "\"result\":[{\"metric\":{\"drive\":\"d\"},\"value\":[1,\"0\"]}]}}";
	size_t big = WW_FLEET_ANSWER_MAX + (1u << 20);
	char *body, *pad = malloc(big);

	CHECK_EQ_I64(fetch_from("{\"status\":null}", 15, false, &body), 502);
	CHECK(body && strstr(body, "\"errors\":[\"HTTP 200, not a Prometheus API answer"));
	free(body);
	CHECK_EQ_I64(fetch_from(ok, strlen(ok), false, &body), 200);
	CHECK(body &&
	      strstr(body,
		     "\"queries\":{\"drives_total\":[{\"metric\":{\"drive\":\"d\"},"
		     "\"value\":[1,\"0\"]}],\"health_counts\":["));
	CHECK(body && strstr(body, "\"problems\":{\"info\":[{\"metric\""));
	/* the host list is no vector: said, and no page asked */
	CHECK(body &&
	      strstr(body,
		     "\"errors\":[\"hosts: HTTP 200, not a Prometheus label values "
		     "answer (data is not an array)\"]"));
	CHECK(body && !strstr(body, "\"page\":{"));
	free(body);
	CHECK(pad != NULL);
	if (!pad)
		return;
	memset(pad, ' ', big);
	for (int stream = 0; stream < 2; stream++) {
		CHECK_EQ_I64(fetch_from(pad, big, stream, &body), 502);
		CHECK(body &&
		      strstr(body, "\"errors\":[\"answer over 8 MiB (the limit per query)\"]"));
		if (body && !strstr(body, "answer over 8 MiB"))
			fprintf(stderr, "  body: %s\n", body);
		free(body);
	}
	free(pad);
}

/* %XX of a URL decoded in place */
static void url_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		unsigned v;

		if (*s == '%' && sscanf(s + 1, "%2x", &v) == 1) {
			*o++ = (char)v;
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* the host list parsed: sorted, repeats dropped; wrong shapes refused */
static void test_labels(void)
{
	const char *ok = "{\"status\":\"success\",\"data\":[\"b:1\",\"a:1\",\"b:1\"]}";
	char **v = NULL, err[512] = "";
	size_t n = 0;

	CHECK_EQ_I64(ww_fleet_labels_parse(ok, strlen(ok), 200, &v, &n, err, sizeof(err)), 0);
	CHECK_EQ_I64(n, 2);
	CHECK(n == 2 && !strcmp(v[0], "a:1") && !strcmp(v[1], "b:1"));
	ww_fleet_names_free(v, n);
	CHECK_EQ_I64(ww_fleet_labels_parse("{\"status\":\"success\",\"data\":[1]}", 31, 200, &v, &n,
					   err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "data[0] is not a string") && !v);
	CHECK_EQ_I64(ww_fleet_labels_parse("{\"status\":\"success\",\"data\":{}}", 30, 200, &v, &n,
					   err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "data is not an array"));
	CHECK_EQ_I64(ww_fleet_labels_parse("null", 4, 200, &v, &n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "status is not"));
	{
		const char *e =
			"{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"no\"}";

		CHECK_EQ_I64(ww_fleet_labels_parse(e, strlen(e), 400, &v, &n, err, sizeof(err)),
			     -EINVAL);
		CHECK(strstr(err, "HTTP 400: bad_data: no"));
	}
}

/* 120 hosts: page 2 is hosts 51-100 of the sorted list, asked for by name
 * (regex-escaped); no family is asked for the whole fleet; the configured
 * tenant header goes with every request; a page past the end is the last */
static void test_fetch_pages(void)
{
	const char *vec = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
			  "\"result\":[{\"metric\":{\"drive\":\"d\"},\"value\":[1,\"0\"]}]}}";
	struct fake fk = { .body = vec, .len = strlen(vec) };
	char labels[8192], *body = NULL;
	size_t n = 0, blen = 0, fam = 0, page_q = 0;
	unsigned status = 0;
	ww_conf_fleet_t f;

	n = (size_t)snprintf(labels, sizeof(labels), "{\"status\":\"success\",\"data\":[");
	for (int i = 119; i >= 0; i--)
		n += (size_t)snprintf(labels + n, sizeof(labels) - n, "%s\"h%03d.example:9786\"",
				      i == 119 ? "" : ",", i);
	snprintf(labels + n, sizeof(labels) - n, "]}");
	fk.labels = labels;
	if (fake_start(&fk)) {
		CHECK(!"fake Prometheus starts");
		return;
	}
	memset(&f, 0, sizeof(f));
	snprintf(f.prometheus, sizeof(f.prometheus), "http://127.0.0.1:%u/", fk.port);
	snprintf(f.jobs, sizeof(f.jobs), "wearwatch.*");
	snprintf(f.headers[0], sizeof(f.headers[0]), "X-Scope-OrgID: tenant-a");
	f.n_headers = 1;
	f.timeout_s = 10;
	CHECK_EQ_I64(ww_fleet_fetch(&f, 2, &body, &blen, &status), 0);
	CHECK_EQ_I64(status, 200);
	CHECK(body &&
	      strstr(body,
		     "\"hosts_total\":120,\"page\":2,\"pages\":3,"
		     "\"page_hosts\":[\"h050.example:9786\",\"h051.example:9786\""));
	CHECK(body && strstr(body, "\"h099.example:9786\"],") && !strstr(body, "\"h100.example"));
	CHECK(body && strstr(body, "\"page\":{\"info\":[") && strstr(body, "\"errors\":[]"));
	free(body);
	for (size_t i = 0; i < fk.n_req; i++) {
		char *r = fk.req[i], *q = strstr(r, "/api/v1/query?query=");

		CHECK(strstr(r, "\r\nX-Scope-OrgID: tenant-a\r\n") != NULL);
		if (!q)
			continue;
		*strchr(q, ' ') = 0;
		url_decode(q);
		if (strstr(q, "count(") || strstr(q, "count_values("))
			continue;
		if (strstr(q, "up{job=~\"wearwatch.*\"}")) {
			CHECK(strstr(q, "topk(200, ") != NULL);
			continue;
		}
		fam++;
		CHECK(strstr(q, "topk(500, wearwatch_drive_health_status > 0 < 3)") ||
		      strstr(q, "{instance=~\"h050\\\\.example:9786|"));
		if (strstr(q, "{instance=~\"")) {
			page_q++;
			CHECK(strstr(q, "|h099\\\\.example:9786\"}") && !strstr(q, "h100"));
		}
	}
	CHECK_EQ_I64(fam, 20); /* ten families, for the problems and the page */
	CHECK_EQ_I64(page_q, 10);
	fake_stop(&fk);
	/* past the end: the last page (another port, so not the cached page) */
	if (fake_start(&fk))
		return;
	snprintf(f.prometheus, sizeof(f.prometheus), "http://127.0.0.1:%u", fk.port);
	CHECK_EQ_I64(ww_fleet_fetch(&f, 9, &body, &blen, &status), 0);
	CHECK(body && strstr(body, "\"page\":3,\"pages\":3,\"page_hosts\":[\"h100.example:9786\""));
	free(body);
	fake_stop(&fk);
}

int main(void)
{
	ww_conf_fleet_t f;
	char *body = NULL;
	size_t len = 0;
	unsigned status = 0, port = closed_port();

	CHECK(port != 0);
	memset(&f, 0, sizeof(f));
	snprintf(f.prometheus, sizeof(f.prometheus), "http://127.0.0.1:%u", port);
	f.timeout_s = 5;
	CHECK_EQ_I64(ww_fleet_fetch(&f, 1, &body, &len, &status), 0);
	CHECK_EQ_I64(status, 502);
	/* curl_easy_strerror(CURLE_COULDNT_CONNECT), said once */
	CHECK(body && strstr(body, "\"errors\":[\"Couldn't connect to server\"]"));
	CHECK(body && !strstr(body, "info:"));
	if (body && !strstr(body, "\"errors\":[\"Couldn't connect to server\"]"))
		fprintf(stderr, "  body: %s\n", body);
	free(body);
	test_answers();
	test_answer_limits();
	test_fetch_hostile();
	test_labels();
	test_fetch_pages();
	return ww_test_done("test_http_fleet");
}
