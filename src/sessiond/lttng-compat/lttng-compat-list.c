// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-list.c - LTTng 2.13's lists: domains, channels, event
 * rules, tracepoints, their fields and system calls (lttng-compat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/as-user.h"
#include "common/base/log.h"
#include "common/model/agent.h"
#include "common/model/context.h"
#include "common/probe/probe-loc.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/priv/priv.h"

/* LTTng's of ltt's buffer type, in domain @domain. */
static uint32_t lttng_buffer_type(enum ltt_buffer_type t, uint32_t domain)
{
	if (t == LTT_BUFFER_PER_PID)
		return LTT_LTTNG_BUFFER_PER_PID;
	if (t == LTT_BUFFER_GLOBAL || (t == LTT_BUFFER_DEFAULT && domain == LTT_DOMAIN_KERNEL))
		return LTT_LTTNG_BUFFER_GLOBAL;
	return LTT_LTTNG_BUFFER_PER_UID;
}

/* A kernel probe rule's location as LTTng's attributes, appended to @w. */
static void put_probe(struct ltt_wbuf *w, int type, const char *location)
{
	struct ltt_probe_loc *loc = calloc(1, sizeof(*loc));
	struct ltt_lttng_probe_attr pa = { .symbol_len = 1 };
	char why[128];

	if (!loc) {
		w->err = -ENOMEM;
		return;
	}
	if (!ltt_probe_loc_parse(type, location, loc, why, sizeof(why))) {
		pa.addr = loc->kind == LTT_PROBE_KADDR ? loc->addr : 0;
		pa.offset = loc->kind == LTT_PROBE_KSYM ? loc->offset : 0;
		if (loc->kind == LTT_PROBE_KADDR)
			loc->symbol[0] = '\0';
		pa.symbol_len = (uint32_t)strlen(loc->symbol) + 1;
	}
	ltt_lttng_put_probe_attr(w, &pa);
	ltt_wbuf_put_bytes(w, pa.symbol_len > 1 ? loc->symbol : "", pa.symbol_len);
	free(loc);
}

/*
 * The session's channels from GET_SESSION's reply at @r: @fn(@arg, ch)
 * for each (@ch reused); then @r is at the rules' count.  Returns 0, or
 * -1 for a reply that does not read.
 */
static int each_channel(struct ltt_lttng_call *call, struct ltt_rbuf *r,
			void (*fn)(void *arg, const struct ltt_channel_desc *ch), void *arg)
{
	struct ltt_channel_desc ch;
	uint32_t i, n = ltt_rbuf_get_u32(r);

	for (i = 0; i < n && !r->err; i++) {
		ltt_proto_get_channel(r, &ch, call->ctx->minor);
		if (!r->err)
			fn(arg, &ch);
	}
	return r->err ? -1 : 0;
}

/* LIST_DOMAINS: a domain is listed when it has a channel. */
struct domains {
	uint32_t buf_type[LTT_DOMAIN_PYTHON + 1];
	bool has[LTT_DOMAIN_PYTHON + 1];
};

static void add_domain(void *arg, const struct ltt_channel_desc *ch)
{
	struct domains *d = arg;

	if (ch->domain > LTT_DOMAIN_PYTHON || d->has[ch->domain])
		return;
	d->has[ch->domain] = true;
	d->buf_type[ch->domain] = lttng_buffer_type(ch->attr.buffer_type, ch->domain);
}

uint32_t ltt_lttng_list_domains(struct ltt_lttng_call *call)
{
	struct ltt_rule_desc *rd = malloc(sizeof(*rd));
	struct ltt_lttng_domain dom;
	struct domains d = { 0 };
	struct ltt_wbuf reply;
	struct ltt_rbuf r;
	uint32_t i, n, ret;

	ltt_wbuf_init(&reply);
	ret = rd ? ltt_lttng_session_tree(call, &reply, &r, NULL) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK && each_channel(call, &r, add_domain, &d))
		ret = LTT_LTTNG_ERR_FATAL;
	/* an agent's domain is listed when it has a rule, with user space's buffers */
	n = ret == LTT_LTTNG_OK ? ltt_rbuf_get_u32(&r) : 0;
	for (i = 0; i < n && !r.err; i++) {
		ltt_proto_get_rule_info(&r, rd, call->ctx->minor);
		if (!r.err && ltt_agent_domain(rd->domain) && rd->domain <= LTT_DOMAIN_PYTHON) {
			d.has[rd->domain] = true;
			d.buf_type[rd->domain] = d.buf_type[LTT_DOMAIN_USER];
		}
	}
	if (ret == LTT_LTTNG_OK && r.err)
		ret = LTT_LTTNG_ERR_FATAL;
	free(rd);
	/* and a domain whose processes are tracked, as LTTng's (lttng track -u, no channel yet) */
	for (i = LTT_DOMAIN_KERNEL; ret == LTT_LTTNG_OK && i <= LTT_DOMAIN_USER; i++)
		if (!d.has[i] && ltt_lttng_domain_tracks(call, i)) {
			d.has[i] = true;
			d.buf_type[i] = lttng_buffer_type(LTT_BUFFER_DEFAULT, i);
		}
	for (i = 0; ret == LTT_LTTNG_OK && i <= LTT_DOMAIN_PYTHON; i++) {
		if (!d.has[i])
			continue;
		memset(&dom, 0, sizeof(dom));
		dom.type = i;
		dom.buf_type = d.buf_type[i];
		ltt_lttng_put_domain(&call->data, &dom);
	}
	ltt_wbuf_fini(&reply);
	return ret;
}

