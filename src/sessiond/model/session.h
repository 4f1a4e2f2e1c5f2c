/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - the session daemon's object tree:
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   session.[ch]   the object tree: registry, sessions, domains, channels, rules
 *   session-lock.c a session's gate and state lock; waits that give it back
 *   domain.[ch]    the domain interface the commands call; the domains served
 *   rule-filter.[ch] rules matched against events, and their filter programs
 *   tracker.[ch]   process trackers: inclusion sets of ids
 *   trigger.[ch]   triggers: what each user added, their counters, firing them
 *   map.[ch]       map channels: their key tables, the programs' counters
 *
 *   registry ──► session ──► domain (kernel, user) ──► channel ──► event rule
 *
 * The registry owns the sessions; a session owns its two domains, which
 * own their channels, which own their rules.  Sessions are reference
 * counted: a command takes a reference under the registry lock and then
 * works under the session's own lock.  Lock order: registry, then session;
 * never the registry while holding a session.
 */
#ifndef LTT_SESSIOND_SESSION_H
#define LTT_SESSIOND_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <urcu/list.h>
#include <uuid/uuid.h>

#include <ltt/ltt-ctl.h>

#include "common/model/context.h"
#include "common/model/model.h"
#include "common/trace/tclock.h"
#include "common/model/uri.h"
#include "sessiond/model/tracker.h"

#define LTT_MAX_SESSIONS 1024
/* Sessions one user (not root) may hold by default: no user takes every slot. */
#define LTT_MAX_SESSIONS_PER_UID 128
#define LTT_MAX_CHANNELS_PER_DOMAIN 128
#define LTT_MAX_RULES_PER_CHANNEL 1024
#define LTT_MAX_RULES_PER_SESSION 4096
/* Bytes of filter and exclusion text over a session's rules (GET_SESSION stays small). */
#define LTT_MAX_RULE_TEXT_PER_SESSION (1U << 20)

struct ltt_filter_node;
struct ltt_agent_domain;

struct ltt_event_rule {
	struct cds_list_head node;	/* in ltt_channel.rules */
	struct ltt_rule_conf attr;
	/* attr.filter parsed, or an agent rule's whole filter (agent.h); NULL: none */
	struct ltt_filter_node *filter;
	bool enabled;
	/* of an agent channel: its domain (attr names loggers); NULL: none */
	const struct ltt_agent_domain *agent;
};

struct ltt_channel {
	struct cds_list_head node;	/* in ltt_domain.channels */
	struct ltt_channel_conf attr;
	uint32_t stream_id;		/* its CTF stream class id in the domain's traces */
	bool enabled;
	/* user space's channel of an agent domain (its rules only); NULL: none */
	const struct ltt_agent_domain *agent;
	unsigned int nr_rules;
	struct cds_list_head rules;
	uint64_t discarded_events;	/* of its closed traces (user space) */
	uint64_t lost_packets;
	uint64_t error_events;		/* of those: because their output failed */
	uint64_t error_packets;
	uint64_t classes_refused;	/* event descriptions its closed traces refused */
	/* Context fields of each event (add-context), fixed from the first start. */
	uint32_t nr_contexts;
	struct ltt_ctx contexts[LTT_CTX_MAX];
};

/*
 * A tls:// session's PEM files' texts (certificate, key, CA), read at
 * its creation with its creator's rights by the privileged part, where
 * the daemon gave root's rights up and may not read them itself (relay.c);
 * all NULL otherwise.
 */
struct ltt_session_tls_text {
	char *text[3];
	size_t len[3];
};

struct ltt_session_domain {
	enum ltt_domain type;
	enum ltt_buffer_type buffer_type;	/* DEFAULT until the first channel */
	unsigned int nr_channels;
	uint32_t next_stream_id;
	struct cds_list_head channels;
	void *state;			/* the domain's own (domain.h); NULL when it has none */
	struct ltt_trackers trackers;	/* which processes record (tracker.h) */
};

