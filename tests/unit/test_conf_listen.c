/* Listen-address parsing (ww_conf_parse_listen, src/conf/listen_syntax.c):
 * [v6]:port, host:port, :port and a bare port; malformed forms refused. */
#include <errno.h>
#include <stdint.h>

#include "wearwatch/conf.h"
#include "ww_test.h"

static void test_parse_listen(void)
{
	char host[64];
	uint16_t port = 0;

	CHECK_EQ_I64(ww_conf_parse_listen("[::]:9786", host, sizeof(host), &port), 0);
	CHECK_STR(host, "");
	CHECK_EQ_U64(port, 9786);
	CHECK_EQ_I64(ww_conf_parse_listen(":9787", host, sizeof(host), &port), 0);
	CHECK_STR(host, "");
	CHECK_EQ_U64(port, 9787);
	CHECK_EQ_I64(ww_conf_parse_listen("0.0.0.0:9786", host, sizeof(host), &port), 0);
	CHECK_STR(host, "0.0.0.0");
	CHECK_EQ_I64(ww_conf_parse_listen("127.0.0.1:80", host, sizeof(host), &port), 0);
	CHECK_STR(host, "127.0.0.1");
	CHECK_EQ_U64(port, 80);
	CHECK_EQ_I64(ww_conf_parse_listen("[::1]:0", host, sizeof(host), &port), 0);
	CHECK_STR(host, "::1");
	CHECK_EQ_U64(port, 0);
	CHECK_EQ_I64(ww_conf_parse_listen("9788", host, sizeof(host), &port), 0);
	CHECK_STR(host, "");
	CHECK_EQ_U64(port, 9788);
	CHECK_EQ_I64(ww_conf_parse_listen("1.2.3.4:65536", host, sizeof(host), &port), -EINVAL);
	CHECK_EQ_I64(ww_conf_parse_listen("1.2.3.4:", host, sizeof(host), &port), -EINVAL);
	CHECK_EQ_I64(ww_conf_parse_listen("::1:80", host, sizeof(host), &port), -EINVAL);
	CHECK_EQ_I64(ww_conf_parse_listen("[::1]80", host, sizeof(host), &port), -EINVAL);
	CHECK_EQ_I64(ww_conf_parse_listen("", host, sizeof(host), &port), -EINVAL);
}

int main(void)
{
	test_parse_listen();
	return ww_test_done("test_conf_listen");
}
