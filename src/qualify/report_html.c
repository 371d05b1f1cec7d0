/* The HTML report (qualify.h): tables written here, charts drawn in the
 * page by Chart.js (Debian's libjs-chart.js, the copy the dashboard
 * embeds) from the report's JSON, both inlined so the file opens offline.
 * The page only draws what the JSON says; it computes nothing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "wearwatch/qualify.h"
#include "wearwatch/web.h"

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* text inside <script>: "</" would end it */
static void script_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<' && i + 1 < n && s[i + 1] == '/') {
			fputs("<\\/", f);
			i++;
			continue;
		}
		fputc(s[i], f);
	}
}

static void stat_cells(FILE *f, const ww_qualify_stats_t *s)
{
	if (!s->ios && !s->errors) {
		fputs("<td colspan=8 class=none>-</td>", f);
		return;
	}
	fprintf(f,
		"<td>%.0f</td><td>%.1f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>"
		"<td>%.3f</td><td>%.3f</td>",
		s->iops, s->mb_per_s, s->mean_s * 1e3, s->max_s * 1e3, s->stddev_s * 1e3,
		s->p50_s * 1e3, s->p99_s * 1e3, s->p999_s * 1e3);
}

static void health_row(FILE *f, const char *label, const ww_u64 *b, const ww_u64 *a)
{
	fprintf(f, "<tr><th>%s</th>", label);
	for (int k = 0; k < 2; k++) {
		const ww_u64 *v = k ? a : b;

		if (v && v->source) {
			fputs("<td title=\"", f);
			esc(f, v->source);
			fprintf(f, "\">%llu</td>", (unsigned long long)v->value);
		} else {
			fputs("<td class=none>-</td>", f);
		}
	}
	if (a && b && a->source && b->source)
		fprintf(f, "<td>%lld</td>", (long long)(a->value - b->value));
	else
		fputs("<td class=none>-</td>", f);
	fputs("</tr>\n", f);
}

/* a string of the old report at o.k1[.k2], "-" when it has none */
static const char *old_str(const struct json_object *o, const char *k1, const char *k2)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k1, &v))
		return "-";
	if (k2 &&
	    (!json_object_is_type(v, json_type_object) || !json_object_object_get_ex(v, k2, &v)))
		return "-";
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "-";
}

/* --compare: the two runs side by side, point by point */
static void compare_html(FILE *f, const ww_qualify_report_t *r)
{
	/* not formatted: the columns, each figure's unit and decimals */
	/* clang-format off */
	static const struct { const char *head; double scale; int decimals; } col[WW_QCMP_N] = {
		[WW_QCMP_IOPS] = { "IOPS",   1,   0 },
		[WW_QCMP_MEAN] = { "avg ms", 1e3, 3 },
		[WW_QCMP_P99]  = { "p99 ms", 1e3, 3 },
		[WW_QCMP_MAX]  = { "max ms", 1e3, 3 },
	};
	/* clang-format on */
	size_t n = ww_qualify_compare_rows(r->compare, r, NULL, 0);
	ww_qualify_cmp_row_t *rows = n ? calloc(n, sizeof(*rows)) : NULL;
	char started[32];
	time_t t = (time_t)r->started;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("<h2>Compared with ", f);
	esc(f, r->compare_path);
	fputs("</h2>\n<table>\n<tr><th></th><th class=l>this run</th><th class=l>old run</th></tr>\n"
	      "<tr><th class=l>started</th><td class=l>",
	      f);
	esc(f, started);
	fputs("</td><td class=l>", f);
	esc(f, old_str(r->compare, "started", NULL));
	fputs("</td></tr>\n<tr><th class=l>profile</th><td class=l>", f);
	esc(f, r->profile->name);
	fputs("</td><td class=l>", f);
	esc(f, old_str(r->compare, "profile", "name"));
	fputs("</td></tr>\n<tr><th class=l>drive</th><td class=l>", f);
	esc(f, r->id);
	fputs(" ", f);
	esc(f, r->serial);
	fputs("</td><td class=l>", f);
	esc(f, old_str(r->compare, "device", "id"));
	fputs(" ", f);
	esc(f, old_str(r->compare, "device", "serial"));
	fputs("</td></tr>\n</table>\n", f);
	if (n && !rows) {
		fputs("<p>out of memory</p>\n", f);
		return;
	}
	ww_qualify_compare_rows(r->compare, r, rows, n);
	fputs("<table>\n<tr><th rowspan=2>load</th><th rowspan=2>kind</th>", f);
	for (unsigned k = 0; k < WW_QCMP_N; k++)
		fprintf(f, "<th colspan=3>%s</th>", col[k].head);
	fputs("</tr>\n<tr>", f);
	for (unsigned k = 0; k < WW_QCMP_N; k++)
		fputs("<th>old</th><th>new</th><th>change</th>", f);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<tr><th>%uT%uQ</th><td class=l>%s</td>", rows[i].threads, rows[i].depth,
			rows[i].write ? "write" : "read");
		for (unsigned k = 0; k < WW_QCMP_N; k++) {
			double c = ww_qualify_compare_change(&rows[i], k);

			if (isnan(rows[i].old[k]))
				fputs("<td class=none>-</td>", f);
			else
				fprintf(f, "<td>%.*f</td>", col[k].decimals,
					rows[i].old[k] * col[k].scale);
			fprintf(f, "<td>%.*f</td>", col[k].decimals, rows[i].now[k] * col[k].scale);
			if (isnan(c))
				fputs("<td class=none>-</td>", f);
			else
				fprintf(f, "<td>%+.1f %%</td>", c);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	bool first = true;

	for (unsigned i = 0; i < r->n_points; i++)
		if (!ww_qualify_compare_matched(r->compare, &r->points[i])) {
			fprintf(f, "%s%uT%uQ", first ? "<p>Not in the old run: " : ", ",
				r->points[i].threads, r->points[i].depth);
			first = false;
		}
	if (!first)
		fputs("</p>\n", f);
	free(rows);
}

