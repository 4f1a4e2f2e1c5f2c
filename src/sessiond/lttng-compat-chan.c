// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-chan.c - LTTng 2.13's domains, channels, event rules and
 * contexts on ltt's commands (lttng-compat.h).
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
#include "sessiond/lttng-compat.h"
#include "sessiond/priv/priv.h"

/* Is @call's domain an agent's (-j, -l, -p)? */
static bool agent_domain(const struct ltt_lttng_call *call)
{
	return ltt_agent_domain((enum ltt_domain)call->req.domain) != NULL;
}

/*
 * The domains ltt serves to LTTng's clients: the kernel and user space,
 * and (@agents: event rules, their list, the loggers, contexts) the
 * agents'.
 */
static uint32_t check_domain(const struct ltt_lttng_call *call, bool agents)
{
	if (call->req.domain == LTT_DOMAIN_KERNEL || call->req.domain == LTT_DOMAIN_USER)
		return LTT_LTTNG_OK;
	if (agent_domain(call))
		return agents ? LTT_LTTNG_OK :
				ltt_lttng_refuse(call, "channels of the agents' domains (-j, -l, -p): their rules are in user space's lttng_*_channel",
						 "lttctl enable-channel -u on that channel");
	return LTT_LTTNG_ERR_UNKNOWN_DOMAIN;
}

/* ltt's request {str session, u32 domain} that the command's own part follows. */
static void begin_domain_req(const struct ltt_lttng_call *call, struct ltt_wbuf *w)
{
	ltt_wbuf_init(w);
	ltt_wbuf_put_str(w, call->req.session);
	ltt_wbuf_put_u32(w, call->req.domain);
}

/* ltt's buffer type of LTTng's (the domain's); -1: none LTTng has. */
static int buffer_type(uint32_t t)
{
	switch (t) {
	case LTT_LTTNG_BUFFER_PER_UID:
		return LTT_BUFFER_PER_UID;
	case LTT_LTTNG_BUFFER_PER_PID:
		return LTT_BUFFER_PER_PID;
	case LTT_LTTNG_BUFFER_GLOBAL:
		return LTT_BUFFER_GLOBAL;
	default:
		return -1;
	}
}

/* LTTng's of ltt's buffer type, in domain @domain. */
static uint32_t lttng_buffer_type(enum ltt_buffer_type t, uint32_t domain)
{
	if (t == LTT_BUFFER_PER_PID)
		return LTT_LTTNG_BUFFER_PER_PID;
	if (t == LTT_BUFFER_GLOBAL || (t == LTT_BUFFER_DEFAULT && domain == LTT_DOMAIN_KERNEL))
		return LTT_LTTNG_BUFFER_GLOBAL;
	return LTT_LTTNG_BUFFER_PER_UID;
}

/* A name of @len bytes (NUL included, at most @max) at @r's cursor, or NULL (@r failed). */
static const char *get_name(struct ltt_rbuf *r, uint32_t len, size_t max)
{
	const char *p = len && len <= max ? ltt_rbuf_get_bytes(r, len) : NULL;

	if (!p || strnlen(p, len) != len - 1u) {
		ltt_rbuf_fail(r);
		return NULL;
	}
	return p;
}

uint32_t ltt_lttng_enable_channel(struct ltt_lttng_call *call)
{
	struct ltt_channel_conf conf = { 0 };
	struct ltt_lttng_channel ch;
	enum ltt_error_code err;
	const char *name;
	struct ltt_wbuf w;
	uint32_t ret;
	int bt;

	ret = check_domain(call, false);
	if (ret != LTT_LTTNG_OK)
		return ret;
	ltt_lttng_get_channel(&call->extra, &ch);
	name = get_name(&call->extra, ch.name_len, LTT_NAME_MAX);
	if (ltt_rbuf_end(&call->extra))
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	bt = buffer_type(call->req.buf_type);
	if (bt < 0)
		return LTT_LTTNG_ERR_INVALID;
	/* LTTng's blocking timeout: -1 is "inf", any other negative none of its */
	if (ch.blocking_timeout_us < -1)
		return LTT_LTTNG_ERR_INVALID;
	snprintf(conf.name, sizeof(conf.name), "%s", name);
	conf.subbuf_size = ch.subbuf_size;
	conf.num_subbuf = ch.num_subbuf;
	conf.overwrite = ch.overwrite == 1;
	conf.switch_timer_us = ch.switch_timer_us;
	conf.read_timer_us = ch.read_timer_us;
	conf.tracefile_size = ch.tracefile_size;
	conf.tracefile_count = ch.tracefile_count;
	conf.blocking_timeout_us = ch.blocking_timeout_us == -1 ? LTT_BLOCKING_TIMEOUT_INF :
								 (uint64_t)ch.blocking_timeout_us;
	conf.buffer_type = (enum ltt_buffer_type)bt;
	begin_domain_req(call, &w);
	ltt_proto_put_channel_conf(&w, &conf, call->ctx->minor);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_ENABLE_CHANNEL, &w, NULL);
	ltt_wbuf_fini(&w);
	return ltt_lttng_code(call, err);
}

