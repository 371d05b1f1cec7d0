/* The endurance service as the daemon starts it: ratings tables, history
 * database, registration (see service.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wearwatch/basic.h"
#include "wearwatch/service.h"

ww_store_endurance_t *ww_service_endurance_start(ww_conf_endurance_opts_t *o)
{
	ww_ratings_t table = { 0 };
	ww_history_t *hist = NULL;
	ww_store_endurance_t *s;
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

		char err[512];

		rc = ww_ratings_load_file(&user, o->files[i], err, sizeof(err));
		if (rc < 0) {
			ww_log(WW_LOG_ERR, "%s", err);
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
