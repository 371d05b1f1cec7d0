/* The live NVMe transport (src/transport/nvme_admin.c): open errors, and
 * the admin ioctls failing on a node that is not an NVMe device (/dev/null,
 * never a drive). Always runs. */
#include <errno.h>
#include <stdint.h>

#include "wearwatch/transport.h"
#include "ww_test.h"

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
	return ww_test_done("test_transport_nvme");
}
