// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-lttng-write.c - sessions written in LTTng 2.13's session format
 * (config-lttng-write.h): ltt's detail in LTTng's elements, in the order
 * LTTng's session daemon writes them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/model/agent.h"
#include "common/model/context.h"
#include "common/model/uri.h"
#include "common/probe/probe-loc.h"
#include "lib/ltt-ctl/config/config-check.h"
#include "lib/ltt-ctl/config/config-lttng-write.h"
#include "lib/ltt-ctl/config/config-words.h"
#include "lib/ltt-ctl/config/config-xml-put.h"

/* A rule: LTTng's levels are ltt's by number (user space and the agents'). */
static void write_event(struct ltt_cfg_put *p, const struct ltt_event_rule_info *r)
{
	const struct ltt_event_rule_attr *a = &r->attr;

	ltt_cfg_put_open(p, "event");
	ltt_cfg_put(p, "name", "%s", a->pattern);
	ltt_cfg_put(p, "enabled", "%s", ltt_cfg_put_bool(r->enabled));
	ltt_cfg_put(p, "type", "%s", ltt_lttng_event_type(a->type));
	ltt_cfg_put(p, "loglevel_type", "%s", ltt_lttng_loglevel_type(a->loglevel_type));
	if (a->loglevel_type != LTT_LOGLEVEL_ALL)
		ltt_cfg_put(p, "loglevel", "%d", a->loglevel);
	if (a->filter && a->filter[0])
		ltt_cfg_put(p, "filter", "%s", a->filter);
	ltt_cfg_put_list(p, "exclusions", "exclusion", a->exclusions);
	if (ltt_event_type_is_probe(a->type))
		ltt_cfg_put_probe(p, a->type, a->location);
	ltt_cfg_put_close(p);
}

/* A context: its <type> word, or a perf counter's type, config and field name. */
static void write_context(struct ltt_cfg_put *p, const struct ltt_context_info *c)
{
	const char *word = ltt_cfg_lttng_context(c->context.name);
	char field[LTT_CTX_NAME_MAX];
	struct ltt_ctx x;

	ltt_cfg_put_open(p, "context");
	if (word) {
		ltt_cfg_put(p, "type", "%s", word);
	} else if (ltt_ctx_parse(c->context.name, &x)) {
		p->ret = p->ret < 0 ? p->ret : -EINVAL;	/* ltt_cfg_lttng_gap() let it through */
	} else {
		ltt_ctx_field_name(&x, field);
		ltt_cfg_put_open(p, "perf");
		ltt_cfg_put(p, "type", "%" PRIu32, x.perf_type);
		ltt_cfg_put(p, "config", "%" PRIu64, x.perf_config);
		ltt_cfg_put(p, "name", "%s", field);
		ltt_cfg_put_close(p);
	}
	ltt_cfg_put_close(p);
}

static void write_channel(struct ltt_cfg_put *p, const struct ltt_session_detail *d,
			  const struct ltt_cfg_extra *x, const struct ltt_channel_info *c)
{
	const struct ltt_channel_attr *a = &c->attr;
	size_t i, n = 0;

	ltt_cfg_put_open(p, "channel");
	ltt_cfg_put(p, "name", "%s", a->name);
	ltt_cfg_put(p, "enabled", "%s", ltt_cfg_put_bool(c->enabled));
	ltt_cfg_put(p, "overwrite_mode", "%s", ltt_lttng_overwrite_modes[a->overwrite]);
	ltt_cfg_put(p, "subbuffer_size", "%" PRIu64, a->subbuf_size);
	ltt_cfg_put(p, "subbuffer_count", "%" PRIu64, a->num_subbuf);
	ltt_cfg_put(p, "switch_timer_interval", "%" PRIu32, a->switch_timer_us);
	ltt_cfg_put(p, "read_timer_interval", "%" PRIu32, a->read_timer_us);
	ltt_cfg_put_blocking(p, a->blocking_timeout_us);
	/* what LTTng uses for each domain; ltt reads every buffer one way */
	ltt_cfg_put(p, "output_type", "%s", ltt_lttng_output_type(c->domain));
	ltt_cfg_put(p, "tracefile_size", "%" PRIu64, a->tracefile_size);
	ltt_cfg_put(p, "tracefile_count", "%" PRIu64, a->tracefile_count);
	/* LTTng's channels carry their session's live timer */
	ltt_cfg_put(p, "live_timer_interval", "%" PRIu32, d->info.live_timer_us);
	ltt_cfg_put_open(p, "events");
	for (i = 0; i < d->nr_rules; i++)
		if (d->rules[i].domain == LTT_CFG_RULE_DOMAIN(c) &&
		    !strcmp(d->rules[i].channel, a->name))
			write_event(p, &d->rules[i]);
	ltt_cfg_put_close(p);
	for (i = 0; i < x->contexts.n; i++) {
		const struct ltt_context_info *ctx = &x->contexts.v[i];

		if (ctx->domain != c->domain || strcmp(ctx->channel, a->name))
			continue;
		if (!n++)
			ltt_cfg_put_open(p, "contexts");
		write_context(p, ctx);
	}
	if (n)
		ltt_cfg_put_close(p);
	ltt_cfg_put_close(p);
}

