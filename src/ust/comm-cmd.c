// SPDX-License-Identifier: LGPL-2.1-only
/*
 * comm-cmd.c - the commands a session daemon sends a registered program
 * (comm.c's thread reads them and sends their ACKs): channels mapped,
 * enabled, disabled and removed, events enabled, disabled and filtered,
 * the agent's rules, notifiers and counters added and removed.  Each
 * takes the ust lock for what it changes, never across I/O, and frees what
 * readers may still see after a grace period (struct ust_retire).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define _LGPL_SOURCE

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "common/proto/app-proto.h"
#include "common/proto/msg.h"
#include "ust/comm-cmd.h"
#include "ust/rcu.h"
#include "ust/notify.h"
#include "ust/ust.h"

static int cmd_channel_add(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ltt_app_channel_add m;
	struct ust_channel *chan;
	uint32_t i;
	int *fds, ret;

	if (ltt_app_get_channel_add(r, &m) || !m.nr_streams || m.nr_streams > UST_MAX_STREAMS ||
	    msg->nr_fds != 2 * m.nr_streams)
		return -EPROTO;
	/* not on the stack: a page of it each program's start would fault in */
	fds = malloc(2 * m.nr_streams * sizeof(*fds));
	if (!fds)
		return -ENOMEM;	/* the message's fds are closed with it */
	for (i = 0; i < 2 * m.nr_streams; i++)
		fds[i] = ltt_msg_take_fd(msg, i);
	ret = ust_channel_map(d, m.channel_key, m.session_id, m.stream_id, m.enabled,
			      m.nr_streams, fds, d->minor >= LTT_APP_MINOR_OWN_FD, &chan);
	free(fds);
	/* The contexts must fill the room the daemon's metadata gives them. */
	if (!ret) {
		ret = ust_channel_set_contexts(chan, m.contexts, m.nr_contexts);
		if (ret)
			ust_channel_destroy(chan);
	}
	if (ret) {
		ust_debug("%s: channel %llu refused: %s", d->path,
			  (unsigned long long)m.channel_key,
			  strerror(-ret));
		return ret;
	}
	chan->dump_owed = m.enabled;
	/*
	 * A daemon of app minor 8 or more follows the adding with that
	 * CHANNEL_ENABLE; an older one may not (it came during minor 7), and
	 * waiting for it would lose the registration's dump there.
	 */
	chan->enable_due = m.enabled && d->minor >= LTT_APP_MINOR_LAYOUT;
	return ust_channel_add(chan);
}

/* CHANNEL_ENABLE and CHANNEL_DISABLE; the channel into *@ret_chan */
static int set_channel(struct daemon *d, struct ltt_rbuf *r, int enabled,
		       struct ust_channel **ret_chan)
{
	struct ust_channel *chan;
	uint64_t key;

	if (ltt_app_get_channel_key(r, &key))
		return -EPROTO;
	ust_lock();
	chan = ust_channel_find(d, key);
	if (chan) {
		/*
		 * An enable is a start or a regenerate statedump, which owes a
		 * dump, but for the one that follows the channel's adding: the
		 * start that added it owed it already.
		 */
		chan->dump_owed = enabled && (chan->dump_owed || !chan->enable_due);
		chan->enable_due = false;
		ust_channel_set_enabled(chan, enabled && !ust_channels_stopped());
		ust_events_refresh();
		ust_agent_changed();
	}
	ust_unlock();
	if (!chan)
		return -ENOENT;
	*ret_chan = chan;
	/* Disable: acknowledged once no thread can still be writing to it. */
	if (!enabled && !ust_rcu_synchronize())
		ust_debug("channel %" PRIu64 " disabled, but no grace period could be waited for",
			  key);
	return 0;
}

static int cmd_channel_enable(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ust_channel *chan = NULL;
	int ret;

	(void)msg;
	ret = set_channel(d, r, 1, &chan);
	if (ret || d->phase != PHASE_READY)
		return ret;
	/*
	 * A session starting, or regenerate statedump (the channel enabled
	 * already): its state dump, before the answer, so that it precedes
	 * the events the program records next; owed until then, so that the
	 * REGISTER_DONEs that answer the program's later TRACEPOINTS messages
	 * do not record it again.  (While registering, REGISTER_DONE makes the
	 * dump, once the events are enabled.)
	 */
	if (chan->dump_owed) {
		chan->dump_owed = false;
		ust_statedump(&chan, 1);
	}
	return 0;
}

static int cmd_channel_disable(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ust_channel *chan;

	(void)msg;
	return set_channel(d, r, 0, &chan);
}

static int cmd_channel_remove(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	struct ust_channel *chan;
	int ret = -ENOENT;
	uint64_t key;

	(void)msg;
	if (ltt_app_get_channel_key(r, &key))
		return -EPROTO;
	ust_lock();
	chan = ust_channel_find(d, key);
	if (chan)
		ret = ust_channel_remove(chan, &retire);
	ust_agent_forget(d, key);
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}

/* EVENT_ENABLE and EVENT_DISABLE */
static int set_event(struct daemon *d, struct ltt_rbuf *r, bool enable)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	struct ust_channel *chan;
	bool every = d->minor >= LTT_APP_MINOR_LAYOUT;
	struct ltt_app_event_msg m;
	int ret = -ENOENT;

	if (enable ? ltt_app_get_event_enable_v(r, &m, d->minor) :
		     ltt_app_get_event_disable_v(r, &m, d->minor))
		return -EPROTO;
	ust_lock();
	chan = ust_channel_find_target(d, m.channel_key);
	if (chan)
		ret = enable ? ust_events_enable(m.name, m.layout, every, chan, m.event_id, &retire) :
			       ust_events_disable(m.name, m.layout, every, chan, &retire);
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}