/* ltt's event type of LTTng's; -1: one ltt does not take from LTTng's clients here. */
static int event_type(int8_t t, uint32_t domain)
{
	switch (t) {
	case LTT_LTTNG_EVENT_TRACEPOINT:
		return LTT_EVENT_TRACEPOINT;
	case LTT_LTTNG_EVENT_SYSCALL:
		return domain == LTT_DOMAIN_KERNEL ? LTT_EVENT_SYSCALL : -1;
	case LTT_LTTNG_EVENT_PROBE:
		return domain == LTT_DOMAIN_KERNEL ? LTT_EVENT_KPROBE : -1;
	case LTT_LTTNG_EVENT_FUNCTION:	/* LTTng's: a kretprobe, the function's entry and return */
		return domain == LTT_DOMAIN_KERNEL ? LTT_EVENT_FUNCTION : -1;
	case LTT_LTTNG_EVENT_USERSPACE_PROBE:
		return domain == LTT_DOMAIN_KERNEL ? LTT_EVENT_UPROBE : -1;
	case LTT_LTTNG_EVENT_ALL:	/* user space, agents: their tracepoints are all they have */
		return domain != LTT_DOMAIN_KERNEL ? LTT_EVENT_TRACEPOINT : -1;
	default:
		return -1;
	}
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* LTTng's exclusions at @r's cursor into ltt's list (sorted, unique, comma-separated). */
static uint32_t get_exclusions(struct ltt_rbuf *r, uint32_t count, char *out, size_t size)
{
	const char **names;
	size_t used = 0;
	uint32_t i;

	out[0] = '\0';
	if (!count)
		return LTT_LTTNG_OK;
	if (count > size / 2)
		return LTT_LTTNG_ERR_EXCLUSION_INVAL;
	names = calloc(count, sizeof(*names));
	if (!names)
		return LTT_LTTNG_ERR_NOMEM;
	for (i = 0; i < count && !r->err; i++)
		names[i] = get_name(r, ltt_rbuf_get_u32(r), LTT_LTTNG_SYMBOL_LEN);
	if (r->err) {
		free(names);
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	}
	qsort(names, count, sizeof(*names), cmp_names);
	for (i = 0; i < count; i++) {
		size_t n = strlen(names[i]);

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		if (used + n + 2 > size) {
			free(names);
			return LTT_LTTNG_ERR_EXCLUSION_INVAL;
		}
		if (used)
			out[used++] = ',';
		memcpy(out + used, names[i], n + 1);
		used += n;
	}
	free(names);
	return LTT_LTTNG_OK;
}

/*
 * A kernel probe's attributes, @len bytes at @r's cursor, as ltt's
 * location into @buf: SYMBOL[+OFFSET], or 0xADDR.  @r fails on a part
 * that does not read, or does not add up to @len.
 */
static void get_probe(struct ltt_rbuf *r, uint32_t len, char *buf, size_t size)
{
	struct ltt_probe_loc *loc = calloc(1, sizeof(*loc));
	struct ltt_lttng_probe_attr pa;
	const char *symbol;

	ltt_lttng_get_probe_attr(r, &pa);
	symbol = get_name(r, pa.symbol_len, LTT_PROBE_SYMBOL_MAX);
	if (!loc || r->err || len != LTT_LTTNG_PROBE_ATTR_SIZE + pa.symbol_len) {
		free(loc);
		ltt_rbuf_fail(r);
		return;
	}
	loc->kind = symbol[0] ? LTT_PROBE_KSYM : LTT_PROBE_KADDR;
	snprintf(loc->symbol, sizeof(loc->symbol), "%s", symbol);
	loc->offset = pa.offset;
	loc->addr = pa.addr;
	ltt_probe_loc_format(loc, false, buf, size);
	free(loc);
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
 * ENABLE_EVENT's variable part: the event, its name, exclusions, filter
 * text and bytecode (ltt compiles the text itself), and the attributes of
 * probes (refused before).  Fills @rule; @ret_type: LTTng's event type.
 */
static uint32_t get_event(struct ltt_lttng_call *call, struct ltt_rule_conf *rule,
			  struct ltt_lttng_event *ev)
{
	struct ltt_rbuf *r = &call->extra;
	const char *name, *filter = "";
	uint32_t ret;

	ltt_lttng_get_event(r, ev);
	name = get_name(r, ev->name_len, LTT_LTTNG_SYMBOL_LEN);
	if (r->err)
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	ret = get_exclusions(r, ev->exclusion_count, rule->exclusions, sizeof(rule->exclusions));
	if (ret != LTT_LTTNG_OK)
		return ret;
	if (ev->filter_len)
		filter = get_name(r, ev->filter_len, sizeof(rule->filter));
	if (ev->bytecode_len)
		(void)ltt_rbuf_get_bytes(r, ev->bytecode_len);
	if (ev->uprobe_len &&
	    ltt_lttng_get_uprobe(r, ev->uprobe_len, rule->location, sizeof(rule->location)))
		ltt_rbuf_fail(r);
	if (ev->function_attr_len)	/* refused: see event_type() */
		(void)ltt_rbuf_get_bytes(r, ev->function_attr_len);
	if (ev->probe_attr_len)
		get_probe(r, ev->probe_attr_len, rule->location, sizeof(rule->location));
	if (ltt_rbuf_end(r))
		return ev->filter_len > sizeof(rule->filter) ? LTT_LTTNG_ERR_FILTER_INVAL :
							       LTT_LTTNG_ERR_INVALID_PROTOCOL;
	snprintf(rule->pattern, sizeof(rule->pattern), "%s", name);
	snprintf(rule->filter, sizeof(rule->filter), "%s", filter);
	if (ev->loglevel_type < LTT_LOGLEVEL_ALL || ev->loglevel_type > LTT_LOGLEVEL_SINGLE)
		return LTT_LTTNG_ERR_INVALID;
	rule->loglevel_type = (enum ltt_loglevel_type)ev->loglevel_type;
	rule->loglevel = rule->loglevel_type == LTT_LOGLEVEL_ALL ? 0 : ev->loglevel;
	if (agent_domain(call))
		ltt_lttng_agent_user_filter(rule->filter, rule->pattern, ev->loglevel_type, ev->loglevel);
	return LTT_LTTNG_OK;
}

/* ltt's ENABLE_EVENT of @rule in @call's channel. */
static enum ltt_error_code enable_rule(struct ltt_lttng_call *call, const struct ltt_rule_conf *rule)
{
	enum ltt_error_code err;
	struct ltt_wbuf w;

	begin_domain_req(call, &w);
	ltt_wbuf_put_str(&w, call->req.channel);
	ltt_proto_put_rule_attr(&w, rule, call->ctx->minor);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_ENABLE_EVENT, &w, NULL);
	ltt_wbuf_fini(&w);
	return err;
}

uint32_t ltt_lttng_enable_event(struct ltt_lttng_call *call)
{
	struct ltt_rule_conf *rule = calloc(1, sizeof(*rule));
	struct ltt_lttng_event ev;
	enum ltt_error_code err;
	uint32_t ret;
	int type;

	ret = rule ? check_domain(call, true) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK)
		ret = get_event(call, rule, &ev);
	if (ret != LTT_LTTNG_OK)
		goto out;
	type = event_type(ev.type, call->req.domain);
	if (ev.type == LTT_LTTNG_EVENT_ALL && call->req.domain == LTT_DOMAIN_KERNEL) {
		/* the kernel's every event: its tracepoints and its system calls */
		rule->type = LTT_EVENT_TRACEPOINT;
		err = enable_rule(call, rule);
		rule->type = LTT_EVENT_SYSCALL;
		ret = ltt_lttng_code(call, err ? err : enable_rule(call, rule));
		goto out;
	}
	if (type < 0) {
		ret = ltt_lttng_refuse(call, "this event type (ftrace's function entries, or a probe outside the kernel domain)",
				       "lttctl enable-event -k --function");
		goto out;
	}
	rule->type = (enum ltt_event_type)type;
	ret = ltt_lttng_code(call, enable_rule(call, rule));
out:
	free(rule);
	return ret;
}

