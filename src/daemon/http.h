/* Listen addresses of the HTTP front end (webfront.h serves on them). */
#ifndef WW_DAEMON_HTTP_H
#define WW_DAEMON_HTTP_H

#include <stddef.h>
#include <stdint.h>

#define WW_HTTP_DEFAULT_PORT 9786

/** Split a listen address: "[::]:9786", ":9786", "0.0.0.0:9786",
 * "127.0.0.1:9786", "host:port" or a bare "9786". host receives "" for all
 * addresses (also for "[::]", which binds dual-stack), without brackets.
 * Returns 0 or -EINVAL. */
int ww_http_parse_listen(const char *spec, char *host, size_t hlen, uint16_t *port);

/** Bind and listen on `spec` (see above; port 0 = ephemeral). All
 * addresses ("" / "[::]") means one dual-stack IPv6 socket, or IPv4 only
 * where IPv6 is unavailable. Returns the socket or -errno. */
int ww_http_bind_listen(const char *spec);

#endif
