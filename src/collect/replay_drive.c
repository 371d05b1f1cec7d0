/* Capture and replay of whole drives (see replay_drive.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "wearwatch/collect.h"
#include "wearwatch/transport.h"

static void xstr(char *s, const char *serial)
{
	size_t n = serial ? strlen(serial) : 0;
	char *p;

	while (n >= 4 && (p = strstr(s, serial)))
		memset(p, 'X', n);
}

static void facts(FILE *f, const ww_drive_t *d, const char *runtime)
{
	fprintf(f, "# wearwatch capture 1 (docs/capture-format.md)\n");
	fprintf(f, "fact id %s\nfact block %s\nfact dev_path %s\nfact cmd_path %s\n",
		d->id, d->block, d->dev_path, d->cmd_path);
	if (*d->ctrl)
		fprintf(f, "fact ctrl %s\n", d->ctrl);
	if (*d->slot)
		fprintf(f, "fact slot %s\n", d->slot);
	for (size_t i = 0; i < d->n_paths; i++)
		fprintf(f, "fact path %s\n", d->paths[i]);
	for (size_t i = 0; i < d->n_namespaces; i++)
		fprintf(f, "fact namespace %s\n", d->namespaces[i]);
	fprintf(f, "fact transport %s\nfact protocol %s\nfact rotational %d\n",
		ww_transport_name(d->transport), ww_protocol_name(d->protocol), d->rotational);
	if (d->protocol == WW_PROTO_NONE && d->no_health_reason)
		fprintf(f, "fact no_health_reason %s\n", d->no_health_reason);
	fprintf(f, "fact capacity_bytes %llu\nfact logical_block_bytes %u\n"
		   "fact physical_block_bytes %u\n",
		(unsigned long long)d->capacity_bytes, d->logical_block_bytes,
		d->physical_block_bytes);
	fprintf(f, "fact sysfs_model %s\nfact sysfs_serial %s\nfact sysfs_wwn %s\n"
		   "fact sysfs_vendor %s\nfact sysfs_firmware %s\nfact runtime_status %s\n",
		d->sysfs_model, d->sysfs_serial, d->sysfs_wwn, d->sysfs_vendor,
		d->sysfs_firmware, runtime);
	if (d->pcie_cur_transfers || d->pcie_max_transfers)
		fprintf(f, "fact pcie_link %llu %u %llu %u\n",
			(unsigned long long)d->pcie_cur_transfers, d->pcie_cur_width,
			(unsigned long long)d->pcie_max_transfers, d->pcie_max_width);
}

/* Close the capture; a write that failed on the way (a full disk) or at
 * the close sets *werr and removes the broken file. */
static void close_capture(FILE *f, const char *path, int *werr)
{
	int err = ferror(f) ? -EIO : 0;

	if (fclose(f) && !err)
		err = -errno;
	if (err) {
		*werr = err;
		unlink(path);
	}
}

