// SPDX-License-Identifier: GPL-2.0-only
/*
 * session-lock.c - a session's two locks (session.h, struct ltt_session):
 * its gate and its state lock, and the waits that give the state lock
 * back (doc/sessiond.md, "Lock order").  Apart from session.c, so that
 * what waits on another thread or process (the kernel thread's callers,
 * the consumer link) links it alone.
 */
#include <assert.h>
#include <pthread.h>

#include "sessiond/model/session.h"

/*
 * The session this thread took with ltt_session_lock(), and how many it
 * holds: a thread that holds two keeps their state locks across a wait
 * (the second was taken in the order; giving the first back would turn
 * it).
 */
static __thread struct ltt_session *held;
static __thread unsigned int nr_held;
/* ltt_session_pin()s under way: the thread holds a lock below the session's. */
static __thread unsigned int nr_pins;
/* The session was tried (the rotation thread's): it never waits to take it back. */
static __thread bool tried;

void ltt_session_lock(struct ltt_session *session)
{
	pthread_mutex_lock(&session->gate);
	pthread_mutex_lock(&session->lock);
	if (!nr_held++)
		held = session;
}

bool ltt_session_trylock(struct ltt_session *session)
{
	if (pthread_mutex_trylock(&session->gate))
		return false;
	if (pthread_mutex_trylock(&session->lock)) {
		pthread_mutex_unlock(&session->gate);
		return false;
	}
	if (!nr_held++) {
		held = session;
		tried = true;
	}
	return true;
}

void ltt_session_unlock(struct ltt_session *session)
{
	assert(nr_held > 0);
	/* the one held first goes: none is given back across a wait from here */
	if (!--nr_held || session == held) {
		held = NULL;
		tried = false;
	}
	pthread_mutex_unlock(&session->lock);
	pthread_mutex_unlock(&session->gate);
}

void ltt_session_lock_state(struct ltt_session *session)
{
	pthread_mutex_lock(&session->lock);
}

bool ltt_session_trylock_state(struct ltt_session *session)
{
	return !pthread_mutex_trylock(&session->lock);
}

void ltt_session_unlock_state(struct ltt_session *session)
{
	pthread_mutex_unlock(&session->lock);
}

void ltt_session_pin(void)
{
	nr_pins++;
}

void ltt_session_unpin(void)
{
	assert(nr_pins > 0);
	nr_pins--;
}

struct ltt_session *ltt_session_wait_begin(void)
{
	if (nr_held != 1 || !held || nr_pins || tried)
		return NULL;
	pthread_mutex_unlock(&held->lock);
	return held;
}

void ltt_session_wait_end(struct ltt_session *session)
{
	if (session)
		pthread_mutex_lock(&session->lock);
}
