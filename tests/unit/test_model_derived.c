/* The derived rating (no rating known, the drive reports its own wear) on
 * real smartctl JSON of ../shared/fixtures, through the decoder the service
 * uses (ww_smartctl_parse) and the model with no table row: expected bytes
 * come from the fixture's own fields, read here with json-c apart from the
 * decoder: NVMe data_units_written x 512000 (NVMe Base 2.0 Figure 207: a
 * data unit is 1000 x 512 bytes) / (percentage_used / 100); ATA attribute
 * 241 raw x 32 MiB (the unit smartmontools' drivedb.h gives Intel's
 * Host_Writes_32MiB) / ((100 - attribute 233 value) / 100). Also: the
 * range for used +/- 1 %, the 5 % floor, the order against stated ratings,
 * and that the verdict never compares host writes with a derived rating. */
#include <string.h>

#include <json-c/json.h>

#include "wearwatch/collect.h"
#include "wearwatch/model.h"
#include "ww_test.h"

#define T0 1700000000

static json_object *jpath(json_object *o, const char *a, const char *b)
{
	json_object *x = NULL, *y = NULL;

	if (!json_object_object_get_ex(o, a, &x))
		return NULL;
	if (!b)
		return x;
	return json_object_object_get_ex(x, b, &y) ? y : NULL;
}

/* the fixture decoded as the service decodes it, and its JSON for the test's
 * own reading of the figures; NULL (test skipped) when absent */
static json_object *load(const char *rel, ww_health_t *h)
{
	size_t len;
	char *txt = (char *)ww_read_file(ww_fixtures_dir(), rel, &len);
	json_object *j;

	if (!txt)
		return NULL;
	memset(h, 0, sizeof(*h));
	CHECK(ww_smartctl_parse(txt, len, h, NULL) == 0);
	j = json_tokener_parse(txt);
	free(txt);
	return j;
}

static void compute(const ww_health_t *h, const ww_rating_row_t *table, ww_endurance_t *e)
{
	ww_model_in_t in = { .h = h, .iface = "nvme", .present = true, .first_seen = T0 };

	in.drive_capacity_bytes = WW_HAS(h->capacity_bytes) ? h->capacity_bytes.value : 0;
	in.table = table;
	ww_model_compute(&in, T0, e);
}

static uint64_t div_round(long double num, long double den)
{
	return (uint64_t)(num / den + 0.5L);
}

static void test_arithmetic(void)
{
	uint64_t r = 0, lo = 0, hi = 0;

	/* below 5 %, at NVMe's 255 (saturated) and with nothing written: none */
	CHECK(!ww_model_derive_rating(1000000000000000ull, 4, &r, &lo, &hi));
	CHECK(!ww_model_derive_rating(1000000000000000ull, 255, &r, &lo, &hi));
	CHECK(!ww_model_derive_rating(0, 50, &r, &lo, &hi));
	CHECK(r == 0 && lo == 0 && hi == 0);
	/* 1 PB at 5 %: 20 PB, range 1 PB / 6 % .. 1 PB / 4 % */
	CHECK(ww_model_derive_rating(1000000000000000ull, 5, &r, &lo, &hi));
	CHECK_EQ_U64(r, 20000000000000000ull);
	CHECK_EQ_U64(lo, 16666666666666667ull);
	CHECK_EQ_U64(hi, 25000000000000000ull);
	/* 254 % still is a figure; the top of a 64-bit counter does not overflow */
	CHECK(ww_model_derive_rating(UINT64_MAX, 254, &r, &lo, &hi));
	CHECK(r < UINT64_MAX && lo < r && r < hi);
}

/* NVMe: HGST Ultrastar SN200 HUSMR7632BHP301, Percentage Used 5 % (the
 * floor), no row in the shipped table at the time of writing (the test
 * gives the model no table either way) */
