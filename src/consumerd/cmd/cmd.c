// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd.c - the command thread: receive, validate, execute, reply.
 *
 * One handler per command, from one table indexed by the command number
 * with the number of fds the command carries (the handlers' contract is
 * ltt_cmd_fn's, cmd.h; they live in cmd-trace.c, cmd-channel.c,
 * cmd-relay.c and cmd-chunk.c).  Nothing but HELLO before HELLO.  An
 * error reply holds only the status.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/testpoint.h"
#include "common/proto/lttng-health.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/cmd/cmd.h"

/* The command thread's state: the socket, why it stopped, and the handlers'. */
struct cmd_state {
	int fd;
	int end;		/* why the loop stopped: 1 peer gone, -1 broken */
	struct ltt_cmd_ctx ctx;
};

struct cmd_handler {
	ltt_cmd_fn *fn;
	unsigned int nr_fds;
};

/* HELLO {u32 major, u32 minor} -> ours; an incompatible major ends the daemon */
static int cmd_hello(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
		     struct ltt_wbuf *reply)
{
	static const struct ltt_consumer_version ours = {
		.major = LTT_CONSUMER_MAJOR, .minor = LTT_CONSUMER_MINOR,
	};
	struct ltt_consumer_version theirs;

	/* Their minor: we speak the lowest common one. */
	if (ltt_consumer_get_version(r, &theirs))
		return -EPROTO;
	if (theirs.major != LTT_CONSUMER_MAJOR) {
		LTT_ERR("the session daemon speaks consumer protocol %u.x, this consumer %u.x: exiting",
			theirs.major, LTT_CONSUMER_MAJOR);
		ctx->bye = true;
		return -EPROTONOSUPPORT;
	}
	ctx->hello_done = true;
	ctx->minor = theirs.minor < ours.minor ? theirs.minor : ours.minor;
	ltt_consumer_put_version(reply, &ours);
	return 0;
}

static const struct cmd_handler handlers[LTT_CONSUMER_MSG_NR_] = {
	[LTT_CONSUMER_MSG_HELLO] = { cmd_hello, 0 },
	[LTT_CONSUMER_MSG_ADD_TRACE] = { ltt_cmd_add_trace, 0 },
	[LTT_CONSUMER_MSG_METADATA] = { ltt_cmd_metadata, 0 },
	[LTT_CONSUMER_MSG_ADD_CHANNEL] = { ltt_cmd_add_channel, 0 },
	[LTT_CONSUMER_MSG_ADD_STREAM] = { ltt_cmd_add_stream, 2 },
	[LTT_CONSUMER_MSG_ADD_STREAM_STATS] = { ltt_cmd_add_stream, 3 },
	[LTT_CONSUMER_MSG_FLUSH_CHANNEL] = { ltt_cmd_flush_channel, 0 },
	[LTT_CONSUMER_MSG_CHANNEL_STATS] = { ltt_cmd_channel_stats, 0 },
	[LTT_CONSUMER_MSG_RECLAIM_CHANNEL] = { ltt_cmd_reclaim_channel, 0 },
	[LTT_CONSUMER_MSG_DESTROY_CHANNEL] = { ltt_cmd_destroy_channel, 0 },
	[LTT_CONSUMER_MSG_DESTROY_TRACE] = { ltt_cmd_destroy_trace, 0 },
	[LTT_CONSUMER_MSG_ADD_KERNEL_STREAM] = { ltt_cmd_add_kernel_stream, 1 },
	[LTT_CONSUMER_MSG_ADD_FTRACE_STREAM] = { ltt_cmd_add_kernel_stream, 2 },
	[LTT_CONSUMER_MSG_ADD_KERNEL_STREAM_STATS] = { ltt_cmd_add_kernel_stream, 2 },
	[LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS] = { ltt_cmd_add_kernel_stream, 3 },
	[LTT_CONSUMER_MSG_ADD_BPF_RING] = { ltt_cmd_add_bpf_ring, 2 },
	[LTT_CONSUMER_MSG_ADD_RELAY] = { ltt_cmd_add_relay, 0 },
	[LTT_CONSUMER_MSG_RELAY_DATA_PENDING] = { ltt_cmd_relay_data_pending, 0 },
	[LTT_CONSUMER_MSG_RELAY_STATUS] = { ltt_cmd_relay_status, 0 },
	[LTT_CONSUMER_MSG_DEL_RELAY] = { ltt_cmd_del_relay, 0 },
	[LTT_CONSUMER_MSG_STREAMS_SENT] = { ltt_cmd_streams_sent, 0 },
	[LTT_CONSUMER_MSG_PROBE_OUTPUT] = { ltt_cmd_probe_output, 0 },
	[LTT_CONSUMER_MSG_ADD_SNAPSHOT_TRACE] = { ltt_cmd_add_snapshot_trace, 0 },
	[LTT_CONSUMER_MSG_SNAPSHOT_TRACE] = { ltt_cmd_snapshot_trace, 0 },
	[LTT_CONSUMER_MSG_ROTATE_TRACE] = { ltt_cmd_rotate_trace, 0 },
	[LTT_CONSUMER_MSG_RESET_METADATA] = { ltt_cmd_reset_metadata, 0 },
	[LTT_CONSUMER_MSG_SNAPSHOT_TRACE_RELAY] = { ltt_cmd_snapshot_trace_relay, 0 },
	[LTT_CONSUMER_MSG_RELAY_ARCHIVE] = { ltt_cmd_relay_archive, 0 },
	[LTT_CONSUMER_MSG_RELAY_ARCHIVE_RESULT] = { ltt_cmd_relay_archive_result, 0 },
};

