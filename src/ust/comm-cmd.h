/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * comm-cmd.h - what comm.c's thread keeps of its session daemon (struct
 * daemon), which the commands it runs (comm-cmd.c) read, and the entry to
 * them.  Included by comm.c and comm-cmd.c only.
 */
#ifndef LTT_UST_COMM_CMD_H
#define LTT_UST_COMM_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#include "common/proto/app-proto.h"
#include "common/proto/msg.h"

enum phase {
	PHASE_CONNECTING,	/* trying, or registering */
	PHASE_READY,		/* a REGISTER_DONE received on this connection */
	PHASE_DOWN,		/* no daemon (yet, or any more) */
};

/*
 * The daemon answers each TRACEPOINTS message, once it has pushed what its
 * sessions want of those events, with REGISTER_DONE.  Counting both tells
 * a waiting constructor when its events are settled.
 */
struct daemon {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	/* Under the ust lock. */
	enum phase phase;
	bool running;		/* a thread serves this daemon */
	bool lent;		/* the constructor serves it meanwhile (serve_registrations()) */
	bool absent;		/* the constructor's connect found nobody listening */
	int wake_fd;		/* eventfd: new events to report */
	int sock;		/* the connection, or -1 */
	uint64_t sent;		/* events reported on this connection */
	uint64_t msgs_sent;	/* TRACEPOINTS messages sent on it */
	uint64_t msgs_done;	/* REGISTER_DONE received on it */
	size_t loggers_sent;	/* the agent's loggers reported on it */
	/* The thread's own. */
	bool registered;	/* REGISTER_OK received */
	uint32_t minor;		/* then: the daemon's protocol minor */
	/* the last registered connection's end, for the next daemon (GAP) */
	struct ltt_app_gap gap;	/* gone_ns 0: none to say */
	struct ltt_wbuf acks;	/* ACK messages not yet sent whole */
	size_t acks_off;	/* bytes of them already sent */
	size_t ok_ack_end;	/* acks.len after an ACK of status 0 queued last; 0: none */
};

/* ---- comm-cmd.c ---- */

/**
 * ust_comm_cmd_run() - run the command @msg from @d's daemon (CHANNEL_*,
 * EVENT_*, AGENT_RULES, NOTIFIER_*, COUNTER_ADD); called by @d's thread,
 * the ust lock not held.  Takes the fds @msg carries that the command keeps.
 * Returns its ACK status: 0, -EPROTO (a malformed payload, fds where none
 * belong, a command the daemon's minor does not have), -ENOSYS (an unknown
 * type) or the command's own -errno.
 */
int ust_comm_cmd_run(struct daemon *d, struct ltt_msg *msg);

#endif /* LTT_UST_COMM_CMD_H */
