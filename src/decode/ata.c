/* ATA decoders (see ata.h for the contracts and spec sections). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/decode.h"

static uint16_t ww_w(const uint8_t *buf, unsigned word)
{
	return (uint16_t)(buf[2 * word] | buf[2 * word + 1] << 8);
}

static uint64_t ww_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static bool ww_sum_ok(const uint8_t *buf)
{
	uint8_t s = 0;

	for (unsigned i = 0; i < WW_ATA_SECTOR; i++)
		s = (uint8_t)(s + buf[i]);
	return s == 0;
}

/* IDENTIFY strings: each word holds two characters, the first in bits 15:8. */
static void ww_ata_string(const uint8_t *buf, unsigned first, unsigned words,
			  char *out, size_t outlen)
{
	size_t n = 0, start = 0;

	for (unsigned i = 0; i < words && n + 2 < outlen; i++) {
		uint16_t w = ww_w(buf, first + i);
		char c[2] = { (char)(w >> 8), (char)(w & 0xff) };

		for (int k = 0; k < 2; k++) {
			unsigned char u = (unsigned char)c[k];

			if (u == 0)
				u = ' ';
			else if (u < 0x20 || u > 0x7e)
				u = '?';
			out[n++] = (char)u;
		}
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	while (out[start] == ' ')
		start++;
	if (start)
		memmove(out, out + start, n - start + 1);
}

/* Words whose bits 15:14 must read 01b for the rest to mean anything. */
static bool ww_word_valid(uint16_t w)
{
	return (w & 0xc000) == 0x4000;
}

/* SATA signalling speed of a generation (1 Gen1 1.5, 2 Gen2 3.0, 3 Gen3
 * 6.0 Gbit/s), 0 for any other */
static uint64_t ww_sata_gen_bps(unsigned gen)
{
	static const uint64_t bps[4] = { 0, 1500000000ull, 3000000000ull, 6000000000ull };

	return gen < 4 ? bps[gen] : 0;
}

/* IDENTIFY word 76 (SATA capabilities: bits 1-3 Gen1-3 supported; bit 0
 * shall be 0, so FFFFh = not reported) and word 77 bits 3-1 (current
 * negotiated speed), read as smartctl does: the fastest supported
 * generation is the maximum. */
static void ww_ata_sata_speed(uint16_t w76, uint16_t w77, ww_health_t *h)
{
	unsigned all = (w76 & 1) ? 0 : (w76 & 0xfe), max = 0, cur;

	for (unsigned b = 1; b < 8; b++)
		if (all & (1u << b))
			max = b;
	cur = (w77 & 1) ? 0 : (w77 >> 1) & 7;
	if (ww_sata_gen_bps(max))
		WW_SET(h->link.max_bps, ww_sata_gen_bps(max), "ATA IDENTIFY word 76 (SATA Gen)");
	if (ww_sata_gen_bps(cur))
		WW_SET(h->link.current_bps, ww_sata_gen_bps(cur), "ATA IDENTIFY word 77 bits 3-1");
}

ww_smart_status_t ww_decode_ata_smart_status(uint64_t lba)
{
	switch (lba & 0xffff00u) {
	case 0xc24f00u: /* LBA mid 4Fh, high C2h */
		return WW_SMART_PASSED;
	case 0x2cf400u: /* LBA mid F4h, high 2Ch */
		return WW_SMART_FAILED;
	default:
		return WW_SMART_UNKNOWN;
	}
}

int ww_decode_ata_identify(const uint8_t *buf, size_t len, ww_health_t *h)
{
	uint16_t w106, w217;
	uint64_t lba, logical = 512, physical;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;

	h->protocol = WW_PROTO_ATA;
	ww_ata_string(buf, 27, 20, h->model, sizeof(h->model));
	ww_ata_string(buf, 10, 10, h->serial, sizeof(h->serial));
	ww_ata_string(buf, 23, 4, h->firmware, sizeof(h->firmware));

	w106 = ww_w(buf, 106);
	if (ww_word_valid(w106) && (w106 & (1u << 12))) {
		uint64_t words = (uint64_t)ww_w(buf, 117) | (uint64_t)ww_w(buf, 118) << 16;

		/* 256 words is the smallest size ACS allows; less is garbage */
		if (words >= 256)
			logical = words * 2;
	}
	physical = logical;
	if (ww_word_valid(w106) && (w106 & (1u << 13)))
		physical = logical << (w106 & 0xf);
	WW_SET(h->logical_block_bytes, logical, "ATA IDENTIFY word 106/117-118");
	WW_SET(h->physical_block_bytes, physical, "ATA IDENTIFY word 106");

	lba = (uint64_t)ww_w(buf, 100) | (uint64_t)ww_w(buf, 101) << 16 |
	      (uint64_t)ww_w(buf, 102) << 32 | (uint64_t)ww_w(buf, 103) << 48;
	if (lba) {
		unsigned __int128 b = (unsigned __int128)lba * logical;

		WW_SET(h->capacity_bytes, b > UINT64_MAX ? UINT64_MAX : (uint64_t)b,
		       "ATA IDENTIFY words 100-103 (LBA48) x logical sector");
		h->capacity_bytes.saturated = b > UINT64_MAX;
	} else {
		lba = (uint64_t)ww_w(buf, 60) | (uint64_t)ww_w(buf, 61) << 16;
		if (lba)
			WW_SET(h->capacity_bytes, lba * logical,
			       "ATA IDENTIFY words 60-61 (LBA28) x logical sector");
	}

	if (ww_w(buf, 108) | ww_w(buf, 109) | ww_w(buf, 110) | ww_w(buf, 111))
		snprintf(h->wwn, sizeof(h->wwn), "0x%04x%04x%04x%04x",
			 ww_w(buf, 108), ww_w(buf, 109), ww_w(buf, 110), ww_w(buf, 111));

	w217 = ww_w(buf, 217);
	h->ata.rotation_rate = w217;
	if (w217 == 1 || (w217 >= 0x0401 && w217 != 0xffff))
		WW_SET(h->rotation_rate_rpm, w217, "ATA IDENTIFY word 217");

	/* 0000h/FFFFh in word 82 mean the word is not implemented */
	h->ata.smart_supported = ww_w(buf, 82) != 0xffff && (ww_w(buf, 82) & 1);
	h->ata.smart_enabled = ww_w(buf, 85) != 0xffff && (ww_w(buf, 85) & 1);
	h->ata.smart_support_known = true;
	h->ata.gp_log_supported =
		(ww_word_valid(ww_w(buf, 84)) && (ww_w(buf, 84) & (1u << 5))) ||
		(ww_word_valid(ww_w(buf, 87)) && (ww_w(buf, 87) & (1u << 5)));

	/* word 84 / 87 bits 0-1: SMART error logging, SMART self-test */
	for (unsigned w = 84; w <= 87; w += 3)
		if (ww_word_valid(ww_w(buf, w))) {
			h->ata.id_smart_errlog |= ww_w(buf, w) & 1;
			h->ata.id_smart_selftest |= (ww_w(buf, w) >> 1) & 1;
		}
	ww_ata_sata_speed(ww_w(buf, 76), ww_w(buf, 77), h);

	h->ata.identify_has_checksum = (ww_w(buf, 255) & 0xff) == 0xa5;
	h->ata.identify_checksum_ok = h->ata.identify_has_checksum && ww_sum_ok(buf);
	return 0;
}

/* The running self-test and the polling times of SMART READ DATA (ACS-4
 * "SMART READ DATA": byte 363 self-test execution status, 15 = in progress
 * with bits 3-0 the tenths remaining; 372/373/374 short, extended and
 * conveyance polling minutes, 373 = FFh meaning the word at 375-376 holds
 * the extended one; the capability bits of byte 367 say which exist). */
static void ata_selftest_now(const uint8_t *buf, ww_selftest_now_t *n)
{
	unsigned st = buf[363] >> 4, ext = buf[373];

	memset(n, 0, sizeof(*n));
	n->source = "ATA SMART READ DATA bytes 363 and 372-376";
	n->running = st == 15;
	n->remaining_percent = (int8_t)(n->running ? (buf[363] & 0x0f) * 10 : -1);
	if (ext == 0xff)
		ext = (unsigned)ww_le(buf + 375, 2);
	if (buf[367] & 0x10) { /* self-test supported */
		n->expected_short_s = (uint32_t)buf[372] * 60;
		n->expected_extended_s = (uint32_t)ext * 60;
	}
	if (buf[367] & 0x20) /* conveyance self-test supported */
		n->expected_conveyance_s = (uint32_t)buf[374] * 60;
}

int ww_decode_ata_smart_data(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_ata_t *a;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;

	a = &h->ata;
	memset(a->attrs, 0, sizeof(a->attrs));
	a->n_attrs = 0;
	a->has_thresholds = false;
	a->smart_revision = (uint16_t)ww_le(buf, 2);
	for (unsigned i = 0; i < WW_ATA_MAX_ATTRS; i++) {
		const uint8_t *e = buf + 2 + 12 * i;
		ww_ata_attr_t *at;

		if (e[0] == 0)
			continue;
		at = &a->attrs[a->n_attrs++];
		at->id = e[0];
		at->flags = (uint16_t)ww_le(e + 1, 2);
		at->value = e[3];
		at->worst = e[4];
		memcpy(at->raw_bytes, e + 5, 6);
		at->raw = ww_le(e + 5, 6);
		at->reserved = e[11];
		at->name = ww_ata_attr_name(e[0]);
	}
	a->smart_data_checksum_ok = ww_sum_ok(buf);
	a->has_smart_caps = true;
	a->self_test_exec_status = buf[363];
	ata_selftest_now(buf, &h->self_test_now);
	a->offline_capability = buf[367];
	a->smart_capability = (uint16_t)ww_le(buf + 368, 2);
	a->errorlog_capability = buf[370];
	return 0;
}

int ww_decode_ata_smart_thresholds(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_ata_t *a;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;

	a = &h->ata;
	for (unsigned i = 0; i < WW_ATA_MAX_ATTRS; i++) {
		const uint8_t *e = buf + 2 + 12 * i;

		if (e[0] == 0)
			continue;
		for (size_t k = 0; k < a->n_attrs && k < WW_ATA_MAX_ATTRS; k++) {
			if (a->attrs[k].id != e[0] || a->attrs[k].has_threshold)
				continue;
			a->attrs[k].threshold = e[1];
			a->attrs[k].has_threshold = true;
			break;
		}
	}
	a->has_thresholds = true;
	a->thresholds_checksum_ok = ww_sum_ok(buf);
	return 0;
}

int ww_decode_ata_log_directory(const uint8_t *buf, size_t len, ww_health_t *h)
{
	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	if (ww_w(buf, 0) == 0)
		return -EINVAL;
	h->ata.devstat_log_pages = ww_w(buf, 0x04);
	h->ata.devstat_supported = h->ata.devstat_log_pages >= 1;
	h->ata.xerror_log_pages = ww_w(buf, 0x03);
	h->ata.xselftest_log_pages = ww_w(buf, 0x07);
	return 0;
}

/* A Device Statistics qword when flagged supported + valid (byte 7 bits 7,6). */
static bool ww_devstat(const uint8_t *page, unsigned off, unsigned width, uint64_t *v)
{
	const uint8_t *q = page + off;

	if ((q[7] & 0xc0) != 0xc0)
		return false;
	*v = ww_le(q, width);
	return true;
}

/* Every named, supported and valid entry of page 1-7 into a->devstats[] */
static void ww_ata_devstats(const uint8_t *buf, ww_ata_t *a)
{
	uint8_t page = buf[2];
	size_t k = 0;

	/* drop what an earlier read of the same page left */
	for (size_t i = 0; i < a->n_devstats; i++)
		if (a->devstats[i].page != page)
			a->devstats[k++] = a->devstats[i];
	a->n_devstats = k;
	for (uint16_t off = 8; off + 8 <= WW_ATA_SECTOR && a->n_devstats < WW_ATA_MAX_DEVSTATS;
	     off += 8) {
		const uint8_t *q = buf + off;
		const char *name;
		int size;
		ww_ata_devstat_t *e;

		if ((q[7] & 0xc0) != 0xc0 || !(name = ww_ata_devstat_name(page, off, &size)))
			continue;
		e = &a->devstats[a->n_devstats++];
		e->name = name;
		e->page = page;
		e->offset = off;
		e->value = size < 0 ? (int8_t)q[0] : (int64_t)ww_le(q, (unsigned)size);
		e->normalized = q[7] & 0x20;
	}
	a->devstats_source = "ATA Device Statistics log (04h)";
}

int ww_decode_ata_devstat(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_ata_t *a;
	uint64_t v;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	if (ww_w(buf, 0) == 0)
		return -EINVAL;

	a = &h->ata;
	switch (buf[2]) {
	case 0x00: {
		unsigned n = buf[8];

		if (9 + n > WW_ATA_SECTOR)
			return -EINVAL;
		a->n_devstat_pages = 0;
		for (unsigned i = 0; i < n; i++) {
			if (a->n_devstat_pages >= sizeof(a->devstat_pages))
				break;
			a->devstat_pages[a->n_devstat_pages++] = buf[9 + i];
		}
		return 0;
	}
	case 0x02:
	case 0x03:
	case 0x04:
	case 0x06:
		ww_ata_devstats(buf, a);
		return 0;
	case 0x01:
		ww_ata_devstats(buf, a);
		if (ww_devstat(buf, 0x10, 4, &v))
			WW_SET(a->devstat_power_on_hours, v,
			       "ATA Device Statistics page 1 offset 0x10");
		if (ww_devstat(buf, 0x18, 6, &v))
			WW_SET(a->devstat_logical_sectors_written, v,
			       "ATA Device Statistics page 1 offset 0x18");
		if (ww_devstat(buf, 0x28, 6, &v))
			WW_SET(a->devstat_logical_sectors_read, v,
			       "ATA Device Statistics page 1 offset 0x28");
		return 0;
	case 0x05:
		ww_ata_devstats(buf, a);
		if (ww_devstat(buf, 0x08, 1, &v))
			WW_SET(a->devstat_temperature_celsius, (int8_t)v,
			       "ATA Device Statistics page 5 offset 0x08");
		return 0;
	case 0x07:
		ww_ata_devstats(buf, a);
		if (ww_devstat(buf, 0x08, 1, &v))
			WW_SET(a->devstat_percentage_used, v,
			       "ATA Device Statistics page 7 offset 0x08");
		return 0;
	default:
		return -ENOTSUP;
	}
}

const ww_ata_attr_t *ww_ata_find_attr(const ww_health_t *h, uint8_t id)
{
	if (!h)
		return NULL;
	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++)
		if (h->ata.attrs[i].id == id)
			return &h->ata.attrs[i];
	return NULL;
}