/* LTTng's context types (enum lttng_event_context_type) by the names ltt knows them. */
static const char *const context_names[] = {
	[0] = "pid", [2] = "procname", [3] = "prio", [4] = "nice", [5] = "vpid", [6] = "tid",
	[7] = "vtid", [8] = "ppid", [9] = "vppid", [10] = "pthread_id", [11] = "hostname",
	[12] = "ip", [16] = "interruptible", [17] = "preemptible", [18] = "need_reschedule",
	[19] = "migratable", [20] = "callstack-kernel", [21] = "callstack-user",
	[22] = "cgroup_ns", [23] = "ipc_ns", [24] = "mnt_ns", [25] = "net_ns", [26] = "pid_ns",
	[27] = "user_ns", [28] = "uts_ns", [29] = "uid", [30] = "euid", [31] = "suid",
	[32] = "gid", [33] = "egid", [34] = "sgid", [35] = "vuid", [36] = "veuid",
	[37] = "vsuid", [38] = "vgid", [39] = "vegid", [40] = "vsgid", [41] = "time_ns",
};

/* LTTng's client's name of a raw counter "perf:thread:raw:rHEX:NAME". */
#define RAW_PREFIX "perf_thread_raw_r"

/* LTTng's name of ltt's counter @name: ':' and '-' made '_' ("perf_thread_cpu_cycles"). */
static void lttng_counter_name(const char *name, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", name);
	for (i = 0; buf[i]; i++)
		if (buf[i] == ':' || buf[i] == '-')
			buf[i] = '_';
}

