/* conf: wearwatch.conf (inih), web.config (libyaml) and command-line flags
 * into plain structs, with "file:line: what" errors. Parsing only: nothing
 * here starts a thread, opens a drive or a socket; the service hands these
 * structs to what it starts. */
#ifndef WEARWATCH_CONF_H
#define WEARWATCH_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>

#include "wearwatch/history.h"
#include "wearwatch/model.h"
#include "wearwatch/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Service configuration: /etc/wearwatch/wearwatch.conf (INI, read with inih)
 * then command-line flags on top. The section syntax is documented in
 * wearwatch.conf(5) (man/wearwatch.conf.5) and the commented example
 * etc/wearwatch.conf.example. */

#define WW_CONF_DEFAULT_PATH "/etc/wearwatch/wearwatch.conf"
#define WW_CONF_DEFAULT_SOCKET "/run/wearwatch/collector.sock"
#define WW_CONF_DEFAULT_STATE_DIR "/var/lib/wearwatch"
#define WW_ENDURANCE_MAX_FILES 8   /* ratings tables ([endurance] ratings_file, --ratings-file) */

/** One [drive NAME] section. NAME is a stable id as `wearwatch scan` prints
 * it, or a block device name ("sda", "/dev/nvme0n1"). Settings owned by other
 * modules (rating: endurance rating overrides; probe: latency probe policy)
 * are kept as the raw strings written in the file and handed to those
 * modules' parsers where they exist (see config.c). */
typedef struct ww_conf_drive {
	char name[160];
	int monitor;              /* -1 not set, 0 exclude=yes, 1 include=yes */
	char rating[128];         /* raw "rating =" value, "" = not set */
	char warranty_start[16];  /* "YYYY-MM-DD" (validated), "" = not set */
	char probe[128];          /* raw "probe =" value, "" = not set */
	char smartctl[48];        /* "smartctl =" -d TYPE forcing the smartctl backend, "" = not set */
	ww_health_cfg_t health;   /* health keys of the section (health.set: which) */
	unsigned line;            /* line of the section header */
} ww_conf_drive_t;

#define WW_FLEET_MAX_HEADERS 4

/** [fleet]: where the web side asks Prometheus for the fleet page (see
 * http.h, ww_fleet_query). Credentials are read from the files at each
 * query, never kept in the configuration. */
typedef struct ww_conf_fleet {
	char prometheus[512];         /* http(s)://host:port[/prefix] of Prometheus' HTTP API,
				         "" = no fleet page */
	char user[128];               /* basic auth user, "" = none */
	char password_file[256];      /* basic auth password (first line) */
	char bearer_token_file[256];  /* Authorization: Bearer (first line) */
	char ca_file[256];            /* PEM CA bundle for https, "" = the system's */
	unsigned timeout_s;           /* per query (default 10) */
	/* `header = Name: value` lines sent with every query, in file order:
	 * a multi-tenant backend's tenant (Mimir and Cortex X-Scope-OrgID,
	 * Thanos THANOS-TENANT) or a gateway's key; name a token, value
	 * without control characters */
	char headers[WW_FLEET_MAX_HEADERS][256];
	unsigned n_headers;
	char jobs[128]; /* RE2 regex of the job label of wearwatch's
					 scrape jobs, for the targets' `up`
					 (default wearwatch.*, as the rules) */
} ww_conf_fleet_t;

