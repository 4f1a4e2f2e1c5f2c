// SPDX-License-Identifier: GPL-2.0-only
/*
 * stuckfs - a file system that stops answering on request, for the tests
 * of an output that blocks (test_ust_output_blocked.sh).
 *
 *   stuckfs BACKING MOUNTPOINT STATE
 *
 * Mounts a FUSE file system on MOUNTPOINT (speaking the kernel's FUSE
 * protocol itself: no libfuse) that passes every operation through to
 * the directory BACKING, as the calling user would see it (allow_other,
 * default_permissions; what a user creates is the user's).  Signals:
 *
 *   SIGUSR1  stop answering: every operation on the mount from then on
 *            waits, as on a network file system whose server is gone.
 *            Once some operation waits, STATE says "waiting".
 *   SIGHUP   hold: take each operation (read it) and answer none, as a
 *            server that took a request and stalls (sshfs whose network
 *            is gone): its caller then waits even through SIGKILL.  Once
 *            one is held, STATE says "holding".
 *   SIGUSR2  answer again, the held operations first (STATE says
 *            "running").
 *   SIGTERM  unmount and exit: the operations waiting fail (ENOTCONN).
 *
 * STATE is written (whole, by rename) with "running" once mounted.  Exits
 * 77 when this machine cannot mount a FUSE file system (no /dev/fuse, no
 * privilege), 1 on other errors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <unistd.h>

#define BUFSZ (1 << 20)
#define MAX_WRITE (128 * 1024)
#define MAX_NODES 65536

static char **paths;	/* nodeid - 1 -> backing path */
static size_t nr_paths;
static const char *state_path;
static volatile sig_atomic_t stuck, hold, quit;

/* The operations read while holding, answered once it ends. */
struct held {
	struct held *next;
	size_t len;
	char buf[];
};
static struct held *held_head, **held_tail = &held_head;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		stuck = 1;
	else if (sig == SIGHUP)
		hold = 1;
	else if (sig == SIGUSR2)
		stuck = hold = 0;
	else
		quit = 1;
}

static void set_state(const char *what)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", what);
	fclose(f);
	rename(tmp, state_path);
}

/* The node of @path, made on first need.  0 when full. */
static uint64_t node_of(const char *path)
{
	size_t i;

	for (i = 0; i < nr_paths; i++)
		if (paths[i] && !strcmp(paths[i], path))
			return i + 1;
	if (nr_paths >= MAX_NODES)
		return 0;
	paths[nr_paths] = strdup(path);
	return paths[nr_paths] ? ++nr_paths : 0;
}

static const char *path_of(uint64_t node)
{
	return node >= 1 && node <= nr_paths ? paths[node - 1] : NULL;
}