struct ltt_session {
	struct cds_list_head node;	/* in the registry; empty once removed */
	const struct ltt_session_registry *reg;	/* for ltt_session_wake(); NULL if made by hand */
	/*
	 * Two locks (ltt_session_lock()): @gate keeps the session's changes
	 * one at a time, and is held across a change's consumer round trips;
	 * @lock protects everything below but the constants, and is never
	 * held across a consumer round trip (ltt_session_wait_begin()), so
	 * list, which takes @lock alone, reads the state as it is now.
	 */
	pthread_mutex_t gate;
	pthread_mutex_t lock;
	unsigned int refcount;		/* under the registry lock */
	/* Constants from creation on. */
	char name[LTT_NAME_MAX];
	uint64_t id;
	uuid_t uuid;
	uid_t uid;
	gid_t gid;
	int64_t creation_time;
	enum ltt_trace_format trace_format;	/* of every trace of the session */
	/*
	 * Records every user's programs (root's session, or any on a daemon
	 * run with --member-reach=all), else its own user's alone
	 * (ltt_session_reaches()).
	 */
	bool reaches_all;
	enum ltt_output_type output_type;
	char output[LTT_PATH_MAX];
	/*
	 * A net output's relay, parsed once where its URL came in (net
	 * only; a snapshot session's is its first snapshot output's).
	 */
	struct ltt_uri relay;
	/* tls:// outputs' PEM files (absolute paths; "" for none), from creation on */
	char tls_cert[LTT_PATH_MAX], tls_key[LTT_PATH_MAX], tls_ca[LTT_PATH_MAX];
	/* "" or the directory of its user-space buffers' files (ust-shm.h) */
	char shm_path[LTT_PATH_MAX];
	/*
	 * shm_path is the session's own directory, LTTng's client having
	 * named it DIR/NAME-DATE already (SET_SESSION_SHM_PATH): no
	 * NAME-DATE is added below it
	 */
	bool shm_path_whole;
	/*
	 * The first failure to write a trace's metadata under shm_path (a
	 * negative errno, 0: none) and when (s since the Epoch): list and
	 * stop say it (ltt_session_shm_failed(); atomics, any thread)
	 */
	int shm_error;
	int64_t shm_error_since;
	/* their texts, where the daemon may not read them (set once, at creation) */
	struct ltt_session_tls_text tls_text;
	/*
	 * snapshot: no output of its own (created with --snapshot or with
	 * --no-output): its consumer writes nothing but snapshots, to its
	 * snapshot output or one given to a record, as LTTng's sessions
	 * without an output.  snapshot_mode: created with --snapshot, whose
	 * channels default to overwrite mode (a flight recorder) and which
	 * list shows as a snapshot session.
	 */
	bool snapshot;
	bool snapshot_mode;
	uint32_t live_timer_us;
	/*
	 * The clock's offset from the Epoch (ns) in the metadata of every
	 * trace of the session, whatever its domain: one time line.  Set at
	 * creation, taken again by a metadata regeneration; read and written
	 * atomically (ltt_session_clock_offset()).
	 */
	int64_t clock_offset_ns;
	/*
	 * The clock of the session's user-space events (common/trace/tclock.h),
	 * fixed at creation: the daemon's kind, its frequency measured then,
	 * and for the TSC the base its streams subtract, so that their counts
	 * are CLOCK_MONOTONIC's time, as the kernel's are.
	 */
	uint32_t clock_kind;
	uint64_t clock_freq;
	uint64_t clock_base;
	char clock_why[256];		/* the registry's sentence, when created */
	/* Under lock; active is also read without it (atomically) by list. */
	bool active;
	bool destroyed;
	int output_err;			/* a domain's start failed on the output:
					 * its -errno (0 otherwise) */
	bool output_create;		/* ... making its directory (the probe) */
	int relay_err;			/* net: the relay did not answer the last
					 * start, its -errno (0 otherwise) */
	unsigned int nr_rules;		/* over all channels */
	size_t rule_text;		/* bytes of the rules' filters and exclusions */
	/*
	 * Snapshot sessions (output_type is NONE: nothing is written but
	 * snapshots): the snapshot output, one at most as in LTTng (the
	 * create-time output is "snapshot-1"), and the snapshots taken.
	 */
	bool has_snap_output;
	struct ltt_snapshot_output_conf snap_output;
	struct ltt_uri snap_relay;	/* snap_output's relay, parsed once (net only) */
	uint32_t next_snap_output_id;
	uint64_t nr_snapshots;
	struct ltt_session_domain domains[2];	/* [0] kernel, [1] user */
	/* Trace chunks (chunk-rotate.c), under lock: local sessions only. */
	uint64_t chunk_id;		/* the current chunk's number, from 0 */
	int64_t chunk_begin;		/* when it began (first start, rotation); 0: never started */
	char chunk_dir[LTT_PATH_MAX];	/* its root: output itself for chunk 0 */
	char last_archive[LTT_PATH_MAX];	/* the newest archived chunk, or "" */
	/*
	 * A rotation while the session was stopped ended its chunk, as LTTng's
	 * ends it: until the next start, no rotation, and destroy archives
	 * nothing more (the directory the traces moved to holds nothing
	 * recorded: removed).  The next start begins the chunk anew.
	 */
	bool rotated_stopped;
	/*
	 * A clear while the session was stopped: until the next start, no
	 * rotation (it would archive an empty chunk), as LTTng refuses it.
	 */
	bool cleared_stopped;
	uint64_t rotate_timer_us;	/* rotation schedule: period, 0 off */
	uint64_t rotate_size;		/* rotation schedule: bytes, 0 off */
	uint64_t rotate_next_ns;	/* monotonic: when the timer rotates next */
	uint64_t rotate_written;	/* bytes written when the current chunk began */
	bool rotate_posted;		/* a scheduled rotation waits for its owner's thread */
	bool settle_posted;		/* a settle (ltt_ctrace_owed_settle()) waits for its owner's thread */
	struct cds_list_head ctrace_owed;	/* its traces that owe their consumer
						 * work (ctrace.h, struct ltt_ctrace) */
	uint64_t rotate_retry_ns;	/* monotonic: no scheduled rotation before (a failure's) */
	int32_t rotate_err;		/* the last scheduled rotation's failure (LTT_ERR_*), 0: none */
	int64_t rotate_err_since;	/* when that failure began (seconds since the Epoch) */
	/*
	 * Chunks a partly failed rotation left: some traces still write in
	 * them, so they are not archived until a rotation moves every trace
	 * (chunk-rotate.c).  rotate_moved counts the traces the rotation in progress
	 * moved (ops->rotate adds to it).
	 */
	unsigned int nr_left;
	struct ltt_chunk_left {
		char dir[LTT_PATH_MAX];
		int64_t begin;
		uint64_t id;
		bool idle;	/* no trace writes in it: only its archive failed */
		uint8_t relayed;	/* net://: the domains (1 << LTT_DOMAIN_IDX_*)
					 * whose relay archived their part of it */
	} left[4];
	int64_t last_end;		/* net://: the end of the last chunk, as destroy
					 * archives it (the same for every domain) */
	unsigned int rotate_moved;
};

