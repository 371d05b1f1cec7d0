/* Strict web.config (src/conf/webcfg.c): bcrypt hashes that libxcrypt could
 * never match (every login failed, silently) and directories where a file
 * is expected are refused with file:line, so the web side exits 2 at start
 * and keeps the last good configuration at reload. The cost and salt rules
 * were checked against crypt_r() of libxcrypt 4.4: cost 03 and 32 give "*0",
 * a salt ending in X comes back ending in O. */
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "ww_test.h"

static char dir[] = "/tmp/ww-strict-XXXXXX";

static int webcfg_text(const char *text, char *err, size_t len)
{
	ww_webcfg_t w;
	char path[128];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/web.yml", dir);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	rc = ww_webcfg_load(&w, path, err, len);
	if (!rc)
		ww_webcfg_clear(&w);
	return rc;
}

#define SALT "CCCCCCCCCCCCCCCCCCCCC."
#define SUM "E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

static void test_webcfg(void)
{
	char err[512];

	/* the Openwall test vector is fine */
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2y$05$" SALT SUM "'\n", err,
				 sizeof(err)), 0);
	/* cost 39 and 03: libxcrypt refuses them ("*0"), every login failed */
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2y$39$" SALT SUM "'\n", err,
				 sizeof(err)), -EINVAL);
	CHECK(strstr(err, "web.yml:2: basic_auth_users: alice: bcrypt cost 39 outside 04-31"));
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2y$03$" SALT SUM "'\n", err,
				 sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bcrypt cost 03 outside 04-31"));
	/* a salt character outside bcrypt's base64 */
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2y$05$CCCCCCCCCC!CCCCCCCCCC." SUM
				 "'\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'!' at 17 is not a bcrypt base64 character"));
	/* a salt ending in X: crypt() writes O there, so no login ever matched */
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2y$05$CCCCCCCCCCCCCCCCCCCCCX" SUM
				 "'\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bcrypt salt ends in 'X'"));
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2y$05$" SALT
				 "E5YPO9kmyuRGyh0XouQYb4YMJKvyOeX'\n", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "bcrypt hash ends in 'X'"));
	CHECK_EQ_I64(webcfg_text("basic_auth_users:\n  alice: '$2x$05$" SALT SUM "'\n", err,
				 sizeof(err)), -EINVAL);
	/* a directory where the file is expected */
	CHECK_EQ_I64(webcfg_text("", err, sizeof(err)), 0);
	{
		ww_webcfg_t w;

		CHECK_EQ_I64(ww_webcfg_load(&w, dir, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, ": a directory, expected the web.config file"));
	}
	/* and a TLS key that is a directory */
	CHECK_EQ_I64(webcfg_text("tls_server_config:\n  cert_file: /etc\n  key_file: /etc\n", err,
				 sizeof(err)), -EISDIR);
	CHECK(strstr(err, "cert_file /etc: Is a directory"));
}

int main(void)
{
	char p[160];

	if (!mkdtemp(dir))
		return 1;
	chmod(dir, 0755);
	test_webcfg();
	snprintf(p, sizeof(p), "%s/web.yml", dir);
	unlink(p);
	rmdir(dir);
	return ww_test_done("test_conf_webcfg");
}