static int child(uint64_t parent, const char *name, char *buf, size_t len)
{
	const char *p = path_of(parent);

	if (!p || (size_t)snprintf(buf, len, "%s/%s", p, name) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static void to_attr(const struct stat *st, uint64_t node, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = node;
	a->size = (uint64_t)st->st_size;
	a->blocks = (uint64_t)st->st_blocks;
	a->atime = (uint64_t)st->st_atime;
	a->mtime = (uint64_t)st->st_mtime;
	a->ctime = (uint64_t)st->st_ctime;
	a->mode = st->st_mode;
	a->nlink = (uint32_t)st->st_nlink;
	a->uid = st->st_uid;
	a->gid = st->st_gid;
	a->blksize = 4096;
}

static int fd_dev = -1;

static void reply(uint64_t unique, int err, const void *a, size_t alen, const void *b, size_t blen)
{
	struct fuse_out_header h = { .error = err, .unique = unique };
	struct iovec iov[3] = { { &h, sizeof(h) }, { (void *)a, alen }, { (void *)b, blen } };

	h.len = (uint32_t)(sizeof(h) + alen + blen);
	if (writev(fd_dev, iov, 3) < 0 && errno != ENOENT)	/* ENOENT: interrupted */
		perror("stuckfs: reply");
}

static void reply_entry(uint64_t unique, const char *path, const void *extra, size_t elen)
{
	struct fuse_entry_out e = { 0 };
	struct stat st;
	uint64_t node;

	if (lstat(path, &st)) {
		reply(unique, -errno, NULL, 0, NULL, 0);
		return;
	}
	node = node_of(path);
	if (!node) {
		reply(unique, -ENOSPC, NULL, 0, NULL, 0);
		return;
	}
	e.nodeid = node;
	to_attr(&st, node, &e.attr);
	reply(unique, 0, &e, sizeof(e), extra, elen);
}

static void reply_attr(uint64_t unique, uint64_t node, const char *path)
{
	struct fuse_attr_out o = { 0 };
	struct stat st;

	if (lstat(path, &st)) {
		reply(unique, -errno, NULL, 0, NULL, 0);
		return;
	}
	to_attr(&st, node, &o.attr);
	reply(unique, 0, &o, sizeof(o), NULL, 0);
}

/* What the caller creates is the caller's. */
static void give(const char *path, const struct fuse_in_header *in)
{
	if (lchown(path, in->uid, in->gid))
		perror("stuckfs: lchown");
}

static void do_setattr(const struct fuse_in_header *in, const struct fuse_setattr_in *s,
		       const char *path)
{
	int ret = 0;

	if ((s->valid & FATTR_SIZE) && truncate(path, (off_t)s->size))
		ret = -errno;
	if (!ret && (s->valid & FATTR_MODE) && chmod(path, s->mode & 07777))
		ret = -errno;
	if (!ret && (s->valid & (FATTR_UID | FATTR_GID)) &&
	    lchown(path, (s->valid & FATTR_UID) ? s->uid : (uid_t)-1,
		   (s->valid & FATTR_GID) ? s->gid : (gid_t)-1))
		ret = -errno;
	if (ret)
		reply(in->unique, ret, NULL, 0, NULL, 0);
	else
		reply_attr(in->unique, in->nodeid, path);
}

static void do_readdir(const struct fuse_in_header *in, const struct fuse_read_in *r)
{
	static char out[BUFSZ];
	size_t len = 0, size = r->size < sizeof(out) ? r->size : sizeof(out);
	uint64_t i = 0;
	struct dirent *d;
	DIR *dir;
	int fd = dup((int)r->fh);

	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		reply(in->unique, -EBADF, NULL, 0, NULL, 0);
		return;
	}
	rewinddir(dir);
	while ((d = readdir(dir))) {
		size_t nl = strlen(d->d_name), rec = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + nl);
		struct fuse_dirent *fd_ent;

		if (i++ < r->offset)
			continue;
		if (len + rec > size)
			break;
		fd_ent = (struct fuse_dirent *)(out + len);
		memset(fd_ent, 0, rec);
		fd_ent->ino = d->d_ino;
		fd_ent->off = i;
		fd_ent->namelen = (uint32_t)nl;
		fd_ent->type = d->d_type;
		memcpy(fd_ent->name, d->d_name, nl);
		len += rec;
	}
	closedir(dir);
	reply(in->unique, 0, out, len, NULL, 0);
}

static void do_statfs(const struct fuse_in_header *in)
{
	struct fuse_statfs_out o = { 0 };
	struct statvfs sv;

	if (statvfs(paths[0], &sv)) {
		reply(in->unique, -errno, NULL, 0, NULL, 0);
		return;
	}
	o.st.blocks = sv.f_blocks;
	o.st.bfree = sv.f_bfree;
	o.st.bavail = sv.f_bavail;
	o.st.files = sv.f_files;
	o.st.ffree = sv.f_ffree;
	o.st.bsize = (uint32_t)sv.f_bsize;
	o.st.frsize = (uint32_t)sv.f_frsize;
	o.st.namelen = 255;
	reply(in->unique, 0, &o, sizeof(o), NULL, 0);
}

