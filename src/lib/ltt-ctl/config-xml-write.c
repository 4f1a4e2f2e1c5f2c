// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-xml-write.c - saved session configurations written out: each
 * session's detail (and what config-xml.h's ltt_cfg_extra adds) as the
 * format of xml/session.xsd, into a temporary file renamed over the target.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "common/base/durable.h"
#include "common/probe/probe-loc.h"
#include "lib/ltt-ctl/config-words.h"
#include "lib/ltt-ctl/config-xml-write.h"

/* Writing: each call appends one element; any failure sticks in *ret. */
struct writer {
	xmlTextWriterPtr w;
	int ret;
};

static void put(struct writer *wr, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(struct writer *wr, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (wr->ret < 0)
		return;
	va_start(ap, fmt);
	wr->ret = xmlTextWriterWriteVFormatElement(wr->w, BAD_CAST name, fmt, ap);
	va_end(ap);
}

static void open_el(struct writer *wr, const char *name)
{
	if (wr->ret >= 0)
		wr->ret = xmlTextWriterStartElement(wr->w, BAD_CAST name);
}

static void close_el(struct writer *wr)
{
	if (wr->ret >= 0)
		wr->ret = xmlTextWriterEndElement(wr->w);
}

static const char *yes(bool b)
{
	return b ? "true" : "false";
}

/*
 * The <attributes> of a probe rule at @location (probe-loc.h), in LTTng's
 * elements (config-rd.h's ltt_cfg_rd_probe() reads them back).
 */
static void write_probe(struct writer *wr, enum ltt_event_type type, const char *location)
{
	struct ltt_probe_loc loc;
	char why[128];

	if (wr->ret < 0)
		return;
	if (ltt_probe_loc_parse(type, location, &loc, why, sizeof(why))) {
		wr->ret = -EINVAL;	/* the daemon checked it: not from a daemon */
		return;
	}
	open_el(wr, "attributes");
	if (loc.kind == LTT_PROBE_KSYM || loc.kind == LTT_PROBE_KADDR) {
		open_el(wr, "probe_attributes");
		if (loc.kind == LTT_PROBE_KADDR)
			put(wr, "address", "%" PRIu64, loc.addr);
		else
			put(wr, "symbol_name", "%s", loc.symbol);
		if (loc.kind == LTT_PROBE_KSYM && loc.offset)
			put(wr, "offset", "%" PRIu64, loc.offset);
	} else if (loc.kind == LTT_PROBE_SDT) {
		open_el(wr, "userspace_probe_tracepoint_attributes");
		put(wr, "lookup_method", "SDT");
		put(wr, "binary_path", "%s", loc.path);
		put(wr, "probe_name", "%s", loc.symbol);
		put(wr, "provider_name", "%s", loc.provider);
	} else {
		/* LTTng's DEFAULT is a location without elf:, its ELF one with */
		open_el(wr, "userspace_probe_function_attributes");
		put(wr, "lookup_method", "%s", strncmp(location, "elf:", 4) ? "DEFAULT" : "ELF");
		put(wr, "binary_path", "%s", loc.path);
		put(wr, "function_name", "%s", loc.symbol);
	}
	close_el(wr);
	close_el(wr);
}

/*
 * A rule of @domain: @filter and @exclusions NULL or "" when it has none,
 * @location a probe type's.
 */
static void write_event(struct writer *wr, enum ltt_domain domain, const char *pattern,
			enum ltt_event_type type, enum ltt_loglevel_type lt, int loglevel,
			bool enabled, const char *filter, const char *exclusions,
			const char *location)
{
	const char *level = ltt_loglevel_name_domain(domain, loglevel);

	open_el(wr, "event");
	put(wr, "pattern", "%s", pattern);
	put(wr, "type", "%s", ltt_cfg_xml_event_types[type < LTT_CFG_NR_EVENT_TYPES ? type : 0]);
	put(wr, "loglevel_type", "%s",
	    ltt_cfg_xml_loglevel_types[lt <= LTT_LOGLEVEL_SINGLE ? lt : 0]);
	/* a python level without a name: its number */
	if (lt != LTT_LOGLEVEL_ALL && strcmp(level, "UNKNOWN"))
		put(wr, "loglevel", "%s", level);
	else if (lt != LTT_LOGLEVEL_ALL)
		put(wr, "loglevel", "%d", loglevel);
	put(wr, "enabled", "%s", yes(enabled));
	if (filter && filter[0])
		put(wr, "filter", "%s", filter);
	if (exclusions && exclusions[0]) {
		const char *p = exclusions;

		open_el(wr, "exclusions");
		while (*p) {
			int len = (int)strcspn(p, ",");

			put(wr, "exclusion", "%.*s", len, p);
			p += len + (p[len] == ',');
		}
		close_el(wr);
	}
	if (ltt_event_type_is_probe(type))
		write_probe(wr, type, location);
	close_el(wr);
}

static void write_rule(struct writer *wr, const struct ltt_event_rule_info *r)
{
	write_event(wr, r->domain, r->attr.pattern, r->attr.type, r->attr.loglevel_type,
		    r->attr.loglevel, r->enabled, r->attr.filter, r->attr.exclusions,
		    r->attr.location);
}

static void write_contexts(struct writer *wr, const struct ltt_cfg_contexts *ctxs,
			   const struct ltt_channel_info *c)
{
	size_t i, n = 0;

	for (i = 0; ctxs && i < ctxs->n; i++) {
		const struct ltt_context_info *x = &ctxs->v[i];

		if (x->domain != c->domain || strcmp(x->channel, c->attr.name))
			continue;
		if (!n++)
			open_el(wr, "contexts");
		open_el(wr, "context");
		put(wr, "type", "%s", x->context.name);
		close_el(wr);
	}
	if (n)
		close_el(wr);
}

/* --auto-reclaim-memory as LTTng 2.15 saves it (absent: off). */
static void write_reclaim(struct writer *wr, const struct ltt_channel_attr *a)
{
	if (a->auto_reclaim == LTT_AUTO_RECLAIM_OFF)
		return;
	open_el(wr, "reclaim_policy");
	if (a->auto_reclaim == LTT_AUTO_RECLAIM_CONSUMED) {
		open_el(wr, "consumed");
	} else {
		open_el(wr, "periodic");
		put(wr, "age_threshold", "%llu", (unsigned long long)a->auto_reclaim_us);
	}
	close_el(wr);
	close_el(wr);
}

static void write_channel(struct writer *wr, const struct ltt_session_detail *d,
			  const struct ltt_cfg_contexts *ctxs, const struct ltt_channel_info *c)
{
	enum ltt_buffer_type bt = c->attr.buffer_type;
	size_t i;

	if (bt == LTT_BUFFER_DEFAULT || bt > LTT_BUFFER_GLOBAL)
		bt = c->domain == LTT_DOMAIN_KERNEL ? LTT_BUFFER_GLOBAL : LTT_BUFFER_PER_UID;
	open_el(wr, "channel");
	put(wr, "name", "%s", c->attr.name);
	put(wr, "enabled", "%s", yes(c->enabled));
	put(wr, "overwrite", "%s", yes(c->attr.overwrite));
	put(wr, "subbuf_size", "%llu", (unsigned long long)c->attr.subbuf_size);
	put(wr, "num_subbuf", "%llu", (unsigned long long)c->attr.num_subbuf);
	put(wr, "switch_timer_us", "%u", c->attr.switch_timer_us);
	put(wr, "read_timer_us", "%u", c->attr.read_timer_us);
	put(wr, "tracefile_size", "%llu", (unsigned long long)c->attr.tracefile_size);
	put(wr, "tracefile_count", "%llu", (unsigned long long)c->attr.tracefile_count);
	put(wr, "buffer_type", "%s", ltt_cfg_xml_buffer_types[bt]);
	if (c->attr.fsync)	/* absent: false, as files before it say */
		put(wr, "fsync", "%s", yes(true));
	if (c->attr.preallocation)	/* absent: the domain's default */
		put(wr, "buffer_preallocation", "%s",
		    c->attr.preallocation == LTT_PREALLOC_PREALLOCATE ? "PREALLOCATE" : "ON_DEMAND");
	if (c->attr.allocation == LTT_ALLOC_PER_CHANNEL)	/* absent: per CPU */
		put(wr, "allocation_policy", "%s", "PER_CHANNEL");
	write_reclaim(wr, &c->attr);
	if (c->attr.blocking_timeout_us == LTT_BLOCKING_TIMEOUT_INF)	/* absent: 0 */
		put(wr, "blocking_timeout", "%d", -1);
	else if (c->attr.blocking_timeout_us)
		put(wr, "blocking_timeout", "%llu", (unsigned long long)c->attr.blocking_timeout_us);
	open_el(wr, "events");
	for (i = 0; i < d->nr_rules; i++)
		if (d->rules[i].domain == LTT_CFG_RULE_DOMAIN(c) &&
		    !strcmp(d->rules[i].channel, c->attr.name))
			write_rule(wr, &d->rules[i]);
	close_el(wr);
	write_contexts(wr, ctxs, c);
	close_el(wr);
}

static void write_snap_output(struct writer *wr, const char *name, enum ltt_output_type type,
			      const char *output, uint64_t max_size)
{
	open_el(wr, "snapshot_output");
	if (name[0])	/* an action's output may have none */
		put(wr, "name", "%s", name);
	put(wr, type == LTT_OUTPUT_NET ? "net" : "local", "%s", output);
	put(wr, "max_size", "%llu", (unsigned long long)max_size);
	close_el(wr);
}

static const char *const domain_names[] = {
	[LTT_DOMAIN_KERNEL] = "kernel", [LTT_DOMAIN_USER] = "user", [LTT_DOMAIN_PYTHON] = "python",
};

static void write_condition(struct writer *wr, const struct ltt_trigger_conf *c)
{
	const struct ltt_rule_conf *r = &c->rule;
	uint32_t i;

	open_el(wr, "condition");
	put(wr, "type", "%s", ltt_condition_type_name((enum ltt_condition_type)c->cond));
	if (c->domain < sizeof(domain_names) / sizeof(domain_names[0]) && domain_names[c->domain])
		put(wr, "domain", "%s", domain_names[c->domain]);
	if (c->cond == LTT_CONDITION_EVENT_RULE_MATCHES) {
		write_event(wr, (enum ltt_domain)c->domain, r->pattern, r->type, r->loglevel_type,
			    r->loglevel, true, r->filter, r->exclusions, r->location);
		if (c->nr_captures)
			open_el(wr, "captures");
		for (i = 0; i < c->nr_captures; i++)
			put(wr, "capture", "%s", c->captures[i]);
		if (c->nr_captures)
			close_el(wr);
	}
	if (c->session[0])
		put(wr, "session", "%s", c->session);
	if (c->channel[0])
		put(wr, "channel", "%s", c->channel);
	if (c->threshold_size)
		put(wr, "threshold_size", "%llu", (unsigned long long)c->threshold_size);
	else if (c->cond == LTT_CONDITION_BUFFER_USAGE_GE || c->cond == LTT_CONDITION_BUFFER_USAGE_LE)
		put(wr, "threshold_ratio", "%u.%06u", c->threshold_ppm / LTT_TRIGGER_PPM,
		    c->threshold_ppm % LTT_TRIGGER_PPM);
	close_el(wr);
}

/* The triggers saved with a session (xml/session.xsd's trigger_t). */
static void write_triggers(struct writer *wr, const struct ltt_cfg_extra *x)
{
	const struct ltt_action_conf *a;
	size_t i, k;

	if (!x->nr_triggers)
		return;
	open_el(wr, "triggers");
	for (i = 0; i < x->nr_triggers; i++) {
		open_el(wr, "trigger");
		put(wr, "name", "%s", x->triggers[i].name);
		write_condition(wr, &x->triggers[i]);
		open_el(wr, "actions");
		for (k = 0; k < x->triggers[i].nr_actions; k++) {
			a = &x->triggers[i].actions[k];
			open_el(wr, "action");
			put(wr, "type", "%s", ltt_action_type_name((enum ltt_action_type)a->type));
			if (a->session[0])
				put(wr, "session", "%s", a->session);
			put(wr, "rate_policy", "%s",
			    a->rate_policy == LTT_RATE_ONCE_AFTER ? "once-after" : "every");
			put(wr, "rate_count", "%llu", (unsigned long long)a->rate_count);
			if (a->has_output)
				write_snap_output(wr, a->output.name, a->output.output_type,
						  a->output.output, a->output.max_size);
			if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
				put(wr, "map_channel", "%s", a->map);
				put(wr, "key", "%s", a->key);
			}
			close_el(wr);
		}
		close_el(wr);
		close_el(wr);
	}
	close_el(wr);
}

