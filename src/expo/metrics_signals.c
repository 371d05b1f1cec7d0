/* /metrics families of the drive's logs, link and wear signals beyond the
 * normalised record (docs/metrics.md "Logs, link and drive kind"): rotation
 * rate, interface and PCIe link speed, the error and self-test logs, SCSI
 * grown defects, load/unload cycles and power condition transitions, ATA
 * Device Statistics, smartctl's exit status. The names follow what
 * smartctl_exporter users look for (docs/metrics.md maps them). */
#include <stddef.h>
#include <stdio.h>

#include "expo/metrics_table.h"

#define HOFF(field) offsetof(ww_health_t, field)

/* ------------------------------------------------------ drive kind, link --- */

static void g_link(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const kinds[2] = { "max", "current" };
	const ww_u64 *v[2];

	if (!d->h)
		return;
	v[0] = &d->h->link.max_bps;
	v[1] = &d->h->link.current_bps;
	for (int i = 0; i < 2; i++)
		if (WW_HAS(*v[i]))
			ww_prom_u64(w, &kinds[i], v[i]->value);
}

/* the NVMe controller's PCIe link (sysfs at discovery): arg 0 transfers per
 * second, 1 lanes */
static void g_pcie(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const kinds[2] = { "max", "current" };
	const ww_drive_t *dr = d->st->drive;
	uint64_t v[2] = { m->arg ? dr->pcie_max_width : dr->pcie_max_transfers,
			  m->arg ? dr->pcie_cur_width : dr->pcie_cur_transfers };

	if (!d->st->present)
		return;
	for (int i = 0; i < 2; i++)
		if (v[i])
			ww_prom_u64(w, &kinds[i], v[i]);
}

/* ---------------------------------------------------------------- the logs --- */

static void g_errlog(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (!d->h)
		return;
	for (int i = 0; i < WW_ERRLOG_MAX; i++) {
		const ww_errlog_t *e = &d->h->error_logs[i];
		const char *lv[1] = { ww_errlog_names[i] };

		if (e->source)
			ww_prom_u64(w, lv, m->arg ? e->entries : e->count);
	}
}

enum { ST_ENTRIES, ST_FAILED, ST_LAST_PASSED, ST_LAST_STATUS, ST_LAST_SECONDS, ST_LBA };

static void g_selftest(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (!d->h)
		return;
	for (int i = 0; i < WW_SELFTEST_MAX; i++) {
		const ww_selftest_log_t *l = &d->h->self_tests[i];
		const char *lv[1] = { ww_selftest_names[i] };

		if (!l->source)
			continue;
		if (m->arg == ST_ENTRIES)
			ww_prom_u64(w, lv, l->entries);
		else if (m->arg == ST_FAILED)
			ww_prom_u64(w, lv, l->failed);
		else if (m->arg == ST_LAST_PASSED && l->has_last && l->last_passed >= 0)
			ww_prom_u64(w, lv, (uint64_t)l->last_passed);
		else if (m->arg == ST_LAST_STATUS && l->has_last)
			ww_prom_u64(w, lv, l->last_status);
		else if (m->arg == ST_LAST_SECONDS && l->has_last)
			ww_prom_u64(w, lv, l->last_hours * 3600);
		else if (m->arg == ST_LBA && l->has_failing_lba)
			ww_prom_u64(w, lv, l->failing_lba);
	}
}

/* the test running now (the drive's word) and the scheduler's state */
enum {
	SN_RUNNING,
	SN_REMAINING,
	SC_NEXT,
	SC_PENDING,
	SC_STARTED,
	SC_TESTING,
	SC_SPAN,
	SC_SPAN_NEXT
};

static void g_selftest_now(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_selftest_now_t *n;

	if (!d->h || !d->h->self_test_now.source)
		return;
	n = &d->h->self_test_now;
	if (m->arg == SN_RUNNING)
		ww_prom_u64(w, NULL, n->running);
	else if (n->running && n->remaining_percent >= 0)
		ww_prom_sample(w, NULL, NULL, ww_pv_percent((uint64_t)n->remaining_percent));
}

static void g_selftest_sched(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_selftest_state_t *s;

	if (!d->st || !d->st->has_self_test)
		return;
	s = &d->st->self_test;
	if (m->arg == SC_TESTING) {
		ww_prom_u64(w, NULL, s->testing);
		return;
	}
	if (m->arg == SC_SPAN || m->arg == SC_SPAN_NEXT) {
		static const char *const first[1] = { "first" }, *const last[1] = { "last" };

		if (!s->has_span)
			return;
		if (m->arg == SC_SPAN_NEXT) {
			ww_prom_u64(w, NULL, s->span_next);
			return;
		}
		ww_prom_u64(w, first, s->span.first_lba);
		ww_prom_u64(w, last, s->span.last_lba);
		return;
	}
	for (unsigned k = 1; k < WW_STK_MAX; k++) {
		const char *lv[1] = { ww_selftest_kind_names[k] };

		if (m->arg == SC_NEXT && s->plan.next && s->plan.next_kind == k)
			ww_prom_u64(w, lv, (uint64_t)s->plan.next);
		else if (m->arg == SC_PENDING && s->pending == k)
			ww_prom_u64(w, lv, 1);
		else if (m->arg == SC_STARTED && (s->started_total[k] || (s->plan.kinds >> k & 1)))
			ww_prom_u64(w, lv, s->started_total[k]);
	}
}

