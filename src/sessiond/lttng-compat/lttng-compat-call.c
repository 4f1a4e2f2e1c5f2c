// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-call.c - what every LTTng command's handler calls
 * (lttng-compat.h): ltt's command table, LTTng's code for ltt's error,
 * the refusal of what ltt does not serve, the session's tree and its
 * rotation state.  Below the handlers of lttng-compat*.c, calling none
 * of them.
 */
#include <stdlib.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

/* ltt's codes that have an LTTng twin. */
static const struct {
	enum ltt_error_code ltt;
	uint32_t lttng;
} codes[] = {
	{ LTT_ERR_NOMEM, LTT_LTTNG_ERR_NOMEM },
	{ LTT_ERR_PERM, LTT_LTTNG_ERR_EPERM },
	{ LTT_ERR_SESSION_NOT_FOUND, LTT_LTTNG_ERR_SESS_NOT_FOUND },
	{ LTT_ERR_SESSION_EXISTS, LTT_LTTNG_ERR_EXIST_SESS },
	{ LTT_ERR_SESSION_STARTED, LTT_LTTNG_ERR_TRACE_ALREADY_STARTED },
	{ LTT_ERR_SESSION_NOT_STARTED, LTT_LTTNG_ERR_TRACE_ALREADY_STOPPED },
	{ LTT_ERR_CHANNEL_EXISTS, LTT_LTTNG_ERR_CHAN_EXIST },
	{ LTT_ERR_CHANNEL_NOT_FOUND, LTT_LTTNG_ERR_UST_CHAN_NOT_FOUND },
	{ LTT_ERR_CHANNEL_NAME, LTT_LTTNG_ERR_INVALID_CHANNEL_NAME },
	{ LTT_ERR_EVENT_NAME, LTT_LTTNG_ERR_INVALID_EVENT_NAME },
	{ LTT_ERR_EVENT_EXISTS, LTT_LTTNG_ERR_UST_EVENT_EXIST },
	{ LTT_ERR_FILTER, LTT_LTTNG_ERR_FILTER_INVAL },
	{ LTT_ERR_EXCLUSION, LTT_LTTNG_ERR_EXCLUSION_INVAL },
	{ LTT_ERR_CONTEXT_EXISTS, LTT_LTTNG_ERR_UST_CONTEXT_EXIST },
	{ LTT_ERR_CONTEXT_TYPE, LTT_LTTNG_ERR_UST_CONTEXT_INVAL },
	{ LTT_ERR_KERNEL_NEEDS_ROOT, LTT_LTTNG_ERR_NEED_ROOT_SESSIOND },
	{ LTT_ERR_KERNEL_UNAVAILABLE, LTT_LTTNG_ERR_KERN_NA },
	{ LTT_ERR_KERNEL_DISABLED, LTT_LTTNG_ERR_KERN_NA },
	{ LTT_ERR_DOMAIN, LTT_LTTNG_ERR_UNKNOWN_DOMAIN },
	{ LTT_ERR_PROTOCOL, LTT_LTTNG_ERR_INVALID_PROTOCOL },
	{ LTT_ERR_INVAL, LTT_LTTNG_ERR_INVALID },
	{ LTT_ERR_NEED_CHANNEL_NAME, LTT_LTTNG_ERR_NEED_CHANNEL_NAME },
	{ LTT_ERR_EVENT_NOT_FOUND, LTT_LTTNG_ERR_UST_EVENT_NOT_FOUND },
	{ LTT_ERR_PROBE_NOT_FOUND, LTT_LTTNG_ERR_KERN_ENABLE_FAIL },
	{ LTT_ERR_PROBE_TRACER, LTT_LTTNG_ERR_KERN_ENABLE_FAIL },
	/* a trigger's probe the kernel can't place (LTTng's kernel_create_event_notifier()) */
	{ LTT_ERR_TRIGGER_KPROBE_EVENTS, LTT_LTTNG_ERR_KERN_ENABLE_FAIL },
	{ LTT_ERR_TRIGGER_UPROBE_EVENTS, LTT_LTTNG_ERR_KERN_ENABLE_FAIL },
	{ LTT_ERR_BUFFER_TYPE_MISMATCH, 24 },		/* BUFFER_TYPE_MISMATCH */
	/* snapshots' (lttng-compat-chunk.c) */
	{ LTT_ERR_SNAPSHOT_NOT_SNAPSHOT, 124 },		/* NOT_SNAPSHOT_SESSION */
	{ LTT_ERR_SNAPSHOT_OUTPUT_EXISTS, 31 },		/* SNAPSHOT_OUTPUT_EXIST */
	{ LTT_ERR_SNAPSHOT_NO_OUTPUT, 109 },		/* NO_CONSUMER */
	{ LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND, LTT_LTTNG_ERR_INVALID },
	/* rotations' and clear's (lttng-compat-chunk.c) */
	{ LTT_ERR_ROTATE_NEVER_STARTED, 50 },		/* START_SESSION_ONCE */
	{ LTT_ERR_ROTATE_SNAPSHOT, 130 },		/* ROTATION_NOT_AVAILABLE */
	{ LTT_ERR_ROTATE_OUTPUT, 135 },			/* NO_SESSION_OUTPUT */
	{ LTT_ERR_ROTATION_NOT_SET, 132 },		/* ROTATION_SCHEDULE_NOT_SET */
	{ LTT_ERR_ROTATE_AFTER_CLEAR, 159 },		/* ROTATION_AFTER_STOP_CLEAR */
	{ LTT_ERR_RELAY_NO_CLEAR, 157 },		/* CLEAR_NOT_AVAILABLE_RELAY */
	{ LTT_ERR_ROTATE_AFTER_STOP, 133 },		/* ROTATION_MULTIPLE_AFTER_STOP */
	/* what LTTng's daemon refuses once a session was started (cmd.c) */
	{ LTT_ERR_CHANNEL_STARTED, LTT_LTTNG_ERR_TRACE_ALREADY_STARTED },
	{ LTT_ERR_CONTEXT_STARTED, LTT_LTTNG_ERR_TRACE_ALREADY_STARTED },
	/* a relay that can't be reached or refuses the session (cmd.c's relayd_connect()) */
	{ LTT_ERR_RELAY_REFUSED, 104 },			/* RELAYD_CONNECT_FAIL */
	{ LTT_ERR_RELAY_TIMEOUT, 104 },
	{ LTT_ERR_RELAY_UNREACHABLE, 104 },
	{ LTT_ERR_RELAY_HOST, 104 },
	{ LTT_ERR_RELAY_NOT_RELAY, 104 },
	{ LTT_ERR_RELAY_LOST, 104 },
	{ LTT_ERR_RELAY_SESSION_REFUSED, 104 },
	{ LTT_ERR_RELAY_VERSION, 105 },			/* RELAYD_VERSION_FAIL */
	/* LTTng's agents' answers, as LTTng's daemon says them (agent.c) */
	{ LTT_ERR_AGENT_UNKNOWN_NAME, LTT_LTTNG_ERR_UST_EVENT_NOT_FOUND },
	{ LTT_ERR_AGENT_REFUSED, LTT_LTTNG_ERR_UNK },
	{ LTT_ERR_AGENT_NO_ANSWER, 63 },		/* UST_ENABLE_FAIL (a DISABLE's: 64) */
};

