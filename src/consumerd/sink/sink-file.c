// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink-file.c - the file output: a stream's data and index files, with
 * rotation; packets written from memory or spliced from a descriptor.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/durable.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/trace/trace-repair.h"
#include "common/trace/tracefile.h"
#include "consumerd/sink/sink-file.h"

static const struct ltt_output_ops file_output_ops;

/* The pipe between a spliced descriptor and the file. */
#define PIPE_SIZE (1 << 20)

struct file_output {
	struct ltt_output base;
	int dir_fd, index_dir_fd;
	struct ltt_owner owner;
	uint64_t max_size, max_count;
	int meta_fd;			/* the trace's metadata file, or -1 */
	int lock_fd;			/* dir_fd read-only, its shared flock() held, or -1 */
	uint64_t meta_size;		/* its bytes: whole packets */
	bool resume;			/* continue a dead consumer's files */
	bool fsync;			/* its sinks sync each packet */
	int sync_after;			/* synced before each packet (metadata), or -1 */
};

struct ltt_tracefile {
	struct ltt_sink base;
	int dir_fd, index_dir_fd;	/* the output's */
	const struct ltt_owner *owner;	/* the output's */
	struct ltt_tracefile_files files;	/* the current files, those on disk */
	int pipe[2];			/* for splice(), made on first use; -1 */
	size_t pipe_size;
	bool no_splice;			/* splice() refused the source: memory only */
	bool resumed;			/* packets up to last_seq are in the files */
	uint64_t last_seq;		/* sequence number of the last packet indexed */
	bool fsync;			/* the output's */
	int sync_after;			/* the output's */
	bool dirs_dirty;		/* files created since the directories were synced */
	/*
	 * With a file count: what each file on disk holds (counts[i]: file
	 * oldest_no + i; 0 for a dead consumer's), and what the files deleted
	 * to keep the count held: lost to the trace, counted (file_lost()).
	 */
	struct file_count {
		uint64_t packets, events;
	} *counts;
	uint64_t nr_counts, counts_cap;
	uint64_t gone_packets, gone_events;
	char base_name[LTT_SINK_FILE_BASE_MAX + 1];
};

static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = *sum > UINT64_MAX - v ? UINT64_MAX : *sum + v;
}

/* File @no's count (tracked with a file count only), or NULL: no memory (said once). */
static struct file_count *count_of(struct ltt_tracefile *tf, uint64_t no)
{
	uint64_t i = no - tf->files.oldest_no, cap;
	struct file_count *c;

	if (!tf->files.max_count || no < tf->files.oldest_no)
		return NULL;
	if (i >= tf->counts_cap) {
		cap = tf->counts_cap ? tf->counts_cap * 2 : 8;
		while (cap <= i)
			cap *= 2;
		c = cap < SIZE_MAX / sizeof(*c) ? realloc(tf->counts, cap * sizeof(*c)) : NULL;
		if (!c) {
			LTT_WARN_RL("stream %s: no memory to count what its files hold: the files its file count deletes are not counted lost",
				    tf->base_name);
			return NULL;
		}
		tf->counts = c;
		tf->counts_cap = cap;
	}
	while (tf->nr_counts <= i)
		tf->counts[tf->nr_counts++] = (struct file_count){ 0, 0 };
	return &tf->counts[i];
}

/* The oldest file was deleted: what it held is lost. */
static void count_deleted(struct ltt_tracefile *tf)
{
	if (!tf->nr_counts)
		return;
	add_sat(&tf->gone_packets, tf->counts[0].packets);
	add_sat(&tf->gone_events, tf->counts[0].events);
	memmove(tf->counts, tf->counts + 1, (size_t)(tf->nr_counts - 1) * sizeof(*tf->counts));
	tf->nr_counts--;
}

/* The name of file @no: BASE or BASE_N, with ".idx" for the index. */
static int file_name(const struct ltt_tracefile *tf, uint64_t no, bool index, char *buf,
		     size_t len)
{
	return ltt_tracefile_name(tf->base_name, tf->files.max_size != 0, no, index, buf, len);
}

/*
 * Create the data and index files of file @no; the index gets its header.
 * An output without index (a snapshot's) has no index file: -1.
 */