struct ltt_session_registry {
	pthread_mutex_t lock;
	struct cds_list_head sessions;
	unsigned int nr_sessions;
	unsigned int max_per_uid;	/* sessions one user (not root) may hold */
	uint64_t next_id;
	/* the clock of user-space events, chosen at start (monotonic by default) */
	struct ltt_tclock clock;
	/* the format of sessions created without one (--default-trace-format) */
	enum ltt_trace_format trace_format;
	/* chosen by the option or LTTng's variable, not the daemon's own default */
	bool trace_format_chosen;
	/*
	 * --member-reach=all, or a personal daemon: every session records
	 * every user's programs that registered
	 */
	bool member_reach_all;
	/* eventfd the rotation scheduler watches (ltt_session_wake()), or -1 */
	int wake_fd;
};

/**
 * ltt_session_reaches() - may @session record the programs of user @uid?
 * Root's sessions record every user's; another user's (a member of the
 * tracing group on the root daemon) its own user's alone, unless the
 * daemon runs with --member-reach=all (LTTng's reach: the tracing group
 * records everyone's).
 */
static inline bool ltt_session_reaches(const struct ltt_session *session, uid_t uid)
{
	return session->reaches_all || session->uid == uid;
}

/* A listing of every user's programs (domain.h's list_events, list_loggers). */
#define LTT_LIST_EVERY_USER ((uid_t)-1)

