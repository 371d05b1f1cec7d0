/* ATA error and self-test logs (see decode.h: ww_decode_ata_error_log,
 * ww_decode_ata_xerror_log, ww_decode_ata_selftest_log,
 * ww_decode_ata_xselftest_log). Layouts: ACS-4 "SMART summary error log"
 * (log 01h), "Extended Comprehensive SMART Error log" (03h), "SMART
 * self-test log" (06h), "Extended SMART self-test log" (07h), "Selective
 * self-test log" (09h, read and written back). What counts as
 * a failed test and which LBA is shown follow smartctl (ataprint.cpp
 * ataPrintSmartSelfTestEntry): status 3-8 are errors, the LBA of an error
 * entry only when it is not all ones. */
#include <errno.h>
#include <string.h>

#include "wearwatch/decode.h"

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int ww_decode_ata_error_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_errlog_t *e;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	e = &h->error_logs[WW_ERRLOG_ATA_SUMMARY];
	e->count = le(buf + 452, 2);
	/* byte 1: the newest of the five data structures (1-5), 0 = none */
	e->entries = buf[1] && buf[1] <= 5 ? (uint32_t)(e->count < 5 ? e->count : 5) : 0;
	e->source = "ATA SMART summary error log (log 01h) bytes 452-453";
	return 0;
}

int ww_decode_ata_xerror_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_errlog_t *e;
	uint64_t index;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	if (buf[0] != 0x01)
		return -EINVAL; /* version 01h */
	e = &h->error_logs[WW_ERRLOG_ATA_EXTENDED];
	index = le(buf + 2, 2);
	e->count = le(buf + 500, 2);
	/* four data structures per page; what the pages read hold */
	e->entries = (uint32_t)(!index ? 0 : e->count < (len / WW_ATA_SECTOR) * 4 ?
				e->count : (len / WW_ATA_SECTOR) * 4);
	e->source = "ATA Extended Comprehensive SMART Error log (log 03h) bytes 500-501";
	return 0;
}

/* The kind of an ATA self-test descriptor's byte 0: the subcommand of
 * SMART EXECUTE OFF-LINE IMMEDIATE (off-line and captive alike). */
unsigned ww_ata_selftest_kind(uint8_t sub)
{
	switch (sub & 0x7f) {
	case 0:
		return WW_STK_OFFLINE;
	case 1:
		return WW_STK_SHORT;
	case 2:
		return WW_STK_EXTENDED;
	case 3:
		return WW_STK_CONVEYANCE;
	case 4:
		return WW_STK_SELECTIVE;
	default:
		return sub >= 0x40 && sub <= 0x7e ? WW_STK_VENDOR : WW_STK_NONE;
	}
}

/* One self-test descriptor: d[0] test, d[1] execution status, d[2-3] life
 * timestamp (hours), failing LBA of lba_bytes at d + 5. */
static void selftest_entry(const uint8_t *d, unsigned lba_bytes, bool newest, unsigned *passed,
			   ww_selftest_log_t *l)
{
	uint8_t st = d[1] >> 4;
	uint64_t lba = le(d + 5, lba_bytes), none = lba_bytes == 4 ? 0xffffffffull : 0xffffffffffffull;
	bool error = st >= 3 && st <= 8;

	ww_selftest_entry(l, passed, newest, ww_ata_selftest_kind(d[0]), st, error, le(d + 2, 2),
			  lba < none, lba);
}

/* Walk n descriptors of size sz from `first`, newest (1-based index) first. */
static void selftest_walk(const uint8_t *first, unsigned n, unsigned sz, unsigned index,
			  unsigned lba_bytes, ww_selftest_log_t *l)
{
	bool newest = true;
	unsigned passed = 0; /* kinds (bits) that passed later than this entry */

	if (!index || index > n)
		return; /* no test logged */
	for (unsigned k = 0; k < n; k++) {
		const uint8_t *d = first + (size_t)((index - 1 + n - k) % n) * sz;

		if (all_zero(d, sz))
			continue;
		selftest_entry(d, lba_bytes, newest, &passed, l);
		newest = false;
	}
}

int ww_decode_ata_selftest_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_selftest_log_t l = { 0 };

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	/* 21 descriptors of 24 bytes from byte 2; byte 508 the newest */
	selftest_walk(buf + 2, 21, 24, buf[508], 4, &l);
	l.source = "ATA SMART self-test log (log 06h)";
	h->self_tests[WW_SELFTEST_ATA_STANDARD] = l;
	return 0;
}

