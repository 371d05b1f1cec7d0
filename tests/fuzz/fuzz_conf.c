/* libFuzzer harness: wearwatch.conf (conf/config.c with inih), and through
 * its [drive] sections the rating overrides (model/ratings.c, bounded
 * patterns) and probe policies. Seeds: etc/wearwatch.conf.example and
 * tests/fuzz/regress/conf-*. */
#include <string.h>

#include "wearwatch/conf.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_conf_t c;
	char err[512];

	ww_conf_defaults(&c);
	ww_conf_load(&c, ww_fuzz_file(data, size), false, err, sizeof(err));
	return 0;
}