/* LIST_CHANNELS: the channels of the request's domain, counted. */
struct channels {
	struct ltt_lttng_call *call;
	uint32_t count;
	uint32_t live_timer_us;
};

static void put_channel(void *arg, const struct ltt_channel_desc *ch)
{
	struct channels *l = arg;
	struct ltt_lttng_channel c = { 0 };

	if (ch->domain != l->call->req.domain)
		return;
	c.name_len = (uint32_t)strlen(ch->attr.name) + 1;
	c.enabled = ch->enabled;
	c.overwrite = ch->attr.overwrite;
	c.subbuf_size = ch->attr.subbuf_size;
	c.num_subbuf = ch->attr.num_subbuf;
	c.switch_timer_us = ch->attr.switch_timer_us;
	c.read_timer_us = ch->attr.read_timer_us;
	c.output = ch->domain == LTT_DOMAIN_KERNEL ? 0 : 1;	/* splice, mmap: LTTng's */
	c.tracefile_size = ch->attr.tracefile_size;
	c.tracefile_count = ch->attr.tracefile_count;
	c.live_timer_us = l->live_timer_us;
	c.discarded_events = ch->discarded_events;
	c.lost_packets = ch->lost_packets;
	c.blocking_timeout_us = ch->attr.blocking_timeout_us == LTT_BLOCKING_TIMEOUT_INF ?
					-1 : (int64_t)ch->attr.blocking_timeout_us;
	/* 2.16's policies: ltt's (the watchdog: none, its consumer's own) */
	c.allocation = ch->attr.allocation == LTT_ALLOC_PER_CHANNEL;
	c.preallocation = ch->attr.preallocation == LTT_PREALLOC_ON_DEMAND;
	c.reclaim_set = ch->attr.auto_reclaim != LTT_AUTO_RECLAIM_OFF;
	c.reclaim_us = ch->attr.auto_reclaim == LTT_AUTO_RECLAIM_OLDER_THAN ?
			       ch->attr.auto_reclaim_us : 0;
	ltt_lttng_put_channel(&l->call->data, l->call->gen, &c);
	ltt_wbuf_put_bytes(&l->call->data, ch->attr.name, c.name_len);
	l->count++;
}

uint32_t ltt_lttng_list_channels(struct ltt_lttng_call *call)
{
	struct channels l = { .call = call };
	struct ltt_wbuf reply;
	struct ltt_rbuf r;
	uint32_t ret;

	ltt_wbuf_init(&reply);
	ret = ltt_lttng_session_tree(call, &reply, &r, NULL);
	/*
	 * LTTng 2.16 lists no channel of the agents' domains: its client
	 * would ask their streams' memory, which only user space has
	 */
	if (ret == LTT_LTTNG_OK && !(call->gen == LTT_LTTNG_GEN_2_16 && ltt_lttng_agent_domain(call)) &&
	    each_channel(call, &r, put_channel, &l))
		ret = LTT_LTTNG_ERR_FATAL;
	if (ret == LTT_LTTNG_OK)
		ltt_wbuf_put_u32(&call->hdr, l.count);
	ltt_wbuf_fini(&reply);
	return ret;
}

