/* Latency probes: a pure log-linear histogram with a rolling window, and an
 * io_uring engine that sends paced random O_DIRECT reads (never writes).
 *
 * Units: latencies in nanoseconds inside the probe layer, seconds in the
 * summary that the store keeps and the exposition renders. Errors are
 * negative errno values. Nothing here touches the store; the daemon joins them
 * (src/sched/probe_sched.c).
 *
 * Why our own histogram: Debian 12 packages HdrHistogram only for Java and Go
 * (`apt-cache search hdr histogram`), not for C. The layout follows the
 * HdrHistogram idea (Gil Tene): linear sub-buckets inside power-of-two ranges.
 */
#ifndef WEARWATCH_PROBE_H
#define WEARWATCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- histogram (pure) --- */

/** 2^7 = 128 linear sub-buckets per power of two: a bucket at value v is at
 * most v/128 wide, and its midpoint is within v/256 (0.39 %) of any value in
 * it, so every quantile, min, max and mean is within 1 % relative error. */
#define WW_HIST_SUB_BITS 7
#define WW_HIST_SUB (1u << WW_HIST_SUB_BITS)
/** Values up to 2^37 ns (137 s) are kept apart; larger ones count in the top
 * bucket. */
#define WW_HIST_TOP_BITS 37
#define WW_HIST_BUCKETS (WW_HIST_SUB * (WW_HIST_TOP_BITS - WW_HIST_SUB_BITS + 1))

typedef struct ww_hist {
	uint32_t counts[WW_HIST_BUCKETS];
	uint64_t total;
} ww_hist_t;

/** Bucket index of value v (ns). Pure. */
unsigned ww_hist_index(uint64_t v);
/** Lowest value of bucket idx and its width (ns). Pure. */
uint64_t ww_hist_lowest(unsigned idx, uint64_t *width);
/** Midpoint of bucket idx: the value reported for everything in it. Pure. */
uint64_t ww_hist_value(unsigned idx);

void ww_hist_reset(ww_hist_t *h);
void ww_hist_add_index(ww_hist_t *h, unsigned idx);
void ww_hist_remove_index(ww_hist_t *h, unsigned idx);
/** Value at quantile q (0 < q <= 1): the smallest bucket value such that at
 * least ceil(q * total) values are at or below it (nearest rank, as
 * sorted[ceil(q*n) - 1] on exact data). 0 when empty. */
uint64_t ww_hist_quantile(const ww_hist_t *h, double q);
/** Mean and population standard deviation from bucket midpoints (ns). */
void ww_hist_mean_stddev(const ww_hist_t *h, double *mean, double *stddev);
/** Smallest / largest non-empty bucket value (ns), 0 when empty. */
uint64_t ww_hist_min(const ww_hist_t *h);
uint64_t ww_hist_max(const ww_hist_t *h);

/* ------------------------------------------ per-drive statistics (pure) --- */

/** Default and smallest rolling window (successful reads). */
#define WW_PROBE_WINDOW_DEFAULT 10000
#define WW_PROBE_WINDOW_MIN 1000
/** p99.9 is reported only when the window holds at least this many reads. */
#define WW_PROBE_P999_MIN_READS 10000

/** Fixed Prometheus bucket bounds (le, ns), +Inf implied: 10 us to 10 s. */
#define WW_PROBE_N_BUCKETS 19
static const uint64_t ww_probe_bucket_le_ns[WW_PROBE_N_BUCKETS] = {
	10000, 20000, 50000, 100000, 200000, 500000,
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000,
	100000000, 200000000, 500000000, 1000000000, 2000000000, 5000000000ULL,
	10000000000ULL,
};

/** What the store keeps per drive and the exposition shows. Times in seconds.
 * Window figures describe the last `window_reads` successful reads; totals and
 * buckets count since the service started. */
typedef struct ww_probe_summary {
	uint64_t window_reads;
	double min_s, mean_s, max_s, stddev_s, p50_s, p90_s, p99_s;
	bool has_p999;              /* window_reads >= WW_PROBE_P999_MIN_READS */
	double p999_s;

	uint64_t reads_total;       /* successful reads */
	uint64_t errors_total;      /* failed or short reads */
	double sum_s;               /* of successful reads */
	uint64_t bucket_le[WW_PROBE_N_BUCKETS]; /* cumulative, per ww_probe_bucket_le_ns */

	bool has_last;              /* a burst has finished */
	time_t last_time;           /* its end, seconds since the epoch */
	uint32_t last_reads, last_errors;
	double last_max_s;          /* slowest successful read of that burst */
	int last_error;             /* -errno of its last failed read, else 0 */
	uint32_t block_bytes, queue_depth;

	/* the newest latency-drift burst and the baseline it was compared
	 * with (the baseline's count is 0 until bursts are kept) */
	bool has_drift;
	time_t drift_time; /* its end */
	double drift_p50_s, drift_p99_s, drift_mean_s;
	uint32_t drift_reads, drift_errors, drift_qd;
	uint32_t drift_base_n;   /* bursts in the baseline it was compared with */
	double drift_base_p99_s; /* their mean p99 */
	const char *drift_skip;  /* static: why the last due drift burst was
				       ended or not sent ("busy"...), NULL */

	const char *skip_reason;    /* static string: why the last due probe was
				       not sent ("runtime-suspended", "standby",
				       "rotational", "busy", "no O_DIRECT"...),
				       NULL when it was */
	time_t skip_time;
} ww_probe_summary_t;