/* ------------------------------------------------------------ SCSI, ATA --- */

static void g_power_conditions(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (!d->h || d->h->protocol != WW_PROTO_SCSI)
		return;
	for (int i = 0; i < 6; i++)
		if (WW_HAS(d->h->scsi.power_transitions[i]))
			ww_prom_u64(w, &ww_scsi_power_condition_names[i],
				    d->h->scsi.power_transitions[i].value);
}

/* every Device Statistics entry: {page, offset, name}, as smartctl lists them */
static void g_devstats(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (!d->h || d->h->protocol != WW_PROTO_ATA)
		return;
	for (size_t i = 0; i < d->h->ata.n_devstats && i < WW_ATA_MAX_DEVSTATS; i++) {
		const ww_ata_devstat_t *s = &d->h->ata.devstats[i];
		char page[8], off[8];
		const char *lv[3] = { page, off, s->name ? s->name : "" };

		snprintf(page, sizeof(page), "%u", s->page);
		snprintf(off, sizeof(off), "0x%03x", s->offset);
		ww_prom_i64(w, lv, s->value);
	}
}

static void g_smartctl_exit(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h && d->h->has_smartctl_exit)
		ww_prom_u64(w, NULL, d->h->smartctl_exit);
}

/* how many of the newest record's values were left out as no reading */
static void g_implausible(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h)
		ww_prom_u64(w, NULL, d->h->implausible_values);
}

