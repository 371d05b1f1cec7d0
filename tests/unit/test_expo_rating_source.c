/* Where a rating came from, in /metrics (wearwatch_drive_rating_info: source,
 * row FILE:LINE, workload basis; codes only) and in the JSON API, for every
 * source kind, through the store, the endurance service and the table as
 * the service builds it (ww_service_ratings_build: a --ratings-file, a
 * ratings.d directory, the shipped rows):
 *  - ocp_c0: the spec-constructed C0h pages of log page versions 2, 3, 4 and
 *    5 (tests/fixtures/nvme/ocp-c0-v*.hex, gen_ocp_c0.py: revisions and
 *    offsets), each through the C0h decoder: every version the same rating;
 *  - nvme_endurance_group: a 09h page built per NVMe Base 2.0 (Endurance
 *    Estimate bytes 32-47, 8000 x 10^9 bytes);
 *  - table / ratings_file / ratings_d / config: rows and an override;
 *  - derived_percentage_used: tests/fixtures/nvme/netdata-nvme-cli-2.11.hex
 *    (percentage used 30 %, data units written as netdata's fixture states
 *    them), no row matching its model;
 *  - none: a drive that reports no wear.
 * Expected bytes: the pages' own figures; the derived one data units
 * written x 512000 / 0.30 from the same page. The table's patterns are
 * matched once per drive and table, not at every collection (the calls of
 * ww_pattern_match counted through the linker's --wrap, CMakeLists.txt):
 * a few hundred regexes a read. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ww_test.h"
#include "wearwatch/decode.h"
#include "wearwatch/expo.h"
#include "wearwatch/service.h"
#include "wearwatch/store.h"

#define T 1700000000

static unsigned long matched; /* ww_pattern_match calls */

int __real_ww_pattern_match(const ww_pattern_t *p, const char *s);

int __wrap_ww_pattern_match(const ww_pattern_t *p, const char *s)
{
	matched++;
	return __real_ww_pattern_match(p, s);
}

static const char *src_dir(void)
{
	const char *d = getenv("WW_SOURCE_DIR");

	return d ? d : ".";
}

static size_t load_hex(const char *rel, uint8_t *out, size_t max)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/tests/fixtures/%s", src_dir(), rel);
	return ww_load_hex(p, out, max);
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

#define CHECK_LINE(txt, line)                                                                      \
	do {                                                                                       \
		bool ok_ = has_line(txt, line);                                                    \
		CHECK(ok_);                                                                        \
		if (!ok_)                                                                          \
			fprintf(stderr, "  missing line: %s\n", line);                             \
	} while (0)

enum {
	D_OCP2,
	D_OCP3,
	D_OCP4,
	D_OCP5,
	D_EG,
	D_TABLE,
	D_FILE,
	D_RD,
	D_CFG,
	D_DERIVED,
	D_NONE,
	D_N
};

static const char *const ids[D_N] = {
	"nvme-ocp-v2", "nvme-ocp-v3", "nvme-ocp-v4", "nvme-ocp-v5",  "nvme-eg",   "sas-table",
	"sata-file",   "sata-rd",     "sata-cfg",    "nvme-derived", "nvme-none",
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void record(int i, ww_health_t *h)
{
	static uint8_t b[512];
	static const char *const models[D_N] = {
		"WWTEST OCP", "WWTEST OCP",     "WWTEST OCP",  "WWTEST OCP",
		"WWTEST EG",  "PX02SSF040",     "WWTEST FILE", "WWTEST RATINGSD",
		"WWTEST CFG", "WWTEST DERIVED", "WWTEST NONE",
	};
	char rel[64];

	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "%s", models[i]);
	h->protocol = i == D_TABLE          ? WW_PROTO_SCSI
		: i >= D_FILE && i <= D_CFG ? WW_PROTO_ATA
					    : WW_PROTO_NVME;
	WW_SET(h->host_written_bytes, 1000000000000ull, "test");
	if (i <= D_OCP5) {
		snprintf(rel, sizeof(rel), "nvme/ocp-c0-v%d.hex", 2 + i);
		CHECK_EQ_U64(load_hex(rel, b, sizeof(b)), 512);
		CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), h), 0);
	} else if (i == D_EG) {
		memset(b, 0, sizeof(b));
		b[32] = 0x40;
		b[33] = 0x1F; /* Endurance Estimate 8000 x 10^9 bytes */
		CHECK_EQ_I64(ww_decode_nvme_endurance_group(b, sizeof(b), h), 0);
	} else if (i == D_DERIVED) {
		CHECK_EQ_U64(load_hex("nvme/netdata-nvme-cli-2.11.hex", b, sizeof(b)), 512);
		CHECK_EQ_I64(ww_decode_nvme_smart_log(b, sizeof(b), h), 0);
		snprintf(h->model, sizeof(h->model), "%s", models[i]);
	}
}