static void test_nvme_fixture(const char *rel, unsigned want_pct)
{
	static ww_health_t h;
	static ww_endurance_t e;
	json_object *j = load(rel, &h), *s;
	uint64_t duw, pct, written;

	if (!j)
		return;
	s = jpath(j, "nvme_smart_health_information_log", NULL);
	duw = (uint64_t)json_object_get_int64(jpath(s, "data_units_written", NULL));
	pct = (uint64_t)json_object_get_int64(jpath(s, "percentage_used", NULL));
	written = duw * 512000;
	CHECK_EQ_U64(pct, want_pct);
	compute(&h, NULL, &e);
	CHECK(e.rating_source == WW_RATING_DERIVED);
	CHECK_STR(ww_rating_source_name(e.rating_source), "derived_percentage_used");
	CHECK(!ww_rating_source_stated(e.rating_source));
	CHECK(e.has_rated_bytes && e.has_rated_range);
	CHECK_EQ_U64(e.rated_bytes, div_round((long double)written * 100, pct));
	CHECK_EQ_U64(e.rated_bytes_low, div_round((long double)written * 100, pct + 1));
	CHECK_EQ_U64(e.rated_bytes_high, div_round((long double)written * 100, pct - 1));
	CHECK_EQ_U64(e.derived_used_percent, pct);
	CHECK_STR(e.derived_used_source,
		  "smartctl JSON nvme_smart_health_information_log.percentage_used");
	CHECK(strstr(e.rating_note, "estimated from the drive's own wear") != NULL);
	CHECK(strstr(e.rating_note, "not a datasheet figure") != NULL);
	/* never compared with host writes, no rated DWPD (no warranty years) */
	CHECK(!e.has_rated_used && !e.has_rated_dwpd && !e.has_warranty_end);
	CHECK(e.rating_ref[0] == '\0');
	printf("%s: data_units_written %" PRIu64 " x 512000 / %" PRIu64 " %% = %" PRIu64
	       " bytes (%" PRIu64 " - %" PRIu64 "), source %s\n",
	       rel, duw, pct, e.rated_bytes, e.rated_bytes_low, e.rated_bytes_high,
	       ww_rating_source_name(e.rating_source));
	json_object_put(j);
}

/* ATA without Device Statistics: Intel SSDSC2BB240G6, attribute 233
 * Media_Wearout_Indicator 50 (50 % used), 241 Host_Writes_32MiB */
static void test_ata_wear_attribute(void)
{
	static const char rel[] =
		"smartctl_exporter/sat-Intel_730_and_DC_S35x0_3610_3700_Series_SSDs-INTEL_SSDSC2BB240G6-sdf.json";
	static ww_health_t h;
	static ww_endurance_t e;
	json_object *j = load(rel, &h), *t;
	uint64_t raw241 = 0, v233 = 0, written;

	if (!j)
		return;
	t = jpath(j, "ata_smart_attributes", "table");
	for (size_t i = 0; t && i < json_object_array_length(t); i++) {
		json_object *a = json_object_array_get_idx(t, i);
		int id = json_object_get_int(jpath(a, "id", NULL));

		if (id == 241)
			raw241 = (uint64_t)json_object_get_int64(jpath(a, "raw", "value"));
		if (id == 233)
			v233 = (uint64_t)json_object_get_int64(jpath(a, "value", NULL));
	}
	written = raw241 * 33554432ull;
	CHECK_EQ_U64(v233, 50);
	CHECK(!WW_HAS(h.endurance_used_percent)); /* no Device Statistics page 7 */
	compute(&h, NULL, &e);
	CHECK(e.rating_source == WW_RATING_DERIVED);
	CHECK_EQ_U64(e.derived_used_percent, 100 - v233);
	CHECK_EQ_U64(e.rated_bytes, div_round((long double)written * 100, 100 - v233));
	CHECK_STR(e.derived_used_label, "ata_attribute_233");
	printf("%s: 241 raw %" PRIu64 " x 32 MiB / (100 - %" PRIu64 ") %% = %" PRIu64
	       " bytes, %s\n",
	       rel, raw241, v233, e.rated_bytes, e.derived_used_source);
	json_object_put(j);
}

