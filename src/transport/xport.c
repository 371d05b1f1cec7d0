/* What every backend shares: closing, and the two mappings between a
 * command's status and an errno (see transport.h). */
#include <errno.h>
#include <string.h>

#include "wearwatch/transport.h"

void ww_xport_close(ww_xport_t *x)
{
	if (x && x->ops && x->ops->close)
		x->ops->close(x);
	if (x) {
		x->ops = NULL;
		x->fd = -1;
	}
}

void ww_xport_arm_self_test(ww_xport_t *x)
{
	if (x)
		x->self_test_armed = true;
}

void ww_cmd_status_not_issued(ww_cmd_status_t *st, int rc)
{
	memset(st, 0, sizeof(*st));
	st->result = rc == -ENOTSUP ? WW_CMD_UNSUPPORTED : WW_CMD_OS_ERROR;
	st->os_errno = -rc;
}

int ww_cmd_errno(const ww_cmd_status_t *st)
{
	switch (st->result) {
	case WW_CMD_OK:
	case WW_CMD_RECOVERED:
		return 0;
	case WW_CMD_UNSUPPORTED:
		return -ENOTSUP;
	case WW_CMD_TIMEOUT:
		return -ETIMEDOUT;
	case WW_CMD_OS_ERROR:
		return st->os_errno > 0 ? -st->os_errno : -EIO;
	default:
		return -EIO;
	}
}
