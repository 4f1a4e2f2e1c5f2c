/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * domain.h - the seam between the command layer and the tracing domains.
 *
 * A domain (user space, kernel) is one implementation of struct
 * ltt_domain_ops.  The command layer (cmd-*.c) keeps the session tree
 * (channels, rules: session.h) and calls only these operations to make a
 * domain record what the tree says; it never sees a domain's buffers,
 * programs or consumer.  What a domain keeps per session hangs off the
 * session's domain object (ltt_session_domain.state), opaque here.
 *
 * A domain that this daemon can't serve has no operations: the command
 * layer refuses every command that needs it, at once, with the public code
 * the daemon chose for it when it started (ltt_domains_refuse()).
 *
 * Errors: the check_* operations are the command layer's validation,
 * delegated, and answer with a public code (enum ltt_error_code, 0 =
 * valid).  Every other operation returns 0 or a negative errno; the
 * command layer chooses the public code (see doc/sessiond.md).
 *
 * Locks: "session lock held" below means the caller holds session->lock
 * and nothing below it (lock order in doc/sessiond.md).  No operation
 * waits for programs under a lock: what must be waited for is recorded in
 * a struct ltt_domain_settle, waited on once every lock is released (but
 * LTTng's agents' answers to a change, bounded: see update).
 */
#ifndef LTT_SESSIOND_DOMAIN_H
#define LTT_SESSIOND_DOMAIN_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "common/base/codec.h"
#include "sessiond/model/session.h"

struct ltt_domain_impl;
struct ltt_relay_snap;
struct ltt_domain_settle;
struct ltt_supervisor;
struct ltt_trigger;
struct ltt_trigger_conf;

/* A channel's output failure (the consumer could not write its files). */
struct ltt_domain_failure {
	int error;			/* 0, or the -errno that stops writing now */
	int64_t since;			/* then: when it began (seconds since the Epoch) */
	uint64_t events;		/* events dropped while the output failed */
	uint64_t packets;		/* packets dropped because it failed */
	uint64_t classes_refused;	/* event descriptions the channel refused */
};

/* How full a channel's ring buffers are (buffer-usage triggers). */
struct ltt_domain_usage {
	uint64_t highest;		/* bytes held by the fullest stream */
	uint64_t lowest;		/* bytes held by the emptiest stream */
	uint64_t capacity;		/* one stream's bytes (all streams alike) */
};

/* The memory one ring buffer holds now (ltt_domain_ops.mem_usage). */
struct ltt_domain_mem {
	uint32_t uid;			/* its owner */
	int32_t pid;			/* a per-PID buffer's program; 0: per-UID */
	uint32_t cpu;			/* or LTT_MEM_CPU_CHANNEL: a per-channel buffer */
	uint64_t resident;		/* bytes of memory it holds now (measured) */
	uint64_t size;			/* the most it may hold */
	uint8_t how;			/* where resident comes from: enum ltt_mem_how */
};

/* A stalled consumer and what waits for it (ltt_ctrace_stall_info()). */
struct ltt_domain_stall {
	bool stalled;			/* it owes a reply, or a call waits long */
	int64_t since;			/* then: since when (seconds since the Epoch) */
	uint16_t command;		/* the consumer command it has not answered */
	uint32_t traces;		/* traces not handed to it, or not closed by it */
	bool metadata;			/* metadata not sent to it */
};

/* What a snapshot wrote (ltt_domain_ops.snapshot). */
struct ltt_domain_snapshot {
	uint64_t packets;		/* written */
	uint64_t bytes;
	uint64_t packets_dropped;	/* overwritten while copied: left out */
};

