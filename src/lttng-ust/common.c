// SPDX-License-Identifier: LGPL-2.1-only
/*
 * common.c - liblttng-ust-common.so.1: what LTTng's other libraries, its
 * helpers and programs built with _LGPL_SOURCE bind here.
 *
 * RCU.  A program built with _LGPL_SOURCE inlines the read side: it loads
 * the thread's reader (the TLS lttng_ust_urcu_reader, registered on first
 * use by lttng_ust_urcu_register()), copies lttng_ust_urcu_gp.ctr into
 * its counter at the outermost lock, adds 1 at a nested one and takes 1
 * away at unlock, with a full fence at both ends while
 * lttng_ust_urcu_has_sys_membarrier is 0.  It is 1 once the library's
 * constructor registered the process for membarrier()'s private expedited
 * command (Linux 4.14): readers then need only a compiler barrier, and
 * the grace period's fences, which pair with theirs, are membarrier()
 * calls, a full barrier on every thread of the process (a fork()ed child
 * inherits the registration).  The counter's low half counts the nesting,
 * bit 32 is the phase.  A grace period flips the phase twice and each time
 * waits until no reader's counter holds a nesting in the old phase: every
 * section begun before it has then ended.
 *
 * The fd tracker.  LTTng's fd helper (liblttng-ust-fd.so, preloaded) sends
 * the program's close() and fclose() here: an fd libltt-ust keeps open
 * (its set, ltt_ust_fd_owned(): sockets, eventfds, stream locks) is left
 * open and the program told EBADF, as if it had not been open; the
 * others are closed.  The check and the close are one step under
 * libltt-ust's fd lock, which it holds while it creates its fds.  The
 * helpers' own fds join the set through lttng_ust_add_fd_to_tracker(),
 * under the lock, and leave it after they are closed, under the lock: a
 * close made by a thread that holds the lock is the tracer's own, never
 * refused.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/membarrier.h>

/*
 * The header's definitions only: no module of tracepoints here, whose
 * constructor would start registering.  This library is loaded by every
 * binary built with LTTng's headers, providers or not (sid's lttng, for
 * its own call sites): as with lttng-ust, only liblttng-ust.so.1 (a
 * program's providers) makes a process register with the daemons.
 */
#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "common/trace/tclock.h"
#include "lttng-ust/lttng-ust.h"

#define GP_COUNT 1UL
#define GP_PHASE (1UL << (sizeof(long) * 4))
#define GP_NEST_MASK (GP_PHASE - 1)

struct gp {
	unsigned long ctr;
} __attribute__((aligned(128)));	/* 128 bytes, copy-relocated by programs */

/* A thread's reader; ctr first: inlined readers use it alone. */
struct reader {
	unsigned long ctr;
	struct reader *next;
	pthread_t tid;
};

LU_EXPORT struct gp lttng_ust_urcu_gp = { .ctr = GP_COUNT };
LU_EXPORT int lttng_ust_urcu_has_sys_membarrier;
LU_EXPORT __thread struct reader *lttng_ust_urcu_reader;
LU_EXPORT void *lttng_ust_get_cpu_sym;
LU_EXPORT void *lttng_ust_trace_clock;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reader *readers;
static pthread_key_t reader_key;
static pthread_once_t reader_key_once = PTHREAD_ONCE_INIT;

static void reader_unlink(struct reader *r)
{
	struct reader **p;

	for (p = &readers; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			return;
		}
	}
}

/* Thread exit: its reader leaves the registry. */
static void reader_exit(void *arg)
{
	struct reader *r = arg;

	pthread_mutex_lock(&registry_lock);
	reader_unlink(r);
	pthread_mutex_unlock(&registry_lock);
	free(r);
}

static void reader_key_init(void)
{
	if (pthread_key_create(&reader_key, reader_exit))
		abort();	/* as a failed allocation in the read side */
}

