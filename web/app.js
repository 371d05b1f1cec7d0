/* wearwatch dashboard: picks the page from the path. The service serves this
 * same document for /, /fleet and /drives/{drive} (deep links); everything
 * else comes from the JSON API. ?refresh=SECONDS changes the auto-refresh
 * period. The header and the title name the host. */
'use strict';

(function () {
const WW = window.WW;
const root = document.getElementById('app');
const q = new URLSearchParams(location.search);
const refresh = Math.max(2, Number(q.get('refresh')) || 0) || undefined;
const m = location.pathname.match(/^\/drives\/([^/]+)$/);

if (!window.Chart)
	root.prepend(WW.el('p', { class: 'banner warn' }, 'Chart.js did not load; plots are unavailable.'));
WW.showHost();
if (m)
	WW.drivePage(root, decodeURIComponent(m[1]), { refresh });
else if (location.pathname === '/fleet')
	WW.fleetPage(root, { refresh });
else {
	WW.title('Drives');
	WW.overview(root, { refresh });
}
})();
