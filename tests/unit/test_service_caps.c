/* The collector's own capability drop (src/service/caps.c): started as root
 * outside systemd it keeps CAP_SYS_RAWIO and CAP_SYS_ADMIN only (the unit's
 * CapabilityBoundingSet), with no_new_privs; under systemd (INVOCATION_ID)
 * or not as root it changes nothing. Each case runs in a child, read back
 * from /proc/self/status. Skips when not run as root. */
#include <sys/wait.h>
#include <unistd.h>

#include "wearwatch/service.h"
#include "ww_test.h"

#define KEEP ((1ull << 17) | (1ull << 21)) /* CAP_SYS_RAWIO, CAP_SYS_ADMIN */

static unsigned long long field(const char *name)
{
	char line[256];
	unsigned long long v = ~0ull;
	FILE *f = fopen("/proc/self/status", "r");
	size_t n = strlen(name);

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':')
			v = strtoull(line + n + 1, NULL, line[0] == 'N' ? 10 : 16);
	if (f)
		fclose(f);
	return v;
}

/* exit status of the child: 0 when every check held */
static int child(bool systemd)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char msg[256];
		unsigned long long eff0 = field("CapEff");
		int rc;

		if (systemd)
			setenv("INVOCATION_ID", "0123456789abcdef0123456789abcdef", 1);
		else
			unsetenv("INVOCATION_ID");
		rc = ww_service_drop_caps(msg, sizeof(msg));
		if (systemd)
			_exit(rc == 0 && field("CapEff") == eff0 ? 0 : 1);
		if (rc != 1 || !strstr(msg, "cap_sys_rawio and cap_sys_admin"))
			_exit(2);
		if (field("CapEff") != KEEP || field("CapPrm") != KEEP || field("CapBnd") != KEEP)
			_exit(3);
		_exit(field("NoNewPrivs") == 1 ? 0 : 4);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: test_service_caps needs root (the drop starts from root's sets)\n");
		return 77;
	}
	CHECK_EQ_I64(child(false), 0);
	CHECK_EQ_I64(child(true), 0);
	return ww_test_done("test_service_caps");
}
