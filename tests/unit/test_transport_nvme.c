/* The live NVMe transport (src/transport/nvme_admin.c): open errors, the
 * admin ioctls failing on a node that is not an NVMe device (/dev/null,
 * never a drive), and each command it sends against the one libnvme 1.3's
 * own call builds for the same arguments (the calls the transport made
 * before it issued the ioctl itself). Always runs. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libnvme.h>

#include "wearwatch/transport.h"
#include "ww_test.h"

/* This executable's ioctl comes before libc's for our code and libnvme's
 * alike: while `capturing`, an admin command is kept (not sent) and
 * completes with `fake_status`; everything else goes to the kernel. */
static bool capturing;
static struct nvme_passthru_cmd captured[2];
static unsigned ncaptured;
static int fake_status;

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (capturing && request == NVME_IOCTL_ADMIN_CMD && ncaptured < 2) {
		struct nvme_passthru_cmd *cmd = arg;

		captured[ncaptured++] = *cmd;
		cmd->result = 0x5a5a0001; /* completion dword 0 */
		return fake_status;
	}
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

static bool same_command(const char *what)
{
	bool same = ncaptured == 2 && !memcmp(&captured[0], &captured[1], sizeof(captured[0]));

	if (!same)
		fprintf(stderr,
			"%s: ours opcode %02x nsid %x len %u cdw10 %08x cdw11 %08x cdw14 %08x "
			"timeout %u; libnvme's %02x %x %u %08x %08x %08x %u\n",
			what, captured[0].opcode, captured[0].nsid, captured[0].data_len,
			captured[0].cdw10, captured[0].cdw11, captured[0].cdw14,
			captured[0].timeout_ms, captured[1].opcode, captured[1].nsid,
			captured[1].data_len, captured[1].cdw10, captured[1].cdw11,
			captured[1].cdw14, captured[1].timeout_ms);
	ncaptured = 0;
	return same;
}

/* Identify (controller, namespace), Get Log Page (SMART, C0h, Endurance
 * Group Information with its LSI, a 64 KiB read) and Device Self-test: the
 * same bytes as libnvme's nvme_identify, nvme_get_log and
 * nvme_dev_self_test with the arguments the transport gave them, and the
 * completion's status and dword 0 read back. */
