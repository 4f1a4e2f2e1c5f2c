// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-check.c - a saved session of the model (config-model.h) checked as
 * a whole, with the validators the daemon uses (common/model/attr.c): what the
 * schema cannot say (a value valid for its domain, nothing twice).
 */
#include <string.h>
#include <strings.h>

#include "common/model/map.h"
#include "common/model/attr.h"
#include "common/model/lttng-words.h"
#include "lib/ltt-ctl/config/config-check.h"

static bool same_rule(const struct ltt_rule_conf *a, const struct ltt_rule_conf *b)
{
	return !strcmp(a->pattern, b->pattern) && a->type == b->type &&
	       a->loglevel_type == b->loglevel_type && a->loglevel == b->loglevel &&
	       !strcmp(a->filter, b->filter) && !strcmp(a->exclusions, b->exclusions);
}

/* The contexts of @c: each a known type of the channel's domain, none twice. */
static int check_contexts(const struct ltt_cfg_session *s, const struct ltt_cfg_channel *c,
			  char *err, size_t errlen)
{
	uint32_t i, j;

	if (!c->nr_contexts)
		return 0;
	if (c->nr_contexts > LTT_CTX_MAX) {
		ltt_cfg_err(err, errlen, "%s:%ld: channel '%s': more than %d contexts", s->file,
			c->context_line, c->attr.name, LTT_CTX_MAX);
		return -LTT_ERR_CONFIG_INVALID;
	}
	for (i = 0; i < c->nr_contexts; i++) {
		if (!c->contexts[i].type) {
			ltt_cfg_err(err, errlen, "%s:%ld: channel '%s': context '%s': %s", s->file,
				c->context_line, c->attr.name, c->contexts[i].name,
				ltt_strerror(-LTT_ERR_CONTEXT_TYPE));
			return -LTT_ERR_CONFIG_INVALID;
		}
		if (!(ltt_ctx_domains(&c->contexts[i]) & (c->domain == LTT_DOMAIN_KERNEL ?
							    LTT_CTX_DOMAIN_KERNEL : LTT_CTX_DOMAIN_USER))) {
			ltt_cfg_err(err, errlen, "%s:%ld: channel '%s': context '%s': %s", s->file,
				c->context_line, c->attr.name, c->contexts[i].name,
				ltt_strerror(-LTT_ERR_CONTEXT_DOMAIN));
			return -LTT_ERR_CONFIG_INVALID;
		}
		for (j = 0; j < i; j++) {
			if (ltt_ctx_same(&c->contexts[j], &c->contexts[i])) {
				ltt_cfg_err(err, errlen, "%s:%ld: channel '%s': context '%s' twice", s->file,
					c->context_line, c->attr.name, c->contexts[i].name);
				return -LTT_ERR_CONFIG_INVALID;
			}
		}
	}
	return 0;
}

/* The rules of @c: each valid for the domain, none twice. */
static int check_rules(const struct ltt_cfg_session *s, const struct ltt_cfg_channel *c,
		       char *err, size_t errlen)
{
	size_t i, j;
	enum ltt_error_code code;

	for (i = 0; i < c->nr_rules; i++) {
		const struct ltt_cfg_rule *r = &c->rules[i];

		if (r->attr.loglevel < 0 ||
		    (r->attr.loglevel_type == LTT_LOGLEVEL_ALL && r->attr.loglevel))
			code = LTT_ERR_LOGLEVEL;
		else
			code = ltt_attr_check_rule(&r->attr);
		if (!code)
			code = ltt_attr_check_rule_domain(&r->attr, LTT_CFG_RULE_DOMAIN(c));
		if (code) {
			ltt_cfg_err(err, errlen, "%s:%ld: event rule '%s': %s", s->file, r->line,
				r->attr.pattern, ltt_strerror(code));
			return -LTT_ERR_CONFIG_INVALID;
		}
		for (j = 0; j < i; j++)
			if (same_rule(&c->rules[j].attr, &r->attr)) {
				ltt_cfg_err(err, errlen, "%s:%ld: event rule '%s' is in channel '%s' twice (line %ld)",
					s->file, r->line, r->attr.pattern, c->attr.name,
					c->rules[j].line);
				return -LTT_ERR_CONFIG_INVALID;
			}
	}
	return 0;
}

