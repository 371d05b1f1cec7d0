/* One load point: T worker threads, each with its own io_uring ring and Q
 * I/Os in flight, and the main thread collecting their figures once a
 * second (qualify.h).
 *
 * Why not the probe engine (src/probe/engine.c): it is the service's, reads
 * only, one ring for every drive and one io_uring_enter per read so a paced
 * probe is timed alone. Here a thread keeps its depth full and submits what
 * is free in one call, as fio's io_uring engine does; each I/O is timed from
 * right before that call to its completion being reaped. The histogram is
 * the probe's (probe.h). */
#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "wearwatch/qualify.h"

struct slot {
	void *buf;
	uint64_t offset, start_ns;
	uint32_t len;
	bool write, busy;
};

struct worker {
	pthread_t tid;
	const ww_qualify_job_t *job;
	unsigned idx, depth;
	uint64_t region_start, region_len, cursor; /* sequential: this thread's part */
	uint64_t rng;
	volatile int *deadline_passed;
	volatile int *storm;
	int err; /* setup failure, -errno */
	volatile int finished;
	pthread_mutex_t m;       /* guards what follows */
	ww_qualify_acc_t rd, wr; /* since the main thread last took them */
	ww_qualify_tally_t tally;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

static uint32_t pick_size(struct worker *w)
{
	const ww_qualify_profile_t *p = w->job->profile;
	unsigned r;

	if (p->n_sizes == 1)
		return p->sizes[0].bytes;
	r = (unsigned)(xorshift(&w->rng) % 100);
	for (unsigned i = 0; i < p->n_sizes; i++) {
		if (r < p->sizes[i].percent)
			return p->sizes[i].bytes;
		r -= p->sizes[i].percent;
	}
	return p->sizes[p->n_sizes - 1].bytes;
}

/* Fill s with the next I/O; false when a fill has nothing left. */
static bool plan_io(struct worker *w, struct slot *s)
{
	const ww_qualify_job_t *j = w->job;
	const ww_qualify_profile_t *p = j->profile;
	uint32_t len = pick_size(w);

	s->len = len;
	s->write = p->read_percent == 0 ||
		(p->read_percent < 100 && xorshift(&w->rng) % 100 >= p->read_percent);
	if (p->random) {
		uint64_t n = j->range_len / len;

		s->offset = j->range_start + (xorshift(&w->rng) % n) * len;
		return true;
	}
	if (w->cursor + len > w->region_start + w->region_len) {
		if (j->fill_once)
			return false;
		w->cursor = w->region_start;
	}
	s->offset = w->cursor;
	w->cursor += len;
	return true;
}

static void account(struct worker *w, struct slot *s, int res, uint64_t now, unsigned *in_a_row)
{
	bool ok = res >= 0 && (uint32_t)res == s->len;
	ww_qualify_tally_t *t = &w->tally;

	if (ok) {
		*in_a_row = 0;
	} else {
		t->last_error = res < 0 ? res : -EIO;
		t->errors++;
		if (++*in_a_row >= (w->job->error_storm ? w->job->error_storm : 64))
			*w->storm = 1;
	}
	if (s->write) {
		ww_qualify_acc_add(&w->wr, ok, s->len, now - s->start_ns);
		/* an error may have written part of it: counted as attempted */
		t->writes++;
		t->write_errors += !ok;
		t->bytes_written += ok ? s->len : 0;
		if (!t->highest_written || s->offset < t->lowest_written)
			t->lowest_written = s->offset;
		if (s->offset + s->len > t->highest_written)
			t->highest_written = s->offset + s->len;
	} else {
		ww_qualify_acc_add(&w->rd, ok, s->len, now - s->start_ns);
		t->reads++;
		t->bytes_read += ok ? s->len : 0;
	}
}

/* One ring per worker thread, used by that thread alone: completions are
 * run when the thread asks for them (DEFER_TASKRUN, Linux 6.1) instead of
 * interrupting it each time a device answers (COOP_TASKRUN, 5.19); fio's
 * io_uring engine asks for the same, so the two are measured alike. Older
 * kernels refuse the flags (EINVAL): then a plain ring. */
static int ring_init(unsigned depth, struct io_uring *ring)
{
	struct io_uring_params p = { 0 };
	int r;

	p.flags = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
		IORING_SETUP_DEFER_TASKRUN;
	r = io_uring_queue_init_params(depth, ring, &p);
	if (r == -EINVAL)
		r = io_uring_queue_init(depth, ring, 0);
	return r;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const ww_qualify_job_t *j = w->job;
	struct io_uring ring;
	struct slot *slots;
	uint32_t maxlen = 0;
	unsigned inflight = 0, in_a_row = 0;
	bool more = true;
	int r;

	for (unsigned i = 0; i < j->profile->n_sizes; i++)
		if (j->profile->sizes[i].bytes > maxlen)
			maxlen = j->profile->sizes[i].bytes;
	slots = calloc(w->depth, sizeof(*slots));
	if (!slots) {
		w->err = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < w->depth; i++) {
		if (posix_memalign(&slots[i].buf, 4096, maxlen)) {
			w->err = -ENOMEM;
			goto free_slots;
		}
		/* written data: not zeros, which a drive may compress away */
		for (uint32_t k = 0; k + 8 <= maxlen; k += 8) {
			uint64_t v = xorshift(&w->rng);

			memcpy((char *)slots[i].buf + k, &v, 8);
		}
	}
	r = ring_init(w->depth, &ring);
	if (r < 0) {
		w->err = r;
		goto free_slots;
	}
	for (;;) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts = { 0, 100000000 };
		unsigned head, seen = 0, queued = 0;
		uint64_t t;

		more = more && !*w->deadline_passed && !*w->storm && !(j->stop && *j->stop);
		for (unsigned i = 0; more && i < w->depth; i++) {
			struct io_uring_sqe *sqe;

			if (slots[i].busy)
				continue;
			if (!plan_io(w, &slots[i])) {
				more = false;
				break;
			}
			sqe = io_uring_get_sqe(&ring);
			if (!sqe)
				break;
			if (slots[i].write)
				io_uring_prep_write(sqe, j->fd, slots[i].buf, slots[i].len,
						    slots[i].offset);
			else
				io_uring_prep_read(sqe, j->fd, slots[i].buf, slots[i].len,
						   slots[i].offset);
			io_uring_sqe_set_data(sqe, &slots[i]);
			slots[i].busy = true;
			queued++;
		}
		if (queued) {
			t = now_ns();
			for (unsigned i = 0; i < w->depth; i++)
				if (slots[i].busy && !slots[i].start_ns)
					slots[i].start_ns = t;
			r = io_uring_submit(&ring);
			if (r < 0) {
				w->err = r;
				break;
			}
			inflight += queued;
		}
		if (!inflight)
			break;
		r = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
		if (r < 0 && r != -ETIME && r != -EINTR) {
			w->err = r;
			break;
		}
		t = now_ns();
		pthread_mutex_lock(&w->m);
		io_uring_for_each_cqe(&ring, head, cqe)
		{
			struct slot *s = io_uring_cqe_get_data(cqe);

			account(w, s, cqe->res, t, &in_a_row);
			s->busy = false;
			s->start_ns = 0;
			seen++;
		}
		pthread_mutex_unlock(&w->m);
		io_uring_cq_advance(&ring, seen);
		inflight -= seen;
	}
	io_uring_queue_exit(&ring);
free_slots:
	if (slots)
		for (unsigned i = 0; i < w->depth; i++)
			free(slots[i].buf);
	free(slots);
out:
	w->finished = 1;
	return NULL;
}

