// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-trace-ops.c - what commands do to a session's user-space traces:
 * snapshots, rotations and clears, metadata regeneration, and the
 * queries of its relay (see ust-buffers.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/ctrace/meta-regen.h"
#include "sessiond/ctrace/snap-budget.h"
#include "sessiond/ust/ust-buffers-internal.h"

int ltt_ust_buffers_relay_pending(struct ltt_ust_buffers *b, struct ltt_session *session,
				  bool *ret_pending)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_consumer *c;
	uint64_t gen;

	*ret_pending = false;
	if (!us || session->output_type != LTT_OUTPUT_NET)
		return 0;
	c = ltt_ust_owner_current(b, session, &gen);
	return ltt_relay_pending(&us->relay, c, gen, ret_pending);
}

int ltt_ust_buffers_relay_archive(struct ltt_ust_buffers *b, struct ltt_session *session,
				  const char *from, const char *to, char *ret_dir, size_t len)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_consumer *c;
	uint64_t gen;

	if (!us || !us->relay.key)
		return 0;	/* nothing was ever sent: nothing to archive */
	c = ltt_ust_owner_current(b, session, &gen);
	return ltt_relay_archive(&us->relay, c, gen, from, to, ret_dir, len);
}

int ltt_ust_buffers_relay_status(struct ltt_ust_buffers *b, struct ltt_session *session,
				 struct ltt_relay_desc *ret)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_consumer *c;
	uint64_t gen;

	if (!us || session->output_type != LTT_OUTPUT_NET ||
	    (!us->relay.key && !us->relay.error))
		return -ENOENT;
	c = ltt_ust_owner_current(b, session, &gen);
	ltt_relay_status(&us->relay, c, gen, ret);
	return 0;
}

/* Packets per stream that @max_size bytes hold (snap-budget.h). */
static int64_t packets_per_stream(struct ltt_ust_state *us, uint64_t max_size)
{
	struct ltt_snap_set set = { 0 };
	const struct ltt_ust_trace *trace;
	const struct ltt_ust_chan *chan;

	cds_list_for_each_entry(trace, &us->traces, node)
		cds_list_for_each_entry(chan, &trace->ct.chans, cc.node)
			ltt_snap_set_add(&set, chan->cc.channel->attr.subbuf_size,
					 chan->cc.channel->attr.num_subbuf, chan->nr_streams);
	return ltt_snap_set_packets(&set, max_size);
}

/* One trace's snapshot: in @dir, or to @net's relay. */
static int snapshot_trace(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			  struct ltt_consumer *c, const char *dir, struct ltt_relay_snap *net,
			  uint64_t n, struct ltt_consumer_snapshot_reply *rep)
{
	struct ltt_ust_chan *chan;
	char path[PATH_MAX];
	uint64_t bytes = 0, relay;
	int err;

	/* what a stalled consumer lacks first: the snapshot needs it all */
	if (ltt_ctrace_settle(&trace->ct, c))
		return -ETIMEDOUT;
	cds_list_for_each_entry(chan, &trace->ct.chans, cc.node)
		ltt_add_sat(&bytes, ltt_ust_chan_bytes(chan));
	if (snprintf(path, sizeof(path), "%s/%s", dir, trace->ct.path) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (net) {
		err = ltt_relay_snap_key(net, c, trace->ct.gen, ltt_ust_new_key(b), &relay);
		return err ? err : ltt_consumer_snapshot_trace_relay(c, trace->ct.key, relay,
								     path, n, bytes, rep);
	}
	return ltt_consumer_snapshot_trace(c, trace->ct.key, path, n, bytes, rep);
}

int ltt_ust_buffers_snapshot(struct ltt_ust_buffers *b, struct ltt_session *session,
			     const char *dir, struct ltt_relay_snap *net, uint64_t max_size,
			     struct ltt_consumer_snapshot_reply *ret)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_consumer_snapshot_reply sum = { 0 }, rep;
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	int64_t n;
	int err = 0;

	*ret = sum;
	if (!us)
		return 0;
	n = packets_per_stream(us, max_size);
	if (n < 0)
		return (int)n;
	cds_list_for_each_entry(trace, &us->traces, node) {
		c = ltt_ctrace_consumer(&trace->ct);
		if (!c) {
			LTT_WARN("session '%s': trace %s has no consumer daemon: not in the snapshot",
				 session->name, trace->ct.path);
			continue;
		}
		err = snapshot_trace(b, trace, c, dir, net, (uint64_t)n, &rep);
		if (err) {
			LTT_WARN("session '%s': snapshot of trace %s failed: %s", session->name,
				 trace->ct.path, strerror(-err));
			break;
		}
		ltt_add_sat(&sum.packets, rep.packets);
		ltt_add_sat(&sum.bytes, rep.bytes);
		ltt_add_sat(&sum.packets_dropped, rep.packets_dropped);
		*ret = sum;
	}
	return err;
}

