/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * supervisor.h - one consumer daemon instance of a domain, supervised:
 * spawned on first need, watched, replaced when it dies.  Each domain has
 * its own.
 *
 * A watch thread (an event loop on each consumer's pidfd, started with
 * the first consumer) notices a consumer's exit at once: it reaps it and
 * calls the domain's takeover function, which hands the domain's traces
 * to a new consumer (spawned by ltt_supervisor_get()), but for snapshot
 * traces, which wait for a command (ltt_ctrace_consumer_died()).  A
 * consumer that is only slow is never replaced (consumer.h); one stopped
 * on purpose (exit status 0: SIGTERM) only by the next call that needs its
 * traces.
 *
 * Each spawn has a new generation, so that whoever handed a consumer some
 * files can tell whether the consumer it gets now is still the one that
 * holds them.  A consumer found dead is kept (another thread may still
 * hold its pointer, in calls that now fail at once) until
 * ltt_supervisor_fini().
 *
 * The watch thread also runs the domain's jobs (ltt_supervisor_post()):
 * the calls to this consumer that no other thread may wait for, so a
 * stalled consumer holds its own thread only.
 *
 * Lock: the supervisor's own, taken after the domain's locks and before
 * the consumer's.
 */
#ifndef LTT_SESSIOND_SUPERVISOR_H
#define LTT_SESSIOND_SUPERVISOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/evloop.h"
#include "sessiond/consumer/consumer.h"

#define LTT_SUPERVISOR_MAX_DEAD 64	/* past it, no new consumer: said in the log */
#define LTT_SUPERVISOR_TAKEOVER_ATTEMPTS 3	/* new consumers tried in a row for one takeover */

struct ltt_supervisor_watch;

/*
 * Work for the supervisor's thread (ltt_supervisor_post()): the domain's
 * calls to this consumer that no other thread may wait for.
 */
struct ltt_supervisor_job {
	struct ltt_evloop_job ev;	/* the supervisor's */
	/* on the supervisor's thread, no lock held; releases the job */
	void (*run)(struct ltt_supervisor_job *job);
	/* it will never run (ltt_supervisor_fini()): release it */
	void (*cancel)(struct ltt_supervisor_job *job);
};

struct ltt_supervisor {
	pthread_mutex_t lock;
	const char *what;		/* "user-space", in messages */
	struct ltt_consumer_config cfg;	/* how each consumer is started */
	uid_t uid;			/* the consumer's user, (uid_t)-1: ours */
	gid_t gid;
	struct ltt_consumer *consumer;	/* spawned on first need */
	uint64_t gen;			/* how many were spawned */
	struct ltt_consumer *dead[LTT_SUPERVISOR_MAX_DEAD];
	unsigned int nr_dead;
	void (*takeover)(void *arg);	/* a consumer died: see set_takeover */
	void *takeover_arg;
	bool stopping;			/* fini: no takeover, no new consumer */
	struct ltt_evloop *loop;	/* the watch thread's, once started */
	struct ltt_supervisor_watch *watches;	/* the consumers watched (supervisor.c) */
	pthread_t thread;
	/* the supplementary groups the current consumer got (uid set): */
	gid_t *groups;			/* as the group database gave them at its spawn */
	int nr_groups;			/* -1: unknown (no name, or no memory) */
};

/**
 * ltt_supervisor_init() - no consumer yet
 * @what: the domain, named in messages (borrowed for the supervisor's life)
 * @cfg: how to start each consumer (copied; its path is borrowed for the
 *       supervisor's life)
 */
void ltt_supervisor_init(struct ltt_supervisor *sup, const char *what,
			 const struct ltt_consumer_config *cfg);

/**
 * ltt_supervisor_set_user() - the consumers spawned from now on run as
 * @uid:@gid (ltt_consumer_spawn()); (uid_t)-1 (the default): as we do
 */
void ltt_supervisor_set_user(struct ltt_supervisor *sup, uid_t uid, gid_t gid);

/**
 * ltt_supervisor_set_takeover() - what to call when a consumer dies
 * @fn: called on the watch thread, no lock held, after the dead consumer
 *      was reaped; it takes the domain's locks and calls
 *      ltt_supervisor_get() to have a new consumer continue the traces
 *      (ltt_ctrace_consumer_died() for each)
 * @arg: passed to @fn (borrowed for the supervisor's life)
 */
void ltt_supervisor_set_takeover(struct ltt_supervisor *sup, void (*fn)(void *arg), void *arg);

/**
 * ltt_supervisor_fini() - stop the watch thread (no takeover from then
 * on), stop the consumer (it writes what it holds, within 10 s) and free
 * the dead ones; nobody may use them any more
 */
void ltt_supervisor_fini(struct ltt_supervisor *sup);

/**
 * ltt_supervisor_get() - the consumer, spawned if there is none or the
 * last one died
 * @ret_gen: its generation (0 when none could be spawned)
 *
 * Takes the supervisor's lock.  Returns the consumer (borrowed: valid
 * until ltt_supervisor_fini()) or NULL when none could be spawned (said in
 * the log).
 */