/* A channel valid for its domain, named once, of its domain's buffer type. */
static int check_channel(const struct ltt_cfg_session *s, size_t i, char *err, size_t errlen)
{
	const struct ltt_cfg_channel *c = &s->channels[i];
	struct ltt_channel_conf attr = c->attr;
	size_t j;
	enum ltt_error_code code;
	int ret;

	code = ltt_attr_check_channel(&attr, c->domain);
	if (!code && attr.buffer_type != c->attr.buffer_type)
		code = LTT_ERR_BUFFER_TYPE;
	if (code) {
		ltt_cfg_err(err, errlen, "%s:%ld: channel '%s': %s", s->file, c->line, c->attr.name,
			ltt_strerror(code));
		return -LTT_ERR_CONFIG_INVALID;
	}
	for (j = 0; j < i; j++) {
		const struct ltt_cfg_channel *o = &s->channels[j];

		if (o->domain != c->domain)
			continue;
		if (!strcmp(o->attr.name, c->attr.name)) {
			ltt_cfg_err(err, errlen, "%s:%ld: channel '%s' is in the %s domain twice (line %ld)",
				s->file, c->line, c->attr.name, ltt_domain_name(c->domain), o->line);
			return -LTT_ERR_CONFIG_INVALID;
		}
		if (o->attr.buffer_type != c->attr.buffer_type) {
			ltt_cfg_err(err, errlen, "%s:%ld: channel '%s': %s", s->file, c->line,
				c->attr.name, ltt_strerror(-LTT_ERR_BUFFER_TYPE_MISMATCH));
			return -LTT_ERR_CONFIG_INVALID;
		}
	}
	ret = check_contexts(s, c, err, errlen);
	return ret ? ret : check_rules(s, c, err, errlen);
}

/* The snapshot outputs of @s: a snapshot session's, whose own output is none. */
static int check_snap_outputs(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	const struct ltt_cfg_snap_output *o;
	enum ltt_error_code code;

	if (!s->nr_snap_outputs)
		return 0;
	o = &s->snap_outputs[0];
	if (!s->attr.snapshot && s->attr.output_type != LTT_OUTPUT_NONE) {
		ltt_cfg_err(err, errlen, "%s:%ld: session '%s' has snapshot outputs but is not a snapshot session",
			s->file, o->line, s->attr.name);
		return -LTT_ERR_CONFIG_INVALID;
	}
	if (s->attr.output_type != LTT_OUTPUT_NONE) {
		ltt_cfg_err(err, errlen, "%s:%ld: session '%s': a snapshot session with <snapshot_outputs> has the output <none/> (the snapshot outputs are where it writes)",
			s->file, s->line, s->attr.name);
		return -LTT_ERR_CONFIG_INVALID;
	}
	if (s->nr_snap_outputs > 1) {
		ltt_cfg_err(err, errlen, "%s:%ld: session '%s': a snapshot session has one snapshot output (as LTTng's), this one %zu",
			s->file, s->snap_outputs[1].line, s->attr.name, s->nr_snap_outputs);
		return -LTT_ERR_CONFIG_INVALID;
	}
	code = ltt_attr_check_snapshot_output(&o->attr, true);
	if (code) {
		ltt_cfg_err(err, errlen, "%s:%ld: snapshot output '%s': %s", s->file, o->line,
			o->attr.name, ltt_strerror(code));
		return -LTT_ERR_CONFIG_INVALID;
	}
	return 0;
}

