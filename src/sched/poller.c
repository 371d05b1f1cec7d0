/* Scheduler and worker pool (see poller.h). One mutex guards the schedule
 * table and the queue; it is never held across discovery, a store update or
 * a device call. Rediscovery runs when udev says a device came, went or
 * changed (the notice thread) and as a slow safety net; a drive's nodes stay
 * open between its reads (ww_collect_drive_kept), so a poll walks no path.
 *
 * A round keeps its start: a drive is due one interval after the tick that
 * queued its read, not after the read ended, so the drives read in one tick
 * are due together again however long each read took and however long it
 * waited for a reader. Counted from the end, each round's phase moved by
 * the read's length and queue wait; on a live fleet the drives spread over
 * the interval until every tick read one drive, N ticks per round each
 * looking at N drives.
 *
 * A round wakes as few readers as its reads need: one per READER_SHARE_S of
 * what the queued reads took last time (a drive not read yet counts a whole
 * share), at least one. A reader woken for a single short read ran it on a
 * cold cache and its wake cost as much as the read; one reader taking the
 * round's short reads in a row runs them warm. A read that runs long keeps
 * the others waiting at most until the queue's oldest read has waited
 * READER_SHARE_S: ww_poller_next_tick asks for a tick then, and that tick
 * wakes every reader.
 *
 * On the monotonic clock the readers keep the time: one waiting reader
 * (the keeper) waits with a timeout for the next due drive and queues its
 * round itself, so the caller's thread wakes once a round (at its end,
 * cfg.wake) instead of twice. The caller's tick still rediscovers, marks
 * hung reads and, a share after a drive was due, queues what no reader was
 * free to: the keeper role is taken by whichever reader waits first, and
 * none waits while all are reading. A keeper woken for a job keeps no time
 * until it waits again, and the readers that already wait untimed do not
 * take the role over: a round due while every keeper is reading is the
 * tick's, 50 ms late (a read longer than the interval, a notice's new
 * drives at the moment a round is due). */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "wearwatch/basic.h"
#include "wearwatch/sched.h"

struct pdrive {
	ww_drive_t d;
	bool listed;        /* in the latest discovery */
	bool in_flight;     /* queued or being read */
	bool running;       /* a worker is inside the read */
	bool hung;
	double started;     /* monotonic time the worker began the read */
	double next_due;    /* monotonic */
	double last_dt;     /* seconds the last read took; 0: none yet */
	/* open nodes of the live read path; heap, so a job keeps it while the
	 * table moves; only the worker holding the drive's read touches it */
	ww_collect_keep_t *keep;
	bool reopen; /* a notice named one of its nodes: reopen */
};

struct job {
	struct job *next;
	double queued;  /* schedule clock */
	uint64_t round; /* the tick that queued it (ww_poller.rounds) */
	ww_drive_t d;
	ww_collect_keep_t *keep;
	bool reopen;
};

struct ww_poller {
	ww_poller_cfg_t cfg;
	ww_store_t *store;
	pthread_mutex_t lock;
	pthread_cond_t work;   /* queue not empty or stop */
	pthread_cond_t exited; /* a worker exited */
	struct pdrive *drives;
	size_t n;
	struct job *head, *tail;
	unsigned live, hung;
	unsigned out;       /* drives in flight (hung ones too) */
	unsigned waiting;   /* workers waiting for work */
	unsigned inside;    /* workers inside a read */
	uint64_t rounds;    /* ticks that queued a read */
	uint64_t all_woken; /* every reader was woken for the jobs of these */
	/* readers start rounds themselves (the schedule is on the monotonic
	 * clock a timed wait can wait for): the keeper's deadline, HUGE_VAL
	 * while no reader waits for one */
	bool keeper_on;
	double keeper_at;
	bool stop;
	double next_discover;
	bool discover_asked;   /* a notice came: rediscover at the next tick */
	unsigned discoveries;  /* for tests */
	ww_uevents_t *uevents; /* NULL: none (not live, or no netlink) */
	int stop_fd;           /* eventfd that ends the notice thread */
	pthread_t notice_thread;
	bool notice_running;
};