static const char page_js[] =
	"(function(){\n"
	"var R=JSON.parse(document.getElementById('report').textContent);\n"
	"var C=['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#7f7f7f',"
	"'#bcbd22','#17becf'];\n"
	"function col(i){return C[i%C.length];}\n"
	"function kinds(){var k=[];R.points.forEach(function(p){['read','write'].forEach("
	"function(x){if(p[x].ios>0&&k.indexOf(x)<0)k.push(x);});});return k;}\n"
	"function scatter(id,kind,key,label){var ds=R.points.map(function(p,i){return{label:p.load,"
	"backgroundColor:col(i),pointRadius:2,showLine:false,data:p.per_second.filter("
	"function(s){return s[kind].ios>0;}).map(function(s){return{x:s.second,y:s[kind][key]*1e3};})};});"
	"new Chart(document.getElementById(id),{type:'scatter',data:{datasets:ds},options:{"
	"animation:false,plugins:{title:{display:true,text:label}},scales:{x:{title:{display:true,"
	"text:'second'}},y:{title:{display:true,text:'ms'},beginAtZero:true}}}});}\n"
	"function sweep(id,kind){var ds=['mean_s','p99_s','max_s'].map(function(k,i){return{label:"
	"kind+' '+k.replace('_s',''),borderColor:col(i),backgroundColor:col(i),showLine:true,data:"
	"R.points.map(function(p){return{x:p[kind].iops,y:p[kind][k]*1e3,load:p.load};})};});"
	"new Chart(document.getElementById(id),{type:'scatter',data:{datasets:ds},options:{"
	"animation:false,plugins:{title:{display:true,text:kind+': latency against IOPS across the "
	"load points'},tooltip:{callbacks:{label:function(c){return c.raw.load+': '+c.raw.x.toFixed(0)"
	"+' IOPS, '+c.raw.y.toFixed(3)+' ms';}}}},scales:{x:{title:{display:true,text:'IOPS'}},"
	"y:{type:'logarithmic',title:{display:true,text:'ms'}}}}});}\n"
	"var box=document.getElementById('charts');\n"
	"function canvas(){var d=document.createElement('div');d.className='chart';var c="
	"document.createElement('canvas');d.appendChild(c);box.appendChild(d);c.id='c'+box.children.length;"
	"return c.id;}\n"
	"kinds().forEach(function(k){scatter(canvas(),k,'mean_s',k+': average latency per second');"
	"scatter(canvas(),k,'p99_s',k+': p99 latency per second');scatter(canvas(),k,'max_s',k+"
	"': maximum latency per second');sweep(canvas(),k);});\n"
	"if(R.comparison&&R.comparison.rows.length){['read','write'].forEach(function(k){"
	"var rs=R.comparison.rows.filter(function(r){return r.kind===k;});if(!rs.length)return;"
	"var ds=['old','new'].map(function(w,i){return{label:(w==='old'?'old run':'this run')+' p99',"
	"borderColor:col(i),backgroundColor:col(i),showLine:true,data:rs.filter(function(r){return "
	"r[w].p99_s!==null&&r[w].iops!==null;}).map(function(r){return{x:r[w].iops,y:r[w].p99_s*1e3,"
	"load:r.load};})};});new Chart(document.getElementById(canvas()),{type:'scatter',data:{"
	"datasets:ds},options:{animation:false,plugins:{title:{display:true,text:k+': p99 against "
	"IOPS, this run and the old one'},tooltip:{callbacks:{label:function(c){return c.raw.load+"
	"': '+c.raw.x.toFixed(0)+' IOPS, '+c.raw.y.toFixed(3)+' ms';}}}},scales:{x:{title:{display:"
	"true,text:'IOPS'}},y:{type:'logarithmic',title:{display:true,text:'ms'}}}}});});}\n"
	"if(R.precondition&&R.precondition.rounds.length){var pc=R.precondition,ss=pc.steady_state;"
	"var y=pc.rounds.map(function(r){return r.read.iops+r.write.iops;});"
	"var ds=[{label:'IOPS per round',borderColor:col(0),backgroundColor:col(0),data:y}];"
	"if(ss.window_first_round){ds.push({label:'window average',borderColor:col(2),pointRadius:0,"
	"data:y.map(function(v,i){return i+1>=ss.window_first_round?ss.average:null;})});}"
	"new Chart(document.getElementById(canvas()),{type:'line',data:{labels:y.map(function(v,i){"
	"return i+1;}),datasets:ds},options:{animation:false,plugins:{title:{display:true,text:"
	"'preconditioning rounds ('+(ss.reached?'steady state reached':'no steady state')+')'}},"
	"scales:{y:{beginAtZero:true}}}});}\n"
	"})();\n";

