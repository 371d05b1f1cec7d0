/* Bounded worker pools (see jobs.h). */
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/basic.h"
#include "http/jobs.h"

struct ww_jobq {
	bool background;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	ww_job_t *head, *tail;
	unsigned queued, max_queued, n_threads;
	bool stopping;
	pthread_t *threads;
};

long long ww_http_now_ms(void)
{
	return ww_clock_monotonic_ms();
}

static void *worker(void *arg)
{
	ww_jobq_t *q = arg;

	/* nice 10 for this thread (Linux: setpriority on the thread id; no
	 * privilege needed to lower it): a bcrypt login or a history query
	 * yields to the scrapes and the readers, about a tenth of a busy core.
	 * Not SCHED_IDLE, which gets nothing while anything else runs: on a
	 * busy host the first login took 56 s, and a stop waited on starved
	 * threads that could not even see it (the web process did not exit on
	 * SIGTERM within 10 s with two busy loops). */
	if (q->background)
		(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
	for (;;) {
		ww_job_t *j;
		bool cancelled;

		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->stopping)
			pthread_cond_wait(&q->cond, &q->lock);
		j = q->head;
		if (!j) {
			pthread_mutex_unlock(&q->lock);
			return NULL;
		}
		q->head = j->next;
		if (!q->head)
			q->tail = NULL;
		q->queued--;
		cancelled = q->stopping;
		pthread_mutex_unlock(&q->lock);
		j->run(j, cancelled);
	}
}

ww_jobq_t *ww_jobq_start(unsigned threads, unsigned max_queued, bool background,
			 const char *name)
{
	ww_jobq_t *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	q->background = background;
	q->threads = calloc(threads, sizeof(*q->threads));
	if (!q->threads || !threads) {
		free(q->threads);
		free(q);
		return NULL;
	}
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	q->max_queued = max_queued;
	for (; q->n_threads < threads; q->n_threads++) {
		char tn[16];

		if (pthread_create(&q->threads[q->n_threads], NULL, worker, q))
			break;
		snprintf(tn, sizeof(tn), "ww-%.9s", name);
		pthread_setname_np(q->threads[q->n_threads], tn);
	}
	if (!q->n_threads) {
		ww_jobq_stop(q);
		return NULL;
	}
	return q;
}

int ww_jobq_submit(ww_jobq_t *q, ww_job_t *job)
{
	int rc = 0;

	pthread_mutex_lock(&q->lock);
	if (q->stopping)
		rc = -ESHUTDOWN;
	else if (q->queued >= q->max_queued)
		rc = -EBUSY;
	if (!rc) {
		job->next = NULL;
		if (q->tail)
			q->tail->next = job;
		else
			q->head = job;
		q->tail = job;
		q->queued++;
		pthread_cond_signal(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
	return rc;
}

void ww_jobq_drain(ww_jobq_t *q)
{
	unsigned n;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stopping = true;
	n = q->n_threads;
	q->n_threads = 0;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	/* the workers drain the queue (as cancelled) before they return */
	for (unsigned i = 0; i < n; i++)
		pthread_join(q->threads[i], NULL);
}

void ww_jobq_stop(ww_jobq_t *q)
{
	if (!q)
		return;
	ww_jobq_drain(q);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	free(q->threads);
	free(q);
}
