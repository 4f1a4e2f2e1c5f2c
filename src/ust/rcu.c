// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rcu.c - the fast path's read-side critical sections, and the grace
 * periods that wait for them (ust.h, "rcu.c", has the reader's side).
 *
 * A reader's whole state is one word of its thread's TLS, ctr: its low
 * half the nesting depth, its high half the phase of the grace period it
 * entered in (UST_RCU_PHASE).  The outermost lock copies the global gp
 * word (the current phase, and a depth of 1); the unlock takes 1 off,
 * which leaves a depth of 0 and a phase that no longer matters.  A thread
 * that never recorded is not registered: its word holds UST_RCU_UNREG, a
 * depth no reader reaches, so the inline lock sends it to
 * ust_rcu_lock_slow(), which registers it.  Nested sections (a probe in a
 * signal handler of a thread inside one) go there too.
 *
 * Readers issue no fence.  The grace period makes every reader's CPU
 * execute one instead, with membarrier(2) (MEMBARRIER_CMD_PRIVATE_EXPEDITED:
 * an IPI to each CPU running a thread of ours; else MEMBARRIER_CMD_GLOBAL),
 * before it looks at the readers and after.  Where the kernel offers
 * neither at the library's start (before Linux 4.3, or a seccomp filter),
 * the readers fence themselves: every idle word then carries
 * UST_RCU_FENCED, which the inline lock never takes, and the slow lock
 * adds a full fence.  A grace period whose membarrier fails later (a
 * filter installed since) reports that it could not wait, and its caller
 * keeps what it would have freed.
 *
 * The grace period is the classic two-phase one: wait until no reader is
 * inside a section entered in the other phase, flip the phase, wait
 * again.  A reader that loaded gp just before the flip and stored it just
 * after the first wait is caught by the second.
 *
 * Registered readers are in a list under registry_lock, which
 * registration, thread exit (a pthread key's destructor unlinks the
 * thread) and each pass of a grace period's scan take with every signal
 * blocked (a signal handler that records, on a thread holding the mutex,
 * would otherwise wait for itself).  A grace period never sleeps with it:
 * gp_lock alone serializes grace periods, so a reader that exits, or a
 * thread's first section, never waits for one.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/base/thread.h"
#include "ust/rcu.h"

/* Depth in the low 31 bits (UST_RCU_FENCED above them), phase above. */
#define DEPTH_MASK 0x7fffffffull

struct reader_link {
	uint64_t *ctr;
	struct reader_link *next;
	struct reader_link **pprev;
};

__thread uint64_t ust_rcu_ctr = UST_RCU_UNREG;
static __thread struct reader_link me;
/* thread_exit() ran: a later destructor's probe must not register again */
static __thread bool gone;

/* The phase of the current grace period, and a depth of 1. */
uint64_t ust_rcu_gp = 1;

static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reader_link *readers;	/* registry_lock */
static pthread_key_t exit_key;
static bool exit_key_ok;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

enum barrier_kind { BARRIER_PRIVATE, BARRIER_GLOBAL, BARRIER_READERS };
static enum barrier_kind barrier_kind;	/* set once, by init_once (and a child) */
/* the idle word of a registered reader: 0, or UST_RCU_FENCED */
static uint64_t idle_word;

static long membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* How grace periods make every reader fence; registers for it. */
static void barrier_choose(void)
{
	long cmds = membarrier(MEMBARRIER_CMD_QUERY);

	if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
		barrier_kind = BARRIER_PRIVATE;
	else if (cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL))
		barrier_kind = BARRIER_GLOBAL;
	else
		barrier_kind = BARRIER_READERS;
	idle_word = barrier_kind == BARRIER_READERS ? UST_RCU_FENCED : 0;
}

/* The thread ends: it leaves the list before its TLS goes. */
static void thread_exit(void *arg)
{
	sigset_t old;

	(void)arg;
	ltt_signals_block_all(&old);
	pthread_mutex_lock(&registry_lock);
	if (me.pprev) {
		*me.pprev = me.next;
		if (me.next)
			me.next->pprev = me.pprev;
		me.next = NULL;
		me.pprev = NULL;
	}
	gone = true;
	__atomic_store_n(&ust_rcu_ctr, UST_RCU_UNREG, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&registry_lock);
	ltt_signals_restore(&old);
}

static void init(void)
{
	exit_key_ok = pthread_key_create(&exit_key, thread_exit) == 0;
	barrier_choose();
}

void ust_rcu_init(void)
{
	pthread_once(&init_once, init);
}

/*
 * Link the calling thread into the list, once: a signal handler may have
 * registered it between the caller's test and here.  False when it
 * cannot be (no key to unlink it at its exit, or it already exited).
 */
static bool register_me(void)
{
	sigset_t old;
	bool ok;

	ust_rcu_init();
	if (!exit_key_ok || gone)
		return false;
	ltt_signals_block_all(&old);
	pthread_mutex_lock(&registry_lock);
	/* the key first: a thread its destructor would not unlink stays out */
	ok = me.pprev || pthread_setspecific(exit_key, &me) == 0;
	if (ok && !me.pprev) {
		me.ctr = &ust_rcu_ctr;
		me.next = readers;
		me.pprev = &readers;
		if (readers)
			readers->pprev = &me.next;
		readers = &me;
		__atomic_store_n(&ust_rcu_ctr, idle_word, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&registry_lock);
	ltt_signals_restore(&old);
	return ok;
}

bool ust_rcu_lock_slow(void)
{
	uint64_t ctr = __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED);

	if (ctr == UST_RCU_UNREG) {
		if (!register_me())
			return false;
		ctr = __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED);
	}
	if (ctr & DEPTH_MASK) {
		/* nested: one deeper, the phase kept */
		__atomic_store_n(&ust_rcu_ctr, ctr + 1, __ATOMIC_RELAXED);
		return true;
	}
	if (!(ctr & UST_RCU_FENCED)) {
		ust_rcu_lock();		/* registered: the inline lock takes it */
		return true;
	}
	/* no membarrier: the phase, a depth of 1, then a fence of our own */
	__atomic_store_n(&ust_rcu_ctr, __atomic_load_n(&ust_rcu_gp, __ATOMIC_RELAXED) |
			 UST_RCU_FENCED, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return true;
}

