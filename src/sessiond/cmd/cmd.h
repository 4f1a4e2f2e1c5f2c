/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - the client commands: one table from command number to handler,
 * handlers grouped by object in cmd-session.c, cmd-channel.c, cmd-event.c.
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   cmd.h          the commands' handlers and helpers
 *   cmd-table.c    the table from command numbers to handlers
 *   cmd-view.c     what list is told, as the session is now
 *   cmd-session.c  create, destroy, start, stop, list, get
 *   cmd-channel.c  enable-channel, disable-channel
 *   cmd-event.c    enable-event, disable-event
 *   cmd-context.c  add-context, list contexts
 *   cmd-tracker.c  track, untrack, tracker policies
 *   cmd-memory.c   list --mem-usage's view, reclaim-memory
 *   cmd-map.c      add-map-channel, the maps' counters (show-maps, export-maps)
 *   cmd-snapshot.c snapshot outputs and snapshot record
 *   cmd-chunk.c    rotate, enable-rotation, disable-rotation, clear, regenerate
 *   cmd-trigger.c  add-trigger, remove-trigger, list-triggers
 *   cmd-common.c   what every command uses: sessions found and locked,
 *                  changes begun and ended, failures mapped to public codes
 *
 * A handler decodes its whole request, checks it with ltt_rbuf_end()
 * before acting (a malformed request changes nothing), and either fails
 * with a public error code and no reply payload, or succeeds and appends
 * its reply payload.  Handlers run on the client thread or its worker.
 *
 * The command layer is where public codes are chosen: handlers return an
 * enum ltt_error_code (LTT_ERR_OK = 0 on success); everything they call
 * below (session.c, the domains) returns 0 or a negative errno, which the
 * handler maps with what it knows of the context (-EEXIST from adding a
 * channel is CHANNEL_EXISTS), ltt_cmd_error() for what has no more
 * specific meaning.  See doc/sessiond.md.
 */
#ifndef LTT_SESSIOND_CMD_H
#define LTT_SESSIOND_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include <ltt/ltt-error.h>

#include "common/base/errmap.h"
#include "common/base/codec.h"
#include "sessiond/ctrace/ctrace.h"
#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"

struct ltt_cmd_ctx {
	struct ltt_session_registry *registry;
	const struct ltt_domains *domains;	/* what serves each domain */
	struct ucred cred;	/* the client */
	int client_fd;		/* its connection (borrowed), -1: the daemon's own */
	uint32_t minor;		/* the protocol minor agreed with it */
	/* the daemon's run directory (its client socket): NULL outside a client thread */
	const char *rundir;
	/* an LTTng client (lttng-compat): a default output under lttng-traces, as LTTng's */
	bool lttng;
	uint8_t lttng_gen;	/* its protocol's generation (enum ltt_lttng_gen) */
};

/* A command's handler: each is declared below as one of these. */
typedef enum ltt_error_code ltt_cmd_fn(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				       struct ltt_wbuf *reply);

/* A handler that serves several commands: the table passes each its @arg. */
typedef enum ltt_error_code ltt_cmd_arg_fn(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					   unsigned int arg, struct ltt_wbuf *reply);

/* What list asks of a session (cmd-view.c), one view each. */
enum ltt_cmd_view {
	LTT_CMD_VIEW_TREE,	/* GET_SESSION (after the session's info) */
	LTT_CMD_VIEW_CONTEXTS,
	LTT_CMD_VIEW_ROTATION,
	LTT_CMD_VIEW_UTRACKERS,
	LTT_CMD_VIEW_KTRACKERS,
	LTT_CMD_VIEW_MEMORY,	/* MEM_USAGE */
};

/* What ltt_cmd_with_session() does to the session it locked. */
typedef enum ltt_error_code (*ltt_cmd_locked_fn)(const struct ltt_cmd_ctx *ctx,
						 struct ltt_session *session, void *arg);

/* A change of a session's tree: the session locked, what its domains must settle. */
struct ltt_cmd_change {
	struct ltt_session *session;
	struct ltt_domain_impl *d;	/* ltt_cmd_change_domain()'s: the domain changed */
	struct ltt_domain_settle settle;
};

/* A domain's word on what a change asks (@arg: the command's attributes). */
typedef enum ltt_error_code (*ltt_cmd_check_fn)(struct ltt_domain_impl *d, void *arg);

/* cmd-table.c: the table from command numbers to handlers */

/**
 * ltt_cmd_dispatch() - run one client command
 * @cmd: the command number from the request header
 * @payload: @len bytes, borrowed
 * @reply: receives the reply payload on success
 *
 * Returns LTT_ERR_OK, NOT_SUPPORTED for an unknown command, PROTOCOL for
 * a request too short, or the handler's code.
 */
