/* Self-test schedules and the self-test reasons (src/model/selftest.c,
 * verdict_errors.c).
 *
 * Schedules: smartd.conf(5)'s -s examples, S/../.././02 (short daily at
 * 2 am), L/../../6/03 (extended on Saturdays at 3 am) and the two joined,
 * matched against the texts smartd builds, "T/MM/DD/d/HH" (Monday = 1), in
 * smartd's order of priority (L before S). The clock is TZ=UTC; 2026-12-05
 * is a Saturday.
 *
 * Reasons: the Hitachi HDS721050DLE630 self-test log of scrutiny's
 * smart-fail2.json as a spec-constructed sector
 * (tests/fixtures/ata/hitachi-hds721050dle630-selftest.hex: three extended
 * tests ended "Completed: read failure" at LBAs 104870168, 104874784 and
 * 104874792, the newest of them at 4 h; the newest test of all a short one
 * that passed at 42 h). smartctl prints that drive's self-test log with 3
 * errors whose newest LBA is 104870168; a short test passing since clears
 * nothing, so the failure stands (critical: read element, an LBA). One
 * descriptor added (an extended test passing at 43 h, ACS-4 layout) clears
 * it. The NVMe Device Self-test log 06h and SCSI page 0x10 the same way, on
 * spec-constructed pages (tests/fixtures/nvme/selftest-06-*.hex, decoded by
 * nvme-cli 2.3; tests/fixtures/scsi/log_10_self_test_{failed,cleared}.hex,
 * by sg_logs --inhex): a failure with a failing LBA, critical, then cleared
 * by a newer passing extended test. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/decode.h"
#include "wearwatch/model.h"
#include "ww_test.h"

static char fixdir[4096];

/* 2026-12-DD HH:MM UTC */
static time_t at(int day, int hour, int min)
{
	struct tm tm = {
		.tm_year = 126, .tm_mon = 11, .tm_mday = day, .tm_hour = hour, .tm_min = min
	};

	return timegm(&tm);
}

static ww_selftest_sched_t *compile(const char *re)
{
	ww_selftest_sched_t *s = NULL;
	char err[160] = "";

	CHECK_EQ_I64(ww_selftest_sched_compile(re, &s, err, sizeof(err)), 0);
	if (err[0])
		fprintf(stderr, "%s: %s\n", re, err);
	return s;
}

#define ALL                                                                                        \
	(1u << WW_STK_SHORT | 1u << WW_STK_EXTENDED | 1u << WW_STK_CONVEYANCE |                    \
	 1u << WW_STK_OFFLINE)

