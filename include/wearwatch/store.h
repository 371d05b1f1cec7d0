/* Store: per-drive state and the immutable snapshot readers see.
 *
 * Writers (the discovery timer, collector workers) change state through the
 * ww_store_* calls below; a change goes into a private working copy (copied
 * from the published snapshot once, on the first change after a publication).
 * Readers (HTTP, exposition) take a reference with ww_store_acquire(), which
 * first publishes the working copy if anything changed, so every change made
 * before the call is seen; it waits at most for that publication (a pointer
 * swap) or a writer's one-drive change. A snapshot stays valid and unchanged
 * until its last reference is released; `generation` counts changes. No call
 * here touches a device or reads
 * the clock: every time is the `now` argument (seconds since the epoch), so
 * tests drive a fake clock.
 */
#ifndef WEARWATCH_STORE_H
#define WEARWATCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wearwatch/discover.h"
#include "wearwatch/probe.h"
#include "wearwatch/record.h"
#include "wearwatch/history.h"
#include "wearwatch/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default time a drive that disappeared is still listed (present = false). */
#define WW_STORE_DEFAULT_RETENTION_S 86400

/** Everything known about one drive at one instant. Times are seconds since the
 * epoch, 0 = never. */
typedef struct ww_drive_state {
	const ww_drive_t *drive; /* latest discovery result (never NULL): a
				      piece shared like `health` below, replaced
				      when a discovery finds it changed */
	time_t first_seen;

	bool present;              /* listed by the latest discovery */
	time_t missing_since;      /* first discovery that did not list it */

	/* latest values: the health record and read report of the last read
	 * that returned data; NULL before one (report is set whenever health
	 * is). Immutable pieces of their own, shared by every record of the
	 * drive while they do not change (the published snapshot, the working
	 * copy, a later read that returned the same bytes), so a drive costs
	 * one record of them, not one per copy of its state. The report holds
	 * its n_cmds notes and ends there: read it, never copy it whole. */
	const ww_health_t *health;
	const ww_read_report_t *report;
	time_t values_time;        /* when `health` was read */

	bool standby;              /* last read left the drive alone (standby or
				      runtime-suspended); `health` is older */
	time_t standby_since;      /* 0 for a drive from a capture (no time) */

	bool hung;                 /* a read was issued and has not returned */
	time_t hung_since;

	/* last collection attempt */
	time_t last_collect;       /* when it finished */
	bool last_success;         /* it returned data (rc 0) or found standby (rc 1) */
	int last_rc;               /* ww_collect_drive() return value */
	double last_duration_s;
	uint64_t collections_total; /* finished attempts */
	uint64_t errors_total;     /* attempts that failed (rc < 0) plus failed
				      commands inside successful ones */

	/* latency probes (src/probe, set by ww_store_set_probe) */
	bool has_probe;
	ww_probe_summary_t probe;

	/* self-test scheduling (src/sched, set by ww_store_set_self_test);
	 * only for drives with a self_test_schedule */
	bool has_self_test;
	ww_selftest_state_t self_test;
} ww_drive_state_t;

/** Immutable view of every drive; sorted by drive id. Obtain with
 * ww_store_acquire(), give back with ww_snapshot_release(). drives[i]
 * points to a per-drive record that later snapshots share while that drive
 * does not change (the store's records; a snapshot built by hand for a test
 * may point anywhere, and is not released). */
typedef struct ww_snapshot {
	unsigned long refs_;       /* private: reference count (atomic) */
	uint64_t generation;       /* increments with every change */
	time_t built;              /* `now` of the change that built it */
	size_t n;
	const ww_drive_state_t **drives;
} ww_snapshot_t;

typedef struct ww_store ww_store_t;

/** New empty store. retention_s: how long a disappeared drive stays listed
 * (0 = WW_STORE_DEFAULT_RETENTION_S). Returns NULL on allocation failure. */
ww_store_t *ww_store_new(uint64_t retention_s);

/** Change that retention (a configuration reload may change it without a
 * restart); 0 = the default.
 * Applied at the next ww_store_sync(). */
void ww_store_set_retention(ww_store_t *s, uint64_t retention_s);

/** Free the store and drop its reference on the current snapshot (readers that
 * still hold references keep theirs). */
void ww_store_free(ww_store_t *s);

/** Current snapshot with one more reference. Never NULL for a live store. */
ww_snapshot_t *ww_store_acquire(ww_store_t *s);

/** Copy the current state of drive `id`, changes not yet published
 * included, without publishing anything (a writer's view: O(1), where
 * ww_store_acquire() publishes the working copy). The copy holds a
 * reference on its health and report: give it back with
 * ww_drive_state_put(). Returns 0 or -ENOENT (*out untouched). */
