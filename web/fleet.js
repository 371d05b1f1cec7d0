/* wearwatch dashboard: the fleet page, from GET /api/v1/fleet: the web side
 * asks Prometheus a fixed set of bounded queries (src/http/fleet.c) and
 * passes the answers on; this page joins them on (instance, job, drive) and
 * shows the values as they are. First the targets that do not answer, then
 * the drives that need a look (verdict warning or critical, and those first
 * in endurance used and in projected wear-out), then every drive of one page
 * of hosts. The verdict is each host's wearwatch_drive_health_status and its
 * reasons' numbers wearwatch_drive_health_reason_value: the page decides
 * nothing. Sort, filters and the page live in the URL query like the
 * overview's; each row links to the drive's page on its own host. */
'use strict';

(function () {
const WW = window.WW;
const el = WW.el;
const DAY = 86400;

/* wearwatch_drive_health_status values (docs/metrics.md) */
/* wearwatch_drive_health_status as docs/metrics.md encodes it: the word and
 * the display rank the JSON API gives the same verdict (verdict.rank) */
const HEALTH = { 0: ['ok', 0], 1: ['warning', 2], 2: ['critical', 3], 3: ['unknown', 1] };

const COLS = [
	{ key: 'host', label: 'Host', sort: (r) => r.host + ' ' + r.instance },
	{ key: 'drive', label: 'Drive', sort: (r) => (r.model + ' ' + r.drive).toLowerCase() },
	{ key: 'health', label: 'Health', sort: (r) => -r.rank },
	{ key: 'endurance', label: 'Endurance used', sort: (r) => -(WW.first(r.rated, r.own) ?? -1) },
	{ key: 'wearout', label: 'Days to wear-out', sort: (r) => r.days ?? Infinity },
	{ key: 'warranty', label: 'Wear-out vs warranty', sort: (r) => r.margin ?? Infinity },
	{ key: 'temperature', label: 'Temperature', sort: (r) => -(r.temp ?? -999) },
];

const key = (m) => [m.instance, m.job, m.drive].join('\u0000');
const hostOf = (instance) => String(instance || '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');

/** The rows of one set of answers (body.queries.problems or .page): one per
 * (instance, job, drive) that has a wearwatch_drive_info series. */
WW.fleetRows = function (q, now) {
	q = q || {};
	const rows = new Map();
	for (const s of q.info || [])
		rows.set(key(s.metric), {
			instance: s.metric.instance, job: s.metric.job, drive: s.metric.drive,
			host: hostOf(s.metric.instance), model: s.metric.model || '', serial: s.metric.serial || '',
			transport: s.metric.transport || '', reasons: [], nums: {},
		});
	const each = (name, fn) => {
		for (const s of q[name] || []) {
			const r = rows.get(key(s.metric));
			if (r)
				fn(r, Number(s.value[1]), s.metric);
		}
	};
	each('health', (r, v) => { r.status = v; });
	each('reasons', (r, v, m) => { if (v) r.reasons.push(m.reason); });
	each('reason_values', (r, v, m) => {
		(r.nums[m.reason] = r.nums[m.reason] || { unit: m.unit || '' })[m.kind] = v;
	});
	each('rated_used', (r, v) => { r.rated = v; });
	each('own_used', (r, v) => { r.own = v; });
	each('wearout', (r, v) => { r.wearout = v; });
	each('warranty_end', (r, v) => { r.warrantyEnd = v; });
	each('temperature', (r, v) => { r.temp = v; });
	each('present', (r, v) => { r.present = v; });
	for (const r of rows.values()) {
		r.health = WW.has(r.status) && HEALTH[r.status] ? HEALTH[r.status][0] : 'not reported';
		r.rank = WW.has(r.status) && HEALTH[r.status] ? HEALTH[r.status][1] : 1;
		r.days = WW.has(r.wearout) ? (r.wearout - now) / DAY : null;
		r.margin = WW.has(r.wearout) && WW.has(r.warrantyEnd) ? (r.wearout - r.warrantyEnd) / DAY : null;
		r.reasons.sort();
	}
	return [...rows.values()];
};

/** A reason with its numbers as the verdict gives them: "pending sectors:
 * 8 sectors (limit 1)", ", up from 2" after a rise. */
WW.fleetReason = function (code, n) {
	if (!n || !WW.has(n.value))
		return WW.label(code);
	const u = n.unit ? ' ' + n.unit : '';
	return WW.label(code) + ': ' + n.value.toLocaleString() + u +
		(WW.has(n.previous) ? ', up from ' + n.previous.toLocaleString() : '') +
		(WW.has(n.limit) ? ' (limit ' + n.limit.toLocaleString() + ')' : '');
};

function query() {
	const q = new URLSearchParams(location.search);
	return { sort: q.get('sort') || 'health', dir: q.get('dir') === 'desc' ? 'desc' : 'asc',
		host: q.get('host') || '', model: q.get('model') || '', health: q.get('health') || '',
		page: q.get('page') || '' };
}

function saveQuery(s) {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(s))
		if (v && !(k === 'sort' && v === 'health') && !(k === 'dir' && v === 'asc') &&
			!(k === 'page' && v === '1'))
			q.set(k, v);
	const qs = q.toString();
	history.replaceState(null, '', location.pathname + (qs ? '?' + qs : ''));
}

const days = (d) => Math.round(d).toLocaleString() + ' days';

const CELLS = {
	host: (r) => el('div', {}, r.host, el('div', { class: 'small' }, r.instance + (r.job ? ' · ' + r.job : ''))),
	drive: (r) => el('div', {},
		el('a', { class: 'drivelink', href: location.protocol + '//' + r.instance + WW.driveHref(r.drive),
			title: 'this drive on ' + r.instance }, r.model || r.drive),
		el('div', { class: 'small' }, r.serial ? 'S/N ' + r.serial : 'no serial'),
		el('div', { class: 'small muted' }, r.drive)),
	health: (r) => el('div', { class: 'verdict' },
		el('span', { class: 'badge sev' + r.rank }, r.health),
		r.present === 0 ? el('div', { class: 'small hot' }, 'not present') : null,
		r.reasons.length ? el('ul', { class: 'reasons' },
			r.reasons.map((x) => el('li', {}, WW.fleetReason(x, r.nums[x])))) : null),
	endurance: (r) => [
		WW.has(r.rated) ? el('div', { class: 'barrow' }, el('span', { class: 'barlabel' }, 'rated'),
			WW.bar(r.rated, 'rated endurance used'), el('span', { class: 'barval' }, WW.fmtPercent(r.rated))) : null,
		WW.has(r.own) ? el('div', { class: 'barrow' }, el('span', { class: 'barlabel' }, 'drive'),
			WW.bar(r.own, "drive's own endurance used"), el('span', { class: 'barval' }, WW.fmtPercent(r.own))) : null,
		!WW.has(r.rated) && !WW.has(r.own) ? el('span', { class: 'muted' }, 'not reported') : null],
	wearout: (r) => WW.has(r.days)
		? el('div', {}, el('span', { class: r.days < 90 ? 'crit' : '', title: WW.fmtTime(r.wearout) }, days(r.days)),
			el('div', { class: 'small' }, WW.timeEl(r.wearout)))
		: el('span', { class: 'muted' }, 'not projected'),
	warranty: (r) => WW.has(r.margin)
		? el('span', { class: r.margin < 0 ? 'hot' : '' },
			r.margin < 0 ? days(-r.margin) + ' before its end' : days(r.margin) + ' after its end')
		: el('span', { class: 'muted' }, WW.has(r.warrantyEnd) ? 'wear-out not projected' : 'warranty unknown'),
	temperature: (r) => WW.has(r.temp) ? el('span', { class: 'val' }, r.temp + ' °C') : el('span', { class: 'muted' }, '–'),
};

function select(name, label, values, value, onchange) {
	const id = 'f-' + name;
	return el('label', { for: id }, label + ' ', el('select', { id, name, onchange },
		[['', 'all']].concat(values.map((v) => [v, v])).map(([v, t]) =>
			el('option', { value: v, selected: v === value }, t))));
}

function notConfigured(root) {
	root.replaceChildren(el('h1', {}, 'Fleet'), el('div', { class: 'banner', id: 'fleet-setup' },
		el('p', {}, 'The fleet page shows the drives of every host your Prometheus scrapes. ',
			'This wearwatch does not know where Prometheus is yet.'),
		el('p', {}, 'Add to the configuration file (/etc/wearwatch/wearwatch.conf, or the one ' +
			'given with --config):'),
		el('pre', {}, '[fleet]\nprometheus = http://prometheus.example.net:9090\n' +
			'# when it needs credentials:\n#basic_auth_user = wearwatch\n' +
			'#basic_auth_password_file = /etc/wearwatch/prometheus.password\n' +
			'#bearer_token_file = /etc/wearwatch/prometheus.token'),
		el('p', {}, 'then reload: systemctl reload wearwatch-web, or SIGHUP to wearwatch serve. ',
			'Only wearwatch itself talks to Prometheus, with a fixed set of queries; see wearwatch.conf(5).')));
	document.body.dataset.loaded = 'unconfigured';
}

function sortRows(list, s) {
	const col = COLS.find((c) => c.key === s.sort) || COLS[2];
	const dir = s.dir === 'desc' ? -1 : 1;
	return list.sort((a, b) => {
		const x = col.sort(a), y = col.sort(b);
		return (x < y ? -1 : x > y ? 1 : 0) * dir || key(a).localeCompare(key(b));
	});
}

function rowsEl(list) {
	return list.map((r) => el('tr', { dataset: { drive: r.drive, instance: r.instance, health: r.health } },
		COLS.map((c) => el(c.key === 'host' ? 'th' : 'td', { 'data-label': c.label, class: 'c-' + c.key,
			scope: c.key === 'host' ? 'row' : null }, CELLS[c.key](r)))));
}

/** Render the fleet page into `root` and keep it refreshed. */
WW.fleetPage = function (root, opts) {
	const s = query();
	let rows = [], problems = [];
	const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, 'loading…');
	const errors = el('div');
	const down = el('section', { id: 'fleet-down', hidden: true });
	const probHead = el('h2', {}, 'Needs a look');
	const probNote = el('p', { class: 'small muted' });
	const probBody = el('tbody');
	const probTable = el('table', { class: 'drives', id: 'fleet-problems' },
		el('caption', { class: 'sr' }, 'Drives that need a look'), el('thead'), probBody);
	const probEmpty = el('p', { class: 'empty', hidden: true }, 'No drive is warning or critical.');
	const controls = el('form', { class: 'controls', role: 'search', onsubmit: (e) => e.preventDefault() });
	const pager = el('nav', { class: 'controls', 'aria-label': 'pages of hosts', id: 'fleet-pager' });
	const thead = el('thead');
	const tbody = el('tbody');
	const table = el('table', { class: 'drives', id: 'fleet' }, el('caption', { class: 'sr' }, 'Drives of the fleet'), thead, tbody);
	const empty = el('p', { class: 'empty', hidden: true });
	WW.title('Fleet');
	root.replaceChildren(el('h1', {}, 'Fleet'), status, errors, down, probHead, probNote, probTable, probEmpty,
		el('h2', { id: 'fleet-hosts' }, 'Drives by host'), pager, controls, table, empty);

	const change = (k) => (e) => {
		s[k] = e.target.value;
		saveQuery(s);
		render();
	};

	function buildControls() {
		const uniq = (f) => [...new Set(rows.map(f).filter(Boolean))].sort();
		const lists = { host: uniq((r) => r.host), model: uniq((r) => r.model), health: uniq((r) => r.health) };
		for (const k of Object.keys(lists))
			if (s[k] && !lists[k].includes(s[k]))
				lists[k].push(s[k]);
		const sig = JSON.stringify(lists);
		if (sig === controls.dataset.sig)
			return;
		controls.dataset.sig = sig;
		controls.replaceChildren(select('host', 'Host', lists.host, s.host, change('host')),
			select('model', 'Model', lists.model, s.model, change('model')),
			select('health', 'Health', lists.health, s.health, change('health')));
	}

	function buildPager(body) {
		const page = WW.num(body.page) || 0, pages = WW.num(body.pages) || 1;
		const go = (p) => () => {
			s.page = String(p);
			saveQuery(s);
			load();
		};
		const hostsOn = (body.page_hosts || []).length;
		pager.replaceChildren(
			el('button', { type: 'button', disabled: page <= 1, onclick: go(page - 1) }, '◀ previous'),
			el('span', { class: 'small' }, ' hosts page ' + page + ' of ' + pages + ' (' + hostsOn + ' of ' +
				(WW.has(body.hosts_total) ? body.hosts_total : '?') + ' hosts) '),
			el('button', { type: 'button', disabled: page >= pages, onclick: go(page + 1) }, 'next ▶'));
	}

	function buildDown(body, now) {
		const q = body.queries || {};
		const list = (q.down || []).map((x) => ({ instance: x.metric.instance, job: x.metric.job, last: Number(x.value[1]) }));
		const total = WW.num(((q.down_total || [])[0] || { value: [0, '0'] }).value[1]) || list.length;
		down.hidden = list.length === 0;
		down.replaceChildren(el('h2', {}, 'Targets not answering'),
			el('p', { class: 'small muted' }, total + ' wearwatch target' + (total === 1 ? '' : 's') +
				' Prometheus cannot scrape now' + (total > list.length ? ' (the ' + list.length + ' lost most recently shown)' : '') +
				'; their drives are not watched.'),
			el('table', { class: 'drives' }, el('thead', {}, el('tr', {}, ['Host', 'Job', 'Last good scrape'].map((t) => el('th', { scope: 'col' }, t)))),
				el('tbody', {}, list.map((d) => el('tr', { dataset: { instance: d.instance } },
					el('th', { scope: 'row' }, hostOf(d.instance), el('div', { class: 'small' }, d.instance)),
					el('td', {}, d.job || ''),
					el('td', { class: 'hot' }, d.last > 0 ? [WW.timeEl(d.last), el('div', { class: 'small' }, days((now - d.last) / DAY) + ' ago')] :
						'none in the last day'))))));
	}

	function render() {
		thead.replaceChildren(el('tr', {}, COLS.map((c) => {
			const active = s.sort === c.key;
			return el('th', { scope: 'col', 'aria-sort': active ? (s.dir === 'asc' ? 'ascending' : 'descending') : 'none' },
				el('button', { type: 'button', class: 'sortbtn', dataset: { sort: c.key },
					onclick: () => {
						s.dir = s.sort === c.key && s.dir === 'asc' ? 'desc' : 'asc';
						s.sort = c.key;
						saveQuery(s);
						render();
					} }, c.label, el('span', { class: 'arrow', 'aria-hidden': 'true' },
					active ? (s.dir === 'asc' ? ' ▲' : ' ▼') : '')));
		})));
		probTable.tHead.replaceChildren(el('tr', {}, COLS.map((c) => el('th', { scope: 'col' }, c.label))));
		/* most severe first, then the soonest wear-out */
		probBody.replaceChildren(...rowsEl(sortRows(problems.slice(), { sort: 'health', dir: 'asc' })));
		probTable.hidden = problems.length === 0;
		probEmpty.hidden = problems.length > 0;
		const shown = sortRows(rows.filter((r) => (!s.host || r.host === s.host) && (!s.model || r.model === s.model) &&
			(!s.health || r.health === s.health)), s);
		tbody.replaceChildren(...rowsEl(shown));
		empty.hidden = shown.length > 0;
		empty.textContent = rows.length ? 'No drive matches these filters.' : 'Prometheus has no wearwatch drives.';
		table.hidden = shown.length === 0;
	}

	async function load() {
		const r = await WW.getJSON('/api/v1/fleet' + (s.page && s.page !== '1' ? '?page=' + encodeURIComponent(s.page) : ''));
		if (r.status === 200 && r.body && r.body.configured === false)
			return notConfigured(root);
		const body = r.body || {};
		errors.replaceChildren(...(body.errors || []).map((e) => el('p', { class: 'banner warn' }, 'Prometheus: ' + e)));
		if (r.status !== 200 || !body.queries) {
			status.textContent = 'Cannot read the fleet from ' + (body.prometheus || 'Prometheus') + ' (' +
				(r.status || 'no connection') + '); retrying.';
			status.classList.add('hot');
			return;
		}
		const now = WW.num(body.time) ?? Date.now() / 1000;
		const q = body.queries;
		rows = WW.fleetRows(q.page, now);
		/* the problem set holds the verdict's warning and critical drives
		 * and the first ones by endurance and wear-out: shown when they
		 * need a look (the others are on their host's page) */
		problems = WW.fleetRows(q.problems, now).filter((x) => x.status === 1 || x.status === 2 ||
			(WW.has(x.days) && x.days < 365) || WW.first(x.rated, x.own) >= 0.8);
		const lim = body.limits || {};
		probNote.textContent = 'Verdict warning or critical (up to ' + (lim.problems || '?') + ', most severe first), ' +
			'and of the ' + (lim.top || '?') + ' drives first in endurance used and in projected wear-out those at 80 % ' +
			'or more, or wearing out within a year.';
		const total = WW.num(((q.drives_total || [])[0] || { value: [0, '0'] }).value[1]) || 0;
		const counts = {};
		for (const x of q.health_counts || [])
			counts[(HEALTH[x.metric.status] || ['not reported'])[0]] = Number(x.value[1]);
		status.classList.remove('hot');
		status.replaceChildren(total.toLocaleString() + ' drives on ' + (WW.has(body.hosts_total) ? body.hosts_total.toLocaleString() : '?') +
			' host' + (body.hosts_total === 1 ? '' : 's') + ' (' +
			['critical', 'warning', 'unknown', 'ok'].filter((k) => counts[k]).map((k) => counts[k].toLocaleString() + ' ' + k).join(', ') +
			') from ' + body.prometheus + ', updated ', WW.timeEl(now));
		buildDown(body, now);
		buildPager(body);
		buildControls();
		render();
		document.body.dataset.loaded = String((Number(document.body.dataset.loaded) || 0) + 1);
	}

	load();
	const every = (opts && opts.refresh) || 30;
	return setInterval(() => {
		if (!document.hidden && document.body.dataset.loaded !== 'unconfigured')
			load();
	}, every * 1000);
};
})();
