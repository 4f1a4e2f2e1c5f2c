/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * consumer-call.h - inside the consumer link, for consumer*.c only: the
 * consumer object and the one call every command goes through
 * (consumer-call.c), with what each command's call may ask for.
 */
#ifndef LTT_SESSIOND_CONSUMER_CALL_H
#define LTT_SESSIOND_CONSUMER_CALL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "sessiond/consumer/consumer.h"

/* A consumer daemon and its command socket (consumer-proc.c spawns it). */
struct ltt_consumer {
	pthread_mutex_t lock;	/* leaf: one command at a time */
	int fd;			/* command socket, -1 once dead */
	pid_t pid;
	int pidfd;		/* readable once the process exits; -1 if none */
	uint32_t seq;
	uint32_t minor;		/* agreed at HELLO */
	uint32_t owed;		/* replies to commands that timed out, still to come */
	/* The last command that timed out, when it adds something (0: none). */
	uint16_t late_type;
	uint32_t late_seq;
	uint64_t late_key;
	/* What a late ADD_* that succeeded left behind: to destroy (0: none). */
	uint16_t undo_type;
	uint64_t undo_key;
	bool sent;		/* the last call's message went out (whole) */
	uint64_t busy_since_ms;	/* atomic: when the call under way began, 0: none */
	uint16_t busy_type;	/* atomic: its command */
	/* Atomic: when the oldest command whose reply is owed began (0: none), and which. */
	uint64_t owed_since_ms;
	uint16_t owed_type;
	/* Atomic: events of traces ended while it still held them unwritten. */
	uint64_t unwritten;
	unsigned int reply_ms;	/* a bookkeeping command's deadline (its config's) */
	bool remote;		/* spawned by the privileged part, killed through it */
	bool stopped;		/* reaped: it exited with status 0 (stopped on SIGTERM) */
};

/*
 * What a call may ask for besides the lock and its reply (its flags):
 * LTT_CALL_TRY: never wait: -EBUSY when another call holds the consumer,
 *   -ETIMEDOUT at once (no grace, no log) when it still owes replies;
 * LTT_CALL_UNSENT_AGAIN: -EAGAIN when nothing of it was sent (then the
 *   consumer's own -EAGAIN becomes -EIO);
 * LTT_CALL_SENT_INPROGRESS: -EINPROGRESS when it was sent whole and not
 *   answered in time (the consumer carries it out once it runs).
 */
#define LTT_CALL_TRY (1u << 0)
#define LTT_CALL_UNSENT_AGAIN (1u << 1)
#define LTT_CALL_SENT_INPROGRESS (1u << 2)

/*
 * One command to the consumer, as ltt_consumer_call() makes it: every
 * command goes through it, with these differences only.
 */
struct ltt_consumer_call {
	uint16_t type;
	struct ltt_wbuf req;	/* its payload, put by the caller; the call empties it */
	const int *fds;		/* borrowed */
	unsigned int nr_fds;
	int timeout_ms;		/* the reply's deadline; 0: the type's (5, 15 or 30 s) */
	unsigned int flags;	/* LTT_CALL_* */
	uint32_t minor;		/* the consumer's minor it needs, else -EOPNOTSUPP */
	uint64_t key;		/* what an ADD_TRACE or ADD_CHANNEL adds: undone if it
				 * succeeds after it timed out */
	/* A reply beyond the status: read whole (its status, 0, included) into @out. */
	int (*decode)(struct ltt_rbuf *r, void *out);
	void *out;
};

/**
 * ltt_consumer_call() - the one way to call the consumer: send @k, wait
 * for its reply, decode what follows its status
 * @c: the consumer
 * @k: the command; its req is emptied
 *
 * Takes the consumer's lock (or, LTT_CALL_TRY, fails with -EBUSY when
 * it is held).  Returns 0, the consumer's negative errno, -EOPNOTSUPP
 * (the consumer's minor is below @k->minor), -EPIPE (gone), -ETIMEDOUT
 * (stalled: not answered in time, or still owing an earlier reply),
 * -EPROTO, or what @k->flags ask for.
 */
int ltt_consumer_call(struct ltt_consumer *c, struct ltt_consumer_call *k);

/* A decode's first step when it reads only what follows the status. */
static inline int ltt_consumer_call_skip_status(struct ltt_rbuf *r)
{
	int32_t status;

	return ltt_consumer_get_status(r, &status);
}

/*
 * ltt_consumer_kill() - SIGKILL it: ourselves, or through the privileged
 * part (CONSUMER_KILL) when that spawned it (it may run as a user we
 * can't signal once we are not root)
 */
void ltt_consumer_kill(struct ltt_consumer *c);

#endif /* LTT_SESSIOND_CONSUMER_CALL_H */
