/* libFuzzer harness: Prometheus' answers to the fleet page's questions
 * (http/fleet_answer.c), what any server at the configured [fleet]
 * prometheus URL may send: an instant query's answer and the host list
 * (label values); every input goes through both parsers. Seeds:
 * tests/fuzz/regress/fleet-*. */
#include <stdint.h>
#include <stdlib.h>

#include "http/fleet_answer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *res = NULL, **names = NULL, err[512];
	size_t n = 0;

	ww_fleet_answer_parse((const char *)data, size, 200, &res, err, sizeof(err));
	free(res);
	ww_fleet_labels_parse((const char *)data, size, 200, &names, &n, err, sizeof(err));
	ww_fleet_names_free(names, n);
	return 0;
}