/* Run one command; @reply gets {i32 status, ...}. */
static void dispatch(struct ltt_cmd_ctx *ctx, struct ltt_msg *msg, struct ltt_wbuf *reply)
{
	const char *name = ltt_consumer_msg_name(msg->hdr.type);
	const struct cmd_handler *h = NULL;
	struct ltt_rbuf r;
	int status;

	if (msg->hdr.type < LTT_CONSUMER_MSG_NR_)
		h = &handlers[msg->hdr.type];
	ltt_consumer_put_status(reply, 0);	/* 0 unless we fail */
	if (!h || !h->fn) {
		LTT_WARN("unknown command %u: not supported", msg->hdr.type);
		status = -EOPNOTSUPP;
	} else if (!ctx->hello_done && msg->hdr.type != LTT_CONSUMER_MSG_HELLO) {
		LTT_WARN("%s before HELLO: refused", name);
		status = -EPROTO;
	} else if (msg->nr_fds != h->nr_fds) {
		LTT_WARN("%s with %u fds instead of %u: refused", name, msg->nr_fds, h->nr_fds);
		status = -EPROTO;
	} else {
		ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
		status = h->fn(ctx, &r, msg, reply);
		if (status == -EPROTO)
			LTT_WARN("%s: malformed payload of %u bytes: refused", name,
				 msg->hdr.payload_len);
	}
	if (!status && reply->err)
		status = reply->err;
	if (status) {
		ltt_wbuf_reset(reply);
		ltt_consumer_put_status(reply, status);
	}
	LTT_DBG("%s seq %u: %s", name ? name : "?", msg->hdr.seq,
		status ? strerror(-status) : "ok");
}

/*
 * Receive one command, run it, reply.  Returns 0 to go on, 1 when the
 * session daemon is gone, -1 when the framing is broken.
 */
