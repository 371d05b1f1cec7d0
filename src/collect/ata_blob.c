/* libatasmart blob loader (see ata_blob.h). The bytes go through our own
 * decoders; libatasmart only validates (why it is not the live path: see the
 * header). */
#include <stddef.h>
#include <atasmart.h>
#include <errno.h>
#include <string.h>

#include "collect/drivedb.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

static uint32_t ww_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int ww_ata_blob_parse(const uint8_t *blob, size_t len, ww_ata_blob_t *out)
{
	size_t off = 0;

	if (!blob || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->smart_status = -1;
	while (off < len) {
		uint32_t tag, size;
		const uint8_t *data;

		if (len - off < 8)
			return -EMSGSIZE;
		tag = ww_be32(blob + off);
		size = ww_be32(blob + off + 4);
		off += 8;
		if (size > len - off)
			return -EMSGSIZE;
		data = blob + off;
		off += size;

		switch (tag) {
		case WW_ATA_BLOB_IDFY:
		case WW_ATA_BLOB_SMDT:
		case WW_ATA_BLOB_SMTH:
			if (size != 512)
				return -EINVAL;
			if (tag == WW_ATA_BLOB_IDFY)
				out->identify = data;
			else if (tag == WW_ATA_BLOB_SMDT)
				out->smart_data = data;
			else
				out->smart_thresholds = data;
			break;
		case WW_ATA_BLOB_SMST:
			if (size != 4)
				return -EINVAL;
			out->smart_status = ww_be32(data) ? 1 : 0;
			break;
		default:
			break;
		}
	}
	return out->identify ? 0 : -EINVAL;
}

int ww_ata_blob_load(const uint8_t *blob, size_t len, ww_health_t *h)
{
	ww_ata_blob_t b;
	int rc;

	if (!h)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	rc = ww_ata_blob_parse(blob, len, &b);
	if (rc < 0)
		return rc;
	rc = ww_decode_ata_identify(b.identify, 512, h);
	if (rc < 0)
		return rc;
	if (b.smart_data) {
		rc = ww_decode_ata_smart_data(b.smart_data, 512, h);
		if (rc < 0)
			return rc;
		if (b.smart_thresholds) {
			rc = ww_decode_ata_smart_thresholds(b.smart_thresholds, 512, h);
			if (rc < 0)
				return rc;
		}
	}
	if (b.smart_status >= 0)
		h->ata.return_status = b.smart_status ? WW_SMART_PASSED : WW_SMART_FAILED;
	ww_ata_finish_db(h); /* + drive database presets: per-model attribute meanings */
	if (h->smart_status != WW_SMART_UNKNOWN)
		h->smart_status_source = "libatasmart blob SMST (SMART RETURN STATUS)";
	return 0;
}

int ww_ata_blob_validate(const uint8_t *blob, size_t len)
{
	SkDisk *d = NULL;
	int rc;

	if (!blob)
		return -EINVAL;
	if (sk_disk_open(NULL, &d) < 0)
		return errno ? -errno : -EIO;
	rc = sk_disk_set_blob(d, blob, len) < 0 ? (errno ? -errno : -EINVAL) : 0;
	sk_disk_free(d);
	return rc;
}
