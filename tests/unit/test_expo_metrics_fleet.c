/* /metrics for 300 drives: no drive limit anywhere in the exposition.
 *
 * For each VM capture in tests/fixtures/captures (QEMU NVMe, scsi_debug SAS,
 * AHCI SATA, the SATA disk runtime-suspended), a fleet of 300 copies is built
 * as tests/unit/ww_fleet.h describes (replayed through the real readers and
 * decoders, endurance results published by the endurance service, a probe
 * summary and a smartctl type on every drive) and rendered. The reference is
 * the same drive alone: every family the single drive has must be there for
 * all 300 drives, with 300 times its series, and nothing else. The expected
 * counts come from that one-drive render, not from a list kept here. Then all
 * kinds mixed, some drives gone, through `promtool check metrics`.
 * wearwatch_drive_health_status is checked by name too: it once stopped at
 * 256 drives. */
#include <unistd.h>

#include "ww_test.h"
#include "ww_fleet.h"
#include "wearwatch/expo.h"

#define N_FLEET 300

struct fam {
	char name[128];
	size_t series;      /* sample lines */
	size_t drives;      /* runs of one drive label value */
	char last[256];     /* drive label value of the previous sample */
};

struct count {
	struct fam f[128];
	size_t n;
	size_t stray;       /* samples not named after the family above them */
};

/* drive="..." value of a sample line (escaped form kept), "" when none */
static void drive_of(const char *line, const char *end, char *out, size_t len)
{
	const char *p = strstr(line, "{drive=\"");
	size_t n = 0;

	out[0] = 0;
	if (!p || p > end)
		return;
	for (p += 8; p < end && *p != '"' && n + 2 < len; p++) {
		if (*p == '\\')
			out[n++] = *p++;
		out[n++] = *p;
	}
	out[n] = 0;
}

/* series and drives per family (the family is the last "# TYPE" seen) */
static void count_families(const char *txt, struct count *c)
{
	struct fam *cur = NULL;
	char drive[256];

	memset(c, 0, sizeof(*c));
	for (const char *l = txt; *l;) {
		const char *end = strchr(l, '\n');

		if (!end)
			end = l + strlen(l);
		if (!strncmp(l, "# TYPE ", 7) && c->n < sizeof(c->f) / sizeof(c->f[0])) {
			cur = &c->f[c->n++];
			snprintf(cur->name, sizeof(cur->name), "%.*s", (int)strcspn(l + 7, " \n"), l + 7);
		} else if (*l != '#' && cur) {
			c->stray += strncmp(l, cur->name, strlen(cur->name)) != 0;
			cur->series++;
			drive_of(l, end, drive, sizeof(drive));
			if (drive[0] && strcmp(drive, cur->last)) {
				cur->drives++;
				snprintf(cur->last, sizeof(cur->last), "%s", drive);
			}
		}
		l = *end ? end + 1 : end;
	}
}

static const struct fam *find(const struct count *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->f[i].name, name))
			return &c->f[i];
	return NULL;
}

static char *render_fleet(const char *kind, size_t n, size_t *len)
{
	const char *kinds[] = { kind, NULL };
	ww_fleet_opts_t o = { .kinds = kinds, .n = n, .probe = true, .smartctl_every = 1 };
	ww_store_t *s = ww_store_new(0);
	ww_snapshot_t *snap;
	char *txt = NULL;

	o.src_dir = getenv("WW_SOURCE_DIR") ? getenv("WW_SOURCE_DIR") : ".";
	o.svc = ww_fleet_endurance(NULL);
	CHECK(s && o.svc);
	if (s && o.svc && ww_fleet_build(s, &o) == 0) {
		snap = ww_store_acquire(s);
		CHECK_EQ_U64(snap->n, n);
		txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap,
							    .endurance = o.svc,
							    .now = WW_FLEET_T0 + 60 },
					len);
		ww_snapshot_release(snap);
	}
	CHECK(txt != NULL);
	ww_store_endurance_free(o.svc); /* also unregisters it */
	ww_store_free(s);
	return txt;
}

