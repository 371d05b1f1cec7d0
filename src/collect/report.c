/* Per-read command log (see collect.h). */
#include <stdio.h>

#include "wearwatch/collect.h"

void ww_report_cmd(ww_read_report_t *r, const char *what, const ww_cmd_status_t *st)
{
	if (!r || !st)
		return;
	if (st->result == WW_CMD_UNSUPPORTED)
		r->n_unsupported++;
	else if (st->result != WW_CMD_OK && st->result != WW_CMD_RECOVERED)
		r->n_errors++;
	if (r->n_cmds >= WW_READ_MAX_CMDS)
		return;
	ww_cmd_note_t *n = &r->cmds[r->n_cmds++];
	snprintf(n->what, sizeof(n->what), "%s", what);
	n->result = st->result;
	n->os_errno = st->os_errno;
	n->sense_key = st->sense_key;
	n->asc = st->asc;
	n->ascq = st->ascq;
	n->nvme_status = st->nvme_status;
}