/* The rotation schedule of @s: valid values, a session with an output (local or net://), not a snapshot one. */
static int check_rotation(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	enum ltt_error_code code;

	if (!s->rotation_line)
		return 0;
	code = ltt_attr_check_rotation(s->rotate_timer_us, s->rotate_size);
	if (!code && s->attr.snapshot)
		code = LTT_ERR_ROTATE_SNAPSHOT;
	if (!code && s->attr.output_type == LTT_OUTPUT_NONE)
		code = LTT_ERR_ROTATE_OUTPUT;
	if (code) {
		ltt_cfg_err(err, errlen, "%s:%ld: session '%s': rotation schedule: %s", s->file,
			s->rotation_line, s->attr.name, ltt_strerror(code));
		return -LTT_ERR_CONFIG_INVALID;
	}
	return 0;
}

/* Each tracker: a set of 1 to LTT_TRACKER_MAX_IDS ids, each once; no id otherwise. */
static int check_trackers(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	const struct ltt_cfg_tracker *t;
	size_t d, k;

	for (d = 0; d < 2; d++) {
		for (k = 0; k < LTT_TRACKER_NR; k++) {
			t = &s->trackers.t[d][k];
			if (d == 1 && k >= LTT_TRACKER_NR_USER && t->policy != LTT_TRACKER_ALL) {
				ltt_cfg_err(err, errlen, "%s:%ld: %s tracker: %s", s->file, t->line,
					ltt_tracker_type_name((enum ltt_tracker_type)k),
					ltt_strerror(LTT_ERR_TRACKER_DOMAIN));
				return -LTT_ERR_CONFIG_INVALID;
			}
			if (t->nr <= LTT_TRACKER_MAX_IDS && (t->policy == LTT_TRACKER_SET) == !!t->nr)
				continue;
			ltt_cfg_err(err, errlen, "%s:%ld: %s tracker: %s", s->file, t->line,
				ltt_tracker_type_name((enum ltt_tracker_type)k),
				t->policy != LTT_TRACKER_SET ? "'all' and 'none' list no id" :
				t->nr ? "an id is listed twice, or more than 1024 ids" :
				"a set lists at least one id ('none' for no process)");
			return -LTT_ERR_CONFIG_INVALID;
		}
	}
	return 0;
}

/* Each map channel's attributes (ltt_map_attr_valid()). */
static int check_maps(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < s->nr_maps; i++) {
		if (!ltt_map_attr_valid(&s->maps[i])) {
			ltt_cfg_err(err, errlen, "%s:%ld: map channel '%s': a name as a channel's, "
				    "a value type and 1 to %d keys", s->file, s->maps_line,
				    s->maps[i].name, LTT_MAP_MAX_KEYS);
			return -LTT_ERR_CONFIG_INVALID;
		}
	}
	return 0;
}

/* Each trigger whole (ltt_trigger_check()); whether its sessions exist is the daemon's. */
static int check_triggers(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	struct ltt_trigger_conf c;
	size_t i;
	enum ltt_error_code code;

	for (i = 0; i < s->nr_triggers; i++) {
		c = s->triggers[i];
		code = c.name[0] ? ltt_trigger_check(&c) : LTT_ERR_TRIGGER_NAME;
		if (code) {
			ltt_cfg_err(err, errlen, "%s:%ld: trigger '%s': %s", s->file,
				    s->trigger_lines[i], c.name, ltt_strerror(code));
			return -LTT_ERR_CONFIG_INVALID;
		}
	}
	return 0;
}

int ltt_cfg_check_session(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	size_t i;
	enum ltt_error_code code;
	int ret;

	code = ltt_attr_check_session_request(&s->attr);
	if (!code && !s->attr.name[0])
		code = LTT_ERR_SESSION_NAME;
	if (code) {
		ltt_cfg_err(err, errlen, "%s:%ld: session '%s': %s", s->file, s->line, s->attr.name,
			ltt_strerror(code));
		return -LTT_ERR_CONFIG_INVALID;
	}
	for (i = 0; i < s->nr_channels; i++) {
		ret = check_channel(s, i, err, errlen);
		if (ret)
			return ret;
	}
	ret = check_snap_outputs(s, err, errlen);
	if (!ret)
		ret = check_rotation(s, err, errlen);
	if (!ret)
		ret = check_trackers(s, err, errlen);
	if (!ret)
		ret = check_maps(s, err, errlen);
	return ret ? ret : check_triggers(s, err, errlen);
}