/* the schedule's clock (cfg.clock, ww_clock_monotonic by default) */
static double sched_now(const ww_poller_t *p)
{
	return p->cfg.clock(p->cfg.clock_ctx);
}

/* the wall clock every `now` handed on is read from (cfg.wall) */
static time_t wall(const ww_poller_t *p)
{
	return p->cfg.wall(p->cfg.wall_ctx);
}

static int cmp_id_pdrive(const void *id, const void *b)
{
	return strcmp(id, ((const struct pdrive *)b)->d.id);
}

static int cmp_pdrive(const void *a, const void *b)
{
	return strcmp(((const struct pdrive *)a)->d.id, ((const struct pdrive *)b)->d.id);
}

/* the table is kept sorted by id (schedule): a worker looks its drive up
 * twice per read, so a linear search made a round of N reads N^2 */
static struct pdrive *find(ww_poller_t *p, const char *id)
{
	return p->n ? bsearch(id, p->drives, p->n, sizeof(*p->drives), cmp_id_pdrive) : NULL;
}

static unsigned interval_of(const ww_poller_t *p, const ww_drive_t *d)
{
	return d->rotational ? p->cfg.interval_rotational_s : p->cfg.interval_s;
}

/* seconds of queued reads one woken reader takes in a row (above) */
#define READER_SHARE_S 0.05
/* a drive due this much later than a tick is read in it (at most a tenth
 * of its interval), so a drive a little out of phase (found between two
 * rounds) joins the round at once and stays in it */
#define JOIN_EARLY_S 1.0

static double join_early(const ww_poller_t *p, const ww_drive_t *d)
{
	double tenth = interval_of(p, d) / 10.0;

	return tenth < JOIN_EARLY_S ? tenth : JOIN_EARLY_S;
}

/* the next due time of a read queued at `queued` that ended at `end`: one
 * interval after the queueing tick (its round), or, a read that ran past
 * that, one interval after its end (no read right after another) */
static double due_after(const ww_poller_t *p, const ww_drive_t *d, double queued, double end)
{
	double next = queued + interval_of(p, d);

	return next > end ? next : end + interval_of(p, d);
}

static void collected(ww_poller_t *p, const ww_drive_t *d, int rc,
		      const ww_read_report_t *r, double dt)
{
	time_t now = wall(p);

	if (rc < 0) {
		ww_log_drive_failure(d->id, now, "read of %s failed: %s (%.1f s)",
				     d->cmd_path[0] ? d->cmd_path : d->dev_path,
				     strerror(-rc), dt);
	} else if (rc == 0 && r->n_errors) {
		const char *first = "?";

		for (size_t i = 0; i < r->n_cmds; i++) {
			ww_cmd_result_t res = r->cmds[i].result;

			if (res != WW_CMD_OK && res != WW_CMD_RECOVERED && res != WW_CMD_UNSUPPORTED) {
				first = r->cmds[i].what;
				break;
			}
		}
		ww_log_drive_failure(d->id, now, "%u command(s) failed on %s; first: %s",
				     r->n_errors, d->cmd_path, first);
	} else {
		ww_log_drive_ok(d->id, now);
	}
}

/* a time on the schedule clock (CLOCK_MONOTONIC seconds while the keeper
 * is on) as the `work` condition's timed wait takes it */
static struct timespec mono_ts(double at)
{
	struct timespec ts;

	ts.tv_sec = (time_t)at;
	ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec < 0)
		ts.tv_nsec = 0;
	if (ts.tv_nsec > 999999999)
		ts.tv_nsec = 999999999;
	return ts;
}

/* caller holds the lock: when the keeper wakes (schedule clock), the
 * earliest due drive not being read; HUGE_VAL: none. (A reader waits only
 * while the queue is empty: reads that wait for a reader behind a long one
 * are the caller's tick's, a share after they were queued.) */
