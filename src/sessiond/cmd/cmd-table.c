// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-table.c - the tables from client command numbers to handlers (see
 * cmd.h), and which of them may wait (run on the worker thread).
 */
#include <stdbool.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"

/* HELLO is handled by the connection itself (client.c). */
static ltt_cmd_fn *const handlers[LTT_CLIENT_CMD_NR_] = {
	[LTT_CLIENT_CMD_CREATE_SESSION] = ltt_cmd_create_session,
	[LTT_CLIENT_CMD_DESTROY_SESSION] = ltt_cmd_destroy_session,
	[LTT_CLIENT_CMD_START_SESSION] = ltt_cmd_start_session,
	[LTT_CLIENT_CMD_STOP_SESSION] = ltt_cmd_stop_session,
	[LTT_CLIENT_CMD_LIST_SESSIONS] = ltt_cmd_list_sessions,
	[LTT_CLIENT_CMD_LIST_TRACEPOINTS] = ltt_cmd_list_tracepoints,
	[LTT_CLIENT_CMD_ENABLE_CHANNEL] = ltt_cmd_enable_channel,
	[LTT_CLIENT_CMD_DISABLE_CHANNEL] = ltt_cmd_disable_channel,
	[LTT_CLIENT_CMD_ENABLE_EVENT] = ltt_cmd_enable_event,
	[LTT_CLIENT_CMD_DISABLE_EVENT] = ltt_cmd_disable_event,
	[LTT_CLIENT_CMD_DATA_PENDING] = ltt_cmd_data_pending,
	[LTT_CLIENT_CMD_RELAY_STATUS] = ltt_cmd_relay_status,
	[LTT_CLIENT_CMD_SNAPSHOT_ADD_OUTPUT] = ltt_cmd_snapshot_add_output,
	[LTT_CLIENT_CMD_SNAPSHOT_DEL_OUTPUT] = ltt_cmd_snapshot_del_output,
	[LTT_CLIENT_CMD_SNAPSHOT_LIST_OUTPUT] = ltt_cmd_snapshot_list_output,
	[LTT_CLIENT_CMD_SNAPSHOT_RECORD] = ltt_cmd_snapshot_record,
	[LTT_CLIENT_CMD_ROTATE_SESSION] = ltt_cmd_rotate_session,
	[LTT_CLIENT_CMD_ENABLE_ROTATION] = ltt_cmd_enable_rotation,
	[LTT_CLIENT_CMD_DISABLE_ROTATION] = ltt_cmd_disable_rotation,
	[LTT_CLIENT_CMD_CLEAR_SESSION] = ltt_cmd_clear_session,
	[LTT_CLIENT_CMD_REGENERATE] = ltt_cmd_regenerate,
	[LTT_CLIENT_CMD_TRACKER_POLICY] = ltt_cmd_tracker_policy,
	[LTT_CLIENT_CMD_LIST_TRACKERS] = ltt_cmd_list_trackers,
	[LTT_CLIENT_CMD_ADD_CONTEXT] = ltt_cmd_add_context,
	[LTT_CLIENT_CMD_KERNEL_TRACER] = ltt_cmd_kernel_tracer,
	[LTT_CLIENT_CMD_ADD_TRIGGER] = ltt_cmd_add_trigger,
	[LTT_CLIENT_CMD_REMOVE_TRIGGER] = ltt_cmd_remove_trigger,
	[LTT_CLIENT_CMD_LIST_TRIGGERS] = ltt_cmd_list_triggers,
	[LTT_CLIENT_CMD_RECLAIM_MEMORY] = ltt_cmd_reclaim_memory,
	[LTT_CLIENT_CMD_ADD_MAP_CHANNEL] = ltt_cmd_add_map_channel,
	[LTT_CLIENT_CMD_LIST_MAPS] = ltt_cmd_list_maps,
	[LTT_CLIENT_CMD_LIST_MAP_CPUS] = ltt_cmd_list_map_cpus,
};

/* The commands a handler serves with others, and the @arg that tells it which. */
static const struct {
	ltt_cmd_arg_fn *fn;
	unsigned int arg;
} shared[LTT_CLIENT_CMD_NR_] = {
	[LTT_CLIENT_CMD_GET_SESSION] = { ltt_cmd_view_named, LTT_CMD_VIEW_TREE },
	[LTT_CLIENT_CMD_LIST_CONTEXTS] = { ltt_cmd_view_named, LTT_CMD_VIEW_CONTEXTS },
	[LTT_CLIENT_CMD_ROTATION_INFO] = { ltt_cmd_view_named, LTT_CMD_VIEW_ROTATION },
	[LTT_CLIENT_CMD_MEM_USAGE] = { ltt_cmd_view_named, LTT_CMD_VIEW_MEMORY },
	[LTT_CLIENT_CMD_TRACK] = { ltt_cmd_tracker_edit, 1 },
	[LTT_CLIENT_CMD_UNTRACK] = { ltt_cmd_tracker_edit, 0 },
};