/* The name of @call's command: 2.13's, or one 2.16 added; "?" for none. */
static const char *call_name(const struct ltt_lttng_call *call)
{
	const char *name = ltt_lttng_cmd_name(call->req.cmd);

	if (!name && call->gen == LTT_LTTNG_GEN_2_16)
		name = ltt_lttng_cmd216_name(call->req.wire_cmd);
	return name ? name : "?";
}

uint32_t ltt_lttng_code(const struct ltt_lttng_call *call, enum ltt_error_code err)
{
	size_t i;

	if (err == LTT_ERR_OK)
		return LTT_LTTNG_OK;
	if (err == LTT_ERR_AGENT_NO_ANSWER && call->req.cmd == LTT_LTTNG_CMD_DISABLE_EVENT)
		return 64;	/* UST_DISABLE_FAIL */
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].ltt == err)
			return codes[i].lttng;
	/* LTTng's client prints its own sentence for a code: ltt's is here. */
	LTT_WARN_RL("LTTng client pid %d: %s: %s (%s)", (int)call->ctx->cred.pid,
		    call_name(call), ltt_strerror(err), ltt_error_name(err));
	return LTT_LTTNG_ERR_UNK;
}

uint32_t ltt_lttng_refuse(const struct ltt_lttng_call *call, const char *what,
			  const char *instead)
{
	LTT_WARN_RL("LTTng %s client pid %d: %s: ltt-sessiond --lttng-compat does not serve %s; use %s",
		    ltt_lttng_gen_name(call->gen), (int)call->ctx->cred.pid, call_name(call), what,
		    instead);
	return LTT_LTTNG_ERR_NOT_SUPPORTED;
}

enum ltt_error_code ltt_lttng_ltt(struct ltt_lttng_call *call, unsigned int cmd,
				  const struct ltt_wbuf *req, struct ltt_wbuf *reply)
{
	struct ltt_wbuf none;
	enum ltt_error_code err;

	if (req && req->err)
		return LTT_ERR_NOMEM;
	ltt_wbuf_init(&none);
	err = ltt_cmd_dispatch(call->ctx, cmd, req ? req->data : NULL, req ? req->len : 0,
			       reply ? reply : &none);
	ltt_wbuf_fini(&none);
	return err;
}

enum ltt_error_code ltt_lttng_session_cmd(struct ltt_lttng_call *call, unsigned int cmd,
					  uint32_t extra, unsigned int extra_bytes,
					  struct ltt_wbuf *reply)
{
	enum ltt_error_code err;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, call->req.session);
	if (extra_bytes == 1)
		ltt_wbuf_put_u8(&w, (uint8_t)extra);
	else if (extra_bytes == 4)
		ltt_wbuf_put_u32(&w, extra);
	err = ltt_lttng_ltt(call, cmd, &w, reply);
	ltt_wbuf_fini(&w);
	return err;
}

uint32_t ltt_lttng_session_tree(struct ltt_lttng_call *call, struct ltt_wbuf *reply,
				struct ltt_rbuf *r, struct ltt_session_desc *ret_info)
{
	struct ltt_session_desc *info = ret_info ? ret_info : malloc(sizeof(*info));
	enum ltt_error_code err;

	if (!info)
		return LTT_LTTNG_ERR_NOMEM;
	err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_GET_SESSION, 0, 0, reply);
	if (!err) {
		ltt_rbuf_init(r, reply->data, reply->len);
		ltt_proto_get_session_info(r, info, call->ctx->minor);
		if (r->err)
			err = LTT_ERR_PROTOCOL;
	}
	if (info != ret_info)
		free(info);
	return ltt_lttng_code(call, err);
}

enum ltt_error_code ltt_lttng_rotation_info(struct ltt_lttng_call *call,
					    struct ltt_rotation_desc *rot)
{
	enum ltt_error_code err;
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_str(&w, call->req.session);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_ROTATION_INFO, &w, &reply);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		ltt_proto_get_rotation_desc(&r, rot, call->ctx->minor);
		err = ltt_rbuf_end(&r) ? LTT_ERR_PROTOCOL : LTT_ERR_OK;
	}
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return err;
}
