/* wearwatch dashboard: one drive's page (/drives/{drive}). Summary cards,
 * history plots over a selectable range, then every decoded field with its
 * unit and source, the ATA attribute table and the service's own records.
 * Reads GET /api/v1/drives/{drive} and .../history (docs/api.md). */
'use strict';

(function () {
const WW = window.WW;
const el = WW.el;

const RANGES = [['day', 86400], ['week', 7 * 86400], ['month', 30 * 86400], ['year', 365 * 86400], ['all', 0]];
/* Latency history names: the probe's summary figures, if the service keeps
 * them in its history (a 400 "unknown metric" gives the empty state). */
const LATENCY = [['probe_latency_p50_seconds', 'p50'], ['probe_latency_p99_seconds', 'p99'],
	['probe_latency_max_seconds', 'max']];
/* Latency-drift bursts: each burst's p99 and the baseline it was compared
 * with; whether that is latency_drift is the verdict's (shown with the
 * reasons), never this page's. */
const DRIFT = [['latency_drift_p99_seconds', 'burst p99'], ['latency_drift_baseline_p99_seconds', 'baseline p99']];

function card(title, ...body) {
	return el('section', { class: 'card', 'aria-label': title }, el('h2', {}, title), body);
}

function stateBanner(st, m) {
	const b = [];
	if (m.state === 'missing')
		b.push(['warn', 'Missing since ', WW.timeEl(m.stateSince), ': the values below are the last ones read.']);
	if (m.state === 'standby')
		b.push(['info', 'In standby', WW.has(m.stateSince) ? [' since ', WW.timeEl(m.stateSince)] : ' (since when is not known)',
			': wearwatch leaves a sleeping drive alone; ',
			WW.has(m.valuesAge) ? ['values are ', WW.fmtDuration(m.valuesAge), ' old.'] : 'no values read.']);
	if (m.state === 'hung')
		b.push(['warn', 'A read has been outstanding since ', WW.timeEl(m.stateSince), '; the drive gets no new command.']);
	if (m.notMonitored)
		b.push(['info nomon', m.notMonitored]);
	else if (m.noHealth)
		b.push(['info', 'No health interface: ', m.noHealth]);
	return b.map(([cls, ...t]) => el('p', { class: 'banner ' + cls, role: 'note' }, t));
}

/** The probe card: the last window's figures, else why there are none (the
 * API's skip reason of the last due burst). */
function probeCard(m) {
	const lat = m.latency;
	const note = WW.probeNote(m);
	const at = WW.has(m.probeSkippedAt) ? [' (', WW.timeEl(m.probeSkippedAt, true), ')'] : null;
	return card('Probe latency',
		lat ? el('dl', { class: 'kv' }, [['p50', lat.p50], ['p99', lat.p99], ['max', lat.max]].map(([k, v]) =>
			[el('dt', {}, k), el('dd', { title: WW.has(v) ? v + ' s' : '' }, WW.fmtLatency(v))]))
			: el('p', { class: 'muted probe-note' }, note || 'not probed', note ? at : null),
		lat && note ? el('p', { class: 'small probe-note' }, 'last due burst ', note.replace('not probed: ', 'skipped: '), at) : null);
}

/** The self-test card: what the drive says runs, each log's newest test,
 * the next scheduled one; what is wrong with them is the verdict's (the
 * reasons in the Health card), not decided here. */
function selfTestCard(m) {
	const now = m.selfTestNow, sch = m.selfTestSchedule;
	const logs = Object.entries(m.selfTestLogs).filter(([, l]) => l && WW.has(l.last_status));
	const running = now && now.running ? ['running', (now.kind && now.kind !== 'unknown' ? now.kind + ' ' : '') +
		(WW.has(now.remaining_percent) ? now.remaining_percent + ' % left' : 'in progress')] : null;
	const rows = [running].concat(logs.map(([name, l]) => ['newest (' + name + ')',
		(l.last_kind || 'unknown') + ' ' + (l.last_passed === true ? 'passed' : l.last_passed === false ? 'failed' : 'aborted or running') +
		' at ' + l.last_power_on_hours + ' h']));
	if (sch) {
		rows.push(['next scheduled', WW.has(sch.next_timestamp) ? [sch.next_kind + ' ', WW.timeEl(sch.next_timestamp)] : 'none within 90 days']);
		if (sch.pending_kind)
			rows.push(['waiting', sch.pending_kind + (sch.last_outcome ? ' (' + sch.last_outcome + ')' : '')]);
		if (WW.has(sch.last_started))
			rows.push(['last started', [sch.last_started_kind + ' ', WW.timeEl(sch.last_started, true)]]);
		const sp = sch.selective_span;
		if (sp)
			rows.push(['selective span', 'LBA ' + sp.first_lba + '-' + sp.last_lba + ', next from ' + sp.next_first_lba]);
	}
	const shown = rows.filter((r) => r);
	return card('Self-tests', shown.length ? el('dl', { class: 'kv' }, shown.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]))
		: el('p', { class: 'muted' }, 'no self-test log read'),
		sch ? null : el('p', { class: 'small muted' }, 'not scheduled (self_test_schedule)'));
}