/* not formatted: one metric a row group, its name, type and help together */
/* clang-format off */
const ww_metric_t ww_metrics_signals[] = {
	{ .name = "wearwatch_drive_implausible_values", .type = "gauge",
	  .help = "Values of the newest reading left out because they lie outside what their spec allows (an NVMe spare above 100 %, a temperature above 217 degrees C); nothing is judged on them.",
	  .get = g_implausible },
	{ .name = "wearwatch_drive_rotation_rate_rpm", .type = "gauge",
	  .help = "Medium rotation rate in rpm; 1 = non-rotating (solid state), the ATA/SCSI convention (smartctl's JSON writes 0 for it).",
	  .get = ww_metric_u64, .off = HOFF(rotation_rate_rpm) },
	{ .name = "wearwatch_drive_interface_speed_bits_per_second", .type = "gauge",
	  .help = "SATA link speed (IDENTIFY words 76/77: max = fastest generation, current = negotiated) or SAS negotiated logical link rate (log page 0x18, current).",
	  .labels = { "kind" }, .get = g_link },
	{ .name = "wearwatch_drive_pcie_link_transfers_per_second", .type = "gauge",
	  .help = "NVMe controller's PCIe link speed from sysfs (8.0 GT/s = 8e9), max and current.",
	  .labels = { "kind" }, .get = g_pcie, .arg = 0 },
	{ .name = "wearwatch_drive_pcie_link_width", .type = "gauge",
	  .help = "NVMe controller's PCIe link width in lanes from sysfs, max and current.",
	  .labels = { "kind" }, .get = g_pcie, .arg = 1 },
	{ .name = "wearwatch_drive_error_log_errors_total", .type = "counter",
	  .help = "Errors the drive counted over its life in its error log: ATA device error count (wraps at 65535), NVMe newest Error Count.",
	  .labels = { "log" }, .get = g_errlog, .arg = 0 },
	{ .name = "wearwatch_drive_error_log_entries", .type = "gauge",
	  .help = "Entries the drive's error log holds now (ATA at most 5 or 4 per page, NVMe the used entries of the 16 newest).",
	  .labels = { "log" }, .get = g_errlog, .arg = 1 },
	{ .name = "wearwatch_drive_self_tests", .type = "gauge",
	  .help = "Self-tests the drive's self-test log holds.",
	  .labels = { "log" }, .get = g_selftest, .arg = ST_ENTRIES },
	{ .name = "wearwatch_drive_self_test_failures", .type = "gauge",
	  .help = "Self-tests in the log that ended in a failure (smartctl's self-test error count).",
	  .labels = { "log" }, .get = g_selftest, .arg = ST_FAILED },
	{ .name = "wearwatch_drive_self_test_last_passed", .type = "gauge",
	  .help = "The newest self-test: 1 completed without error, 0 failed; omitted while aborted or running.",
	  .labels = { "log" }, .get = g_selftest, .arg = ST_LAST_PASSED },
	{ .name = "wearwatch_drive_self_test_last_status", .type = "gauge",
	  .help = "The newest self-test's status code as the log has it (ATA execution status bits 7-4, SCSI results, NVMe result).",
	  .labels = { "log" }, .get = g_selftest, .arg = ST_LAST_STATUS },
	{ .name = "wearwatch_drive_self_test_last_power_on_seconds", .type = "gauge",
	  .help = "Power-on time of the drive when its newest self-test ran (hours x 3600; ATA's 16-bit hours wrap).",
	  .labels = { "log" }, .get = g_selftest, .arg = ST_LAST_SECONDS },
	{ .name = "wearwatch_drive_self_test_failing_lba", .type = "gauge",
	  .help = "First failing LBA of the newest failed self-test, where the log gives one.",
	  .labels = { "log" }, .get = g_selftest, .arg = ST_LBA },
	{ .name = "wearwatch_drive_self_test_running", .type = "gauge",
	  .help = "1 while the drive says a self-test runs (ATA SMART READ DATA byte 363, NVMe log 06h Current Operation, SCSI page 0x10 result Fh), else 0.",
	  .get = g_selftest_now, .arg = SN_RUNNING },
	{ .name = "wearwatch_drive_self_test_remaining_ratio", .type = "gauge",
	  .help = "Share of the running self-test still to do, 0-1, where the drive gives it (ATA tenths, NVMe percent).",
	  .get = g_selftest_now, .arg = SN_REMAINING },
	{ .name = "wearwatch_drive_self_test_next_timestamp_seconds", .type = "gauge",
	  .help = "Start of the hour the next scheduled self-test is due (self_test_schedule), Unix time; within 90 days.",
	  .labels = { "kind" }, .get = g_selftest_sched, .arg = SC_NEXT },
	{ .name = "wearwatch_drive_self_test_pending", .type = "gauge",
	  .help = "1 for the kind of a scheduled self-test that is due and not started yet (standby, the stagger, a running test).",
	  .labels = { "kind" }, .get = g_selftest_sched, .arg = SC_PENDING },
	{ .name = "wearwatch_drive_self_tests_started_total", .type = "counter",
	  .help = "Scheduled self-tests wearwatch started on the drive since the service started, by kind.",
	  .labels = { "kind" }, .get = g_selftest_sched, .arg = SC_STARTED },
	{ .name = "wearwatch_drive_self_test_scheduled_running", .type = "gauge",
	  .help = "1 while the scheduler counts the drive as testing (the drive says so, or a test it started has not been seen to end): what the stagger counts.",
	  .get = g_selftest_sched, .arg = SC_TESTING },
	{ .name = "wearwatch_drive_self_test_span_lba", .type = "gauge",
	  .help = "First and last LBA of the span the latest scheduled selective self-test (type n) reads, as written to the ATA Selective self-test log 09h.",
	  .labels = { "edge" }, .get = g_selftest_sched, .arg = SC_SPAN },
	{ .name = "wearwatch_drive_self_test_span_next_lba", .type = "gauge",
	  .help = "First LBA the next scheduled selective self-test reads (the cursor; 0 again after the last span).",
	  .get = g_selftest_sched, .arg = SC_SPAN_NEXT },
	{ .name = "wearwatch_drive_scsi_grown_defects", .type = "gauge",
	  .help = "SCSI grown defect list entries (READ DEFECT DATA header; smartctl's scsi_grown_defect_list).",
	  .get = ww_metric_u64, .off = HOFF(scsi.grown_defects) },
	{ .name = "wearwatch_drive_scsi_load_unload_cycles_total", .type = "counter",
	  .help = "SCSI accumulated load-unload cycles (log page 0x0E param 0x0006).",
	  .get = ww_metric_u64, .off = HOFF(scsi.load_unload_cycles) },
	{ .name = "wearwatch_drive_scsi_specified_load_unload_cycles", .type = "gauge",
	  .help = "SCSI load-unload cycles the drive is specified for over its life (log page 0x0E param 0x0005).",
	  .get = ww_metric_u64, .off = HOFF(scsi.specified_load_unload_cycles) },
	{ .name = "wearwatch_drive_scsi_power_condition_transitions_total", .type = "counter",
	  .help = "SCSI accumulated transitions to a power condition (log page 0x1A).",
	  .labels = { "to" }, .get = g_power_conditions },
	{ .name = "wearwatch_drive_ata_device_statistic", .type = "gauge",
	  .help = "ATA Device Statistics (log 04h) entry, every page the drive lists; name as smartctl prints it.",
	  .labels = { "page", "offset", "name" }, .get = g_devstats },
	{ .name = "wearwatch_drive_smartctl_exit_status", .type = "gauge",
	  .help = "smartctl's exit status bit mask of the read (drives read through smartctl): 3 failing, 4 pre-fail threshold, 5 past threshold, 6 error log, 7 self-test errors.",
	  .get = g_smartctl_exit },
	{ 0 }
};
/* clang-format on */
