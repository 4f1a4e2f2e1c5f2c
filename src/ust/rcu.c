// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rcu.c - the fast path's read-side critical sections, and the grace
 * periods that wait for them (ust.h, "rcu.c", has the reader's side).
 *
 * A reader's whole state is one word of its thread's TLS, ctr: its low
 * half the nesting depth, its high half the phase of the grace period it
 * entered in (UST_RCU_PHASE).  The outermost lock copies the global gp
 * word (the current phase, and a depth of 1); the unlock takes 1 off,
 * which leaves a depth of 0 and a phase that no longer matters.
 * A thread that never recorded is not registered: its word holds
 * UST_RCU_UNREG, a depth no reader reaches, so the inline lock sends it to
 * ust_rcu_lock_slow(), which registers it.  Nested sections (a probe in a
 * signal handler of a thread inside one) go there too.
 *
 * Readers issue no fence.  The grace period makes every reader's CPU
 * execute one instead, with membarrier(2) (MEMBARRIER_CMD_PRIVATE_EXPEDITED:
 * an IPI to each CPU running a thread of ours), before it looks at the
 * readers and after.  Without it (a kernel before 4.14, a seccomp filter),
 * MEMBARRIER_CMD_GLOBAL, and without that a change of a page's protection,
 * whose TLB shootdown interrupts every CPU that may run a thread of ours.
 *
 * The grace period is the classic two-phase one: wait until no reader is
 * inside a section entered in the other phase, flip the phase, wait
 * again.  A reader that loaded gp just before the flip and stored it just
 * after the first wait is caught by the second.
 *
 * Registered readers are in a list, under a mutex that registration,
 * thread exit (a pthread key's destructor unlinks the thread) and grace
 * periods take with every signal blocked: a signal handler that records,
 * on a thread holding the mutex, would otherwise wait for itself.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ust/ust.h"

/* Depth in the low 32 bits, phase above. */
#define NEST_MASK 0xffffffffull

struct reader_link {
	uint64_t *ctr;
	struct reader_link *next;
	struct reader_link **pprev;
};

__thread uint64_t ust_rcu_ctr = UST_RCU_UNREG;
static __thread struct reader_link me;

/* The phase of the current grace period, and a depth of 1. */
uint64_t ust_rcu_gp = 1;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reader_link *readers;	/* registry_lock */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

enum barrier_kind { BARRIER_UNKNOWN, BARRIER_PRIVATE, BARRIER_GLOBAL, BARRIER_MPROTECT };
static enum barrier_kind barrier_kind;	/* registry_lock */
static void *barrier_page;		/* BARRIER_MPROTECT */

static void block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void unregister_locked(void)
{
	if (!me.pprev)
		return;
	*me.pprev = me.next;
	if (me.next)
		me.next->pprev = me.pprev;
	me.next = NULL;
	me.pprev = NULL;
}

/* The thread ends: it leaves the list before its TLS goes. */
static void thread_exit(void *arg)
{
	sigset_t old;

	(void)arg;
	block_signals(&old);
	pthread_mutex_lock(&registry_lock);
	unregister_locked();
	/* a destructor that records after this one registers again */
	__atomic_store_n(&ust_rcu_ctr, UST_RCU_UNREG, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&registry_lock);
	restore_signals(&old);
}

static void exit_key_create(void)
{
	(void)pthread_key_create(&exit_key, thread_exit);
}

void ust_rcu_lock_slow(void)
{
	uint64_t ctr = __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED);
	sigset_t old;

	if (ctr != UST_RCU_UNREG) {
		/* nested (a depth of 1 or more): one deeper, the phase kept */
		__atomic_store_n(&ust_rcu_ctr, ctr + 1, __ATOMIC_RELAXED);
		return;
	}
	pthread_once(&exit_key_once, exit_key_create);
	block_signals(&old);
	pthread_mutex_lock(&registry_lock);
	me.ctr = &ust_rcu_ctr;
	me.next = readers;
	me.pprev = &readers;
	if (readers)
		readers->pprev = &me.next;
	readers = &me;
	__atomic_store_n(&ust_rcu_ctr, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&registry_lock);
	restore_signals(&old);
	(void)pthread_setspecific(exit_key, &me);
	ust_rcu_lock();		/* registered: the inline lock takes it */
}

bool ust_rcu_read_ongoing(void)
{
	uint64_t ctr = __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED);

	return ctr != UST_RCU_UNREG && (ctr & NEST_MASK) != 0;
}

