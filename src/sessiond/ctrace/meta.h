/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * meta.h - a trace's metadata, in the trace's format: CTF 1.8's TSDL
 * (tsdl.c) or CTF 2's JSON fragments (ctf2.c), doc/ctf.md.
 *
 * What the metadata says is described once (meta-model.h: the field
 * classes of payloads and contexts; struct ltt_meta_trace: the trace);
 * each format's writer only writes that description.  A trace's metadata
 * is append-only: ltt_meta_trace_header() once when the trace is
 * created, ltt_meta_stream() once per channel, then ltt_meta_event() (or
 * ltt_meta_kernel_event()) each time an event id is assigned.  Each
 * appends text (no NUL) to a buffer the caller owns and then hands to the
 * consumer.  Every string that reaches the text is escaped as the format
 * wants; control characters are refused.
 *
 * On failure nothing is appended (the buffer keeps its length; an
 * allocation failure stays in out->err as usual).  No global state: any
 * thread, one buffer per thread.
 */
#ifndef LTT_SESSIOND_META_H
#define LTT_SESSIOND_META_H

#include <stdbool.h>
#include <stdint.h>

#include "common/base/codec.h"
#include "common/model/context.h"
#include <ltt/ltt-ctl.h>
#include "common/proto/app-proto.h"
#include "abi/ltt-abi.h"

/*
 * The tracer a trace's env names: LTTng's, at the version whose layout
 * ltt's traces follow (lttng-ust and lttng-modules 2.13), so that
 * readers that choose a layout by it (Trace Compass, lttng-analyses,
 * babeltrace2's debug-info) take ltt's traces as LTTng's.  ltt's own
 * name and version are in env fields of their own (ltt_tracer_name,
 * ltt_version; ltt_kernel_backend for a kernel trace).
 */
#define LTT_META_TRACER_NAME "lttng-ust"
#define LTT_META_KERNEL_TRACER_NAME "lttng-modules"
#define LTT_META_TRACER_MAJOR 2
#define LTT_META_TRACER_MINOR 13
#define LTT_META_TRACER_PATCHLEVEL 0

/* What the trace header needs.  Strings are borrowed for the call. */
struct ltt_meta_trace {
	uint8_t uuid[16];		/* the trace's UUID (a uuid_t fits) */
	/*
	 * The monotonic clock's UUID: the host's boot id
	 * (/proc/sys/kernel/random/boot_id), the same in every trace the host
	 * writes, which is what lets readers merge them on one time line.
	 */
	uint8_t clock_uuid[16];
	int64_t clock_offset_ns;	/* realtime - monotonic, at trace creation; >= 0 */
	/*
	 * A clock that counts TSC cycles from CLOCK_MONOTONIC's zero
	 * (common/trace/tclock.h): its frequency, and clock_offset_ns as seconds
	 * and cycles (clock_offset < clock_freq): a count is at
	 * clock_offset_s + (clock_offset + count) / clock_freq seconds of
	 * realtime.  0: the clock is CLOCK_MONOTONIC in ns.
	 */
	uint64_t clock_freq;
	int64_t clock_offset_s;
	uint64_t clock_offset;
	/*
	 * A clock plugin's (LTTNG_UST_CLOCK_PLUGIN) name, a C identifier, and
	 * description, for its clock block (clock_freq and the offsets are
	 * its); NULL: ltt's monotonic clock.
	 */
	const char *clock_plugin_name;
	const char *clock_plugin_description;
	/* for env (ltt_clock, ltt_clock_reason, ltt_clock_read); NULL: not written */
	const char *clock_name;
	const char *clock_why;
	const char *clock_read;		/* set with clock_name */
	const char *hostname;
	const char *trace_name;		/* the session's name */
	const char *creation_datetime;	/* ISO 8601, e.g. "20240501T120000+0200" */
	const char *buffering;		/* "uid" or "pid" (user space), "global" (kernel) */
	uint32_t buffering_id;		/* the UID or the PID */
	uint32_t bits_per_long;		/* 32 or 64: the applications' ABI */
	int32_t vpid;			/* per-PID: the process; -1 per-UID */
	const char *procname;		/* per-PID: its name; NULL per-UID */
	const char *vpid_datetime;	/* per-PID: when it registered, as creation_datetime; or NULL */
	/* Kernel traces ("global") only, from uname(2); NULL otherwise. */
	const char *sysname;
	const char *kernel_release;
	const char *kernel_version;
	const char *kernel_backend;	/* the tracer: "module", "tracefs" */
	const char *syscall_strings;	/* NULL, or why system call strings are addresses */
};

