/* Endurance model: the shipped ratings table and the arithmetic against the
 * published ratings (seed-facts.md / ../shared/reference/drive-ratings.tsv:
 * PX02SS 400 GB 21.9 PB = 30 DWPD x 0.4 TB x 365 x 5; PX04SMB160 1.6 TB x 10
 * x 365 x 5 = 29.2 PB; PX04PMB320 3.2 TB x 10 x 365 x 5 = 58.4 PB), overrides,
 * and fake-clock tests of windows (90 % coverage), resets, projections and
 * the verdict. Every time is a constant: no clock is read. */
#include <string.h>

#include "wearwatch/model.h"
#include "ww_test.h"

#define T0 1700000000 /* 2023-11-14T22:13:20Z, the fake clock's origin */
#define DAY 86400

static ww_ratings_t table;

static void health(ww_health_t *h, const char *model, uint64_t cap, uint64_t written,
		   uint64_t poh_s)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "%s", model);
	WW_SET(h->capacity_bytes, cap, "test");
	WW_SET(h->host_written_bytes, written, "test");
	WW_SET(h->power_on_seconds, poh_s, "test");
}

static void compute(const ww_health_t *h, const char *iface, const ww_rating_row_t *cfg,
		    ww_endurance_t *e)
{
	ww_model_in_t in = { .h = h, .iface = iface, .present = true, .first_seen = T0 };

	in.drive_capacity_bytes = h->capacity_bytes.value;
	in.config = cfg;
	in.table = ww_ratings_match(&table, h->model, iface);
	ww_model_compute(&in, T0, e);
}

/* the verdict of h with the endurance figures e, as the service gives it
 * (drive present, read now); mem may be NULL */
static ww_status_t verdict(const ww_health_t *h, const ww_endurance_t *e, bool present,
			   const ww_vmemory_t *mem, ww_verdict_t *v)
{
	ww_verdict_in_t in = { .h = h, .e = e, .mem = mem, .protocol = h->protocol,
			       .present = present, .missing_since = T0 - 60 };

	ww_verdict(&in, T0, v);
	return v->status;
}

static bool has_reason(const ww_verdict_t *v, ww_reason_t r)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->r[i].code == r)
			return true;
	return false;
}

static void test_table_figures(void)
{
	static ww_health_t h;
	ww_endurance_t e;

	/* PX02SSF040: the row carries rated bytes and a nominal 400 GB */
	health(&h, "PX02SSF040", 400088457216ull, 0, 3600);
	compute(&h, "sas", NULL, &e);
	CHECK(e.rating_source == WW_RATING_TABLE);
	CHECK_EQ_U64(e.rated_bytes, 21900000000000000ull);
	CHECK(e.capacity_basis == WW_CAP_TABLE);
	CHECK_EQ_U64(e.capacity_bytes, 400000000000ull);
	CHECK(e.has_rated_dwpd && e.rated_dwpd == 30);
	/* and the same from DWPD arithmetic */
	CHECK_EQ_U64(ww_model_rated_bytes(30, 400000000000ull, 5), 21900000000000000ull);
	CHECK(strstr(e.rating_row, "^PX02SS[FU]040") == e.rating_row);
	printf("PX02SSF040: rated %llu bytes, %.0f DWPD, capacity %llu (%s)\n",
	       (unsigned long long)e.rated_bytes, e.rated_dwpd, (unsigned long long)e.capacity_bytes,
	       ww_capacity_basis_name(e.capacity_basis));

	/* PX04SMB160: row has 10 DWPD, no capacity -> the drive's 1.6 TB */
	health(&h, "PX04SMB160", 1600000000000ull, 0, 3600);
	compute(&h, "sas", NULL, &e);
	CHECK(e.rating_source == WW_RATING_TABLE);
	CHECK(e.capacity_basis == WW_CAP_DRIVE);
	CHECK_EQ_U64(e.rated_bytes, 29200000000000000ull);
	printf("PX04SMB160: rated %llu bytes, %.0f DWPD, capacity %llu (%s)\n",
	       (unsigned long long)e.rated_bytes, e.rated_dwpd, (unsigned long long)e.capacity_bytes,
	       ww_capacity_basis_name(e.capacity_basis));

	/* PX04PMB320: nominal 3.2 TB from the row, even if the drive reports more */
	health(&h, "PX04PMB320", 3200631791616ull, 584000000000000ull, 100 * 3600);
	compute(&h, "nvme", NULL, &e);
	CHECK_EQ_U64(e.rated_bytes, 58400000000000000ull);
	printf("PX04PMB320: rated %llu bytes, %.0f DWPD, capacity %llu (%s), used %.6f\n",
	       (unsigned long long)e.rated_bytes, e.rated_dwpd, (unsigned long long)e.capacity_bytes,
	       ww_capacity_basis_name(e.capacity_basis), e.rated_used_ratio);
	CHECK(e.capacity_basis == WW_CAP_TABLE);
	/* 584 TB of 58.4 PB = 1 % */
	CHECK(e.has_rated_used && e.rated_used_ratio > 0.00999999 && e.rated_used_ratio < 0.01000001);
	CHECK_EQ_U64(e.warranty_years, 5);
	/* interface must match: the NVMe row does not rate a SAS drive */
	CHECK(ww_ratings_match(&table, "PX04PMB320", "sas") == NULL);

	/* HG6: no rating published -> none, honestly */
	health(&h, "TOSHIBA THNSNJ256GCSU", 256060514304ull, 1000, 3600);
	compute(&h, "sata", NULL, &e);
	CHECK(e.rating_source == WW_RATING_NONE);
	CHECK_STR(e.rating_note, "no rating known");
	CHECK(!e.has_rated_bytes && !e.has_rated_used);
}