static double keeper_deadline_locked(const ww_poller_t *p)
{
	double at = HUGE_VAL;

	for (size_t i = 0; i < p->n; i++) {
		const struct pdrive *pd = &p->drives[i];

		if (!pd->in_flight && pd->listed && pd->d.protocol != WW_PROTO_NONE &&
		    pd->next_due < at)
			at = pd->next_due;
	}
	return at;
}

static unsigned queue_due_locked(ww_poller_t *p, double mono, double *share);
static void wake_readers(ww_poller_t *p, unsigned queued, double share, unsigned free_now,
			 bool stalled);

/* caller holds the lock (and drops it for the wakes): the keeper's round,
 * what ww_poller_tick would queue at this time without the rediscovery and
 * the hung reads it leaves to its caller's tick */
static unsigned keeper_round_locked(ww_poller_t *p)
{
	double mono = sched_now(p), share = 0;
	bool stalled = p->head && p->head->round > p->all_woken &&
		mono - p->head->queued >= READER_SHARE_S;
	unsigned queued = queue_due_locked(p, mono, &share);
	/* the keeper itself is one of them: it takes the round's first read */
	unsigned free_now = p->live - p->waiting - p->inside;

	if (queued)
		p->rounds++;
	if (stalled)
		p->all_woken = p->rounds;
	if (!stalled && queued <= free_now)
		return queued;
	pthread_mutex_unlock(&p->lock);
	wake_readers(p, queued, share, free_now, stalled);
	pthread_mutex_lock(&p->lock);
	return queued;
}

static void *worker(void *arg)
{
	ww_poller_t *p = arg;
	ww_collect_fn collect = p->cfg.collect;
	ww_health_t *h = malloc(sizeof(*h));
	ww_read_report_t *r = malloc(sizeof(*r));
	bool keep_time = true; /* may be the keeper when it waits */

	pthread_mutex_lock(&p->lock);
	while (h && r && !p->stop) {
		struct job *j = p->head;
		struct pdrive *pd;
		double t0, dt;
		int rc;

		if (!j) {
			double at = p->keeper_on && keep_time ? keeper_deadline_locked(p)
							      : HUGE_VAL;

			p->waiting++;
			if (at >= p->keeper_at) {
				pthread_cond_wait(&p->work, &p->lock);
				p->waiting--;
				continue;
			}
			/* the keeper: the reader that wakes for the next due
			 * drive and starts its round (below) */
			p->keeper_at = at;
			struct timespec ts = mono_ts(at);

			pthread_cond_timedwait(&p->work, &p->lock, &ts);
			if (p->keeper_at == at)
				p->keeper_at = HUGE_VAL;
			p->waiting--;
			/* a deadline that came and queued nothing (the caller's
			 * tick or another keeper queued it first, the drive was
			 * unlisted, no memory for a job) is not waited for again
			 * at once: the next wait is untimed until a read was
			 * taken, the caller's tick the fallback */
			if (!p->stop && !keeper_round_locked(p) && sched_now(p) >= at)
				keep_time = false;
			continue;
		}
		keep_time = true;
		p->inside++;
		p->head = j->next;
		if (!p->head)
			p->tail = NULL;
		pd = find(p, j->d.id);
		if (pd) {
			pd->running = true;
			pd->started = sched_now(p);
		}
		pthread_mutex_unlock(&p->lock);

		memset(h, 0, sizeof(*h));
		memset(r, 0, sizeof(*r));
		t0 = ww_clock_monotonic(NULL);
		if (j->keep && j->reopen)
			ww_collect_keep_close(j->keep);
		if (collect)
			rc = collect(p->cfg.sysroot, &j->d, h, r);
		else if (j->keep)
			rc = ww_collect_drive_kept(p->cfg.sysroot, &j->d, j->keep, h, r);
		else
			rc = ww_collect_drive(p->cfg.sysroot, &j->d, h, r);
		dt = ww_clock_monotonic(NULL) - t0;
		ww_store_update(p->store, j->d.id, rc, rc == 0 ? h : NULL, rc == 0 ? r : NULL, dt,
				wall(p));
		if (p->cfg.after_collect)
			p->cfg.after_collect(p->cfg.after_collect_arg, p->store, &j->d, rc,
					     wall(p));
		if (p->cfg.selftests)
			ww_selftests_after_read(p->cfg.selftests, p->store, &j->d, rc, h, wall(p));
		collected(p, &j->d, rc, r, dt);

		pthread_mutex_lock(&p->lock);
		p->inside--;
		pd = find(p, j->d.id);
		if (pd) {
			pd->in_flight = false;
			p->out--;
			pd->running = false;
			pd->last_dt = dt;
			pd->next_due = due_after(p, &pd->d, j->queued, sched_now(p));
			if (pd->hung) {
				pd->hung = false;
				p->hung--;
				ww_log(WW_LOG_NOTICE, "%s: read returned after %.0f s", j->d.id, dt);
			}
			/* the round's reads are in: the caller's tick after them
			 * (its heap trim) sees none out. Woken with the lock
			 * held, its tick waited for it at once. */
			if (p->out == p->hung && p->cfg.wake) {
				pthread_mutex_unlock(&p->lock);
				p->cfg.wake(p->cfg.wake_arg);
				pthread_mutex_lock(&p->lock);
			}
		}
		free(j);
		/* a replacement was started while this one was stuck: step down */
		if (p->live - p->hung > p->cfg.workers)
			break;
	}
	p->live--;
	pthread_cond_broadcast(&p->exited);
	pthread_mutex_unlock(&p->lock);
	free(h);
	free(r);
	return NULL;
}

