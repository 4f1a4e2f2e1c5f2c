// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - relay sessions: their directories, closing, archives and
 * data pending (session.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/names.h"
#include "common/base/paths.h"
#include "relayd/session.h"
#include "relayd/stream.h"

/* The "-YYYYmmdd-HHMMSS" a session's directory name ends with. */
#define SESSION_DATE_LEN 16

/*
 * The session's directory into s->output_path, and made: LTTng's two
 * layouts, by host (the default) and by session:
 *
 *   OUTDIR/HOST/BASE                    OUTDIR/NAME/HOST-DATE/BASE
 *   OUTDIR/HOST/NAME-DATE               OUTDIR/NAME/HOST-DATE
 *   OUTDIR/HOST/NAME (the name holds its date already: LTTng's auto-DATE)
 */
static int session_dir(struct ltt_relay_model *m, const struct ltt_relay_create_session *req,
		       struct ltt_relay_session *s)
{
	const char *sep = req->base_path[0] ? "/" : "";
	char date[32];
	struct tm tm;
	time_t t = (time_t)req->creation_time;
	int n;

	if (!localtime_r(&t, &tm) || !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	if (m->group_by_session)
		n = snprintf(s->output_path, sizeof(s->output_path), "%s/%s/%s-%s%s%s",
			     m->output_dir, req->session_name, req->hostname, date, sep,
			     req->base_path);
	else if (req->base_path[0])
		n = snprintf(s->output_path, sizeof(s->output_path), "%s/%s/%s", m->output_dir,
			     req->hostname, req->base_path);
	else if (req->session_name_contains_creation_time)
		n = snprintf(s->output_path, sizeof(s->output_path), "%s/%s/%s", m->output_dir,
			     req->hostname, req->session_name);
	else
		n = snprintf(s->output_path, sizeof(s->output_path), "%s/%s/%s-%s", m->output_dir,
			     req->hostname, req->session_name, date);
	if (n < 0 || (size_t)n >= sizeof(s->output_path))
		return -ENAMETOOLONG;
	return ltt_mkdir_p(s->output_path, 0750);
}

int ltt_relay_session_create(struct ltt_relay_model *m, const struct ltt_relay_create_session *req,
			     struct ltt_relay_session **ret_session)
{
	struct ltt_relay_session *s;
	int ret;

	if (!ltt_relay_name_valid(req->hostname) || !ltt_relay_name_valid(req->session_name) ||
	    !ltt_relay_relpath_valid(req->base_path, true) ||
	    (req->trace_format != LTT_RELAY_TRACE_FORMAT_CTF_1_8 &&
	     req->trace_format != LTT_RELAY_TRACE_FORMAT_CTF_2))
		return -EINVAL;
	/* by host without a base path the directory is NAME-YYYYmmdd-HHMMSS */
	if (!m->group_by_session && !req->base_path[0] &&
	    !req->session_name_contains_creation_time &&
	    strlen(req->session_name) > NAME_MAX - SESSION_DATE_LEN)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&m->lock);
	ret = m->session_count >= m->limits.max_sessions ? -EMFILE : 0;
	pthread_mutex_unlock(&m->lock);
	if (ret) {
		LTT_WARN_RL("session %s of %s refused: the relay holds %u sessions already (at most "
			 "%u)", req->session_name, req->hostname, m->limits.max_sessions,
			 m->limits.max_sessions);
		return ret;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->model = m;
	strcpy(s->hostname, req->hostname);
	strcpy(s->session_name, req->session_name);
	s->live_timer_us = req->live_timer_us;
	s->creation_time = req->creation_time;
	s->trace_format = req->trace_format;
	s->streams_tail = &s->streams;
	s->refs = 1;
	ret = session_dir(m, req, s);
	if (ret) {
		LTT_ERR("session %s of %s: can't create %s: %s", s->session_name, s->hostname,
			s->output_path[0] ? s->output_path : "its directory", strerror(-ret));
		free(s);
		return ret;
	}
	s->journaled = m->journal && !ltt_relay_journal_add(m->journal, s->output_path);
	pthread_mutex_lock(&m->lock);
	s->id = m->next_session_id++;
	m->session_count++;
	s->next = m->sessions;
	m->sessions = s;
	pthread_mutex_unlock(&m->lock);
	LTT_INFO("session %" PRIu64 " %s of %s created: %s (live timer %u us, %s)", s->id,
		 s->session_name, s->hostname, s->output_path, s->live_timer_us,
		 s->trace_format == LTT_RELAY_TRACE_FORMAT_CTF_2 ? "CTF 2" : "CTF 1.8");
	*ret_session = s;
	return 0;
}

void ltt_relay_session_close(struct ltt_relay_session *s)
{
	struct ltt_relay_stream *st;

	pthread_mutex_lock(&s->model->lock);
	for (st = s->streams; st; st = st->next) {
		if (st->closed)
			continue;
		st->closed = true;
		/* the packet being received may still complete */
		st->close_seq = st->any_begun ? st->last_begun_seq : UINT64_MAX;
	}
	s->closed = true;
	s->generation++;
	pthread_mutex_unlock(&s->model->lock);
	ltt_relay_model_changed(s->model);
	LTT_INFO("session %" PRIu64 " %s of %s closed", s->id, s->session_name, s->hostname);
}

void ltt_relay_session_streams_sent(struct ltt_relay_session *s)
{
	struct ltt_relay_stream *st;
	bool changed = false;

	pthread_mutex_lock(&s->model->lock);
	for (st = s->streams; st; st = st->next) {
		changed |= !st->sent;
		st->sent = true;
	}
	if (changed)
		s->generation++;
	pthread_mutex_unlock(&s->model->lock);
	if (changed)
		ltt_relay_model_changed(s->model);
}

/* Is trace @path @from or below it? */
static bool path_under(const char *path, const char *from)
{
	size_t n = strlen(from);

	return !strncmp(path, from, n) && (!path[n] || path[n] == '/');
}

/* Make the parents of @path (absolute); none may be a link. */
static int make_parents(const char *path)
{
	char parent[PATH_MAX];
	char *slash;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -EINVAL;
	*slash = '\0';
	return ltt_mkdir_p(parent, 0750);
}

/* nftw() callback: remove one entry of a discarded chunk. */
static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT)
		return -errno;
	return 0;
}

