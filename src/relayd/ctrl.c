// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctrl.c - the control connection: requests read whole into a bounded
 * buffer, validated, dispatched from one table, answered in order
 * (ctrl.h, common/proto/relay-proto.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/proto/relay-proto.h"
#include "relayd/ctrl.h"
#include "relayd/reconcile.h"
#include "relayd/server.h"
#include "relayd/session.h"
#include "relayd/stream.h"

/* Input read ahead: at least this much room, so small requests batch. */
#define IN_MIN_CAP 65536
/* Requests served per readable event, so one peer can't hog the loop. */
#define MAX_ROUNDS 16

struct ctrl_state {
	uint8_t *in;				/* bytes received, not yet served */
	size_t in_len, in_cap;
	bool versioned;
	uint32_t minor;				/* agreed */
	struct ltt_relay_session *session;	/* a reference */
	struct ltt_wbuf reply;
	/* a SEND_INDEX answered once its packet is written: requests wait */
	bool wait;
	uint64_t wait_handle, wait_seq;
	struct ltt_evloop_timer *wake;		/* serves them once it is */
	/* the session's trace chunk (an LTTng 2.11+ peer's, or ltt's chunk 0) */
	bool chunk_created, chunk_closed;
	uint64_t chunk_id;
};

typedef int (*ctrl_fn)(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out);

struct ctrl_cmd {
	uint32_t cmd;
	const char *name;
	bool needs_session;
	ctrl_fn fn;
};

static struct ctrl_state *state(const struct ltt_relay_conn *conn)
{
	return conn->state;
}

/* The ret_code for an internal error. */
static uint32_t ret_code(int err)
{
	switch (err) {
	case 0:
		return LTT_RELAY_OK;
	case -ENOENT:
		return LTT_RELAY_ERR_NOENT;
	case -EINVAL:
	case -ENAMETOOLONG:
	case -ENOSPC:
	case -EMFILE:
		return LTT_RELAY_ERR_INVAL;
	case -EEXIST:
		return LTT_RELAY_ERR_EXIST;
	case -EIO:
	case -EFBIG:
	case -EDQUOT:
	case -EROFS:
	case -EACCES:
	case -EPERM:
		return LTT_RELAY_ERR_IO;
	default:
		return LTT_RELAY_ERR;
	}
}

/* Why a request was refused, for the log. */
static const char *refusal(int err)
{
	if (err == -EMFILE || err == -ENOSPC)
		return "a limit of the relay is reached";
	return strerror(-err);
}

static int malformed(struct ltt_relay_conn *conn, const char *what)
{
	LTT_WARN_RL("control connection from %s: malformed %s: closed", conn->peer, what);
	return -EPROTO;
}

static int cmd_version(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ltt_relay_version v, mine = { LTT_RELAY_MAJOR, LTT_RELAY_MINOR };
	struct ctrl_state *cs = state(conn);

	if (ltt_relay_get_version(in, &v))
		return malformed(conn, "VERSION");
	ltt_relay_put_version(out, &mine);
	if (v.major != LTT_RELAY_MAJOR) {
		LTT_WARN_RL("control connection from %s: protocol %u.%u, we speak %u.%u: closing",
			 conn->peer, v.major, v.minor, LTT_RELAY_MAJOR, LTT_RELAY_MINOR);
		ltt_relay_conn_close_after_send(conn);
		return 0;
	}
	cs->versioned = true;
	cs->minor = v.minor < LTT_RELAY_MINOR ? v.minor : LTT_RELAY_MINOR;
	return 0;
}

static int cmd_create_session(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
			      struct ltt_wbuf *out)
{
	struct ltt_relay_create_session_reply rep = { .ret_code = LTT_RELAY_OK };
	struct ltt_relay_create_session *req;
	struct ctrl_state *cs = state(conn);
	int ret;

	req = malloc(sizeof(*req));
	if (!req)
		return -ENOMEM;
	if (ltt_relay_get_create_session(in, req, cs->minor)) {
		free(req);
		return malformed(conn, "CREATE_SESSION");
	}
	if (cs->minor < LTT_RELAY_MINOR_TRACE_FORMAT)
		req->trace_format = LTT_RELAY_TRACE_FORMAT_CTF_1_8;	/* all before 2.15 knew */
	if (cs->session) {
		rep.ret_code = LTT_RELAY_ERR_EXIST;	/* one session per connection */
	} else {
		ret = ltt_relay_session_create(conn->server->model, req, &cs->session);
		if (ret) {
			LTT_WARN_RL("control connection from %s: session %s of %s refused: %s",
				 conn->peer, req->session_name, req->hostname, refusal(ret));
			rep.ret_code = ret_code(ret);
		} else {
			rep.relay_session_id = cs->session->id;
			strcpy(rep.output_path, cs->session->output_path);
		}
	}
	free(req);
	ltt_relay_put_create_session_reply(out, &rep);
	return 0;
}

static int cmd_add_stream(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ltt_relay_add_stream_reply rep = { .ret_code = LTT_RELAY_OK };
	struct ltt_relay_add_stream *req;
	int ret;

	req = malloc(sizeof(*req));
	if (!req)
		return -ENOMEM;
	if (ltt_relay_get_add_stream(in, req)) {
		free(req);
		return malformed(conn, "ADD_STREAM");
	}
	ret = ltt_relay_stream_add(state(conn)->session, req, &rep.stream_handle);
	if (ret) {
		LTT_WARN_RL("control connection from %s: stream %s/%s refused: %s", conn->peer,
			 req->pathname, req->channel_name, refusal(ret));
		rep.ret_code = ret_code(ret);
	}
	free(req);
	ltt_relay_put_add_stream_reply(out, &rep);
	return 0;
}

static int cmd_streams_sent(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	if (ltt_rbuf_end(in))
		return malformed(conn, "STREAMS_SENT");
	ltt_relay_session_streams_sent(state(conn)->session);
	ltt_relay_put_ret(out, LTT_RELAY_OK);
	return 0;
}

/* A request naming a stream the session lacks is malformed (relay-proto.h). */
static int stream_result(struct ltt_relay_conn *conn, const char *what, int ret,
			 struct ltt_wbuf *out)
{
	if (ret == -ENOENT) {
		LTT_WARN_RL("control connection from %s: %s for an unknown stream: closed", conn->peer,
			 what);
		return -EPROTO;
	}
	if (ret && ret != -EINVAL)
		LTT_WARN_RL("control connection from %s: %s failed: %s", conn->peer, what,
			 strerror(-ret));
	ltt_relay_put_ret(out, ret_code(ret));
	return 0;
}

static int cmd_send_metadata(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ltt_relay_metadata_hdr h;
	struct ltt_rbuf hr;
	const void *bytes;
	size_t len;

	if (in->len < 12)
		return malformed(conn, "SEND_METADATA");
	ltt_rbuf_init(&hr, in->data, 12);
	if (ltt_relay_get_metadata_hdr(&hr, &h))
		return malformed(conn, "SEND_METADATA");
	/* as LTTng sends it: the padding is not in the payload, the relay adds it */
	len = in->len - 12;
	bytes = in->data + 12;
	return stream_result(conn, "SEND_METADATA",
			     ltt_relay_stream_metadata(state(conn)->session, h.stream_handle, bytes,
						       len, h.padding_size), out);
}

static int cmd_reset_metadata(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
			      struct ltt_wbuf *out)
{
	struct ltt_relay_reset_metadata m;
	int ret;

	if (ltt_relay_get_reset_metadata(in, &m))
		return malformed(conn, "RESET_METADATA");
	/* any minor: LTTng's consumers send it since 2.8 (the 16-byte form) */
	ret = ltt_relay_stream_reset_metadata(state(conn)->session, &m);
	if (ret == -EOPNOTSUPP) {
		LTT_WARN_RL("control connection from %s: RESET_METADATA of a live session without the rewrite's size (an LTTng consumer): refused",
			 conn->peer);
		ltt_relay_put_ret(out, LTT_RELAY_ERR_UNSUPPORTED);
		return 0;
	}
	return stream_result(conn, "RESET_METADATA", ret, out);
}

static void wake_fired(struct ltt_evloop *loop, void *arg)
{
	(void)loop;
	ltt_relay_conn_kick(arg);
}

/* A packet of the session was written: the waiting index may be answered. */
static void packet_written(void *arg)
{
	struct ltt_relay_conn *conn = arg;
	struct ctrl_state *cs = state(conn);

	if (cs->wait)
		ltt_evloop_timer_arm(cs->wake, 1, 0);	/* served from the loop, not from here */
}

/*
 * The reply to a packet's SEND_INDEX says "written": it waits until the
 * data connection wrote the packet (the consumer counts what is never
 * answered as lost when the connection dies), and the requests after it
 * wait with it.  A beacon (packet_size 0) is answered at once.
 */
static int cmd_send_index(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ctrl_state *cs = state(conn);
	struct ltt_relay_index idx;
	int ret;

	if (ltt_relay_get_index(in, &idx))
		return malformed(conn, "SEND_INDEX");
	ret = ltt_relay_stream_index(cs->session, &idx);
	if (!ret && idx.packet_size)
		ret = ltt_relay_stream_written(cs->session, idx.stream_handle, idx.net_seq_num);
	if (ret == 0 && idx.packet_size) {
		if (!cs->wake) {
			ret = ltt_evloop_timer_create(conn->server->loop, wake_fired, conn,
						      &cs->wake);
			if (ret)
				return ret;
		}
		cs->session->written_fn = packet_written;
		cs->session->written_arg = conn;
		cs->wait = true;
		cs->wait_handle = idx.stream_handle;
		cs->wait_seq = idx.net_seq_num;
		return 0;	/* answered by check_wait() */
	}
	return stream_result(conn, "SEND_INDEX", ret > 0 ? 0 : ret, out);
}

/* Answer the waiting SEND_INDEX if its packet is written.  */
static int check_wait(struct ltt_relay_conn *conn)
{
	struct ctrl_state *cs = state(conn);
	int ret;

	if (!cs->wait)
		return 0;
	ret = ltt_relay_stream_written(cs->session, cs->wait_handle, cs->wait_seq);
	if (ret == 0)
		return 0;
	cs->wait = false;
	ret = stream_result(conn, "SEND_INDEX", ret > 0 ? 0 : ret, &cs->reply);
	if (!ret)
		ret = ltt_relay_conn_send(conn, &cs->reply);
	return ret;
}

static int cmd_close_stream(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ltt_relay_stream_seq m;

	if (ltt_relay_get_stream_seq(in, &m))
		return malformed(conn, "CLOSE_STREAM");
	return stream_result(conn, "CLOSE_STREAM",
			     ltt_relay_stream_close(state(conn)->session, m.stream_handle,
						    m.last_net_seq_num), out);
}

static int cmd_quiescent(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	uint64_t handle;

	if (ltt_relay_get_u64_msg(in, &handle))
		return malformed(conn, "QUIESCENT_CONTROL");
	/* nothing to flush here: the stream only has to exist */
	return stream_result(conn, "QUIESCENT_CONTROL",
			     ltt_relay_stream_quiescent(state(conn)->session, handle), out);
}

static int cmd_data_pending(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ltt_relay_stream_seq m;
	bool pending = false;
	int ret;

	if (ltt_relay_get_stream_seq(in, &m))
		return malformed(conn, "DATA_PENDING");
	ret = ltt_relay_stream_data_pending(state(conn)->session, m.stream_handle,
					    m.last_net_seq_num, &pending);
	if (ret == -ENOENT)
		return stream_result(conn, "DATA_PENDING", ret, out);
	ltt_relay_put_ret(out, pending);
	return 0;
}

static int cmd_begin_data_pending(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
				  struct ltt_wbuf *out)
{
	uint64_t id;

	if (ltt_relay_get_u64_msg(in, &id))
		return malformed(conn, "BEGIN_DATA_PENDING");
	ltt_relay_put_ret(out, id == state(conn)->session->id ? LTT_RELAY_OK : LTT_RELAY_ERR_NOENT);
	return 0;
}

/* END_DATA_PENDING's reply is LTTng's {u32}: 1 while data is in flight, else 0. */
static int cmd_end_data_pending(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
				struct ltt_wbuf *out)
{
	struct ltt_relay_session *s = state(conn)->session;
	uint64_t id;

	if (ltt_relay_get_u64_msg(in, &id))
		return malformed(conn, "END_DATA_PENDING");
	if (id != s->id)
		LTT_WARN_RL("control connection from %s: END_DATA_PENDING of session %" PRIu64
			    ", not its own (%" PRIu64 "): answered for its own", conn->peer, id,
			    s->id);
	ltt_relay_put_ret(out, ltt_relay_session_pending(s) ? 1 : 0);
	return 0;
}

/*
 * GET_CONFIGURATION (LTTng 2.12, which a peer of minor 12 may send after
 * VERSION): LTT_RELAY_CONFIG_LTT, so that ltt's consumers use ltt's
 * extensions, and NO_CLEAR under --disallow-clear; never CLEAR_ALLOWED
 * (LTTng's clear is not served).  A query flag is refused as LTTng does.
 */
static int cmd_get_configuration(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
				 struct ltt_wbuf *out)
{
	struct ltt_relay_get_configuration_reply rep = {
		.ret_code = LTT_RELAY_OK,
		.flags = LTT_RELAY_CONFIG_LTT | LTT_RELAY_CONFIG_RECONCILE |
			(conn->server->model->disallow_clear ? LTT_RELAY_CONFIG_NO_CLEAR : 0),
	};
	uint64_t query;

	if (ltt_relay_get_u64_msg(in, &query))
		return malformed(conn, "GET_CONFIGURATION");
	if (query) {
		rep.ret_code = LTT_RELAY_ERR_LTTNG_PROTOCOL;
		rep.flags = 0;
	}
	ltt_relay_put_get_configuration_reply(out, &rep);
	return 0;
}

/*
 * CREATE_TRACE_CHUNK: the session's first chunk is its output directory
 * (as LTTng's relay places a session's first chunk); a second one would
 * be a rotation of an LTTng peer, which ltt-relayd does not serve.
 */
static int cmd_create_chunk(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
			    struct ltt_wbuf *out)
{
	struct ctrl_state *cs = state(conn);
	struct ltt_relay_create_chunk *m;

	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (ltt_relay_get_create_chunk(in, m)) {
		free(m);
		return malformed(conn, "CREATE_TRACE_CHUNK");
	}
	if (cs->chunk_created) {
		LTT_WARN_RL("control connection from %s: trace chunk %" PRIu64
			    " after chunk %" PRIu64 " (a rotation or clear of an LTTng session): not supported by ltt-relayd",
			    conn->peer, m->chunk_id, cs->chunk_id);
		ltt_relay_put_ret(out, LTT_RELAY_ERR_UNSUPPORTED);
	} else {
		cs->chunk_created = true;
		cs->chunk_id = m->chunk_id;
		LTT_DBG("control connection from %s: trace chunk %" PRIu64 " is the session's directory",
			conn->peer, m->chunk_id);
		ltt_relay_put_ret(out, LTT_RELAY_OK);
	}
	free(m);
	return 0;
}

/* Why CLOSE_TRACE_CHUNK @m is refused, or NULL. */
static const char *close_refusal(const struct ctrl_state *cs, const struct ltt_relay_close_chunk *m)
{
	if (!cs->chunk_created || cs->chunk_closed || m->chunk_id != cs->chunk_id)
		return "not the session's open trace chunk";
	if (m->has_command && m->command == LTT_RELAY_CHUNK_DELETE)
		return "a clear, which ltt-relayd does not serve";
	if (m->has_command && m->command == LTT_RELAY_CHUNK_MOVE_TO_COMPLETED)
		return "an archive of the chunk (a rotation), which ltt-relayd does not serve to LTTng peers";
	if (m->has_command && m->command != LTT_RELAY_CHUNK_NO_OPERATION)
		return "an unknown close command";
	return NULL;
}

/* CLOSE_TRACE_CHUNK: the chunk stays where it is; the reply names it. */
static int cmd_close_chunk(struct ltt_relay_conn *conn, struct ltt_rbuf *in, struct ltt_wbuf *out)
{
	struct ctrl_state *cs = state(conn);
	struct ltt_relay_close_chunk_reply *rep;
	struct ltt_relay_close_chunk m;
	const char *why;

	if (ltt_relay_get_close_chunk(in, &m))
		return malformed(conn, "CLOSE_TRACE_CHUNK");
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return -ENOMEM;
	why = close_refusal(cs, &m);
	if (why) {
		LTT_WARN_RL("control connection from %s: CLOSE_TRACE_CHUNK %" PRIu64 " refused: %s",
			    conn->peer, m.chunk_id, why);
		rep->ret_code = LTT_RELAY_ERR_UNSUPPORTED;
	} else {
		cs->chunk_closed = true;
		rep->ret_code = LTT_RELAY_OK;
		snprintf(rep->path, sizeof(rep->path), "%s", cs->session->output_path);
	}
	ltt_relay_put_close_chunk_reply(out, rep);
	free(rep);
	return 0;
}

static int cmd_chunk_exists(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
			    struct ltt_wbuf *out)
{
	struct ctrl_state *cs = state(conn);
	struct ltt_relay_chunk_exists_reply rep = { .ret_code = LTT_RELAY_OK };
	uint64_t id;

	if (ltt_relay_get_u64_msg(in, &id))
		return malformed(conn, "TRACE_CHUNK_EXISTS");
	rep.exists = cs->chunk_created && !cs->chunk_closed && id == cs->chunk_id;
	ltt_relay_put_chunk_exists_reply(out, &rep);
	return 0;
}

/*
 * ROTATE_STREAMS: without a new chunk (LTTng's destroy: the streams
 * leave their chunk, no packet follows) there is nothing to do; into a
 * new chunk it is a rotation, not served.
 */
static int cmd_rotate_streams(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
			      struct ltt_wbuf *out)
{
	struct ltt_relay_rotate_streams m;

	if (ltt_relay_get_rotate_streams(in, &m))
		return malformed(conn, "ROTATE_STREAMS");
	if (m.has_new_chunk) {
		LTT_WARN_RL("control connection from %s: ROTATE_STREAMS into trace chunk %" PRIu64
			    " (a rotation of an LTTng session): not supported by ltt-relayd",
			    conn->peer, m.new_chunk_id);
		ltt_relay_put_ret(out, LTT_RELAY_ERR_UNSUPPORTED);
		return 0;
	}
	ltt_relay_put_ret(out, LTT_RELAY_OK);
	return 0;
}

static int cmd_archive_chunk(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
			     struct ltt_wbuf *out)
{
	struct ltt_relay_archive_chunk *m;
	int ret;

	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (ltt_relay_get_archive_chunk(in, m)) {
		free(m);
		return malformed(conn, "ARCHIVE_CHUNK");
	}
	ret = ltt_relay_session_archive(state(conn)->session, m->from, m->to);
	if (ret)
		LTT_WARN_RL("control connection from %s: ARCHIVE_CHUNK %s -> %s refused: %s",
			 conn->peer, m->from, m->to, strerror(-ret));
	ltt_relay_put_ret(out, !ret ? LTT_RELAY_OK :
			       ret == -EEXIST ? LTT_RELAY_ERR_EXIST :
			       ret == -ENOENT ? LTT_RELAY_ERR_NOENT :
			       ret == -EPERM ? LTT_RELAY_ERR_UNSUPPORTED :
			       ret == -EINVAL || ret == -EBUSY || ret == -ENAMETOOLONG ?
			       LTT_RELAY_ERR_INVAL : LTT_RELAY_ERR_IO);
	free(m);
	return 0;
}

/*
 * RECONCILE_STREAM (reconcile.h): no session needed, the stream's files
 * are found by their path.  Every outcome is answered; only a request
 * that does not decode closes the connection.
 */
static int cmd_reconcile_stream(struct ltt_relay_conn *conn, struct ltt_rbuf *in,
				struct ltt_wbuf *out)
{
	struct ltt_relay_reconcile_reply rep = { .ret_code = LTT_RELAY_OK };
	struct ltt_relay_reconcile_stream *m;
	uint64_t *seqs;
	uint32_t i;
	int ret;

	m = malloc(sizeof(*m));
	seqs = malloc(LTT_RELAY_RECONCILE_MAX * sizeof(*seqs));
	if (!m || !seqs) {
		free(m);
		free(seqs);
		return -ENOMEM;
	}
	if (ltt_relay_get_reconcile_stream(in, m)) {
		free(m);
		free(seqs);
		return malformed(conn, "RECONCILE_STREAM");
	}
	ret = ltt_relay_reconcile(conn->server->model, m, seqs, &rep.count);
	if (ret) {
		LTT_WARN_RL("control connection from %s: RECONCILE_STREAM of %s/%s/%s refused: %s",
			    conn->peer, m->session_path, m->pathname, m->channel_name,
			    ret == -EEXIST ? "a session of the relay holds it" : strerror(-ret));
		rep.ret_code = ret_code(ret);
		rep.count = 0;
	} else {
		LTT_INFO("control connection from %s: stream %s/%s/%s holds %u indexed packets from packet_seq_num %" PRIu64,
			 conn->peer, m->session_path, m->pathname, m->channel_name, rep.count,
			 m->first_packet_seq);
	}
	ltt_relay_put_reconcile_reply(out, &rep);
	for (i = 0; i < rep.count; i++)
		ltt_wbuf_put_be64(out, seqs[i]);
	free(m);
	free(seqs);
	return 0;
}

static const struct ctrl_cmd commands[] = {
	{ LTT_RELAY_VERSION, "VERSION", false, cmd_version },
	{ LTT_RELAY_CREATE_SESSION, "CREATE_SESSION", false, cmd_create_session },
	{ LTT_RELAY_ADD_STREAM, "ADD_STREAM", true, cmd_add_stream },
	{ LTT_RELAY_STREAMS_SENT, "STREAMS_SENT", true, cmd_streams_sent },
	{ LTT_RELAY_SEND_METADATA, "SEND_METADATA", true, cmd_send_metadata },
	{ LTT_RELAY_RESET_METADATA, "RESET_METADATA", true, cmd_reset_metadata },
	{ LTT_RELAY_SEND_INDEX, "SEND_INDEX", true, cmd_send_index },
	{ LTT_RELAY_CLOSE_STREAM, "CLOSE_STREAM", true, cmd_close_stream },
	{ LTT_RELAY_QUIESCENT_CONTROL, "QUIESCENT_CONTROL", true, cmd_quiescent },
	{ LTT_RELAY_DATA_PENDING, "DATA_PENDING", true, cmd_data_pending },
	{ LTT_RELAY_BEGIN_DATA_PENDING, "BEGIN_DATA_PENDING", true, cmd_begin_data_pending },
	{ LTT_RELAY_END_DATA_PENDING, "END_DATA_PENDING", true, cmd_end_data_pending },
	{ LTT_RELAY_GET_CONFIGURATION, "GET_CONFIGURATION", false, cmd_get_configuration },
	{ LTT_RELAY_CREATE_TRACE_CHUNK, "CREATE_TRACE_CHUNK", true, cmd_create_chunk },
	{ LTT_RELAY_CLOSE_TRACE_CHUNK, "CLOSE_TRACE_CHUNK", true, cmd_close_chunk },
	{ LTT_RELAY_TRACE_CHUNK_EXISTS, "TRACE_CHUNK_EXISTS", true, cmd_chunk_exists },
	{ LTT_RELAY_ROTATE_STREAMS, "ROTATE_STREAMS", true, cmd_rotate_streams },
	{ LTT_RELAY_ARCHIVE_CHUNK, "ARCHIVE_CHUNK", true, cmd_archive_chunk },
	{ LTT_RELAY_RECONCILE_STREAM, "RECONCILE_STREAM", false, cmd_reconcile_stream },
};

static const struct ctrl_cmd *find_cmd(uint32_t cmd)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].cmd == cmd)
			return &commands[i];
	return NULL;
}

