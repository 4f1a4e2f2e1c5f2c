/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lagent-int.h - what the agent thread (lagent.c) and the jobs other
 * threads post to it (lagent-jobs.c) share: the thread's objects, and
 * the few functions of lagent.c the jobs call.  lagent/'s own; nothing
 * outside lagent/ includes it.
 */
#ifndef LTT_SESSIOND_LAGENT_INT_H
#define LTT_SESSIOND_LAGENT_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <urcu/list.h>

#include "common/base/codec.h"
#include "common/base/evloop.h"
#include "common/proto/lagent-proto.h"
#include "sessiond/lagent/lagent.h"

/* One rule as an agent is told it (ENABLE's fields). */
struct key {
	uint32_t domain;
	int32_t loglevel;
	uint32_t loglevel_type;
	char name[LTT_LAGENT_NAME_SIZE];
	char *filter;		/* never NULL: "" for none */
};

/* The rules one session (or the triggers, TRIGGERS_OWNER) wants of the agents. */
struct owner {
	struct cds_list_head node;
	uint64_t session_id;
	/* whose agents it reaches: every user's, or @uid's (ltt_session_reaches()) */
	bool reaches_all;
	uid_t uid;
	size_t nr;
	struct key *keys;
};

/* Does @o's session record the agents of user @uid ((uid_t)-1: not known)? */
static inline bool lagent_owner_reaches(const struct owner *o, uid_t uid)
{
	return o->reaches_all || (uid != (uid_t)-1 && o->uid == uid);
}

struct list_req;
struct sync_wait;

/* A command awaiting the agent's answer. */
struct expect {
	uint32_t cmd;
	struct list_req *req;	/* LIST's: a reference */
	struct sync_wait *wait;	/* an awaited change's ENABLE or DISABLE: a reference */
};

struct conn {
	struct cds_list_head node;
	struct ltt_lagent *lagent;
	int fd;
	struct ltt_evloop_watch *watch;
	struct ltt_evloop_timer *deadline;	/* REGISTER, then each awaited answer */
	uid_t uid;		/* its owner's (/proc/net/tcp); (uid_t)-1: not known */
	unsigned long inode;	/* its peer's socket there; 0: not known */
	bool registered;
	bool pid_claimed;	/* reg.pid not checked: the system can't tell */
	struct ltt_lagent_register reg;
	char procname[17];
	uint8_t *in;
	size_t in_len, in_cap;
	struct ltt_wbuf out;
	size_t out_pos;
	struct expect *exp;
	size_t exp_head, nr_exp, cap_exp;
	struct key *sent;	/* what it holds (ENABLEs not disabled) */
	size_t nr_sent;
};

struct ltt_lagent {
	struct ltt_evloop_server srv;
	char port_file[4096];
	bool removes;		/* the port file at stop (else who wrote it does) */
	unsigned int port;
	struct cds_list_head conns;	/* the thread's */
	unsigned int nr_conns;
	struct cds_list_head owners;	/* the thread's */
	struct sync_wait *wait;		/* the thread's: the change being told, if awaited */
};

/*
 * A change whose agents' answers its command awaits (ltt_lagent_sync_wait()):
 * the caller's reference, one per ENABLE or DISABLE awaited, one while
 * the agent thread tells them.
 */
struct sync_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int refs;	/* under lock */
	bool done;		/* under lock; then err is final */
	unsigned int pending;	/* the thread's: answers still to come, +1 while telling */
	int err;		/* the thread's until done: the first failure's -errno */
};

/* What one user's agents put in a listing, and left out of it. */
struct list_user {
	uid_t uid;
	size_t bytes;
	uint32_t past_agent;	/* names past LTT_LAGENT_AGENT_NAMES */
	uint32_t past_user;	/* names past LTT_LAGENT_USER_LIST_BYTES */
};

/* A listing: the caller's and each awaited LIST's reference. */
struct list_req {
	struct ltt_evloop_job job;
	struct ltt_lagent *lagent;
	uint32_t domain;
	uid_t uid;			/* whose agents: LTT_LIST_EVERY_USER, every user's */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int refs;		/* under lock */
	bool done;			/* under lock; then names are final */
	unsigned int pending;		/* the thread's */
	struct ltt_evloop_timer *timer;	/* the thread's, until done */
	struct ltt_wbuf names;		/* the thread's until done */
	uint32_t count;
	struct list_user *users;	/* the thread's: LTT_LAGENT_USER_LIST_BYTES each */
	size_t nr_users;
	/* the thread's, for the answer being taken */
	const struct conn *from;	/* whose names are being added */
	struct list_user *user;		/* its owner's, NULL: out of memory */
	uint32_t from_names;		/* names it added */
};

/* lagent.c: the agent thread's helpers that the jobs call */

/* Free @nr @keys and their filters; accepts NULL. */
void lagent_keys_free(struct key *keys, size_t nr);

/* Tell every registered agent what the owners' rules now want. */
void lagent_reconcile_all(struct ltt_lagent *lagent);

/* End a listing: its names final, its caller woken. */
void lagent_req_finish(struct list_req *req);

/* Drop a reference to @req; the last frees it. */
void lagent_req_put(struct list_req *req);

/*
 * One awaited answer of @w came (@err: 0, or its failure's -errno) or
 * will never come; the last ends the wait.  Drops the reference it held.
 */
void lagent_wait_answered(struct sync_wait *w, int err);

/* Drop a reference to @w; the last frees it. */
void lagent_wait_put(struct sync_wait *w);

/*
 * Queue @cmd (of @type) to @c and await its answer (@req: LIST's, a
 * reference taken).  0 or -1 (@c closed).
 */
int lagent_conn_send(struct conn *c, const struct ltt_wbuf *cmd, uint32_t type,
		     struct list_req *req);

#endif /* LTT_SESSIOND_LAGENT_INT_H */
