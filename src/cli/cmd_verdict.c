/* The health verdict of one read for `show` and `decode`: the read goes
 * through the same store, endurance service and ww_drive_verdict() as in the
 * service, so the command line prints what /metrics and the API would (see
 * cli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/basic.h"
#include "cli/cli.h"
#include "wearwatch/conf.h"
#include "wearwatch/service.h"
#include "wearwatch/store.h"

struct cfgs {
	ww_conf_t conf;
	ww_health_cfg_t drive;    /* [health] with the drive's section on top */
	ww_threshold_rule_t rule; /* the drive's id -> drive */
	ww_thresholds_t thresholds;
};

/* the ratings table as the service builds it (ratings.d, shipped rows), and
 * the file's [drive] ratings as overrides */
static ww_store_endurance_t *service(const ww_conf_t *c)
{
	ww_ratings_t table = { 0 }, over = { 0 };
	unsigned bad = 0;
	char spec[512], e[1024];

	if (ww_service_ratings_build(NULL, &table, e, sizeof(e)) < 0) {
		fprintf(stderr, "wearwatch: %s (shipped ratings only)\n", e);
		ww_ratings_parse(&table, ww_builtin_ratings_tsv, "built-in", &bad);
	}
	for (size_t i = 0; i < c->n_drives; i++)
		if (c->drives[i].rating[0] &&
		    !ww_conf_drive_rating_spec(&c->drives[i], spec, sizeof(spec)))
			ww_rating_override_parse(&over, spec, e, sizeof(e));
	return ww_store_endurance_new(&table, &over, NULL);
}

bool ww_cli_self_test_plan(const ww_health_cfg_t *cfg, const ww_health_t *h, time_t now,
			   ww_selftest_plan_t *p)
{
	ww_selftest_sched_t *s = NULL;

	memset(p, 0, sizeof(*p));
	if (!cfg->self_test_schedule[0] ||
	    ww_selftest_sched_compile(cfg->self_test_schedule, &s, NULL, 0) < 0)
		return false;
	ww_selftest_plan(s, now, ww_selftest_kinds(h), p);
	ww_selftest_sched_free(s);
	return true;
}

static int verdict_at(const char *config, const ww_drive_t *d, const ww_health_t *h, int rc,
		      time_t at, ww_verdict_t *v, ww_endurance_t *e, bool *has_e,
		      ww_selftest_plan_t *plan);

int ww_cli_verdict(const char *config, const ww_drive_t *d, const ww_health_t *h, int rc, time_t at,
		   ww_verdict_t *v, ww_endurance_t *e, bool *has_e)
{
	return verdict_at(config, d, h, rc, at, v, e, has_e, NULL);
}

int ww_cli_verdict_plan(const char *config, const ww_drive_t *d, const ww_health_t *h, int rc,
			ww_verdict_t *v, ww_endurance_t *e, bool *has_e, ww_selftest_plan_t *plan)
{
	return verdict_at(config, d, h, rc, 0, v, e, has_e, plan);
}

static int verdict_at(const char *config, const ww_drive_t *d, const ww_health_t *h, int rc,
		      time_t at, ww_verdict_t *v, ww_endurance_t *e, bool *has_e,
		      ww_selftest_plan_t *plan)
{
	struct cfgs *x = calloc(1, sizeof(*x));
	const ww_conf_drive_t *sec;
	ww_store_t *store = NULL;
	ww_store_endurance_t *svc = NULL;
	ww_snapshot_t *snap;
	time_t now = at > 0 ? at : ww_clock_wall(NULL);
	char err[512];
	int ret = -ENOMEM;

	if (has_e)
		*has_e = false;
	if (!x)
		return -ENOMEM;
	ww_conf_defaults(&x->conf);
	if (config && ww_conf_load(&x->conf, config, false, err, sizeof(err))) {
		fprintf(stderr, "wearwatch: %s\n", err);
		free(x);
		return -EINVAL;
	}
	x->drive = x->conf.health;
	if ((sec = ww_conf_drive_find(&x->conf, d->id, d->block)))
		ww_conf_health_overlay(&x->drive, &sec->health);
	x->rule = (ww_threshold_rule_t){ .name = d->id, .cfg = &x->drive };
	x->thresholds = (ww_thresholds_t){ .dflt = &x->drive, .rules = &x->rule, .n = 1 };
	store = ww_store_new(0);
	svc = service(&x->conf);
	if (store && svc && ww_store_sync(store, d, 1, now) == 0) {
		/* "reached, no SMART" (-ENODATA) is a read with the identity only */
		int r = rc == -ENODATA ? 0 : rc;

		ww_render_ctx_t ctx = { .endurance = svc,
					.thresholds = &x->thresholds,
					.now = now };

		ww_store_update(store, d->id, r, r == 0 ? h : NULL, NULL, 0, now);
		/* a schedule: its plan, so the verdict judges overdue tests as
		 * the service does (show starts no test) */
		if (r == 0 && x->drive.self_test_schedule[0]) {
			ww_selftest_state_t st = { 0 };

			if (ww_cli_self_test_plan(&x->drive, h, now, &st.plan))
				ww_store_set_self_test(store, d->id, &st, now);
			if (plan)
				*plan = st.plan;
		}
		ww_store_endurance_after_collect(svc, &x->thresholds, store, d, r, now);
		snap = ww_store_acquire(store);
		ctx.snap = snap;
		ww_drive_verdict(&ctx, ww_snapshot_find(snap, d->id), v);
		ww_snapshot_release(snap);
		if (e && has_e)
			*has_e = ww_store_endurance_get(svc, d->id, e);
		ret = 0;
	}
	ww_store_endurance_free(svc);
	ww_store_free(store);
	free(x);
	return ret;
}
