/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - the command thread (the main thread): reads the session
 * daemon's commands (common/proto/consumer-proto.h) on the command socket,
 * validates each one, carries it out and replies, in order.  One table
 * (cmd.c) from command number to handler; the handlers are grouped by
 * object in cmd-trace.c, cmd-channel.c, cmd-relay.c and cmd-chunk.c.
 *
 * It owns the registry of traces, channels and relays (registry.h).  A
 * trace lives on this thread only; a channel is handed to the data
 * thread, which owns its streams, and everything that touches streams is
 * a synchronous request to the data thread (data.h).  A command is
 * validated whole before anything changes: a malformed command, an
 * unknown key, a duplicate or a wrong number of fds gets an error reply
 * and changes nothing.
 */
#ifndef LTT_CONSUMERD_CMD_H
#define LTT_CONSUMERD_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "common/base/codec.h"
#include "common/proto/msg.h"
#include "consumerd/cmd/registry.h"
#include "consumerd/data/data.h"

/* What a handler works on: the registry and the peer's protocol. */
struct ltt_cmd_ctx {
	struct ltt_registry reg;
	bool hello_done;
	uint32_t minor;		/* the protocol minor both sides speak */
	bool bye;		/* incompatible peer: exit after replying */
	/* ADD_BPF_RING's fds (ours), until the CPU's ADD_FTRACE_STREAM */
	struct {
		bool has;
		uint64_t channel_key;
		uint32_t cpu;
		int ring_fd, lost_fd;
	} bpf;
};

/*
 * A handler decodes its whole payload @req and checks it with
 * ltt_rbuf_end() before acting; fds of @msg are borrowed (ltt_msg_fini()
 * closes them).  It returns 0 and appends its reply fields to @reply, or
 * a negative errno:
 *   -EPROTO      malformed payload or wrong number of fds
 *   -EOPNOTSUPP  unknown command, or a value this consumer does not serve
 *   -ENOENT      unknown trace, channel or relay key
 *   -EEXIST      key, directory, channel name or CPU already in use
 *   -EINVAL      a value out of range (name, path, text, sizes)
 *   -EBUSY       DESTROY_TRACE or DEL_RELAY of one still in use
 *   -ENOBUFS     a limit on traces, channels, relays or streams reached
 *   or the errno of the failed system call (file creation, mapping).
 * Command thread only.
 */
typedef int ltt_cmd_fn(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req, struct ltt_msg *msg,
		       struct ltt_wbuf *reply);

/**
 * ltt_cmd_run() - serve the session daemon until it closes the socket or
 * a SIGTERM arrives; then final-flush and close every channel and trace
 * @cmd_fd: the command socket (borrowed)
 * @signal_fd: a signalfd that reports SIGTERM (borrowed)
 * @data: the data threads (borrowed; the caller stops them afterwards)
 * @health_tag: the command loop's heartbeat tag (ltt_evloop_set_tag()); 0: none
 *
 * Main thread.  Returns 0 after a clean end (socket closed, SIGTERM), or
 * 1 when the session daemon broke the framing (bad magic or length) and
 * we could not go on; everything has been flushed and closed either way.
 */
int ltt_cmd_run(int cmd_fd, int signal_fd, struct ltt_data_threads *data, uint64_t health_tag);

/* The handlers, declared by their type (each defined with it spelled out). */
/* cmd-trace.c: traces and their metadata */
ltt_cmd_fn ltt_cmd_add_trace, ltt_cmd_add_snapshot_trace, ltt_cmd_metadata,
	ltt_cmd_reset_metadata, ltt_cmd_destroy_trace, ltt_cmd_probe_output;
/* cmd-channel.c: channels and their streams */
ltt_cmd_fn ltt_cmd_add_channel, ltt_cmd_add_stream, ltt_cmd_add_kernel_stream, ltt_cmd_add_bpf_ring,
	ltt_cmd_streams_sent, ltt_cmd_flush_channel, ltt_cmd_channel_stats,
	ltt_cmd_reclaim_channel, ltt_cmd_destroy_channel;
/* cmd-relay.c: relay sessions */
ltt_cmd_fn ltt_cmd_add_relay, ltt_cmd_relay_data_pending, ltt_cmd_relay_status,
	ltt_cmd_relay_archive, ltt_cmd_relay_archive_result, ltt_cmd_del_relay;
/* cmd-chunk.c: a trace's chunks (rotation, clear) and snapshots */
ltt_cmd_fn ltt_cmd_rotate_trace, ltt_cmd_snapshot_trace, ltt_cmd_snapshot_trace_relay;

#endif /* LTT_CONSUMERD_CMD_H */