static void no_channel(void *arg, const struct ltt_channel_desc *ch)
{
	(void)arg, (void)ch;
}

bool ltt_lttng_probe_fd(struct ltt_lttng_call *call, uint64_t session, const char *location)
{
	struct ltt_probe_loc *loc;
	struct ltt_as_user as;
	char why[256];
	int fd = -1, ret = -1;

	if (call->fds.nr >= LTT_LTTNG_REPLY_FDS)
		return false;
	loc = malloc(sizeof(*loc));
	if (!loc)
		return false;
	if (!ltt_probe_loc_parse(LTT_EVENT_UPROBE, location, loc, why, sizeof(why)))
		ret = session ? ltt_priv_open_probe(session, loc->path, &fd) :
		      ltt_priv_open_client_probe(call->ctx->client_fd, loc->path, &fd);
	if (ret == 1) {
		if (!ltt_as_user_begin(call->ctx->cred.uid, call->ctx->cred.gid, &as))
			fd = open(loc->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		ltt_as_user_end(&as);
	}
	free(loc);
	if (fd < 0)
		return false;
	call->fds.fd[call->fds.nr++] = fd;
	return true;
}

/* One rule of the request's channel, as LTTng lists an event. */
static void put_rule(struct ltt_lttng_call *call, const struct ltt_session_desc *s,
		     const struct ltt_rule_desc *rd, char *composed, size_t composed_len)
{
	const struct ltt_rule_conf *a = &rd->attr;
	bool probe = a->type == LTT_EVENT_KPROBE || a->type == LTT_EVENT_FUNCTION;
	struct ltt_lttng_event ev = { 0 };
	struct ltt_wbuf attr, uprobe;
	const char *filter;
	int kind;

	ev.type = a->type == LTT_EVENT_SYSCALL ? LTT_LTTNG_EVENT_SYSCALL :
		  a->type == LTT_EVENT_KPROBE ? LTT_LTTNG_EVENT_PROBE :
		  a->type == LTT_EVENT_FUNCTION ? LTT_LTTNG_EVENT_FUNCTION :
						 LTT_LTTNG_EVENT_TRACEPOINT;
	/*
	 * A user-space probe at a function: LTTng's, with its location.  One
	 * at an SDT probe too, its binary's descriptor passed with the reply,
	 * which LTTng's client takes that location only with (it would refuse
	 * the whole listing without); a tracepoint when the daemon can't pass
	 * one (ltt_lttng_probe_fd()).
	 */
	ltt_wbuf_init(&uprobe);
	kind = a->type == LTT_EVENT_UPROBE ? ltt_lttng_put_uprobe(&uprobe, a->location, true) : -1;
	/*
	 * LTTng's client takes a descriptor for each location in order, a
	 * function's too (without one: none), so once one can't be passed,
	 * no later one is, and a later SDT probe's is a tracepoint.
	 */
	if (kind >= 0 && !call->fds.stopped && !ltt_lttng_probe_fd(call, s->id, a->location))
		call->fds.stopped = true;
	if (kind == 1 && call->fds.stopped)
		ltt_wbuf_reset(&uprobe);
	if (uprobe.len) {
		ev.type = LTT_LTTNG_EVENT_USERSPACE_PROBE;
		ev.uprobe_len = (uint32_t)uprobe.len;
	}
	ev.loglevel_type = (int8_t)a->loglevel_type;
	ev.loglevel = a->loglevel_type == LTT_LOGLEVEL_ALL ? -1 : a->loglevel;
	ev.enabled = rd->enabled;
	ev.name_len = (uint32_t)strlen(a->pattern) + 1;
	ev.exclusion_count = ltt_lttng_exclusions_size(a->exclusions, NULL);
	filter = a->filter;
	if (ltt_lttng_agent_domain(call) &&
	    !ltt_lttng_agent_filter(a->filter, a->pattern, ev.loglevel_type, a->loglevel, composed,
				    composed_len))
		filter = composed;	/* what LTTng's client sent, and LTTng's daemon lists */
	ev.filter_len = filter[0] ? (uint32_t)strlen(filter) + 1 : 0;
	if (probe) {
		ltt_wbuf_init(&attr);
		put_probe(&attr, a->type, a->location);
		ev.probe_attr_len = (uint32_t)attr.len;
	}
	ltt_lttng_put_event(&call->data, &ev);
	ltt_wbuf_put_bytes(&call->data, a->pattern, ev.name_len);
	ltt_lttng_put_exclusions(&call->data, a->exclusions);
	if (ev.filter_len)
		ltt_wbuf_put_bytes(&call->data, filter, ev.filter_len);
	if (probe) {
		ltt_wbuf_put_bytes(&call->data, attr.data, attr.len);
		if (attr.err)
			call->data.err = attr.err;
		ltt_wbuf_fini(&attr);
	}
	if (ev.uprobe_len)
		ltt_wbuf_put_bytes(&call->data, uprobe.data, uprobe.len);
	if (uprobe.err)
		call->data.err = uprobe.err;
	ltt_wbuf_fini(&uprobe);
}

uint32_t ltt_lttng_list_events(struct ltt_lttng_call *call)
{
	struct ltt_rule_desc *rd = malloc(sizeof(*rd));
	struct ltt_session_desc *s = malloc(sizeof(*s));
	char *composed = malloc(LTT_FILTER_MAX);
	uint32_t i, n, count = 0, ret;
	struct ltt_wbuf reply;
	struct ltt_rbuf r;

	ltt_wbuf_init(&reply);
	ret = rd && s && composed ? ltt_lttng_session_tree(call, &reply, &r, s) :
				    LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK && each_channel(call, &r, no_channel, NULL))
		ret = LTT_LTTNG_ERR_FATAL;
	n = ret == LTT_LTTNG_OK ? ltt_rbuf_get_u32(&r) : 0;
	for (i = 0; i < n && !r.err; i++) {
		ltt_proto_get_rule_info(&r, rd, call->ctx->minor);
		/* an agent's rules are its domain's, whatever their channel */
		if (r.err || rd->domain != call->req.domain ||
		    (!ltt_lttng_agent_domain(call) && strcmp(rd->channel, call->req.channel)))
			continue;
		put_rule(call, s, rd, composed, LTT_FILTER_MAX);
		count++;
	}
	if (ret == LTT_LTTNG_OK && r.err)
		ret = LTT_LTTNG_ERR_FATAL;
	if (ret == LTT_LTTNG_OK)
		ltt_wbuf_put_u32(&call->hdr, count);
	free(composed);
	free(s);
	free(rd);
	ltt_wbuf_fini(&reply);
	return ret;
}

