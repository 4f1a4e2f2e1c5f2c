// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-view.c - what `lttctl list SESSION` is told (GET_SESSION,
 * LIST_CONTEXTS, ROTATION_INFO, LIST_TRACKERS), never held up by a
 * consumer.
 *
 * A session's lock is held by whoever works on it, and some of that work
 * waits on the session owner's consumer: a program's trace being created
 * (ADD_TRACE, 5 s), a stop's flush (30 s).  list must not wait for that:
 * it waits for the lock a short while (VIEW_WAIT_MS), and if the holder
 * keeps it, answers with the view kept of the session's last answer: the
 * channels, rules and contexts as they were then, the counters as they
 * were then (a cached value), the session's state (active) as it is now.
 * A view is kept each time a command releases the session's lock
 * (ltt_cmd_unlock_session()) and each time list answers with the lock,
 * so a session has one from its creation on.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/client-proto.h"
#include "common/consumer-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"

/* How long list waits for the session's lock before it takes the view. */
#define VIEW_WAIT_MS 100

typedef void (*view_fn)(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			struct ltt_wbuf *reply);

static const view_fn view_fns[LTT_SESSION_NR_VIEWS] = {
	[LTT_CMD_VIEW_TREE] = ltt_cmd_session_tree,
	[LTT_CMD_VIEW_CONTEXTS] = ltt_cmd_contexts_put,
	[LTT_CMD_VIEW_ROTATION] = ltt_cmd_rotation_put,
	[LTT_CMD_VIEW_UTRACKERS] = ltt_cmd_trackers_put_user,
	[LTT_CMD_VIEW_KTRACKERS] = ltt_cmd_trackers_put_kernel,
};

/* Keep @len bytes at @data as @session's view @kind, encoded for @minor. */
static void view_set(struct ltt_session *session, enum ltt_cmd_view kind, uint32_t minor,
		     const uint8_t *data, size_t len)
{
	struct ltt_session_view *v = &session->views[kind];
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy)
		return;	/* the older view stays */
	if (len)	/* an empty answer's data may be NULL */
		memcpy(copy, data, len);
	pthread_mutex_lock(&session->view_lock);
	free(v->data);
	v->data = copy;
	v->len = len;
	v->minor = minor;
	v->when = (int64_t)time(NULL);
	pthread_mutex_unlock(&session->view_lock);
}

/* Append @session's view @kind to @reply; false when it has none for @minor. */
static bool view_get(struct ltt_session *session, enum ltt_cmd_view kind, uint32_t minor,
		     struct ltt_wbuf *reply)
{
	struct ltt_session_view *v = &session->views[kind];
	bool got;

	pthread_mutex_lock(&session->view_lock);
	got = v->data && v->minor == minor;
	if (got)
		ltt_wbuf_put_bytes(reply, v->data, v->len);
	pthread_mutex_unlock(&session->view_lock);
	return got;
}

void ltt_cmd_view_save(const struct ltt_cmd_ctx *ctx, struct ltt_session *session)
{
	struct ltt_wbuf w;
	unsigned int kind;

	for (kind = 0; kind < LTT_SESSION_NR_VIEWS; kind++) {
		ltt_wbuf_init(&w);
		view_fns[kind](ctx, session, &w);
		if (!w.err)
			view_set(session, kind, ctx->minor, w.data, w.len);
		ltt_wbuf_fini(&w);
	}
}

/* Lock @session within @ms; true when locked. */
static bool lock_within(struct ltt_session *session, int ms)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	return pthread_mutex_timedlock(&session->lock, &until) == 0;
}

/* The session info GET_SESSION's answer begins with, as it is now. */
static void put_info(struct ltt_session *session, enum ltt_cmd_view kind, struct ltt_wbuf *reply)
{
	struct ltt_session_desc info;

	if (kind != LTT_CMD_VIEW_TREE)
		return;
	ltt_session_info(session, &info);
	ltt_proto_put_session_info(reply, &info);
}

enum ltt_error_code ltt_cmd_view(const struct ltt_cmd_ctx *ctx, const char *name,
				 enum ltt_cmd_view kind, struct ltt_wbuf *reply)
{
	size_t base = reply->len, start;
	struct ltt_session *session;
	enum ltt_error_code ret;
	bool locked;

	ret = ltt_cmd_find_session(ctx, name, &session);
	if (ret)
		return ret;
	locked = lock_within(session, VIEW_WAIT_MS);
	if (!locked && !__atomic_load_n(&session->destroyed, __ATOMIC_RELAXED)) {
		put_info(session, kind, reply);
		if (view_get(session, kind, ctx->minor, reply))
			goto stall;
		reply->len = base;
	}
	if (!locked)
		pthread_mutex_lock(&session->lock);
	if (session->destroyed) {
		/* Removed between the lookup and the lock. */
		ret = LTT_ERR_SESSION_NOT_FOUND;
	} else {
		put_info(session, kind, reply);
		start = reply->len;
		view_fns[kind](ctx, session, reply);
		if (!reply->err)
			view_set(session, kind, ctx->minor, reply->data + start, reply->len - start);
	}
	pthread_mutex_unlock(&session->lock);
stall:
	/* the consumers as they are now, whatever the view's age */
	if (!ret && kind == LTT_CMD_VIEW_TREE && ctx->minor >= LTT_CLIENT_MINOR_CONSUMER_STALL)
		ltt_cmd_stall_put(ctx, session, false, reply);
	ltt_session_put(ctx->registry, session);
	return ret ? ret : reply->err ? LTT_ERR_NOMEM : LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_get_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	return ltt_rbuf_end(req) ? LTT_ERR_PROTOCOL : ltt_cmd_view(ctx, name, LTT_CMD_VIEW_TREE, reply);
}

enum ltt_error_code ltt_cmd_list_contexts(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	return ltt_rbuf_end(req) ? LTT_ERR_PROTOCOL :
				   ltt_cmd_view(ctx, name, LTT_CMD_VIEW_CONTEXTS, reply);
}

enum ltt_error_code ltt_cmd_rotation_info(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	return ltt_rbuf_end(req) ? LTT_ERR_PROTOCOL :
				   ltt_cmd_view(ctx, name, LTT_CMD_VIEW_ROTATION, reply);
}

enum ltt_error_code ltt_cmd_list_trackers(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	enum ltt_error_code ret;
	enum ltt_cmd_view kind;
	const char *name;

	ret = ltt_cmd_trackers_target(ctx, req, &name, &kind);
	return ret ? ret : ltt_cmd_view(ctx, name, kind, reply);
}
