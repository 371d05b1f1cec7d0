/* libFuzzer harness: an earlier `wearwatch qualify` report given to
 * --compare (any file a user names), parsed and printed against a run:
 * the text table, the JSON report's "comparison" block and the HTML page.
 * Seeds: tests/fuzz/regress/qualify-*. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "wearwatch/qualify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_qualify_point_t pts[2];
	static ww_qualify_report_t now;
	static FILE *null;
	json_object *old;
	char err[512];

	if (!null) {
		null = fopen("/dev/null", "w");
		pts[0].threads = pts[0].depth = 2;
		pts[1].threads = pts[1].depth = 16;
		for (int i = 0; i < 2; i++) {
			pts[i].elapsed_s = 1;
			ww_qualify_acc_add(&pts[i].rd, true, 4096, 100000);
			ww_qualify_acc_add(&pts[i].wr, true, 4096, 200000);
		}
		now.points = pts;
		now.n_points = 2;
		now.profile = ww_qualify_profile_find("8k-random-70-30");
		now.dev_path = now.id = now.serial = now.model = "x";
		now.compare_path = "old.json";
	}
	old = ww_qualify_compare_parse((const char *)data, size, err, sizeof(err));
	if (old) {
		ww_qualify_compare_print(null, old, &now);
		now.compare = old;
		json_object_put(ww_qualify_compare_json(&now));
		ww_qualify_report_html(null, &now);
		now.compare = NULL;
		json_object_put(old);
	}
	return 0;
}
