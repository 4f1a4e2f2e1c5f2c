// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-216.c - what LTTng 2.16's clients ask that 2.13's did not.
 * A 2.16 request is read in 2.13's numbers (lttng-client-proto.h) and run
 * by the same handlers, each writing the objects whose layout 2.16
 * changed in 2.16's (call->gen); this file says which of 2.13's commands
 * are served to 2.16's clients, and answers the commands 2.16 added that
 * its `lttng` sends on its own: `lttng list` asks each user-space
 * channel's memory, an enable-event -k that failed asks the kernel
 * tracer's status, and reclaim-memory its own; the map channels'
 * commands are lttng-compat-map.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/model/domain.h"

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
	case LTT_LTTNG_CMD_SAVE_SESSION:
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
 * RECLAIM_CHANNEL_MEMORY (`lttng reclaim-memory`): ltt's RECLAIM_MEMORY of
 * the user-space channel, which gives its consumed sub-buffers' pages
 * back before it answers: {u64 reclaimed, u64 pending}, none pending, so
 * liblttng-ctl has nothing to wait for (LTTng 2.16 may answer some
 * pending and their completion later, on the same connection).
 */
static uint32_t reclaim_channel_memory(struct ltt_lttng_call *call)
{
	enum ltt_error_code err;
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	uint64_t subbufs = 0;

	if (call->req.domain != LTT_DOMAIN_USER)
		return ltt_lttng_refuse(call, "the reclaim of another domain's memory than user space's",
					"lttctl reclaim-memory -u");
	/* ltt's "" is every channel: LTTng names one */
	if (!call->req.channel[0])
		return LTT_LTTNG_ERR_UST_CHAN_NOT_FOUND;
	if (call->req.older_than_us > UINT64_MAX / 1000)
		return LTT_LTTNG_ERR_INVALID;
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_wbuf_put_str(&w, call->req.channel);
	ltt_wbuf_put_u64(&w, call->req.older_than_us * 1000);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_RECLAIM_MEMORY, &w, &reply);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		subbufs = ltt_rbuf_get_u64(&r);
		(void)ltt_rbuf_get_u64(&r);	/* the bytes: LTTng's reply has no place */
		if (ltt_rbuf_end(&r))
			err = LTT_ERR_PROTOCOL;
	}
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	if (err)
		return ltt_lttng_code(call, err);
	ltt_wbuf_put_u64(&call->data, subbufs);
	ltt_wbuf_put_u64(&call->data, 0);
	return LTT_LTTNG_OK;
}

/* One set of GET_CHANNEL_DATA_STREAM_INFO_SETS: a buffer owner's streams. */
struct info_set {
	bool per_pid;
	uint64_t owner;		/* its pid, or its uid */
	unsigned int first, n;	/* its streams in the sorted array */
};

/* Streams by owner: per-UID before per-PID, then by owner, then by CPU. */
static int stream_cmp(const void *a, const void *b)
{
	const struct ltt_mem_stream *x = a, *y = b;

	if ((x->pid != 0) != (y->pid != 0))
		return x->pid != 0 ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* The streams of @call's user-space channel in @v (@n of them), as MEM_USAGE says. */
static uint32_t channel_streams(struct ltt_lttng_call *call, struct ltt_mem_stream **ret_v,
				unsigned int *ret_n)
{
	struct ltt_mem_stream *v = NULL, m;
	struct ltt_wbuf reply;
	enum ltt_error_code err;
	struct ltt_rbuf r;
	uint32_t i, total;
	unsigned int n = 0;

	ltt_wbuf_init(&reply);
	err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_MEM_USAGE, 0, 0, &reply);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		total = ltt_rbuf_get_u32(&r);
		v = r.err || total > reply.len ? NULL : calloc(total ? total : 1, sizeof(*v));
		err = v ? LTT_ERR_OK : r.err ? LTT_ERR_PROTOCOL : LTT_ERR_NOMEM;
		for (i = 0; !err && i < total && !r.err; i++) {
			ltt_proto_get_mem_stream(&r, &m, call->ctx->minor);
			if (m.domain == LTT_DOMAIN_USER && !strcmp(m.channel, call->req.channel))
				v[n++] = m;
		}
		if (!err && ltt_rbuf_end(&r))
			err = LTT_ERR_PROTOCOL;
	}
	ltt_wbuf_fini(&reply);
	if (err) {
		free(v);
		return ltt_lttng_code(call, err);
	}
	qsort(v, n, sizeof(*v), stream_cmp);
	*ret_v = v;
	*ret_n = n;
	return LTT_LTTNG_OK;
}

