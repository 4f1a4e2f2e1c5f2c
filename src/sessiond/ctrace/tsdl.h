/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tsdl.h - the metadata text (TSDL, CTF 1.8) of ltt's userspace traces,
 * exactly as doc/ctf.md describes it.
 *
 * A trace's metadata is append-only: ltt_tsdl_trace_header() once when
 * the trace is created, ltt_tsdl_stream() once per channel, then
 * ltt_tsdl_event() each time an event id is assigned.  Each appends text
 * (no NUL) to a buffer the caller owns and then hands to the consumer,
 * which frames it as metadata packets (common/trace/ctf.h).  Every string that
 * reaches the text is escaped as a TSDL string literal (backslash and
 * double quote); control characters are refused.
 *
 * On failure nothing is appended (the buffer keeps its length; an
 * allocation failure stays in out->err as usual).  No global state: any
 * thread, one buffer per thread.
 */
#ifndef LTT_SESSIOND_TSDL_H
#define LTT_SESSIOND_TSDL_H

#include <stdint.h>

#include "common/model/context.h"
#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "kmod/ltt-abi.h"

/*
 * The tracer a trace's env names: LTTng's, at the version whose layout
 * ltt's traces follow (lttng-ust and lttng-modules 2.13), so that
 * readers that choose a layout by it (Trace Compass, lttng-analyses,
 * babeltrace2's debug-info) take ltt's traces as LTTng's.  ltt's own
 * name and version are in env fields of their own (ltt_tracer_name,
 * ltt_version; ltt_kernel_backend for a kernel trace).
 */
#define LTT_TSDL_TRACER_NAME "lttng-ust"
#define LTT_TSDL_KERNEL_TRACER_NAME "lttng-modules"
#define LTT_TSDL_TRACER_MAJOR 2
#define LTT_TSDL_TRACER_MINOR 13
#define LTT_TSDL_TRACER_PATCHLEVEL 0

/* What the trace header needs.  Strings are borrowed for the call. */
struct ltt_tsdl_trace {
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
 * ltt_tsdl_trace_header() - append the part of a trace's metadata that
 * precedes its streams: the "CTF 1.8" comment, the typealiases, trace,
 * env and clock blocks, struct packet_context and struct
 * event_header_compact
 * @out: the text is appended here
 * @t: borrowed
 *
 * The env is LTTng's (LTT_TSDL_TRACER_NAME) with ltt's own fields after.
 * A kernel trace (@buffering "global") has LTTng's kernel env: domain
 * "kernel", sysname, kernel_release, kernel_version, and
 * trace_buffering_scheme "global"; ltt_kernel_backend names the tracer.
 *
 * Returns 0, -EINVAL when a string is NULL or holds a control character,
 * @buffering is not "uid", "pid" or "global", per-PID fields are set
 * per-UID (or missing per-PID), kernel fields are missing in a kernel
 * trace or set in another, @bits_per_long is not 32 or 64 or the clock
 * offset is negative, or -ENOMEM.
 */
int ltt_tsdl_trace_header(struct ltt_wbuf *out, const struct ltt_tsdl_trace *t);

/**
 * ltt_tsdl_stream() - append the stream block of channel @stream_id
 * (compact event headers, struct packet_context), with its event context
 * when it has contexts
 * @ctx: the channel's @nr_ctx contexts (borrowed; NULL when 0), in the
 *       order each event carries them
 *
 * Returns 0, -EINVAL (a context ltt_ctx_check() refuses) or -ENOMEM.
 */
int ltt_tsdl_stream(struct ltt_wbuf *out, uint32_t stream_id, const struct ltt_ctx *ctx,
		    uint32_t nr_ctx);

/**
 * ltt_tsdl_stream_per_channel() - ltt_tsdl_stream() for a channel of one
 * ring buffer that every CPU writes (--buffer-allocation=per-channel):
 * its packet context has no cpu_id (the same bytes, the last 4 named
 * _ltt_padding), as LTTng 2.14's per-channel streams have none.  Same
 * arguments and returns.
 */
int ltt_tsdl_stream_per_channel(struct ltt_wbuf *out, uint32_t stream_id,
				const struct ltt_ctx *ctx, uint32_t nr_ctx);

/**
 * ltt_tsdl_torn_events() - append the event classes of torn events
 * @out: the buffer (its error flag is set on allocation failure)
 * @stream_id: the user-space channel
 *
 * The three LTT_CTF_TORN_ID_* classes (src/common/trace/ctf.h) of a user-space
 * stream: the consumer writes them over the slots of writers that died
 * between reserve and commit.  Returns 0, -EINVAL, or -ENOMEM.
 */
int ltt_tsdl_torn_events(struct ltt_wbuf *out, uint32_t stream_id);

/**
 * ltt_tsdl_event() - append the event block of @tp, event @event_id of
 * stream @stream_id
 * @tp: borrowed; must pass ltt_app_tracepoint_valid()
 *
 * Field names get the leading underscore readers strip; a sequence
 * becomes two fields (uint32_t _NAME_length, then the sequence).
 * Returns 0, -EINVAL for an invalid @tp, or -ENOMEM.
 */
int ltt_tsdl_event(struct ltt_wbuf *out, const struct ltt_app_tracepoint *tp, uint32_t event_id,
		   uint32_t stream_id);

/**
 * ltt_tsdl_kernel_event() - append the event block of a kernel event,
 * described by the tracer (kmod/ltt-abi.h), as event @event_id of stream
 * @stream_id; kernel events have no log level
 * @desc: borrowed.  It comes from the kernel and is checked anyway: the
 *        name is 1..255 bytes of [A-Za-z0-9_], field names are unique C
 *        identifiers (a sequence N also takes N_length), types and sizes
 *        as in app-proto.h (integers, strings, arrays, sequences).
 *
 * Returns 0, -EINVAL for a description that fails those checks, or -ENOMEM.
 */
int ltt_tsdl_kernel_event(struct ltt_wbuf *out, const struct ltt_kabi_event_desc *desc,
			  uint32_t event_id, uint32_t stream_id);

#endif /* LTT_SESSIOND_TSDL_H */
