/* Drive database memory (src/collect/drivedb.c): source strings must not
 * leak. The adversarial finding: every cache miss allocated "drivedb.h
 * FAMILY:" and "... -v ARG" strings that nothing freed, so a drive reporting a
 * different model at each poll (the cache holds 64) grew memory without bound,
 * and a preset whose id does not parse lost its string at once.
 *
 * The database here is a spec-constructed drivedb.h entry in smartmontools'
 * format ({ family, model regex, firmware regex, warning, presets }) written
 * by the test; the preset texts are forms drivedb.h uses ("-v 9,minutes",
 * "-v 241,raw48,Host_Writes_32MiB") plus ones we do not use or parse. Checks:
 * the presets still apply with their sources; heap use does not grow over
 * 4000 distinct models after a warm-up (mallinfo2, plain builds); and, under
 * -DWW_SANITIZE=ON, LeakSanitizer finds nothing unreachable. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/drivedb.h"
#include "ww_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define WW_LSAN 1
int __lsan_do_recoverable_leak_check(void);
#endif

static const char db_text[] =
	"/* spec-constructed: the shape of smartmontools' drivedb.h */\n"
	"{ \"Leak Test family\", \"LEAKTEST [0-9]+\", \"\", \"\",\n"
	"  \"-v 9,minutes -v 241,raw48,Host_Writes_32MiB -v 9,raw24(raw8) \"\n"
	"  \"-v 241,raw48 -v 194,tempminmax -v x,raw48,Bogus\" },\n"
	"{ \"No presets family\", \"NOPRESET [0-9]+\", \"\", \"\", \"\" },\n";

static void lookups(int from, int to)
{
	char model[64];
	ww_ata_presets_t p;

	for (int i = from; i < to; i++) {
		snprintf(model, sizeof(model), "%s %d", i % 2 ? "LEAKTEST" : "NOPRESET", i);
		ww_drivedb_lookup(model, "FW1", &p);
		snprintf(model, sizeof(model), "UNKNOWN %d", i);
		ww_drivedb_lookup(model, "FW1", &p);
	}
}

int main(void)
{
	char path[] = "/tmp/ww-drivedb-XXXXXX";
	int fd = mkstemp(path);
	ww_ata_presets_t p;
	size_t before, after;

	CHECK(fd >= 0 && write(fd, db_text, sizeof(db_text) - 1) == (ssize_t)(sizeof(db_text) - 1));
	close(fd);
	ww_drivedb_set_path(path);

	/* the entry applies, sources name it (what records point to) */
	CHECK_EQ_I64(ww_drivedb_lookup("LEAKTEST 1", "FW1", &p), 1);
	CHECK_EQ_U64(p.poh_unit, WW_ATA_POH_MINUTES);
	CHECK_STR(p.poh_source, "drivedb.h \"Leak Test family\": -v 9,minutes");
	CHECK_EQ_U64(p.written_unit_bytes, 32ull << 20);
	CHECK_STR(p.written_source, "drivedb.h \"Leak Test family\": -v 241,raw48,Host_Writes_32MiB");
	CHECK_EQ_I64(ww_drivedb_lookup("NOPRESET 2", "FW1", &p), 1);
	CHECK(p.poh_source == NULL);
	/* a preset whose id does not parse, and one we do not use */
	memset(&p, 0, sizeof(p));
	CHECK_EQ_I64(ww_drivedb_apply_presets("-v x,raw48 -v 9,raw24(raw8) -v 241,raw48", "t", &p), 0);

	lookups(0, 200); /* warm-up: the cache is full, strings are interned */
	before = mallinfo2().uordblks;
	lookups(200, 4200);
	after = mallinfo2().uordblks;
	/* 4000 misses used to keep ~4000 * 3 strings of ~50 bytes (~600 KB) */
	CHECK(after < before + 16 * 1024);
	printf("heap in use: %zu bytes before, %zu after 8000 lookups\n", before, after);

	/* the same source strings are shared, not copied per lookup */
	{
		ww_ata_presets_t a, b;

		ww_drivedb_lookup("LEAKTEST 5001", "FW1", &a);
		ww_drivedb_lookup("LEAKTEST 5003", "FW1", &b);
		CHECK(a.poh_source && a.poh_source == b.poh_source);
	}
#ifdef WW_LSAN
	CHECK(__lsan_do_recoverable_leak_check() == 0);
#endif
	unlink(path);
	return ww_test_done("test_collect_drivedb_leak");
}
