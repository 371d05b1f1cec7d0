/* The HTTP front end's state, shared by its daemon half (webfront.c: start,
 * stop, reload, connection callbacks) and its request half (handler.c).
 * Private to src/http/.
 *
 * Threads: libmicrohttpd's pool of WW_HTTP_IO_THREADS polls every connection
 * and runs the handler, which never blocks: a bcrypt check, a request to the
 * collector, a history query and the fleet page's queries to Prometheus
 * are jobs on pools of their own (jobs.h)
 * while the connection is suspended; the dashboard's files are answered at
 * once. So a slow collector or an expensive login holds only the requests
 * that need it, and at most the threads of its pool. */
#ifndef WW_HTTP_FRONT_H
#define WW_HTTP_FRONT_H

#include <stdbool.h>
#include <sys/socket.h>

#include "wearwatch/http.h"
#include "http/mhd.h"
#include "http/guard.h"
#include "http/jobs.h"

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

#define WW_HTTP_IO_THREADS 2
#define WW_HTTP_CONN_LIMIT 1024     /* at most, and below the fd limit (each
				       polling thread takes an equal share) */
/* per client address: a browser opens 6 per page context, and a reverse
 * proxy or an office behind NAT is one address for everyone (8 turned the
 * dashboard's own test away); tricklers are cut by the request deadline */
#define WW_HTTP_CONN_PER_IP 64
#define WW_HTTP_IDLE_S 10           /* libmicrohttpd's inactivity timeout */
#define WW_HTTP_MAX_ARGS 8          /* query arguments (the routes take 4) */
#define WW_HTTP_FETCH_MS 8000       /* a route from the collector, queue included */
#define WW_HTTP_HISTORY_MS 12000    /* a history query, queue included */
#define WW_HTTP_AUTH_WAIT_MS 10000  /* a login check waiting longer: 503 */

struct ww_webfront {
	ww_conf_t conf;
	ww_webcfg_t wc;
	struct MHD_Daemon *mhd;
	int fd;
	bool activated; /* fd came from systemd (wearwatch-web.socket) */
	uint16_t port;
	ww_webfront_fetch_fn fetch;
	void *ctx;
	/* while started: deadlines and login limits, and the job pools */
	ww_guard_t *guard;
	ww_jobq_t *authq, *fastq, *slowq, *fleetq;
};

/* One request, from its request line (the URI callback) to its end
 * (completed callback); the handler's *req_cls. */
struct ww_req {
	ww_job_t job;
	ww_webfront_t *w;
	struct MHD_Connection *c;
	enum { WW_REQ_NEW, WW_REQ_AUTH, WW_REQ_FETCH, WW_REQ_READY } state;
	bool bad_uri;          /* longer than any route or too many arguments */
	bool headers_seen;     /* the first call (headers) is past */
	bool busy;             /* a pool was full or stopping */
	bool auth_ok;
	bool fleet;            /* the fetch is the fleet page's (Prometheus) */
	unsigned fleet_page;   /* its ?page= (1 when absent) */
	int rc;                /* fetch result */
	ww_route_reply_t r;
	char *user, *pass;     /* the login under check (pass zeroed when done) */
	char key[WW_HTTP_AUTH_KEY_LEN];
	struct sockaddr_storage addr;
	long long deadline_ms;
	char path[WW_ROUTE_MAX_PATH + 2];
};

/** The access handler (libmicrohttpd's MHD_AccessHandlerCallback). */
MHD_RESULT ww_http_handle(void *cls, struct MHD_Connection *c, const char *url,
			  const char *method, const char *version, const char *upload,
			  size_t *upload_size, void **req_cls);

/** Free a request (completed callback). */
void ww_http_req_free(struct ww_req *q);

#endif
