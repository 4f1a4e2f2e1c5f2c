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

#include "common/probe/probe-loc.h"
#include "lib/ltt-ctl/config/config-check.h"
#include "lib/ltt-ctl/config/config-words.h"
#include "lib/ltt-ctl/config/config-xml-put.h"
#include "lib/ltt-ctl/config/config-xml-write.h"

/*
 * A rule of @domain: @filter and @exclusions NULL or "" when it has none,
 * @location a probe type's.
 */
static void write_event(struct ltt_cfg_put *wr, enum ltt_domain domain, const char *pattern,
			enum ltt_event_type type, enum ltt_loglevel_type lt, int loglevel,
			bool enabled, const char *filter, const char *exclusions,
			const char *location)
{
	const char *level = ltt_loglevel_name_domain(domain, loglevel);

	ltt_cfg_put_open(wr, "event");
	ltt_cfg_put(wr, "pattern", "%s", pattern);
	ltt_cfg_put(wr, "type", "%s", ltt_cfg_xml_event_types[type < LTT_LTTNG_NR_EVENT_TYPES ? type : 0]);
	ltt_cfg_put(wr, "loglevel_type", "%s",
	    ltt_cfg_xml_loglevel_types[lt <= LTT_LOGLEVEL_SINGLE ? lt : 0]);
	/* a python level without a name: its number */
	if (lt != LTT_LOGLEVEL_ALL && strcmp(level, "UNKNOWN"))
		ltt_cfg_put(wr, "loglevel", "%s", level);
	else if (lt != LTT_LOGLEVEL_ALL)
		ltt_cfg_put(wr, "loglevel", "%d", loglevel);
	ltt_cfg_put(wr, "enabled", "%s", ltt_cfg_put_bool(enabled));
	if (filter && filter[0])
		ltt_cfg_put(wr, "filter", "%s", filter);
	ltt_cfg_put_list(wr, "exclusions", "exclusion", exclusions);
	if (ltt_event_type_is_probe(type))
		ltt_cfg_put_probe(wr, type, location);
	ltt_cfg_put_close(wr);
}

static void write_rule(struct ltt_cfg_put *wr, const struct ltt_event_rule_info *r)
{
	write_event(wr, r->domain, r->attr.pattern, r->attr.type, r->attr.loglevel_type,
		    r->attr.loglevel, r->enabled, r->attr.filter, r->attr.exclusions,
		    r->attr.location);
}

static void write_contexts(struct ltt_cfg_put *wr, const struct ltt_cfg_contexts *ctxs,
			   const struct ltt_channel_info *c)
{
	size_t i, n = 0;

	for (i = 0; ctxs && i < ctxs->n; i++) {
		const struct ltt_context_info *x = &ctxs->v[i];

		if (x->domain != c->domain || strcmp(x->channel, c->attr.name))
			continue;
		if (!n++)
			ltt_cfg_put_open(wr, "contexts");
		ltt_cfg_put_open(wr, "context");
		ltt_cfg_put(wr, "type", "%s", x->context.name);
		ltt_cfg_put_close(wr);
	}
	if (n)
		ltt_cfg_put_close(wr);
}

/* --auto-reclaim-memory as LTTng 2.15 saves it (absent: off). */
static void write_reclaim(struct ltt_cfg_put *wr, const struct ltt_channel_attr *a)
{
	if (a->auto_reclaim == LTT_AUTO_RECLAIM_OFF)
		return;
	ltt_cfg_put_open(wr, "reclaim_policy");
	if (a->auto_reclaim == LTT_AUTO_RECLAIM_CONSUMED) {
		ltt_cfg_put_open(wr, "consumed");
	} else {
		ltt_cfg_put_open(wr, "periodic");
		ltt_cfg_put(wr, "age_threshold", "%llu", (unsigned long long)a->auto_reclaim_us);
	}
	ltt_cfg_put_close(wr);
	ltt_cfg_put_close(wr);
}