static double cpu_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Take every worker's figures since the last call into rd/wr. */
static void collect(struct worker *ws, unsigned n, ww_qualify_acc_t *rd, ww_qualify_acc_t *wr)
{
	ww_qualify_acc_reset(rd);
	ww_qualify_acc_reset(wr);
	for (unsigned i = 0; i < n; i++) {
		pthread_mutex_lock(&ws[i].m);
		ww_qualify_acc_merge(rd, &ws[i].rd);
		ww_qualify_acc_merge(wr, &ws[i].wr);
		ww_qualify_acc_reset(&ws[i].rd);
		ww_qualify_acc_reset(&ws[i].wr);
		pthread_mutex_unlock(&ws[i].m);
	}
}

static void progress(const ww_qualify_job_t *j, const ww_qualify_point_t *p, unsigned s,
		     const ww_qualify_second_t *sec)
{
	if (!j->progress)
		return;
	fprintf(j->progress, "\r%s %uT%uQ ", j->phase ? j->phase : j->profile->name, p->threads,
		p->depth);
	if (p->seconds)
		fprintf(j->progress, "%u/%u s", s, p->seconds);
	else
		fprintf(j->progress, "%u s", s);
	if (sec->rd.ios || sec->rd.errors)
		fprintf(j->progress, "  read %.0f IOPS %.1f MB/s avg %.3f ms p99 %.3f ms",
			sec->rd.iops, sec->rd.mb_per_s, sec->rd.mean_s * 1e3, sec->rd.p99_s * 1e3);
	if (sec->wr.ios || sec->wr.errors)
		fprintf(j->progress, "  write %.0f IOPS %.1f MB/s avg %.3f ms p99 %.3f ms",
			sec->wr.iops, sec->wr.mb_per_s, sec->wr.mean_s * 1e3, sec->wr.p99_s * 1e3);
	fputs("\033[K", j->progress);
	fflush(j->progress);
}