static ww_u64 ww_sectors_to_bytes(ww_u64 sectors, uint64_t sector_bytes, const char *src)
{
	ww_u64 r = { 0 };
	uint64_t b;

	if (!WW_HAS(sectors) || !sector_bytes)
		return r;
	if (__builtin_mul_overflow(sectors.value, sector_bytes, &b)) {
		b = UINT64_MAX;
		r.saturated = true;
	}
	WW_SET(r, b, src);
	return r;
}

/* Temperature in an attribute raw: the low byte, whatever the packing;
 * word 0 / 10 where the drive database says temp10x. */
static bool ww_attr_temp(const ww_health_t *h, uint8_t id, const ww_ata_presets_t *p,
			 int64_t *t)
{
	const ww_ata_attr_t *at = ww_ata_find_attr(h, id);
	uint64_t v;

	if (!at)
		return false;
	v = at->raw_value_given ? at->raw_value : at->raw;
	if (p && p->attr[id].format == WW_RAWFMT_TEMP10X) {
		v = (v & 0xffff) / 10;
		if (!v || v > 127)
			return false;
		*t = (int64_t)v;
		return true;
	}
	if ((v & 0xff) == 0 || (v & 0xff) > 127)
		return false;
	*t = (int64_t)(v & 0xff);
	return true;
}

