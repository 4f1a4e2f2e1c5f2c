// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-lttng.c - LTTng's saved sessions read into ltt's model (see
 * config-lttng.h): each element of LTTng 2.13's format checked, mapped
 * onto what ltt has, or refused with what to do.
 */
#include <errno.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/model/context.h"
#include "common/model/uri.h"
#include "common/model/lttng-gap.h"
#include "lib/ltt-ctl/config/config-lttng.h"
#include "lib/ltt-ctl/config/config-words.h"

static xmlNodePtr child(xmlNodePtr parent, const char *name)
{
	return ltt_cfg_rd_child(parent, name);
}

static xmlNodePtr next(xmlNodePtr n)
{
	return ltt_cfg_rd_next(n);
}

/* The elements LTTng's format allows in each (xs:all: each at most once). */
static const char *const session_elems[] = {
	"name", "shared_memory_path", "domains", "started", "attributes", "output",
	"trace_format", NULL
};
static const char *const domain_elems[] = {
	"type", "buffer_type", "channels", "process_attr_trackers", "trackers", "map_channels",
	NULL
};
static const char *const channel_elems[] = {
	"name", "enabled", "overwrite_mode", "subbuffer_size", "subbuffer_count",
	"switch_timer_interval", "read_timer_interval", "blocking_timeout", "output_type",
	"tracefile_size", "tracefile_count", "live_timer_interval", "events", "contexts",
	"monitor_timer_interval", "watchdog_timer_interval", "allocation_policy",
	"preallocation_policy", "reclaim_policy", NULL
};
/* LTTng 2.15's <reclaim_policy>: <consumed/>, or <periodic> and its age (us). */
static const char *const reclaim_elems[] = { "consumed", "periodic", NULL };
static const char *const periodic_elems[] = { "age_threshold", NULL };
/* LTTng 2.15's <preallocation_policy>, by enum ltt_buffer_preallocation */
static const char *const preallocation_policies[] = { NULL, "PREALLOCATE", "ON_DEMAND" };
/* LTTng 2.14 to 2.16's words: the first of each is what ltt does. */
static const char *const allocation_policies[] = { "PER_CPU", "PER_CHANNEL" };
static const char *const trace_formats[] = { "CTF_1_8", "CTF_2" };
static const char *const event_elems[] = {
	"name", "enabled", "type", "loglevel_type", "loglevel", "filter", "exclusions",
	"attributes", NULL
};
static const char *const attributes_elems[] = {
	"snapshot_mode", "live_timer_interval", "rotation_schedules", NULL
};
static const char *const consumer_elems[] = { "enabled", "destination", NULL };
static const char *const snap_output_elems[] = { "name", "max_size", "consumer_output", NULL };
static const char *const perf_elems[] = { "type", "config", "name", NULL };

/* Refuse what ltt lacks at @n, in the words lttctl uses for LTTng's option. */
static void refuse_gap(struct ltt_cfg_rd *rd, xmlNodePtr n, enum ltt_lttng_gap gap)
{
	char why[512];

	ltt_cfg_rd_refuse(rd, n, "%s", ltt_lttng_gap_sentence(gap, LTT_LTTNG_GAP_FILE, why,
								sizeof(why)));
}

/*
 * LTTng's kernel probe types: ltt's (LTTng saves --probe as PROBE,
 * --function, a kretprobe, as FUNCTION, each with <probe_attributes>), or
 * refused with what LTTng's user typed for them (LTT_EVENT_TRACEPOINT).
 */
static const struct {
	const char *type;
	enum ltt_event_type ltt;
	const char *what;
} probe_types[] = {
	{ "PROBE", LTT_EVENT_KPROBE, NULL },
	{ "KPROBE", LTT_EVENT_KPROBE, NULL },
	{ "FUNCTION", LTT_EVENT_FUNCTION, NULL },
	{ "KRETPROBE", LTT_EVENT_FUNCTION, NULL },
	{ "USERSPACE_PROBE", LTT_EVENT_UPROBE, NULL },
	{ "FUNCTION_ENTRY", LTT_EVENT_TRACEPOINT, "a kernel function entry probe (ftrace)" },
	{ "NOOP", LTT_EVENT_TRACEPOINT, "a no-op event" },
};

/*
 * Each element child of @parent is one of @names, each once; the first
 * that is not is an error with its line.
 */
static void elems(struct ltt_cfg_rd *rd, xmlNodePtr parent, const char *const *names)
{
	unsigned long seen = 0;
	xmlNodePtr n;
	int i;

	for (n = parent ? parent->children : NULL; n && !rd->ret; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (i = 0; names[i] && strcmp(names[i], (const char *)n->name); i++)
			;
		if (!names[i])
			ltt_cfg_rd_fail(rd, n, "not an element of <%s> in LTTng's session format",
					(const char *)parent->name);
		else if (seen & (1UL << i))
			ltt_cfg_rd_fail(rd, n, "twice in <%s>", (const char *)parent->name);
		seen |= 1UL << i;
	}
}