/*
 * ltt's per-thread counter @c of LTTng's (its perf type and config, and
 * its name as LTTng's client made it of the user's: a named counter's,
 * or "perf_thread_raw_rHEX_NAME").  Returns 0, or -1: none ltt has.
 */
static int perf_context(const char *lttng_name, uint32_t perf_type, uint64_t config,
			struct ltt_ctx *c)
{
	char name[LTT_CTX_NAME_MAX], conv[LTT_CTX_NAME_MAX];
	const char *p, *ltt_name;
	size_t i;

	if (!strncmp(lttng_name, RAW_PREFIX, strlen(RAW_PREFIX))) {
		p = lttng_name + strlen(RAW_PREFIX);
		p += strspn(p, "0123456789abcdefABCDEF");
		if (*p != '_' || snprintf(name, sizeof(name), "perf:thread:raw:r%.*s:%s",
					  (int)(p - lttng_name - strlen(RAW_PREFIX)),
					  lttng_name + strlen(RAW_PREFIX), p + 1) >= (int)sizeof(name))
			return -1;
	} else {
		name[0] = '\0';
		for (i = 0; (ltt_name = ltt_ctx_list_name_domain(i, LTT_CTX_DOMAIN_USER)); i++) {
			lttng_counter_name(ltt_name, conv, sizeof(conv));
			if (!strncmp(ltt_name, "perf:thread:", 12) && !strcmp(conv, lttng_name)) {
				snprintf(name, sizeof(name), "%s", ltt_name);
				break;
			}
		}
	}
	/* the counter the name says is the one LTTng's client asked for */
	if (!name[0] || ltt_ctx_parse(name, c) || c->perf_type != perf_type ||
	    c->perf_config != config)
		return -1;
	return 0;
}

/*
 * ADD_CONTEXT's variable part into @c: {u32 type}, and for a perf
 * counter {u32 perf type, u64 config, u32 name_len, name}; an
 * application context's ({u32, u32, provider, name}) is refused.
 */