static long membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* Choose how to make every reader's CPU fence; registry_lock held. */
static void barrier_choose(void)
{
	long cmds = membarrier(MEMBARRIER_CMD_QUERY);

	if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0) {
		barrier_kind = BARRIER_PRIVATE;
		return;
	}
	if (cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL)) {
		barrier_kind = BARRIER_GLOBAL;
		return;
	}
	barrier_page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	barrier_kind = BARRIER_MPROTECT;
}

void ust_rcu_init(void)
{
	sigset_t old;

	block_signals(&old);
	pthread_mutex_lock(&registry_lock);
	if (barrier_kind == BARRIER_UNKNOWN)
		barrier_choose();
	pthread_mutex_unlock(&registry_lock);
	restore_signals(&old);
}

/*
 * A full fence on every CPU that runs a thread of ours, this one included;
 * registry_lock held.
 */
static void barrier_all(void)
{
	if (barrier_kind == BARRIER_UNKNOWN)
		barrier_choose();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	switch (barrier_kind) {
	case BARRIER_PRIVATE:
		if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
			break;
		/* refused since (a seccomp filter added): the next way */
		__attribute__((fallthrough));
	case BARRIER_GLOBAL:
		if (membarrier(MEMBARRIER_CMD_GLOBAL) == 0)
			break;
		__attribute__((fallthrough));
	default:
		if (barrier_page != MAP_FAILED && barrier_page) {
			size_t page = (size_t)sysconf(_SC_PAGESIZE);

			/* touched, then made read-only: a TLB shootdown on every CPU */
			*(volatile char *)barrier_page = 1;
			(void)mprotect(barrier_page, page, PROT_READ);
			(void)mprotect(barrier_page, page, PROT_READ | PROT_WRITE);
		}
		break;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Is @r inside a section entered before the current phase? */
static bool in_old_phase(const struct reader_link *r, uint64_t gp)
{
	/* acquire: what the reader did before its unlock happens before us */
	uint64_t ctr = __atomic_load_n(r->ctr, __ATOMIC_ACQUIRE);

	return ctr != UST_RCU_UNREG && (ctr & NEST_MASK) && ((ctr ^ gp) & UST_RCU_PHASE);
}

/* Wait until no registered reader is in the phase before @gp's. */
static void wait_old_readers(uint64_t gp)
{
	const struct timespec nap = { 0, 200000 };	/* 0.2 ms */
	struct reader_link *r;
	unsigned int spins = 0;

	for (r = readers; r; ) {
		if (!in_old_phase(r, gp)) {
			r = r->next;
			continue;
		}
		if (++spins < 1000)
			cpu_relax();
		else
			nanosleep(&nap, NULL);
	}
}

void ust_rcu_synchronize(void)
{
	sigset_t old;
	uint64_t gp;

	block_signals(&old);
	pthread_mutex_lock(&registry_lock);
	barrier_all();
	gp = __atomic_load_n(&ust_rcu_gp, __ATOMIC_RELAXED);
	/*
	 * First, no reader left of the phase before this one: after the
	 * flip, such a reader would look current and not be waited for.
	 */
	wait_old_readers(gp);
	gp ^= UST_RCU_PHASE;
	__atomic_store_n(&ust_rcu_gp, gp, __ATOMIC_SEQ_CST);
	wait_old_readers(gp);
	barrier_all();
	pthread_mutex_unlock(&registry_lock);
	restore_signals(&old);
}

static sigset_t fork_sigmask;	/* the forking thread's, while it holds registry_lock */

void ust_rcu_fork_prepare(void)
{
	sigset_t old;

	block_signals(&old);
	pthread_mutex_lock(&registry_lock);
	fork_sigmask = old;
}

void ust_rcu_fork_parent(void)
{
	sigset_t old = fork_sigmask;

	pthread_mutex_unlock(&registry_lock);
	restore_signals(&old);
}

/* The child: this thread alone, and a private barrier to register again. */
void ust_rcu_fork_child(void)
{
	readers = NULL;
	if (me.pprev) {
		me.next = NULL;
		me.pprev = &readers;
		readers = &me;
	}
	pthread_mutex_init(&registry_lock, NULL);
	/* a new process registers again, while it has this thread alone */
	if (barrier_kind == BARRIER_PRIVATE) {
		barrier_kind = BARRIER_UNKNOWN;
		barrier_choose();
	}
	restore_signals(&fork_sigmask);
}