/** Everything the file and flags set. Times in seconds. */
typedef struct ww_conf {
	/* [web] */
	char listen[128];           /* HOST:PORT, see ww_conf_parse_listen() */
	char web_config[256];       /* Prometheus exporter-toolkit web.config, "" = plain HTTP, no auth */
	/* [collector] */
	char socket_path[108];      /* Unix socket between collector and web */
	char state_dir[256];
	char sysroot[256];          /* "" = live system (tests: a sysfs tree) */
	unsigned workers;
	unsigned hung_after_s;
	char (*include)[32]; /* heap, n_include names (no limit; ww_conf_free) */
	size_t n_include;
	/* [poll] */
	unsigned interval_s, interval_rotational_s,
		rediscover_s; /* rediscover 0 = default (ww_poller_cfg_t) */
	/* [history] */
	unsigned retention_s;          /* history kept, 0 = forever (the default) */
	unsigned missing_retention_s;  /* a removed drive stays listed this long */
	unsigned history_raw_s;        /* every sample kept this long, 0 = the model's default */
	unsigned history_hourly_s;     /* hourly samples kept this long, 0 = default */
	unsigned history_commit_s;     /* pending rows committed this often, 0 = default */
	bool history_off;              /* enabled = no: no history database */
	/* [endurance] */
	char ratings_files[WW_ENDURANCE_MAX_FILES][256];  /* extra ratings tables */
	size_t n_ratings_files;
	/* [probe]: the latency probe policy of drives without a [drive] probe
	 * (the flags --probe-*, --no-probe are applied on top of it) */
	ww_probe_policy_t probe;
	/* [notify] */
	char notify_exec[256];         /* program run on events, "" = none */
	unsigned notify_timeout_s;
	unsigned notify_flap_limit;    /* notifications per drive per flap window */
	unsigned notify_flap_window_s;
	/* [health] */
	ww_health_cfg_t health;        /* thresholds of the verdict for every drive */
	/* [fleet] */
	ww_conf_fleet_t fleet;
	/* [metrics] profile = fleet: /metrics without the static and duplicate
	 * series (docs/metrics.md, Profiles); ?profile= of a scrape wins */
	bool metrics_fleet;
	/* [drive NAME] */
	ww_conf_drive_t *drives; /* heap, n_drives sections (no limit; ww_conf_free) */
	size_t n_drives;
	/* where it came from */
	char path[256];                /* file read, "" = defaults only */
} ww_conf_t;

#define WW_HTTP_DEFAULT_PORT 9786

/** Split a listen address: "[::]:9786", ":9786", "0.0.0.0:9786",
 * "127.0.0.1:9786", "host:port" or a bare "9786". host receives "" for all
 * addresses (also for "[::]", which binds dual-stack), without brackets.
 * Returns 0 or -EINVAL. */
int ww_conf_parse_listen(const char *spec, char *host, size_t hlen, uint16_t *port);

/** Built-in defaults (listen ":9786", poll 60 s / 600 s, ...). c is
 * overwritten: it must hold no lists (fresh, or after ww_conf_free). */
void ww_conf_defaults(ww_conf_t *c);

/** Free the lists (include names, [drive] sections) c owns; c is then as
 * after ww_conf_defaults' memset of them (n_include = n_drives = 0). A
 * ww_conf_t that holds lists is copied with ww_conf_copy, not `=`. */
void ww_conf_free(ww_conf_t *c);

/** dst = src with lists of its own (dst's old ones freed; dst must be
 * zeroed or hold a configuration). Returns 0 or -ENOMEM (dst unchanged). */
int ww_conf_copy(ww_conf_t *dst, const ww_conf_t *src);

/** Parse `path` on top of *c. A missing file is not an error when
 * `optional` (c->path stays ""). On a syntax or value error returns -EINVAL
 * and writes "path:line: what" to err (c is then partly updated: parse into
 * a scratch copy and keep the last good one); a directory or other
 * non-regular file is -EINVAL too. Durations have ranges per key (poll
 * interval 1s-7d, hung_after 1s-1h, ...; see the key table in config.c and
 * wearwatch.conf(5)), the same for the flags. -errno when the file exists but
 * cannot be read. */
int ww_conf_load(ww_conf_t *c, const char *path, bool optional, char *err, size_t errlen);

/** Parse from a string (tests); `name` is used in error messages. */
int ww_conf_load_string(ww_conf_t *c, const char *text, const char *name,
			char *err, size_t errlen);

/** Duration: "90", "90s", "15m", "2h", "7d" -> seconds (> 0). Returns 0 or
 * -EINVAL. */
int ww_conf_parse_duration(const char *s, unsigned *out);

