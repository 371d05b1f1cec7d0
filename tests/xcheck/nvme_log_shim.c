/* LD_PRELOAD shim that lets nvme-cli read a saved log page as if a device
 * answered it: WW_SHIM_DEV names a path that does not need to exist; opening
 * it opens /dev/null instead, fstat says it is a character device, and a Get
 * Log Page (admin opcode 02h) through NVME_IOCTL_ADMIN_CMD for log
 * WW_SHIM_LID (hex) gets the bytes of the file WW_SHIM_PAGE (zero-filled
 * past its end). Every other admin command completes with a zeroed buffer.
 * Nothing here reaches a device: it is how a test has an independent
 * decoder (nvme-cli's OCP plugin) read spec-constructed bytes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int fake_fd = -1;

static int is_fake(const char *path)
{
	const char *dev = getenv("WW_SHIM_DEV");

	return dev && path && !strcmp(path, dev);
}

static int open_common(const char *path, int flags, mode_t mode, const char *sym)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
										     sym);

	if (is_fake(path)) {
		fake_fd = real("/dev/null", O_RDONLY);
		return fake_fd;
	}
	return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode = 0;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return open_common(path, flags, mode, "open");
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode = 0;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return open_common(path, flags, mode, "open64");
}

/* what _FORTIFY_SOURCE builds call for open() without a mode */
int __open64_2(const char *path, int flags)
{
	return open_common(path, flags, 0, "__open64_2");
}

int __open_2(const char *path, int flags)
{
	return open_common(path, flags, 0, "__open_2");
}

static void as_chardev(struct stat *st)
{
	st->st_mode = S_IFCHR | 0600;
	st->st_rdev = makedev(240, 0);
}

int fstat(int fd, struct stat *st)
{
	int (*real)(int, struct stat *) = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
	int rc = real(fd, st);

	if (rc == 0 && fd >= 0 && fd == fake_fd)
		as_chardev(st);
	return rc;
}

int fstat64(int fd, struct stat64 *st)
{
	int (*real)(int, struct stat64 *) = (int (*)(int, struct stat64 *))dlsym(RTLD_NEXT,
										 "fstat64");
	int rc = real(fd, st);

	if (rc == 0 && fd >= 0 && fd == fake_fd) {
		st->st_mode = S_IFCHR | 0600;
		st->st_rdev = makedev(240, 0);
	}
	return rc;
}

static int answer(struct nvme_passthru_cmd *c)
{
	const char *page = getenv("WW_SHIM_PAGE"), *lid = getenv("WW_SHIM_LID");
	void *buf = (void *)(uintptr_t)c->addr;
	FILE *f;

	if (buf && c->data_len)
		memset(buf, 0, c->data_len);
	c->result = 0;
	if (c->opcode == 0x02 && page && lid && (c->cdw10 & 0xff) == strtoul(lid, NULL, 16) &&
	    buf) {
		f = fopen(page, "rb");
		if (!f)
			return -1;
		if (fread(buf, 1, c->data_len, f) == 0 && ferror(f)) {
			fclose(f);
			return -1;
		}
		fclose(f);
	}
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	int (*real)(int, unsigned long, ...) = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT,
										       "ioctl");
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd >= 0 && fd == fake_fd) {
		if (req == NVME_IOCTL_ADMIN_CMD)
			return answer(arg);
		if (req == NVME_IOCTL_ID) {
			errno = ENOTTY;
			return -1;
		}
		errno = ENOTTY;
		return -1;
	}
	return real(fd, req, arg);
}
