/* libFuzzer harness: drivedb.h (collect/drivedb.c), smartmontools' drive
 * database, which update-smart-drivedb fetches from the network. The input
 * is the file; three lookups run against it (a model an entry of the seed
 * names, and two that none does), so entries are parsed, their patterns
 * compiled (bounded, record.h) and matched, and presets applied. Seeds: the
 * system's drivedb.h cut into pieces and tests/fuzz/regress/drivedb-*. */
#include <string.h>

#include "collect/drivedb.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ww_ata_presets_t p;

	ww_drivedb_set_path(ww_fuzz_file(data, size));
	ww_drivedb_lookup("Samsung SSD 860 EVO 500GB", "RVT01B6Q", &p);
	ww_drivedb_lookup("INTEL SSDSC2BB480G7", "N2010101", &p);
	ww_drivedb_lookup("OPEN 1", "", &p);
	return 0;
}