/* Serve one whole request; its reply goes into cs->reply. */
static int serve(struct ltt_relay_conn *conn, const struct ltt_relay_ctrl_hdr *h,
		 const uint8_t *payload)
{
	struct ctrl_state *cs = state(conn);
	const struct ctrl_cmd *c = find_cmd(h->cmd);
	struct ltt_rbuf in;
	int ret;

	if (!cs->versioned && h->cmd != LTT_RELAY_VERSION) {
		LTT_WARN_RL("control connection from %s: command %u before VERSION: closed",
			 conn->peer, h->cmd);
		return -EPROTO;
	}
	if (!c) {
		LTT_DBG("control connection from %s: command %u not supported", conn->peer, h->cmd);
		ltt_relay_put_ret(&cs->reply, LTT_RELAY_ERR_UNSUPPORTED);
		return 0;
	}
	if (c->needs_session && !cs->session) {
		LTT_WARN_RL("control connection from %s: %s before CREATE_SESSION: closed", conn->peer,
			 c->name);
		return -EPROTO;
	}
	LTT_DBG("control connection from %s: %s (%" PRIu64 " bytes)", conn->peer, c->name,
		h->data_size);
	ltt_rbuf_init(&in, payload, (size_t)h->data_size);
	ret = c->fn(conn, &in, &cs->reply);
	if (!ret && h->cmd == LTT_RELAY_SEND_METADATA &&
	    h->cmd_version != LTT_RELAY_METADATA_ANSWERED)
		ltt_wbuf_reset(&cs->reply);	/* LTTng's senders read no reply to it */
	return ret;
}