int ww_capture_drive(const char *sysroot, const ww_drive_t *d, const char *dir,
		     bool redact, char *path_out, int *write_err, ww_health_t *h,
		     ww_read_report_t *r)
{
	ww_drive_t red = *d;
	ww_xport_t live, cap;
	const char *serials[3] = { NULL, NULL, NULL };
	char path[512], name[160];
	bool suspended;
	FILE *f;
	int ret, werr_local = 0, *werr = write_err ? write_err : &werr_local;

	*werr = 0;
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	h->scsi.protocol_id = 0xff;
	suspended = ww_runtime_suspended(sysroot, d->block) == 1;
	if (redact && *d->sysfs_serial) {
		serials[0] = d->sysfs_serial;
		xstr(red.id, d->sysfs_serial);
		xstr(red.sysfs_serial, d->sysfs_serial);
		xstr(red.sysfs_wwn, d->sysfs_serial); /* ATA t10 ids embed the serial */
	}
	snprintf(name, sizeof(name), "%s", red.id);
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/%s.capture", dir, name);
	if (path_out)
		snprintf(path_out, 512, "%s", path);
	/* the file first: nothing is sent to a drive whose answers could
	 * not be kept */
	f = fopen(path, "w");
	if (!f)
		return (*werr = -errno);
	facts(f, &red, suspended ? "suspended" : "active");
	if (suspended) {
		close_capture(f, path, werr);
		return 1;
	}
	memset(&live, 0, sizeof(live));
	ret = ww_collect_open(sysroot, d, &live);
	if (ret < 0 && d->protocol == WW_PROTO_NONE) {
		fprintf(f, "# no health interface: %s\n",
			d->no_health_reason ? d->no_health_reason : "none known for this device");
		close_capture(f, path, werr);
		return ret;
	}
	if (ret < 0) {
		fprintf(f, "# open %s failed: %s\n", d->cmd_path, strerror(-ret));
		close_capture(f, path, werr);
		return ret;
	}
	ret = ww_xport_capture_wrap(&live, f, redact ? serials : NULL, &cap);
	if (ret < 0) {
		ww_xport_close(&live);
		close_capture(f, path, werr);
		return ret;
	}
	ret = ww_collect_on_xport(&cap, d, h, r);
	ww_xport_close(&cap);
	close_capture(f, path, werr);
	return ret;
}

/* Discovery's no-health reasons are static strings that every copy of a
 * ww_drive_t points to; a capture's is kept once per distinct text for the
 * life of the process (captures hold a handful). */
static const char *intern_reason(const char *text)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct kept { struct kept *next; char text[]; } *kept;
	struct kept *k;
	size_t n = strlen(text);

	pthread_mutex_lock(&lock);
	for (k = kept; k && strcmp(k->text, text); k = k->next)
		;
	if (!k && (k = malloc(sizeof(*k) + n + 1))) {
		memcpy(k->text, text, n + 1);
		k->next = kept;
		kept = k;
	}
	pthread_mutex_unlock(&lock);
	return k ? k->text : NULL;
}

static int enum_by_name(const char *v, bool proto)
{
	int max = proto ? WW_PROTO_MAX : WW_TRANSPORT_MAX;

	for (int i = 0; i < max; i++)
		if (!strcmp(v, proto ? ww_protocol_name((ww_protocol_t)i) :
				       ww_transport_name((ww_transport_t)i)))
			return i;
	return 0;
}

/* the facts at the head of an open capture (it is left past them) */
static int read_facts(FILE *f, ww_drive_t *d, char *runtime, size_t rlen)
{
	char line[512];

	memset(d, 0, sizeof(*d));
	while (fgets(line, sizeof(line), f)) {
		char *k, *v;

		if (strncmp(line, "fact ", 5)) {
			if (!strncmp(line, "cmd ", 4))
				break; /* facts come first */
			continue;
		}
		line[strcspn(line, "\n")] = '\0';
		k = line + 5;
		v = strchr(k, ' ');
		v = v ? (*v++ = '\0', v) : k + strlen(k);
#define S(name) if (!strcmp(k, #name)) snprintf(d->name, sizeof(d->name), "%s", v)
		S(id); S(block); S(dev_path); S(cmd_path); S(ctrl); S(slot);
		S(sysfs_model); S(sysfs_serial); S(sysfs_wwn); S(sysfs_vendor);
		S(sysfs_firmware);
#undef S
		if (!strcmp(k, "path") && d->n_paths < WW_MAX_PATHS)
			snprintf(d->paths[d->n_paths++], sizeof(d->paths[0]), "%s", v);
		else if (!strcmp(k, "namespace") && d->n_namespaces < WW_NVME_MAX_NS)
			snprintf(d->namespaces[d->n_namespaces++], sizeof(d->namespaces[0]), "%s", v);
		else if (!strcmp(k, "transport"))
			d->transport = (ww_transport_t)enum_by_name(v, false);
		else if (!strcmp(k, "protocol"))
			d->protocol = (ww_protocol_t)enum_by_name(v, true);
		else if (!strcmp(k, "rotational"))
			d->rotational = atoi(v) != 0;
		else if (!strcmp(k, "capacity_bytes"))
			d->capacity_bytes = strtoull(v, NULL, 10);
		else if (!strcmp(k, "logical_block_bytes"))
			d->logical_block_bytes = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "physical_block_bytes"))
			d->physical_block_bytes = (uint32_t)strtoul(v, NULL, 10);
		else if (!strcmp(k, "runtime_status"))
			snprintf(runtime, rlen, "%s", v);
		else if (!strcmp(k, "no_health_reason") && *v)
			d->no_health_reason = intern_reason(v);
		else if (!strcmp(k, "pcie_link")) {
			unsigned long long ct = 0, mt = 0;
			unsigned cw = 0, mw = 0;

			if (sscanf(v, "%llu %u %llu %u", &ct, &cw, &mt, &mw) == 4) {
				d->pcie_cur_transfers = ct;
				d->pcie_cur_width = (uint8_t)cw;
				d->pcie_max_transfers = mt;
				d->pcie_max_width = (uint8_t)mw;
			}
		}
	}
	d->from_capture = true;
	return *d->id ? 0 : -EINVAL;
}

