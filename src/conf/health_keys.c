/* The health keys of wearwatch.conf ([health], and per drive in [drive
 * NAME]) into the verdict's thresholds (model.h ww_health_cfg_t). One table:
 * the key, what it takes and what the error says; the bit in `set` is the
 * row. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/conf.h"

/* not formatted: the key table and its enums as written */
/* clang-format off */
enum hk_kind { HK_TEMP, HK_PERCENT, HK_DURATION, HK_IDS, HK_REASONS, HK_LEVEL, HK_SCHEDULE, HK_BOOL,
	       HK_COUNT };

/* the levels' rows: a warning and a critical row per ww_level_sig_t, in its
 * order, from HK_LEVEL0 (row HK_LEVEL0 + 2 * sig + 1 is the critical one) */
enum {
	HK_TEMP_WARNING, HK_TEMP_CRITICAL, HK_PCT_WARNING, HK_PCT_CRITICAL, HK_RATED_WARNING,
	HK_RATED_CRITICAL, HK_INCREASE_WINDOW, HK_READ_FAILING, HK_IGNORE, HK_CRITICAL,
	HK_SILENCE, HK_ST_SCHEDULE, HK_ST_STANDBY, HK_ST_CONCURRENT, HK_DRIFT_PERCENT,
	HK_DRIFT_BURSTS, HK_ST_SPANS, HK_LEVEL0, HK_MAX = HK_LEVEL0 + 2 * WW_LV_MAX
};

_Static_assert(HK_MAX <= 64, "ww_health_cfg_t.set is a 64-bit set");

#define HK_COUNT_MAX 2000000000 /* a count level; parse_int takes an int */
#define LEVEL_ROWS(sig, name)                                                                 \
	[HK_LEVEL0 + 2 * (sig)] = { name "_warning", HK_LEVEL, 1, HK_COUNT_MAX,                 \
				    "expected a count, 1 to 2000000000" },                       \
	[HK_LEVEL0 + 2 * (sig) + 1] = { name "_critical", HK_LEVEL, 0, HK_COUNT_MAX,            \
					"expected a count, 1 to 2000000000, or 0 for none" }

