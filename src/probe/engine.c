/* io_uring probe engine: one ring, many bursts, reads only (see probe.h).
 *
 * Each read is submitted on its own io_uring_enter so its start time is taken
 * right before the kernel sees it; completions are reaped as they come and
 * timed when reaped, as fio does for its completion latency. A read that does
 * not come back within the burst's timeout marks the burst hung and done; its
 * slot (buffer) then belongs to the engine until the kernel returns it. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/probe.h"

struct slot {
	ww_probe_burst_t *burst;     /* NULL once the burst gave up (hung) */
	void *buf;
	uint64_t offset, start_ns;
	bool busy;
	struct slot *next_orphan;
};

struct ww_probe_engine {
	struct io_uring ring;
	unsigned entries;
	ww_probe_burst_t *active;
	struct slot *orphans;        /* slots of hung bursts still in the kernel */
};

uint64_t ww_probe_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

ww_probe_engine_t *ww_probe_engine_new(unsigned entries, int *err)
{
	ww_probe_engine_t *e = calloc(1, sizeof(*e));
	int r;

	if (!e) {
		*err = -ENOMEM;
		return NULL;
	}
	e->entries = entries ? entries : 64;
	r = io_uring_queue_init(e->entries, &e->ring, 0);
	if (r < 0) {
		free(e);
		*err = r;
		return NULL;
	}
	return e;
}

static void free_slot(struct slot *s)
{
	free(s->buf);
	free(s);
}

void ww_probe_engine_free(ww_probe_engine_t *e)
{
	if (!e)
		return;
	/* the kernel cancels or waits out what is in flight when the ring
	 * closes; it owns those buffers' pages until then, so slots still in
	 * flight are leaked rather than freed under it */
	io_uring_queue_exit(&e->ring);
	free(e);
}