static int load_facts(const char *file, ww_drive_t *d, char *runtime, size_t rlen)
{
	FILE *f = ww_fopen_regular(file);
	int ret;

	if (!f)
		return -errno;
	ret = read_facts(f, d, runtime, rlen);
	fclose(f);
	return ret;
}

int ww_replay_load_drive(const char *file, ww_drive_t *d)
{
	char rt[16];

	return load_facts(file, d, rt, sizeof(rt));
}

int ww_replay_collect(const char *file, const ww_drive_t *d, ww_health_t *h,
		      ww_read_report_t *r)
{
	ww_drive_t fd;
	ww_xport_t x;
	char rt[16] = "";
	int ret, bad = 0;
	FILE *f;

	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	h->scsi.protocol_id = 0xff;
	h->backend = "replay";
	/* one open for the facts and the blocks: each poll reads it again */
	f = ww_fopen_regular(file);
	if (!f)
		return -errno;
	ret = read_facts(f, &fd, rt, sizeof(rt));
	if (ret < 0) {
		fclose(f);
		return ret;
	}
	if (!d)
		d = &fd;
	if (!strcmp(rt, "suspended")) {
		fclose(f);
		r->runtime_suspended = true;
		return 1; /* recorded runtime-suspended: not touched live either */
	}
	if (d->protocol == WW_PROTO_NONE) {
		fclose(f);
		ret = ww_collect_no_interface(d, h, r); /* nothing was sent live either */
		h->backend = "replay";
		return ret;
	}
	ret = ww_xport_open_replay_stream(f, file, &x, &bad);
	fclose(f);
	if (ret < 0)
		return ret;
	ret = ww_collect_on_xport(&x, d, h, r);
	ww_xport_close(&x);
	h->backend = "replay";
	return ret;
}

/* ---- registry for serve --replay ---- */

/* A registered capture as last parsed, for the next poll: serve reads every
 * capture each poll interval, and opening it and parsing its hex lines anew
 * was about a third of a replayed read's CPU. Whether the file is still the
 * one parsed (a test or a demo swaps a capture under a running service to
 * change a drive's values) is asked of inotify first: each directory of
 * captures is watched, and a read whose directory had no notice since the
 * capture was last looked at needs no stat (a stat of the name was a sixth
 * of a replayed read's CPU on a cold cache; an empty non-blocking read of
 * the notice queue costs a fraction of it). After a notice, or where there
 * is no watch (no inotify instance or watch to be had, the directory gone,
 * a network or FUSE filesystem, a capture that is a symbolic link or has
 * other names, through which it can change without a notice here, as
 * found at its last stat), the name is stat'ed from a descriptor
 * of its directory, kept open (one per directory of captures): a stat of
 * the whole path walked every directory of it, about 5 us a read more on a
 * cold cache (tests/bench/bench_cold_stat.c). A descriptor of the file
 * itself would miss a file renamed aside before its successor took the
 * name, and cost one descriptor per drive. When the name cannot be looked
 * at from the directory (none kept, or the directory gone), the whole path
 * is. What it costs: the capture's bytes in binary (about a fifth of its
 * text), resident while the drive is served. */
