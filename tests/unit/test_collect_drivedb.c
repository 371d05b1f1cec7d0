/* Drive database (src/collect/drivedb.c) and the presets in ww_ata_finish_presets.
 *
 * Expected values come from real drives' own smartctl output:
 *  - INTEL SSDSC2BB480G7 fw N2010121, linuxhw-EnterpriseDrive
 *    SSD/SSDSC2BB480G7/C48BCB10FA14 (smartctl -x): 9 Power_On_Hours 25189,
 *    174 and 192 Unsafe_Shutdown_Count 11, 241 Host_Writes_32MiB 261831,
 *    Device Statistics 0x01/0x018 Logical Sectors Written 17159394993,
 *    512-byte logical sectors. smartctl's drivedb names 241 Host_Writes_32MiB
 *    for this model, so the 241 fallback is 261831 x 32 MiB.
 *  - Samsung SSD 860 EVO 500GB, scrutiny/smart-ata-full.json (smartctl -j):
 *    235 POR_Recovery_Count 4, 241 Total_LBAs_Written 64777770148 equal to
 *    Device Statistics Logical Sectors Written 64777770148.
 *  - Seagate ST2000NM0008-2F3100, smartctl_exporter/sat-Seagate_Enterprise_
 *    Capacity_3.5_HDD-ST2000NM0008-2F3100-sdl.json (smartctl 7.3 -j): 188
 *    Command_Timeout raw.value 8590065666, raw.string "2 2 2" (drivedb
 *    "-v 188,raw16"): three counters, not one count.
 *  - Toshiba HK4R THNSN8960PCSE (linuxhw SSD/THNSN8960PCSE/3033ED27E2E3,
 *    smartctl -x): 241 11955925 and 242 9018548 against Device Statistics
 *    Logical Sectors Written 783543503712 / Read 591039578079 (x 512 = 32
 *    MiB units; data/attribute-quirks.tsv cites them).
 *  - The preset strings are quoted from smartmontools 7.3's drivedb.h.
 * The database tests need /usr/share/smartmontools/drivedb.h (package
 * smartmontools, scripts/deps.sh); without it they skip with exit 77.
 * Files cut short are built here (test_open_entries). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/drivedb.h"
#include "wearwatch/collect.h"
#include "ww_test.h"

static void attr(ww_health_t *h, uint8_t id, uint64_t raw)
{
	ww_ata_attr_t *a = &h->ata.attrs[h->ata.n_attrs++];

	a->id = id;
	a->raw = raw;
}

static void test_presets_pure(void)
{
	ww_ata_presets_t p;

	memset(&p, 0, sizeof(p));
	CHECK_EQ_I64(ww_drivedb_apply_presets("-v 9,minutes", "t", &p), 1);
	CHECK_EQ_I64(p.poh_unit, WW_ATA_POH_MINUTES);
	memset(&p, 0, sizeof(p));
	CHECK_EQ_I64(ww_drivedb_apply_presets("-v 9,halfminutes -v 194,unknown", "t", &p), 1);
	CHECK_EQ_I64(p.poh_unit, WW_ATA_POH_HALFMINUTES);
	memset(&p, 0, sizeof(p));
	ww_drivedb_apply_presets("-v 174,raw48,Unsafe_Shutdown_Count -v 192,raw48,Unsafe_Shutdown_Count "
				 "-v 241,raw48,Host_Writes_32MiB -F xerrorlba", "t", &p);
	CHECK_EQ_U64(p.written_unit_bytes, 32ull << 20);
	CHECK_EQ_I64(p.unsafe_shutdown_id[0], 174);
	CHECK_EQ_I64(p.unsafe_shutdown_id[1], 192);
	CHECK_STR(p.written_source, "t -v 241,raw48,Host_Writes_32MiB");
	memset(&p, 0, sizeof(p));
	/* 192 Power-Off_Retract_Count is not an unsafe-shutdown count */
	CHECK_EQ_I64(ww_drivedb_apply_presets("-v 192,raw48,Power-Off_Retract_Count", "t", &p), 0);
	CHECK_EQ_I64(p.unsafe_shutdown_id[0], 0);
}

