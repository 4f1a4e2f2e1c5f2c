// SPDX-License-Identifier: GPL-2.0-only
/*
 * model.c - the model made and destroyed, and the thread-safe read
 * interface the live server uses (model.h); its objects are registry.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/paths.h"
#include "common/trace/tracefile.h"
#include "relayd/model.h"
#include "relayd/session.h"
#include "relayd/stream.h"

int ltt_relay_model_create(const char *output_dir, struct ltt_relay_model **ret_model)
{
	struct ltt_relay_model *m;
	int ret;

	if (!output_dir || output_dir[0] != '/' || !ret_model)
		return -EINVAL;
	if (strlen(output_dir) >= sizeof(m->output_dir))
		return -ENAMETOOLONG;
	ret = ltt_mkdir_p(output_dir, 0750);
	if (ret)
		return ret;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	strcpy(m->output_dir, output_dir);
	pthread_mutex_init(&m->lock, NULL);
	m->next_session_id = 1;
	m->next_stream_handle = 1;
	m->next_trace_id = 1;
	m->index_window = LTT_RELAY_INDEX_WINDOW;
	m->limits = (struct ltt_relay_limits){
		.max_sessions = LTT_RELAY_DEFAULT_MAX_SESSIONS,
		.max_streams = LTT_RELAY_DEFAULT_MAX_STREAMS,
		.max_session_streams = LTT_RELAY_DEFAULT_MAX_SESSION_STREAMS,
	};
	*ret_model = m;
	return 0;
}

void ltt_relay_model_destroy(struct ltt_relay_model *m)
{
	struct ltt_relay_session *s;

	if (!m)
		return;
	while ((s = m->sessions)) {
		s->closed = true;
		s->refs = 0;
		s->viewers = 0;
		ltt_relay_session_reap_locked(s);
	}
	pthread_mutex_destroy(&m->lock);
	free(m);
}

unsigned int ltt_relay_model_open_sessions(struct ltt_relay_model *m)
{
	const struct ltt_relay_session *s;
	unsigned int n = 0;

	pthread_mutex_lock(&m->lock);
	for (s = m->sessions; s; s = s->next)
		n += !s->closed;
	pthread_mutex_unlock(&m->lock);
	return n;
}

static void session_info(const struct ltt_relay_session *s, struct ltt_relay_session_info *info)
{
	const struct ltt_relay_stream *st;

	memset(info, 0, sizeof(*info));
	info->id = s->id;
	strcpy(info->hostname, s->hostname);
	strcpy(info->session_name, s->session_name);
	info->live_timer_us = s->live_timer_us;
	info->trace_format = s->trace_format;
	for (st = s->streams; st; st = st->next)
		info->stream_count += st->sent;
	info->viewer_count = s->viewers;
	info->closed = s->closed;
	info->creation_time = s->creation_time;
	info->generation = s->generation;
}

static void stream_info(const struct ltt_relay_stream *st, struct ltt_relay_stream_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = st->handle;
	info->session_id = st->session->id;
	info->trace_id = st->trace->id;
	info->metadata_handle = st->trace->metadata_handle;
	info->metadata = st->metadata;
	info->sent = st->sent;
	info->closed = st->closed;
	info->hup = ltt_relay_stream_hup_locked(st);
	strcpy(info->channel_name, st->channel_name);
	strcpy(info->pathname, st->trace->pathname);
	info->index_count = st->entry_count;
	info->metadata_size = st->meta_size;
	info->metadata_version = st->meta_version;
	info->metadata_rewrite = st->meta_rewrite;
	info->metadata_old_size = st->meta_old_size;
	info->has_beacon = st->has_beacon;
	info->beacon_ts = st->beacon_ts;
	info->ctf_stream_id = st->ctf_stream_id;
}

/*
 * One listing: the nodes of a list (each's next pointer at @next_off) that
 * @want keeps (NULL: all), each filled by @fill into an array of @size
 * bytes a node, in the list's order or (@reverse) the other way.
 */
struct listing {
	size_t next_off;
	size_t size;
	bool reverse;
	bool (*want)(const void *node, const void *arg);
	void (*fill)(const void *node, void *info);
	const void *arg;
};

/* @l's nodes from @first into a new array (*@ret, *@ret_count); model lock held. */
static int list_locked(const struct listing *l, const void *first, void **ret, size_t *ret_count)
{
	const void *node;
	size_t n = 0, i = 0;
	char *infos = NULL;

	for (node = first; node; node = *(const void *const *)((const char *)node + l->next_off))
		n += !l->want || l->want(node, l->arg);
	if (n && !(infos = calloc(n, l->size)))
		return -ENOMEM;
	for (node = first; node; node = *(const void *const *)((const char *)node + l->next_off)) {
		if (l->want && !l->want(node, l->arg))
			continue;
		l->fill(node, infos + (l->reverse ? n - 1 - i : i) * l->size);
		i++;
	}
	*ret = infos;
	*ret_count = n;
	return 0;
}

/*
 * list_locked() under the model's lock: of its sessions, or (@session_id
 * not NULL) of that session's streams (-ENOENT: no such session).
 */
