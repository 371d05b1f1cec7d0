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

#include <microhttpd.h>
#include <systemd/sd-daemon.h>

#include "daemon/config.h"
#include "daemon/http.h"
#include "daemon/http_assets.h"
#include "daemon/ipc.h"
#include "daemon/log.h"
#include "daemon/notify.h"
#include "daemon/service.h"
#include "daemon/webcfg.h"

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

#define IPC_TIMEOUT_MS 10000

struct web {
	ww_conf_t conf;
	ww_webcfg_t wc;
	struct MHD_Daemon *mhd;
	int fd;
	bool activated; /* fd came from systemd (wearwatch-web.socket) */
};

static MHD_RESULT reply(struct MHD_Connection *c, unsigned status, const char *type,
			char *body, size_t len, bool auth_fail)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	MHD_RESULT ret;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (auth_fail)
		ret = MHD_queue_basic_auth_fail_response(c, "wearwatch", r);
	else
		ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static MHD_RESULT text(struct MHD_Connection *c, unsigned status, const char *t, bool auth_fail)
{
	char *b = strdup(t);

	return b ? reply(c, status, "text/plain; charset=utf-8", b, strlen(b), auth_fail) : MHD_NO;
}

static MHD_RESULT handle(void *cls, struct MHD_Connection *c, const char *url,
			 const char *method, const char *version, const char *upload,
			 size_t *upload_size, void **req_cls)
{
	struct web *w = cls;
	ww_route_reply_t r;
	int rc;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n", false);
	if (w->wc.n_users) {
		char *pass = NULL, *user = MHD_basic_auth_get_username_password(c, &pass);
		bool ok = user && pass && ww_webcfg_check_user(&w->wc, user, pass);

		if (pass) {
			explicit_bzero(pass, strlen(pass));
			MHD_free(pass);
		}
		if (user)
			MHD_free(user);
		if (!ok)
			return text(c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n", true);
	}
	{
		int aret; /* dashboard files are in this binary: no collector needed */

		if (ww_http_assets_reply(c, url, &aret))
			return (MHD_RESULT)aret;
	}
	if (!ww_route_path_valid(url))
		return text(c, MHD_HTTP_NOT_FOUND, "not found\n", false);
	rc = ww_ipc_request(w->conf.socket_path, url, IPC_TIMEOUT_MS, &r);
	if (rc < 0) {
		ww_log(WW_LOG_WARNING, "collector at %s: %s", w->conf.socket_path, strerror(-rc));
		return text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "collector unavailable\n", false);
	}
	return reply(c, r.status, r.type, r.body, r.len, false);
}

static int bind_listen(const char *spec)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *res, *ai;
	char host[256], ps[8];
	uint16_t port;
	int fd = -EADDRNOTAVAIL, one = 1, zero = 0;

	if (ww_http_parse_listen(spec, host, sizeof(host), &port))
		return -EINVAL;
	snprintf(ps, sizeof(ps), "%u", port);
	if (getaddrinfo(host[0] ? host : "::", ps, &hints, &res))
		return -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			fd = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6) /* "" and "[::]" serve IPv4 too */
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, host[0] ? &one : &zero, sizeof(int));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 64))
			break;
		close(fd);
		fd = -errno;
	}
	freeaddrinfo(res);
	return fd;
}

static int start(struct web *w, int fd)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC |
			 MHD_USE_ERROR_LOG;

	w->fd = fd;
	if (w->wc.tls) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
			return -EPROTONOSUPPORT;
		w->mhd = MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handle, w,
					  MHD_OPTION_LISTEN_SOCKET, fd,
					  MHD_OPTION_HTTPS_MEM_CERT, w->wc.cert_pem,
					  MHD_OPTION_HTTPS_MEM_KEY, w->wc.key_pem,
					  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)15,
					  MHD_OPTION_CONNECTION_LIMIT, (unsigned)128, MHD_OPTION_END);
	} else {
		w->mhd = MHD_start_daemon(flags, 0, NULL, NULL, handle, w,
					  MHD_OPTION_LISTEN_SOCKET, fd,
					  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)15,
					  MHD_OPTION_CONNECTION_LIMIT, (unsigned)128, MHD_OPTION_END);
	}
	return w->mhd ? 0 : -EIO;
}

