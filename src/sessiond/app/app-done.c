// SPDX-License-Identifier: GPL-2.0-only
/*
 * app-done.c - a TRACEPOINTS message's REGISTER_DONE (app.h): sent once
 * every hold the listener took on it is released, or armed and held up
 * by a stalled consumer; until then the app thread keeps it in its list
 * and sweeps the list on a timer.  The holds are released from any
 * thread: counts and flags are atomic, and the last reference frees it.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "sessiond/app/app.h"

struct ltt_app_done {
	struct ltt_app_done *next;	/* in the thread's list (app thread) */
	struct ltt_app *app;		/* a reference */
	struct ltt_app_done_hold *holds;	/* added by the app thread only */
	unsigned int pending;		/* atomic: holds not released, + the app thread's */
	unsigned int refs;		/* atomic: the same, + the thread's list */
	int sent;			/* atomic: REGISTER_DONE sent */
};

struct ltt_app_done *ltt_app_done_create(struct ltt_app *app)
{
	struct ltt_app_done *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	ltt_app_get(app);
	d->app = app;
	d->pending = 1;
	d->refs = 1;
	return d;
}

static void done_put(struct ltt_app_done *d)
{
	struct ltt_app_done_hold *h, *next;

	if (__atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (h = d->holds; h; h = next) {
		next = h->next;
		free(h);
	}
	ltt_app_put(d->app);
	free(d);
}

/* Answer @d's message, once. */
static void done_send(struct ltt_app_done *d)
{
	if (!__atomic_exchange_n(&d->sent, 1, __ATOMIC_ACQ_REL))
		ltt_app_send(d->app, LTT_APP_MSG_REGISTER_DONE, NULL, NULL, 0, NULL);
}

struct ltt_app_done_hold *ltt_app_done_hold(struct ltt_app_done *d, bool (*stalled)(void *arg),
					    void *arg)
{
	struct ltt_app_done_hold *h;

	if (!d || !(h = calloc(1, sizeof(*h))))
		return NULL;
	h->stalled = stalled;
	h->arg = arg;
	h->next = d->holds;
	d->holds = h;
	__atomic_add_fetch(&d->refs, 1, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&d->pending, 1, __ATOMIC_ACQ_REL);
	return h;
}

void ltt_app_done_arm(struct ltt_app_done_hold *h)
{
	if (h)
		__atomic_store_n(&h->armed, 1, __ATOMIC_RELEASE);
}

void ltt_app_done_release(struct ltt_app_done *d, struct ltt_app_done_hold *h)
{
	if (!h)
		return;
	__atomic_store_n(&h->done, 1, __ATOMIC_RELEASE);
	if (!__atomic_sub_fetch(&d->pending, 1, __ATOMIC_ACQ_REL))
		done_send(d);
	done_put(d);
}

/* Is every hold of @d released, or armed and held up by a stalled consumer? */
static bool done_ready(const struct ltt_app_done *d)
{
	const struct ltt_app_done_hold *h;

	for (h = d->holds; h; h = h->next)
		if (!__atomic_load_n(&h->done, __ATOMIC_ACQUIRE) &&
		    !(__atomic_load_n(&h->armed, __ATOMIC_ACQUIRE) && h->stalled(h->arg)))
			return false;
	return true;
}

bool ltt_app_done_settle(struct ltt_app_done *d)
{
	if (!__atomic_sub_fetch(&d->pending, 1, __ATOMIC_ACQ_REL))
		done_send(d);
	if (!__atomic_load_n(&d->sent, __ATOMIC_ACQUIRE))
		return false;
	done_put(d);
	return true;
}

void ltt_app_done_queue(struct ltt_app_done **list, struct ltt_app_done *d)
{
	d->next = *list;
	*list = d;
}

bool ltt_app_done_sweep(struct ltt_app_done **list)
{
	struct ltt_app_done **p = list, *d;

	while ((d = *p)) {
		/* a program gone needs no answer */
		if (!__atomic_load_n(&d->sent, __ATOMIC_ACQUIRE) &&
		    (d->app->conn == NULL || done_ready(d)))
			done_send(d);
		if (__atomic_load_n(&d->sent, __ATOMIC_ACQUIRE)) {
			*p = d->next;
			done_put(d);
		} else {
			p = &d->next;
		}
	}
	return *list != NULL;
}

void ltt_app_done_drop_all(struct ltt_app_done **list)
{
	struct ltt_app_done *d;

	while ((d = *list)) {
		*list = d->next;
		done_put(d);
	}
}
