/* ATA SMART attribute raw values under the drive database's formats (see
 * decode.h: ww_ata_parse_attr_def, ww_ata_attr_format). The formats and their printing are smartmontools'
 * (7.3 atacmds.cpp: format_names[], map_old_vendor_opts[],
 * ata_get_attr_raw_value, ata_format_attr_raw_value), so that a raw value
 * reads here as smartctl prints it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"

static const struct {
	const char *name;
	ww_ata_rawfmt_t format;
} ww_rawfmt_names[] = {
	{ "raw8", WW_RAWFMT_RAW8 },
	{ "raw16", WW_RAWFMT_RAW16 },
	{ "raw48", WW_RAWFMT_RAW48 },
	{ "hex48", WW_RAWFMT_HEX48 },
	{ "raw56", WW_RAWFMT_RAW56 },
	{ "hex56", WW_RAWFMT_HEX56 },
	{ "raw64", WW_RAWFMT_RAW64 },
	{ "hex64", WW_RAWFMT_HEX64 },
	{ "raw16(raw16)", WW_RAWFMT_RAW16_RAW16 },
	{ "raw16(avg16)", WW_RAWFMT_RAW16_AVG16 },
	{ "raw24(raw8)", WW_RAWFMT_RAW24_RAW8 },
	{ "raw24/raw24", WW_RAWFMT_RAW24_RAW24 },
	{ "raw24/raw32", WW_RAWFMT_RAW24_RAW32 },
	{ "sec2hour", WW_RAWFMT_SEC2HOUR },
	{ "min2hour", WW_RAWFMT_MIN2HOUR },
	{ "halfmin2hour", WW_RAWFMT_HALFMIN2HOUR },
	{ "msec24hour32", WW_RAWFMT_MSEC24_HOUR32 },
	{ "tempminmax", WW_RAWFMT_TEMPMINMAX },
	{ "temp10x", WW_RAWFMT_TEMP10X },
};

/* Old -v arguments and what smartmontools reads them as. The trailing '+'
 * of "raw48+" (smartctl's "increasing" flag) is accepted and ignored. */
static const char *const ww_old_defs[][2] = {
	{ "9,halfminutes", "9,halfmin2hour,Power_On_Half_Minutes" },
	{ "9,minutes", "9,min2hour,Power_On_Minutes" },
	{ "9,seconds", "9,sec2hour,Power_On_Seconds" },
	{ "9,temp", "9,tempminmax,Temperature_Celsius" },
	{ "192,emergencyretractcyclect", "192,raw48,Emerg_Retract_Cycle_Ct" },
	{ "193,loadunload", "193,raw24/raw24" },
	{ "194,10xCelsius", "194,temp10x,Temperature_Celsius_x10" },
	{ "194,unknown", "194,raw48,Unknown_Attribute" },
	{ "197,increasing", "197,raw48+,Total_Pending_Sectors" },
	{ "198,offlinescanuncsectorct", "198,raw48,Offline_Scan_UNC_SectCt" },
	{ "198,increasing", "198,raw48+,Total_Offl_Uncorrectabl" },
	{ "200,writeerrorcount", "200,raw48,Write_Error_Count" },
	{ "201,detectedtacount", "201,raw48,Detected_TA_Count" },
	{ "220,temp", "220,tempminmax,Temperature_Celsius" },
};

/* "FORMAT[:BYTEORDER]" into def; false when unknown */
static bool ww_parse_format(char *fmt, ww_ata_attr_def_t *def)
{
	char *colon = strchr(fmt, ':');
	size_t n = strlen(fmt);

	if (n && fmt[n - 1] == '+') {
		fmt[--n] = '\0';
		def->increasing = true;
	}
	def->byteorder[0] = '\0';
	if (colon) {
		*colon++ = '\0';
		if (!*colon || strlen(colon) > 8 || strspn(colon, "012345rvwz") != strlen(colon))
			return false;
		snprintf(def->byteorder, sizeof(def->byteorder), "%s", colon);
	}
	for (size_t i = 0; i < sizeof(ww_rawfmt_names) / sizeof(ww_rawfmt_names[0]); i++)
		if (!strcmp(fmt, ww_rawfmt_names[i].name)) {
			def->format = (uint8_t)ww_rawfmt_names[i].format;
			def->no_normval = strchr(def->byteorder, 'v') ||
					  (!colon && (def->format == WW_RAWFMT_RAW64 ||
						      def->format == WW_RAWFMT_HEX64));
			return true;
		}
	return false;
}