struct kept_capture {
	pthread_mutex_t lock; /* one read at a time uses blocks' served counts */
	bool valid;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	int dirfd;        /* its directory's (not owned); -1: none */
	const char *leaf; /* the file's name in it */
	long dir;         /* its ww_replay_dirs entry; -1: none */
	/* at the last stat a plain file (one name, no link) in a watched
	 * directory, and seen_gen what the directory's was then */
	bool gen_known;
	uint64_t seen_gen;
	bool suspended;      /* recorded runtime-suspended */
	ww_replay_t *blocks; /* NULL when suspended */
};

/* the captures served, in the order added; grown as needed */
static char **ww_replay_files;
static ww_drive_t *ww_replay_drives;
static struct kept_capture **ww_replay_kept;
static size_t ww_replay_n, ww_replay_cap;
/* their indexes by id (ww_replay_add sorts it): each read looks its file
 * up, and a linear search made a round of N reads N^2 */
static size_t *ww_replay_by_id;

static ww_replay_skip_fn skip_hook;

/* the directories of the captures, each opened once (O_PATH): the stat of
 * a capture's name from it, and its inotify watch (struct kept_capture) */
static struct capdir {
	char *path;
	int fd;
	int wd;       /* its watch; -1: none (or gone) */
	uint64_t gen; /* notices seen of it */
} * ww_replay_dirs;
static size_t ww_replay_n_dirs;
/* the inotify instance of every watch (-1: none could be had), its
 * queue and the generations (notice_lock) */
static int notice_fd = -2; /* -2: not tried yet */
static pthread_mutex_t notice_lock = PTHREAD_MUTEX_INITIALIZER;

#define WATCHED_EVENTS                                                                             \
	(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |          \
	 IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

/* notice_lock held: the queued notices into the generations of the
 * directories they name; an overflow counts for every directory, a watch
 * that ended (its directory removed or moved) leaves it unwatched */
static void drain_notices_locked(void)
{
	union {
		struct inotify_event e;
		char b[4096];
	} u;
	ssize_t n;

	if (notice_fd < 0)
		return;
	while ((n = read(notice_fd, u.b, sizeof(u.b))) > 0) {
		for (ssize_t off = 0; off + (ssize_t)sizeof(struct inotify_event) <= n;) {
			struct inotify_event e;

			memcpy(&e, u.b + off, sizeof(e));
			for (size_t i = 0; i < ww_replay_n_dirs; i++) {
				struct capdir *c = &ww_replay_dirs[i];

				if (!(e.mask & IN_Q_OVERFLOW) && (c->wd < 0 || c->wd != e.wd))
					continue;
				c->gen++;
				/* lost notices may be of a watch that ended: none
				 * is trusted after an overflow */
				if (e.mask &
				    (IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF))
					c->wd = -1;
			}
			off += (ssize_t)sizeof(e) + e.len;
		}
	}
}

/* notice_lock held: a watch of the directory (-1: none to be had). Only
 * on a local filesystem: on a network or FUSE one (a VM's or container's
 * shared folder) a change made on the other side gives no notice here. */
static int watch_dir(const char *dir)
{
	struct statfs fs;

	if (statfs(dir, &fs) < 0 ||
	    (fs.f_type != EXT4_SUPER_MAGIC && fs.f_type != XFS_SUPER_MAGIC &&
	     fs.f_type != BTRFS_SUPER_MAGIC && fs.f_type != TMPFS_MAGIC &&
	     fs.f_type != F2FS_SUPER_MAGIC))
		return -1;
	if (notice_fd == -2)
		notice_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	return notice_fd < 0 ? -1 : inotify_add_watch(notice_fd, dir, WATCHED_EVENTS);
}

/* path's directory's descriptor (-1: none could be had), its last
 * component in *leaf (a pointer into path) and its ww_replay_dirs entry
 * in *ix (-1: none) */
static int dir_of(const char *path, const char **leaf, long *ix)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;
	char dir[4096];
	struct capdir *nd;

	*leaf = slash ? slash + 1 : path;
	*ix = -1;
	if (len >= sizeof(dir))
		return -1;
	if (!slash)
		strcpy(dir, ".");
	else if (!len)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)len, path);
	pthread_mutex_lock(&notice_lock);
	/* the newest first: the files of one directory are added together */
	for (size_t i = ww_replay_n_dirs; i-- > 0;)
		if (!strcmp(ww_replay_dirs[i].path, dir)) {
			*ix = (long)i;
			pthread_mutex_unlock(&notice_lock);
			return ww_replay_dirs[i].fd;
		}
	nd = realloc(ww_replay_dirs, (ww_replay_n_dirs + 1) * sizeof(*nd));
	if (nd)
		ww_replay_dirs = nd;
	if (!nd || !(nd[ww_replay_n_dirs].path = strdup(dir))) {
		pthread_mutex_unlock(&notice_lock);
		return -1;
	}
	nd[ww_replay_n_dirs].fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	nd[ww_replay_n_dirs].wd = watch_dir(dir);
	nd[ww_replay_n_dirs].gen = 0;
	*ix = (long)ww_replay_n_dirs;
	int fd = nd[ww_replay_n_dirs++].fd;

	pthread_mutex_unlock(&notice_lock);
	return fd;
}