static json_object *rating_of(const ww_render_ctx_t *ctx, const char *id)
{
	bool found = false;
	char *txt = ww_json_render_drive(ctx, id, &found);
	json_object *o = txt ? json_tokener_parse(txt) : NULL, *e = NULL, *r = NULL;

	free(txt);
	if (o && json_object_object_get_ex(o, "endurance", &e) &&
	    json_object_object_get_ex(e, "rating", &r))
		json_object_get(r);
	json_object_put(o);
	return r;
}

static const char *jstr(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) && v ? json_object_get_string(v) : NULL;
}

int main(void)
{
	char dir[] = "/tmp/ww-rating-src-XXXXXX", rd[200], file[200], err[512], line[1024];
	ww_conf_endurance_opts_t o = { 0 };
	ww_ratings_t table = { 0 }, over = { 0 };
	size_t n_rows, n_over;
	ww_drive_t d[D_N];
	static ww_health_t h;
	ww_store_t *s = ww_store_new(0);
	ww_store_endurance_t *svc;
	ww_snapshot_t *snap;
	const ww_rating_row_t *px;
	char *txt;
	json_object *r;
	size_t len;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(rd, sizeof(rd), "%s/ratings.d", dir);
	CHECK(mkdir(rd, 0700) == 0);
	snprintf(file, sizeof(file), "%s/site.tsv", dir);
	write_file(file,
		   "# a --ratings-file\n^WWTEST FILE\tsata\t960000000000\t1\t\t5\tsite "
		   "contract 2024\tjesd219\n");
	snprintf(line, sizeof(line), "%s/10-site.tsv", rd);
	write_file(line,
		   "^WWTEST RATINGSD\tsata\t\t\t1000000000000000\t3\tvendor letter\tnot_stated\n");
	o.files[0] = file;
	o.n_files = 1;
	o.ratings_dir = rd;
	CHECK(ww_service_ratings_build(&o, &table, err, sizeof(err)) > 2);
	px = ww_ratings_match(&table, "PX02SSF040", "sas");
	CHECK(ww_rating_override_parse(&over, "sata-cfg=10:5:400000000000", err, sizeof(err)) == 0);

	memset(d, 0, sizeof(d));
	for (int i = 0; i < D_N; i++) {
		snprintf(d[i].id, sizeof(d[i].id), "%s", ids[i]);
		d[i].protocol = i == D_TABLE        ? WW_PROTO_SCSI
			: i >= D_FILE && i <= D_CFG ? WW_PROTO_ATA
						    : WW_PROTO_NVME;
		d[i].transport = i == D_TABLE       ? WW_TRANSPORT_SAS
			: i >= D_FILE && i <= D_CFG ? WW_TRANSPORT_SATA
						    : WW_TRANSPORT_NVME;
	}
	ww_store_sync(s, d, D_N, T);
	n_rows = table.n;
	n_over = over.n;
	svc = ww_store_endurance_new(&table, &over, NULL); /* takes both */
	for (int i = 0; i < D_N; i++) {
		record(i, &h);
		ww_store_update(s, d[i].id, 0, &h, NULL, 0.1, T + 1);
		ww_store_endurance_after_collect(svc, NULL, s, &d[i], 0, T + 1);
	}
	/* two more rounds: the first after the drives' entries exist matches
	 * the table; the next one matches only the override's row */
	for (int round = 0; round < 2; round++) {
		unsigned long m0 = matched;

		for (int i = 0; i < D_N; i++) {
			record(i, &h);
			ww_store_update(s, d[i].id, 0, &h, NULL, 0.1, T + 1);
			ww_store_endurance_after_collect(svc, NULL, s, &d[i], 0, T + 1);
		}
		printf("round %d: %lu pattern matches for %d drives, %zu table rows\n", round + 2,
		       matched - m0, D_N, n_rows);
		if (round)
			CHECK(matched - m0 <= (unsigned long)D_N * n_over);
		else
			CHECK(matched - m0 > (unsigned long)D_N * n_over);
	}
	snap = ww_store_acquire(s);
	ww_render_ctx_t ctx = { .snap = snap, .endurance = svc, .now = T + 2 };

	txt = ww_metrics_render(&ctx, &len);
	CHECK(txt != NULL);
	if (!txt)
		return ww_test_done("test_expo_rating_source");
	for (int v = 0; v < 4; v++) {
		snprintf(line, sizeof(line),
			 "wearwatch_drive_rating_info{drive=\"nvme-ocp-v%d\",source=\"ocp_c0\","
			 "capacity_basis=\"none\",row=\"\",workload_basis=\"\"} 1",
			 v + 2);
		CHECK_LINE(txt, line);
		snprintf(
			line, sizeof(line),
			"wearwatch_drive_rated_written_bytes{drive=\"nvme-ocp-v%d\",source=\"ocp_c0\"} "
			"7008000000000000",
			v + 2);
		CHECK_LINE(txt, line);
	}
	CHECK_LINE(txt,
		   "wearwatch_drive_rating_info{drive=\"nvme-eg\",source=\"nvme_endurance_group\","
		   "capacity_basis=\"none\",row=\"\",workload_basis=\"\"} 1");
	CHECK_LINE(
		txt,
		"wearwatch_drive_rated_written_bytes{drive=\"nvme-eg\",source=\"nvme_endurance_group\"} "
		"8000000000000");
	if (px) {
		snprintf(line, sizeof(line),
			 "wearwatch_drive_rating_info{drive=\"sas-table\",source=\"table\","
			 "capacity_basis=\"table_nominal\",row=\"%s:%u\",workload_basis=\"%s\"} 1",
			 px->origin, px->lineno, px->basis);
		CHECK_LINE(txt, line);
		CHECK(!strncmp(px->origin, "built-in:", 9));
	} else {
		printf("no shipped row rates PX02SSF040 any more: the table kind is not checked\n");
	}
	snprintf(line, sizeof(line),
		 "wearwatch_drive_rating_info{drive=\"sata-file\",source=\"ratings_file\","
		 "capacity_basis=\"table_nominal\",row=\"%s:2\",workload_basis=\"jesd219\"} 1",
		 file);
	CHECK_LINE(txt, line);
	snprintf(
		line, sizeof(line),
		"wearwatch_drive_rating_info{drive=\"sata-rd\",source=\"ratings_d\","
		"capacity_basis=\"none\",row=\"%s/10-site.tsv:1\",workload_basis=\"not_stated\"} 1",
		rd);
	CHECK_LINE(txt, line);
	CHECK_LINE(txt,
		   "wearwatch_drive_rating_info{drive=\"sata-cfg\",source=\"config\","
		   "capacity_basis=\"config\",row=\"\",workload_basis=\"\"} 1");
	CHECK_LINE(
		txt,
		"wearwatch_drive_rating_info{drive=\"nvme-derived\",source=\"derived_percentage_used\","
		"capacity_basis=\"none\",row=\"\",workload_basis=\"\"} 1");
	CHECK_LINE(txt,
		   "wearwatch_drive_rating_info{drive=\"nvme-none\",source=\"none\","
		   "capacity_basis=\"none\",row=\"\",workload_basis=\"\"} 1");
	/* netdata's page: data units written x 512000 / 30 % */
	if (WW_HAS(h.host_written_bytes)) {
		ww_health_t *nd = calloc(1, sizeof(*nd));

		record(D_DERIVED, nd);
		uint64_t w = nd->host_written_bytes.value;
		uint64_t rated = (uint64_t)((long double)w * 100 / 30 + 0.5L);

		snprintf(line, sizeof(line),
			 "wearwatch_drive_rated_written_bytes{drive=\"nvme-derived\","
			 "source=\"derived_percentage_used\"} %" PRIu64,
			 rated);
		CHECK_LINE(txt, line);
		snprintf(line, sizeof(line),
			 "wearwatch_drive_rated_written_bytes_range{drive=\"nvme-derived\","
			 "source=\"derived_percentage_used\",bound=\"low\"} %" PRIu64,
			 (uint64_t)((long double)w * 100 / 31 + 0.5L));
		CHECK_LINE(txt, line);
		printf("derived: host written %" PRIu64 " (%s) / 30 %% = %" PRIu64 "\n", w,
		       nd->host_written_bytes.source, rated);
		free(nd);
	}
	/* no rated used for a derived rating: it would be the used figure again */
	CHECK(!strstr(txt, "wearwatch_drive_rated_endurance_used_ratio{drive=\"nvme-derived\""));
	CHECK(strstr(txt, "wearwatch_drive_rated_endurance_used_ratio{drive=\"sata-file\"") !=
	      NULL);
	/* no prose in a label: the document stays in the API */
	for (const char *p = txt; (p = strstr(p, "\nwearwatch_drive_rating_info{")); p++) {
		const char *e = strchr(p + 1, '\n');
		int n = (int)(e ? e - p - 1 : (long)strlen(p + 1));

		snprintf(line, sizeof(line), "%.*s", n, p + 1);
		CHECK(!strstr(line, "site contract") && !strstr(line, "vendor letter") &&
		      !strstr(line, "estimated from") && !strstr(line, "spec"));
		printf("%s\n", line);
	}

	/* the API: the same codes, and the sentences */
	r = rating_of(&ctx, "sata-file");
	CHECK_STR(jstr(r, "source"), "ratings_file");
	snprintf(line, sizeof(line), "%s:2", file);
	CHECK_STR(jstr(r, "row"), line);
	CHECK_STR(jstr(r, "note"), "site contract 2024");
	CHECK_STR(jstr(r, "workload_basis"), "jesd219");
	CHECK_STR(jstr(r, "stated"), "true");
	json_object_put(r);
	r = rating_of(&ctx, "nvme-derived");
	CHECK_STR(jstr(r, "source"), "derived_percentage_used");
	CHECK_STR(jstr(r, "stated"), "false");
	CHECK(jstr(r, "note") && strstr(jstr(r, "note"), "estimated from the drive's own wear"));
	{
		json_object *x = NULL;

		CHECK(r && json_object_object_get_ex(r, "derived", &x));
		CHECK_STR(jstr(x, "used_percent"), "30");
		CHECK_STR(jstr(x, "used_label"), "nvme_percentage_used");
		CHECK_STR(jstr(x, "slack_percent"), "1");
	}
	json_object_put(r);
	r = rating_of(&ctx, "nvme-ocp-v5");
	CHECK_STR(jstr(r, "source"), "ocp_c0");
	CHECK_STR(jstr(r, "rated_written_bytes"), "7008000000000000");
	json_object_put(r);

	free(txt);
	ww_snapshot_release(snap);
	ww_store_endurance_free(svc);
	ww_store_free(s);
	snprintf(line, sizeof(line), "%s/10-site.tsv", rd);
	unlink(line);
	unlink(file);
	rmdir(rd);
	rmdir(dir);
	return ww_test_done("test_expo_rating_source");
}