/* A snapshot session's snapshot outputs and a rotation schedule, when set. */
static void write_extra(struct writer *wr, const struct ltt_cfg_extra *x)
{
	size_t i;

	if (x->nr_snap_outputs) {
		open_el(wr, "snapshot_outputs");
		for (i = 0; i < x->nr_snap_outputs; i++)
			write_snap_output(wr, x->snap_outputs[i].name, x->snap_outputs[i].output_type,
					  x->snap_outputs[i].output, x->snap_outputs[i].max_size);
		close_el(wr);
	}
	if (x->rotate_timer_us || x->rotate_size) {
		open_el(wr, "rotation_schedules");
		if (x->rotate_timer_us)
			put(wr, "timer_us", "%llu", (unsigned long long)x->rotate_timer_us);
		if (x->rotate_size)
			put(wr, "size", "%llu", (unsigned long long)x->rotate_size);
		close_el(wr);
	}
}

/* A session's map channels (xml/session.xsd's map_channel_t). */
static void write_maps(struct writer *wr, const struct ltt_cfg_extra *x)
{
	size_t i;

	if (!x->nr_maps)
		return;
	open_el(wr, "map_channels");
	for (i = 0; i < x->nr_maps; i++) {
		open_el(wr, "map_channel");
		put(wr, "name", "%s", x->maps[i].name);
		put(wr, "value_type", "%s", ltt_map_value_type_name(x->maps[i].value_type));
		put(wr, "max_key_count", "%u", x->maps[i].max_keys);
		if (x->maps[i].ownership != LTT_MAP_OWNER_USER)
			put(wr, "buffer_ownership", "%s",
			    x->maps[i].ownership == LTT_MAP_OWNER_KERNEL ? "kernel" : "process");
		if (x->maps[i].dead_policy == LTT_MAP_DEAD_SUM)
			put(wr, "dead_process_policy", "sum-into-shared");
		close_el(wr);
	}
	close_el(wr);
}