/* Each element child of @list is called @name. */
static void list_of(struct ltt_cfg_rd *rd, xmlNodePtr list, const char *name)
{
	xmlNodePtr n;

	for (n = list ? list->children : NULL; n && !rd->ret; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name))
			ltt_cfg_rd_fail(rd, n, "not an element of <%s>: <%s> only",
					(const char *)list->name, name);
}

/* An xs:boolean: true, false, 1, 0; @dflt when absent. */
static bool boolean(struct ltt_cfg_rd *rd, xmlNodePtr n, bool dflt)
{
	char buf[16];

	if (!n || !ltt_cfg_rd_token(rd, n, buf, sizeof(buf)))
		return dflt;
	if (!strcmp(buf, "true") || !strcmp(buf, "1"))
		return true;
	if (strcmp(buf, "false") && strcmp(buf, "0"))
		ltt_cfg_rd_fail(rd, n, "'%s' is not true, false, 1 or 0", buf);
	return false;
}

/* The number in @parent's child @name, at most @max; @dflt when absent. */
static uint64_t num(struct ltt_cfg_rd *rd, xmlNodePtr parent, const char *name, uint64_t max,
		    uint64_t dflt)
{
	xmlNodePtr n = child(parent, name);

	return n ? ltt_cfg_rd_number(rd, n, max) : dflt;
}

/* A signed xs:int or xs:integer (loglevel). */
static long long signed_num(struct ltt_cfg_rd *rd, xmlNodePtr n)
{
	char buf[32], *end;
	long long v;

	if (!ltt_cfg_rd_token(rd, n, buf, sizeof(buf)))
		return 0;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		ltt_cfg_rd_fail(rd, n, "'%s' is not an integer", buf);
	return v;
}

/* Session attributes, rotation schedules and output */

static void read_rotation(struct ltt_cfg_rd *rd, xmlNodePtr rot, struct ltt_cfg_session *s)
{
	bool timer = false, size = false;
	xmlNodePtr n;

	s->rotation_line = xmlGetLineNo(rot);
	for (n = rot->children; n && !rd->ret; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "periodic") && !timer) {
			elems(rd, n, (const char *const[]){ "time_us", NULL });
			s->rotate_timer_us = num(rd, n, "time_us", UINT64_MAX, 0);
			timer = true;
		} else if (!strcmp((const char *)n->name, "size_threshold") && !size) {
			elems(rd, n, (const char *const[]){ "bytes", NULL });
			s->rotate_size = num(rd, n, "bytes", UINT64_MAX, 0);
			size = true;
		} else if (!strcmp((const char *)n->name, "periodic") ||
			   !strcmp((const char *)n->name, "size_threshold")) {
			ltt_cfg_rd_refuse(rd, n, "a second <%s> rotation schedule is not supported by "
					  "ltt: a session has at most one periodic and one size "
					  "schedule; keep one", (const char *)n->name);
		} else {
			ltt_cfg_rd_fail(rd, n, "not an element of <rotation_schedules>");
		}
	}
}

static void read_attributes(struct ltt_cfg_rd *rd, xmlNodePtr at, struct ltt_cfg_session *s)
{
	elems(rd, at, attributes_elems);
	s->attr.snapshot = boolean(rd, child(at, "snapshot_mode"), false);
	s->attr.live_timer_us = (uint32_t)num(rd, at, "live_timer_interval", UINT32_MAX, 0);
	if (child(at, "rotation_schedules"))
		read_rotation(rd, child(at, "rotation_schedules"), s);
}

/*
 * LTTng's relay URLs, one for control and one for data (tcp4://H:P/PATH),
 * as ltt's one net URL (net://H:CTRL:DATA/PATH) into @buf.
 */
