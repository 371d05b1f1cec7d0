/* The fleet page's data (ww_fleet_fetch, src/http/fleet.c) when Prometheus
 * is not there: a port on loopback that nothing listens on (bound, then
 * closed). The page shows each error after "Prometheus: " (web/fleet.js), so
 * the one error says what libcurl said, without the name of the query that
 * found it out (it was "info: Couldn't connect to server"). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "wearwatch/http.h"
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
	return ww_test_done("test_http_fleet");
}
