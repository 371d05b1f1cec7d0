/* `wearwatch decode` prints the endurance block the service would show: on
 * the spec-constructed OCP C0h page of log page version 2
 * (tests/fixtures/nvme/ocp-c0-v2.hex: Endurance Estimate 7008000000000000
 * bytes) the drive's own rating, source ocp_c0, in text and --json; on real
 * smartctl JSON of an HGST Ultrastar SN200 at 5 % used
 * (../shared/fixtures/smartctl_exporter/nvme-null-HUSMR7632BHP301-nvme0.json)
 * the rating `wearwatch ratings lookup` says applies, or, with no row, the
 * derived one: data_units_written x 512000 / 5 % from the fixture's own
 * field, labelled derived_percentage_used and "estimated from the drive's
 * own wear". */
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ww_test.h"

static const char *bin;
static char out[262144];

/* the binary's stdout (stderr to /dev/null) into out; its exit code */
static int run(const char *const argv[])
{
	int pfd[2], st;
	pid_t pid;
	size_t o = 0;
	ssize_t k;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		FILE *null = freopen("/dev/null", "w", stderr);

		(void)null;
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	while (o + 1 < sizeof(out) && (k = read(pfd[0], out + o, sizeof(out) - 1 - o)) > 0)
		o += (size_t)k;
	out[o] = 0;
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *rating_field(const char *json, const char *k, char *buf, size_t len)
{
	json_object *o = json_tokener_parse(json), *e = NULL, *r = NULL, *v = NULL;

	buf[0] = 0;
	if (o && json_object_object_get_ex(o, "endurance", &e) &&
	    json_object_object_get_ex(e, "rating", &r) && json_object_object_get_ex(r, k, &v))
		snprintf(buf, len, "%s", json_object_get_string(v));
	json_object_put(o);
	return buf;
}

static void test_ocp_page(const char *src)
{
	char page[4200], f[64];
	const char *argv[] = { bin, "decode", "--type", "nvme-ocp-smart-ext", page, NULL, NULL };

	snprintf(page, sizeof(page), "%s/tests/fixtures/nvme/ocp-c0-v2.hex", src);
	CHECK_EQ_I64(run(argv), 0);
	CHECK(strstr(out, "\nEndurance\n") != NULL);
	CHECK(strstr(out,
		     "  rating source                ocp_c0   [the drive's own endurance "
		     "estimate]\n") != NULL);
	CHECK(strstr(out, "  rated written                7008000000000000 bytes (7.01 PB)\n") !=
	      NULL);
	argv[5] = "--json";
	CHECK_EQ_I64(run(argv), 0);
	CHECK_STR(rating_field(out, "source", f, sizeof(f)), "ocp_c0");
	CHECK_STR(rating_field(out, "rated_written_bytes", f, sizeof(f)), "7008000000000000");
}

static void test_smartctl_json(void)
{
	static const char rel[] = "smartctl_exporter/nvme-null-HUSMR7632BHP301-nvme0.json";
	char path[4200], want[256], f[64];
	const char *lookup[] = { bin,           "ratings", "lookup", "HUSMR7632BHP301",
				 "--interface", "nvme",    NULL };
	const char *dec[] = { bin, "decode", path, NULL };
	size_t len;
	char *txt = (char *)ww_read_file(ww_fixtures_dir(), rel, &len);
	json_object *j, *s = NULL, *v = NULL;
	uint64_t duw = 0, pct = 0;
	int rated;

	if (!txt)
		return;
	j = json_tokener_parse(txt);
	free(txt);
	if (json_object_object_get_ex(j, "nvme_smart_health_information_log", &s)) {
		if (json_object_object_get_ex(s, "data_units_written", &v))
			duw = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(s, "percentage_used", &v))
			pct = (uint64_t)json_object_get_int64(v);
	}
	json_object_put(j);
	CHECK_EQ_U64(pct, 5);
	snprintf(path, sizeof(path), "%s/%s", ww_fixtures_dir(), rel);
	rated = run(lookup) == 0; /* a row (shipped or ratings.d) would win */
	CHECK_EQ_I64(run(dec), 0);
	if (rated) {
		printf("a ratings row rates HUSMR7632BHP301: the table's rating is shown\n");
		CHECK(strstr(out, "  rating source                table") != NULL ||
		      strstr(out, "  rating source                ratings_d") != NULL);
		return;
	}
	CHECK(strstr(out,
		     "  rating source                derived_percentage_used   [estimated "
		     "from the drive's own wear (host bytes written / 5 % used), not a "
		     "datasheet figure]\n") != NULL);
	snprintf(want, sizeof(want), "  rated written                %" PRIu64 " bytes",
		 (uint64_t)((long double)duw * 512000 * 100 / pct + 0.5L));
	CHECK(strstr(out, want) != NULL);
	CHECK(strstr(out, "  rated endurance used         not compared") != NULL);
	{
		const char *a = strstr(out, "Endurance\n"),
			   *b = a ? strstr(a, "\nNVMe SMART") : NULL;

		if (a && b)
			printf("decode %s:\n%.*s\n", rel, (int)(b - a), a);
	}
	{
		const char *dj[] = { bin, "decode", path, "--json", NULL };

		CHECK_EQ_I64(run(dj), 0);
	}
	CHECK_STR(rating_field(out, "source", f, sizeof(f)), "derived_percentage_used");
	CHECK_STR(rating_field(out, "stated", f, sizeof(f)), "false");
}

