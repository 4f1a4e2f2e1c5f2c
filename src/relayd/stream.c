// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - a relay stream's files, packets and index pairing (stream.h).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/trace/ctf.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/trace/trace-repair.h"
#include "common/trace/tracefile.h"
#include "relayd/stream-files.h"
#include "relayd/stream.h"

#define DIR_MODE 0750
#define METADATA_NAME "metadata"
#define INDEX_DIR_NAME "index"
#define MAX_METADATA ((uint64_t)1 << 30)

/* Forget the oldest @n in-memory entries.  Lock held. */
static void drop_entries_locked(struct ltt_relay_stream *st, size_t n)
{
	size_t kept = (size_t)(st->entry_count - st->entry_base) - n;

	memmove(st->entries, st->entries + n, kept * sizeof(*st->entries));
	st->entry_base += n;
}

/*
 * Keep in memory only what viewers can still read: drop the entries of
 * tracefiles rotation deleted, and past the window the oldest quarter of
 * it (in batches, so that appending stays cheap).  Lock held.
 */
static void trim_entries_locked(struct ltt_relay_stream *st)
{
	size_t n = 0, len = (size_t)(st->entry_count - st->entry_base);
	size_t window = st->session->model->index_window;

	while (n < len && st->entries[n].file_no < st->files.oldest_no)
		n++;
	if (n)
		drop_entries_locked(st, n);
	len -= n;
	if (!window || len < window)
		return;
	if (!st->window_warned)
		LTT_WARN("session %" PRIu64 ": stream %" PRIu64 " (%s/%s): more than %zu packets; "
			 "only the newest are kept for live viewers (the files on disk are "
			 "complete)", st->session->id, st->handle, st->trace->pathname,
			 st->channel_name, window);
	st->window_warned = true;
	drop_entries_locked(st, len - (window - window / 4));
}

/* Start tracefile file_no + 1; past the count, delete the oldest ones. */
static int rotate(struct ltt_relay_stream *st)
{
	struct ltt_relay_model *m = st->session->model;
	int fd, idx_fd, ret;

	ret = ltt_relay_stream_open_files(st, st->files.file_no + 1, &fd, &idx_fd);
	if (ret)
		return ret;
	pthread_mutex_lock(&m->lock);
	ltt_tracefile_rotate(&st->files, fd, idx_fd, st->trace->dir_fd, st->trace->index_fd,
			     st->channel_name);
	trim_entries_locked(st);
	pthread_mutex_unlock(&m->lock);
	return 0;
}

/* The trace of @pathname in @s, created (directories) on first use. */
static int get_trace(struct ltt_relay_session *s, const char *pathname,
		     struct ltt_relay_trace **ret_trace)
{
	char path[PATH_MAX];
	struct ltt_relay_trace *t;
	int n, ret, held;

	for (t = s->traces; t; t = t->next) {
		if (!strcmp(t->pathname, pathname)) {
			*ret_trace = t;
			return 0;
		}
	}
	n = snprintf(path, sizeof(path), "%s%s%s", s->output_path, *pathname ? "/" : "", pathname);
	if (n < 0 || (size_t)n >= sizeof(path) - sizeof("/" INDEX_DIR_NAME))
		return -ENAMETOOLONG;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->dir_fd = t->index_fd = -1;
	t->pathname = strdup(pathname);
	ret = t->pathname ? 0 : -ENOMEM;
	if (!ret)
		ret = ltt_mkdir_p(path, DIR_MODE);
	if (!ret) {
		/* readable, not O_PATH: flock() takes it */
		t->dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t->dir_fd < 0)
			ret = -errno;
	}
	/* ours while we live: a repair after a crash (another relay's) leaves it alone */
	held = ret ? 0 : ltt_trace_dir_hold(t->dir_fd);
	if (held == -EWOULDBLOCK)
		LTT_WARN("session %" PRIu64 ": trace directory %s is being repaired by another process: written anyway",
			 s->id, path);
	else if (held)
		LTT_WARN("session %" PRIu64 ": trace directory %s can't be locked (%s): written anyway, and a repair (another relay's after this one's death) would not know it is written",
			 s->id, path, strerror(-held));
	if (!ret && mkdirat(t->dir_fd, INDEX_DIR_NAME, DIR_MODE) && errno != EEXIST)
		ret = -errno;
	if (!ret) {
		t->index_fd = openat(t->dir_fd, INDEX_DIR_NAME,
				     O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (t->index_fd < 0)
			ret = -errno;
	}
	if (ret) {
		LTT_ERR("session %" PRIu64 ": can't create the trace directory %s: %s", s->id,
			path, strerror(-ret));
		ltt_fd_close(&t->dir_fd);
		free(t->pathname);
		free(t);
		return ret;
	}
	t->next = s->traces;
	s->traces = t;
	*ret_trace = t;
	return 0;
}

