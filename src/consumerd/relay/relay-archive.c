// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay-archive.c - a rotation's closed chunk archived on the relay's
 * side (ARCHIVE_CHUNK, relay protocol 2.12; rlink.h).
 *
 * The relay moves a chunk's directory only once every stream of it is
 * closed and every packet written, or it refuses.  So the request waits
 * here until the streams of the old chunk are closed (CLOSE_STREAM
 * queued: the relay reads it first, the control connection keeps order)
 * and no SEND_INDEX of theirs is awaited: the relay answers a packet's
 * index once the packet is written.  Checked at every pump of the relay.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "consumerd/relay/relay-link.h"

/* Is trace @path @from or below it? */
static bool under(const char *path, const char *from)
{
	size_t n = strlen(from);

	return !strncmp(path, from, n) && (!path[n] || path[n] == '/');
}

/* Is a stream of the chunk still open, or a packet of it unconfirmed?  Locked. */
static bool chunk_busy(const struct ltt_relay *r)
{
	const struct relay_archive *a = &r->archive;
	const struct relay_stream *st;
	const struct expect *e;

	for (st = r->streams; st; st = st->next)
		if (under(st->path, a->from) && !st->closed)
			return true;
	for (e = r->exp_head; e; e = e->next)
		if (e->st && under(e->st->path, a->from) &&
		    (e->packet || e->cmd == LTT_RELAY_ADD_STREAM))
			return true;
	return false;
}

/*
 * Queue the wanted ARCHIVE_CHUNK once every stream of the chunk is closed
 * and every packet of it confirmed written.  Locked.
 */
static void archive_try(struct ltt_relay *r)
{
	struct relay_archive *a = &r->archive;
	struct ltt_relay_archive_chunk *m;
	struct ltt_wbuf pl;
	int ret;

	if (!a->wanted || r->conn_error || chunk_busy(r))
		return;
	m = calloc(1, sizeof(*m));
	if (!m) {
		rlink_fail(r, -ENOMEM);
		return;
	}
	strcpy(m->from, a->from);
	strcpy(m->to, a->to);
	ltt_wbuf_init(&pl);
	ltt_relay_put_archive_chunk(&pl, m);
	free(m);
	ret = pl.err ? pl.err : rlink_queue_ctrl_e(r, LTT_RELAY_ARCHIVE_CHUNK, &pl, NULL, NULL);
	ltt_wbuf_fini(&pl);
	a->wanted = false;
	if (ret) {
		a->result = ret;
		return;
	}
	a->in_flight = true;
	rlink_send_queue(r, r->ctrl, &r->ctrl_q);
	rlink_nudge(r);
}

/* ARCHIVE_CHUNK's reply, @ret_code.  Locked. */
static void archive_answered(struct ltt_relay *r, uint32_t ret_code)
{
	struct relay_archive *a = &r->archive;

	a->in_flight = false;
	switch (ret_code) {
	case LTT_RELAY_OK:
		a->result = 0;
		return;
	case LTT_RELAY_ERR_EXIST:
		a->result = -EEXIST;
		break;
	case LTT_RELAY_ERR_NOENT:
		a->result = -ENOENT;
		break;
	case LTT_RELAY_ERR_INVAL:
		a->result = -EINVAL;
		break;
	case LTT_RELAY_ERR_UNSUPPORTED:
		a->result = -EPROTONOSUPPORT;
		break;
	default:
		a->result = -EIO;
		break;
	}
	LTT_ERR("%s: the relay did not %s %s%s%s: %s", r->label, a->to[0] ? "archive" : "discard",
		a->from, a->to[0] ? " as " : "", a->to, ltt_relay_ret_str(ret_code));
}

int ltt_rlink_archive(struct ltt_relay *r, const char *from, const char *to)
{
	struct relay_archive *a = &r->archive;
	int ret;

	if (!from || !to || !*from || strlen(from) >= sizeof(a->from) ||
	    strlen(to) >= sizeof(a->to))
		return -EINVAL;
	pthread_mutex_lock(&r->lock);
	ret = r->conn_error;
	if (!ret && (r->minor < LTT_RELAY_MINOR_ARCHIVE || !r->ltt_ext))
		ret = -EPROTONOSUPPORT;	/* ARCHIVE_CHUNK is ltt-relayd's alone */
	if (!ret && (a->wanted || a->in_flight))
		ret = -EBUSY;
	if (!ret) {
		strcpy(a->from, from);
		strcpy(a->to, to);
		a->wanted = true;
		a->result = -EINPROGRESS;
		a->try = archive_try;
		a->answered = archive_answered;
		archive_try(r);
	}
	pthread_mutex_unlock(&r->lock);
	if (!ret)
		rlink_kick(r);
	return ret;
}

int ltt_rlink_archive_result(struct ltt_relay *r)
{
	int ret;

	pthread_mutex_lock(&r->lock);
	ret = r->archive.result;
	if (!r->archive.from[0])
		ret = -ENOENT;
	else if (ret == -EINPROGRESS && r->conn_error)
		ret = r->conn_error;
	pthread_mutex_unlock(&r->lock);
	return ret;
}
