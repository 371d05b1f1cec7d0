/* libFuzzer harness: Prometheus' answer to one of the fleet page's instant
 * queries (http/fleet_answer.c), what any server at the configured
 * [fleet] prometheus URL may send. Seeds: tests/fuzz/regress/fleet-*. */
#include <stdint.h>
#include <stdlib.h>

#include "http/fleet_answer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *res = NULL, err[512];

	ww_fleet_answer_parse((const char *)data, size, 200, &res, err, sizeof(err));
	free(res);
	return 0;
}
