/* libmicrohttpd loaded on first use (mhd.h says why). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "http/mhd.h"

struct ww_mhd ww_mhd;
struct ww_gnutls ww_gnutls;

static pthread_once_t once = PTHREAD_ONCE_INIT, tls_once = PTHREAD_ONCE_INIT;
static char why[256], tls_why[256];
static int result = -ELIBACC, tls_result = -ELIBACC;
static unsigned opened;

struct sym {
	void **fn;
	const char *name;
};

/* 0 when `soname` and every one of its n symbols were found, else -1 and
 * reason[256] says what was not */
static int load_lib(const char *soname, const struct sym *sym, size_t n, char *reason)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		snprintf(reason, 256, "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!(*sym[i].fn = dlsym(lib, sym[i].name))) {
			snprintf(reason, 256, "%s: no %s", soname, sym[i].name);
			return -1;
		}
	}
	return 0;
}

static void load_once(void)
{
	const struct sym mhd[] = {
#define WW_MHD_SYMBOL(name) { (void **)&ww_mhd.name, "MHD_" #name },
		WW_MHD_FUNCTIONS(WW_MHD_SYMBOL)
#undef WW_MHD_SYMBOL
	};

	if (load_lib(WW_MHD_SONAME, mhd, sizeof(mhd) / sizeof(mhd[0]), why))
		return;
	opened++;
	result = 0;
}

int ww_mhd_load(char *err, size_t errlen)
{
	pthread_once(&once, load_once);
	if (result && err)
		snprintf(err, errlen, "%s (Debian's libmicrohttpd12)", why);
	return result;
}

unsigned ww_mhd_loads(void)
{
	return opened;
}

static void tls_load_once(void)
{
	const struct sym tls[] = { { (void **)&ww_gnutls.hmac_fast, "gnutls_hmac_fast" } };

	if (!load_lib(WW_GNUTLS_SONAME, tls, sizeof(tls) / sizeof(tls[0]), tls_why))
		tls_result = 0;
}

int ww_gnutls_load(char *err, size_t errlen)
{
	pthread_once(&tls_once, tls_load_once);
	if (tls_result && err)
		snprintf(err, errlen, "%s (Debian's libgnutls30)", tls_why);
	return tls_result;
}
