/* Listen address syntax (see conf.h); binding is src/http/listen.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/conf.h"

int ww_conf_parse_listen(const char *spec, char *host, size_t hlen, uint16_t *port)
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