static void net_url(struct ltt_cfg_rd *rd, xmlNodePtr net, char *buf, size_t len)
{
	char ctrl_text[LTT_URI_TEXT_SIZE], data_text[LTT_URI_TEXT_SIZE];
	struct ltt_uri ctrl, data;

	elems(rd, net, (const char *const[]){ "control_uri", "data_uri", NULL });
	if (!ltt_cfg_rd_token(rd, child(net, "control_uri"), ctrl_text, sizeof(ctrl_text)) ||
	    !ltt_cfg_rd_token(rd, child(net, "data_uri"), data_text, sizeof(data_text))) {
		ltt_cfg_rd_fail(rd, net, "needs a <control_uri> and a <data_uri>");
		return;
	}
	if (ltt_uri_parse(ctrl_text, &ctrl) || ctrl.scheme != LTT_URI_TCP ||
	    ltt_uri_parse(data_text, &data) || data.scheme != LTT_URI_TCP) {
		ltt_cfg_rd_fail(rd, net, "'%s' and '%s': not tcp://, tcp4:// or tcp6:// URLs "
				"with a host and a port", ctrl_text, data_text);
		return;
	}
	/* LTTng writes the trace's path in the control URL only. */
	if (strcmp(ctrl.host, data.host) || ctrl.family != data.family ||
	    (data.path[0] && strcmp(ctrl.path, data.path))) {
		ltt_cfg_rd_refuse(rd, net, "a relay with control (%s) and data (%s) on different "
				  "hosts or paths is not supported by ltt: give both the same "
				  "host and path", ctrl_text, data_text);
		return;
	}
	ctrl.scheme = LTT_URI_NET;
	ctrl.data_port = data.ctrl_port ? data.ctrl_port : LTT_DEFAULT_RELAYD_DATA_PORT;
	if (!ctrl.ctrl_port)
		ctrl.ctrl_port = LTT_DEFAULT_RELAYD_CTRL_PORT;
	if (ltt_uri_format(&ctrl, buf, len))
		ltt_cfg_rd_fail(rd, net, "the relay URL is too long");
}

/* A <consumer_output>: a directory ("" none) or a relay, into @type and @buf. */
static void consumer_output(struct ltt_cfg_rd *rd, xmlNodePtr co, enum ltt_output_type *type,
			    char *buf, size_t len)
{
	xmlNodePtr dest = child(co, "destination"), n;

	elems(rd, co, consumer_elems);
	elems(rd, dest, (const char *const[]){ "path", "net_output", NULL });
	boolean(rd, child(co, "enabled"), true);	/* LTTng's load does not use it either */
	if ((n = child(dest, "net_output"))) {
		*type = LTT_OUTPUT_NET;
		net_url(rd, n, buf, len);
	} else if ((n = child(dest, "path"))) {
		ltt_cfg_rd_text(rd, n, buf, len);
		*type = buf[0] ? LTT_OUTPUT_LOCAL : LTT_OUTPUT_NONE;
	} else if (!rd->ret) {
		ltt_cfg_rd_fail(rd, co, "needs a <destination> with a <path> or a <net_output>");
	}
}

static void read_snap_outputs(struct ltt_cfg_rd *rd, xmlNodePtr list, struct ltt_cfg_session *s)
{
	xmlNodePtr o;
	size_t n = 0;

	list_of(rd, list, "output");
	n = ltt_cfg_rd_count(list, "output");
	s->snap_outputs = ltt_cfg_rd_calloc(rd, n, sizeof(*s->snap_outputs));
	if (!s->snap_outputs)
		return;
	for (o = child(list, "output"); o && !rd->ret; o = next(o)) {
		struct ltt_cfg_snap_output *so = &s->snap_outputs[s->nr_snap_outputs++];

		elems(rd, o, snap_output_elems);
		so->line = xmlGetLineNo(o);
		ltt_cfg_rd_text(rd, child(o, "name"), so->attr.name, sizeof(so->attr.name));
		so->attr.max_size = num(rd, o, "max_size", UINT64_MAX, 0);
		consumer_output(rd, child(o, "consumer_output"), &so->attr.output_type,
				so->attr.output, sizeof(so->attr.output));
	}
}

/* <output>: the session's (<consumer_output>) or its snapshot outputs. */
static void read_output(struct ltt_cfg_rd *rd, xmlNodePtr out, struct ltt_cfg_session *s)
{
	s->attr.output_type = LTT_OUTPUT_LOCAL;	/* none saved: the daemon's default */
	if (!out)
		return;
	elems(rd, out, (const char *const[]){ "consumer_output", "snapshot_outputs", NULL });
	if (child(out, "snapshot_outputs")) {
		s->attr.output_type = LTT_OUTPUT_NONE;
		read_snap_outputs(rd, child(out, "snapshot_outputs"), s);
	} else if (child(out, "consumer_output")) {
		consumer_output(rd, child(out, "consumer_output"), &s->attr.output_type,
				s->attr.output, sizeof(s->attr.output));
	}
}

/* Contexts */

