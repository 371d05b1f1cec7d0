/* libFuzzer harness over every pure decoder: the first input byte picks the
 * decoder, the rest is the buffer. Decoders must return an error on any
 * garbage without reading outside [buf, buf+len) (ASan checks that) and
 * without undefined behaviour (UBSan). Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_health_t h;
	ww_nvme_ns_t ns;
	ww_ata_regs_t regs;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	len = size - 1;
	/* an exact-size heap copy so that any over-read is caught */
	buf = malloc(len ? len : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, len);
	memset(&h, 0, sizeof(h));
	switch (data[0] % 16) {
	case 0: ww_decode_nvme_smart_log(buf, len, &h); ww_nvme_finish(&h); break;
	case 1: ww_decode_nvme_id_ctrl(buf, len, &h); ww_nvme_finish(&h); break;
	case 2: ww_decode_nvme_id_ns(buf, len, &ns); break;
	case 3: ww_decode_ata_identify(buf, len, &h); ww_ata_finish(&h); break;
	case 4: ww_decode_ata_smart_data(buf, len, &h); ww_ata_finish(&h); break;
	case 5: ww_decode_ata_smart_thresholds(buf, len, &h); break;
	case 6: ww_decode_ata_log_directory(buf, len, &h); break;
	case 7: ww_decode_ata_devstat(buf, len, &h); ww_ata_finish(&h); break;
	case 8: ww_decode_scsi_inquiry(buf, len, &h); break;
	case 9: ww_decode_scsi_vpd_pages(buf, len); break;
	case 10: ww_decode_scsi_vpd_serial(buf, len, &h); break;
	case 11: ww_decode_scsi_vpd_devid(buf, len, &h); break;
	case 12: ww_decode_scsi_vpd_bdc(buf, len, &h); break;
	case 13: ww_decode_scsi_read_capacity16(buf, len, &h); break;
	case 14: ww_decode_scsi_log_page(buf, len, &h); ww_scsi_finish(&h); break;
	case 15: ww_sat_parse_sense(buf, len, &regs); break;
	}
	free(buf);
	return 0;
}