typedef struct ww_probe_stats {
	ww_hist_t win;              /* histogram of the ring's contents */
	uint16_t *ring;             /* bucket index per read, oldest at head */
	uint32_t cap, head, n;
	uint64_t reads_total, errors_total, sum_ns;
	uint64_t bucket_le[WW_PROBE_N_BUCKETS];
} ww_probe_stats_t;

/** Allocate stats with a window of `window` reads (clamped to >=
 * WW_PROBE_WINDOW_MIN; 0 = default). Returns 0 or -ENOMEM. */
int ww_probe_stats_init(ww_probe_stats_t *s, uint32_t window);
void ww_probe_stats_free(ww_probe_stats_t *s);
/** Count one read: res < 0 (or ok = false) is an error, else lat_ns enters the
 * window (evicting the oldest when full) and the buckets. */
void ww_probe_stats_add(ww_probe_stats_t *s, bool ok, uint64_t lat_ns);
/** Fill the window and total fields of out (other fields untouched). */
void ww_probe_stats_summary(const ww_probe_stats_t *s, ww_probe_summary_t *out);

/* ------------------------------------------------------------- policy --- */

enum ww_probe_rot {
	WW_PROBE_ROT_AUTO = 0,  /* only when /sys/block/X/stat shows other I/O
				   since the last probe (the disk is spinning) */
	WW_PROBE_ROT_ALWAYS,
	WW_PROBE_ROT_NEVER,
};

/** What and how to probe on one drive. Filled from serve flags now and from
 * the configuration file later; ww_probe_policy_default() gives the issue's
 * defaults (64 x 4 KiB reads at queue depth 1 every 60 s). */
typedef struct ww_probe_policy {
	bool enabled;
	uint32_t interval_s;        /* between bursts */
	uint32_t count;             /* reads per burst */
	uint32_t block_bytes;       /* multiple of the logical block size */
	uint32_t queue_depth;       /* reads in flight per drive */
	uint32_t max_iops;          /* per drive, 0 = no cap */
	uint32_t busy_inflight;     /* skip a burst while /sys/block/X/inflight
				       (reads + writes) is above this */
	uint32_t timeout_s;         /* a read out this long: drive hung */
	uint64_t range_start_bytes; /* LBA range probed, bytes */
	uint64_t range_len_bytes;   /* 0 = to the end of the device */
	uint32_t window_reads;      /* rolling window, >= WW_PROBE_WINDOW_MIN */
	enum ww_probe_rot rotational;
	/* The latency-drift burst: once every drift_interval_s (0 = none), a
	 * longer burst of block_bytes reads at drift_qd in flight for
	 * drift_seconds, through the same engine and gates, in slices of
	 * WW_PROBE_DRIFT_SLICE_S so the light probes of every drive keep their
	 * schedule (src/sched/probe_sched.c). */
	uint32_t drift_interval_s;
	uint32_t drift_seconds;
	uint32_t drift_qd;
} ww_probe_policy_t;

/** Drift burst defaults: once a day, 30 s at 8 reads in flight. Chosen, not
 * from a source (docs/health.md, "Latency drift"): 30 s at depth 8 gives a
 * disk doing ~150 random reads a second some 4500 reads, 45 of them above
 * the p99, and an SSD far more; 8 in flight is at the light end of the
 * reviews' sweep (2 threads x depth 2 to 16 x 16). */
#define WW_PROBE_DRIFT_INTERVAL_DEFAULT 86400
#define WW_PROBE_DRIFT_SECONDS_DEFAULT 30
#define WW_PROBE_DRIFT_QD_DEFAULT 8
/** A drift burst runs in slices this long; between two slices the due light
 * probes run first and the gates are asked again (a drive that became busy
 * or suspended ends the drift burst, which is tried again later). */
#define WW_PROBE_DRIFT_SLICE_S 1
/** A drift burst that a busy or suspended drive ended is tried again after
 * this many seconds (or drift_interval_s when that is shorter). */
#define WW_PROBE_DRIFT_RETRY_S 600

void ww_probe_policy_default(ww_probe_policy_t *p);

/* ------------------------------------------------------- sysfs gates --- */

/** Read and write I/Os completed (fields 1 and 5 of /sys/block/NAME/stat).
 * Returns 0 or -errno. */
int ww_probe_sysfs_ios(const char *sysroot, const char *block, uint64_t *ios);
/** Reads + writes in flight (/sys/block/NAME/inflight). Returns >= 0 or
 * -errno. */
