/* Exposition: renders records and drive state as Prometheus text, JSON and
 * human text. Never decodes bytes, never touches a device. */
#ifndef WEARWATCH_EXPO_H
#define WEARWATCH_EXPO_H

#include "wearwatch/discover.h"
#include "wearwatch/model.h"
#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/** JSON text (malloc'd, caller frees) for one drive read once: identity from
 * discovery, every present field of the record with its unit and source, the
 * commands sent, the health verdict ("verdict", ww_json_verdict_object) and
 * the endurance figures ("endurance", ww_json_endurance_of). r, v and e may
 * be NULL. Returns NULL on allocation failure. */
char *ww_json_render_health(const ww_drive_t *d, const ww_health_t *h, const ww_read_report_t *r,
			    const ww_verdict_t *v, const ww_endurance_t *e);

/** Human-readable text of the same, for `wearwatch show` and `decode`: the
 * verdict first (status, then each reason's severity, sentence, code and
 * source), the drive and its identity; then the health sections and the
 * commands sent, except for a drive with no health interface (d->protocol
 * WW_PROTO_NONE, found by discovery or recorded in a capture: nothing was
 * sent) and, for a drive left alone, one "not read" line instead of the
 * sections; the endurance block (ww_text_render_endurance) after the
 * Health section. Writes to f. v and e may be NULL. */
#include <stdio.h>
void ww_text_render_health(FILE *f, const ww_drive_t *d, const ww_health_t *h,
			   const ww_read_report_t *r, const ww_verdict_t *v,
			   const ww_endurance_t *e);

/** The endurance figures as the service shows them, for people: the rating
 * (bytes, DWPD, warranty years), its source code, row and document or note
 * (a derived rating with its range and the used figure it came from), rated
 * endurance used, the drive's own endurance used, writes per day, warranty
 * and projected wear-out. One "Endurance" section. */
void ww_text_render_endurance(FILE *f, const ww_endurance_t *e);

/** The self-test schedule of a drive, for `show --config`: the next test
 * (kind, local time) and the latest hour each kind was due. */
void ww_text_render_self_test_plan(FILE *f, const ww_selftest_plan_t *p);

/** The "verdict" JSON object (status, rank, reasons with code, severity,
 * text, source and attribute, silenced codes) as a json_object * (void * so
 * this header needs no json-c). See docs/api.md. */
void *ww_json_verdict_object(const ww_verdict_t *v);

/** The verdict as text lines for people: "Health: STATUS" then one line per
 * reason, each starting with indent. */
void ww_text_render_verdict(FILE *f, const ww_verdict_t *v, const char *indent);

/* ------------------------------------------- snapshot exposition (serve) --- */
#include <time.h>
#include "wearwatch/store.h"

/** Content-Type of ww_metrics_render()'s output. */
#define WW_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/** Prometheus text exposition format 0.0.4 of every drive in ctx->snap (see
 * docs/metrics.md for each family, unit, label and source), with the
 * endurance results, verdicts and thresholds of ctx. Values of drives that
 * are missing or were never read are omitted, never NaN. Returns malloc'd
 * text (NUL-terminated, *len bytes without the NUL; len may be NULL) or NULL
 * on allocation failure. */
char *ww_metrics_render(const ww_render_ctx_t *ctx, size_t *len);

/** Family i (0, 1, ...) of ww_metrics_render(), in the order written: its
 * name and type ("gauge", "counter", "histogram", "summary"). false past the
 * last. The tables of src/expo/metrics_table.h, for checks such as every
 * family being documented in docs/metrics.md. */
bool ww_metrics_family(size_t i, const char **name, const char **type);

/** Short, stable machine label of where a normalised value came from, for the
 * `source` label: "nvme_data_units", "ata_devstat", "scsi_general_statistics",
 * "scsi_bytes_processed", "nvme_percentage_used", "scsi_ssd_log",
 * "ata_attribute_<id>", else the protocol name. field must point into h.
 * buf (>= 24 bytes) may be used for the result. NULL when field is absent. */
const char *ww_metrics_source_label(const ww_health_t *h, const ww_u64 *field,
				    char *buf, size_t len);

/** JSON for GET /api/v1/drives: an array with one object per drive (identity,
 * present/missing_since, standby/since, hung/since, last collect, values age,
 * counters and a summary of key values). See docs/api.md. Malloc'd or NULL. */
char *ww_json_render_drives(const ww_render_ctx_t *ctx);

/** JSON for GET /api/v1/drives/{id}: the state object of the list plus
 * "health" (as ww_json_render_health) when values exist. NULL when id is
 * unknown (*found = false) or on allocation failure (*found = true). */
char *ww_json_render_drive(const ww_render_ctx_t *ctx, const char *id, bool *found);

/** The "endurance" object of one drive for the JSON API, or NULL when svc
 * (may be NULL) has no result (src/expo/json_endurance.c). Returns a
 * json_object * as void * so this header needs no json-c. */
void *ww_json_endurance_object(ww_store_endurance_t *svc, const char *id);

/** The same "endurance" object of one result (docs/api.md). */
void *ww_json_endurance_of(const ww_endurance_t *e);

/** JSON of a history query (GET /api/v1/drives/{id}/history) over the
 * history of ctx->endurance (503 "history disabled" without one), `to`
 * defaulting to ctx->now: *status gets the HTTP status (200, 400, 404,
 * 503). Malloc'd body. */
char *ww_json_render_history(const ww_render_ctx_t *ctx, const char *id, const char *metric,
			     const char *from, const char *to, const char *max_points,
			     unsigned *status);

/** Minimal HTML page listing the drives of ctx->snap (GET /). Malloc'd or
 * NULL. */
char *ww_html_render_index(const ww_render_ctx_t *ctx);

#ifdef __cplusplus
}
#endif
#endif