/* Serve the whole requests at the start of the input; keep the rest. */
static int serve_buffer(struct ltt_relay_conn *conn)
{
	struct ctrl_state *cs = state(conn);
	struct ltt_relay_ctrl_hdr h;
	struct ltt_rbuf r;
	size_t pos = 0;
	int ret;

	ret = check_wait(conn);
	if (ret)
		return ret;
	while (!conn->closing && !cs->wait && cs->in_len - pos >= LTT_RELAY_CTRL_HDR_SIZE &&
	       conn->out.len - conn->out_pos < LTT_RELAY_MAX_PENDING_OUT) {
		ltt_rbuf_init(&r, cs->in + pos, LTT_RELAY_CTRL_HDR_SIZE);
		if (ltt_relay_get_ctrl_hdr(&r, &h))
			return malformed(conn, "request header");
		if (h.data_size > LTT_RELAY_MAX_CTRL_PAYLOAD) {
			LTT_WARN_RL("control connection from %s: request of %" PRIu64
				 " bytes (at most %u): closed", conn->peer, h.data_size,
				 LTT_RELAY_MAX_CTRL_PAYLOAD);
			return -EPROTO;
		}
		if (cs->in_len - pos - LTT_RELAY_CTRL_HDR_SIZE < h.data_size)
			break;
		ret = serve(conn, &h, cs->in + pos + LTT_RELAY_CTRL_HDR_SIZE);
		if (!ret)
			ret = ltt_relay_conn_send(conn, &cs->reply);
		if (ret)
			return ret;
		pos += LTT_RELAY_CTRL_HDR_SIZE + (size_t)h.data_size;
	}
	if (pos) {	/* cs->in may be NULL (nothing buffered): no arithmetic on it */
		memmove(cs->in, cs->in + pos, cs->in_len - pos);
		cs->in_len -= pos;
	}
	return 0;
}

