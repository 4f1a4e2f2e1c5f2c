/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * budget.h - bytes a daemon buffers on behalf of each user, within one
 * budget per user: what the session daemon's client and program threads
 * hold of requests and messages still arriving (doc/reliability.md, "No
 * user denies the daemon to others").  The caller decides who is bound
 * (root is not); the budget only counts.
 */
#ifndef LTT_COMMON_BUDGET_H
#define LTT_COMMON_BUDGET_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ltt_budget_user {
	uid_t uid;
	uint64_t bytes;
};

struct ltt_budget {
	pthread_mutex_t lock;
	uint64_t limit;			/* bytes per user */
	struct ltt_budget_user *users;	/* those holding bytes now */
	size_t nr, cap;
};

/** ltt_budget_init() - an empty budget of @limit bytes per user */
void ltt_budget_init(struct ltt_budget *b, uint64_t limit);

/** ltt_budget_fini() - free it; every byte taken must have been given back */
void ltt_budget_fini(struct ltt_budget *b);

/**
 * ltt_budget_hold() - what one holder (a connection) of @uid holds in @b
 * becomes @bytes, if that fits
 * @b: NULL: nothing is counted (an unbound user: root)
 * @held: the holder's count, updated; 0 for a new holder, and brought
 *        back to 0 before the holder goes
 *
 * Any thread.  Giving back always succeeds.  Returns 0, or -ENOBUFS
 * (nothing changed) when @uid would hold more than the limit in all, or
 * -ENOMEM.
 */
int ltt_budget_hold(struct ltt_budget *b, uid_t uid, uint64_t *held, uint64_t bytes);

/** ltt_budget_held() - the bytes @uid holds now; any thread */
uint64_t ltt_budget_held(struct ltt_budget *b, uid_t uid);

#endif /* LTT_COMMON_BUDGET_H */
