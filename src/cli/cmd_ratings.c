/* `wearwatch ratings`: lint ratings tables and say which row rates a model.
 * The checks and the matching are the model's (src/model/ratings.c) and the
 * table is built as the service builds it (ww_service_ratings_build); this
 * file only parses arguments and prints. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "wearwatch/service.h"

static const char usage_text[] =
	"usage: wearwatch ratings check FILE... | --built-in\n"
	"       wearwatch ratings lookup MODEL [--capacity BYTES] [--interface nvme|sata|sas]\n"
	"                                [--ratings-file FILE]... [--ratings-dir DIR] [--json]\n"
	"  check    lint tables (columns, units, DWPD x capacity x 365 x years against the\n"
	"           rated bytes, duplicates, shadowing patterns, a source and basis per row);\n"
	"           prints FILE:LINE: what, exits 1 on any problem\n"
	"  lookup   the row the service would use for MODEL (files named, then\n"
	"           " WW_RATINGS_DIR "/NAME.tsv in name order, then the shipped rows)\n"
	"           and its source; exits 1 when no row rates MODEL\n";

static void print_problem(void *arg, const char *origin, unsigned line, const char *what)
{
	(void)arg;
	if (line)
		printf("%s:%u: %s\n", origin, line, what);
	else
		printf("%s: %s\n", origin, what);
}

static int check(int argc, char **argv)
{
	const char *origin = "built-in";
	int rc;

	if (argc < 1) {
		fputs(usage_text, stderr);
		return WW_EXIT_USAGE;
	}
	if (argc == 1 && !strcmp(argv[0], "--built-in"))
		rc = ww_ratings_lint((const char *const[]){ ww_builtin_ratings_tsv }, &origin, 1,
				     print_problem, NULL);
	else
		rc = ww_ratings_lint_files((const char *const *)argv, (size_t)argc, print_problem,
					   NULL);
	if (rc < 0) {
		fprintf(stderr, "wearwatch ratings check: %s\n", strerror(-rc));
		return WW_EXIT_USAGE;
	}
	if (rc)
		fprintf(stderr, "%d problem%s\n", rc, rc == 1 ? "" : "s");
	else
		printf("ok\n");
	return rc ? 1 : 0;
}

struct lookup_args {
	const char *model, *iface;
	uint64_t capacity;
	bool json;
	ww_conf_endurance_opts_t opts;
};

static int lookup_args(int argc, char **argv, struct lookup_args *a)
{
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if (!strcmp(argv[i], "--capacity") && v) {
			errno = 0;
			a->capacity = strtoull(v, &end, 10);
			if (errno || *end || !*v || v[0] == '-' || !a->capacity)
				goto bad;
			i++;
		} else if (!strcmp(argv[i], "--interface") && v) {
			if (strcmp(v, "nvme") && strcmp(v, "sata") && strcmp(v, "sas"))
				goto bad;
			a->iface = v;
			i++;
		} else if (!strcmp(argv[i], "--ratings-file") && v &&
			   a->opts.n_files < WW_ENDURANCE_MAX_FILES) {
			a->opts.files[a->opts.n_files++] = v;
			i++;
		} else if (!strcmp(argv[i], "--ratings-dir") && v) {
			a->opts.ratings_dir = v;
			i++;
		} else if (argv[i][0] != '-' && !a->model) {
			a->model = argv[i];
		} else {
			goto bad;
		}
	}
	if (a->model)
		return 0;
bad:
	fputs(usage_text, stderr);
	return -EINVAL;
}

/* the capacity the model would use: the row's nominal one, else the given */
static void figures(const ww_rating_row_t *r, uint64_t given, uint64_t *cap, uint64_t *bytes,
		    const char **how)
{
	*cap = r->capacity_bytes ? r->capacity_bytes : given;
	*bytes = r->rated_bytes;
	*how = "stated";
	if (!*bytes && r->dwpd && *cap && r->warranty_years) {
		*bytes = ww_model_rated_bytes(r->dwpd, *cap, r->warranty_years);
		*how = "DWPD x capacity x 365 x years";
	} else if (!*bytes) {
		*how = "unknown (DWPD without a capacity: give --capacity)";
	}
}

static void print_json(const struct lookup_args *a, const ww_rating_row_t *r)
{
	json_object *o = json_object_new_object();
	uint64_t cap, bytes;
	const char *how;

	json_object_object_add(o, "model", json_object_new_string(a->model));
	if (r) {
		figures(r, a->capacity, &cap, &bytes, &how);
		json_object_object_add(o, "origin", json_object_new_string(r->origin));
		json_object_object_add(o, "line", json_object_new_int64(r->lineno));
		json_object_object_add(o, "pattern", json_object_new_string(r->pattern));
		json_object_object_add(o, "interface", json_object_new_string(r->interface));
		json_object_object_add(o, "capacity_bytes", json_object_new_uint64(cap));
		json_object_object_add(o, "rated_dwpd", json_object_new_double(r->dwpd));
		json_object_object_add(o, "rated_bytes", json_object_new_uint64(bytes));
		json_object_object_add(o, "rated_bytes_basis", json_object_new_string(how));
		json_object_object_add(o, "warranty_years",
				       json_object_new_int((int)r->warranty_years));
		json_object_object_add(o, "workload_basis", json_object_new_string(r->basis));
		json_object_object_add(o, "source", json_object_new_string(r->source));
	}
	json_object_object_add(o, "rated", json_object_new_boolean(r != NULL));
	puts(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static void print_text(const struct lookup_args *a, const ww_rating_row_t *r)
{
	uint64_t cap, bytes;
	const char *how;

	if (!r) {
		printf("%s: no rating known (no row matches)\n", a->model);
		return;
	}
	figures(r, a->capacity, &cap, &bytes, &how);
	printf("row:       %s:%u\n", r->origin, r->lineno);
	printf("pattern:   %s (interface %s)\n", r->pattern,
	       r->interface[0] ? r->interface : "any");
	if (cap)
		printf("capacity:  %" PRIu64 " B (%s)\n", cap,
		       r->capacity_bytes ? "row" : "--capacity");
	if (r->dwpd)
		printf("DWPD:      %g\n", r->dwpd);
	if (bytes)
		printf("rated:     %" PRIu64 " B (%.4g TB, %s)\n", bytes, bytes / 1e12, how);
	else
		printf("rated:     %s\n", how);
	if (r->warranty_years)
		printf("warranty:  %u years\n", r->warranty_years);
	printf("basis:     %s\n", r->basis[0] ? r->basis : "(not given)");
	printf("source:    %s\n", r->source);
}

static int lookup(int argc, char **argv)
{
	struct lookup_args a;
	ww_ratings_t t;
	const ww_rating_row_t *r;
	char err[1024];
	int rc;

	if (lookup_args(argc, argv, &a) < 0)
		return WW_EXIT_USAGE;
	rc = ww_service_ratings_build(&a.opts, &t, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "wearwatch ratings lookup: %s\n", err);
		return WW_EXIT_USAGE;
	}
	r = ww_ratings_match(&t, a.model, a.iface);
	if (a.json)
		print_json(&a, r);
	else
		print_text(&a, r);
	rc = r ? 0 : 1;
	ww_ratings_free(&t);
	return rc;
}

int ww_cli_ratings(int argc, char **argv)
{
	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return check(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "lookup"))
		return lookup(argc - 2, argv + 2);
	fputs(usage_text, stderr);
	return WW_EXIT_USAGE;
}
