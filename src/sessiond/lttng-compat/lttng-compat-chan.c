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
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/priv/priv.h"

/* Is @call's domain an agent's (-j, -l, -p)? */
bool ltt_lttng_agent_domain(const struct ltt_lttng_call *call)
{
	return ltt_agent_domain((enum ltt_domain)call->req.domain) != NULL;
}

/*
 * The domains ltt serves to LTTng's clients: the kernel and user space,
 * and (@agents: event rules, their list, the loggers, contexts) the
 * agents'.
 */
uint32_t ltt_lttng_check_domain(const struct ltt_lttng_call *call, bool agents)
{
	if (call->req.domain == LTT_DOMAIN_KERNEL || call->req.domain == LTT_DOMAIN_USER)
		return LTT_LTTNG_OK;
	if (ltt_lttng_agent_domain(call))
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

/*
 * LTTng 2.16's channel policies, ltt's too (its channels' allocation,
 * preallocation and automatic reclaim: ltt_channel_attr); its watchdog
 * taken at the client's default for user space (2 s: ltt's consumer
 * takes a dead program's sub-buffers back itself, doc/lttng-compat.md)
 * or at 0, none (ltt runs no such timer: it never takes a live
 * program's sub-buffers, so a blocked writer is never one); another
 * period refused.
 */
#define WATCHDOG_DEFAULT_US 2000000

static uint32_t channel_policies_216(struct ltt_lttng_call *call, const struct ltt_lttng_channel *ch,
				     struct ltt_channel_conf *conf)
{
	if (call->gen != LTT_LTTNG_GEN_2_16)
		return LTT_LTTNG_OK;
	if (ch->allocation > 1 || ch->preallocation > 1)
		return LTT_LTTNG_ERR_INVALID;
	if (ch->watchdog_set && ch->watchdog_us && ch->watchdog_us != WATCHDOG_DEFAULT_US)
		return ltt_lttng_refuse(call, "a watchdog timer of another period (--watchdog-timer): ltt's consumer takes a dead program's sub-buffers back itself",
					"lttng enable-channel without --watchdog-timer");
	conf->allocation = ch->allocation ? LTT_ALLOC_PER_CHANNEL : LTT_ALLOC_PER_CPU;
	conf->preallocation = ch->preallocation ? LTT_PREALLOC_ON_DEMAND : LTT_PREALLOC_DEFAULT;
	/* LTTng's "when consumed" is an age of 0 */
	conf->auto_reclaim = !ch->reclaim_set ? LTT_AUTO_RECLAIM_OFF :
			     ch->reclaim_us ? LTT_AUTO_RECLAIM_OLDER_THAN : LTT_AUTO_RECLAIM_CONSUMED;
	conf->auto_reclaim_us = ch->reclaim_set ? ch->reclaim_us : 0;
	return LTT_LTTNG_OK;
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

	ret = ltt_lttng_check_domain(call, false);
	if (ret != LTT_LTTNG_OK)
		return ret;
	ltt_lttng_get_channel(&call->extra, call->gen, &ch);
	name = get_name(&call->extra, ch.name_len, LTT_NAME_MAX);
	if (ltt_rbuf_end(&call->extra))
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	ret = channel_policies_216(call, &ch, &conf);
	if (ret != LTT_LTTNG_OK)
		return ret;
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
	/*
	 * LTTng 2.16's daemon creates the channel as the client says, enabled
	 * or not (python3-lttng's lttng.Channel() is disabled until its
	 * enabled is set); 2.13's enabled it whatever it said
	 */
	if (!err && call->gen == LTT_LTTNG_GEN_2_16 && !ch.enabled) {
		begin_domain_req(call, &w);
		ltt_wbuf_put_str(&w, conf.name);
		err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_DISABLE_CHANNEL, &w, NULL);
		ltt_wbuf_fini(&w);
	}
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
	/* 2.16's client sends the event's rule after it: the event says it all */
	if (call->gen == LTT_LTTNG_GEN_2_16 && !r->err && r->pos < r->len)
		r->pos = r->len;
	if (ltt_rbuf_end(r))
		return ev->filter_len > sizeof(rule->filter) ? LTT_LTTNG_ERR_FILTER_INVAL :
							       LTT_LTTNG_ERR_INVALID_PROTOCOL;
	snprintf(rule->pattern, sizeof(rule->pattern), "%s", name);
	snprintf(rule->filter, sizeof(rule->filter), "%s", filter);
	if (ev->loglevel_type < LTT_LOGLEVEL_ALL || ev->loglevel_type > LTT_LOGLEVEL_SINGLE)
		return LTT_LTTNG_ERR_INVALID;
	rule->loglevel_type = (enum ltt_loglevel_type)ev->loglevel_type;
	rule->loglevel = rule->loglevel_type == LTT_LOGLEVEL_ALL ? 0 : ev->loglevel;
	if (ltt_lttng_agent_domain(call))
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

	ret = rule ? ltt_lttng_check_domain(call, true) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK)
		ret = get_event(call, rule, &ev);
	if (ret != LTT_LTTNG_OK)
		goto out;
	type = event_type(ev.type, call->req.domain);
	/*
	 * LTTng's daemon puts an agent domain's rules in that domain's own
	 * channel, whatever channel the client named (-j -c NAME): so does
	 * ltt for LTTng's clients (lttctl refuses the name).
	 */
	if (ltt_lttng_agent_domain(call))
		call->req.channel[0] = '\0';
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

	ret = ltt_lttng_check_domain(call, true);
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

uint32_t ltt_lttng_disable_channel(struct ltt_lttng_call *call)
{
	enum ltt_error_code err;
	struct ltt_wbuf w;
	uint32_t ret;

	ret = ltt_lttng_check_domain(call, false);
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

	ret = q ? ltt_lttng_check_domain(call, true) : LTT_LTTNG_ERR_NOMEM;
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
	q->all = !q->rule.pattern[0] ||
		 (ltt_lttng_agent_domain(call) && !strcmp(q->rule.pattern, "*"));
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
