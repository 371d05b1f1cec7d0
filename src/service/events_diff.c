/* Drive events: each drive's verdict compared with the one last recorded,
 * logged, and sent to the notification program or its spool, with repeats
 * never sent twice and flapping drives held to a summary (service.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/basic.h"
#include "wearwatch/service.h"

/* a drive whose state did not change is looked at again after this long:
 * an increase that left its window clears with time alone */
#define REEVALUATE_S 60

struct dstate {
	char id[160];
	ww_status_t status;         /* recorded verdict */
	ww_vreason_t *r;
	size_t n;
	/* what the verdict was computed from (skip when unchanged) */
	bool present, hung, standby;
	time_t last_collect, values_time, evaluated;
	uint64_t collections;
	/* flapping: notifications sent in the window that began at window_start */
	time_t window_start;
	unsigned sent, suppressed;
	ww_status_t notified;       /* status of the last notification sent */
	char device[64], model[64], serial[64];
};

struct ww_events {
	ww_idmap_t d; /* struct dstate by id */
	/* the snapshot the last update was handed (never dereferenced) and
	 * its generation: a drive whose record is the same in the next one
	 * did not change; reeval_at: no drive of it is due for a second look
	 * (REEVALUATE_S) before then */
	const ww_snapshot_t *last;
	uint64_t last_gen;
	time_t reeval_at;
	unsigned long looks; /* drives looked at (tests) */
	char exec[256], spool[512];
	unsigned flap_limit, flap_window_s;
	ww_verdict_t v;             /* scratch */
	ww_event_t ev;
};

static void drop_dstate(void *elem)
{
	free(((struct dstate *)elem)->r);
}

ww_events_t *ww_events_new(void)
{
	ww_events_t *ev = calloc(1, sizeof(*ev));

	if (ev) {
		ww_idmap_init(&ev->d, WW_IDMAP_OF(struct dstate, id), drop_dstate);
		ev->flap_limit = 4;
		ev->flap_window_s = 3600;
	}
	return ev;
}

void ww_events_free(ww_events_t *ev)
{
	if (!ev)
		return;
	ww_idmap_free(&ev->d);
	ww_event_clear(&ev->ev);
	free(ev);
}

void ww_events_configure(ww_events_t *ev, const char *exec, const char *spool,
			 unsigned flap_limit, unsigned flap_window_s)
{
	snprintf(ev->exec, sizeof(ev->exec), "%s", exec ? exec : "");
	snprintf(ev->spool, sizeof(ev->spool), "%s", spool ? spool : "");
	ev->flap_limit = flap_limit ? flap_limit : 4;
	ev->flap_window_s = flap_window_s ? flap_window_s : 3600;
}

/* the drive's entry; a new one starts as "unknown, no reasons" so the first
 * real verdict is compared with that */
static struct dstate *entry(ww_events_t *ev, const char *id)
{
	bool created;
	struct dstate *d = ww_idmap_get(&ev->d, id, &created);

	if (d && created) {
		d->status = d->notified = WW_STATUS_UNKNOWN;
		d->evaluated = -1;
	}
	return d;
}

void ww_events_forget(ww_events_t *ev, const char *id)
{
	ww_idmap_remove(&ev->d, id);
	ev->last = NULL; /* every drive is looked at next time */
}

unsigned long ww_events_looks(const ww_events_t *ev)
{
	return ev->looks;
}

static void send(ww_events_t *ev, struct dstate *d, const ww_event_change_t *c, time_t now)
{
	ww_event_drive_t who = { d->id, d->device, d->model, d->serial };
	int rc;

	if (!ev->exec[0])
		return;
	ww_event_build(&ev->ev, &who, c, now);
	if (ev->spool[0]) {
		rc = ww_events_spool(ev->spool, &ev->ev);
		if (rc < 0)
			ww_log(WW_LOG_ERR, "cannot queue the notification for %s in %s: %s", d->id,
			       ev->spool, strerror(-rc));
	} else {
		pid_t pid = ww_events_exec(ev->exec, &ev->ev);

		if (pid < 0)
			ww_log(WW_LOG_ERR, "cannot run %s: %s", ev->exec, strerror((int)-pid));
	}
	d->notified = c->now->status;
}

/* at most flap_limit notifications per drive and window; the rest are
 * counted for the summary at the window's end (flush) */
static void notify(ww_events_t *ev, struct dstate *d, const ww_event_change_t *c, time_t now)
{
	if (now - d->window_start >= (time_t)ev->flap_window_s) {
		d->window_start = now;
		d->sent = 0;
	}
	if (d->sent < ev->flap_limit) {
		d->sent++;
		send(ev, d, c, now);
		return;
	}
	if (!d->suppressed++)
		ww_log_event(WW_EV_NOTIFY_SUPPRESSED, WW_LOG_WARNING, d->id, d->device,
			     "health changed %u times within %u s; further notifications are "
			     "held back until the window ends, then summarised", ev->flap_limit,
			     ev->flap_window_s);
}

