/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * rcu.h - libltt-ust's read-side critical sections and their grace
 * periods (rcu.c): the readers' fast half inline, for the probes.  The
 * bottom of the library with base.c: it calls no other module.
 */
#ifndef LTT_UST_RCU_H
#define LTT_UST_RCU_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The calling thread's reader word (rcu.c): its depth in the low 31 bits
 * (0 outside a section), UST_RCU_FENCED above them where the readers
 * fence themselves (no membarrier(2)), the phase it entered in above;
 * UST_RCU_UNREG until the thread's first section.  Hidden: no GOT load for
 * the global.
 */
#define UST_RCU_PHASE (1ull << 32)
#define UST_RCU_FENCED 0x80000000ull
#define UST_RCU_UNREG 0xffffffffull
extern __thread uint64_t ust_rcu_ctr __attribute__((visibility("hidden")));
extern uint64_t ust_rcu_gp __attribute__((visibility("hidden")));

/**
 * ust_rcu_lock_slow() - ust_rcu_lock() when nested, for a thread's first
 * section, or where readers fence themselves.  False, with no section
 * entered, for a thread that cannot be registered (no pthread key for the
 * library, or the thread is exiting): the caller records nothing.
 */
bool ust_rcu_lock_slow(void);

/*
 * ust_rcu_lock() - enter a read-side critical section; any thread, signal
 * handlers included (no lock, no system call, but for a thread's first
 * section, which registers it under a mutex with signals blocked: not
 * async-signal-safe if a signal handler's probe is the thread's very
 * first).  What ust_rcu_synchronize() waits for ends at the matching
 * ust_rcu_unlock().  False as ust_rcu_lock_slow().  ust_rcu_try_lock() is
 * its fast half: false, having done nothing, where the caller must call
 * ust_rcu_lock_slow().
 */
static inline __attribute__((always_inline)) bool ust_rcu_try_lock(void)
{
	if (__builtin_expect((uint32_t)__atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED) != 0, 0))
		return false;
	/* the phase, and a depth of 1; the grace period's fences order it */
	__atomic_store_n(&ust_rcu_ctr, __atomic_load_n(&ust_rcu_gp, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return true;
}

static inline __attribute__((always_inline)) bool ust_rcu_lock(void)
{
	return ust_rcu_try_lock() || ust_rcu_lock_slow();
}

/* ust_rcu_unlock() - leave the section (release: our reads come first) */
static inline __attribute__((always_inline)) void ust_rcu_unlock(void)
{
#if defined(__x86_64__)
	/*
	 * One plain decrement of the word in memory, not a load, a
	 * subtraction and a store: only this thread writes it, a signal
	 * handler's section between would have left it as it found it, and
	 * on x86 a store is a release (the clobber keeps the compiler's
	 * accesses of the section before it).
	 */
	__asm__ volatile("subq $1, %0" : "+m"(ust_rcu_ctr) : : "memory");
#else
	__atomic_store_n(&ust_rcu_ctr, __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED) - 1,
			 __ATOMIC_RELEASE);
#endif
}

/**
 * ust_rcu_init() - choose how grace periods make every reader fence, and
 * register for it (membarrier(2)'s private expedited command); create the
 * key that unlinks an exiting thread.  At the library's start, while the
 * process likely has one thread: registering a process with several waits
 * for an RCU grace period of the kernel's (15 ms here).  Later calls do
 * nothing.
 */
void ust_rcu_init(void);

/** ust_rcu_read_ongoing() - is the calling thread inside a section? */
bool ust_rcu_read_ongoing(void);

/**
 * ust_rcu_synchronize() - wait until every read-side critical section
 * that began before the call has ended; not from inside one (it would
 * wait for itself).  Any thread; one at a time.  False when the kernel
 * refused the fences (membarrier(2) denied since the start): nothing then
 * proves that the readers are done, and what the caller would free must
 * be kept.
 */
bool ust_rcu_synchronize(void);

/* fork(): the prepare handler holds the readers' lock across it. */
void ust_rcu_fork_prepare(void);
void ust_rcu_fork_parent(void);
void ust_rcu_fork_child(void);

#endif /* LTT_UST_RCU_H */