/** True when `name` (optionally "/dev/"-prefixed) looks like a kernel block
 * device name: sd*, hd*, vd*, xvd* + letters, nvmeXnY, dm-N, mdN, loopN. */
bool ww_conf_is_block_name(const char *name);

/** Whether TYPE is a device type smartctl's -d takes (smartmontools 7.3:
 * ata, scsi, nvme[,NSID], sat[,auto][,N], megaraid,N, ..., with +TYPE
 * where smartctl allows it; the list and its source: src/conf/
 * smartctl_types.c). For [drive] smartctl and serve's --smartctl. */
bool ww_conf_smartctl_type_valid(const char *type);

/** getopt_long table of the flags ww_conf_apply_args() takes (NULL-ended),
 * for commands that accept those flags among their own (`serve`). */
const struct option *ww_conf_options(void);

/* The health keys ([health], and the same keys in [drive NAME] on top):
 * temperature_warning, temperature_critical (degrees Celsius, override the
 * drive's own limits), percentage_used_warning, percentage_used_critical,
 * rated_endurance_warning, rated_endurance_critical (percent),
 * increase_window, read_failing_after (durations), ignore_attributes,
 * critical_attributes (ATA attribute ids), silence (reason codes). The
 * meaning of each is in wearwatch.conf(5) and docs/health.md. */

/** Set one health key in c (and its bit in c->set). Returns 0, -ENOENT when
 * key is not a health key, -EINVAL with "what was expected" in err. */
int ww_conf_health_key(ww_health_cfg_t *c, const char *key, const char *value, char *err,
		       size_t errlen);

/** Every key `over` sets (over->set) copied onto base: a [drive] section's
 * keys replace the [health] ones (lists too). */
void ww_conf_health_overlay(ww_health_cfg_t *base, const ww_health_cfg_t *over);

/** The thresholds agree with each other: each warning below its critical
 * (temperature) or not above it (percentages), where both are set. Returns
 * 0, or -EINVAL with both keys and values in err. */
int ww_conf_health_check(const ww_health_cfg_t *c, char *err, size_t errlen);

/** Name of health key i (0, 1, ...), NULL past the last: for checks that
 * every key is documented. */
const char *ww_conf_health_key_name(size_t i);

/** The rating override text of a [drive] section as the model takes it
 * (ww_rating_override_parse): "NAME=RATING[@WARRANTY_START]". Returns 0, or
 * -EINVAL when it does not fit len. */
int ww_conf_drive_rating_spec(const ww_conf_drive_t *d, char *buf, size_t len);

/** Drive section for a drive id or block name, or NULL. */
const ww_conf_drive_t *ww_conf_drive_find(const ww_conf_t *c, const char *id,
					  const char *block);

/** Command-line flags shared by `serve`, `collector` and `web`, applied on top
 * of the file at start and again after every reload (flags win). Recognised:
 * --config FILE, --listen, --web-config, --socket, --state-dir, --sysroot,
 * --poll-interval, --poll-interval-rotational, --rediscover,
 * --missing-retention, --hung-after, --workers, --include (repeatable),
 * --notify-exec, and the probe flags (--probe-*, --no-probe, on top of
 * [probe]). Returns 0, or -EINVAL with the message in err. */
int ww_conf_apply_args(ww_conf_t *c, int argc, char **argv, char *err, size_t errlen);

/** The --config value in argv, else WW_CONF_DEFAULT_PATH; *explicit is set
 * when the flag was given (a missing explicit file is an error). */
const char *ww_conf_path_from_args(int argc, char **argv, bool *explicit_);

/** Defaults + file + flags in one step, as every daemon start and SIGHUP
 * does. Returns 0 or negative with err set; *out is only written on success
 * (its old lists freed: *out must be zeroed or hold a configuration). */
int ww_conf_build(ww_conf_t *out, int argc, char **argv, char *err, size_t errlen);

