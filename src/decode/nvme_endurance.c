/* Decoders of the endurance logs (contract and sources in nvme_endurance.h). */
#include <errno.h>
#include <string.h>

#include "wearwatch/decode.h"

const uint8_t ww_ocp_c0_guid[16] = {
	0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
	0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF,
};

static ww_u128 le128(const uint8_t *p)
{
	ww_u128 v = { 0, 0 };

	for (int i = 7; i >= 0; i--) {
		v.lo = v.lo << 8 | p[i];
		v.hi = v.hi << 8 | p[8 + i];
	}
	return v;
}

static bool nonzero(ww_u128 v)
{
	return v.lo || v.hi;
}

int ww_decode_nvme_endurance_group(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_u128 est, muw;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_NVME_ENDURANCE_LOG_LEN)
		return -EMSGSIZE;
	est = le128(buf + 32);
	muw = le128(buf + 80);
	if (nonzero(est)) {
		h->endurance_estimate_bytes = ww_u128_scale(est, 1000000000ull,
			"NVMe Endurance Group Information log 09h bytes 32-47 (Endurance Estimate x 10^9)");
		h->endurance_estimate_bytes.label = "nvme_endurance_group";
	}
	if (nonzero(muw)) {
		h->media_written_bytes = ww_u128_scale(muw, 1000000000ull,
			"NVMe Endurance Group Information log 09h bytes 80-95 (Media Units Written x 10^9)");
		h->media_written_bytes.label = "nvme_endurance_group";
	}
	return 0;
}

int ww_decode_ocp_smart_ext(const uint8_t *buf, size_t len, ww_health_t *h)
{
	unsigned version;
	ww_u128 v;

	if (!buf || !h)
		return -EINVAL;
	if (len < WW_NVME_OCP_C0_LEN)
		return -EMSGSIZE;
	if (memcmp(buf + 496, ww_ocp_c0_guid, sizeof(ww_ocp_c0_guid)))
		return -ENOTSUP;
	version = buf[494] | buf[495] << 8;
	if (version < 1)
		return -ENOTSUP;
	v = le128(buf + 0);
	if (nonzero(v)) {
		h->media_written_bytes = ww_u128_scale(v, 1,
			"OCP C0h bytes 0-15 (Physical Media Units Written, bytes)");
		h->media_written_bytes.label = "ocp_c0";
	}
	WW_SET(h->capacitor_health_percent, (uint64_t)(buf[128] | buf[129] << 8),
	       "OCP C0h bytes 128-129 (Capacitor Health)");
	h->uncorrectable_read_errors =
		ww_u128_scale((ww_u128){ le128(buf + 56).lo, 0 }, 1,
			      "OCP C0h bytes 56-63 (Uncorrectable Read Error Count)");
	/* Endurance Estimate and PLP Start Count are in the log from its
	 * version 2 (OCP Datacenter NVMe SSD Specification 1.0) on, as
	 * nvme-cli's OCP plugin and illumos' ocp.h read it; later versions
	 * only add fields past them, so any version >= 2 carries both */
	if (version >= 2) {
		v = le128(buf + 176);
		if (nonzero(v)) {
			h->endurance_estimate_bytes = ww_u128_scale(v, 1,
				"OCP C0h bytes 176-191 (Endurance Estimate, bytes)");
			h->endurance_estimate_bytes.label = "ocp_c0";
		}
		h->plp_start_count = ww_u128_scale(le128(buf + 160), 1,
			"OCP C0h bytes 160-175 (PLP Start Count)");
	}
	return 0;
}

int ww_decode_scsi_utilization(const uint8_t *buf, size_t len, ww_health_t *h)
{
	size_t page_len, off;

	if (!buf || !h)
		return -EINVAL;
	if (len < 4)
		return -EMSGSIZE;
	/* SPF set, page 0x0E, subpage 0x01 */
	if ((buf[0] & 0x3F) != 0x0E || !(buf[0] & 0x40) || buf[1] != 0x01)
		return -EINVAL;
	page_len = (size_t)buf[2] << 8 | buf[3];
	if (4 + page_len < len)
		len = 4 + page_len;
	for (off = 4; off + 4 <= len;) {
		unsigned code = buf[off] << 8 | buf[off + 1];
		size_t plen = buf[off + 3];

		if (off + 4 + plen > len)
			return -EMSGSIZE;
		if (code == 0x0000) {
			if (plen < 2)
				return -EMSGSIZE;
			WW_SET(h->workload_utilization_centipercent,
			       (uint64_t)(buf[off + 4] << 8 | buf[off + 5]),
			       "SCSI log page 0x0E/0x01 param 0x0000 (Workload Utilization, 0.01 %)");
			h->workload_utilization_centipercent.label = "scsi_utilization";
			return 0;
		}
		off += 4 + plen;
	}
	return -ENOENT;
}
