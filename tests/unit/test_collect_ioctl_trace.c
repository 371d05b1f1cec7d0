/* smartctl ioctl traces (src/collect/ioctl_trace.c) are read as len bytes,
 * not as a C string: a "=====" marker cut short at the end of the text was
 * read past it (heap overflow found by fuzz_ioctl_trace; the minimal input
 * is tests/fuzz/regress/ioctl-trace-cut-marker.log). Here the text ends
 * right before a page that cannot be read, so any read past it faults in
 * a plain build too. */
#include <sys/mman.h>
#include <unistd.h>

#include "wearwatch/collect.h"
#include "ww_test.h"

/* text copied to the very end of a readable page followed by a PROT_NONE
 * page */
static char *at_page_end(const char *text, size_t len, void **map, size_t *maplen)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || len > pg)
		return NULL;
	mprotect(m + pg, pg, PROT_NONE);
	memcpy(m + pg - len, text, len);
	*map = m;
	*maplen = 2 * pg;
	return m + pg - len;
}

int main(void)
{
	static const char *const cases[] = {
		"===== [IDENTIFY DEVICE] DATA START\n=",
		"===== [IDENTIFY DEVICE] DATA START\n====",
		"===== [IDENTIFY DEVICE] DATA START\n000-015: 0",
		"===== [IDENTIFY DEVICE] DATA START\n000-015: 7a 42 ff",
	};
	static const int want[] = { -EINVAL, -EINVAL, -EINVAL, 3 };
	uint8_t out[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *map = NULL;
		size_t maplen = 0;
		char *t = at_page_end(cases[i], strlen(cases[i]), &map, &maplen);

		CHECK(t != NULL);
		if (!t)
			continue;
		CHECK_EQ_I64(ww_ioctl_trace_block(t, strlen(cases[i]), "IDENTIFY DEVICE", out,
						  sizeof(out)), want[i]);
		munmap(map, maplen);
	}
	CHECK_EQ_U64(out[0], 0x7a);
	CHECK_EQ_U64(out[2], 0xff);
	return ww_test_done("test_collect_ioctl_trace");
}
