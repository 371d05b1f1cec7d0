/* wearwatch dashboard: history plots with Chart.js 3.9 (Debian's
 * libjs-chart.js, embedded). Debian packages no date adapter for Chart.js, so
 * the x axis is linear in Unix seconds with our own tick labels in the
 * viewer's time zone. Points come from GET /api/v1/drives/{drive}/history as
 * [time, value, segment]; a segment change (counter went backwards) breaks
 * the line. Every chart made is kept in WW.charts by name (the browser tests
 * read the data lengths from there). */
'use strict';

(function () {
const WW = window.WW;
WW.charts = WW.charts || {};

const COLORS = ['#1f6feb', '#d1242f', '#8250df', '#1a7f37', '#bc4c00', '#0550ae'];

/** Tick label for epoch seconds t on an axis spanning `span` seconds. */
function tickLabel(t, span) {
	const d = new Date(t * 1000);
	if (span <= 2 * 86400)
		return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
	if (span <= 120 * 86400)
		return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
	return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short' });
}

/** History points -> Chart.js {x, y} with a null point at every segment
 * change so no line is drawn across it. */
WW.toXY = function (points) {
	const out = [];
	let seg = null;
	for (const p of points || []) {
		const t = WW.num(p[0]);
		const v = WW.num(p[1]);
		if (t === null)
			continue;
		if (seg !== null && WW.has(p[2]) && p[2] !== seg)
			out.push({ x: t, y: null });
		seg = WW.has(p[2]) ? p[2] : seg;
		out.push({ x: t, y: v, exact: p[1] });
	}
	return out;
};

/** Number of real points (not segment breaks) in an {x, y} list. */
WW.countPoints = (xy) => xy.filter((p) => p.y !== null).length;

/** Make (or replace) chart `name` on canvas. spec: {from, to, yFormat(v),
 * yExact(v), lines: [{label, data: [{x, y}], dash, color, fill, step}],
 * hlines: [{label, y, color}], yMin} */
WW.lineChart = function (name, canvas, spec) {
	if (WW.charts[name])
		WW.charts[name].destroy();
	const span = Math.max(1, spec.to - spec.from);
	const datasets = spec.lines.map((l, i) => ({
		label: l.label, data: l.data, borderColor: l.color || COLORS[i % COLORS.length],
		backgroundColor: (l.color || COLORS[i % COLORS.length]) + '33',
		borderDash: l.dash ? [6, 4] : [], pointRadius: l.data.length > 60 ? 0 : 2, pointHitRadius: 6,
		borderWidth: 2, fill: !!l.fill, stepped: !!l.step, spanGaps: false, tension: 0,
		wwKind: l.kind || 'data',
	}));
	for (const h of spec.hlines || [])
		datasets.push({ label: h.label, data: [{ x: spec.from, y: h.y }, { x: spec.to, y: h.y }],
			borderColor: h.color || '#999', borderDash: [2, 3], borderWidth: 1.5, pointRadius: 0,
			fill: false, wwKind: 'limit' });
	const yf = spec.yFormat || ((v) => String(v));
	const chart = new window.Chart(canvas, {
		type: 'line',
		data: { datasets },
		options: {
			animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
			normalized: true,
			interaction: { mode: 'nearest', axis: 'x', intersect: false },
			scales: {
				x: { type: 'linear', min: spec.from, max: spec.xMax || spec.to,
					ticks: { maxTicksLimit: 7, callback: (v) => tickLabel(v, span) } },
				y: { type: 'linear', beginAtZero: spec.yMin === 0, suggestedMin: spec.yMin,
					ticks: { maxTicksLimit: 6, callback: (v) => yf(v) } },
			},
			plugins: {
				legend: { position: 'bottom', labels: { boxWidth: 14 } },
				tooltip: { callbacks: {
					title: (items) => items.length ? WW.fmtTime(items[0].parsed.x) : '',
					label: (it) => it.dataset.label + ': ' + yf(it.parsed.y) +
						(it.raw && WW.has(it.raw.exact) && spec.yExact ? ' (' + spec.yExact(it.raw.exact) + ')' : ''),
				} },
			},
		},
	});
	WW.charts[name] = chart;
	return chart;
};

/** Straight-line projection of a counter from the last segment's first to
 * its last point, carried on to `until`; [] when it cannot be made. */
WW.project = function (xy, until) {
	const pts = [];
	for (let i = xy.length - 1; i >= 0 && xy[i].y !== null; i--)
		pts.unshift(xy[i]);
	if (pts.length < 2)
		return [];
	const a = pts[0], b = pts[pts.length - 1];
	if (b.x <= a.x || b.y < a.y || until <= b.x)
		return [];
	const rate = (b.y - a.y) / (b.x - a.x);
	return [{ x: b.x, y: b.y }, { x: until, y: b.y + rate * (until - b.x) }];
};
})();
