/* drivedb.h parsing (src/collect/drivedb.c) on files cut short: an entry
 * left open at the end of the file is not an entry, and its strings are
 * freed (they leaked at every reload). The minimal file is kept as a fuzz
 * seed (tests/fuzz/regress/drivedb-entry-open-at-eof.h); heap use over 300
 * reloads is measured with mallinfo2 (plain builds; LeakSanitizer checks the
 * same under -DWW_SANITIZE=ON). */
#include <malloc.h>
#include <unistd.h>

#include "collect/drivedb.h"
#include "ww_test.h"

static void write_db(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	char path[] = "/tmp/ww-drivedb-XXXXXX", big[8192];
	int fd = mkstemp(path);
	ww_ata_presets_t p;
	size_t before, after;

	CHECK(fd >= 0);
	close(fd);
	/* a whole entry, then one left open: the first applies, the second not */
	write_db(path, "{ \"Whole\", \"WHOLE [0-9]+\", \"\", \"\", \"-v 9,minutes\" },\n"
		       "{ \"Open family\", \"OPEN [0-9]+\", \"\", \"\",\n  \"-v 9,minutes\"\n");
	ww_drivedb_set_path(path);
	CHECK_EQ_I64(ww_drivedb_lookup("WHOLE 1", "", &p), 1);
	CHECK(p.poh_unit == WW_ATA_POH_MINUTES);
	CHECK_EQ_I64(ww_drivedb_lookup("OPEN 1", "", &p), 0);
	/* a stray '}' before an entry does not hide it */
	write_db(path, "} { \"After\", \"AFTER\", \"\", \"\", \"-v 9,minutes\" },\n");
	ww_drivedb_set_path(path);
	CHECK_EQ_I64(ww_drivedb_lookup("AFTER", "", &p), 1);

	/* the open entry's strings (6.4 KB here) are freed at every reload */
	/* 16 adjacent literals of 400 bytes: one 6400-byte warning field */
	snprintf(big, sizeof(big), "{ \"Open\", \"OPEN\", \"\", ");
	for (int k = 0; k < 16; k++) {
		size_t n = strlen(big);

		big[n] = '"';
		memset(big + n + 1, 'x', 400);
		memcpy(big + n + 401, "\" ", 3);
	}
	write_db(path, big);
	for (int i = 0; i < 20; i++) { /* warm-up */
		ww_drivedb_set_path(path);
		ww_drivedb_lookup("OPEN", "", &p);
	}
	before = mallinfo2().uordblks;
	for (int i = 0; i < 300; i++) {
		ww_drivedb_set_path(path);
		CHECK_EQ_I64(ww_drivedb_lookup("OPEN", "", &p), 0);
	}
	after = mallinfo2().uordblks;
	/* 300 x 6.4 KB leaked before */
	CHECK(after < before + 64 * 1024);
	if (after >= before + 64 * 1024)
		fprintf(stderr, "heap grew %zu bytes over 300 reloads\n", after - before);
	ww_drivedb_set_path(NULL);
	unlink(path);
	return ww_test_done("test_collect_drivedb");
}
