/* The JSON and CSV reports of a run (qualify.h; the JSON schema is
 * docs/qualify.md's). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "wearwatch/qualify.h"

static void add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static void add_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void add_dbl(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, isfinite(v) ? json_object_new_double(v) : NULL);
}

static void add_time(json_object *o, const char *k, long long t)
{
	char buf[32];
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	add_str(o, k, buf);
}

static json_object *stats_json(const ww_qualify_stats_t *s)
{
	json_object *o = json_object_new_object();

	add_u64(o, "ios", s->ios);
	add_u64(o, "errors", s->errors);
	add_u64(o, "bytes", s->bytes);
	add_dbl(o, "iops", s->iops);
	add_dbl(o, "mb_per_s", s->mb_per_s);
	add_dbl(o, "min_s", s->min_s);
	add_dbl(o, "mean_s", s->mean_s);
	add_dbl(o, "max_s", s->max_s);
	add_dbl(o, "stddev_s", s->stddev_s);
	add_dbl(o, "p50_s", s->p50_s);
	add_dbl(o, "p99_s", s->p99_s);
	add_dbl(o, "p999_s", s->p999_s);
	return o;
}

static json_object *point_json(const ww_qualify_point_t *p, bool per_second)
{
	json_object *o = json_object_new_object(), *a;
	ww_qualify_stats_t s;
	char load[32];
	uint64_t ios = p->rd.ios + p->wr.ios + p->rd.errors + p->wr.errors;

	snprintf(load, sizeof(load), "%uT%uQ", p->threads, p->depth);
	add_str(o, "load", load);
	add_u64(o, "threads", p->threads);
	add_u64(o, "depth", p->depth);
	add_dbl(o, "elapsed_s", p->elapsed_s);
	ww_qualify_acc_stats(&p->rd, p->elapsed_s, &s);
	json_object_object_add(o, "read", stats_json(&s));
	ww_qualify_acc_stats(&p->wr, p->elapsed_s, &s);
	json_object_object_add(o, "write", stats_json(&s));
	add_dbl(o, "cpu_user_s", p->cpu_user_s);
	add_dbl(o, "cpu_sys_s", p->cpu_sys_s);
	add_dbl(o, "cpu_s_per_io", ios ? (p->cpu_user_s + p->cpu_sys_s) / (double)ios : 0);
	if (!per_second)
		return o;
	a = json_object_new_array();
	for (unsigned i = 0; i < p->n_seconds; i++) {
		json_object *x = json_object_new_object();

		add_u64(x, "second", i + 1);
		json_object_object_add(x, "read", stats_json(&p->per_second[i].rd));
		json_object_object_add(x, "write", stats_json(&p->per_second[i].wr));
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "per_second", a);
	return o;
}

static json_object *health_json(const ww_health_t *h, const char *note)
{
	json_object *o = json_object_new_object();
	const struct {
		const char *key;
		const ww_u64 *v;
	} f[] = {
		{ "host_written_bytes", h ? &h->host_written_bytes : NULL },
		{ "host_read_bytes", h ? &h->host_read_bytes : NULL },
		{ "media_errors", h ? &h->media_errors : NULL },
		{ "endurance_used_percent", h ? &h->endurance_used_percent : NULL },
		{ "available_spare_percent", h ? &h->available_spare_percent : NULL },
		{ "media_written_bytes", h ? &h->media_written_bytes : NULL },
	};

	add_str(o, "note", note);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		json_object *v = json_object_new_object();

		if (!f[i].v || !f[i].v->source) {
			json_object_object_add(o, f[i].key, NULL);
			json_object_put(v);
			continue;
		}
		add_u64(v, "value", f[i].v->value);
		add_str(v, "source", f[i].v->source);
		json_object_object_add(o, f[i].key, v);
	}
	return o;
}

/* what the run cost the drive: after - before where both have the value */
static json_object *cost_json(const ww_health_t *a, const ww_health_t *b)
{
	json_object *o = json_object_new_object();
	const struct {
		const char *key;
		size_t off;
	} f[] = {
		{ "host_written_bytes", offsetof(ww_health_t, host_written_bytes) },
		{ "media_errors", offsetof(ww_health_t, media_errors) },
		{ "endurance_used_percent", offsetof(ww_health_t, endurance_used_percent) },
		{ "media_written_bytes", offsetof(ww_health_t, media_written_bytes) },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		const ww_u64 *x = a ? (const ww_u64 *)((const char *)a + f[i].off) : NULL;
		const ww_u64 *y = b ? (const ww_u64 *)((const char *)b + f[i].off) : NULL;

		if (!x || !y || !x->source || !y->source)
			json_object_object_add(o, f[i].key, NULL);
		else
			json_object_object_add(
				o, f[i].key, json_object_new_int64((int64_t)(y->value - x->value)));
	}
	return o;
}

