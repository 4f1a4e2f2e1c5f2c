// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd.c - the table from client command numbers to handlers.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/client-proto.h"
#include "common/log.h"
#include "common/output-error.h"
#include "sessiond/cmd/cmd.h"

/* HELLO is handled by the connection itself (client.c). */
static const ltt_cmd_fn handlers[LTT_CLIENT_CMD_NR_] = {
	[LTT_CLIENT_CMD_CREATE_SESSION] = ltt_cmd_create_session,
	[LTT_CLIENT_CMD_DESTROY_SESSION] = ltt_cmd_destroy_session,
	[LTT_CLIENT_CMD_START_SESSION] = ltt_cmd_start_session,
	[LTT_CLIENT_CMD_STOP_SESSION] = ltt_cmd_stop_session,
	[LTT_CLIENT_CMD_LIST_SESSIONS] = ltt_cmd_list_sessions,
	[LTT_CLIENT_CMD_GET_SESSION] = ltt_cmd_get_session,
	[LTT_CLIENT_CMD_LIST_TRACEPOINTS] = ltt_cmd_list_tracepoints,
	[LTT_CLIENT_CMD_ENABLE_CHANNEL] = ltt_cmd_enable_channel,
	[LTT_CLIENT_CMD_DISABLE_CHANNEL] = ltt_cmd_disable_channel,
	[LTT_CLIENT_CMD_ENABLE_EVENT] = ltt_cmd_enable_event,
	[LTT_CLIENT_CMD_DISABLE_EVENT] = ltt_cmd_disable_event,
	[LTT_CLIENT_CMD_DATA_PENDING] = ltt_cmd_data_pending,
	[LTT_CLIENT_CMD_RELAY_STATUS] = ltt_cmd_relay_status,
	[LTT_CLIENT_CMD_SNAPSHOT_ADD_OUTPUT] = ltt_cmd_snapshot_add_output,
	[LTT_CLIENT_CMD_SNAPSHOT_DEL_OUTPUT] = ltt_cmd_snapshot_del_output,
	[LTT_CLIENT_CMD_SNAPSHOT_LIST_OUTPUT] = ltt_cmd_snapshot_list_output,
	[LTT_CLIENT_CMD_SNAPSHOT_RECORD] = ltt_cmd_snapshot_record,
	[LTT_CLIENT_CMD_ROTATE_SESSION] = ltt_cmd_rotate_session,
	[LTT_CLIENT_CMD_ENABLE_ROTATION] = ltt_cmd_enable_rotation,
	[LTT_CLIENT_CMD_DISABLE_ROTATION] = ltt_cmd_disable_rotation,
	[LTT_CLIENT_CMD_CLEAR_SESSION] = ltt_cmd_clear_session,
	[LTT_CLIENT_CMD_REGENERATE] = ltt_cmd_regenerate,
	[LTT_CLIENT_CMD_ROTATION_INFO] = ltt_cmd_rotation_info,
	[LTT_CLIENT_CMD_TRACK] = ltt_cmd_track,
	[LTT_CLIENT_CMD_UNTRACK] = ltt_cmd_untrack,
	[LTT_CLIENT_CMD_TRACKER_POLICY] = ltt_cmd_tracker_policy,
	[LTT_CLIENT_CMD_LIST_TRACKERS] = ltt_cmd_list_trackers,
	[LTT_CLIENT_CMD_ADD_CONTEXT] = ltt_cmd_add_context,
	[LTT_CLIENT_CMD_LIST_CONTEXTS] = ltt_cmd_list_contexts,
	[LTT_CLIENT_CMD_KERNEL_TRACER] = ltt_cmd_kernel_tracer,
};

/*
 * Commands that may wait for programs' acks or for the consumer: the
 * client thread runs them on its worker so that other clients are served
 * meanwhile.
 */
static const bool may_wait[LTT_CLIENT_CMD_NR_] = {
	[LTT_CLIENT_CMD_CREATE_SESSION] = true,	/* a relay must answer (5 s at most) */
	[LTT_CLIENT_CMD_DESTROY_SESSION] = true,
	[LTT_CLIENT_CMD_START_SESSION] = true,
	[LTT_CLIENT_CMD_STOP_SESSION] = true,
	[LTT_CLIENT_CMD_GET_SESSION] = true,
	[LTT_CLIENT_CMD_LIST_TRACEPOINTS] = true,	/* apps_lock: held while programs are sent to */
	[LTT_CLIENT_CMD_ENABLE_CHANNEL] = true,
	[LTT_CLIENT_CMD_DISABLE_CHANNEL] = true,
	[LTT_CLIENT_CMD_ENABLE_EVENT] = true,
	[LTT_CLIENT_CMD_DISABLE_EVENT] = true,
	[LTT_CLIENT_CMD_DATA_PENDING] = true,	/* asks the consumers */
	[LTT_CLIENT_CMD_RELAY_STATUS] = true,
	[LTT_CLIENT_CMD_SNAPSHOT_RECORD] = true,	/* the consumer writes the snapshot */
	/* the session's lock, which a record holds while the consumer writes */
	[LTT_CLIENT_CMD_SNAPSHOT_ADD_OUTPUT] = true,
	[LTT_CLIENT_CMD_SNAPSHOT_DEL_OUTPUT] = true,
	[LTT_CLIENT_CMD_SNAPSHOT_LIST_OUTPUT] = true,
	/* the consumer moves or clears the traces; the session lock may be a rotation's */
	[LTT_CLIENT_CMD_ROTATE_SESSION] = true,
	[LTT_CLIENT_CMD_ENABLE_ROTATION] = true,
	[LTT_CLIENT_CMD_DISABLE_ROTATION] = true,
	[LTT_CLIENT_CMD_CLEAR_SESSION] = true,
	[LTT_CLIENT_CMD_REGENERATE] = true,
	[LTT_CLIENT_CMD_ROTATION_INFO] = true,
	/* programs follow a tracker change before the reply; names are looked up */
	[LTT_CLIENT_CMD_TRACK] = true,
	[LTT_CLIENT_CMD_UNTRACK] = true,
	[LTT_CLIENT_CMD_TRACKER_POLICY] = true,
	[LTT_CLIENT_CMD_LIST_TRACKERS] = true,	/* the session lock, as GET_SESSION */
	[LTT_CLIENT_CMD_ADD_CONTEXT] = true,	/* may create the default channel */
	[LTT_CLIENT_CMD_LIST_CONTEXTS] = true,
};