void ww_ata_finish(ww_health_t *h)
{
	ww_ata_finish_presets(h, NULL);
}

/* Attribute 9 as power-on time, in the unit of its format: the one fact of
 * which format counts what (smartmontools' ata_format_attr_raw_value). The
 * legacy -v 9 names parse to min2hour, halfmin2hour and sec2hour. */
static void ww_ata_poh(ww_health_t *h, const ww_ata_attr_t *at, const ww_ata_presets_t *p)
{
	ww_ata_rawfmt_t f = ww_ata_attr_default_format(9);
	uint64_t v = at->raw_value;

	if (p && p->attr[9].format != WW_RAWFMT_NONE)
		f = (ww_ata_rawfmt_t)p->attr[9].format;
	switch (f) {
	case WW_RAWFMT_MIN2HOUR:
		WW_SET(h->power_on_seconds, (v & 0xffffffffu) * 60,
		       "ATA attribute 9 (min2hour: minutes, drive database)");
		break;
	case WW_RAWFMT_HALFMIN2HOUR:
		WW_SET(h->power_on_seconds, v * 30,
		       "ATA attribute 9 (halfmin2hour: half-minutes, drive database)");
		break;
	case WW_RAWFMT_SEC2HOUR:
		WW_SET(h->power_on_seconds, v, "ATA attribute 9 (sec2hour: seconds, drive database)");
		break;
	case WW_RAWFMT_MSEC24_HOUR32:
		WW_SET(h->power_on_seconds, (v & 0xffffffffu) * 3600,
		       "ATA attribute 9 (msec24hour32: hours in bits 0-31)");
		break;
	default:
		if (at->raw_is_count)
			WW_SET(h->power_on_seconds, at->count * 3600,
			       "ATA attribute 9 (hours, as smartctl prints its raw value)");
	}
}