static int open_files(struct ltt_tracefile *tf, uint64_t no, int *ret_fd, int *ret_idx_fd)
{
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE];
	struct iovec iov = { .iov_base = hdr, .iov_len = sizeof(hdr) };
	char name[NAME_MAX + 1], idx_name[NAME_MAX + 1];
	int fd, idx_fd, ret;

	ret = file_name(tf, no, false, name, sizeof(name));
	if (!ret)
		ret = file_name(tf, no, true, idx_name, sizeof(idx_name));
	if (ret)
		return ret;
	ret = ltt_fs_create(tf->dir_fd, name, tf->owner, &fd);
	if (ret) {
		LTT_ERR("can't create the stream file %s: %s", name, strerror(-ret));
		return ret;
	}
	if (tf->index_dir_fd < 0) {
		idx_fd = -1;
		goto done;
	}
	ret = ltt_fs_create(tf->index_dir_fd, idx_name, tf->owner, &idx_fd);
	if (ret) {
		LTT_ERR("can't create the index file %s: %s", idx_name, strerror(-ret));
		goto fail_data;
	}
	ltt_ctf_index_header(hdr);
	ret = ltt_io_pwritev_all(idx_fd, &iov, 1, 0);
	if (ret) {
		LTT_ERR("can't write the index file %s: %s", idx_name, strerror(-ret));
		close(idx_fd);
		unlinkat(tf->index_dir_fd, idx_name, 0);
		goto fail_data;
	}
done:
	*ret_fd = fd;
	*ret_idx_fd = idx_fd;
	tf->dirs_dirty = true;
	return 0;
fail_data:
	close(fd);
	unlinkat(tf->dir_fd, name, 0);
	return ret;
}

/* Start file file_no + 1; past the count, delete the oldest ones. */
static int rotate(struct ltt_tracefile *tf)
{
	int fd, idx_fd, ret;
	uint64_t gone;

	ret = open_files(tf, tf->files.file_no + 1, &fd, &idx_fd);
	if (ret)
		return ret;	/* keep the current file; the next packet retries */
	gone = ltt_tracefile_rotate(&tf->files, fd, idx_fd, tf->dir_fd, tf->index_dir_fd,
				    tf->base_name);
	while (gone--)
		count_deleted(tf);
	return 0;
}

/* Cut @fd back to @size after a failed append. */
static void cut_back(int fd, uint64_t size, const char *what)
{
	if (ftruncate(fd, (off_t)size))
		LTT_ERR("can't cut the %s back after a failed write: %s", what, strerror(errno));
}

static void close_pipe(struct ltt_tracefile *tf)
{
	ltt_fd_close(&tf->pipe[0]);
	ltt_fd_close(&tf->pipe[1]);
}

