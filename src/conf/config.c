/* wearwatch.conf with inih, then flags (see config.h). inih is the Debian
 * library for the format; this file only maps keys to fields and validates
 * values, so an error always names the file and line. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <ini.h>

#include "wearwatch/basic.h"
#include "wearwatch/conf.h"
#include "wearwatch/model.h"

#define DAY_S 86400u

void ww_conf_defaults(ww_conf_t *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->listen, sizeof(c->listen), ":%d", WW_HTTP_DEFAULT_PORT);
	snprintf(c->socket_path, sizeof(c->socket_path), "%s", WW_CONF_DEFAULT_SOCKET);
	snprintf(c->state_dir, sizeof(c->state_dir), "%s", WW_CONF_DEFAULT_STATE_DIR);
	c->workers = 4;
	c->hung_after_s = 30;
	c->interval_s = 60;
	c->interval_rotational_s = 600;
	c->retention_s = 0; /* forever: the history keeps daily points (history.h) */
	c->missing_retention_s = DAY_S;
	c->notify_timeout_s = 30;
	ww_probe_policy_default(&c->probe);
	c->fleet.timeout_s = 10;
	snprintf(c->fleet.jobs, sizeof(c->fleet.jobs), "wearwatch.*");
	c->notify_flap_limit = 4;
	c->notify_flap_window_s = 3600;
	ww_health_cfg_defaults(&c->health);
}

int ww_conf_parse_duration(const char *s, unsigned *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		mul = 1;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mul = 60;
	else if (!strcmp(end, "h"))
		mul = 3600;
	else if (!strcmp(end, "d"))
		mul = DAY_S;
	else
		return -EINVAL;
	if (!v || v > UINT_MAX / 2 / mul)
		return -EINVAL;
	*out = (unsigned)(v * mul);
	return 0;
}

