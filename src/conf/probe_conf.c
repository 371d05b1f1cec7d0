/* [drive NAME] probe = ... (see probe_conf.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "wearwatch/conf.h"

/* not formatted: the probe keys two to a row, as the flags' names read */
/* clang-format off */
static const struct { const char *key; int code; } keys[] = {
	{ "interval", WW_OPT_PROBE_INTERVAL }, { "count", WW_OPT_PROBE_COUNT },
	{ "bs", WW_OPT_PROBE_BS },             { "qd", WW_OPT_PROBE_QD },
	{ "max-iops", WW_OPT_PROBE_IOPS },     { "busy-inflight", WW_OPT_PROBE_BUSY },
	{ "rotational", WW_OPT_PROBE_ROT },    { "window", WW_OPT_PROBE_WINDOW },
	{ "drift-interval", WW_OPT_PROBE_DRIFT_INTERVAL },
	{ "drift-seconds", WW_OPT_PROBE_DRIFT_SECONDS },
	{ "drift-qd", WW_OPT_PROBE_DRIFT_QD },
};
/* clang-format on */

int ww_probe_policy_parse(ww_probe_policy_t *p, const char *spec, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;
	ww_probe_policy_t t = *p;

	if (!spec || strlen(spec) >= sizeof(buf) || !*spec) {
		snprintf(err, errlen, "expected off, on or KEY=VALUE[,KEY=VALUE...]");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		char *eq = strchr(tok, '=');
		size_t i;

		if (!eq) {
			if (!strcasecmp(tok, "off") || !strcasecmp(tok, "no"))
				t.enabled = false;
			else if (!strcasecmp(tok, "on") || !strcasecmp(tok, "yes"))
				t.enabled = true;
			else
				goto bad;
			continue;
		}
		*eq = 0;
		for (char *u = tok; *u; u++) /* max_iops as well as max-iops */
			if (*u == '_')
				*u = '-';
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(tok, keys[i].key))
				break;
		if (i == sizeof(keys) / sizeof(keys[0])) {
			snprintf(err, errlen,
				 "unknown probe key '%s' (interval, count, bs, qd, "
				 "max-iops, busy-inflight, rotational, window, drift-interval, "
				 "drift-seconds, drift-qd)",
				 tok);
			return -EINVAL;
		}
		/* the flags' own checks */
		int rc = ww_probe_serve_opt(keys[i].code, eq + 1, &t);

		if (rc) {
			snprintf(err, errlen, "probe %s: invalid value '%s'", tok, eq + 1);
			return -EINVAL;
		}
		t.enabled = true;
	}
	*p = t;
	return 0;
bad:
	snprintf(err, errlen, "probe: expected off, on or KEY=VALUE, got '%s'", tok);
	return -EINVAL;
}
