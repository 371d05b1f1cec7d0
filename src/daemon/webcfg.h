/* web.config as Prometheus exporters read it (exporter-toolkit
 * docs/web-configuration.md): the subset wearwatch implements is
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM, relative to the web.config's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...          # bcrypt ($2a$, $2b$, $2y$)
 *
 * Parsed with libyaml (Debian's YAML library; the file is YAML and may use
 * quoting, flow style or comments we should not have to re-implement). Other
 * exporter-toolkit keys (client_auth_type, min_version, http_server_config,
 * ...) are rejected with their line so nobody believes they took effect. */
#ifndef WW_DAEMON_WEBCFG_H
#define WW_DAEMON_WEBCFG_H

#include <stdbool.h>
#include <stddef.h>

#define WW_WEBCFG_MAX_USERS 32

typedef struct ww_webcfg {
	bool tls;
	char cert_file[512], key_file[512];   /* resolved paths */
	char *cert_pem, *key_pem;              /* file contents (malloc'd) */
	size_t n_users;
	struct { char name[64]; char hash[128]; } users[WW_WEBCFG_MAX_USERS];
} ww_webcfg_t;

/** Load `path`: YAML, keys above, then read the certificate and key files.
 * Returns 0, or negative with "path:line: what" in err. A bcrypt hash that is
 * not "$2a$"/"$2b$"/"$2y$" + cost + 53 characters is an error. */
int ww_webcfg_load(ww_webcfg_t *w, const char *path, char *err, size_t errlen);

/** Free the PEM buffers (the struct itself is the caller's). */
void ww_webcfg_clear(ww_webcfg_t *w);

/** Check user/password against basic_auth_users: bcrypt via libxcrypt
 * crypt_r(), compared in constant time. False for unknown users (after a
 * dummy hash, so timing does not tell which users exist). */
bool ww_webcfg_check_user(const ww_webcfg_t *w, const char *user, const char *password);

/** bcrypt of password with the settings (salt, cost) of `hash`, compared with
 * it in constant time: the primitive under ww_webcfg_check_user. */
bool ww_bcrypt_verify(const char *password, const char *hash);

#endif