/* The splice pipe, made once: non-blocking, as large as we may make it. */
static int open_pipe(struct ltt_tracefile *tf)
{
	int size;

	if (tf->pipe[0] >= 0)
		return 0;
	if (pipe2(tf->pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	fcntl(tf->pipe[1], F_SETPIPE_SZ, PIPE_SIZE);	/* a smaller one works too */
	size = fcntl(tf->pipe[1], F_GETPIPE_SZ);
	tf->pipe_size = size > 0 ? (size_t)size : 4096;
	return 0;
}

/*
 * Move @len bytes from @from to the data file at tf->files.size through the
 * pipe.  *ret_moved says whether any byte left @from.  The pipe is
 * non-blocking: when it has no room (the source may fill it with partial
 * pages), it is emptied into the file first.  On failure bytes may be
 * left in the pipe: the caller must close it (they reference pages the
 * source reuses once the packet is released, and would start the next
 * packet).
 */
static int splice_packet(struct ltt_tracefile *tf, int from, uint64_t len, bool *ret_moved)
{
	loff_t off = (loff_t)tf->files.size;
	uint64_t left = len;
	size_t in_pipe = 0;
	ssize_t n;

	*ret_moved = false;
	while (left || in_pipe) {
		if (left && in_pipe < tf->pipe_size) {
			size_t want = tf->pipe_size - in_pipe;

			n = splice(from, NULL, tf->pipe[1], NULL, left < want ? (size_t)left : want,
				   SPLICE_F_MOVE);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				return -errno;
			/* Room in an empty pipe and still nothing: don't spin. */
			if (n < 0 && errno == EAGAIN && !in_pipe)
				return -EIO;
			if (n == 0)
				return -EIO;	/* the source ended inside the packet */
			if (n > 0) {
				*ret_moved = true;
				left -= (uint64_t)n;
				in_pipe += (size_t)n;
			}
		}
		if (!in_pipe)
			continue;
		n = splice(tf->pipe[0], NULL, tf->files.fd, &off, in_pipe, SPLICE_F_MOVE);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n == 0)
			return -EIO;
		if (n > 0)
			in_pipe -= (size_t)n;
	}
	return 0;
}

/* The first @len bytes of @pkt's memory at @off. */
static int write_memory(struct ltt_tracefile *tf, const struct ltt_sink_packet *pkt,
			uint64_t len, uint64_t off)
{
	struct iovec iov[LTT_SINK_MAX_IOV];
	int i, cnt = 0;

	for (i = 0; i < pkt->iovcnt && len; i++) {
		iov[cnt] = pkt->iov[i];
		if (iov[cnt].iov_len > len)
			iov[cnt].iov_len = (size_t)len;
		len -= iov[cnt++].iov_len;
	}
	return ltt_io_pwritev_all(tf->files.fd, iov, cnt, off);
}

/* @content bytes of the packet: spliced, else from memory. */
static int copy_data(struct ltt_tracefile *tf, const struct ltt_sink_packet *pkt, uint64_t content)
{
	bool moved = false;
	int ret;

	if (pkt->splice_fd >= 0 && !tf->no_splice) {
		ret = open_pipe(tf);
		if (!ret)
			ret = splice_packet(tf, pkt->splice_fd, content, &moved);
		if (ret && ret != -EINVAL && ret != -ENOSYS)
			close_pipe(tf);	/* nothing of this packet may reach the next */
		if (ret != -EINVAL && ret != -ENOSYS)
			return ret;
		/* what sat in the pipe belongs to no file: start a new pipe */
		close_pipe(tf);
		cut_back(tf->files.fd, tf->files.size, "stream file");
		LTT_WARN("stream %s: splice() refuses the stream (%s%s): writing from memory",
			 tf->base_name, strerror(-ret), moved ? ", inside a packet" : "");
		tf->no_splice = true;
	}
	if (pkt->splice_fd >= 0)
		tf->base.splice_fallbacks++;
	return write_memory(tf, pkt, content, tf->files.size);
}

/*
 * The packet's content into the data file: spliced from pkt->splice_fd
 * when there is one and splice() works with it, else from memory; then
 * its padding, as a hole (zeros, whatever the buffer held there: stale
 * bytes of older packets never reach the file).  On failure the caller
 * cuts the file back.
 */
static int write_data(struct ltt_tracefile *tf, const struct ltt_sink_packet *pkt)
{
	uint64_t content = ltt_sink_packet_content(pkt);
	int ret = copy_data(tf, pkt, content);

	if (!ret && content < pkt->len &&
	    ftruncate(tf->files.fd, (off_t)(tf->files.size + pkt->len)))
		ret = -errno;
	return ret;
}

/* fsync() a directory we hold O_PATH: through a descriptor of our own. */
static int sync_dir(int dir_fd)
{
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * --fsync: the packet just written and its index entry on the disk, after
 * the metadata they need, and the directory entries of files created
 * since the last sync.
 */
static int sync_packet(struct ltt_tracefile *tf)
{
	int ret;

	if (tf->sync_after >= 0 && fdatasync(tf->sync_after))
		return -errno;
	if (fdatasync(tf->files.fd) || (tf->files.idx_fd >= 0 && fdatasync(tf->files.idx_fd)))
		return -errno;
	if (tf->dirs_dirty) {
		ret = sync_dir(tf->dir_fd);
		if (!ret && tf->index_dir_fd >= 0)
			ret = sync_dir(tf->index_dir_fd);
		if (ret)
			return ret;
		tf->dirs_dirty = false;
	}
	return 0;
}

/*
 * -ENOENT when the stream's files no longer have a name (the trace's
 * directory was removed, which unlinks them first, or they were): what is
 * written to them would reach no reader, though the writes succeed.
 */
static int files_removed(const struct ltt_tracefile *tf)
{
	struct stat st;

	if (fstat(tf->files.fd, &st))
		return -errno;
	if (!st.st_nlink)
		return -ENOENT;
	if (tf->files.idx_fd < 0)
		return 0;
	if (fstat(tf->files.idx_fd, &st))
		return -errno;
	return st.st_nlink ? 0 : -ENOENT;
}

static int file_write(struct ltt_sink *sink, struct ltt_sink_packet *pkt)
{
	struct ltt_tracefile *tf = (struct ltt_tracefile *)sink;
	uint8_t rec[LTT_CTF_INDEX_ENTRY_SIZE];
	struct iovec riov = { .iov_base = rec, .iov_len = sizeof(rec) };
	uint64_t len = pkt->len;
	struct file_count *cnt;
	int ret;

	if (tf->files.fd < 0 || (tf->files.idx_fd < 0 && tf->index_dir_fd >= 0))
		return -EBADF;
	if (tf->resumed) {
		if (pkt->entry.packet_seq_num <= tf->last_seq)
			return -EALREADY;	/* the dead consumer wrote it: not twice */
		tf->resumed = false;
	}
	ret = files_removed(tf);
	if (ret)
		return ret;
	if (tf->files.max_size && tf->files.size &&
	    (tf->files.size >= tf->files.max_size || len > tf->files.max_size - tf->files.size)) {
		ret = rotate(tf);
		if (ret)
			return ret;
	}
	if (len > INT64_MAX - tf->files.size)
		return -EFBIG;
	pkt->entry.offset = tf->files.size;
	ret = write_data(tf, pkt);
	if (ret) {
		cut_back(tf->files.fd, tf->files.size, "stream file");
		return ret;
	}
	if (ltt_fault_due("packet-torn")) {
		/* as a SIGKILL inside the write would: half the packet, no index */
		cut_back(tf->files.fd, tf->files.size + len / 2, "stream file");
		ltt_fault_fire();
	}
	ltt_ctf_index_entry(&pkt->entry, rec);
	ret = tf->files.idx_fd < 0 ? 0 :
	      ltt_io_pwritev_all(tf->files.idx_fd, &riov, 1, tf->files.idx_size);
	if (!ret && tf->fsync)
		ret = sync_packet(tf);	/* not on the disk: not written, cut back */
	if (!ret)
		ret = files_removed(tf);	/* unlinked meanwhile: written nowhere */
	if (ret) {
		if (tf->files.idx_fd >= 0)
			cut_back(tf->files.idx_fd, tf->files.idx_size, "index file");
		cut_back(tf->files.fd, tf->files.size, "stream file");
		return ret;
	}
	tf->files.size += len;
	tf->files.idx_size += sizeof(rec);
	cnt = count_of(tf, tf->files.file_no);
	if (cnt) {
		cnt->packets++;
		add_sat(&cnt->events, pkt->events);
	}
	return 0;
}

/* The lowest and highest N of BASE_N files in the directory; -ENOENT: none. */
static int find_rotated(struct ltt_tracefile *tf, uint64_t *ret_min, uint64_t *ret_max)
{
	size_t blen = strlen(tf->base_name);
	uint64_t lo = UINT64_MAX, hi = 0, no;
	struct dirent *de;
	char *end;
	DIR *dir;
	int fd;

	fd = openat(tf->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, tf->base_name, blen) || de->d_name[blen] != '_' ||
		    !isdigit((unsigned char)de->d_name[blen + 1]))
			continue;
		errno = 0;
		no = strtoull(de->d_name + blen + 1, &end, 10);
		if (*end || errno)
			continue;
		lo = no < lo ? no : lo;
		hi = no > hi ? no : hi;
	}
	closedir(dir);
	if (lo == UINT64_MAX)
		return -ENOENT;
	*ret_min = lo;
	*ret_max = hi;
	return 0;
}