LU_EXPORT void lttng_ust_urcu_register(void)
{
	struct reader *r;
	sigset_t all, old;

	if (lttng_ust_urcu_reader)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_once(&reader_key_once, reader_key_init);
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();	/* the inlined read side has no failure path */
	r->tid = pthread_self();
	pthread_mutex_lock(&registry_lock);
	r->next = readers;
	readers = r;
	pthread_mutex_unlock(&registry_lock);
	pthread_setspecific(reader_key, r);
	lttng_ust_urcu_reader = r;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Readers fence, or only the writer does (for them, with membarrier()). */
static inline void reader_fence(void)
{
	if (__atomic_load_n(&lttng_ust_urcu_has_sys_membarrier, __ATOMIC_RELAXED))
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	else
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/*
 * The writer's side of reader_fence(): a full barrier here and, with
 * membarrier(), on every running thread of the process.  The command
 * does not fail once registered; if it ever did, readers go back to
 * fencing from their next section, and the writer gives the sections
 * begun without a fence a millisecond to make their counters seen.
 */
static void writer_fence(void)
{
	struct timespec settle = { 0, 1000000 };

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&lttng_ust_urcu_has_sys_membarrier, __ATOMIC_RELAXED) ||
	    !syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
		return;
	lu_debug("membarrier() failed (%s): readers fence from now on", strerror(errno));
	__atomic_store_n(&lttng_ust_urcu_has_sys_membarrier, 0, __ATOMIC_SEQ_CST);
	nanosleep(&settle, NULL);
}

/* Before any reader of this library: readers fence unless this succeeds. */
__attribute__((constructor)) static void membarrier_init(void)
{
	if (!syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
		__atomic_store_n(&lttng_ust_urcu_has_sys_membarrier, 1, __ATOMIC_RELAXED);
}

LU_EXPORT void lttng_ust_urcu_register_thread(void)
{
	lttng_ust_urcu_register();
}

LU_EXPORT void lttng_ust_urcu_read_lock(void)
{
	struct reader *r;
	unsigned long v;

	if (!lttng_ust_urcu_reader)
		lttng_ust_urcu_register();
	r = lttng_ust_urcu_reader;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	v = r->ctr;
	if (!(v & GP_NEST_MASK)) {
		__atomic_store_n(&r->ctr, __atomic_load_n(&lttng_ust_urcu_gp.ctr, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		reader_fence();
	} else {
		__atomic_store_n(&r->ctr, v + GP_COUNT, __ATOMIC_RELAXED);
	}
}

LU_EXPORT void lttng_ust_urcu_read_unlock(void)
{
	struct reader *r = lttng_ust_urcu_reader;

	reader_fence();
	__atomic_store_n(&r->ctr, r->ctr - GP_COUNT, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

LU_EXPORT int lttng_ust_urcu_read_ongoing(void)
{
	if (!lttng_ust_urcu_reader)
		lttng_ust_urcu_register();
	return (lttng_ust_urcu_reader->ctr & GP_NEST_MASK) != 0;
}

/* Is @r inside a section begun in the phase before the current one? */
static bool reader_in_old_phase(const struct reader *r)
{
	unsigned long v = __atomic_load_n(&r->ctr, __ATOMIC_RELAXED);

	return (v & GP_NEST_MASK) && ((v ^ lttng_ust_urcu_gp.ctr) & GP_PHASE);
}

static void wait_old_readers(void)
{
	struct timespec nap = { 0, 10000 };
	struct reader *r;
	unsigned int spins;

	for (r = readers; r; r = r->next) {
		for (spins = 0; reader_in_old_phase(r); spins++) {
			if (spins < 100)
				sched_yield();
			else
				nanosleep(&nap, NULL);
		}
	}
}

LU_EXPORT void lttng_ust_urcu_synchronize_rcu(void)
{
	int i;

	pthread_mutex_lock(&gp_lock);
	pthread_mutex_lock(&registry_lock);
	writer_fence();
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&lttng_ust_urcu_gp.ctr, lttng_ust_urcu_gp.ctr ^ GP_PHASE,
				 __ATOMIC_RELAXED);
		writer_fence();
		wait_old_readers();
		writer_fence();
	}
	pthread_mutex_unlock(&registry_lock);
	pthread_mutex_unlock(&gp_lock);
}

LU_EXPORT void lttng_ust_urcu_before_fork(void)
{
	pthread_mutex_lock(&gp_lock);
	pthread_mutex_lock(&registry_lock);
}

LU_EXPORT void lttng_ust_urcu_after_fork_parent(void)
{
	pthread_mutex_unlock(&registry_lock);
	pthread_mutex_unlock(&gp_lock);
}

/* The child has one thread: the other readers are gone. */
LU_EXPORT void lttng_ust_urcu_after_fork_child(void)
{
	struct reader *r = readers, *next;

	readers = NULL;
	for (; r; r = next) {
		next = r->next;
		if (r == lttng_ust_urcu_reader) {
			r->next = NULL;
			readers = r;
		} else {
			free(r);
		}
	}
	pthread_mutex_unlock(&registry_lock);
	pthread_mutex_unlock(&gp_lock);
}

/* ---- RCU pointer helpers of the non-inlined read side ---- */

LU_EXPORT void *lttng_ust_rcu_dereference_sym(void *p)
{
	return __atomic_load_n(&p, __ATOMIC_CONSUME);
}

LU_EXPORT void *lttng_ust_rcu_set_pointer_sym(void **p, void *v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
	return v;
}

LU_EXPORT void *lttng_ust_rcu_xchg_pointer_sym(void **p, void *v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}

LU_EXPORT void *lttng_ust_rcu_cmpxchg_pointer_sym(void **p, void *old, void *v)
{
	__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/* ---- the fd tracker: libltt-ust's fds stay open ---- */

LU_EXPORT int lttng_ust_add_fd_to_tracker(int fd)
{
	if (fd < 0)
		return fd;
	ltt_ust_fd_own(fd);
	return fd;
}

LU_EXPORT void lttng_ust_delete_fd_from_tracker(int fd)
{
	ltt_ust_fd_disown(fd);
}

LU_EXPORT void lttng_ust_lock_fd_tracker(void)
{
	ltt_ust_fd_lock();
}

LU_EXPORT void lttng_ust_unlock_fd_tracker(void)
{
	ltt_ust_fd_unlock();
}

LU_EXPORT int lttng_ust_safe_close_fd(int fd, int (*close_cb)(int fd))
{
	int ret;

	if (ltt_ust_fd_lock_held())
		return close_cb(fd);	/* the tracer's own */
	ltt_ust_fd_lock();
	if (ltt_ust_fd_owned(fd)) {
		errno = EBADF;
		ret = -1;
	} else {
		ret = close_cb(fd);
	}
	ltt_ust_fd_unlock();
	return ret;
}

LU_EXPORT int lttng_ust_safe_fclose_stream(FILE *stream, int (*fclose_cb)(FILE *stream))
{
	int ret;

	if (ltt_ust_fd_lock_held())
		return fclose_cb(stream);	/* the tracer's own */
	ltt_ust_fd_lock();
	if (stream && ltt_ust_fd_owned(fileno(stream))) {
		errno = EBADF;
		ret = EOF;
	} else {
		ret = fclose_cb(stream);
	}
	ltt_ust_fd_unlock();
	return ret;
}

LU_EXPORT int lttng_ust_safe_closefrom_fd(int lowfd, int (*close_cb)(int fd))
{
	long fd, max = sysconf(_SC_OPEN_MAX);

	if (lowfd < 0) {
		errno = EBADF;
		return -1;
	}
	ltt_ust_fd_lock();
	for (fd = lowfd; fd < max; fd++) {
		if (!ltt_ust_fd_owned((int)fd))
			(void)close_cb((int)fd);	/* EBADF for the fds not open */
	}
	ltt_ust_fd_unlock();
	return 0;
}

/* The fds ltt_ust_fd_owned() may hold: below 65536 (<ltt/tracepoint.h>). */
#define OWNED_FDS_MAX 65536u

/*
 * LTTng-UST 2.16's, for its fd helper's close_range(): the range closed
 * in the parts between the fds the tracer keeps, each by @close_range_cb
 * with @flags.  0, or a positive errno (EINVAL for a range backwards).
 * A @last past INT_MAX means every fd from @first, as the kernel takes
 * it: the usual close_range(3, ~0U, 0) works (LTTng-UST 2.16's answers
 * EINVAL to it).
 */
LU_EXPORT int lttng_ust_safe_close_range_fd(unsigned int first, unsigned int last, int flags,
					    int (*close_range_cb)(unsigned int first,
								  unsigned int last, int flags))
{
	unsigned int fd, from = first;
	int err = 0;

	if (first > last)
		return EINVAL;
	if (last > INT_MAX)
		last = INT_MAX;
	if (first > last)
		return 0;	/* no fd is there */
	if (ltt_ust_fd_lock_held())	/* the tracer's own */
		return close_range_cb(first, last, flags) < 0 ? errno : 0;
	ltt_ust_fd_lock();
	for (fd = first; fd <= last && fd < OWNED_FDS_MAX && !err; fd++) {
		if (!ltt_ust_fd_owned((int)fd))
			continue;
		if (from < fd && close_range_cb(from, fd - 1, flags) < 0)
			err = errno;
		from = fd + 1;
	}
	if (!err && from <= last && close_range_cb(from, last, flags) < 0)
		err = errno;
	ltt_ust_fd_unlock();
	return err;
}

/* ---- cancel state: nested pushes disable once ---- */

static __thread int cancel_depth, cancel_old;

LU_EXPORT int lttng_ust_cancelstate_disable_push(void)
{
	if (cancel_depth++ == 0 && pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_old))
		return -1;
	return 0;
}

LU_EXPORT int lttng_ust_cancelstate_disable_pop(void)
{
	if (cancel_depth == 0)
		return -1;
	if (--cancel_depth == 0 && pthread_setcancelstate(cancel_old, NULL))
		return -1;
	return 0;
}

LU_EXPORT void lttng_ust_common_ctor(void)
{
}

LU_EXPORT void lttng_ust_common_alloc_tls(void)
{
}

/* ---- the getcpu plugin's override; the clock plugin's (common/trace/tclock.h) ---- */

/* a plugin's lttng_ust_getcpu_plugin_init() calls it (liblttng-ust loads the plugin) */
LU_EXPORT int lttng_ust_getcpu_override(int (*getcpu)(void))
{
	ltt_ust_getcpu_set(getcpu);
	return 0;
}

/* a clock plugin's lttng_ust_clock_plugin_init() calls them (liblttng-ust loads it) */
LTT_TCLOCK_PLUGIN_ABI(LU_EXPORT)
