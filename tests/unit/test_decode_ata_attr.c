/* ATA attribute raw formats, flags and names (src/decode/ata_attr.c,
 * ww_ata_finish_presets) against what smartctl printed for the same bytes.
 *
 * Sources of the expected values:
 *  - raw.value / raw.string / flags.value / flags.string pairs as smartctl
 *    wrote them in public JSON files (../shared/fixtures, SOURCES.md):
 *    scrutiny/smart-fail2.json (Hitachi HDS721050DLE630, smartctl 7.1),
 *    scrutiny/smart-sat.json, scrutiny/smart-megaraid0.json (WD4000FYYX),
 *    scrutiny/smart-ata-full.json (Samsung 860 EVO),
 *    scrutiny-starosdev/smart-ata-issue587-realssd-m4.json (Micron
 *    MTFDDAK128MAM, drivedb "-v 181,raw16"), smartctl_exporter
 *    sat-...-ST2000NM0008-2F3100-sdl.json (Seagate, "-v 188,raw16": the packed
 *    Command_Timeout "2 2 2"), sat-...-SSDSCKJB240G7R-sdm.json (Intel
 *    "-v 201,raw16(raw16)"). The numbers are copied here; the whole files are
 *    checked by test_decode_conformance (every attribute of every file).
 *  - linuxhw-EnterpriseDrive SSD/SDSSDA240G (smartctl 7.0 -x text): SanDisk
 *    9 Power_On_Hours_and_Msec "14201h+00m+00.000s" (msec24hour32); the raw
 *    integer is built from it (hours in bits 0-31, 0 ms).
 *  - Formats without a public sample (min2hour, halfmin2hour, sec2hour,
 *    hex48, temp10x, raw24/raw32, raw8) are spec-constructed: raw bytes
 *    chosen here, expected strings worked out by hand from smartmontools 7.3
 *    atacmds.cpp ata_format_attr_raw_value (the printf formats quoted in
 *    src/decode/ata_attr.c); for min2hour / halfmin2hour the raw values are
 *    the libatasmart blobs' (Maxtor 96147H8 #9 121017 minutes, skdump "2.8
 *    months"; SAMSUNG MP0804H #9 557429 half-minutes = 4645 h 14 min). */
#include "ww_test.h"
#include "wearwatch/decode.h"

static ww_ata_attr_t attr(uint8_t id, uint64_t raw)
{
	ww_ata_attr_t a = { .id = id, .raw = raw & 0xffffffffffffull };

	for (int i = 0; i < 6; i++)
		a.raw_bytes[i] = (uint8_t)(raw >> (8 * i));
	return a;
}

/* raw under "-v ARG" (NULL = the id's default) as smartctl prints it */
static void fmt(uint8_t id, uint64_t raw, const char *arg, const char *want, bool count,
		uint64_t want_count)
{
	ww_ata_attr_t a = attr(id, raw);
	ww_ata_attr_def_t d;
	char name[33];

	if (arg)
		CHECK_EQ_I64(ww_ata_parse_attr_def(arg, &d, name), id);
	ww_ata_attr_format(&a, arg ? &d : NULL);
	CHECK_STR(a.raw_string, want);
	CHECK_EQ_I64(a.raw_is_count, count);
	if (count)
		CHECK_EQ_U64(a.count, want_count);
}

static void test_real_json_pairs(void)
{
	/* defaults (DEFAULT entry): raw16(avg16), tempminmax, raw24(raw8), raw16(raw16) */
	fmt(3, 17192124596ull, NULL, "180 (Average 187)", true, 180);
	fmt(194, 167504969753ull, NULL, "25 (Min/Max 19/39)", false, 0);
	fmt(194, 77309411357ull, NULL, "29 (0 18 0 0 0)", false, 0);
	fmt(194, 3145764ull, NULL, "36 (Min/Max 0/48)", false, 0);
	fmt(9, 167031278144165ull, NULL, "2725 (151 234 0)", true, 2725);
	fmt(196, 53416508262463ull, NULL, "2111 (12437 0)", true, 2111);
	/* model presets */
	fmt(181, 8306523505707ull, "181,raw16,Non4k_Aligned_Access", "1934 866 1067", false, 0);
	fmt(201, 1331519965652ull, "201,raw16(raw16),Power_Loss_Cap_Test", "18900 (310 1222)",
	    true, 18900);
	/* Seagate: three 16-bit counters, not 8590065666 timeouts */
	fmt(188, 8590065666ull, "188,raw16", "2 2 2", false, 0);
	fmt(188, 8590065666ull, NULL, "8590065666", true, 8590065666ull);
	/* SanDisk msec24hour32: 14201 h, 0 ms */
	fmt(9, 14201, "9,msec24hour32", "14201h+00m+00.000s", false, 0);
}

static void test_spec_formats(void)
{
	fmt(9, 121017, "9,minutes", "2016h+57m", false, 0);
	fmt(9, 557429, "9,halfminutes", "4645h+14m", false, 0);
	fmt(9, 3723, "9,seconds", "1h+02m+03s", false, 0);
	fmt(9, (1234ull << 32) | 10, "9,msec24hour32", "10h+00m+01.234s", false, 0);
	fmt(1, 0x0000a1b2c3d4ull, "1,hex48,Raw_Read_Error_Rate", "0x0000a1b2c3d4", false, 0);
	fmt(194, 415, "194,10xCelsius", "41.5", false, 0);
	fmt(193, (7ull << 24) | 5, "193,loadunload", "7/5", false, 0);
	fmt(12, 0x060504030201ull, "12,raw8", "6 5 4 3 2 1", false, 0);
	/* a byte order: bytes 5..1, byte 0 dropped */
	fmt(197, 0x000000000201ull, "197,raw48:54321", "2", true, 2);
}