static const struct hkey {
	const char *key;
	enum hk_kind kind;
	int min, max;
	const char *expect;
} hkeys[HK_MAX] = {
	[HK_TEMP_WARNING] = { "temperature_warning", HK_TEMP, -40, 200,
			      "expected degrees Celsius, -40 to 200" },
	[HK_TEMP_CRITICAL] = { "temperature_critical", HK_TEMP, -40, 200,
			       "expected degrees Celsius, -40 to 200" },
	[HK_PCT_WARNING] = { "percentage_used_warning", HK_PERCENT, 1, 255,
			     "expected a percentage, 1 to 255" },
	[HK_PCT_CRITICAL] = { "percentage_used_critical", HK_PERCENT, 1, 255,
			      "expected a percentage, 1 to 255" },
	[HK_RATED_WARNING] = { "rated_endurance_warning", HK_PERCENT, 1, 1000,
			       "expected a percentage, 1 to 1000" },
	[HK_RATED_CRITICAL] = { "rated_endurance_critical", HK_PERCENT, 1, 1000,
				"expected a percentage, 1 to 1000" },
	[HK_INCREASE_WINDOW] = { "increase_window", HK_DURATION, 0, 0,
				 "expected a duration (1d, 12h)" },
	[HK_READ_FAILING] = { "read_failing_after", HK_DURATION, 0, 0,
			      "expected a duration (1h, 30m)" },
	[HK_IGNORE] = { "ignore_attributes", HK_IDS, 1, 255,
			"expected ATA attribute ids 1-255 separated by commas" },
	[HK_CRITICAL] = { "critical_attributes", HK_IDS, 1, 255,
			  "expected ATA attribute ids 1-255 separated by commas" },
	[HK_SILENCE] = { "silence", HK_REASONS, 0, 0,
			 "expected reason codes separated by commas (docs/health.md)" },
	[HK_ST_SCHEDULE] = { "self_test_schedule", HK_SCHEDULE, 0, 0,
			     "expected smartd's -s expression T/MM/DD/d/HH (L/../../6/03) or off" },
	[HK_ST_STANDBY] = { "self_test_in_standby", HK_BOOL, 0, 1, "expected yes or no" },
	[HK_ST_CONCURRENT] = { "self_test_concurrent", HK_COUNT, 1, 1000,
			       "expected a number of drives, 1 to 1000" },
	[HK_DRIFT_PERCENT] = { "latency_drift_percent", HK_PERCENT, 1, 1000,
			       "expected a percentage, 1 to 1000" },
	[HK_DRIFT_BURSTS] = { "latency_drift_bursts", HK_PERCENT, 1, 100,
			      "expected a number of bursts, 1 to 100" },
	[HK_ST_SPANS] = { "self_test_spans", HK_COUNT, 1, 1000,
			  "expected a number of spans, 1 to 1000" },
	LEVEL_ROWS(WW_LV_REALLOCATED, "reallocated_sectors"),
	LEVEL_ROWS(WW_LV_REPORTED_UNC, "reported_uncorrect"),
	LEVEL_ROWS(WW_LV_COMMAND_TIMEOUT, "command_timeout"),
	LEVEL_ROWS(WW_LV_REALLOC_EVENTS, "reallocation_events"),
	LEVEL_ROWS(WW_LV_PENDING, "pending_sectors"),
	LEVEL_ROWS(WW_LV_OFFLINE_UNC, "offline_uncorrectable"),
	LEVEL_ROWS(WW_LV_MEDIA_ERRORS, "media_errors"),
	LEVEL_ROWS(WW_LV_GROWN_DEFECTS, "grown_defects"),
	LEVEL_ROWS(WW_LV_SCSI_UNCORRECTED, "uncorrected_errors"),
};
/* clang-format on */

/* the level a level row sets */
static uint64_t *level_of(ww_health_cfg_t *c, int row)
{
	ww_level_t *l = &c->level[(row - HK_LEVEL0) / 2];

	return (row - HK_LEVEL0) % 2 ? &l->critical : &l->warning;
}

