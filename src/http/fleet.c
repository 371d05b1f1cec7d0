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
 * the verdict is wearwatch_drive_health_status, never recomputed.
 *
 * Every answer is bounded whatever the fleet's size: the drives are asked
 * for in two sets, never all at once. The problem set is the drives that
 * need a look (the verdict warning or critical, most severe first, up to
 * PROBLEMS_MAX) and those first in endurance used and in projected wear-out
 * (TOP_MAX each); the page set is the drives of one page of hosts
 * (HOSTS_PAGE instance names of the sorted list Prometheus gives for
 * wearwatch_drive_info). Each family below is asked once per set, its
 * selector (%s) narrowed to the page's hosts or joined with the problem
 * set. */
#define PROBLEMS_MAX 500
#define TOP_MAX 50
#define DOWN_MAX 200
#define HOSTS_PAGE 50

static const struct {
	const char *name, *promql;
} families[] = {
	{ "info", "wearwatch_drive_info%s" },
	{ "health", "wearwatch_drive_health_status%s" },
	{ "reasons", "wearwatch_drive_health_reason%s" },
	{ "reason_values", "wearwatch_drive_health_reason_value%s" },
	{ "rated_used", "max without (source) (wearwatch_drive_rated_endurance_used_ratio%s)" },
	{ "own_used", "max without (source) (wearwatch_drive_endurance_used_ratio%s)" },
	{ "wearout", "min without (basis) (wearwatch_drive_wearout_timestamp_seconds%s)" },
	{ "warranty_end", "wearwatch_drive_warranty_end_timestamp_seconds%s" },
	{ "temperature", "wearwatch_drive_temperature_celsius%s" },
	{ "present", "wearwatch_drive_present%s" },
};
#define NFAM (sizeof(families) / sizeof(families[0]))

#define STR(x) #x
#define XSTR(x) STR(x)
static const char problem_set[] = "(topk(" XSTR(
	PROBLEMS_MAX) ", wearwatch_drive_health_status > 0 < 3)"
		      " or topk(" XSTR(
			      TOP_MAX) ", max without (source) "
				       "(wearwatch_drive_rated_endurance_used_ratio))"
				       " or topk(" XSTR(
					       TOP_MAX) ", max without (source) (wearwatch_drive_endurance_used_ratio))"
							" or bottomk(" XSTR(
								TOP_MAX) ", min without (basis) "
									 "(wearwatch_drive_wearout_timestamp_seconds)))";

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
	struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
	void (*slist_free_all)(struct curl_slist *l);
} cu;
static bool cu_loaded;

static void curl_init_once(void)
{
	void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	struct {
		void **fn;
		const char *name;
	} sym[] = {
		{ (void **)&cu.global_init, "curl_global_init" },
		{ (void **)&cu.easy_init, "curl_easy_init" },
		{ (void **)&cu.easy_setopt, "curl_easy_setopt" },
		{ (void **)&cu.easy_perform, "curl_easy_perform" },
		{ (void **)&cu.easy_getinfo, "curl_easy_getinfo" },
		{ (void **)&cu.easy_cleanup, "curl_easy_cleanup" },
		{ (void **)&cu.easy_strerror, "curl_easy_strerror" },
		{ (void **)&cu.easy_escape, "curl_easy_escape" },
		{ (void **)&cu.free, "curl_free" },
		{ (void **)&cu.slist_append, "curl_slist_append" },
		{ (void **)&cu.slist_free_all, "curl_slist_free_all" },
	};

	if (!lib)
		return;
	for (size_t i = 0; i < sizeof(sym) / sizeof(sym[0]); i++)
		if (!(*sym[i].fn = dlsym(lib, sym[i].name)))
			return;
	cu_loaded = cu.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

/* credentials, headers and transport options of [fleet]; 0, or -errno with
 * err set; *hdrs (to free) the header list */
static int setup(CURL *h, const ww_conf_fleet_t *f, char *secret, size_t slen,
		 struct curl_slist **hdrs, char *err, size_t errlen)
{
	int rc;

	cu.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	cu.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	cu.easy_setopt(h, CURLOPT_TIMEOUT, (long)(f->timeout_s ? f->timeout_s : 10));
	cu.easy_setopt(h, CURLOPT_USERAGENT, "wearwatch-fleet");
	cu.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)WW_FLEET_ANSWER_MAX);
	/* Prometheus answers large vectors gzip'd when asked */
	cu.easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	for (unsigned i = 0; i < f->n_headers && i < WW_FLEET_MAX_HEADERS; i++) {
		struct curl_slist *l = cu.slist_append(*hdrs, f->headers[i]);

		if (!l) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		*hdrs = l;
	}
	if (*hdrs)
		cu.easy_setopt(h, CURLOPT_HTTPHEADER, *hdrs);
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

