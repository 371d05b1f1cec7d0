/* /metrics families as data (docs/metrics.md documents each one).
 *
 * A family is one row: name, type, help, the label names after `drive`, and
 * a getter that writes the family's samples for one drive through the writer
 * (prom.h). ww_metrics_render() (metrics.c) walks the tables in order, each
 * family over every drive of the snapshot, so a family's samples stay under
 * one HELP/TYPE; a family no drive has a value for is not written.
 *
 * Adding a value is a row. The generic getters below cover the common shapes
 * through the row's `off` and `arg`; a family of another shape needs one small
 * getter next to its row. A family with per-element labels (say a SAS phy log
 * page's counters with {port, phy}) is a row per counter, labels {"port",
 * "phy"}, off = the counter's offset inside the element struct, and one
 * getter that walks the elements and formats the two label values. */
#ifndef WW_EXPO_METRICS_TABLE_H
#define WW_EXPO_METRICS_TABLE_H

#include <stddef.h>

#include "wearwatch/store.h"
#include "expo/prom.h"

/** A drive's health verdict as the families need it (ww_drive_verdict once
 * per drive and render): the status, per reason code its most severe
 * severity (WW_STATUS_OK = the code is not active), and the numbers of the
 * reasons that carry any (ww_vreason_t value/previous/limit/baseline/unit). */
typedef struct ww_mverdict {
	ww_status_t status;
	uint8_t sev[WW_R_MAX];
	size_t n_num; /* reasons with numbers, once per code (its most severe) */
	struct {
		uint8_t code;
		unsigned has; /* WW_VN_* */
		int64_t value, previous, limit, baseline;
		const char *unit;
	} num[WW_VERDICT_MAX];
} ww_mverdict_t;

/** One drive as the families see it, built once per render. A family
 * without drive label (no_drive) gets one with only ctx set. */
typedef struct ww_mdrive {
	const ww_render_ctx_t *ctx; /* the render's inputs */
	const ww_drive_state_t *st;
	const ww_health_t *h;        /* values shown: present and read at least
					once, else NULL */
	const ww_endurance_t *e;     /* endurance service result (a missing
					drive's marked), else NULL */
	const ww_probe_summary_t *p; /* probe summary with a finished burst, of a
					present drive, else NULL */
	const ww_mverdict_t *v;      /* the health verdict (every drive) */
} ww_mdrive_t;

typedef struct ww_metric ww_metric_t;

/** Writes the samples of family m for drive d (d->st NULL for a family
 * without drive label) through w: zero or more ww_prom_sample() calls. */
typedef void ww_metric_get_fn(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d);

struct ww_metric {
	const char *name;           /* NULL ends a table */
	const char *type;           /* "gauge", "counter", "histogram", "summary" */
	const char *help;
	const char *labels[WW_PROM_MAX_LABELS + 1]; /* after drive, in order */
	ww_metric_get_fn *get;
	bool no_drive;              /* process-wide: get runs once, d = NULL */
	bool full_only;             /* left out of the fleet profile
				       (ww_render_ctx_t.fleet_profile): a
				       duplicate of another family */
	/* written only when this holds for the drives (NULL: always) */
	bool (*when)(const ww_mdrive_t *d, size_t n);
	size_t off;                 /* generic getters: offset of the value */
	size_t has;                 /* ww_metric_end_*: offset of its has_ flag */
	uint64_t arg;               /* ATA attribute id; NVMe multiplier */
};

/* Generic getters. Those over the health record (d->h) write nothing for a
 * drive without shown values or without the field (WW_HAS); when the row
 * names a label, its value is the field's `source` (ww_metrics_source_label). */
ww_metric_get_fn ww_metric_u64;        /* ww_u64 at off in ww_health_t */
ww_metric_get_fn ww_metric_i64;        /* ww_i64 at off in ww_health_t */
ww_metric_get_fn ww_metric_ratio;      /* ww_u64 percent at off, written / 100 */
ww_metric_get_fn ww_metric_nvme_u128;  /* ww_u128 at off in ww_nvme_smart_t x arg */
ww_metric_get_fn ww_metric_nvme_u32;   /* uint32_t at off in ww_nvme_smart_t x arg */
ww_metric_get_fn ww_metric_ata_raw;    /* ATA attribute id arg's count, when its
					  raw is one count and the id keeps its
					  default meaning */
ww_metric_get_fn ww_metric_scsi_errcnt; /* ww_u64 at off in ww_scsi_errcnt_t, one
					  sample per operation (label: write,
					  read, verify: pages 0x02, 0x03, 0x05) */
/* Over the endurance result (d->e), when the bool at `has` is set; a row
 * label gets the rating source (ww_rating_source_name). */
ww_metric_get_fn ww_metric_end_double; /* double at off, "%.17g" */
ww_metric_get_fn ww_metric_end_u64;    /* uint64_t at off */
ww_metric_get_fn ww_metric_end_time;   /* time_t at off */

/* The tables, in the order they are written; each ends with a row whose name
 * is NULL. */
extern const ww_metric_t ww_metrics_drive[];     /* metrics_drive.c */
extern const ww_metric_t ww_metrics_signals[];   /* metrics_signals.c */
extern const ww_metric_t ww_metrics_endurance[]; /* metrics_endurance.c */
extern const ww_metric_t ww_metrics_health[];    /* metrics_health.c */
extern const ww_metric_t ww_metrics_probe[];     /* probe_expo.c */
extern const ww_metric_t ww_metrics_backend[];   /* metrics_backend.c */
extern const ww_metric_t ww_metrics_process[];   /* metrics_process.c */
extern const ww_metric_t ww_metrics_self[];      /* process_metrics.c: process_* */

/** The endurance service's latest result of drive id into *e; false when
 * there is none (or no service). Shared by /metrics and the JSON API
 * (metrics_endurance.c). */
bool ww_expo_endurance(ww_store_endurance_t *svc, const char *id, ww_endurance_t *e);

#endif
