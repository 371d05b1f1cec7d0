/* libFuzzer harness: web.config (conf/webcfg.c with libyaml): keys, user
 * names, bcrypt hashes (checked, not computed). TLS file names in the input
 * are read like any path (regular files only, at most 1 MiB). Seeds:
 * tests/fuzz/regress/webcfg-*. */
#include <string.h>

#include "wearwatch/conf.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_webcfg_t w;
	char err[512];

	if (ww_webcfg_load(&w, ww_fuzz_file(data, size), err, sizeof(err)) == 0)
		ww_webcfg_clear(&w);
	return 0;
}