static int list_locking(struct ltt_relay_model *m, const struct listing *l,
			const uint64_t *session_id, void **ret_infos, size_t *ret_count)
{
	struct ltt_relay_session *s = NULL;
	int ret;

	pthread_mutex_lock(&m->lock);
	if (session_id)
		s = ltt_relay_model_find_session_locked(m, *session_id);
	if (session_id && !s)
		ret = -ENOENT;
	else
		ret = list_locked(l, s ? (const void *)s->streams : (const void *)m->sessions,
				  ret_infos, ret_count);
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/*
 * The info of session @id, or (@stream) of the stream of handle @id, read
 * under the model's lock into @ret_info.  Returns 0 or -ENOENT.
 */
static int info_locking(struct ltt_relay_model *m, uint64_t id, bool stream, void *ret_info)
{
	const void *node;

	pthread_mutex_lock(&m->lock);
	if (stream)
		node = ltt_relay_model_find_stream_locked(m, id);
	else
		node = ltt_relay_model_find_session_locked(m, id);
	if (node && stream)
		stream_info(node, ret_info);
	else if (node)
		session_info(node, ret_info);
	pthread_mutex_unlock(&m->lock);
	return node ? 0 : -ENOENT;
}

static void session_fill(const void *node, void *info)
{
	session_info(node, info);
}

int ltt_relay_model_list_sessions(struct ltt_relay_model *m, struct ltt_relay_session_info **ret_infos,
				  size_t *ret_count)
{
	/* oldest first: the list holds the newest first */
	static const struct listing sessions = {
		.next_off = offsetof(struct ltt_relay_session, next),
		.size = sizeof(struct ltt_relay_session_info), .reverse = true, .fill = session_fill,
	};
	void *infos;
	int ret = list_locking(m, &sessions, NULL, &infos, ret_count);

	if (!ret)
		*ret_infos = infos;
	return ret;
}

int ltt_relay_model_session_info(struct ltt_relay_model *m, uint64_t session_id,
				 struct ltt_relay_session_info *ret_info)
{
	return info_locking(m, session_id, false, ret_info);
}

/* Which streams a listing wants: after a handle, and only those sent or all. */
struct stream_want {
	uint64_t after;
	bool sent_only;
};

static bool stream_wanted(const void *node, const void *arg)
{
	const struct ltt_relay_stream *st = node;
	const struct stream_want *w = arg;

	/* a cleared stream is no viewer's any more (its files are gone) */
	return st->handle > w->after && (st->sent || !w->sent_only) && !st->cleared;
}

static void stream_fill(const void *node, void *info)
{
	stream_info(node, info);
}

int ltt_relay_model_list_streams(struct ltt_relay_model *m, uint64_t session_id, uint64_t after,
				 bool sent_only, struct ltt_relay_stream_info **ret_infos,
				 size_t *ret_count)
{
	struct stream_want w = { .after = after, .sent_only = sent_only };
	struct listing streams = {
		.next_off = offsetof(struct ltt_relay_stream, next),
		.size = sizeof(struct ltt_relay_stream_info), .want = stream_wanted,
		.fill = stream_fill, .arg = &w,
	};
	void *infos;
	int ret = list_locking(m, &streams, &session_id, &infos, ret_count);

	if (!ret)
		*ret_infos = infos;
	return ret;
}

int ltt_relay_model_stream_info(struct ltt_relay_model *m, uint64_t handle,
				struct ltt_relay_stream_info *ret_info)
{
	return info_locking(m, handle, true, ret_info);
}

/* Data stream @handle (NULL: *@ret is -ENOENT, or -EINVAL: a metadata stream); lock held. */
static struct ltt_relay_stream *data_stream_locked(struct ltt_relay_model *m, uint64_t handle,
						   int *ret)
{
	struct ltt_relay_stream *st = ltt_relay_model_find_stream_locked(m, handle);

	if (st && !st->metadata)
		return st;
	*ret = st ? -EINVAL : -ENOENT;
	return NULL;
}

int ltt_relay_model_get_index(struct ltt_relay_model *m, uint64_t handle, uint64_t pos,
			      struct ltt_relay_entry *ret_entry)
{
	struct ltt_relay_stream *st;
	int ret = 0;

	pthread_mutex_lock(&m->lock);
	st = data_stream_locked(m, handle, &ret);
	if (st && st->cleared)
		ret = -EPIPE;	/* what a clear removed is not handed out: hang up */
	else if (st && pos < st->entry_base)
		ret = -ESTALE;
	else if (st && pos < st->entry_count)
		*ret_entry = st->entries[pos - st->entry_base];
	else if (st)
		ret = ltt_relay_stream_hup_locked(st) ? -EPIPE : -EAGAIN;
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/* The first (@last false) or last index position of data stream @handle. */
static int seek(struct ltt_relay_model *m, uint64_t handle, bool last, uint64_t *ret_pos)
{
	struct ltt_relay_stream *st;
	int ret = 0;

	pthread_mutex_lock(&m->lock);
	st = data_stream_locked(m, handle, &ret);
	if (st && last && st->entry_count > st->entry_base)
		*ret_pos = st->entry_count - 1;
	else if (st)
		*ret_pos = st->entry_base;
	pthread_mutex_unlock(&m->lock);
	return ret;
}

int ltt_relay_model_seek_first(struct ltt_relay_model *m, uint64_t handle, uint64_t *ret_pos)
{
	return seek(m, handle, false, ret_pos);
}

int ltt_relay_model_seek_last(struct ltt_relay_model *m, uint64_t handle, uint64_t *ret_pos)
{
	return seek(m, handle, true, ret_pos);
}

/* The entry whose packet holds viewer offset @off, or NULL (binary search). */
static const struct ltt_relay_entry *find_packet(const struct ltt_relay_stream *st, uint64_t off)
{
	size_t lo = 0, hi = (size_t)(st->entry_count - st->entry_base);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ltt_relay_entry *e = &st->entries[mid];

		if (off < e->viewer_offset)
			hi = mid;
		else if (off - e->viewer_offset >= e->entry.packet_size / 8)
			lo = mid + 1;
		else
			return e;
	}
	return NULL;
}

/* pread() all of @len (short only at the end of the file). */
static int read_at(int fd, void *buf, size_t len, uint64_t off, size_t *ret_len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	*ret_len = done;
	return 0;
}

int ltt_relay_model_read_packet(struct ltt_relay_model *m, uint64_t handle, uint64_t offset,
				void *buf, size_t len, size_t *ret_len)
{
	const struct ltt_relay_entry *e;
	struct ltt_relay_stream *st;
	char name[NAME_MAX + 1];
	uint64_t file_off = 0, left;
	int fd = -1, ret = 0;

	pthread_mutex_lock(&m->lock);
	st = ltt_relay_model_find_stream_locked(m, handle);
	if (!st) {
		ret = -ENOENT;
		goto out;
	}
	e = st->metadata ? NULL : find_packet(st, offset);
	if (!e && !st->metadata && st->entry_base &&
	    (st->entry_count == st->entry_base || offset < st->entries[0].viewer_offset)) {
		ret = -ESTALE;			/* an entry no longer kept */
		goto out;
	}
	if (!e) {
		ret = -ERANGE;
		goto out;
	}
	if (e->file_no < st->files.oldest_no) {
		ret = -ESTALE;
		goto out;
	}
	left = e->entry.packet_size / 8 - (offset - e->viewer_offset);
	if (len > left)
		len = (size_t)left;
	file_off = e->entry.offset + (offset - e->viewer_offset);
	if (st->cleared) {	/* its files are gone: the ones kept for viewers */
		fd = ltt_relay_stream_kept_fd_locked(st, e->file_no);
		ret = fd < 0 ? fd : 0;
		goto out;
	}
	ret = ltt_tracefile_name(st->channel_name, st->files.max_size != 0, e->file_no, false, name,
				 sizeof(name));
	if (!ret) {
		fd = openat(st->trace->dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			ret = errno == ENOENT ? -ESTALE : -errno;
	}
out:
	pthread_mutex_unlock(&m->lock);
	if (ret)
		return ret;
	ret = read_at(fd, buf, len, file_off, ret_len);
	close(fd);
	return ret;
}

int ltt_relay_model_read_metadata(struct ltt_relay_model *m, uint64_t handle, uint64_t offset,
				  void *buf, size_t len, size_t *ret_len)
{
	struct ltt_relay_stream *st;
	int fd = -1, ret = 0;

	pthread_mutex_lock(&m->lock);
	st = ltt_relay_model_find_stream_locked(m, handle);
	if (!st)
		ret = -ENOENT;
	else if (!st->metadata)
		ret = -EINVAL;
	else if (offset >= st->meta_size)
		len = 0;
	else if (len > st->meta_size - offset)
		len = (size_t)(st->meta_size - offset);
	if (!ret && len && st->cleared) {
		fd = ltt_relay_stream_kept_fd_locked(st, 0);
		ret = fd < 0 ? fd : 0;
	} else if (!ret && len) {
		fd = openat(st->trace->dir_fd, "metadata", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			ret = -errno;
	}
	pthread_mutex_unlock(&m->lock);
	if (ret)
		return ret;
	if (!len) {
		*ret_len = 0;
		return 0;
	}
	ret = read_at(fd, buf, len, offset, ret_len);
	close(fd);
	return ret;
}

int ltt_relay_model_viewer_get(struct ltt_relay_model *m, uint64_t session_id)
{
	struct ltt_relay_session *s;

	pthread_mutex_lock(&m->lock);
	s = ltt_relay_model_find_session_locked(m, session_id);
	if (s)
		s->viewers++;
	pthread_mutex_unlock(&m->lock);
	return s ? 0 : -ENOENT;
}

void ltt_relay_model_viewer_put(struct ltt_relay_model *m, uint64_t session_id)
{
	struct ltt_relay_session *s;

	pthread_mutex_lock(&m->lock);
	s = ltt_relay_model_find_session_locked(m, session_id);
	if (s && s->viewers) {
		s->viewers--;
		ltt_relay_session_reap_locked(s);
	}
	pthread_mutex_unlock(&m->lock);
}
