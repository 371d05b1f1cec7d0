/* The endurance service as the daemon starts it: ratings tables, history
 * database, registration (see service.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wearwatch/basic.h"
#include "wearwatch/service.h"

/* append src's rows to dst (moved: src is emptied), marked as of kind:
 * what /metrics and the API say the rating's source is */
static int take_rows(ww_ratings_t *dst, ww_ratings_t *src, ww_rating_source_t kind)
{
	ww_rating_row_t *rows = realloc(dst->rows, (dst->n + src->n + 1) * sizeof(*rows));

	if (!rows) {
		ww_ratings_free(src);
		return -ENOMEM;
	}
	for (size_t i = 0; i < src->n; i++)
		src->rows[i].kind = kind;
	if (src->n) /* an empty table has no rows array: memcpy(NULL) is undefined */
		memcpy(rows + dst->n, src->rows, src->n * sizeof(*rows));
	dst->rows = rows;
	dst->n += src->n;
	free(src->rows);
	src->rows = NULL;
	src->n = 0;
	return 0;
}

int ww_service_ratings_build(const ww_conf_endurance_opts_t *o, ww_ratings_t *out, char *err,
			     size_t errlen)
{
	ww_ratings_t part = { 0 };
	const char *dir = o && o->ratings_dir ? o->ratings_dir : WW_RATINGS_DIR;
	unsigned bad = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	/* first match wins: the files named, then the directory, then ours */
	for (size_t i = 0; o && i < o->n_files && rc >= 0; i++) {
		rc = ww_ratings_load_file(&part, o->files[i], err, errlen);
		if (rc >= 0)
			rc = take_rows(out, &part, WW_RATING_FILE);
	}
	if (rc >= 0) {
		rc = ww_ratings_load_dir(&part, dir, err, errlen);
		if (rc >= 0)
			rc = take_rows(out, &part, WW_RATING_RATINGS_D);
	}
	if (rc >= 0) {
		rc = ww_ratings_parse(&part, ww_builtin_ratings_tsv, "built-in", &bad);
		if (rc < 0)
			snprintf(err, errlen, "built-in ratings table: line %u invalid", bad);
		else
			rc = take_rows(out, &part, WW_RATING_TABLE);
	}
	if (rc < 0) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "ratings: out of memory");
		ww_ratings_free(&part);
		ww_ratings_free(out);
		return rc;
	}
	return (int)out->n;
}

void ww_service_endurance_reload(ww_store_endurance_t *s, const ww_conf_endurance_opts_t *o)
{
	ww_ratings_t table;
	char err[1024];
	int rc;

	if (!s)
		return;
	rc = ww_service_ratings_build(o, &table, err, sizeof(err));
	if (rc < 0) {
		ww_log(WW_LOG_ERR, "reload: %s; the ratings in use stay", err);
		return;
	}
	ww_store_endurance_set_table(s, &table);
	ww_log(WW_LOG_INFO, "reload: ratings: %d rows", rc);
}

ww_store_endurance_t *ww_service_endurance_start(ww_conf_endurance_opts_t *o)
{
	ww_ratings_t table = { 0 };
	ww_history_t *hist = NULL;
	ww_store_endurance_t *s;
	char rerr[1024];
	int rc;

	rc = ww_service_ratings_build(o, &table, rerr, sizeof(rerr));
	if (rc < 0) {
		ww_log(WW_LOG_ERR, "%s", rerr);
		goto fail;
	}
	ww_log(WW_LOG_INFO, "ratings: %d rows", rc);
	if (!o->no_history) {
		const char *dir = o->state_dir ? o->state_dir : WW_HISTORY_DEFAULT_DIR;
		char path[4096], err[9216];

		if (mkdir(dir, 0750) < 0 && errno != EEXIST)
			ww_log(WW_LOG_WARNING, "cannot create state directory %s: %s", dir, strerror(errno));
		snprintf(path, sizeof(path), "%s/%s", dir, WW_HISTORY_FILE);
		if ((rc = ww_history_open(path, &o->hist, &hist, err, sizeof(err))) < 0)
			ww_log(WW_LOG_WARNING, "history disabled: %s: %s", path, strerror(-rc));
		else if (err[0])
			ww_log(WW_LOG_WARNING, "history: %s", err); /* degraded or healed */
		else
			ww_log(WW_LOG_INFO, "history in %s", path);
		ww_history_log_attach(hist, path);
	}
	s = ww_store_endurance_new(&table, &o->overrides, hist);
	if (!s) {
		ww_history_close(hist);
		goto fail;
	}
	return s;
fail:
	ww_ratings_free(&table);
	ww_ratings_free(&o->overrides);
	return NULL;
}
