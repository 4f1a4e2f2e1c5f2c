// SPDX-License-Identifier: LGPL-2.1-only
/*
 * consumer-proto.c - message names and payload codecs of the
 * sessiond-consumerd protocol.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "common/ftrace/ftrace-conv.h"
#include "common/model/uri.h"
#include "common/proto/consumer-proto.h"
#include "abi/ltt-abi.h"

#define NAME_(name, num) [num] = #name,
static const char *const msg_names[] = { LTT_CONSUMER_MSG_TABLE(NAME_) };
#undef NAME_

const char *ltt_consumer_msg_name(uint32_t type)
{
	if (type >= sizeof(msg_names) / sizeof(msg_names[0]))
		return NULL;
	return msg_names[type];
}

int ltt_consumer_data_threads_parse(const char *text, unsigned int *ret_n)
{
	unsigned int n = 0;
	const char *p;

	if (!text || !*text || !ret_n)
		return -EINVAL;
	for (p = text; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		n = n * 10 + (unsigned int)(*p - '0');
		if (n > LTT_CONSUMER_DATA_THREADS_MAX)	/* also keeps n from overflowing */
			return -EINVAL;
	}
	if (n < 1)
		return -EINVAL;
	*ret_n = n;
	return 0;
}

static bool pow2_within(uint64_t v, uint64_t min, uint64_t max)
{
	return v >= min && v <= max && !(v & (v - 1));
}

/*
 * ADD_CHANNEL on the wire: the flags byte (overwrite, fsync from 1.12,
 * auto-reclaim from 1.17: bits 0, 1 and 2), the reclaim ages when bit 2
 * is set, then, for a kernel or tracefs channel only (a user-space one
 * ends as 1.0 did, so any consumer takes it), the domain and its buffer
 * geometry, and for tracefs its stream id and contexts.
 */
struct add_channel_wire {
	struct ltt_consumer_add_channel m;
	uint8_t flags;
	bool domain_sent;	/* the length says: user space's has no block */
};

#define ADD_CHANNEL_RECLAIM_BIT 2

#define LTT_MSG struct add_channel_wire
LTT_CODEC(consumer_add_channel, LTT_CODEC_LE,
	  LTT_ROW_U64(m.key), LTT_ROW_U64(m.trace_key), LTT_ROW_STRREF(m.name, NAME_MAX + 1),
	  LTT_ROW_U64(m.tracefile_size), LTT_ROW_U64(m.tracefile_count),
	  LTT_ROW_U32(m.switch_timer_us), LTT_ROW_U32(m.read_timer_us),
	  LTT_ROW_MAX(flags, UINT, 1, 0, 7),
	  LTT_ROW_WHEN_BIT(flags, ADD_CHANNEL_RECLAIM_BIT),
	  LTT_ROW_U64(m.auto_reclaim_ns), LTT_ROW_U64(m.auto_reclaim_counts),
	  LTT_ROW_WHEN_END(),
	  LTT_ROW_TAIL(domain_sent), LTT_ROW_U8(m.domain), LTT_ROW_U64(m.subbuf_size),
	  LTT_ROW_U64(m.num_subbuf),
	  LTT_ROW_WHEN_EQ(m.domain, LTT_CONSUMER_DOMAIN_TRACEFS),
	  LTT_ROW_U32(m.stream_id), LTT_ROW_MAX(m.nr_ctx, UINT, 4, 0, LTT_CTX_MAX));
#undef LTT_MSG

/* The contexts that follow the table: a tracefs channel's, as many as fit. */
static uint32_t add_channel_nr_ctx(const struct ltt_consumer_add_channel *m)
{
	if (m->domain != LTT_CONSUMER_DOMAIN_TRACEFS)
		return 0;
	return m->nr_ctx < LTT_CTX_MAX ? m->nr_ctx : LTT_CTX_MAX;
}

void ltt_consumer_put_add_channel(struct ltt_wbuf *w, const struct ltt_consumer_add_channel *m)
{
	struct add_channel_wire t;

	/* the rows' members, not the contexts (a few KiB the table never reads) */
	memcpy(&t.m, m, offsetof(struct ltt_consumer_add_channel, ctx));
	t.flags = (uint8_t)(m->overwrite | m->fsync << 1 | m->auto_reclaim << ADD_CHANNEL_RECLAIM_BIT);
	t.domain_sent = m->domain != LTT_CONSUMER_DOMAIN_USER;
	ltt_codec_put(w, &consumer_add_channel, &t);
	ltt_codec_put_array(w, ltt_ctx_codec, m->ctx, sizeof(m->ctx[0]), add_channel_nr_ctx(m));
}

