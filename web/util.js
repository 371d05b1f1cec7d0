/* wearwatch dashboard: DOM, number, unit and time helpers shared by the pages.
 * Numbers from the API may be JSON integers or decimal strings (above int64,
 * see docs/api.md "Numbers"): displays round through Number, the exact text
 * goes into the title attribute (shown on hover). Times are Unix seconds,
 * rendered in the viewer's time zone and locale. */
'use strict';

const WW = (window.WW = window.WW || {});

/** el('a', {href: '/x', class: 'c'}, 'text', child...) -> Element. Strings
 * become text nodes (never HTML); null/undefined/false children are skipped. */
WW.el = function (tag, attrs, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) {
		if (v === null || v === undefined || v === false)
			continue;
		if (k === 'class')
			e.className = v;
		else if (k === 'dataset')
			Object.assign(e.dataset, v);
		else if (k.startsWith('on') && typeof v === 'function')
			e.addEventListener(k.slice(2), v);
		else
			e.setAttribute(k, v === true ? '' : String(v));
	}
	for (const c of kids.flat(Infinity)) {
		if (c === null || c === undefined || c === false)
			continue;
		e.append(c instanceof Node ? c : document.createTextNode(String(c)));
	}
	return e;
};

/** JSON number or decimal string -> Number; anything else -> null. */
WW.num = function (v) {
	if (typeof v === 'number' && Number.isFinite(v))
		return v;
	if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v))
		return Number(v);
	if (v && typeof v === 'object' && 'value' in v)
		return WW.num(v.value);
	return null;
};

WW.has = (v) => v !== null && v !== undefined;

const INT64_MAX = 9223372036854775807n, INT64_MIN = -9223372036854775808n;

/** True for a string the API sends as a number: an integer beyond int64
 * (docs/api.md "Numbers": smaller ones are JSON numbers). Every other string
 * is text, digits or not (a serial "14000", firmware "0191"). */
WW.isBigNum = function (v) {
	if (typeof v !== 'string' || !/^-?[1-9]\d{18,}$/.test(v))
		return false;
	const b = BigInt(v);
	return b > INT64_MAX || b < INT64_MIN;
};

/** The first argument that is not null/undefined. */
WW.first = (...a) => a.find(WW.has);

const group = (n) => {
	try {
		return BigInt(n).toLocaleString();
	} catch (e) {
		return String(n);
	}
};

/** Exact text of a value for title attributes: integers grouped by the
 * viewer's locale (from the exact string when the JSON carried one). */
WW.exact = function (v, unit) {
	if (!WW.has(v))
		return '';
	let s;
	if (typeof v === 'string' && !WW.isBigNum(v))
		s = v; /* text stays text */
	else if (typeof v === 'string')
		s = group(v);
	else if (typeof v === 'number' && Number.isInteger(v))
		s = group(v);
	else
		s = String(v);
	return unit ? s + ' ' + unit : s;
};

const sig = (x, digits) => {
	if (x === 0)
		return '0';
	const a = Math.abs(x);
	const d = a >= 100 ? 0 : a >= 10 ? Math.max(0, digits - 2) : Math.max(0, digits - 1);
	return x.toLocaleString(undefined, { maximumFractionDigits: d, minimumFractionDigits: 0 });
};

/** Bytes in decimal SI units as drive vendors rate them ("1.23 TB"). */
WW.fmtBytes = function (v) {
	let x = WW.num(v);
	if (x === null)
		return '–';
	const u = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB'];
	let i = 0;
	while (Math.abs(x) >= 1000 && i < u.length - 1) {
		x /= 1000;
		i++;
	}
	return sig(x, 3) + ' ' + u[i];
};

/** A duration in seconds as its largest sensible unit ("3.2 years"). */
WW.fmtDuration = function (v) {
	const s = WW.num(v);
	if (s === null)
		return '–';
	const a = Math.abs(s);
	if (a < 120)
		return sig(s, 2) + ' s';
	if (a < 7200)
		return sig(s / 60, 2) + ' min';
	if (a < 2 * 86400)
		return sig(s / 3600, 2) + ' h';
	if (a < 2 * 365.25 * 86400)
		return sig(s / 86400, 3) + ' days';
	return sig(s / (365.25 * 86400), 3) + ' years';
};

/** A latency in seconds as µs/ms/s. */
WW.fmtLatency = function (v) {
	const s = WW.num(v);
	if (s === null)
		return '–';
	if (s < 1e-3)
		return sig(s * 1e6, 3) + ' µs';
	if (s < 1)
		return sig(s * 1e3, 3) + ' ms';
	return sig(s, 3) + ' s';
};

WW.fmtPercent = function (ratio, digits) {
	const r = WW.num(ratio);
	if (r === null)
		return '–';
	return (r * 100).toLocaleString(undefined, { maximumFractionDigits: digits ?? 1 }) + ' %';
};