/* summaries of flapping drives whose window ended */
static int flush(ww_events_t *ev, time_t now)
{
	int n = 0;

	for (size_t i = 0; i < ww_idmap_count(&ev->d); i++) {
		struct dstate *d = ww_idmap_at(&ev->d, i);
		ww_verdict_t *v = &ev->v;
		char msg[512];

		if (!d->suppressed || now - d->window_start < (time_t)ev->flap_window_s)
			continue;
		memset(v, 0, sizeof(*v));
		v->status = d->status;
		v->n = d->n;
		if (d->n)
			memcpy(v->r, d->r, d->n * sizeof(*d->r));
		snprintf(msg, sizeof(msg), "%u changes within %u s not notified (flapping); "
			 "health now %s%s%s", d->suppressed, ev->flap_window_s,
			 ww_status_name(d->status), d->n ? ": " : "", d->n ? d->r[0].text : "");
		ww_event_change_t c = { .kind = "flapping", .old_status = d->notified, .now = v,
					.suppressed = d->suppressed, .message = msg,
					.log_kind = WW_EV_NOTIFY_SUPPRESSED };

		ww_log_event(WW_EV_NOTIFY_SUPPRESSED, WW_LOG_WARNING, d->id, d->device, "%s", msg);
		d->window_start = now;
		d->sent = 1;
		d->suppressed = 0;
		send(ev, d, &c, now);
		n++;
	}
	return n;
}

/* reasons of a not in b (severity unknown ones do not count) into out */
static size_t minus(const ww_vreason_t *a, size_t na, const ww_vreason_t *b, size_t nb,
		    ww_vreason_t *out)
{
	size_t k = 0;

	for (size_t i = 0; i < na; i++) {
		bool in_b = false;

		if (a[i].severity == WW_STATUS_UNKNOWN)
			continue;
		for (size_t j = 0; j < nb && !in_b; j++)
			in_b = ww_vreason_same(&a[i], &b[j]);
		if (!in_b)
			out[k++] = a[i];
	}
	return k;
}

static bool has(const ww_vreason_t *r, size_t n, ww_reason_t code)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].code == code)
			return true;
	return false;
}

/* What one change is: kind, journal entry, whether it is sent, message. */
struct change {
	const char *kind;
	ww_event_kind_t log;
	ww_log_level_t level;
	bool send;
	char msg[512];
};

static const char *first_text(const ww_vreason_t *r, size_t n)
{
	return n ? r[0].text : "";
}

/* false: nothing worth an event */
static bool classify(const struct dstate *d, const ww_verdict_t *v, const ww_vreason_t *added,
		     size_t na, const ww_vreason_t *cleared, size_t nc, struct change *c)
{
	bool miss = has(v->r, v->n, WW_R_MISSING), was = has(d->r, d->n, WW_R_MISSING);
	const char *o = ww_status_name(d->status), *s = ww_status_name(v->status);

	memset(c, 0, sizeof(*c));
	c->send = true;
	if (miss && !was) {
		*c = (struct change){ "missing", WW_EV_DRIVE_MISSING, WW_LOG_ERR, true, "" };
		snprintf(c->msg, sizeof(c->msg), "missing: %s", first_text(v->r, v->n));
	} else if (!miss && was) {
		*c = (struct change){ "back", WW_EV_DRIVE_BACK, WW_LOG_NOTICE, true, "" };
		snprintf(c->msg, sizeof(c->msg), "listed again; health %s%s%s", s, v->n ? ": " : "",
			 first_text(v->r, v->n));
	} else if (v->status != d->status) {
		c->kind = "status_change";
		c->log = v->status == WW_STATUS_CRITICAL ? WW_EV_CRITICAL_WARNING : WW_EV_HEALTH_CHANGE;
		c->level = v->status == WW_STATUS_CRITICAL ? WW_LOG_ERR :
			   v->status == WW_STATUS_WARNING ? WW_LOG_WARNING :
			   v->status == WW_STATUS_OK ? WW_LOG_NOTICE : WW_LOG_INFO;
		/* becoming unknown (not read, not monitored) and the first read
		 * finding a drive ok are logged, not sent */
		c->send = v->status != WW_STATUS_UNKNOWN &&
			  !(d->status == WW_STATUS_UNKNOWN && v->status == WW_STATUS_OK);
		snprintf(c->msg, sizeof(c->msg), "health %s -> %s%s%s", o, s, v->n ? ": " : "",
			 first_text(v->r, v->n));
	} else if (na) {
		*c = (struct change){ "reason_added", WW_EV_HEALTH_WORSE, WW_LOG_WARNING, true, "" };
		snprintf(c->msg, sizeof(c->msg), "health %s, worse: %s", s, added[0].text);
	} else if (nc) {
		*c = (struct change){ "reason_cleared", WW_EV_HEALTH_BETTER, WW_LOG_NOTICE, true, "" };
		snprintf(c->msg, sizeof(c->msg), "health %s, cleared: %s", s, cleared[0].text);
	} else {
		return false;
	}
	return true;
}

