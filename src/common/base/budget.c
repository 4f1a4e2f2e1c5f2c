// SPDX-License-Identifier: LGPL-2.1-only
/*
 * budget.c - bytes buffered per user, within a budget (budget.h).
 *
 * A user appears in the array while holding bytes: the array is as long
 * as the number of users with a request or message in flight, a few at
 * most, so a linear search under one mutex is the simple right thing.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "common/base/array.h"
#include "common/base/budget.h"

void ltt_budget_init(struct ltt_budget *b, uint64_t limit)
{
	pthread_mutex_init(&b->lock, NULL);
	b->limit = limit;
	b->users = NULL;
	b->nr = b->cap = 0;
}

void ltt_budget_fini(struct ltt_budget *b)
{
	free(b->users);
	b->users = NULL;
	b->nr = b->cap = 0;
	pthread_mutex_destroy(&b->lock);
}

/* @uid's entry, or NULL; lock held. */
static struct ltt_budget_user *find(struct ltt_budget *b, uid_t uid)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		if (b->users[i].uid == uid)
			return &b->users[i];
	return NULL;
}

/* A new entry for @uid holding @bytes; lock held.  0 or -ENOMEM. */
static int add_user(struct ltt_budget *b, uid_t uid, uint64_t bytes)
{
	struct ltt_budget_user *users = b->users;

	if (b->nr == b->cap) {
		users = ltt_array_grow(b->users, &b->cap, sizeof(*users));
		if (!users)
			return -ENOMEM;
		b->users = users;
	}
	users[b->nr++] = (struct ltt_budget_user){ .uid = uid, .bytes = bytes };
	return 0;
}

static int take(struct ltt_budget *b, uid_t uid, uint64_t bytes)
{
	struct ltt_budget_user *u;
	int ret = 0;

	if (!bytes)
		return 0;
	pthread_mutex_lock(&b->lock);
	u = find(b, uid);
	if (bytes > b->limit - (u ? u->bytes : 0))
		ret = -ENOBUFS;
	else if (u)
		u->bytes += bytes;
	else
		ret = add_user(b, uid, bytes);
	pthread_mutex_unlock(&b->lock);
	return ret;
}

static void give(struct ltt_budget *b, uid_t uid, uint64_t bytes)
{
	struct ltt_budget_user *u;

	if (!bytes)
		return;
	pthread_mutex_lock(&b->lock);
	u = find(b, uid);
	assert(u && u->bytes >= bytes);
	if (u) {
		u->bytes -= u->bytes < bytes ? u->bytes : bytes;
		if (!u->bytes)
			*u = b->users[--b->nr];
	}
	pthread_mutex_unlock(&b->lock);
}

int ltt_budget_hold(struct ltt_budget *b, uid_t uid, uint64_t *held, uint64_t bytes)
{
	int ret;

	if (!b || bytes == *held)
		return 0;
	if (bytes < *held) {
		give(b, uid, *held - bytes);
	} else {
		ret = take(b, uid, bytes - *held);
		if (ret)
			return ret;
	}
	*held = bytes;
	return 0;
}

uint64_t ltt_budget_held(struct ltt_budget *b, uid_t uid)
{
	struct ltt_budget_user *u;
	uint64_t n;

	pthread_mutex_lock(&b->lock);
	u = find(b, uid);
	n = u ? u->bytes : 0;
	pthread_mutex_unlock(&b->lock);
	return n;
}