/* Room for the request being received; at most header + max payload. */
static int make_room(struct ctrl_state *cs)
{
	size_t need = IN_MIN_CAP;
	uint8_t *p;

	if (cs->in_len >= LTT_RELAY_CTRL_HDR_SIZE) {
		struct ltt_relay_ctrl_hdr h;
		struct ltt_rbuf r;

		ltt_rbuf_init(&r, cs->in, LTT_RELAY_CTRL_HDR_SIZE);
		/* a larger one is refused once serve_buffer() reaches it (it may be waiting) */
		if (!ltt_relay_get_ctrl_hdr(&r, &h) && h.data_size <= LTT_RELAY_MAX_CTRL_PAYLOAD &&
		    LTT_RELAY_CTRL_HDR_SIZE + h.data_size > need)
			need = LTT_RELAY_CTRL_HDR_SIZE + (size_t)h.data_size;
	}
	if (cs->in_cap >= need)
		return 0;
	p = realloc(cs->in, need);
	if (!p)
		return -ENOMEM;
	cs->in = p;
	cs->in_cap = need;
	return 0;
}

static int ctrl_readable(struct ltt_relay_conn *conn)
{
	struct ctrl_state *cs = state(conn);
	size_t n;
	int i, ret;

	/* requests left when replies piled up are served first */
	ret = serve_buffer(conn);
	if (ret)
		return ret;
	for (i = 0; i < MAX_ROUNDS && !conn->closing; i++) {
		if (conn->out.len - conn->out_pos >= LTT_RELAY_MAX_PENDING_OUT)
			return 0;	/* the peer reads its replies first */
		ret = make_room(cs);
		if (ret)
			return ret;
		if (cs->in_len == cs->in_cap)
			return 0;	/* a waiting SEND_INDEX: paused until it is answered */
		ret = ltt_relay_conn_read(conn, cs->in + cs->in_len, cs->in_cap - cs->in_len, &n);
		if (ret == -EAGAIN)
			return 0;
		if (ret == -ECONNRESET && cs->in_len) {
			LTT_WARN_RL("control connection from %s: closed in the middle of a request",
				 conn->peer);
			return -EPIPE;
		}
		if (ret)
			return ret;
		cs->in_len += n;
		ret = serve_buffer(conn);
		if (ret)
			return ret;
		/* a large buffer is given back once its request is served */
		if (!cs->in_len && cs->in_cap > IN_MIN_CAP) {
			free(cs->in);
			cs->in = NULL;
			cs->in_cap = 0;
		}
	}
	return 0;
}