function driveCard(m) {
	return card('Drive',
		el('dl', { class: 'kv' },
			[['transport', m.transport], ['protocol', m.protocol], ['capacity', WW.has(m.capacity) ? WW.valueEl(m.capacity, 'bytes') : null],
				['slot', m.slot], ['firmware', m.firmware], ['device', m.device],
				['collected', WW.timeEl(m.lastCollect, true)]].map(([k, v]) =>
				[el('dt', {}, k), el('dd', {}, WW.has(v) ? v : el('span', { class: 'muted' }, 'unknown'))])));
}

/** The temperature card's limits line: every limit the drive reports. */
function tempLimitsEl(m) {
	const lim = WW.tempLimits(m);
	return el('p', { class: 'small temp-limits' }, lim.length ? lim.map(([k, v]) => k + ' ' + v + ' °C').join(', ')
		: 'no limits reported');
}

function cards(m) {
	/* not monitored: no health figure can exist; the banner says why */
	if (m.notMonitored)
		return el('div', { class: 'cards' }, probeCard(m), driveCard(m));
	const early = WW.reasonOf(m, 'wearout_before_warranty_end');
	const temp = WW.reasonOf(m, 'temperature_critical', 'temperature_warning');
	return el('div', { class: 'cards' },
		card('Health', el('span', { class: 'badge big sev' + m.verdict.rank }, m.verdict.status),
			m.verdict.reasons.length ? el('ul', { class: 'reasons' }, m.verdict.reasons.map((r) =>
				el('li', { class: 'r-' + r.severity, title: r.code + ' (' + r.source + ')', dataset: { code: r.code } }, r.text)))
				: el('p', { class: 'muted' }, m.verdict.missing ? 'no verdict from the service' : 'nothing found')),
		card('Endurance used',
			el('div', { class: 'barrow' }, el('span', { class: 'barlabel' }, 'rated'),
				WW.has(m.rated) ? [WW.bar(m.rated, 'rated endurance used',
					WW.reasonOf(m, 'rated_endurance_exhausted', 'rated_endurance_near_end', 'rated_endurance_high')), el('span', { class: 'barval', title: String(m.rated) }, WW.fmtPercent(m.rated))]
					: el('span', { class: 'muted' }, m.ratingNote || 'no rating known')),
			el('div', { class: 'barrow' }, el('span', { class: 'barlabel' }, 'drive'),
				WW.has(m.own) ? [WW.bar(m.own, "drive's own percentage used",
					WW.reasonOf(m, 'percentage_used_exhausted', 'percentage_used_high')), el('span', { class: 'barval', title: String(m.own) }, WW.fmtPercent(m.own))]
					: el('span', { class: 'muted' }, 'not reported')),
			el('p', { class: 'small' }, 'written ', WW.valueEl(m.written, 'bytes'),
				WW.has(m.ratedBytes) ? [' of ', WW.valueEl(m.ratedRaw, 'bytes'),
					WW.has(m.ratedLow) && WW.has(m.ratedHigh)
						? [' (', WW.valueEl(m.ratedLow, 'bytes'), ' – ', WW.valueEl(m.ratedHigh, 'bytes'), ')'] : null,
					' rated'] : null,
				m.ratingSource && m.ratingSource !== 'none'
					? [' (rating: ', el('span', { class: 'rating-source', title: m.ratingTitle }, m.ratingSource), ')'] : null)),
		card('Writes per day',
			el('p', {}, el('span', { class: 'big' }, WW.has(m.dwpd) ? m.dwpd.toLocaleString(undefined, { maximumFractionDigits: 2 }) : '–'),
				WW.has(m.dwpd) ? ' drive writes/day (' + m.dwpdWindow + ')' : el('span', { class: 'muted' }, ' no window yet')),
			el('p', { class: 'small' }, 'rated ', WW.has(m.dwpdRated) ? String(m.dwpdRated) : 'unknown')),
		card('Wear-out vs warranty',
			el('p', {}, 'projected wear-out ', WW.has(m.wearout) ? el('span', { class: WW.sevClass(early), title: early ? early.text : null }, WW.timeEl(m.wearout))
				: el('span', { class: 'muted' }, 'not projected')),
			el('p', { class: 'small' }, 'warranty ends ', WW.has(m.warrantyEnd) ? WW.timeEl(m.warrantyEnd) : el('span', { class: 'muted' }, 'unknown'),
				WW.has(m.warrantyYears) ? ' (' + m.warrantyYears + ' years)' : null)),
		card('Temperature',
			el('p', {}, el('span', { class: 'big ' + WW.sevClass(temp) }, WW.has(m.temp) ? m.temp + ' °C' : '–')),
			tempLimitsEl(m)),
		card('Power loss',
			el('p', {}, WW.has(m.unsafe) ? [WW.valueEl(m.unsafe, 'count', 'big'), ' unsafe shutdowns'] : el('span', { class: 'muted' }, 'unsafe shutdowns not reported')),
			el('p', { class: 'small' }, WW.plpText(m))),
		selfTestCard(m),
		probeCard(m),
		driveCard(m));
}