/**
 * ltt_list_reach() - whose programs a listing asked by user @uid shows:
 * those its sessions may record (ltt_session_reaches()): root's every
 * user's (LTT_LIST_EVERY_USER), a member's its own unless the daemon runs
 * with --member-reach=all
 */
static inline uid_t ltt_list_reach(const struct ltt_session_registry *reg, uid_t uid)
{
	return uid == 0 || reg->member_reach_all ? LTT_LIST_EVERY_USER : uid;
}

/**
 * ltt_session_registry_init() - an empty registry
 */
void ltt_session_registry_init(struct ltt_session_registry *reg);

/**
 * ltt_session_registry_fini() - destroy every session; no other thread may
 * use the registry any more
 */
void ltt_session_registry_fini(struct ltt_session_registry *reg);

/**
 * ltt_session_wake() - tell the rotation scheduler, whose tick runs only
 * while a session needs it (chunk-sched.h), that @session may need it
 * now: made, started, given a rotation schedule, watched by a trigger,
 * owing a consumer work.  Any thread, any lock held; never blocks.
 */
void ltt_session_wake(const struct ltt_session *session);

/** ltt_session_registry_wake() - the same for no session in particular (a trigger added) */
void ltt_session_registry_wake(const struct ltt_session_registry *reg);

/** ltt_session_tls_text_fini() - free @t's texts (wiped first: a key is one) */
void ltt_session_tls_text_fini(struct ltt_session_tls_text *t);

/**
 * ltt_session_create() - create and register a session
 * @attr: checked by the caller with ltt_attr_check_session()
 * @relay: a net output's URL, as the caller parsed it (NULL otherwise): the
 *         session's relay, or its snapshot output's
 * @uid: @gid: the owner
 * @ret_session: a new reference, to release with ltt_session_put()
 *
 * Takes the registry lock.  Returns 0, -EEXIST (@uid has a session of that
 * name: other users' names do not count),
 * -ENOSPC (LTT_MAX_SESSIONS reached, or the owner, not root, holds
 * max_per_uid sessions) or -ENOMEM.
 */
int ltt_session_create(struct ltt_session_registry *reg, const struct ltt_session_conf *attr,
		       const struct ltt_uri *relay, uid_t uid, gid_t gid,
		       struct ltt_session **ret_session);

/**
 * ltt_session_find() - look up a session that @uid may use
 * @name: "NAME", or "UID/NAME" for user UID's session NAME
 * @uid: the client; root may use every session, others their own
 * @ret_session: a new reference
 *
 * Each user has a namespace of session names.  A plain NAME is @uid's own
 * session NAME; for root, if it has none, the only session NAME of any
 * user.  Takes the registry lock.  Returns 0, -ENOENT (also for another
 * user's session, so names do not leak across users) or -ENOTUNIQ (root
 * named, plainly, a session that several other users have).
 */
int ltt_session_find(struct ltt_session_registry *reg, const char *name, uid_t uid,
		     struct ltt_session **ret_session);

/**
 * ltt_session_shm_dir() - the directory of @session's user-space buffer
 * files (its shm_path: DIR/NAME-DATE, or DIR itself where LTTng's client
 * named it whole) into @buf of @len bytes; "" without a shm_path.  Under
 * the session's lock or its state lock (or before anyone else sees it).
 *
 * Returns 0, -ENAMETOOLONG or -EINVAL (a creation time of no date).
 */
int ltt_session_shm_dir(const struct ltt_session *session, char *buf, size_t len);