static void test_schedule(void)
{
	ww_selftest_sched_t *s = compile("S/../.././02"), *l = compile("L/../../6/03"),
			    *sl = compile("S/../.././02|L/../../6/03"),
			    *par = compile("(S/../.././02|L/../../6/03)"),
			    *both = compile("L/../../6/02|S/../.././02"), *bad = NULL;
	ww_selftest_plan_t p;
	char err[160];

	CHECK_EQ_U64(ww_selftest_sched_due(s, at(2, 2, 30), ALL), WW_STK_SHORT);
	CHECK_EQ_U64(ww_selftest_sched_due(s, at(2, 3, 0), ALL), WW_STK_NONE);
	CHECK_EQ_U64(ww_selftest_sched_due(s, at(2, 1, 59), ALL), WW_STK_NONE);
	/* a drive that cannot run short tests: nothing */
	CHECK_EQ_U64(ww_selftest_sched_due(s, at(2, 2, 0), 1u << WW_STK_EXTENDED), WW_STK_NONE);
	CHECK_EQ_U64(ww_selftest_sched_due(l, at(5, 3, 10), ALL), WW_STK_EXTENDED);
	CHECK_EQ_U64(ww_selftest_sched_due(l, at(4, 3, 10), ALL), WW_STK_NONE); /* Friday */
	CHECK_EQ_U64(ww_selftest_sched_due(l, at(12, 3, 0), ALL), WW_STK_EXTENDED);
	/* joined, with and without the parentheses smartd's example has */
	for (int k = 0; k < 2; k++) {
		const ww_selftest_sched_t *j = k ? par : sl;

		CHECK_EQ_U64(ww_selftest_sched_due(j, at(3, 2, 0), ALL), WW_STK_SHORT);
		CHECK_EQ_U64(ww_selftest_sched_due(j, at(5, 2, 0), ALL), WW_STK_SHORT);
		CHECK_EQ_U64(ww_selftest_sched_due(j, at(5, 3, 0), ALL), WW_STK_EXTENDED);
		CHECK_EQ_U64(ww_selftest_sched_due(j, at(3, 3, 0), ALL), WW_STK_NONE);
	}
	/* smartd's n, the next selective span: below L, above S ("LncrSCO"),
	 * and only on a drive that runs selective tests */
	{
		ww_selftest_sched_t *n = compile("(L|n|S)/../.././02"),
				    *ns = compile("n/../.././02");
		const unsigned sel = 1u << WW_STK_SELECTIVE;

		CHECK_EQ_U64(ww_selftest_sched_due(n, at(2, 2, 0), ALL | sel), WW_STK_EXTENDED);
		CHECK_EQ_U64(ww_selftest_sched_due(n, at(2, 2, 0), 1u << WW_STK_SHORT | sel),
			     WW_STK_SELECTIVE);
		CHECK_EQ_U64(ww_selftest_sched_due(ns, at(2, 2, 0), ALL | sel), WW_STK_SELECTIVE);
		CHECK_EQ_U64(ww_selftest_sched_due(ns, at(2, 2, 0), ALL), WW_STK_NONE);
		CHECK_EQ_U64(ww_selftest_sched_due(ns, at(2, 3, 0), ALL | sel), WW_STK_NONE);
		ww_selftest_sched_free(n);
		ww_selftest_sched_free(ns);
	}
	/* the same hour for both: L outranks S, as in smartd */
	CHECK_EQ_U64(ww_selftest_sched_due(both, at(5, 2, 0), ALL), WW_STK_EXTENDED);
	CHECK_EQ_U64(ww_selftest_sched_due(both, at(4, 2, 0), ALL), WW_STK_SHORT);
	/* catching up over a gap: the highest priority due in it */
	CHECK_EQ_U64(ww_selftest_sched_since(sl, at(5, 1, 0), at(5, 4, 0), ALL), WW_STK_EXTENDED);
	CHECK_EQ_U64(ww_selftest_sched_since(sl, at(5, 1, 0), at(5, 2, 30), ALL), WW_STK_SHORT);
	CHECK_EQ_U64(ww_selftest_sched_since(sl, at(5, 4, 0), at(5, 23, 0), ALL), WW_STK_NONE);

	ww_selftest_plan(sl, at(5, 12, 0), ALL, &p);
	CHECK(p.on);
	CHECK_EQ_I64(p.next, at(6, 2, 0));
	CHECK_EQ_U64(p.next_kind, WW_STK_SHORT);
	CHECK_EQ_I64(p.last[WW_STK_SHORT], at(5, 2, 0));
	CHECK_EQ_I64(p.before_last[WW_STK_SHORT], at(4, 2, 0));
	CHECK_EQ_I64(p.last[WW_STK_EXTENDED], at(5, 3, 0));
	CHECK_EQ_I64(p.before_last[WW_STK_EXTENDED], at(5, 3, 0) - 7 * 86400);
	CHECK_EQ_U64(p.kinds, 1u << WW_STK_SHORT | 1u << WW_STK_EXTENDED);
	ww_selftest_plan(NULL, at(5, 12, 0), ALL, &p);
	CHECK(!p.on && !p.next);

	/* refused, with why */
	CHECK_EQ_I64(ww_selftest_sched_compile("L/../../6/0[3", &bad, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bad pattern") != NULL);
	CHECK_EQ_I64(ww_selftest_sched_compile("", &bad, err, sizeof(err)), -EINVAL);
	CHECK(bad == NULL);

	/* ever: smartd.conf(5)'s examples can start a test, and its next
	 * selective span n; a one-digit hour, an unknown type and smartd's
	 * other selective types c, r alone never can (smartd builds MM, DD and
	 * HH with two digits) */
	{
		static const char *const ever[] = {
			"S/../.././02", "L/../../6/03", "(S/../.././02|L/../../6/03)",
			"L/12/31/./23", "S/02/29/./00", "O/../.././(00|06|12|18)",
			"n/../.././02"
		};
		static const char *const never[] = { "S/../.././2",  "X",
						     "c/../.././02", "r/../.././02",
						     "L/02/30/./03", "S/13/.././02" };
		ww_selftest_sched_t *x;

		for (size_t i = 0; i < sizeof(ever) / sizeof(ever[0]); i++) {
			x = compile(ever[i]);
			CHECK_EQ_I64(ww_selftest_sched_ever(x), 1);
			ww_selftest_sched_free(x);
		}
		for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++) {
			x = compile(never[i]);
			CHECK_EQ_I64(ww_selftest_sched_ever(x), 0);
			ww_selftest_sched_free(x);
		}
		/* nested optional groups backtrack past WW_PATTERN_MATCH_STEPS on
		 * a text they do not match: refused, whether or not an easy
		 * alternative matches some hours first */
		static const char *const slow[] = { "(.?.?.?.?.?.?.?.?)*[a-z]",
						    "S/../.././02|(.?.?.?.?.?.?.?.?)*[a-z]" };
		for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++) {
			x = compile(slow[i]);
			CHECK_EQ_I64(ww_selftest_sched_ever(x), -E2BIG);
			ww_selftest_sched_free(x);
		}
		/* one that is quick on January's texts passes that check; in
		 * December (the plan's now) every text takes the slow branch: the
		 * plan and the look back stop at the first limit instead of
		 * paying it for each of the horizon's hours */
		x = compile("./0./.././..|(.?.?.?.?.?.?.?.?)*[a-z]");
		CHECK_EQ_I64(ww_selftest_sched_ever(x), 1);
		ww_selftest_plan_t sp;
		ww_selftest_plan(x, at(5, 12, 0), ALL, &sp);
		CHECK(sp.on);
		CHECK_EQ_I64(sp.next, 0);
		CHECK_EQ_U64(sp.kinds, 0);
		CHECK_EQ_U64(ww_selftest_sched_since(x, at(1, 0, 0), at(5, 12, 0), ALL),
			     WW_STK_NONE);
		ww_selftest_sched_free(x);
	}
	ww_selftest_sched_free(s);
	ww_selftest_sched_free(l);
	ww_selftest_sched_free(sl);
	ww_selftest_sched_free(par);
	ww_selftest_sched_free(both);
}

