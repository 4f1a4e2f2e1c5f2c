// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract.c - ltt-crash's walk over a shared memory path: each directory
 * holding "metadata" is a trace, its other files its streams (crash.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/trace/ringbuf.h"
#include "crash/crash.h"

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
 * Every packet of the ring buffer mapped in @s from the reader's position
 * (rewound to the oldest packet still there) on into @out.  The open
 * packet is closed first, as a stop would.
 */
static int drain(struct stream *s, int out, struct crash_counts *c)
{
	struct ltt_rb_file_repair r;
	struct ltt_rb_packet pkt;
	int ret;

	/* read locks: the file is open read only */
	ltt_rb_file_repair_init(&r, &s->rb, s->fd, F_RDLCK);
	ltt_rb_flush(&s->rb, false);	/* -ENODATA: nothing open; -EBUSY: can't be, writers gone */
	for (;;) {
		uint64_t corrupt = s->rb.stats.events_corrupt;

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
		c->events += pkt.events;
		ltt_rb_put_subbuf(&s->rb, &pkt);
	}
}

/* Stream file @name of @in_dir into the same name in @out_dir. */
static int one_stream(int in_dir, int out_dir, const char *path, const char *name, int verbose,
		      struct crash_counts *c)
{
	struct crash_counts mine = { 0 };
	struct stream s = { .fd = -1 };
	void *mem = MAP_FAILED;
	struct stat st;
	int out = -1, ret;

	s.fd = openat(in_dir, name, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0 || fstat(s.fd, &st)) {
		ret = -errno;
		goto out;
	}
	ret = -EINVAL;
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		goto out;
	/* private: what the reader writes (positions, repairs) stays here */
	mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, s.fd, 0);
	if (mem == MAP_FAILED) {
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
	mine.lost = ltt_rb_events_lost(&s.rb) + ltt_rb_events_skipped(&s.rb) - s.corrupt_out;
	if (verbose)
		fprintf(stderr, "%s/%s: %" PRIu64 " packets, %" PRIu64 " events, %" PRIu64
			" lost (%" PRIu64 " torn, %" PRIu64 " in %" PRIu64 " packets given up, %"
			PRIu64 " in corrupt packets)\n",
			path, name, mine.packets, mine.events, mine.lost, s.rb.stats.events_torn,
			s.rb.stats.events_abandoned, s.rb.stats.packets_abandoned,
			s.rb.stats.events_corrupt - s.corrupt_out);
	if (ret == -EBUSY)
		LTT_WARN("%s/%s: a program still running is writing its last packet: left out (run ltt-crash once the programs are gone)",
			 path, name);
	c->streams++;
	c->packets += mine.packets;
	c->events += mine.events;
	c->lost += mine.lost;
out:
	if (ret == -EINVAL)
		LTT_WARN("%s/%s: not an ltt ring buffer of this version (its header is not one): left out",
			 path, name);
	else if (ret && ret != -EBUSY)
		LTT_WARN("%s/%s: can't be read: %s", path, name, strerror(-ret));
	if (ret)
		c->warnings++;
	if (out >= 0)
		close(out);
	if (mem != MAP_FAILED)
		munmap(mem, (size_t)st.st_size);
	if (s.fd >= 0)
		close(s.fd);
	return ret;
}

/* A copy of file @name of @in_dir (the metadata) into @out_dir. */
static int copy_file(int in_dir, int out_dir, const char *name)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = openat(in_dir, name, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = openat(out_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (out < 0)
		ret = -errno;
	while (!ret && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		ret = n < 0 ? -errno : ltt_io_write_all(out, buf, (size_t)n);
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
static void one_trace(int in_dir, int out_dir, const char *path, int verbose,
		      struct crash_counts *c)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int ret;

	ret = copy_file(in_dir, out_dir, "metadata");
	if (ret) {
		LTT_WARN("%s/metadata: can't be copied: %s; trace left out", path, strerror(-ret));
		c->warnings++;
		return;
	}
	c->traces++;
	d = dir_stream(in_dir);
	if (!d) {
		c->warnings++;
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "metadata") ||
		    fstatat(in_dir, e->d_name, &st, 0) || !S_ISREG(st.st_mode))
			continue;
		one_stream(in_dir, out_dir, path, e->d_name, verbose, c);
	}
	closedir(d);
}

/* Below @path (@in_dir) into @out_dir, which exists; @depth: levels above. */
static void walk(int in_dir, int out_dir, const char *path, unsigned int depth, int verbose,
		 struct crash_counts *c)
{
	char sub[PATH_MAX];
	struct dirent *e;
	struct stat st;
	int in_sub, out_sub;
	DIR *d;

	if (!fstatat(in_dir, "metadata", &st, 0) && S_ISREG(st.st_mode)) {
		one_trace(in_dir, out_dir, path, verbose, c);
		return;
	}
	if (depth >= 16)	/* a shared memory path is 6 deep: a loop of links */
		return;
	d = dir_stream(in_dir);
	if (!d) {
		c->warnings++;
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(in_dir, e->d_name, &st, 0) || !S_ISDIR(st.st_mode))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= sizeof(sub))
			continue;
		in_sub = openat(in_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (in_sub < 0)
			continue;
		if (mkdirat(out_dir, e->d_name, 0750) && errno != EEXIST) {
			LTT_WARN("%s: can't make its copy: %s", sub, strerror(errno));
			c->warnings++;
			close(in_sub);
			continue;
		}
		out_sub = openat(out_dir, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (out_sub >= 0) {
			walk(in_sub, out_sub, sub, depth + 1, verbose, c);
			close(out_sub);
		}
		close(in_sub);
	}
	closedir(d);
}

int crash_extract(const char *input, const char *output, int verbose, struct crash_counts *ret)
{
	int in = open(input, O_RDONLY | O_DIRECTORY | O_CLOEXEC), out, err;

	if (in < 0)
		return -errno;
	out = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	walk(in, out, input, 0, verbose, ret);
	close(out);
	close(in);
	return 0;
}
