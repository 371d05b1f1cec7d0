/* Endurance options of `wearwatch serve` (see endurance_opts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/conf.h"

void ww_conf_endurance_usage(FILE *f)
{
	fprintf(f,
		"  --state-dir DIR                 history database directory (default " WW_HISTORY_DEFAULT_DIR
		")\n"
		"  --no-history                    keep no history (no DWPD windows, no wear-out at write rate)\n"
		"  --rating PATTERN=DWPD:YEARS[:CAPACITY_BYTES][@YYYY-MM-DD]\n"
		"  --rating PATTERN=BYTES{B,GB,TB,PB}:YEARS[@YYYY-MM-DD]\n"
		"                                  endurance rating of drives whose id or serial is PATTERN\n"
		"                                  or whose model matches it (POSIX regex); repeatable\n"
		"  --ratings-file FILE             extra ratings table (columns of data/ratings/NAME.tsv)\n"
		"  --ratings-dir DIR               site ratings tables DIR/NAME.tsv, before the shipped\n"
		"                                  rows (default " WW_RATINGS_DIR ")\n"
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

int ww_conf_endurance_opt(int code, const char *arg, ww_conf_endurance_opts_t *o)
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
	case WW_OPT_END_RATINGS_FILE: {
		ww_ratings_t scratch = { 0 };
		char ferr[512];
		int rc;

		if (o->n_files >= WW_ENDURANCE_MAX_FILES) {
			fprintf(stderr, "wearwatch serve: too many --ratings-file\n");
			return -EINVAL;
		}
		/* read now, so a bad file stops the start (exit 2) with its
		 * line, not the model later */
		rc = ww_ratings_load_file(&scratch, arg, ferr, sizeof(ferr));
		ww_ratings_free(&scratch);
		if (rc < 0) {
			fprintf(stderr, "wearwatch serve: --ratings-file %s\n", ferr);
			return -EINVAL;
		}
		o->files[o->n_files++] = arg;
		return 0;
	}
	case WW_OPT_END_RATINGS_DIR:
		o->ratings_dir = arg;
		return 0;
	case WW_OPT_END_RAW_DAYS:
		return days("--history-raw-days", arg, &o->hist.raw_s);
	case WW_OPT_END_HOURLY_DAYS:
		return days("--history-hourly-days", arg, &o->hist.hourly_s);
	}
	return -EINVAL;
}