/*
 * Commands that may wait for programs' acks or for the consumer: the
 * client thread runs them on its worker so that other clients are served
 * meanwhile.
 */
static const bool may_wait[LTT_CLIENT_CMD_NR_] = {
	[LTT_CLIENT_CMD_CREATE_SESSION] = true,	/* a relay must answer (5 s at most) */
	[LTT_CLIENT_CMD_DESTROY_SESSION] = true,
	[LTT_CLIENT_CMD_START_SESSION] = true,
	[LTT_CLIENT_CMD_STOP_SESSION] = true,
	[LTT_CLIENT_CMD_GET_SESSION] = true,
	[LTT_CLIENT_CMD_LIST_TRACEPOINTS] = true,	/* apps_lock; agents answer (3 s at most) */
	[LTT_CLIENT_CMD_ENABLE_CHANNEL] = true,
	[LTT_CLIENT_CMD_DISABLE_CHANNEL] = true,
	[LTT_CLIENT_CMD_ENABLE_EVENT] = true,
	[LTT_CLIENT_CMD_DISABLE_EVENT] = true,
	[LTT_CLIENT_CMD_DATA_PENDING] = true,	/* asks the consumers */
	[LTT_CLIENT_CMD_RELAY_STATUS] = true,
	[LTT_CLIENT_CMD_SNAPSHOT_RECORD] = true,	/* the consumer writes the snapshot */
	/* the session's lock, which a record holds while the consumer writes */
	[LTT_CLIENT_CMD_SNAPSHOT_ADD_OUTPUT] = true,
	[LTT_CLIENT_CMD_SNAPSHOT_DEL_OUTPUT] = true,
	[LTT_CLIENT_CMD_SNAPSHOT_LIST_OUTPUT] = true,
	/* the consumer moves or clears the traces; the session lock may be a rotation's */
	[LTT_CLIENT_CMD_ROTATE_SESSION] = true,
	[LTT_CLIENT_CMD_ENABLE_ROTATION] = true,
	[LTT_CLIENT_CMD_DISABLE_ROTATION] = true,
	[LTT_CLIENT_CMD_CLEAR_SESSION] = true,
	[LTT_CLIENT_CMD_REGENERATE] = true,
	[LTT_CLIENT_CMD_ROTATION_INFO] = true,
	/* programs follow a tracker change before the reply; names are looked up */
	[LTT_CLIENT_CMD_TRACK] = true,
	[LTT_CLIENT_CMD_UNTRACK] = true,
	[LTT_CLIENT_CMD_TRACKER_POLICY] = true,
	[LTT_CLIENT_CMD_LIST_TRACKERS] = true,	/* the session lock, as GET_SESSION */
	[LTT_CLIENT_CMD_ADD_CONTEXT] = true,	/* may create the default channel */
	[LTT_CLIENT_CMD_LIST_CONTEXTS] = true,
	[LTT_CLIENT_CMD_MEM_USAGE] = true,	/* the session lock, as GET_SESSION */
	[LTT_CLIENT_CMD_RECLAIM_MEMORY] = true,	/* waits for the consumer */
	[LTT_CLIENT_CMD_ADD_MAP_CHANNEL] = true,	/* the session lock, as GET_SESSION */
	[LTT_CLIENT_CMD_LIST_MAPS] = true,
	[LTT_CLIENT_CMD_LIST_MAP_CPUS] = true,
	/* programs take the event-rule conditions before the reply */
	[LTT_CLIENT_CMD_ADD_TRIGGER] = true,
	[LTT_CLIENT_CMD_REMOVE_TRIGGER] = true,
	/* the app thread first reads what programs sent (1 s at most) */
	[LTT_CLIENT_CMD_LIST_TRIGGERS] = true,
};

bool ltt_cmd_may_wait(unsigned int cmd)
{
	return cmd < LTT_CLIENT_CMD_NR_ && may_wait[cmd];
}

enum ltt_error_code ltt_cmd_dispatch(const struct ltt_cmd_ctx *ctx, unsigned int cmd,
				     const void *payload, size_t len, struct ltt_wbuf *reply)
{
	long min = ltt_client_cmd_min_payload(cmd);
	enum ltt_error_code err;
	struct ltt_rbuf req;

	if (min < 0 || cmd >= LTT_CLIENT_CMD_NR_ || (!handlers[cmd] && !shared[cmd].fn))
		return LTT_ERR_NOT_SUPPORTED;
	if (len < (size_t)min)
		return LTT_ERR_PROTOCOL;
	ltt_rbuf_init(&req, payload, len);
	err = handlers[cmd] ? handlers[cmd](ctx, &req, reply) :
	      shared[cmd].fn(ctx, &req, shared[cmd].arg, reply);
	LTT_DBG("client pid %d uid %u: %s -> %s", (int)ctx->cred.pid, (unsigned int)ctx->cred.uid,
		ltt_client_cmd_name(cmd), ltt_error_name(err));
	return err;
}