/* GET base + path + escaped(arg): the answer's bytes in b and the HTTP code,
 * or false with err set */
static bool get(CURL *h, const char *base, const char *path, const char *arg, struct buf *b,
		long *code, char *err, size_t errlen)
{
	char *q = cu.easy_escape(h, arg, 0), *url = NULL;
	CURLcode cc;

	*code = 0;
	if (!q || asprintf(&url, "%s%s%s", base, path, q) < 0) {
		cu.free(q);
		snprintf(err, errlen, "out of memory");
		return false;
	}
	cu.free(q);
	cu.easy_setopt(h, CURLOPT_URL, url);
	cu.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	cu.easy_setopt(h, CURLOPT_WRITEDATA, b);
	cc = cu.easy_perform(h);
	free(url);
	cu.easy_getinfo(h, CURLINFO_RESPONSE_CODE, code);
	if (b->over || cc == CURLE_FILESIZE_EXCEEDED)
		snprintf(err, errlen, "answer over %u MiB (the limit per query)",
			 WW_FLEET_ANSWER_MAX >> 20);
	else if (cc != CURLE_OK)
		snprintf(err, errlen, "%s", cu.easy_strerror(cc));
	else
		return true;
	return false;
}

/* one instant query: its checked data.result array as JSON text
 * (malloc'd), or NULL with err set */
static char *query(CURL *h, const char *base, const char *promql, char *err, size_t errlen)
{
	struct buf b = { 0 };
	char *res = NULL;
	long code;

	if (get(h, base, "/api/v1/query?query=", promql, &b, &code, err, errlen))
		ww_fleet_answer_parse(b.p ? b.p : "", b.len, code, &res, err, errlen);
	free(b.p);
	return res;
}

