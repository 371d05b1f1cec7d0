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

/* a loopback "Prometheus" that answers every request with `body` (no
 * Content-Length when `stream`: the size shows only while it is received) */
struct fake {
	int fd;
	const char *body;
	size_t len;
	bool stream;
	unsigned port;
	pthread_t t;
};

static void *fake_serve(void *arg)
{
	struct fake *f = arg;
	int c;

	while ((c = accept(f->fd, NULL, NULL)) >= 0) {
		char req[4096], head[200];
		ssize_t got = recv(c, req, sizeof(req), 0);
		size_t off = 0;

		(void)got;
		if (f->stream)
			snprintf(head, sizeof(head),
				 "HTTP/1.1 200 OK\r\nContent-Type: "
				 "application/json\r\nConnection: close\r\n\r\n");
		else
			snprintf(head, sizeof(head),
				 "HTTP/1.1 200 OK\r\nContent-Type: "
				 "application/json\r\nContent-Length: %zu\r\nConnection: "
				 "close\r\n\r\n",
				 f->len);
		if (send(c, head, strlen(head), MSG_NOSIGNAL) > 0)
			while (off < f->len) {
				ssize_t w = send(c, f->body + off, f->len - off, MSG_NOSIGNAL);

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
	if (ww_fleet_fetch(&f, out, &blen, &status))
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
		     "\"queries\":{\"info\":[{\"metric\":{\"drive\":\"d\"},"
		     "\"value\":[1,\"0\"]}],\"health\":["));
	CHECK(body && strstr(body, "\"errors\":[]"));
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
	CHECK_EQ_I64(ww_fleet_fetch(&f, &body, &len, &status), 0);
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
	return ww_test_done("test_http_fleet");
}