async function fetchHistory(id, metric, from, to) {
	const q = new URLSearchParams({ metric, from: String(Math.floor(from)), to: String(Math.ceil(to)), max_points: '400' });
	return WW.getJSON(WW.driveApi(id) + '/history?' + q);
}

/** Start of all history: one bucket before the first `present` point of a
 * coarse query over all time (a point carries its bucket's last time). */
async function historyStart(id, now) {
	const r = await fetchHistory(id, 'present', 1, now);
	if (r.status !== 200 || !r.body || !r.body.points || !r.body.points.length)
		return null;
	const bucket = (now - 1) / (WW.num(r.body.max_points) || 400);
	return Math.max(1, WW.num(r.body.points[0][0]) - bucket);
}

function plotBox(name, title) {
	const canvas = el('canvas', { id: 'chart-' + name, role: 'img', 'aria-label': title + ' over time' });
	const empty = el('p', { class: 'empty', hidden: true });
	return { name, box: el('figure', { class: 'plot', id: 'plot-' + name },
		el('figcaption', {}, title), el('div', { class: 'chartbox' }, canvas), empty), canvas, empty };
}

const PLOTS = [['written', 'Bytes written'], ['used', 'Percentage used'], ['temperature', 'Temperature'],
	['latency', 'Probe latency'], ['drift', 'Latency drift bursts: p99 and baseline'],
	['errors', 'Unsafe shutdowns and media errors']];

function emptyState(p, text) {
	if (WW.charts[p.name]) {
		WW.charts[p.name].destroy();
		delete WW.charts[p.name];
	}
	p.canvas.parentNode.hidden = true;
	p.empty.hidden = false;
	p.empty.textContent = text;
}

function why(r, what) {
	if (r.status === 503)
		return 'History is disabled on this service (no database).';
	if (r.status === 404)
		return 'No history stored for this drive yet.';
	if (r.status === 400)
		return 'The service keeps no ' + what + ' history.';
	if (r.status !== 200)
		return 'History unavailable (' + (r.status || 'no connection') + ').';
	return 'No ' + what + ' samples in this range.';
}