/**
 * ltt_session_put() - release a reference; frees the session after the
 * last one once it was removed.  Takes the registry lock; accepts NULL.
 */
void ltt_session_put(struct ltt_session_registry *reg, struct ltt_session *session);

/**
 * ltt_session_remove() - unregister a session (destroy): its name is free
 * again at once; the memory goes with the last reference
 *
 * Takes the registry lock, then the session lock.
 */
void ltt_session_remove(struct ltt_session_registry *reg, struct ltt_session *session);

/**
 * ltt_session_snapshot_list() - references to every session @uid may use,
 * in creation order
 * @ret_sessions: a malloc'd array of @ret_count new references; release each
 *                with ltt_session_put(), then free() the array
 *
 * Returns 0 or -ENOMEM.
 */
int ltt_session_snapshot_list(struct ltt_session_registry *reg, uid_t uid,
			      struct ltt_session ***ret_sessions, size_t *ret_count);

/**
 * ltt_session_each_live() - call @fn(session, @arg) for every session of
 * @reg not destroyed, with the session's lock held
 *
 * Walks an ltt_session_snapshot_list() of them all, so @fn may take its
 * time: a session created meanwhile is not seen.  Takes each session's
 * lock in turn: no session lock held.  Returns 0, or -ENOMEM (none seen).
 */
int ltt_session_each_live(struct ltt_session_registry *reg,
			  void (*fn)(struct ltt_session *session, void *arg), void *arg);

/**
 * ltt_session_info() - the description of a session: its constants
 * and whether it is active, so no lock is needed (a reference is)
 */
void ltt_session_info(const struct ltt_session *session, struct ltt_session_desc *ret_info);

/**
 * ltt_session_started_once() - was @session ever started (active now, or
 * stopped since a start)?  The layout of its traces is fixed then: LTTng's
 * daemon adds it no channel and no context.  Session lock held.
 */
bool ltt_session_started_once(const struct ltt_session *session);

/**
 * ltt_session_domain() - a session's domain of @type; session lock held
 */
struct ltt_session_domain *ltt_session_domain(struct ltt_session *session, enum ltt_domain type);

/**
 * ltt_session_user_per_uid() - has a channel made @session's user domain
 * per-UID?  From then on it stays so (a per-PID channel is refused), so
 * that its traces are never per-PID ones.  Any thread, no lock: a true
 * answer is final, a false one may be old.
 */
bool ltt_session_user_per_uid(struct ltt_session *session);

/**
 * ltt_session_find_channel() - a channel by name, or NULL; session lock held
 */
struct ltt_channel *ltt_session_find_channel(struct ltt_session_domain *domain, const char *name);

/**
 * ltt_session_add_channel() - create a channel; session lock held
 * @attr: checked with ltt_attr_check_channel() (buffer type resolved)
 * @ret_channel: the channel, owned by the domain
 *
 * Returns 0, -EEXIST (a channel has that name), -EADDRINUSE (its stream
 * files would have the names of another channel's: ltt_tracefile_names_clash()),
 * -EINVAL (its buffer type is not the one the domain's channels have), -ENOSPC
 * (LTT_MAX_CHANNELS_PER_DOMAIN reached) or -ENOMEM.
 */
int ltt_session_add_channel(struct ltt_session_domain *domain, const struct ltt_channel_conf *attr,
			    struct ltt_channel **ret_channel);

/**
 * ltt_channel_find_rule() - the rule identical to @attr (pattern, type,
 * log level, filter and exclusions), or NULL; session lock held
 */
struct ltt_event_rule *ltt_channel_find_rule(struct ltt_channel *channel,
					     const struct ltt_rule_conf *attr);

/**
 * ltt_event_rule_parse_filter() - parse @rule's filter into rule->filter:
 * its own, or for an agent rule (rule->agent) the one that makes it take
 * its loggers' records (ltt_agent_filter(), which holds its own).  Any
 * lock.  Returns 0, -E2BIG (too long), -EINVAL or -ENOMEM.
 */
int ltt_event_rule_parse_filter(struct ltt_event_rule *rule);

