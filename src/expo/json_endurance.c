/* JSON of the endurance results and of history queries (docs/api.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "wearwatch/store.h"
#include "wearwatch/expo.h"
#include "expo/metrics_table.h"

static void add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static json_object *opt_d(bool has, double v)
{
	return has ? json_object_new_double(v) : NULL;
}

static json_object *opt_u64(bool has, uint64_t v)
{
	return has ? json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v) : NULL;
}

static json_object *opt_t(bool has, time_t v)
{
	return has ? json_object_new_int64((int64_t)v) : NULL;
}

void *ww_json_endurance_object(ww_store_endurance_t *svc, const char *id)
{
	ww_endurance_t e;

	if (!ww_expo_endurance(svc, id, &e))
		return NULL;
	return ww_json_endurance_of(&e);
}

void *ww_json_endurance_of(const ww_endurance_t *ep)
{
	const ww_endurance_t e = *ep;
	json_object *o, *r, *w, *x;

	o = json_object_new_object();
	r = json_object_new_object();
	add(r, "source", json_object_new_string(ww_rating_source_name(e.rating_source)));
	add(r, "stated", json_object_new_boolean(ww_rating_source_stated(e.rating_source)));
	add(r, "note", json_object_new_string(e.rating_note));
	if (e.rating_source != WW_RATING_NONE) {
		add(r, "row", e.rating_ref[0] ? json_object_new_string(e.rating_ref) : NULL);
		add(r, "line", e.rating_row[0] ? json_object_new_string(e.rating_row) : NULL);
		add(r, "workload_basis",
		    e.rating_basis[0] ? json_object_new_string(e.rating_basis) : NULL);
		add(r, "rated_written_bytes", opt_u64(e.has_rated_bytes, e.rated_bytes));
		add(r, "rated_writes_per_day", opt_d(e.has_rated_dwpd, e.rated_dwpd));
		add(r, "warranty_years", e.warranty_years ? json_object_new_int(e.warranty_years) : NULL);
	}
	if (e.rating_source == WW_RATING_DERIVED) {
		x = json_object_new_object();
		add(x, "used_percent", json_object_new_int64(e.derived_used_percent));
		add(x, "used_source", json_object_new_string(e.derived_used_source));
		add(x, "used_label", json_object_new_string(e.derived_used_label));
		add(x, "slack_percent", json_object_new_int(WW_DERIVED_SLACK_PERCENT));
		add(x, "rated_written_bytes_low", opt_u64(e.has_rated_range, e.rated_bytes_low));
		add(x, "rated_written_bytes_high", opt_u64(e.has_rated_range, e.rated_bytes_high));
		add(r, "derived", x);
	}
	add(r, "capacity_basis", json_object_new_string(ww_capacity_basis_name(e.capacity_basis)));
	add(r, "capacity_bytes", e.capacity_bytes ? json_object_new_int64((int64_t)e.capacity_bytes) : NULL);
	add(o, "rating", r);
	add(o, "rated_endurance_used_ratio", opt_d(e.has_rated_used, e.rated_used_ratio));
	add(o, "endurance_used_ratio", opt_d(e.has_drive_used, e.drive_used_ratio));
	add(o, "endurance_used_disagree", json_object_new_boolean(e.used_disagree));
	w = json_object_new_object();
	for (int i = 0; i < WW_WIN_MAX; i++)
		add(w, ww_window_name[i], opt_d(e.has_window[i], e.window_dwpd[i]));
	add(w, "lifetime", opt_d(e.has_lifetime_dwpd, e.lifetime_dwpd));
	add(o, "writes_per_day", w);
	x = json_object_new_object();
	add(x, "timestamp", opt_t(e.warranty_start_basis != WW_WS_NONE, e.warranty_start));
	add(x, "basis", json_object_new_string(ww_wstart_basis_name(e.warranty_start_basis)));
	add(o, "warranty_start", x);
	add(o, "warranty_end_timestamp", opt_t(e.has_warranty_end, e.warranty_end));
	x = json_object_new_object();
	add(x, "write_rate_30d", opt_t(e.has_wearout_write_rate, e.wearout_write_rate));
	add(x, "percentage_used", opt_t(e.has_wearout_pct, e.wearout_pct));
	add(o, "wearout", x);
	add(o, "write_amplification", opt_d(e.has_waf, e.write_amplification));
	add(o, "workload_utilization_ratio", opt_d(e.has_utilization, e.utilization_ratio));
	return o;
}

/* Times a query may name: RFC 3339's years 0001-9999. Keeps `to - 7 days`
 * and the bucket arithmetic (to - from) in ww_history_query() from
 * overflowing time_t on "from=-9223372036854775808". */
#define WW_TIME_MIN (-62135596800LL)
#define WW_TIME_MAX 253402300799LL