static int parse_count(const char *s, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	static const char *yes[] = { "yes", "true", "on", "1" }, *no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(s, no[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

/* YYYY-MM-DD with a real month and day: the model's rule (ww_date_parse),
 * so --rating and the file cannot disagree about a date */
static int parse_date(const char *s)
{
	time_t t;

	return ww_date_parse(s, &t);
}

static int set_str(char *dst, size_t len, const char *v)
{
	if (strlen(v) >= len)
		return -EINVAL;
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

static int add_include(ww_conf_t *c, const char *v)
{
	char(*n)[32];

	if (!*v || strchr(v, '/') || strlen(v) >= sizeof(c->include[0]))
		return -EINVAL;
	n = realloc(c->include, (c->n_include + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->include = n;
	return set_str(c->include[c->n_include++], sizeof(c->include[0]), v);
}

void ww_conf_free(ww_conf_t *c)
{
	free(c->include);
	free(c->drives);
	c->include = NULL;
	c->drives = NULL;
	c->n_include = c->n_drives = 0;
}

static void *dup_list(const void *p, size_t n, size_t size, bool *fail)
{
	void *q;

	if (!n)
		return NULL;
	q = malloc(n * size);
	if (!q)
		*fail = true;
	else
		memcpy(q, p, n * size);
	return q;
}

int ww_conf_copy(ww_conf_t *dst, const ww_conf_t *src)
{
	ww_conf_t t = *src;
	bool fail = false;

	if (dst == src)
		return 0;
	t.include = dup_list(src->include, src->n_include, sizeof(*src->include), &fail);
	t.drives = dup_list(src->drives, src->n_drives, sizeof(*src->drives), &fail);
	if (fail) {
		ww_conf_free(&t);
		return -ENOMEM;
	}
	ww_conf_free(dst);
	*dst = t;
	return 0;
}

struct parse_ctx {
	ww_conf_t *c;
	char msg[256];   /* first error, without file:line */
	ww_conf_drive_t *drive;
	char section[200];
};

#define FAIL(...) do { if (!x->msg[0]) snprintf(x->msg, sizeof(x->msg), __VA_ARGS__); return 0; } while (0)

static int drive_key(struct parse_ctx *x, ww_conf_drive_t *d, const char *k, const char *v)
{
	char herr[200];
	int hrc;
	bool b;

	if (!strcmp(k, "self_test_concurrent")) {
		FAIL("self_test_concurrent is a key of [health]: it counts the drives of the host");
	} else if ((hrc = ww_conf_health_key(&d->health, k, v, herr, sizeof(herr))) != -ENOENT) {
		if (hrc)
			FAIL("%s", herr);
	} else if (!strcmp(k, "include") || !strcmp(k, "exclude")) {
		if (parse_bool(v, &b))
			FAIL("%s: expected yes or no, got '%s'", k, v);
		d->monitor = (!strcmp(k, "include")) == b;
	} else if (!strcmp(k, "smartctl")) {
		/* -d TYPE for smartctl (collect/smartctl.h ww_smartctl_force) */
		if (!ww_conf_smartctl_type_valid(v) || set_str(d->smartctl, sizeof(d->smartctl), v))
			FAIL("smartctl: expected a type smartctl -d takes (sat, scsi, nvme, "
			     "megaraid,N, cciss,N, ...: smartctl -h), got '%.60s'",
			     v);
	} else if (!strcmp(k, "rating") && ww_conf_is_block_name(d->name)) {
		FAIL("rating: [drive %.40s] is a block device name, which can change across boots; "
		     "use the drive id (wearwatch scan), its serial or a model pattern", d->name);
	} else if (!strcmp(k, "rating")) {
		/* endurance rating override: the syntax is the model's
		 * (ww_rating_override_parse), checked here so a typo is a
		 * file:line error; the raw text is what the model is given */
		ww_ratings_t t = { 0 };
		ww_pattern_t *re = NULL;
		char rerr[160] = "", spec[320];

		if (set_str(d->rating, sizeof(d->rating), v) || !*v)
			FAIL("rating: empty or too long");
		snprintf(spec, sizeof(spec), "%s=%s", d->name, v);
		int rrc = ww_rating_override_parse(&t, spec, rerr, sizeof(rerr));

		ww_ratings_free(&t);
		if (rrc)
			FAIL("rating: %s", rerr[0] ? rerr : "invalid");
		/* the section's name is the model pattern the rating applies
		 * to: one PCRE2 cannot compile was kept as literal text, so a
		 * typo in it rated no drive and said nothing */
		if (ww_pattern_compile(d->name, 0, &re, rerr, sizeof(rerr)))
			FAIL("rating: [drive %.60s] is not a pattern: %s", d->name, rerr);
		ww_pattern_free(re);
	} else if (!strcmp(k, "warranty_start")) {
		if (parse_date(v))
			FAIL("warranty_start: expected YYYY-MM-DD, got '%s'", v);
		set_str(d->warranty_start, sizeof(d->warranty_start), v);
	} else if (!strcmp(k, "probe")) {
		/* latency probe policy, kept raw likewise: the probe module
		 * parses it with the same rules as its serve flags */
		ww_probe_policy_t p;
		char perr[200];

		if (set_str(d->probe, sizeof(d->probe), v) || !*v)
			FAIL("probe: empty or too long");
		ww_probe_policy_default(&p);
		if (ww_probe_policy_parse(&p, v, perr, sizeof(perr)))
			FAIL("%s", perr);
	} else {
		FAIL("unknown key '%s' in [%s]", k, x->section);
	}
	return 1;
}

/* One key of a fixed section: where its value goes and how it is checked.
 * The error reads "KEY: <expect>[, got 'VALUE']". A NULL key takes every
 * other key of its section (the [probe] names are the probe policy's own,
 * ww_probe_policy_parse). */
struct conf_key {
	const char *section, *key;
	enum { K_STR, K_ABSPATH, K_EXEC, K_LISTEN, K_DURATION, K_RETENTION, K_COUNT, K_INCLUDE,
		K_NOTIFY_ON,
		K_OFF,
		K_RATINGS_FILE,
		K_PROBE_ON,
		K_PROBE,
		K_URL,
		K_HEADER,
		K_TEXT,
		K_PROFILE
	} kind;
	size_t off, size;      /* field in ww_conf_t; size of a string field */
	unsigned min, max;     /* K_COUNT, K_DURATION and K_RETENTION (seconds) */
	const char *expect;
	bool got;              /* the error quotes the value */
};

#define F(field) offsetof(ww_conf_t, field), sizeof(((ww_conf_t *)0)->field)
#define H 3600u
static const struct conf_key keys[] = {
	{ "web", "listen", K_LISTEN, F(listen), 0, 0, "expected HOST:PORT", 1 },
	{ "web", "web_config", K_STR, F(web_config), 0, 0, "path too long", 0 },
	{ "collector", "socket", K_ABSPATH, F(socket_path), 0, 0,
	  "expected an absolute path under 108 bytes", 0 },
	{ "collector", "state_directory", K_ABSPATH, F(state_dir), 0, 0,
	  "expected an absolute path", 0 },
	{ "collector", "workers", K_COUNT, F(workers), 1, 64, "expected 1-64", 1 },
	{ "collector", "hung_after", K_DURATION, F(hung_after_s), 1, H,
	  "expected a duration of 1s-1h (30, 30s, 2m)", 1 },
	{ "collector", "include", K_INCLUDE, 0, 0, 0, 0, "expected a block device name", 1 },
	{ "poll", "interval", K_DURATION, F(interval_s), 1, 7 * DAY_S,
	  "expected a duration of 1s-7d (60, 60s, 10m, 1h)", 1 },
	{ "poll", "interval_rotational", K_DURATION, F(interval_rotational_s), 1, 7 * DAY_S,
	  "expected a duration of 1s-7d (60, 60s, 10m, 1h)", 1 },
	{ "poll", "rediscover", K_DURATION, F(rediscover_s), 1, 7 * DAY_S,
	  "expected a duration of 1s-7d (60, 60s, 10m, 1h)", 1 },
	{ "history", "retention", K_RETENTION, F(retention_s), DAY_S, 36500 * DAY_S,
	  "expected a duration of 1d-36500d (400d) or forever", 1 },
	{ "history", "missing_retention", K_DURATION, F(missing_retention_s), 1, 3650 * DAY_S,
	  "expected a duration of 1s-3650d (1d)", 1 },
	{ "history", "enabled", K_OFF, F(history_off), 0, 0, "expected yes or no", 1 },
	{ "history", "raw_retention", K_DURATION, F(history_raw_s), 3600, 36500 * DAY_S,
	  "expected a duration of 1h-36500d (7d)", 1 },
	{ "history", "hourly_retention", K_DURATION, F(history_hourly_s), 3600, 36500 * DAY_S,
	  "expected a duration of 1h-36500d (90d)", 1 },
	{ "history", "commit_interval", K_DURATION, F(history_commit_s), 10, 3600,
	  "expected a duration of 10s-1h (5m)", 1 },
	{ "endurance", "ratings_file", K_RATINGS_FILE, 0, 0, 0, 0,
	  "expected an absolute path (at most 8 files)", 1 },
	{ "probe", "enabled", K_PROBE_ON, 0, 0, 0, 0, "expected yes or no", 1 },
	{ "probe", NULL, K_PROBE, 0, 0, 0, 0,
	  "expected interval, count, bs, qd, max-iops, busy-inflight, rotational or window "
	  "with the value its --probe-* flag takes",
	  1 },
	{ "notify", "exec", K_EXEC, F(notify_exec), 0, 0, "expected an absolute path", 0 },
	{ "notify", "timeout", K_DURATION, F(notify_timeout_s), 1, H,
	  "expected a duration of 1s-1h", 1 },
	{ "notify", "enabled", K_NOTIFY_ON, 0, 0, 0, 0, "expected yes or no", 0 },
	{ "fleet", "prometheus", K_URL, F(fleet.prometheus), 0, 0,
	  "expected an http:// or https:// URL", 1 },
	{ "fleet", "basic_auth_user", K_STR, F(fleet.user), 0, 0, "too long", 0 },
	{ "fleet", "basic_auth_password_file", K_ABSPATH, F(fleet.password_file), 0, 0,
	  "expected an absolute path", 1 },
	{ "fleet", "bearer_token_file", K_ABSPATH, F(fleet.bearer_token_file), 0, 0,
	  "expected an absolute path", 1 },
	{ "fleet", "ca_file", K_ABSPATH, F(fleet.ca_file), 0, 0, "expected an absolute path", 1 },
	{ "fleet", "timeout", K_DURATION, F(fleet.timeout_s), 1, 10 * 60,
	  "expected a duration of 1s-10m (10s)", 1 },
	{ "metrics", "profile", K_PROFILE, F(metrics_fleet), 0, 0, "expected full or fleet", 1 },
	{ "fleet", "header", K_HEADER, 0, 0, 0, 0,
	  "expected 'Name: value' (a token, a colon, no control characters; at most 4)", 1 },
	{ "fleet", "jobs", K_TEXT, F(fleet.jobs), 0, 0,
	  "expected a regex of job names (wearwatch.*) without control characters", 1 },
	{ "notify", "flap_limit", K_COUNT, F(notify_flap_limit), 1, 1000, "expected 1-1000", 1 },
	{ "notify", "flap_window", K_DURATION, F(notify_flap_window_s), 60, 7 * DAY_S,
	  "expected a duration of 1m-7d (1h)", 1 },
};
#undef H
#undef F

/* a [probe] key other than enabled: the policy's own parser and checks; it
 * turns probing on for a KEY=VALUE, which only `enabled` may do here */
static int set_probe(ww_conf_t *c, const char *k, const char *v)
{
	char spec[256], e[200];
	bool on = c->probe.enabled;
	int n = snprintf(spec, sizeof(spec), "%s=%s", k, v);

	if (n < 0 || (size_t)n >= sizeof(spec) || strchr(v, ',') || !*v)
		return -EINVAL;
	if (ww_probe_policy_parse(&c->probe, spec, e, sizeof(e)))
		return -EINVAL;
	c->probe.enabled = on;
	return 0;
}

static bool is_url(const char *v)
{
	return (!strncmp(v, "http://", 7) && v[7]) || (!strncmp(v, "https://", 8) && v[8]);
}

/* true when v holds no control character (and is not empty) */
static bool plain_text(const char *v)
{
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return *v;
}

/* `Name: value` of an HTTP header (RFC 9110 5.1, 5.5): a token, a colon,
 * a value without control characters */
static int add_header(ww_conf_t *c, const char *v)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : 0;

	if (!n || c->fleet.n_headers >= WW_FLEET_MAX_HEADERS || !plain_text(v))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr("!#$%&'*+-.^_`|~", v[i]))
			return -EINVAL;
	return set_str(c->fleet.headers[c->fleet.n_headers++], sizeof(c->fleet.headers[0]), v);
}

/* 0, or -EINVAL when v is not what k wants */
static int set_key(ww_conf_t *c, const struct conf_key *k, const char *name, const char *v)
{
	char *str = (char *)c + k->off, host[256];
	unsigned *num = (unsigned *)((char *)c + k->off);
	uint16_t port;
	bool b;

	switch (k->kind) {
	case K_OFF:   /* "enabled = no" sets the bool that says off */
		if (parse_bool(v, &b))
			return -EINVAL;
		return *(bool *)str = !b, 0;
	case K_RATINGS_FILE:
		if (v[0] != '/' || c->n_ratings_files >= WW_ENDURANCE_MAX_FILES)
			return -EINVAL;
		return set_str(c->ratings_files[c->n_ratings_files++],
			       sizeof(c->ratings_files[0]), v);
	case K_PROBE_ON:
		if (parse_bool(v, &b))
			return -EINVAL;
		return c->probe.enabled = b, 0;
	case K_PROBE:
		return set_probe(c, name, v);
	case K_URL:
		return !is_url(v) || strpbrk(v, " \t\"'<>") ? -EINVAL : set_str(str, k->size, v);
	case K_LISTEN:
		if (ww_conf_parse_listen(v, host, sizeof(host), &port))
			return -EINVAL;
		return set_str(str, k->size, v);
	case K_ABSPATH:
		return v[0] != '/' ? -EINVAL : set_str(str, k->size, v);
	case K_EXEC:
		return *v && v[0] != '/' ? -EINVAL : set_str(str, k->size, v);
	case K_STR:
		return set_str(str, k->size, v);
	case K_TEXT:
		return !plain_text(v) ? -EINVAL : set_str(str, k->size, v);
	case K_HEADER:
		return add_header(c, v);
	case K_PROFILE:
		if (strcmp(v, "full") && strcmp(v, "fleet"))
			return -EINVAL;
		return *(bool *)str = !strcmp(v, "fleet"), 0;
	case K_COUNT:
		return parse_count(v, k->min, k->max, num);
	case K_RETENTION: /* forever: the history keeps daily points (history.h) */
		if (!strcmp(v, "forever"))
			return *num = 0, 0;
		/* fall through */
	case K_DURATION: {
		unsigned d;

		if (ww_conf_parse_duration(v, &d) || d < k->min || d > k->max)
			return -EINVAL;
		*num = d;
		return 0;
	}
	case K_INCLUDE:
		return add_include(c, v);
	case K_NOTIFY_ON:
		if (parse_bool(v, &b))
			return -EINVAL;
		if (!b)
			c->notify_exec[0] = 0;
		return 0;
	}
	return -EINVAL;
}

/* a fixed section's key set from a flag: 0 or -EINVAL */
static int set_named(ww_conf_t *c, const char *section, const char *key, const char *v)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].section, section) && keys[i].key && !strcmp(keys[i].key, key))
			return set_key(c, &keys[i], key, v);
	return -EINVAL;
}

