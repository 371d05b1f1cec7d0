/* INQUIRY, VPD and READ CAPACITY (16) decoders (see scsi.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/decode.h"

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Copy an ASCII field, dropping leading/trailing spaces and NULs; anything
 * non-printable becomes '?' so labels and JSON stay clean. */
static void copy_trimmed(char *dst, size_t dlen, const uint8_t *src, size_t n)
{
	size_t a = 0, b = n, o = 0;

	while (a < b && (src[a] == ' ' || src[a] == 0))
		a++;
	while (b > a && (src[b - 1] == ' ' || src[b - 1] == 0))
		b--;
	for (; a < b && o + 1 < dlen; a++)
		dst[o++] = (src[a] >= 0x20 && src[a] < 0x7f) ? (char)src[a] : '?';
	if (dlen)
		dst[o] = 0;
}

int ww_decode_scsi_inquiry(const uint8_t *buf, size_t len, ww_health_t *h)
{
	size_t n;

	if (!buf || !h)
		return -EINVAL;
	if (len < 5)
		return -EMSGSIZE;
	n = (size_t)buf[4] + 5;
	if (n > len)
		n = len;
	if (n < 36)
		return -EMSGSIZE;
	if ((buf[0] >> 5) == 3)
		return -ENODEV;
	h->scsi.peripheral_type = buf[0] & 0x1f;
	copy_trimmed(h->vendor, sizeof(h->vendor), buf + 8, 8);
	copy_trimmed(h->model, sizeof(h->model), buf + 16, 16);
	copy_trimmed(h->firmware, sizeof(h->firmware), buf + 32, 4);
	return 0;
}

/* Common VPD header: byte 1 page code, bytes 2-3 PAGE LENGTH. Returns the
 * page end (4 + PAGE LENGTH) or -errno. */
static long vpd_begin(const uint8_t *buf, size_t len, uint8_t page)
{
	size_t end;

	if (!buf || len < 4)
		return -EMSGSIZE;
	if (buf[1] != page)
		return -EINVAL;
	end = 4 + (size_t)be16(buf + 2);
	if (end > len)
		return -EMSGSIZE;
	return (long)end;
}

int ww_scsi_vpd_lists(const uint8_t *buf, size_t len, uint8_t page)
{
	long end = vpd_begin(buf, len, 0x00);

	if (end < 0)
		return (int)end;
	for (long i = 4; i < end; i++)
		if (buf[i] == page)
			return 1;
	return 0;
}

int ww_decode_scsi_vpd_pages(const uint8_t *buf, size_t len)
{
	return ww_scsi_vpd_lists(buf, len, 0x89);
}

int ww_decode_scsi_vpd_serial(const uint8_t *buf, size_t len, ww_health_t *h)
{
	long end = vpd_begin(buf, len, 0x80);

	if (end < 0)
		return (int)end;
	if (!h)
		return -EINVAL;
	copy_trimmed(h->serial, sizeof(h->serial), buf + 4, (size_t)end - 4);
	return 0;
}

int ww_decode_scsi_vpd_devid(const uint8_t *buf, size_t len, ww_health_t *h)
{
	long end = vpd_begin(buf, len, 0x83);
	char wwn[sizeof(h->wwn)] = "";
	uint8_t proto = 0xff;
	size_t off = 4;

	if (end < 0)
		return (int)end;
	if (!h)
		return -EINVAL;
	while (off < (size_t)end) {
		const uint8_t *d = buf + off;
		size_t dlen;
		unsigned assoc, type;

		if (off + 4 > (size_t)end)
			return -EINVAL;
		dlen = d[3];
		if (off + 4 + dlen > (size_t)end)
			return -EINVAL;
		assoc = (d[1] >> 4) & 3;
		type = d[1] & 0xf;
		if (proto == 0xff && (d[1] & 0x80) && (assoc == 1 || assoc == 2))
			proto = d[0] >> 4;
		/* NAA: 8 bytes (types 2, 3, 5) or 16 bytes (type 6), binary */
		if (!wwn[0] && type == 3 && assoc == 0 && (d[0] & 0xf) == 1 &&
		    (dlen == 8 || dlen == 16)) {
			int o = snprintf(wwn, sizeof(wwn), "0x");
			for (size_t i = 0; i < dlen; i++)
				o += snprintf(wwn + o, sizeof(wwn) - (size_t)o, "%02x", d[4 + i]);
		}
		off += 4 + dlen;
	}
	if (wwn[0])
		memcpy(h->wwn, wwn, sizeof(h->wwn));
	h->scsi.protocol_id = proto;
	return 0;
}

int ww_decode_scsi_vpd_bdc(const uint8_t *buf, size_t len, ww_health_t *h)
{
	long end = vpd_begin(buf, len, 0xb1);
	uint16_t rate;

	if (end < 0)
		return (int)end;
	if (!h)
		return -EINVAL;
	if (end < 6)
		return -EMSGSIZE;
	rate = be16(buf + 4);
	h->scsi.medium_rotation_rate = rate;
	if (rate == 1 || (rate >= 0x0401 && rate <= 0xfffe))
		WW_SET(h->rotation_rate_rpm, rate, "SCSI VPD 0xB1 MEDIUM ROTATION RATE");
	return 0;
}

int ww_decode_scsi_read_capacity16(const uint8_t *buf, size_t len, ww_health_t *h)
{
	uint64_t last, cap;
	uint32_t bs;
	unsigned exp;
	bool sat;

	if (!buf || !h)
		return -EINVAL;
	if (len < 32)
		return -EMSGSIZE;
	last = (uint64_t)be32(buf) << 32 | be32(buf + 4);
	bs = be32(buf + 8);
	exp = buf[13] & 0xf;
	if (bs == 0)
		return -EINVAL;
	sat = last == UINT64_MAX || __builtin_mul_overflow(last + 1, (uint64_t)bs, &cap);
	if (sat)
		cap = UINT64_MAX;
	WW_SET(h->capacity_bytes, cap, "SCSI READ CAPACITY(16)");
	h->capacity_bytes.saturated = sat;
	WW_SET(h->logical_block_bytes, bs, "SCSI READ CAPACITY(16)");
	WW_SET(h->physical_block_bytes, (uint64_t)bs << exp,
	       "SCSI READ CAPACITY(16) LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT");
	return 0;
}
