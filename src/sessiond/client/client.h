/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client.h - the client thread: accepts connections on client.sock,
 * checks each peer's credentials, frames requests without ever blocking
 * on one client, and runs the commands (cmd.h).  A second one serves
 * LTTng's client socket with --lttng-compat: the same connections,
 * limits and workers, LTTng's framing, its requests translated to the
 * same commands (lttng-compat.h).
 *
 *   client.[ch]          the thread: its sockets, credentials, framing, replies
 *   client-conn.[ch]     a connection's state: budget, deadline, watch, end
 *   client-notify.[ch]   its notification channels (SUBSCRIBE, wait-trigger)
 *   client-workers.[ch]  its per-user workers, and the thread's state
 *   worker.[ch]          a worker: runs the commands that may wait, off the thread
 */
#ifndef LTT_SESSIOND_CLIENT_H
#define LTT_SESSIOND_CLIENT_H

#include <stdbool.h>
#include <sys/types.h>

#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"

#define LTT_MAX_CLIENTS 256
#define LTT_MAX_CLIENTS_PER_UID 64	/* --max-clients-per-uid's default; root is not limited */
#define LTT_MAX_BYTES_PER_UID (32ULL << 20)	/* default budget (cfg.budget); root is not limited */
/*
 * Default idle deadline of a client connection between two requests:
 * lttctl's connections last one command, and libltt-ctl reconnects by
 * itself when it finds its connection closed; so the cap's 64 slots of a
 * user are not held by forgotten connections longer than this.
 */
#define LTT_CLIENT_IDLE_TIMEOUT_S 30
#define LTT_CLIENT_HELLO_TIMEOUT_MS 5000	/* a client must say HELLO by then */
#define LTT_CLIENT_RECV_TIMEOUT_MS 5000	/* a request begun must be whole by then */
#define LTT_CLIENT_SEND_TIMEOUT_MS 10000	/* a reply must be taken by then */
#define LTT_CLIENT_PRE_HELLO_MAX 4096	/* payload bytes of a request before HELLO */

/* What a client thread's connections speak. */
enum ltt_client_wire {
	LTT_CLIENT_WIRE_LTT = 0,	/* ltt's client protocol (client-proto.h) */
	LTT_CLIENT_WIRE_LTTNG,		/* LTTng 2.13's (lttng-compat.h): --lttng-compat */
	LTT_CLIENT_WIRE_LTTNG_NOTIF,	/* LTTng 2.13's notification channel (lttng-compat.h) */
};

struct ltt_client_thread_config {
	int listen_fd;		/* taken: closed by ltt_client_thread_stop() */
	enum ltt_client_wire wire;
	struct ltt_session_registry *registry;	/* borrowed */
	const struct ltt_domains *domains;	/* borrowed */
	bool root_daemon;
	gid_t tracing_gid;	/* root daemon: the group allowed besides root */
	const char *tracing_group;	/* its name, borrowed */
	bool has_tracing_group;
	unsigned int max_per_uid;	/* connections per user, root not limited */
	unsigned int idle_timeout_ms;	/* close a connection idle so long; 0: never */
	struct ltt_triggers *triggers;	/* borrowed: SUBSCRIBE finds the triggers there */
	/* borrowed: the daemon's run directory, where LTTng's SAVE_SESSION reaches its own socket */
	const char *rundir;
	/*
	 * Borrowed, this thread's alone (programs have their own, so a
	 * user's pending requests never refuse its programs' descriptions):
	 * the request bytes a user
	 * (root excepted) may hold at once; a request that would pass it is
	 * read and dropped, and answered CLIENT_BYTES.  NULL: no budget.
	 */
	struct ltt_budget *budget;
	uint64_t health_tag;	/* its loop's heartbeat tag (ltt_evloop_set_tag()); 0: none */
};

#define LTT_CLIENT_SUB_QUEUE_MAX (256U << 10)	/* notification bytes a subscriber may leave unread */

struct ltt_client_thread;

/**
 * ltt_client_thread_start() - start serving clients
 * @cfg: copied
 * @ret_thread: to stop with ltt_client_thread_stop() (NULL on error)
 *
 * Returns 0 or a negative errno; on error the listening socket is closed.
 */
int ltt_client_thread_start(const struct ltt_client_thread_config *cfg,
			    struct ltt_client_thread **ret_thread);

/**
 * ltt_client_thread_stop() - stop the thread, close every connection and
 * free it; accepts NULL.  Called from the thread that started it.
 */
void ltt_client_thread_stop(struct ltt_client_thread *thread);

/* client-notify.c: the notification channels (SUBSCRIBE) */

struct ltt_firing;

/**
 * ltt_client_thread_notify() - write @f's notification to every client
 * subscribed to its trigger (SUBSCRIBE), on the client thread; any thread,
 * never blocks
 * @action: the notify action of @f's trigger that sends it
 * @done: called with @arg on the client thread once @f is no longer
 *        needed (also when the thread stops first)
 *
 * A subscriber whose notifications wait unread past
 * LTT_CLIENT_SUB_QUEUE_MAX bytes gets no more until it reads: each one
 * it misses is counted, in the subscriber's next notification and as a
 * failure of @action (TRIGGER_SUBSCRIBER_BEHIND).
 */
void ltt_client_thread_notify(struct ltt_client_thread *t, struct ltt_firing *f, uint32_t action,
			      void (*done)(void *arg), void *arg);

/**
 * ltt_client_thread_trigger_gone() - trigger @name of @owner was removed:
 * its own subscribers get a last TRIGGER_NOT_FOUND and are closed; any
 * thread, never blocks
 */
void ltt_client_thread_trigger_gone(struct ltt_client_thread *t, uid_t owner, const char *name);

/* client.c */

/**
 * ltt_client_thread_run_as() - run @fn(@arg, 0) on the worker of @uid's
 * commands, after what that worker has already (a trigger's session
 * actions run as commands of its owner: a user whose consumer stalls
 * holds up only their own); any thread, never blocks
 *
 * @fn runs once: on the worker, or with -ENOMEM or -EAGAIN (no worker
 * could be had: 64 workers run already) on the
 * calling or the client thread, or with -ESHUTDOWN on the thread that
 * stops the client thread when it never ran.
 */
void ltt_client_thread_run_as(struct ltt_client_thread *t, uid_t uid,
			      void (*fn)(void *arg, int err), void *arg);

#endif /* LTT_SESSIOND_CLIENT_H */
