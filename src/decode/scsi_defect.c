/* READ DEFECT DATA list header (see decode.h ww_decode_scsi_defect_header). */
#include <errno.h>

#include "wearwatch/decode.h"

/* Descriptor size by DEFECT LIST FORMAT (SBC-4 "Defect list format"): 000b
 * short block, 011b long block, 100b bytes from index, 101b physical
 * sector; 110b is vendor specific (no size), 001b/010b/111b reserved. */
static int descriptor_bytes(uint8_t format)
{
	switch (format) {
	case 0:
		return 4;
	case 3:
	case 4:
	case 5:
		return 8;
	case 6:
		return -ENOTSUP;
	default:
		return -EINVAL;
	}
}

int ww_decode_scsi_defect_header(const uint8_t *buf, size_t len, bool twelve, ww_health_t *h)
{
	uint64_t list;
	int size;

	if (!buf || !h)
		return -EINVAL;
	if (len < (twelve ? 8u : 4u))
		return -EMSGSIZE;
	if (!(buf[1] & 0x08))
		return -ENODATA; /* GLISTV 0: the grown list was not returned */
	size = descriptor_bytes(buf[1] & 0x07);
	if (size < 0)
		return size;
	if (twelve) {
		list = (uint64_t)buf[4] << 24 | (uint64_t)buf[5] << 16 | (uint64_t)buf[6] << 8 | buf[7];
	} else {
		list = (uint64_t)buf[2] << 8 | buf[3];
		if (list == 0xffff)
			return -EOVERFLOW; /* may not fit 16 bits: (12) says */
	}
	WW_SET(h->scsi.grown_defects, list / (uint64_t)size,
	       twelve ? "SCSI READ DEFECT DATA (12) grown defect list length / descriptor size" :
			"SCSI READ DEFECT DATA (10) grown defect list length / descriptor size");
	return 0;
}