enum ltt_error_code ltt_cmd_dispatch(const struct ltt_cmd_ctx *ctx, unsigned int cmd,
				     const void *payload, size_t len, struct ltt_wbuf *reply);

/**
 * ltt_cmd_may_wait() - may command @cmd wait for programs or the consumer
 * (seconds, at worst)?  Such commands run on the client thread's worker.
 */
bool ltt_cmd_may_wait(unsigned int cmd);

/* cmd-view.c: what list is told, as the session is now, --mem-usage included */

/*
 * GET_SESSION, LIST_CONTEXTS, ROTATION_INFO, MEM_USAGE: a request that is a
 * session's name alone, answered with its view @arg (enum ltt_cmd_view).
 */
ltt_cmd_arg_fn ltt_cmd_view_named;
ltt_cmd_fn ltt_cmd_list_trackers;

/**
 * ltt_cmd_view() - append @kind of the session @name to @reply, as it is
 * now: under its state lock alone (never waits for a change's consumer
 * round trip), the consumers' stall asked after it
 *
 * Returns LTT_ERR_OK, NOMEM, or ltt_cmd_find_session()'s error.
 */
enum ltt_error_code ltt_cmd_view(const struct ltt_cmd_ctx *ctx, const char *name,
				 enum ltt_cmd_view kind, struct ltt_wbuf *reply);

/* cmd-session.c: create, destroy, start, stop, list, get */

ltt_cmd_fn ltt_cmd_create_session;
ltt_cmd_fn ltt_cmd_destroy_session;
ltt_cmd_fn ltt_cmd_start_session;
ltt_cmd_fn ltt_cmd_stop_session;
ltt_cmd_fn ltt_cmd_list_sessions;
ltt_cmd_fn ltt_cmd_data_pending;
ltt_cmd_fn ltt_cmd_relay_status;
ltt_cmd_fn ltt_cmd_list_tracepoints;

/* KERNEL_TRACER: how the daemon traces the kernel (client-proto.h). */
ltt_cmd_fn ltt_cmd_kernel_tracer;

/**
 * ltt_cmd_destroy_all() - stop and destroy every session, writing what
 * they recorded (daemon shutdown); no client may be served meanwhile
 */
void ltt_cmd_destroy_all(const struct ltt_cmd_ctx *ctx);

/*
 * ltt_cmd_stall_put() - GET_SESSION's stalled consumers (client minor 14):
 * with @waiting (session lock held, part of the tree) what waits for each
 * domain's consumer, every domain; else (any lock context) the domains
 * whose consumer is stalled now.  Never waits.
 */
void ltt_cmd_stall_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session, bool waiting,
		       struct ltt_wbuf *reply);

/*
 * What list shows of one session: GET_SESSION's tree here, its contexts
 * (cmd-context.c), rotation (cmd-chunk.c) and trackers (cmd-tracker.c),
 * each appended to @reply by a function of the object's file; the
 * session's state lock held, not its gate (cmd-view.c): read only, take
 * no other lock but leaves.
 */
void ltt_cmd_session_tree(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  struct ltt_wbuf *reply);

/* cmd-channel.c: enable-channel, disable-channel */

ltt_cmd_fn ltt_cmd_enable_channel;
ltt_cmd_fn ltt_cmd_disable_channel;

/* cmd-event.c: enable-event, disable-event */

ltt_cmd_fn ltt_cmd_enable_event;
ltt_cmd_fn ltt_cmd_disable_event;

/* Which missing channel ltt_cmd_rule_channel() creates. */
enum ltt_cmd_channel_make {
	LTT_CMD_CHANNEL_FIND,		/* none */
	LTT_CMD_CHANNEL_MAKE_DEFAULT,	/* the default channel (@name "") */
	LTT_CMD_CHANNEL_MAKE_ANY,	/* the named one too (enable-event, as LTTng's) */
};

/**
 * ltt_cmd_rule_channel() - the channel @name of @session's domain @d, or
 * with @name "" the default channel, created with the domain's defaults
 * as @make says when it does not exist yet (ltt_cmd_add_channel());
 * session lock held.  Returns LTT_ERR_OK, CHANNEL_NOT_FOUND or the
 * creation's code.
 */
enum ltt_error_code ltt_cmd_rule_channel(struct ltt_domain_impl *d, struct ltt_session *session,
					 const char *name, enum ltt_cmd_channel_make make,
					 struct ltt_channel **ret_channel);

/* cmd-context.c: add-context, list contexts */

ltt_cmd_fn ltt_cmd_add_context;
void ltt_cmd_contexts_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  struct ltt_wbuf *reply);

/* cmd-tracker.c: track, untrack, tracker policies */