void ww_replay_set_skip_hook(ww_replay_skip_fn fn)
{
	skip_hook = fn;
}

static void skipped(const char *path, const char *why)
{
	if (skip_hook)
		skip_hook(path, why);
}

static int add_file(const char *path)
{
	ww_drive_t d;
	ww_xport_t x;
	int bad = 0, rc;

	/* a FIFO blocked the open, /dev/zero never ended */
	if (ww_check_regular(path)) {
		skipped(path, "not a regular file");
		return -EINVAL;
	}
	if (ww_replay_load_drive(path, &d) < 0) {
		skipped(path, "no \"fact id\" line: not a capture (docs/capture-format.md)");
		return -EINVAL;
	}
	/* the whole file now, so a bad block is named at start, not at a poll */
	rc = ww_xport_open_replay(path, &x, &bad);
	if (rc < 0) {
		char why[96];

		snprintf(why, sizeof(why), "line %d: not a capture block (docs/capture-format.md)",
			 bad);
		skipped(path, why);
		return -EINVAL;
	}
	ww_xport_close(&x);
	if (ww_replay_n == ww_replay_cap) {
		size_t cap = ww_replay_cap ? 2 * ww_replay_cap : 64;
		ww_drive_t *nd = realloc(ww_replay_drives, cap * sizeof(*nd));
		struct kept_capture **nk;
		char **nf;

		if (!nd)
			return -ENOMEM;
		ww_replay_drives = nd;
		nf = realloc(ww_replay_files, cap * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		ww_replay_files = nf;
		nk = realloc(ww_replay_kept, cap * sizeof(*nk));
		if (!nk)
			return -ENOMEM;
		ww_replay_kept = nk;
		ww_replay_cap = cap;
	}
	/* the same capture served twice (demos, benchmarks) needs distinct ids */
	for (size_t i = 0; i < ww_replay_n; i++)
		if (!strcmp(ww_replay_drives[i].id, d.id)) {
			char id[sizeof(d.id)];

			snprintf(id, sizeof(id), "%.130s-r%zu", d.id, ww_replay_n);
			snprintf(d.id, sizeof(d.id), "%s", id);
			break;
		}
	ww_replay_kept[ww_replay_n] = calloc(1, sizeof(struct kept_capture));
	ww_replay_files[ww_replay_n] = strdup(path);
	if (!ww_replay_kept[ww_replay_n] || !ww_replay_files[ww_replay_n]) {
		free(ww_replay_kept[ww_replay_n]);
		free(ww_replay_files[ww_replay_n]);
		return -ENOMEM;
	}
	struct kept_capture *k = ww_replay_kept[ww_replay_n];

	pthread_mutex_init(&k->lock, NULL);
	k->dirfd = dir_of(ww_replay_files[ww_replay_n], &k->leaf, &k->dir);
	ww_replay_drives[ww_replay_n++] = d;
	return 1;
}

/* the *.capture files of dir and, depth levels down, of its subdirectories
 * (a tree of captures such as tests/fixtures/captures/); other files are
 * skipped */
static int add_dir(const char *dir, int depth)
{
	struct dirent **ents;
	struct stat sb;
	char p[1024];
	int n, added = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t l = strlen(name);

		snprintf(p, sizeof(p), "%s/%s", dir, name);
		if (l > 8 && !strcmp(name + l - 8, ".capture")) {
			if (add_file(p) > 0)
				added++;
		} else if (depth > 0 && name[0] != '.' && lstat(p, &sb) == 0 &&
			   S_ISLNK(sb.st_mode) && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			/* links to directories are not followed: twenty links
			 * to "." made 8421 drives of one capture */
			skipped(p, "a link to a directory (not followed)");
		} else if (depth > 0 && name[0] != '.' && stat(p, &sb) == 0 &&
			   S_ISDIR(sb.st_mode)) {
			int k = add_dir(p, depth - 1);

			if (k > 0)
				added += k;
		} else if (name[0] != '.') {
			skipped(p, "not a *.capture file");
		}
		free(ents[i]);
	}
	free(ents);
	return added;
}

