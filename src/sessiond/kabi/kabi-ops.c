// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-ops.c - the table of allowed kernel operations (kabi-backend.h):
 * which kind of object each runs on, its argument's size and user
 * pointers, what it creates.  The kernel thread (kabi.c), the backends
 * (kabi-module.c) and the privileged part's ends (kabi-remote.c,
 * kabi-serve.c) read it; it calls nothing.
 */
#include <stddef.h>
#include <stdint.h>

#include "sessiond/kabi/kabi-backend.h"

/* The user pointers of the operations' arguments (kabi-backend.h). */
#define LIST_ENTRIES_MAX (1U << 16)
static const struct ltt_kabi_ref list_ref = {
	offsetof(struct ltt_kabi_list, entries), offsetof(struct ltt_kabi_list, capacity),
	sizeof(struct ltt_kabi_list_entry), LIST_ENTRIES_MAX, false, true, NULL,
};
static const struct ltt_kabi_ref prog_code_ref = {
	offsetof(struct ltt_kabi_filter_prog, code), offsetof(struct ltt_kabi_filter_prog, len),
	1, LTT_KABI_FILTER_MAX_LEN, true, false, NULL,
};
static const struct ltt_kabi_ref filter_ref = {
	offsetof(struct ltt_kabi_event_filter, programs),
	offsetof(struct ltt_kabi_event_filter, nr_programs),
	sizeof(struct ltt_kabi_filter_prog), LTT_KABI_FILTER_MAX_PROGRAMS, true, false,
	&prog_code_ref,
};
static const struct ltt_kabi_ref tracker_ref = {
	offsetof(struct ltt_kabi_tracker, ids), offsetof(struct ltt_kabi_tracker, nr),
	sizeof(uint32_t), LTT_KABI_TRACKER_MAX_IDS, true, true, NULL,
};

/* The allowed operations: nothing else ever reaches a backend. */
const struct ltt_kabi_op_desc ltt_kabi_ops[LTT_KABI_OP_NR] = {
	[LTT_KABI_OP_VERSION] = { "VERSION", LTT_KABI_KIND_TRACER,
				  sizeof(struct ltt_kabi_version), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_LIST] = { "LIST", LTT_KABI_KIND_TRACER, sizeof(struct ltt_kabi_list),
			       LTT_KABI_KIND_NONE, &list_ref },
	[LTT_KABI_OP_EVENT_DESC] = { "EVENT_DESC", LTT_KABI_KIND_TRACER,
				     sizeof(struct ltt_kabi_event_desc), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_SESSION] = { "SESSION", LTT_KABI_KIND_TRACER, 0, LTT_KABI_KIND_SESSION, NULL },
	[LTT_KABI_OP_CHANNEL] = { "CHANNEL", LTT_KABI_KIND_SESSION,
				  sizeof(struct ltt_kabi_channel), LTT_KABI_KIND_CHANNEL, NULL },
	[LTT_KABI_OP_START] = { "START", LTT_KABI_KIND_SESSION, 0, LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_STOP] = { "STOP", LTT_KABI_KIND_SESSION, 0, LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_STATEDUMP] = { "STATEDUMP", LTT_KABI_KIND_SESSION, 0, LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_STREAM] = { "STREAM", LTT_KABI_KIND_CHANNEL, sizeof(struct ltt_kabi_stream),
				 LTT_KABI_KIND_STREAM, NULL },
	[LTT_KABI_OP_EVENT_ENABLE] = { "EVENT_ENABLE", LTT_KABI_KIND_CHANNEL,
				       sizeof(struct ltt_kabi_event), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_EVENT_DISABLE] = { "EVENT_DISABLE", LTT_KABI_KIND_CHANNEL,
					sizeof(struct ltt_kabi_event), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_TRACKER_SET] = { "TRACKER_SET", LTT_KABI_KIND_SESSION,
				      sizeof(struct ltt_kabi_tracker), LTT_KABI_KIND_NONE,
				      &tracker_ref },
	[LTT_KABI_OP_TRACKER_GET] = { "TRACKER_GET", LTT_KABI_KIND_SESSION,
				      sizeof(struct ltt_kabi_tracker), LTT_KABI_KIND_NONE,
				      &tracker_ref },
	[LTT_KABI_OP_EVENT_ENABLE_FILTERED] = { "EVENT_ENABLE_FILTERED", LTT_KABI_KIND_CHANNEL,
						sizeof(struct ltt_kabi_event_filter),
						LTT_KABI_KIND_NONE, &filter_ref },
	[LTT_KABI_OP_EVENT_SET_FILTER] = { "EVENT_SET_FILTER", LTT_KABI_KIND_CHANNEL,
					   sizeof(struct ltt_kabi_event_filter),
					   LTT_KABI_KIND_NONE, &filter_ref },
	[LTT_KABI_OP_CONTEXT_ADD] = { "CONTEXT_ADD", LTT_KABI_KIND_CHANNEL,
				      sizeof(struct ltt_kabi_context), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_STREAM_USAGE] = { "STREAM_USAGE", LTT_KABI_KIND_STREAM,
				       sizeof(struct ltt_kabi_stream_usage), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_WAKE_EARLY] = { "WAKE_EARLY", LTT_KABI_KIND_CHANNEL, 0, LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_PROBE] = { "PROBE", LTT_KABI_KIND_SESSION, sizeof(struct ltt_kabi_probe),
				LTT_KABI_KIND_PROBE, NULL },
	[LTT_KABI_OP_MAP] = { "MAP", LTT_KABI_KIND_TRACER, 0, LTT_KABI_KIND_MAP, NULL },
	[LTT_KABI_OP_MAP_EVENT] = { "MAP_EVENT", LTT_KABI_KIND_MAP,
				    sizeof(struct ltt_kabi_event_filter), LTT_KABI_KIND_NONE,
				    &filter_ref },
	[LTT_KABI_OP_MAP_UNEVENT] = { "MAP_UNEVENT", LTT_KABI_KIND_MAP,
				      sizeof(struct ltt_kabi_event), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_MAP_READ] = { "MAP_READ", LTT_KABI_KIND_MAP, sizeof(struct ltt_kabi_map_read),
				   LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_MAP_CTL] = { "MAP_CTL", LTT_KABI_KIND_MAP, sizeof(struct ltt_kabi_map_ctl),
				  LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_CHANNEL_MEM] = { "CHANNEL_MEM", LTT_KABI_KIND_CHANNEL,
				      sizeof(struct ltt_kabi_channel_mem), LTT_KABI_KIND_NONE, NULL },
	[LTT_KABI_OP_BPF_RING] = { "BPF_RING", LTT_KABI_KIND_CHANNEL,
				   sizeof(struct ltt_kabi_bpf_ring), LTT_KABI_KIND_BPF, NULL },
};