/*
 * The contexts a tracefs channel's conversion can write: what a record
 * holds, and what its task table says (common/ftrace/ftrace-conv.h).
 */
static int tracefs_ctx_check(const struct ltt_consumer_add_channel *m)
{
	uint32_t i;

	for (i = 0; i < m->nr_ctx; i++) {
		if (!ltt_ctx_check(&m->ctx[i]))
			return -EINVAL;
		if (m->ctx[i].type != LTT_CONTEXT_TID && m->ctx[i].type != LTT_CONTEXT_CPU_ID &&
		    !ltt_ftrace_conv_task_context(m->ctx[i].type))
			return -EOPNOTSUPP;
	}
	return 0;
}

int ltt_consumer_get_add_channel(struct ltt_rbuf *r, struct ltt_consumer_add_channel *ret)
{
	struct add_channel_wire t;

	memset(&t, 0, sizeof(t));
	ltt_codec_get(r, &consumer_add_channel, &t);
	ltt_codec_get_array(r, ltt_ctx_codec, t.m.ctx, sizeof(t.m.ctx[0]), add_channel_nr_ctx(&t.m));
	if (t.domain_sent && t.m.domain == LTT_CONSUMER_DOMAIN_USER)
		ltt_rbuf_fail(r);	/* user space sends no block */
	if (ltt_rbuf_end(r))
		return -EPROTO;
	t.m.overwrite = t.flags & 1;
	t.m.fsync = t.flags >> 1 & 1;
	t.m.auto_reclaim = t.flags >> ADD_CHANNEL_RECLAIM_BIT & 1;
	if (t.m.domain > LTT_CONSUMER_DOMAIN_TRACEFS ||
	    (t.m.auto_reclaim && (t.m.domain != LTT_CONSUMER_DOMAIN_USER || t.m.overwrite)))
		return -EOPNOTSUPP;
	if (t.m.domain != LTT_CONSUMER_DOMAIN_USER &&
	    (!pow2_within(t.m.subbuf_size, LTT_KABI_MIN_SUBBUF_SIZE, LTT_KABI_MAX_SUBBUF_SIZE) ||
	     !pow2_within(t.m.num_subbuf, LTT_KABI_MIN_NUM_SUBBUF, LTT_KABI_MAX_NUM_SUBBUF) ||
	     t.m.subbuf_size * t.m.num_subbuf > LTT_KABI_MAX_BUFFER_PER_CPU))
		return -EINVAL;
	if (t.m.domain == LTT_CONSUMER_DOMAIN_TRACEFS) {
		int err = tracefs_ctx_check(&t.m);

		if (err)
			return err;
	}
	*ret = t.m;
	return 0;
}

/* ---- the messages of fixed layout, as field tables (codec.h) ---- */

#define LTT_MSG struct ltt_consumer_add_kernel_stream
LTT_CODEC(consumer_add_kernel_stream, LTT_CODEC_LE, LTT_ROW_U64(channel_key), LTT_ROW_U32(cpu));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_version
LTT_CODEC(consumer_version, LTT_CODEC_LE, LTT_ROW_U32(major), LTT_ROW_U32(minor));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_add_stream
LTT_CODEC(consumer_add_stream, LTT_CODEC_LE, LTT_ROW_U64(channel_key), LTT_ROW_U32(cpu));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_snapshot_trace
LTT_CODEC(consumer_snapshot_trace, LTT_CODEC_LE,
	  LTT_ROW_U64(trace_key), LTT_ROW_STRREF(dir, LTT_CONSUMER_PATH_MAX),
	  LTT_ROW_U64(max_packets));
LTT_CODEC(consumer_snapshot_trace_relay, LTT_CODEC_LE,
	  LTT_ROW_U64(trace_key), LTT_ROW_U64(relay_key),
	  LTT_ROW_STRREF(dir, LTT_CONSUMER_PATH_MAX), LTT_ROW_U64(max_packets));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_relay_archive
LTT_CODEC(consumer_relay_archive, LTT_CODEC_LE,
	  LTT_ROW_U64(relay_key), LTT_ROW_STRREF(from, LTT_CONSUMER_PATH_MAX),
	  LTT_ROW_STRREF(to, LTT_CONSUMER_PATH_MAX));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_snapshot_reply
