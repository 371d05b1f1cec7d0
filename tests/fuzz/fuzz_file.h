/* Fuzz harness helper: the input as a file, for parsers that take a path
 * (capture files, wearwatch.conf, web.config, ratings files, drivedb.h).
 * One memfd per process, rewritten for each input; the parser opens it by
 * its /proc/self/fd path like any file. */
#ifndef WW_FUZZ_FILE_H
#define WW_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *ww_fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("ww-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

/* the input as a NUL-terminated string (cut at the first NUL), malloc'd */
static char *ww_fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
