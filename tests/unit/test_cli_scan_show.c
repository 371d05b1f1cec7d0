/* The built binary's `scan` and `show` on the fake sysfs tree
 * tests/fixtures/sysfs/basic (exit codes, output); device nodes are looked up
 * under the tree, so no drive of this machine is opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ww_test.h"

static char root[4096];

/* Run the binary; returns its exit code, output in out (NUL-terminated). */
static int run(const char *bin, const char *const argv[], char *out, size_t len)
{
	int pfd[2], st;
	pid_t pid;
	size_t o = 0;
	ssize_t k;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	while (o + 1 < len && (k = read(pfd[0], out + o, len - 1 - o)) > 0)
		o += (size_t)k;
	out[o] = 0;
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli(void)
{
	const char *bin = getenv("WW_BINARY");
	static char out[65536];

	if (!bin || access(bin, X_OK)) {
		printf("note: WW_BINARY not set, CLI checks skipped\n");
		return;
	}
	{
		const char *a[] = { bin, "scan", "--sysroot", root, NULL };
		CHECK_EQ_I64(run(bin, a, out, sizeof(out)), 0);
		CHECK(strstr(out, "wwn-0x5000c500a1b2c3d4") != NULL);
		CHECK(strstr(out, "sdb,sdc") != NULL);
		CHECK(strstr(out, "nvme0n1,nvme0n2") != NULL);
		CHECK(strstr(out, "none: virtio-blk has no health interface") != NULL);
		CHECK(strstr(out, "loop0") == NULL);
	}
	{
		const char *a[] = { bin, "scan", "--json", "--sysroot", root, NULL };
		CHECK_EQ_I64(run(bin, a, out, sizeof(out)), 0);
		CHECK(out[0] == '[');
		CHECK(strstr(out, "\"health_read_with\":\"ata via sat\"") != NULL);
		CHECK(strstr(out, "\"id\":\"nvme-eui.0025388b91b3a2c1\"") != NULL);
		/* scsi_debug (sde): SAS from the kernel's cached VPD 0x83, as every
		 * other output names it */
		const char *sde = strstr(out, "\"device\":\"/dev/sde\"");
		const char *tr = sde ? strstr(sde, "\"transport\":") : NULL;
		CHECK(tr && !strncmp(tr, "\"transport\":\"sas\"", 17));
	}
	{	/* runtime-suspended -> 1, found by controller node */
		const char *a[] = { bin, "show", "/dev/nvme0", "--sysroot", root, NULL };
		CHECK_EQ_I64(run(bin, a, out, sizeof(out)), 1);
		CHECK(strstr(out, "Drive nvme-eui.0025388b91b3a2c1") != NULL);
		/* nothing was read: no section claims anything about the drive */
		CHECK(strstr(out, "not read: the drive was left alone (runtime-suspended)") != NULL);
		CHECK(strstr(out, "SMART overall status") == NULL);
		CHECK(strstr(out, "NVMe SMART/Health") == NULL);
	}
	{	/* by second namespace and by id */
		const char *a[] = { bin, "show", "nvme0n2", "--sysroot", root, NULL };
		CHECK_EQ_I64(run(bin, a, out, sizeof(out)), 1);
		const char *b[] = { bin, "show", "wwn-0x5002538f42a1b2c3", "--sysroot", root,
				    "--json", NULL };
		int rc = run(bin, b, out, sizeof(out));
		CHECK(rc == 0 || rc == 3);
		CHECK_EQ_I64(rc, 3); /* its /dev/sg0 is not in the tree: read failed */
		CHECK(strstr(out, "/dev/sg0") != NULL);
		CHECK(strstr(out, "wwn-0x5002538f42a1b2c3") != NULL);
		CHECK(out[0] == '{');
	}
	{	/* no health interface -> 4, with the reason in the output */
		const char *a[] = { bin, "show", "/dev/vda", "--sysroot", root, NULL };
		CHECK_EQ_I64(run(bin, a, out, sizeof(out)), 4);
		CHECK(strstr(out, "no health interface") != NULL);
	}
	{
		const char *a[] = { bin, "show", "sdz", "--sysroot", root, NULL };
		CHECK_EQ_I64(run(bin, a, out, sizeof(out)), 2);
		const char *b[] = { bin, "show", NULL };
		CHECK_EQ_I64(run(bin, b, out, sizeof(out)), 2);
		const char *c[] = { bin, "frobnicate", NULL };
		CHECK_EQ_I64(run(bin, c, out, sizeof(out)), 2);
		const char *e[] = { bin, "show", "--help", NULL };
		CHECK_EQ_I64(run(bin, e, out, sizeof(out)), 0);
		CHECK(strstr(out, "usage: wearwatch show") != NULL);
		const char *f[] = { bin, "--help", NULL };
		CHECK_EQ_I64(run(bin, f, out, sizeof(out)), 0);
		CHECK(strstr(out, "scan") && strstr(out, "serve"));
	}
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/basic", src ? src : ".");
	test_cli();
	return ww_test_done("test_cli_scan_show");
}