static void do_init(const struct fuse_in_header *in, const struct fuse_init_in *i)
{
	struct fuse_init_out o = { 0 };

	o.major = FUSE_KERNEL_VERSION;
	o.minor = i->minor < FUSE_KERNEL_MINOR_VERSION ? i->minor : FUSE_KERNEL_MINOR_VERSION;
	o.max_readahead = i->max_readahead;
	o.flags = i->flags & FUSE_BIG_WRITES;
	o.max_background = 16;
	o.congestion_threshold = 12;
	o.max_write = MAX_WRITE;
	o.time_gran = 1;
	reply(in->unique, 0, &o, sizeof(o), NULL, 0);
}

/* One request: its header @in, its argument @arg. */
static void serve(const struct fuse_in_header *in, const void *arg)
{
	const char *path = path_of(in->nodeid), *name = arg;
	char p[4096];
	int fd, ret;

	switch (in->opcode) {
	case FUSE_INIT:
		do_init(in, arg);
		return;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		return;
	case FUSE_DESTROY:
		reply(in->unique, 0, NULL, 0, NULL, 0);
		quit = 1;
		return;
	case FUSE_STATFS:
		do_statfs(in);
		return;
	}
	if (!path) {
		reply(in->unique, -ESTALE, NULL, 0, NULL, 0);
		return;
	}
	switch (in->opcode) {
	case FUSE_LOOKUP:
		if ((ret = child(in->nodeid, name, p, sizeof(p))))
			reply(in->unique, ret, NULL, 0, NULL, 0);
		else
			reply_entry(in->unique, p, NULL, 0);
		return;
	case FUSE_GETATTR:
		reply_attr(in->unique, in->nodeid, path);
		return;
	case FUSE_SETATTR:
		do_setattr(in, arg, path);
		return;
	case FUSE_ACCESS:
	case FUSE_FLUSH:
	case FUSE_FSYNC:
	case FUSE_FSYNCDIR:
		reply(in->unique, 0, NULL, 0, NULL, 0);
		return;
	case FUSE_MKDIR: {
		const struct fuse_mkdir_in *m = arg;

		name = (const char *)(m + 1);
		if ((ret = child(in->nodeid, name, p, sizeof(p))) ||
		    (mkdir(p, m->mode & ~m->umask & 07777) && (ret = -errno))) {
			reply(in->unique, ret, NULL, 0, NULL, 0);
			return;
		}
		give(p, in);
		reply_entry(in->unique, p, NULL, 0);
		return;
	}
	case FUSE_CREATE: {
		const struct fuse_create_in *c = arg;
		struct fuse_open_out o = { 0 };

		name = (const char *)(c + 1);
		if ((ret = child(in->nodeid, name, p, sizeof(p)))) {
			reply(in->unique, ret, NULL, 0, NULL, 0);
			return;
		}
		fd = open(p, (int)(c->flags & ~O_NOCTTY) | O_CREAT | O_CLOEXEC,
			  c->mode & ~c->umask & 07777);
		if (fd < 0) {
			reply(in->unique, -errno, NULL, 0, NULL, 0);
			return;
		}
		give(p, in);
		o.fh = (uint64_t)fd;
		reply_entry(in->unique, p, &o, sizeof(o));
		return;
	}
	case FUSE_OPEN:
	case FUSE_OPENDIR: {
		const struct fuse_open_in *oi = arg;
		struct fuse_open_out o = { 0 };
		int flags = in->opcode == FUSE_OPENDIR ? O_RDONLY | O_DIRECTORY :
			    (int)(oi->flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC));

		fd = open(path, flags | O_CLOEXEC);
		if (fd < 0) {
			reply(in->unique, -errno, NULL, 0, NULL, 0);
			return;
		}
		o.fh = (uint64_t)fd;
		reply(in->unique, 0, &o, sizeof(o), NULL, 0);
		return;
	}
	case FUSE_READ: {
		static char out[BUFSZ];
		const struct fuse_read_in *r = arg;
		ssize_t n = pread((int)r->fh, out, r->size < sizeof(out) ? r->size : sizeof(out),
				  (off_t)r->offset);

		reply(in->unique, n < 0 ? -errno : 0, out, n < 0 ? 0 : (size_t)n, NULL, 0);
		return;
	}
	case FUSE_WRITE: {
		const struct fuse_write_in *w = arg;
		struct fuse_write_out o = { 0 };
		ssize_t n = pwrite((int)w->fh, w + 1, w->size, (off_t)w->offset);

		o.size = n < 0 ? 0 : (uint32_t)n;
		reply(in->unique, n < 0 ? -errno : 0, &o, sizeof(o), NULL, 0);
		return;
	}
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		close((int)((const struct fuse_release_in *)arg)->fh);
		reply(in->unique, 0, NULL, 0, NULL, 0);
		return;
	case FUSE_READDIR:
		do_readdir(in, arg);
		return;
	case FUSE_UNLINK:
	case FUSE_RMDIR:
		if ((ret = child(in->nodeid, name, p, sizeof(p))) ||
		    ((in->opcode == FUSE_UNLINK ? unlink(p) : rmdir(p)) && (ret = -errno))) {
			reply(in->unique, ret, NULL, 0, NULL, 0);
			return;
		}
		reply(in->unique, 0, NULL, 0, NULL, 0);
		return;
	default:
		/* xattrs, links, renames, locks, tmpfiles...: not needed here */
		reply(in->unique, -ENOSYS, NULL, 0, NULL, 0);
		return;
	}
}

