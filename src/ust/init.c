// SPDX-License-Identifier: LGPL-2.1-only
/*
 * init.c - libltt-ust's start-up, the modules' entry points, and fork().
 *
 * Registration with the session daemons starts once, with the first module
 * of the program itself when the program is instrumented (its constructors
 * run after those of the libraries it links, so one message reports them
 * all), else with the first module to register.  That call waits until
 * every daemon has either registered (the daemon sent the channels and
 * events of its active sessions, then REGISTER_DONE) or was found absent,
 * at most LTT_UST_REGISTER_TIMEOUT milliseconds, serving the daemons'
 * answers itself before it starts their threads (comm.c,
 * serve_registrations()); where the constructor's own connect found
 * nobody listening, it does not wait for the thread to find the same
 * (comm.c, note_absent()).  A module that
 * comes later (dlopen()) is reported in a TRACEPOINTS message of its own,
 * which the daemon answers with REGISTER_DONE too: its first constructor
 * waits for that the same way.
 *
 * fork(): the child keeps nothing of its parent's tracing (the parent's
 * buffers are not its own, its connections are the parent's): every target
 * is dropped, channels unmapped, notifiers' sockets closed, and the child
 * registers as itself (its daemon gives it notifiers of its own).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#define _LGPL_SOURCE

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/rcu.h"
#include "ust/notify.h"
#include "ust/ust.h"

#define DEFAULT_REGISTER_TIMEOUT_MS 3000
#define MAX_REGISTER_TIMEOUT_MS 3600000

/* Defined (weak) by every instrumented module: see <ltt/tracepoint.h>. */
extern const char ltt_tp_main_marker __attribute__((weak));

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool started;		/* registration triggered: threads running */
static bool exiting;		/* exit() is under way */
static long register_timeout_ms = DEFAULT_REGISTER_TIMEOUT_MS;

/*
 * LTT_UST_REGISTER_TIMEOUT: milliseconds, digits only, capped at
 * MAX_REGISTER_TIMEOUT_MS however many digits; anything else: the default.
 */
static long parse_timeout(const char *text)
{
	long v = 0;

	if (!text || !*text)
		return DEFAULT_REGISTER_TIMEOUT_MS;
	for (; *text; text++) {
		if (*text < '0' || *text > '9')
			return DEFAULT_REGISTER_TIMEOUT_MS;
		if (v <= MAX_REGISTER_TIMEOUT_MS)	/* past it, stay past it */
			v = v * 10 + (*text - '0');
	}
	return v > MAX_REGISTER_TIMEOUT_MS ? MAX_REGISTER_TIMEOUT_MS : v;
}

static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);
static bool program_instrumented(void);

/*
 * exit() ends the other threads wherever they are, a slot half written
 * included.  Stop recording and notifying, then wait until no thread holds
 * a slot: what was committed is whole, and nothing is torn.  (A thread
 * exiting from inside a probe, a signal handler's exit(), cannot wait for
 * itself.)  Then tell each notifier's drops not yet told, a count-only
 * message each, waiting 200 ms at most in all.
 */
static void mark_exiting(void)
{
	__atomic_store_n(&exiting, true, __ATOMIC_RELAXED);
	ust_notifiers_stop();
	ust_lock();
	ust_channels_quiesce();
	ust_unlock();
	if (!ust_rcu_read_ongoing())
		(void)ust_rcu_synchronize();
	ust_lock();
	ust_notifiers_flush_all();
	ust_unlock();
}

static void init(void)
{
	ust_debug_init();
	register_timeout_ms = parse_timeout(getenv("LTT_UST_REGISTER_TIMEOUT"));
	/* while the process likely has one thread: see ust_rcu_init() */
	ust_rcu_init();
	ust_state_init();
	ust_agent_set_kick(ust_comm_kick);
	ust_lock();
	/*
	 * An instrumented program registers with its module's constructor,
	 * which comes right after this one: connected now, the daemon checks
	 * the connection (its time namespace) while the library's own
	 * descriptions are encoded.  Else no registration may ever come: no
	 * connection yet.
	 */
	if (program_instrumented())
		ust_comm_preconnect();
	if (ust_probe_module_register())
		ust_debug("cannot record the library's own tracepoints");
	ust_unlock();
	if (pthread_atfork(fork_prepare, fork_parent, fork_child))
		ust_debug("pthread_atfork failed: a forked child will not be traced");
	/* Runs before the modules' destructors (they are called after atexit handlers). */
	atexit(mark_exiting);
}

static void __attribute__((constructor)) lib_init(void)
{
	pthread_once(&once, init);
}