static ww_health_t h;
static ww_verdict_t v;

static const ww_vreason_t *judge(const ww_verdict_in_t *extra, ww_reason_t code, time_t now)
{
	ww_verdict_in_t in = { .h = &h, .protocol = h.protocol, .present = true };

	if (extra) {
		in.mem = extra->mem;
		in.plan = extra->plan;
	}
	ww_verdict(&in, now, &v);
	for (size_t i = 0; i < v.n; i++)
		if (v.r[i].code == code)
			return &v.r[i];
	return NULL;
}

/* a record as the SATA reader leaves it: SMART RETURN STATUS passed */
static void fresh(void)
{
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_ATA;
	h.smart_status = WW_SMART_PASSED;
}

static void load_hitachi(uint8_t *b)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/ata/hitachi-hds721050dle630-selftest.hex", fixdir);
	memset(b, 0, 512);
	CHECK_EQ_U64(ww_load_hex(p, b, 512), 512);
}

/* add a descriptor after the newest (ACS-4: 24 bytes from byte 2, byte 508
 * the newest's 1-based index, byte 511 the checksum) */
static void add_entry(uint8_t *b, uint8_t test, uint8_t status, uint16_t hours)
{
	unsigned idx = b[508] % 21 + 1;
	uint8_t *d = b + 2 + (idx - 1) * 24, sum = 0;

	memset(d, 0, 24);
	d[0] = test;
	d[1] = status;
	d[2] = (uint8_t)hours;
	d[3] = (uint8_t)(hours >> 8);
	memset(d + 5, 0xff, 4); /* no failing LBA */
	b[508] = (uint8_t)idx;
	for (int i = 0; i < 511; i++)
		sum = (uint8_t)(sum + b[i]);
	b[511] = (uint8_t)(0x100 - sum);
}

