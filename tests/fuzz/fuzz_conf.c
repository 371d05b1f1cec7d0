/* libFuzzer harness: wearwatch.conf (conf/config.c with inih), and through
 * its [drive] sections the rating overrides (model/ratings.c, bounded
 * patterns) and probe policies. Seeds: etc/wearwatch.conf.example and
 * tests/fuzz/regress/conf-*. The first line of the input is also taken as
 * a self_test_schedule value on its own (model/selftest.c): compiled, then
 * matched for 48 hours and planned around them. */
#include <string.h>

#include "wearwatch/conf.h"
#include "wearwatch/model.h"
#include "fuzz_file.h"

static void schedule(const uint8_t *data, size_t size)
{
	char line[WW_SELFTEST_SCHED_MAX + 1];
	size_t n = 0;
	ww_selftest_sched_t *s = NULL;
	ww_selftest_plan_t p;
	char err[160];

	while (n < size && n < sizeof(line) - 1 && data[n] != '\n' && data[n])
		line[n] = (char)data[n], n++;
	line[n] = 0;
	if (ww_selftest_sched_compile(line, &s, err, sizeof(err)) < 0)
		return;
	for (time_t t = 1764633600; t < 1764633600 + 48 * 3600; t += 3600)
		(void)ww_selftest_sched_due(s, t, ~0u);
	(void)ww_selftest_sched_since(s, 1764633600, 1764633600 + 30 * 3600, ~0u);
	if (size && data[0] == 'L') /* the whole horizon: once in a while only */
		ww_selftest_plan(s, 1764633600, ~0u, &p);
	ww_selftest_sched_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_conf_t c;
	char err[512];

	ww_conf_defaults(&c);
	ww_conf_load(&c, ww_fuzz_file(data, size), false, err, sizeof(err));
	ww_conf_free(&c);
	schedule(data, size);
	return 0;
}
