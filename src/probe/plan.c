/* A burst from a probe policy and a device's size (see probe.h). */
#include <errno.h>
#include <string.h>

#include "wearwatch/probe.h"

int ww_probe_plan_burst(const ww_probe_policy_t *p, uint64_t dev_bytes, uint32_t lbs,
			uint64_t seed, ww_probe_burst_t *b)
{
	uint64_t l = lbs ? lbs : 512;
	uint32_t bs = (uint32_t)((p->block_bytes + l - 1) / l * l);

	memset(b, 0, sizeof(*b));
	b->fd = -1;
	if (!bs || dev_bytes <= p->range_start_bytes + bs)
		return -ENOSPC;
	b->bs = bs;
	b->qd = p->queue_depth ? p->queue_depth : 1;
	b->count = p->count ? p->count : 1;
	b->max_iops = p->max_iops;
	b->timeout_ns = (p->timeout_s ? p->timeout_s : 30) * 1000000000ull;
	b->range_start = (p->range_start_bytes + bs - 1) / bs * bs;
	b->range_len = dev_bytes - b->range_start;
	if (p->range_len_bytes && p->range_len_bytes < b->range_len)
		b->range_len = p->range_len_bytes;
	b->range_len -= b->range_len % bs;
	b->seed = seed;
	return 0;
}