static void write_channel(struct ltt_cfg_put *wr, const struct ltt_session_detail *d,
			  const struct ltt_cfg_contexts *ctxs, const struct ltt_channel_info *c)
{
	enum ltt_buffer_type bt = ltt_cfg_buffer_type(c);
	size_t i;

	ltt_cfg_put_open(wr, "channel");
	ltt_cfg_put(wr, "name", "%s", c->attr.name);
	ltt_cfg_put(wr, "enabled", "%s", ltt_cfg_put_bool(c->enabled));
	ltt_cfg_put(wr, "overwrite", "%s", ltt_cfg_put_bool(c->attr.overwrite));
	ltt_cfg_put(wr, "subbuf_size", "%llu", (unsigned long long)c->attr.subbuf_size);
	ltt_cfg_put(wr, "num_subbuf", "%llu", (unsigned long long)c->attr.num_subbuf);
	ltt_cfg_put(wr, "switch_timer_us", "%u", c->attr.switch_timer_us);
	ltt_cfg_put(wr, "read_timer_us", "%u", c->attr.read_timer_us);
	ltt_cfg_put(wr, "tracefile_size", "%llu", (unsigned long long)c->attr.tracefile_size);
	ltt_cfg_put(wr, "tracefile_count", "%llu", (unsigned long long)c->attr.tracefile_count);
	ltt_cfg_put(wr, "buffer_type", "%s", ltt_cfg_xml_buffer_types[bt]);
	if (c->attr.fsync)	/* absent: false, as files before it say */
		ltt_cfg_put(wr, "fsync", "%s", ltt_cfg_put_bool(true));
	if (c->attr.preallocation)	/* absent: the domain's default */
		ltt_cfg_put(wr, "buffer_preallocation", "%s",
		    c->attr.preallocation == LTT_PREALLOC_PREALLOCATE ? "PREALLOCATE" : "ON_DEMAND");
	if (c->attr.allocation == LTT_ALLOC_PER_CHANNEL)	/* absent: per CPU */
		ltt_cfg_put(wr, "allocation_policy", "%s", "PER_CHANNEL");
	write_reclaim(wr, &c->attr);
	ltt_cfg_put_blocking(wr, c->attr.blocking_timeout_us);
	ltt_cfg_put_open(wr, "events");
	for (i = 0; i < d->nr_rules; i++)
		if (d->rules[i].domain == LTT_CFG_RULE_DOMAIN(c) &&
		    !strcmp(d->rules[i].channel, c->attr.name))
			write_rule(wr, &d->rules[i]);
	ltt_cfg_put_close(wr);
	write_contexts(wr, ctxs, c);
	ltt_cfg_put_close(wr);
}

static void write_snap_output(struct ltt_cfg_put *wr, const char *name, enum ltt_output_type type,
			      const char *output, uint64_t max_size)
{
	ltt_cfg_put_open(wr, "snapshot_output");
	if (name[0])	/* an action's output may have none */
		ltt_cfg_put(wr, "name", "%s", name);
	ltt_cfg_put(wr, type == LTT_OUTPUT_NET ? "net" : "local", "%s", output);
	ltt_cfg_put(wr, "max_size", "%llu", (unsigned long long)max_size);
	ltt_cfg_put_close(wr);
}

static const char *const domain_names[] = {
	[LTT_DOMAIN_KERNEL] = "kernel", [LTT_DOMAIN_USER] = "user", [LTT_DOMAIN_PYTHON] = "python",
	[LTT_DOMAIN_JUL] = "jul", [LTT_DOMAIN_LOG4J] = "log4j",
};

static void write_condition(struct ltt_cfg_put *wr, const struct ltt_trigger_conf *c)
{
	const struct ltt_rule_conf *r = &c->rule;
	uint32_t i;

	ltt_cfg_put_open(wr, "condition");
	ltt_cfg_put(wr, "type", "%s", ltt_condition_type_name((enum ltt_condition_type)c->cond));
	if (c->domain < sizeof(domain_names) / sizeof(domain_names[0]) && domain_names[c->domain])
		ltt_cfg_put(wr, "domain", "%s", domain_names[c->domain]);
	if (c->cond == LTT_CONDITION_EVENT_RULE_MATCHES) {
		write_event(wr, (enum ltt_domain)c->domain, r->pattern, r->type, r->loglevel_type,
			    r->loglevel, true, r->filter, r->exclusions, r->location);
		/* a system call rule of the entries or the exits alone */
		if (r->type == LTT_EVENT_SYSCALL && r->location[0])
			ltt_cfg_put(wr, "emission_site", "%s", r->location);
		if (c->nr_captures)
			ltt_cfg_put_open(wr, "captures");
		for (i = 0; i < c->nr_captures; i++)
			ltt_cfg_put(wr, "capture", "%s", c->captures[i]);
		if (c->nr_captures)
			ltt_cfg_put_close(wr);
	}
	if (c->session[0])
		ltt_cfg_put(wr, "session", "%s", c->session);
	if (c->channel[0])
		ltt_cfg_put(wr, "channel", "%s", c->channel);
	if (c->threshold_size)
		ltt_cfg_put(wr, "threshold_size", "%llu", (unsigned long long)c->threshold_size);
	else if (c->cond == LTT_CONDITION_BUFFER_USAGE_GE || c->cond == LTT_CONDITION_BUFFER_USAGE_LE)
		ltt_cfg_put(wr, "threshold_ratio", "%u.%06u", c->threshold_ppm / LTT_TRIGGER_PPM,
		    c->threshold_ppm % LTT_TRIGGER_PPM);
	ltt_cfg_put_close(wr);
}