/* keep v as the drive's recorded verdict */
static void record(struct dstate *d, const ww_verdict_t *v)
{
	ww_vreason_t *r = v->n ? malloc(v->n * sizeof(*r)) : NULL;

	if (v->n && !r)
		return;
	if (r)
		memcpy(r, v->r, v->n * sizeof(*r));
	free(d->r);
	d->r = r;
	d->n = v->n;
	d->status = v->status;
}

static bool unchanged(struct dstate *d, const ww_drive_state_t *st, time_t now)
{
	bool same = d->present == st->present && d->hung == st->hung &&
		    d->standby == st->standby && d->last_collect == st->last_collect &&
		    d->values_time == st->values_time && d->collections == st->collections_total &&
		    d->evaluated >= 0 && now - d->evaluated < REEVALUATE_S;

	d->present = st->present;
	d->hung = st->hung;
	d->standby = st->standby;
	d->last_collect = st->last_collect;
	d->values_time = st->values_time;
	d->collections = st->collections_total;
	return same;
}

static void identity(struct dstate *d, const ww_drive_state_t *st)
{
	const ww_health_t *h = st->health;

	snprintf(d->device, sizeof(d->device), "%s", st->drive->dev_path);
	snprintf(d->model, sizeof(d->model), "%s",
		 h && h->model[0] ? h->model : st->drive->sysfs_model);
	snprintf(d->serial, sizeof(d->serial), "%s",
		 h && h->serial[0] ? h->serial : st->drive->sysfs_serial);
}

/* one drive: 1 when an event was logged; *next lowered to the time it is
 * due for a second look */
static int drive(ww_events_t *ev, const ww_render_ctx_t *ctx, const ww_drive_state_t *st,
		 time_t *next)
{
	time_t now = ctx->now;
	static ww_vreason_t added[WW_VERDICT_MAX], cleared[WW_VERDICT_MAX];
	struct dstate *d = entry(ev, st->drive->id);
	ww_verdict_t *v = &ev->v;
	struct change c;
	size_t na, nc;

	ev->looks++;
	if (!d) {
		*next = now; /* looked at again next time */
		return 0;
	}
	if (unchanged(d, st, now)) {
		if (d->evaluated + REEVALUATE_S < *next)
			*next = d->evaluated + REEVALUATE_S;
		return 0;
	}
	/* evaluated now: due no sooner than anything evaluated before */
	if (now + REEVALUATE_S < *next)
		*next = now + REEVALUATE_S;
	d->evaluated = now;
	identity(d, st);
	ww_drive_verdict(ctx, st, v);
	na = minus(v->r, v->n, d->r, d->n, added);
	nc = minus(d->r, d->n, v->r, v->n, cleared);
	if (!classify(d, v, added, na, cleared, nc, &c)) {
		record(d, v);
		return 0;
	}
	if (!strcmp(c.kind, "missing"))
		nc = 0; /* the reasons of a drive that is gone did not clear */
	ww_log_event(c.log, c.level, d->id, d->device, "%s", c.msg);
	ww_event_change_t ch = { .kind = c.kind, .old_status = d->status, .now = v,
				 .added = added, .n_added = na, .cleared = cleared,
				 .n_cleared = nc, .message = c.msg, .log_kind = c.log };

	if (c.send)
		notify(ev, d, &ch, now);
	record(d, v);
	return 1;
}

int ww_events_update(ww_events_t *ev, const ww_render_ctx_t *ctx, const ww_snapshot_t *prev)
{
	const ww_snapshot_t *cur = ctx->snap;
	time_t now = ctx->now, next = (time_t)INT64_MAX;
	/* prev is the snapshot the last update looked at: its records are
	 * immutable, so one that cur shares was looked at then; unless one is
	 * due for a second look, those are skipped (a tick after one read of
	 * 1,000 drives looks at one, not at 1,000) */
	bool skip = prev && prev == ev->last && prev->generation == ev->last_gen &&
		now < ev->reeval_at;
	int n = 0;

	for (size_t i = 0; cur && i < cur->n; i++) {
		const ww_drive_state_t *c = cur->drives[i], *p;

		if (prev && i < prev->n && prev->drives[i] == c) {
			if (skip)
				continue; /* its due time is in reeval_at already */
			p = c;
		} else {
			p = prev ? ww_snapshot_find(prev, c->drive->id) : NULL;
		}
		if (p && !p->standby && c->standby) {
			ww_log_event(WW_EV_STANDBY, WW_LOG_INFO, c->drive->id, c->drive->dev_path,
				     "in standby or suspended; left alone");
			n++;
		}
		n += drive(ev, ctx, c, &next);
	}
	ev->reeval_at = skip && ev->reeval_at < next ? ev->reeval_at : next;
	ev->last = cur;
	ev->last_gen = cur ? cur->generation : 0;
	return n + flush(ev, now);
}
