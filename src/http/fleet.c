/* The fleet page's data from Prometheus (see http.h, ww_fleet_fetch). The web
 * side asks Prometheus' HTTP API (GET /api/v1/query, instant queries) for a
 * fixed list of queries below; nothing the browser sends reaches Prometheus,
 * so the page cannot be used to run arbitrary PromQL with the configured
 * credentials. The collector has no network: only `web` and `serve` do this.
 * HTTP client: libcurl, loaded on first use. JSON: json-c. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "wearwatch/http.h"
#include "wearwatch/basic.h"
#include "http/fleet_answer.h"

/* The page's queries: raw wearwatch series (the page works without the
 * recording rules loaded), folded only where a drive has several series. The
 * page joins them on (instance, job, drive) and shows the values as they are:
 * the verdict is wearwatch_drive_health_status, never recomputed. */
static const struct {
	const char *name, *promql;
} queries[] = {
	{ "info", "wearwatch_drive_info" },
	{ "health", "wearwatch_drive_health_status" },
	{ "reasons", "wearwatch_drive_health_reason" },
	{ "rated_used", "max without (source) (wearwatch_drive_rated_endurance_used_ratio)" },
	{ "own_used", "max without (source) (wearwatch_drive_endurance_used_ratio)" },
	{ "wearout", "min without (basis) (wearwatch_drive_wearout_timestamp_seconds)" },
	{ "warranty_end", "wearwatch_drive_warranty_end_timestamp_seconds" },
	{ "temperature", "wearwatch_drive_temperature_celsius" },
	{ "present", "wearwatch_drive_present" },
};

#define CACHE_S 10 /* answers are reused this long: tabs refreshing share them */

/* an answer as it is received, refused once over WW_FLEET_ANSWER_MAX (a
 * Content-Length over it is refused before: CURLOPT_MAXFILESIZE_LARGE) */
struct buf {
	char *p;
	size_t len, cap;
	bool over;
};

static size_t on_data(char *d, size_t size, size_t n, void *ctx)
{
	struct buf *b = ctx;
	size_t add = size * n;

	if (add > WW_FLEET_ANSWER_MAX - b->len) {
		b->over = true;
		return 0;
	}
	if (b->len + add > b->cap) {
		size_t cap = b->cap ? b->cap : 16384;
		char *p;

		while (cap < b->len + add)
			cap *= 2;
		if (!(p = realloc(b->p, cap)))
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, d, add);
	b->len += add;
	return add;
}

/* first line of a secret file, without its newline; 0 or -errno */
static int read_secret(const char *path, char *out, size_t len)
{
	FILE *f = ww_fopen_regular(path);
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(out, (int)len, f))
		rc = -EINVAL;
	fclose(f);
	out[strcspn(out, "\r\n")] = 0;
	return rc;
}

/* libcurl is loaded when the fleet page first asks Prometheus, not linked:
 * linked, it mapped libcurl and the twenty libraries behind it (Kerberos,
 * LDAP, SSH, RTMP, HTTP/2, ...) into every wearwatch process, the collector
 * included, about 2 MB resident, for a page most hosts never configure. */
static struct {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *h, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *h);
	CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *h);
	const char *(*easy_strerror)(CURLcode cc);
	char *(*easy_escape)(CURL *h, const char *s, int len);
	void (*free)(void *p);
} cu;
static bool cu_loaded;