static void test_intel_dc(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));

	snprintf(h->model, sizeof(h->model), "INTEL SSDSC2BB480G7");
	snprintf(h->firmware, sizeof(h->firmware), "N2010121");
	WW_SET(h->logical_block_bytes, 512, "test");
	attr(h, 9, 25189);
	attr(h, 174, 11);
	attr(h, 192, 11);
	attr(h, 241, 261831);
	ww_ata_finish_db(h);
	CHECK_EQ_U64(h->power_on_seconds.value, 25189ull * 3600);
	CHECK_EQ_U64(h->host_written_bytes.value, 261831ull * 33554432ull);
	CHECK_STR(h->host_written_bytes.label, "ata_attribute_241");
	CHECK(h->host_written_bytes.source && strstr(h->host_written_bytes.source, "Host_Writes_32MiB"));
	CHECK_EQ_U64(h->unsafe_shutdowns.value, 11);
	CHECK(h->unsafe_shutdowns.source && strstr(h->unsafe_shutdowns.source, "-v 174,"));

	/* with Device Statistics, LSW x 512 wins over 241 (1.7e-5 apart) */
	memset(&h->host_written_bytes, 0, sizeof(h->host_written_bytes));
	WW_SET(h->ata.devstat_logical_sectors_written, 17159394993ull, "test");
	ww_ata_finish_db(h);
	CHECK_EQ_U64(h->host_written_bytes.value, 17159394993ull * 512);
	CHECK_STR(h->host_written_bytes.label, "ata_devstat");
	free(h);
}

static void test_maxtor_minutes(void)
{
	ww_ata_presets_t p;

	CHECK_EQ_I64(ww_drivedb_lookup("Maxtor 96147H8", "BAC51KJ0", &p), 1);
	CHECK_EQ_I64(p.poh_unit, WW_ATA_POH_MINUTES);
	CHECK(p.poh_source && strstr(p.poh_source, "Maxtor DiamondMax 60 ATA 100"));
	/* data/attribute-quirks.tsv: firmware 0085000B only */
	CHECK_EQ_I64(ww_drivedb_lookup("FUJITSU MHY2120BH", "0085000B", &p), 1);
	CHECK_EQ_I64(p.poh_unit, WW_ATA_POH_MINUTES);
	ww_drivedb_lookup("FUJITSU MHY2120BH", "0081000A", &p);
	CHECK_EQ_I64(p.poh_unit, WW_ATA_POH_HOURS);
	CHECK_EQ_I64(ww_drivedb_lookup("NO SUCH DRIVE 123", "1", &p), 0);
}

static const ww_ata_attr_t *find(const ww_health_t *h, uint8_t id)
{
	for (size_t i = 0; i < h->ata.n_attrs; i++)
		if (h->ata.attrs[i].id == id)
			return &h->ata.attrs[i];
	return NULL;
}

/* has_count: the raw value is one count only where drivedb.h leaves the
 * attribute its default meaning and format (smartmontools 7.3 entries). */
static void test_counts(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));

	/* "Seagate BarraCuda 3.5 (SMR)": "-v 9,msec24hour32 -v 200,raw48,Pressure_Limit
	 * -v 188,raw16 -v 240,msec24hour32": 5, 197, 198 keep their defaults;
	 * 1, 7, 188, 195 pack several values and are no count */
	snprintf(h->model, sizeof(h->model), "ST4000DM004-2CV104");
	attr(h, 1, 0x0000053a9dd0ull);   /* Seagate: error count << 32 | operations */
	attr(h, 5, 0x000200000008ull);   /* raw16(raw16): first word 8 */
	attr(h, 7, 0x0000034ed3f1ull);
	attr(h, 188, 0x000100010001ull);
	attr(h, 195, 0x00000096b5a7ull);
	attr(h, 197, 8);
	attr(h, 198, 3);
	ww_ata_finish_db(h);
	CHECK(!find(h, 1)->has_count && !find(h, 7)->has_count);
	CHECK(!find(h, 188)->has_count && !find(h, 195)->has_count);
	CHECK(find(h, 5)->has_count && find(h, 5)->count == 8);
	CHECK(find(h, 197)->has_count && find(h, 197)->count == 8);
	CHECK(find(h, 198)->has_count && find(h, 198)->count == 3);

	/* "Indilinx Barefoot 3 based SSDs": 5 Runtime_Bad_Block, 187
	 * Total_Unc_NAND_Reads, 196, 197 and 198 Host_Reads_GiB: other meanings */
	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "OCZ-VECTOR150");
	attr(h, 5, 1);
	attr(h, 187, 2);
	attr(h, 198, 12345);
	ww_ata_finish_db(h);
	CHECK(!find(h, 5)->has_count && !find(h, 187)->has_count && !find(h, 198)->has_count);

	/* no entry: the defaults */
	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "NO SUCH DRIVE 123");
	attr(h, 10, 4);
	attr(h, 196, 0x000500000002ull);
	attr(h, 199, 7);
	ww_ata_finish_db(h);
	CHECK(find(h, 10)->has_count && find(h, 10)->count == 4);
	CHECK(find(h, 196)->has_count && find(h, 196)->count == 2);
	CHECK(!find(h, 199)->has_count);
	free(h);
}