/* LTTng's perf counter @name (its field name) as ltt's, into @x. */
static int perf_context(uint32_t type, uint64_t config, const char *name, struct ltt_ctx *x)
{
	char field[LTT_CTX_NAME_MAX], raw[LTT_CTX_NAME_MAX];
	const char *p, *ltt;
	size_t i;

	if (type == PERF_TYPE_RAW && !strncmp(name, "perf_thread_raw_r", 17) &&
	    (p = strchr(name + 17, '_'))) {
		snprintf(raw, sizeof(raw), "perf:thread:raw:r%.*s:%s", (int)(p - name - 17),
			 name + 17, p + 1);
		return ltt_ctx_parse(raw, x) || x->perf_config != config ? -ENOENT : 0;
	}
	for (i = 0; (ltt = ltt_ctx_list_name_domain(i, LTT_CTX_DOMAIN_USER)); i++) {
		if (ltt_ctx_parse(ltt, x) || x->type != LTT_CONTEXT_PERF_THREAD)
			continue;
		ltt_ctx_field_name(x, field);
		if (x->perf_type == type && x->perf_config == config && !strcmp(field, name))
			return 0;
	}
	return -ENOENT;
}

/* One <context>: a type word, a <perf> counter or an <app> context. */
static void read_context(struct ltt_cfg_rd *rd, xmlNodePtr n, enum ltt_domain domain,
			 struct ltt_ctx *x)
{
	char word[LTT_CTX_NAME_MAX], name[LTT_CTX_NAME_MAX];
	xmlNodePtr perf = child(n, "perf");
	size_t i;

	elems(rd, n, (const char *const[]){ "type", "perf", "app", NULL });
	if (child(n, "app")) {
		ltt_cfg_rd_refuse(rd, n, "an application context ($app.PROVIDER:NAME) is not "
				  "supported by ltt: remove this <context>");
	} else if (perf) {
		elems(rd, perf, perf_elems);
		ltt_cfg_rd_token(rd, child(perf, "name"), name, sizeof(name));
		if (!rd->ret && domain == LTT_DOMAIN_KERNEL)
			ltt_cfg_rd_refuse(rd, perf, "perf counter context %s: %s", name,
					  ltt_strerror(LTT_ERR_KERNEL_CONTEXT_PERF));
		else if (!rd->ret && perf_context((uint32_t)num(rd, perf, "type", UINT32_MAX, 0),
						  num(rd, perf, "config", UINT64_MAX, 0), name, x))
			ltt_cfg_rd_refuse(rd, perf, "perf counter context %s is not supported by "
					  "ltt: remove it ('lttctl add-context --list' shows the "
					  "counters ltt has)", name);
	} else if (ltt_cfg_rd_token(rd, child(n, "type"), word, sizeof(word))) {
		for (i = 0; word[i]; i++)
			name[i] = (char)(word[i] >= 'A' && word[i] <= 'Z' ? word[i] - 'A' + 'a' : word[i]);
		name[i] = '\0';
		if (!strcmp(name, "perf_thread_counter") || ltt_ctx_parse(name, x))
			ltt_cfg_rd_refuse(rd, n, "context %s is not supported by ltt: remove it "
					  "('lttctl add-context --list' shows the contexts ltt has)",
					  word);
	} else if (!rd->ret) {
		ltt_cfg_rd_fail(rd, n, "needs a <type>, a <perf> or an <app>");
	}
}

static void read_contexts(struct ltt_cfg_rd *rd, xmlNodePtr list, struct ltt_cfg_channel *c)
{
	xmlNodePtr n;

	if (!list)
		return;
	list_of(rd, list, "context");
	c->context_line = xmlGetLineNo(list);
	for (n = child(list, "context"); n && !rd->ret; n = next(n))
		if (c->nr_contexts++ < LTT_CTX_MAX)
			read_context(rd, n, c->domain, &c->contexts[c->nr_contexts - 1]);
}

/* Events */

/* LTTng's event <type> as ltt's; what ltt lacks is refused. */
static enum ltt_event_type event_type(struct ltt_cfg_rd *rd, xmlNodePtr ev, enum ltt_domain d,
				      const char *name)
{
	xmlNodePtr n = child(ev, "type");
	char word[32];
	size_t i;

	if (!n || !ltt_cfg_rd_token(rd, n, word, sizeof(word)) || !strcmp(word, "TRACEPOINT"))
		return LTT_EVENT_TRACEPOINT;
	if (!strcmp(word, "SYSCALL"))
		return LTT_EVENT_SYSCALL;
	if (!strcmp(word, "ALL") && d == LTT_DOMAIN_USER)
		return LTT_EVENT_TRACEPOINT;	/* user space has tracepoints only */
	if (!strcmp(word, "ALL")) {
		ltt_cfg_rd_refuse(rd, n, "kernel event '%s' of type ALL is not supported by ltt: "
				  "write one event of type TRACEPOINT and one of type SYSCALL", name);
		return LTT_EVENT_TRACEPOINT;
	}
	for (i = 0; i < sizeof(probe_types) / sizeof(probe_types[0]); i++)
		if (!strcmp(word, probe_types[i].type))
			break;
	if (i < sizeof(probe_types) / sizeof(probe_types[0]) && !probe_types[i].what &&
	    d != LTT_DOMAIN_KERNEL)
		ltt_cfg_rd_fail(rd, n, "event '%s' of type %s: probes are kernel events", name,
				word);
	else if (i < sizeof(probe_types) / sizeof(probe_types[0]) && !probe_types[i].what)
		return probe_types[i].ltt;
	else if (i < sizeof(probe_types) / sizeof(probe_types[0]))
		ltt_cfg_rd_refuse(rd, n, "event '%s' of type %s, %s, is not supported by ltt: "
				  "remove it (ltt traces tracepoints, system calls, kernel probes "
				  "and functions, and user-space probes)", name, word,
				  probe_types[i].what);
	else
		ltt_cfg_rd_fail(rd, n, "'%s' is not an event type of LTTng's format", word);
	return LTT_EVENT_TRACEPOINT;
}