/*
 * Continue the files a dead consumer wrote: the newest data file and its
 * index, cut back to the last packet the index holds whole; a stream with
 * no file yet (or an unreadable index) starts file N afresh.
 */
static int resume_files(struct ltt_tracefile *tf)
{
	char name[NAME_MAX + 1], idx_name[NAME_MAX + 1];
	uint64_t lo = 0, hi = 0, data_len, idx_len, n = 0;
	struct ltt_ctf_index_entry e;
	int ret;

	if (tf->files.max_size) {
		ret = find_rotated(tf, &lo, &hi);
		if (ret == -ENOENT)
			return open_files(tf, 0, &tf->files.fd, &tf->files.idx_fd);
		if (ret)
			return ret;
	}
	tf->files.file_no = hi;
	tf->files.oldest_no = lo;
	ret = file_name(tf, hi, false, name, sizeof(name));
	if (!ret)
		ret = file_name(tf, hi, true, idx_name, sizeof(idx_name));
	if (!ret)
		ret = ltt_fs_reopen(tf->dir_fd, name, tf->owner, &tf->files.fd, &data_len);
	if (!ret)
		ret = ltt_fs_reopen(tf->index_dir_fd, idx_name, tf->owner, &tf->files.idx_fd,
				    &idx_len);
	if (!ret)
		ret = ltt_index_last_whole(tf->files.idx_fd, idx_len, data_len, &n, &e);
	if (ret) {
		/* nothing usable to continue: this file starts again */
		LTT_WARN("stream %s: file %s can't be continued (%s): started again",
			 tf->base_name, name, strerror(-ret));
		ltt_tracefile_close(&tf->files);
		return open_files(tf, hi, &tf->files.fd, &tf->files.idx_fd);
	}
	tf->files.size = n ? e.offset + e.packet_size / 8 : 0;
	tf->files.idx_size = LTT_CTF_INDEX_HEADER_SIZE + n * LTT_CTF_INDEX_ENTRY_SIZE;
	if (tf->files.size != data_len)
		cut_back(tf->files.fd, tf->files.size, "stream file");
	if (tf->files.idx_size != idx_len) {
		uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE];
		struct iovec iov = { .iov_base = hdr, .iov_len = sizeof(hdr) };

		cut_back(tf->files.idx_fd, tf->files.idx_size, "index file");
		if (idx_len < sizeof(hdr)) {
			ltt_ctf_index_header(hdr);
			ret = ltt_io_pwritev_all(tf->files.idx_fd, &iov, 1, 0);
			if (ret)
				return ret;
		}
	}
	tf->resumed = n != 0;
	tf->last_seq = n ? e.packet_seq_num : 0;
	LTT_INFO("stream %s: continuing %s after %" PRIu64 " packets (%" PRIu64 " bytes)",
		 tf->base_name, name, n, tf->files.size);
	return 0;
}