const char *ltt_cfg_lttng_context(const char *name)
{
	/* LTTng 2.13's words for the contexts ltt has, ltt's in lower case */
	static const char *const words[] = {
		"PID", "PROCNAME", "PRIO", "NICE", "VPID", "TID", "VTID", "PPID", "VPPID",
		"PTHREAD_ID", "HOSTNAME", "IP", "INTERRUPTIBLE", "PREEMPTIBLE",
		"NEED_RESCHEDULE", "MIGRATABLE",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(words[i], name))
			return words[i];
	return NULL;
}

/* A context LTTng's format has: its <type> word, or a user-space perf counter's <perf>. */
static bool lttng_context(const struct ltt_context_info *c)
{
	return ltt_cfg_lttng_context(c->context.name) ||
	       (c->domain == LTT_DOMAIN_USER && !strncmp(c->context.name, "perf:thread:", 12));
}

enum ltt_buffer_type ltt_cfg_buffer_type(const struct ltt_channel_info *c)
{
	return ltt_lttng_buffering(c->domain, c->attr.buffer_type);
}

/*
 * What LTTng's channel lacks of @c, or NULL.  An attribute at its
 * domain's default is no gap: a load of the file takes the default again.
 */
static const char *channel_gap(const struct ltt_channel_info *c)
{
	const struct ltt_channel_attr *a = &c->attr;
	uint8_t prealloc = c->domain == LTT_DOMAIN_USER ? LTT_PREALLOC_ON_DEMAND
							 : LTT_PREALLOC_PREALLOCATE;

	if (a->fsync)
		return "LTTng's session format has no synced channel (enable-channel --fsync)";
	if (a->preallocation && a->preallocation != prealloc)
		return "LTTng 2.13's session format has no buffer preallocation policy "
		       "(enable-channel --buffer-preallocation)";
	if (a->allocation == LTT_ALLOC_PER_CHANNEL)
		return "LTTng 2.13's session format has no per-channel buffers "
		       "(enable-channel --buffer-allocation=per-channel)";
	if (a->auto_reclaim != LTT_AUTO_RECLAIM_OFF)
		return "LTTng 2.13's session format has no automatic memory reclaim "
		       "(enable-channel --auto-reclaim-memory)";
	return NULL;
}

const char *ltt_cfg_lttng_gap(const struct ltt_session_detail *d, const struct ltt_cfg_extra *x)
{
	const struct ltt_channel_info *c, *o;
	const char *gap;
	size_t i, j;

	if (d->tls)
		return "LTTng's session format has no TLS relay output (tls://)";
	if (x->nr_triggers)
		return "LTTng's session format holds no triggers (save --no-triggers leaves them out)";
	if (x->nr_maps)
		return "LTTng 2.13's session format has no map channels";
	/* LTTng writes a session's own output there (and can't load it back) */
	if (!d->info.snapshot && x->nr_snap_outputs)
		return "LTTng's session format holds snapshot outputs only for a --snapshot "
		       "session, not for this --no-output one";
	for (i = 0; i < d->nr_channels; i++) {
		c = &d->channels[i];
		gap = channel_gap(c);
		if (gap)
			return gap;
		for (j = 0; j < i; j++) {
			o = &d->channels[j];
			if (o->domain == c->domain &&
			    ltt_cfg_buffer_type(o) != ltt_cfg_buffer_type(c))
				return "LTTng's session format has one buffer type per domain, and "
				       "this session's channels of one domain have two";
		}
	}
	for (i = 0; i < x->contexts.n; i++)
		if (!lttng_context(&x->contexts.v[i]))
			return "LTTng 2.13's session format has no element for one of its "
			       "contexts (it has its own types and user-space perf counters)";
	return NULL;
}
