/* Burst planning (src/probe/plan.c): what a probe policy asks of a device
 * of a given size. The figures follow from the policy's definition in
 * include/wearwatch/probe.h (reads of whole logical blocks, aligned to the
 * read size, inside the device). */
#include <errno.h>
#include <string.h>

#include "wearwatch/probe.h"
#include "ww_test.h"

int main(void)
{
	ww_probe_policy_t p;
	ww_probe_burst_t b;

	ww_probe_policy_default(&p);
	/* the defaults on a 1 GiB drive with 512-byte blocks: 64 reads of 4 KiB
	 * at queue depth 1 over the whole device */
	CHECK_EQ_I64(ww_probe_plan_burst(&p, 1ull << 30, 512, 7, &b), 0);
	CHECK_EQ_I64(b.fd, -1);
	CHECK_EQ_U64(b.bs, 4096);
	CHECK_EQ_U64(b.qd, 1);
	CHECK_EQ_U64(b.count, 64);
	CHECK_EQ_U64(b.range_start, 0);
	CHECK_EQ_U64(b.range_len, 1ull << 30);
	CHECK_EQ_U64(b.timeout_ns, 30000000000ull);
	CHECK_EQ_U64(b.seed, 7);
	CHECK(!b.on_read && !b.may_issue && !b.done);

	/* 512-byte reads on a 4Kn drive become one 4096-byte block; a range
	 * start inside a block moves to the next read boundary; a length that
	 * is not whole reads is cut to whole reads */
	p.block_bytes = 512;
	p.range_start_bytes = 1000;
	p.range_len_bytes = 10000;
	p.queue_depth = 4;
	p.timeout_s = 5;
	CHECK_EQ_I64(ww_probe_plan_burst(&p, 1ull << 20, 4096, 0, &b), 0);
	CHECK_EQ_U64(b.bs, 4096);
	CHECK_EQ_U64(b.range_start, 4096);
	CHECK_EQ_U64(b.range_len, 8192);
	CHECK_EQ_U64(b.qd, 4);
	CHECK_EQ_U64(b.timeout_ns, 5000000000ull);

	/* no read fits past the range start: nothing to probe */
	ww_probe_policy_default(&p);
	CHECK_EQ_I64(ww_probe_plan_burst(&p, 4096, 512, 0, &b), -ENOSPC);
	p.range_start_bytes = 1ull << 20;
	CHECK_EQ_I64(ww_probe_plan_burst(&p, 1ull << 20, 512, 0, &b), -ENOSPC);
	CHECK_EQ_I64(ww_probe_plan_burst(&p, (1ull << 20) + 8192, 512, 0, &b), 0);
	CHECK_EQ_U64(b.range_len, 8192);
	return ww_test_done("test_probe_plan");
}