/* caller holds the lock */
static int spawn_worker(ww_poller_t *p)
{
	pthread_attr_t a;
	pthread_t t;
	int rc;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &a, worker, p);
	pthread_attr_destroy(&a);
	if (rc)
		return -rc;
	p->live++;
	return 0;
}

static void schedule(ww_poller_t *p, const ww_drive_t *list, size_t n, double mono);
static double next_locked(ww_poller_t *p, double now);

static void rediscover(ww_poller_t *p, double mono)
{
	p->discoveries++;
	ww_discover_fn discover = p->cfg.discover ? p->cfg.discover : ww_discover_all;
	ww_drive_t *list = NULL;
	int n = discover(p->cfg.sysroot, p->cfg.include, &list);

	if (n < 0) {
		ww_log_drive_failure("discovery", wall(p), "drive discovery failed: %s",
				     strerror(-n));
		return;
	}
	ww_log_drive_ok("discovery", wall(p));
	if (ww_store_sync(p->store, list, (size_t)n, wall(p)) == 0)
		schedule(p, list, (size_t)n, mono);
	free(list);
}

static void forget_keep(ww_collect_keep_t *k)
{
	if (!k)
		return;
	ww_collect_keep_close(k);
	free(k);
}

static int cmp_drive_ptr(const void *a, const void *b)
{
	const ww_drive_t *x = *(const ww_drive_t *const *)a, *y = *(const ww_drive_t *const *)b;
	int c = strcmp(x->id, y->id);

	/* an id listed twice: the later entry last (and the one kept) */
	return c ? c : (x > y) - (x < y);
}

/* the discovered drives into the schedule: new ones due now, gone ones
 * forgotten unless a read of them is still out */
