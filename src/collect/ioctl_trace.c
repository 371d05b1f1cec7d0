/* smartctl -r ioctl,2 traces into the record (see ioctl_trace.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collect/drivedb.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ww_ioctl_trace_block(const char *text, size_t len, const char *name,
			 uint8_t *out, size_t max)
{
	char start[96];
	const char *p, *end;
	size_t n = 0;

	if (!text || !name || !out)
		return -EINVAL;
	end = text + len;
	snprintf(start, sizeof(start), "===== [%s] DATA START", name);
	p = memmem(text, len, start, strlen(start));
	if (!p)
		return -ENOENT;
	p = memchr(p, '\n', (size_t)(end - p));
	while (p && ++p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *c = memchr(p, ':', (size_t)((eol ? eol : end) - p));

		if (!eol)
			eol = end;
		/* the text is len bytes, not a C string: a marker cut short at
		 * the end was read past it */
		if (end - p >= 5 && !memcmp(p, "=====", 5))
			break;
		if (!c)
			return -EINVAL;
		/* 16 "hh " groups up to the ASCII column */
		for (c++; c < eol && *c != '|'; c++) {
			int hi, lo;

			if (*c == ' ')
				continue;
			hi = hexval(c[0]);
			lo = c + 1 < eol ? hexval(c[1]) : -1;
			if (hi < 0 || lo < 0)
				return -EINVAL;
			if (n < max)
				out[n] = (uint8_t)(hi << 4 | lo);
			n++;
			c++;
		}
		p = eol;
	}
	return (int)(n < max ? n : max);
}

int ww_ioctl_trace_load(const char *text, size_t len, ww_health_t *h)
{
	uint8_t buf[WW_ATA_SECTOR];
	int n, rc;

	if (!text || !h)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	n = ww_ioctl_trace_block(text, len, "IDENTIFY DEVICE", buf, sizeof(buf));
	if (n < 0)
		return n;
	rc = ww_decode_ata_identify(buf, (size_t)n, h);
	if (rc < 0)
		return rc;
	n = ww_ioctl_trace_block(text, len, "SMART READ ATTRIBUTE VALUES", buf, sizeof(buf));
	if (n >= 0) {
		rc = ww_decode_ata_smart_data(buf, (size_t)n, h);
		if (rc < 0)
			return rc;
		n = ww_ioctl_trace_block(text, len, "SMART READ ATTRIBUTE THRESHOLDS",
					 buf, sizeof(buf));
		if (n >= 0 && (rc = ww_decode_ata_smart_thresholds(buf, (size_t)n, h)) < 0)
			return rc;
	}
	ww_ata_finish_db(h); /* + drive database presets: per-model attribute meanings */
	return 0;
}
