/* web.config reader and basic-auth check (see webcfg.h). */
#include <crypt.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "wearwatch/basic.h"
#include "wearwatch/conf.h"

/* a valid hash of an unguessable password, to spend the same time on
 * unknown user names */
static const char dummy_hash[] = "$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";

bool ww_bcrypt_verify(const char *password, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *out;
	size_t n = strlen(hash);
	unsigned char diff = 0;
	bool ok = false;

	if (!cd)
		return false;
	out = crypt_r(password, hash, cd);
	/* libxcrypt returns "*0"/"*1" (or NULL) on a bad setting */
	if (out && out[0] == '$' && strlen(out) == n) {
		for (size_t i = 0; i < n; i++)
			diff |= (unsigned char)(out[i] ^ hash[i]);
		ok = diff == 0;
	}
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	return ok;
}

bool ww_webcfg_check_user(const ww_webcfg_t *w, const char *user, const char *password)
{
	for (size_t i = 0; i < w->n_users; i++)
		if (!strcmp(w->users[i].name, user))
			return ww_bcrypt_verify(password, w->users[i].hash);
	ww_bcrypt_verify(password, dummy_hash);
	return false;
}

static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* A bcrypt hash libxcrypt can check, else why not (into why): "$2a$",
 * "$2b$" or "$2y$", cost 04-31, "$", 22 salt and 31 hash characters of
 * bcrypt's base64 (OpenBSD bcrypt format). The last character of each
 * carries only 2 and 4 bits: any other letter there is normalised by
 * crypt() into another string, so the stored hash could never compare
 * equal and every login would fail, as with a cost outside 04-31 or a bad
 * salt, which crypt() refuses ("*0"). */
static int bcrypt_check(const char *h, char *why, size_t len)
{
	unsigned cost;
	const char *salt = h + 7, *sum = h + 29;

	if (strlen(h) != 60 || strncmp(h, "$2", 2) || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[6] != '$' || h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9') {
		snprintf(why, len, "expected a bcrypt hash ($2y$10$ + 53 characters)");
		return -EINVAL;
	}
	cost = (unsigned)(h[4] - '0') * 10 + (unsigned)(h[5] - '0');
	if (cost < 4 || cost > 31) {
		snprintf(why, len, "bcrypt cost %02u outside 04-31", cost);
		return -EINVAL;
	}
	for (size_t i = 0; i < 53; i++)
		if (!strchr(b64, salt[i]) || !salt[i]) {
			snprintf(why, len, "'%c' at %zu is not a bcrypt base64 character "
				 "(./A-Za-z0-9)", salt[i], 7 + i);
			return -EINVAL;
		}
	if (!strchr(".Oeu", salt[21])) {
		snprintf(why, len, "bcrypt salt ends in '%c': only . O e u encode its last 2 bits",
			 salt[21]);
		return -EINVAL;
	}
	if ((strchr(b64, sum[30]) - b64) % 4) {
		snprintf(why, len, "bcrypt hash ends in '%c', which bcrypt never writes", sum[30]);
		return -EINVAL;
	}
	return 0;
}

static char *read_file(const char *path, int *rc)
{
	FILE *f = ww_fopen_regular(path);
	char *b = NULL;
	size_t len = 0, cap = 0, n;
	struct stat sb;

	if (!f) {
		*rc = -errno;
		return NULL;
	}
	if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
		fclose(f);
		*rc = S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL;
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *nb = cap > (1u << 20) ? NULL : realloc(b, cap + 8192);

			if (!nb) {
				free(b);
				fclose(f);
				*rc = -EFBIG;
				return NULL;
			}
			b = nb;
			cap += 8192;
		}
		n = fread(b + len, 1, cap - len - 1, f);
		len += n;
		if (!n)
			break;
	}
	fclose(f);
	b[len] = 0;
	*rc = 0;
	return b;
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static void resolve(char *dst, size_t len, const char *dir, const char *file)
{
	if (file[0] == '/')
		snprintf(dst, len, "%s", file);
	else
		snprintf(dst, len, "%s/%s", dir, file);
}

/* "path:line: what" into err for the YAML node, and return -EINVAL */
#define FAIL_RET(node, ...) do { \
	int l_ = snprintf(err, errlen, "%s:%lu: ", path, \
			  (unsigned long)((node) ? (node)->start_mark.line + 1 : 1)); \
	snprintf(err + l_, errlen - (size_t)l_, __VA_ARGS__); \
	return -EINVAL; } while (0)