LTT_CODEC(consumer_snapshot_reply, LTT_CODEC_LE,
	  LTT_ROW_U64(packets), LTT_ROW_U64(bytes), LTT_ROW_U64(packets_dropped));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_rotate_trace
LTT_CODEC(consumer_rotate_trace, LTT_CODEC_LE,
	  LTT_ROW_U64(trace_key), LTT_ROW_BOOL(clear), LTT_ROW_STRREF(dir, LTT_CONSUMER_PATH_MAX));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_add_snapshot_trace
LTT_CODEC(consumer_add_snapshot_trace, LTT_CODEC_LE,
	  LTT_ROW_U64(key), LTT_ROW_BYTES(uuid), LTT_ROW_U32(uid), LTT_ROW_U32(gid));
#undef LTT_MSG

#define LTT_MSG struct ltt_consumer_probe_output
LTT_CODEC(consumer_probe_output, LTT_CODEC_LE,
	  LTT_ROW_STRREF(dir, LTT_CONSUMER_PATH_MAX), LTT_ROW_U32(uid), LTT_ROW_U32(gid));
#undef LTT_MSG

LTT_CODEC_PAIR(consumer, add_kernel_stream, struct ltt_consumer_add_kernel_stream)
LTT_CODEC_PAIR(consumer, version, struct ltt_consumer_version)
LTT_CODEC_PAIR(consumer, add_stream, struct ltt_consumer_add_stream)
LTT_CODEC_PAIR(consumer, snapshot_trace, struct ltt_consumer_snapshot_trace)
LTT_CODEC_PAIR(consumer, snapshot_trace_relay, struct ltt_consumer_snapshot_trace)
LTT_CODEC_PAIR(consumer, relay_archive, struct ltt_consumer_relay_archive)
LTT_CODEC_PAIR(consumer, snapshot_reply, struct ltt_consumer_snapshot_reply)
LTT_CODEC_PAIR(consumer, rotate_trace, struct ltt_consumer_rotate_trace)
LTT_CODEC_PAIR(consumer, add_snapshot_trace, struct ltt_consumer_add_snapshot_trace)
LTT_CODEC_PAIR(consumer, probe_output, struct ltt_consumer_probe_output)

void ltt_consumer_put_status(struct ltt_wbuf *w, int32_t status)
{
	ltt_wbuf_put_u32(w, (uint32_t)status);
}

int ltt_consumer_get_status(struct ltt_rbuf *r, int32_t *ret_status)
{
	int32_t status = (int32_t)ltt_rbuf_get_u32(r);

	if (r->err || status > 0) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	*ret_status = status;
	return 0;
}

/*
 * A flag that travels as a tail of one byte, 1, sent only when set: *@ret
 * is whether the tail was @sent; a byte other than 1 is refused.
 */
static int get_flag_tail(struct ltt_rbuf *r, bool sent, uint8_t byte, bool *ret)
{
	if (sent && byte != 1) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	*ret = sent;
	return 0;
}

/*
 * ADD_TRACE on the wire: 1.1's fields, then the relay key (1.2) when
 * relayed or resumed, then the resume flag (1.4), a byte of 1 sent only
 * when set: the tails' presence is what the message's length says.
 */
struct add_trace_wire {
	struct ltt_consumer_add_trace m;
	bool relay_sent;
	bool resume_sent;
	uint8_t resume;		/* 1 on the wire: 0 is sent by leaving it out */
};

#define LTT_MSG struct add_trace_wire
LTT_CODEC(consumer_add_trace, LTT_CODEC_LE,
	  LTT_ROW_U64(m.key), LTT_ROW_STRREF(m.dir, LTT_CONSUMER_PATH_MAX), LTT_ROW_BYTES(m.uuid),
	  LTT_ROW_U32(m.uid), LTT_ROW_U32(m.gid),
	  LTT_ROW_TAIL(relay_sent), LTT_ROW_U64(m.relay_key),
	  LTT_ROW_TAIL(resume_sent), LTT_ROW_MAX(resume, UINT, 1, 0, 1));
#undef LTT_MSG

void ltt_consumer_put_add_trace(struct ltt_wbuf *w, const struct ltt_consumer_add_trace *m)
{
	struct add_trace_wire t = {
		.m = *m, .relay_sent = m->relay_key || m->resume, .resume_sent = m->resume,
		.resume = 1,
	};

	ltt_codec_put(w, &consumer_add_trace, &t);
}

