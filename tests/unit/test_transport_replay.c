/* The capture parser (src/transport/replay.c) on hostile files: each input
 * is the smallest file that showed the fault, kept as a fuzz seed in
 * tests/fuzz/regress/ too. A malformed block is refused with its line, never
 * read past its buffer (the suite's fuzz harness runs this parser under
 * ASan). */
#include <unistd.h>

#include "wearwatch/transport.h"
#include "ww_test.h"

static char dir[] = "/tmp/ww-replay-XXXXXX";

/* write text to a file of dir, open it as a replay; rc, *line set */
static int open_text(const char *name, const char *text, ww_xport_t *x, int *line)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	*line = 0;
	return ww_xport_open_replay(path, x, line);
}

#define ST(len) "st ret=0 result=ok errno=0 scsi_status=0x0 sense_key=0x0 asc=0x0 ascq=0x0 " \
		"nvme_status=0x0 nvme_result=0x0 data_len=" #len "\n"

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char path[4096];
	ww_xport_t x;
	int line, rc;

	if (!mkdtemp(dir))
		return 1;
	/* a second st in one block: the data buffer was allocated anew for 1
	 * byte while 2 had been read, and the next data line was written at
	 * offset 2 with a size of (size_t)-1 (heap overflow, SIGSEGV in
	 * `wearwatch decode`) */
	if (src) {
		snprintf(path, sizeof(path), "%s/tests/fuzz/regress/capture-double-st.capture", src);
		line = 0;
		CHECK_EQ_I64(ww_xport_open_replay(path, &x, &line), -EINVAL);
		CHECK_EQ_I64(line, 4);
	}
	CHECK_EQ_I64(open_text("a", "cmd x\n" ST(2) "data 0000\n" ST(1) "data 00\nend\n", &x, &line),
		     -EINVAL);
	CHECK_EQ_I64(line, 4);
	/* the same with a status of no data first */
	CHECK_EQ_I64(open_text("b", "cmd x\n" ST(0) ST(4) "data 00000000\nend\n", &x, &line),
		     -EINVAL);
	CHECK_EQ_I64(line, 3);
	/* more data lines than data_len: refused, not appended */
	CHECK_EQ_I64(open_text("c", "cmd x\n" ST(1) "data 00\ndata 00\nend\n", &x, &line),
		     -EINVAL);
	CHECK_EQ_I64(line, 4);
	/* data before its status */
	CHECK_EQ_I64(open_text("d", "cmd x\ndata 00\n" ST(1) "end\n", &x, &line), -EINVAL);
	CHECK_EQ_I64(line, 2);
	/* signs and blanks are not hex digits ("%2x" took "-1" as 0xff) */
	CHECK_EQ_I64(open_text("e", "cmd x\n" ST(1) "data -1\nend\n", &x, &line), -EINVAL);
	CHECK_EQ_I64(line, 4);
	/* a block left open at the end */
	CHECK_EQ_I64(open_text("f", "cmd x\n" ST(1) "data 00\n", &x, &line), -EINVAL);
	CHECK_EQ_I64(line, 3);
	/* well formed: answered with its bytes */
	rc = open_text("g", "# c\nfact id a\ncmd scsi_in cdb=12 len=2\n" ST(2) "data aB01\nend\n",
		       &x, &line);
	CHECK_EQ_I64(rc, 0);
	if (!rc) {
		uint8_t cdb[1] = { 0x12 }, buf[2] = { 0, 0 };
		ww_cmd_status_t st;

		CHECK_EQ_U64(ww_replay_n_cmds(&x), 1);
		CHECK_EQ_I64(x.ops->scsi_in(&x, cdb, 1, buf, 2, 1, &st), 0);
		CHECK_EQ_U64(st.data_len, 2);
		CHECK_EQ_U64(buf[0], 0xab);
		CHECK_EQ_U64(buf[1], 0x01);
		ww_xport_close(&x);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		fprintf(stderr, "cannot remove %s\n", dir);
	return ww_test_done("test_transport_replay");
}