int ww_store_get(ww_store_t *s, const char *id, ww_drive_state_t *out);

/** Give back what a ww_store_get() copy holds (its health and report are
 * NULL after); a copy with none, or NULL, is a no-op. */
void ww_drive_state_put(ww_drive_state_t *copy);

/** Snapshots published since the store was made (each copies the list of
 * record pointers): a test's check that collections alone publish none. */
uint64_t ww_store_publications(ww_store_t *s);

/** Drive records copied since the store was made: a change of a drive
 * whose record a published snapshot shares copies that one record (once per
 * publication); a discovery copies the records it changes. A test's check
 * that a tick with one changed drive copies one record. */
uint64_t ww_store_record_copies(ww_store_t *s);

/** What the drive records of the published snapshot and the working copy
 * take: each record and each piece (a health record, a read report) once,
 * however many records share it; bytes without malloc's own overhead. */
typedef struct ww_store_bytes {
	size_t records, record_bytes; /* records (sizeof(ww_drive_state_t) each) */
	size_t pieces, piece_bytes;   /* health records and reports */
} ww_store_bytes_t;

/** Count them (a walk of both lists under the writers' lock): a test's
 * check that a record and its values take what their data needs, once. */
void ww_store_bytes(ww_store_t *s, ww_store_bytes_t *out);

/** Drop a reference; frees the snapshot with the last one. NULL is a no-op. */
void ww_snapshot_release(ww_snapshot_t *snap);

/** Drive state by stable id, or NULL. Valid while the snapshot is held. */
const ww_drive_state_t *ww_snapshot_find(const ww_snapshot_t *snap, const char *id);

/** Apply one discovery result (the complete list of drives present at `now`):
 * new drives are added (present), listed ones get the new ww_drive_t and
 * present = true, unlisted ones become present = false with missing_since set
 * once, and those missing for longer than the retention are dropped.
 * Returns 0 or -ENOMEM. */
int ww_store_sync(ww_store_t *s, const ww_drive_t *drives, size_t n, time_t now);

/** Remove drive `id` now (excluded by configuration): it is gone from the
 * next snapshot without ever being "missing"; a later ww_store_sync listing
 * it adds it as new. Returns 0, -ENOENT or -ENOMEM. */
int ww_store_drop(ww_store_t *s, const char *id, time_t now);

/** Record the end of one collection of drive `id` (unknown ids are ignored:
 * -ENOENT). rc is ww_collect_drive()'s return: 0 = h/r are new values, 1 =
 * drive left alone (standby/suspended: previous values kept, standby set),
 * < 0 = failed (previous values kept, error counted). h/r may be NULL when
 * rc != 0 (r NULL with rc 0: a report of no commands). The store keeps
 * copies of h and r (shared with the drive's previous values when the
 * bytes are the same). Clears `hung`. Returns 0, -ENOENT or -ENOMEM (the
 * attempt counted as failed, the previous values kept). */
int ww_store_update(ww_store_t *s, const char *id, int rc, const ww_health_t *h,
		    const ww_read_report_t *r, double duration_s, time_t now);

/** Set or clear the hung flag of drive `id` (hung_since = now when set).
 * Returns 0, -ENOENT or -ENOMEM. */
int ww_store_set_hung(ww_store_t *s, const char *id, bool hung, time_t now);

/** Replace the probe summary of drive `id` (has_probe = true). Returns 0,
 * -ENOENT or -ENOMEM. */
int ww_store_set_probe(ww_store_t *s, const char *id, const ww_probe_summary_t *p,
		       time_t now);

/** Replace the self-test state of drive `id` (has_self_test = st != NULL;
 * NULL clears it). Returns 0, -ENOENT or -ENOMEM. */
int ww_store_set_self_test(ww_store_t *s, const char *id, const ww_selftest_state_t *st,
			   time_t now);

/** Pure: true when a drive state has been missing longer than retention_s. */
bool ww_drive_state_expired(const ww_drive_state_t *st, uint64_t retention_s, time_t now);

/** Pure: age of the values in seconds at `now`, or -1 when there are none. */
int64_t ww_drive_state_values_age(const ww_drive_state_t *st, time_t now);

/* Endurance service: joins the ratings (table + overrides), the history
 * database and the model after each successful collection, and keeps the
 * latest ww_endurance_t per drive for the renderers (/metrics, JSON API),
 * which never query the database on a scrape. It also keeps, per drive, what
 * the health verdict remembers of earlier reads (ww_vmemory_t). Renderers
 * are handed it in their ww_render_ctx_t; without one the endurance families
 * are simply absent. */

