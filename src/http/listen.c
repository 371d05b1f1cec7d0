/* Listen addresses: parsing and binding (see http.h). The server itself is
 * webfront.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/http.h"

static int bind_one(int family, const struct sockaddr *sa, socklen_t len, bool dual)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, zero = 0, err;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, dual ? &zero : &one, sizeof(int));
	/* a long backlog: connections are accepted fast and limits applied
	 * after accept, so a burst of other clients' connects must not fill it */
	if (bind(fd, sa, len) < 0 || listen(fd, 511) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int open_listener(const char *host, uint16_t port);

int ww_http_bind_listen(const char *spec)
{
	char host[256];
	uint16_t port;

	if (ww_conf_parse_listen(spec, host, sizeof(host), &port))
		return -EINVAL;
	return open_listener(host, port);
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