/* The drive kind a database name is for: IDENTIFY word 217, else what the
 * source said (smartctl JSON rotation_rate) */
static unsigned ww_ata_rpm(const ww_health_t *h)
{
	if (h->ata.rotation_rate)
		return h->ata.rotation_rate;
	return WW_HAS(h->rotation_rate_rpm) ? (unsigned)h->rotation_rate_rpm.value : 0;
}

/* Every attribute: its name and its raw value under its format. */
static void ww_ata_apply_defs(ww_health_t *h, const ww_ata_presets_t *p)
{
	unsigned rpm = ww_ata_rpm(h);

	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++) {
		ww_ata_attr_t *a = &h->ata.attrs[i];
		const ww_ata_attr_def_t *d = p ? &p->attr[a->id] : NULL;
		bool fits = d && !(d->only == WW_ATA_DEF_HDD && rpm == 1) &&
			    !(d->only == WW_ATA_DEF_SSD && rpm > 1);

		if (!a->name_from_source || !a->name)
			a->name = fits && d->name ? d->name : ww_ata_attr_name_rpm(a->id, rpm);
		ww_ata_attr_format(a, d);
		/* the count the id's default meaning names (what the verdict reads) */
		a->default_meaning = (a->name && !strcmp(a->name, ww_ata_attr_name(a->id))) ||
				     (d && d->format && d->increasing);
		a->has_count = ww_ata_verdict_count_id(a->id) && a->raw_is_count &&
			       a->default_meaning;
	}
}

