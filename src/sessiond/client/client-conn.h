/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client-conn.h - a connection of the client thread (struct conn): what
 * client.c reads into it and writes out of it, what client-notify.c
 * writes to a subscriber; and its state's primitives (client-conn.c).  No
 * other file includes it.
 */
#ifndef LTT_SESSIOND_CLIENT_CONN_H
#define LTT_SESSIOND_CLIENT_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "common/base/evloop.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

#define NS_PER_MS 1000000ULL

struct ltt_client_thread;
struct ltt_lttng_subs;

struct conn {
	struct ltt_client_thread *t;
	int fd;
	struct ltt_evloop_watch *watch;
	struct ucred cred;
	struct ltt_evloop_timer *deadline;	/* armed for the state the connection is in */
	uint64_t hello_by;	/* ns: HELLO by then */
	uint64_t msg_by;	/* ns: the request begun whole by then */
	uint64_t reply_by;	/* ns: the reply taken by then */
	uint64_t idle_since;	/* ns: no request nor reply since */
	bool hello_done;
	uint32_t minor;		/* agreed at HELLO */
	bool busy;		/* its request runs on the worker: not watched meanwhile */
	bool closing;		/* close once the reply is written */
	/* SUBSCRIBE: a notification channel from then on (client-proto.h) */
	bool sub;
	uid_t sub_owner;	/* of the triggers it gets */
	char sub_name[LTT_NAME_MAX];	/* "": every trigger of sub_owner's */
	uint64_t sub_dropped;	/* notifications it missed since its last one */
	struct ltt_lttng_subs *lsubs;	/* LTTng's notification channel: its conditions */
	/* Request being read. */
	uint8_t hdrbuf[LTT_CLIENT_HDR_SIZE];
	size_t hdr_got;
	struct ltt_client_hdr hdr;
	uint8_t *payload;	/* payload_cap bytes */
	size_t payload_cap;
	size_t payload_got;
	uint64_t held;		/* in the user's budget: payload_cap, or the worker's copy */
	bool skipping;		/* over the budget: the request's bytes are read, not kept */
	bool lttng_sized;	/* LTTng's wire: the fixed request read, its variable part sized */
	uint8_t lttng_gen;	/* LTTng's wire: the client's generation (enum ltt_lttng_gen) */
	/* Reply being written. */
	struct ltt_wbuf out;
	size_t out_off;
	/* LTTng's wire: the descriptors its last byte passes (SCM_RIGHTS) */
	struct ltt_lttng_fds out_fds;
};

/* client-conn.c */

/**
 * ltt_client_conn_budget_set() - what @c holds in its user's budget
 * becomes @bytes (ltt_budget_hold(): 0, or -ENOBUFS past the budget);
 * root's connections are not counted.  Client thread.
 */
int ltt_client_conn_budget_set(struct conn *c, uint64_t bytes);

/**
 * ltt_client_conn_destroy() - close @c and free it: its place among @t's
 * connections, its watch, its timer, its bytes in its user's budget given
 * back.  Client thread.
 */
void ltt_client_conn_destroy(struct ltt_client_thread *t, struct conn *c);

/**
 * ltt_client_conn_deadline() - arm the deadline of the state @c is in
 * (none while the worker runs its request, nor for a subscriber).  Client
 * thread.
 */
void ltt_client_conn_deadline(struct conn *c);

/**
 * ltt_client_conn_rearm() - watch @c for input while no reply is pending,
 * for output while one is, for nothing while the worker runs its request;
 * arm the deadline that goes with it.  Client thread.  Returns 0, or
 * epoll's negative errno (then destroy @c).
 */
int ltt_client_conn_rearm(struct conn *c);

#endif /* LTT_SESSIOND_CLIENT_CONN_H */