typedef struct ww_store_endurance ww_store_endurance_t;

/** New service. Takes ownership of table and overrides (moved: the caller's
 * structs are zeroed) and of hist (may be NULL: no history, windows never
 * available). Returns NULL on allocation failure. */
ww_store_endurance_t *ww_store_endurance_new(ww_ratings_t *table, ww_ratings_t *overrides,
					     ww_history_t *hist);
void ww_store_endurance_free(ww_store_endurance_t *s);

/** Replace the ratings table (moved: *table is zeroed); the old one is freed.
 * Collections after it match against the new rows. */
void ww_store_endurance_set_table(ww_store_endurance_t *s, ww_ratings_t *table);

/** After ww_store_update() of drive d with rc (0 = new values): appends a
 * history sample and folds the read into the verdict's memory (rc == 0,
 * over the increase window of the drive's thresholds in t, NULL = defaults),
 * recomputes the model from the store's latest state and the history
 * baselines, and publishes the result. `now` is the wall clock of the
 * collection. */
void ww_store_endurance_after_collect(ww_store_endurance_t *svc, const ww_thresholds_t *t,
				      ww_store_t *store, const ww_drive_t *d, int rc, time_t now);

/** Recompute one drive from a state (history baselines from the database when
 * present). Used by the hook and by tests. */
void ww_store_endurance_compute(ww_store_endurance_t *s, const ww_drive_state_t *st,
				const ww_sample_t *latest, time_t now, ww_endurance_t *out);

/** The probe scheduler's hook (ww_probe_sched_cfg_t.after_burst): stores one
 * finished burst of drive id in the history (nothing when history is off). */
void ww_store_endurance_probe_burst(void *svc, const char *id, const ww_hprobe_t *p, time_t now);

/** The probe scheduler's drift hook (ww_probe_sched_cfg_t.after_drift, with
 * the thresholds of its drive from t): fills in b's baseline, the mean p99
 * of the drive's newest `latency_drift_bursts` kept bursts that entered it
 * (ww_drift_baseline), and whether b enters it (ww_drift_enters), then keeps
 * b in the history (bounded per drive, history.h). Without history there is
 * no baseline (base_n 0) and nothing is kept. */
void ww_store_endurance_drift_burst(ww_store_endurance_t *s, const ww_thresholds_t *t,
				    const ww_drive_t *d, ww_hdrift_t *b);

/** The drive's newest kept drift burst (ww_probe_sched_cfg_t.drift_latest):
 * 1 found, 0 none or no history, -EIO. */
int ww_store_endurance_drift_latest(ww_store_endurance_t *s, const char *id, ww_hdrift_t *out);

/** Latest published result of drive id; false when none. O(log n) in the
 * number of drives with a result (a binary search), so a render looking up
 * every drive stays O(n log n). */
bool ww_store_endurance_get(ww_store_endurance_t *s, const char *id, ww_endurance_t *out);

/** Results published so far (increments with each): with the snapshot's
 * generation, tells a renderer's cache that an endurance figure changed. */
uint64_t ww_store_endurance_generation(ww_store_endurance_t *s);

/** History of the service (NULL when disabled). */
ww_history_t *ww_store_endurance_history(ww_store_endurance_t *s);

/* What every renderer and the verdict read, passed in: no renderer reads a
 * clock, a process-wide service or a configuration of its own, so its
 * signature says everything its output depends on. */

/** One render's inputs. snap is held by the caller for the call. */
typedef struct ww_render_ctx {
	const ww_snapshot_t *snap;         /* the drives (NULL = none) */
	ww_store_endurance_t *endurance;   /* endurance results, the verdict's
					       memory, history; NULL = none */
	const ww_thresholds_t *thresholds; /* NULL = default thresholds */
	time_t now;                        /* wall clock of the render */
	bool fleet_profile;                /* /metrics in the fleet profile
					      (docs/metrics.md): the static and
					      duplicate series left out */
} ww_render_ctx_t;

/** The health verdict of a drive (model.h ww_verdict) from its state in
 * ctx->snap: the latest record, the endurance result and what the service
 * remembers of earlier reads (ww_verdict_remember after each read that
 * returned data) from ctx->endurance, and the drive's thresholds from
 * ctx->thresholds, at ctx->now. Every output asks this one function. */
void ww_drive_verdict(const ww_render_ctx_t *ctx, const ww_drive_state_t *st, ww_verdict_t *out);

#ifdef __cplusplus
}
#endif
#endif
