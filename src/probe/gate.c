/* Probe policy defaults and the sysfs checks made before a burst. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/discover.h"
#include "wearwatch/probe.h"

void ww_probe_policy_default(ww_probe_policy_t *p)
{
	memset(p, 0, sizeof(*p));
	p->enabled = true;
	p->interval_s = 60;
	p->count = 64;
	p->block_bytes = 4096;
	p->queue_depth = 1;
	p->max_iops = 0;
	p->busy_inflight = 4;
	p->timeout_s = 30;
	p->window_reads = WW_PROBE_WINDOW_DEFAULT;
	p->rotational = WW_PROBE_ROT_AUTO;
	p->drift_interval_s = WW_PROBE_DRIFT_INTERVAL_DEFAULT;
	p->drift_seconds = WW_PROBE_DRIFT_SECONDS_DEFAULT;
	p->drift_qd = WW_PROBE_DRIFT_QD_DEFAULT;
}

static int read_line(const char *sysroot, const char *block, const char *attr,
		     char *buf, size_t len)
{
	char p[4096];

	if (!block || !*block || strchr(block, '/'))
		return -EINVAL;
	if (ww_sysfs_path(p, sizeof(p), sysroot, "/sys/block/%s/%s", block, attr))
		return -ENAMETOOLONG;
	return ww_sysfs_read(p, buf, len);
}

int ww_probe_sysfs_ios(const char *sysroot, const char *block, uint64_t *ios)
{
	char buf[512];
	uint64_t f[5];
	int n = read_line(sysroot, block, "stat", buf, sizeof(buf));

	if (n < 0)
		return n;
	/* Documentation/block/stat.rst: read I/Os, read merges, read sectors,
	 * read ticks, write I/Os, ... */
	if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &f[0], &f[1], &f[2], &f[3], &f[4]) != 5)
		return -EINVAL;
	*ios = f[0] + f[4];
	return 0;
}

long ww_probe_sysfs_inflight(const char *sysroot, const char *block)
{
	char buf[128];
	long r, w;
	int n = read_line(sysroot, block, "inflight", buf, sizeof(buf));

	if (n < 0)
		return n;
	if (sscanf(buf, "%ld %ld", &r, &w) != 2 || r < 0 || w < 0)
		return -EINVAL;
	return r + w;
}

uint64_t ww_probe_sysfs_bytes(const char *sysroot, const char *block)
{
	char p[4096];
	uint64_t sectors;

	if (!block || strchr(block, '/') ||
	    ww_sysfs_path(p, sizeof(p), sysroot, "/sys/block/%s/size", block) ||
	    ww_sysfs_read_u64(p, &sectors))
		return 0;
	return sectors * 512;
}

const char *ww_probe_gate(const char *sysroot, const char *block, bool rotational,
			  const ww_probe_policy_t *p, uint64_t last_ios)
{
	long inflight;

	if (!p->enabled)
		return "disabled";
	if (ww_runtime_suspended(sysroot, block) == 1)
		return "runtime-suspended";
	if (rotational) {
		uint64_t ios;

		if (p->rotational == WW_PROBE_ROT_NEVER)
			return "rotational";
		/* a disk that served nothing since our last burst may be
		 * spinning down; our reads would keep it up */
		if (p->rotational == WW_PROBE_ROT_AUTO &&
		    (ww_probe_sysfs_ios(sysroot, block, &ios) < 0 || !last_ios ||
		     ios == last_ios))
			return "rotational";
	}
	inflight = ww_probe_sysfs_inflight(sysroot, block);
	if (inflight > (long)p->busy_inflight)
		return "busy";
	return NULL;
}
