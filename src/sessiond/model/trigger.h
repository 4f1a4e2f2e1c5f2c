/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trigger.h - the daemon's triggers (trigger.c): what each user added, the
 * counters, and the one place a condition that held is turned into the
 * actions to run (rate policies).
 *
 * The registry holds the triggers of every user; a user's names are their
 * own namespace.  A trigger never changes once added (its conf, its rule);
 * only its counters do, under the registry's lock.  References keep a
 * trigger alive after its removal for whoever still holds it (a firing on
 * its way, a program being told about it).
 *
 * Who evaluates what: the programs evaluate event-rule-matches (the
 * user-space domain gives each a notifier: ust-trigger.c), the chunk layer
 * the rotation conditions, and at each tick of its schedule the level
 * conditions: session-consumed-size-ge and channel-buffer-usage-ge/-le
 * (the domain reads its buffers' fill: channel_usage).  Each calls
 * ltt_triggers_fire(), which counts, applies each action's rate policy
 * and hands the firing to the hooks (the daemon's trigger runner, above
 * every layer: src/sessiond/daemon/triggers.c), never blocking.
 *
 * Lock order: the registry's lock is a leaf: no other lock is taken
 * under it and no hook is called with it held.
 */
#ifndef LTT_SESSIOND_MODEL_TRIGGER_H
#define LTT_SESSIOND_MODEL_TRIGGER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <urcu/list.h>

#include "common/model/trigger.h"
#include "common/proto/app-proto.h"
#include "sessiond/model/session.h"

#define LTT_TRIGGERS_MAX_PER_UID 256	/* default of ltt-sessiond --max-triggers-per-uid */
#define LTT_TRIGGERS_MAX 4096		/* of all users together */

struct ltt_trigger {
	struct cds_list_head node;	/* in the registry's list */
	unsigned int refs;		/* under the registry's lock */
	bool removed;
	uint64_t key;			/* LTT_APP_NOTIFIER_KEY_BIT | a number never reused */
	uid_t owner;
	struct ltt_trigger_conf conf;	/* name and owner resolved */
	/*
	 * EVENT_RULE_MATCHES: the rule as a channel of one rule, so that
	 * rule-filter.c matches it against programs' events and compiles
	 * its filter as it does a channel's.
	 */
	struct ltt_channel chan;
	struct ltt_event_rule rule;
	/* Under the registry's lock. */
	uint64_t fired;
	uint64_t dropped;
	uint64_t runs[LTT_TRIGGER_MAX_ACTIONS];
	uint64_t failures[LTT_TRIGGER_MAX_ACTIONS];
	int32_t last_error[LTT_TRIGGER_MAX_ACTIONS];
	/* runs of each action waiting for the consumer, and since when (0: none) */
	uint32_t pending[LTT_TRIGGER_MAX_ACTIONS];
	int64_t pending_since;		/* seconds since the Epoch: the first of them */
	bool held;			/* a level condition: held at the last look */
};

/* One time a condition held, on its way to the runner. */
struct ltt_firing {
	struct ltt_trigger *trigger;	/* a reference */
	uint32_t run;			/* bit i: action i runs (its rate policy says so) */
	struct ltt_notif_desc n;	/* strings point into @trigger and the arrays below */
	char session[LTT_NAME_MAX];
	char event[LTT_APP_NAME_MAX];
	char path[LTT_PATH_MAX];
	char strings[LTT_APP_NOTIFY_MAX];	/* the captured strings and arrays' elements */
	uint64_t capacity;		/* BUFFER_USAGE_*: the channel's bytes (LTTng's evaluation) */
};

/* What the daemon's trigger runner is told; any thread, no lock held. */
struct ltt_trigger_hooks {
	/* @f is taken: free it with ltt_firing_free() */
	void (*fired)(void *arg, struct ltt_firing *f);
	/* @t was removed (a reference is held for the call) */
	void (*removed)(void *arg, struct ltt_trigger *t);
	void *arg;
};

/* Error counter slots of each domain, as LTTng's daemon sizes them (its default). */
#define LTT_TRIGGER_RULE_SLOTS 4096
#define LTT_TRIGGER_RULE_SLOTS_MAX 65534	/* LTTng's largest */

struct ltt_triggers {
	pthread_mutex_t lock;
	struct cds_list_head list;	/* by order of addition */
	unsigned int nr;
	unsigned int max_per_uid;
	/*
	 * Event-rule-matches triggers of the kernel ([0]) and of user space
	 * ([1]: its agents' domains too), all users together, at most: the
	 * error counter slots of LTTng's --event-notifier-error-buffer-size-
	 * kernel and -userspace, one a trigger.  Set before any command.
	 */
	unsigned int rule_slots[2];
	uint64_t next_key;
	uint64_t generation;		/* bumped by each add and remove */
	struct ltt_trigger_hooks hooks;	/* set once, before any command */
	/*
	 * Optional, set once before any command: called before a list, so
	 * that the counters count what reached the daemon already (the app
	 * thread's ltt_app_thread_sync()).  No lock held.
	 */
	void (*sync)(void *arg);
	void *sync_arg;
};

/* trigger.c: the triggers, their counters, firing them */

/** ltt_triggers_init() - no trigger; @max_per_uid 0: the default */
void ltt_triggers_init(struct ltt_triggers *trs, unsigned int max_per_uid);

/** ltt_triggers_fini() - drop every trigger; no other thread may use @trs */
void ltt_triggers_fini(struct ltt_triggers *trs);

/**
 * ltt_triggers_add() - add trigger @c (checked by ltt_trigger_check())
 * for @owner; an empty name gets the first free "triggerN"
 * @ret_name: LTT_NAME_MAX bytes: the name it got
 *
 * Returns 0, -EEXIST (the owner has a trigger of that name), -EDQUOT
 * (the owner has max_per_uid), -ENOSPC (LTT_TRIGGERS_MAX in all),
 * -EMLINK (an event-rule-matches trigger: its domain's rule_slots are
 * taken), -EINVAL (its filter does not parse) or -ENOMEM.
 */
int ltt_triggers_add(struct ltt_triggers *trs, const struct ltt_trigger_conf *c, uid_t owner,
		     char *ret_name);

/**
 * ltt_triggers_find() - a reference to @uid's trigger @name, or for root,
 * if it has none, the only one of that name; NULL if none (or several)
 */
struct ltt_trigger *ltt_triggers_find(struct ltt_triggers *trs, const char *name, uid_t uid);

/**
 * ltt_triggers_find_key() - a reference to the trigger of notifier key
 * @key, NULL if none (removed: it fires no more)
 */
struct ltt_trigger *ltt_triggers_find_key(struct ltt_triggers *trs, uint64_t key);

/** ltt_triggers_put() - drop a reference; accepts NULL */
void ltt_triggers_put(struct ltt_triggers *trs, struct ltt_trigger *t);

/** ltt_triggers_get() - one more reference to @t (one is held) */
void ltt_triggers_get(struct ltt_triggers *trs, struct ltt_trigger *t);

/**
 * ltt_triggers_remove() - remove @uid's trigger @name (as
 * ltt_triggers_find() finds it): it fires no more, and the removed hook
 * runs.  Returns 0 or -ENOENT.
 */
int ltt_triggers_remove(struct ltt_triggers *trs, const char *name, uid_t uid);

/**
 * ltt_triggers_list() - the triggers @uid sees (its own; root: all), by
 * name, with their counters
 * @ret: a heap array (free() it), NULL when @ret_n is 0
 *
 * Returns 0 or -ENOMEM.
 */
int ltt_triggers_list(struct ltt_triggers *trs, uid_t uid, struct ltt_trigger_desc **ret,
		      size_t *ret_n);

/**
 * ltt_triggers_select() - references to the triggers of condition @cond
 * (and, when @domain is not 0, of that domain), in order of addition
 * @ret: a heap array; release with ltt_triggers_put_all()
 *
 * Returns how many, 0 also when there is no memory.
 */
size_t ltt_triggers_select(struct ltt_triggers *trs, uint32_t cond, uint32_t domain,
			   struct ltt_trigger ***ret);

/** ltt_triggers_put_all() - drop the references of ltt_triggers_select()'s array and free it */
void ltt_triggers_put_all(struct ltt_triggers *trs, struct ltt_trigger **v, size_t n);

/** ltt_triggers_has_key() - is @key one of the @n triggers @v's (ltt_triggers_select())? */
bool ltt_triggers_has_key(struct ltt_trigger *const *v, size_t n, uint64_t key);

/** ltt_triggers_generation() - changes with each add and remove */
uint64_t ltt_triggers_generation(struct ltt_triggers *trs);

/**
 * ltt_firing_new() - a firing of @t (a reference taken) with its
 * notification's trigger and condition set; NULL without memory
 */
struct ltt_firing *ltt_firing_new(struct ltt_triggers *trs, struct ltt_trigger *t);

/** ltt_firing_free() - free @f and drop its reference; accepts NULL */
void ltt_firing_free(struct ltt_triggers *trs, struct ltt_firing *f);

/**
 * ltt_triggers_fire() - @f's condition held: count it (and @dropped,
 * notifications lost before it), number it, decide which actions run and
 * hand it to the fired hook (taken, always: freed when the trigger was
 * removed or no action runs).  Any thread, no lock held.
 */
void ltt_triggers_fire(struct ltt_triggers *trs, struct ltt_firing *f, uint64_t dropped);

/**
 * ltt_triggers_count_dropped() - @n notifications of @t lost before its
 * condition was evaluated (the tracer's, the reader's): never a firing
 * ltt_triggers_fire() counted, so fired + dropped = the matches
 */
void ltt_triggers_count_dropped(struct ltt_triggers *trs, struct ltt_trigger *t, uint64_t n);

/**
 * ltt_triggers_firing_lost() - @f was counted fired, and the daemon could
 * not take it further (no room, no memory): each action it was to run
 * is counted failed with @err.  Takes @trs->lock: any thread, not under it.
 */
void ltt_triggers_firing_lost(struct ltt_triggers *trs, const struct ltt_firing *f, int err);

/** ltt_triggers_action_done() - action @i of @t ran: 0 or its ltt error code */
void ltt_triggers_action_done(struct ltt_triggers *trs, struct ltt_trigger *t, uint32_t i,
			      int err);

/**
 * ltt_triggers_action_pending() - a run of action @i of @t begins
 * (@pending) or ends waiting for its consumer: counted, and the time the
 * trigger's first waiting run began kept, for list-triggers.  Returns
 * false (nothing counted) when @pending and @t was removed, else true.
 */
bool ltt_triggers_action_pending(struct ltt_triggers *trs, struct ltt_trigger *t, uint32_t i,
				 bool pending);

/** ltt_triggers_removed() - was @t removed (a reference is held)? */
bool ltt_triggers_removed(struct ltt_triggers *trs, struct ltt_trigger *t);

/**
 * ltt_triggers_session_event() - @session (its lock may be held) reached
 * a point the session conditions watch: @cond is a rotation's start or
 * finish (@path its archive, "" if none yet).  Fires each of the
 * owner's triggers on that condition and session.
 */
void ltt_triggers_session_event(struct ltt_triggers *trs, const struct ltt_session *session,
				uint32_t cond, const char *path);

/**
 * ltt_trigger_on_session() - is @t a trigger of @session's owner on
 * condition @cond of @session?
 */
bool ltt_trigger_on_session(const struct ltt_trigger *t, const struct ltt_session *session,
			    uint32_t cond);

/**
 * ltt_triggers_watch() - does any trigger of @session's owner watch
 * condition @cond of @session?
 */
bool ltt_triggers_watch(struct ltt_triggers *trs, const struct ltt_session *session,
			uint32_t cond);

/**
 * ltt_triggers_level() - a look at @t's level condition (consumed size,
 * buffer usage) on @session found it holding or not, @value the measure
 * (@capacity: the channel's bytes, for buffer usage; else 0): fires @t
 * when it begins to hold (once per crossing: again only after a look
 * finds it not holding)
 */
void ltt_triggers_level(struct ltt_triggers *trs, struct ltt_trigger *t,
			const struct ltt_session *session, bool holds, uint64_t value,
			uint64_t capacity);

/**
 * ltt_triggers_consumed() - @session's consumers wrote @written bytes:
 * each of the owner's session-consumed-size-ge triggers on it is looked at
 * (ltt_triggers_level())
 */
void ltt_triggers_consumed(struct ltt_triggers *trs, const struct ltt_session *session,
			   uint64_t written);

#endif /* LTT_SESSIOND_MODEL_TRIGGER_H */