static void schedule(ww_poller_t *p, const ww_drive_t *list, size_t n, double mono)
{
	const ww_drive_t **sorted = n ? malloc(n * sizeof(*sorted)) : NULL;
	size_t k = 0, known, fresh = 0;

	if (n && !sorted)
		return;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &list[i];
	qsort(sorted, n, sizeof(*sorted), cmp_drive_ptr);
	pthread_mutex_lock(&p->lock);
	known = p->n;
	/* each id once (the last of those listed twice); new ones counted, so
	 * the table moves once and lookups stay within its sorted part */
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && !strcmp(sorted[i]->id, sorted[i + 1]->id))
			sorted[i] = NULL;
		else if (!find(p, sorted[i]->id))
			fresh++;
	}
	if (fresh) {
		struct pdrive *nd = realloc(p->drives, (known + fresh) * sizeof(*nd));

		if (!nd) { /* the schedule stays as it was */
			pthread_mutex_unlock(&p->lock);
			free(sorted);
			return;
		}
		p->drives = nd;
	}
	for (size_t i = 0; i < p->n; i++)
		p->drives[i].listed = false;
	for (size_t i = 0; i < n; i++) {
		const ww_drive_t *d = sorted[i];
		struct pdrive *pd;

		if (!d)
			continue;
		pd = known ? bsearch(d->id, p->drives, known, sizeof(*p->drives), cmp_id_pdrive)
			   : NULL;
		if (!pd) {
			pd = &p->drives[p->n++];
			memset(pd, 0, sizeof(*pd));
			pd->next_due = mono; /* a new drive is read right away */
			pd->keep = p->cfg.collect ? NULL : malloc(sizeof(*pd->keep));
			if (pd->keep)
				ww_collect_keep_init(pd->keep);
			ww_log(WW_LOG_INFO, "%s: found at %s (%s, %s)", d->id, d->dev_path,
			       ww_transport_name(d->transport), ww_protocol_name(d->protocol));
		}
		pd->d = *d;
		pd->listed = true;
	}
	/* forget unlisted drives unless a read of them is still out */
	for (size_t i = 0; i < p->n; i++) {
		if (!p->drives[i].listed && !p->drives[i].in_flight) {
			ww_log(WW_LOG_INFO, "%s: no longer present", p->drives[i].d.id);
			forget_keep(p->drives[i].keep);
			continue;
		}
		if (k != i)
			p->drives[k] = p->drives[i];
		k++;
	}
	p->n = k;
	/* the order the lookups need (the compaction above kept it) */
	if (fresh)
		qsort(p->drives, p->n, sizeof(*p->drives), cmp_pdrive);
	pthread_mutex_unlock(&p->lock);
	free(sorted);
}

/* caller holds the lock: the reads of the drives due at `mono` (or within
 * join_early of it) queued; returns how many, and adds to *share what they
 * took last time */
static unsigned queue_due_locked(ww_poller_t *p, double mono, double *share)
{
	unsigned queued = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct pdrive *pd = &p->drives[i];

		if (pd->in_flight || !pd->listed || pd->d.protocol == WW_PROTO_NONE ||
		    mono + join_early(p, &pd->d) < pd->next_due)
			continue;
		struct job *j = malloc(sizeof(*j));

		if (!j)
			break;
		j->next = NULL;
		j->queued = mono;
		j->round = p->rounds + 1;
		*share += pd->last_dt > 0 && pd->last_dt < READER_SHARE_S ? pd->last_dt
									  : READER_SHARE_S;
		j->d = pd->d;
		j->keep = pd->keep;
		j->reopen = pd->reopen;
		pd->reopen = false;
		if (p->tail)
			p->tail->next = j;
		else
			p->head = j;
		p->tail = j;
		pd->in_flight = true;
		p->out++;
		queued++;
	}
	return queued;
}

/* without the lock (a worker woken while it is held wakes only to wait for
 * it: two switches more per job; none is lost, a worker looks at the queue
 * under the lock before it waits): one reader per share of what the
 * `queued` reads took last time, less the `free_now` already awake, or
 * every reader when reads `stalled` */