/* web.config as Prometheus exporters read it (exporter-toolkit
 * docs/web-configuration.md): the subset wearwatch implements is
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM, relative to the web.config's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...          # bcrypt ($2a$, $2b$, $2y$)
 *
 * Parsed with libyaml (Debian's YAML library; the file is YAML and may use
 * quoting, flow style or comments we should not have to re-implement). Other
 * exporter-toolkit keys (client_auth_type, min_version, http_server_config,
 * ...) are rejected with their line so nobody believes they took effect. */

#define WW_WEBCFG_MAX_USERS 32

typedef struct ww_webcfg {
	bool tls;
	char cert_file[512], key_file[512];   /* resolved paths */
	char *cert_pem, *key_pem;              /* file contents (malloc'd) */
	size_t n_users;
	struct { char name[64]; char hash[128]; } users[WW_WEBCFG_MAX_USERS];
} ww_webcfg_t;

/** Load `path`: YAML, keys above, then read the certificate and key files.
 * Returns 0, or negative with "path:line: what" in err. A bcrypt hash libxcrypt
 * could never match is an error: not "$2a$"/"$2b$"/"$2y$", a cost outside
 * 04-31, characters outside bcrypt's base64, a salt or hash whose last
 * character carries bits bcrypt does not write. A directory is no file. */
int ww_webcfg_load(ww_webcfg_t *w, const char *path, char *err, size_t errlen);

/** Free the PEM buffers (the struct itself is the caller's). */
void ww_webcfg_clear(ww_webcfg_t *w);

/** Check user/password against basic_auth_users: bcrypt via libxcrypt
 * crypt_r(), compared in constant time. False for unknown users (after a
 * dummy hash, so timing does not tell which users exist). */
bool ww_webcfg_check_user(const ww_webcfg_t *w, const char *user, const char *password);

/** bcrypt of password with the settings (salt, cost) of `hash`, compared with
 * it in constant time: the primitive under ww_webcfg_check_user. */
bool ww_bcrypt_verify(const char *password, const char *hash);

/* `wearwatch serve` options of the endurance model and history:
 * --state-dir, --no-history, --rating, --ratings-file, --ratings-dir,
 * --history-raw-days, --history-hourly-days. serve.c lists WW_ENDURANCE_SERVE_OPTIONS in its
 * getopt table and hands the codes to ww_conf_endurance_opt(). The config
 * file calls ww_rating_override_parse() (model.h) for rating lines
 * and ww_conf_endurance_opt() for the others. */

enum {
	WW_OPT_END_FIRST = 640,
	WW_OPT_END_STATE_DIR = WW_OPT_END_FIRST,
	WW_OPT_END_NO_HISTORY,
	WW_OPT_END_RATING,
	WW_OPT_END_RATINGS_FILE,
	WW_OPT_END_RAW_DAYS,
	WW_OPT_END_HOURLY_DAYS,
	WW_OPT_END_RATINGS_DIR,
	WW_OPT_END_LAST = WW_OPT_END_RATINGS_DIR,
};

#define WW_ENDURANCE_SERVE_OPTIONS                                                                 \
	{ "state-dir", required_argument, NULL, WW_OPT_END_STATE_DIR },                            \
		{ "no-history", no_argument, NULL, WW_OPT_END_NO_HISTORY },                        \
		{ "rating", required_argument, NULL, WW_OPT_END_RATING },                          \
		{ "ratings-file", required_argument, NULL, WW_OPT_END_RATINGS_FILE },              \
		{ "history-raw-days", required_argument, NULL, WW_OPT_END_RAW_DAYS },              \
		{ "history-hourly-days", required_argument, NULL, WW_OPT_END_HOURLY_DAYS },        \
	{                                                                                          \
		"ratings-dir", required_argument, NULL, WW_OPT_END_RATINGS_DIR                     \
	}

typedef struct ww_conf_endurance_opts {
	const char *state_dir;          /* NULL = WW_HISTORY_DEFAULT_DIR */
	bool no_history;
	ww_ratings_t overrides;
	const char *files[WW_ENDURANCE_MAX_FILES];
	size_t n_files;
	const char *ratings_dir; /* NULL = WW_RATINGS_DIR (model.h) */
	ww_history_cfg_t hist;
} ww_conf_endurance_opts_t;