bool ltt_cmd_may_wait(unsigned int cmd)
{
	return cmd < LTT_CLIENT_CMD_NR_ && may_wait[cmd];
}

enum ltt_error_code ltt_cmd_dispatch(const struct ltt_cmd_ctx *ctx, unsigned int cmd,
				     const void *payload, size_t len, struct ltt_wbuf *reply)
{
	long min = ltt_client_cmd_min_payload(cmd);
	enum ltt_error_code err;
	struct ltt_rbuf req;

	if (min < 0 || cmd >= LTT_CLIENT_CMD_NR_ || !handlers[cmd])
		return LTT_ERR_NOT_SUPPORTED;
	if (len < (size_t)min)
		return LTT_ERR_PROTOCOL;
	ltt_rbuf_init(&req, payload, len);
	err = handlers[cmd](ctx, &req, reply);
	LTT_DBG("client pid %d uid %u: %s -> %s", (int)ctx->cred.pid, (unsigned int)ctx->cred.uid,
		ltt_client_cmd_name(cmd), ltt_error_name(err));
	return err;
}

enum ltt_error_code ltt_cmd_find_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session)
{
	int err = ltt_session_find(ctx->registry, name, ctx->cred.uid, ret_session);

	if (err)
		return err == -ENOTUNIQ ? LTT_ERR_SESSION_AMBIGUOUS : LTT_ERR_SESSION_NOT_FOUND;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_lock_session(const struct ltt_cmd_ctx *ctx, const char *name,
					 struct ltt_session **ret_session)
{
	struct ltt_session *session;
	enum ltt_error_code err;

	err = ltt_cmd_find_session(ctx, name, &session);
	if (err)
		return err;
	pthread_mutex_lock(&session->lock);
	if (session->destroyed) {
		/* Removed between the lookup and the lock. */
		pthread_mutex_unlock(&session->lock);
		ltt_session_put(ctx->registry, session);
		return LTT_ERR_SESSION_NOT_FOUND;
	}
	*ret_session = session;
	return LTT_ERR_OK;
}

void ltt_cmd_unlock_session(const struct ltt_cmd_ctx *ctx, struct ltt_session *session)
{
	if (!session)
		return;
	if (!session->destroyed)
		ltt_cmd_view_save(ctx, session);
	pthread_mutex_unlock(&session->lock);
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

	if (session->active)
		return LTT_ERR_CHANNEL_ACTIVE_ADD;
	code = d->ops->may_add_channel ? d->ops->may_add_channel(d, session) : LTT_ERR_OK;
	if (code)
		return code;
	err = ltt_session_add_channel(ltt_session_domain(session, d->type), attr, ret_channel);
	return LTT_ERRMAP(add_channel_errors, err, ltt_cmd_error);
}

enum ltt_error_code ltt_cmd_update(struct ltt_domain_impl *d, struct ltt_session *session,
				   struct ltt_domain_settle *settle, void (*undo)(void *arg),
				   void *arg)
{
	int err = d->ops->update(d, session, settle);

	if (!err)
		return LTT_ERR_OK;
	LTT_WARN("session '%s': the %s tracer could not follow a change (%s): undone",
		 session->name, ltt_domain_name(d->type), strerror(-err));
	undo(arg);
	if (d->ops->update(d, session, settle))
		LTT_ERR("session '%s': the %s domain could not go back to its rules",
			session->name, ltt_domain_name(d->type));
	return ltt_cmd_domain_error(err);
}

/* What the failures ltt_cmd_error() knows are (0 too), in a table. */
static const struct ltt_errmap internal_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -ENOMEM, LTT_ERR_NOMEM },
	{ -ENOSPC, LTT_ERR_LIMIT },
	{ -EPIPE, LTT_ERR_CONSUMERD },
	{ -ETIMEDOUT, LTT_ERR_CONSUMERD_STALLED },
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
