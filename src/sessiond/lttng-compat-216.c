// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-216.c - what LTTng 2.16's clients ask that 2.13's did not.
 * A 2.16 request is read in 2.13's numbers (lttng-client-proto.h) and run
 * by the same handlers, each writing the objects whose layout 2.16
 * changed in 2.16's (call->gen); this file says which of 2.13's commands
 * are served to 2.16's clients, and answers the commands 2.16 added that
 * its `lttng` sends on its own: `lttng list` asks each session's map
 * channels and each user-space channel's memory, an enable-event -k that
 * failed asks the kernel tracer's status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat.h"
#include "sessiond/model/domain.h"

/* 2.16's commands after 2.13's (lttng-client-proto.h): their numbers. */
enum {
	CMD216_KERNEL_TRACER_STATUS = 43,
	CMD216_GET_CHANNEL_DATA_STREAM_INFO_SETS = 45,
	CMD216_LIST_MAP_CHANNELS = 47,
};

/* enum lttng_kernel_tracer_status */
enum { KTS_INITIALIZED = 0, KTS_ERR_UNKNOWN = -1, KTS_ERR_NEED_ROOT = -2 };

bool ltt_lttng_served_216(uint32_t cmd)
{
	switch (cmd) {
	case LTT_LTTNG_CMD_CREATE_SESSION_EXT:	/* the descriptor's trace format */
	case LTT_LTTNG_CMD_LIST_SESSIONS:	/* lttng_session_extended: shm path, trace format */
	case LTT_LTTNG_CMD_DESTROY_SESSION:
	case LTT_LTTNG_CMD_START_TRACE:
	case LTT_LTTNG_CMD_STOP_TRACE:
	case LTT_LTTNG_CMD_DATA_PENDING:
	case LTT_LTTNG_CMD_SESSION_LIST_ROTATION_SCHEDULES:
	case LTT_LTTNG_CMD_ENABLE_CHANNEL:	/* lttng_channel_comm: watchdog, policies */
	case LTT_LTTNG_CMD_LIST_CHANNELS:
	case LTT_LTTNG_CMD_ENABLE_EVENT:	/* the event, then its rule */
	case LTT_LTTNG_CMD_DISABLE_EVENT:
	case LTT_LTTNG_CMD_DISABLE_CHANNEL:
	case LTT_LTTNG_CMD_ADD_CONTEXT:
	case LTT_LTTNG_CMD_LIST_DOMAINS:
	case LTT_LTTNG_CMD_LIST_EVENTS:
	case LTT_LTTNG_CMD_LIST_TRACEPOINTS:
	case LTT_LTTNG_CMD_LIST_TRACEPOINT_FIELDS:
	case LTT_LTTNG_CMD_LIST_SYSCALLS:
	case LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_GET_POLICY:
	case LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_GET_INCLUSION_SET:
	case LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_SET_POLICY:
	case LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_ADD_INCLUDE_VALUE:
	case LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_REMOVE_INCLUDE_VALUE:
	case LTT_LTTNG_CMD_SET_SESSION_SHM_PATH:
	case LTT_LTTNG_CMD_SNAPSHOT_ADD_OUTPUT:
	case LTT_LTTNG_CMD_SNAPSHOT_DEL_OUTPUT:
	case LTT_LTTNG_CMD_SNAPSHOT_LIST_OUTPUT:
	case LTT_LTTNG_CMD_SNAPSHOT_RECORD:
	case LTT_LTTNG_CMD_ROTATE_SESSION:
	case LTT_LTTNG_CMD_ROTATION_GET_INFO:
	case LTT_LTTNG_CMD_ROTATION_SET_SCHEDULE:
	case LTT_LTTNG_CMD_CLEAR_SESSION:
	case LTT_LTTNG_CMD_REGENERATE_METADATA:
	case LTT_LTTNG_CMD_REGENERATE_STATEDUMP:
	case LTT_LTTNG_CMD_REGISTER_TRIGGER:
	case LTT_LTTNG_CMD_UNREGISTER_TRIGGER:
	case LTT_LTTNG_CMD_LIST_TRIGGERS:
	case LTT_LTTNG_CMD_EXECUTE_ERROR_QUERY:
		return true;
	default:
		return false;
	}
}