/* hands the listening socket back (not closed) */
static int stop(struct web *w)
{
	int fd = MHD_quiesce_daemon(w->mhd);

	MHD_stop_daemon(w->mhd);
	w->mhd = NULL;
	return fd;
}

static int load(struct web *w, int argc, char **argv, char *err, size_t errlen)
{
	int rc = ww_conf_build(&w->conf, argc, argv, err, errlen);

	if (!rc && w->conf.web_config[0])
		rc = ww_webcfg_load(&w->wc, w->conf.web_config, err, errlen);
	return rc;
}

/* Refuse to run with privileges the web side must not have. faccessat with
 * AT_EACCESS asks the kernel's permission check (capabilities included)
 * without opening the node, so no drive is touched. */
static int privilege_check(const char *dev_dir)
{
	static const char *const prefixes[] = { "sd", "sg", "nvme", "ng", "hd", "vd", "xvd",
						"megaraid" };
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
		ww_log(WW_LOG_ERR, "web: refusing to run with capabilities (CapEff %016llx); "
		       "run it as wearwatch-web.service or as an unprivileged user", capeff);
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

int ww_web_main(int argc, char **argv)
{
	struct web *w = calloc(1, sizeof(*w)), *n;
	const char *dev_dir = "/dev";
	char err[512];
	sigset_t sigs;
	int rc, fd, sig = 0;
	struct timespec tick;

	if (!w)
		return 1;
	if (ww_service_wants_help(argc, argv, "web"))
		return free(w), 0;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--dev-dir"))
			dev_dir = argv[i + 1];
	if (load(w, argc, argv, err, sizeof(err))) {
		ww_log(WW_LOG_ERR, "%s", err);
		return 2;
	}
	if (privilege_check(dev_dir))
		return 1;
	sigs = ww_service_block_signals();
	if (sd_listen_fds(1) == 1) {
		fd = SD_LISTEN_FDS_START;
		w->activated = true;
	} else {
		fd = bind_listen(w->conf.listen);
	}
	if (fd < 0 || (rc = start(w, fd))) {
		ww_log(WW_LOG_ERR, "cannot serve on %s: %s", w->conf.listen,
		       strerror(fd < 0 ? -fd : -rc));
		return 1;
	}
	ww_log(WW_LOG_INFO, "web on %s (%s%s), collector %s", w->activated ? "socket from systemd" :
	       w->conf.listen, w->wc.tls ? "https" : "http", w->wc.n_users ? ", basic auth" : "",
	       w->conf.socket_path);
	ww_notify_ready(w->wc.tls ? "serving https" : "serving http");
	tick = ww_service_tick_interval();
	for (;;) {
		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		if (sig == SIGHUP) {
			ww_notify_reloading(1);
			n = calloc(1, sizeof(*n));
			if (!n || load(n, argc, argv, err, sizeof(err))) {
				ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration",
				       n ? err : "out of memory");
				if (n)
					ww_webcfg_clear(&n->wc);
				free(n);
				ww_notify_reloading(0);
				continue;
			}
			n->activated = w->activated;
			if (w->activated || !strcmp(n->conf.listen, w->conf.listen)) {
				/* same socket, new settings (TLS, users) */
				fd = stop(w);
				rc = start(n, fd);
			} else {
				fd = bind_listen(n->conf.listen);
				rc = fd < 0 ? fd : start(n, fd);
				if (!rc)
					close(stop(w));
				else if (fd >= 0)
					close(fd);
			}
			if (rc) {
				ww_log(WW_LOG_ERR, "reload: cannot serve on %s: %s; keeping %s",
				       n->conf.listen, strerror(-rc), w->conf.listen);
				if (!w->mhd && start(w, fd))
					break;
				ww_webcfg_clear(&n->wc);
				free(n);
			} else {
				ww_log(WW_LOG_INFO, "reloaded: web on %s (%s%s)", n->conf.listen,
				       n->wc.tls ? "https" : "http", n->wc.n_users ? ", basic auth" : "");
				ww_webcfg_clear(&w->wc);
				free(w);
				w = n;
			}
			ww_notify_reloading(0);
		}
		ww_notify_watchdog();
	}
	ww_notify_stopping();
	ww_log(WW_LOG_INFO, "%s: stopping", sig > 0 ? strsignal(sig) : "error");
	if (w->mhd)
		close(stop(w));
	ww_webcfg_clear(&w->wc);
	free(w);
	return 0;
}