int ltt_consumer_get_add_trace(struct ltt_rbuf *r, struct ltt_consumer_add_trace *ret)
{
	struct add_trace_wire t;

	memset(&t, 0, sizeof(t));
	if (ltt_codec_get_msg(r, &consumer_add_trace, &t) ||
	    get_flag_tail(r, t.resume_sent, t.resume, &t.m.resume))
		return -EPROTO;
	*ret = t.m;
	return 0;
}

void ltt_consumer_put_metadata(struct ltt_wbuf *w, const struct ltt_consumer_metadata *m)
{
	if (m->len > LTT_CONSUMER_METADATA_MAX) {
		ltt_wbuf_fail(w, -E2BIG);
		return;
	}
	ltt_wbuf_put_u64(w, m->trace_key);
	ltt_wbuf_put_u32(w, m->len);
	ltt_wbuf_put_bytes(w, m->text, m->len);
}

int ltt_consumer_get_metadata(struct ltt_rbuf *r, struct ltt_consumer_metadata *ret)
{
	struct ltt_consumer_metadata m;

	m.trace_key = ltt_rbuf_get_u64(r);
	m.len = ltt_rbuf_get_u32(r);
	m.text = ltt_rbuf_get_bytes(r, m.len);
	if (ltt_rbuf_end(r))
		return -EPROTO;
	*ret = m;
	return 0;
}

/* FLUSH_CHANNEL on the wire: the stopped flag (1.11), a byte of 1 sent only when set. */
struct flush_channel_wire {
	struct ltt_consumer_flush_channel m;
	bool stopped_sent;
	uint8_t stopped;	/* 1 on the wire */
};

#define LTT_MSG struct flush_channel_wire
LTT_CODEC(consumer_flush_channel, LTT_CODEC_LE,
	  LTT_ROW_U64(m.channel_key), LTT_ROW_BOOL(m.final),
	  LTT_ROW_TAIL(stopped_sent), LTT_ROW_MAX(stopped, UINT, 1, 0, 1));
#undef LTT_MSG

void ltt_consumer_put_flush_channel(struct ltt_wbuf *w,
				    const struct ltt_consumer_flush_channel *m)
{
	struct flush_channel_wire f = { .m = *m, .stopped_sent = m->stopped, .stopped = 1 };

	ltt_codec_put(w, &consumer_flush_channel, &f);
}

int ltt_consumer_get_flush_channel(struct ltt_rbuf *r, struct ltt_consumer_flush_channel *ret)
{
	struct flush_channel_wire f;

	memset(&f, 0, sizeof(f));
	if (ltt_codec_get_msg(r, &consumer_flush_channel, &f) ||
	    get_flag_tail(r, f.stopped_sent, f.stopped, &f.m.stopped))
		return -EPROTO;
	*ret = f.m;
	return 0;
}

void ltt_consumer_put_key(struct ltt_wbuf *w, uint64_t key)
{
	ltt_wbuf_put_u64(w, key);
}

int ltt_consumer_get_key(struct ltt_rbuf *r, uint64_t *ret_key)
{
	uint64_t key = ltt_rbuf_get_u64(r);

	if (ltt_rbuf_end(r))
		return -EPROTO;
	*ret_key = key;
	return 0;
}

/* CHANNEL_STATS's reply on the wire: the output failure (1.5) when the length says so. */
struct channel_stats_wire {
	struct ltt_consumer_channel_stats m;
	bool error_sent;
};

/* The failure: 0 or a negative errno, since when, what it cost. */
#define CHANNEL_ERROR_ROWS \
	LTT_ROW_U32(m.error), LTT_ROW_U64(m.error_since), LTT_ROW_U64(m.error_events), \
	LTT_ROW_U64(m.error_packets)

#define LTT_MSG struct channel_stats_wire
LTT_CODEC(consumer_channel_stats, LTT_CODEC_LE,
	  LTT_ROW_U64(m.events_lost), LTT_ROW_U64(m.packets_lost), LTT_ROW_U64(m.bytes_written),
	  LTT_ROW_TAIL(error_sent), CHANNEL_ERROR_ROWS);
LTT_CODEC(consumer_channel_error, LTT_CODEC_LE, CHANNEL_ERROR_ROWS);
#undef LTT_MSG