static int serve_one(struct cmd_state *st)
{
	struct ltt_msg msg = { 0 };
	struct ltt_wbuf reply;
	int ret;

	ret = ltt_msg_recv(st->fd, LTT_CONSUMER_MAGIC, LTT_CONSUMER_MSG_MAX, LTT_MSG_MAX_FDS, &msg);
	if (ret == -ECONNRESET) {
		LTT_INFO("the session daemon closed the command socket");
		return 1;
	}
	if (ret) {
		LTT_ERR("command socket: %s: can't go on", strerror(-ret));
		return -1;
	}
	ltt_fault_point(ltt_consumer_msg_name(msg.hdr.type));	/* before it runs */
	ltt_wbuf_init(&reply);
	dispatch(&st->ctx, &msg, &reply);
	ret = ltt_msg_send(st->fd, LTT_CONSUMER_MAGIC, msg.hdr.type, msg.hdr.seq, reply.data,
			   reply.err ? 0 : reply.len, NULL, 0);
	ltt_wbuf_fini(&reply);
	ltt_msg_fini(&msg);
	if (ret) {
		LTT_INFO("can't reply to the session daemon: %s", strerror(-ret));
		return 1;
	}
	return st->ctx.bye ? 1 : 0;
}

/* The signalfd is readable: true for SIGTERM, the only signal it reports. */
static bool stop_signal(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) != sizeof(si) || si.ssi_signo != SIGTERM)
		return false;
	LTT_INFO("SIGTERM received: flushing and exiting");
	return true;
}

/*
 * The loop ended by a failed test point: the consumer stays up, its
 * health socket reporting that slot, until it is told to stop.
 */
static void wait_stop(int sfd)
{
	struct pollfd p = { .fd = sfd, .events = POLLIN };

	for (;;) {
		p.revents = 0;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return;
		if (p.revents && stop_signal(sfd))
			return;
	}
}

/* The command socket is readable or closed: serve one command. */
static void on_command(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct cmd_state *st = arg;

	(void)fd;
	(void)events;
	st->end = serve_one(st);
	if (st->end)
		ltt_evloop_stop(loop);
}

static void on_signal(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	(void)events;
	(void)arg;
	if (stop_signal(fd))
		ltt_evloop_stop(loop);
}

/*
 * An event loop with two watches.  The socket stays blocking: once it is
 * readable, serve_one() reads the whole command, runs it and writes the
 * reply before the loop turns again (see doc/consumerd.md).
 */
int ltt_cmd_run(int cmd_fd, int signal_fd, struct ltt_data_threads *data, uint64_t health_tag)
{
	struct cmd_state st = { .fd = cmd_fd, .ctx.reg.data = data };
	struct ltt_evloop *loop;
	int ret;

	static struct ltt_testpoint channel = LTT_TESTPOINT_INIT(consumerd_thread_channel),
		metadata = LTT_TESTPOINT_INIT(consumerd_thread_metadata);
	static const struct ltt_evloop_point points[] = {
		{ &channel, LTT_LTTNG_HEALTH_CONSUMERD_CHANNEL },
		{ &metadata, LTT_LTTNG_HEALTH_CONSUMERD_METADATA },
	};

	ret = ltt_evloop_create(&loop);
	if (!ret) {
		ltt_evloop_set_tag(loop, health_tag);
		if (health_tag)	/* LTTng's channel and metadata threads' test points */
			ltt_evloop_set_points(loop, points, 2);
		ret = ltt_evloop_watch(loop, cmd_fd, EPOLLIN, on_command, &st, NULL);
	}
	if (!ret)
		ret = ltt_evloop_watch(loop, signal_fd, EPOLLIN, on_signal, &st, NULL);
	if (!ret)
		ret = ltt_evloop_run(loop);
	if (ret == -ECANCELED)	/* a failed test point: health checks say so till the stop */
		wait_stop(signal_fd);
	if (ret) {
		LTT_ERR("command thread: event loop: %s", strerror(-ret));
		st.end = -1;
	}
	ltt_evloop_destroy(loop);
	ltt_registry_close_all(&st.ctx.reg);
	return st.end < 0 ? 1 : 0;
}
