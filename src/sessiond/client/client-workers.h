/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client-workers.h - the client thread's per-user workers
 * (client-workers.c), and the thread's state they live in, which
 * client.c (connections, requests, run-as jobs), client-notify.c and
 * client-conn.c share; no other file includes it.
 */
#ifndef LTT_SESSIOND_CLIENT_WORKERS_H
#define LTT_SESSIOND_CLIENT_WORKERS_H

#include <stdint.h>
#include <sys/types.h>

#include "common/base/evloop.h"
#include "sessiond/client/client.h"

struct conn;
struct ltt_worker;

/* Workers for the users of ltt_client_thread_run_as() beyond the clients'. */
#define RUN_AS_WORKERS 64

/*
 * A user's worker with no command left is kept this long for the user's
 * next one (lttctl's commands come one connection after the other).
 */
#define WORKER_IDLE_NS (1000ULL * 1000 * 1000)


struct ltt_client_thread {
	struct ltt_client_thread_config cfg;
	struct ltt_evloop_server srv;	/* on cfg.listen_fd */
	/*
	 * One worker per uid with commands under way: a command that waits
	 * for its user's stalled consumer holds that user's commands only.
	 * At most one request per connection is in flight, so the clients
	 * need at most LTT_MAX_CLIENTS; the jobs of ltt_client_thread_run_as()
	 * (triggers' owners) start a worker only while fewer than
	 * RUN_AS_WORKERS run, so the clients always find a slot.
	 */
	struct uid_worker {
		uid_t uid;
		unsigned int jobs;		/* submitted, not yet back */
		uint64_t idle_since;		/* with no job: when the last came back */
		struct ltt_worker *worker;
	} workers[LTT_MAX_CLIENTS + RUN_AS_WORKERS];
	unsigned int nr_workers;
	struct ltt_evloop_timer *idle;	/* stops the workers idle for WORKER_IDLE_NS */
	unsigned int nr_conns;
	struct conn *conns[LTT_MAX_CLIENTS];
	uint8_t skip_buf[65536];	/* where requests over their user's budget are read */
};


/* client-workers.c: the per-user workers */

/**
 * ltt_client_worker_get() - the worker of @uid's commands, started if none
 * runs; NULL when it can't be (no memory, or @max workers run with a
 * job).  Workers kept idle make room for it.  Client thread.
 */
struct uid_worker *ltt_client_worker_get(struct ltt_client_thread *t, uid_t uid,
					  unsigned int max);

/** ltt_client_worker_put_idle() - @w, just started, was not used after all */
void ltt_client_worker_put_idle(struct ltt_client_thread *t, struct uid_worker *w);

/**
 * ltt_client_worker_put() - one command of @uid's done: with the last one,
 * its worker is idle, kept for WORKER_IDLE_NS (stopped at once without
 * the idle timer)
 */
void ltt_client_worker_put(struct ltt_client_thread *t, uid_t uid);

/** ltt_client_workers_idle() - @t's idle timer: stop the workers idle for WORKER_IDLE_NS */
void ltt_client_workers_idle(struct ltt_evloop *loop, void *arg);

#endif /* LTT_SESSIOND_CLIENT_WORKERS_H */
