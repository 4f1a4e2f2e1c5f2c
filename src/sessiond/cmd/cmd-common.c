// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-common.c - what every command uses (see cmd.h): sessions found and
 * locked, a change of one domain begun and ended, failures mapped to public
 * codes, buffers checked against the memory there is.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/output-error.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"

enum ltt_error_code ltt_cmd_find_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session)
{
	int err = ltt_session_find(ctx->registry, name, ctx->cred.uid, ret_session);

	if (err)
		return err == -ENOTUNIQ ? LTT_ERR_SESSION_AMBIGUOUS : LTT_ERR_SESSION_NOT_FOUND;
	return LTT_ERR_OK;
}

/* Find @name and lock it (@state: its state lock alone), else NOT_FOUND. */
static enum ltt_error_code find_locked(const struct ltt_cmd_ctx *ctx, const char *name, bool state,
				       struct ltt_session **ret_session)
{
	struct ltt_session *session;
	enum ltt_error_code err;

	err = ltt_cmd_find_session(ctx, name, &session);
	if (err)
		return err;
	if (state)
		ltt_session_lock_state(session);
	else
		ltt_session_lock(session);
	if (session->destroyed) {
		/* Removed between the lookup and the lock. */
		if (state)
			ltt_session_unlock_state(session);
		else
			ltt_session_unlock(session);
		ltt_session_put(ctx->registry, session);
		return LTT_ERR_SESSION_NOT_FOUND;
	}
	*ret_session = session;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_lock_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session)
{
	return find_locked(ctx, name, false, ret_session);
}

enum ltt_error_code ltt_cmd_read_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session)
{
	return find_locked(ctx, name, true, ret_session);
}

void ltt_cmd_unlock_session(const struct ltt_cmd_ctx *ctx, struct ltt_session *session)
{
	if (!session)
		return;
	ltt_session_unlock(session);
	ltt_session_put(ctx->registry, session);
}

enum ltt_error_code ltt_cmd_with_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 ltt_cmd_locked_fn fn, void *arg)
{
	struct ltt_session *session;
	enum ltt_error_code ret;

	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	ret = fn(ctx, session, arg);
	ltt_cmd_unlock_session(ctx, session);
	return ret;
}

enum ltt_error_code ltt_cmd_change_begin(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_cmd_change *ch)
{
	enum ltt_error_code ret;

	ret = ltt_cmd_lock_session(ctx, name, &ch->session);
	if (!ret)
		ltt_domain_settle_init(&ch->settle);
	return ret;
}

enum ltt_error_code ltt_cmd_change_domain(const struct ltt_cmd_ctx *ctx, const char *name,
					  enum ltt_domain type, ltt_cmd_check_fn check,
					  void *arg, struct ltt_cmd_change *ch)
{
	enum ltt_error_code ret;

	ret = ltt_cmd_domain(ctx, type, &ch->d);
	if (!ret && check)
		ret = check(ch->d, arg);
	return ret ? ret : ltt_cmd_change_begin(ctx, name, ch);
}

void ltt_cmd_change_end(const struct ltt_cmd_ctx *ctx, struct ltt_cmd_change *ch,
			const char *what)
{
	ltt_cmd_unlock_session(ctx, ch->session);
	ltt_domain_settle_wait(&ch->settle, what);
}

enum ltt_error_code ltt_cmd_domain(const struct ltt_cmd_ctx *ctx, enum ltt_domain type,
				   struct ltt_domain_impl **ret_domain)
{
	return ltt_domains_get(ctx->domains, type, ret_domain);
}

static const struct ltt_errmap add_channel_errors[] = {
	{ -EEXIST, LTT_ERR_CHANNEL_EXISTS },
	{ -EADDRINUSE, LTT_ERR_TRACEFILE_CLASH },
	{ -EINVAL, LTT_ERR_BUFFER_TYPE_MISMATCH },
};

enum ltt_error_code ltt_cmd_add_channel(struct ltt_domain_impl *d, struct ltt_session *session,
					const struct ltt_channel_conf *attr,
					struct ltt_channel **ret_channel)
{
	enum ltt_error_code code;
	int err;

	/* LTTng's daemon: not once the session was started, stopped since or not */
	if (ltt_session_started_once(session))
		return LTT_ERR_CHANNEL_STARTED;
	code = d->ops->may_add_channel ? d->ops->may_add_channel(d, session) : LTT_ERR_OK;
	if (code)
		return code;
	err = ltt_session_add_channel(ltt_session_domain(session, d->type), attr, ret_channel);
	return LTT_ERRMAP(add_channel_errors, err, ltt_cmd_error);
}

/* The domain's update, then its apply where it has one. */
static int update_apply(struct ltt_domain_impl *d, struct ltt_session *session,
			struct ltt_domain_settle *settle)
{
	int err = d->ops->update(d, session, settle);

