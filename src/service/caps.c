/* The collector's capabilities when nothing else limits them (see
 * service.h). libcap is Debian's library for the capability sets; the set
 * kept is the unit's CapabilityBoundingSet (units/wearwatch-collector.service):
 * SG_IO pass-through needs CAP_SYS_RAWIO, NVMe admin commands CAP_SYS_ADMIN. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "wearwatch/service.h"

static const cap_value_t keep[] = { CAP_SYS_RAWIO, CAP_SYS_ADMIN };

static bool kept(cap_value_t c)
{
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (keep[i] == c)
			return true;
	return false;
}

int ww_service_drop_caps(char *msg, size_t len)
{
	cap_t c;
	int rc = 0;

	msg[0] = '\0';
	/* systemd sets INVOCATION_ID for every unit it starts; the unit file
	 * then limits the process (and may grant less) */
	if (geteuid() != 0 || getenv("INVOCATION_ID"))
		return 0;
	for (cap_value_t v = 0; v <= cap_max_bits() - 1 && !rc; v++)
		if (!kept(v) && CAP_IS_SUPPORTED(v))
			rc = cap_drop_bound(v);
	c = cap_init();
	if (!c)
		return -ENOMEM;
	if (!rc && (cap_set_flag(c, CAP_PERMITTED, 2, keep, CAP_SET) ||
		    cap_set_flag(c, CAP_EFFECTIVE, 2, keep, CAP_SET) || cap_set_proc(c)))
		rc = -1;
	cap_free(c);
	/* and as NoNewPrivileges=yes: nothing it runs (smartctl) gains more */
	if (!rc && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		rc = -1;
	if (rc) {
		rc = -errno;
		snprintf(msg, len, "cannot drop capabilities: %s", strerror(errno));
		return rc;
	}
	snprintf(msg, len, "started as root outside systemd: every capability dropped but "
		 "cap_sys_rawio and cap_sys_admin (as wearwatch-collector.service does)");
	return 1;
}