const char *ww_conf_health_key_name(size_t i)
{
	return i < HK_MAX ? hkeys[i].key : NULL;
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "5, 197 198": ids into a 256-bit set (an empty list clears it) */
static int parse_ids(const char *s, uint8_t set[32], char *bad, size_t blen)
{
	char buf[512], *save = NULL, *t;
	int id;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	memset(set, 0, 32);
	snprintf(buf, sizeof(buf), "%s", s);
	for (t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
		if (parse_int(t, 1, 255, &id)) {
			snprintf(bad, blen, "%s", t);
			return -EINVAL;
		}
		set[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	return 0;
}

static int parse_reasons(const char *s, uint64_t *set, char *bad, size_t blen)
{
	char buf[1024], *save = NULL, *t;
	int r;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	*set = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
		if ((r = ww_reason_by_name(t)) < 0) {
			snprintf(bad, blen, "%s", t);
			return -EINVAL;
		}
		*set |= 1ull << r;
	}
	return 0;
}

/* A smartd -s expression, compiled once here so a bad one is refused with
 * its file:line (the scheduler compiles its own); "off" = none */
static int parse_schedule(const char *v, char out[WW_SELFTEST_SCHED_MAX], char *bad, size_t blen)
{
	ww_selftest_sched_t *s = NULL;
	char e[160] = "";
	int rc;

	if (!strcmp(v, "off")) {
		out[0] = 0;
		return 0;
	}
	rc = ww_selftest_sched_compile(v, &s, e, sizeof(e));
	if (rc < 0) {
		snprintf(bad, blen, "%.*s", (int)(blen > 1 ? blen - 1 : 0), e[0] ? e : v);
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	rc = ww_selftest_sched_ever(s);
	if (rc < 0) {
		snprintf(bad, blen, "too slow: over %d match steps on texts like S/01/01/1/00",
			 WW_PATTERN_MATCH_STEPS);
		ww_selftest_sched_free(s);
		return -EINVAL;
	}
	if (!rc) {
		/* accepted, it would never start a test and say nothing */
		snprintf(bad, blen,
			 "it matches no hour: month, day and hour have two digits, "
			 "types are L, n, S, C, O");
		ww_selftest_sched_free(s);
		return -EINVAL;
	}
	ww_selftest_sched_free(s);
	snprintf(out, WW_SELFTEST_SCHED_MAX, "%s", v);
	return 0;
}

static int set_row(ww_health_cfg_t *c, int i, const char *v, char *bad, size_t blen)
{
	const struct hkey *k = &hkeys[i];
	unsigned *u[HK_MAX] = {
		[HK_PCT_WARNING] = &c->pct_used_warning,
		[HK_PCT_CRITICAL] = &c->pct_used_critical,
		[HK_RATED_WARNING] = &c->rated_warning,
		[HK_RATED_CRITICAL] = &c->rated_critical,
		[HK_INCREASE_WINDOW] = &c->increase_window_s,
		[HK_READ_FAILING] = &c->read_failing_after_s,
		[HK_DRIFT_PERCENT] = &c->drift_percent,
		[HK_DRIFT_BURSTS] = &c->drift_bursts,
		[HK_ST_CONCURRENT] = &c->self_test_concurrent,
		[HK_ST_SPANS] = &c->self_test_spans,
	};
	int n;

	switch (k->kind) {
	case HK_TEMP:
		if (parse_int(v, k->min, k->max, &n))
			return -EINVAL;
		if (i == HK_TEMP_WARNING)
			c->has_temp_warning = true, c->temp_warning_celsius = n;
		else
			c->has_temp_critical = true, c->temp_critical_celsius = n;
		return 0;
	case HK_PERCENT:
		if (parse_int(v, k->min, k->max, &n))
			return -EINVAL;
		*u[i] = (unsigned)n;
		return 0;
	case HK_DURATION:
		return ww_conf_parse_duration(v, u[i]);
	case HK_IDS:
		return parse_ids(v, i == HK_IGNORE ? c->ignore_attrs : c->critical_attrs, bad, blen);
	case HK_REASONS:
		return parse_reasons(v, &c->silenced, bad, blen);
	case HK_LEVEL:
		if (parse_int(v, k->min, k->max, &n))
			return -EINVAL;
		*level_of(c, i) = (uint64_t)n;
		return 0;
	case HK_SCHEDULE:
		return parse_schedule(v, c->self_test_schedule, bad, blen);
	case HK_BOOL:
		if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
			c->self_test_in_standby = true;
		else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
			c->self_test_in_standby = false;
		else
			return -EINVAL;
		return 0;
	case HK_COUNT:
		if (parse_int(v, k->min, k->max, &n))
			return -EINVAL;
		*u[i] = (unsigned)n;
		return 0;
	}
	return -EINVAL;
}

int ww_conf_health_key(ww_health_cfg_t *c, const char *key, const char *value, char *err,
		       size_t errlen)
{
	char bad[160] = "";

	for (int i = 0; i < HK_MAX; i++) {
		if (strcmp(key, hkeys[i].key))
			continue;
		if (set_row(c, i, value, bad, sizeof(bad))) {
			if (bad[0] && hkeys[i].kind == HK_SCHEDULE)
				/* bad is why, not the part of the value at fault */
				snprintf(err, errlen, "%s: %s, got '%s': %s", key, hkeys[i].expect,
					 value, bad);
			else if (bad[0])
				snprintf(err, errlen, "%s: %s; '%s' is not one", key, hkeys[i].expect,
					 bad);
			else
				snprintf(err, errlen, "%s: %s, got '%s'", key, hkeys[i].expect, value);
			return -EINVAL;
		}
		c->set |= 1ull << i;
		return 0;
	}
	return -ENOENT;
}

int ww_conf_health_check(const ww_health_cfg_t *c, char *err, size_t errlen)
{
	if (c->has_temp_warning && c->has_temp_critical &&
	    c->temp_warning_celsius >= c->temp_critical_celsius) {
		snprintf(err, errlen, "temperature_warning %d is not below temperature_critical %d",
			 c->temp_warning_celsius, c->temp_critical_celsius);
		return -EINVAL;
	}
	if (c->pct_used_warning > c->pct_used_critical) {
		snprintf(err, errlen, "percentage_used_warning %u is above "
			 "percentage_used_critical %u", c->pct_used_warning, c->pct_used_critical);
		return -EINVAL;
	}
	if (c->rated_warning > c->rated_critical) {
		snprintf(err, errlen, "rated_endurance_warning %u is above "
			 "rated_endurance_critical %u", c->rated_warning, c->rated_critical);
		return -EINVAL;
	}
	for (int s = 0; s < WW_LV_MAX; s++) {
		const ww_level_t *l = &c->level[s];

		if (l->critical && l->warning > l->critical) {
			snprintf(err, errlen, "%s %" PRIu64 " is above %s %" PRIu64,
				 hkeys[HK_LEVEL0 + 2 * s].key, l->warning,
				 hkeys[HK_LEVEL0 + 2 * s + 1].key, l->critical);
			return -EINVAL;
		}
	}
	return 0;
}

void ww_conf_health_overlay(ww_health_cfg_t *b, const ww_health_cfg_t *o)
{
	for (int i = 0; i < HK_MAX; i++) {
		if (!((o->set >> i) & 1))
			continue;
		switch (i) {
		case HK_TEMP_WARNING:
			b->has_temp_warning = o->has_temp_warning;
			b->temp_warning_celsius = o->temp_warning_celsius;
			break;
		case HK_TEMP_CRITICAL:
			b->has_temp_critical = o->has_temp_critical;
			b->temp_critical_celsius = o->temp_critical_celsius;
			break;
		case HK_PCT_WARNING: b->pct_used_warning = o->pct_used_warning; break;
		case HK_PCT_CRITICAL: b->pct_used_critical = o->pct_used_critical; break;
		case HK_RATED_WARNING: b->rated_warning = o->rated_warning; break;
		case HK_RATED_CRITICAL: b->rated_critical = o->rated_critical; break;
		case HK_INCREASE_WINDOW: b->increase_window_s = o->increase_window_s; break;
		case HK_READ_FAILING: b->read_failing_after_s = o->read_failing_after_s; break;
		case HK_IGNORE: memcpy(b->ignore_attrs, o->ignore_attrs, 32); break;
		case HK_CRITICAL: memcpy(b->critical_attrs, o->critical_attrs, 32); break;
		case HK_SILENCE: b->silenced = o->silenced; break;
		case HK_ST_SCHEDULE:
			memcpy(b->self_test_schedule, o->self_test_schedule,
			       sizeof(b->self_test_schedule));
			break;
		case HK_ST_STANDBY:
			b->self_test_in_standby = o->self_test_in_standby;
			break;
		case HK_ST_CONCURRENT:
			b->self_test_concurrent = o->self_test_concurrent;
			break;
		case HK_DRIFT_PERCENT:
			b->drift_percent = o->drift_percent;
			break;
		case HK_DRIFT_BURSTS:
			b->drift_bursts = o->drift_bursts;
			break;
		case HK_ST_SPANS:
			b->self_test_spans = o->self_test_spans;
			break;
		default: {
			const ww_level_t *ol = &o->level[(i - HK_LEVEL0) / 2];

			*level_of(b, i) = (i - HK_LEVEL0) % 2 ? ol->critical : ol->warning;
			break;
		}
		}
		b->set |= 1ull << i;
	}
}