static uint32_t get_context(struct ltt_lttng_call *call, struct ltt_ctx *c)
{
	struct ltt_rbuf *r = &call->extra;
	uint32_t type = ltt_rbuf_get_u32(r);
	struct ltt_lttng_perf_counter pc;
	const char *name = NULL;

	if (r->err)
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	if (type == LTT_LTTNG_CTX_PERF_THREAD_COUNTER || type == LTT_LTTNG_CTX_PERF_CPU_COUNTER ||
	    type == LTT_LTTNG_CTX_PERF_COUNTER) {
		ltt_lttng_get_perf_counter(r, &pc);
		name = get_name(r, pc.name_len, LTT_LTTNG_SYMBOL_LEN);
		if (ltt_rbuf_end(r))
			return LTT_LTTNG_ERR_INVALID_PROTOCOL;
		if (type != LTT_LTTNG_CTX_PERF_THREAD_COUNTER)
			return ltt_lttng_refuse(call, "per-CPU perf counters (perf:cpu:...): ltt counts per thread, in user space",
						"lttctl add-context -u -t perf:thread:NAME");
		if (perf_context(name, pc.type, pc.config, c))
			return ltt_lttng_refuse(call, "this perf counter",
						"lttctl add-context --list for the counters ltt has");
		return LTT_LTTNG_OK;
	}
	if (type == LTT_LTTNG_CTX_APP)
		return ltt_lttng_refuse(call, "application contexts ($app.PROVIDER:NAME): ltt's agents provide none",
					"lttctl add-context --list for the contexts ltt has");
	if (type < sizeof(context_names) / sizeof(context_names[0]))
		name = context_names[type];
	if (!name)
		return ltt_lttng_refuse(call, "this context type",
					"lttctl add-context --list for the contexts ltt has");
	if (ltt_rbuf_end(r))
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	if (ltt_ctx_parse(name, c))
		return ltt_lttng_refuse(call, name, "lttctl add-context --list for the contexts ltt has");
	return LTT_LTTNG_OK;
}

uint32_t ltt_lttng_add_context(struct ltt_lttng_call *call)
{
	const struct ltt_agent_domain *agent = ltt_agent_domain((enum ltt_domain)call->req.domain);
	enum ltt_error_code err;
	struct ltt_wbuf w;
	struct ltt_ctx c;
	uint32_t ret;

	ret = check_domain(call, true);
	if (ret == LTT_LTTNG_OK)
		ret = get_context(call, &c);
	if (ret != LTT_LTTNG_OK)
		return ret;
	/* an agent domain's context: its user-space lttng_*_channel's, as LTTng */
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_wbuf_put_u32(&w, agent ? (uint32_t)LTT_DOMAIN_USER : call->req.domain);
	ltt_wbuf_put_str(&w, agent && !call->req.channel[0] ? agent->channel : call->req.channel);
	ltt_ctx_put(&w, &c);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_ADD_CONTEXT, &w, NULL);
	ltt_wbuf_fini(&w);
	return ltt_lttng_code(call, err);
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
	ltt_lttng_put_channel(&l->call->data, &c);
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
	if (ret == LTT_LTTNG_OK && each_channel(call, &r, put_channel, &l))
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

/*
 * The binary of user-space probe location @location ("elf:PATH:FUNCTION",
 * "sdt:PATH:PROVIDER:NAME") of session @s, opened read-only with its owner's rights (once the daemon
 * gave root's up, by the privileged part, which opens only a regular ELF
 * file of an admitted session; else here with the client's, as-user.h,
 * who lists only its own sessions, or is root), into @call's
 * descriptors: true, or false (none: no room, a file the owner may not
 * read).  The client gets no descriptor of a file it could not open.
 */