/* A clear: delete every file of the stream still on disk. */
static int file_remove(struct ltt_sink *sink)
{
	struct ltt_tracefile *tf = (struct ltt_tracefile *)sink;
	char name[NAME_MAX + 1];
	int ret = 0, one;
	uint64_t no;

	ltt_tracefile_close(&tf->files);
	for (no = tf->files.oldest_no; no <= tf->files.file_no; no++) {
		one = 0;
		if (!file_name(tf, no, false, name, sizeof(name)) &&
		    unlinkat(tf->dir_fd, name, 0) && errno != ENOENT)
			one = -errno;
		if (tf->index_dir_fd >= 0 && !file_name(tf, no, true, name, sizeof(name)) &&
		    unlinkat(tf->index_dir_fd, name, 0) && errno != ENOENT && !one)
			one = -errno;
		if (one && !ret) {
			LTT_WARN("stream %s: can't delete file %" PRIu64 ": %s", tf->base_name, no,
				 strerror(-one));
			ret = one;
		}
	}
	tf->files.oldest_no = tf->files.file_no + 1;
	tf->nr_counts = 0;	/* a clear drops them on purpose: not lost */
	return ret;
}

/* The packets and events of the files the file count deleted. */
static void file_lost(struct ltt_sink *sink, uint64_t *ret_packets, uint64_t *ret_events)
{
	const struct ltt_tracefile *tf = (const struct ltt_tracefile *)sink;

	*ret_packets = tf->gone_packets;
	*ret_events = tf->gone_events;
}