struct ltt_domain_ops {
	/*
	 * Validation that depends on the domain: may a channel (a rule) with
	 * these attributes be added?  check_channel may resolve defaults in
	 * @attr (the buffer type).  Returns LTT_ERR_OK or the public code.
	 */
	enum ltt_error_code (*check_channel)(struct ltt_domain_impl *d, struct ltt_channel_conf *attr);
	enum ltt_error_code (*check_rule)(struct ltt_domain_impl *d,
					  const struct ltt_rule_conf *attr);
	/*
	 * May a channel be added to @session in this domain now?  NULL: yes
	 * (the command layer refuses it to an active session anyway).
	 * Session lock held.
	 */
	enum ltt_error_code (*may_add_channel)(struct ltt_domain_impl *d,
					       const struct ltt_session *session);
	/*
	 * Optional: may tracker @type be changed in this domain?  Returns
	 * LTT_ERR_OK or the public code.  NULL: the domain has the types
	 * below LTT_TRACKER_NR_USER (vpid, vuid, vgid) only, and the command
	 * layer refuses the others (LTT_ERR_TRACKER_DOMAIN); a domain that
	 * has this operation has every type.  No lock needed.
	 */
	enum ltt_error_code (*check_tracker)(struct ltt_domain_impl *d, enum ltt_tracker_type type);
	/*
	 * start: @session was just marked active and has channels in this
	 * domain: create what records them and start recording.  On error
	 * nothing of this domain records; an error of the trace's output
	 * (no room, no permission, no descriptor...) is also stored in
	 * session->output_err.  Session lock held.
	 */
	int (*start)(struct ltt_domain_impl *d, struct ltt_session *session,
		     struct ltt_domain_settle *settle);
	/*
	 * update: the domain's channels or rules in @session changed (also
	 * while inactive: a domain may prepare); record what is now wanted,
	 * and make recording follow it where the domain needs no apply.
	 * Returns 0 or -errno when the tracer could not follow: the command
	 * then undoes its change and calls update (and apply) again.
	 * Session lock held.  The user-space domain's waits there for
	 * LTTng's agents' answers to what an active session's change tells
	 * them (bounded: lagent.h's ltt_lagent_sync_wait()), as LTTng's daemon
	 * does, so that an agent's refusal undoes the change.
	 */
	int (*update)(struct ltt_domain_impl *d, struct ltt_session *session,
		      struct ltt_domain_settle *settle);
	/*
	 * Optional: called by the command right after a successful update:
	 * make recording follow what update recorded.  What that needs of
	 * the tracer, the consumer, the relay or the trace's metadata is
	 * done here (the kernel's: new events' metadata sent, then the
	 * tracer's events and trackers), never inside update.  NULL: update
	 * did it all.  Returns 0 or -errno, as update.  Session lock held.
	 */
	int (*apply)(struct ltt_domain_impl *d, struct ltt_session *session,
		     struct ltt_domain_settle *settle);
	/*
	 * stop: @session was marked inactive: stop recording and, if @wait,
	 * return once everything recorded is in the trace files.  The session
	 * is referenced but NOT locked: stop takes the lock as it needs and
	 * waits with none held.  Returns 0, -ETIMEDOUT (the consumer is
	 * stalled), -EREMOTEIO (it refused traces: not written), -EOWNERDEAD
	 * (it died and none took its traces over: they end there), -EPIPE
	 * (it died meanwhile) or -EIO (it failed to write).
	 */
	int (*stop)(struct ltt_domain_impl *d, struct ltt_session *session, bool wait);
	/*
	 * destroy: release everything of a stopped @session in this domain,
	 * its state included (ltt_session_domain.state is NULL after).  Session
	 * lock held.
	 */
	void (*destroy)(struct ltt_domain_impl *d, struct ltt_session *session);
	/* Lost events and packets of @channel so far.  Session lock held. */
	void (*channel_stats)(struct ltt_domain_impl *d, struct ltt_session *session,
			      const struct ltt_channel *channel, uint64_t *ret_events_lost,
			      uint64_t *ret_packets_lost);
	/*
	 * Optional: @channel's output failure, now and so far (the events
	 * and packets it made lose, closed traces included).  Session lock
	 * held.
	 */
	void (*channel_failure)(struct ltt_domain_impl *d, struct ltt_session *session,
				const struct ltt_channel *channel,
				struct ltt_domain_failure *ret);
	/*
	 * Optional (channel-buffer-usage triggers): how full @channel's
	 * streams are now, read without waiting for anyone.  Returns 0, or
	 * -ENOENT while the channel has no stream (no program, not started).
	 * Session lock held, or its state lock alone (the gate's holder
	 * waits on a consumer): reads only.
	 */
	int (*channel_usage)(struct ltt_domain_impl *d, struct ltt_session *session,
			     const struct ltt_channel *channel, struct ltt_domain_usage *ret);
	/*
	 * Optional (list --mem-usage): the memory each ring buffer of
	 * @channel holds now, measured where the domain can (m.how says
	 * how): @fn(@arg, m) once per buffer the daemon holds.  NULL: the
	 * domain says nothing of its buffers.  Session lock held; never
	 * waits (the kernel's answers at once).
	 */
	void (*mem_usage)(struct ltt_domain_impl *d, struct ltt_session *session,
			  const struct ltt_channel *channel,
			  void (*fn)(void *arg, const struct ltt_domain_mem *m), void *arg);
	/*
	 * Optional (reclaim-memory): have the pages of @channel's
	 * sub-buffers already consumed, closed @older_than_ns ago at least
	 * (0: all), given back while recording goes on; add how many to
	 * *@subbufs and the bytes the buffers hold less (measured) to
	 * *@bytes.  Session lock held; waits for the consumer.  Returns 0,
	 * -EOPNOTSUPP (an overwrite-mode channel) or the consumer's -errno.
	 */
	int (*reclaim)(struct ltt_domain_impl *d, struct ltt_session *session,
		       const struct ltt_channel *channel, uint64_t older_than_ns,
		       uint64_t *subbufs, uint64_t *bytes);
	/*
	 * Optional, for a session streamed to a relay.  relay_pending: is
	 * data of this domain read from the buffers but not yet at the relay?
	 * Returns 0 or -ECONNRESET (the relay connection is lost).
	 * relay_status: the domain's relay connection into @ret (all but its
	 * domain); -ENOENT when it has none (yet).  Session lock held; both
	 * answer at once.
	 */
	int (*relay_pending)(struct ltt_domain_impl *d, struct ltt_session *session,
			     bool *ret_pending);
	int (*relay_status)(struct ltt_domain_impl *d, struct ltt_session *session,
			    struct ltt_relay_desc *ret);
	/*
	 * The events of @type that can be enabled (-EINVAL: the domain has
	 * none of that type), as the LIST_TRACEPOINTS reply:
	 * {u32 count, count x {u32 pid, str procname, str name, i32 loglevel,
	 * u32 nr_fields, nr_fields x {str name, str type}}} (pid 0, procname
	 * "" for events of no process).  @uid: the programs of that user
	 * only, LTT_LIST_EVERY_USER every user's (ltt_list_reach()).  No lock
	 * held.  Returns 0 or -errno.
	 */
	int (*list_events)(struct ltt_domain_impl *d, enum ltt_event_type type, bool with_fields,
			   uid_t uid, struct ltt_wbuf *reply);
	/*
	 * Optional (user space's, which serves the agent domains): the
	 * loggers of the programs' agents of agent domain @agent (python,
	 * JUL, log4j: common/model/agent.h), as list_events' reply (name: the
	 * logger, loglevel and nr_fields 0), of @uid's programs as
	 * list_events.  No lock held.  Returns 0 or -errno.
	 */
	int (*list_loggers)(struct ltt_domain_impl *d, enum ltt_domain agent, uid_t uid,
			    struct ltt_wbuf *reply);
	/*
	 * Optional (user space's): the programs of @uid (as list_events) that
	 * the domain sees and does not record (LTTng-UST's own library,
	 * sessiond/lust/), appended to list_events' reply as its entries,
	 * their number added to *@count.  No lock held.
	 */
	void (*list_unrecorded)(struct ltt_domain_impl *d, uid_t uid, struct ltt_wbuf *reply,
				uint32_t *count);
	/*
	 * Optional: triggers were added or removed: user space gives the
	 * programs the event-rule-matches conditions they evaluate now
	 * (model/trigger.h), the kernel its tracer (kernel-notify.c); return
	 * once they took them (bounded).  Returns 0, or -errno when what must
	 * take them refused (user space: an LTTng agent, lagent.h's
	 * ltt_lagent_sync_triggers(); the command then removes the trigger
	 * it added and calls this again).
	 * No lock held.
	 */
	int (*triggers_changed)(struct ltt_domain_impl *d);
	/*
	 * Optional (the kernel's), for an event-rule-matches condition of its
	 * own (the user-space domain's programs always evaluate theirs).
	 * check_trigger: can this domain evaluate @c at all?  arm_trigger:
	 * @t was just added by the client on @client_fd (borrowed, -1: the
	 * daemon): start evaluating it (a probe's file read with that client's
	 * rights where the daemon gave root's up).  Each returns LTT_ERR_OK or
	 * the code the trigger is refused with (the reason logged; the
	 * command removes a trigger it could not arm).  No lock held.
	 */
	enum ltt_error_code (*check_trigger)(struct ltt_domain_impl *d,
					     const struct ltt_trigger_conf *c);
	enum ltt_error_code (*arm_trigger)(struct ltt_domain_impl *d, struct ltt_trigger *t,
					   int client_fd);
	/*
	 * Optional (the kernel's): the tracer, as the KERNEL_TRACER reply:
	 * {str backend, str version, str why}.  No lock held.
	 */
	void (*describe_tracer)(struct ltt_domain_impl *d, struct ltt_wbuf *reply);
	/*
	 * settle_wait: wait (bounded) for what @pending, recorded by this
	 * domain in a settle (ltt_domain_settle_slot()), stands for, then free
	 * it; @what names the change in warnings, NULL: free without waiting.
	 * No lock held.
	 */
	void (*settle_wait)(struct ltt_domain_impl *d, void *pending, const char *what);
	/*
	 * Optional, for a snapshot session: write what the domain's buffers
	 * hold now under @dir, without consuming them; or, @net not NULL,
	 * send it to that relay as traces of the relay session's directory
	 * below @dir, there a relative path, the snapshot's name
	 * (sessiond/consumer/relay.h: struct ltt_relay_snap, which also gets
	 * the relay's failure; the caller drains and closes it).  @max_size bytes in all (0: no limit),
	 * shared by the streams.  Returns 0, -ENOSPC when @max_size can't
	 * hold one packet of each stream, -EEXIST when a trace is there,
	 * -EOPNOTSUPP (a domain that can't send to a relay), or the output's
	 * -errno.  Session lock held; waits for the consumer.
	 */
	int (*snapshot)(struct ltt_domain_impl *d, struct ltt_session *session, const char *dir,
			struct ltt_relay_snap *net, uint64_t max_size,
			struct ltt_domain_snapshot *ret);
	/*
	 * Optional, trace chunks (chunk-rotate.c); absent: the domain refuses them.
	 * rotate: every trace of @session in this domain moves from the
	 * chunk rooted at @old_root to the same place below @new_root (its
	 * old files complete and closed on return); with @clear (roots
	 * NULL) each drops what it recorded and stays.  Each trace is tried;
	 * returns 0 or the first failure's -errno; -EINPROGRESS for a move
	 * sent to a consumer that did not answer in time (counted in
	 * rotate_moved: the trace goes to @new_root when the consumer runs,
	 * so the old chunk is kept, not archived, until a later rotation).  written: the bytes its
	 * traces wrote so far (size rotation).  regenerate_metadata: write
	 * each trace's metadata again whole.  Session lock held.
	 */
	int (*rotate)(struct ltt_domain_impl *d, struct ltt_session *session,
		      const char *old_root, const char *new_root, bool clear);
	uint64_t (*written)(struct ltt_domain_impl *d, struct ltt_session *session);
	/*
	 * Optional, for a session streamed to a relay: after rotate, have
	 * the relay archive the old chunk's directory @from (relative to the
	 * relay session's directory) as @to; @ret_dir gets the relay
	 * session's directory.  Absent: the domain can't rotate on a relay.
	 */
	int (*relay_archive)(struct ltt_domain_impl *d, struct ltt_session *session,
			     const char *from, const char *to, char *ret_dir, size_t len);
	int (*regenerate_metadata)(struct ltt_domain_impl *d, struct ltt_session *session);
	/*
	 * Optional: have the tracer record its state dump again into
	 * @session's channels; absent: the domain has none (refused).
	 * What must confirm it has recorded the dump (the programs) goes
	 * into @settle, waited on by the caller once unlocked.
	 * Returns 0, -EBUSY (not recording), -EOPNOTSUPP, or -errno.
	 * Session lock held.
	 */
	int (*regenerate_statedump)(struct ltt_domain_impl *d, struct ltt_session *session,
				    struct ltt_domain_settle *settle);
	/* fini: every session is destroyed: release the domain. */
	void (*fini)(struct ltt_domain_impl *d);
	/*
	 * Optional: the supervisor of the consumer daemons that write
	 * @session's traces in this domain (supervisor.h), NULL when none
	 * (out of memory).  Any lock context, never waits.  What those
	 * consumers owe and are owed is the consumer-trace layer's
	 * (ctrace.h), the same for every domain: ltt_ctrace_domain_owes(),
	 * ltt_ctrace_destroy_waits() and ltt_ctrace_stall_info() below ask
	 * it about this supervisor.  The user-space domain's is the session
	 * owner's: the rotation thread posts work to its thread
	 * (ltt_supervisor_post()), so that work waiting for one owner's
	 * consumer waits on that owner's thread only.
	 */
	struct ltt_supervisor *(*supervisor)(struct ltt_domain_impl *d,
					     const struct ltt_session *session);
};

