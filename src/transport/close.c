/* Closing a transport of any backend (see transport.h). */
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