int ww_ata_parse_attr_def(const char *arg, ww_ata_attr_def_t *def, char name_buf[33])
{
	char buf[128], *f[4] = { NULL }, *t;
	unsigned id = 0;
	size_t n = 0;

	if (!arg || !def || !name_buf)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(ww_old_defs) / sizeof(ww_old_defs[0]); i++)
		if (!strcmp(arg, ww_old_defs[i][0])) {
			arg = ww_old_defs[i][1];
			break;
		}
	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -EINVAL;
	for (t = buf; t && n < 4;)
		f[n++] = strsep(&t, ",");
	if (t || n < 2 || !*f[0] || !*f[1])
		return -EINVAL; /* more than ID,FORMAT,NAME,HDD|SSD */
	if (strcmp(f[0], "N")) {
		char *end;
		unsigned long v = strtoul(f[0], &end, 10);

		if (*end || v < 1 || v > 255)
			return -EINVAL;
		id = (unsigned)v;
	}
	memset(def, 0, sizeof(*def));
	if (!ww_parse_format(f[1], def))
		return -EINVAL;
	if (n >= 3 && *f[2]) {
		if (strlen(f[2]) > 32)
			return -EINVAL;
		snprintf(name_buf, 33, "%s", f[2]);
		def->name = name_buf;
	}
	if (n == 4) {
		if (!strcmp(f[3], "HDD"))
			def->only = WW_ATA_DEF_HDD;
		else if (!strcmp(f[3], "SSD"))
			def->only = WW_ATA_DEF_SSD;
		else
			return -EINVAL;
	}
	return (int)id;
}

/* The bytes a byte order names, most significant first (ata_get_attr_raw_value) */
static uint64_t ww_raw_by_order(const ww_ata_attr_t *a, const char *order)
{
	uint64_t v = 0;

	for (const char *c = order; *c; c++) {
		uint8_t b = 0;

		if (*c >= '0' && *c <= '5') /* raw holds raw_bytes[] as one LE integer */
			b = (uint8_t)(a->raw >> (8 * (*c - '0')));
		else if (*c == 'r')
			b = a->reserved;
		else if (*c == 'v')
			b = a->value;
		else if (*c == 'w')
			b = a->worst;
		v = v << 8 | b;
	}
	return v;
}

static const char *ww_default_order(ww_ata_rawfmt_t f)
{
	switch (f) {
	case WW_RAWFMT_RAW64:
	case WW_RAWFMT_HEX64:
		return "543210wv";
	case WW_RAWFMT_RAW56:
	case WW_RAWFMT_HEX56:
	case WW_RAWFMT_RAW24_RAW32:
	case WW_RAWFMT_MSEC24_HOUR32:
		return "r543210";
	default:
		return "543210";
	}
}

/* RAWFMT_TEMPMINMAX helpers, as smartmontools checks a word or byte pair */
static int ww_temp_word(unsigned w)
{
	if (w <= 0x7f)
		return 0x11;
	if (w <= 0xff)
		return 0x01;
	if (w >= 0xff80)
		return 0x10;
	return 0;
}

static bool ww_temp_range(int t, uint8_t u1, uint8_t u2, int *lo, int *hi)
{
	int t1 = (int8_t)u1, t2 = (int8_t)u2;

	if (t1 > t2) {
		int x = t1;

		t1 = t2;
		t2 = x;
	}
	if (-60 <= t1 && t1 <= t && t <= t2 && t2 <= 120 && !(t1 == -1 && t2 <= 0)) {
		*lo = t1;
		*hi = t2;
		return true;
	}
	return false;
}

/* Which of smartmontools' temperature layouts the bytes are (-1..-3: none) */
static int ww_temp_layout(const uint8_t *r, const unsigned *w, int t, int *lo, int *hi)
{
	int c0 = ww_temp_word(w[0]);

	if (!w[2]) {
		if (!w[1] && c0)
			return 0; /* 00 00 00 00 xx TT */
		if (c0 && ww_temp_range(t, r[2], r[3], lo, hi))
			return 1; /* 00 00 HL LH xx TT */
		if (!r[3] && ww_temp_range(t, r[1], r[2], lo, hi))
			return 2; /* 00 00 00 HL LH TT */
		return -1;
	}
	if (!c0)
		return -3;
	if ((c0 & ww_temp_word(w[1]) & ww_temp_word(w[2])) && ww_temp_range(t, r[2], r[4], lo, hi))
		return 3; /* xx HL xx LH xx TT */
	if (w[2] < 0x7fff && ww_temp_range(t, r[2], r[3], lo, hi) && *hi >= 40)
		return 4; /* CC CC HL LH xx TT: CCCC over-temperature count */
	return -2;
}

static void ww_fmt_temp(char *s, size_t n, const uint8_t *r, const unsigned *w)
{
	int t = (int8_t)r[0], lo = 0, hi = 0;

	switch (ww_temp_layout(r, w, t, &lo, &hi)) {
	case 0:
		snprintf(s, n, "%d", t);
		break;
	case 1:
	case 2:
	case 3:
		snprintf(s, n, "%d (Min/Max %d/%d)", t, lo, hi);
		break;
	case 4:
		snprintf(s, n, "%d (Min/Max %d/%d #%u)", t, lo, hi, w[2]);
		break;
	default:
		snprintf(s, n, "%d (%d %d %d %d %d)", r[0], r[5], r[4], r[3], r[2], r[1]);
	}
}