void ltt_consumer_put_channel_stats(struct ltt_wbuf *w,
				    const struct ltt_consumer_channel_stats *m)
{
	const struct channel_stats_wire s = { .m = *m };	/* the counters alone */

	ltt_codec_put(w, &consumer_channel_stats, &s);
}

void ltt_consumer_put_channel_error(struct ltt_wbuf *w,
				    const struct ltt_consumer_channel_stats *m)
{
	const struct channel_stats_wire s = { .m = *m, .error_sent = true };

	ltt_codec_put(w, &consumer_channel_error, &s);
}

int ltt_consumer_get_channel_stats(struct ltt_rbuf *r, struct ltt_consumer_channel_stats *ret)
{
	struct channel_stats_wire s;

	memset(&s, 0, sizeof(s));
	if (ltt_codec_get_msg(r, &consumer_channel_stats, &s))
		return -EPROTO;
	if (s.m.error > 0) {
		ltt_rbuf_fail(r);	/* 0 or a negative errno */
		return -EPROTO;
	}
	*ret = s.m;
	return 0;
}

/*
 * The canonical tcp:// URL of @port of @a's host, into @text (uri.h's
 * ltt_uri_format()).  Returns 0, -ENOMEM or -EINVAL.
 */
static int relay_url(const struct ltt_consumer_relay_addr *a, uint16_t port,
		     char text[LTT_URI_TEXT_SIZE])
{
	struct ltt_uri *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return -ENOMEM;
	u->scheme = LTT_URI_TCP;
	u->family = (enum ltt_uri_family)a->family;
	snprintf(u->host, sizeof(u->host), "%s", a->host);
	u->ctrl_port = port;
	ret = ltt_uri_format(u, text, LTT_URI_TEXT_SIZE) ? -EINVAL : 0;
	free(u);
	return ret;
}

/* The tcp:// URL of the @data (else control) port of @a: an older consumer's form. */
static void put_relay_url(struct ltt_wbuf *w, const struct ltt_consumer_relay_addr *a, bool data)
{
	char text[LTT_URI_TEXT_SIZE];
	int ret = relay_url(a, data ? a->data_port : a->ctrl_port, text);

	if (ret)
		w->err = ret;
	else
		ltt_wbuf_put_str(w, text);
}

/*
 * ADD_RELAY on the wire: its key and, from 1.13, the relay's address
 * (before, two URLs that relay_url() makes follow the key); then the
 * session; then the uuid, which before 1.15 the message's length says
 * (1.10's tail), from 1.15 always, with a flag that says whether the TLS
 * files follow.
 */
struct add_relay_wire {
	struct ltt_consumer_add_relay m;
	bool tls_sent;		/* 1.15: the TLS files follow */
};

#define LTT_MSG struct add_relay_wire
LTT_CODEC(consumer_add_relay_key, LTT_CODEC_LE,
	  LTT_ROW_U64(m.relay_key),
	  LTT_ROW_SINCE(LTT_CONSUMER_MINOR_RELAY_ADDR),
	  LTT_ROW_U8(m.addr.family), LTT_ROW_STR(m.addr.host), LTT_ROW_U16(m.addr.ctrl_port),
	  LTT_ROW_U16(m.addr.data_port));
LTT_CODEC(consumer_add_relay_session, LTT_CODEC_LE,
	  LTT_ROW_STRREF(m.hostname, LTT_CONSUMER_HOST_NAME_MAX),
	  LTT_ROW_STRREF(m.session_name, LTT_CONSUMER_SESSION_NAME_MAX),
	  LTT_ROW_STRREF(m.base_path, LTT_CONSUMER_BASE_PATH_MAX),
	  LTT_ROW_U32(m.live_timer_us), LTT_ROW_U64(m.session_id), LTT_ROW_U64(m.creation_time),
	  LTT_ROW_SINCE(LTT_CONSUMER_MINOR_TLS),
	  LTT_ROW_BYTES(m.uuid), LTT_ROW_BOOL(tls_sent), LTT_ROW_WHEN_EQ(tls_sent, 1),
	  LTT_ROW_STRREF(m.tls_cert, LTT_CONSUMER_TLS_PATH_MAX),
	  LTT_ROW_STRREF(m.tls_key, LTT_CONSUMER_TLS_PATH_MAX),
	  LTT_ROW_STRREF(m.tls_ca, LTT_CONSUMER_TLS_PATH_MAX), LTT_ROW_WHEN_END(),
	  LTT_ROW_SINCE(LTT_CONSUMER_MINOR_CTF2),
	  LTT_ROW_MAX(m.trace_format, UINT, 1, 0, LTT_TRACE_FORMAT_CTF_2));