/* Epoch seconds or RFC 3339 ("2024-01-31T12:00:00Z", "...+02:00", fraction ok). */
static int parse_time(const char *s, time_t *out)
{
	struct tm tm = { 0 };
	char *end;
	long long v;
	long off = 0;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!errno && *s && !*end) {
		if (v < WW_TIME_MIN || v > WW_TIME_MAX)
			return -ERANGE;
		*out = (time_t)v;
		return 0;
	}
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		end = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end)
		return -EINVAL;
	if (*end == '.')
		while (*++end >= '0' && *end <= '9')
			;
	if (*end == 'Z' || *end == 'z') {
		end++;
	} else if ((*end == '+' || *end == '-') && strlen(end) == 6 && end[3] == ':') {
		int hh = atoi(end + 1), mm = atoi(end + 4);

		off = (hh * 3600L + mm * 60L) * (*end == '+' ? 1 : -1);
		end += 6;
	} else {
		return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	v = (long long)timegm(&tm);
	if (v < WW_TIME_MIN + 86400 || v > WW_TIME_MAX - 86400)
		return -ERANGE;
	*out = (time_t)(v - off);
	return 0;
}

static char *err_body(const char *msg, const char *id)
{
	json_object *o = json_object_new_object();
	char *b;

	add(o, "error", json_object_new_string(msg));
	if (id)
		add(o, "drive", json_object_new_string(id));
	b = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return b;
}

/* "metric required (one of: a, b, ...)" or "unknown metric 'x' (one of: ...)",
 * the names from the history's own table */
static char *metric_error(const char *metric)
{
	char msg[1024];
	size_t o;

	o = (size_t)snprintf(msg, sizeof(msg), "%s%s%s (one of: ", metric ? "unknown metric '" :
			     "metric required", metric ? metric : "", metric ? "'" : "");
	for (int i = 0; i < WW_HM_MAX && o < sizeof(msg); i++)
		o += (size_t)snprintf(msg + o, sizeof(msg) - o, "%s%s", i ? ", " : "",
				      ww_hmetrics[i].name);
	if (o < sizeof(msg))
		snprintf(msg + o, sizeof(msg) - o, ")");
	return err_body(msg, NULL);
}

char *ww_json_render_history(const ww_render_ctx_t *ctx, const char *id, const char *metric,
			     const char *from, const char *to, const char *max_points,
			     unsigned *status)
{
	ww_history_t *hist = ww_store_endurance_history(ctx->endurance);
	time_t t_from, t_to = ctx->now;
	unsigned long maxp = 500;
	ww_hpoint_t *pts = NULL;
	json_object *o, *a;
	long n;
	int m;
	char *b;

	if (!hist) {
		*status = 503;
		return err_body("history disabled", NULL);
	}
	m = ww_hmetric_find(metric);
	*status = 400;
	if (m < 0)
		return metric_error(metric);
	if (to && parse_time(to, &t_to))
		return err_body("bad to", NULL);
	t_from = t_to - 7 * 86400;
	if (from && parse_time(from, &t_from))
		return err_body("bad from", NULL);
	if (max_points) {
		char *end;

		errno = 0;
		maxp = strtoul(max_points, &end, 10);
		if (errno || *end || !*max_points || maxp < 1 || maxp > 10000)
			return err_body("bad max_points", NULL);
	}
	if (t_to < t_from)
		return err_body("bad from", NULL);
	n = ww_history_query(hist, id, (ww_hmetric_t)m, t_from, t_to, (unsigned)maxp, &pts);
	if (n == -ENOENT) {
		*status = 404;
		return err_body("no history for this drive", id);
	}
	if (n == -ETIME || n == -EAGAIN) {
		/* bounded: the reason, and a retry may work */
		*status = 503;
		return err_body(n == -ETIME ? "history query over its time budget: ask for a "
					       "shorter range or fewer points" :
					       "history database unavailable", id);
	}
	if (n < 0) {
		*status = 500;
		return err_body("history query failed", id);
	}
	*status = 200;
	o = json_object_new_object();
	add(o, "drive", json_object_new_string(id));
	add(o, "metric", json_object_new_string(ww_hmetrics[m].name));
	add(o, "unit", json_object_new_string(ww_hmetrics[m].unit));
	add(o, "kind", json_object_new_string(ww_hmetrics[m].counter ? "counter" : "gauge"));
	add(o, "from", json_object_new_int64(t_from));
	add(o, "to", json_object_new_int64(t_to));
	add(o, "max_points", json_object_new_int64((int64_t)maxp));
	a = json_object_new_array();
	for (long i = 0; i < n; i++) {
		json_object *p = json_object_new_array();
		double v = pts[i].value;

		json_object_array_add(p, json_object_new_int64(pts[i].t));
		/* an integer when whole and in int64 range (the cast is
		 * undefined outside it: 1e19 is printed as a double) */
		if (!pts[i].has_value)
			json_object_array_add(p, NULL);
		/* cppcheck-suppress incorrectLogicOperator ; cppcheck 2.10 misreads hex floats */
		else if (v >= -0x1p63 && v < 0x1p63 && v == (double)(int64_t)v)
			json_object_array_add(p, json_object_new_int64((int64_t)v));
		else {
			/* 15 significant digits: 0.0002 stays "0.0002" (json-c's
			 * default %.17g would print 0.00020000000000000001) */
			char txt[32];

			snprintf(txt, sizeof(txt), "%.15g", v);
			json_object_array_add(p, json_object_new_double_s(v, txt));
		}
		json_object_array_add(p, json_object_new_int64(pts[i].segment));
		json_object_array_add(a, p);
	}
	add(o, "points", a);
	free(pts);
	b = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return b;
}
