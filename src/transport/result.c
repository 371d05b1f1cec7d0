/* Names of command outcomes (see transport.h). */
#include "wearwatch/transport.h"

const char *ww_cmd_result_name(ww_cmd_result_t r)
{
	static const char *const names[WW_CMD_RESULT_MAX] = {
		[WW_CMD_OK] = "ok",
		[WW_CMD_UNSUPPORTED] = "unsupported",
		[WW_CMD_RECOVERED] = "recovered",
		[WW_CMD_DEVICE_ERROR] = "device-error",
		[WW_CMD_TRANSPORT_ERROR] = "transport-error",
		[WW_CMD_TIMEOUT] = "timeout",
		[WW_CMD_OS_ERROR] = "os-error",
	};
	return (unsigned)r < WW_CMD_RESULT_MAX ? names[r] : "unknown";
}

void ww_xport_close(ww_xport_t *x)
{
	if (x && x->ops && x->ops->close)
		x->ops->close(x);
	if (x) {
		x->ops = NULL;
		x->fd = -1;
	}
}