static void test_samsung_json(const char *fixtures)
{
	char path[1024];
	ww_health_t *h = calloc(1, sizeof(*h));
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/scrutiny/smart-ata-full.json", fixtures);
	f = fopen(path, "r");
	if (!f) {
		printf("skip Samsung JSON: %s absent\n", path);
		free(h);
		return;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	CHECK(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	CHECK_EQ_I64(ww_smartctl_parse(buf, (size_t)n, h, NULL), 0);
	CHECK_EQ_U64(h->unsafe_shutdowns.value, 4);
	CHECK(h->unsafe_shutdowns.source && strstr(h->unsafe_shutdowns.source, "POR_Recovery_Count"));
	CHECK_EQ_U64(h->host_written_bytes.value, 64777770148ull * 512);
	CHECK_STR(h->host_written_bytes.label, "ata_devstat");
	free(buf);
	free(h);
}


/* Seagate's packed 188: smartctl prints "2 2 2"; no count is exported */
static void test_seagate_188(const char *fixtures)
{
	size_t len;
	unsigned char *buf = ww_read_file(fixtures, "smartctl_exporter/sat-Seagate_Enterprise_"
					  "Capacity_3.5_HDD-ST2000NM0008-2F3100-sdl.json", &len);
	ww_health_t *h = calloc(1, sizeof(*h));
	const ww_ata_attr_t *a;

	if (!buf || !h) {
		printf("skip Seagate JSON: fixture absent\n");
		free(buf);
		free(h);
		return;
	}
	CHECK_EQ_I64(ww_smartctl_parse((char *)buf, len, h, NULL), 0);
	a = ww_ata_find_attr(h, 188);
	CHECK(a && !a->raw_is_count);
	CHECK_STR(a ? a->raw_string : NULL, "2 2 2");
	CHECK(a && a->format_source && strstr(a->format_source, "-v 188,raw16"));
	CHECK_STR(a ? a->name : NULL, "Command_Timeout");
	free(buf);
	free(h);
}

/* Toshiba HK4R without Device Statistics: 241/242 in 32 MiB units
 * (attribute-quirks.tsv); Samsung 860: Total_LBAs_Written x sector */
static void test_vendor_host_bytes(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_ata_presets_t p;

	CHECK_EQ_I64(ww_drivedb_lookup("TOSHIBA THNSN8960PCSE", "8EET6102", &p), 1);
	CHECK_EQ_U64(p.written_unit_bytes, 32ull << 20);
	CHECK_EQ_U64(p.read_unit_bytes, 32ull << 20);
	CHECK(p.written_source && strstr(p.written_source, "attribute-quirks.tsv"));
	snprintf(h->model, sizeof(h->model), "TOSHIBA THNSN8960PCSE");
	snprintf(h->firmware, sizeof(h->firmware), "8EET6102");
	WW_SET(h->logical_block_bytes, 512, "test");
	attr(h, 241, 11955925);
	attr(h, 242, 9018548);
	ww_ata_finish_db(h);
	CHECK_EQ_U64(h->host_written_bytes.value, 11955925ull << 25);
	CHECK_STR(h->host_written_bytes.label, "ata_attribute_241");
	CHECK_EQ_U64(h->host_read_bytes.value, 9018548ull << 25);
	CHECK_STR(h->host_read_bytes.label, "ata_attribute_242");
	/* within 0.0001 % of Device Statistics x 512 */
	CHECK(h->host_written_bytes.value / 1000000 == 783543503712ull * 512 / 1000000 ||
	      h->host_written_bytes.value / 1000000 + 1 == 783543503712ull * 512 / 1000000);

	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "Samsung SSD 860 EVO 500GB");
	WW_SET(h->logical_block_bytes, 512, "test");
	attr(h, 241, 64777770148ull);
	ww_ata_finish_db(h);
	CHECK_EQ_U64(h->host_written_bytes.value, 64777770148ull * 512);
	CHECK_STR(h->host_written_bytes.label, "ata_attribute_241_lba");
	CHECK(strstr(h->host_written_bytes.source, "Total_LBAs_Written") != NULL);

	/* Seagate IronWolf 110: the database's "GB" */
	CHECK_EQ_I64(ww_drivedb_lookup("ZA480NM10001", "", &p), 1);
	CHECK_EQ_U64(p.written_unit_bytes, 1000000000ull);
	CHECK_EQ_U64(p.read_unit_bytes, 1000000000ull);
	free(h);
}

static void write_db(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* drivedb.h files cut short: an entry left open at the end of the file is
 * not an entry, and its strings are freed (they leaked at every reload; the
 * minimal file is the fuzz seed tests/fuzz/regress/drivedb-entry-open-at-eof.h).
 * Heap use over 300 reloads is measured with mallinfo2 (plain builds;
 * LeakSanitizer checks the same under -DWW_SANITIZE=ON). */
static void test_open_entries(void)
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
}

/* Seagate IronWolf / IronWolf Pro: smartmontools 7.3's drivedb.h (Debian 12)
 * has 18, 200 and 240 only, and not every model; the newer upstream entries
 * (drivedb.h VERSION 7.3/6293, "Seagate IronWolf" and "Seagate IronWolf
 * Pro") add "-v 1,raw24/raw32 -v 7,raw24/raw32 -v 188,raw16" (IronWolf also
 * "-v 195,raw24/raw32"), carried in data/attribute-quirks.tsv. Raw values
 * spec-constructed (no IronWolf fixture): 188 = 4295032833 = 0x000100010001,
 * the value IronWolf owners report read as one count; the expected strings
 * are what smartctl's formats print (raw16 "%u %u %u" of the words high to
 * low, raw24/raw32 "%u/%u" of bits 32-55 and 0-31: smartmontools
 * atacmds.cpp ata_format_attr_raw_value). */
static void test_ironwolf(void)
{
	static const char *const models[] = {
		"ST4000VN008-2DR166",  /* in both files' IronWolf entry */
		"ST4000VN006-3CW104",  /* only in the newer one's */
		"ST16000NT001-3LV101", /* IronWolf Pro, only in the newer one's */
	};
	ww_health_t *h = calloc(1, sizeof(*h));
	const ww_ata_attr_t *a;

	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		memset(h, 0, sizeof(*h));
		snprintf(h->model, sizeof(h->model), "%s", models[m]);
		snprintf(h->firmware, sizeof(h->firmware), m == 2 ? "EN01" : "SC60");
		attr(h, 1, 85826072);
		attr(h, 7, 4344967296ull);
		attr(h, 18, 0);
		attr(h, 188, 4295032833ull);
		ww_ata_finish_db(h);
		a = find(h, 188);
		CHECK_STR(a->raw_string, "1 1 1");
		CHECK(!a->has_count);
		CHECK(a->format_source && strstr(a->format_source, "attribute-quirks.tsv") &&
		      strstr(a->format_source, "-v 188,raw16"));
		CHECK_STR(a->name, "Command_Timeout");
		CHECK_STR(find(h, 1)->raw_string, "0/85826072");
		CHECK_STR(find(h, 1)->name, "Raw_Read_Error_Rate");
		CHECK_STR(find(h, 7)->raw_string, "1/50000000");
		CHECK(!find(h, 1)->has_count && !find(h, 7)->has_count);
		CHECK_STR(find(h, 18)->name, "Head_Health");
	}
	/* a Seagate NAS drive outside both entries keeps the defaults */
	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "ST4000VN000-1H4168");
	attr(h, 188, 4295032833ull);
	ww_ata_finish_db(h);
	CHECK_STR(find(h, 188)->raw_string, "4295032833");
	free(h);
}

int main(void)
{
	const char *fx = getenv("WW_FIXTURES");
	FILE *db = fopen("/usr/share/smartmontools/drivedb.h", "r");

	test_presets_pure();
	test_open_entries();
	if (!db) {
		printf("SKIP drive database tests: /usr/share/smartmontools/drivedb.h absent\n");
		return ww_t_fail ? 1 : 77;
	}
	fclose(db);
	test_intel_dc();
	test_maxtor_minutes();
	test_counts();
	test_samsung_json(fx ? fx : "../shared/fixtures");
	test_seagate_188(fx ? fx : "../shared/fixtures");
	test_ironwolf();
	test_vendor_host_bytes();
	printf("test_collect_drivedb: %d passed, %d failed\n", ww_t_pass, ww_t_fail);
	return ww_t_fail ? 1 : 0;
}
