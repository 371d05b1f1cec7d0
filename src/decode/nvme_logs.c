/* NVMe Error Information log (01h) and Device Self-test log (06h); see
 * decode.h. Layouts: NVM Express Base Specification 2.0, "Error
 * Information Log Entry" and "Device Self-test log page" / "Self-test Result
 * Data Structure". */
#include <errno.h>

#include "wearwatch/decode.h"

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

int ww_decode_nvme_error_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_errlog_t *e;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_NVME_ERROR_ENTRY_LEN)
		return -EMSGSIZE;
	e = &h->error_logs[WW_ERRLOG_NVME];
	e->entries = 0;
	e->count = 0;
	/* bytes 0-7 Error Count of each 64-byte entry: 0 = unused entry; the
	 * largest is the newest error's, the controller's lifetime count */
	for (size_t o = 0; o + WW_NVME_ERROR_ENTRY_LEN <= len; o += WW_NVME_ERROR_ENTRY_LEN) {
		uint64_t c = le(buf + o, 8);

		if (!c)
			continue;
		e->entries++;
		if (c > e->count)
			e->count = c;
	}
	e->source = "NVMe Error Information log (01h) Error Count";
	return 0;
}

/* Self-test Code (NVMe Base 2.0 Figure "Device Self-test - Command Dword
 * 10"): 1h short, 2h extended, Eh vendor specific */
static unsigned nvme_kind(unsigned stc)
{
	return stc == 1      ? WW_STK_SHORT
		: stc == 2   ? WW_STK_EXTENDED
		: stc == 0xe ? WW_STK_VENDOR
			     : WW_STK_NONE;
}

int ww_decode_nvme_selftest_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_selftest_log_t l = { 0 };
	ww_selftest_now_t *n;
	unsigned passed = 0;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_NVME_SELFTEST_LOG_LEN)
		return -EMSGSIZE;
	n = &h->self_test_now;
	/* 20 result data structures of 28 bytes from byte 4, newest first */
	for (unsigned i = 0; i < 20; i++) {
		const uint8_t *d = buf + 4 + 28 * i;
		uint8_t res = d[0] & 0x0f;
		bool failed = res >= 5 && res <= 7; /* fatal, segment(s) failed */
		unsigned kind = nvme_kind(d[0] >> 4);

		if (res == 0x0f)
			continue; /* entry not used */
		/* power-on hours at bytes 4-11; byte 2 bit 1: Failing LBA
		 * (bytes 16-23) valid */
		ww_selftest_entry(&l, &passed, !l.has_last, kind, res, failed, le(d + 4, 8),
				  d[2] & 0x02, le(d + 16, 8));
	}
	l.source = "NVMe Device Self-test log (06h)";
	h->self_tests[WW_SELFTEST_NVME] = l;
	/* byte 0 bits 3-0 Current Device Self-Test Operation (0 none), byte 1
	 * bits 6-0 its completion in percent */
	n->source = "NVMe Device Self-test log (06h) bytes 0-1";
	n->running = (buf[0] & 0x0f) != 0;
	n->kind = (uint8_t)(n->running ? nvme_kind(buf[0] & 0x0f) : WW_STK_NONE);
	n->remaining_percent = (int8_t)(n->running && (buf[1] & 0x7f) <= 100 ? 100 - (buf[1] & 0x7f)
									     : -1);
	return 0;
}