/* TRACK (@arg 1) and UNTRACK (@arg 0): ids or names added to or removed from a tracker. */
ltt_cmd_arg_fn ltt_cmd_tracker_edit;
ltt_cmd_fn ltt_cmd_tracker_policy;
void ltt_cmd_trackers_put_user(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			       struct ltt_wbuf *reply);

void ltt_cmd_trackers_put_kernel(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
				 struct ltt_wbuf *reply);

/**
 * ltt_cmd_trackers_target() - LIST_TRACKERS' request read from @req: the
 * session's name (in @req) and which trackers' view (user space or
 * kernel); LTT_ERR_OK, PROTOCOL, or the domain's refusal (cmd-tracker.c)
 */
enum ltt_error_code ltt_cmd_trackers_target(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					    const char **ret_name, enum ltt_cmd_view *ret_kind);

/* cmd-map.c: add-map-channel, the maps' counters */

ltt_cmd_fn ltt_cmd_add_map_channel;
ltt_cmd_fn ltt_cmd_list_maps;
ltt_cmd_fn ltt_cmd_list_map_cpus;

/* cmd-memory.c: list --mem-usage's view, reclaim-memory */

ltt_cmd_fn ltt_cmd_reclaim_memory;

/* MEM_USAGE's reply: each buffer of each channel of @session (a view, as the tree's). */
void ltt_cmd_memory_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			struct ltt_wbuf *reply);

/* cmd-snapshot.c: snapshot outputs and snapshot record */

ltt_cmd_fn ltt_cmd_snapshot_add_output;
ltt_cmd_fn ltt_cmd_snapshot_del_output;
ltt_cmd_fn ltt_cmd_snapshot_list_output;
ltt_cmd_fn ltt_cmd_snapshot_record;

/* cmd-chunk.c: rotate, enable-rotation, disable-rotation, clear, regenerate */

ltt_cmd_fn ltt_cmd_rotate_session;
ltt_cmd_fn ltt_cmd_enable_rotation;
ltt_cmd_fn ltt_cmd_disable_rotation;
ltt_cmd_fn ltt_cmd_clear_session;
ltt_cmd_fn ltt_cmd_regenerate;
void ltt_cmd_rotation_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  struct ltt_wbuf *reply);

/* cmd-trigger.c: add-trigger, remove-trigger, list-triggers */

ltt_cmd_fn ltt_cmd_add_trigger;
ltt_cmd_fn ltt_cmd_remove_trigger;
ltt_cmd_fn ltt_cmd_list_triggers;

/* cmd-common.c: sessions found and locked, changes begun and ended, failures mapped */

/**
 * ltt_cmd_triggers_changed() - tell the domains that evaluate event rules
 * that the triggers, or the map channels they count in, changed: the
 * programs have what the triggers now give them when it returns.  No
 * session lock held.  Returns LTT_ERR_OK, or the code of the first
 * domain's failure (an LTTng agent that refused a rule: AGENT_*).
 */
enum ltt_error_code ltt_cmd_triggers_changed(const struct ltt_cmd_ctx *ctx);

/**
 * ltt_cmd_find_session() - find the session named @name that the client
 * may use
 * @ret_session: a reference (ltt_session_put()), not locked
 *
 * Returns LTT_ERR_OK, LTT_ERR_SESSION_NOT_FOUND or SESSION_AMBIGUOUS.
 */
enum ltt_error_code ltt_cmd_find_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session);

/**
 * ltt_cmd_lock_session() - find the session named @name that the client may
 * use, and lock it
 * @ret_session: a reference, locked; release with ltt_cmd_unlock_session()
 *
 * Returns LTT_ERR_OK or LTT_ERR_SESSION_NOT_FOUND.
 */
enum ltt_error_code ltt_cmd_lock_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session);

/**
 * ltt_cmd_read_session() - as ltt_cmd_lock_session(), but its state lock
 * alone (list's reads: never a change); release with
 * ltt_session_unlock_state(), then ltt_session_put()
 */
enum ltt_error_code ltt_cmd_read_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session);

/**
 * ltt_cmd_unlock_session() - unlock and release; accepts NULL
 */
void ltt_cmd_unlock_session(const struct ltt_cmd_ctx *ctx, struct ltt_session *session);

/**
 * ltt_cmd_with_session() - lock the session named @name
 * (ltt_cmd_lock_session()), call @fn(@ctx, session, @arg), unlock
 *
 * Returns ltt_cmd_lock_session()'s error (@fn not called), else @fn's.
 */
enum ltt_error_code ltt_cmd_with_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 ltt_cmd_locked_fn fn, void *arg);

/**
 * ltt_cmd_change_begin() - lock the session named @name for a change of
 * its tree (ltt_cmd_lock_session()) and start collecting what its domains
 * must settle (pass &@ch->settle to ltt_cmd_update())
 * @ch: filled on success; end the change with ltt_cmd_change_end()
 *
 * Returns LTT_ERR_OK, or ltt_cmd_lock_session()'s code (nothing to end).
 */