/* LTTng's flag of a system call of the host's word size (LTTNG_EVENT_FLAG_SYSCALL_64). */
#define SYSCALL_HOST_BITS (sizeof(long) == 8 ? 2u : 1u)

/* A listed tracepoint or (@syscall) system call, as LTTng lists an event: {event, name}. */
static void put_tracepoint(struct ltt_wbuf *w, int32_t pid, const char *name, int32_t loglevel,
			   bool syscall)
{
	struct ltt_lttng_event ev = {
		.type = syscall ? LTT_LTTNG_EVENT_SYSCALL : LTT_LTTNG_EVENT_TRACEPOINT,
		.loglevel_type = LTT_LOGLEVEL_ALL,
		.loglevel = loglevel, .enabled = -1,	/* as LTTng lists one: neither */
		.pid = pid, .name_len = (uint32_t)strlen(name) + 1,
		.flags = syscall ? SYSCALL_HOST_BITS : 0,
	};

	ltt_lttng_put_event(w, &ev);
	ltt_wbuf_put_bytes(w, name, ev.name_len);
}

/* LTTng's field type (enum lttng_event_field_type) of ltt's type name. */
static uint8_t field_type(const char *type)
{
	static const char *const names[] = { "integer", "enum", "float", "string" };
	uint8_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(type, names[i], strlen(names[i])))
			return (uint8_t)(i + 1);
	return 0;	/* OTHER: arrays, sequences, structures */
}