LTT_CODEC(consumer_add_relay_uuid_tail, LTT_CODEC_LE,	/* before 1.15 */
	  LTT_ROW_TAIL(m.has_uuid), LTT_ROW_BYTES(m.uuid));
#undef LTT_MSG

void ltt_consumer_put_add_relay(struct ltt_wbuf *w, const struct ltt_consumer_add_relay *m,
				uint32_t minor)
{
	const struct add_relay_wire t = { .m = *m, .tls_sent = m->tls_cert != NULL };

	ltt_codec_put_v(w, &consumer_add_relay_key, &t, minor);
	if (minor < LTT_CONSUMER_MINOR_RELAY_ADDR) {
		put_relay_url(w, &m->addr, false);
		put_relay_url(w, &m->addr, true);
	}
	ltt_codec_put_v(w, &consumer_add_relay_session, &t, minor);
	if (m->trace_format == LTT_TRACE_FORMAT_CTF_2 && minor < LTT_CONSUMER_MINOR_CTF2)
		w->err = -EPROTONOSUPPORT;	/* an older consumer would frame CTF 2 as TSDL */
	if (minor >= LTT_CONSUMER_MINOR_TLS)
		return;
	ltt_codec_put(w, &consumer_add_relay_uuid_tail, &t);
	if (m->tls_cert)
		w->err = -EPROTONOSUPPORT;	/* an older consumer would speak plain */
}

/*
 * An older session daemon's address: the tcp:// URLs @ctrl and @data of
 * one host's two ports, into @a.  Returns 0 or -EINVAL.
 */
static int relay_addr_of_urls(const char *ctrl, const char *data,
			      struct ltt_consumer_relay_addr *a)
{
	struct ltt_uri *u = calloc(3, sizeof(*u));
	int ret = -EINVAL;

	if (!u)
		return -ENOMEM;
	if (ctrl && data && !ltt_uri_parse(ctrl, &u[0]) && !ltt_uri_parse(data, &u[1]) &&
	    u[0].ctrl_port && u[1].ctrl_port && !ltt_uri_net_from_tcp(&u[0], &u[1], &u[2])) {
		a->family = (uint8_t)u[2].family;
		snprintf(a->host, sizeof(a->host), "%s", u[2].host);
		a->ctrl_port = u[2].ctrl_port;
		a->data_port = u[2].data_port;
		ret = 0;
	}
	free(u);
	return ret;
}

/*
 * Is @a a relay's address (what ADD_RELAY may carry): a family, two
 * different ports, and a host that the URL of its family would carry
 * (uri.h: a name, or a literal of that family)?  The same addresses as
 * the URLs of an older peer.  Returns 0, -EINVAL or -ENOMEM.
 */
static int relay_addr_check(const struct ltt_consumer_relay_addr *a)
{
	char text[LTT_URI_TEXT_SIZE];
	struct ltt_uri *u;
	int ret;

	if ((a->family != LTT_URI_ANY && a->family != LTT_URI_INET &&
	     a->family != LTT_URI_INET6) || !a->host[0] || !a->ctrl_port || !a->data_port ||
	    a->ctrl_port == a->data_port)
		return -EINVAL;
	ret = relay_url(a, a->ctrl_port, text);
	if (ret)
		return ret;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	if (ltt_uri_parse(text, u) || u->family != (enum ltt_uri_family)a->family ||
	    strcmp(u->host, a->host))
		ret = -EINVAL;
	free(u);
	return ret;
}