static int cmp_by_id(const void *a, const void *b)
{
	return strcmp(ww_replay_drives[*(const size_t *)a].id,
		      ww_replay_drives[*(const size_t *)b].id);
}

static int cmp_id_by_id(const void *id, const void *b)
{
	return strcmp(id, ww_replay_drives[*(const size_t *)b].id);
}

/* the index sorted again after files were added (NULL when out of memory:
 * lookups then find nothing) */
static void index_by_id(void)
{
	size_t *ix = realloc(ww_replay_by_id, (ww_replay_n ? ww_replay_n : 1) * sizeof(*ix));

	if (!ix) {
		free(ww_replay_by_id);
		ww_replay_by_id = NULL;
		return;
	}
	for (size_t i = 0; i < ww_replay_n; i++)
		ix[i] = i;
	qsort(ix, ww_replay_n, sizeof(*ix), cmp_by_id);
	ww_replay_by_id = ix;
}

int ww_replay_add(const char *dir)
{
	struct stat sb;
	int rc;

	if (stat(dir, &sb) < 0)
		return -errno;
	rc = S_ISDIR(sb.st_mode) ? add_dir(dir, 3) : add_file(dir);
	index_by_id();
	return rc;
}

/* index of the capture with this id, or -1 */
static long replay_index(const char *id)
{
	const size_t *p = ww_replay_by_id && ww_replay_n
		? bsearch(id, ww_replay_by_id, ww_replay_n, sizeof(*p), cmp_id_by_id)
		: NULL;

	return p ? (long)*p : -1;
}

int ww_replay_discover(const char *sysroot, const char *const *include, ww_drive_t **out)
{
	*out = malloc(ww_replay_n ? ww_replay_n * sizeof(**out) : 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, ww_replay_drives, ww_replay_n * sizeof(**out));
	return (int)ww_replay_n;
}

const char *ww_replay_file(const char *id)
{
	long i = replay_index(id);

	return i < 0 ? NULL : ww_replay_files[i];
}

bool ww_replay_trusts_notices(const char *id)
{
	long i = replay_index(id);
	bool yes;

	if (i < 0)
		return false;
	pthread_mutex_lock(&ww_replay_kept[i]->lock);
	pthread_mutex_lock(&notice_lock);
	yes = ww_replay_kept[i]->gen_known && ww_replay_dirs[ww_replay_kept[i]->dir].wd >= 0;
	pthread_mutex_unlock(&notice_lock);
	pthread_mutex_unlock(&ww_replay_kept[i]->lock);
	return yes;
}