static bool probe_binary_fd(struct ltt_lttng_call *call, const struct ltt_session_desc *s,
			  const char *location)
{
	struct ltt_probe_loc *loc;
	struct ltt_as_user as;
	char why[256];
	int fd = -1;

	if (call->fds.nr >= LTT_LTTNG_REPLY_FDS)
		return false;
	loc = malloc(sizeof(*loc));
	if (!loc)
		return false;
	if (!ltt_probe_loc_parse(LTT_EVENT_UPROBE, location, loc, why, sizeof(why)) &&
	    ltt_priv_open_probe(s->id, loc->path, &fd) == 1) {
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
	const char *p, *comma;
	uint32_t n;
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
	 * one (probe_binary_fd()).
	 */
	ltt_wbuf_init(&uprobe);
	kind = a->type == LTT_EVENT_UPROBE ? ltt_lttng_put_uprobe(&uprobe, a->location, true) : -1;
	/*
	 * LTTng's client takes a descriptor for each location in order, a
	 * function's too (without one: none), so once one can't be passed,
	 * no later one is, and a later SDT probe's is a tracepoint.
	 */
	if (kind >= 0 && !call->fds.stopped && !probe_binary_fd(call, s, a->location))
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
	for (p = a->exclusions, n = 0; *p; n++, p = *comma ? comma + 1 : comma)
		comma = p + strcspn(p, ",");
	ev.exclusion_count = n;
	filter = a->filter;
	if (agent_domain(call) && !ltt_lttng_agent_filter(a->filter, a->pattern, ev.loglevel_type,
							  a->loglevel, composed, composed_len))
		filter = composed;	/* what LTTng's client sent, and LTTng's daemon lists */
	ev.filter_len = filter[0] ? (uint32_t)strlen(filter) + 1 : 0;
	if (probe) {
		ltt_wbuf_init(&attr);
		put_probe(&attr, a->type, a->location);
		ev.probe_attr_len = (uint32_t)attr.len;
	}
	ltt_lttng_put_event(&call->data, &ev);
	ltt_wbuf_put_bytes(&call->data, a->pattern, ev.name_len);
	for (p = a->exclusions; *p; p = *comma ? comma + 1 : comma) {
		comma = p + strcspn(p, ",");
		ltt_wbuf_put_u32(&call->data, (uint32_t)(comma - p) + 1);
		ltt_wbuf_put_bytes(&call->data, p, (size_t)(comma - p));
		ltt_wbuf_put_u8(&call->data, 0);
	}
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
		    (!agent_domain(call) && strcmp(rd->channel, call->req.channel)))
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

uint32_t ltt_lttng_disable_channel(struct ltt_lttng_call *call)
{
	enum ltt_error_code err;
	struct ltt_wbuf w;
	uint32_t ret;

	ret = check_domain(call, false);
	if (ret != LTT_LTTNG_OK)
		return ret;
	begin_domain_req(call, &w);
	ltt_wbuf_put_str(&w, call->req.channel);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_DISABLE_CHANNEL, &w, NULL);
	ltt_wbuf_fini(&w);
	return ltt_lttng_code(call, err);
}

/*
 * DISABLE_EVENT: the rules of a name in the channel, or ("" as the name)
 * every rule of it, as LTTng; the event's filter and exclusions are not
 * looked at (LTTng's daemon does not either).
 */
uint32_t ltt_lttng_disable_event(struct ltt_lttng_call *call)
{
	struct ltt_disable_event_req *q = calloc(1, sizeof(*q));
	struct ltt_lttng_event ev;
	enum ltt_error_code err;
	struct ltt_wbuf w;
	uint32_t ret;

	ret = q ? check_domain(call, true) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK)
		ret = get_event(call, &q->rule, &ev);
	if (ret != LTT_LTTNG_OK)
		goto out;
	if (!q->rule.pattern[0] && call->req.domain == LTT_DOMAIN_KERNEL &&
	    ev.type != LTT_LTTNG_EVENT_ALL) {
		ret = ltt_lttng_refuse(call, "disabling every kernel rule of one event type",
				       "lttctl disable-event -k -a (every rule of the channel)");
		goto out;
	}
	snprintf(q->channel, sizeof(q->channel), "%s", call->req.channel);
	/* an agent's "*" is every rule of its domain, as LTTng's */
	q->all = !q->rule.pattern[0] || (agent_domain(call) && !strcmp(q->rule.pattern, "*"));
	snprintf(q->pattern, sizeof(q->pattern), "%s", q->rule.pattern);
	memset(&q->rule, 0, sizeof(q->rule));
	begin_domain_req(call, &w);
	ltt_proto_put_disable_event(&w, q, call->ctx->minor);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_DISABLE_EVENT, &w, NULL);
	ltt_wbuf_fini(&w);
	ret = ltt_lttng_code(call, err);
out:
	free(q);
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

	ret = syscalls ? LTT_LTTNG_OK : check_domain(call, true);
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