static void wake_readers(ww_poller_t *p, unsigned queued, double share, unsigned free_now,
			 bool stalled)
{
	unsigned wake = queued ? 1 + (unsigned)(share / READER_SHARE_S - 1e-9) : 0;

	wake = wake > free_now ? wake - free_now : 0;
	if (stalled)
		pthread_cond_broadcast(&p->work);
	else
		for (unsigned i = 0; i < wake && i < queued && i < p->cfg.workers; i++)
			pthread_cond_signal(&p->work);
}

unsigned ww_poller_tick(ww_poller_t *p, double *next_s)
{
	double mono = sched_now(p);
	struct {
		char id[160];
	} *newly_hung = NULL;
	size_t n_hung = 0;
	unsigned queued, free_now, reading;
	double share = 0; /* what the reads queued now took last time */
	bool stalled;

	pthread_mutex_lock(&p->lock);
	bool asked = p->discover_asked;
	p->discover_asked = false;
	pthread_mutex_unlock(&p->lock);
	if (asked || mono >= p->next_discover) {
		rediscover(p, mono);
		p->next_discover = mono + p->cfg.rediscover_s;
	}

	pthread_mutex_lock(&p->lock);
	/* reads queued since before a share's time ago: a long read holds
	 * the one reader woken for them; every reader now */
	stalled = p->head && p->head->round > p->all_woken &&
		mono - p->head->queued >= READER_SHARE_S;
	for (size_t i = 0; i < p->n; i++) {
		struct pdrive *pd = &p->drives[i];

		if (!pd->in_flight || !pd->running || pd->hung ||
		    mono - pd->started <= p->cfg.hung_after_s)
			continue;
		void *nh = realloc(newly_hung, (n_hung + 1) * sizeof(*newly_hung));

		if (!nh)
			continue;
		newly_hung = nh;
		snprintf(newly_hung[n_hung++].id, sizeof(newly_hung->id), "%s", pd->d.id);
		pd->hung = true;
		p->hung++;
	}
	queued = queue_due_locked(p, mono, &share);
	/* workers between two reads look at the queue before they wait:
	 * woken already */
	free_now = p->live - p->waiting - p->inside;
	if (queued)
		p->rounds++;
	if (stalled)
		p->all_woken = p->rounds;
	while (p->live - p->hung < p->cfg.workers &&
	       p->live < p->cfg.workers + WW_POLLER_MAX_EXTRA_WORKERS)
		if (spawn_worker(p) < 0)
			break;
	/* what the caller asks next, under this lock: taken again after the
	 * signals below, it met the woken reader taking its job (a wait on
	 * the lock, a switch more on both sides) */
	reading = p->out - p->hung;
	if (next_s)
		*next_s = next_locked(p, sched_now(p));
	pthread_mutex_unlock(&p->lock);
	wake_readers(p, queued, share, free_now, stalled);

	for (size_t i = 0; i < n_hung; i++) {
		ww_log(WW_LOG_WARNING, "%s: read outstanding for more than %u s, marked hung",
		       newly_hung[i].id, p->cfg.hung_after_s);
		ww_store_set_hung(p->store, newly_hung[i].id, true, wall(p));
	}
	free(newly_hung);
	return reading;
}

unsigned ww_poller_busy(ww_poller_t *p)
{
	unsigned n = 0;

	pthread_mutex_lock(&p->lock);
	for (size_t i = 0; i < p->n; i++)
		n += p->drives[i].in_flight;
	pthread_mutex_unlock(&p->lock);
	return n;
}

/* caller holds the lock; `now` on the schedule clock */
static double next_locked(ww_poller_t *p, double now)
{
	double next = p->next_discover, late = p->keeper_on ? READER_SHARE_S : 0;

	if (p->discover_asked)
		next = now;
	/* reads still waiting for a reader: the tick that wakes every reader */
	if (p->head && p->head->round > p->all_woken && p->head->queued + READER_SHARE_S < next)
		next = p->head->queued + READER_SHARE_S;
	for (size_t i = 0; i < p->n; i++) {
		const struct pdrive *pd = &p->drives[i];

		if (pd->in_flight) {
			if (pd->running && !pd->hung && pd->started + p->cfg.hung_after_s < next)
				next = pd->started + p->cfg.hung_after_s;
			continue;
		}
		/* with a keeper, a share after it: the tick that starts the
		 * round when no reader was free to (the round's end wakes the
		 * caller before, cfg.wake) */
		if (pd->listed && pd->d.protocol != WW_PROTO_NONE && pd->next_due + late < next)
			next = pd->next_due + late;
	}
	return next > now ? next - now : 0;
}