static void test_failed_cleared(void)
{
	uint8_t b[512];
	const ww_selftest_log_t *l = &h.self_tests[WW_SELFTEST_ATA_STANDARD];
	const ww_vreason_t *r;
	time_t now = at(2, 12, 0);

	fresh();
	load_hitachi(b);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(l->has_last && l->last_passed == 1 && l->last_kind == WW_STK_SHORT);
	CHECK(l->has_open_failure);
	CHECK_EQ_U64(l->open_kind, WW_STK_EXTENDED);
	CHECK_EQ_U64(l->open_status, 7);
	CHECK_EQ_U64(l->open_hours, 4);
	CHECK(l->open_has_lba);
	CHECK_EQ_U64(l->open_lba, 104870168);
	r = judge(NULL, WW_R_SELF_TEST_FAILED, now);
	CHECK(r && r->severity == WW_STATUS_CRITICAL && r->value == 104870168);
	CHECK(r && strstr(r->text, "extended self-test at 4 power-on hours") &&
	      strstr(r->text, "the read element failed (status 7), first failing LBA 104870168"));
	CHECK_EQ_U64(v.status, WW_STATUS_CRITICAL);

	/* another short test passes: still failed */
	add_entry(b, 0x01, 0x00, 43);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(l->has_open_failure && l->last_hours == 43);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) != NULL);
	/* an aborted extended test (status 1): still failed */
	add_entry(b, 0x02, 0x10, 44);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) != NULL);
	/* an extended test passes: cleared, the drive is ok again */
	add_entry(b, 0x02, 0x00, 45);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(!l->has_open_failure);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) == NULL);
	CHECK_EQ_U64(v.status, WW_STATUS_OK);
	/* then a short one fails (servo, no LBA): a warning, of its kind */
	add_entry(b, 0x01, 0x60, 46);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	r = judge(NULL, WW_R_SELF_TEST_FAILED, now);
	CHECK(r && r->severity == WW_STATUS_WARNING && r->value == 6);
	CHECK(r && strstr(r->text, "short self-test at 46") != NULL);
	/* captive short test (81h) passing clears the short failure */
	add_entry(b, 0x81, 0x00, 47);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) == NULL);
	/* a selective span fails (04h, read failure 7): reported as such; the
	 * next night's span passing is another span, so it stays; an extended
	 * test passing clears it */
	add_entry(b, 0x04, 0x70, 48);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK_EQ_U64(l->open_kind, WW_STK_SELECTIVE);
	r = judge(NULL, WW_R_SELF_TEST_FAILED, now);
	CHECK(r && r->severity == WW_STATUS_CRITICAL &&
	      strstr(r->text, "selective self-test at 48 power-on hours") != NULL);
	add_entry(b, 0x04, 0x00, 49);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(l->last_kind == WW_STK_SELECTIVE && l->last_passed == 1);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) != NULL);
	add_entry(b, 0x02, 0x00, 50);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) == NULL);
}

/* a spec-constructed page of fixtures/dir/name (the comments of each give
 * its clause and the independent decoder's figures) into b; its length */
static size_t load_page(const char *name, uint8_t *b, size_t max)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s", fixdir, name);
	memset(b, 0, max);
	return ww_load_hex(p, b, max);
}