char *ww_qualify_report_json(const ww_qualify_report_t *r)
{
	json_object *o = json_object_new_object(), *x, *a;
	const ww_qualify_profile_t *p = r->profile;
	char *out;

	add_str(o, "schema", WW_QUALIFY_SCHEMA);
	x = json_object_new_object();
	add_str(x, "name", "wearwatch");
	add_str(x, "version", r->version);
	json_object_object_add(o, "tool", x);

	x = json_object_new_object();
	add_str(x, "path", r->dev_path);
	add_str(x, "block", r->block);
	add_str(x, "id", r->id);
	add_str(x, "serial", r->serial);
	add_str(x, "model", r->model);
	add_str(x, "firmware", r->firmware);
	add_u64(x, "capacity_bytes", r->capacity_bytes);
	add_u64(x, "logical_block_bytes", r->lbs);
	json_object_object_add(o, "device", x);

	x = json_object_new_object();
	add_str(x, "name", p->name);
	a = json_object_new_array();
	for (unsigned i = 0; i < p->n_sizes; i++) {
		json_object *s = json_object_new_object();

		add_u64(s, "bytes", p->sizes[i].bytes);
		add_u64(s, "percent", p->sizes[i].percent);
		json_object_array_add(a, s);
	}
	json_object_object_add(x, "sizes", a);
	add_u64(x, "read_percent", p->read_percent);
	add_str(x, "pattern", p->random ? "random" : "sequential");
	add_str(x, "source", p->source);
	json_object_object_add(o, "profile", x);

	add_time(o, "started", r->started);
	add_time(o, "finished", r->finished);
	add_u64(o, "seconds_per_point", r->seconds);
	json_object_object_add(o, "writes", json_object_new_boolean(r->writes));

	if (r->preconditioned) {
		json_object *pc = json_object_new_object(), *ss = json_object_new_object();

		json_object_object_add(pc, "fill", r->fill ? point_json(r->fill, false) : NULL);
		add_u64(pc, "round_seconds", r->round_seconds);
		a = json_object_new_array();
		for (unsigned i = 0; i < r->n_rounds; i++) {
			json_object *rd = point_json(&r->rounds[i], false);

			add_u64(rd, "round", i + 1);
			json_object_array_add(a, rd);
		}
		json_object_object_add(pc, "rounds", a);
		json_object_object_add(ss, "reached", json_object_new_boolean(r->steady.reached));
		add_str(ss, "variable", "IOPS (reads + writes) per round");
		add_u64(ss, "window_first_round",
			r->n_rounds >= WW_PTS_WINDOW_ROUNDS ? r->steady.first + 1 : 0);
		add_u64(ss, "window_last_round",
			r->n_rounds >= WW_PTS_WINDOW_ROUNDS ? r->steady.last + 1 : 0);
		add_dbl(ss, "average", r->steady.average);
		add_dbl(ss, "range", r->steady.range);
		add_dbl(ss, "range_ratio", r->steady.range_ratio);
		add_dbl(ss, "range_limit", WW_PTS_RANGE_LIMIT);
		add_dbl(ss, "slope_excursion", r->steady.slope_excursion);
		add_dbl(ss, "slope_ratio", r->steady.slope_ratio);
		add_dbl(ss, "slope_limit", WW_PTS_SLOPE_LIMIT);
		add_u64(ss, "window_rounds", WW_PTS_WINDOW_ROUNDS);
		add_u64(ss, "max_rounds", WW_PTS_MAX_ROUNDS);
		add_str(ss, "rule", "SNIA SSS PTS Enterprise 2.0.2, 2.1.24 and 3.2.1.2.3");
		json_object_object_add(pc, "steady_state", ss);
		json_object_object_add(o, "precondition", pc);
	} else {
		json_object_object_add(o, "precondition", NULL);
	}

	a = json_object_new_array();
	for (unsigned i = 0; i < r->n_points; i++)
		json_object_array_add(a, point_json(&r->points[i], true));
	json_object_object_add(o, "points", a);

	x = json_object_new_object();
	json_object_object_add(x, "before", health_json(r->before, r->before_note));
	json_object_object_add(x, "after", health_json(r->after, r->after_note));
	json_object_object_add(x, "cost", cost_json(r->before, r->after));
	json_object_object_add(o, "health", x);

	x = json_object_new_object();
	add_u64(x, "bytes_written", r->tally.bytes_written);
	add_u64(x, "writes", r->tally.writes);
	add_u64(x, "write_errors", r->tally.write_errors);
	add_u64(x, "bytes_read", r->tally.bytes_read);
	add_u64(x, "reads", r->tally.reads);
	add_u64(x, "errors", r->tally.errors);
	if (r->tally.writes) {
		add_u64(x, "lowest_written_offset", r->tally.lowest_written);
		add_u64(x, "highest_written_end", r->tally.highest_written);
	}
	add_str(x, "stopped", r->tally.stopped);
	add_str(x, "last_error", r->tally.last_error ? strerror(-r->tally.last_error) : NULL);
	json_object_object_add(o, "totals", x);
	add_str(o, "compared_with", r->compare_path);
	json_object_object_add(o, "comparison", ww_qualify_compare_json(r));

	out = strdup(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return out;
}

int ww_qualify_report_csv(FILE *f, const ww_qualify_report_t *r)
{
	fputs("profile,load,threads,depth,second,kind,ios,errors,iops,mb_per_s,mean_us,min_us,"
	      "max_us,stddev_us,p50_us,p99_us,p999_us\n",
	      f);
	for (unsigned i = 0; i < r->n_points; i++) {
		const ww_qualify_point_t *p = &r->points[i];

		for (unsigned s = 0; s < p->n_seconds; s++)
			for (int k = 0; k < 2; k++) {
				const ww_qualify_stats_t *x = k ? &p->per_second[s].wr
								: &p->per_second[s].rd;

				if (!x->ios && !x->errors)
					continue;
				fprintf(f,
					"%s,%uT%uQ,%u,%u,%u,%s,%" PRIu64 ",%" PRIu64
					",%.1f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n",
					r->profile->name, p->threads, p->depth, p->threads,
					p->depth, s + 1, k ? "write" : "read", x->ios, x->errors,
					x->iops, x->mb_per_s, x->mean_s * 1e6, x->min_s * 1e6,
					x->max_s * 1e6, x->stddev_s * 1e6, x->p50_s * 1e6,
					x->p99_s * 1e6, x->p999_s * 1e6);
			}
	}
	return ferror(f) ? -EIO : 0;
}
