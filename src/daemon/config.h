/* Service configuration: /etc/wearwatch/wearwatch.conf (INI, read with inih)
 * then command-line flags on top. The section syntax is documented in
 * wearwatch.conf(5) (man/wearwatch.conf.5) and the commented example
 * etc/wearwatch.conf.example. */
#ifndef WW_DAEMON_CONFIG_H
#define WW_DAEMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <getopt.h>

#define WW_CONF_DEFAULT_PATH "/etc/wearwatch/wearwatch.conf"
#define WW_CONF_DEFAULT_SOCKET "/run/wearwatch/collector.sock"
#define WW_CONF_DEFAULT_STATE_DIR "/var/lib/wearwatch"
#define WW_CONF_MAX_INCLUDE 32
#define WW_CONF_MAX_DRIVES 64

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
	unsigned line;            /* line of the section header */
} ww_conf_drive_t;

/** Everything the file and flags set. Times in seconds. */
typedef struct ww_conf {
	/* [web] */
	char listen[128];           /* HOST:PORT, see ww_http_parse_listen() */
	char web_config[256];       /* Prometheus exporter-toolkit web.config, "" = plain HTTP, no auth */
	/* [collector] */
	char socket_path[108];      /* Unix socket between collector and web */
	char state_dir[256];
	char sysroot[256];          /* "" = live system (tests: a sysfs tree) */
	unsigned workers;
	unsigned hung_after_s;
	char include[WW_CONF_MAX_INCLUDE][32];
	size_t n_include;
	/* [poll] */
	unsigned interval_s, interval_rotational_s, rediscover_s; /* rediscover 0 = interval */
	/* [history] */
	unsigned retention_s;          /* history kept, 0 = forever (the default) */
	unsigned missing_retention_s;  /* a removed drive stays listed this long */
	/* [notify] */
	char notify_exec[256];         /* program run on events, "" = none */
	unsigned notify_timeout_s;
	/* [drive NAME] */
	ww_conf_drive_t drives[WW_CONF_MAX_DRIVES];
	size_t n_drives;
	/* where it came from */
	char path[256];                /* file read, "" = defaults only */
} ww_conf_t;

/** Built-in defaults (listen ":9786", poll 60 s / 600 s, ...). */
void ww_conf_defaults(ww_conf_t *c);

/** Parse `path` on top of *c. A missing file is not an error when
 * `optional` (c->path stays ""). On a syntax or value error returns -EINVAL
 * and writes "path:line: what" to err (c is then partly updated: parse into
 * a scratch copy and keep the last good one). -errno when the file exists
 * but cannot be read. */
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

/** getopt_long table of the flags ww_conf_apply_args() takes (NULL-ended),
 * for commands that accept those flags among their own (`serve`). */
const struct option *ww_conf_options(void);

/** Drive section for a drive id or block name, or NULL. */
const ww_conf_drive_t *ww_conf_drive_find(const ww_conf_t *c, const char *id,
					  const char *block);

/** Command-line flags shared by `serve`, `collector` and `web`, applied on top
 * of the file at start and again after every reload (flags win). Recognised:
 * --config FILE, --listen, --web-config, --socket, --state-dir, --sysroot,
 * --poll-interval, --poll-interval-rotational, --rediscover,
 * --missing-retention, --hung-after, --workers, --include (repeatable),
 * --notify-exec. Returns 0, or -EINVAL with the message in err. */
int ww_conf_apply_args(ww_conf_t *c, int argc, char **argv, char *err, size_t errlen);

/** The --config value in argv, else WW_CONF_DEFAULT_PATH; *explicit is set
 * when the flag was given (a missing explicit file is an error). */
const char *ww_conf_path_from_args(int argc, char **argv, bool *explicit_);

/** Defaults + file + flags in one step, as every daemon start and SIGHUP
 * does. Returns 0 or negative with err set; *out is only written on success. */
int ww_conf_build(ww_conf_t *out, int argc, char **argv, char *err, size_t errlen);

#endif