double ww_poller_next_tick(ww_poller_t *p)
{
	double now = sched_now(p), next;

	pthread_mutex_lock(&p->lock);
	next = next_locked(p, now);
	pthread_mutex_unlock(&p->lock);
	return next;
}

/* a node name of the drive: its block devices, its command node, its
 * NVMe controller and namespaces */
static bool names_drive(const ww_drive_t *d, const char *name)
{
	const char *cmd = strrchr(d->cmd_path, '/');

	if (!strcmp(d->block, name) || !strcmp(d->ctrl, name) || (cmd && !strcmp(cmd + 1, name)))
		return true;
	for (size_t i = 0; i < d->n_paths && i < WW_MAX_PATHS; i++)
		if (!strcmp(d->paths[i], name))
			return true;
	for (size_t i = 0; i < d->n_namespaces && i < WW_NVME_MAX_NS; i++)
		if (!strcmp(d->namespaces[i], name))
			return true;
	return false;
}

void ww_poller_device_event(ww_poller_t *p, const char *action, const char *sysname)
{
	bool first;

	pthread_mutex_lock(&p->lock);
	first = !p->discover_asked;
	p->discover_asked = true;
	/* "add" of a known name: the node was remade, the kept one is stale */
	for (size_t i = 0; i < p->n && sysname; i++)
		if (names_drive(&p->drives[i].d, sysname))
			p->drives[i].reopen = true;
	pthread_mutex_unlock(&p->lock);
	(void)action;
	if (first && p->cfg.wake)
		p->cfg.wake(p->cfg.wake_arg);
}

static void on_notice(void *arg, const char *action, const char *sysname)
{
	ww_poller_device_event(arg, action, sysname);
}

/* blocks in poll() until udev says something or the poller stops: no wake
 * while nothing happens */
static void *notice_thread(void *arg)
{
	ww_poller_t *p = arg;
	struct pollfd fds[2] = { { .fd = ww_uevents_fd(p->uevents), .events = POLLIN },
				 { .fd = p->stop_fd, .events = POLLIN } };

	for (;;) {
		int n = poll(fds, 2, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fds[1].revents)
			break;
		if (fds[0].revents && ww_uevents_drain(p->uevents, on_notice, p) < 0)
			break;
	}
	return NULL;
}

static void start_notices(ww_poller_t *p)
{
	int err = 0;

	p->stop_fd = -1;
	if (!p->cfg.watch_uevents)
		return;
	p->uevents = ww_uevents_open(&err);
	if (p->uevents)
		p->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (p->stop_fd >= 0 && !pthread_create(&p->notice_thread, NULL, notice_thread, p)) {
		p->notice_running = true;
		return;
	}
	if (!err)
		err = -errno;
	ww_log(WW_LOG_WARNING,
	       "no udev notices of drives coming and going (%s): rediscovering "
	       "every %u s instead",
	       strerror(-err), p->cfg.rediscover_s);
	if (p->stop_fd >= 0)
		close(p->stop_fd);
	p->stop_fd = -1;
	ww_uevents_close(p->uevents);
	p->uevents = NULL;
}

static void stop_notices(ww_poller_t *p)
{
	uint64_t one = 1;

	if (p->notice_running) {
		if (write(p->stop_fd, &one, sizeof(one)) < 0)
			ww_log(WW_LOG_WARNING, "udev notice thread: %s", strerror(errno));
		pthread_join(p->notice_thread, NULL);
		p->notice_running = false;
	}
	if (p->stop_fd >= 0)
		close(p->stop_fd);
	p->stop_fd = -1;
	ww_uevents_close(p->uevents);
	p->uevents = NULL;
}