/* One field: {u8 type, u8 nowrite, u32 name_len, u32 event_len}, its name, its event. */
static void put_field(struct ltt_wbuf *w, const char *field, const char *type, int32_t pid,
		      const char *name, int32_t loglevel)
{
	size_t len = strlen(field) + 1;
	struct ltt_wbuf ev;

	ltt_wbuf_init(&ev);
	put_tracepoint(&ev, pid, name, loglevel, false);
	ltt_wbuf_put_u8(w, field_type(type));
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_u32(w, (uint32_t)len);
	ltt_wbuf_put_u32(w, (uint32_t)ev.len);
	ltt_wbuf_put_bytes(w, field, len);
	ltt_wbuf_put_bytes(w, ev.data, ev.len);
	if (ev.err)
		w->err = ev.err;
	ltt_wbuf_fini(&ev);
}

/*
 * LIST_TRACEPOINTS, (@fields) LIST_TRACEPOINT_FIELDS and (@syscalls)
 * LIST_SYSCALLS: what ltt's LIST_TRACEPOINTS lists of the domain (the
 * kernel's system calls), as LTTng lists them: a count, then each
 * tracepoint as an event with its program's pid (0 for the kernel), or
 * each field with its tracepoint's event.
 */
static uint32_t list_tracepoints(struct ltt_lttng_call *call, bool fields, bool syscalls)
{
	struct ltt_list_tracepoints_req q = { .with_fields = fields,
					      .domain = syscalls ? LTT_DOMAIN_KERNEL :
							(enum ltt_domain)call->req.domain,
					      .type = syscalls ? LTT_EVENT_SYSCALL :
							LTT_EVENT_TRACEPOINT };
	uint32_t i, j, n, nf, count = 0, ret;
	const char *name, *field, *type;
	struct ltt_wbuf w, reply;
	int32_t pid, loglevel;
	struct ltt_rbuf r;

	ret = syscalls ? LTT_LTTNG_OK : ltt_lttng_check_domain(call, true);
	if (ret != LTT_LTTNG_OK)
		return ret;
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_proto_put_list_tracepoints(&w, &q, call->ctx->minor);
	ret = ltt_lttng_code(call, ltt_lttng_ltt(call, LTT_CLIENT_CMD_LIST_TRACEPOINTS, &w, &reply));
	ltt_wbuf_fini(&w);
	ltt_rbuf_init(&r, reply.data, reply.len);
	n = ret == LTT_LTTNG_OK ? ltt_rbuf_get_u32(&r) : 0;
	for (i = 0; i < n && !r.err; i++) {
		pid = (int32_t)ltt_rbuf_get_u32(&r);
		(void)ltt_rbuf_get_str(&r, LTT_PATH_MAX);	/* the program: LTTng's client reads /proc */
		name = ltt_rbuf_get_str(&r, LTT_NAME_MAX);
		loglevel = (int32_t)ltt_rbuf_get_u32(&r);
		nf = ltt_rbuf_get_u32(&r);
		for (j = 0; j < nf && !r.err; j++) {
			field = ltt_rbuf_get_str(&r, LTT_PATH_MAX);
			type = ltt_rbuf_get_str(&r, LTT_PATH_MAX);
			if (!r.err && fields && strlen(field) < LTT_LTTNG_SYMBOL_LEN) {
				put_field(&call->data, field, type, pid, name, loglevel);
				count++;
			}
		}
		/* a program of LTTng-UST's own library: LTTng's listing has no such entry */
		if (q.domain == LTT_DOMAIN_USER && ((uint32_t)loglevel & LTT_LIST_OWN_LTTNG_UST))
			continue;
		if (!r.err && !fields) {
			put_tracepoint(&call->data, pid, name, loglevel, syscalls);
			count++;
		}
	}
	if (ret == LTT_LTTNG_OK && ltt_rbuf_end(&r))
		ret = LTT_LTTNG_ERR_FATAL;
	if (ret == LTT_LTTNG_OK)
		ltt_wbuf_put_u32(&call->hdr, count);
	ltt_wbuf_fini(&reply);
	return ret;
}

uint32_t ltt_lttng_list_tracepoints(struct ltt_lttng_call *call)
{
	return list_tracepoints(call, false, false);
}

uint32_t ltt_lttng_list_tracepoint_fields(struct ltt_lttng_call *call)
{
	return list_tracepoints(call, true, false);
}

uint32_t ltt_lttng_list_syscalls(struct ltt_lttng_call *call)
{
	return list_tracepoints(call, false, true);
}
