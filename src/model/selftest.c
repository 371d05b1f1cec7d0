/* Self-test schedules (contract in model.h): smartd's `-s` regular
 * expression, matched as smartd matches it. For each local hour and each
 * test type smartd builds the text "T/MM/DD/d/HH" (T the type letter, MM
 * month 01-12, DD day of the month 01-31, d day of the week 1-7 with Monday
 * 1, HH hour 00-23) and starts the first type, in its order of priority,
 * whose text the whole expression matches (smartd.conf(5), "-s REGEXP";
 * smartd.cpp next_scheduled_test()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/model.h"

struct ww_selftest_sched {
	ww_pattern_t *re;
};

/* smartd's order of priority ("LncrSCO") of the types run here; of the
 * selective types only n (the next span), not c and r (continue, redo) */
/* clang-format off */
static const struct {
	char letter;
	unsigned kind;
} types[] = {
	{ 'L', WW_STK_EXTENDED },
	{ 'n', WW_STK_SELECTIVE },
	{ 'S', WW_STK_SHORT },
	{ 'C', WW_STK_CONVEYANCE },
	{ 'O', WW_STK_OFFLINE },
};
/* clang-format on */

int ww_selftest_sched_compile(const char *text, ww_selftest_sched_t **out, char *err, size_t errlen)
{
	ww_selftest_sched_t *s;
	int rc;

	if (!text || !out)
		return -EINVAL;
	if (!*text || strlen(text) >= WW_SELFTEST_SCHED_MAX) {
		if (err)
			snprintf(err, errlen, "expected a schedule of 1 to %d characters",
				 WW_SELFTEST_SCHED_MAX - 1);
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	rc = ww_pattern_compile(text, WW_PATTERN_WHOLE, &s->re, err, errlen);
	if (rc < 0) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* one text of smartd's form, "T/MM/DD/d/HH" */
static int match_text(const ww_selftest_sched_t *s, char letter, unsigned m, unsigned d, unsigned w,
		      unsigned h)
{
	char text[32];

	snprintf(text, sizeof(text), "%c/%02u/%02u/%u/%02u", letter, m, d, w, h);
	return ww_pattern_match(s->re, text);
}

int ww_selftest_sched_ever(const ww_selftest_sched_t *s)
{
	static const unsigned mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	const size_t nt = sizeof(types) / sizeof(types[0]);
	int r;

	if (!s)
		return 0;
	/* first a week's texts, each of them: an expression that hits the
	 * match limit on any would cost the limit on every hour the scheduler
	 * asks (WW_PATTERN_MATCH_STEPS each) */
	for (unsigned d = 1; d <= 7; d++)
		for (unsigned h = 0; h < 24; h++)
			for (size_t i = 0; i < nt; i++)
				if (match_text(s, types[i].letter, 1, d, d, h) < 0)
					return -E2BIG;
	/* every text smartd can build: month, each day it has (Feb 29 too),
	 * each weekday it can fall on, hour, type; the first match ends it,
	 * so a schedule that runs every day is known at once */
	for (unsigned m = 1; m <= 12; m++)
		for (unsigned d = 1; d <= mdays[m - 1]; d++)
			for (unsigned w = 1; w <= 7; w++)
				for (unsigned h = 0; h < 24; h++)
					for (size_t i = 0; i < nt; i++) {
						r = match_text(s, types[i].letter, m, d, w, h);
						if (r)
							return r == 1 ? 1 : -E2BIG;
					}
	return 0;
}

void ww_selftest_sched_free(ww_selftest_sched_t *s)
{
	if (!s)
		return;
	ww_pattern_free(s->re);
	free(s);
}

/* the start of the local hour holding t */
static time_t hour_start(time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return t - t % 3600;
	return t - tm.tm_min * 60 - tm.tm_sec;
}

/* The kind due in the hour holding t into *kind (WW_STK_NONE: none);
 * -E2BIG when a match hit the pattern limits: the callers stop there, so a
 * slow expression costs one limit, not one per hour of the horizon. */
static int due_at(const ww_selftest_sched_t *s, time_t t, unsigned kinds, unsigned *kind)
{
	struct tm tm;
	int r;

	*kind = WW_STK_NONE;
	if (!s || !localtime_r(&t, &tm))
		return 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (!(kinds >> types[i].kind & 1))
			continue;
		r = match_text(s, types[i].letter, (unsigned)tm.tm_mon + 1, (unsigned)tm.tm_mday,
			       tm.tm_wday ? (unsigned)tm.tm_wday : 7, (unsigned)tm.tm_hour);
		if (r < 0)
			return -E2BIG;
		if (r == 1) {
			*kind = types[i].kind;
			return 0;
		}
	}
	return 0;
}

unsigned ww_selftest_sched_due(const ww_selftest_sched_t *s, time_t t, unsigned kinds)
{
	unsigned k;

	due_at(s, t, kinds, &k);
	return k;
}

unsigned ww_selftest_sched_since(const ww_selftest_sched_t *s, time_t from, time_t now,
				 unsigned kinds)
{
	unsigned best = WW_STK_NONE, rank = ~0u;
	time_t t;

	if (!s || now < from)
		return WW_STK_NONE;
	if (now - from > WW_SELFTEST_HORIZON_S)
		from = now - WW_SELFTEST_HORIZON_S;
	for (t = hour_start(from); t <= now; t += 3600) {
		unsigned k;

		if (due_at(s, t, kinds, &k) < 0)
			break;
		for (unsigned i = 0; k && i < rank && i < sizeof(types) / sizeof(types[0]); i++)
			if (types[i].kind == k) {
				best = k, rank = i;
				break;
			}
		if (rank == 0)
			break; /* nothing outranks an extended test */
	}
	return best;
}

unsigned ww_selftest_kinds(const ww_health_t *h)
{
	const unsigned sl = 1u << WW_STK_SHORT | 1u << WW_STK_EXTENDED;
	unsigned k = 0, c;

	/* OACS bit 4: Device Self-test. smartctl's JSON has no OACS; it reads
	 * the Device Self-test log only when that bit is set (nvmeprint.cpp),
	 * so a log it relayed says the same */
	if (h->protocol == WW_PROTO_NVME && h->has_nvme_ctrl)
		return h->nvme_ctrl.oacs & 0x10 ? sl : 0;
	if (h->protocol == WW_PROTO_NVME)
		return h->self_tests[WW_SELFTEST_NVME].source ? sl : 0;
	if (h->protocol == WW_PROTO_SCSI)
		return sl; /* SPC-5: the default self-test and SEND DIAGNOSTIC codes */
	if (h->protocol != WW_PROTO_ATA || !h->ata.has_smart_caps)
		return 0;
	/* SMART READ DATA byte 367: bit 0 EXECUTE OFF-LINE IMMEDIATE, bit 4
	 * self-tests, bit 5 conveyance, bit 6 selective (smartmontools
	 * isSupportSelectiveSelfTest) */
	c = h->ata.offline_capability;
	if (c & 0x10)
		k |= sl;
	if (c & 0x20)
		k |= 1u << WW_STK_CONVEYANCE;
	/* a selective span needs the drive's size, and our own transport: a
	 * start through smartctl never sends -t select */
	if ((c & 0x40) && WW_HAS(h->capacity_bytes) && WW_HAS(h->logical_block_bytes) &&
	    h->capacity_bytes.value >= h->logical_block_bytes.value &&
	    h->logical_block_bytes.value && !(h->backend && !strcmp(h->backend, "smartctl")))
		k |= 1u << WW_STK_SELECTIVE;
	if (c & 0x01)
		k |= 1u << WW_STK_OFFLINE;
	return k;
}

void ww_selftest_plan(const ww_selftest_sched_t *s, time_t now, unsigned kinds,
		      ww_selftest_plan_t *p)
{
	time_t h0 = hour_start(now), t;

	memset(p, 0, sizeof(*p));
	if (!s)
		return;
	p->on = true;
	for (t = h0 + 3600; t <= now + WW_SELFTEST_HORIZON_S; t += 3600) {
		unsigned k;

		if (due_at(s, t, kinds, &k) < 0)
			return;
		if (k) {
			p->next = t;
			p->next_kind = k;
			break;
		}
	}
	for (t = h0; t >= now - WW_SELFTEST_HORIZON_S; t -= 3600) {
		unsigned k;

		if (due_at(s, t, kinds, &k) < 0)
			break;
		if (!k)
			continue;
		p->kinds |= 1u << k;
		if (!p->last[k])
			p->last[k] = t;
		else if (!p->before_last[k])
			p->before_last[k] = t;
	}
	if (p->next_kind)
		p->kinds |= 1u << p->next_kind;
}

uint64_t ww_selftest_next_span(uint64_t sectors, unsigned spans, uint64_t next,
			       ww_selftest_span_t *out)
{
	uint64_t size, end;

	memset(out, 0, sizeof(*out));
	if (!sectors || !spans)
		return 0;
	size = sectors / spans + (sectors % spans != 0);
	if (next >= sectors)
		next = 0;
	end = sectors - next > size ? next + size : sectors; /* one past the span */
	out->first_lba = next;
	out->last_lba = end - 1;
	return end >= sectors ? 0 : end;
}
