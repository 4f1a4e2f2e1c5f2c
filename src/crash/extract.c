// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract.c - ltt-crash's walk over a shared memory path: each directory
 * holding "metadata" is a trace, its other files its streams (crash.h).
 *
 * The input is another's word (a program's, or a user's who may point it
 * anywhere): the walk reads regular files and directories only, follows
 * no symbolic link, stays on the input's file system, takes the files of
 * the input's owner (and root's), and opens them with the owner's rights
 * when root reads another user's directory (fsuid).  Each stream is read
 * into memory of its own (a file cut meanwhile can't fault it), and what
 * is read of it is bounded by its sub-buffers, whatever its header says.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/trace/ringbuf.h"
#include "crash/crash.h"

/* The largest metadata file copied: the consumer's bound on a trace's text. */
#define METADATA_MAX ((off_t)1 << 30)

/* What the walk may read, and where its counts go. */
struct walk {
	dev_t dev;		/* the input's file system: no other is entered */
	uid_t owner;		/* the input's owner: its files and root's are read */
	gid_t owner_gid;
	bool as_owner;		/* root, another's input: its files opened with its rights */
	int verbose;
	struct crash_counts *c;
};

/* @a + @b, or UINT64_MAX where it would wrap: a header's word is not trusted. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Entry @name of @dir, of type @type (S_IFREG, S_IFDIR), opened read only
 * without following a link nor blocking, with the owner's rights when
 * @w->as_owner: the same file as stat said, on the input's file system,
 * the owner's or root's.  Its stat in @st.  Returns the descriptor, or
 * -errno: -ELOOP (a link), -EPERM (another file system or owner),
 * -EINVAL (another type), or what open said.
 */
static int open_in(const struct walk *w, int dir, const char *name, mode_t type, struct stat *st)
{
	struct stat before;
	int fd, err;

	if (fstatat(dir, name, &before, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISLNK(before.st_mode))
		return -ELOOP;
	if ((before.st_mode & S_IFMT) != type)
		return -EINVAL;
	if (w->as_owner) {
		setfsgid(w->owner_gid);
		setfsuid(w->owner);
	}
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			       (type == S_IFDIR ? O_DIRECTORY : 0));
	err = fd < 0 ? -errno : 0;
	if (w->as_owner) {
		setfsuid(0);
		setfsgid(0);
	}
	if (err)
		return err;
	err = fstat(fd, st) ? -errno : 0;
	if (!err && ((st->st_mode & S_IFMT) != type || st->st_ino != before.st_ino ||
		     st->st_dev != before.st_dev))
		err = -EINVAL;	/* swapped between the two */
	if (!err && (st->st_dev != w->dev || (st->st_uid != w->owner && st->st_uid != 0)))
		err = -EPERM;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* Why open_in() refused, for a warning. */
static const char *refusal(int err)
{
	switch (err) {
	case -ELOOP:
		return "a symbolic link, not followed";
	case -EPERM:
		return "on another file system, or of another owner than the input's (or root): not read";
	case -EINVAL:
		return "not a regular file (or replaced while opened): not read";
	default:
		return strerror(-err);
	}
}

/* One stream file being read. */
struct stream {
	struct ltt_rb rb;
	int fd;			/* the file, read only: the writer blocks' locks */
	uint64_t written_out;	/* the consumer's read position: before it, written out */
	uint64_t corrupt_out;	/* events of corrupt packets before it: not lost */
};

/* The packet just taken into @out: its validated header, then the rest. */
static int write_packet(int out, const struct ltt_rb_packet *pkt)
{
	int ret = ltt_io_write_all(out, &pkt->header, sizeof(pkt->header));

	if (!ret)
		ret = ltt_io_write_all(out, (const uint8_t *)pkt->data + sizeof(pkt->header),
				pkt->packet_size - sizeof(pkt->header));
	return ret;
}

/*
 * The packet at the read position is not complete: finish what dead
 * writers left (a torn event becomes a skip event, counted lost), or give
 * it up (its events counted lost).  0: take the next packet; -ENODATA:
 * nothing more; another -errno: stop (-EBUSY: a writer still commits to it).
 */
static int unstick(struct stream *s, const struct ltt_rb_file_repair *r)
{
	int ret = ltt_rb_repair_subbuf(&s->rb, &r->ops);

	if (!ret || ret == -EAGAIN)
		return 0;
	if (ret == -ENODATA)
		return -ENODATA;	/* nothing reserved past the last packet */
	/*
	 * -EBUSY too: a writer the repair can't see end (one that died
	 * untracked, or one still running): the packet is given up in this
	 * private copy, its events counted lost, and the next ones read.
	 */
	ret = ltt_rb_abandon_subbuf(&s->rb);
	return ret == -EAGAIN ? 0 : ret;
}

/*
 * Every packet of the ring buffer read in @s from the reader's position
 * (rewound to the oldest packet still there) on into @out.  The open
 * packet is closed first, as a stop would.  A ring buffer holds each of
 * its sub-buffers once: a header whose positions say more (a corrupt or
 * hostile one) is read that far, and -E2BIG said.
 */
static int drain(struct stream *s, int out, struct crash_counts *c)
{
	uint64_t steps, max_steps = 2 * s->rb.num_subbuf + 8;
	struct ltt_rb_file_repair r;
	struct ltt_rb_packet pkt;
	int ret;

	/* read locks: the file is open read only */
	ltt_rb_file_repair_init(&r, &s->rb, s->fd, F_RDLCK);
	ltt_rb_flush(&s->rb, false);	/* -ENODATA: nothing open; -EBUSY: can't be, writers gone */
	for (steps = 0;; steps++) {
		uint64_t corrupt = s->rb.stats.events_corrupt;

		if (steps == max_steps)
			return -E2BIG;

		ret = ltt_rb_get_next_subbuf(&s->rb, &pkt);
		/*
		 * A corrupt packet (skipped, the reader past it) is lost,
		 * unless the consumer wrote it out before the crash: the
		 * sub-buffers it gave back are zeros since.
		 */
		if (ret == -EIO && s->rb.consumed - s->rb.subbuf_size < s->written_out)
			s->corrupt_out += s->rb.stats.events_corrupt - corrupt;
		if (ret == -EIO || ret == -ESTALE)
			continue;	/* skipped, counted */
		if (ret == -EAGAIN) {
			ret = unstick(s, &r);
			if (ret)
				return ret == -ENODATA ? 0 : ret;
			continue;
		}
		if (ret)
			return ret;
		ret = write_packet(out, &pkt);
		if (ret)
			return ret;
		c->packets++;
		c->events = sat_add(c->events, pkt.events);
		ltt_rb_put_subbuf(&s->rb, &pkt);
	}
}

/*
 * The @size bytes of @fd into memory of their own, 64-byte aligned (the
 * reader's): a file cut or changed meanwhile can't fault the reader.
 * Returns the memory (free() it), or NULL with errno (EINVAL: the file
 * was cut).
 */
static void *read_whole(int fd, size_t size)
{
	size_t got = 0;
	ssize_t n;
	void *mem;

	if (posix_memalign(&mem, 4096, size)) {
		errno = ENOMEM;
		return NULL;
	}
	while (got < size) {
		n = pread(fd, (uint8_t *)mem + got, size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(mem);
			errno = n < 0 ? errno : EINVAL;
			return NULL;
		}
		got += (size_t)n;
	}
	return mem;
}

/* Stream file @name of @in_dir into the same name in @out_dir. */
static int one_stream(const struct walk *w, int in_dir, int out_dir, const char *path,
		      const char *name)
{
	struct crash_counts mine = { 0 }, *c = w->c;
	struct stream s = { .fd = -1 };
	void *mem = NULL;
	struct stat st;
	int out = -1, ret;

	s.fd = open_in(w, in_dir, name, S_IFREG, &st);
	if (s.fd < 0) {
		ret = s.fd;
		LTT_WARN("%s/%s: %s", path, name, refusal(ret));
		c->warnings++;
		return ret;
	}
	ret = -EINVAL;
	if (st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		goto out;
	/* private: what the reader writes (positions, repairs) stays here */
	mem = read_whole(s.fd, (size_t)st.st_size);
	if (!mem) {
		ret = -errno;
		goto out;
	}
	ret = ltt_rb_attach(&s.rb, mem, (size_t)st.st_size);
	if (ret)
		goto out;
	/* what the consumer wrote out is still there until the writers came round */
	s.written_out = s.rb.consumed;
	ltt_rb_rewind_oldest(&s.rb);
	out = openat(out_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (out < 0) {
		ret = -errno;
		goto out;
	}
	ret = drain(&s, out, &mine);
	if (!mine.packets)
		unlinkat(out_dir, name, 0);	/* nothing recorded: no empty stream file */
	/* the writers' drops (torn slots among them), and the packets skipped here */
	mine.lost = sat_add(ltt_rb_events_lost(&s.rb), ltt_rb_events_skipped(&s.rb));
	mine.lost = mine.lost > s.corrupt_out ? mine.lost - s.corrupt_out : 0;
	if (w->verbose)
		fprintf(stderr, "%s/%s: %" PRIu64 " packets, %" PRIu64 " events, %" PRIu64
			" lost (%" PRIu64 " torn, %" PRIu64 " in %" PRIu64 " packets given up, %"
			PRIu64 " in corrupt packets)\n",
			path, name, mine.packets, mine.events, mine.lost, s.rb.stats.events_torn,
			s.rb.stats.events_abandoned, s.rb.stats.packets_abandoned,
			s.rb.stats.events_corrupt - s.corrupt_out);
	if (ret == -EBUSY)
		LTT_WARN("%s/%s: a program still running is writing its last packet: left out (run ltt-crash once the programs are gone)",
			 path, name);
	if (ret == -E2BIG)
		LTT_WARN("%s/%s: its header says more than its %" PRIu64 " sub-buffers hold (a corrupt ring buffer): read as far as they go",
			 path, name, s.rb.num_subbuf);
	c->streams++;
	c->packets += mine.packets;
	c->events = sat_add(c->events, mine.events);
	c->lost = sat_add(c->lost, mine.lost);
out:
	if (ret == -EINVAL)
		LTT_WARN("%s/%s: not an ltt ring buffer of this version (its header is not one, or the file was cut while read): left out",
			 path, name);
	else if (ret && ret != -EBUSY && ret != -E2BIG)
		LTT_WARN("%s/%s: can't be read: %s", path, name, strerror(-ret));
	if (ret)
		c->warnings++;
	if (out >= 0)
		close(out);
	free(mem);
	if (s.fd >= 0)
		close(s.fd);
	return ret;
}

/*
 * A copy of the metadata file of @in_dir into @out_dir: at most the
 * bytes it had when opened, and at most METADATA_MAX.
 */
static int copy_metadata(const struct walk *w, int in_dir, int out_dir)
{
	char buf[65536];
	struct stat st;
	off_t left;
	int in, out, ret = 0;
	ssize_t n;

	in = open_in(w, in_dir, "metadata", S_IFREG, &st);
	if (in < 0)
		return in;
	if (st.st_size > METADATA_MAX) {
		close(in);
		return -EFBIG;
	}
	out = openat(out_dir, "metadata", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (out < 0)
		ret = -errno;
	for (left = st.st_size; !ret && left > 0; left -= n) {
		n = read(in, buf, (size_t)left < sizeof(buf) ? (size_t)left : sizeof(buf));
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0)
			break;	/* cut meanwhile: what it had */
		ret = ltt_io_write_all(out, buf, (size_t)n);
	}
	if (out >= 0)
		close(out);
	close(in);
	return ret;
}

/* A directory stream of @dir (borrowed: read from a copy), or NULL. */
static DIR *dir_stream(int dir)
{
	int fd = dup(dir);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* The trace in @path (@in_dir, which holds "metadata") into @out_dir. */
static void one_trace(const struct walk *w, int in_dir, int out_dir, const char *path)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int ret;

	ret = copy_metadata(w, in_dir, out_dir);
	if (ret) {
		LTT_WARN("%s/metadata: can't be copied: %s; trace left out", path,
			 ret == -EFBIG ? "larger than any trace's metadata (1 GiB)" : refusal(ret));
		w->c->warnings++;
		return;
	}
	w->c->traces++;
	d = dir_stream(in_dir);
	if (!d) {
		w->c->warnings++;
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "metadata") ||
		    fstatat(in_dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || S_ISDIR(st.st_mode))
			continue;
		one_stream(w, in_dir, out_dir, path, e->d_name);
	}
	closedir(d);
}

/* Below @path (@in_dir) into @out_dir, which exists; @depth: levels above. */
static void walk(const struct walk *w, int in_dir, int out_dir, const char *path,
		 unsigned int depth)
{
	char sub[PATH_MAX];
	struct dirent *e;
	struct stat st;
	int in_sub, out_sub;
	DIR *d;

	if (!fstatat(in_dir, "metadata", &st, AT_SYMLINK_NOFOLLOW) && !S_ISDIR(st.st_mode)) {
		one_trace(w, in_dir, out_dir, path);
		return;
	}
	if (depth >= 16)	/* a shared memory path is 6 deep */
		return;
	d = dir_stream(in_dir);
	if (!d) {
		w->c->warnings++;
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(in_dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    (!S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= sizeof(sub))
			continue;
		in_sub = open_in(w, in_dir, e->d_name, S_IFDIR, &st);
		if (in_sub < 0) {
			LTT_WARN("%s: %s", sub, refusal(in_sub));
			w->c->warnings++;
			continue;
		}
		if (mkdirat(out_dir, e->d_name, 0750) && errno != EEXIST) {
			LTT_WARN("%s: can't make its copy: %s", sub, strerror(errno));
			w->c->warnings++;
			close(in_sub);
			continue;
		}
		out_sub = openat(out_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (out_sub >= 0) {
			walk(w, in_sub, out_sub, sub, depth + 1);
			close(out_sub);
		}
		close(in_sub);
	}
	closedir(d);
}

int crash_extract(const char *input, const char *output, int verbose, struct crash_counts *ret)
{
	struct walk w = { .verbose = verbose, .c = ret };
	int in = open(input, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC), out, err;
	struct stat st;

	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		err = -errno;
		close(in);
		return err;
	}
	w.dev = st.st_dev;
	w.owner = st.st_uid;
	w.owner_gid = st.st_gid;
	/* root reading another user's directory: with that user's rights */
	w.as_owner = geteuid() == 0 && st.st_uid != 0;
	out = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	walk(&w, in, out, input, 0);
	close(out);
	close(in);
	return 0;
}