static void curl_init_once(void)
{
	void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	struct { void **fn; const char *name; } sym[] = {
		{ (void **)&cu.global_init, "curl_global_init" },
		{ (void **)&cu.easy_init, "curl_easy_init" },
		{ (void **)&cu.easy_setopt, "curl_easy_setopt" },
		{ (void **)&cu.easy_perform, "curl_easy_perform" },
		{ (void **)&cu.easy_getinfo, "curl_easy_getinfo" },
		{ (void **)&cu.easy_cleanup, "curl_easy_cleanup" },
		{ (void **)&cu.easy_strerror, "curl_easy_strerror" },
		{ (void **)&cu.easy_escape, "curl_easy_escape" },
		{ (void **)&cu.free, "curl_free" },
	};

	if (!lib)
		return;
	for (size_t i = 0; i < sizeof(sym) / sizeof(sym[0]); i++)
		if (!(*sym[i].fn = dlsym(lib, sym[i].name)))
			return;
	cu_loaded = cu.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

/* credentials and transport options of [fleet]; 0, or -errno with err set */
static int setup(CURL *h, const ww_conf_fleet_t *f, char *secret, size_t slen, char *err,
		 size_t errlen)
{
	int rc;

	cu.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	cu.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	cu.easy_setopt(h, CURLOPT_TIMEOUT, (long)(f->timeout_s ? f->timeout_s : 10));
	cu.easy_setopt(h, CURLOPT_USERAGENT, "wearwatch-fleet");
	cu.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)WW_FLEET_ANSWER_MAX);
	if (f->ca_file[0])
		cu.easy_setopt(h, CURLOPT_CAINFO, f->ca_file);
	if (f->bearer_token_file[0]) {
		if ((rc = read_secret(f->bearer_token_file, secret, slen))) {
			snprintf(err, errlen, "bearer_token_file %s: %s", f->bearer_token_file,
				 strerror(-rc));
			return rc;
		}
		cu.easy_setopt(h, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
		cu.easy_setopt(h, CURLOPT_XOAUTH2_BEARER, secret);
	} else if (f->user[0]) {
		secret[0] = 0;
		if (f->password_file[0] && (rc = read_secret(f->password_file, secret, slen))) {
			snprintf(err, errlen, "basic_auth_password_file %s: %s", f->password_file,
				 strerror(-rc));
			return rc;
		}
		cu.easy_setopt(h, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
		cu.easy_setopt(h, CURLOPT_USERNAME, f->user);
		cu.easy_setopt(h, CURLOPT_PASSWORD, secret);
	}
	return 0;
}

/* one instant query: its checked data.result array as JSON text
 * (malloc'd), or NULL with err set */
static char *query(CURL *h, const char *base, const char *promql, char *err, size_t errlen)
{
	char *q = cu.easy_escape(h, promql, 0), *url = NULL, *res = NULL;
	struct buf b = { 0 };
	long code = 0;
	CURLcode cc;

	if (!q || asprintf(&url, "%s/api/v1/query?query=%s", base, q) < 0) {
		cu.free(q);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	cu.free(q);
	cu.easy_setopt(h, CURLOPT_URL, url);
	cu.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	cu.easy_setopt(h, CURLOPT_WRITEDATA, &b);
	cc = cu.easy_perform(h);
	free(url);
	cu.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (b.over || cc == CURLE_FILESIZE_EXCEEDED)
		snprintf(err, errlen, "answer over %u MiB (the limit per query)",
			 WW_FLEET_ANSWER_MAX >> 20);
	else if (cc != CURLE_OK)
		snprintf(err, errlen, "%s", cu.easy_strerror(cc));
	else
		ww_fleet_answer_parse(b.p ? b.p : "", b.len, code, &res, err, errlen);
	free(b.p);
	return res;
}

/* the configured URL without a user:password@ part and trailing slashes */
static void base_url(const char *url, char *out, size_t len, bool strip_userinfo)
{
	const char *host = strstr(url, "://"), *at, *slash;
	size_t n;

	host = host ? host + 3 : url;
	slash = strchr(host, '/');
	at = strchr(host, '@');
	if (strip_userinfo && at && (!slash || at < slash))
		snprintf(out, len, "%.*s%s", (int)(host - url), url, at + 1);
	else
		snprintf(out, len, "%s", url);
	n = strlen(out);
	while (n > 8 && out[n - 1] == '/')
		out[--n] = 0;
}

#define NQUERIES (sizeof(queries) / sizeof(queries[0]))

/* the page's body: o (configured, prometheus, time, errors) with "queries"
 * spliced in from the answers' texts (NULL: not answered), malloc'd or NULL */
static char *join_body(json_object *o, char *const text[NQUERIES])
{
	const char *head = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	size_t len = 0, n = 0;
	char *b = NULL;
	FILE *m = open_memstream(&b, &len);

	if (!m)
		return NULL;
	fprintf(m, "%.*s,\"queries\":{", (int)(strlen(head) - 1), head);
	for (size_t i = 0; i < NQUERIES; i++)
		if (text[i])
			fprintf(m, "%s\"%s\":%s", n++ ? "," : "", queries[i].name, text[i]);
	fputs("}}", m);
	if (fclose(m)) {
		free(b);
		return NULL;
	}
	return b;
}

/* every query in turn; each answer is checked and kept as text before the
 * next is asked, so one parsed answer is in memory at a time */
static char *fetch_all(const ww_conf_fleet_t *f, unsigned *status)
{
	json_object *o = json_object_new_object(), *errs = json_object_new_array();
	char base[sizeof(f->prometheus)], shown[sizeof(f->prometheus)], secret[4096], err[512];
	char *text[NQUERIES] = { 0 }, *body;
	size_t ok = 0, n = NQUERIES;
	CURL *h = cu_loaded ? cu.easy_init() : NULL;

	base_url(f->prometheus, base, sizeof(base), false);
	base_url(f->prometheus, shown, sizeof(shown), true);
	json_object_object_add(o, "configured", json_object_new_boolean(1));
	json_object_object_add(o, "prometheus", json_object_new_string(shown));
	json_object_object_add(o, "time", json_object_new_int64((int64_t)ww_clock_wall(NULL)));
	if (!h || setup(h, f, secret, sizeof(secret), err, sizeof(err))) {
		json_object_array_add(errs,
				      json_object_new_string(h ? err : cu_loaded ? "cannot start "
							     "libcurl" : "libcurl.so.4 (Debian's "
							     "libcurl4) cannot be loaded"));
		n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		char line[700];

		if ((text[i] = query(h, base, queries[i].promql, err, sizeof(err)))) {
			ok++;
			continue;
		}
		/* the first failed: Prometheus is not there, said once and
		 * without the query's name (it means nothing to the reader) */
		if (i == 0)
			snprintf(line, sizeof(line), "%s", err);
		else
			snprintf(line, sizeof(line), "%s: %s", queries[i].name, err);
		json_object_array_add(errs, json_object_new_string(line));
		if (i == 0)
			break;
	}
	explicit_bzero(secret, sizeof(secret));
	if (h)
		cu.easy_cleanup(h);
	json_object_object_add(o, "errors", errs);
	*status = ok ? 200 : 502;
	if (!ok)
		ww_log(WW_LOG_WARNING, "fleet: %s: %s", shown,
		       json_object_get_string(json_object_array_get_idx(errs, 0)));
	body = join_body(o, text);
	json_object_put(o);
	for (size_t i = 0; i < NQUERIES; i++)
		free(text[i]);
	return body;
}

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char key[1600];   /* the [fleet] settings the answer was made with */
	time_t at;
	unsigned status;
	char *body;
} cache;

int ww_fleet_fetch(const ww_conf_fleet_t *f, char **body, size_t *len, unsigned *status)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	char key[sizeof(cache.key)];
	time_t now = ww_clock_wall(NULL);
	json_object *o;
	char *b;

	*body = NULL;
	if (!f->prometheus[0]) {
		o = json_object_new_object();
		json_object_object_add(o, "configured", json_object_new_boolean(0));
		b = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		*status = 200;
		goto out;
	}
	snprintf(key, sizeof(key), "%s\n%s\n%s\n%s\n%s\n%u", f->prometheus, f->user,
		 f->password_file, f->bearer_token_file, f->ca_file, f->timeout_s);
	pthread_mutex_lock(&cache_lock);
	b = cache.body && !strcmp(cache.key, key) && now - cache.at < CACHE_S ?
	    strdup(cache.body) : NULL;
	*status = cache.status;
	pthread_mutex_unlock(&cache_lock);
	if (b)
		goto out;
	pthread_once(&once, curl_init_once);
	b = fetch_all(f, status);
	pthread_mutex_lock(&cache_lock);
	free(cache.body);
	cache.body = b ? strdup(b) : NULL;
	snprintf(cache.key, sizeof(cache.key), "%s", key);
	cache.at = now;
	cache.status = *status;
	pthread_mutex_unlock(&cache_lock);
out:
	if (!b)
		return -ENOMEM;
	*body = b;
	*len = strlen(b);
	return 0;
}
