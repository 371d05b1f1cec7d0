/* One answer of Prometheus' HTTP API to an instant query, checked (private
 * to src/http/; the fleet page, fleet.c, and its fuzz harness use it).
 *
 * Why the limits: the answer is outside input (any server at the configured
 * URL), and json-c keeps roughly 100-300 bytes per JSON value it parses. A
 * 27.5 MB answer of empty objects made `serve` grow to 24 GB (OOM-killed)
 * with the answers of the nine queries held as trees, and a `null` where
 * Prometheus writes a string crashed it. Here an answer is refused while it
 * is received once it is over WW_FLEET_ANSWER_MAX bytes, refused before any
 * parse when it has more than WW_FLEET_ANSWER_VALUES JSON values, and every
 * field the page uses is type-checked; what passes is rewritten to the
 * fields the page reads and kept as text, so one tree lives at a time. */
#ifndef WW_HTTP_FLEET_ANSWER_H
#define WW_HTTP_FLEET_ANSWER_H

#include <stddef.h>

/* bytes of one query's answer: a 10000-drive fleet's wearwatch_drive_info is
 * about 3.3 MB (330 bytes a series) */
#define WW_FLEET_ANSWER_MAX (8u << 20)
/* JSON values of one answer (the info series above: ~20 values each) */
#define WW_FLEET_ANSWER_VALUES 1000000u

/** Check Prometheus' answer to GET /api/v1/query (instant query, body of
 * len bytes, need not be NUL-terminated; http_code only for messages).
 * Accepted: {"status": "success", "data": {"resultType": "vector",
 * "result": [SERIES...]}} where each SERIES is {"metric": {LABEL: "text",
 * ...}, "value": [UNIX_TIME number, "decimal, NaN, +Inf or -Inf"]}
 * (prometheus.io/docs/prometheus/latest/querying/api/, "Instant vectors");
 * other members are ignored and dropped.
 * On success: 0, *result (malloc'd, NUL-terminated) the result array as
 * compact JSON holding only "metric" and "value" of each series.
 * Otherwise *result is NULL, err says why (Prometheus' own "errorType: error"
 * for a status "error" answer, else what is wrong and where, such as
 * "data.result[3].value[1] is not a number") and the return is -E2BIG (over a
 * limit above), -EINVAL (not such an answer) or -ENOMEM. */
int ww_fleet_answer_parse(const char *body, size_t len, long http_code, char **result, char *err,
			  size_t errlen);

/** Check Prometheus' answer to GET /api/v1/label/NAME/values: {"status":
 * "success", "data": ["text", ...]} (same limits as above; a status "error"
 * answer gives its errorType and error). On success: 0, *names a malloc'd
 * array of *n malloc'd strings, sorted by byte value and without repeats
 * (free with ww_fleet_names_free). Otherwise *names NULL, err says why, and
 * -E2BIG, -EINVAL or -ENOMEM. */
int ww_fleet_labels_parse(const char *body, size_t len, long http_code, char ***names, size_t *n,
			  char *err, size_t errlen);

/** Free what ww_fleet_labels_parse gave (NULL is a no-op). */
void ww_fleet_names_free(char **names, size_t n);

#endif