bool ust_rcu_read_ongoing(void)
{
	uint64_t ctr = __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED);

	return ctr != UST_RCU_UNREG && (ctr & DEPTH_MASK) != 0;
}

/*
 * A full fence on every CPU that runs a thread of ours, this one
 * included; false when the kernel refused it (a seccomp filter installed
 * since the start).  With BARRIER_READERS the readers fence themselves.
 */
static bool barrier_all(void)
{
	bool ok = true;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (barrier_kind == BARRIER_PRIVATE)
		ok = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ||
		     membarrier(MEMBARRIER_CMD_GLOBAL) == 0;
	else if (barrier_kind == BARRIER_GLOBAL)
		ok = membarrier(MEMBARRIER_CMD_GLOBAL) == 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return ok;
}

/* Is the reader word @ctr inside a section entered before @gp's phase? */
static bool in_old_phase(uint64_t ctr, uint64_t gp)
{
	return ctr != UST_RCU_UNREG && (ctr & DEPTH_MASK) && ((ctr ^ gp) & UST_RCU_PHASE);
}

/* One pass over the list: is any reader still in the phase before @gp's? */
static bool old_reader_left(uint64_t gp)
{
	const struct reader_link *r;
	bool left = false;
	sigset_t old;

	ltt_signals_block_all(&old);
	pthread_mutex_lock(&registry_lock);
	/* acquire: what a reader did before its unlock happens before us */
	for (r = readers; r && !left; r = r->next)
		left = in_old_phase(__atomic_load_n(r->ctr, __ATOMIC_ACQUIRE), gp);
	pthread_mutex_unlock(&registry_lock);
	ltt_signals_restore(&old);
	return left;
}

/*
 * Wait until no registered reader is in the phase before @gp's.  Each
 * pass takes the list's lock alone, and starts from its head: a reader
 * registered since began after the grace period, or is in its phase.
 */
static void wait_old_readers(uint64_t gp)
{
	const struct timespec nap = { 0, 200000 };	/* 0.2 ms */
	unsigned int passes = 0;

	while (old_reader_left(gp)) {
		if (++passes < 100)
			ltt_cpu_relax();
		else
			nanosleep(&nap, NULL);
	}
}

/*
 * Is a thread other than this one registered?  One that is not cannot
 * be inside a section: it registers under registry_lock, after this
 * pass released it, and so sees all that the caller did before the
 * grace period.  A program whose other threads never recorded (most
 * exits, a short program's) then waits for nothing: no membarrier, whose
 * IPIs cost 50 to 100 µs a call on a virtual machine.
 */
static bool others_registered(void)
{
	sigset_t old;
	bool others;

	ltt_signals_block_all(&old);
	pthread_mutex_lock(&registry_lock);
	others = readers && (readers != &me || me.next);
	pthread_mutex_unlock(&registry_lock);
	ltt_signals_restore(&old);
	return others;
}

bool ust_rcu_synchronize(void)
{
	uint64_t gp;
	bool ok;

	ust_rcu_init();
	pthread_mutex_lock(&gp_lock);
	if (!others_registered()) {
		pthread_mutex_unlock(&gp_lock);
		return true;
	}
	ok = barrier_all();
	gp = __atomic_load_n(&ust_rcu_gp, __ATOMIC_RELAXED);
	/*
	 * First, no reader left of the phase before this one: after the
	 * flip, such a reader would look current and not be waited for.
	 */
	wait_old_readers(gp);
	gp ^= UST_RCU_PHASE;
	__atomic_store_n(&ust_rcu_gp, gp, __ATOMIC_SEQ_CST);
	wait_old_readers(gp);
	ok = barrier_all() && ok;
	pthread_mutex_unlock(&gp_lock);
	return ok;
}

static sigset_t fork_sigmask;	/* the forking thread's, while it holds the locks */

void ust_rcu_fork_prepare(void)
{
	sigset_t old;

	ust_rcu_init();
	pthread_mutex_lock(&gp_lock);
	ltt_signals_block_all(&old);
	pthread_mutex_lock(&registry_lock);
	fork_sigmask = old;
}

void ust_rcu_fork_parent(void)
{
	sigset_t old = fork_sigmask;

	pthread_mutex_unlock(&registry_lock);
	ltt_signals_restore(&old);
	pthread_mutex_unlock(&gp_lock);
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
	pthread_mutex_init(&gp_lock, NULL);
	/* a new process registers again, while it has this thread alone */
	if (barrier_kind == BARRIER_PRIVATE) {
		barrier_choose();
		/*
		 * Refused here: this thread fences itself from now on, also
		 * when it forked inside a section (a signal handler's probe):
		 * the bit outlives its unlock, and its next lock, seeing it,
		 * takes the slow path and fences.
		 */
		if (me.pprev)
			__atomic_store_n(&ust_rcu_ctr, ust_rcu_ctr | idle_word, __ATOMIC_RELAXED);
	}
	ltt_signals_restore(&fork_sigmask);
}