/* Whether @addr lies in the program itself rather than in a library. */
static bool in_program(const void *addr)
{
	Dl_info obj, prog;
	const void *entry = (const void *)getauxval(AT_ENTRY);

	if (!addr || !entry || !dladdr(addr, &obj) || !dladdr(entry, &prog))
		return false;
	return obj.dli_fbase == prog.dli_fbase;
}

/* The registration's deadline, LTT_UST_REGISTER_TIMEOUT from now, in @ts; NULL: no wait (0). */
static const struct timespec *register_deadline(struct timespec *ts)
{
	if (register_timeout_ms <= 0)
		return NULL;
	ltt_deadline_in(CLOCK_MONOTONIC, (uint64_t)register_timeout_ms * 1000000ULL, ts);
	return ts;
}

/*
 * Wait, until @deadline (NULL: not at all), until every daemon knows
 * every event recorded so far and has enabled what it wants of them, or
 * is found absent.  ust lock held.
 */
static void wait_settled(const struct timespec *deadline)
{
	uint64_t nr_events = ust_registry_nr_events();

	if (ust_comm_settled(nr_events))
		return;
	if (!deadline) {
		ust_debug("registration: not waiting for the session daemons (LTT_UST_REGISTER_TIMEOUT=0): events before they answer are not recorded");
		return;
	}
	ust_debug("registration: waiting for the session daemons, %ld ms from the start at most",
		  register_timeout_ms);
	while (!ust_comm_settled(nr_events)) {
		if (ust_state_wait(deadline) == ETIMEDOUT) {
			ust_debug("registration: gave up after %ld ms (LTT_UST_REGISTER_TIMEOUT): events before the session daemons answer are not recorded",
				  register_timeout_ms);
			break;
		}
	}
}

/*
 * Start registering: connect, start the threads (which wait), serve the
 * registration from this thread until the deadline, then wait for what
 * is left (nothing, or the deadline is past).  ust lock held.
 */
static void start_registration(void)
{
	struct timespec ts;
	const struct timespec *deadline = register_deadline(&ts);

	if (ust_comm_start(deadline))
		ust_debug("no thread to talk to the session daemons: not traced");
	else
		wait_settled(deadline);
}

/* Is the program itself instrumented (its module registers with its constructor)? */
static bool program_instrumented(void)
{
	const char *marker = &ltt_tp_main_marker;

	return marker && in_program(marker);
}

/* Start registering now?  Yes unless the program is instrumented and @anchor is not in it. */
static bool should_start(const void *anchor)
{
	return !program_instrumented() || in_program(anchor);
}

void ltt_ust_register_module(struct ltt_ust_tracepoint *const *start,
			     struct ltt_ust_tracepoint *const *stop, const void *anchor)
{
	int ret;

	pthread_once(&once, init);
	ust_lock();
	ret = ust_registry_add_module(start, stop, false);
	if (ret < 0)
		ust_debug("out of memory: some tracepoints are not registered");
	if (started) {
		/* A module loaded later (dlopen()): report it, wait the same way. */
		if (ret > 0) {
			struct timespec ts;

			ust_comm_kick();
			wait_settled(register_deadline(&ts));
		}
	} else if (should_start(anchor)) {
		started = true;
		start_registration();
	}
	ust_unlock();
}

void ltt_ust_unregister_module(struct ltt_ust_tracepoint *const *start)
{
	/* At exit the tracepoints stay: other threads may record until the end. */
	if (!start || __atomic_load_n(&exiting, __ATOMIC_RELAXED))
		return;
	pthread_once(&once, init);
	ust_lock();
	ust_registry_remove_module(start);
	ust_unlock();
}

/*
 * fork(): the prepare handler holds the ust lock across fork(), so the
 * child's copy of the registry is consistent; rcu.c's handlers do the same
 * for its readers.  The fd lock (fds.c), which is taken under no other,
 * last: a thread creating an fd in the parent must not leave it locked
 * in the child, whose handlers close the parent's fds.
 */
static void fork_prepare(void)
{
	ust_lock();
	ust_agent_fork_prepare();
	ust_rcu_fork_prepare();
	ltt_ust_fd_lock();
}

static void fork_parent(void)
{
	ltt_ust_fd_unlock();
	ust_rcu_fork_parent();
	ust_agent_fork_parent();
	ust_unlock();
}

static void fork_child(void)
{
	ltt_ust_fd_unlock();	/* one thread here: its comm threads will need it */
	ust_rcu_fork_child();
	/* No waiter of the parent exists here: start the condition afresh. */
	ust_state_init();
	ust_registry_fork_child();
	ust_filter_fork_child();
	ust_channels_fork_child();
	ust_notifiers_fork_child();
	ust_ctx_fork_child();
	ust_comm_fork_child();
	ust_agent_fork_child();
	if (started)
		start_registration();
	ust_unlock();
}