/* the instance names of wearwatch's targets, sorted: 0 or -1 with err set */
static int hosts(CURL *h, const char *base, char ***names, size_t *n, char *err, size_t errlen)
{
	struct buf b = { 0 };
	long code;
	int rc = -1;

	if (get(h, base, "/api/v1/label/instance/values?match[]=", "wearwatch_drive_info", &b,
		&code, err, errlen))
		rc = ww_fleet_labels_parse(b.p ? b.p : "", b.len, code, names, n, err, errlen) ? -1
											       : 0;
	free(b.p);
	return rc;
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

/* s as the body of a PromQL double-quoted string (backslash and quote
 * escaped; the names come from Prometheus, the regex from the file: neither
 * can end the string), regex metacharacters escaped too when `re` */
static void promql_str(FILE *m, const char *s, bool re)
{
	for (; *s; s++) {
		if (re && strchr(".+*?()|[]{}^$\\", *s))
			fputs("\\\\", m);
		if (*s == '\\' || *s == '"')
			fputc('\\', m);
		if ((unsigned char)*s < 0x20)
			fprintf(m, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, m);
	}
}

/* a malloc'd string built by fn on a memory stream, or NULL */
#define MEMSTR(var, stmts)                                                                         \
	do {                                                                                       \
		size_t len_ = 0;                                                                   \
		FILE *m = open_memstream(&(var), &len_);                                           \
		if (!m) {                                                                          \
			(var) = NULL;                                                              \
			break;                                                                     \
		}                                                                                  \
		stmts;                                                                             \
		if (fclose(m)) {                                                                   \
			free(var);                                                                 \
			(var) = NULL;                                                              \
		}                                                                                  \
	} while (0)

/* the answers of one page: the JSON parts spliced into the body */
struct answers {
	json_object *errs;
	size_t asked, ok;
	FILE *out; /* the body being written */
	const char *base;
	CURL *h;
	bool dead; /* the first query failed: Prometheus is not there */
};

/* ask promql; write `"name":ANSWER` (with a comma before unless first) to
 * the body, or record the error and write nothing */
static void ask(struct answers *a, const char *name, const char *promql, bool *first)
{
	char err[512], line[700], *res;

	if (a->dead || !promql)
		return;
	res = query(a->h, a->base, promql, err, sizeof(err));
	a->asked++;
	if (res) {
		fprintf(a->out, "%s\"%s\":%s", *first ? "" : ",", name, res);
		*first = false;
		a->ok++;
		free(res);
		return;
	}
	/* the first failed: Prometheus is not there, said once and without
	 * the query's name (it means nothing to the reader) */
	if (a->asked == 1) {
		snprintf(line, sizeof(line), "%s", err);
		a->dead = true;
	} else {
		snprintf(line, sizeof(line), "%s: %s", name, err);
	}
	json_object_array_add(a->errs, json_object_new_string(line));
}

/* every family for one set of drives: the selector sel inside each family,
 * and `and on (...) join` after it when join is set */
static void ask_set(struct answers *a, const char *set, const char *sel, const char *join,
		    bool *outer)
{
	bool first = true;

	fprintf(a->out, "%s\"%s\":{", *outer ? "" : ",", set);
	*outer = false;
	for (size_t i = 0; i < NFAM; i++) {
		char *q = NULL;

		MEMSTR(q, {
			if (join)
				fputc('(', m);
			const char *at = strstr(families[i].promql, "%s");

			fprintf(m, "%.*s%s%s", (int)(at - families[i].promql), families[i].promql,
				sel, at + 2);
			if (join)
				fprintf(m, ") and on (instance, job, drive) %s", join);
		});
		ask(a, families[i].name, q, &first);
		free(q);
	}
	fputc('}', a->out);
}

/* `up` of wearwatch's targets that are not up now, with their last good
 * scrape in the last day (to 5 minutes: the subquery's step), or 0 when
 * there was none in that day: the most recent first, DOWN_MAX of them */
static char *down_query(const char *jobs, bool count)
{
	char *q = NULL;

	MEMSTR(q, {
		fputs(count ? "count(" : "topk(" XSTR(DOWN_MAX) ", ", m);
		fputs("max by (instance, job) (max_over_time(timestamp(up{job=~\"", m);
		promql_str(m, jobs, false);
		fputs("\"} == 1)[1d:5m])) unless on (instance, job) up{job=~\"", m);
		promql_str(m, jobs, false);
		fputs("\"} == 1 or on (instance, job) up{job=~\"", m);
		promql_str(m, jobs, false);
		fputs("\"} == 0)", m);
	});
	return q;
}

/* the page's body for hosts page `page` (1-based; clamped), malloc'd or
 * NULL; *status 200 or 502 (nothing answered) */
static char *fetch_all(const ww_conf_fleet_t *f, unsigned page, unsigned *status)
{
	char base[sizeof(f->prometheus)], shown[sizeof(f->prometheus)], secret[4096], err[512];
	struct curl_slist *hdrs = NULL;
	struct answers a = { .errs = json_object_new_array() };
	char *body = NULL, *q, **names = NULL, *sel = NULL;
	size_t n_names = 0, len = 0, pages = 1, from = 0, to = 0;
	json_object *head = json_object_new_object();
	bool first = true;
	int hrc = -1;

	a.h = cu_loaded ? cu.easy_init() : NULL;
	base_url(f->prometheus, base, sizeof(base), false);
	base_url(f->prometheus, shown, sizeof(shown), true);
	a.base = base;
	if (!a.errs || !head || !(a.out = open_memstream(&body, &len))) {
		json_object_put(a.errs);
		json_object_put(head);
		if (a.h)
			cu.easy_cleanup(a.h);
		return NULL;
	}
	fputs("{\"queries\":{", a.out);
	if (!a.h || setup(a.h, f, secret, sizeof(secret), &hdrs, err, sizeof(err))) {
		json_object_array_add(
			a.errs,
			json_object_new_string(a.h                 ? err
						       : cu_loaded ? "cannot start "
								     "libcurl"
								   : "libcurl.so.4 (Debian's "
								     "libcurl4) cannot be loaded"));
		a.dead = true;
	}
	/* totals first: the one that finds out Prometheus is not there */
	ask(&a, "drives_total", "count(wearwatch_drive_info)", &first);
	ask(&a, "health_counts", "count_values(\"status\", wearwatch_drive_health_status)", &first);
	q = down_query(f->jobs[0] ? f->jobs : "wearwatch.*", false);
	ask(&a, "down", q, &first);
	free(q);
	q = down_query(f->jobs[0] ? f->jobs : "wearwatch.*", true);
	ask(&a, "down_total", q, &first);
	free(q);
	if (!a.dead) {
		ask_set(&a, "problems", "", problem_set, &first);
		if (!(hrc = hosts(a.h, base, &names, &n_names, err, sizeof(err)))) {
			pages = n_names ? (n_names + HOSTS_PAGE - 1) / HOSTS_PAGE : 1;
			if (page < 1)
				page = 1;
			if (page > pages)
				page = (unsigned)pages;
			from = (size_t)(page - 1) * HOSTS_PAGE;
			to = from + HOSTS_PAGE < n_names ? from + HOSTS_PAGE : n_names;
		} else {
			char line[700];

			snprintf(line, sizeof(line), "hosts: %s", err);
			json_object_array_add(a.errs, json_object_new_string(line));
		}
		if (to > from) {
			MEMSTR(sel, {
				fputs("{instance=~\"", m);
				for (size_t i = from; i < to; i++) {
					if (i > from)
						fputc('|', m);
					promql_str(m, names[i], true);
				}
				fputs("\"}", m);
			});
			if (sel)
				ask_set(&a, "page", sel, NULL, &first);
			free(sel);
		}
	}
	fputc('}', a.out);
	explicit_bzero(secret, sizeof(secret));
	if (hdrs)
		cu.slist_free_all(hdrs);
	if (a.h)
		cu.easy_cleanup(a.h);
	*status = a.ok ? 200 : 502;
	if (!a.ok)
		ww_log(WW_LOG_WARNING, "fleet: %s: %s", shown,
		       json_object_get_string(json_object_array_get_idx(a.errs, 0)));
	{
		json_object *hl = json_object_new_array();
		json_object *lim = json_object_new_object();

		for (size_t i = from; i < to; i++)
			json_object_array_add(hl, json_object_new_string(names[i]));
		json_object_object_add(head, "configured", json_object_new_boolean(1));
		json_object_object_add(head, "prometheus", json_object_new_string(shown));
		json_object_object_add(head, "time",
				       json_object_new_int64((int64_t)ww_clock_wall(NULL)));
		json_object_object_add(head, "hosts_total",
				       hrc ? NULL : json_object_new_int64((int64_t)n_names));
		json_object_object_add(head, "page", json_object_new_int64(to > from ? page : 0));
		json_object_object_add(head, "pages", json_object_new_int64((int64_t)pages));
		json_object_object_add(head, "page_hosts", hl);
		json_object_object_add(lim, "problems", json_object_new_int(PROBLEMS_MAX));
		json_object_object_add(lim, "top", json_object_new_int(TOP_MAX));
		json_object_object_add(lim, "down", json_object_new_int(DOWN_MAX));
		json_object_object_add(lim, "hosts_per_page", json_object_new_int(HOSTS_PAGE));
		json_object_object_add(head, "limits", lim);
		json_object_object_add(head, "errors", a.errs);
		/* the head's members after "queries" */
		{
			const char *t = json_object_to_json_string_ext(head,
								       JSON_C_TO_STRING_PLAIN);

			fprintf(a.out, ",%s", t + 1);
		}
	}
	ww_fleet_names_free(names, n_names);
	json_object_put(head);
	if (fclose(a.out)) {
		free(body);
		return NULL;
	}
	return body;
}

/* answers are shared for CACHE_S per page: a few pages, the oldest
 * replaced */
#define CACHE_SLOTS 8
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char key[2800]; /* the [fleet] settings and page the answer was made with */
	time_t at;
	unsigned status;
	char *body;
} cache[CACHE_SLOTS];

