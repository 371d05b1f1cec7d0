/* `wearwatch serve` options of the endurance model and history (issue 3):
 * --state-dir, --no-history, --rating, --ratings-file, --history-raw-days,
 * --history-hourly-days. serve.c lists WW_ENDURANCE_SERVE_OPTIONS in its
 * getopt table and hands the codes to ww_endurance_serve_opt(). The config
 * file (issue 6) calls ww_rating_override_parse() (model.h) for rating lines
 * and ww_endurance_serve_opt() for the others. */
#ifndef WW_DAEMON_ENDURANCE_OPTS_H
#define WW_DAEMON_ENDURANCE_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "wearwatch/endurance.h"

enum {
	WW_OPT_END_FIRST = 640,
	WW_OPT_END_STATE_DIR = WW_OPT_END_FIRST,
	WW_OPT_END_NO_HISTORY,
	WW_OPT_END_RATING,
	WW_OPT_END_RATINGS_FILE,
	WW_OPT_END_RAW_DAYS,
	WW_OPT_END_HOURLY_DAYS,
	WW_OPT_END_LAST = WW_OPT_END_HOURLY_DAYS,
};

#define WW_ENDURANCE_SERVE_OPTIONS                                              \
	{ "state-dir", required_argument, NULL, WW_OPT_END_STATE_DIR },         \
	{ "no-history", no_argument, NULL, WW_OPT_END_NO_HISTORY },             \
	{ "rating", required_argument, NULL, WW_OPT_END_RATING },               \
	{ "ratings-file", required_argument, NULL, WW_OPT_END_RATINGS_FILE },   \
	{ "history-raw-days", required_argument, NULL, WW_OPT_END_RAW_DAYS },   \
	{ "history-hourly-days", required_argument, NULL, WW_OPT_END_HOURLY_DAYS }

#define WW_ENDURANCE_MAX_FILES 8

typedef struct ww_endurance_opts {
	const char *state_dir;          /* NULL = WW_HISTORY_DEFAULT_DIR */
	bool no_history;
	ww_ratings_t overrides;
	const char *files[WW_ENDURANCE_MAX_FILES];
	size_t n_files;
	ww_history_cfg_t hist;
} ww_endurance_opts_t;

void ww_endurance_serve_usage(FILE *f);

/** Apply one option; prints the reason to stderr and returns -EINVAL on a bad
 * value, else 0. */
int ww_endurance_serve_opt(int code, const char *arg, ww_endurance_opts_t *o);

/** Load the built-in table and --ratings-file files, open the history
 * database (creating the state directory, mode 0750), register the service
 * globally. A history that cannot be opened is logged and the service runs
 * without it (windows then stay absent). Returns NULL on a bad ratings file or
 * out of memory. Consumes o->overrides. */
ww_endurance_svc_t *ww_endurance_serve_start(ww_endurance_opts_t *o);

#endif
