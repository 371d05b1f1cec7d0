/* Bounded worker pools for the HTTP front end and the collector socket
 * (private to src/http/). Work that can take long (a bcrypt check, a request
 * to the collector, a history query) runs on a pool of its own, so it never
 * runs on a thread that serves other connections: a pool has a fixed number
 * of threads and a bounded queue, and a full queue is an immediate "busy"
 * answer instead of a wait. */
#ifndef WW_HTTP_JOBS_H
#define WW_HTTP_JOBS_H

#include <stdbool.h>

typedef struct ww_job ww_job_t;

/** A job: run(job, cancelled) is called once on a pool thread; cancelled is
 * true when the pool stops before the job started (answer "unavailable"
 * then). The job's memory is the submitter's; it must stay valid until run
 * returns. */
struct ww_job {
	void (*run)(ww_job_t *job, bool cancelled);
	ww_job_t *next; /* private: queue link */
};

typedef struct ww_jobq ww_jobq_t;

/** Start `threads` threads (>= 1) taking at most `max_queued` waiting jobs.
 * `background`: CPU-bound work (bcrypt, history queries) whose threads run at
 * nice 10, so they yield to the threads that answer cheap requests but
 * still progress on a busy host; their own deadlines turn a long wait into
 * a 503. NULL on failure. */
ww_jobq_t *ww_jobq_start(unsigned threads, unsigned max_queued, bool background,
			 const char *name);

/** Queue a job. Returns 0, -EBUSY (queue full) or -ESHUTDOWN (stopping). */
int ww_jobq_submit(ww_jobq_t *q, ww_job_t *job);

/** Stop taking jobs (ww_jobq_submit answers -ESHUTDOWN from now on), run
 * the queued ones as cancelled, wait for the running ones to return and
 * join the threads; the pool stays allocated, so that threads still
 * submitting to it meet a refusal, not freed memory. NULL is a no-op. */
void ww_jobq_drain(ww_jobq_t *q);

/** ww_jobq_drain, then free. NULL is a no-op. */
void ww_jobq_stop(ww_jobq_t *q);

/** CLOCK_MONOTONIC in milliseconds (deadlines of the front end). */
long long ww_http_now_ms(void);

#endif
