/* libFuzzer harness: libatasmart blobs ("skdump --save" files,
 * collect/ata_blob.c) into the ATA decoders. Seeds: the blobs of
 * $WW_FIXTURES/libatasmart-blobs. */
#include "wearwatch/collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_health_t h;

	ww_ata_blob_load(data, size, &h);
	return 0;
}
