/* `wearwatch web`: the unprivileged half. Serves HTTP(S) with optional basic
 * auth (web.config, webcfg.h); each request's path is checked against the
 * fixed route list and forwarded to the collector (ipc.h), whose answer is
 * relayed. It refuses to start holding a capability or able to open a drive
 * node, so a mistake in the unit fails loudly. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "wearwatch/http.h"
#include "wearwatch/basic.h"
#include "wearwatch/service.h"

/* the collector over its Unix socket (ipc.h), within the request's time */
static int fetch_ipc(void *ctx, const ww_conf_t *conf, const char *path, int timeout_ms,
		     ww_route_reply_t *r)
{
	(void)ctx;
	return ww_ipc_request(conf->socket_path, path, timeout_ms, r);
}

/* Refuse to run with privileges the web side must not have. faccessat with
 * AT_EACCESS asks the kernel's permission check (capabilities included)
 * without opening the node, so no drive is touched. */
static int privilege_check(const char *dev_dir)
{
	static const char *const prefixes[] = { "sd", "sg", "nvme", "ng",
						"hd", "vd", "xvd",  "megaraid" };
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long capeff = ~0ULL;
	unsigned nodes = 0, accessible = 0;
	DIR *d;
	struct dirent *e;

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "CapEff: %llx", &capeff) == 1)
				break;
		fclose(f);
	}
	if (capeff) {
		ww_log(WW_LOG_ERR,
		       "web: refusing to run with capabilities (CapEff %016llx); "
		       "run it as wearwatch-web.service or as an unprivileged user",
		       capeff);
		return -EPERM;
	}
	d = opendir(dev_dir);
	while (d && (e = readdir(d))) {
		struct stat st;
		bool drive = false;

		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			drive |= !strncmp(e->d_name, prefixes[i], strlen(prefixes[i]));
		if (!drive || fstatat(dirfd(d), e->d_name, &st, 0) ||
		    !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
			continue;
		nodes++;
		if (!faccessat(dirfd(d), e->d_name, R_OK, AT_EACCESS)) {
			ww_log(WW_LOG_ERR, "web: refusing to run: %s/%s is accessible", dev_dir,
			       e->d_name);
			accessible++;
		}
	}
	if (d)
		closedir(d);
	ww_log(WW_LOG_INFO, "web: privilege check: CapEff 0, %u of %u drive nodes in %s accessible",
	       accessible, nodes, dev_dir);
	return accessible ? -EPERM : 0;
}

struct web {
	int argc;
	char **argv;
	ww_conf_t conf, next;
	ww_webfront_t *w;
};

static int web_reload(void *ctx)
{
	struct web *x = ctx;
	char err[512];
	int rc;

	rc = ww_conf_build(&x->next, x->argc, x->argv, err, sizeof(err));
	if (!rc)
		rc = ww_webfront_reload(&x->w, &x->next, err, sizeof(err));
	if (rc == -EIO) {
		ww_log(WW_LOG_ERR, "reload: %s", err);
		return WW_SERVICE_STOP;
	}
	if (rc) {
		ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
		return rc;
	}
	if (ww_conf_copy(&x->conf, &x->next)) {
		ww_log(WW_LOG_ERR, "reload: out of memory");
		return WW_SERVICE_STOP;
	}
	ww_log(WW_LOG_INFO, "reloaded: web on %s (%s%s)", ww_webfront_listen(x->w),
	       ww_webfront_scheme(x->w), ww_webfront_auth(x->w) ? ", basic auth" : "");
	return 0;
}

int ww_web_main(int argc, char **argv)
{
	struct web *x = calloc(1, sizeof(*x));
	ww_service_ops_t ops = { NULL, web_reload, x };
	const char *dev_dir = "/dev";
	char err[512], **names = NULL, from[160] = "";
	sigset_t sigs;
	int rc, nfd;

	if (!x)
		return 1;
	x->argc = argc;
	x->argv = argv;
	if (ww_service_wants_help(argc, argv, "web"))
		return free(x), 0;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--dev-dir"))
			dev_dir = argv[i + 1];
	if (ww_conf_build(&x->conf, argc, argv, err, sizeof(err))) {
		ww_log(WW_LOG_ERR, "%s", err);
		return free(x), 2;
	}
	if (privilege_check(dev_dir))
		return free(x), 1;
	ww_service_setup_memory();
	sigs = ww_service_block_signals();
	/* socket activation (wearwatch-web.socket): exactly one socket is
	 * served; anything else binds [web] listen as without it */
	nfd = ww_listen_fds(true, &names);
	if (nfd == 1)
		snprintf(from, sizeof(from), "socket from systemd (%s)", names[0]);
	else if (nfd)
		ww_log(WW_LOG_WARNING, "socket activation ignored (%s): binding %s",
		       nfd < 0 ? strerror(-nfd) : "more than one socket", x->conf.listen);
	free(names);
	x->w = ww_webfront_open(&x->conf, nfd == 1 ? WW_LISTEN_FDS_START : -1, fetch_ipc, NULL, err,
				sizeof(err));
	if (!x->w) {
		ww_log(WW_LOG_ERR, "%s", err);
		return free(x), strstr(err, "cannot serve") ? 1 : 2;
	}
	ww_log(WW_LOG_INFO, "web on %s (%s%s), collector %s", from[0] ? from : x->conf.listen,
	       ww_webfront_scheme(x->w), ww_webfront_auth(x->w) ? ", basic auth" : "",
	       x->conf.socket_path);
	ww_notify_ready(!strcmp(ww_webfront_scheme(x->w), "https") ? "serving https"
								   : "serving http");
	rc = ww_service_run(sigs, &ops);
	ww_webfront_close(x->w);
	free(x);
	return rc;
}