/* A domain: embedded in its implementation's own object. */
struct ltt_domain_impl {
	enum ltt_domain type;
	const struct ltt_domain_ops *ops;
};

/* Index of a domain type in per-domain arrays. */
#define LTT_DOMAIN_IDX_KERNEL 0
#define LTT_DOMAIN_IDX_USER 1
#define LTT_NR_DOMAINS 2

/* The domains this daemon serves, and why it serves no others. */
struct ltt_triggers;

struct ltt_maps;

struct ltt_domains {
	struct ltt_domain_impl *v[LTT_NR_DOMAINS];		/* NULL: not available */
	enum ltt_error_code why_not[LTT_NR_DOMAINS];	/* then: what a command gets */
	struct ltt_triggers *triggers;	/* the daemon's (model/trigger.h): what every layer fires */
	struct ltt_maps *maps;		/* the daemon's map channels (model/map.h), NULL: none */
};

/**
 * ltt_domain_index() - @type's index in per-domain arrays, or -1 for a
 * value that names no domain
 */
int ltt_domain_index(enum ltt_domain type);

/**
 * ltt_domains_init() - no domain available yet; each is refused with
 * LTT_ERR_DOMAIN until registered or given a reason
 */
void ltt_domains_init(struct ltt_domains *set);

/**
 * ltt_domains_register() - serve @d (borrowed until ltt_domains_fini())
 */
