/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - the client commands: one table from command number to handler,
 * handlers grouped by object in cmd-session.c, cmd-channel.c, cmd-event.c.
 *
 * A handler decodes its whole request, checks it with ltt_rbuf_end()
 * before acting (a malformed request changes nothing), and either fails
 * with a negated ltt error code and no reply payload, or succeeds and
 * appends its reply payload.  Handlers run on the client thread.
 */
#ifndef LTT_SESSIOND_CMD_H
#define LTT_SESSIOND_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "common/codec.h"
#include "sessiond/domain.h"
#include "sessiond/session.h"

struct ltt_cmd_ctx {
	struct ltt_session_registry *registry;
	const struct ltt_domains *domains;	/* what serves each domain */
	struct ucred cred;	/* the client */
};

typedef int (*ltt_cmd_fn)(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply);

/**
 * ltt_cmd_dispatch() - run one client command
 * @cmd: the command number from the request header
 * @payload: @len bytes, borrowed
 * @reply: receives the reply payload on success
 *
 * Returns 0 or a negated ltt error code: NOT_SUPPORTED for an unknown
 * command, PROTOCOL for a malformed request, or the handler's error.
 */
int ltt_cmd_dispatch(const struct ltt_cmd_ctx *ctx, unsigned int cmd, const void *payload,
		     size_t len, struct ltt_wbuf *reply);

/**
 * ltt_cmd_may_wait() - may command @cmd wait for programs or the consumer
 * (seconds, at worst)?  Such commands run on the client thread's worker.
 */
bool ltt_cmd_may_wait(unsigned int cmd);

/* cmd-session.c */
int ltt_cmd_create_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			   struct ltt_wbuf *reply);
int ltt_cmd_destroy_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			    struct ltt_wbuf *reply);
int ltt_cmd_start_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply);
int ltt_cmd_stop_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			 struct ltt_wbuf *reply);
int ltt_cmd_list_sessions(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply);
int ltt_cmd_get_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			struct ltt_wbuf *reply);
int ltt_cmd_list_tracepoints(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			     struct ltt_wbuf *reply);
/* cmd-channel.c */
int ltt_cmd_enable_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			   struct ltt_wbuf *reply);
int ltt_cmd_disable_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			    struct ltt_wbuf *reply);
/* cmd-event.c */
int ltt_cmd_enable_event(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			 struct ltt_wbuf *reply);
int ltt_cmd_disable_event(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply);

/**
 * ltt_cmd_destroy_all() - stop and destroy every session, writing what
 * they recorded (daemon shutdown); no client may be served meanwhile
 */
void ltt_cmd_destroy_all(const struct ltt_cmd_ctx *ctx);

/**
 * ltt_cmd_lock_session() - find the session named @name that the client may
 * use, and lock it
 * @ret_session: a reference, locked; release with ltt_cmd_unlock_session()
 *
 * Returns 0 or -LTT_ERR_SESSION_NOT_FOUND.
 */
int ltt_cmd_lock_session(const struct ltt_cmd_ctx *ctx, const char *name,
			 struct ltt_session **ret_session);

/**
 * ltt_cmd_unlock_session() - unlock and release; accepts NULL
 */
void ltt_cmd_unlock_session(const struct ltt_cmd_ctx *ctx, struct ltt_session *session);

/**
 * ltt_cmd_domain() - the domain that serves @type in this daemon
 * @ret_domain: set on success only
 *
 * Returns 0 or the negated code of why it is not served
 * (ltt_domains_get()).
 */
int ltt_cmd_domain(const struct ltt_cmd_ctx *ctx, enum ltt_domain type,
		   struct ltt_domain_impl **ret_domain);

#endif /* LTT_SESSIOND_CMD_H */
