/* libmicrohttpd loaded on first use (mhd.h says why). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "http/mhd.h"

struct ww_mhd ww_mhd;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[256];
static int result = -ELIBACC;
static unsigned opened;

struct sym {
	void **fn;
	const char *name;
};

/* 0 when `soname` and every one of its n symbols were found, else why */
static int load_lib(const char *soname, const struct sym *sym, size_t n)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		snprintf(why, sizeof(why), "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!(*sym[i].fn = dlsym(lib, sym[i].name))) {
			snprintf(why, sizeof(why), "%s: no %s", soname, sym[i].name);
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

	if (load_lib(WW_MHD_SONAME, mhd, sizeof(mhd) / sizeof(mhd[0])))
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