void ltt_domains_register(struct ltt_domains *set, struct ltt_domain_impl *d);

/**
 * ltt_domains_refuse() - this daemon does not serve @type: commands that
 * need it get @why; @reason says it once in the log (borrowed for the call)
 */
void ltt_domains_refuse(struct ltt_domains *set, enum ltt_domain type, enum ltt_error_code why,
			const char *reason);

/**
 * ltt_domains_get() - the domain that serves @type
 * @ret_domain: set on success only
 *
 * Returns LTT_ERR_OK, LTT_ERR_DOMAIN for no domain type, or the code
 * given to ltt_domains_refuse().
 */
enum ltt_error_code ltt_domains_get(const struct ltt_domains *set, enum ltt_domain type,
				    struct ltt_domain_impl **ret_domain);

/**
 * ltt_domains_fini() - release every registered domain (ops->fini); every
 * session must be destroyed first
 */
void ltt_domains_fini(struct ltt_domains *set);

/*
 * What a change left to wait for (programs confirming commands, say),
 * filled by domains under the session lock, waited on by the command
 * layer once it released every lock.  Its fields are domain.c's.
 */
struct ltt_domain_settle {
	struct {
		struct ltt_domain_impl *domain;
		void *pending;
	} slot[LTT_NR_DOMAINS];
};

/**
 * ltt_domain_settle_init() - nothing to wait for
 */
void ltt_domain_settle_init(struct ltt_domain_settle *settle);

/**
 * ltt_domain_settle_slot() - @d's own record in @settle: NULL until the
 * domain stores one (its own type, freed by ops->settle_wait)
 */
void **ltt_domain_settle_slot(struct ltt_domain_settle *settle, struct ltt_domain_impl *d);

/**
 * ltt_domain_settle_wait() - wait until every domain settled what @settle
 * records (each bounds its wait), then empty it; no lock may be held
 * @what: the change, named in warnings ("start", "change", ...); NULL to
 *        empty it without waiting
 */
void ltt_domain_settle_wait(struct ltt_domain_settle *settle, const char *what);

#endif /* LTT_SESSIOND_DOMAIN_H */