static void test_overrides(void)
{
	ww_ratings_t o = { 0 };
	char err[160];
	static ww_health_t h;
	ww_endurance_t e;

	CHECK_EQ_I64(ww_rating_override_parse(&o, "QEMU NVMe Ctrl=10:5:1000000000", err, sizeof(err)), 0);
	CHECK_EQ_I64(ww_rating_override_parse(&o, "SERIAL42=21.9PB:5@2020-01-01", err, sizeof(err)), 0);
	CHECK_EQ_U64(o.rows[1].rated_bytes, 21900000000000000ull);
	CHECK_EQ_I64(o.rows[1].warranty_start, 1577836800); /* 2020-01-01T00:00:00Z */
	CHECK(ww_rating_override_parse(&o, "x=10", err, sizeof(err)) < 0);
	CHECK(ww_rating_override_parse(&o, "x=abcPB:5", err, sizeof(err)) < 0);
	CHECK(ww_rating_override_parse(&o, "=10:5", err, sizeof(err)) < 0);
	CHECK(ww_ratings_match_override(&o, "nvme-x", "SERIAL42", "other") == &o.rows[1]);
	CHECK(ww_ratings_match_override(&o, "nvme-x", "S", "QEMU NVMe Ctrl") == &o.rows[0]);

	/* 10 DWPD x 1 GB x 365 x 5 = 18.25 TB; 1.825 TB written = 0.1 */
	health(&h, "QEMU NVMe Ctrl", 1073741824ull, 1825000000000ull, 3600);
	compute(&h, "nvme", &o.rows[0], &e);
	CHECK(e.rating_source == WW_RATING_CONFIG);
	CHECK(e.capacity_basis == WW_CAP_CONFIG);
	CHECK_EQ_U64(e.rated_bytes, 18250000000000ull);
	CHECK(e.rated_used_ratio > 0.0999999 && e.rated_used_ratio < 0.1000001);
	/* configured warranty start wins */
	compute(&h, "nvme", &o.rows[1], &e);
	CHECK(e.warranty_start_basis == WW_WS_CONFIG);
	CHECK_EQ_I64(e.warranty_end, 1577836800 + 5 * 365 * DAY);
	ww_ratings_free(&o);
}

/* hourly samples writing `per_day` bytes a day from T0 - days*DAY to T0 */
static size_t series(ww_sample_t *s, unsigned days, uint64_t per_day)
{
	size_t n = 0;

	for (long t = -(long)days * 24; t <= 0; t++, n++) {
		memset(&s[n], 0, sizeof(s[n]));
		s[n].t = T0 + t * 3600;
		s[n].has_written = true;
		s[n].written_bytes = 1000000000000ull + (uint64_t)((t + (long)days * 24) * (per_day / 24));
	}
	return n;
}