static int cmd_event_enable(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	(void)msg;
	return set_event(d, r, true);
}

static int cmd_event_disable(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	(void)msg;
	return set_event(d, r, false);
}

/* AGENT_RULES: the python rules of a channel, for the program's agent. */
static int cmd_agent_rules(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	(void)msg;
	return ust_agent_set_rules(d, r);
}

/* EVENT_FILTER: validate, then replace the event's programs on the channel. */
static int cmd_event_filter(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	bool every = d->minor >= LTT_APP_MINOR_LAYOUT;
	struct ltt_app_event_filter m;
	struct ust_channel *chan;
	int ret = -ENOENT;

	(void)msg;
	if (ltt_app_get_event_filter_v(r, &m, d->minor))
		return -EPROTO;
	ust_lock();
	chan = ust_channel_find_target(d, m.channel_key);
	if (chan)
		ret = ust_events_set_filter(m.name, m.layout, every, chan, m.nr_programs,
					    m.programs, &retire);
	ust_unlock();
	ust_retire_flush(&retire);
	if (ret)
		ust_debug("%s: filter of %s on channel %llu: %s", d->path, m.name,
			  (unsigned long long)m.channel_key, strerror(-ret));
	return ret;
}

/*
 * NOTIFIER_ADD: a trigger's condition, notified on the socket that comes
 * with it.  Only from a daemon that agreed on minor 4.
 */
static int cmd_notifier_add(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ltt_app_notifier_add m;
	struct ust_notifier *n;
	int ret;

	if (d->minor < LTT_APP_MINOR_NOTIFIER || msg->nr_fds != 1 ||
	    ltt_app_get_notifier_add(r, &m))
		return -EPROTO;
	ret = ust_notifier_create(d, m.key, m.nr_captures, m.captures,
				  d->minor >= LTT_APP_MINOR_CAPTURE_ARRAY, ltt_msg_take_fd(msg, 0), &n);
	if (!ret)
		ret = ust_notifier_add(n);
	if (ret)
		ust_debug("%s: notifier %llx refused: %s", d->path, (unsigned long long)m.key,
			  strerror(-ret));
	return ret;
}

/*
 * COUNTER_ADD: a trigger's incr-map-value, counted in the area that comes
 * with it.  Only from a daemon that agreed on minor 7.
 */
static int cmd_counter_add(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ltt_app_counter_add m;
	struct ust_notifier *n;
	int ret;

	if (d->minor < LTT_APP_MINOR_COUNTER || msg->nr_fds != 1 ||
	    ltt_app_get_counter_add(r, &m))
		return -EPROTO;
	ret = ust_counter_create(d, m.key, m.nr_cpus, m.nr_slots, ltt_msg_take_fd(msg, 0), &n);
	if (!ret)
		ret = ust_notifier_add(n);
	if (ret)
		ust_debug("%s: counter %llx refused: %s", d->path, (unsigned long long)m.key,
			  strerror(-ret));
	return ret;
}

/* NOTIFIER_REMOVE: acked once no thread can still write for it (the grace period). */
static int cmd_notifier_remove(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	uint64_t key;
	int ret;

	(void)msg;
	/* {u64 key}: the payload of CHANNEL_REMOVE */
	if (d->minor < LTT_APP_MINOR_NOTIFIER || ltt_app_get_channel_key(r, &key))
		return -EPROTO;
	ust_lock();
	ret = ust_notifier_remove(d, key, &retire);
	ust_agent_forget(d, key);	/* a python trigger's rules */
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}

static const struct command {
	uint16_t type;
	bool takes_fds;
	int (*handle)(struct daemon *d, struct ltt_rbuf *r, struct ltt_msg *msg);
} commands[] = {
	{ LTT_APP_MSG_CHANNEL_ADD, true, cmd_channel_add },
	{ LTT_APP_MSG_CHANNEL_ENABLE, false, cmd_channel_enable },
	{ LTT_APP_MSG_CHANNEL_DISABLE, false, cmd_channel_disable },
	{ LTT_APP_MSG_CHANNEL_REMOVE, false, cmd_channel_remove },
	{ LTT_APP_MSG_EVENT_ENABLE, false, cmd_event_enable },
	{ LTT_APP_MSG_EVENT_DISABLE, false, cmd_event_disable },
	{ LTT_APP_MSG_EVENT_FILTER, false, cmd_event_filter },
	{ LTT_APP_MSG_AGENT_RULES, false, cmd_agent_rules },
	{ LTT_APP_MSG_NOTIFIER_ADD, true, cmd_notifier_add },
	{ LTT_APP_MSG_NOTIFIER_REMOVE, false, cmd_notifier_remove },
	{ LTT_APP_MSG_COUNTER_ADD, true, cmd_counter_add },
};

/* ust_comm_cmd_run(): comm-cmd.h */
int ust_comm_cmd_run(struct daemon *d, struct ltt_msg *msg)
{
	struct ltt_rbuf r;
	size_t i;

	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (commands[i].type != msg->hdr.type)
			continue;
		if (!commands[i].takes_fds && msg->nr_fds)
			return -EPROTO;
		return commands[i].handle(d, &r, msg);
	}
	return -ENOSYS;
}
