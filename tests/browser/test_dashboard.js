#!/usr/bin/env node
/* Dashboard test in a real browser: headless Debian chromium driven by
 * playwright-core against `wearwatch serve` on recorded drives
 * (--replay tests/fixtures/captures/*) with a seeded history database.
 *
 * usage: test_dashboard.js WEARWATCH_BINARY SOURCE_DIR ARTIFACT_DIR
 *
 * Expected values come from the service's own JSON API (GET /api/v1/drives,
 * /api/v1/drives/{drive}, .../history): the test checks that the pages show
 * what the API says, for the drives the captures hold (their ids are the
 * capture file names, docs/capture-format.md). Every check that cannot run
 * fails with its reason; nothing is skipped. Screenshots go to ARTIFACT_DIR.
 * TZ and locale are fixed (Europe/Berlin, en-GB) in the service's
 * environment and the browser context. */
'use strict';

const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const [BIN, SRC, ART] = process.argv.slice(2);
/* spawn and fs need absolute paths once the cwd is tests/browser */
if (!BIN || !SRC || !ART) {
	console.error('usage: test_dashboard.js WEARWATCH SOURCE_DIR ARTIFACT_DIR');
	process.exit(2);
}
fs.mkdirSync(ART, { recursive: true });
const TZ = 'Europe/Berlin', LOCALE = 'en-GB';
const { check, tally } = require('./checks.js');
const failures = tally.failures;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
	return new Promise((resolve, reject) => {
		const s = net.createServer();
		s.listen(0, '127.0.0.1', () => {
			const p = s.address().port;
			s.close(() => resolve(p));
		});
		s.on('error', reject);
	});
}

async function getJSON(base, p) {
	const r = await fetch(base + p);
	return { status: r.status, body: await r.json().catch(() => null) };
}

/* docs/health.md "## Scenarios": the rows replayed from tests/fixtures/scenarios
 * (the same parse as tests/service/test_health_scenarios.py) */
function scenarioRows(src) {
	const text = fs.readFileSync(path.join(src, 'docs/health.md'), 'utf8');
	const sec = text.split('## Scenarios')[1].split('\n## ')[0];
	const rows = [];
	for (const line of sec.split('\n')) {
		const c = line.trim().replace(/^\||\|$/g, '').split('|').map((x) => x.trim());
		const m = c.length === 5 && /^`scenarios\/([\w-]+)`/.exec(c[1]);
		if (m)
			rows.push({ name: m[1], status: c[2], reasons: [...c[3].matchAll(/`([a-z0-9_]+)`/g)].map((x) => x[1]).sort() });
	}
	return rows;
}

/* The scenario drives served (first captures; a next/ capture put in place
 * after the first read, as the service test does): the overview shows each
 * row's status and the service's sentence of every reason the table names. */
