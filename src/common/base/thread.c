// SPDX-License-Identifier: LGPL-2.1-only
/*
 * thread.c - threads that take no signal, and regions no signal handler
 * enters (thread.h).
 */
#include "common/base/thread.h"

void ltt_signals_block_all(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

void ltt_signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int ltt_thread_create(pthread_t *ret_thread, const pthread_attr_t *attr,
		      void *(*fn)(void *), void *arg)
{
	sigset_t old;
	int ret;

	ltt_signals_block_all(&old);
	ret = pthread_create(ret_thread, attr, fn, arg);
	ltt_signals_restore(&old);
	return -ret;
}

void ltt_deadline_in(clockid_t clock, uint64_t ns, struct timespec *ret)
{
	clock_gettime(clock, ret);
	ret->tv_sec += (time_t)(ns / 1000000000ULL);
	ret->tv_nsec += (long)(ns % 1000000000ULL);
	if (ret->tv_nsec >= 1000000000L) {
		ret->tv_sec++;
		ret->tv_nsec -= 1000000000L;
	}
}
