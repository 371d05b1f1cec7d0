/* docs/metrics.md documents every family /metrics can write, and nothing
 * else: the family tables (ww_metrics_family) against the doc's table rows
 * "| `wearwatch_...` | type | ...", both ways, names and types. */
#include <stdbool.h>

#include "ww_test.h"
#include "wearwatch/expo.h"

struct row {
	char name[128];
	char type[64];
	bool seen;
};

/* the doc's family rows: first cell a `wearwatch_` or `process_` name,
 * second its type */
static size_t doc_rows(const char *doc, struct row *r, size_t max)
{
	size_t n = 0;

	for (const char *l = doc; *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		const char *name, *end, *type;

		if (strncmp(l, "| `wearwatch_", 13) && strncmp(l, "| `process_", 11))
			continue;
		name = l + 3;
		end = strchr(name, '`');
		type = end ? strchr(end, '|') : NULL;
		if (!type)
			continue;
		snprintf(r[n].name, sizeof(r[n].name), "%.*s", (int)(end - name), name);
		type++;
		snprintf(r[n].type, sizeof(r[n].type), "%.*s", (int)strcspn(type, "|"), type);
		r[n++].seen = false;
	}
	return n;
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR") ? getenv("WW_SOURCE_DIR") : ".";
	static struct row rows[256];
	const char *name, *type;
	char *doc;
	size_t len, n, fams = 0;

	doc = (char *)ww_read_file(src, "docs/metrics.md", &len);
	CHECK(doc != NULL);
	if (!doc)
		return ww_test_done("test_expo_metrics_doc");
	n = doc_rows(doc, rows, sizeof(rows) / sizeof(rows[0]));
	CHECK(n > 0);
	for (size_t i = 0; ww_metrics_family(i, &name, &type); i++, fams++) {
		struct row *r = NULL;

		for (size_t k = 0; k < n && !r; k++)
			if (!strcmp(rows[k].name, name))
				r = &rows[k];
		if (!r) {
			fprintf(stderr, "%s (%s) is not documented in docs/metrics.md\n", name, type);
			CHECK(r != NULL);
			continue;
		}
		r->seen = true;
		/* "gauge", "**gauge**", "gauge (1)" */
		if (!strstr(r->type, type))
			fprintf(stderr, "%s: docs/metrics.md says %s, the table %s\n", name, r->type, type);
		CHECK(strstr(r->type, type) != NULL);
	}
	for (size_t k = 0; k < n; k++) {
		if (!rows[k].seen)
			fprintf(stderr, "docs/metrics.md documents %s, which no table writes\n",
				rows[k].name);
		CHECK(rows[k].seen);
	}
	CHECK_EQ_U64(fams, n);
	printf("%zu families, %zu documented\n", fams, n);
	free(doc);
	return ww_test_done("test_expo_metrics_doc");
}