void ww_conf_endurance_usage(FILE *f);

/** Apply one option; prints the reason to stderr and returns -EINVAL on a bad
 * value, else 0. */
int ww_conf_endurance_opt(int code, const char *arg, ww_conf_endurance_opts_t *o);

/* Per-drive latency probe policy from the configuration file ([drive NAME]
 * probe = ...), parsed next to the probe's serve flags (probe_opts.c) with the
 * same value rules: the file and the flags cannot disagree about a value. */

/** Apply `spec` on top of *p. spec is "off" / "no" (no probes on this
 * drive), "on" / "yes", or comma-separated KEY=VALUE with the serve flags'
 * names without "--probe-": interval, count, bs, qd, max-iops,
 * busy-inflight, rotational, window (e.g. "interval=300,qd=4"; "on" may
 * lead). A KEY=VALUE list turns probing on. Returns 0, or -EINVAL with the
 * reason in err. */
int ww_probe_policy_parse(ww_probe_policy_t *p, const char *spec, char *err, size_t errlen);

/* Latency probe flags (`serve`) and their value parsers. */

/** Parse a size with optional k/m/g suffix (binary units): "4k" = 4096.
 * Returns 0 or -EINVAL. */
int ww_probe_parse_size(const char *s, uint64_t *out);

/** getopt_long option values for serve's probe flags; serve's table ends its
 * own entries with WW_PROBE_SERVE_OPTIONS. */
enum {
	WW_OPT_PROBE_FIRST = 512,
	WW_OPT_PROBE_INTERVAL = WW_OPT_PROBE_FIRST,
	WW_OPT_PROBE_COUNT,
	WW_OPT_PROBE_BS,
	WW_OPT_PROBE_QD,
	WW_OPT_PROBE_IOPS,
	WW_OPT_PROBE_BUSY,
	WW_OPT_PROBE_ROT,
	WW_OPT_PROBE_WINDOW,
	WW_OPT_PROBE_DRIFT_INTERVAL,
	WW_OPT_PROBE_DRIFT_SECONDS,
	WW_OPT_PROBE_DRIFT_QD,
	WW_OPT_NO_PROBE,
	WW_OPT_PROBE_LAST = WW_OPT_NO_PROBE,
};

#define WW_PROBE_SERVE_OPTIONS                                                                     \
	{ "probe-interval", required_argument, NULL, WW_OPT_PROBE_INTERVAL },                      \
		{ "probe-count", required_argument, NULL, WW_OPT_PROBE_COUNT },                    \
		{ "probe-bs", required_argument, NULL, WW_OPT_PROBE_BS },                          \
		{ "probe-qd", required_argument, NULL, WW_OPT_PROBE_QD },                          \
		{ "probe-max-iops", required_argument, NULL, WW_OPT_PROBE_IOPS },                  \
		{ "probe-busy-inflight", required_argument, NULL, WW_OPT_PROBE_BUSY },             \
		{ "probe-rotational", required_argument, NULL, WW_OPT_PROBE_ROT },                 \
		{ "probe-window", required_argument, NULL, WW_OPT_PROBE_WINDOW },                  \
		{ "probe-drift-interval", required_argument, NULL, WW_OPT_PROBE_DRIFT_INTERVAL },  \
		{ "probe-drift-seconds", required_argument, NULL, WW_OPT_PROBE_DRIFT_SECONDS },    \
		{ "probe-drift-qd", required_argument, NULL, WW_OPT_PROBE_DRIFT_QD },              \
	{                                                                                          \
		"no-probe", no_argument, NULL, WW_OPT_NO_PROBE                                     \
	}

/** Help text lines for those flags. */
void ww_probe_serve_usage(FILE *f);

/** Apply one probe flag to the policy. Returns 0 or -EINVAL (nothing
 * printed: the caller names the flag or key). */
int ww_probe_serve_opt(int opt, const char *arg, ww_probe_policy_t *p);

#ifdef __cplusplus
}
#endif
#endif