/*
 * GET_CHANNEL_DATA_STREAM_INFO_SETS (`lttng list SESSION`, for each
 * user-space channel): {u32 sets, each {u8 bitness, u8 per_pid, u64
 * owner, u32 streams, each {u8 has_cpu, [u32 cpu], u64 memory, u64
 * max}}}: a buffer owner's streams as ltt measures them (MEM_USAGE: the
 * pages each holds now, and all its sub-buffers).  ltt's programs are
 * 64-bit ones as far as this says (its streams do not carry the ABI).
 */
static uint32_t stream_info_sets(struct ltt_lttng_call *call)
{
	uint32_t ret = ltt_lttng_check_domain(call, false);
	struct ltt_mem_stream *v = NULL;
	struct info_set set = { 0 };
	unsigned int i, j, n = 0, nsets = 0;

	if (ret == LTT_LTTNG_OK)
		ret = channel_streams(call, &v, &n);
	if (ret != LTT_LTTNG_OK)
		return ret;
	for (i = 0; i < n; i++)
		nsets += !i || v[i].pid != v[i - 1].pid || v[i].uid != v[i - 1].uid;
	ltt_wbuf_put_u32(&call->data, nsets);
	for (i = 0; i < n; i = set.first + set.n) {
		set = (struct info_set){ .per_pid = v[i].pid != 0, .first = i };
		set.owner = set.per_pid ? (uint64_t)v[i].pid : v[i].uid;
		for (j = i; j < n && v[j].pid == v[i].pid && v[j].uid == v[i].uid; j++)
			set.n++;
		ltt_wbuf_put_u8(&call->data, 1);	/* LTTNG_APP_BITNESS_64 */
		ltt_wbuf_put_u8(&call->data, set.per_pid);
		ltt_wbuf_put_u64(&call->data, set.owner);
		ltt_wbuf_put_u32(&call->data, set.n);
		for (j = set.first; j < set.first + set.n; j++) {
			ltt_wbuf_put_u8(&call->data, v[j].cpu != LTT_MEM_CPU_CHANNEL);
			if (v[j].cpu != LTT_MEM_CPU_CHANNEL)
				ltt_wbuf_put_u32(&call->data, v[j].cpu);
			ltt_wbuf_put_u64(&call->data, v[j].resident);
			ltt_wbuf_put_u64(&call->data, v[j].size);
		}
	}
	free(v);
	return LTT_LTTNG_OK;
}

uint32_t ltt_lttng_new_216(struct ltt_lttng_call *call)
{
	const char *name = ltt_lttng_cmd216_name(call->req.wire_cmd);

	switch (call->req.wire_cmd) {
	case LTT_LTTNG_CMD216_KERNEL_TRACER_STATUS:
		return kernel_tracer_status(call);
	case LTT_LTTNG_CMD216_RECLAIM_CHANNEL_MEMORY:
		return reclaim_channel_memory(call);
	case LTT_LTTNG_CMD216_STREAM_INFO_SETS:
		return stream_info_sets(call);
	case LTT_LTTNG_CMD216_ADD_MAP_CHANNEL:
	case LTT_LTTNG_CMD216_LIST_MAP_CHANNELS:
	case LTT_LTTNG_CMD216_GET_MAP_CHANNEL_BY_NAME:
	case LTT_LTTNG_CMD216_LIST_MAP_GROUPS:
	case LTT_LTTNG_CMD216_SAMPLE_MAP_GROUP:
	case LTT_LTTNG_CMD216_LIST_MAP_KEYS:
		return ltt_lttng_map_216(call);
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