int ww_fleet_fetch(const ww_conf_fleet_t *f, unsigned page, char **body, size_t *len,
		   unsigned *status)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	char key[sizeof(cache[0].key)];
	time_t now = ww_clock_wall(NULL);
	size_t slot = 0;
	json_object *o;
	char *b = NULL;
	int n;

	*body = NULL;
	if (!f->prometheus[0]) {
		o = json_object_new_object();
		json_object_object_add(o, "configured", json_object_new_boolean(0));
		b = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		*status = 200;
		goto out;
	}
	n = snprintf(key, sizeof(key), "%u\n%s\n%s\n%s\n%s\n%s\n%u\n%s", page, f->prometheus,
		     f->user, f->password_file, f->bearer_token_file, f->ca_file, f->timeout_s,
		     f->jobs);
	for (unsigned i = 0; i < f->n_headers && n > 0 && (size_t)n < sizeof(key); i++)
		n += snprintf(key + n, sizeof(key) - (size_t)n, "\n%s", f->headers[i]);
	pthread_mutex_lock(&cache_lock);
	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		if (cache[i].body && !strcmp(cache[i].key, key) && now - cache[i].at < CACHE_S) {
			b = strdup(cache[i].body);
			*status = cache[i].status;
			break;
		}
		if (cache[i].at < cache[slot].at)
			slot = i;
	}
	pthread_mutex_unlock(&cache_lock);
	if (b)
		goto out;
	pthread_once(&once, curl_init_once);
	b = fetch_all(f, page, status);
	pthread_mutex_lock(&cache_lock);
	free(cache[slot].body);
	cache[slot].body = b ? strdup(b) : NULL;
	snprintf(cache[slot].key, sizeof(cache[slot].key), "%s", key);
	cache[slot].at = now;
	cache[slot].status = *status;
	pthread_mutex_unlock(&cache_lock);
out:
	if (!b)
		return -ENOMEM;
	*body = b;
	*len = strlen(b);
	return 0;
}
