/* Exposition: renders records and drive state as Prometheus text, JSON and
 * human text. Never decodes bytes, never touches a device. */
#ifndef WEARWATCH_EXPO_H
#define WEARWATCH_EXPO_H

#include "wearwatch/collect.h"
#include "wearwatch/drive.h"
#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/** JSON text (malloc'd, caller frees) for one drive read once: identity from
 * discovery, every present field of the record with its unit and source, and
 * the commands sent. r may be NULL. Returns NULL on allocation failure. */
char *ww_json_render_health(const ww_drive_t *d, const ww_health_t *h,
			    const ww_read_report_t *r);

/** Human-readable text of the same, for `wearwatch show`. Writes to f. */
#include <stdio.h>
void ww_text_render_health(FILE *f, const ww_drive_t *d, const ww_health_t *h,
			   const ww_read_report_t *r);

#ifdef __cplusplus
}
#endif
#endif