/* The NVMe Device Self-test log 06h and the SCSI Self-Test Results page
 * 0x10 the same way as the ATA log above: the newest test failed with a
 * failing LBA (critical), then a page where a newer passing test of the
 * same kind (NVMe: extended) or a longer one (SCSI: extended after a
 * short) clears it. nvme/selftest-06-{failed,cleared}.hex: nvme-cli 2.3
 * decoded them; scsi/log_10_self_test_{failed,cleared}.hex: sg_logs
 * --inhex (test_decode_scsi_logs re-runs it). */
static void test_nvme_scsi_cleared(void)
{
	uint8_t b[1024];
	const ww_vreason_t *r;
	time_t now = at(2, 12, 0);

	/* as the NVMe reader leaves a record: the SMART / Health log read */
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_NVME;
	h.has_nvme_smart = true;
	CHECK_EQ_U64(load_page("nvme/selftest-06-failed.hex", b, sizeof(b)),
		     WW_NVME_SELFTEST_LOG_LEN);
	CHECK_EQ_I64(ww_decode_nvme_selftest_log(b, WW_NVME_SELFTEST_LOG_LEN, &h), 0);
	CHECK(h.self_tests[WW_SELFTEST_NVME].has_open_failure);
	r = judge(NULL, WW_R_SELF_TEST_FAILED, now);
	CHECK(r && r->severity == WW_STATUS_CRITICAL && r->value == 4096);
	CHECK(r && strstr(r->text, "extended self-test at 1200 power-on hours") != NULL);
	CHECK_EQ_U64(load_page("nvme/selftest-06-cleared.hex", b, sizeof(b)),
		     WW_NVME_SELFTEST_LOG_LEN);
	CHECK_EQ_I64(ww_decode_nvme_selftest_log(b, WW_NVME_SELFTEST_LOG_LEN, &h), 0);
	CHECK(!h.self_tests[WW_SELFTEST_NVME].has_open_failure);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) == NULL);

	/* and the SAS reader: informational exceptions ASC 0 (page 0x2F) */
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_SCSI;
	h.smart_status = WW_SMART_PASSED;
	CHECK_EQ_U64(load_page("scsi/log_10_self_test_failed.hex", b, sizeof(b)), 404);
	CHECK_EQ_I64(ww_decode_scsi_log_page(b, 404, &h), 0);
	ww_scsi_finish(&h);
	r = judge(NULL, WW_R_SELF_TEST_FAILED, now);
	CHECK(r && r->severity == WW_STATUS_CRITICAL && r->value == 0x12345678);
	CHECK(r && strstr(r->text, "short self-test at 4500 power-on hours") != NULL);
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_SCSI;
	h.smart_status = WW_SMART_PASSED;
	CHECK_EQ_U64(load_page("scsi/log_10_self_test_cleared.hex", b, sizeof(b)), 404);
	CHECK_EQ_I64(ww_decode_scsi_log_page(b, 404, &h), 0);
	ww_scsi_finish(&h);
	CHECK(judge(NULL, WW_R_SELF_TEST_FAILED, now) == NULL);
}