static void test_parse(void)
{
	ww_ata_attr_def_t d;
	char name[33];

	CHECK_EQ_I64(ww_ata_parse_attr_def("9,minutes", &d, name), 9);
	CHECK_EQ_I64(d.format, WW_RAWFMT_MIN2HOUR);
	CHECK_STR(d.name, "Power_On_Minutes");
	CHECK_EQ_I64(ww_ata_parse_attr_def("6,raw48,Read_Channel_Margin,HDD", &d, name), 6);
	CHECK_EQ_I64(d.only, WW_ATA_DEF_HDD);
	CHECK_EQ_I64(ww_ata_parse_attr_def("233,raw48,Media_Wearout_Indicator,SSD", &d, name), 233);
	CHECK_EQ_I64(d.only, WW_ATA_DEF_SSD);
	CHECK_EQ_I64(ww_ata_parse_attr_def("242,hex56,Total_LBAs_Read_Low", &d, name), 242);
	CHECK_EQ_I64(d.format, WW_RAWFMT_HEX56);
	CHECK_EQ_I64(ww_ata_parse_attr_def("9,raw24/raw32:zvzzzw", &d, name), 9);
	CHECK_STR(d.byteorder, "zvzzzw");
	CHECK(d.no_normval);
	CHECK_EQ_I64(ww_ata_parse_attr_def("197,increasing", &d, name), 197);
	CHECK_STR(d.name, "Total_Pending_Sectors");
	CHECK_EQ_I64(ww_ata_parse_attr_def("N,raw48", &d, name), 0);
	CHECK_EQ_I64(ww_ata_parse_attr_def("x,raw48", &d, name), -EINVAL);
	CHECK_EQ_I64(ww_ata_parse_attr_def("256,raw48", &d, name), -EINVAL);
	CHECK_EQ_I64(ww_ata_parse_attr_def("9,rawxx", &d, name), -EINVAL);
	CHECK_EQ_I64(ww_ata_parse_attr_def("9,raw48:54q", &d, name), -EINVAL);
	CHECK_EQ_I64(ww_ata_parse_attr_def("9,raw48,A,XYZ", &d, name), -EINVAL);
}

static void test_flags(void)
{
	char b[8];

	/* smart-ata-full.json flags.value -> flags.string */
	CHECK_STR(ww_ata_attr_flags_str(51, b), "PO--CK");
	CHECK_STR(ww_ata_attr_flags_str(50, b), "-O--CK");
	CHECK_STR(ww_ata_attr_flags_str(19, b), "PO--C-");
	CHECK_STR(ww_ata_attr_flags_str(26, b), "-O-RC-");
	CHECK_STR(ww_ata_attr_flags_str(62, b), "-OSRCK");
	/* bits 6-15: smartctl appends '+' (ataprint.cpp) */
	CHECK_STR(ww_ata_attr_flags_str(0x0133, b), "PO--CK+");
	CHECK_STR(ww_ata_attr_flags_str(0, b), "------");
}

/* Names: the source's kept; the database's over the default; default by
 * drive kind (smartmontools' get_default_attr_name). */
static void test_names(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_ata_presets_t *p = calloc(1, sizeof(*p));
	char name[33];

	if (!h || !p)
		return;
	h->ata.n_attrs = 4;
	h->ata.attrs[0] = attr(22, 100);   /* HGST Helium_Level, named by smartctl */
	h->ata.attrs[0].name = "Helium_Level";
	h->ata.attrs[0].name_from_source = true;
	h->ata.attrs[1] = attr(240, 5);    /* Head_Flying_Hours is an HDD name */
	h->ata.attrs[2] = attr(188, 8590065666ull);
	h->ata.attrs[3] = attr(6, 0);
	h->ata.rotation_rate = 1;          /* IDENTIFY word 217: SSD */
	CHECK_EQ_I64(ww_ata_parse_attr_def("188,raw16", &p->attr[188], name), 188);
	CHECK_EQ_I64(ww_ata_parse_attr_def("6,raw48,Vendor_Six", &p->attr[6], name), 6);
	p->attr[188].source = "test -v 188,raw16";
	ww_ata_finish_presets(h, p);
	CHECK_STR(h->ata.attrs[0].name, "Helium_Level");
	CHECK_STR(h->ata.attrs[1].name, "Unknown_SSD_Attribute");
	CHECK_STR(h->ata.attrs[2].name, "Command_Timeout");
	CHECK(!h->ata.attrs[2].raw_is_count);
	CHECK_STR(h->ata.attrs[2].format_source, "test -v 188,raw16");
	CHECK_STR(h->ata.attrs[3].name, "Vendor_Six");
	h->ata.rotation_rate = 7200;
	ww_ata_finish(h);
	CHECK_STR(h->ata.attrs[1].name, "Head_Flying_Hours");
	CHECK_STR(h->ata.attrs[3].name, "Read_Channel_Margin");
	CHECK(h->ata.attrs[2].raw_is_count); /* no preset: raw48 */
	free(p);
	free(h);
}

int main(void)
{
	test_real_json_pairs();
	test_spec_formats();
	test_parse();
	test_flags();
	test_names();
	return ww_test_done("test_decode_ata_attr");
}