/* The triggers saved with a session (xml/session.xsd's trigger_t). */
static void write_triggers(struct ltt_cfg_put *wr, const struct ltt_cfg_extra *x)
{
	const struct ltt_action_conf *a;
	size_t i, k;

	if (!x->nr_triggers)
		return;
	ltt_cfg_put_open(wr, "triggers");
	for (i = 0; i < x->nr_triggers; i++) {
		ltt_cfg_put_open(wr, "trigger");
		ltt_cfg_put(wr, "name", "%s", x->triggers[i].name);
		write_condition(wr, &x->triggers[i]);
		ltt_cfg_put_open(wr, "actions");
		for (k = 0; k < x->triggers[i].nr_actions; k++) {
			a = &x->triggers[i].actions[k];
			ltt_cfg_put_open(wr, "action");
			ltt_cfg_put(wr, "type", "%s", ltt_action_type_name((enum ltt_action_type)a->type));
			if (a->session[0])
				ltt_cfg_put(wr, "session", "%s", a->session);
			ltt_cfg_put(wr, "rate_policy", "%s",
			    a->rate_policy == LTT_RATE_ONCE_AFTER ? "once-after" : "every");
			ltt_cfg_put(wr, "rate_count", "%llu", (unsigned long long)a->rate_count);
			if (a->has_output)
				write_snap_output(wr, a->output.name, a->output.output_type,
						  a->output.output, a->output.max_size);
			if (a->output_flags & LTT_TRIGGER_OUTPUT_PAIR)
				ltt_cfg_put(wr, "output_pair", "true");
			if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
				ltt_cfg_put(wr, "map_channel", "%s", a->map);
				ltt_cfg_put(wr, "key", "%s", a->key);
			}
			ltt_cfg_put_close(wr);
		}
		ltt_cfg_put_close(wr);
		ltt_cfg_put_close(wr);
	}
	ltt_cfg_put_close(wr);
}

/* A snapshot session's snapshot outputs and a rotation schedule, when set. */
static void write_extra(struct ltt_cfg_put *wr, const struct ltt_cfg_extra *x)
{
	size_t i;

	if (x->nr_snap_outputs) {
		ltt_cfg_put_open(wr, "snapshot_outputs");
		for (i = 0; i < x->nr_snap_outputs; i++)
			write_snap_output(wr, x->snap_outputs[i].name, x->snap_outputs[i].output_type,
					  x->snap_outputs[i].output, x->snap_outputs[i].max_size);
		ltt_cfg_put_close(wr);
	}
	if (x->rotate_timer_us || x->rotate_size) {
		ltt_cfg_put_open(wr, "rotation_schedules");
		if (x->rotate_timer_us)
			ltt_cfg_put(wr, "timer_us", "%llu", (unsigned long long)x->rotate_timer_us);
		if (x->rotate_size)
			ltt_cfg_put(wr, "size", "%llu", (unsigned long long)x->rotate_size);
		ltt_cfg_put_close(wr);
	}
}

/* A session's map channels (xml/session.xsd's map_channel_t). */
static void write_maps(struct ltt_cfg_put *wr, const struct ltt_cfg_extra *x)
{
	size_t i;

	if (!x->nr_maps)
		return;
	ltt_cfg_put_open(wr, "map_channels");
	for (i = 0; i < x->nr_maps; i++) {
		ltt_cfg_put_open(wr, "map_channel");
		ltt_cfg_put(wr, "name", "%s", x->maps[i].name);
		ltt_cfg_put(wr, "value_type", "%s", ltt_map_value_type_name(x->maps[i].value_type));
		ltt_cfg_put(wr, "max_key_count", "%u", x->maps[i].max_keys);
		if (x->maps[i].ownership != LTT_MAP_OWNER_USER)
			ltt_cfg_put(wr, "buffer_ownership", "%s",
			    x->maps[i].ownership == LTT_MAP_OWNER_KERNEL ? "kernel" : "process");
		if (x->maps[i].dead_policy == LTT_MAP_DEAD_SUM)
			ltt_cfg_put(wr, "dead_process_policy", "sum-into-shared");
		ltt_cfg_put_close(wr);
	}
	ltt_cfg_put_close(wr);
}

