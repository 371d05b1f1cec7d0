/* Endurance service: joins the ratings (table + overrides), the history
 * database and the model after each successful collection, and keeps the
 * latest ww_endurance_t per drive for the renderers (/metrics, JSON API),
 * which never query the database on a scrape.
 *
 * The renderers' signatures are shared and take only a snapshot, so the
 * running service registers itself process-wide (ww_endurance_set_global);
 * with none registered the endurance families are simply absent. */
#ifndef WEARWATCH_ENDURANCE_H
#define WEARWATCH_ENDURANCE_H

#include <stdbool.h>
#include <time.h>

#include "wearwatch/drive.h"
#include "wearwatch/history.h"
#include "wearwatch/model.h"
#include "wearwatch/store.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ww_endurance_svc ww_endurance_svc_t;

/** New service. Takes ownership of table and overrides (moved: the caller's
 * structs are zeroed) and of hist (may be NULL: no history, windows never
 * available). Returns NULL on allocation failure. */
ww_endurance_svc_t *ww_endurance_svc_new(ww_ratings_t *table, ww_ratings_t *overrides,
					 ww_history_t *hist);
void ww_endurance_svc_free(ww_endurance_svc_t *s);

/** The poller hook: after ww_store_update() of drive d with rc (0 = new
 * values). Appends a history sample (rc == 0), recomputes the model from the
 * store's latest state and the history baselines, and publishes the result.
 * `now` is the wall clock of the collection. */
void ww_endurance_after_collect(void *svc, ww_store_t *store, const ww_drive_t *d, int rc,
				time_t now);

/** Recompute one drive from a state (history baselines from the database when
 * present). Used by the hook and by tests. */
void ww_endurance_compute_state(ww_endurance_svc_t *s, const ww_drive_state_t *st,
				const ww_sample_t *latest, time_t now, ww_endurance_t *out);

/** The probe scheduler's hook (ww_probe_sched_cfg_t.after_burst): stores one
 * finished burst of drive id in the history (nothing when history is off). */
void ww_endurance_probe_burst(void *svc, const char *id, const ww_hprobe_t *p, time_t now);

/** Latest published result of drive id; false when none. */
bool ww_endurance_get(ww_endurance_svc_t *s, const char *id, ww_endurance_t *out);

/** History of the service (NULL when disabled). */
ww_history_t *ww_endurance_history(ww_endurance_svc_t *s);

void ww_endurance_set_global(ww_endurance_svc_t *s);
ww_endurance_svc_t *ww_endurance_global(void);

#ifdef __cplusplus
}
#endif
#endif