/*
 * A domain's trackers that do not take every process (row @t, @nr
 * types): <KIND_process_attr_tracker>, its values empty for none.
 */
static void write_trackers(struct ltt_cfg_put *p, const struct ltt_cfg_tracker *t, size_t nr)
{
	const char *kind;
	char name[64];
	size_t k, i;

	ltt_cfg_put_open(p, "process_attr_trackers");
	for (k = 0; k < nr; k++) {
		if (t[k].policy != LTT_TRACKER_NONE && t[k].policy != LTT_TRACKER_SET)
			continue;
		kind = ltt_cfg_xml_tracker_types[k];
		snprintf(name, sizeof(name), "%s_process_attr_tracker", kind);
		ltt_cfg_put_open(p, name);
		ltt_cfg_put_open(p, "process_attr_values");
		for (i = 0; t[k].policy == LTT_TRACKER_SET && i < t[k].nr; i++) {
			ltt_cfg_put_open(p, kind);
			ltt_cfg_put(p, "id", "%" PRIu32, t[k].ids[i]);
			ltt_cfg_put_close(p);
		}
		ltt_cfg_put_close(p);
		ltt_cfg_put_close(p);
	}
	ltt_cfg_put_close(p);
}

/*
 * The domain @domain (LTTng's: user space's agents each have theirs,
 * holding the user-space channel of their rules): its buffer type, its
 * channels, the trackers of the kernel and user space.
 */
static void write_domain(struct ltt_cfg_put *p, const struct ltt_session_detail *d,
			 const struct ltt_cfg_extra *x, enum ltt_domain domain)
{
	static const struct ltt_cfg_trackers all;	/* every process */
	const struct ltt_cfg_trackers *trackers = x->trackers ? x->trackers : &all;
	enum ltt_buffer_type bt = ltt_lttng_buffering(domain, LTT_BUFFER_DEFAULT);
	size_t i;

	for (i = 0; i < d->nr_channels; i++)
		if (LTT_CFG_RULE_DOMAIN(&d->channels[i]) == domain) {
			bt = ltt_cfg_buffer_type(&d->channels[i]);
			break;
		}
	ltt_cfg_put_open(p, "domain");
	ltt_cfg_put(p, "type", "%s", ltt_lttng_domain(domain));
	ltt_cfg_put(p, "buffer_type", "%s", ltt_lttng_buffer_types[bt]);
	ltt_cfg_put_open(p, "channels");
	for (i = 0; i < d->nr_channels; i++)
		if (LTT_CFG_RULE_DOMAIN(&d->channels[i]) == domain)
			write_channel(p, d, x, &d->channels[i]);
	ltt_cfg_put_close(p);
	if (domain == LTT_DOMAIN_KERNEL)
		write_trackers(p, trackers->t[0], LTT_TRACKER_NR);
	else if (domain == LTT_DOMAIN_USER)
		write_trackers(p, trackers->t[1], LTT_TRACKER_NR_USER);
	ltt_cfg_put_close(p);
}

/* Does @d have a channel of @domain, or a tracker that does not take every process? */
static bool has_domain(const struct ltt_session_detail *d, const struct ltt_cfg_extra *x,
		       enum ltt_domain domain)
{
	size_t i, row = domain == LTT_DOMAIN_KERNEL ? 0 : 1;

	for (i = 0; i < d->nr_channels; i++)
		if (LTT_CFG_RULE_DOMAIN(&d->channels[i]) == domain)
			return true;
	for (i = 0; x->trackers && (domain == LTT_DOMAIN_KERNEL || domain == LTT_DOMAIN_USER) &&
		    i < LTT_TRACKER_NR; i++)
		if (x->trackers->t[row][i].policy == LTT_TRACKER_NONE ||
		    x->trackers->t[row][i].policy == LTT_TRACKER_SET)
			return true;
	return false;
}

/*
 * A <consumer_output>: a directory (LOCAL; "" none) or a relay, whose
 * net://HOST:CTRL:DATA/PATH LTTng holds as two URLs, the path in the
 * control one's.
 */