int ltt_consumer_get_add_relay(struct ltt_rbuf *r, struct ltt_consumer_add_relay *ret,
			       uint32_t minor)
{
	struct add_relay_wire t;
	struct ltt_consumer_add_relay *m = &t.m;
	const char *ctrl = NULL, *data = NULL;
	int err;

	memset(&t, 0, sizeof(t));
	ltt_codec_get_v(r, &consumer_add_relay_key, &t, minor);
	if (minor < LTT_CONSUMER_MINOR_RELAY_ADDR) {
		ctrl = ltt_rbuf_get_str(r, LTT_CONSUMER_URL_MAX);
		data = ltt_rbuf_get_str(r, LTT_CONSUMER_URL_MAX);
	}
	ltt_codec_get_v(r, &consumer_add_relay_session, &t, minor);
	if (minor < LTT_CONSUMER_MINOR_TLS)
		ltt_codec_get(r, &consumer_add_relay_uuid_tail, &t);
	else
		m->has_uuid = true;
	if (ltt_rbuf_end(r))
		return -EPROTO;
	err = minor >= LTT_CONSUMER_MINOR_RELAY_ADDR ? relay_addr_check(&m->addr) :
	      relay_addr_of_urls(ctrl, data, &m->addr);
	if (err == -ENOMEM)
		return err;
	if (!m->relay_key || err || !*m->hostname || !*m->session_name)
		return -EINVAL;
	if (m->tls_cert && (!*m->tls_cert || !*m->tls_key || !*m->tls_ca))
		return -EINVAL;
	*ret = *m;
	return 0;
}

/*
 * The replies whose body follows a status of 0 alone: each body's rows
 * once, in the table the consumer's handler puts after its status and in
 * the table of the whole reply that the session daemon decodes.
 */
#define ADD_RELAY_REPLY_BODY LTT_ROW_STRREF(output_path, PATH_MAX)

#define LTT_MSG struct ltt_consumer_add_relay_reply
LTT_CODEC(consumer_add_relay_reply_body, LTT_CODEC_LE, ADD_RELAY_REPLY_BODY);
LTT_CODEC(consumer_add_relay_reply, LTT_CODEC_LE,
	  LTT_ROW_U32(status), LTT_ROW_WHEN_EQ(status, 0), ADD_RELAY_REPLY_BODY);
#undef LTT_MSG

/* A failure's reply has no path: "". */
static int add_relay_reply_check(struct ltt_rbuf *r, struct ltt_consumer_add_relay_reply *m)
{
	(void)r;
	if (!m->output_path)
		m->output_path = "";
	return 0;
}

LTT_CODEC_PAIR_OF(consumer, add_relay_reply, struct ltt_consumer_add_relay_reply,
		  consumer_add_relay_reply_body, consumer_add_relay_reply, add_relay_reply_check)

/* A relay key travels as the other keys do: ltt_consumer_put_key()'s message. */
void ltt_consumer_put_relay_key(struct ltt_wbuf *w, uint64_t relay_key)
{
	ltt_consumer_put_key(w, relay_key);
}

int ltt_consumer_get_relay_key(struct ltt_rbuf *r, uint64_t *ret_key)
{
	return ltt_consumer_get_key(r, ret_key);
}

#define LTT_MSG struct ltt_consumer_relay_pending_reply
LTT_CODEC(consumer_relay_pending_reply_body, LTT_CODEC_LE, LTT_ROW_BOOL(pending));
LTT_CODEC(consumer_relay_pending_reply, LTT_CODEC_LE,
	  LTT_ROW_U32(status), LTT_ROW_WHEN_EQ(status, 0), LTT_ROW_BOOL(pending));
#undef LTT_MSG

/* RELAY_STATUS's counters: the connection's error (0 or a negative errno), what went, what not. */
#define RELAY_STATUS_REPLY_BODY \
	LTT_ROW_U32(conn_error), LTT_ROW_U64(packets_sent), LTT_ROW_U64(bytes_sent), \
	LTT_ROW_U64(packets_lost)

#define LTT_MSG struct ltt_consumer_relay_status_reply
LTT_CODEC(consumer_relay_status_reply_body, LTT_CODEC_LE, RELAY_STATUS_REPLY_BODY);
LTT_CODEC(consumer_relay_status_reply, LTT_CODEC_LE,
	  LTT_ROW_U32(status), LTT_ROW_WHEN_EQ(status, 0), RELAY_STATUS_REPLY_BODY);
#undef LTT_MSG

/* The connection's error is 0 or a negative errno. */
static int relay_status_reply_check(struct ltt_rbuf *r,
				    const struct ltt_consumer_relay_status_reply *m)
{
	if (m->conn_error > 0) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	return 0;
}

LTT_CODEC_PAIR_OF(consumer, relay_pending_reply, struct ltt_consumer_relay_pending_reply,
		  consumer_relay_pending_reply_body, consumer_relay_pending_reply, LTT_CODEC_ACCEPT)
LTT_CODEC_PAIR_OF(consumer, relay_status_reply, struct ltt_consumer_relay_status_reply,
		  consumer_relay_status_reply_body, consumer_relay_status_reply,
		  relay_status_reply_check)