static int check_add(struct ltt_relay_session *s, const struct ltt_relay_add_stream *req)
{
	const struct ltt_relay_stream *st;
	size_t n = 0;

	if (!ltt_relay_name_valid(req->channel_name) ||
	    strlen(req->channel_name) > LTT_TRACEFILE_BASE_MAX ||
	    !ltt_relay_relpath_valid(req->pathname, true))
		return -EINVAL;
	if (s->closed)
		return -EINVAL;
	for (st = s->streams; st; st = st->next) {
		n++;
		if (st->trace && !strcmp(st->trace->pathname, req->pathname) &&
		    !strcmp(st->channel_name, req->channel_name))
			return -EEXIST;
	}
	if (n >= s->model->limits.max_session_streams) {
		LTT_WARN_RL("session %" PRIu64 ": stream %s/%s refused: the session has %zu streams "
			 "already (at most %u)", s->id, req->pathname, req->channel_name, n,
			 s->model->limits.max_session_streams);
		return -ENOSPC;
	}
	pthread_mutex_lock(&s->model->lock);
	n = s->model->stream_count;
	pthread_mutex_unlock(&s->model->lock);
	if (n >= s->model->limits.max_streams) {
		LTT_WARN_RL("session %" PRIu64 ": stream %s/%s refused: the relay holds %zu streams "
			 "already (at most %u)", s->id, req->pathname, req->channel_name, n,
			 s->model->limits.max_streams);
		return -EMFILE;
	}
	return 0;
}

int ltt_relay_stream_add(struct ltt_relay_session *s, const struct ltt_relay_add_stream *req,
			 uint64_t *ret_handle)
{
	struct ltt_relay_model *m = s->model;
	struct ltt_relay_stream *st;
	int ret;

	ret = check_add(s, req);
	if (ret)
		return ret;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->session = s;
	st->files.fd = st->files.idx_fd = -1;
	strcpy(st->channel_name, req->channel_name);
	st->metadata = !strcmp(req->channel_name, METADATA_NAME);
	st->close_seq = st->announced_seq = UINT64_MAX;
	st->files.max_size = st->metadata ? 0 : req->tracefile_size;
	st->files.max_count = st->files.max_size ? req->tracefile_count : 0;
	st->files.idx_size = LTT_CTF_INDEX_HEADER_SIZE;
	ret = get_trace(s, req->pathname, &st->trace);
	if (!ret && st->metadata && st->trace->metadata_handle)
		ret = -EEXIST;
	if (!ret && st->metadata) {
		/* a trace already on disk is never overwritten */
		ret = ltt_relay_create_file(st->trace->dir_fd, METADATA_NAME, true, &st->files.fd);
		if (ret)
			LTT_ERR("session %" PRIu64 ": can't create %s/%s: %s%s", s->id,
				req->pathname, METADATA_NAME, strerror(-ret),
				ret == -EEXIST ? " (a trace is there already)" : "");
	} else if (!ret) {
		ret = ltt_relay_stream_open_files(st, 0, &st->files.fd, &st->files.idx_fd);
	}
	if (ret) {
		ltt_tracefile_close(&st->files);
		free(st);
		return ret;
	}
	pthread_mutex_lock(&m->lock);
	st->handle = m->next_stream_handle++;
	m->stream_count++;
	if (st->metadata)
		st->trace->metadata_handle = st->handle;
	if (!st->trace->id)
		st->trace->id = m->next_trace_id++;
	*s->streams_tail = st;
	s->streams_tail = &st->next;
	ltt_relay_model_insert_stream_locked(m, st);
	s->generation++;
	pthread_mutex_unlock(&m->lock);
	ltt_relay_model_changed(m);
	LTT_DBG("session %" PRIu64 ": stream %" PRIu64 " %s/%s added", s->id, st->handle,
		req->pathname, st->channel_name);
	*ret_handle = st->handle;
	return 0;
}