static void test_commands_as_libnvme(void)
{
	static uint8_t buf[65536];
	uint32_t result = 0;
	ww_cmd_status_t st;
	ww_xport_t x;

	CHECK_EQ_I64(ww_xport_open_nvme("/dev/null", &x), 0);
	capturing = true;
	const struct {
		uint8_t cns;
		uint32_t nsid;
	} ids[] = { { 1, 0 }, { 0, 1 } };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		CHECK_EQ_I64(x.ops->nvme_identify(&x, ids[i].cns, ids[i].nsid, buf, 4096, &st), 0);
		CHECK(st.result == WW_CMD_OK);
		CHECK_EQ_U64(st.data_len, 4096);
		CHECK_EQ_U64(st.nvme_result, 0x5a5a0001);
		struct nvme_identify_args args = {
			.result = &result,
			.data = buf,
			.args_size = sizeof(args),
			.fd = x.fd,
			.timeout = 10000,
			.cns = (enum nvme_identify_cns)ids[i].cns,
			.csi = NVME_CSI_NVM,
			.nsid = ids[i].nsid,
			.cntid = NVME_CNTLID_NONE,
			.cns_specific_id = NVME_CNSSPECID_NONE,
			.uuidx = NVME_UUID_NONE,
		};
		CHECK_EQ_I64(nvme_identify(&args), 0);
		CHECK(same_command("identify"));
	}

	const struct {
		uint8_t lid;
		uint32_t nsid;
		uint16_t lsi;
		size_t len;
	} logs[] = {
		{ 0x02, 0xffffffff, 0, 512 },
		{ 0xc0, 0xffffffff, 0, 512 },
		{ 0x09, 0, 1, 512 },
		{ 0x01, 0xffffffff, 0, 65536 },
	};

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		CHECK_EQ_I64(x.ops->nvme_get_log_lsi(&x, logs[i].lid, logs[i].nsid, logs[i].lsi,
						     buf, logs[i].len, &st),
			     0);
		CHECK_EQ_U64(st.data_len, logs[i].len);
		struct nvme_get_log_args args = {
			.lpo = 0,
			.result = &result,
			.log = buf,
			.args_size = sizeof(args),
			.fd = x.fd,
			.timeout = 10000,
			.lid = (enum nvme_cmd_get_log_lid)logs[i].lid,
			.len = (uint32_t)logs[i].len,
			.nsid = logs[i].nsid,
			.csi = NVME_CSI_NVM,
			.lsi = logs[i].lsi,
			.lsp = NVME_LOG_LSP_NONE,
			.uuidx = NVME_UUID_NONE,
			.rae = true,
			.ot = false,
		};
		CHECK_EQ_I64(nvme_get_log(&args), 0);
		CHECK(same_command("get log page"));
	}

	ww_xport_arm_self_test(&x);
	for (uint8_t stc = 1; stc <= 2; stc++) {
		CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, stc, &st), 0);
		struct nvme_dev_self_test_args args = {
			.result = &result,
			.args_size = sizeof(args),
			.fd = x.fd,
			.timeout = 10000,
			.nsid = 0xffffffff,
			.stc = (enum nvme_dst_stc)stc,
		};
		CHECK_EQ_I64(nvme_dev_self_test(&args), 0);
		CHECK(same_command("device self-test"));
	}

	/* a completion with an error status (NVMe Base 2.0 "Generic Command
	 * Status Values"; "Command Specific Status Values" 09h Invalid Log
	 * Page), as the kernel returns it: SCT in bits 10:8, SC in 7:0 */
	fake_status = 0x109;
	CHECK_EQ_I64(x.ops->nvme_get_log(&x, 0xc0, 0xffffffff, buf, 512, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_U64(st.nvme_status, 0x109);
	CHECK_EQ_U64(st.data_len, 0);
	fake_status = 0x281; /* SCT 2h media error, SC 81h Unrecovered Read Error */
	CHECK_EQ_I64(x.ops->nvme_identify(&x, 1, 0, buf, 4096, &st), 0);
	CHECK(st.result == WW_CMD_DEVICE_ERROR);
	fake_status = 0;
	ncaptured = 0;
	capturing = false;
	ww_xport_close(&x);
}

/* The live transport: open errors, and the ioctl failing on a node that is
 * not an NVMe device (/dev/null: ENOTTY -> unsupported). */
static void test_live_transport(void)
{
	ww_xport_t x;
	ww_cmd_status_t st;
	uint8_t buf[4096];

	CHECK_EQ_I64(ww_xport_open_nvme("/nonexistent/nvme9", &x), -ENOENT);
	CHECK_EQ_I64(x.fd, -1);
	CHECK_EQ_I64(ww_xport_open_nvme(NULL, &x), -EINVAL);

	CHECK_EQ_I64(ww_xport_open_nvme("/dev/null", &x), 0);
	CHECK(x.fd >= 0);
	CHECK(x.ops && x.ops->scsi_in == NULL);
	CHECK_STR(x.path, "/dev/null");
	CHECK_EQ_I64(x.ops->nvme_identify(&x, 1, 0, buf, sizeof(buf), &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_I64(st.os_errno, ENOTTY);
	CHECK_EQ_U64(st.data_len, 0);
	CHECK_EQ_I64(x.ops->nvme_get_log(&x, 2, 0xFFFFFFFF, buf, 512, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_I64(x.ops->nvme_identify(&x, 1, 0, buf, 100, &st), -EMSGSIZE);
	CHECK_EQ_I64(x.ops->nvme_get_log(&x, 2, 0, buf, 0, &st), -EINVAL);
	/* the self-test class: unarmed refused; armed, short and extended
	 * reach the ioctl, abort (Fh) and vendor (Eh) never */
	CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, 1, &st), -EPERM);
	ww_xport_arm_self_test(&x);
	CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, 0xf, &st), -EPERM);
	CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, 0xe, &st), -EPERM);
	CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, 0, &st), -EPERM);
	CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, 1, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	CHECK_EQ_I64(x.ops->nvme_self_test(&x, 0xffffffff, 2, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	ww_xport_close(&x);
	CHECK_EQ_I64(x.fd, -1);
}

int main(void)
{
	test_live_transport();
	test_commands_as_libnvme();
	return ww_test_done("test_transport_nvme");
}
