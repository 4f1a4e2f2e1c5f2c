// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-view.c - what `lttctl list SESSION` is told (GET_SESSION, MEM_USAGE,
 * LIST_CONTEXTS, ROTATION_INFO, LIST_TRACKERS), as the session is now.
 *
 * list reads a session under its state lock alone (ltt_session_lock_state()),
 * never its gate: a change that waits on the session owner's consumer (a
 * program's trace being created, ADD_TRACE, 5 s; a stop's flush, 30 s)
 * holds the gate and gives the state lock back for the round trip
 * (ltt_session_wait_begin()), so list never waits for a consumer it does
 * not ask itself.
 */
#include <stdio.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "common/proto/consumer-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"

typedef void (*view_fn)(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			struct ltt_wbuf *reply);

static const view_fn view_fns[] = {
	[LTT_CMD_VIEW_TREE] = ltt_cmd_session_tree,
	[LTT_CMD_VIEW_CONTEXTS] = ltt_cmd_contexts_put,
	[LTT_CMD_VIEW_ROTATION] = ltt_cmd_rotation_put,
	[LTT_CMD_VIEW_UTRACKERS] = ltt_cmd_trackers_put_user,
	[LTT_CMD_VIEW_KTRACKERS] = ltt_cmd_trackers_put_kernel,
	[LTT_CMD_VIEW_MEMORY] = ltt_cmd_memory_put,
};

/* The session's TLS files and shm path (constants: no lock), the last of GET_SESSION's reply. */
static void put_tls(const struct ltt_session *session, uint32_t minor, struct ltt_wbuf *reply)
{
	struct ltt_session_conf tls = { 0 };

	memcpy(tls.tls_cert, session->tls_cert, sizeof(tls.tls_cert));
	memcpy(tls.tls_key, session->tls_key, sizeof(tls.tls_key));
	memcpy(tls.tls_ca, session->tls_ca, sizeof(tls.tls_ca));
	memcpy(tls.shm_path, session->shm_path, sizeof(tls.shm_path));
	tls.shm_error = -__atomic_load_n(&session->shm_error, __ATOMIC_ACQUIRE);
	tls.shm_error_since = tls.shm_error ?
		__atomic_load_n(&session->shm_error_since, __ATOMIC_RELAXED) : 0;
	ltt_proto_put_session_tls(reply, &tls, minor);
}

enum ltt_error_code ltt_cmd_view(const struct ltt_cmd_ctx *ctx, const char *name,
				 enum ltt_cmd_view kind, struct ltt_wbuf *reply)
{
	struct ltt_session_desc info;
	struct ltt_session *session;
	enum ltt_error_code ret;

	ret = ltt_cmd_read_session(ctx, name, &session);
	if (ret)
		return ret;
	if (kind == LTT_CMD_VIEW_TREE) {	/* the session itself first */
		ltt_session_info(session, &info);
		ltt_proto_put_session_info(reply, &info, ctx->minor);
	}
	view_fns[kind](ctx, session, reply);
	ltt_session_unlock_state(session);
	/* the consumers, asked without the session's lock */
	if (kind == LTT_CMD_VIEW_TREE && ctx->minor >= LTT_CLIENT_MINOR_CONSUMER_STALL)
		ltt_cmd_stall_put(ctx, session, false, reply);
	if (kind == LTT_CMD_VIEW_TREE)
		put_tls(session, ctx->minor, reply);
	ltt_session_put(ctx->registry, session);
	return reply->err ? LTT_ERR_NOMEM : LTT_ERR_OK;
}

/* A request that is a session's name alone: its view @kind (ltt_cmd_view_named(): cmd.h). */
enum ltt_error_code ltt_cmd_view_named(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				       unsigned int kind, struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	return ltt_rbuf_end(req) ? LTT_ERR_PROTOCOL :
	       ltt_cmd_view(ctx, name, (enum ltt_cmd_view)kind, reply);
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