/**
 * ltt_meta_trace_header() - append the part of a trace's metadata that
 * precedes its streams: the trace, its environment, its clock, the packet
 * context and event header its streams share
 * @out: the text is appended here
 * @format: the trace's
 * @t: borrowed
 *
 * The environment is LTTng's (LTT_META_TRACER_NAME) with ltt's own fields
 * after.  A kernel trace (@buffering "global") has LTTng's kernel
 * environment: domain "kernel", sysname, kernel_release, kernel_version,
 * and trace_buffering_scheme "global"; ltt_kernel_backend names the tracer.
 *
 * Returns 0, -EINVAL when @format is not one, a string is NULL or holds a
 * control character, @buffering is not "uid", "pid" or "global", per-PID
 * fields are set per-UID (or missing per-PID), kernel fields are missing in
 * a kernel trace or set in another, @bits_per_long is not 32 or 64 or the
 * clock offset is negative, or -ENOMEM.
 */
int ltt_meta_trace_header(struct ltt_wbuf *out, enum ltt_trace_format format,
			  const struct ltt_meta_trace *t);

/**
 * ltt_meta_stream() - append the stream class of channel @stream_id
 * (compact event headers, the packet context), with its event context
 * when it has contexts
 * @per_channel: a channel of one ring buffer that every CPU writes
 *       (--buffer-allocation=per-channel): its packet context has no
 *       cpu_id (the same bytes, the last 4 padding), as LTTng 2.14's
 *       per-channel streams have none
 * @ctx: the channel's @nr_ctx contexts (borrowed; NULL when 0), in the
 *       order each event carries them
 *
 * Returns 0, -EINVAL (a context ltt_ctx_check() refuses) or -ENOMEM.
 */
int ltt_meta_stream(struct ltt_wbuf *out, enum ltt_trace_format format, uint32_t stream_id,
		    bool per_channel, const struct ltt_ctx *ctx, uint32_t nr_ctx);

/**
 * ltt_meta_torn_events() - append the event classes of torn events
 * @stream_id: the user-space channel
 *
 * The three LTT_CTF_TORN_ID_* classes (src/common/trace/ctf.h) of a
 * user-space stream: the consumer writes them over the slots of writers
 * that died between reserve and commit.  Returns 0, -EINVAL, or -ENOMEM.
 */
int ltt_meta_torn_events(struct ltt_wbuf *out, enum ltt_trace_format format,
			 uint32_t stream_id);

/**
 * ltt_meta_event() - append the event class of @tp, event @event_id of
 * stream @stream_id
 * @tp: borrowed; must pass ltt_app_tracepoint_valid()
 *
 * Its fields as ltt_meta_describe_app() (meta-model.h) describes them.
 * Returns 0, -EINVAL for an invalid @tp, or -ENOMEM.
 */
int ltt_meta_event(struct ltt_wbuf *out, enum ltt_trace_format format,
		   const struct ltt_app_tracepoint *tp, uint32_t event_id, uint32_t stream_id);

/**
 * ltt_meta_kernel_event() - append the event class of a kernel event,
 * described by the tracer (src/abi/ltt-abi.h), as event @event_id of stream
 * @stream_id; kernel events have no log level
 * @desc: borrowed; checked as ltt_meta_describe_kernel() says
 *
 * Returns 0, -EINVAL for a description that fails those checks, or -ENOMEM.
 */
int ltt_meta_kernel_event(struct ltt_wbuf *out, enum ltt_trace_format format,
			  const struct ltt_kabi_event_desc *desc, uint32_t event_id,
			  uint32_t stream_id);

#endif /* LTT_SESSIOND_META_H */