static bool kept_same(const struct kept_capture *k, const struct stat *sb)
{
	return k->valid && k->dev == sb->st_dev && k->ino == sb->st_ino && k->size == sb->st_size &&
		k->mtime.tv_sec == sb->st_mtim.tv_sec && k->mtime.tv_nsec == sb->st_mtim.tv_nsec;
}

/* parse the file into k (k->lock held); k is invalid after a failure, so
 * the next read tries again */
static int kept_reload(struct kept_capture *k, const char *file)
{
	ww_replay_t *blocks = NULL;
	struct stat sb;
	ww_drive_t fd;
	char rt[16] = "";
	int ret;
	FILE *f;

	k->valid = false;
	ww_replay_free(k->blocks);
	k->blocks = NULL;
	f = ww_fopen_regular(file);
	if (!f)
		return -errno;
	if (fstat(fileno(f), &sb) < 0) {
		ret = -errno;
		fclose(f);
		return ret;
	}
	ret = read_facts(f, &fd, rt, sizeof(rt));
	k->suspended = ret == 0 && !strcmp(rt, "suspended");
	if (ret == 0 && !k->suspended)
		ret = ww_replay_load(f, &blocks, NULL);
	fclose(f);
	if (ret < 0)
		return ret;
	k->blocks = blocks;
	k->dev = sb.st_dev;
	k->ino = sb.st_ino;
	k->size = sb.st_size;
	k->mtime = sb.st_mtim;
	k->valid = true;
	return 0;
}

int ww_replay_collect_fn(const char *sysroot, const ww_drive_t *d,
			 ww_health_t *h, ww_read_report_t *r)
{
	long i = replay_index(d->id);
	struct kept_capture *k;
	const char *file;
	struct stat sb;
	ww_xport_t x;
	int ret = 0;

	if (i < 0)
		return -ENOENT;
	k = ww_replay_kept[i];
	file = ww_replay_files[i];
	pthread_mutex_lock(&k->lock);
	pthread_mutex_lock(&notice_lock);
	drain_notices_locked();
	bool watched = k->dir >= 0 && ww_replay_dirs[k->dir].wd >= 0;
	uint64_t gen = watched ? ww_replay_dirs[k->dir].gen : 0;

	pthread_mutex_unlock(&notice_lock);
	/* the generation is taken before the stat: a notice between the two
	 * makes the next read look again */
	if (!(watched && k->valid && k->gen_known && gen == k->seen_gen)) {
		bool plain = false;

		/* the name itself first: a symbolic link or a file with other
		 * names (either can change with no notice in this directory)
		 * is stat'ed at every read, through the link */
		if (k->dirfd >= 0 && fstatat(k->dirfd, k->leaf, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			plain = S_ISREG(sb.st_mode) && sb.st_nlink == 1;
		if (!plain && stat(file, &sb) < 0)
			k->valid = false; /* parsed again from the path, or its error */
		if (!kept_same(k, &sb))
			ret = kept_reload(k, file);
		k->gen_known = watched && plain && ret == 0;
		k->seen_gen = gen;
	}
	if (ret == 0) {
		memset(h, 0, sizeof(*h));
		memset(r, 0, sizeof(*r));
		h->scsi.protocol_id = 0xff;
		h->backend = "replay";
		if (k->suspended) {
			r->runtime_suspended = true;
			ret = 1; /* recorded runtime-suspended: not touched live either */
		} else if (d->protocol == WW_PROTO_NONE) {
			ret = ww_collect_no_interface(d, h, r);
			h->backend = "replay";
		} else if ((ret = ww_xport_open_replay_loaded(k->blocks, file, &x)) == 0) {
			ret = ww_collect_on_xport(&x, d, h, r);
			ww_xport_close(&x);
			h->backend = "replay";
		}
	}
	pthread_mutex_unlock(&k->lock);
	return ret;
}
