/* wearwatch dashboard: the overview, one row per drive (a card at phone
 * width). Sort, filters and search live in the URL query so a reload or a
 * shared link keeps them; the auto-refresh replaces only the table body, so
 * scroll position, sort, filters and keyboard focus survive it. */
'use strict';

(function () {
const WW = window.WW;
const el = WW.el;

const COLS = [
	{ key: 'drive', label: 'Drive', sort: (m) => (m.model || m.id || '').toLowerCase() },
	{ key: 'health', label: 'Health', sort: (m) => -m.verdict.rank },
	{ key: 'endurance', label: 'Endurance used', sort: (m) => -(WW.first(m.rated, m.own) ?? -1) },
	{ key: 'dwpd', label: 'DWPD', sort: (m) => -(m.dwpd ?? -1) },
	{ key: 'wearout', label: 'Wear-out / warranty', sort: (m) => m.wearout ?? Infinity },
	{ key: 'temperature', label: 'Temperature', sort: (m) => -(m.temp ?? -999) },
	{ key: 'power', label: 'Power loss', sort: (m) => -(WW.num(m.unsafe) ?? -1) },
	{ key: 'latency', label: 'p99 latency', sort: (m) => -(m.latency ? m.latency.p99 : -1) },
	{ key: 'state', label: 'State', sort: (m) => -(m.lastCollect ?? 0) },
];

const ENDURANCE_FILTERS = [
	['', 'any endurance'], ['50', '≥ 50 % used'], ['80', '≥ 80 % used'],
	['100', '≥ 100 % used'], ['norating', 'no rating known'],
];

function query() {
	const q = new URLSearchParams(location.search);
	return {
		sort: q.get('sort') || 'health', dir: q.get('dir') === 'desc' ? 'desc' : 'asc',
		health: q.get('health') || '', transport: q.get('transport') || '',
		endurance: q.get('endurance') || '', q: q.get('q') || '',
	};
}

function saveQuery(s) {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(s))
		if (v && !(k === 'sort' && v === 'health') && !(k === 'dir' && v === 'asc'))
			q.set(k, v);
	const qs = q.toString();
	history.replaceState(null, '', location.pathname + (qs ? '?' + qs : ''));
}

/** The service's verdict: status, then each reason's sentence (code and
 * source in the tooltip). */
WW.verdictEl = function (v) {
	return el('div', { class: 'verdict' },
		el('span', { class: 'badge sev' + v.rank,
			title: v.missing ? 'the service sent no verdict' : 'verdict of the service' }, v.status),
		v.reasons.length ? el('ul', { class: 'reasons' }, v.reasons.map((r) =>
			el('li', { class: 'r-' + r.severity, title: r.code + ' (' + r.source + ')', dataset: { code: r.code } },
				r.text))) : null);
};

function enduranceCell(m) {
	const parts = [];
	if (WW.has(m.rated))
		parts.push(el('div', { class: 'barrow' }, el('span', { class: 'barlabel' }, 'rated'),
			WW.bar(m.rated, 'rated endurance used',
				WW.reasonOf(m, 'rated_endurance_exhausted', 'rated_endurance_near_end', 'rated_endurance_high')),
			el('span', { class: 'barval', title: String(m.rated) }, WW.fmtPercent(m.rated))));
	else if (m.ratingNote || m.hasEndurance)
		parts.push(el('div', { class: 'muted' }, m.ratingNote || 'no rating known'));
	if (WW.has(m.own))
		parts.push(el('div', { class: 'barrow' }, el('span', { class: 'barlabel' }, 'drive'),
			WW.bar(m.own, "drive's own percentage used",
				WW.reasonOf(m, 'percentage_used_exhausted', 'percentage_used_high')),
			el('span', { class: 'barval', title: String(m.own) }, WW.fmtPercent(m.own))));
	if (!parts.length)
		parts.push(el('span', { class: 'muted' }, m.noHealth ? 'no health interface' : 'not reported'));
	if (WW.has(m.written))
		parts.push(el('div', { class: 'small' }, 'written ', WW.valueEl(m.written, 'bytes')));
	return parts;
}

function dwpdCell(m) {
	if (!WW.has(m.dwpd) && !WW.has(m.dwpdRated))
		return el('span', { class: 'muted' }, m.hasEndurance ? 'no window yet' : '–');
	return el('div', {}, el('span', { class: 'val', title: WW.has(m.dwpd) ? String(m.dwpd) : '' },
		WW.has(m.dwpd) ? m.dwpd.toLocaleString(undefined, { maximumFractionDigits: 2 }) : '–'),
	el('span', { class: 'small' }, WW.has(m.dwpd) ? ' (' + m.dwpdWindow + ')' : ''),
	el('div', { class: 'small' }, 'rated ', WW.has(m.dwpdRated) ? String(m.dwpdRated) : 'unknown'));
}

function wearoutCell(m) {
	const early = WW.reasonOf(m, 'wearout_before_warranty_end');
	return el('div', {},
		el('div', {}, 'wear-out ', WW.has(m.wearout)
			? el('span', { class: WW.sevClass(early), title: early ? early.text : null }, WW.timeEl(m.wearout))
			: el('span', { class: 'muted' }, m.hasEndurance ? 'not projected' : '–')),
		el('div', { class: 'small' }, 'warranty ', WW.has(m.warrantyEnd)
			? WW.timeEl(m.warrantyEnd) : el('span', { class: 'muted' }, 'unknown')));
}

function tempCell(m) {
	if (!WW.has(m.temp))
		return el('span', { class: 'muted' }, m.noHealth ? 'no health interface' : '–');
	const hot = WW.sevClass(WW.reasonOf(m, 'temperature_critical', 'temperature_warning'));
	const lim = WW.tempLimits(m).map(([k, v]) => k + ' ' + v + ' °C');
	return el('div', {}, el('span', { class: 'val ' + hot, title: m.temp + ' °C' }, m.temp + ' °C'),
		el('div', { class: 'small' }, lim.length ? lim.join(', ') : 'no limits reported'));
}

function powerCell(m) {
	return el('div', {}, WW.has(m.unsafe) ? [WW.valueEl(m.unsafe, 'count'), ' unsafe shutdowns']
		: el('span', { class: 'muted' }, 'unsafe shutdowns not reported'),
	el('div', { class: 'small' }, WW.plpText(m)));
}

function latencyCell(m) {
	if (!m.latency)
		return el('span', { class: 'muted' }, WW.probeNote(m) || 'not probed');
	return el('div', {}, el('span', { class: 'val', title: m.latency.p99 + ' s' }, WW.fmtLatency(m.latency.p99)),
		WW.has(m.latency.max) ? el('div', { class: 'small' }, 'max ', WW.fmtLatency(m.latency.max)) : null);
}

function stateCell(m) {
	const since = m.stateSince ? [' since ', WW.timeEl(m.stateSince)] : [];
	return el('div', {}, el('span', { class: 'state ' + m.state }, m.state === 'standby' ? 'in standby' : m.state),
		since,
		el('div', { class: 'small' }, 'collected ', WW.timeEl(m.lastCollect, true),
			m.lastOk === false ? el('span', { class: 'hot' }, ' (failed)') : null));
}

function driveCell(m) {
	const meta = [m.transport, WW.has(m.capacity) ? WW.fmtBytes(m.capacity) : null,
		m.slot ? 'slot ' + m.slot : null].filter(Boolean);
	return el('div', {},
		el('a', { href: WW.driveHref(m.id), class: 'drivelink', dataset: { focus: 'link:' + m.id } },
			m.model || m.id),
		el('div', { class: 'small' }, m.serial ? 'S/N ' + m.serial : 'no serial'),
		el('div', { class: 'small' }, el('span', { class: 'tag', title: WW.has(m.capacity) ? WW.exact(m.capacity, 'bytes') : null },
			meta.join(' · ')), ' ', el('span', { class: 'muted' }, m.device || '')));
}

const CELLS = { drive: driveCell, health: (m) => WW.verdictEl(m.verdict), endurance: enduranceCell,
	dwpd: dwpdCell, wearout: wearoutCell, temperature: tempCell, power: powerCell,
	latency: latencyCell, state: stateCell };

function matches(m, s) {
	if (s.health && m.verdict.status !== s.health)
		return false;
	if (s.transport && m.transport !== s.transport)
		return false;
	if (s.endurance === 'norating') {
		if (WW.has(m.rated))
			return false;
	} else if (s.endurance) {
		const used = Math.max(m.rated ?? -1, m.own ?? -1);
		if (used * 100 < Number(s.endurance))
			return false;
	}
	if (s.q) {
		const hay = [m.id, m.model, m.serial, m.device, m.slot].join(' ').toLowerCase();
		if (!hay.includes(s.q.toLowerCase()))
			return false;
	}
	return true;
}

function select(name, label, options, value, onchange) {
	const id = 'f-' + name;
	return el('label', { for: id }, label + ' ', el('select', { id, name, onchange },
		options.map(([v, t]) => el('option', { value: v, selected: v === value }, t))));
}

/** Render the overview into `root` and keep it refreshed. */
WW.overview = function (root, opts) {
	const s = query();
	let models = [];
	const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, 'loading…');
	const controls = el('form', { class: 'controls', role: 'search', onsubmit: (e) => e.preventDefault() });
	const thead = el('thead');
	const tbody = el('tbody');
	const table = el('table', { class: 'drives', id: 'drives' }, el('caption', { class: 'sr' }, 'Drives'), thead, tbody);
	const empty = el('p', { class: 'empty', hidden: true });
	root.replaceChildren(el('h1', {}, 'Drives'), controls, status, table, empty);

	const change = (k) => (e) => {
		s[k] = e.target.value;
		saveQuery(s);
		render();
	};

	function buildControls() {
		const rank = Object.fromEntries(models.map((m) => [m.verdict.status, m.verdict.rank]));
		const healths = Object.keys(rank).sort((a, b) => rank[b] - rank[a]);
		const transports = [...new Set(models.map((m) => m.transport))].sort();
		for (const [k, list] of [['health', healths], ['transport', transports]])
			if (s[k] && !list.includes(s[k]))
				list.push(s[k]);
		const sig = JSON.stringify([healths, transports]);
		if (sig === controls.dataset.sig)
			return; /* unchanged: keep the elements, their focus and caret */
		controls.dataset.sig = sig;
		const focused = document.activeElement && document.activeElement.id;
		controls.replaceChildren(
			select('health', 'Health', [['', 'all']].concat(healths.map((h) => [h, h])), s.health, change('health')),
			select('transport', 'Transport', [['', 'all']].concat(transports.map((t) => [t, t])), s.transport, change('transport')),
			select('endurance', 'Endurance', ENDURANCE_FILTERS, s.endurance, change('endurance')),
			el('label', { for: 'f-q' }, 'Search ', el('input', { type: 'search', id: 'f-q', name: 'q', value: s.q,
				placeholder: 'model, serial, id', oninput: change('q') })));
		if (focused && focused.startsWith('f-') && document.getElementById(focused))
			document.getElementById(focused).focus();
	}

	function buildHead() {
		thead.replaceChildren(el('tr', {}, COLS.map((c) => {
			const active = s.sort === c.key;
			return el('th', { scope: 'col', 'aria-sort': active ? (s.dir === 'asc' ? 'ascending' : 'descending') : 'none' },
				el('button', { type: 'button', class: 'sortbtn', dataset: { sort: c.key, focus: 'sort:' + c.key },
					onclick: () => {
						s.dir = s.sort === c.key && s.dir === 'asc' ? 'desc' : 'asc';
						s.sort = c.key;
						saveQuery(s);
						render();
					} }, c.label, el('span', { class: 'arrow', 'aria-hidden': 'true' },
					active ? (s.dir === 'asc' ? ' ▲' : ' ▼') : '')));
		})));
	}

	function render() {
		const focusKey = document.activeElement && document.activeElement.dataset
			? document.activeElement.dataset.focus : null;
		buildHead();
		const col = COLS.find((c) => c.key === s.sort) || COLS[1];
		const rows = models.filter((m) => matches(m, s));
		const dir = s.dir === 'desc' ? -1 : 1;
		rows.sort((a, b) => {
			const x = col.sort(a), y = col.sort(b);
			const c = x < y ? -1 : x > y ? 1 : 0;
			return c * dir || String(a.id).localeCompare(String(b.id));
		});
		tbody.replaceChildren(...rows.map((m) => el('tr', { dataset: { drive: m.id, health: m.verdict.status } },
			COLS.map((c) => el(c.key === 'drive' ? 'th' : 'td', { 'data-label': c.label, class: 'c-' + c.key,
				scope: c.key === 'drive' ? 'row' : null }, CELLS[c.key](m))))));
		empty.hidden = rows.length > 0;
		empty.textContent = models.length ? 'No drive matches these filters.' : 'No drives found. wearwatch lists drives once discovery has run.';
		table.hidden = rows.length === 0;
		if (focusKey) {
			const f = root.querySelector('[data-focus="' + CSS.escape(focusKey) + '"]');
			if (f)
				f.focus();
		}
	}

	async function load() {
		const r = await WW.getJSON('/api/v1/drives');
		if (r.status !== 200 || !Array.isArray(r.body)) {
			status.textContent = 'Cannot read /api/v1/drives (' + (r.status || 'no connection') + '); retrying.';
			status.classList.add('hot');
			return;
		}
		const details = await Promise.all(r.body.map(async (st) => {
			if (st.drive && st.health)
				return st;
			const d = await WW.getJSON(WW.driveApi(st.id));
			return d.status === 200 ? d.body : null;
		}));
		models = r.body.map((st, i) => WW.derive(st, details[i]));
		status.classList.remove('hot');
		status.replaceChildren(models.length + ' drive' + (models.length === 1 ? '' : 's') + ', updated ',
			WW.timeEl(Date.now() / 1000));
		buildControls();
		render();
		document.body.dataset.loaded = String((Number(document.body.dataset.loaded) || 0) + 1);
	}

	load();
	const every = (opts && opts.refresh) || 15;
	return setInterval(() => {
		if (!document.hidden)
			load();
	}, every * 1000);
};
})();
