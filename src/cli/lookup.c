/* DEVICE argument of `show`, `capture` and `verify`: one lookup for all of
 * them (see cli.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"


static bool dev_eq(const char *want, const char *name)
{
	if (!*name)
		return false;
	if (!strcmp(want, name))
		return true;
	return !strncmp(want, "/dev/", 5) && !strcmp(want + 5, name);
}

/* DEVICE as a bare name, a /dev node or a stable id (bare or by-id path). */
static bool drive_matches(const ww_drive_t *d, const char *want)
{
	const char *cmd = !strncmp(d->cmd_path, "/dev/", 5) ? d->cmd_path + 5 : d->cmd_path;

	if (dev_eq(want, d->block) || dev_eq(want, cmd) || dev_eq(want, d->ctrl) ||
	    !strcmp(want, d->id))
		return true;
	if (!strncmp(want, "/dev/disk/by-id/", 16) && !strcmp(want + 16, d->id))
		return true;
	for (size_t i = 0; i < d->n_paths; i++)
		if (dev_eq(want, d->paths[i]))
			return true;
	for (size_t i = 0; i < d->n_namespaces; i++)
		if (dev_eq(want, d->namespaces[i]))
			return true;
	return false;
}

static const ww_drive_t *find_drive(const ww_drive_t *d, int n, const char *want)
{
	for (int i = 0; i < n; i++)
		if (drive_matches(&d[i], want))
			return &d[i];
	return NULL;
}

static int discover(const char *sysroot, const char *const *inc, ww_drive_t **all)
{
	free(*all);
	*all = NULL;
	return ww_discover_all(sysroot, inc, all);
}

const ww_drive_t *ww_cli_lookup_drive(const char *sysroot, const char *want,
				      ww_drive_t **all, int *err)
{
	const ww_drive_t *x;
	char resolved[PATH_MAX];
	int n;

	*all = NULL;
	*err = 0;
	if (!sysroot)
		sysroot = "";
	n = discover(sysroot, NULL, all);
	if (n < 0) {
		*err = n;
		fprintf(stderr, "wearwatch: cannot list drives: %s\n", strerror(-n));
		return NULL;
	}
	x = find_drive(*all, n, want);
	/* by-id / by-path links and other symlinks to a device node */
	if (!x && !*sysroot && realpath(want, resolved))
		x = find_drive(*all, n, resolved);
	if (!x) {
		/* a device scan leaves out (loop, dm, ...) can still be named */
		const char *base = strrchr(want, '/');
		const char *inc[] = { base ? base + 1 : want, NULL };

		n = discover(sysroot, inc, all);
		x = n > 0 ? find_drive(*all, n, want) : NULL;
	}
	if (!x)
		fprintf(stderr, "wearwatch: no drive matches '%s' (see `wearwatch scan`)\n", want);
	return x;
}