static void write_consumer(struct ltt_cfg_put *p, enum ltt_output_type type, const char *output)
{
	char ctrl_text[LTT_URI_TEXT_SIZE], data_text[LTT_URI_TEXT_SIZE];
	struct ltt_uri net, ctrl, data;

	ltt_cfg_put_open(p, "consumer_output");
	ltt_cfg_put(p, "enabled", "%s", ltt_cfg_put_bool(true));
	ltt_cfg_put_open(p, "destination");
	if (type != LTT_OUTPUT_NET) {
		ltt_cfg_put(p, "path", "%s", type == LTT_OUTPUT_LOCAL ? output : "");
	} else if (ltt_uri_parse(output, &net) || ltt_uri_net_port(&net, 0, &ctrl) ||
		   ltt_uri_net_port(&net, 1, &data)) {
		p->ret = p->ret < 0 ? p->ret : -EINVAL;	/* the daemon checked it */
	} else {
		snprintf(ctrl.path, sizeof(ctrl.path), "%s", net.path);
		if (ltt_uri_format(&ctrl, ctrl_text, sizeof(ctrl_text)) ||
		    ltt_uri_format(&data, data_text, sizeof(data_text)))
			p->ret = p->ret < 0 ? p->ret : -EINVAL;
		ltt_cfg_put_open(p, "net_output");
		ltt_cfg_put(p, "control_uri", "%s", ctrl_text);
		ltt_cfg_put(p, "data_uri", "%s", data_text);
		ltt_cfg_put_close(p);
	}
	ltt_cfg_put_close(p);
	ltt_cfg_put_close(p);
}

/* <attributes>: snapshot mode, live timer, rotation schedules. */
static void write_attributes(struct ltt_cfg_put *p, const struct ltt_session_info *s,
			     const struct ltt_cfg_extra *x)
{
	ltt_cfg_put_open(p, "attributes");
	ltt_cfg_put(p, "snapshot_mode", "%s", ltt_cfg_put_bool(s->snapshot));
	if (s->live_timer_us)
		ltt_cfg_put(p, "live_timer_interval", "%" PRIu32, s->live_timer_us);
	if (x->rotate_timer_us || x->rotate_size) {
		ltt_cfg_put_open(p, "rotation_schedules");
		if (x->rotate_timer_us) {
			ltt_cfg_put_open(p, "periodic");
			ltt_cfg_put(p, "time_us", "%" PRIu64, x->rotate_timer_us);
			ltt_cfg_put_close(p);
		}
		if (x->rotate_size) {
			ltt_cfg_put_open(p, "size_threshold");
			ltt_cfg_put(p, "bytes", "%" PRIu64, x->rotate_size);
			ltt_cfg_put_close(p);
		}
		ltt_cfg_put_close(p);
	}
	ltt_cfg_put_close(p);
}

/* <output>: a snapshot session's snapshot outputs, else its own. */
static void write_output(struct ltt_cfg_put *p, const struct ltt_session_info *s,
			 const struct ltt_cfg_extra *x)
{
	size_t i;

	ltt_cfg_put_open(p, "output");
	if (s->snapshot) {
		ltt_cfg_put_open(p, "snapshot_outputs");
		for (i = 0; i < x->nr_snap_outputs; i++) {
			const struct ltt_snapshot_output *o = &x->snap_outputs[i];

			ltt_cfg_put_open(p, "output");
			ltt_cfg_put(p, "name", "%s", o->name);
			ltt_cfg_put(p, "max_size", "%" PRIu64, o->max_size);
			write_consumer(p, o->output_type, o->output);
			ltt_cfg_put_close(p);
		}
		ltt_cfg_put_close(p);
	} else {
		write_consumer(p, s->output_type, s->output);
	}
	ltt_cfg_put_close(p);
}

static void write_session(struct ltt_cfg_put *p, const struct ltt_session_detail *d,
			  const struct ltt_cfg_extra *x)
{
	static const enum ltt_domain domains[] = {
		LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER, LTT_DOMAIN_JUL, LTT_DOMAIN_LOG4J,
		LTT_DOMAIN_PYTHON,
	};
	size_t i;

	ltt_cfg_put_open(p, "session");
	ltt_cfg_put(p, "name", "%s", d->info.name);
	if (d->shm_path)
		ltt_cfg_put(p, "shared_memory_path", "%s", d->shm_path);
	ltt_cfg_put_open(p, "domains");
	for (i = 0; i < sizeof(domains) / sizeof(domains[0]); i++)
		if (has_domain(d, x, domains[i]))
			write_domain(p, d, x, domains[i]);
	ltt_cfg_put_close(p);
	ltt_cfg_put(p, "started", "%s", ltt_cfg_put_bool(d->info.active));
	write_attributes(p, &d->info, x);
	write_output(p, &d->info, x);
	/* LTTng 2.15's; left out for CTF 1.8, which LTTng 2.13's schema reads */
	if (d->info.trace_format == LTT_TRACE_FORMAT_CTF_2)
		ltt_cfg_put(p, "trace_format", "%s", "CTF_2");
	ltt_cfg_put_close(p);
}

int ltt_cfg_lttng_write(const char *path, struct ltt_session_detail *const *details,
			const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen)
{
	return ltt_cfg_put_sessions(path, details, extras, n, 0, write_session, err, errlen);
}