/** Human text of a value in one of the API's units (docs/api.md). */
WW.fmtUnit = function (v, unit) {
	if (!WW.has(v))
		return '–';
	if (typeof v === 'boolean')
		return v ? 'yes' : 'no';
	if (typeof v === 'string' && !WW.isBigNum(v))
		return v; /* text (a serial, a firmware revision), never a number */
	const n = WW.num(v);
	if (n === null)
		return String(v);
	switch (unit) {
	case 'bytes': return WW.fmtBytes(n);
	case 'seconds': return WW.fmtDuration(n);
	case 'celsius': return sig(n, 3) + ' °C';
	case 'kelvin': return sig(n - 273.15, 3) + ' °C';
	case 'percent': return sig(n, 3) + ' %';
	case 'ratio': return WW.fmtPercent(n, 2);
	case 'rpm': return n === 1 ? 'non-rotating' : group(Math.round(n)) + ' rpm';
	case 'bitfield': return '0x' + Math.round(n).toString(16).padStart(2, '0');
	case 'timestamp': return WW.fmtTime(n);
	default:
		return Number.isInteger(n) ? WW.exact(v) + (unit && unit !== 'count' ? ' ' + unit : '')
			: sig(n, 4) + (unit && unit !== 'count' ? ' ' + unit : '');
	}
};

/** <span title="exact">human</span> */
WW.valueEl = function (v, unit, cls) {
	return WW.el('span', { class: cls || 'val', title: WW.exact(v, unit === 'count' ? '' : unit) },
		WW.fmtUnit(v, unit));
};

const dtf = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dtfFull = new Intl.DateTimeFormat(undefined, {
	dateStyle: 'full', timeStyle: 'long',
});

/** Unix seconds -> local date and time ("Mar 3, 2024, 14:05"). */
WW.fmtTime = function (t) {
	const n = WW.num(t);
	return n === null ? '–' : dtf.format(new Date(n * 1000));
};

WW.fmtAgo = function (t, now) {
	const n = WW.num(t);
	if (n === null)
		return 'never';
	const d = (now ?? Date.now() / 1000) - n;
	if (d < 0)
		return 'in ' + WW.fmtDuration(-d);
	if (d < 5)
		return 'just now';
	return WW.fmtDuration(d) + ' ago';
};

/** <time> with local text, ISO datetime and the full local time plus epoch
 * seconds on hover. `ago` renders "5 min ago" instead of the date. */
WW.timeEl = function (t, ago) {
	const n = WW.num(t);
	if (n === null)
		return WW.el('span', { class: 'muted' }, 'never');
	const d = new Date(n * 1000);
	return WW.el('time', { datetime: d.toISOString(), title: dtfFull.format(d) + ' (' + n + ')' },
		ago ? WW.fmtAgo(n) : WW.fmtTime(n));
};

/** A horizontal bar for a 0..1+ ratio, as role=meter with its own label;
 * reason (a verdict reason about this figure, or null) colours it. */
WW.bar = function (ratio, label, reason) {
	const r = WW.num(ratio);
	const pct = r === null ? 0 : Math.max(0, Math.min(1, r)) * 100;
	const level = WW.sevClass(reason) === 'crit' ? ' crit' : WW.sevClass(reason) === 'hot' ? ' warn' : '';
	return WW.el('div', {
		class: 'bar' + level, role: 'meter', 'aria-label': label,
		'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(pct),
		title: label + ': ' + (r === null ? 'unknown' : (r * 100).toString() + ' %'),
	}, WW.el('span', { class: 'fill', style: 'width:' + pct.toFixed(1) + '%' }));
};

/** fetch JSON: resolves {status, body} (body null when not JSON); network
 * errors resolve status 0. */
WW.getJSON = async function (url) {
	try {
		const r = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
		let body = null;
		try {
			body = await r.json();
		} catch (e) {
			body = null;
		}
		return { status: r.status, body };
	} catch (e) {
		return { status: 0, body: null, error: String(e) };
	}
};

WW.driveHref = (id) => '/drives/' + encodeURIComponent(id);
WW.driveApi = (id) => '/api/v1/drives/' + encodeURIComponent(id);

/** Name -> label: "host_written_bytes" -> "host written bytes". */
WW.label = (k) => String(k).replace(/_/g, ' ');

/** The page title: "TEXT · HOST · wearwatch", the host from GET
 * /api/v1/host (WW.showHost) once it is known. */
WW.title = function (text) {
	WW.titleText = text;
	document.title = [text, WW.host, 'wearwatch'].filter(Boolean).join(' · ');
};

/** Ask the service its host name; put it in the header (#host) and titles. */
WW.showHost = async function () {
	const r = await WW.getJSON('/api/v1/host');
	if (r.status !== 200 || !r.body || !r.body.host)
		return;
	WW.host = r.body.host;
	const h = document.getElementById('host');
	if (h)
		h.textContent = WW.host;
	WW.title(WW.titleText);
};
