/* Health-change events (src/service/events.c): a change between two
 * snapshots runs the notification program (a real child process; its
 * environment is read back). Expected values come from the snapshots built
 * here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/service.h"
#include "ww_test.h"

/* two snapshots of one drive: SMART overall status PASSED, then FAILED */
static void test_health_change_runs_program(void)
{
	char dir[] = "/tmp/ww-events-XXXXXX", prog[300], out[300], line[512], all[4096] = "";
	ww_drive_state_t a, b;
	ww_snapshot_t s1 = { .generation = 1, .n = 1, .drives = &a };
	ww_snapshot_t s2 = { .generation = 2, .n = 1, .drives = &b };
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(prog, sizeof(prog), "%s/notify.sh", dir);
	snprintf(out, sizeof(out), "%s/env.txt", dir);
	f = fopen(prog, "w");
	fprintf(f, "#!/bin/sh\nenv | grep ^WEARWATCH_ | sort > %s.tmp && mv %s.tmp %s\n", out, out,
		out);
	fclose(f);
	chmod(prog, 0755);

	memset(&a, 0, sizeof(a));
	snprintf(a.drive.id, sizeof(a.drive.id), "ata-TEST_DISK_1");
	snprintf(a.drive.dev_path, sizeof(a.drive.dev_path), "/dev/sdq");
	a.present = true;
	a.has_health = true;
	snprintf(a.health.model, sizeof(a.health.model), "TEST DISK");
	snprintf(a.health.serial, sizeof(a.health.serial), "SN123");
	a.health.smart_status = WW_SMART_PASSED;
	b = a;
	b.health.smart_status = WW_SMART_FAILED;

	CHECK_EQ_I64(ww_events_diff(&s1, &s1, prog), 0); /* no change, no event */
	/* FAILED: a critical-warning event and the health change */
	CHECK_EQ_I64(ww_events_diff(&s1, &s2, prog), 2);
	/* wait for the program (a child process) to write its file: bounded,
	 * 5 s in 5 ms steps */
	for (int i = 0; i < 1000 && access(out, R_OK); i++) {
		usleep(5000);
		ww_events_reap(30);
	}
	f = fopen(out, "r");
	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f))
		strncat(all, line, sizeof(all) - strlen(all) - 1);
	if (f)
		fclose(f);
	CHECK(strstr(all, "WEARWATCH_EVENT=health_change\n"));
	CHECK(strstr(all, "WEARWATCH_DRIVE=ata-TEST_DISK_1\n"));
	CHECK(strstr(all, "WEARWATCH_DEVICE=/dev/sdq\n"));
	CHECK(strstr(all, "WEARWATCH_MODEL=TEST DISK\n"));
	CHECK(strstr(all, "WEARWATCH_SERIAL=SN123\n"));
	CHECK(strstr(all, "WEARWATCH_OLD_STATE=ok\n"));
	CHECK(strstr(all, "WEARWATCH_NEW_STATE=failed\n"));
	CHECK(strstr(all, "WEARWATCH_REASONS=SMART overall status FAILED\n"));
	CHECK(strstr(all, "WEARWATCH_MESSAGE=health ok -> failed: SMART overall status FAILED\n"));
	ww_events_reap(30);
	unlink(out);
	unlink(prog);
	rmdir(dir);
}

int main(void)
{
	test_health_change_runs_program();
	return ww_test_done("test_service_events");
}
