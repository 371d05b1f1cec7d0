#!/usr/bin/env node
/* The qualify HTML report in a real browser: headless Debian chromium
 * driven by playwright-core opens ARTIFACT_DIR/qualify.html from disk (the
 * report of a real run made by run_qualify.sh) and checks it against the
 * same run's qualify.json (docs/qualify.md, schema wearwatch-qualify/1):
 * - it loads nothing: every request other than the file itself is counted
 *   and refused, so the page works offline (Chart.js is inside it);
 * - no script error and no console error;
 * - one chart per kind and statistic the JSON has (average, p99, maximum per
 *   second, and latency against IOPS across the load points), one per kind
 *   compared with the old run, one of the preconditioning rounds; every
 *   chart drawn by Chart.js with the JSON's points (per-second rows of each
 *   load point, the rounds' IOPS) and non-blank pixels;
 * - the load points table prints each point's IOPS as the JSON has them.
 * A screenshot of the whole page goes to ARTIFACT_DIR/qualify.png.
 * usage: test_qualify_report.js ARTIFACT_DIR */
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const ART = process.argv[2];
if (!ART) {
	console.error('usage: test_qualify_report.js ARTIFACT_DIR');
	process.exit(2);
}
const html = path.resolve(ART, 'qualify.html');
const R = JSON.parse(fs.readFileSync(path.resolve(ART, 'qualify.json'), 'utf8'));
const { check, tally } = require('./checks.js');
const failures = tally.failures;

(async () => {
	let browser;
	try {
		browser = await chromium.launch({
			executablePath: '/usr/bin/chromium', headless: true,
			args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
		});
		const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
		const external = [], errors = [];
		page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
		page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
		await page.route('**/*', (route) => {
			const u = route.request().url();
			if (u === 'file://' + html)
				return route.continue();
			external.push(u);
			return route.abort();
		});
		await page.goto('file://' + html, { waitUntil: 'load' });
		await page.waitForFunction(() => typeof Chart !== 'undefined' &&
			document.querySelectorAll('#charts canvas').length > 0, null, { timeout: 20000 });

		const kinds = ['read', 'write'].filter((k) => R.points.some((p) => p[k].ios > 0));
		const cmpKinds = R.comparison ? ['read', 'write'].filter((k) =>
			R.comparison.rows.some((r) => r.kind === k)) : [];
		const rounds = R.precondition ? R.precondition.rounds.length : 0;
		check(kinds.length === 2 && cmpKinds.length === 2 && rounds >= 5,
			'the run has reads, writes, a comparison and preconditioning rounds',
			'kinds ' + kinds + ', compared ' + cmpKinds + ', rounds ' + rounds);
		const want = kinds.length * 4 + cmpKinds.length + (rounds ? 1 : 0);
		const charts = await page.evaluate(() =>
			Array.from(document.querySelectorAll('#charts canvas')).map((c) => {
				const ch = Chart.getChart(c);
				const ctx = c.getContext('2d');
				const px = ctx.getImageData(0, 0, c.width, c.height).data;
				let inked = 0;
				for (let i = 3; i < px.length; i += 4)
					if (px[i] !== 0)
						inked++;
				return {
					title: ch ? ch.options.plugins.title.text : null,
					sets: ch ? ch.data.datasets.map((d) => ({ label: d.label, n: d.data.length,
						data: d.data })) : [],
					inked, size: c.width * c.height,
				};
			}));
		check(charts.length === want, 'charts: ' + charts.length + ' (want ' + want + ')',
			charts.map((c) => c.title).join(' | '));
		for (const c of charts)
			check(c.title && c.inked > c.size / 100, 'drawn: ' + c.title,
				c.inked + ' of ' + c.size + ' pixels inked');
		for (const k of kinds)
			for (const key of ['average', 'p99', 'maximum']) {
				const c = charts.find((x) => x.title === k + ': ' + key + ' latency per second');
				const got = c ? c.sets.map((d) => d.label + ' ' + d.n).join(', ') : 'no chart';
				const exp = R.points.map((p) => p.load + ' ' +
					p.per_second.filter((s) => s[k].ios > 0).length).join(', ');
				check(got === exp, k + ' ' + key + ' per second: ' + got, 'JSON: ' + exp);
			}
		for (const k of kinds) {
			const c = charts.find((x) => x.title === k + ': latency against IOPS across the load points');
			const ok = c && c.sets.length === 3 && c.sets.every((d) => d.data.length === R.points.length &&
				d.data.every((v, i) => v.x === R.points[i][k].iops));
			check(ok, k + ' sweep: ' + R.points.length + ' load points at the JSON\'s IOPS');
		}
		if (rounds) {
			const c = charts.find((x) => x.title && x.title.startsWith('preconditioning rounds'));
			const y = R.precondition.rounds.map((r) => r.read.iops + r.write.iops);
			const ok = c && c.sets[0].data.length === y.length &&
				c.sets[0].data.every((v, i) => Math.abs(v - y[i]) < 1e-6);
			check(ok, 'preconditioning rounds: ' + y.length + ' rounds, ' +
				(R.precondition.steady_state.reached ? 'steady state reached' : 'no steady state'),
				c ? c.title : 'no chart');
		}
		const rows = await page.evaluate(() => {
			const h = Array.from(document.querySelectorAll('h2')).find((e) => e.textContent === 'Load points');
			const t = h && h.nextElementSibling;
			return t ? Array.from(t.querySelectorAll('tr')).slice(2).map((tr) =>
				Array.from(tr.children).map((td) => td.textContent)) : [];
		});
		for (const p of R.points) {
			const r = rows.find((x) => x[0] === p.load);
			const got = r ? [r[1], r[9]] : null;
			const exp = [p.read.iops.toFixed(0), p.write.iops.toFixed(0)];
			check(got && got[0] === exp[0] && got[1] === exp[1],
				'load points table ' + p.load + ': IOPS read ' + (got ? got[0] : '-') + ', write ' +
				(got ? got[1] : '-'), 'JSON: ' + exp.join(', '));
		}
		check(external.length === 0, 'offline: no request beyond the file', external.join(' '));
		check(errors.length === 0, 'no script or console error', errors.join(' | '));
		await page.screenshot({ path: path.join(ART, 'qualify.png'), fullPage: true });
	} catch (e) {
		failures.push('exception: ' + (e && e.stack || e));
		console.log('FAIL exception: ' + (e && e.stack || e));
	} finally {
		if (browser)
			await browser.close();
	}
	console.log(tally.passed + ' passed, ' + failures.length + ' failed; screenshot ' +
		path.join(ART, 'qualify.png'));
	process.exit(failures.length ? 1 : 0);
})();
