// SPDX-License-Identifier: GPL-2.0-only
/*
 * reconcile.c - RECONCILE_STREAM: a dead consumer connection's stream
 * files read back and cut after their last indexed packet (reconcile.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/trace/ctf.h"
#include "common/trace/tracefile.h"
#include "relayd/reconcile.h"

/* What one tracefile gave. */
struct found {
	uint64_t *seqs;		/* newest first while collecting */
	uint32_t count;
	bool older;		/* a packet before the boundary: earlier files hold none after it */
};

/* Is @path the relay's output directory's @dir, or below it? */
static bool under_output(const struct ltt_relay_model *m, const char *path)
{
	size_t len = strlen(m->output_dir);

	return !strncmp(path, m->output_dir, len) && path[len] == '/' &&
	       ltt_relay_relpath_valid(path + len + 1, false);
}

/* Does a session of the relay hold stream @name of directory @dir?  Lock held. */
static bool held_locked(const struct ltt_relay_model *m, const char *dir, const char *name)
{
	const struct ltt_relay_session *s;
	const struct ltt_relay_stream *st;
	size_t len;

	for (s = m->sessions; s; s = s->next) {
		len = strlen(s->output_path);
		if (strncmp(dir, s->output_path, len) || (dir[len] && dir[len] != '/'))
			continue;
		for (st = s->streams; st; st = st->next)
			if (st->trace && !strcmp(st->channel_name, name) &&
			    !strcmp(dir + len + (dir[len] == '/'), st->trace->pathname))
				return true;
	}
	return false;
}

/*
 * The last indexed packet's end in data file @fd of @size bytes, from
 * index @idx_fd; the packets at or after @boundary into @f (newest
 * first).  A torn last entry is cut off the index.
 */
static int read_index(int idx_fd, uint64_t size, uint64_t boundary, const char *label,
		      struct found *f, uint64_t *ret_end)
{
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE], rec[256];
	struct ltt_ctf_index_entry e;
	uint32_t entry_size;
	struct stat sb;
	uint64_t n, i, end;
	bool last = true;

	*ret_end = 0;
	if (fstat(idx_fd, &sb))
		return -errno;
	if (pread(idx_fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    ltt_ctf_index_header_decode(hdr, &entry_size) || entry_size > sizeof(rec))
		return -EIO;
	n = ((uint64_t)sb.st_size - sizeof(hdr)) / entry_size;
	if ((uint64_t)sb.st_size != sizeof(hdr) + n * entry_size) {
		LTT_WARN("reconcile %s: a torn index entry cut", label);
		if (ftruncate(idx_fd, (off_t)(sizeof(hdr) + n * entry_size)))
			return -errno;
	}
	for (i = n; i-- > 0;) {
		if (pread(idx_fd, rec, entry_size, (off_t)(sizeof(hdr) + i * entry_size)) !=
		    (ssize_t)entry_size || ltt_ctf_index_entry_decode(rec, entry_size, &e))
			return -EIO;
		end = e.offset + e.packet_size / 8;
		if (end > size || end < e.offset)
			return -EIO;	/* an index naming bytes the file lacks: not ours to judge */
		if (last)
			*ret_end = end;
		last = false;
		if (e.packet_seq_num < boundary) {
			f->older = true;
			break;
		}
		if (f->count == LTT_RELAY_RECONCILE_MAX)
			return -EINVAL;
		f->seqs[f->count++] = e.packet_seq_num;
	}
	return 0;
}