static void read_event(struct ltt_cfg_rd *rd, xmlNodePtr ev, enum ltt_domain domain,
		       struct ltt_cfg_rule *r)
{
	xmlNodePtr lv = child(ev, "loglevel"), lt = child(ev, "loglevel_type");
	struct ltt_rule_conf *a = &r->attr;

	elems(rd, ev, event_elems);
	r->line = xmlGetLineNo(ev);
	if (!ltt_cfg_rd_text(rd, child(ev, "name"), a->pattern, sizeof(a->pattern)) && !rd->ret)
		ltt_cfg_rd_fail(rd, ev, "an event without a <name>");
	a->type = event_type(rd, ev, domain, a->pattern);
	ltt_cfg_rd_probe(rd, ev, a);
	r->enabled = boolean(rd, child(ev, "enabled"), true);
	a->loglevel_type = LTT_LOGLEVEL_ALL;
	if (lt)
		a->loglevel_type = (enum ltt_loglevel_type)LTT_CFG_RD_LOOKUP(
			rd, lt, ltt_lttng_loglevel_types);
	/*
	 * LTTng's user-space levels are ltt's, by number; ALL ignores a level
	 * as LTTng does, and LTTng reads the level -1 of RANGE or SINGLE as
	 * every level (its tracers match -1 to any), which is ALL.
	 */
	if (a->loglevel_type != LTT_LOGLEVEL_ALL)
		a->loglevel = lv ? (int)signed_num(rd, lv) : -1;
	if (a->loglevel_type != LTT_LOGLEVEL_ALL && lv && a->loglevel == -1) {
		a->loglevel_type = LTT_LOGLEVEL_ALL;
		a->loglevel = 0;
	}
	ltt_cfg_rd_filter(rd, ev, a);
}

/* Channels */

static void read_channel_attr(struct ltt_cfg_rd *rd, xmlNodePtr ch, struct ltt_channel_conf *a)
{
	xmlNodePtr n;

	if ((n = child(ch, "overwrite_mode")))
		a->overwrite = LTT_CFG_RD_LOOKUP(rd, n, ltt_lttng_overwrite_modes) == 1;
	a->subbuf_size = num(rd, ch, "subbuffer_size", UINT64_MAX, a->subbuf_size);
	a->num_subbuf = num(rd, ch, "subbuffer_count", UINT64_MAX, a->num_subbuf);
	a->switch_timer_us = (uint32_t)num(rd, ch, "switch_timer_interval", UINT32_MAX,
					   a->switch_timer_us);
	a->read_timer_us = (uint32_t)num(rd, ch, "read_timer_interval", UINT32_MAX,
					 a->read_timer_us);
	a->tracefile_size = num(rd, ch, "tracefile_size", UINT64_MAX, 0);
	a->tracefile_count = num(rd, ch, "tracefile_count", UINT64_MAX, 0);
	/* Read and dropped: ltt's consumer reads every buffer one way; the live timer is the session's. */
	if ((n = child(ch, "output_type")))
		LTT_CFG_RD_LOOKUP(rd, n, ltt_lttng_output_types);	/* ltt: one way, ignored */
	num(rd, ch, "live_timer_interval", UINT32_MAX, 0);
	if ((n = child(ch, "monitor_timer_interval"))) {
		uint64_t us = num(rd, ch, "monitor_timer_interval", UINT64_MAX, 0);

		if (!rd->ret && us && us < LTT_LTTNG_MONITOR_PERIOD_US)
			refuse_gap(rd, n, LTT_LTTNG_GAP_MONITOR_TIMER);
	}
	if ((n = child(ch, "blocking_timeout")))
		ltt_cfg_rd_blocking(rd, n, a);
	/* LTTng 2.15's watchdog: read and dropped, ltt's consumer repairs as it reads */
	num(rd, ch, "watchdog_timer_interval", UINT64_MAX, 0);
	if ((n = child(ch, "allocation_policy")))
		a->allocation = (uint8_t)LTT_CFG_RD_LOOKUP(rd, n, allocation_policies);
	if ((n = child(ch, "preallocation_policy")))
		a->preallocation = (uint8_t)LTT_CFG_RD_LOOKUP(rd, n, preallocation_policies);
	if ((n = child(ch, "reclaim_policy"))) {
		elems(rd, n, reclaim_elems);
		elems(rd, child(n, "periodic"), periodic_elems);
		ltt_cfg_rd_reclaim(rd, n, a);
	}
}