unsigned ww_poller_discoveries(ww_poller_t *p)
{
	return p->discoveries;
}

bool ww_poller_watching(ww_poller_t *p)
{
	return p->notice_running;
}

ww_poller_t *ww_poller_start(const ww_poller_cfg_t *cfg, ww_store_t *store)
{
	ww_poller_t *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cfg = *cfg;
	if (!p->cfg.sysroot)
		p->cfg.sysroot = "";
	if (!p->cfg.workers)
		p->cfg.workers = 1;
	p->stop_fd = -1;
	if (!p->cfg.rediscover_s) /* safety net only, with notices; see start_notices */
		p->cfg.rediscover_s = p->cfg.watch_uevents ? WW_POLLER_SAFETY_REDISCOVER_S
			: p->cfg.interval_s                ? p->cfg.interval_s
							   : 60;
	if (!p->cfg.hung_after_s)
		p->cfg.hung_after_s = 30;
	if (!p->cfg.clock)
		p->cfg.clock = ww_clock_monotonic;
	if (!p->cfg.wall)
		p->cfg.wall = ww_clock_wall;
	p->store = store;
	pthread_mutex_init(&p->lock, NULL);
	/* the keeper's timed wait is on the schedule clock; a clock the
	 * caller steps (a test) cannot be waited for: its ticks start every
	 * round, as they do without a free reader */
	p->keeper_on = p->cfg.clock == ww_clock_monotonic;
	p->keeper_at = HUGE_VAL;
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->work, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&p->exited, NULL);
	pthread_mutex_lock(&p->lock);
	for (unsigned i = 0; i < p->cfg.workers; i++)
		spawn_worker(p);
	pthread_mutex_unlock(&p->lock);
	if (!p->live) {
		ww_poller_stop(p, 0);
		return NULL;
	}
	if (p->cfg.watch_uevents) {
		unsigned asked = cfg->rediscover_s;

		start_notices(p);
		/* no notices: back to rediscovering every poll interval */
		if (!p->notice_running && !asked)
			p->cfg.rediscover_s = p->cfg.interval_s ? p->cfg.interval_s : 60;
	}
	return p;
}

/* stop and wait up to timeout_s; on a timeout either leave the poller
 * stopping (for the exit) or, with `resume`, running as before */
static bool stop_wait(ww_poller_t *p, unsigned timeout_s, bool resume)
{
	struct timespec dl;
	bool done;

	if (!p)
		return true;
	if (!resume)
		stop_notices(p);
	dl = ww_clock_deadline_ms((long long)timeout_s * 1000);
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	while (p->live)
		if (pthread_cond_timedwait(&p->exited, &p->lock, &dl) == ETIMEDOUT)
			break;
	done = p->live == 0;
	if (!done && resume) {
		/* the stuck reads go on as before; the idle workers that left
		 * are started again, so queued reads are taken at once */
		p->stop = false;
		while (p->live - p->hung < p->cfg.workers &&
		       p->live < p->cfg.workers + WW_POLLER_MAX_EXTRA_WORKERS)
			if (spawn_worker(p) < 0)
				break;
	}
	pthread_mutex_unlock(&p->lock);
	if (!done)
		return false;
	while (p->head) {
		struct job *j = p->head;

		p->head = j->next;
		free(j);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->exited);
	stop_notices(p);
	for (size_t i = 0; i < p->n; i++)
		forget_keep(p->drives[i].keep);
	free(p->drives);
	free(p);
	return true;
}

bool ww_poller_stop(ww_poller_t *p, unsigned timeout_s)
{
	return stop_wait(p, timeout_s, false);
}

bool ww_poller_try_stop(ww_poller_t *p, unsigned timeout_s)
{
	return stop_wait(p, timeout_s, true);
}
