// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fds.c - the fds libltt-ust keeps open (its session daemon sockets and
 * their wake-up eventfds, the streams' wake-up eventfds and writer-block
 * locks, the notifiers' sockets), in one set that a program's "close
 * every fd" can ask about: LTTng's fd helper (liblttng-ust-fd.so,
 * preloaded) routes close(), fclose() and closefrom() through
 * liblttng-ust-common's safe-close functions, which leave the fds of
 * this set open (src/lttng-ust/common.c).
 *
 * The set is a bitmap read without a lock.  The fd lock (ltt_ust_fd_lock())
 * makes "create an fd and add it" one step beside "check an fd and close
 * it": libltt-ust takes it around each creation, the safe-close functions
 * around each check and close.  It nests per thread, so that a signal
 * handler that closes an fd while its thread holds the lock does not wait
 * for itself.  Fds received from the daemon (SCM_RIGHTS) are added as
 * soon as the message is read, and a thread's perf counter fds as soon as
 * its probe opened them (no lock in a probe): a program that closes every
 * fd in those microseconds can still close one.
 */
#include <pthread.h>
#include <unistd.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

#define WORD_BITS 64

/*
 * In .lbss, which the link puts after all of .bss: a program's start
 * touches only its first page (the library's fds are low numbers), and
 * the library's variables a start does touch stay together, in two pages
 * of .data and .bss where they were spread over four (bench/README.md).
 */
static uint64_t owned[UST_FDS_MAX / WORD_BITS] __attribute__((section(".lbss.ust_fds")));
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread unsigned int fd_lock_depth;

/*
 * The depth counts before the mutex is taken and after it is released:
 * a signal handler run in between sees the thread as holding the lock.
 */
void ltt_ust_fd_lock(void)
{
	if (__atomic_fetch_add(&fd_lock_depth, 1, __ATOMIC_RELAXED) == 0)
		pthread_mutex_lock(&fd_lock);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void ltt_ust_fd_unlock(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (fd_lock_depth == 1)
		pthread_mutex_unlock(&fd_lock);
	__atomic_fetch_sub(&fd_lock_depth, 1, __ATOMIC_RELAXED);
}

int ltt_ust_fd_lock_held(void)
{
	return fd_lock_depth != 0;
}

int ltt_ust_fd_owned(int fd)
{
	if (fd < 0 || fd >= UST_FDS_MAX)
		return 0;
	return (__atomic_load_n(&owned[fd / WORD_BITS], __ATOMIC_RELAXED) >> (fd % WORD_BITS)) & 1;
}

void ltt_ust_fd_own(int fd)
{
	if (fd < 0)
		return;
	if (fd >= UST_FDS_MAX) {
		ust_debug("fd %d is past the %d ltt keeps from a program's close: the fd helper "
			  "will not keep it open", fd, UST_FDS_MAX);
		return;
	}
	__atomic_fetch_or(&owned[fd / WORD_BITS], UINT64_C(1) << (fd % WORD_BITS),
			  __ATOMIC_RELAXED);
}

void ltt_ust_fd_disown(int fd)
{
	if (fd < 0 || fd >= UST_FDS_MAX)
		return;
	__atomic_fetch_and(&owned[fd / WORD_BITS], ~(UINT64_C(1) << (fd % WORD_BITS)),
			   __ATOMIC_RELAXED);
}

int ust_fd_close(int fd)
{
	int ret;

	if (fd < 0)
		return 0;
	ltt_ust_fd_lock();
	ltt_ust_fd_disown(fd);
	ret = close(fd);
	ltt_ust_fd_unlock();
	return ret;
}