static void check_kind(const char *kind)
{
	static struct count one, many;
	size_t len1 = 0, len = 0;
	char *t1 = render_fleet(kind, 1, &len1), *t = render_fleet(kind, N_FLEET, &len);
	const struct fam *hs;

	if (!t1 || !t)
		goto out;
	count_families(t1, &one);
	count_families(t, &many);
	CHECK_EQ_U64(one.stray + many.stray, 0);
	CHECK_EQ_U64(many.n, one.n);
	for (size_t i = 0; i < one.n; i++) {
		const struct fam *a = &one.f[i], *b = find(&many, a->name);
		bool per_drive = a->drives > 0;

		if (!b) {
			fprintf(stderr, "%s: family %s missing with %d drives\n", kind, a->name, N_FLEET);
			CHECK(b != NULL);
			continue;
		}
		if (per_drive) {
			if (b->drives != N_FLEET || b->series != a->series * N_FLEET)
				fprintf(stderr, "%s: %s: %zu drives, %zu series (one drive: %zu)\n", kind,
					a->name, b->drives, b->series, a->series);
			CHECK_EQ_U64(b->drives, N_FLEET);
			CHECK_EQ_U64(b->series, a->series * N_FLEET);
		} else {
			CHECK_EQ_U64(b->series, a->series); /* build info */
		}
	}
	/* the verdict of every drive, from the endurance service */
	hs = find(&many, "wearwatch_drive_health_status");
	CHECK(hs && hs->series == N_FLEET && hs->drives == N_FLEET);
	hs = find(&many, "wearwatch_drive_info");
	CHECK(hs && hs->series == N_FLEET);
	printf("%s: %zu families, %zu bytes for %d drives\n", kind, many.n, len, N_FLEET);
out:
	free(t1);
	free(t);
}

/* every kind mixed, 7 drives gone, `promtool check metrics` when installed */
static void check_mixed(void)
{
	ww_fleet_opts_t o = { .n = N_FLEET, .probe = true, .smartctl_every = 7, .missing = 7 };
	ww_store_t *s = ww_store_new(0);
	static struct count c;
	char path[] = "/tmp/ww-metrics-fleet-XXXXXX", cmd[128];
	ww_snapshot_t *snap;
	char *txt = NULL;
	size_t len = 0;
	int fd;

	o.src_dir = getenv("WW_SOURCE_DIR") ? getenv("WW_SOURCE_DIR") : ".";
	o.svc = ww_fleet_endurance(NULL);
	if (s && o.svc && ww_fleet_build(s, &o) == 0) {
		ww_render_ctx_t ctx = { .endurance = o.svc, .now = WW_FLEET_T0 + 60 };
		char *html, want[64];
		double ratio = -1;

		snap = ww_store_acquire(s);
		ctx.snap = snap;
		txt = ww_metrics_render(&ctx, &len);
		/* /table's rated column is the endurance result /metrics has,
		 * with the rating's source on hover */
		html = ww_html_render_index(&ctx);
		CHECK(html && strstr(html, "<th>rated endurance used</th>"));
		for (const char *p = txt
			     ? strstr(txt, "\nwearwatch_drive_rated_endurance_used_ratio{")
			     : NULL;
		     p && ratio < 0; p = NULL)
			ratio = strtod(strchr(p + 1, ' ') + 1, NULL);
		CHECK(ratio >= 0);
		snprintf(want, sizeof(want), "\">%.1f %%</td>", ratio * 100);
		CHECK(html && strstr(html, "<td title=\"rating: config, ") && strstr(html, want));
		free(html);
		ww_snapshot_release(snap);
	}
	CHECK(txt != NULL);
	if (txt) {
		const struct fam *f;

		count_families(txt, &c);
		f = find(&c, "wearwatch_drive_health_status");
		CHECK(f && f->series == N_FLEET && f->drives == N_FLEET);
		f = find(&c, "wearwatch_drive_present");
		CHECK(f && f->series == N_FLEET);
	}
	if (txt && access("/usr/bin/promtool", X_OK) == 0) {
		fd = mkstemp(path);
		CHECK(fd >= 0 && write(fd, txt, len) == (ssize_t)len);
		close(fd);
		snprintf(cmd, sizeof(cmd), "/usr/bin/promtool check metrics < %s", path);
		CHECK(system(cmd) == 0);
		unlink(path);
	} else if (txt) {
		printf("note: promtool not installed, lint of the mixed fleet skipped\n");
	}
	free(txt);
	ww_store_endurance_free(o.svc);
	ww_store_free(s);
}

int main(void)
{
	static const char *const kinds[] = { "nvme", "sas", "sata", "sata-suspended" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		check_kind(kinds[i]);
	check_mixed();
	return ww_test_done("test_expo_metrics_fleet");
}