/* Tracefile @no of the stream: read its index, cut its data after it. */
static int one_file(int dir_fd, int index_fd, const char *name, bool rotating, uint64_t no,
		    uint64_t boundary, struct found *f)
{
	char data[NAME_MAX + 1], idx[NAME_MAX + 1], label[2 * NAME_MAX + 8];
	int fd = -1, idx_fd = -1, ret;
	uint64_t end;
	struct stat sb;

	ret = ltt_tracefile_name(name, rotating, no, false, data, sizeof(data));
	if (!ret)
		ret = ltt_tracefile_name(name, rotating, no, true, idx, sizeof(idx));
	if (ret)
		return ret;
	snprintf(label, sizeof(label), "%s", data);
	fd = openat(dir_fd, data, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		idx_fd = openat(index_fd, idx, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || idx_fd < 0)
		ret = -errno;
	if (!ret && (fstat(fd, &sb) || !S_ISREG(sb.st_mode)))
		ret = -EIO;
	if (!ret)
		ret = read_index(idx_fd, (uint64_t)sb.st_size, boundary, label, f, &end);
	if (!ret && (uint64_t)sb.st_size > end) {
		LTT_INFO("reconcile %s: %" PRIu64 " bytes past its last indexed packet cut",
			 label, (uint64_t)sb.st_size - end);
		if (ftruncate(fd, (off_t)end))
			ret = -errno;
	}
	ltt_fd_close(&fd);
	ltt_fd_close(&idx_fd);
	return ret;
}

/* The newest tracefile number of rotating stream @name in @dir_fd, or -ENOENT. */
static int newest_file(int dir_fd, const char *name, uint64_t *ret_no)
{
	size_t len = strlen(name);
	bool any = false;
	struct dirent *d;
	char *end;
	uint64_t no;
	DIR *dir;
	int fd;

	fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		ltt_fd_close(&fd);
		return -errno;
	}
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, name, len) || d->d_name[len] != '_' ||
		    d->d_name[len + 1] < '0' || d->d_name[len + 1] > '9')
			continue;
		errno = 0;
		no = strtoull(d->d_name + len + 1, &end, 10);
		if (*end || errno)
			continue;
		if (!any || no > *ret_no)
			*ret_no = no;
		any = true;
	}
	closedir(dir);
	return any ? 0 : -ENOENT;
}

int ltt_relay_reconcile(struct ltt_relay_model *m, const struct ltt_relay_reconcile_stream *req,
			uint64_t *ret_seqs, uint32_t *ret_count)
{
	struct found f = { .seqs = ret_seqs };
	char dir[PATH_MAX];
	int dir_fd, index_fd = -1, ret = 0, n;
	uint64_t no = 0, newest, i, t;
	bool held;

	*ret_count = 0;
	if (!ltt_relay_name_valid(req->channel_name) ||
	    strlen(req->channel_name) > LTT_TRACEFILE_BASE_MAX ||
	    !ltt_relay_relpath_valid(req->pathname, true) || !under_output(m, req->session_path))
		return -EINVAL;
	n = snprintf(dir, sizeof(dir), "%s%s%s", req->session_path, req->pathname[0] ? "/" : "",
		     req->pathname);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -EINVAL;
	pthread_mutex_lock(&m->lock);
	held = held_locked(m, dir, req->channel_name);
	pthread_mutex_unlock(&m->lock);
	if (held)
		return -EEXIST;
	dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0)
		return -errno;
	index_fd = openat(dir_fd, "index", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (index_fd < 0)
		ret = -errno;
	if (!ret && req->rotating)
		ret = newest_file(dir_fd, req->channel_name, &no);
	newest = no;
	/* newest first; an earlier tracefile only while this one began at or after the boundary */
	while (!ret) {
		ret = one_file(dir_fd, index_fd, req->channel_name, req->rotating, no,
			       req->first_packet_seq, &f);
		if (ret == -ENOENT && no != newest) {
			ret = 0;	/* rotation deleted the older ones */
			break;
		}
		if (ret || f.older || !req->rotating || no == 0)
			break;
		no--;
	}
	close(dir_fd);
	ltt_fd_close(&index_fd);
	if (ret)
		return ret;
	for (i = 0; i < f.count / 2; i++) {	/* oldest first */
		t = f.seqs[i];
		f.seqs[i] = f.seqs[f.count - 1 - i];
		f.seqs[f.count - 1 - i] = t;
	}
	*ret_count = f.count;
	return 0;
}