/* While stuck: wait for SIGUSR2, saying "waiting" once a request waits. */
static void wait_stuck(void)
{
	struct pollfd pfd = { .fd = fd_dev, .events = POLLIN };
	int said = 0;

	set_state("stuck");
	while (stuck && !quit) {
		if (!said && poll(&pfd, 1, 0) == 1) {
			set_state("waiting");
			said = 1;
		}
		poll(NULL, 0, said ? 1000 : 20);	/* a signal ends it */
	}
	if (!quit)
		set_state("running");
}

int main(int argc, char **argv)
{
	static char buf[BUFSZ + 4096];
	struct sigaction sa = { .sa_handler = on_signal };
	char opts[256];
	ssize_t n;

	if (argc != 4) {
		fprintf(stderr, "usage: stuckfs BACKING MOUNTPOINT STATE\n");
		return 1;
	}
	state_path = argv[3];
	paths = calloc(MAX_NODES, sizeof(*paths));
	if (!paths || !(paths[0] = realpath(argv[1], NULL))) {
		perror("stuckfs: backing directory");
		return 1;
	}
	nr_paths = 1;
	fd_dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd_dev < 0) {
		perror("stuckfs: /dev/fuse");
		return 77;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other,default_permissions",
		 fd_dev);
	if (mount("stuckfs", argv[2], "fuse.stuckfs", MS_NOSUID | MS_NODEV, opts)) {
		perror("stuckfs: mount");
		return errno == EPERM || errno == ENODEV || errno == EACCES ? 77 : 1;
	}
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	set_state("running");
	while (!quit) {
		if (stuck) {
			wait_stuck();
			continue;
		}
		if (!hold && held_head) {	/* held no more: their answers first */
			struct held *h = held_head;

			held_head = h->next;
			if (!held_head)
				held_tail = &held_head;
			serve((const struct fuse_in_header *)h->buf,
			      h->buf + sizeof(struct fuse_in_header));
			free(h);
			if (!held_head)
				set_state("running");
			continue;
		}
		n = read(fd_dev, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			break;	/* unmounted (ENODEV) */
		if (hold) {
			struct held *h = malloc(sizeof(*h) + (size_t)n);

			if (!h)
				break;
			h->next = NULL;
			h->len = (size_t)n;
			memcpy(h->buf, buf, (size_t)n);
			*held_tail = h;
			held_tail = &h->next;
			set_state("holding");
			continue;
		}
		serve((const struct fuse_in_header *)buf, buf + sizeof(struct fuse_in_header));
	}
	umount2(argv[2], MNT_DETACH);
	close(fd_dev);
	return 0;
}