static bool ctrl_busy(const struct ltt_relay_conn *conn)
{
	return state(conn)->in_len > 0 || state(conn)->wait;
}

/* Reading stops only when a waiting SEND_INDEX left no room for more. */
static bool ctrl_paused(const struct ltt_relay_conn *conn)
{
	const struct ctrl_state *cs = state(conn);

	return cs->wait && cs->in_cap && cs->in_len == cs->in_cap;
}

/* Bound to a session: a consumer's connection, which may idle for ever. */
static bool ctrl_established(const struct ltt_relay_conn *conn)
{
	return state(conn)->session != NULL;
}

static void ctrl_closed(struct ltt_relay_conn *conn)
{
	struct ctrl_state *cs = state(conn);

	if (cs->wake)
		ltt_evloop_timer_destroy(cs->wake);
	cs->wake = NULL;
	if (cs->session) {
		if (cs->session->written_arg == conn) {
			cs->session->written_fn = NULL;
			cs->session->written_arg = NULL;
		}
		ltt_relay_session_close(cs->session);
		ltt_relay_session_put(cs->session);
		cs->session = NULL;
	}
	free(cs->in);
	ltt_wbuf_fini(&cs->reply);
}

const struct ltt_relay_proto_ops ltt_relay_ctrl_ops = {
	.name = "control",
	.state_size = sizeof(struct ctrl_state),
	.readable = ctrl_readable,
	.busy = ctrl_busy,
	.established = ctrl_established,
	.first = "VERSION and CREATE_SESSION",
	.closed = ctrl_closed,
	.paused = ctrl_paused,
};