async function drawPlots(id, m, plots, rangeName) {
	const now = Date.now() / 1000;
	const range = RANGES.find((r) => r[0] === rangeName) || RANGES[1];
	let from = now - range[1];
	if (!range[1])
		from = (await historyStart(id, now)) ?? now - 7 * 86400;
	const to = now;
	const metrics = ['host_written_bytes', 'endurance_used_percent', 'temperature_celsius',
		'unsafe_shutdowns', 'media_errors'].concat(LATENCY.map((l) => l[0]), DRIFT.map((l) => l[0]));
	const res = {};
	await Promise.all(metrics.map(async (k) => {
		res[k] = await fetchHistory(id, k, from, to);
	}));
	const xy = (k) => (res[k].status === 200 && res[k].body ? WW.toXY(res[k].body.points) : []);
	const show = (p, lines, spec) => {
		const total = lines.filter((l) => l.kind !== 'projection').reduce((n, l) => n + WW.countPoints(l.data), 0);
		if (!total)
			return false;
		p.canvas.parentNode.hidden = false;
		p.empty.hidden = true;
		WW.lineChart(p.name, p.canvas, Object.assign({ from, to, lines }, spec));
		return true;
	};
	const P = Object.fromEntries(plots.map((p) => [p.name, p]));

	const w = xy('host_written_bytes');
	const until = WW.has(m.warrantyEnd) && m.warrantyEnd > to ? Math.min(m.warrantyEnd, to + (to - from)) : to + (to - from) / 4;
	const proj = WW.project(w, until);
	if (!show(P.written, [{ label: 'host written', data: w, fill: true },
		{ label: 'projection', data: proj, dash: true, kind: 'projection', color: '#6e7781' }],
	{ yFormat: WW.fmtBytes, yExact: (v) => WW.exact(v, 'bytes'), xMax: proj.length ? until : to, yMin: 0,
		hlines: WW.has(m.ratedBytes) ? [{ label: 'rated endurance ' + WW.fmtBytes(m.ratedBytes), y: m.ratedBytes, color: '#d1242f' }] : [] }))
		emptyState(P.written, why(res.host_written_bytes, 'bytes written'));

	if (!show(P.used, [{ label: 'percentage used (drive)', data: xy('endurance_used_percent') }],
		{ yFormat: (v) => v + ' %', yMin: 0, hlines: [{ label: '100 % used', y: 100, color: '#d1242f' }] }))
		emptyState(P.used, why(res.endurance_used_percent, 'percentage used'));

	const colors = { warning: '#bc4c00', critical: '#d1242f', 'reference (trip)': '#8250df' };
	const hl = WW.tempLimits(m).map(([k, v]) => ({ label: k + ' ' + v + ' °C', y: v, color: colors[k] }));
	if (!show(P.temperature, [{ label: 'temperature', data: xy('temperature_celsius') }],
		{ yFormat: (v) => Math.round(v * 10) / 10 + ' °C', hlines: hl }))
		emptyState(P.temperature, why(res.temperature_celsius, 'temperature'));

	if (!show(P.latency, LATENCY.map(([k, l]) => ({ label: l, data: xy(k) })), { yFormat: WW.fmtLatency, yMin: 0 }))
		emptyState(P.latency, why(res[LATENCY[1][0]], 'probe latency'));

	if (!show(P.drift, [{ label: DRIFT[0][1], data: xy(DRIFT[0][0]) },
		{ label: DRIFT[1][1], data: xy(DRIFT[1][0]), dash: true, step: true }], { yFormat: WW.fmtLatency, yMin: 0 }))
		emptyState(P.drift, why(res[DRIFT[0][0]], 'latency drift'));

	if (!show(P.errors, [{ label: 'unsafe shutdowns', data: xy('unsafe_shutdowns'), step: true },
		{ label: 'media errors', data: xy('media_errors'), step: true }],
	{ yFormat: (v) => (Number.isInteger(v) ? v.toLocaleString() : ''), yMin: 0 }))
		emptyState(P.errors, why(res.unsafe_shutdowns, 'unsafe shutdown or media error'));
}