/* Host bytes from a vendor attribute in the unit the database gives:
 * attribute id's count x unit (WW_ATA_UNIT_LBA: the logical sector size). */
static ww_u64 ww_ata_host_bytes(const ww_health_t *h, uint8_t id, uint64_t unit,
				const char *src, const char *const labels[2])
{
	const ww_ata_attr_t *at = ww_ata_find_attr(h, id);
	bool lba = unit == WW_ATA_UNIT_LBA;
	ww_u64 raw = { 0 }, r;

	if (!at || !unit || !at->raw_is_count)
		return raw;
	if (lba)
		unit = WW_HAS(h->logical_block_bytes) ? h->logical_block_bytes.value : 0;
	WW_SET(raw, at->count, "ATA attribute");
	r = ww_sectors_to_bytes(raw, unit, src ? src : "ATA attribute (drive database unit)");
	if (WW_HAS(r))
		r.label = labels[lba];
	return r;
}

void ww_ata_finish_presets(ww_health_t *h, const ww_ata_presets_t *p)
{
	static const char *const wlabels[2] = { "ata_attribute_241", "ata_attribute_241_lba" };
	static const char *const w246labels[2] = { "ata_attribute_246", "ata_attribute_246_lba" };
	static const char *const rlabels[2] = { "ata_attribute_242", "ata_attribute_242_lba" };
	const ww_ata_attr_t *at;
	ww_ata_t *a;
	int64_t t;

	if (!h)
		return;
	a = &h->ata;
	ww_ata_apply_defs(h, p);

	if (WW_HAS(a->devstat_power_on_hours))
		WW_SET(h->power_on_seconds, a->devstat_power_on_hours.value * 3600,
		       "ATA Device Statistics page 1 offset 0x10 (hours)");
	else if ((at = ww_ata_find_attr(h, 9)))
		ww_ata_poh(h, at, p);

	if (WW_HAS(a->devstat_temperature_celsius))
		WW_SET(h->temperature_celsius, a->devstat_temperature_celsius.value,
		       "ATA Device Statistics page 5 offset 0x08");
	else if (ww_attr_temp(h, 194, p, &t))
		WW_SET(h->temperature_celsius, t, "ATA attribute 194 (raw byte 0)");
	else if (ww_attr_temp(h, 190, p, &t))
		WW_SET(h->temperature_celsius, t, "ATA attribute 190 (raw byte 0)");

	if (WW_HAS(h->logical_block_bytes)) {
		h->host_written_bytes = ww_sectors_to_bytes(
			a->devstat_logical_sectors_written, h->logical_block_bytes.value,
			"ATA Device Statistics page 1 offset 0x18 x logical sector");
		h->host_read_bytes = ww_sectors_to_bytes(
			a->devstat_logical_sectors_read, h->logical_block_bytes.value,
			"ATA Device Statistics page 1 offset 0x28 x logical sector");
		h->host_written_bytes.label = "ata_devstat";
		h->host_read_bytes.label = "ata_devstat";
	}

	/* vendor attributes: only when the drive database gives their unit */
	if (!WW_HAS(h->host_written_bytes) && p && p->written_unit_bytes)
		h->host_written_bytes = ww_ata_host_bytes(
			h, p->written_id ? p->written_id : 241, p->written_unit_bytes,
			p->written_source, p->written_id == 246 ? w246labels : wlabels);
	if (!WW_HAS(h->host_read_bytes) && p && p->read_unit_bytes)
		h->host_read_bytes = ww_ata_host_bytes(h, 242, p->read_unit_bytes,
						       p->read_source, rlabels);
	for (int i = 0; p && i < 3 && p->unsafe_shutdown_id[i] && !WW_HAS(h->unsafe_shutdowns); i++)
		if ((at = ww_ata_find_attr(h, p->unsafe_shutdown_id[i])) && at->raw_is_count)
			WW_SET(h->unsafe_shutdowns, at->count,
			       p->unsafe_source[i] ? p->unsafe_source[i] :
						     "ATA attribute (drive database: unsafe shutdowns)");

	if ((at = ww_ata_find_attr(h, 12)) && at->raw_is_count)
		WW_SET(h->power_cycles, at->count, "ATA attribute 12 (raw value, one count)");
	if ((at = ww_ata_find_attr(h, 187)) && at->raw_is_count)
		WW_SET(h->media_errors, at->count, "ATA attribute 187 (raw value, one count)");
	if (WW_HAS(a->devstat_percentage_used))
	{
		WW_SET(h->endurance_used_percent, a->devstat_percentage_used.value,
		       "ATA Device Statistics page 7 offset 0x08");
		h->endurance_used_percent.label = "ata_devstat";
	}

	if (a->return_status != WW_SMART_UNKNOWN) {
		h->smart_status = a->return_status;
		h->smart_status_source = "ATA SMART RETURN STATUS";
	}
}