static void file_destroy(struct ltt_sink *sink)
{
	struct ltt_tracefile *tf = (struct ltt_tracefile *)sink;

	ltt_tracefile_close(&tf->files);
	close_pipe(tf);
	free(tf->counts);
	free(tf);
}

/* Continuing a dead consumer's files: the last packet they hold. */
static bool file_resumed(struct ltt_sink *sink, uint64_t *ret_last)
{
	const struct ltt_tracefile *tf = (const struct ltt_tracefile *)sink;

	if (tf->resumed)
		*ret_last = tf->last_seq;
	return tf->resumed;
}

static const struct ltt_sink_ops file_sink_ops = {
	.name = "file",
	.write = file_write,
	.lost = file_lost,
	.remove = file_remove,
	.resumed = file_resumed,
	.destroy = file_destroy,
};

static int file_open_sink(const struct ltt_output *out, const char *name,
			  struct ltt_sink **ret_sink)
{
	const struct file_output *fo = (const struct file_output *)out;
	struct ltt_tracefile *tf;
	int ret;

	if (strlen(name) > LTT_SINK_FILE_BASE_MAX)
		return -ENAMETOOLONG;
	tf = calloc(1, sizeof(*tf));
	if (!tf)
		return -ENOMEM;
	tf->base.ops = &file_sink_ops;
	tf->base.poll_fd = -1;
	tf->base.retry_failed = true;	/* a full file system may have room later */
	tf->files.fd = tf->files.idx_fd = tf->pipe[0] = tf->pipe[1] = -1;
	strcpy(tf->base_name, name);
	tf->dir_fd = fo->dir_fd;
	tf->index_dir_fd = fo->index_dir_fd;
	tf->owner = &fo->owner;
	tf->files.max_size = fo->max_size;
	tf->files.max_count = fo->max_size ? fo->max_count : 0;
	tf->fsync = fo->fsync;
	tf->sync_after = fo->sync_after;
	tf->files.idx_size = LTT_CTF_INDEX_HEADER_SIZE;
	ret = fo->resume ? resume_files(tf) : open_files(tf, 0, &tf->files.fd, &tf->files.idx_fd);
	if (ret) {
		file_destroy(&tf->base);
		return ret;
	}
	*ret_sink = &tf->base;
	return 0;
}

int ltt_sink_file_metadata_fd(const struct ltt_output *out)
{
	return out && out->ops == &file_output_ops ?
	       ((const struct file_output *)out)->meta_fd : -1;
}

static int file_metadata(struct ltt_output *out, const void *packets, size_t len)
{
	struct file_output *fo = (struct file_output *)out;
	struct iovec iov = { .iov_base = (void *)packets, .iov_len = len };
	int ret;

	if (fo->meta_fd < 0)
		return -EOPNOTSUPP;
	ret = ltt_io_pwritev_all(fo->meta_fd, &iov, 1, fo->meta_size);
	if (ret) {
		/* whole packets only: a reader never sees a torn one for long */
		cut_back(fo->meta_fd, fo->meta_size, "metadata file");
		return ret;
	}
	fo->meta_size += len;
	return 0;
}

static int file_reset_metadata(struct ltt_output *out)
{
	struct file_output *fo = (struct file_output *)out;

	if (fo->meta_fd < 0)
		return -EOPNOTSUPP;
	if (ftruncate(fo->meta_fd, 0))
		return -errno;
	fo->meta_size = 0;
	return 0;
}

static void file_output_destroy(struct ltt_output *out)
{
	struct file_output *fo = (struct file_output *)out;

	ltt_fd_close(&fo->meta_fd);
	ltt_fd_close(&fo->sync_after);
	ltt_fd_close(&fo->lock_fd);
	ltt_fd_close(&fo->index_dir_fd);
	ltt_fd_close(&fo->dir_fd);
	free(fo);
}