/* A domain's trackers that do not include every process (row @t); is there one? */
static bool write_trackers(struct writer *wr, const struct ltt_cfg_tracker *t, bool write)
{
	bool any = false;
	size_t k, i;

	for (k = 0; k < LTT_TRACKER_NR; k++) {
		if (t[k].policy == LTT_TRACKER_ALL || t[k].policy > LTT_TRACKER_SET)
			continue;
		if (!write)
			return true;
		if (!any)
			open_el(wr, "trackers");
		any = true;
		open_el(wr, "tracker");
		put(wr, "type", "%s", ltt_cfg_xml_tracker_types[k]);
		put(wr, "policy", "%s", ltt_cfg_xml_tracker_policies[t[k].policy]);
		for (i = 0; t[k].policy == LTT_TRACKER_SET && i < t[k].nr; i++)
			put(wr, "id", "%lu", (unsigned long)t[k].ids[i]);
		close_el(wr);
	}
	if (any)
		close_el(wr);
	return any;
}

static void write_session(struct writer *wr, const struct ltt_session_detail *d,
			  const struct ltt_cfg_extra *x)
{
	static const enum ltt_domain domains[] = { LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER };
	static const struct ltt_cfg_trackers all;	/* every process */
	const struct ltt_cfg_trackers *trackers = x->trackers ? x->trackers : &all;
	const struct ltt_session_info *s = &d->info;
	size_t i, j;

	open_el(wr, "session");
	put(wr, "name", "%s", s->name);
	open_el(wr, "output");
	if (s->output_type == LTT_OUTPUT_LOCAL)
		put(wr, "local", "%s", s->output);
	else if (s->output_type == LTT_OUTPUT_NET)
		put(wr, "net", "%s", s->output);
	else
		put(wr, "none", "%s", "");
	close_el(wr);
	put(wr, "snapshot", "%s", yes(s->snapshot));
	if (s->live_timer_us)
		put(wr, "live_timer_us", "%u", s->live_timer_us);
	if (d->tls) {
		open_el(wr, "tls");
		put(wr, "cert", "%s", d->tls->cert);
		put(wr, "key", "%s", d->tls->key);
		put(wr, "ca", "%s", d->tls->ca);
		close_el(wr);
	}
	put(wr, "started", "%s", yes(s->active));
	open_el(wr, "domains");
	for (i = 0; i < 2; i++) {
		bool any = false;

		for (j = 0; j < d->nr_channels; j++)
			any = any || d->channels[j].domain == domains[i];
		if (!any && !write_trackers(wr, trackers->t[i], false))
			continue;
		open_el(wr, "domain");
		put(wr, "type", "%s", ltt_domain_name(domains[i]));
		open_el(wr, "channels");
		for (j = 0; j < d->nr_channels; j++)
			if (d->channels[j].domain == domains[i])
				write_channel(wr, d, &x->contexts, &d->channels[j]);
		close_el(wr);
		write_trackers(wr, trackers->t[i], true);
		close_el(wr);
	}
	close_el(wr);
	write_extra(wr, x);
	write_maps(wr, x);
	write_triggers(wr, x);
	close_el(wr);
}

