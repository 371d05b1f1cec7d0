/* libFuzzer harness: the ratings table file (--ratings-file) and --rating
 * values (model/ratings.c), with the patterns they compile (record.h,
 * PCRE2 under limits) matched against a model. The first byte selects: even
 * the file, odd one --rating value. Seeds: data/drive-ratings.tsv and
 * tests/fuzz/regress/ratings-*, pattern-*. */
#include <string.h>

#include "wearwatch/model.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ww_ratings_t t = { 0 };
	char err[512];

	if (size < 1)
		return 0;
	if (data[0] % 2 == 0) {
		ww_ratings_load_file(&t, ww_fuzz_file(data + 1, size - 1), err, sizeof(err));
	} else {
		char *s = ww_fuzz_str(data + 1, size - 1);

		ww_rating_override_parse(&t, s, err, sizeof(err));
		free(s);
		ww_ratings_match_override(&t, "nvme-X_1", "S1", "Samsung SSD 860 EVO 500GB");
	}
	ww_ratings_match(&t, "Samsung SSD 860 EVO 500GB", "sata");
	ww_ratings_match(&t, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", NULL);
	ww_ratings_free(&t);
	return 0;
}