int ww_decode_ata_xselftest_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_selftest_log_t l = { 0 };
	size_t pages = len / WW_ATA_SECTOR;
	uint8_t flat[19 * 26 * 16];
	unsigned n = 0;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	if (buf[0] != 0x01)
		return -EINVAL; /* version 01h */
	if (pages > 16)
		pages = 16;
	/* 19 descriptors of 26 bytes from byte 4 of every page, in one array so
	 * that the walk wraps over pages; bytes 2-3 of page 0 the newest */
	for (size_t p = 0; p < pages; p++)
		for (unsigned i = 0; i < 19; i++, n++)
			for (unsigned b = 0; b < 26; b++)
				flat[(size_t)n * 26 + b] = buf[p * WW_ATA_SECTOR + 4 + i * 26 + b];
	selftest_walk(flat, n, 26, (unsigned)le(buf + 2, 2), 6, &l);
	l.source = "ATA Extended SMART self-test log (log 07h)";
	h->self_tests[WW_SELFTEST_ATA_EXTENDED] = l;
	return 0;
}

/* log 09h offsets (decode.h ww_ata_selective_log_t) */
enum {
	SEL_SPANS = 2,
	SEL_CURRENT_LBA = 492,
	SEL_CURRENT_SPAN = 500,
	SEL_FLAGS = 502,
	SEL_PENDING = 508,
	SEL_CHECKSUM = 511
};

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

int ww_decode_ata_selective_log(const uint8_t *buf, size_t len, ww_ata_selective_log_t *out)
{
	uint8_t sum = 0;

	if (!buf || !out)
		return -EINVAL;
	if (len < WW_ATA_SECTOR)
		return -EMSGSIZE;
	memset(out, 0, sizeof(*out));
	out->revision = (uint16_t)le(buf, 2);
	for (unsigned i = 0; i < WW_ATA_SELECTIVE_SPANS; i++) {
		out->span[i].first_lba = le(buf + SEL_SPANS + 16 * i, 8);
		out->span[i].last_lba = le(buf + SEL_SPANS + 16 * i + 8, 8);
	}
	out->current_lba = le(buf + SEL_CURRENT_LBA, 8);
	out->current_span = (uint16_t)le(buf + SEL_CURRENT_SPAN, 2);
	out->flags = (uint16_t)le(buf + SEL_FLAGS, 2);
	out->pending_minutes = (uint16_t)le(buf + SEL_PENDING, 2);
	for (size_t i = 0; i < WW_ATA_SECTOR; i++)
		sum = (uint8_t)(sum + buf[i]);
	out->checksum_ok = sum == 0;
	return 0;
}

int ww_ata_selective_log_build(const uint8_t read[512], const ww_selftest_span_t *span,
			       uint8_t out[512])
{
	uint16_t flags;
	uint8_t sum = 0;

	if (!read || !span || !out || span->first_lba > span->last_lba)
		return -EINVAL;
	memcpy(out, read, WW_ATA_SECTOR);
	put_le(out, 1, 2);
	memset(out + SEL_SPANS, 0, 16 * WW_ATA_SELECTIVE_SPANS);
	put_le(out + SEL_SPANS, span->first_lba, 8);
	put_le(out + SEL_SPANS + 8, span->last_lba, 8);
	put_le(out + SEL_CURRENT_LBA, 0, 8);
	put_le(out + SEL_CURRENT_SPAN, 0, 2);
	flags = (uint16_t)le(out + SEL_FLAGS, 2);
	/* no scan of the rest of the disk after the span: a night's test
	 * reads its span only */
	flags &= (uint16_t) ~(WW_ATA_SELECTIVE_FLAG_ACTIVE | WW_ATA_SELECTIVE_FLAG_PENDING |
			      WW_ATA_SELECTIVE_FLAG_SCAN);
	put_le(out + SEL_FLAGS, flags, 2);
	out[SEL_CHECKSUM] = 0;
	for (size_t i = 0; i < WW_ATA_SECTOR; i++)
		sum = (uint8_t)(sum + out[i]);
	out[SEL_CHECKSUM] = (uint8_t)(0x100 - sum);
	return 0;
}