/* the first key of a [drive NAME] section: a new drive entry */
static int begin_drive(struct parse_ctx *x, const char *section)
{
	const char *name = section + 6;
	ww_conf_t *c = x->c;
	ww_conf_drive_t *nd;
	size_t n;

	while (*name == ' ' || *name == '\t' || *name == '"')
		name++;
	nd = realloc(c->drives, (c->n_drives + 1) * sizeof(*nd));
	if (!nd)
		FAIL("[drive NAME]: out of memory");
	c->drives = nd;
	x->drive = &c->drives[c->n_drives++];
	memset(x->drive, 0, sizeof(*x->drive));
	x->drive->monitor = -1;
	ww_health_cfg_defaults(&x->drive->health);
	if (set_str(x->drive->name, sizeof(x->drive->name), name) || !*name)
		FAIL("[drive NAME]: bad name");
	/* strip a closing quote of [drive "NAME"] */
	n = strlen(x->drive->name);
	if (n && x->drive->name[n - 1] == '"')
		x->drive->name[n - 1] = 0;
	return 1;
}

static int handler(void *user, const char *section, const char *k, const char *v)
{
	struct parse_ctx *x = user;
	bool known = false;

	if (x->msg[0])
		return 0;
	if (!*section)
		FAIL("'%s' comes before any [section]", k);
	if (strcmp(section, x->section)) {
		/* first key of a new section */
		snprintf(x->section, sizeof(x->section), "%s", section);
		x->drive = NULL;
		if ((!strncmp(section, "drive ", 6) || !strncmp(section, "drive\t", 6)) &&
		    !begin_drive(x, section))
			return 0;
	}
	if (x->drive)
		return drive_key(x, x->drive, k, v);
	if (!strcmp(section, "health")) {
		char herr[200];
		int hrc = ww_conf_health_key(&x->c->health, k, v, herr, sizeof(herr));

		if (hrc == -ENOENT)
			FAIL("unknown key '%s' in [health]", k);
		if (hrc)
			FAIL("%s", herr);
		return 1;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(section, keys[i].section))
			continue;
		known = true;
		if (keys[i].key && strcmp(k, keys[i].key))
			continue;
		if (set_key(x->c, &keys[i], k, v)) {
			if (keys[i].got)
				FAIL("%s: %s, got '%s'", k, keys[i].expect, v);
			FAIL("%s: %s", k, keys[i].expect);
		}
		return 1;
	}
	if (known)
		FAIL("unknown key '%s' in [%s]", k, section);
	FAIL("unknown section [%s]", section);
}