int ww_qualify_report_html(FILE *f, const ww_qualify_report_t *r)
{
	const ww_web_asset_t *chart = ww_web_lookup("/assets/chart.min.js");
	char *js = ww_qualify_report_json(r);
	char sz[128];

	if (!js)
		return -ENOMEM;
	fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\n<title>", f);
	esc(f, r->profile->name);
	fputs(" on ", f);
	esc(f, r->dev_path);
	fputs(" - wearwatch qualify</title>\n<style>\n"
	      "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}\n"
	      "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
	      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\n"
	      "th{background:#f2f2f2}th[colspan]{text-align:center}td.none{color:#999;text-align:center}\n"
	      "th.l,td.l{text-align:left}.chart{width:46%;display:inline-block;margin:1%}\n"
	      "</style>\n</head><body>\n<h1>",
	      f);
	esc(f, r->profile->name);
	fputs(" on ", f);
	esc(f, r->dev_path);
	fputs("</h1>\n<table>\n<tr><th class=l>model</th><td class=l>", f);
	esc(f, r->model);
	fputs("</td></tr>\n<tr><th class=l>serial</th><td class=l>", f);
	esc(f, r->serial);
	fputs("</td></tr>\n<tr><th class=l>id</th><td class=l>", f);
	esc(f, r->id);
	fprintf(f,
		"</td></tr>\n<tr><th class=l>capacity</th><td class=l>%llu bytes, %u-byte blocks"
		"</td></tr>\n<tr><th class=l>profile</th><td class=l>",
		(unsigned long long)r->capacity_bytes, r->lbs);
	fprintf(f, "%s, %u %% read, %s; ", ww_qualify_sizes_label(r->profile, sz, sizeof(sz)),
		r->profile->read_percent, r->profile->random ? "random" : "sequential");
	esc(f, r->profile->source);
	fprintf(f,
		"</td></tr>\n<tr><th class=l>per load point</th><td class=l>%u s</td></tr>\n"
		"<tr><th class=l>written</th><td class=l>%llu bytes in %llu writes%s%s</td></tr>\n"
		"</table>\n",
		r->seconds, (unsigned long long)r->tally.bytes_written,
		(unsigned long long)r->tally.writes, r->tally.stopped ? "; stopped: " : "",
		r->tally.stopped ? r->tally.stopped : "");

	fputs("<h2>Load points</h2>\n<table>\n<tr><th rowspan=2>load</th><th colspan=8>read</th>"
	      "<th colspan=8>write</th></tr>\n<tr>",
	      f);
	for (int k = 0; k < 2; k++)
		fputs("<th>IOPS</th><th>MB/s</th><th>avg ms</th><th>max ms</th><th>sd ms</th>"
		      "<th>p50 ms</th><th>p99 ms</th><th>p99.9 ms</th>",
		      f);
	fputs("</tr>\n", f);
	for (unsigned i = 0; i < r->n_points; i++) {
		const ww_qualify_point_t *p = &r->points[i];
		ww_qualify_stats_t s;

		fprintf(f, "<tr><th>%uT%uQ</th>", p->threads, p->depth);
		ww_qualify_acc_stats(&p->rd, p->elapsed_s, &s);
		stat_cells(f, &s);
		ww_qualify_acc_stats(&p->wr, p->elapsed_s, &s);
		stat_cells(f, &s);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (r->compare)
		compare_html(f, r);

	if (r->preconditioned) {
		fprintf(f,
			"<h2>Preconditioning</h2>\n<p>%s after %u round%s of %u s at %uT%uQ "
			"(SNIA SSS PTS Enterprise 2.0.2: the last %u rounds within %.0f %% "
			"range and %.0f %% fitted slope of their average).",
			r->steady.reached ? "Steady state" : "No steady state", r->n_rounds,
			r->n_rounds == 1 ? "" : "s", r->round_seconds,
			r->n_rounds ? r->rounds[0].threads : 0,
			r->n_rounds ? r->rounds[0].depth : 0, (unsigned)WW_PTS_WINDOW_ROUNDS,
			WW_PTS_RANGE_LIMIT * 100, WW_PTS_SLOPE_LIMIT * 100);
		if (r->n_rounds >= WW_PTS_WINDOW_ROUNDS)
			fprintf(f,
				" Window rounds %u-%u: average %.0f IOPS, range %.1f %%, "
				"slope excursion %.1f %%.",
				r->steady.first + 1, r->steady.last + 1, r->steady.average,
				r->steady.range_ratio * 100, r->steady.slope_ratio * 100);
		fputs("</p>\n", f);
	}

	fputs("<h2>Health record before and after</h2>\n<table>\n<tr><th></th><th>before</th>"
	      "<th>after</th><th>after - before</th></tr>\n",
	      f);
	health_row(f, "host written bytes", r->before ? &r->before->host_written_bytes : NULL,
		   r->after ? &r->after->host_written_bytes : NULL);
	health_row(f, "media errors", r->before ? &r->before->media_errors : NULL,
		   r->after ? &r->after->media_errors : NULL);
	health_row(f, "endurance used %", r->before ? &r->before->endurance_used_percent : NULL,
		   r->after ? &r->after->endurance_used_percent : NULL);
	fputs("</table>\n", f);
	if (r->before_note || r->after_note) {
		fputs("<p>", f);
		esc(f, r->before_note ? r->before_note : r->after_note);
		fputs("</p>\n", f);
	}
	fputs("<h2>Per second</h2>\n<div id=charts></div>\n", f);
	fputs("<script type=\"application/json\" id=report>", f);
	script_text(f, js, strlen(js));
	fputs("</script>\n<script>", f);
	if (chart)
		script_text(f, (const char *)chart->data, chart->len);
	fputs("</script>\n<script>", f);
	fputs(page_js, f);
	fputs("</script>\n</body></html>\n", f);
	free(js);
	return ferror(f) ? -EIO : 0;
}