async function scenarios(browser, errors) {
	const dir = path.join(SRC, 'tests/fixtures/scenarios');
	const rows = scenarioRows(SRC).filter((r) => fs.existsSync(path.join(dir, r.name)));
	check(rows.length >= 25, 'docs/health.md scenario rows to show', String(rows.length));
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ww-scn-'));
	let conf = '';
	const args = ['serve', '--listen', '', '--state-dir', path.join(tmp, 'state'), '--no-probe',
		'--poll-interval', '2', '--poll-interval-rotational', '2', '--web-config', ''];
	for (const r of rows) {
		const cap = fs.readdirSync(path.join(dir, r.name)).find((f) => f.endsWith('.capture'));
		r.served = path.join(tmp, r.name + '.capture');
		fs.copyFileSync(path.join(dir, r.name, cap), r.served);
		r.id = /^fact id (.*)$/m.exec(fs.readFileSync(r.served, 'utf8'))[1];
		const nx = path.join(dir, r.name, 'next', cap);
		r.next = fs.existsSync(nx) ? nx : null;
		const part = path.join(dir, r.name, 'wearwatch.conf.part');
		if (fs.existsSync(part))
			conf += fs.readFileSync(part, 'utf8');
		args.push('--replay', r.served);
	}
	fs.writeFileSync(path.join(tmp, 'wearwatch.conf'), conf);
	args.push('--config', path.join(tmp, 'wearwatch.conf'));
	const port = await freePort();
	const base = 'http://127.0.0.1:' + port;
	args[2] = '127.0.0.1:' + port;
	const srv = spawn(BIN, args, { stdio: ['ignore', 'inherit', 'inherit'] });
	try {
		const api = async () => {
			try {
				const r = await getJSON(base, '/api/v1/drives');
				return Array.isArray(r.body) ? Object.fromEntries(r.body.map((d) => [d.id, d])) : {};
			} catch (e) {
				return {};
			}
		};
		const wait = async (pred) => {
			for (let i = 0; i < 120; i++) {
				const a = await api();
				if (pred(a))
					return a;
				await sleep(250);
			}
			return null;
		};
		const codesOf = (d) => ((d && d.verdict && d.verdict.reasons) || []).map((x) => x.code).sort();
		check(await wait((a) => rows.every((r) => a[r.id] && a[r.id].last_collect && a[r.id].last_collect.timestamp)),
			'scenario drives read once');
		for (const r of rows)
			if (r.next) {
				fs.copyFileSync(r.next, r.served + '.new');
				fs.renameSync(r.served + '.new', r.served);
			}
		const a = await wait((x) => rows.every((r) => JSON.stringify(codesOf(x[r.id])) === JSON.stringify(r.reasons)));
		check(a, 'the API gives every scenario row its reasons');
		if (!a)
			return;
		const page = await browser.newPage();
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(base + '/');
		await page.waitForSelector('body[data-loaded]');
		const shown = await page.$$eval('#drives tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.dataset.drive, {
			health: tr.dataset.health,
			verdict: (tr.querySelector('.c-health') || {}).innerText || '',
			codes: [...tr.querySelectorAll('.c-health li')].map((li) => li.dataset.code).sort(),
			power: (tr.querySelector('.c-power') || {}).innerText || '',
		}])));
		await page.screenshot({ path: path.join(ART, 'scenarios.png'), fullPage: true });
		for (const r of rows) {
			const s = shown[r.id] || {};
			const texts = a[r.id].verdict.reasons.map((x) => x.text);
			check(s.health === r.status && s.verdict.startsWith(r.status) &&
				JSON.stringify(s.codes) === JSON.stringify(r.reasons) && texts.every((t) => s.verdict.includes(t)),
			'dashboard shows ' + r.name + ': ' + r.status + ' with the sentences of ' + (r.reasons.join(', ') || 'no reason'),
			JSON.stringify(s));
		}
		const plp = rows.find((r) => r.name === 'nvme-plp');
		const pr = plp && a[plp.id].verdict.reasons.find((x) => x.code === 'power_loss_protection_failed');
		check(pr && shown[plp.id].power.includes(pr.text) && !shown[plp.id].power.includes('PLP status not reported'),
			'the power-loss cell of a drive with power_loss_protection_failed shows its sentence', plp && shown[plp.id].power);
		await page.close();
	} finally {
		srv.kill('SIGTERM');
		await sleep(300);
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

async function main() {
	const help = execFileSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
	const capDir = path.join(SRC, 'tests/fixtures/captures');
	const caps = fs.existsSync(capDir) ? fs.readdirSync(capDir).map((d) => path.join(capDir, d))
		.filter((d) => fs.statSync(d).isDirectory() || d.endsWith('.capture')) : [];
	const capDirs = [...new Set(caps.map((c) => (c.endsWith('.capture') ? path.dirname(c) : c)))];
	const replay = help.includes('--replay') && capDirs.length > 0;
	check(help.includes('--replay'), 'wearwatch serve has --replay');
	check(capDirs.length > 0, 'recorded drives exist under tests/fixtures/captures',
		'none yet: the overview runs on this machine\'s live drives instead');
	check(help.includes('--state-dir'), 'wearwatch serve has --state-dir (history)');

	const state = fs.mkdtempSync(path.join(os.tmpdir(), 'ww-dash-'));
	const port = await freePort();
	const base = 'http://127.0.0.1:' + port;
	const args = ['serve', '--listen', '127.0.0.1:' + port, '--state-dir', state, '--poll-interval', '5'];
	if (help.includes('--no-probe'))
		args.push('--no-probe');
	if (replay)
		for (const d of capDirs)
			args.push('--replay', d);
	const env = Object.assign({}, process.env, { TZ, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' });
	const srv = spawn(BIN, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
	let exited = null;
	srv.on('exit', (c, s) => (exited = c ?? s));
	let browser = null;
	try {
		/* the service is up and has read every drive once */
		let drives = null;
		for (let i = 0; i < 100 && exited === null; i++) {
			try {
				const r = await getJSON(base, '/api/v1/drives');
				if (r.status === 200 && Array.isArray(r.body) && r.body.length &&
				    r.body.every((d) => d.protocol === 'none' || (d.last_collect && d.last_collect.timestamp)))
					drives = r.body;
			} catch (e) { /* not listening yet */ }
			if (drives)
				break;
			await sleep(200);
		}
		check(drives, 'service lists drives, each read once (or without a health interface)', 'service exit ' + exited);
		if (!drives)
			return;
		if (replay) {
			const want = caps.filter((c) => c.endsWith('.capture')).map((c) => path.basename(c, '.capture'));
			const ids = drives.map((d) => d.id);
			check(want.every((w) => ids.some((i) => i === w || i.includes(w) || w.includes(i))),
				'the service lists the recorded drives', 'captures ' + want.join(',') + ' vs ' + ids.join(','));
		}

		/* seed history now that the service created the database */
		const now = Math.floor(Date.now() / 1000);
		const seeded = JSON.parse(execFileSync('python3', [path.join(__dirname, 'seed_history.py'),
			path.join(state, 'history.db'), String(now)].concat(drives.map((d) => JSON.stringify(d))), { encoding: 'utf8' }));
		check(Object.keys(seeded).length === drives.length, 'history seeded for every drive');

		browser = await chromium.launch({
			executablePath: '/usr/bin/chromium', headless: true,
			args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
				'--disable-background-networking', '--disable-component-update', '--disable-sync'],
			/* launch() always runs on a fresh temporary --user-data-dir of its own
			 * (passing one is refused) and removes it on close */
		});
		const ctx = await browser.newContext({ timezoneId: TZ, locale: LOCALE, viewport: { width: 1400, height: 900 } });
		const page = await ctx.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(e.message));

		/* ---- overview ---- */
		await page.goto(base + '/?refresh=3');
		await page.waitForSelector('body[data-loaded]');
		const rows = await page.$$eval('#drives tbody tr', (trs) => trs.map((tr) => ({
			id: tr.dataset.drive,
			text: tr.innerText,
			temp: (tr.querySelector('.c-temperature .val') || {}).textContent || null,
			transport: (tr.querySelector('.c-drive .tag') || {}).textContent || '',
		})));
		await page.screenshot({ path: path.join(ART, 'overview.png'), fullPage: true });
		check(rows.length === drives.length && drives.every((d) => rows.some((r) => r.id === d.id)),
			'overview has one row per drive', rows.map((r) => r.id).join(','));
		for (const d of drives) {
			const r = rows.find((x) => x.id === d.id);
			if (!r)
				continue;
			const s = d.summary || {};
			if (d.model)
				check(r.text.includes(d.model), 'overview shows model of ' + d.id, d.model);
			if (d.serial)
				check(r.text.includes(d.serial), 'overview shows serial of ' + d.id, d.serial);
			check(r.transport.startsWith(d.transport), 'overview shows transport of ' + d.id, r.transport);
			if (s.temperature_celsius !== undefined)
				check(r.temp === s.temperature_celsius + ' °C', 'overview temperature of ' + d.id, r.temp);
			if (d.standby)
				check(r.text.includes('in standby'), 'overview shows standby of ' + d.id);
			if (d.protocol === 'none')
				check(r.text.includes('no health interface'), 'overview empty state for ' + d.id);
			const v = d.verdict || {};
			check(v.status && r.text.includes(v.status), 'overview verdict of ' + d.id, v.status);
			for (const re of v.reasons || [])
				check(r.text.includes(re.text), 'overview shows the sentence of ' + re.code + ' for ' + d.id, re.text);
		}

		/* ---- sorting: by drive name both ways ---- */
		const names = async () => page.$$eval('#drives tbody tr .drivelink', (a) => a.map((x) => x.textContent.toLowerCase()));
		await page.click('button[data-sort="drive"]');
		const asc = await names();
		await page.click('button[data-sort="drive"]');
		const desc = await names();
		const sorted = [...asc].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		check(JSON.stringify(asc) === JSON.stringify(sorted), 'sort by drive ascending', asc.join(' | '));
		check(JSON.stringify(desc) === JSON.stringify([...sorted].reverse()), 'sort by drive descending', desc.join(' | '));
		check((await page.getAttribute('th:has(button[data-sort="drive"])', 'aria-sort')) === 'descending', 'aria-sort tells the order');
		check(new URL(page.url()).searchParams.get('sort') === 'drive', 'sort kept in the URL');
		/* keyboard: focus the temperature header and press Enter */
		await page.focus('button[data-sort="temperature"]');
		await page.keyboard.press('Enter');
		const temps = await page.$$eval('#drives tbody tr', (trs) => trs.map((tr) => tr.dataset.drive));
		const byTemp = [...drives].sort((a, b) => ((b.summary || {}).temperature_celsius ?? -999) - ((a.summary || {}).temperature_celsius ?? -999) || a.id.localeCompare(b.id)).map((d) => d.id);
		check(JSON.stringify(temps) === JSON.stringify(byTemp), 'sort by temperature (keyboard), hottest first', temps.join(','));

		/* ---- filtering by transport, then by a search that matches nothing ---- */
		const transports = [...new Set(drives.map((d) => d.transport))];
		const t0 = transports[0];
		await page.selectOption('#f-transport', t0);
		const shown = await page.$$eval('#drives tbody tr', (trs) => trs.map((tr) => tr.dataset.drive));
		const want = drives.filter((d) => d.transport === t0).map((d) => d.id).sort();
		check(JSON.stringify([...shown].sort()) === JSON.stringify(want), 'filter by transport ' + t0, shown.join(','));
		/* the filter and the sort survive an auto-refresh (refresh=3 s) */
		const loaded = await page.evaluate(() => Number(document.body.dataset.loaded));
		await page.waitForFunction((n) => Number(document.body.dataset.loaded) > n, loaded, { timeout: 15000 });
		const after = await page.$$eval('#drives tbody tr', (trs) => trs.map((tr) => tr.dataset.drive));
		check(JSON.stringify(after) === JSON.stringify(shown) && (await page.inputValue('#f-transport')) === t0,
			'filter and sort survive an auto-refresh');
		await page.fill('#f-q', 'no-such-drive-zzz');
		check(await page.isVisible('.empty'), 'a search matching nothing shows the empty state');
		await page.fill('#f-q', '');
		await page.selectOption('#f-transport', '');
		await page.screenshot({ path: path.join(ART, 'overview-sorted.png'), fullPage: true });

		/* ---- deep link to each drive page, plots with data points ---- */
		for (const d of drives) {
			const p2 = await ctx.newPage();
			p2.on('pageerror', (e) => errors.push(e.message));
			const resp = await p2.goto(base + '/drives/' + encodeURIComponent(d.id) + '?range=month');
			check(resp.status() === 200 && resp.headers()['content-type'].startsWith('text/html'), 'deep link serves the page for ' + d.id);
			await p2.waitForSelector('body[data-plotted]', { timeout: 20000 });
			const h1 = await p2.textContent('h1');
			const det0 = (await getJSON(base, '/api/v1/drives/' + encodeURIComponent(d.id))).body || {};
			const names = [d.model, det0.drive && det0.drive.sysfs_model, d.id].filter(Boolean);
			check(h1 === names[0], 'drive page title of ' + d.id, h1 + ' vs ' + names[0]);
			const lens = await p2.evaluate(() => Object.fromEntries(Object.entries(window.WW.charts).map(([k, c]) =>
				[k, c.data.datasets.map((ds) => ({ label: ds.label, kind: ds.wwKind, n: ds.data.filter((p) => p.y !== null).length }))])));
			const from = now - 30 * 86400;
			const h = await getJSON(base, '/api/v1/drives/' + encodeURIComponent(d.id) + '/history?metric=temperature_celsius&from=' + from + '&to=' + (now + 60) + '&max_points=400');
			const apiN = h.body && h.body.points ? h.body.points.filter((p) => p[1] !== null).length : -1;
			check(lens.temperature && lens.temperature[0].n > 100, 'temperature plot has points for ' + d.id, JSON.stringify(lens.temperature));
			check(lens.temperature && Math.abs(lens.temperature[0].n - apiN) <= 2, 'temperature plot shows what the history API returns for ' + d.id, (lens.temperature ? lens.temperature[0].n : 'none') + ' vs ' + apiN);
			check(lens.written && lens.written[0].n > 100, 'bytes-written plot has points for ' + d.id, JSON.stringify(lens.written));
			check(lens.used && lens.used[0].n > 100, 'percentage-used plot has points for ' + d.id);
			check(lens.errors && lens.errors[0].n > 100, 'unsafe-shutdown plot has points for ' + d.id);
			check(lens.latency && lens.latency[1].n > 0, 'probe-latency plot has points for ' + d.id,
				'the history database keeps no probe latency (src/history/history.c metrics)');
			const hp = await getJSON(base, '/api/v1/drives/' + encodeURIComponent(d.id) + '/history?metric=probe_latency_p99_seconds&from=' + from + '&to=' + (now + 60) + '&max_points=400');
			const apiP = hp.body && hp.body.points ? hp.body.points.filter((p) => p[1] !== null).length : -1;
			check(lens.latency && apiP > 100 && Math.abs(lens.latency[1].n - apiP) <= 2, 'probe-latency plot shows what the history API returns for ' + d.id, (lens.latency ? lens.latency[1].n : 'none') + ' vs ' + apiP);
			const det = (await getJSON(base, '/api/v1/drives/' + encodeURIComponent(d.id))).body;
			const vals = (det && det.health && det.health.values) || {};
			const shownFields = await p2.$$eval('#f-values tr[data-field]', (trs) => trs.map((t) => t.dataset.field));
			check(Object.keys(vals).every((k) => shownFields.includes(k)), 'every health value listed for ' + d.id,
				Object.keys(vals).filter((k) => !shownFields.includes(k)).join(','));
			/* identity strings stay text: a serial "14000" is not "14,000", a
			 * firmware "0191" not "191" (web/util.js WW.isBigNum) */
			const idn = (det && det.health && det.health.identity) || {};
			const cellText = (sec, f) => p2.$eval('#' + sec + ' tr[data-field="' + f + '"] td[data-label="value"]',
				(td) => td.textContent).catch(() => null);
			for (const [k, v] of Object.entries(idn))
				if (typeof v === 'string' && v)
					check((await cellText('f-identity', k)) === v, 'identity ' + k + ' of ' + d.id + ' shown as the API\'s text', v);
			for (const k of ['sysfs_serial', 'sysfs_model'])
				if (det && det.drive && typeof det.drive[k] === 'string' && det.drive[k])
					check((await cellText('f-drive', k)) === det.drive[k], 'discovery ' + k + ' of ' + d.id + ' shown as text', det.drive[k]);
			if (d.id === 'wwn-0x33333330000036b0') {
				/* the replayed scsi_debug drive: fact sysfs_serial 14000, INQUIRY revision 0191 */
				check(idn.serial === '14000' && (await cellText('f-identity', 'serial')) === '14000',
					'SAS drive serial 14000 shown as 14000', await cellText('f-identity', 'serial'));
				check(idn.firmware === '0191' && (await cellText('f-identity', 'firmware')) === '0191',
					'SAS drive firmware 0191 shown as 0191', await cellText('f-identity', 'firmware'));
				check((await cellText('f-drive', 'sysfs_serial')) === '14000', 'SAS drive discovery serial shown as 14000');
			}
			/* the temperature card names every limit the drive reports: the
			 * SAS drive's reference (trip) temperature, log page 0Dh */
			const tref = vals.temperature_reference_celsius;
			const limits = await p2.$eval('.temp-limits', (e) => e.textContent).catch(() => '');
			if (tref)
				check(limits.includes('reference (trip) ' + tref.value + ' °C') && !limits.includes('not reported'),
					'temperature card shows the reference temperature of ' + d.id, limits);
			const attrs = (det && det.health && det.health.ata && det.health.ata.attributes) || [];
			if (attrs.length)
				check((await p2.$$('#ata-attributes tbody tr')).length === attrs.length, 'ATA attribute table rows for ' + d.id);
			/* range switch: week */
			await p2.click('button[data-range="week"]');
			await p2.waitForSelector('body[data-plotted="week"]');
			const wk = await p2.evaluate(() => window.WW.charts.temperature.data.datasets[0].data.filter((p) => p.y !== null).length);
			check(wk > 0 && wk < lens.temperature[0].n, 'week range plots fewer points than month for ' + d.id, wk + ' vs ' + lens.temperature[0].n);
			await p2.click('button[data-range="month"]');
			await p2.waitForSelector('body[data-plotted="month"]');
			const safe = d.id.replace(/[^A-Za-z0-9._-]/g, '_');
			await p2.screenshot({ path: path.join(ART, 'drive-' + safe + '.png'), fullPage: true });
			await p2.close();
		}
		const missing = await page.goto(base + '/drives/no-such-drive');
		await page.waitForSelector('body[data-loaded="missing"]');
		check(missing.status() === 200 && (await page.textContent('h1')) === 'Unknown drive', 'deep link to an unknown drive shows its empty state');

		/* ---- host name in the header and the title, on every page ---- */
		await page.goto(base + '/');
		await page.waitForFunction(() => document.getElementById('host').textContent !== '');
		check((await page.textContent('#host')) === os.hostname(), 'the header names the host', await page.textContent('#host'));
		check((await page.title()).includes(os.hostname()), 'the title names the host', await page.title());

		/* ---- fleet page without [fleet]: how to enable it ---- */
		await page.goto(base + '/fleet');
		await page.waitForSelector('body[data-loaded="unconfigured"]');
		const setup = await page.textContent('#fleet-setup');
		check(setup.includes('[fleet]') && setup.includes('prometheus = '), 'the fleet page says how to enable it', setup);
		check((await page.title()).startsWith('Fleet · '), 'the fleet page has its title', await page.title());

		/* ---- fleet page on a real Prometheus scraping three replaying hosts ---- */
		await fleetPage(browser, errors);

		/* ---- phone width ---- */
		const phone = await browser.newContext({ timezoneId: TZ, locale: LOCALE, viewport: { width: 390, height: 844 }, isMobile: true });
		const pp = await phone.newPage();
		await pp.goto(base + '/');
		await pp.waitForSelector('body[data-loaded]');
		const overflow = await pp.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
		check(overflow <= 0, 'no horizontal scroll at phone width', overflow + ' px');
		await pp.screenshot({ path: path.join(ART, 'overview-phone.png'), fullPage: true });

		/* ---- docs/health.md scenarios: the verdict's sentences on the page ---- */
		await scenarios(browser, errors);
		/* ---- the fake sysfs tree: a drive with no health interface, a skipped probe ---- */
		await sysfsTree(browser, errors);
		check(errors.length === 0, 'no script errors', errors.join('; '));
	} finally {
		if (browser)
			await browser.close();
		srv.kill('SIGTERM');
		for (let i = 0; i < 50 && exited === null; i++)
			await sleep(100);
		if (exited === null)
			srv.kill('SIGKILL');
		fs.rmSync(state, { recursive: true, force: true });
	}
}

/* `wearwatch serve --sysroot tests/fixtures/sysfs/basic`: the fake tree's
 * drives, read live (their nodes are looked up under the tree, so nothing of
 * this machine is opened): virtio-overlayblk has no health interface, the
 * latency probe skips wwn-0x33333330000007d0 ("open failed": no node in the
 * tree). The drive page says once that the first is not monitored, in the
 * API's sentence, with no empty health card or chart; the probe cards give
 * the API's skip reasons. */
async function sysfsTree(browser, errors) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ww-tree-'));
	const port = await freePort();
	const base = 'http://127.0.0.1:' + port;
	const srv = spawn(BIN, ['serve', '--sysroot', path.join(SRC, 'tests/fixtures/sysfs/basic'),
		'--listen', '127.0.0.1:' + port, '--web-config', '', '--state-dir', path.join(tmp, 'state'),
		'--poll-interval', '2', '--probe-interval', '1'], { stdio: ['ignore', 'ignore', 'inherit'] });
	const NOH = 'virtio-overlayblk', SKIP = 'wwn-0x33333330000007d0';
	try {
		let api = null;
		for (let i = 0; i < 120 && !api; i++) {
			try {
				const r = await getJSON(base, '/api/v1/drives');
				const by = Array.isArray(r.body) ? Object.fromEntries(r.body.map((d) => [d.id, d])) : {};
				if (by[NOH] && by[NOH].probe && by[NOH].probe.skipped && by[SKIP] && by[SKIP].probe && by[SKIP].probe.skipped)
					api = by;
			} catch (e) { /* not listening yet */ }
			if (!api)
				await sleep(250);
		}
		check(api, 'the sysfs tree is served, the probe has looked at its drives');
		if (!api)
			return;
		const reason = (api[NOH].verdict.reasons || []).find((x) => x.code === 'no_health_interface');
		check(reason && api[NOH].no_health_reason, 'the API says ' + NOH + ' is not monitored and why', JSON.stringify(api[NOH].verdict));
		if (!reason)
			return;
		const ctx = await browser.newContext({ timezoneId: TZ, locale: LOCALE, viewport: { width: 1400, height: 900 } });
		const page = await ctx.newPage();
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(base + '/drives/' + NOH);
		await page.waitForSelector('body[data-plotted]');
		const seen = await page.evaluate(() => ({
			banners: [...document.querySelectorAll('.banner')].map((b) => b.textContent),
			cards: [...document.querySelectorAll('.cards .card h2')].map((h) => h.textContent),
			head: document.querySelector('#app > div').innerText,
			body: document.body.innerText,
			historyHidden: document.querySelector('section.history').hidden,
			probe: (document.querySelector('.probe-note') || {}).textContent || '',
		}));
		await page.screenshot({ path: path.join(ART, 'drive-no-health.png'), fullPage: true });
		check(seen.banners.length === 1 && seen.banners[0] === reason.text,
			'one banner with the API\'s sentence for ' + NOH, JSON.stringify(seen.banners));
		check(seen.head.split(api[NOH].no_health_reason).length === 2,
			'the head says why once', seen.head);
		check(JSON.stringify(seen.cards) === JSON.stringify(['Probe latency', 'Drive']),
			'no health cards for a drive that is not monitored', seen.cards.join(', '));
		check(!seen.body.includes('not reported') && !seen.body.includes('No history stored') && seen.historyHidden,
			'no empty figures or charts for ' + NOH);
		check(seen.probe.startsWith('not probed: ' + api[NOH].probe.skipped),
			'probe card of ' + NOH + ' gives the API\'s skip reason', seen.probe);
		await page.goto(base + '/drives/' + SKIP);
		await page.waitForSelector('body[data-loaded]');
		const note = await page.$eval('.probe-note', (e) => e.textContent).catch(() => '');
		check(api[SKIP].probe.skipped === 'open failed' && note.startsWith('not probed: open failed'),
			'probe card of ' + SKIP + ' says "open failed" as the API does', note + ' / ' + api[SKIP].probe.skipped);
		await page.goto(base + '/');
		await page.waitForSelector('body[data-loaded]');
		const cell = await page.$eval('#drives tbody tr[data-drive="' + SKIP + '"] .c-latency', (e) => e.innerText).catch(() => '');
		check(cell.includes('not probed: open failed'), 'overview latency cell of ' + SKIP + ' gives the skip reason', cell);
		await ctx.close();
	} finally {
		srv.kill('SIGTERM');
		await sleep(300);
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

/* tests/prometheus/fleet.py: three `wearwatch serve --replay` hosts (one
 * drive id on two of them) scraped by Debian's prometheus; host A's
 * wearwatch.conf names that Prometheus in [fleet]. Its fleet page must list
 * the target that is down, every warning or critical drive first with its
 * reasons' numbers, and on its page of hosts every drive of the three hosts
 * with its host, sorted by days to wear-out as Prometheus has them. */
async function fleetPage(browser, errors) {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ww-fleet-'));
	const ready = path.join(work, 'ready.json');
	const harness = spawn('python3', [path.join(SRC, 'tests/prometheus/fleet.py'), BIN, SRC,
		path.join(work, 'run'), '--ready', ready], { stdio: ['pipe', 'inherit', 'inherit'] });
	let gone = null;
	harness.on('exit', (c) => (gone = c));
	try {
		for (let i = 0; i < 600 && gone === null && !fs.existsSync(ready); i++)
			await sleep(100);
		check(fs.existsSync(ready), 'fleet harness up (prometheus, three wearwatch hosts)', 'exit ' + gone);
		if (!fs.existsSync(ready))
			return;
		const fl = JSON.parse(fs.readFileSync(ready, 'utf8'));
		const want = [];
		for (const h of Object.values(fl.hosts))
			for (const d of h.drives)
				want.push(h.instance + ' ' + d);
		/* the order Prometheus gives: earliest projected wear-out first */
		const q = encodeURIComponent('min without (basis) (wearwatch_drive_wearout_timestamp_seconds)');
		const wo = (await (await fetch(fl.prometheus + '/api/v1/query?query=' + q)).json()).data.result
			.map((s) => ({ k: s.metric.instance + ' ' + s.metric.drive, t: Number(s.value[1]) }))
			.sort((a, b) => a.t - b.t);
		check(wo.length >= 2, 'Prometheus projects wear-out for some drives', JSON.stringify(wo));

		const ctx = await browser.newContext({ timezoneId: TZ, locale: LOCALE, viewport: { width: 1400, height: 900 } });
		const page = await ctx.newPage();
		page.on('pageerror', (e) => errors.push(e.message));
		const a = fl.hosts.a;
		await page.goto(a.url + '/fleet');
		await page.waitForSelector('#fleet tbody tr', { timeout: 20000 });
		await page.click('button[data-sort="wearout"]');
		const rows = await page.$$eval('#fleet tbody tr', (trs) => trs.map((tr) => ({
			k: tr.dataset.instance + ' ' + tr.dataset.drive, host: tr.querySelector('.c-host').innerText,
			days: tr.querySelector('.c-wearout').innerText, href: tr.querySelector('.drivelink').href })));
		await page.screenshot({ path: path.join(ART, 'fleet.png'), fullPage: true });
		const got = rows.map((r) => r.k);
		check(got.length === want.length && want.every((w) => got.includes(w)),
			'the fleet page lists every drive of the three hosts', got.join(', '));
		check(rows.every((r) => r.host.startsWith(r.k.split(' ')[0].replace(/:\d+$/, ''))),
			'each row names its host', rows.map((r) => r.host).join(' | '));
		check(JSON.stringify(got.slice(0, wo.length)) === JSON.stringify(wo.map((w) => w.k)),
			'sorted by days to wear-out, earliest first', got.join(', '));
		check(rows.slice(wo.length).every((r) => r.days.includes('not projected')),
			'drives without a projection come last');
		const r0 = rows.find((r) => r.k.startsWith(a.instance + ' '));
		check(r0 && r0.href === 'http://' + a.instance + '/drives/' + encodeURIComponent(r0.k.split(' ')[1]),
			"each row links to the drive's page on its host", r0 && r0.href);
		/* first the targets that do not answer, then the drives that need a
		 * look: every warning or critical drive, most severe first, each
		 * reason with its numbers */
		const downRows = await page.$$eval('#fleet-down tbody tr', (trs) => trs.map((tr) => [tr.dataset.instance, tr.innerText]));
		check(downRows.length === 1 && downRows[0][0] === fl.down_instance && downRows[0][1].includes('none in the last day'),
			'the target nothing answers on is listed, with its last good scrape', JSON.stringify(downRows));
		const hq = encodeURIComponent('wearwatch_drive_health_status > 0 < 3');
		const bad = (await (await fetch(fl.prometheus + '/api/v1/query?query=' + hq)).json()).data.result
			.map((x) => x.metric.instance + ' ' + x.metric.drive + ' ' + x.value[1]);
		const prob = await page.$$eval('#fleet-problems tbody tr', (trs) => trs.map((tr) => ({
			k: tr.dataset.instance + ' ' + tr.dataset.drive, health: tr.dataset.health, text: tr.innerText })));
		check(bad.length > 0 && bad.every((b) => prob.some((p) => b.startsWith(p.k + ' '))),
			'every warning or critical drive is in the problem table', prob.map((p) => p.k).join(', '));
		const firstWarn = prob.findIndex((p) => p.health !== 'critical');
		check(firstWarn > 0 && prob.slice(firstWarn).every((p) => p.health !== 'critical'),
			'the problem table lists critical drives first', prob.map((p) => p.health).join(','));
		const pend = prob.find((p) => p.k === fl.hosts.c.instance + ' ata-pending');
		check(pend && pend.text.includes('8 sectors (limit 1)'), "a reason's numbers on the fleet page (8 pending sectors)",
			pend && pend.text);
		const pager = await page.textContent('#fleet-pager');
		check(pager.includes('hosts page 1 of 1 (3 of 3 hosts)'), 'the hosts are paged', pager);
		await page.selectOption('#f-host', fl.hosts.c.addr);
		const onC = await page.$$eval('#fleet tbody tr', (trs) => trs.map((tr) => tr.dataset.instance));
		check(onC.length === fl.hosts.c.drives.length && onC.every((i) => i === fl.hosts.c.instance),
			'filter by host', onC.join(','));
		await page.selectOption('#f-host', '');
		await page.selectOption('#f-health', 'critical');
		const crit = await page.$$eval('#fleet tbody tr', (trs) => trs.map((tr) => tr.dataset.health));
		check(crit.length > 0 && crit.every((h) => h === 'critical'), 'filter by health', crit.join(','));
		await ctx.close();
	} finally {
		harness.stdin.end();
		for (let i = 0; i < 150 && gone === null; i++)
			await sleep(100);
		if (gone === null)
			harness.kill('SIGKILL');
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().then(() => {
	console.log(tally.passed + ' passed, ' + failures.length + ' failed; screenshots in ' + ART);
	if (failures.length) {
		console.log('failures:\n  ' + failures.join('\n  '));
		process.exit(1);
	}
}, (e) => {
	console.error('FAIL ' + (e && e.stack || e));
	process.exit(1);
});