int ww_qualify_run_point(const ww_qualify_job_t *j, ww_qualify_point_t *p, ww_qualify_tally_t *t)
{
	struct worker *ws;
	ww_qualify_acc_t *rd = NULL, *wr = NULL;
	volatile int deadline_passed = 0, storm = 0;
	struct rusage ru0, ru1;
	uint64_t t0, next, last;
	unsigned started = 0, cap;
	int ret = 0;

	if (!p->threads || !p->depth || !j->profile || !j->lbs || (!p->seconds && !j->fill_once))
		return -EINVAL;
	for (unsigned i = 0; i < j->profile->n_sizes; i++)
		if (j->profile->sizes[i].bytes % j->lbs ||
		    j->range_len < (uint64_t)j->profile->sizes[i].bytes * p->threads)
			return -EINVAL;
	ww_qualify_acc_reset(&p->rd);
	ww_qualify_acc_reset(&p->wr);
	cap = p->seconds ? p->seconds + 1 : 64;
	p->per_second = calloc(cap, sizeof(*p->per_second));
	p->n_seconds = 0;
	ws = calloc(p->threads, sizeof(*ws));
	rd = malloc(sizeof(*rd));
	wr = malloc(sizeof(*wr));
	if (!p->per_second || !ws || !rd || !wr) {
		ret = -ENOMEM;
		goto out;
	}
	getrusage(RUSAGE_SELF, &ru0);
	for (unsigned i = 0; i < p->threads; i++) {
		struct worker *w = &ws[i];
		uint64_t part = j->range_len / p->threads / j->lbs * j->lbs;

		w->job = j;
		w->idx = i;
		w->depth = p->depth;
		w->region_start = j->range_start + part * i;
		w->region_len = part;
		w->cursor = w->region_start;
		w->rng = (j->seed ? j->seed : 0x9E3779B97F4A7C15ull) + 0x1000193ull * (i + 1);
		w->deadline_passed = &deadline_passed;
		w->storm = &storm;
		pthread_mutex_init(&w->m, NULL);
		ww_qualify_acc_reset(&w->rd);
		ww_qualify_acc_reset(&w->wr);
		if (pthread_create(&w->tid, NULL, worker_main, w)) {
			ret = -EAGAIN;
			break;
		}
		started++;
	}
	t0 = last = now_ns();
	next = t0 + 1000000000ull;
	while (started == p->threads) {
		bool all_done = true;
		uint64_t now = now_ns();

		for (unsigned i = 0; i < started; i++)
			all_done &= ws[i].finished != 0;
		if (now >= next || all_done) {
			ww_qualify_second_t *sec;
			double len_s = (double)(now - last) / 1e9;

			collect(ws, started, rd, wr);
			ww_qualify_acc_merge(&p->rd, rd);
			ww_qualify_acc_merge(&p->wr, wr);
			if (p->n_seconds == cap) {
				ww_qualify_second_t *g = realloc(p->per_second,
								 2 * cap * sizeof(*g));

				if (!g) {
					ret = -ENOMEM;
					deadline_passed = 1;
					break;
				}
				p->per_second = g;
				cap *= 2;
			}
			/* what completes after the last whole second (the drain)
			 * counts in the point's totals, not in a row of its own */
			if ((!p->seconds || p->n_seconds < p->seconds) &&
			    (len_s > 0.05 || !p->n_seconds)) {
				sec = &p->per_second[p->n_seconds++];
				ww_qualify_acc_stats(rd, len_s, &sec->rd);
				ww_qualify_acc_stats(wr, len_s, &sec->wr);
				progress(j, p, p->n_seconds, sec);
			}
			last = now;
			next += 1000000000ull;
			if (p->seconds && p->n_seconds >= p->seconds)
				deadline_passed = 1;
		}
		if (all_done)
			break;
		if (deadline_passed || storm || (j->stop && *j->stop)) {
			deadline_passed = 1;
			/* the workers drain what is in flight and end */
		}
		struct timespec sl = { 0, 0 };
		uint64_t wait = next > now_ns() ? next - now_ns() : 0;

		if (wait > 50000000ull)
			wait = 50000000ull;
		sl.tv_nsec = (long)wait;
		nanosleep(&sl, NULL);
	}
	deadline_passed = 1;
	for (unsigned i = 0; i < started; i++)
		pthread_join(ws[i].tid, NULL);
	p->elapsed_s = (double)(now_ns() - t0) / 1e9;
	collect(ws, started, rd, wr); /* drained after the last second */
	ww_qualify_acc_merge(&p->rd, rd);
	ww_qualify_acc_merge(&p->wr, wr);
	getrusage(RUSAGE_SELF, &ru1);
	p->cpu_user_s = cpu_s(&ru1.ru_utime) - cpu_s(&ru0.ru_utime);
	p->cpu_sys_s = cpu_s(&ru1.ru_stime) - cpu_s(&ru0.ru_stime);
	if (j->progress)
		fputc('\n', j->progress);
	for (unsigned i = 0; i < started; i++) {
		ww_qualify_tally_t *x = &ws[i].tally;

		if (ws[i].err && !ret)
			ret = ws[i].err;
		if (x->writes) {
			if (!t->highest_written || x->lowest_written < t->lowest_written)
				t->lowest_written = x->lowest_written;
			if (x->highest_written > t->highest_written)
				t->highest_written = x->highest_written;
		}
		t->bytes_written += x->bytes_written;
		t->writes += x->writes;
		t->write_errors += x->write_errors;
		t->bytes_read += x->bytes_read;
		t->reads += x->reads;
		t->errors += x->errors;
		if (x->last_error)
			t->last_error = x->last_error;
		pthread_mutex_destroy(&ws[i].m);
	}
	if (storm)
		t->stopped = "error storm";
	else if (j->stop && *j->stop)
		t->stopped = "signal";
out:
	free(ws);
	free(rd);
	free(wr);
	return ret;
}

void ww_qualify_point_free(ww_qualify_point_t *p)
{
	free(p->per_second);
	p->per_second = NULL;
	p->n_seconds = 0;
}