static void test_windows(void)
{
	static ww_sample_t s[24 * 40 + 1];
	size_t n;
	long b;
	double d;
	const uint64_t cap = 1000000000000ull; /* 1 TB */

	/* 40 days at 0.5 TB/day: every window is 0.5 DWPD */
	n = series(s, 40, 500000000000ull);
	for (int w = 0; w < WW_WIN_MAX; w++) {
		b = ww_model_pick_base(s, n, T0, ww_window_days[w]);
		CHECK(b >= 0);
		CHECK(ww_model_window_dwpd(&s[b], &s[n - 1], ww_window_days[w], cap, &d));
		CHECK(d > 0.4999 && d < 0.5001);
	}
	/* 6 days of history: 1d yes, 7d no (6 < 0.9 x 7 = 6.3), 30d no */
	n = series(s, 6, 500000000000ull);
	b = ww_model_pick_base(s, n, T0, 7);
	CHECK(!ww_model_window_dwpd(&s[b], &s[n - 1], 7, cap, &d));
	/* 6.3 days exactly is enough (the 90 % rule) */
	s[0].t = T0 - (time_t)(6.3 * DAY);
	CHECK(ww_model_window_dwpd(&s[0], &s[n - 1], 7, cap, &d));

	/* reset: the counter went backwards 2 days ago -> new segment, the 1d
	 * window uses only the new segment, the 7d window is not given */
	n = series(s, 10, 500000000000ull);
	for (size_t i = n - 48; i < n; i++) {
		s[i].segment = 1;
		s[i].written_bytes -= 1000000000000ull - 1; /* below the old values */
	}
	b = ww_model_pick_base(s, n, T0, 7);
	CHECK_EQ_I64(b, (long)(n - 48));
	CHECK(!ww_model_window_dwpd(&s[b], &s[n - 1], 7, cap, &d));
	b = ww_model_pick_base(s, n, T0, 1);
	CHECK(ww_model_window_dwpd(&s[b], &s[n - 1], 1, cap, &d));
	CHECK(d > 0.4999 && d < 0.5001);
	/* never across segments even if handed such a pair */
	CHECK(!ww_model_window_dwpd(&s[0], &s[n - 1], 7, cap, &d));
}

static void test_projection_and_verdict(void)
{
	static ww_health_t h;
	static ww_sample_t s[24 * 31 + 1];
	static ww_verdict_t v;
	static ww_vmemory_t mem;
	ww_endurance_t e;
	ww_model_in_t in = { 0 };
	ww_ratings_t o = { 0 };
	char err[64];
	size_t n;

	/* 1 TB drive rated 1 DWPD for 5 years: 1825 TB; written 1 TB + 30 days at
	 * 1 TB/day -> 31 TB; remaining 1794 TB at 1 TB/day = 1794 days */
	CHECK_EQ_I64(ww_rating_override_parse(&o, "M=1:5:1000000000000@2023-01-01", err, sizeof(err)), 0);
	n = series(s, 30, 1000000000000ull);
	health(&h, "M", 1000000000000ull, s[n - 1].written_bytes, 300 * DAY);
	h.protocol = WW_PROTO_NVME;
	h.smart_status = WW_SMART_PASSED; /* a drive that reports its health */
	in.h = &h;
	in.present = true;
	in.drive_capacity_bytes = 1000000000000ull;
	in.config = &o.rows[0];
	in.latest = &s[n - 1];
	for (int w = 0; w < WW_WIN_MAX; w++) {
		long b = ww_model_pick_base(s, n, T0, ww_window_days[w]);

		in.base[w] = b >= 0 ? &s[b] : NULL;
	}
	ww_model_compute(&in, T0, &e);
	CHECK(e.has_window[WW_WIN_30D]);
	CHECK(e.has_wearout_write_rate);
	CHECK_EQ_I64(e.wearout_write_rate, T0 + 1794LL * DAY);
	CHECK(!e.has_wearout_pct); /* drive reports no percentage used */
	CHECK(verdict(&h, &e, true, NULL, &v) == WW_STATUS_OK && v.n == 0);
	/* lifetime DWPD: 31 TB / 1 TB / 300 power-on days */
	CHECK(e.has_lifetime_dwpd && e.lifetime_dwpd > 31.0 / 300 - 1e-9 && e.lifetime_dwpd < 31.0 / 300 + 1e-9);

	/* zero write rate: no projection (not +Inf) */
	for (size_t i = 0; i < n; i++)
		s[i].written_bytes = 5;
	WW_SET(h.host_written_bytes, 5, "test");
	WW_SET(h.endurance_used_percent, 0, "test");
	ww_model_compute(&in, T0, &e);
	CHECK(e.has_window[WW_WIN_30D] && e.window_dwpd[WW_WIN_30D] == 0);
	CHECK(!e.has_wearout_write_rate && !e.has_wearout_pct);

	/* percentage used 40 % after 2 years of power-on: 60 % left at 20 %/year
	 * = 3 years (3 x 365 days) -> before the 2028-01-01 warranty end? the
	 * warranty ends 2023-01-01 + 1825 d = 2027-12-31; T0 + 1095 d is 2026-11:
	 * wear-out before warranty end is a warning */
	WW_SET(h.endurance_used_percent, 40, "test");
	WW_SET(h.power_on_seconds, 2 * 365 * DAY, "test");
	ww_model_compute(&in, T0, &e);
	CHECK(e.has_wearout_pct);
	CHECK_EQ_I64(e.wearout_pct, T0 + 3LL * 365 * DAY);
	CHECK(verdict(&h, &e, true, NULL, &v) == WW_STATUS_WARNING);
	CHECK(has_reason(&v, WW_R_WEAROUT_BEFORE_WARRANTY));

	/* rated endurance 96 %: past both levels (80 %, 95 %); the verdict
	 * names the highest one reached, critical */
	WW_SET(h.host_written_bytes, 1752000000000000ull, "test");
	WW_SET(h.endurance_used_percent, 5, "test");
	ww_model_compute(&in, T0, &e);
	CHECK(verdict(&h, &e, true, NULL, &v) == WW_STATUS_CRITICAL);
	CHECK(has_reason(&v, WW_R_RATED_NEAR_END) && !has_reason(&v, WW_R_RATED_HIGH));
	CHECK(e.used_disagree); /* 0.96 vs 0.05: informational only */

	/* critical warning bit 4 (volatile memory backup failed) = PLP failed;
	 * spare below threshold; temperature at WCTEMP; media errors that rose
	 * within the increase window (1 -> 2 in the last 24 h) */
	WW_SET(h.host_written_bytes, 5, "test");
	WW_SET(h.critical_warning, 0x10, "test");
	WW_SET(h.available_spare_percent, 5, "test");
	WW_SET(h.available_spare_threshold_percent, 10, "test");
	WW_SET(h.temperature_celsius, 70, "test");
	WW_SET(h.temperature_warning_celsius, 70, "test");
	h.has_nvme_smart = true;
	WW_SET(h.media_errors, 1, "test");
	ww_verdict_remember(&mem, &h, T0 - 25 * 3600, 86400);
	WW_SET(h.media_errors, 2, "test");
	ww_verdict_remember(&mem, &h, T0 - 3600, 86400);
	h.smart_status = WW_SMART_FAILED;
	ww_model_compute(&in, T0, &e);
	CHECK(verdict(&h, &e, true, &mem, &v) == WW_STATUS_CRITICAL);
	CHECK(has_reason(&v, WW_R_PLP_FAILED) && has_reason(&v, WW_R_SPARE_LOW));
	CHECK(has_reason(&v, WW_R_TEMP_WARNING) && has_reason(&v, WW_R_MEDIA_ERRORS_INC));
	/* NVMe's SMART status is its critical warning byte: named bit by bit */
	CHECK(!has_reason(&v, WW_R_SMART_FAILED));
	/* a drive that disappeared: missing, critical, its old values not judged */
	CHECK(verdict(&h, &e, false, &mem, &v) == WW_STATUS_CRITICAL);
	CHECK(v.n == 1 && has_reason(&v, WW_R_MISSING));
	ww_ratings_free(&o);
}