/*
 * The streams of @s at or below @from are about to be cleared: their last
 * files stay open, so that a viewer still reads the packet it was handed
 * the index of before the clear (babeltrace 1 asked for it for ever).
 */
static void keep_for_viewers(struct ltt_relay_session *s, const char *from)
{
	struct ltt_relay_stream *st;

	pthread_mutex_lock(&s->model->lock);
	for (st = s->streams; st; st = st->next)
		if (path_under(st->trace->pathname, from))
			ltt_relay_stream_keep_files_locked(st);
	pthread_mutex_unlock(&s->model->lock);
}

/*
 * The streams of @s at or below @from were cleared: a viewer hangs up on
 * them at its next index request and attaches them no more, so that it
 * skips what the clear removed (as LTTng's relay does).
 */
static void mark_cleared(struct ltt_relay_session *s, const char *from)
{
	struct ltt_relay_stream *st;

	pthread_mutex_lock(&s->model->lock);
	for (st = s->streams; st; st = st->next)
		if (path_under(st->trace->pathname, from))
			st->cleared = true;
	pthread_mutex_unlock(&s->model->lock);
}

int ltt_relay_session_archive(struct ltt_relay_session *s, const char *from, const char *to)
{
	char src[PATH_MAX], dst[PATH_MAX];
	struct ltt_relay_stream *st;
	struct stat sb;
	bool busy = false;
	int ret;

	if (!ltt_relay_relpath_valid(from, false) || (*to && !ltt_relay_relpath_valid(to, false)) ||
	    (*to && path_under(to, from)))
		return -EINVAL;
	if ((size_t)snprintf(src, sizeof(src), "%s/%s", s->output_path, from) >= sizeof(src) ||
	    (size_t)snprintf(dst, sizeof(dst), "%s/%s", s->output_path, to) >= sizeof(dst))
		return -ENAMETOOLONG;
	if (!*to && s->model->disallow_clear)
		return -EPERM;	/* --disallow-clear */
	pthread_mutex_lock(&s->model->lock);
	for (st = s->streams; st && !busy; st = st->next)
		busy = path_under(st->trace->pathname, from) &&
		       (!st->closed || ltt_relay_stream_pending_locked(st));
	pthread_mutex_unlock(&s->model->lock);
	if (busy)
		return -EBUSY;
	if (!*to) {	/* a clear: the chunk is discarded, and its viewers skip it */
		keep_for_viewers(s, from);
		ret = lstat(src, &sb) ? -errno :
		      nftw(src, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		if (ret == -ENOENT)
			ret = 0;	/* no trace wrote in it: nothing to delete */
		if (!ret)
			mark_cleared(s, from);
	} else if (!lstat(dst, &sb)) {
		return -EEXIST;
	} else {
		ret = make_parents(dst);
		if (!ret && rename(src, dst))
			ret = -errno;
		/* a chunk no trace wrote into has no directory: an empty archive */
		if (ret == -ENOENT && lstat(src, &sb) && errno == ENOENT)
			ret = mkdir(dst, 0750) ? -errno : 0;
	}
	if (ret)
		return ret;
	/* the chunk directory @from was in goes once empty (best effort) */
	if (strchr(from, '/')) {
		*strrchr(src, '/') = '\0';
		rmdir(src);
	}
	LTT_INFO("session %" PRIu64 " %s: %s %s%s", s->id, s->session_name, from,
		 *to ? "archived as " : "discarded (a clear)", to);
	return 0;
}

bool ltt_relay_session_pending(struct ltt_relay_session *s)
{
	struct ltt_relay_stream *st;
	bool pending = false;

	pthread_mutex_lock(&s->model->lock);
	for (st = s->streams; st && !pending; st = st->next)
		pending = ltt_relay_stream_pending_locked(st);
	pthread_mutex_unlock(&s->model->lock);
	return pending;
}
