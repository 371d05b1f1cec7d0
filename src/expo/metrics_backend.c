/* Prometheus families for the smartctl backend (see metrics_backend.h). */
#include <string.h>

#include "expo/metrics_backend.h"

static void esc(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

#define FOR_PRESENT(st)                                                        \
	for (const ww_drive_state_t *st = snap->drives;                        \
	     st < snap->drives + snap->n; st++)                                \
		if (st->present)

void ww_metrics_render_backend(FILE *f, const ww_snapshot_t *snap)
{
	bool any = false;

	FOR_PRESENT(st)
		any |= *st->drive.smartctl_type;
	if (any) {
		fputs("# HELP wearwatch_drive_smartctl_info Drive read through smartctl (RAID member or configured); type is smartctl's -d TYPE.\n"
		      "# TYPE wearwatch_drive_smartctl_info gauge\n", f);
		FOR_PRESENT(st) {
			const char *t = *st->drive.smartctl_type ? st->drive.smartctl_type : NULL;

			if (!t)
				continue;
			fputs("wearwatch_drive_smartctl_info{drive=\"", f);
			esc(f, st->drive.id);
			fputs("\",type=\"", f);
			esc(f, t);
			fputs("\"} 1\n", f);
		}
	}
	any = false;
	FOR_PRESENT(st)
		any |= st->has_health;
	if (!any)
		return;
	fputs("# HELP wearwatch_drive_smart_available 1 when the last read returned health data, 0 when the drive answered but reports no SMART (reached, no SMART).\n"
	      "# TYPE wearwatch_drive_smart_available gauge\n", f);
	FOR_PRESENT(st) {
		if (!st->has_health)
			continue;
		fputs("wearwatch_drive_smart_available{drive=\"", f);
		esc(f, st->drive.id);
		fprintf(f, "\"} %d\n", st->health.no_smart ? 0 : 1);
	}
}