/* A domain's trackers that do not include every process (row @t); is there one? */
static bool write_trackers(struct ltt_cfg_put *wr, const struct ltt_cfg_tracker *t, bool write)
{
	bool any = false;
	size_t k, i;

	for (k = 0; k < LTT_TRACKER_NR; k++) {
		if (t[k].policy == LTT_TRACKER_ALL || t[k].policy > LTT_TRACKER_SET)
			continue;
		if (!write)
			return true;
		if (!any)
			ltt_cfg_put_open(wr, "trackers");
		any = true;
		ltt_cfg_put_open(wr, "tracker");
		ltt_cfg_put(wr, "type", "%s", ltt_cfg_xml_tracker_types[k]);
		ltt_cfg_put(wr, "policy", "%s", ltt_cfg_xml_tracker_policies[t[k].policy]);
		for (i = 0; t[k].policy == LTT_TRACKER_SET && i < t[k].nr; i++)
			ltt_cfg_put(wr, "id", "%lu", (unsigned long)t[k].ids[i]);
		ltt_cfg_put_close(wr);
	}
	if (any)
		ltt_cfg_put_close(wr);
	return any;
}

static void write_session(struct ltt_cfg_put *wr, const struct ltt_session_detail *d,
			  const struct ltt_cfg_extra *x)
{
	static const enum ltt_domain domains[] = { LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER };
	static const struct ltt_cfg_trackers all;	/* every process */
	const struct ltt_cfg_trackers *trackers = x->trackers ? x->trackers : &all;
	const struct ltt_session_info *s = &d->info;
	size_t i, j;

	ltt_cfg_put_open(wr, "session");
	ltt_cfg_put(wr, "name", "%s", s->name);
	ltt_cfg_put_open(wr, "output");
	if (s->output_type == LTT_OUTPUT_LOCAL)
		ltt_cfg_put(wr, "local", "%s", s->output);
	else if (s->output_type == LTT_OUTPUT_NET)
		ltt_cfg_put(wr, "net", "%s", s->output);
	else
		ltt_cfg_put(wr, "none", "%s", "");
	ltt_cfg_put_close(wr);
	ltt_cfg_put(wr, "snapshot", "%s", ltt_cfg_put_bool(s->snapshot));
	if (s->live_timer_us)
		ltt_cfg_put(wr, "live_timer_us", "%u", s->live_timer_us);
	if (d->tls) {
		ltt_cfg_put_open(wr, "tls");
		ltt_cfg_put(wr, "cert", "%s", d->tls->cert);
		ltt_cfg_put(wr, "key", "%s", d->tls->key);
		ltt_cfg_put(wr, "ca", "%s", d->tls->ca);
		ltt_cfg_put_close(wr);
	}
	if (d->shm_path)
		ltt_cfg_put(wr, "shm_path", "%s", d->shm_path);
	ltt_cfg_put(wr, "started", "%s", ltt_cfg_put_bool(s->active));
	ltt_cfg_put_open(wr, "domains");
	for (i = 0; i < 2; i++) {
		bool any = false;

		for (j = 0; j < d->nr_channels; j++)
			any = any || d->channels[j].domain == domains[i];
		if (!any && !write_trackers(wr, trackers->t[i], false))
			continue;
		ltt_cfg_put_open(wr, "domain");
		ltt_cfg_put(wr, "type", "%s", ltt_domain_name(domains[i]));
		ltt_cfg_put_open(wr, "channels");
		for (j = 0; j < d->nr_channels; j++)
			if (d->channels[j].domain == domains[i])
				write_channel(wr, d, &x->contexts, &d->channels[j]);
		ltt_cfg_put_close(wr);
		write_trackers(wr, trackers->t[i], true);
		ltt_cfg_put_close(wr);
	}
	ltt_cfg_put_close(wr);
	write_extra(wr, x);
	write_maps(wr, x);
	write_triggers(wr, x);
	ltt_cfg_put_close(wr);
}

int ltt_cfg_xml_write(const char *path, struct ltt_session_detail *const *details,
		      const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen)
{
	return ltt_cfg_put_sessions(path, details, extras, n, LTT_CFG_VERSION, write_session, err,
				    errlen);
}
