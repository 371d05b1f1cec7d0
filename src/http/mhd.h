/* libmicrohttpd through a table of its functions, loaded when a web front
 * first starts (private to src/http/).
 *
 * Linked, libmicrohttpd brought GnuTLS and the seven libraries behind it
 * (nettle, hogweed, gmp, p11-kit, libffi, tasn1, idn2, unistring) into every
 * wearwatch process: the network-less collector and the one-shot commands
 * mapped and relocated them, about 2.4 MiB resident, for a server they never
 * start. Only `serve` and `web` (ww_webfront_open) load it now.
 * Every call of the library in src/http/ goes through ww_mhd. */
#ifndef WW_HTTP_MHD_H
#define WW_HTTP_MHD_H

#include <stddef.h>

#include <gnutls/crypto.h>
#include <microhttpd.h>

/* Debian's libmicrohttpd12 (debian/control Depends): the soname whose
 * header the build compiled against */
#define WW_MHD_SONAME "libmicrohttpd.so.12"

/* not formatted: one function of the library a line */
/* clang-format off */
#define WW_MHD_FUNCTIONS(X)                                 \
	X(start_daemon)                                     \
	X(stop_daemon)                                      \
	X(quiesce_daemon)                                   \
	X(is_feature_supported)                             \
	X(get_connection_info)                              \
	X(lookup_connection_value)                          \
	X(get_connection_values)                            \
	X(basic_auth_get_username_password)                 \
	X(free)                                             \
	X(suspend_connection)                               \
	X(resume_connection)                                \
	X(create_response_from_buffer)                      \
	X(create_response_from_buffer_with_free_callback_cls) \
	X(add_response_header)                              \
	X(queue_response)                                   \
	X(queue_basic_auth_fail_response)                   \
	X(destroy_response)
/* clang-format on */

/* the library's own prototypes (microhttpd.h), as pointers */
struct ww_mhd {
#define WW_MHD_POINTER(name) __typeof__(MHD_##name) *name;
	WW_MHD_FUNCTIONS(WW_MHD_POINTER)
#undef WW_MHD_POINTER
};

/** The loaded functions; valid after ww_mhd_load() returned 0. */
extern struct ww_mhd ww_mhd;

/** Load WW_MHD_SONAME and every function of WW_MHD_FUNCTIONS, once per
 * process (thread-safe). 0, or -ELIBACC with err (NULL: none) set to
 * dlerror()'s reason (every later call answers the same). */
int ww_mhd_load(char *err, size_t errlen);

/** Times the library was opened in this process: 0 or 1 (tests). */
unsigned ww_mhd_loads(void);

/* GnuTLS, which Debian's libmicrohttpd12 links: mapped in `serve` and `web`
 * once their front starts, so the login cache's HMAC (guard.c) is taken
 * from it rather than from a crypto library of its own (libcrypto was
 * 1.4 MiB resident there for that one HMAC). Loaded by name like
 * libmicrohttpd, never linked, so the collector maps neither. */
#define WW_GNUTLS_SONAME "libgnutls.so.30"

/* the library's own prototypes (gnutls/crypto.h), as pointers */
struct ww_gnutls {
	__typeof__(gnutls_hmac_fast) *hmac_fast;
};

/** The loaded functions; valid after ww_gnutls_load() returned 0. */
extern struct ww_gnutls ww_gnutls;

/** Load WW_GNUTLS_SONAME's functions once per process (thread-safe; where
 * libmicrohttpd is loaded it is mapped already). 0, or -ELIBACC with err
 * (NULL: none) set to dlerror()'s reason. */
int ww_gnutls_load(char *err, size_t errlen);

#endif