static void test_stuck_overdue(void)
{
	uint8_t b[512];
	ww_vmemory_t mem = { 0 };
	ww_verdict_in_t in = { .mem = &mem };
	ww_selftest_sched_t *s = compile("S/../.././02|L/../../6/03");
	ww_selftest_plan_t p;
	const ww_vreason_t *r;
	time_t now = at(5, 12, 0);

	/* the drive says a test runs, 30 % left, short 2 min / extended 54 min
	 * (QEMU's AHCI disk's polling minutes) */
	fresh();
	h.self_test_now.source = "spec-constructed";
	h.self_test_now.running = true;
	h.self_test_now.remaining_percent = 30;
	h.self_test_now.expected_short_s = 120;
	h.self_test_now.expected_extended_s = 54 * 60;
	ww_verdict_remember(&mem, &h, now, 86400);
	CHECK_EQ_I64(mem.test_running_since, now);
	/* 2 x 54 min + 1 h = 168 min: not yet at 168, then past it */
	CHECK(judge(&in, WW_R_SELF_TEST_STUCK, now + 168 * 60) == NULL);
	r = judge(&in, WW_R_SELF_TEST_STUCK, now + 169 * 60);
	CHECK(r && r->value == 169 && r->limit == 168);
	/* it ended: the memory forgets, no reason */
	h.self_test_now.running = false;
	ww_verdict_remember(&mem, &h, now + 170 * 60, 86400);
	CHECK_EQ_I64(mem.test_running_since, 0);
	CHECK(judge(&in, WW_R_SELF_TEST_STUCK, now + 200 * 60) == NULL);

	/* overdue: the Hitachi log's newest test is a short pass at 42 h */
	fresh();
	memset(&mem, 0, sizeof(mem));
	load_hitachi(b);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	ww_selftest_plan(s, now, ALL, &p);
	in.plan = &p;
	mem.first_read = at(1, 0, 0) - 30 * 86400;
	/* power-on time now 52 h: the short test ran at about 02:00 today */
	WW_SET(h.power_on_seconds, 52 * 3600, "spec-constructed");
	r = judge(&in, WW_R_SELF_TEST_OVERDUE, now);
	/* the extended kind: none in the logs covers it (the extended ones failed
	 * before; the newest is short) */
	CHECK(r && strstr(r->text, "no extended self-test since the one scheduled at") != NULL);
	/* an extended test passed (added at 49 h: 3 h ago) covers both */
	add_entry(b, 0x02, 0x00, 49);
	CHECK_EQ_I64(ww_decode_ata_selftest_log(b, 512, &h), 0);
	CHECK(judge(&in, WW_R_SELF_TEST_OVERDUE, now) == NULL);
	/* three days later with no test: short is overdue */
	WW_SET(h.power_on_seconds, (52 + 72) * 3600, "spec-constructed");
	ww_selftest_plan(s, now + 3 * 86400, ALL, &p);
	r = judge(&in, WW_R_SELF_TEST_OVERDUE, now + 3 * 86400);
	CHECK(r && strstr(r->text, "no short self-test") && r->value == 3);
	/* an entry later than the drive's own power-on hours (QEMU writes
	 * 4660 h into every entry of a disk on for fewer) cannot be dated:
	 * no age is made of it (the 16-bit wrap made it 2536 days) */
	WW_SET(h.power_on_seconds, 45 * 3600, "spec-constructed");
	CHECK(judge(&in, WW_R_SELF_TEST_OVERDUE, now + 3 * 86400) == NULL);
	WW_SET(h.power_on_seconds, (52 + 72) * 3600, "spec-constructed");
	/* not scheduled: never overdue */
	in.plan = NULL;
	CHECK(judge(&in, WW_R_SELF_TEST_OVERDUE, now + 3 * 86400) == NULL);
	/* the logs date the tests, so a drive first read just now (`show`) is
	 * judged all the same */
	in.plan = &p;
	mem.first_read = now + 3 * 86400 - 3600;
	CHECK(judge(&in, WW_R_SELF_TEST_OVERDUE, now + 3 * 86400) != NULL);
	/* a log that holds no test at all: not overdue until a whole period
	 * was watched (a schedule just set), then overdue */
	fresh();
	WW_SET(h.power_on_seconds, 52 * 3600, "spec-constructed");
	h.self_tests[WW_SELFTEST_ATA_STANDARD].source = "spec-constructed: empty log";
	CHECK(judge(&in, WW_R_SELF_TEST_OVERDUE, now + 3 * 86400) == NULL);
	mem.first_read = now;
	r = judge(&in, WW_R_SELF_TEST_OVERDUE, now + 3 * 86400);
	CHECK(r && strstr(r->text, "the logs hold none that covers it") != NULL);
	ww_selftest_sched_free(s);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures", src ? src : ".");
	test_schedule();
	test_failed_cleared();
	test_nvme_scsi_cleared();
	test_stuck_overdue();
	return ww_test_done("test_model_selftest");
}
