/* Runtime PM status and the sysfs readers discovery shares. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/discover.h"

int ww_sysfs_path(char *buf, size_t len, const char *sysroot, const char *fmt, ...)
{
	size_t n;
	va_list ap;
	int m;

	if (!sysroot)
		sysroot = "";
	n = strlen(sysroot);
	while (n && sysroot[n - 1] == '/')
		n--;
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, sysroot, n);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

/* one line, trailing whitespace trimmed */
static int attr_line(char *buf, ssize_t n)
{
	buf[n] = 0;
	/* attributes are one line; keep only the first */
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	n = (ssize_t)strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = 0;
	return (int)n;
}

int ww_sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	close(fd);
	return attr_line(buf, n);
}

int ww_sysfs_pread(int fd, char *buf, size_t len)
{
	ssize_t n;

	if (!len)
		return -EINVAL;
	/* sysfs builds an attribute's text again at each read from offset 0 */
	n = pread(fd, buf, len - 1, 0);
	if (n < 0)
		return -errno;
	return attr_line(buf, n);
}

int ww_sysfs_read_u64(const char *path, uint64_t *v)
{
	char buf[32], *end;
	int n = ww_sysfs_read(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* the runtime_status attribute of block's device into p */
static int status_path(char *p, size_t len, const char *sysroot, const char *block, bool pci)
{
	return pci ? ww_sysfs_path(p, len, sysroot,
				   "/sys/block/%s/device/device/power/runtime_status", block)
		   : ww_sysfs_path(p, len, sysroot, "/sys/block/%s/device/power/runtime_status",
				   block);
}

int ww_runtime_status_open(const char *sysroot, const char *block)
{
	char p[4096];
	int fd = -ENOENT;

	if (!block || !*block || strchr(block, '/'))
		return -EINVAL;
	/* NVMe: /sys/block/nvme0n1/device is the controller (class device,
	 * always "unsupported"); runtime PM lives on its parent, the PCI
	 * function, at .../device/device. */
	if (!strncmp(block, "nvme", 4) && !status_path(p, sizeof(p), sysroot, block, true)) {
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		if (status_path(p, sizeof(p), sysroot, block, false))
			return -ENAMETOOLONG;
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	return fd;
}

int ww_runtime_suspended_fd(int fd)
{
	char st[32];
	int n = ww_sysfs_pread(fd, st, sizeof(st));

	if (n < 0)
		return n;
	return !strcmp(st, "suspended") || !strcmp(st, "suspending");
}

int ww_runtime_suspended(const char *sysroot, const char *block)
{
	int fd = ww_runtime_status_open(sysroot, block), rc;

	if (fd < 0)
		return fd;
	rc = ww_runtime_suspended_fd(fd);
	close(fd);
	return rc;
}