/* Thresholds that contradict each other, [health] alone and under each
 * [drive] section's own keys (no line: they may be far apart). */
static int check_health(const ww_conf_t *c, const char *name, char *err, size_t errlen)
{
	char e[200];

	if (ww_conf_health_check(&c->health, e, sizeof(e))) {
		snprintf(err, errlen, "%s: [health]: %s", name, e);
		return -EINVAL;
	}
	for (size_t i = 0; i < c->n_drives; i++) {
		ww_health_cfg_t h = c->health;

		ww_conf_health_overlay(&h, &c->drives[i].health);
		if (ww_conf_health_check(&h, e, sizeof(e))) {
			snprintf(err, errlen, "%s: [drive %s]: %s", name, c->drives[i].name, e);
			return -EINVAL;
		}
	}
	return 0;
}

/* Lines for inih from a FILE or a string. Debian's inih reads at most
 * ~200 bytes a line and parses the rest as a line of its own (the end of a
 * long comment became a live key): a longer line stops the parse here and
 * is an error with its number. So does a NUL byte: inih's strings end
 * there, so `interval = 1\0x` was read as 1 s, the rest of the line unseen. */
struct ini_src {
	FILE *f;
	const char *s;
	unsigned line, long_line, nul_line, max;
};

static char *read_line(char *str, int num, void *stream)
{
	struct ini_src *r = stream;
	size_t n = 0;
	int ch;

	if (r->long_line || r->nul_line || num < 4)
		return NULL;
	r->max = (unsigned)num - 3; /* room for '\r', '\n' and the NUL */
	for (;;) {
		ch = r->f ? getc(r->f) : *r->s ? (unsigned char)*r->s++ : EOF;
		if (ch == EOF)
			break;
		if (ch == '\0') {
			r->nul_line = r->line + 1;
			return NULL;
		}
		if (ch != '\n' && ch != '\r' && n >= r->max) {
			r->long_line = r->line + 1;
			return NULL;
		}
		str[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	if (!n)
		return NULL;
	str[n] = '\0';
	r->line++;
	return str;
}

static int parse(struct parse_ctx *x, struct ini_src *src)
{
	int rc = ini_parse_stream(read_line, src, handler, x);

	if (!rc && src->long_line) {
		snprintf(x->msg, sizeof(x->msg), "line longer than %u characters", src->max);
		return (int)src->long_line;
	}
	if (!rc && src->nul_line) {
		snprintf(x->msg, sizeof(x->msg), "NUL byte in the line");
		return (int)src->nul_line;
	}
	return rc;
}

static int finish(struct parse_ctx *x, int rc, const char *name, char *err, size_t errlen)
{
	if (rc == 0)
		return check_health(x->c, name, err, errlen);
	if (rc == -2) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	/* inih reports the first failing line; a syntax error (no '=' or an
	 * unclosed '[') leaves our message empty */
	snprintf(err, errlen, "%s:%d: %s", name, rc, x->msg[0] ? x->msg : "syntax error (expected [section] or key = value)");
	return -EINVAL;
}

int ww_conf_load(ww_conf_t *c, const char *path, bool optional, char *err, size_t errlen)
{
	struct parse_ctx x = { .c = c };
	/* a directory read as empty (the defaults ran), a FIFO blocked the
	 * open forever: only a file is read (or /dev/null, "no file") */
	FILE *f = ww_fopen_regular(path);
	int rc;

	if (!f) {
		rc = -errno;
		if (rc == -ENOENT && optional)
			return 0;
		if (rc == -EISDIR || rc == -EINVAL) {
			snprintf(err, errlen, "%s: %s, expected the configuration file", path,
				 rc == -EISDIR ? "a directory" : "not a regular file");
			return -EINVAL;
		}
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = parse(&x, &(struct ini_src){ .f = f });
	fclose(f);
	for (size_t i = 0; !rc && i < c->n_drives; i++)
		if (c->drives[i].warranty_start[0] && !c->drives[i].rating[0]) {
			/* no line: inih reports lines only for failing keys */
			snprintf(err, errlen, "%s: [drive %s]: warranty_start needs a rating in the "
				 "same section (the model takes them as one override)", path,
				 c->drives[i].name);
			return -EINVAL;
		}
	if (!rc)
		set_str(c->path, sizeof(c->path), path);
	return finish(&x, rc, path, err, errlen);
}

int ww_conf_load_string(ww_conf_t *c, const char *text, const char *name, char *err, size_t errlen)
{
	struct parse_ctx x = { .c = c };

	return finish(&x, parse(&x, &(struct ini_src){ .s = text }), name, err, errlen);
}

static bool all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

bool ww_conf_is_block_name(const char *n)
{
	static const char *const letters[] = { "sd", "hd", "vd", "xvd" };
	static const char *const numbered[] = { "dm-", "md", "loop" };
	unsigned a, b;
	int end = 0;

	if (!strncmp(n, "/dev/", 5))
		n += 5;
	for (size_t i = 0; i < 4; i++)
		if (!strncmp(n, letters[i], strlen(letters[i])) &&
		    all_of(n + strlen(letters[i]), "abcdefghijklmnopqrstuvwxyz"))
			return true;
	for (size_t i = 0; i < 3; i++)
		if (!strncmp(n, numbered[i], strlen(numbered[i])) &&
		    all_of(n + strlen(numbered[i]), "0123456789"))
			return true;
	return sscanf(n, "nvme%un%u%n", &a, &b, &end) == 2 && !n[end];
}

int ww_conf_drive_rating_spec(const ww_conf_drive_t *d, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s=%s%s%s", d->name, d->rating, d->warranty_start[0] ? "@" : "",
			 d->warranty_start);

	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

const ww_conf_drive_t *ww_conf_drive_find(const ww_conf_t *c, const char *id, const char *block)
{
	for (size_t i = 0; i < c->n_drives; i++)
		if (ww_drive_name_matches(c->drives[i].name, id, block))
			return &c->drives[i];
	return NULL;
}

enum {
	O_CONFIG = 300, O_LISTEN, O_WEBCFG, O_SOCKET, O_STATE, O_SYSROOT, O_POLL, O_POLLROT,
	O_REDISC, O_MISSING, O_HUNG, O_WORKERS, O_INCLUDE, O_NOTIFY, O_DEVDIR,
};

static const struct option conf_opts[] = {
	{ "config", required_argument, NULL, O_CONFIG },
	{ "listen", required_argument, NULL, O_LISTEN },
	{ "web-config", required_argument, NULL, O_WEBCFG },
	{ "socket", required_argument, NULL, O_SOCKET },
	{ "state-dir", required_argument, NULL, O_STATE },
	{ "sysroot", required_argument, NULL, O_SYSROOT },
	{ "poll-interval", required_argument, NULL, O_POLL },
	{ "poll-interval-rotational", required_argument, NULL, O_POLLROT },
	{ "rediscover", required_argument, NULL, O_REDISC },
	{ "missing-retention", required_argument, NULL, O_MISSING },
	{ "hung-after", required_argument, NULL, O_HUNG },
	{ "workers", required_argument, NULL, O_WORKERS },
	{ "include", required_argument, NULL, O_INCLUDE },
	{ "notify-exec", required_argument, NULL, O_NOTIFY },
	{ "dev-dir", required_argument, NULL, O_DEVDIR }, /* web self-check (tests) */
	WW_PROBE_SERVE_OPTIONS, /* on top of [probe] */
	{ NULL, 0, NULL, 0 },
};

const struct option *ww_conf_options(void)
{
	return conf_opts;
}

const char *ww_conf_path_from_args(int argc, char **argv, bool *explicit_)
{
	*explicit_ = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			return *explicit_ = true, argv[i + 1];
		if (!strncmp(argv[i], "--config=", 9))
			return *explicit_ = true, argv[i] + 9;
	}
	return WW_CONF_DEFAULT_PATH;
}

int ww_conf_apply_args(ww_conf_t *c, int argc, char **argv, char *err, size_t errlen)
{
	int o, bad = 0;
	char host[256];
	uint16_t port;

	optind = 1;
	opterr = 0;
	while (!bad && (o = getopt_long(argc, argv, ":", conf_opts, NULL)) != -1) {
		const char *v = optarg;

		switch (o) {
		case O_CONFIG:
		case O_DEVDIR:
			break;
		case O_LISTEN:
			bad = ww_conf_parse_listen(v, host, sizeof(host), &port) ||
			      set_str(c->listen, sizeof(c->listen), v);
			break;
		case O_WEBCFG: bad = set_str(c->web_config, sizeof(c->web_config), v); break;
		case O_SOCKET: bad = v[0] != '/' || set_str(c->socket_path, sizeof(c->socket_path), v); break;
		case O_STATE: bad = set_str(c->state_dir, sizeof(c->state_dir), v); break;
		case O_SYSROOT: bad = set_str(c->sysroot, sizeof(c->sysroot), v); break;
		/* the file's keys: the same checks and ranges */
		case O_POLL: bad = set_named(c, "poll", "interval", v); break;
		case O_POLLROT: bad = set_named(c, "poll", "interval_rotational", v); break;
		case O_REDISC: bad = set_named(c, "poll", "rediscover", v); break;
		case O_MISSING: bad = set_named(c, "history", "missing_retention", v); break;
		case O_HUNG: bad = set_named(c, "collector", "hung_after", v); break;
		case O_WORKERS: bad = set_named(c, "collector", "workers", v); break;
		case O_INCLUDE: bad = add_include(c, v); break;
		case O_NOTIFY: bad = set_str(c->notify_exec, sizeof(c->notify_exec), v); break;
		case WW_OPT_PROBE_FIRST ... WW_OPT_PROBE_LAST:
			bad = ww_probe_serve_opt(o, v, &c->probe) != 0;
			break;
		default:
			snprintf(err, errlen, "unknown or incomplete option '%s'", argv[optind - 1]);
			return -EINVAL;
		}
		for (const struct option *d = conf_opts; bad && d->name; d++)
			if (d->val == o)
				snprintf(err, errlen, "--%s: invalid value '%s'", d->name, v ? v : "");
	}
	if (bad)
		return -EINVAL;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

int ww_conf_build(ww_conf_t *out, int argc, char **argv, char *err, size_t errlen)
{
	ww_conf_t *c = malloc(sizeof(*c));
	bool explicit_;
	const char *path = ww_conf_path_from_args(argc, argv, &explicit_);
	int rc;

	if (!c)
		return -ENOMEM;
	ww_conf_defaults(c);
	rc = ww_conf_load(c, path, !explicit_, err, errlen);
	if (!rc)
		rc = ww_conf_apply_args(c, argc, argv, err, errlen);
	if (!rc) {
		/* out is written, never read: callers pass it uninitialised */
		*out = *c;
	} else {
		ww_conf_free(c);
	}
	free(c);
	return rc;
}
