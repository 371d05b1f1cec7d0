/* Endurance options of `wearwatch serve` (see endurance_opts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/endurance_opts.h"
#include "daemon/history_log.h"
#include "daemon/log.h"

void ww_endurance_serve_usage(FILE *f)
{
	fprintf(f,
		"  --state-dir DIR                 history database directory (default " WW_HISTORY_DEFAULT_DIR ")\n"
		"  --no-history                    keep no history (no DWPD windows, no wear-out at write rate)\n"
		"  --rating PATTERN=DWPD:YEARS[:CAPACITY_BYTES][@YYYY-MM-DD]\n"
		"  --rating PATTERN=BYTES{B,GB,TB,PB}:YEARS[@YYYY-MM-DD]\n"
		"                                  endurance rating of drives whose id or serial is PATTERN\n"
		"                                  or whose model matches it (POSIX regex); repeatable\n"
		"  --ratings-file FILE             extra ratings table (columns of data/drive-ratings.tsv)\n"
		"  --history-raw-days N            keep every sample N days (default 7), then hourly\n"
		"  --history-hourly-days N         keep hourly samples N days (default 90), then daily\n");
}

static int days(const char *opt, const char *arg, uint64_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || !*arg || v < 1 || v > 36500) {
		fprintf(stderr, "wearwatch serve: %s: invalid value '%s'\n", opt, arg);
		return -EINVAL;
	}
	*out = (uint64_t)v * 86400;
	return 0;
}

int ww_endurance_serve_opt(int code, const char *arg, ww_endurance_opts_t *o)
{
	char err[160];

	switch (code) {
	case WW_OPT_END_STATE_DIR:
		o->state_dir = arg;
		return 0;
	case WW_OPT_END_NO_HISTORY:
		o->no_history = true;
		return 0;
	case WW_OPT_END_RATING:
		if (ww_rating_override_parse(&o->overrides, arg, err, sizeof(err)) < 0) {
			fprintf(stderr, "wearwatch serve: --rating %s: %s\n", arg, err);
			return -EINVAL;
		}
		return 0;
	case WW_OPT_END_RATINGS_FILE:
		if (o->n_files >= WW_ENDURANCE_MAX_FILES) {
			fprintf(stderr, "wearwatch serve: too many --ratings-file\n");
			return -EINVAL;
		}
		o->files[o->n_files++] = arg;
		return 0;
	case WW_OPT_END_RAW_DAYS:
		return days("--history-raw-days", arg, &o->hist.raw_s);
	case WW_OPT_END_HOURLY_DAYS:
		return days("--history-hourly-days", arg, &o->hist.hourly_s);
	}
	return -EINVAL;
}

ww_endurance_svc_t *ww_endurance_serve_start(ww_endurance_opts_t *o)
{
	ww_ratings_t table = { 0 };
	ww_history_t *hist = NULL;
	ww_endurance_svc_t *s;
	unsigned bad = 0;
	int rc;

	rc = ww_ratings_parse(&table, ww_builtin_ratings_tsv, "built-in table", &bad);
	if (rc < 0) {
		ww_log(WW_LOG_ERR, "built-in ratings table: line %u invalid", bad);
		goto fail;
	}
	/* user files first: their rows win over the shipped ones */
	for (size_t i = o->n_files; i-- > 0;) {
		ww_ratings_t user = { 0 };

		bad = 0;
		rc = ww_ratings_load_file(&user, o->files[i], &bad);
		if (rc < 0) {
			ww_log(WW_LOG_ERR, "%s: %s%s%u", o->files[i], strerror(-rc),
			       bad ? " at line " : "", bad);
			ww_ratings_free(&user);
			goto fail;
		}
		/* prepend: rows are matched first to last */
		ww_rating_row_t *rows = realloc(user.rows, (user.n + table.n) * sizeof(*rows));

		if (!rows && user.n + table.n) {
			ww_ratings_free(&user);
			goto fail;
		}
		if (table.n)
			memcpy(rows + user.n, table.rows, table.n * sizeof(*rows));
		free(table.rows);
		table.rows = rows;
		table.n += user.n;
	}
	if (!o->no_history) {
		const char *dir = o->state_dir ? o->state_dir : WW_HISTORY_DEFAULT_DIR;
		char path[4096], err[512];

		if (mkdir(dir, 0750) < 0 && errno != EEXIST)
			ww_log(WW_LOG_WARNING, "cannot create state directory %s: %s", dir, strerror(errno));
		snprintf(path, sizeof(path), "%s/%s", dir, WW_HISTORY_FILE);
		if (ww_history_open(path, &o->hist, &hist, err, sizeof(err)) < 0)
			ww_log(WW_LOG_WARNING, "history disabled: %s", err);
		else
			ww_log(WW_LOG_INFO, "history in %s", path);
		ww_history_log_attach(hist, path);
	}
	s = ww_endurance_svc_new(&table, &o->overrides, hist);
	if (!s) {
		ww_history_close(hist);
		goto fail;
	}
	ww_endurance_set_global(s);
	return s;
fail:
	ww_ratings_free(&table);
	ww_ratings_free(&o->overrides);
	return NULL;
}