/* @s's stream @handle, or NULL. */
static struct ltt_relay_stream *find(struct ltt_relay_session *s, uint64_t handle)
{
	struct ltt_relay_stream *st;

	pthread_mutex_lock(&s->model->lock);
	st = ltt_relay_model_find_stream_locked(s->model, handle);
	pthread_mutex_unlock(&s->model->lock);
	return st && st->session == s ? st : NULL;
}

int ltt_relay_stream_metadata(struct ltt_relay_session *s, uint64_t handle, const void *data,
			      size_t len, uint32_t padding)
{
	struct ltt_relay_stream *st = find(s, handle);
	uint64_t total = (uint64_t)len + padding;
	int ret;

	if (!st)
		return -ENOENT;
	if (!st->metadata || st->closed || st->files.fd < 0)
		return -EINVAL;
	if (total > MAX_METADATA - st->meta_size)
		return -EFBIG;
	ret = ltt_relay_write_padded(st->files.fd, data, len, padding, st->meta_size);
	if (ret) {
		LTT_ERR("session %" PRIu64 ": can't write %s/metadata: %s", s->id,
			st->trace->pathname, strerror(-ret));
		if (ftruncate(st->files.fd, (off_t)st->meta_size))
			LTT_ERR("can't cut %s/metadata back: %s", st->trace->pathname,
				strerror(errno));
		return ret;
	}
	pthread_mutex_lock(&s->model->lock);
	st->meta_size += total;
	pthread_mutex_unlock(&s->model->lock);
	ltt_relay_model_changed(s->model);
	return 0;
}

int ltt_relay_stream_reset_metadata(struct ltt_relay_session *s,
				    const struct ltt_relay_reset_metadata *m)
{
	struct ltt_relay_stream *st = find(s, m->stream_handle);
	int ret = 0;

	if (!st)
		return -ENOENT;
	if (!st->metadata || st->closed || st->files.fd < 0 || m->version <= st->meta_version ||
	    m->rewrite_size > MAX_METADATA)
		return -EINVAL;
	/* a viewer holding the old text could not tell where the new one ends */
	if (!m->has_rewrite_size && s->live_timer_us)
		return -EOPNOTSUPP;
	pthread_mutex_lock(&s->model->lock);
	if (ftruncate(st->files.fd, 0)) {
		ret = -errno;
	} else {
		st->meta_old_size = st->meta_size;
		st->meta_size = 0;
		st->meta_version = m->version;
		st->meta_rewrite = m->rewrite_size;
	}
	pthread_mutex_unlock(&s->model->lock);
	if (ret)
		LTT_ERR("session %" PRIu64 ": can't empty %s/metadata: %s", s->id,
			st->trace->pathname, strerror(-ret));
	else
		LTT_INFO("session %" PRIu64 ": %s/metadata written again (version %" PRIu64 ")",
			 s->id, st->trace->pathname, m->version);
	return ret;
}