/* KERNEL_TRACER_STATUS: {i32 status}, as ltt's kernel domain is served or why not. */
static uint32_t kernel_tracer_status(struct ltt_lttng_call *call)
{
	const struct ltt_domains *d = call->ctx->domains;
	int i = ltt_domain_index(LTT_DOMAIN_KERNEL);
	int32_t status = KTS_ERR_UNKNOWN;

	if (d && i >= 0 && d->v[i])
		status = KTS_INITIALIZED;
	else if (d && i >= 0 && d->why_not[i] == LTT_ERR_KERNEL_NEEDS_ROOT)
		status = KTS_ERR_NEED_ROOT;
	ltt_wbuf_put_u32(&call->data, (uint32_t)status);
	return LTT_LTTNG_OK;
}

/*
 * LIST_MAP_CHANNELS: {u64 count, count x map channel}.  ltt's map
 * channels (lttctl add-map-channel) are not written in 2.16's form yet: a
 * session without one is answered with none, one with some is refused.
 */
static uint32_t list_map_channels(struct ltt_lttng_call *call)
{
	struct ltt_wbuf reply;
	struct ltt_rbuf r;
	enum ltt_error_code err;
	uint32_t n = 0;

	ltt_wbuf_init(&reply);
	err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_LIST_MAPS, 0, 0, &reply);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		n = ltt_rbuf_get_u32(&r);
		if (r.err)
			err = LTT_ERR_PROTOCOL;
	}
	ltt_wbuf_fini(&reply);
	if (err)
		return ltt_lttng_code(call, err);
	if (n)
		return ltt_lttng_refuse(call, "the listing of map channels to LTTng 2.16's clients",
					"lttctl show-maps");
	ltt_wbuf_put_u64(&call->data, 0);
	return LTT_LTTNG_OK;
}

/*
 * GET_CHANNEL_DATA_STREAM_INFO_SETS: {u32 sets, ...}.  ltt does not
 * report its streams' memory to LTTng's clients yet: no set (`lttng list`
 * then says "Memory usage: None"; lttctl list -v shows the buffers).
 */
static uint32_t stream_info_sets(struct ltt_lttng_call *call)
{
	uint32_t ret = ltt_lttng_check_domain(call, false);

	if (ret != LTT_LTTNG_OK)
		return ret;
	ltt_wbuf_put_u32(&call->data, 0);
	return LTT_LTTNG_OK;
}

uint32_t ltt_lttng_new_216(struct ltt_lttng_call *call)
{
	const char *name = ltt_lttng_cmd216_name(call->req.wire_cmd);

	switch (call->req.wire_cmd) {
	case CMD216_KERNEL_TRACER_STATUS:
		return kernel_tracer_status(call);
	case CMD216_LIST_MAP_CHANNELS:
		return list_map_channels(call);
	case CMD216_GET_CHANNEL_DATA_STREAM_INFO_SETS:
		return stream_info_sets(call);
	default:
		break;
	}
	if (name) {
		LTT_WARN_RL("LTTng 2.16 client pid %d: ltt does not serve %s (LTTng 2.16's command %u): use lttctl",
			    (int)call->ctx->cred.pid, name, call->req.wire_cmd);
		return LTT_LTTNG_ERR_NOT_SUPPORTED;
	}
	LTT_WARN_RL("LTTng 2.16 client pid %d sent command %u, which LTTng 2.16 lacks",
		    (int)call->ctx->cred.pid, call->req.wire_cmd);
	return LTT_LTTNG_ERR_UND;
}
