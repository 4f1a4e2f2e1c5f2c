// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-events.c - the events of a session's kernel channels, kept to
 * their rules: each event a rule wants gets an id and its metadata in the
 * channel on first need (a tracepoint or system call of the tracer's
 * catalog, or a probe rule's event, kernel-probe.c), then the tracer
 * records exactly the wanted ones, each with its rules' filters
 * (kernel-filter.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-filter.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/kernel/kernel-probe.h"

/* ---- metadata ---- */

/* Keep @text and send it (ctrace.h): a stalled consumer gets it later. */
static int send_metadata(struct kernel_session *ks, struct ltt_wbuf *text)
{
	if (text->err)
		return text->err;
	return ltt_ctrace_meta_add(&ks->trace, text);
}

/* ---- events in a channel ---- */

static struct kernel_event *find_event(struct kernel_chan *kc, const char *name)
{
	size_t i;

	for (i = 0; i < kc->nr_events; i++)
		if (!strcmp(kc->events[i].name, name))
			return &kc->events[i];
	return NULL;
}

/* What enabling the events of a channel needs, as ltt_kernel_for_each_event()'s @arg. */
struct enable_ctx {
	struct ltt_kernel *k;
	struct kernel_chan *kc;
	struct ltt_wbuf *text;		/* metadata of new event ids */
	bool *wanted;			/* per kc->events[i], grown with it */
	size_t cap_wanted;
	struct kernel_session *ks;
	const struct ltt_kernel_probe_event *probe;	/* the probe event wanted now, or NULL */
};

/* Room for one more event in the channel, and in @e's wanted flags. */
static int grow_events(struct enable_ctx *e)
{
	struct kernel_chan *kc = e->kc;
	struct kernel_event *events;
	bool *wanted;
	size_t cap;

	if (kc->nr_events == kc->cap_events) {
		cap = kc->cap_events ? kc->cap_events * 2 : 64;
		events = realloc(kc->events, cap * sizeof(*events));
		if (!events)
			return -ENOMEM;
		kc->events = events;
		kc->cap_events = cap;
	}
	if (kc->cap_events > e->cap_wanted) {
		wanted = realloc(e->wanted, kc->cap_events * sizeof(*wanted));
		if (!wanted)
			return -ENOMEM;
		memset(wanted + e->cap_wanted, 0, (kc->cap_events - e->cap_wanted) * sizeof(*wanted));
		e->wanted = wanted;
		e->cap_wanted = kc->cap_events;
	}
	return 0;
}

/* @name is wanted in the channel: give it an id (and metadata) on first need. */
static int want_event(void *arg, const char *name)
{
	struct enable_ctx *e = arg;
	struct kernel_chan *kc = e->kc;
	struct kernel_event *ev = find_event(kc, name);
	struct ltt_kabi_event_desc desc;
	int ret;

	if (ev) {
		e->wanted[ev - kc->events] = true;
		return 0;
	}
	ret = grow_events(e);
	if (ret)
		return ret;
	ret = ltt_kabi_event_desc(e->k->kabi, name, &desc);
	if (!ret && e->probe)	/* in the trace under the user's name, not the tracer's */
		snprintf(desc.name, sizeof(desc.name), "%s", e->probe->display);
	if (!ret)
		ret = ltt_meta_kernel_event(e->text, e->ks->trace.session->trace_format, &desc,
					    (uint32_t)kc->nr_events, kc->cc.channel->stream_id);
	if (ret) {
		LTT_WARN("kernel event %s: no description from the tracer: %s", name,
			 strerror(-ret));
		return ret;
	}
	ev = &kc->events[kc->nr_events];
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->match, sizeof(ev->match), "%s", e->probe ? e->probe->match : "");
	ev->type = e->probe ? e->probe->type : LTT_EVENT_TRACEPOINT;
	ev->id = (uint32_t)kc->nr_events;
	ev->enabled = false;
	ev->filter_sig = 0;
	e->wanted[kc->nr_events++] = true;
	return 0;
}

/* A probe rule's event is wanted in the channel (ltt_kernel_probe_events()). */
static int want_probe_event(void *arg, const struct ltt_kernel_probe_event *pe)
{
	struct enable_ctx *e = arg;
	int ret;

	e->probe = pe;
	ret = want_event(e, pe->event);
	e->probe = NULL;
	return ret;
}

/* The events @rule wants, tracepoints and system calls of the catalog or a probe's. */
static int want_rule(struct enable_ctx *e, const struct ltt_event_rule *rule)
{
	if (ltt_event_type_is_probe(rule->attr.type))
		return ltt_kernel_probe_events(e->k, e->ks, rule, want_probe_event, e);
	return ltt_kernel_for_each_event(e->k, rule, want_event, e);
}

/*
 * Plan @kc's events: ids (and their metadata, appended to @text) for the
 * events its enabled rules want that have none yet; e->wanted[i] says
 * whether kc->events[i] is wanted.  Nothing is asked of the tracer yet.
 */
static int plan_events(struct ltt_kernel *k, struct kernel_session *ks, struct kernel_chan *kc,
		       struct ltt_wbuf *text, struct enable_ctx *e)
{
	struct ltt_event_rule *rule;
	int ret = 0;

	*e = (struct enable_ctx){ .k = k, .kc = kc, .text = text, .ks = ks };
	if (kc->cap_events) {
		e->wanted = calloc(kc->cap_events, sizeof(*e->wanted));
		if (!e->wanted)
			return -ENOMEM;
		e->cap_wanted = kc->cap_events;
	}
	if (kc->cc.channel->enabled) {
		cds_list_for_each_entry(rule, &kc->cc.channel->rules, node)
			if (!ret && rule->enabled)
				ret = want_rule(e, rule);
	}
	return ret;
}

/*
 * Have the tracer record in @kc exactly the events @wanted says, each
 * with the filters of the rules that take it (kernel-filter.c).
 */
static int apply_events(struct ltt_kernel *k, struct kernel_chan *kc, const bool *wanted)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < kc->nr_events && !ret; i++)
		ret = ltt_kernel_event_apply(k, kc, &kc->events[i], wanted[i]);
	return ret;
}