/* Durations: sec2hour, min2hour, halfmin2hour, msec24hour32 */
static void ww_fmt_time(char *s, size_t n, ww_ata_rawfmt_t f, uint64_t v, const unsigned *w)
{
	uint64_t m = (uint64_t)w[0] | (uint64_t)w[1] << 16;
	unsigned ms = (unsigned)(v >> 32), sec = ms / 1000;

	switch (f) {
	case WW_RAWFMT_SEC2HOUR:
		snprintf(s, n, "%" PRIu64 "h+%02" PRIu64 "m+%02" PRIu64 "s", v / 3600,
			 (v % 3600) / 60, v % 60);
		break;
	case WW_RAWFMT_MIN2HOUR:
		snprintf(s, n, "%" PRIu64 "h+%02" PRIu64 "m", m / 60, m % 60);
		if (w[2])
			snprintf(s + strlen(s), n - strlen(s), " (%u)", w[2]);
		break;
	case WW_RAWFMT_HALFMIN2HOUR:
		snprintf(s, n, "%" PRIu64 "h+%02" PRIu64 "m", v / 120, (v % 120) / 2);
		break;
	default: /* msec24hour32 */
		snprintf(s, n, "%uh+%02um+%02u.%03us", (unsigned)(v & 0xffffffffu), sec / 60,
			 sec % 60, ms % 1000);
	}
}

/* The string smartctl prints; count and is_count for the one-number formats */
static void ww_fmt_raw(char *s, size_t n, ww_ata_rawfmt_t f, uint64_t v, uint64_t *count,
		       bool *is_count)
{
	uint8_t r[6];
	unsigned w[3];

	for (int i = 0; i < 6; i++)
		r[i] = (uint8_t)(v >> (8 * i));
	for (int i = 0; i < 3; i++)
		w[i] = r[2 * i] | (unsigned)r[2 * i + 1] << 8;
	*is_count = false;
	switch (f) {
	case WW_RAWFMT_RAW8:
		snprintf(s, n, "%d %d %d %d %d %d", r[5], r[4], r[3], r[2], r[1], r[0]);
		break;
	case WW_RAWFMT_RAW16:
		snprintf(s, n, "%u %u %u", w[2], w[1], w[0]);
		break;
	case WW_RAWFMT_HEX48:
		snprintf(s, n, "0x%012" PRIx64, v);
		break;
	case WW_RAWFMT_HEX56:
		snprintf(s, n, "0x%014" PRIx64, v);
		break;
	case WW_RAWFMT_HEX64:
		snprintf(s, n, "0x%016" PRIx64, v);
		break;
	case WW_RAWFMT_RAW16_RAW16:
		*count = w[0], *is_count = true;
		if (w[1] || w[2])
			snprintf(s, n, "%u (%u %u)", w[0], w[2], w[1]);
		else
			snprintf(s, n, "%u", w[0]);
		break;
	case WW_RAWFMT_RAW16_AVG16:
		*count = w[0], *is_count = true;
		if (w[1])
			snprintf(s, n, "%u (Average %u)", w[0], w[1]);
		else
			snprintf(s, n, "%u", w[0]);
		break;
	case WW_RAWFMT_RAW24_RAW8:
		*count = v & 0xffffffu, *is_count = true;
		if (r[3] || r[4] || r[5])
			snprintf(s, n, "%u (%d %d %d)", (unsigned)*count, r[5], r[4], r[3]);
		else
			snprintf(s, n, "%u", (unsigned)*count);
		break;
	case WW_RAWFMT_RAW24_RAW24:
		snprintf(s, n, "%u/%u", (unsigned)(v >> 24), (unsigned)(v & 0xffffffu));
		break;
	case WW_RAWFMT_RAW24_RAW32:
		snprintf(s, n, "%u/%u", (unsigned)(v >> 32), (unsigned)(v & 0xffffffffu));
		break;
	case WW_RAWFMT_SEC2HOUR:
	case WW_RAWFMT_MIN2HOUR:
	case WW_RAWFMT_HALFMIN2HOUR:
	case WW_RAWFMT_MSEC24_HOUR32:
		ww_fmt_time(s, n, f, v, w);
		break;
	case WW_RAWFMT_TEMPMINMAX:
		ww_fmt_temp(s, n, r, w);
		break;
	case WW_RAWFMT_TEMP10X:
		snprintf(s, n, "%u.%u", w[0] / 10, w[0] % 10);
		break;
	default: /* raw48, raw56, raw64 */
		*count = v, *is_count = true;
		snprintf(s, n, "%" PRIu64, v);
	}
}

void ww_ata_attr_format(ww_ata_attr_t *a, const ww_ata_attr_def_t *def)
{
	ww_ata_rawfmt_t f;
	const char *order;

	if (!a)
		return;
	if (def && def->format != WW_RAWFMT_NONE) {
		f = (ww_ata_rawfmt_t)def->format;
		a->format_source = def->source;
	} else {
		f = ww_ata_attr_default_format(a->id);
		def = NULL;
		a->format_source = NULL;
	}
	order = def && def->byteorder[0] ? def->byteorder : ww_default_order(f);
	if (!a->raw_value_given)
		a->raw_value = ww_raw_by_order(a, order);
	a->count = 0;
	ww_fmt_raw(a->raw_string, sizeof(a->raw_string), f, a->raw_value, &a->count,
		   &a->raw_is_count);
}
