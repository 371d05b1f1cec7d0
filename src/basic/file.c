/* Opening files from outside without blocking (see basic.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "wearwatch/basic.h"

static int kind(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	if (S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3)) /* /dev/null */
		return 0;
	return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
}

FILE *ww_fopen_regular(const char *path)
{
	struct stat st;
	FILE *f;
	int fd, rc;

	/* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer;
	 * it is refused below, before anything is read */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	rc = fstat(fd, &st) ? -errno : kind(&st);
	if (!rc && fcntl(fd, F_SETFL, 0) < 0)
		rc = -errno;
	if (rc || !(f = fdopen(fd, "r"))) {
		int e = rc ? -rc : errno;

		close(fd);
		errno = e;
		return NULL;
	}
	return f;
}

int ww_check_regular(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	return kind(&st);
}
