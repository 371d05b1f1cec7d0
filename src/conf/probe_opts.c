/* Probe flags of `wearwatch serve` (see conf.h). */
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "wearwatch/conf.h"

int ww_probe_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || errno || end == s || *s == '-')
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

void ww_probe_serve_usage(FILE *f)
{
	fputs("  --probe-interval SECONDS        latency probe burst per drive this often (default 60)\n"
	      "  --probe-count N                 reads per burst (default 64)\n"
	      "  --probe-bs SIZE                 read size (default 4k)\n"
	      "  --probe-qd N                    reads in flight per drive (default 1)\n"
	      "  --probe-max-iops N              per-drive read rate cap (default none)\n"
	      "  --probe-busy-inflight N         skip a burst while more I/O is in flight (default 4)\n"
	      "  --probe-rotational auto|always|never\n"
	      "                                  rotational drives: auto = only when /sys/block/X/stat\n"
	      "                                  shows other I/O since the last probe (default)\n"
	      "  --probe-window N                rolling window of reads for quantiles (default 10000)\n"
	      "  --probe-drift-interval SECONDS  latency-drift burst per drive this often, at idle;\n"
	      "                                  0 = none (default 86400)\n"
	      "  --probe-drift-seconds N         length of a drift burst (default 30)\n"
	      "  --probe-drift-qd N              reads in flight in a drift burst (default 8)\n"
	      "  --no-probe                      no latency probes\n",
	      f);
}

int ww_probe_serve_opt(int opt, const char *arg, ww_probe_policy_t *p)
{
	uint64_t v = 0;

	if (opt == WW_OPT_NO_PROBE) {
		p->enabled = false;
		return 0;
	}
	if (opt == WW_OPT_PROBE_ROT) {
		if (!strcmp(arg, "auto"))
			p->rotational = WW_PROBE_ROT_AUTO;
		else if (!strcmp(arg, "always"))
			p->rotational = WW_PROBE_ROT_ALWAYS;
		else if (!strcmp(arg, "never"))
			p->rotational = WW_PROBE_ROT_NEVER;
		else
			goto bad;
		return 0;
	}
	if (ww_probe_parse_size(arg, &v) || v > UINT32_MAX)
		goto bad;
	switch (opt) {
	case WW_OPT_PROBE_INTERVAL:
		if (!v)
			goto bad;
		p->interval_s = (uint32_t)v;
		break;
	case WW_OPT_PROBE_COUNT:
		if (!v)
			goto bad;
		p->count = (uint32_t)v;
		break;
	case WW_OPT_PROBE_BS:
		if (!v || v % 512 || v > (16u << 20))
			goto bad;
		p->block_bytes = (uint32_t)v;
		break;
	case WW_OPT_PROBE_QD:
		if (!v || v > 64)
			goto bad;
		p->queue_depth = (uint32_t)v;
		break;
	case WW_OPT_PROBE_IOPS:
		p->max_iops = (uint32_t)v;
		break;
	case WW_OPT_PROBE_BUSY:
		p->busy_inflight = (uint32_t)v;
		break;
	case WW_OPT_PROBE_DRIFT_INTERVAL:
		p->drift_interval_s = (uint32_t)v;
		break;
	case WW_OPT_PROBE_DRIFT_SECONDS:
		if (!v || v > 3600)
			goto bad;
		p->drift_seconds = (uint32_t)v;
		break;
	case WW_OPT_PROBE_DRIFT_QD:
		if (!v || v > 64)
			goto bad;
		p->drift_qd = (uint32_t)v;
		break;
	case WW_OPT_PROBE_WINDOW:
		if (v < WW_PROBE_WINDOW_MIN || v > 1000000)
			goto bad;
		p->window_reads = (uint32_t)v;
		break;
	default:
		goto bad;
	}
	return 0;
bad: /* the caller says which flag or key */
	return -EINVAL;
}