/* ---- the rules, applied ---- */

/* One channel's plan in ltt_kernel_sync_events(). */
struct chan_plan {
	struct kernel_chan *kc;
	struct enable_ctx e;
	size_t nr_before;	/* kc->nr_events before the plan */
};

/*
 * Every channel of @ks follows its rules, in two steps so that the tracer
 * never records an event the metadata does not describe: first the new
 * ids and their metadata, sent to the consumer; only then EVENT_ENABLE
 * and EVENT_DISABLE.  If the plan or the metadata fails, the new ids are
 * forgotten (they were never enabled) and nothing changed.
 */
int ltt_kernel_sync_events(struct ltt_kernel *k, struct kernel_session *ks)
{
	struct chan_plan *plans;
	struct kernel_chan *kc;
	struct ltt_wbuf text;
	size_t i, n = 0;
	int ret = 0, err;
	bool sent;

	cds_list_for_each_entry(kc, &ks->trace.chans, cc.node)
		n++;
	plans = calloc(n ? n : 1, sizeof(*plans));
	if (!plans)
		return -ENOMEM;
	ltt_wbuf_init(&text);
	n = 0;
	cds_list_for_each_entry(kc, &ks->trace.chans, cc.node) {
		plans[n].kc = kc;
		plans[n].nr_before = kc->nr_events;
		if (!ret)
			ret = plan_events(k, ks, kc, &text, &plans[n].e);
		n++;
	}
	if (!ret)
		ret = send_metadata(ks, &text);
	sent = !ret;
	for (i = 0; i < n; i++) {
		/* Described ids stay: another event may never get the same id. */
		if (!sent) {
			plans[i].kc->nr_events = plans[i].nr_before;
		} else {
			err = apply_events(k, plans[i].kc, plans[i].e.wanted);
			ret = ret ? ret : err;
		}
		free(plans[i].e.wanted);
	}
	ltt_wbuf_fini(&text);
	free(plans);
	return ret;
}
