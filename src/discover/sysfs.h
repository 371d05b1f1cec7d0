/* Small sysfs readers shared by discovery and power (internal to the layer). */
#ifndef WW_DISCOVER_SYSFS_H
#define WW_DISCOVER_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/** Join sysroot ("" or "/" for the live system) and an absolute path built
 * from fmt. Returns 0 or -ENAMETOOLONG. */
int ww_sysfs_path(char *buf, size_t len, const char *sysroot, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** Read a sysfs attribute (one line, trailing whitespace trimmed) into buf.
 * Returns the length or -errno. */
int ww_sysfs_read(const char *path, char *buf, size_t len);

/** Read an attribute as an unsigned decimal. Returns 0 or -errno. */
int ww_sysfs_read_u64(const char *path, uint64_t *v);

#endif