enum ltt_error_code ltt_cmd_change_begin(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_cmd_change *ch);

/**
 * ltt_cmd_change_domain() - ltt_cmd_change_begin() for a change of one
 * domain's part of the tree: first the domain that serves @type
 * (ltt_cmd_domain(), kept in @ch->d), then @check(d, @arg) (NULL: none),
 * then the session is locked
 *
 * Returns LTT_ERR_OK, or the first failure's code (nothing to end).
 */
enum ltt_error_code ltt_cmd_change_domain(const struct ltt_cmd_ctx *ctx, const char *name,
					  enum ltt_domain type, ltt_cmd_check_fn check,
					  void *arg, struct ltt_cmd_change *ch);

/**
 * ltt_cmd_change_end() - unlock the session, then wait until the domains
 * settled: once this returns, what is running records by the new rules
 * @what: names the change in the log if settling is slow ("change")
 *
 * Waits with no lock held (a domain settles on its own threads).
 */
void ltt_cmd_change_end(const struct ltt_cmd_ctx *ctx, struct ltt_cmd_change *ch,
			const char *what);

/**
 * ltt_cmd_domain() - the domain that serves @type in this daemon
 * @ret_domain: set on success only
 *
 * Returns LTT_ERR_OK or why it is not served (ltt_domains_get()).
 */
enum ltt_error_code ltt_cmd_domain(const struct ltt_cmd_ctx *ctx, enum ltt_domain type,
				   struct ltt_domain_impl **ret_domain);

/**
 * ltt_cmd_update() - have domain @d follow a change of @session's tree
 * (ops->update records it, then ops->apply where the domain has one);
 * session lock held
 * @undo: on failure, called with @arg to take the change back, after
 *        which the domain is updated (and applied) again
 *
 * Returns LTT_ERR_OK, or the code of the failure (NOMEM, LIMIT,
 * CONSUMERD, TRACER): then the tree is as it was before the change.
 */
enum ltt_error_code ltt_cmd_update(struct ltt_domain_impl *d, struct ltt_session *session,
				   struct ltt_domain_settle *settle, void (*undo)(void *arg),
				   void *arg);

/**
 * ltt_cmd_domain_error() - the code of a domain's failure (start, update):
 * NOMEM, LIMIT, CONSUMERD (its consumer died), else TRACER (the tracer
 * refused; the log says why); 0 gives LTT_ERR_OK
 */
enum ltt_error_code ltt_cmd_domain_error(int err);

/**
 * ltt_cmd_output_error() - the code of a trace output's failure (-ENOSPC,
 * -EDQUOT, -EACCES, -EPERM, -ENOENT, -ENOTDIR, -EMFILE, -ENFILE, -EROFS,
 * others: an I/O error); 0 gives LTT_ERR_OK
 */
enum ltt_error_code ltt_cmd_output_error(int err);

/**
 * ltt_cmd_check_buffer() - would a channel of @attr's geometry fit in
 * memory (sub-buffer size x count x possible CPUs, against the host's
 * MemAvailable)?  Returns LTT_ERR_OK or LTT_ERR_BUFFER_MEMORY (logged).
 */
enum ltt_error_code ltt_cmd_check_buffer(const struct ltt_channel_conf *attr);

/**
 * ltt_cmd_check_memory() - before @session's first start: would all its
 * channels' buffers fit in memory?  Session lock held.  Returns
 * LTT_ERR_OK or LTT_ERR_BUFFER_MEMORY; LTT_ERR_OK for a session that
 * started before (its buffers exist).
 */
enum ltt_error_code ltt_cmd_check_memory(const struct ltt_cmd_ctx *ctx,
					 struct ltt_session *session);

/**
 * ltt_cmd_add_channel() - add a channel to @session's domain served by
 * @d, if @d lets it (ops->may_add_channel): ltt_session_add_channel(), its
 * failure mapped: CHANNEL_EXISTS, BUFFER_TYPE_MISMATCH, LIMIT or NOMEM,
 * or the domain's refusal; session lock held
 */
enum ltt_error_code ltt_cmd_add_channel(struct ltt_domain_impl *d, struct ltt_session *session,
					const struct ltt_channel_conf *attr,
					struct ltt_channel **ret_channel);

/**
 * ltt_cmd_error() - the public code of an internal failure (0 or -errno)
 * that its context gives no more specific meaning: NOMEM for -ENOMEM,
 * LIMIT for -ENOSPC (one of our limits), UNKNOWN (logged) for the rest
 */
enum ltt_error_code ltt_cmd_error(int err);

#endif /* LTT_SESSIOND_CMD_H */