unsigned ww_probe_engine_active(const ww_probe_engine_t *e)
{
	unsigned n = 0;

	for (const ww_probe_burst_t *b = e->active; b; b = b->next_)
		n++;
	return n;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

int ww_probe_burst_start(ww_probe_engine_t *e, ww_probe_burst_t *b)
{
	struct slot **slots;

	if (b->fd < 0 || !b->bs || b->bs % 512 || b->range_start % b->bs ||
	    b->range_len < b->bs || !b->qd || b->qd > e->entries ||
	    (!b->count && !b->runtime_ns))
		return -EINVAL;
	slots = calloc(b->qd, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < b->qd; i++) {
		slots[i] = calloc(1, sizeof(**slots));
		if (!slots[i] || posix_memalign(&slots[i]->buf, 4096, b->bs)) {
			for (uint32_t j = 0; j <= i; j++)
				if (slots[j])
					free_slot(slots[j]);
			free(slots);
			return -ENOMEM;
		}
		slots[i]->burst = b;
	}
	b->issued = b->completed = b->errors = 0;
	b->max_ns = 0;
	b->last_error = 0;
	b->done = b->hung = b->stopped = false;
	b->inflight_ = 0;
	b->rng_ = b->seed ? b->seed : 0x9E3779B97F4A7C15ull;
	b->start_ns_ = b->next_issue_ns_ = ww_probe_now_ns();
	if (!b->timeout_ns)
		b->timeout_ns = 30000000000ull;
	b->slots_ = slots;
	b->next_ = e->active;
	e->active = b;
	return 0;
}

static bool more_to_issue(const ww_probe_burst_t *b, uint64_t now)
{
	if (b->hung || b->stopped)
		return false;
	if (b->count && b->issued >= b->count)
		return false;
	if (b->runtime_ns && now - b->start_ns_ >= b->runtime_ns)
		return false;
	return true;
}

/* Issue what is due; returns the earliest future issue time (0 = none). */
static uint64_t issue(ww_probe_engine_t *e, ww_probe_burst_t *b)
{
	struct slot **slots = b->slots_;
	uint64_t now = ww_probe_now_ns();

	while (b->inflight_ < b->qd && more_to_issue(b, now)) {
		struct io_uring_sqe *sqe;
		struct slot *s = NULL;
		uint64_t blocks = b->range_len / b->bs;

		if (b->max_iops && now < b->next_issue_ns_)
			return b->next_issue_ns_;
		for (uint32_t i = 0; i < b->qd && !s; i++)
			if (!slots[i]->busy)
				s = slots[i];
		if (!s)
			break;
		if (b->may_issue && !b->may_issue(b->ctx)) {
			b->stopped = true;
			break;
		}
		sqe = io_uring_get_sqe(&e->ring);
		if (!sqe)
			break;
		s->offset = b->range_start + (xorshift(&b->rng_) % blocks) * b->bs;
		io_uring_prep_read(sqe, b->fd, s->buf, b->bs, s->offset);
		sqe->ioprio = WW_PROBE_IOPRIO;
		io_uring_sqe_set_data(sqe, s);
		s->busy = true;
		b->inflight_++;
		b->issued++;
		if (b->max_iops)
			b->next_issue_ns_ += 1000000000ull / b->max_iops;
		s->start_ns = ww_probe_now_ns();
		io_uring_submit(&e->ring);
		now = s->start_ns;
	}
	return 0;
}

static void finish(ww_probe_engine_t *e, ww_probe_burst_t *b)
{
	struct slot **slots = b->slots_;
	ww_probe_burst_t **pp;

	for (uint32_t i = 0; i < b->qd; i++) {
		if (slots[i]->busy) {   /* hung: the kernel still has it */
			slots[i]->burst = NULL;
			slots[i]->next_orphan = e->orphans;
			e->orphans = slots[i];
		} else {
			free_slot(slots[i]);
		}
	}
	free(slots);
	b->slots_ = NULL;
	b->done = true;
	for (pp = &e->active; *pp; pp = &(*pp)->next_)
		if (*pp == b) {
			*pp = b->next_;
			break;
		}
	b->next_ = NULL;
}

static void reap(ww_probe_engine_t *e, struct io_uring_cqe *cqe, uint64_t now)
{
	struct slot *s = io_uring_cqe_get_data(cqe);
	ww_probe_burst_t *b = s->burst;
	ww_probe_read_t r;

	s->busy = false;
	if (!b) {                       /* a hung burst's read came back */
		for (struct slot **pp = &e->orphans; *pp; pp = &(*pp)->next_orphan)
			if (*pp == s) {
				*pp = s->next_orphan;
				break;
			}
		free_slot(s);
		return;
	}
	b->inflight_--;
	b->completed++;
	r.offset = s->offset;
	r.lat_ns = now - s->start_ns;
	r.res = cqe->res;
	r.buf = s->buf;
	if (cqe->res < 0 || (uint32_t)cqe->res != b->bs) {
		b->errors++;
		b->last_error = cqe->res < 0 ? cqe->res : -EIO;
	} else if (r.lat_ns > b->max_ns) {
		b->max_ns = r.lat_ns;
	}
	if (b->on_read)
		b->on_read(b->ctx, &r);
}

int ww_probe_engine_step(ww_probe_engine_t *e, unsigned wait_ms)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	uint64_t now, wake = 0, deadline;
	unsigned head, seen = 0;
	int r, done = 0;
	bool inflight = false;

	for (ww_probe_burst_t *b = e->active; b; b = b->next_) {
		uint64_t t = issue(e, b);

		if (t && (!wake || t < wake))
			wake = t;
		inflight |= b->inflight_ > 0;
	}
	now = ww_probe_now_ns();
	deadline = now + (uint64_t)wait_ms * 1000000ull;
	if (wake && wake < deadline)
		deadline = wake;
	if (inflight || e->orphans) {
		uint64_t d = deadline > now ? deadline - now : 0;

		ts.tv_sec = (long long)(d / 1000000000ull);
		ts.tv_nsec = (long long)(d % 1000000000ull);
		r = io_uring_wait_cqe_timeout(&e->ring, &cqe, &ts);
		if (r < 0 && r != -ETIME && r != -EINTR)
			return r;
	} else if (deadline > now && !e->active) {
		struct timespec sl = { (time_t)((deadline - now) / 1000000000ull),
				       (long)((deadline - now) % 1000000000ull) };
		nanosleep(&sl, NULL);
	} else if (deadline > now) {
		struct timespec sl = { (time_t)((deadline - now) / 1000000000ull),
				       (long)((deadline - now) % 1000000000ull) };
		nanosleep(&sl, NULL);   /* paced: nothing out, next read later */
	}
	now = ww_probe_now_ns();
	io_uring_for_each_cqe(&e->ring, head, cqe) {
		reap(e, cqe, now);
		seen++;
	}
	io_uring_cq_advance(&e->ring, seen);

	for (ww_probe_burst_t *b = e->active, *next; b; b = next) {
		struct slot **slots = b->slots_;

		next = b->next_;
		for (uint32_t i = 0; i < b->qd; i++)
			if (slots[i]->busy && now - slots[i]->start_ns > b->timeout_ns)
				b->hung = true;
		if (b->hung || (!b->inflight_ && !more_to_issue(b, now))) {
			finish(e, b);
			done++;
		}
	}
	return done;
}
