/* wearwatch dashboard: one drive's figures as the pages show them, read from
 * the API's state object (GET /api/v1/drives) and, when fetched, the drive
 * object (GET /api/v1/drives/{drive}: `drive`, `health`). Every field is
 * optional: what the service does not send is null here and an empty state
 * on the page. Shapes: docs/api.md. */
'use strict';

(function () {
const WW = window.WW;
const num = WW.num;

/** The service's health verdict of a drive (the state object's `verdict`,
 * docs/api.md): status, rank (0 ok, 1 unknown, 2 warning, 3 critical) and
 * reasons, each with its sentence. The dashboard computes no verdict of its
 * own: it shows this one, and colours a figure only when one of its reasons
 * names it. Without one (an older service) the drive shows as unknown. */
WW.verdictOf = function (st, detail) {
	const v = (st && st.verdict) || (detail && detail.verdict);
	if (!v || !v.status)
		return { status: 'unknown', rank: 1, reasons: [], missing: true };
	return { status: String(v.status), rank: WW.num(v.rank) ?? 1,
		reasons: Array.isArray(v.reasons) ? v.reasons : [] };
};

/** The first reason of the verdict with one of these codes, or null. */
WW.reasonOf = function (m, ...codes) {
	return m.verdict.reasons.find((r) => codes.includes(r.code)) || null;
};

/** CSS class for a reason's severity (the service's word). */
WW.sevClass = (r) => (!r ? '' : r.severity === 'critical' ? 'crit' : r.severity === 'warning' ? 'hot' : '');

/** Look for a latency summary wherever the service puts it: an object named
 * probe / latency / probe_latency holding p50/p99/max (in seconds, as
 * `p99_seconds`, `p99_s` or `p99`). */
WW.findLatency = function (...objs) {
	const pick = (o, q) => {
		for (const k of [q + '_seconds', q + '_s', q])
			if (o && WW.has(o[k]))
				return num(o[k]);
		return null;
	};
	const seen = new Set();
	const walk = (o, depth) => {
		if (!o || typeof o !== 'object' || seen.has(o) || depth > 3)
			return null;
		seen.add(o);
		if (WW.has(pick(o, 'p99')))
			return { p50: pick(o, 'p50'), p90: pick(o, 'p90'), p99: pick(o, 'p99'),
				 max: pick(o, 'max'), mean: pick(o, 'mean'), src: o };
		for (const k of ['probe', 'latency', 'probe_latency', 'window', 'summary'])
			if (o[k] && typeof o[k] === 'object') {
				const r = walk(o[k], depth + 1);
				if (r)
					return r;
			}
		return null;
	};
	for (const o of objs) {
		const r = walk(o, 0);
		if (r)
			return r;
	}
	return null;
};

/** Value of a health field: health.values[name] object -> its value. */
const hv = (detail, name) => {
	const v = detail && detail.health && detail.health.values && detail.health.values[name];
	return v && typeof v === 'object' && 'value' in v ? v.value : WW.has(v) ? v : null;
};

/** Flat figures for one drive (see the file comment). */
WW.derive = function (st, detail) {
	detail = detail || {};
	const d = detail.drive || st.drive || {};
	const idn = (detail.health && detail.health.identity) || {};
	const e = st.endurance || detail.endurance || null;
	const rating = (e && e.rating) || null;
	const sum = st.summary || {};
	const wpd = (e && e.writes_per_day) || {};
	let dwpd = null, dwpdWindow = null;
	for (const w of ['30d', '7d', '1d', 'lifetime'])
		if (WW.has(num(wpd[w]))) {
			dwpd = num(wpd[w]);
			dwpdWindow = w;
			break;
		}
	const wo = (e && e.wearout) || {};
	let wearout = null, wearoutBasis = null;
	for (const [k, v] of Object.entries(wo)) {
		const t = num(v);
		if (t !== null && (wearout === null || t < wearout)) {
			wearout = t;
			wearoutBasis = k;
		}
	}
	const own = WW.first(e && num(e.endurance_used_ratio),
		WW.has(num(sum.endurance_used_percent)) ? num(sum.endurance_used_percent) / 100 : null,
		WW.has(num(hv(detail, 'endurance_used_percent'))) ? num(hv(detail, 'endurance_used_percent')) / 100 : null);
	const plpCount = hv(detail, 'plp_start_count');
	const capHealth = hv(detail, 'capacitor_health_percent');
	const probe = st.probe || detail.probe || null;
	const verdict = WW.verdictOf(st, detail);
	const nh = verdict.reasons.find((r) => r.code === 'no_health_interface');
	let state = 'present', stateSince = null;
	if (st.present === false) {
		state = 'missing';
		stateSince = st.missing_since;
	} else if (st.hung) {
		state = 'hung';
		stateSince = st.hung_since;
	} else if (st.standby) {
		state = 'standby';
		stateSince = st.standby_since;
	}
	return {
		id: st.id,
		device: st.device,
		model: st.model || idn.model || d.sysfs_model || null,
		serial: st.serial || idn.serial || d.sysfs_serial || null,
		firmware: idn.firmware || null,
		transport: st.transport || d.transport || 'other',
		protocol: st.protocol || d.protocol || null,
		capacity: WW.first(num(d.capacity_bytes), num(hv(detail, 'capacity_bytes')),
			rating && num(rating.capacity_bytes)),
		slot: d.slot || null,
		noHealth: st.protocol === 'none' ? (st.no_health_reason || d.no_health_reason || 'no health interface') : null,
		/* the service's sentence when it says the drive is not monitored
		 * (no health interface): the drive page says it once, and shows
		 * none of the health figures it cannot have */
		notMonitored: nh ? nh.text : null,
		verdict,
		hasEndurance: !!e,
		ratingSource: rating ? rating.source : null,
		/* the service's sentence where it has no stated rating (none, or
		 * one estimated from the drive's own wear: rating.stated false) */
		ratingNote: rating && (rating.source === 'none' || rating.stated === false)
			? (rating.note || 'no rating known') : null,
		/* where the rating came from, for the hover: the sentence and the
		 * table row (FILE:LINE), both as the API gives them */
		ratingTitle: rating ? [rating.note, rating.row].filter(Boolean).join(' — ') || null : null,
		ratedBytes: rating ? num(rating.rated_written_bytes) : null,
		ratedRaw: rating ? rating.rated_written_bytes : null,
		ratedLow: rating && rating.derived ? rating.derived.rated_written_bytes_low : null,
		ratedHigh: rating && rating.derived ? rating.derived.rated_written_bytes_high : null,
		rated: e ? num(e.rated_endurance_used_ratio) : null,
		own,
		dwpd, dwpdWindow,
		dwpdRated: rating ? num(rating.rated_writes_per_day) : null,
		wearout, wearoutBasis,
		warrantyEnd: e ? num(e.warranty_end_timestamp) : null,
		warrantyYears: rating ? num(rating.warranty_years) : null,
		written: WW.first(sum.host_written_bytes, hv(detail, 'host_written_bytes')),
		temp: num(WW.first(sum.temperature_celsius, hv(detail, 'temperature_celsius'))),
		tempWarn: num(hv(detail, 'temperature_warning_celsius')),
		tempCrit: num(hv(detail, 'temperature_critical_celsius')),
		tempRef: num(hv(detail, 'temperature_reference_celsius')),
		unsafe: WW.first(hv(detail, 'unsafe_shutdowns'), sum.unsafe_shutdowns),
		mediaErrors: WW.first(hv(detail, 'media_errors'), sum.media_errors),
		plpCount, capHealth,
		latency: WW.findLatency(st, detail),
		probeSkipped: probe && probe.skipped ? String(probe.skipped) : null,
		probeSkippedAt: probe ? num(probe.skipped_timestamp) : null,
		/* self-tests as the API has them: the drive's running test, the
		 * newest test of each log, the scheduler's state (null: none) */
		selfTestNow: (detail.health && detail.health.logs && detail.health.logs.self_test_now) || null,
		selfTestLogs: (detail.health && detail.health.logs && detail.health.logs.self_tests) || {},
		selfTestSchedule: st.self_test_schedule || detail.self_test_schedule || null,
		state, stateSince,
		lastCollect: st.last_collect ? st.last_collect.timestamp : null,
		lastOk: st.last_collect ? st.last_collect.success : null,
		valuesAge: num(st.values_age_seconds),
		detail: !!detail.drive,
	};
};

/** The temperature limits the drive reports, as [name, °C] pairs:
 * warning and critical (NVMe WCTEMP/CCTEMP, ATA SCT), reference (the SCSI
 * trip temperature, log page 0Dh parameter 1). Empty when it reports none. */
WW.tempLimits = function (m) {
	return [['warning', m.tempWarn], ['critical', m.tempCrit], ['reference (trip)', m.tempRef]]
		.filter((l) => WW.has(l[1]));
};

/** Why the latency probe has no figures, as the API says it (the last due
 * burst's skip reason), or null when it does not say. */
WW.probeNote = function (m) {
	return m.probeSkipped ? 'not probed: ' + m.probeSkipped : null;
};

/** Text for the power-loss cell: the verdict's sentence when it names
 * power-loss protection, else what the drive reports of it. */
WW.plpText = function (m) {
	const r = WW.reasonOf(m, 'power_loss_protection_failed');
	if (r)
		return r.text;
	if (WW.has(m.capHealth))
		return 'PLP capacitor ' + m.capHealth + ' %';
	if (WW.has(m.plpCount))
		return 'PLP events ' + WW.exact(m.plpCount);
	return 'PLP status not reported';
};
})();