function fieldSections(d, m) {
	const h = d.health || {};
	const ata = Object.assign({}, h.ata || {});
	const attrs = ata.attributes;
	delete ata.attributes;
	const nvme = h.nvme || {};
	const state = Object.assign({}, d);
	for (const k of ['drive', 'health', 'endurance', 'probe', 'latency', 'verdict'])
		delete state[k];
	const lat = WW.findLatency(d);
	return [
		WW.fieldsSection('Health values', h.values, 'f-values'),
		WW.fieldsSection('Identity', h.identity, 'f-identity'),
		WW.fieldsSection('Endurance', d.endurance, 'f-endurance'),
		WW.fieldsSection('Probe latency', lat ? lat.src : null, 'f-probe'),
		WW.fieldsSection('NVMe SMART / Health log (02h)', nvme.smart_log, 'f-nvme-smart'),
		WW.fieldsSection('NVMe Identify Controller', nvme.controller, 'f-nvme-ctrl'),
		Array.isArray(nvme.namespaces) && nvme.namespaces.length ? el('section', { class: 'fields-sec', id: 'f-nvme-ns' },
			el('h2', {}, 'NVMe namespaces'), WW.arrayTable(nvme.namespaces)) : null,
		WW.ataTable(attrs, m),
		WW.fieldsSection('ATA SMART and device statistics', ata, 'f-ata'),
		WW.fieldsSection('SCSI log pages', h.scsi, 'f-scsi'),
		WW.fieldsSection('Other health data', Object.fromEntries(Object.entries(h).filter(([k]) =>
			!['values', 'identity', 'nvme', 'ata', 'scsi', 'report'].includes(k))), 'f-health-other'),
		WW.fieldsSection('Commands of the last read', h.report, 'f-report'),
		WW.fieldsSection('Discovery', d.drive, 'f-drive'),
		WW.fieldsSection('Service state', state, 'f-state'),
	].filter(Boolean);
}

/** Render drive `id` into root; returns the refresh timer. */
WW.drivePage = function (root, id, opts) {
	const q = new URLSearchParams(location.search);
	let range = RANGES.some((r) => r[0] === q.get('range')) ? q.get('range') : 'week';
	const plots = PLOTS.map(([n, t]) => plotBox(n, t));
	const head = el('div');
	let hist = null;
	const rangeBar = el('div', { class: 'ranges', role: 'group', 'aria-label': 'History range' });
	const fields = el('div', { class: 'fieldsets' });
	let model = null;
	hist = el('section', { class: 'history', 'aria-labelledby': 'hist-h' }, el('h2', { id: 'hist-h' }, 'History'),
		rangeBar, el('div', { class: 'plots' }, plots.map((p) => p.box)));
	root.replaceChildren(el('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, el('a', { href: '/' }, '← All drives')),
		head, hist, fields);

	const buildRanges = () => rangeBar.replaceChildren(...RANGES.map(([n]) => el('button', {
		type: 'button', 'aria-pressed': String(n === range), dataset: { range: n },
		onclick: async () => {
			range = n;
			const u = new URLSearchParams(location.search);
			u.set('range', n);
			history.replaceState(null, '', location.pathname + '?' + u);
			buildRanges();
			rangeBar.querySelector('[data-range="' + n + '"]').focus();
			await drawPlots(id, model, plots, range);
			document.body.dataset.plotted = range;
		},
	}, n)));

	async function load(first) {
		const r = await WW.getJSON(WW.driveApi(id));
		if (r.status === 404) {
			WW.title('unknown drive');
			root.replaceChildren(el('nav', { class: 'crumbs' }, el('a', { href: '/' }, '← All drives')),
				el('h1', {}, 'Unknown drive'), el('p', { class: 'empty' }, 'wearwatch has no drive "' + id + '" (it may have been removed longer ago than the missing-drive retention).'));
			document.body.dataset.loaded = 'missing';
			return;
		}
		if (r.status !== 200 || !r.body) {
			head.replaceChildren(el('p', { class: 'banner warn' }, 'Cannot read ' + WW.driveApi(id) + ' (' + (r.status || 'no connection') + '); retrying.'));
			return;
		}
		const d = r.body;
		model = WW.derive(d, d);
		WW.title(model.model || id);
		head.replaceChildren(el('h1', {}, model.model || id),
			el('p', { class: 'sub' }, [model.serial ? 'S/N ' + model.serial : null, id, model.device].filter(Boolean).join(' · ')),
			...stateBanner(d, model), cards(model));
		fields.replaceChildren(...fieldSections(d, model));
		/* a drive that is not monitored has no health history to plot */
		hist.hidden = !!model.notMonitored;
		if (first && model.notMonitored) {
			document.body.dataset.plotted = 'none';
		} else if (first) {
			buildRanges();
			await drawPlots(id, model, plots, range);
			document.body.dataset.plotted = range;
		}
		document.body.dataset.loaded = String((Number(document.body.dataset.loaded) || 0) + 1);
	}

	load(true);
	const every = (opts && opts.refresh) || 30;
	return setInterval(() => {
		if (!document.hidden && model)
			load(false).then(() => (model.notMonitored ? null : drawPlots(id, model, plots, range)));
	}, every * 1000);
};
})();