/* Index entry @idx into the index file of its tracefile, then in memory. */
static int append_entry(struct ltt_relay_stream *st, const struct ltt_relay_entry *idx)
{
	uint8_t rec[LTT_CTF_INDEX_ENTRY_SIZE];
	struct ltt_relay_model *m = st->session->model;
	char name[NAME_MAX + 1];
	int fd, ret = 0;

	ltt_ctf_index_entry(&idx->entry, rec);
	if (idx->file_no == st->files.file_no && st->files.idx_fd >= 0) {
		ret = ltt_relay_write_at(st->files.idx_fd, rec, sizeof(rec), st->files.idx_size);
		if (ret && ftruncate(st->files.idx_fd, (off_t)st->files.idx_size))
			LTT_ERR("can't cut an index file back: %s", strerror(errno));
		if (!ret)
			st->files.idx_size += sizeof(rec);
	} else if (idx->file_no >= st->files.oldest_no &&
		   !ltt_relay_stream_file_name(st, idx->file_no, true, name, sizeof(name))) {
		/* its tracefile was rotated away before the index came */
		fd = openat(st->trace->index_fd, name, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			ret = -errno;
		else if (write(fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec))
			ret = -EIO;
		ltt_fd_close(&fd);
	}
	if (ret) {
		LTT_ERR("session %" PRIu64 ": can't write the index of %s/%s: %s",
			st->session->id, st->trace->pathname, st->channel_name, strerror(-ret));
		return ret;
	}
	/* a test's relay killed with a packet indexed, its SEND_INDEX unanswered */
	ltt_fault_point("packet-indexed");
	pthread_mutex_lock(&m->lock);
	if (idx->file_no < st->files.oldest_no) {
		/* its tracefile is gone: no viewer can read that packet */
		pthread_mutex_unlock(&m->lock);
		return 0;
	}
	trim_entries_locked(st);
	if (st->entry_count - st->entry_base == st->entry_cap) {
		size_t cap = st->entry_cap ? st->entry_cap * 2 : 64;
		struct ltt_relay_entry *e = realloc(st->entries, cap * sizeof(*e));

		if (!e) {
			pthread_mutex_unlock(&m->lock);
			return -ENOMEM;
		}
		st->entries = e;
		st->entry_cap = cap;
	}
	st->entries[st->entry_count++ - st->entry_base] = *idx;
	st->has_beacon = false;
	st->ctf_stream_id = idx->entry.stream_id;
	pthread_mutex_unlock(&m->lock);
	ltt_relay_model_changed(m);
	return 0;
}

static struct ltt_relay_half *fifo_head(struct ltt_relay_fifo *f)
{
	return f->len ? &f->items[f->head] : NULL;
}

static void fifo_pop(struct ltt_relay_fifo *f)
{
	f->head = (f->head + 1) % f->cap;
	f->len--;
}

static int fifo_push(struct ltt_relay_fifo *f, const struct ltt_relay_half *h)
{
	if (f->len == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16, i;
		struct ltt_relay_half *items;

		if (f->cap >= LTT_RELAY_MAX_UNPAIRED)
			return -ENOSPC;
		items = malloc(cap * sizeof(*items));
		if (!items)
			return -ENOMEM;
		for (i = 0; i < f->len; i++)
			items[i] = f->items[(f->head + i) % f->cap];
		free(f->items);
		f->items = items;
		f->head = 0;
		f->cap = cap;
	}
	f->items[(f->head + f->len) % f->cap] = *h;
	f->len++;
	return 0;
}

/* Complete pair: the index's fields, the packet's place. */
static int pair(struct ltt_relay_stream *st, const struct ltt_relay_half *packet,
		const struct ltt_relay_half *index)
{
	struct ltt_relay_entry idx = index->idx;
	uint64_t len = packet->idx.entry.packet_size;

	if (idx.entry.packet_size != len) {
		LTT_WARN("session %" PRIu64 ": stream %" PRIu64 ": the index of packet %" PRIu64
			 " says %" PRIu64 " bits, %" PRIu64 " arrived: index dropped",
			 st->session->id, st->handle, packet->seq, idx.entry.packet_size, len);
		return 0;
	}
	idx.entry.offset = packet->idx.entry.offset;
	idx.viewer_offset = packet->idx.viewer_offset;
	idx.file_no = packet->idx.file_no;
	return append_entry(st, &idx);
}

static void drop_warn(const struct ltt_relay_stream *st, const char *what, uint64_t seq)
{
	LTT_WARN("session %" PRIu64 ": stream %" PRIu64 ": %s %" PRIu64 " never got its other half",
		 st->session->id, st->handle, what, seq);
}

/* The packet in @st->cur was written: pair it or wait for its index. */
static int packet_arrived(struct ltt_relay_stream *st)
{
	struct ltt_relay_half *h;
	int ret;

	while ((h = fifo_head(&st->indexes)) && h->seq < st->cur.seq) {
		drop_warn(st, "index", h->seq);
		fifo_pop(&st->indexes);
	}
	if (h && h->seq == st->cur.seq) {
		ret = pair(st, &st->cur, h);
		fifo_pop(&st->indexes);
		return ret;
	}
	if (st->packets.len >= LTT_RELAY_MAX_UNPAIRED) {
		drop_warn(st, "packet", fifo_head(&st->packets)->seq);
		fifo_pop(&st->packets);
	}
	return fifo_push(&st->packets, &st->cur);
}

/* Will the packet numbered @seq still arrive? */
static bool packet_may_come(const struct ltt_relay_stream *st, uint64_t seq)
{
	if (st->in_flight && st->cur.seq == seq)
		return true;
	return !st->any_begun || seq > st->last_begun_seq;
}

int ltt_relay_stream_index(struct ltt_relay_session *s, const struct ltt_relay_index *msg)
{
	struct ltt_relay_stream *st = find(s, msg->stream_handle);
	struct ltt_relay_half in = { .seq = msg->net_seq_num }, *h;
	struct ltt_relay_model *m = s->model;
	int ret;

	if (!st)
		return -ENOENT;
	if (st->metadata || msg->content_size > msg->packet_size)
		return -EINVAL;
	if (msg->packet_size == 0) {
		pthread_mutex_lock(&m->lock);
		st->has_beacon = true;
		st->beacon_ts = msg->timestamp_end;
		st->ctf_stream_id = msg->stream_id;
		pthread_mutex_unlock(&m->lock);
		ltt_relay_model_changed(m);
		return 0;
	}
	if (st->any_index && msg->net_seq_num <= st->last_index_seq)
		return -EINVAL;
	st->any_index = true;
	st->last_index_seq = msg->net_seq_num;
	in.idx.entry = (struct ltt_ctf_index_entry){
		.packet_size = msg->packet_size,
		.content_size = msg->content_size,
		.timestamp_begin = msg->timestamp_begin,
		.timestamp_end = msg->timestamp_end,
		.events_discarded = msg->events_discarded,
		.stream_id = msg->stream_id,
		.stream_instance_id = msg->stream_instance_id,
		.packet_seq_num = msg->packet_seq_num,
	};
	while ((h = fifo_head(&st->packets)) && h->seq < in.seq) {
		drop_warn(st, "packet", h->seq);
		fifo_pop(&st->packets);
	}
	if (h && h->seq == in.seq) {
		ret = pair(st, h, &in);
		fifo_pop(&st->packets);
		return ret;
	}
	if (!packet_may_come(st, in.seq)) {
		drop_warn(st, "index", in.seq);
		return 0;
	}
	return fifo_push(&st->indexes, &in);
}

int ltt_relay_stream_written(struct ltt_relay_session *s, uint64_t handle, uint64_t seq)
{
	struct ltt_relay_stream *st = find(s, handle);

	if (!st)
		return -ENOENT;
	if (st->any_written && st->last_written_seq >= seq)
		return 1;
	return packet_may_come(st, seq) ? 0 : -EIO;
}

/* Closed streams whose last packet is in no longer need their files. */
static void release_files(struct ltt_relay_stream *st)
{
	bool hup;

	pthread_mutex_lock(&st->session->model->lock);
	hup = ltt_relay_stream_hup_locked(st);
	pthread_mutex_unlock(&st->session->model->lock);
	if (hup)
		ltt_tracefile_close(&st->files);
}

int ltt_relay_stream_close(struct ltt_relay_session *s, uint64_t handle, uint64_t last_seq)
{
	struct ltt_relay_stream *st = find(s, handle);

	if (!st)
		return -ENOENT;
	pthread_mutex_lock(&s->model->lock);
	if (!st->closed) {
		st->closed = true;
		st->close_seq = last_seq;
		s->generation++;
	}
	pthread_mutex_unlock(&s->model->lock);
	release_files(st);
	ltt_relay_model_changed(s->model);
	return 0;
}

/* Packets up to @target (UINT64_MAX: none) all written? */
static bool missing(const struct ltt_relay_stream *st, uint64_t target)
{
	if (st->in_flight)
		return true;
	if (target == UINT64_MAX)
		return false;
	return !st->any_written || st->last_written_seq < target;
}

bool ltt_relay_stream_pending_locked(const struct ltt_relay_stream *st)
{
	if (st->metadata)
		return false;
	return missing(st, st->closed ? st->close_seq : st->announced_seq);
}

void ltt_relay_stream_keep_files_locked(struct ltt_relay_stream *st)
{
	char name[NAME_MAX + 1];
	uint64_t first, no;
	int fd;

	if (st->kept_n)
		return;
	if (st->metadata) {
		first = 0;
		no = 0;
	} else if (st->entry_count > st->entry_base) {
		/* the files of the entries viewers may still be handed */
		first = st->entries[0].file_no;
		no = st->files.file_no;
		if (first < st->files.oldest_no)
			first = st->files.oldest_no;
		if (no - first >= LTT_RELAY_KEPT_FILES)
			first = no - (LTT_RELAY_KEPT_FILES - 1);
	} else {
		return;		/* no packet was ever indexed: none to read */
	}
	st->kept_first = first;
	for (; first <= no; first++) {
		if (st->metadata)
			snprintf(name, sizeof(name), "%s", METADATA_NAME);
		else if (ltt_tracefile_name(st->channel_name, st->files.max_size != 0, first, false,
					    name, sizeof(name)))
			break;
		fd = openat(st->trace->dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			LTT_WARN("stream %" PRIu64 " (%s of %s): can't keep %s open for its viewers "
				 "across the clear: %s", st->handle, st->channel_name,
				 st->trace->pathname, name, strerror(errno));
			break;
		}
		st->kept_fds[st->kept_n++] = fd;
	}
}

int ltt_relay_stream_kept_fd_locked(const struct ltt_relay_stream *st, uint64_t no)
{
	int fd;

	if (no < st->kept_first || no - st->kept_first >= st->kept_n)
		return -ESTALE;
	fd = fcntl(st->kept_fds[no - st->kept_first], F_DUPFD_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

bool ltt_relay_stream_hup_locked(const struct ltt_relay_stream *st)
{
	if (!st->closed)
		return false;
	return st->metadata || !missing(st, st->close_seq);
}

int ltt_relay_stream_data_pending(struct ltt_relay_session *s, uint64_t handle, uint64_t last_seq,
				  bool *ret_pending)
{
	struct ltt_relay_stream *st = find(s, handle);

	if (!st)
		return -ENOENT;
	pthread_mutex_lock(&s->model->lock);
	st->announced_seq = last_seq;
	*ret_pending = !st->metadata && missing(st, last_seq);
	pthread_mutex_unlock(&s->model->lock);
	return 0;
}

int ltt_relay_stream_quiescent(struct ltt_relay_session *s, uint64_t handle)
{
	return find(s, handle) ? 0 : -ENOENT;
}

static int check_begin(const struct ltt_relay_stream *st, const struct ltt_relay_data_hdr *hdr)
{
	uint64_t len = (uint64_t)hdr->data_size + hdr->padding_size;

	if (st->metadata || st->closed || st->files.fd < 0)
		return -EINVAL;
	if (hdr->data_size == 0 || len > LTT_RELAY_MAX_PACKET)
		return -EINVAL;
	/*
	 * a padded packet ends on a page: ltt's consumers pad to the whole
	 * sub-buffer, LTTng's to the page after the content
	 */
	if (hdr->padding_size && (len < 4096 || len % 4096))
		return -EINVAL;
	if (st->in_flight)
		return -EBUSY;
	if (st->any_begun && hdr->net_seq_num <= st->last_begun_seq)
		return -EINVAL;
	return 0;
}

int ltt_relay_packet_begin(struct ltt_relay_model *m, const struct ltt_relay_data_hdr *hdr,
			   struct ltt_relay_packet *ret_pkt)
{
	uint64_t len = (uint64_t)hdr->data_size + hdr->padding_size;
	struct ltt_relay_stream *st;
	int ret;

	pthread_mutex_lock(&m->lock);
	st = ltt_relay_model_find_stream_locked(m, hdr->stream_handle);
	ret = st ? check_begin(st, hdr) : -ENOENT;
	if (!ret)
		st->session->refs++;
	pthread_mutex_unlock(&m->lock);
	if (ret)
		return ret;
	if (st->files.max_size && st->files.size &&
	    (st->files.size >= st->files.max_size || len > st->files.max_size - st->files.size)) {
		ret = rotate(st);
		if (ret) {
			ltt_relay_session_put(st->session);
			return ret;
		}
	}
	pthread_mutex_lock(&m->lock);
	st->in_flight = true;
	st->any_begun = true;
	st->last_begun_seq = hdr->net_seq_num;
	memset(&st->cur, 0, sizeof(st->cur));
	st->cur.seq = hdr->net_seq_num;
	st->cur.idx.entry.offset = st->files.size;
	st->cur.idx.entry.packet_size = len * 8;
	st->cur.idx.viewer_offset = st->viewer_size;
	st->cur.idx.file_no = st->files.file_no;
	pthread_mutex_unlock(&m->lock);
	*ret_pkt = (struct ltt_relay_packet){
		.session = st->session,
		.stream = st,
		.len = hdr->data_size,
		.padding = hdr->padding_size,
	};
	return 0;
}

int ltt_relay_packet_write(struct ltt_relay_packet *pkt, const void *buf, size_t len)
{
	struct ltt_relay_stream *st = pkt->stream;
	uint64_t start = st->cur.idx.entry.offset;
	int ret;

	if (len > pkt->len - pkt->done)
		return -EINVAL;
	/* the padding never travels: written with the last bytes, zeros */
	ret = ltt_relay_write_padded(st->files.fd, buf, len,
				     pkt->done + len == pkt->len ? pkt->padding : 0, start + pkt->done);
	if (ret)
		return ret;
	pkt->done += len;
	return 0;
}

int ltt_relay_packet_end(struct ltt_relay_packet *pkt)
{
	struct ltt_relay_stream *st = pkt->stream;
	struct ltt_relay_session *s = pkt->session;
	int ret;

	assert(pkt->done == pkt->len);
	pthread_mutex_lock(&s->model->lock);
	st->in_flight = false;
	st->any_written = true;
	st->last_written_seq = st->cur.seq;
	st->files.size += pkt->len + pkt->padding;
	st->viewer_size += pkt->len + pkt->padding;
	pthread_mutex_unlock(&s->model->lock);
	/* a test's relay killed with a packet in its file, not indexed */
	ltt_fault_point("packet-written");
	ret = packet_arrived(st);
	release_files(st);
	memset(pkt, 0, sizeof(*pkt));
	if (s->written_fn)
		s->written_fn(s->written_arg);
	ltt_relay_model_changed(s->model);	/* a closed stream's last packet: HUP */
	ltt_relay_session_put(s);
	return ret;
}

void ltt_relay_packet_abort(struct ltt_relay_packet *pkt)
{
	struct ltt_relay_stream *st = pkt->stream;
	struct ltt_relay_session *s = pkt->session;

	if (!s)
		return;
	if (st->files.fd >= 0 && ftruncate(st->files.fd, (off_t)st->files.size))
		LTT_ERR("can't cut %s/%s back: %s", st->trace->pathname, st->channel_name,
			strerror(errno));
	pthread_mutex_lock(&s->model->lock);
	st->in_flight = false;
	/* the sender may send this number again */
	st->any_begun = st->any_written;
	st->last_begun_seq = st->last_written_seq;
	if (st->closed && st->close_seq == st->cur.seq)
		st->close_seq = st->any_written ? st->last_written_seq : UINT64_MAX;
	pthread_mutex_unlock(&s->model->lock);
	release_files(st);
	memset(pkt, 0, sizeof(*pkt));
	ltt_relay_session_put(s);
}
