/* Text rendering of one drive (ww_text_render_health, src/expo/text.c): the
 * smartctl-style attribute table, units, sources, commands. Input built here
 * by hand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ww_test.h"
#include "wearwatch/collect.h"
#include "wearwatch/expo.h"

/* Text rendering: smartctl-style attribute table, units, sources, commands. */
static void test_text(void)
{
	ww_drive_t d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t r;
	ww_cmd_status_t st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!h)
		return;
	memset(&d, 0, sizeof(d));
	memset(&r, 0, sizeof(r));
	snprintf(d.id, sizeof(d.id), "ata-X_Y");
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/sda");
	d.protocol = WW_PROTO_ATA;
	d.transport = WW_TRANSPORT_SATA;
	h->protocol = WW_PROTO_ATA;
	WW_SET(h->temperature_celsius, 31, "ATA attribute 194");
	WW_SET(h->power_on_seconds, 7200, "ATA attribute 9");
	h->ata.n_attrs = 1;
	h->ata.attrs[0] = (ww_ata_attr_t){ .id = 9, .flags = 0x32, .value = 99, .worst = 98,
					   .threshold = 0, .has_threshold = true, .raw = 2,
					   .name = "Power_On_Hours" };
	memset(&st, 0, sizeof(st));
	st.result = WW_CMD_OS_ERROR;
	st.os_errno = EIO;
	ww_report_cmd(&r, "SMART READ DATA", &st);
	f = open_memstream(&buf, &len);
	if (!f) {
		free(h);
		return;
	}
	ww_text_render_health(f, &d, h, &r, NULL, NULL);
	fclose(f);
	CHECK(strstr(buf, "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH RAW_VALUE") != NULL);
	CHECK(strstr(buf, "  9 Power_On_Hours          0x0032   099   098   000    2") != NULL);
	CHECK(strstr(buf, "31 Celsius   [ATA attribute 194]") != NULL);
	CHECK(strstr(buf, "7200 seconds (2 h)   [ATA attribute 9]") != NULL);
	CHECK(strstr(buf, "SMART READ DATA") && strstr(buf, "errno 5"));
	CHECK(strstr(buf, "ata via sat") != NULL);
	free(buf);
	free(h);
}

int main(void)
{
	test_text();
	return ww_test_done("test_expo_text");
}