/* What clear_exited() gathers: the names in CHUNK/ust/pid. */
struct pid_dirs {
	char (*v)[NAME_MAX + 1];
	size_t n;
	int err;
};

static void add_pid_dir(void *arg, const char *name)
{
	struct pid_dirs *l = arg;
	char (*grown)[NAME_MAX + 1];

	if (l->err)
		return;
	grown = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	if (!grown) {
		l->err = -ENOMEM;
		return;
	}
	l->v = grown;
	snprintf(l->v[l->n++], sizeof(*l->v), "%s", name);
}

/*
 * A clear: the directories of per-PID traces no program writes to any
 * more (it exited) go too, in CHUNK/ust/pid/ (listed with the owner's
 * rights: a daemon that gave root's up may not read it).  The first
 * -errno.
 */
static int clear_exited(struct ltt_session *session)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct pid_dirs l = { 0 };
	int ret, err;
	size_t i;

	if (session->output_type != LTT_OUTPUT_LOCAL ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/ust/pid", session->chunk_dir) >= sizeof(dir))
		return 0;
	ret = ltt_chunk_list_dir(session, dir, add_pid_dir, &l);
	ret = ret ? ret : l.err;
	for (i = 0; !l.err && i < l.n; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, l.v[i]) >= sizeof(path) ||
		    ltt_ust_buffers_writes_in(session, path))
			continue;
		err = ltt_chunk_remove_tree(session, path);
		if (err)
			LTT_ERR("session '%s': the trace of an exited program, %s, can't be removed: %s",
				session->name, path, strerror(-err));
		else
			LTT_INFO("session '%s': cleared %s (its program exited)", session->name, path);
		ret = ret ? ret : err;
	}
	free(l.v);
	return ret;
}

int ltt_ust_buffers_rotate(struct ltt_ust_buffers *b, struct ltt_session *session,
			   const char *old_root, const char *new_root, bool clear)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct cds_list_head none = CDS_LIST_HEAD_INIT(none);
	struct ltt_ust_trace *trace;
	int ret, first = 0;

	(void)b;
	(void)old_root;	/* each trace's own chunk root: it may have been left in an older one */
	cds_list_for_each_entry(trace, us ? &us->traces : &none, node) {
		ret = ltt_ctrace_rotate(&trace->ct, new_root, clear);
		if (ret == -EINPROGRESS) {
			LTT_ERR("session '%s': the consumer did not answer in time: trace %s moves there once it runs again",
				session->name, trace->ct.path);
			first = first ? first : ret;
		} else if (ret) {
			LTT_ERR("session '%s': trace %s can't %s: %s", session->name, trace->ct.path,
				clear ? "be cleared" : "move to a new chunk", strerror(-ret));
			first = first && first != -EINPROGRESS ? first : ret;	/* the worse */
		}
	}
	ret = clear ? clear_exited(session) : 0;
	return first ? first : ret;
}

/* @trace's metadata again: a new header (clock offset now), the same events. */
static int regenerate_trace(struct ltt_ust_buffers *b, struct ltt_session *session,
			    struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_app app = { 0 };
	struct ltt_wbuf header;
	int ret;

	app.pid = trace->pid;
	app.uid = trace->uid;
	app.bits_per_long = trace->bits_per_long;
	app.registered_at = trace->registered_at;
	strcpy(app.procname, trace->procname);
	ltt_wbuf_init(&header);
	ret = ltt_ust_meta_header(&header, &b->host, session, &app, trace->per_pid, trace->ct.uuid);
	if (!ret)
		ret = ltt_ctrace_meta_regenerate(&trace->ct, c, &header);
	ltt_wbuf_fini(&header);
	return ret;
}

int ltt_ust_buffers_regenerate_metadata(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	int ret, first = 0;

	if (!us)
		return 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		c = ltt_ctrace_consumer(&trace->ct);
		if (!c)
			continue;
		ret = regenerate_trace(b, session, trace, c);
		if (ret) {
			LTT_ERR("session '%s': trace %s: metadata not regenerated: %s", session->name,
				trace->ct.path, strerror(-ret));
			first = first ? first : ret;
		}
	}
	return first;
}