/* Between the history's connections (history.c) and its queries (query.c);
 * private to src/history/. */
#ifndef WW_HISTORY_QUERY_H
#define WW_HISTORY_QUERY_H

#include <sqlite3.h>

#include "wearwatch/history.h"

/** Width of a row of each tier in seconds: raw samples, then the last one
 * of each hour, then of each day (thinning in history.c). */
static const long long ww_history_tier_s[3] = { 1, 3600, 86400 };

/** The queries' own read-only connection, locked (NULL: the database could
 * not be opened). Give it back with ww_history_reader_unlock, with the last
 * SQLite result: a corrupt page then has the file moved aside at the next
 * write (history.c). */
sqlite3 *ww_history_reader_lock(ww_history_t *h);

/** The configured time budget of a query in ms. */
unsigned ww_history_query_budget_ms(ww_history_t *h);
void ww_history_reader_unlock(ww_history_t *h, int sqlite_rc);

#endif