static void read_channel(struct ltt_cfg_rd *rd, xmlNodePtr ch, enum ltt_domain domain,
			 enum ltt_buffer_type buffers, struct ltt_cfg_channel *c)
{
	xmlNodePtr ev;
	size_t n = 0;

	elems(rd, ch, channel_elems);
	c->domain = domain;
	c->line = xmlGetLineNo(ch);
	ltt_attr_channel_defaults(&c->attr, domain);
	c->attr.buffer_type = buffers;
	ltt_cfg_rd_text(rd, child(ch, "name"), c->attr.name, sizeof(c->attr.name));
	c->enabled = boolean(rd, child(ch, "enabled"), true);
	read_channel_attr(rd, ch, &c->attr);
	/* LTTng 2.14's per-channel buffers: user space's; the kernel's backends have none */
	if (c->attr.allocation == LTT_ALLOC_PER_CHANNEL && domain == LTT_DOMAIN_KERNEL && !rd->ret)
		refuse_gap(rd, child(ch, "allocation_policy"), LTT_LTTNG_GAP_PER_CHANNEL);
	list_of(rd, child(ch, "events"), "event");
	n = ltt_cfg_rd_count(child(ch, "events"), "event");
	c->rules = ltt_cfg_rd_calloc(rd, n, sizeof(*c->rules));
	if (!c->rules)
		return;
	for (ev = child(child(ch, "events"), "event"); ev && !rd->ret; ev = next(ev))
		read_event(rd, ev, domain, &c->rules[c->nr_rules++]);
	read_contexts(rd, child(ch, "contexts"), c);
}

/* Trackers */

/* A user or group name of a <uid>/<vuid>/<gid>/<vgid> value as its id. */
static uint32_t id_of_name(struct ltt_cfg_rd *rd, xmlNodePtr n, bool group)
{
	char name[LTT_NAME_MAX];
	struct passwd *pw;
	struct group *gr;

	if (!ltt_cfg_rd_token(rd, n, name, sizeof(name)))
		return 0;
	if (group && (gr = getgrnam(name)))
		return (uint32_t)gr->gr_gid;
	if (!group && (pw = getpwnam(name)))
		return (uint32_t)pw->pw_uid;
	ltt_cfg_rd_fail(rd, n, "'%s': %s", name, ltt_strerror(LTT_ERR_TRACKER_NAME));
	return 0;
}

/* Add the id of the value @v to @t; a duplicate or one too many is marked for the check. */
static void tracker_value(struct ltt_cfg_rd *rd, xmlNodePtr v, bool group,
			  struct ltt_cfg_tracker *t)
{
	xmlNodePtr id = child(v, "id"), name = child(v, "name");
	uint32_t x, k;

	elems(rd, v, (const char *const[]){ "id", "name", NULL });
	if (!id && !name) {
		ltt_cfg_rd_fail(rd, v, "a tracker value without an <id> or a <name>");
		return;
	}
	x = id ? (uint32_t)ltt_cfg_rd_number(rd, id, UINT32_MAX) : id_of_name(rd, name, group);
	for (k = 0; k < t->nr && t->ids[k] != x; k++)
		;
	if (t->nr >= LTT_TRACKER_MAX_IDS || k < t->nr)
		t->nr = LTT_TRACKER_MAX_IDS + 1;	/* refused by the check */
	else
		t->ids[t->nr++] = x;
}

/* The tracker type of <KIND_process_attr_tracker>, or -1. */
static int tracker_kind(xmlNodePtr tr)
{
	const char *name = (const char *)tr->name, *sfx = "_process_attr_tracker";
	size_t len = strlen(name), n = strlen(sfx);
	int k;

	if (len <= n || strcmp(name + len - n, sfx))
		return -1;
	for (k = 0; k < LTT_TRACKER_NR; k++)
		if (strlen(ltt_cfg_xml_tracker_types[k]) == len - n &&
		    !strncmp(name, ltt_cfg_xml_tracker_types[k], len - n))
			return k;
	return -1;
}