long ww_probe_sysfs_inflight(const char *sysroot, const char *block);
/** Size of the block device in bytes (/sys/block/NAME/size x 512), or 0. */
uint64_t ww_probe_sysfs_bytes(const char *sysroot, const char *block);

/** Whether a due burst may be sent now. Checks, in order: runtime power
 * status (suspended: "runtime-suspended"), rotational policy ("rotational":
 * AUTO and /sys/block/X/stat unchanged since *last_ios, or NEVER), in-flight
 * I/O above busy_inflight ("busy"). Returns NULL when it may, else the static
 * reason. last_ios: stat I/O count recorded after the previous burst (0 =
 * none yet). */
const char *ww_probe_gate(const char *sysroot, const char *block, bool rotational,
			  const ww_probe_policy_t *p, uint64_t last_ios);

/* -------------------------------------------------------- io_uring engine --- */

/** One completed read, passed to the burst's callback. buf holds the bytes
 * read (res of them) and is valid during the call only. */
typedef struct ww_probe_read {
	uint64_t offset;            /* bytes */
	uint64_t lat_ns;            /* submit to completion reaped */
	int res;                    /* bytes read or -errno */
	const void *buf;
} ww_probe_read_t;

typedef void (*ww_probe_read_fn)(void *ctx, const ww_probe_read_t *r);

/** One burst of random aligned reads on an fd opened O_RDONLY | O_DIRECT.
 * Set the input fields, then ww_probe_burst_start(). */
typedef struct ww_probe_burst {
	/* input */
	int fd;
	uint64_t range_start, range_len; /* bytes; offsets are range_start + k*bs */
	uint32_t bs, qd;
	uint32_t count;             /* reads; 0 = until runtime_ns */
	uint64_t runtime_ns;        /* 0 = until count */
	uint32_t max_iops;          /* 0 = back to back */
	uint64_t timeout_ns;        /* 0 = 30 s */
	uint64_t seed;
	ww_probe_read_fn on_read;
	void *ctx;
	/* Asked right before each read is submitted (NULL = never asked):
	 * false ends the burst there (`stopped`). The daemon re-reads the
	 * runtime power status with it, since the kernel may suspend the drive
	 * after the burst was gated or between two paced reads, and the next
	 * read would wake it. */
	bool (*may_issue)(void *ctx);
	/* output */
	uint32_t issued, completed, errors;
	uint64_t max_ns;            /* slowest successful read */
	int last_error;
	bool done, hung;
	bool stopped;               /* may_issue said no; nothing more issued */
	/* private */
	struct ww_probe_burst *next_;
	uint64_t rng_, start_ns_, next_issue_ns_;
	uint32_t inflight_;
	void *slots_;
} ww_probe_burst_t;

/** The burst a policy asks for on a device of dev_bytes bytes with logical
 * blocks of lbs bytes (0 = 512): read size rounded up to whole blocks, queue
 * depth and count (at least 1), rate cap, timeout (policy's or 30 s), and the
 * probed range (policy's start rounded up to the read size, to the policy's
 * length or the end of the device, whole reads only). Fills the input fields
 * of *b (fd -1, callbacks NULL, seed as given) and clears the rest. Pure.
 * Returns 0, or -ENOSPC when the device holds no read past the range start
 * (nothing to probe). */
int ww_probe_plan_burst(const ww_probe_policy_t *p, uint64_t dev_bytes, uint32_t lbs,
			uint64_t seed, ww_probe_burst_t *b);

typedef struct ww_probe_engine ww_probe_engine_t;

/** One io_uring ring for every drive (entries: sum of queue depths; 0 = 64).
 * Returns NULL with *err = -errno. */
ww_probe_engine_t *ww_probe_engine_new(unsigned entries, int *err);
/** Free; reads still in flight on a hung drive are left to the kernel. */
void ww_probe_engine_free(ww_probe_engine_t *e);
/** Queue a burst (validates: bs a multiple of 512, range holds >= one block,
 * qd >= 1). Returns 0, -EINVAL or -ENOMEM. b stays owned by the caller and
 * must live until done. */
int ww_probe_burst_start(ww_probe_engine_t *e, ww_probe_burst_t *b);
/** Issue due reads of every active burst, wait up to wait_ms for completions,
 * call on_read per completion, mark bursts done (all reads back, or a read out
 * longer than timeout_ns: hung). Returns the number of bursts that became done
 * (their `done` is set and they are no longer referenced), or -errno. */
int ww_probe_engine_step(ww_probe_engine_t *e, unsigned wait_ms);
/** Bursts still active. */
unsigned ww_probe_engine_active(const ww_probe_engine_t *e);

/** I/O priority set on every read: best-effort class, level 7 (the lowest
 * best-effort level; not the idle class, which under mq-deadline can wait
 * seconds behind other I/O and would measure the scheduler). */
#define WW_PROBE_IOPRIO ((2u << 13) | 7u)

/** Monotonic clock in ns. */
uint64_t ww_probe_now_ns(void);

#ifdef __cplusplus
}
#endif
#endif