static const struct ltt_output_ops file_output_ops = {
	.name = "file",
	.open_sink = file_open_sink,
	.metadata = file_metadata,
	.reset_metadata = file_reset_metadata,
	.destroy = file_output_destroy,
};

int ltt_sink_file_output_create(const struct ltt_sink_file_cfg *cfg, struct ltt_output **ret_out)
{
	struct file_output *fo;
	bool alone = false;
	int ret;

	if (!cfg || !ret_out || cfg->dir_fd < 0 || (cfg->resume && cfg->index_dir_fd < 0))
		return -EINVAL;
	fo = calloc(1, sizeof(*fo));
	if (!fo)
		return -ENOMEM;
	fo->base.ops = &file_output_ops;
	fo->base.retry_open = true;
	fo->owner = cfg->owner;
	fo->max_size = cfg->max_size;
	fo->max_count = cfg->max_count;
	fo->resume = cfg->resume;
	fo->fsync = cfg->fsync;
	/* our own descriptors: the data thread never depends on the trace's */
	fo->index_dir_fd = fo->meta_fd = fo->lock_fd = fo->sync_after = -1;
	fo->dir_fd = fcntl(cfg->dir_fd, F_DUPFD_CLOEXEC, 3);
	if (fo->dir_fd >= 0 && cfg->index_dir_fd >= 0)
		fo->index_dir_fd = fcntl(cfg->index_dir_fd, F_DUPFD_CLOEXEC, 3);
	if (fo->dir_fd >= 0 && cfg->fsync && cfg->sync_after >= 0)
		fo->sync_after = fcntl(cfg->sync_after, F_DUPFD_CLOEXEC, 3);
	if (fo->dir_fd < 0 || (cfg->index_dir_fd >= 0 && fo->index_dir_fd < 0) ||
	    (cfg->fsync && cfg->sync_after >= 0 && fo->sync_after < 0)) {
		ret = -errno;
		file_output_destroy(&fo->base);
		return ret;
	}
	/*
	 * Ours while we live: a repair after a crash leaves it alone.  A new
	 * trace's output holds it alone when no one writes a trace there now.
	 */
	ret = ltt_fs_open_dir(fo->dir_fd, &fo->owner, &fo->lock_fd);
	if (!ret && cfg->metadata && !cfg->resume) {
		ret = ltt_trace_dir_hold_alone(fo->lock_fd);
		alone = !ret;
		if (ret == -EWOULDBLOCK)
			ret = ltt_trace_dir_hold(fo->lock_fd);
	} else if (!ret) {
		ret = ltt_trace_dir_hold(fo->lock_fd);
	}
	if (ret)
		LTT_WARN("trace directory being repaired or locked (%s): written anyway",
			 strerror(-ret));
	if (cfg->metadata && cfg->resume) {
		/* Ours, written by a consumer that died: the text comes again whole. */
		ret = ltt_fs_reopen(fo->dir_fd, "metadata", &fo->owner, &fo->meta_fd, &fo->meta_size);
		if (ret == -ENOENT)
			ret = ltt_fs_create_new(fo->dir_fd, "metadata", &fo->owner, &fo->meta_fd);
		else if (!ret && ftruncate(fo->meta_fd, 0))
			ret = -errno;
		fo->meta_size = 0;
		if (ret) {
			file_output_destroy(&fo->base);
			return ret;
		}
	} else if (cfg->metadata) {
		/*
		 * An old trace there, which no one writes now, is written over,
		 * as LTTng's: its files go first.  One being written is not
		 * (-EEXIST: the caller puts the new trace beside it).
		 */
		if (alone && !faccessat(fo->dir_fd, "metadata", F_OK, AT_SYMLINK_NOFOLLOW)) {
			ret = ltt_fs_remove_trace_files(fo->dir_fd, fo->index_dir_fd, &fo->owner);
			if (ret)
				LTT_WARN("can't remove the old trace's files: %s", strerror(-ret));
		}
		ret = ltt_fs_create_new(fo->dir_fd, "metadata", &fo->owner, &fo->meta_fd);
		if (ret) {
			file_output_destroy(&fo->base);
			return ret;
		}
	}
	*ret_out = &fo->base;
	return 0;
}