static void test_warranty_start(void)
{
	static ww_health_t h;
	time_t t;

	memset(&h, 0, sizeof(h));
	/* SAS date of manufacture 2016 week 10: Monday 2016-03-07 (ISO 8601) */
	snprintf(h.scsi.manufacture_year, sizeof(h.scsi.manufacture_year), "2016");
	snprintf(h.scsi.manufacture_week, sizeof(h.scsi.manufacture_week), "10");
	WW_SET(h.power_on_seconds, 1000, "test");
	CHECK(ww_model_warranty_start(NULL, &h, T0 - 5, T0, &t) == WW_WS_MANUFACTURE);
	CHECK_EQ_I64(t, 1457308800);
	h.scsi.manufacture_year[0] = '\0';
	CHECK(ww_model_warranty_start(NULL, &h, T0 - 5, T0, &t) == WW_WS_POWER_ON);
	CHECK_EQ_I64(t, T0 - 1000);
	h.power_on_seconds.source = NULL;
	CHECK(ww_model_warranty_start(NULL, &h, T0 - 5, T0, &t) == WW_WS_FIRST_SEEN);
	CHECK_EQ_I64(t, T0 - 5);
}

static void test_table_parse_errors(void)
{
	ww_ratings_t t = { 0 };
	unsigned bad = 0;

	CHECK_EQ_I64(ww_ratings_parse(&t, "# c\n\n^A\tsata\t\t1\t\t5\tsrc\n", "t", &bad), 1);
	CHECK_EQ_I64(ww_ratings_parse(&t, "^B\tsata\t\t\t\t5\tno rating\n", "t", &bad), -EINVAL);
	CHECK_EQ_U64(bad, 1);
	CHECK_EQ_I64(ww_ratings_parse(&t, "\n([\tsata\t\t1\t\t5\tbad regex\n", "t", &bad), -EINVAL);
	CHECK_EQ_U64(bad, 2);
	ww_ratings_free(&t);
}

int main(void)
{
	unsigned bad = 0;
	int rows = ww_ratings_parse(&table, ww_builtin_ratings_tsv, "built-in", &bad);

	CHECK(rows >= 10); /* the 10 seed rows at least */
	if (rows < 0)
		printf("built-in table bad at line %u\n", bad);
	test_table_figures();
	test_overrides();
	test_windows();
	test_projection_and_verdict();
	test_warranty_start();
	test_table_parse_errors();
	ww_ratings_free(&table);
	return ww_test_done("test_model_endurance");
}
