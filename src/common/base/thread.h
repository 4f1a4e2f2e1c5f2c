/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * thread.h - threads that take no signal, and regions no signal handler
 * enters: the one way every daemon and libltt-ust block signals around
 * them.
 */
#ifndef LTT_COMMON_THREAD_H
#define LTT_COMMON_THREAD_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

/**
 * ltt_signals_block_all() - block every signal in the calling thread
 * @old: its mask before, for ltt_signals_restore()
 *
 * Around what a signal handler of this thread must not interrupt (in
 * libltt-ust, a thread's registration, which the handler's own probe
 * would begin again).  Async-signal-safe.
 */
void ltt_signals_block_all(sigset_t *old);

/** ltt_signals_restore() - put back the mask ltt_signals_block_all() saved */
void ltt_signals_restore(const sigset_t *old);

/**
 * ltt_deadline_in() - *@ret: @clock's time @ns nanoseconds from now, the
 * absolute deadline of a timed wait (pthread_cond_timedwait() on a
 * condition of that clock)
 */
void ltt_deadline_in(clockid_t clock, uint64_t ns, struct timespec *ret);

/**
 * ltt_thread_create() - pthread_create() of a thread that takes no signal
 * @ret_thread, @attr, @fn, @arg: as pthread_create()'s
 *
 * The thread starts with every signal blocked (it inherits the mask
 * ltt_signals_block_all() sets around its creation), so signals go to the
 * threads that wait for them (a daemon's signalfd, a program's own
 * threads).  The caller's mask is unchanged.  Returns 0 or -errno.
 */
int ltt_thread_create(pthread_t *ret_thread, const pthread_attr_t *attr,
		      void *(*fn)(void *), void *arg);

/*
 * ltt_cpu_relax() - one turn of a spin wait: the CPU's pause hint where it
 * has one (it lets the sibling hyperthread run and leaves the contended
 * cache line alone for a while), else a compiler barrier.
 */
static inline void ltt_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif /* LTT_COMMON_THREAD_H */