/* Real smartctl JSON of a failed Samsung NVMe captured 2022-05-10
 * (../shared/fixtures/scrutiny/smart-nvme-failed.json): its dates count from
 * its local_time.time_t, not from today. The warranty start is the capture
 * less power_on_hours x 3600, both fields of the file; the text says when. */
static void test_taken_at(void)
{
	static const char rel[] = "scrutiny/smart-nvme-failed.json";
	char path[4200], want[64];
	const char *dj[] = { bin, "decode", path, "--json", NULL };
	const char *dt[] = { bin, "decode", path, NULL };
	size_t len;
	char *txt = (char *)ww_read_file(ww_fixtures_dir(), rel, &len);
	json_object *j, *o = NULL, *v = NULL, *e = NULL, *w = NULL;
	int64_t at = 0, poh = 0, start = 0;

	if (!txt)
		return;
	j = json_tokener_parse(txt);
	free(txt);
	if (json_object_object_get_ex(j, "local_time", &o) &&
	    json_object_object_get_ex(o, "time_t", &v))
		at = json_object_get_int64(v);
	if (json_object_object_get_ex(j, "power_on_time", &o) &&
	    json_object_object_get_ex(o, "hours", &v))
		poh = json_object_get_int64(v);
	json_object_put(j);
	CHECK_EQ_I64(at, 1652220188);
	CHECK_EQ_I64(poh, 12798);
	snprintf(path, sizeof(path), "%s/%s", ww_fixtures_dir(), rel);
	CHECK_EQ_I64(run(dj), 0);
	j = json_tokener_parse(out);
	if (json_object_object_get_ex(j, "endurance", &e) &&
	    json_object_object_get_ex(e, "warranty_start", &w) &&
	    json_object_object_get_ex(w, "timestamp", &v))
		start = json_object_get_int64(v);
	json_object_put(j);
	CHECK_EQ_I64(start, at - poh * 3600);
	CHECK_EQ_I64(run(dt), 0);
	snprintf(want, sizeof(want), "taken 2022-05-10 22:03 UTC (dates projected from then)");
	CHECK(strstr(out, want) != NULL);
}

int main(void)
{
	const char *s = getenv("WW_SOURCE_DIR");

	bin = getenv("WW_BINARY");
	if (!bin || access(bin, X_OK)) {
		fprintf(stderr, "test_cli_decode_endurance: WW_BINARY not set or not executable\n");
		return 1;
	}
	test_ocp_page(s ? s : ".");
	test_smartctl_json();
	test_taken_at();
	return ww_test_done("test_cli_decode_endurance");
}
