// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - the command thread's traces, channels and relays by key.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "consumerd/cmd/registry.h"
#include "consumerd/sink/sink-relay.h"

int ltt_registry_no_such(const char *name, const char *what, uint64_t key)
{
	LTT_WARN("%s: no %s %" PRIu64, name, what, key);
	return -ENOENT;
}

struct ltt_trace *ltt_registry_trace(const struct ltt_registry *reg, uint64_t key)
{
	struct ltt_trace *t;

	for (t = reg->traces; t && t->key != key; t = t->next)
		;
	return t;
}

struct ltt_channel *ltt_registry_channel(const struct ltt_registry *reg, uint64_t key)
{
	struct ltt_channel *c;

	for (c = reg->channels; c && c->key != key; c = c->next)
		;
	return c;
}

struct ltt_registry_relay *ltt_registry_relay(const struct ltt_registry *reg, uint64_t key)
{
	struct ltt_registry_relay *e;

	for (e = reg->relays; e && e->key != key; e = e->next)
		;
	return e;
}

static struct ltt_registry_relay *relay_entry_of(const struct ltt_registry *reg,
						 const struct ltt_relay *r)
{
	struct ltt_registry_relay *e;

	for (e = reg->relays; e && e->relay != r; e = e->next)
		;
	return e;
}

struct ltt_trace *ltt_registry_trace_at(const struct ltt_registry *reg, const char *dir,
					const struct ltt_relay *relay)
{
	struct ltt_trace *t;

	for (t = reg->traces; t; t = t->next)
		if (t->relay == relay && !strcmp(t->path, dir))
			return t;
	return NULL;
}

void ltt_registry_add_trace(struct ltt_registry *reg, struct ltt_trace *t,
			    struct ltt_registry_relay *re)
{
	if (re)
		re->nr_traces++;
	t->next = reg->traces;
	reg->traces = t;
	reg->nr_traces++;
}

void ltt_registry_add_channel(struct ltt_registry *reg, struct ltt_channel *chan)
{
	chan->next = reg->channels;
	reg->channels = chan;
	reg->nr_channels++;
	chan->trace->nr_channels++;
}

void ltt_registry_add_relay(struct ltt_registry *reg, struct ltt_registry_relay *re)
{
	re->next = reg->relays;
	reg->relays = re;
	reg->nr_relays++;
}

/* Is the @what of @key still used by @n @users?  Logged: it stays. */
static bool in_use(const char *what, uint64_t key, unsigned int n, const char *users)
{
	if (n)
		LTT_WARN("%s %" PRIu64 " still has %u %s: not removed", what, key, n, users);
	return n != 0;
}

void ltt_registry_remove_channel(struct ltt_registry *reg, struct ltt_channel *chan)
{
	struct ltt_data_req req = { .type = LTT_DATA_REMOVE_CHANNEL, .chan = chan };
	struct ltt_channel **p;

	ltt_data_call(reg->data, &req);
	for (p = &reg->channels; *p != chan; p = &(*p)->next)
		;
	*p = chan->next;
	reg->nr_channels--;
	chan->trace->nr_channels--;
	LTT_INFO("channel %" PRIu64 " (%s) closed", chan->key, chan->name);
	ltt_channel_destroy(chan);
}

int ltt_registry_remove_trace(struct ltt_registry *reg, struct ltt_trace *t)
{
	struct ltt_registry_relay *re;
	struct ltt_trace **p;

	if (in_use("trace", t->key, t->nr_channels, "channel(s)"))
		return -EBUSY;
	for (p = &reg->traces; *p != t; p = &(*p)->next)
		;
	*p = t->next;
	reg->nr_traces--;
	re = t->relay ? relay_entry_of(reg, t->relay) : NULL;
	if (re)
		re->nr_traces--;
	LTT_INFO("trace %" PRIu64 " (%s) closed", t->key, t->path);
	ltt_trace_remove_if_empty(t);
	ltt_trace_destroy(t);
	return 0;
}

int ltt_registry_remove_relay(struct ltt_registry *reg, struct ltt_registry_relay *re)
{
	struct ltt_data_req req = { .type = LTT_DATA_REMOVE_RELAY, .relay = re->relay };
	struct ltt_registry_relay **p;

	if (in_use("relay", re->key, re->nr_traces, "trace(s)"))
		return -EBUSY;
	if (ltt_data_call(reg->data, &req))
		ltt_rlink_destroy(re->relay);	/* the data thread never had it */
	for (p = &reg->relays; *p != re; p = &(*p)->next)
		;
	*p = re->next;
	reg->nr_relays--;
	LTT_INFO("relay %" PRIu64 " closing", re->key);
	free(re);
	return 0;
}

/* Channels first: then no trace has a channel, and no relay a trace. */
void ltt_registry_close_all(struct ltt_registry *reg)
{
	while (reg->channels)
		ltt_registry_remove_channel(reg, reg->channels);
	while (reg->traces && !ltt_registry_remove_trace(reg, reg->traces))
		;
	while (reg->relays && !ltt_registry_remove_relay(reg, reg->relays))
		;
}