	if (!err && d->ops->apply)
		err = d->ops->apply(d, session, settle);
	return err;
}

enum ltt_error_code ltt_cmd_update(struct ltt_domain_impl *d, struct ltt_session *session,
				   struct ltt_domain_settle *settle, void (*undo)(void *arg),
				   void *arg)
{
	int err = update_apply(d, session, settle);
	enum ltt_error_code code;

	if (!err)
		return LTT_ERR_OK;
	code = ltt_cmd_domain_error(err);
	LTT_WARN("session '%s': the %s tracer could not follow a change (%s: %s): undone",
		 session->name, ltt_domain_name(d->type), ltt_error_name(code), strerror(-err));
	undo(arg);
	if (update_apply(d, session, settle))
		LTT_ERR("session '%s': the %s domain could not go back to its rules",
			session->name, ltt_domain_name(d->type));
	return code;
}

/* What the failures ltt_cmd_error() knows are (0 too), in a table. */
static const struct ltt_errmap internal_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -ENOMEM, LTT_ERR_NOMEM },
	{ -ENOSPC, LTT_ERR_LIMIT },
	{ -EPIPE, LTT_ERR_CONSUMERD },
	{ -ETIMEDOUT, LTT_ERR_CONSUMERD_STALLED },
	/* LTTng's agents' answers (lagent.h: ltt_lagent_sync_wait()) */
	{ -ENOMSG, LTT_ERR_AGENT_UNKNOWN_NAME },
	{ -EBADE, LTT_ERR_AGENT_REFUSED },
	{ -ENOLINK, LTT_ERR_AGENT_NO_ANSWER },
};

/* Any other failure is the tracer's refusal. */
static enum ltt_error_code tracer_refused(int err)
{
	return LTT_ERR_TRACER;
}

enum ltt_error_code ltt_cmd_domain_error(int err)
{
	return LTT_ERRMAP(internal_errors, err, tracer_refused);
}

enum ltt_error_code ltt_cmd_output_error(int err)
{
	return ltt_output_error_code(err);
}

/* A failure no table names: logged, for it is a bug or a case to add. */
static enum ltt_error_code unexpected(int err)
{
	LTT_WARN("unexpected internal failure: %s", strerror(-err));
	return LTT_ERR_UNKNOWN;
}

enum ltt_error_code ltt_cmd_error(int err)
{
	return LTT_ERRMAP(internal_errors, err, unexpected);
}

/* Bytes the host can still give without swapping (MemAvailable), 0 if unknown. */
static uint64_t mem_available(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb > UINT64_MAX / 1024 ? UINT64_MAX : (uint64_t)kb * 1024;
}

/* A channel's buffers in all: per CPU, times the possible CPUs (saturated). */
static uint64_t buffer_bytes(const struct ltt_channel_conf *attr)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t per_cpu, all;

	if (__builtin_mul_overflow(attr->subbuf_size, attr->num_subbuf, &per_cpu) ||
	    __builtin_mul_overflow(per_cpu, (uint64_t)(cpus > 0 ? cpus : 1), &all))
		return UINT64_MAX;
	return all;
}

static enum ltt_error_code check_bytes(uint64_t need, const char *what)
{
	uint64_t avail = mem_available();

	if (!avail || need <= avail)
		return LTT_ERR_OK;
	LTT_WARN("%s: its buffers need %" PRIu64 " MiB, the host has %" PRIu64
		 " MiB available: refused", what, need >> 20, avail >> 20);
	return LTT_ERR_BUFFER_MEMORY;
}

enum ltt_error_code ltt_cmd_check_buffer(const struct ltt_channel_conf *attr)
{
	return check_bytes(buffer_bytes(attr), attr->name);
}

enum ltt_error_code ltt_cmd_check_memory(const struct ltt_cmd_ctx *ctx,
					 struct ltt_session *session)
{
	const struct ltt_channel *channel;
	uint64_t need = 0, b;
	size_t i;

	(void)ctx;
	for (i = 0; i < 2; i++) {
		if (session->domains[i].state)
			return LTT_ERR_OK;	/* started before: the buffers exist */
		cds_list_for_each_entry(channel, &session->domains[i].channels, node) {
			b = buffer_bytes(&channel->attr);
			need = b > UINT64_MAX - need ? UINT64_MAX : need + b;
		}
	}
	return check_bytes(need, session->name);
}

enum ltt_error_code ltt_cmd_triggers_changed(const struct ltt_cmd_ctx *ctx)
{
	struct ltt_domain_impl *d;
	int err, first = 0;
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = ctx->domains->v[i];
		if (d && d->ops->triggers_changed && (err = d->ops->triggers_changed(d)) && !first)
			first = err;
	}
	return ltt_cmd_domain_error(first);
}