/* tls_server_config: cert_file and key_file, relative to dir */
static int tls_section(yaml_document_t *doc, yaml_node_t *v, ww_webcfg_t *w, const char *dir,
		       const char *path, char *err, size_t errlen)
{
	for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top;
	     q++) {
		yaml_node_t *k2 = yaml_document_get_node(doc, q->key);
		const char *k2s = scalar(k2);
		const char *v2 = scalar(yaml_document_get_node(doc, q->value));

		if (!k2s || !v2 || !*v2)
			FAIL_RET(k2, "tls_server_config: expected key: value");
		if (!strcmp(k2s, "cert_file"))
			resolve(w->cert_file, sizeof(w->cert_file), dir, v2);
		else if (!strcmp(k2s, "key_file"))
			resolve(w->key_file, sizeof(w->key_file), dir, v2);
		else
			FAIL_RET(k2, "tls_server_config: '%s' is not supported by wearwatch", k2s);
	}
	if (!w->cert_file[0] || !w->key_file[0])
		FAIL_RET(v, "tls_server_config needs cert_file and key_file");
	w->tls = true;
	return 0;
}

/* basic_auth_users: user: bcrypt hash */
static int users_section(yaml_document_t *doc, yaml_node_t *v, ww_webcfg_t *w,
			 const char *path, char *err, size_t errlen)
{
	char why[160];

	for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top;
	     q++) {
		yaml_node_t *k2 = yaml_document_get_node(doc, q->key);
		const char *user = scalar(k2);
		const char *hash = scalar(yaml_document_get_node(doc, q->value));

		if (!user || !*user || strchr(user, ':') || strlen(user) >= 64)
			FAIL_RET(k2, "basic_auth_users: bad user name");
		if (!hash)
			FAIL_RET(k2, "basic_auth_users: %s: expected a bcrypt hash ($2y$...)", user);
		if (bcrypt_check(hash, why, sizeof(why)))
			FAIL_RET(k2, "basic_auth_users: %s: %s", user, why);
		if (w->n_users >= WW_WEBCFG_MAX_USERS)
			FAIL_RET(k2, "more than %d users", WW_WEBCFG_MAX_USERS);
		snprintf(w->users[w->n_users].name, 64, "%s", user);
		snprintf(w->users[w->n_users].hash, 128, "%s", hash);
		w->n_users++;
	}
	return 0;
}

/* the top-level mapping of a loaded document */
static int top_level(yaml_document_t *doc, ww_webcfg_t *w, const char *dir, const char *path,
		     char *err, size_t errlen)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	int rc = 0;

	if (!root)
		return 0; /* empty file: plain HTTP, no auth */
	if (root->type != YAML_MAPPING_NODE)
		FAIL_RET(root, "expected a mapping at the top");
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
	     !rc && p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		const char *key = scalar(k);

		if (!key)
			FAIL_RET(k, "expected a key");
		if (v && v->type == YAML_SCALAR_NODE && !*scalar(v))
			continue; /* "basic_auth_users:" with nothing under it */
		if (!v || v->type != YAML_MAPPING_NODE)
			FAIL_RET(v, "%s: expected a mapping", key);
		if (!strcmp(key, "tls_server_config"))
			rc = tls_section(doc, v, w, dir, path, err, errlen);
		else if (!strcmp(key, "basic_auth_users"))
			rc = users_section(doc, v, w, path, err, errlen);
		else
			FAIL_RET(k, "'%s' is not supported by wearwatch (tls_server_config, "
				 "basic_auth_users)", key);
	}
	return rc;
}

int ww_webcfg_load(ww_webcfg_t *w, const char *path, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	char dirbuf[512], *dir;
	struct stat sb;
	FILE *f;
	int rc = 0;
	bool have_doc = false;

	memset(w, 0, sizeof(*w));
	f = ww_fopen_regular(path);
	if (!f && (errno == EISDIR || errno == EINVAL)) {
		snprintf(err, errlen, "%s: %s, expected the web.config file", path,
			 errno == EISDIR ? "a directory" : "not a regular file");
		return -EINVAL;
	}
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
		fclose(f);
		snprintf(err, errlen, "%s: %s, expected the web.config file", path,
			 S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return -EINVAL;
	}
	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	dir = dirname(dirbuf);
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s:%lu: %s", path, (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "YAML error");
		rc = -EINVAL;
		goto out;
	}
	have_doc = true;
	rc = top_level(&doc, w, dir, path, err, errlen);
	if (!rc && w->tls) {
		if (!(w->cert_pem = read_file(w->cert_file, &rc))) {
			snprintf(err, errlen, "%s: cert_file %s: %s", path, w->cert_file, strerror(-rc));
			goto out;
		}
		if (!(w->key_pem = read_file(w->key_file, &rc))) {
			snprintf(err, errlen, "%s: key_file %s: %s", path, w->key_file, strerror(-rc));
			goto out;
		}
	}
out:
	if (have_doc)
		yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
	if (rc)
		ww_webcfg_clear(w);
	return rc;
}

void ww_webcfg_clear(ww_webcfg_t *w)
{
	if (w->key_pem)
		explicit_bzero(w->key_pem, strlen(w->key_pem));
	free(w->cert_pem);
	free(w->key_pem);
	w->cert_pem = w->key_pem = NULL;
}