/* <process_attr_trackers>: <KIND_process_attr_tracker><process_attr_values><KIND>... */
static void read_trackers(struct ltt_cfg_rd *rd, xmlNodePtr trs, struct ltt_cfg_tracker *row)
{
	const char *kind;
	xmlNodePtr tr, vals, v;
	int k;

	for (tr = trs ? trs->children : NULL; tr && !rd->ret; tr = tr->next) {
		if (tr->type != XML_ELEMENT_NODE)
			continue;
		k = tracker_kind(tr);
		if (k < 0) {
			ltt_cfg_rd_fail(rd, tr, "not a process attribute tracker of LTTng's format");
			return;
		}
		elems(rd, tr, (const char *const[]){ "process_attr_values", NULL });
		vals = child(tr, "process_attr_values");
		kind = ltt_cfg_xml_tracker_types[k];
		list_of(rd, vals, kind);
		row[k].line = xmlGetLineNo(tr);
		row[k].policy = child(vals, kind) ? LTT_TRACKER_SET : LTT_TRACKER_NONE;
		for (v = child(vals, kind); v && !rd->ret; v = next(v))
			tracker_value(rd, v, k == LTT_TRACKER_VGID || k == LTT_TRACKER_GID, &row[k]);
	}
}

/* LTTng 2.10's <trackers><pid_tracker><targets><pid_target><pid>: process ids. */
static void read_legacy_trackers(struct ltt_cfg_rd *rd, xmlNodePtr trs, enum ltt_domain d,
				 struct ltt_cfg_tracker *row)
{
	struct ltt_cfg_tracker *t = &row[d == LTT_DOMAIN_KERNEL ? LTT_TRACKER_PID : LTT_TRACKER_VPID];
	xmlNodePtr pt = child(trs, "pid_tracker"), tg, targets = child(pt, "targets");
	uint32_t x, k;

	list_of(rd, trs, "pid_tracker");
	if (!pt)
		return;
	list_of(rd, targets, "pid_target");
	t->line = xmlGetLineNo(pt);
	t->policy = child(targets, "pid_target") ? LTT_TRACKER_SET : LTT_TRACKER_NONE;
	for (tg = child(targets, "pid_target"); tg && !rd->ret; tg = next(tg)) {
		x = (uint32_t)num(rd, tg, "pid", UINT32_MAX, 0);
		for (k = 0; k < t->nr && t->ids[k] != x; k++)
			;
		if (t->nr >= LTT_TRACKER_MAX_IDS || k < t->nr)
			t->nr = LTT_TRACKER_MAX_IDS + 1;
		else
			t->ids[t->nr++] = x;
	}
}

/* Domains */

/* The domain's <type>: UST, KERNEL, or one of LTTng's agent domains (JUL, LOG4J, PYTHON). */
static enum ltt_domain domain_type(struct ltt_cfg_rd *rd, xmlNodePtr dom, char *word, size_t len)
{
	int d;

	if (!ltt_cfg_rd_token(rd, child(dom, "type"), word, len)) {
		ltt_cfg_rd_fail(rd, dom, "a domain without a <type>");
		return LTT_DOMAIN_NONE;
	}
	for (d = 0; d < LTT_LTTNG_NR_DOMAINS; d++)
		if (ltt_lttng_domains[d] && !strcmp(word, ltt_lttng_domains[d]))
			return (enum ltt_domain)d;
	/* LTTng 2.14's, written empty in every session: ignored so; with a channel refused */
	if (!strcmp(word, "LOG4J2")) {
		if (child(child(dom, "channels"), "channel"))
			refuse_gap(rd, child(child(dom, "channels"), "channel"), LTT_LTTNG_GAP_LOG4J2);
		return LTT_DOMAIN_NONE;
	}
	ltt_cfg_rd_fail(rd, child(dom, "type"), "'%s' is not a domain of LTTng's format", word);
	return LTT_DOMAIN_NONE;
}

/*
 * An agent domain's channel (LTTng saves one, lttng_jul_channel..., with
 * the loggers as its events; an agent domain without rules empty in every
 * session): ltt keeps it as the user-space channel of that name
 * (common/model/agent.h), whose rules are of that domain.
 */
static void read_agent_channel(struct ltt_cfg_rd *rd, xmlNodePtr ch, enum ltt_domain d,
			       enum ltt_buffer_type buffers, struct ltt_cfg_channel *c)
{
	const struct ltt_agent_domain *agent = ltt_agent_domain(d);

	read_channel(rd, ch, LTT_DOMAIN_USER, buffers, c);
	if (!rd->ret && strcmp(c->attr.name, agent->channel))
		ltt_cfg_rd_fail(rd, ch, "channel '%s' in the %s domain: its channel is '%s'",
				c->attr.name, agent->name, agent->channel);
}

