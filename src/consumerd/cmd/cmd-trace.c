// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-trace.c - the commands of traces: ADD_TRACE (local or relayed),
 * ADD_SNAPSHOT_TRACE, METADATA, RESET_METADATA, DESTROY_TRACE, and
 * PROBE_OUTPUT, the check of a directory before a trace is made there.
 * Handlers of cmd.h's table; command thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "common/base/log.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/cmd/cmd.h"
#include "consumerd/sink/fs.h"

/*
 * The trace a {u64 trace_key} payload names, in *@ret_trace once decoded
 * (NULL when none): 0, -EPROTO or -ENOENT (logged with @name).
 */
static int key_trace(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, const char *name,
		     struct ltt_trace **ret_trace)
{
	uint64_t key;

	if (ltt_consumer_get_key(r, &key))
		return -EPROTO;
	*ret_trace = ltt_registry_trace(&ctx->reg, key);
	if (*ret_trace)
		return 0;
	ltt_registry_no_such(name, "trace", key);
	return -ENOENT;	/* literal: the compiler must see *ret_trace set on 0 */
}

/*
 * May a new trace take @key (command @name's)?  0, -EEXIST (logged) or
 * -ENOBUFS (LTT_REGISTRY_MAX_TRACES reached).
 */
static int trace_key_unused(const struct ltt_cmd_ctx *ctx, uint64_t key, const char *name)
{
	if (ltt_registry_trace(&ctx->reg, key)) {
		LTT_WARN("%s: trace key %" PRIu64 " already in use", name, key);
		return -EEXIST;
	}
	return ctx->reg.nr_traces >= LTT_REGISTRY_MAX_TRACES ? -ENOBUFS : 0;
}

/* ADD_TRACE {u64 trace_key, str dir, 16 bytes uuid, u32 uid, u32 gid [, u64 relay_key]} */
int ltt_cmd_add_trace(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
		      struct ltt_wbuf *reply)
{
	struct ltt_consumer_add_trace m;
	struct ltt_registry_relay *re = NULL;
	struct ltt_owner owner;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_add_trace(r, &m))
		return -EPROTO;
	ret = trace_key_unused(ctx, m.key, "ADD_TRACE");
	if (ret)
		return ret;
	if (m.relay_key) {
		re = ltt_registry_relay(&ctx->reg, m.relay_key);
		if (!re)
			return ltt_registry_no_such("ADD_TRACE", "relay", m.relay_key);
	}
	t = ltt_registry_trace_at(&ctx->reg, m.dir, re ? re->relay : NULL);
	if (t) {
		LTT_WARN("ADD_TRACE: trace %" PRIu64 " already writes to %s", t->key, m.dir);
		return -EEXIST;
	}
	if (re && m.resume) {
		LTT_WARN("ADD_TRACE: a relayed trace can't be resumed: not supported");
		return -EOPNOTSUPP;
	}
	if (!re && m.dir[0] != '/') {
		LTT_WARN("ADD_TRACE: trace directory '%s' is not an absolute path", m.dir);
		return -EINVAL;
	}
	owner.uid = (uid_t)m.uid;
	owner.gid = (gid_t)m.gid;
	if (re)
		ret = ltt_trace_create_relayed(m.key, m.dir, m.uuid, &owner, re->relay, &t);
	else
		ret = ltt_trace_create(m.key, m.dir, m.uuid, &owner, m.resume, &t);
	if (ret == -EINVAL && re)
		LTT_WARN("ADD_TRACE: '%s' is not a relative path without . or .. components",
			 m.dir);
	if (ret)
		return ret;
	ltt_registry_add_trace(&ctx->reg, t, re);
	LTT_INFO("trace %" PRIu64 ": %s%s", m.key, m.dir,
		 re ? " (relayed)" : m.resume ? " (taken over from a consumer that died)" : "");
	return 0;
}

/* ADD_SNAPSHOT_TRACE {u64 trace_key, 16 bytes uuid, u32 uid, u32 gid} (1.6) */
int ltt_cmd_add_snapshot_trace(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			       struct ltt_wbuf *reply)
{
	struct ltt_consumer_add_snapshot_trace m;
	struct ltt_owner owner;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_add_snapshot_trace(r, &m))
		return -EPROTO;
	owner.uid = (uid_t)m.uid;
	owner.gid = (gid_t)m.gid;
	ret = trace_key_unused(ctx, m.key, "ADD_SNAPSHOT_TRACE");
	if (!ret)
		ret = ltt_trace_create_snapshot(m.key, m.uuid, &owner, &t);
	if (ret)
		return ret;
	ltt_registry_add_trace(&ctx->reg, t, NULL);
	LTT_INFO("trace %" PRIu64 ": snapshot mode (written by SNAPSHOT_TRACE only)", m.key);
	return 0;
}

/* METADATA {u64 trace_key, u32 len, len bytes of TSDL text} */
int ltt_cmd_metadata(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
		     struct ltt_wbuf *reply)
{
	struct ltt_consumer_metadata m;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_metadata(r, &m))
		return -EPROTO;
	t = ltt_registry_trace(&ctx->reg, m.trace_key);
	if (!t)
		return ltt_registry_no_such("METADATA", "trace", m.trace_key);
	ret = ltt_trace_append_metadata(t, m.text, m.len);
	if (ret == -EINVAL)
		LTT_WARN("METADATA: trace %" PRIu64 ": the text holds a NUL byte", m.trace_key);
	return ret;
}

/* RESET_METADATA {u64 trace_key} */
int ltt_cmd_reset_metadata(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			   struct ltt_wbuf *reply)
{
	struct ltt_trace *t;
	int ret = key_trace(ctx, r, "RESET_METADATA", &t);

	return ret ? ret : ltt_trace_reset_metadata(t, false);
}

/* DESTROY_TRACE {u64 trace_key} */
int ltt_cmd_destroy_trace(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			  struct ltt_wbuf *reply)
{
	struct ltt_trace *t;
	int ret = key_trace(ctx, r, "DESTROY_TRACE", &t);

	return ret ? ret : ltt_registry_remove_trace(&ctx->reg, t);
}

/* PROBE_OUTPUT {str dir, u32 uid, u32 gid} */
int ltt_cmd_probe_output(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_consumer_probe_output m;
	struct ltt_owner owner;
	int ret;

	(void)ctx;
	if (ltt_consumer_get_probe_output(r, &m))
		return -EPROTO;
	owner.uid = (uid_t)m.uid;
	owner.gid = (gid_t)m.gid;
	ret = ltt_fs_probe(m.dir, &owner);
	if (ret)
		LTT_WARN("PROBE_OUTPUT: uid %u can't write a trace under %s: %s", m.uid, m.dir,
			 strerror(-ret));
	return ret;
}