struct ltt_consumer *ltt_supervisor_get(struct ltt_supervisor *sup, uint64_t *ret_gen);

/**
 * ltt_supervisor_current() - the consumer if one runs, never spawned
 * @ret_gen: its generation (0 when there is none)
 *
 * Takes the supervisor's lock.  Returns the consumer (borrowed, as
 * ltt_supervisor_get()'s) or NULL.  For calls about what a consumer holds
 * already (statistics, flushes): a new one would hold nothing.
 */
struct ltt_consumer *ltt_supervisor_current(struct ltt_supervisor *sup, uint64_t *ret_gen);

/**
 * ltt_supervisor_post() - run @job on the supervisor's thread (the one that
 * watches its consumers and runs the takeover), after the jobs posted
 * before it; started if needed.  Any thread, never blocks.
 *
 * Returns 0, or -errno (no thread: @job was not taken).  After fini has
 * begun, @job is cancelled at once (0).
 */
int ltt_supervisor_post(struct ltt_supervisor *sup, struct ltt_supervisor_job *job);

/**
 * ltt_supervisor_retire() - take the current consumer away, unwatched: its
 * exit is not a death, and the next ltt_supervisor_get() spawns another.
 * On the supervisor's thread only (a posted job), when nothing of the
 * domain is in it and nobody holds it.  Returns it, for the caller to
 * ltt_consumer_destroy(), or NULL.
 */
struct ltt_consumer *ltt_supervisor_retire(struct ltt_supervisor *sup);

/**
 * ltt_supervisor_timer_create() - a timer on the supervisor's thread, freed
 * with it (ltt_evloop_timer_create()); from a posted job only
 */
int ltt_supervisor_timer_create(struct ltt_supervisor *sup, ltt_evloop_timer_fn fn, void *arg,
				struct ltt_evloop_timer **ret_timer);

/**
 * ltt_supervisor_watch_fd() - @fn(loop, @fd, events, @arg) on the
 * supervisor's thread when @fd is readable, until the supervisor ends
 * (the caller closes @fd after ltt_supervisor_fini()); from a posted job
 * only.  Returns 0 or -errno.
 */
int ltt_supervisor_watch_fd(struct ltt_supervisor *sup, int fd, ltt_evloop_fd_fn fn, void *arg);

/**
 * ltt_supervisor_groups_changed() - would a consumer spawned now get other
 * supplementary groups than the current one got?  Only for consumers of
 * another user (ltt_supervisor_set_user()); false when none runs.
 * @ret_gen: the generation it looked at, for ltt_supervisor_renew()
 *
 * Reads the group database: any thread, no lock of the domain held.
 */
bool ltt_supervisor_groups_changed(struct ltt_supervisor *sup, uint64_t *ret_gen);

/**
 * ltt_supervisor_renew() - take the current consumer away if it is still
 * generation @gen: it exits on the supervisor's thread (its exit is not a
 * death), and the next ltt_supervisor_get() spawns another.  Any thread,
 * when nothing of the domain is in it and nobody holds it.  Returns 0,
 * -ESTALE (another generation runs), or -errno (not renewed).
 */
int ltt_supervisor_renew(struct ltt_supervisor *sup, uint64_t gen);

/**
 * ltt_supervisor_stalled() - is the current consumer stalled
 * (ltt_consumer_stalled() after @after_ms)?  false when there is none.
 * Takes the supervisor's lock.
 */
bool ltt_supervisor_stalled(struct ltt_supervisor *sup, int after_ms);

/**
 * ltt_supervisor_stall() - ltt_supervisor_stalled(), with since when and
 * which command (ltt_consumer_stall()); not stalled when there is none.
 * Takes the supervisor's lock, never waits for a consumer.
 */
void ltt_supervisor_stall(struct ltt_supervisor *sup, int after_ms,
			  struct ltt_consumer_stall *ret);

/*
 * What a domain does to have consumer @c (generation @gen) continue what
 * it had handed a consumer that died: 0, or -errno (-EPIPE: @c died too).
 */
typedef int (*ltt_supervisor_resume_fn)(void *arg, struct ltt_consumer *c, uint64_t gen);

/**
 * ltt_supervisor_take_over() - the consumer that holds what the caller
 * handed generation @held_gen: that one while it runs; else a new one
 * (ltt_supervisor_get()) that @resume made continue it.  A new consumer
 * that dies before it took over (none could be spawned, or @resume
 * returned -EPIPE) is replaced in turn, LTT_SUPERVISOR_TAKEOVER_ATTEMPTS
 * consumers in all: the one way both domains take their traces over.
 * @ret_gen: the consumer's generation (0 with NULL)
 * @ret_err: with NULL, the last failure (-EPIPE: no consumer)
 *
 * Called with the domain's locks that @resume needs (the session's); takes
 * the supervisor's.  Returns the consumer (borrowed) or NULL.
 */
struct ltt_consumer *ltt_supervisor_take_over(struct ltt_supervisor *sup, uint64_t held_gen,
					      ltt_supervisor_resume_fn resume, void *arg,
					      uint64_t *ret_gen, int *ret_err);

#endif /* LTT_SESSIOND_SUPERVISOR_H */
