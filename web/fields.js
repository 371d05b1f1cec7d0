/* wearwatch dashboard: generic tables of every field the API sends, so new
 * fields show up without a page change. A field object
 * {"value":..., "unit":..., "source":...} gives one row with its unit and
 * source; nested objects give dotted names; arrays of objects give a sub-table
 * with one column per key. Units are guessed from name suffixes (_bytes,
 * _seconds, _celsius, _percent, _ratio, _timestamp) where no unit is given. */
'use strict';

(function () {
const WW = window.WW;
const el = WW.el;

const isField = (o) => o && typeof o === 'object' && !Array.isArray(o) && 'value' in o &&
	Object.keys(o).every((k) => ['value', 'unit', 'source', 'saturated', 'label'].includes(k));

/** Unit implied by a field name, or null. */
WW.unitOf = function (name) {
	const n = String(name);
	if (/_bytes$/.test(n))
		return 'bytes';
	if (/_seconds$|_s$/.test(n))
		return 'seconds';
	if (/_celsius$/.test(n))
		return 'celsius';
	if (/_kelvin$/.test(n))
		return 'kelvin';
	if (/_percent$/.test(n))
		return 'percent';
	if (/_ratio$/.test(n))
		return 'ratio';
	if (/(_timestamp|_since|^timestamp|first_seen)$/.test(n))
		return 'timestamp';
	return null;
};

function valueCell(v, unit) {
	if (unit === 'timestamp' && WW.has(WW.num(v)))
		return WW.timeEl(v);
	if (Array.isArray(v))
		return el('span', { class: 'val' }, v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', '));
	if (v && typeof v === 'object')
		return el('code', {}, JSON.stringify(v));
	if (/seconds|latency/.test(unit || '') && WW.num(v) > 0 && WW.num(v) < 1)
		return el('span', { class: 'val', title: WW.exact(v, 's') }, WW.fmtLatency(v));
	return WW.valueEl(v, unit);
}

/** Rows [name, value, unit, source] of an object, flattened. */
function rows(obj, prefix, out) {
	for (const [k, v] of Object.entries(obj || {})) {
		const name = prefix ? prefix + '.' + k : k;
		if (isField(v)) {
			out.push({ name, value: v.value, unit: v.unit || WW.unitOf(k), source: v.source || '',
				saturated: v.saturated });
		} else if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
			out.push({ name, table: v });
		} else if (v && typeof v === 'object' && !Array.isArray(v)) {
			rows(v, name, out);
		} else {
			out.push({ name, value: v, unit: WW.unitOf(k) || (/(^|\.)wearout\./.test(name) ? 'timestamp' : null), source: '' });
		}
	}
	return out;
}

/** Table of an array of objects: one column per key (union, first-seen order). */
WW.arrayTable = function (list, caption) {
	const keys = [];
	for (const o of list)
		for (const k of Object.keys(o))
			if (!keys.includes(k))
				keys.push(k);
	return el('div', { class: 'scroll' }, el('table', { class: 'fields' },
		caption ? el('caption', {}, caption) : null,
		el('thead', {}, el('tr', {}, keys.map((k) => el('th', { scope: 'col' }, WW.label(k))))),
		el('tbody', {}, list.map((o) => el('tr', {}, keys.map((k) => {
			const v = o[k];
			return el('td', { 'data-label': WW.label(k) }, isField(v) ? valueCell(v.value, v.unit)
				: valueCell(v, WW.unitOf(k)));
		}))))));
};

/** A section with a table of every field of `obj` (name, value, unit,
 * source); null when obj is empty. */
WW.fieldsSection = function (title, obj, id) {
	const list = rows(obj, '', []);
	if (!list.length)
		return null;
	const flat = list.filter((r) => !r.table);
	const subs = list.filter((r) => r.table);
	return el('section', { class: 'fields-sec', id, 'aria-labelledby': id + '-h' },
		el('h2', { id: id + '-h' }, title),
		flat.length ? el('div', { class: 'scroll' }, el('table', { class: 'fields' },
			el('thead', {}, el('tr', {}, ['Field', 'Value', 'Unit', 'Source'].map((h) => el('th', { scope: 'col' }, h)))),
			el('tbody', {}, flat.map((r) => el('tr', { dataset: { field: r.name } },
				el('th', { scope: 'row' }, WW.label(r.name)),
				el('td', { 'data-label': 'value' }, valueCell(r.value, r.unit),
					r.saturated ? el('span', { class: 'hot', title: 'the wire value did not fit in 64 bits' }, ' (saturated)') : null),
				el('td', { 'data-label': 'unit' }, r.unit || ''),
				el('td', { 'data-label': 'source', class: 'src' }, r.source || '')))))) : null,
		subs.map((r) => el('div', { class: 'sub' }, el('h3', {}, WW.label(r.name)), WW.arrayTable(r.table))));
};

/** The ATA SMART attribute table: id, name, normalised value / worst /
 * threshold, raw (exact), flags; a row the verdict has a reason about (m's
 * reasons naming the attribute) is highlighted with that reason. */
WW.ataTable = function (attrs, m) {
	if (!Array.isArray(attrs) || !attrs.length)
		return null;
	const known = ['id', 'name', 'value', 'worst', 'threshold', 'raw', 'flags', 'raw_bytes'];
	const extra = [];
	for (const a of attrs)
		for (const k of Object.keys(a))
			if (!known.includes(k) && !extra.includes(k))
				extra.push(k);
	const hex = (v) => (WW.has(WW.num(v)) ? '0x' + WW.num(v).toString(16).padStart(4, '0') : String(v ?? ''));
	return el('section', { class: 'fields-sec', id: 'ata-attributes', 'aria-labelledby': 'ata-attributes-h' },
		el('h2', { id: 'ata-attributes-h' }, 'ATA SMART attributes'),
		el('div', { class: 'scroll' }, el('table', { class: 'fields ata' },
			el('thead', {}, el('tr', {}, ['ID', 'Name', 'Value', 'Worst', 'Threshold', 'Raw', 'Flags', 'Raw bytes']
				.concat(extra.map(WW.label)).map((h) => el('th', { scope: 'col' }, h)))),
			el('tbody', {}, attrs.map((a) => {
				const why = m ? m.verdict.reasons.filter((r) => WW.num(r.attribute) === WW.num(a.id)) : [];
				return el('tr', { class: why.length ? 'failing' : '', title: why.map((r) => r.text).join('\n') || null,
					dataset: { attr: a.id } },
					el('td', { 'data-label': 'ID' }, String(a.id)),
					el('th', { scope: 'row' }, a.name || ''),
					el('td', { 'data-label': 'Value' }, String(a.value ?? '')),
					el('td', { 'data-label': 'Worst' }, String(a.worst ?? '')),
					el('td', { 'data-label': 'Threshold' }, WW.has(a.threshold) ? String(a.threshold) : el('span', { class: 'muted' }, 'not read')),
					el('td', { 'data-label': 'Raw' }, WW.valueEl(a.raw, 'count')),
					el('td', { 'data-label': 'Flags' }, el('code', {}, hex(a.flags))),
					el('td', { 'data-label': 'Raw bytes' }, el('code', {}, a.raw_bytes || '')),
					extra.map((k) => el('td', { 'data-label': WW.label(k) }, valueCell(a[k], WW.unitOf(k)))));
			})))),
		el('p', { class: 'small' }, 'Source: SMART READ DATA / SMART READ THRESHOLDS; a row the health verdict names is highlighted.'));
};
})();