static void read_domain(struct ltt_cfg_rd *rd, xmlNodePtr dom, struct ltt_cfg_session *s)
{
	enum ltt_buffer_type buffers = LTT_BUFFER_DEFAULT;
	enum ltt_domain d;
	char word[16];
	xmlNodePtr ch;

	elems(rd, dom, domain_elems);
	d = domain_type(rd, dom, word, sizeof(word));
	if (!rd->ret && child(child(dom, "map_channels"), "map_channel"))
		refuse_gap(rd, child(child(dom, "map_channels"), "map_channel"), LTT_LTTNG_GAP_MAPS);
	if (rd->ret || d == LTT_DOMAIN_NONE)
		return;
	ch = child(child(dom, "channels"), "channel");
	if (child(dom, "buffer_type"))
		buffers = (enum ltt_buffer_type)LTT_CFG_RD_LOOKUP(rd, child(dom, "buffer_type"),
								  ltt_lttng_buffer_types);
	list_of(rd, child(dom, "channels"), "channel");
	if (ltt_agent_domain(d)) {
		for (; ch && !rd->ret; ch = next(ch))
			read_agent_channel(rd, ch, d, buffers, &s->channels[s->nr_channels++]);
		return;
	}
	for (; ch && !rd->ret; ch = next(ch))
		read_channel(rd, ch, d, buffers, &s->channels[s->nr_channels++]);
	read_trackers(rd, child(dom, "process_attr_trackers"),
		      s->trackers.t[d == LTT_DOMAIN_KERNEL ? 0 : 1]);
	if (child(dom, "trackers"))
		read_legacy_trackers(rd, child(dom, "trackers"), d,
				     s->trackers.t[d == LTT_DOMAIN_KERNEL ? 0 : 1]);
}

/* Each domain (KERNEL, UST, JUL, LOG4J, LOG4J2, PYTHON) at most once. */
static void domains_once(struct ltt_cfg_rd *rd, xmlNodePtr list)
{
	char word[16], seen[6][16];
	unsigned int nr = 0, i;
	xmlNodePtr dom;

	for (dom = child(list, "domain"); dom && !rd->ret; dom = next(dom)) {
		if (!ltt_cfg_rd_token(rd, child(dom, "type"), word, sizeof(word)))
			continue;
		for (i = 0; i < nr && strcmp(seen[i], word); i++)
			;
		if (i < nr)
			ltt_cfg_rd_fail(rd, dom, "a second %s domain", word);
		else if (nr < 6)
			strcpy(seen[nr++], word);
	}
}

int ltt_cfg_lttng_read_session(struct ltt_cfg_rd *rd, xmlNodePtr se, struct ltt_cfg_session *s)
{
	xmlNodePtr domains = child(se, "domains"), dom, ch;
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->line = xmlGetLineNo(se);
	elems(rd, se, session_elems);
	list_of(rd, domains, "domain");
	domains_once(rd, domains);
	ltt_cfg_rd_text(rd, child(se, "name"), s->attr.name, sizeof(s->attr.name));
	ltt_cfg_rd_text(rd, child(se, "shared_memory_path"), s->attr.shm_path,
			sizeof(s->attr.shm_path));
	/* LTTng 2.15's <trace_format>: CTF_1_8 or CTF_2, the enum's order */
	if (child(se, "trace_format"))
		s->attr.trace_format = (uint8_t)(LTT_CFG_RD_LOOKUP(rd, child(se, "trace_format"),
								   trace_formats) +
						 LTT_TRACE_FORMAT_CTF_1_8);
	s->started = boolean(rd, child(se, "started"), false);
	if (child(se, "attributes"))
		read_attributes(rd, child(se, "attributes"), s);
	read_output(rd, child(se, "output"), s);
	for (dom = child(domains, "domain"); dom; dom = next(dom))
		for (ch = child(child(dom, "channels"), "channel"); ch; ch = next(ch))
			n++;
	s->channels = ltt_cfg_rd_calloc(rd, n, sizeof(*s->channels));
	if (!s->channels)
		return rd->ret;
	for (dom = child(domains, "domain"); dom && !rd->ret; dom = next(dom))
		read_domain(rd, dom, s);
	return rd->ret;
}

/* One of LTTng's markers in @se (see config-lttng.h). */
static bool lttng_session(xmlNodePtr se)
{
	xmlNodePtr out = child(se, "output"), dom;

	if (child(out, "consumer_output") || child(out, "snapshot_outputs") ||
	    child(se, "attributes") || child(se, "shared_memory_path"))
		return true;
	for (dom = child(child(se, "domains"), "domain"); dom; dom = next(dom))
		if (child(dom, "buffer_type"))
			return true;
	return false;
}

bool ltt_cfg_lttng_is(xmlDocPtr doc)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), se;

	if (!root || strcmp((const char *)root->name, "sessions") ||
	    xmlHasProp(root, BAD_CAST "version"))
		return false;
	for (se = child(root, "session"); se; se = next(se))
		if (lttng_session(se))
			return true;
	return false;
}