int ltt_cfg_xml_write(const char *path, struct ltt_session_detail *const *details,
		      const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen)
{
	struct writer wr = { .ret = 0 };
	xmlBufferPtr buf = xmlBufferCreate();
	size_t i;
	int ret;

	wr.w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!wr.w) {
		xmlBufferFree(buf);
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -LTT_ERR_CONFIG_IO;
	}
	xmlTextWriterSetIndent(wr.w, 1);
	xmlTextWriterSetIndentString(wr.w, BAD_CAST "  ");
	wr.ret = xmlTextWriterStartDocument(wr.w, NULL, "UTF-8", NULL);
	open_el(&wr, "sessions");
	if (wr.ret >= 0)
		wr.ret = xmlTextWriterWriteFormatAttribute(wr.w, BAD_CAST "version", "%d",
							   LTT_CFG_VERSION);
	for (i = 0; i < n; i++)
		write_session(&wr, details[i], &extras[i]);
	close_el(&wr);
	if (wr.ret >= 0)
		wr.ret = xmlTextWriterEndDocument(wr.w);
	xmlFreeTextWriter(wr.w);	/* flushes into buf */
	/* whole or not at all, even across a crash or a power loss */
	ret = wr.ret < 0 ? -ENOMEM : ltt_file_replace(path, xmlBufferContent(buf),
						       (size_t)xmlBufferLength(buf), 0600);
	xmlBufferFree(buf);
	if (ret) {
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(-ret));
		return -LTT_ERR_CONFIG_IO;
	}
	return 0;
}
