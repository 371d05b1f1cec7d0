/* One event's WEARWATCH_* variables, and the spool the collector queues them
 * in for wearwatch-notify.service (service.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "wearwatch/basic.h"
#include "wearwatch/service.h"

void ww_event_clear(ww_event_t *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->vars[i]);
	e->n = 0;
}

static void var(ww_event_t *e, const char *name, const char *value)
{
	if (e->n < WW_EVENT_MAX_VARS &&
	    asprintf(&e->vars[e->n], "WEARWATCH_%s=%s", name, value ? value : "") > 0)
		e->n++;
}

/* "severity: sentence" lines of reasons (severity unknown ones too) */
static char *lines(const ww_vreason_t *r, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s: %s", i ? "\n" : "", ww_status_name(r[i].severity), r[i].text);
	fclose(f);
	return buf;
}

static json_object *jreasons(const ww_vreason_t *r, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "code", json_object_new_string(ww_reason_name(r[i].code)));
		json_object_object_add(o, "severity",
				       json_object_new_string(ww_status_name(r[i].severity)));
		json_object_object_add(o, "text", json_object_new_string(r[i].text));
		json_object_object_add(o, "source", json_object_new_string(r[i].source));
		if (r[i].item)
			json_object_object_add(o, "attribute", json_object_new_int(r[i].item));
		json_object_array_add(a, o);
	}
	return a;
}

/* what changed, one line: "ok -> critical; added: a, b; cleared: c" */
static void changed_line(const ww_event_change_t *c, char *buf, size_t len)
{
	size_t o = 0;

	o += (size_t)snprintf(buf + o, len - o, "%s -> %s", ww_status_name(c->old_status),
			      ww_status_name(c->now->status));
	for (size_t i = 0; i < c->n_added && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "; added: ",
				      ww_reason_name(c->added[i].code));
	for (size_t i = 0; i < c->n_cleared && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "; cleared: ",
				      ww_reason_name(c->cleared[i].code));
	if (c->suppressed && o < len)
		snprintf(buf + o, len - o, "; %u changes not notified (flapping)", c->suppressed);
}

static void add_json(ww_event_t *e, const ww_event_drive_t *d, const ww_event_change_t *c,
		     const char *host, const char *when, const char *changed)
{
	json_object *o = json_object_new_object();
	const char *k[] = { "event", "drive", "device", "model", "serial", "host", "time",
			    "old_status", "new_status", "message", "changed" };
	const char *v[] = { c->kind, d->id, d->device, d->model, d->serial, host, when,
			    ww_status_name(c->old_status), ww_status_name(c->now->status),
			    c->message, changed };

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		json_object_object_add(o, k[i], json_object_new_string(v[i] ? v[i] : ""));
	json_object_object_add(o, "reasons", jreasons(c->now->r, c->now->n));
	json_object_object_add(o, "added", jreasons(c->added, c->n_added));
	json_object_object_add(o, "cleared", jreasons(c->cleared, c->n_cleared));
	json_object_object_add(o, "suppressed", json_object_new_int64(c->suppressed));
	var(e, "JSON", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

void ww_event_build(ww_event_t *e, const ww_event_drive_t *d, const ww_event_change_t *c,
		    time_t now)
{
	char host[256] = "", when[40], changed[512], codes[1024] = "", num[24];
	char *txt;
	struct tm tm;
	size_t o = 0;

	ww_event_clear(e);
	gethostname(host, sizeof(host) - 1);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	changed_line(c, changed, sizeof(changed));
	for (size_t i = 0; i < c->now->n && o < sizeof(codes); i++)
		o += (size_t)snprintf(codes + o, sizeof(codes) - o, "%s%s", i ? " " : "",
				      ww_reason_name(c->now->r[i].code));
	var(e, "EVENT", c->kind);
	var(e, "DRIVE", d->id);
	var(e, "DEVICE", d->device);
	var(e, "MODEL", d->model);
	var(e, "SERIAL", d->serial);
	var(e, "HOST", host);
	var(e, "OLD_STATE", ww_status_name(c->old_status));
	var(e, "NEW_STATE", ww_status_name(c->now->status));
	var(e, "REASONS", (txt = lines(c->now->r, c->now->n)));
	free(txt);
	var(e, "REASON_CODES", codes);
	var(e, "ADDED", (txt = lines(c->added, c->n_added)));
	free(txt);
	var(e, "CLEARED", (txt = lines(c->cleared, c->n_cleared)));
	free(txt);
	var(e, "CHANGED", changed);
	snprintf(num, sizeof(num), "%u", c->suppressed);
	var(e, "SUPPRESSED", num);
	var(e, "TIME", when);
	var(e, "MESSAGE", c->message);
	var(e, "MESSAGE_ID", ww_log_message_id(c->log_kind));
	add_json(e, d, c, host, when, changed);
}

int ww_events_spool(const char *dir, const ww_event_t *ev)
{
	static unsigned seq;
	char tmp[640], path[600];
	struct timespec ts;
	int fd, rc = 0;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	ts = ww_clock_wall_ts();
	/* names sort in the order the events happened */
	snprintf(path, sizeof(path), "%s/%011lld.%09ld-%d-%u.event", dir, (long long)ts.tv_sec,
		 ts.tv_nsec, (int)getpid(), seq++);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < ev->n && !rc; i++) {
		size_t len = strlen(ev->vars[i]) + 1; /* with its NUL */

		if (write(fd, ev->vars[i], len) != (ssize_t)len)
			rc = -EIO;
	}
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int ww_events_spool_parse(const char *buf, size_t len, ww_event_t *ev)
{
	size_t o = 0;
	int rc = 0;

	ww_event_clear(ev);
	while (o < len && !rc) {
		const char *v = buf + o, *end = memchr(v, '\0', len - o);
		size_t n = end ? (size_t)(end - v) : len - o;

		/* NAME=value, NAME one of ours; no more than an event has */
		if (n < 11 || strncmp(v, "WEARWATCH_", 10) || !memchr(v, '=', n) ||
		    ev->n >= WW_EVENT_MAX_VARS)
			rc = -EINVAL;
		else if (!(ev->vars[ev->n] = strndup(v, n)))
			rc = -ENOMEM;
		else
			ev->n++;
		o += n + 1;
	}
	if (!rc && !ev->n)
		rc = -EINVAL;
	if (rc)
		ww_event_clear(ev);
	return rc;
}

int ww_events_spool_read(const char *path, ww_event_t *ev)
{
	/* regular files only: a FIFO named *.event would hold the reader (and
	 * the queue behind it) until a writer came */
	FILE *f = ww_fopen_regular(path);
	char *buf;
	size_t n;
	int rc;

	ww_event_clear(ev);
	if (!f)
		return -errno;
	buf = malloc(WW_EVENT_SPOOL_MAX + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, WW_EVENT_SPOOL_MAX + 1, f);
	rc = ferror(f) ? -EIO : n > WW_EVENT_SPOOL_MAX ? -EFBIG : 0;
	fclose(f);
	if (!rc)
		rc = ww_events_spool_parse(buf, n, ev);
	free(buf);
	return rc;
}