/* below the floor (Micron 7400 MTFDKCB1T6TFC, 4 % used): no rating, none */
static void test_below_floor(void)
{
	static ww_health_t h;
	static ww_endurance_t e;
	json_object *j = load("smartctl_exporter/nvme-null-Micron_7400_MTFDKCB1T6TFC-nvme2.json",
			      &h);

	if (!j)
		return;
	CHECK_EQ_U64(h.endurance_used_percent.value, 4);
	compute(&h, NULL, &e);
	CHECK(e.rating_source == WW_RATING_NONE && !e.has_rated_bytes && !e.has_rated_range);
	CHECK_STR(e.rating_note, "no rating known");
	json_object_put(j);
}

/* a stated rating always wins: a table row, the drive's own estimate */
static void test_order(void)
{
	static ww_health_t h;
	static ww_endurance_t e;
	ww_ratings_t t = { 0 };
	unsigned bad = 0;
	json_object *j = load("smartctl_exporter/nvme-null-HUSMR7632BHP301-nvme0.json", &h);

	if (!j)
		return;
	CHECK(ww_ratings_parse(&t,
			       "^HUSMR7632\tnvme\t3200000000000\t3\t\t5\ttest row\tnot_stated\n",
			       "t.tsv", &bad) == 1);
	compute(&h, ww_ratings_match(&t, h.model, "nvme"), &e);
	CHECK(e.rating_source == WW_RATING_TABLE && !e.has_rated_range);
	CHECK_EQ_U64(e.rated_bytes, 17520000000000000ull); /* 3 x 3.2 TB x 365 x 5 */
	CHECK_STR(e.rating_ref, "t.tsv:1");
	CHECK_STR(e.rating_basis, "not_stated");
	CHECK(e.has_rated_used);
	WW_SET(h.endurance_estimate_bytes, 7008000000000000ull, "test");
	h.endurance_estimate_bytes.label = "ocp_c0";
	compute(&h, NULL, &e);
	CHECK(e.rating_source == WW_RATING_OCP_C0 && e.rated_bytes == 7008000000000000ull);
	ww_ratings_free(&t);
	json_object_put(j);
}

static bool has_reason(const ww_verdict_t *v, ww_reason_t r)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->r[i].code == r)
			return true;
	return false;
}

/* Intel SSDPE2KX020T7 at 75 % used: derived, the verdict says percentage
 * used high (the drive's own figure) and nothing about a rated endurance */
static void test_verdict(void)
{
	static ww_health_t h;
	static ww_endurance_t e;
	static ww_verdict_t v;
	json_object *j = load("smartctl_exporter/nvme-null-INTEL_SSDPE2KX020T7-nvme6.json", &h);
	ww_health_cfg_t cfg;
	ww_verdict_in_t in = { 0 };

	if (!j)
		return;
	compute(&h, NULL, &e);
	CHECK(e.rating_source == WW_RATING_DERIVED);
	ww_health_cfg_defaults(&cfg);
	cfg.pct_used_warning = 70;
	in.h = &h;
	in.e = &e;
	in.cfg = &cfg;
	in.protocol = WW_PROTO_NVME;
	in.present = true;
	ww_verdict(&in, T0, &v);
	CHECK(has_reason(&v, WW_R_PCT_USED_HIGH));
	CHECK(!has_reason(&v, WW_R_RATED_HIGH) && !has_reason(&v, WW_R_RATED_NEAR_END) &&
	      !has_reason(&v, WW_R_RATED_EXHAUSTED));
	json_object_put(j);
}

int main(void)
{
	test_arithmetic();
	test_nvme_fixture("smartctl_exporter/nvme-null-HUSMR7632BHP301-nvme0.json", 5);
	test_nvme_fixture("smartctl_exporter/nvme-null-INTEL_SSDPE2KX020T7-nvme6.json", 75);
	test_ata_wear_attribute();
	test_below_floor();
	test_order();
	test_verdict();
	return ww_test_done("test_model_derived");
}