/**
 * ltt_channel_add_rule() - add an enabled rule to a channel of @session;
 * session lock held
 *
 * Its filter text is parsed again here (never trusting the client's check);
 * a rule of an agent channel (channel->agent) is a rule of that agent
 * domain, whose filter is made of it (ltt_agent_filter()).
 * Returns 0, -ENOSPC (a rule limit reached), -E2BIG (the session's
 * LTT_MAX_RULE_TEXT_PER_SESSION would be exceeded), -EINVAL (the filter
 * does not parse) or -ENOMEM.
 */
int ltt_channel_add_rule(struct ltt_session *session, struct ltt_channel *channel,
			 const struct ltt_rule_conf *attr);

/**
 * ltt_channel_remove_rule() - remove and free a rule of @channel (undoing
 * ltt_channel_add_rule()); session lock held
 */
void ltt_channel_remove_rule(struct ltt_session *session, struct ltt_channel *channel,
			     struct ltt_event_rule *rule);

/**
 * ltt_session_rebase() - the place of a trace at @path (below one of
 * @session's chunk roots: the output for chunk 0, OUTPUT/NAME for a
 * later one, whichever chunk it writes in) below @new_root instead, into
 * @buf.  Returns 0, -EINVAL (@path is not in a chunk) or -ENAMETOOLONG.
 */
int ltt_session_rebase(const struct ltt_session *session, const char *path, const char *new_root,
		       char *buf, size_t len);

/**
 * ltt_session_clock_offset_take() - set @session's clock offset (the
 * monotonic clock's distance from the Epoch) to what it is now: at
 * creation, and when its metadata is regenerated
 */
void ltt_session_clock_offset_take(struct ltt_session *session);

/* session-lock.c: a session's gate and state lock; waits that give it back */

/**
 * ltt_session_lock() - take @session to change it: its gate, then its
 * lock (session.h: struct ltt_session); ltt_session_unlock() releases
 * both.  Every change takes both; only list's reads (cmd-view.c) take
 * the lock alone, with ltt_session_lock_state(), and take no other lock
 * but leaves while they hold it.  One session at a time per thread.
 */
void ltt_session_lock(struct ltt_session *session);
void ltt_session_unlock(struct ltt_session *session);

/* ltt_session_lock() without waiting: true when both were free (taken). */
bool ltt_session_trylock(struct ltt_session *session);

/* The state lock alone, for list's reads (never a change). */
void ltt_session_lock_state(struct ltt_session *session);
void ltt_session_unlock_state(struct ltt_session *session);

/*
 * ltt_session_lock_state() without waiting: true when it was free
 * (taken), as it is while the gate's holder waits on a consumer
 * (ltt_session_wait_begin()).  The rotation thread's looks at the levels
 * of a session whose change waits: reads, never a change.
 */
bool ltt_session_trylock_state(struct ltt_session *session);

/**
 * ltt_session_wait_begin() - the calling thread is about to wait on
 * another thread or process (a consumer round trip, the kernel thread):
 * if it holds a session with ltt_session_lock(), release that session's
 * state lock (its gate stays held, so no other change runs), and return
 * the session to give to ltt_session_wait_end(), which takes the state
 * lock back; NULL when it holds none, holds two, is pinned, or took it
 * with ltt_session_trylock() (the rotation thread, which never waits to
 * take a session).  Between the two, list reads the session as the change
 * left it before the wait: the change keeps the state whole there.
 */
struct ltt_session *ltt_session_wait_begin(void);
void ltt_session_wait_end(struct ltt_session *session);

/**
 * ltt_session_pin() - the calling thread takes a lock below its session's
 * (doc/sessiond.md's lock order: the supervisor's, while it spawns a
 * consumer and greets it): until ltt_session_unpin(), its waits keep the
 * session's state lock, which taking back under that lock would turn the
 * order (a reader holding the state lock may wait for it).
 */
void ltt_session_pin(void);
void ltt_session_unpin(void);

#endif /* LTT_SESSIOND_SESSION_H */
