// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-domain.c - the kernel domain: its operations (domain.h) over the kernel
 * tracer (kabi.h) and a consumer daemon of its own (see kernel.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/attr.h"
#include "common/base/log.h"
#include "common/base/names.h"
#include "common/base/size.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/kernel/kernel-filter.h"
#include "sessiond/kernel/kernel-context.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/kernel/kernel-notify.h"
#include "sessiond/kernel/kernel-map.h"
#include "sessiond/kernel/kernel-probe.h"

static struct ltt_kernel *to_kernel(struct ltt_domain_impl *d)
{
	return caa_container_of(d, struct ltt_kernel, domain);
}

static struct kernel_session *state_of(struct ltt_session *session)
{
	return ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
}

static uint64_t new_key(struct ltt_kernel *k)
{
	return ltt_kernel_new_key(k);
}

/* A session without kernel state has no channels: iterate this instead. */
static struct cds_list_head no_chans = CDS_LIST_HEAD_INIT(no_chans);

/* ---- validation ---- */

static enum ltt_error_code kernel_check_channel(struct ltt_domain_impl *d,
						struct ltt_channel_conf *attr)
{
	enum ltt_error_code ret = ltt_attr_check_channel(attr, LTT_DOMAIN_KERNEL);

	if (!ret)
		ret = ltt_kernel_records(to_kernel(d), "a kernel channel refused");
	if (ret)
		return ret;
	/* The tracer's own limits (src/abi/ltt-abi.h). */
	if (attr->subbuf_size > LTT_KABI_MAX_SUBBUF_SIZE)
		return LTT_ERR_KERNEL_SUBBUF_SIZE;
	if (attr->num_subbuf > LTT_KABI_MAX_NUM_SUBBUF ||
	    attr->subbuf_size * attr->num_subbuf > LTT_KABI_MAX_BUFFER_PER_CPU)
		return LTT_ERR_KERNEL_SUBBUF_COUNT;
	if ((attr->switch_timer_us && attr->switch_timer_us < LTT_KABI_MIN_TIMER_US) ||
	    (attr->read_timer_us && attr->read_timer_us < LTT_KABI_MIN_TIMER_US))
		return LTT_ERR_KERNEL_TIMER;
	return LTT_ERR_OK;
}

/* Is the event or system call @attr names in the tracer's catalog? */
static bool in_catalog(struct ltt_kernel *k, const struct ltt_rule_conf *attr)
{
	const struct ltt_kernel_catalog *c = attr->type == LTT_EVENT_SYSCALL ? NULL :
					     ltt_kernel_catalog(k);
	const struct ltt_kabi_list_entry *v = c ? c->entries : k->syscalls;
	size_t i, n = c ? c->nr : k->nr_syscalls;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, attr->pattern))
			return true;
	return false;
}

static enum ltt_error_code kernel_check_rule(struct ltt_domain_impl *d,
					     const struct ltt_rule_conf *attr)
{
	struct ltt_kernel *k = to_kernel(d);
	enum ltt_error_code ret = ltt_attr_check_rule(attr);

	if (!ret)
		ret = ltt_attr_check_rule_domain(attr, LTT_DOMAIN_KERNEL);
	if (!ret)
		ret = ltt_kernel_records(k, "a kernel rule refused");
	if (ret)
		return ret;
	if (ltt_event_type_is_probe(attr->type))
		ret = ltt_kernel_probe_check(k, attr);
	if (ret)
		return ret;
	/* A name (not a glob) must be in the catalog (as it is now). */
	if (!ltt_event_type_is_probe(attr->type) && !ltt_event_pattern_is_glob(attr->pattern) &&
	    !in_catalog(k, attr))
		return LTT_ERR_KERNEL_EVENT_NOT_FOUND;
	return ltt_kernel_filter_check_rule(k, attr);
}

/*
 * The tracer fixes a session's channels at its first start: the command
 * refuses a channel of a session started once before it asks here
 * (ltt_cmd_add_channel(): CHANNEL_STARTED, either domain, as LTTng).
 */
static enum ltt_error_code kernel_may_add_channel(struct ltt_domain_impl *d,
						  const struct ltt_session *session)
{
	return session->snapshot ? ltt_kernel_snapshot_may_add(to_kernel(d)) : LTT_ERR_OK;
}

/* ---- channels and the trace ---- */

static void chan_release(struct ltt_kernel *k, struct kernel_chan *kc)
{
	unsigned int i;

	for (i = 0; kc->streams && i < k->nr_cpus; i++)
		ltt_kabi_release(k->kabi, kc->streams[i]);
	ltt_kabi_release(k->kabi, kc->handle);
	ltt_chan_stats_destroy(&kc->cc.stats);
	free(kc->streams);
	free(kc->events);
	free(kc);
}

/* Does @k's tracer make buffers for the online CPUs only (module, 1.10)? */
static bool online_only(const struct ltt_kernel *k)
{
	char why[256];

	return !ltt_kernel_lacks(k, LTT_KABI_FEAT_HOTPLUG, "", why, sizeof(why));
}

/*
 * The channel's streams in the tracer not taken yet, one per possible CPU;
 * with a module of kernel ABI 1.10, only those of the CPUs online since
 * the channel was made: the module makes no buffer for the others
 * (LTT_KABI_STREAM_IF_ALLOCATED), and gives a CPU's as it comes online,
 * taken then (kernel-hotplug.c) or at the next start or stop
 * (streams_catch_up()).  @fresh (NULL, or
 * one flag per possible CPU): set for each stream taken now.  Returns the
 * number taken or -errno.
 */
static int chan_streams(struct ltt_kernel *k, struct kernel_chan *kc, bool *fresh)
{
	uint32_t flags = online_only(k) ? LTT_KABI_STREAM_IF_ALLOCATED : 0;
	unsigned int i;
	int ret, n = 0;

	if (!kc->streams)
		kc->streams = calloc(k->nr_cpus, sizeof(*kc->streams));
	if (!kc->streams)
		return -ENOMEM;
	for (i = 0; i < k->nr_cpus; i++) {
		if (kc->streams[i])
			continue;
		ret = ltt_kabi_stream_create(k->kabi, kc->handle, k->cpus[i], flags,
					     &kc->streams[i]);
		if (ret == -ENOENT || ret == -EAGAIN)
			continue;	/* not a CPU of this machine after all; never online */
		if (ret)
			return ret;
		if (fresh)
			fresh[i] = true;
		n++;
	}
	return n;
}

/*
 * The streams of the CPUs that came online since @ks's channels' streams
 * were taken (kernel ABI 1.10: their buffers made then), taken now and
 * handed to its consumer as at the first start, then STREAMS_SENT, so
 * that what they record is read (what a buffer could not keep before is
 * counted lost in its packets, as any).  At each start and stop, and when
 * a CPU comes online (cpus_online()); session lock held.
 */
static void streams_catch_up(struct ltt_kernel *k, struct kernel_session *ks)
{
	struct ltt_consumer *c = ltt_ctrace_consumer(&ks->trace);
	bool *fresh = calloc(k->nr_cpus ? k->nr_cpus : 1, sizeof(*fresh));
	struct kernel_chan *kc;
	int n, ret;

	cds_list_for_each_entry(kc, &ks->trace.chans, cc.node) {
		if (!fresh)
			break;
		memset(fresh, 0, k->nr_cpus * sizeof(*fresh));
		n = chan_streams(k, kc, fresh);
		if (n <= 0 || !c)
			continue;	/* none; or the next consumer gets them all */
		ret = ltt_kernel_streams_to_consumer(k, kc, c, fresh);
		if (!ret)
			ret = ltt_consumer_streams_sent(c, kc->cc.key);
		if (ret)
			LTT_WARN("session '%s': kernel channel %s: the streams of %d CPU(s) that came online not handed to the consumer (%s): a new consumer gets them",
				 ks->trace.session->name, kc->cc.channel->attr.name, n, strerror(-ret));
		else
			LTT_INFO("session '%s': kernel channel %s: the streams of %d CPU(s) that came online handed to the consumer",
				 ks->trace.session->name, kc->cc.channel->attr.name, n);
	}
	free(fresh);
}

static void catch_up_session(struct ltt_session *session, void *arg)
{
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;

	if (ks)
		streams_catch_up(arg, ks);
}

/* A CPU came online (kernel-hotplug.c, on the supervisor's thread): every live session's new streams. */
static void cpus_online(struct ltt_kernel *k)
{
	ltt_session_each_live(k->registry, catch_up_session, k);
}

static void modules_changed(struct ltt_kernel *k);

/*
 * @kc's counters and failure now, from its statistics page; from its
 * consumer @c (NULL: none) when that one keeps no page (older than 1.14):
 * list never waits for it, so a try of 200 ms at most, its last answer
 * kept (kc->cached) otherwise.  Returns 0 (@ret set) or -EAGAIN (no
 * answer: use kc->cached).
 */
static int chan_status(struct kernel_chan *kc, struct ltt_consumer *c,
		       struct ltt_consumer_channel_stats *ret)
{
	if (kc->paged) {
		ltt_chan_stats_read(&kc->cc.stats, NULL, NULL, ret);
		kc->cached = *ret;
		return 0;
	}
	if (!c || ltt_consumer_channel_status_now(c, kc->cc.key, 200, ret))
		return -EAGAIN;
	kc->cached = *ret;
	return 0;
}

/*
 * @kc's last counters, its consumer @c (NULL: none) flushing it first:
 * its statistics page, as the flush left it (or as it was, when the
 * consumer does not answer); an older consumer's CHANNEL_STATS after a
 * flush that succeeded.  Returns 0 or a negative errno.
 */
static int final_status(struct kernel_chan *kc, struct ltt_consumer *c,
			struct ltt_consumer_channel_stats *ret)
{
	int err = c ? ltt_consumer_flush_channel(c, kc->cc.key, true) : -EPIPE;

	if (kc->paged) {
		ltt_chan_stats_read(&kc->cc.stats, NULL, NULL, ret);
		return 0;
	}
	return err ? err : ltt_consumer_channel_status(c, kc->cc.key, ret);
}

/* A statistics page's slots: one for each possible CPU, by its number (the stream's cpu). */
static uint32_t stats_slots(const struct ltt_kernel *k)
{
	uint32_t i, n = 0;

	for (i = 0; i < k->nr_cpus; i++)
		n = k->cpus[i] >= n ? k->cpus[i] + 1 : n;
	return n;
}

/* @channel in the tracer, its streams open: handed to a consumer with the trace. */
static int chan_create(struct ltt_kernel *k, struct kernel_session *ks,
		       struct ltt_channel *channel)
{
	struct ltt_kabi_channel attr = {
		.subbuf_size = channel->attr.subbuf_size,
		.num_subbuf = channel->attr.num_subbuf,
		.overwrite = channel->attr.overwrite,
		.switch_timer_us = channel->attr.switch_timer_us,
		.read_timer_us = channel->attr.read_timer_us,
		.stream_id = channel->stream_id,
	};
	struct kernel_chan *kc = calloc(1, sizeof(*kc));
	int ret;

	if (!kc)
		return -ENOMEM;
	ltt_cchan_init(&kc->cc, new_key(k), channel);
	memcpy(attr.uuid, ks->trace.uuid, sizeof(attr.uuid));
	ret = ltt_chan_stats_create(stats_slots(k), &kc->cc.stats);
	if (!ret)
		ret = ltt_kabi_channel_create(k->kabi, ks->handle, &attr, &kc->handle);
	if (!ret)
		ret = ltt_kernel_context_apply(k->kabi, channel, kc->handle);
	if (!ret)
		ret = chan_streams(k, kc, NULL);
	if (ret > 0)
		ret = 0;
	if (!ret && online_only(k))
		/* without it, streams come at start and stop, a module's events at a change */
		ltt_khotplug_start(k, cpus_online, modules_changed);
	cds_list_add_tail(&kc->cc.node, &ks->trace.chans);	/* destroy undoes what was done */
	return ret;
}

/*
 * The session's kernel objects, made at its first start: the tracer's
 * session and channels, then the trace with its metadata header and
 * every channel handed to the consumer at once.
 */
static int session_create(struct ltt_kernel *k, struct ltt_session *session,
			  struct kernel_session *ks)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_KERNEL);
	struct ltt_channel *channel;
	struct ltt_consumer *c;
	uint64_t gen;
	int ret;

	c = ltt_supervisor_get(&k->consumer, &gen);
	if (!c)
		return -EPIPE;
	ret = ltt_kabi_session_create(k->kabi, &ks->handle);
	if (!ret)
		ret = ltt_kernel_metadata_header(k, session, ks, &ks->trace.meta);
	if (!ret && ks->trace.meta.err)
		ret = ks->trace.meta.err;
	ks->trace.meta_header_len = ks->trace.meta.len;
	cds_list_for_each_entry(channel, &dom->channels, node)
		if (!ret)
			ret = chan_create(k, ks, channel);
	if (ret)
		return ret;
	ret = ltt_ctrace_add_to(&ks->trace, c, gen);
	if (ret && ks->trace.dir_err) {
		/* the consumer can't make or write the trace's directory: the output's failure */
		session->output_err = ks->trace.dir_err;
		session->output_create = ks->trace.dir_err == -ENOENT ||
					 ks->trace.dir_err == -ENOTDIR;
	}
	return ret;
}

static void session_release(struct ltt_kernel *k, struct ltt_session *session)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_KERNEL);
	struct kernel_session *ks = dom->state;
	struct ltt_consumer *c = ltt_ctrace_consumer(&ks->trace);
	struct ltt_consumer_channel_stats st;
	struct kernel_chan *kc, *tmp;

	if (c)	/* what a stalled consumer was owed, before the channels close */
		ltt_ctrace_meta_send_owed(&ks->trace, c);
	cds_list_for_each_entry_safe(kc, tmp, &ks->trace.chans, cc.node) {
		uint64_t key = kc->cc.key;

		if (final_status(kc, c, &st) == 0) {
			kc->cc.channel->discarded_events += st.events_lost;
			kc->cc.channel->lost_packets += st.packets_lost;
		}
		cds_list_del(&kc->cc.node);
		/* Closing the channel finalizes its streams: the consumer reads them out. */
		chan_release(k, kc);
		if (c && ltt_consumer_destroy_channel(c, key))
			LTT_WARN("session '%s': a kernel channel was not closed cleanly",
				 session->name);
	}
	ltt_kernel_probes_release(k, ks);	/* disabled with the channels: removable */
	if (c)
		ltt_consumer_destroy_trace(c, ks->trace.key);
	if (ks->relay.key) {
		/* a session that rotated has its last chunks archived first */
		if (c)
			ltt_chunk_relay_last(session, LTT_DOMAIN_IDX_KERNEL, &ks->relay, c,
					     ks->trace.gen);
		ltt_relay_detach(&ks->relay, c, ks->trace.gen);
	}
	ltt_kabi_release(k->kabi, ks->handle);
	ltt_ctrace_fini(&ks->trace);
	free(ks);
	dom->state = NULL;
}

/*
 * Before a local session starts: the consumer can write under its
 * directory, and a trace kept from a former start writes again (a flush
 * retries a failed output).  Returns 0 or the output's -errno, also left
 * in session->output_err.
 */
static int check_output(struct ltt_kernel *k, struct ltt_session *session,
			struct kernel_session *ks)
{
	struct ltt_consumer_channel_stats st;
	struct ltt_consumer *c;
	struct kernel_chan *kc;
	uint64_t gen;
	int ret;

	c = ltt_supervisor_get(&k->consumer, &gen);
	if (!c)
		return -EPIPE;
	ret = ltt_consumer_probe_output(c, session->output, session->uid, session->gid);
	if (ltt_consumer_call_failed(ret))
		return ret;	/* the consumer's failure (stalled, gone), not the output's */
	if (ret == -EOPNOTSUPP)
		ret = 0;
	/* the probe makes the directory: a part missing is one it can't make */
	session->output_create = ret == -ENOENT || ret == -ENOTDIR;
	c = ks ? ltt_ctrace_consumer(&ks->trace) : NULL;
	cds_list_for_each_entry(kc, ks && c && !ret ? &ks->trace.chans : &no_chans, cc.node) {
		if (!ltt_consumer_flush_channel(c, kc->cc.key, false) &&
		    !ltt_consumer_channel_status(c, kc->cc.key, &st) && st.error)
			ret = st.error;
		if (ret)
			break;
	}
	if (ret) {
		LTT_WARN("session '%s': can't write a kernel trace under %s: %s", session->name,
			 session->output, strerror(-ret));
		session->output_err = ret;
	}
	return ret;
}

/* ---- operations ---- */

/*
 * The tracer follows @ks's rules (events, their metadata sent first, and
 * trackers): at start and at apply, the one place each.
 */
static int follow_rules(struct ltt_kernel *k, struct kernel_session *ks)
{
	int ret = ltt_kernel_sync_events(k, ks);

	if (!ret)
		ret = ltt_kernel_trackers_sync(k, ks);
	ks->rules_owed = ret != 0;
	return ret;
}

/* A started session's rules follow the tracer's events as they are now. */
static void follow_catalog(struct ltt_session *session, void *arg)
{
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	int ret;

	if (!ks || !ltt_session_started_once(session))
		return;		/* a first start takes them all */
	ret = follow_rules(arg, ks);
	if (ret)
		LTT_WARN("session '%s': the kernel tracer's events changed, its rules not followed (%s): they are at its next start or rule change",
			 session->name, strerror(-ret));
}

/*
 * A module came or went (kernel-hotplug.c, on the supervisor's thread):
 * when the tracer's events changed since the sessions last followed them
 * here, every started session's rules take the events there now
 * (lttng-test.ko's), as LTTng's lazy enablers do.
 */
static void modules_changed(struct ltt_kernel *k)
{
	const struct ltt_kernel_catalog *c = ltt_kernel_catalog(k);

	if (c->gen == k->rules_gen)
		return;
	k->rules_gen = c->gen;
	ltt_session_each_live(k->registry, follow_catalog, k);
	LTT_INFO("kernel: a module came or went: the sessions' rules follow the tracer's %zu events",
		 c->nr);
}

static int kernel_start(struct ltt_domain_impl *d, struct ltt_session *session,
			struct ltt_domain_settle *settle)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_KERNEL);
	struct ltt_kernel *k = to_kernel(d);
	struct kernel_session *ks = dom->state;
	int ret;

	(void)settle;	/* the tracer answers at once: nothing to wait for */
	if (session->output_type == LTT_OUTPUT_LOCAL) {
		ret = check_output(k, session, ks);
		if (ret)
			return ret;
	}
	if (!ks) {
		ks = calloc(1, sizeof(*ks));
		if (!ks)
			return -ENOMEM;
		ltt_ctrace_init(&ks->trace, &ltt_kernel_trace_ops, session, new_key(k), LTT_CTRACE_NONE);
		ks->k = k;
		dom->state = ks;
		ret = session_create(k, session, ks);
		if (ret) {
			LTT_ERR("session '%s': kernel trace %s: %s", session->name, ks->trace.path,
				strerror(-ret));
			session_release(k, session);
			return ret;
		}
	} else {
		streams_catch_up(k, ks);
	}
	ret = follow_rules(k, ks);
	if (!ret)
		ret = ltt_kabi_session_start(k->kabi, ks->handle);
	return ret;
}

/*
 * Enabling or disabling records what is wanted, nothing more: the rules
 * are in the session's tree; a session never started takes them all at
 * its first start, a started one at the apply that follows.
 */
static int kernel_update(struct ltt_domain_impl *d, struct ltt_session *session,
			 struct ltt_domain_settle *settle)
{
	struct kernel_session *ks = state_of(session);

	(void)d;
	(void)settle;
	if (ks)
		ks->rules_owed = true;
	return 0;
}

/* What kernel_update recorded, followed: metadata, then the tracer. */
static int kernel_apply(struct ltt_domain_impl *d, struct ltt_session *session,
			struct ltt_domain_settle *settle)
{
	struct kernel_session *ks = state_of(session);

	(void)settle;	/* the tracer answers at once: nothing to wait for */
	return ks && ks->rules_owed ? follow_rules(to_kernel(d), ks) : 0;
}

static int kernel_stop(struct ltt_domain_impl *d, struct ltt_session *session, bool wait)
{
	struct ltt_kernel *k = to_kernel(d);
	struct kernel_session *ks;
	struct ltt_consumer *c = NULL;
	struct kernel_chan *kc;
	uint64_t *keys = NULL;
	size_t i, n = 0;
	int ret = 0, none = 0, err;

	(void)wait;	/* the tracer stops at once; the flush below is the stop's */
	ltt_session_lock(session);
	ks = state_of(session);
	if (ks) {
		ret = ltt_kabi_session_stop(k->kabi, ks->handle);
		streams_catch_up(k, ks);
		c = ltt_ctrace_consumer(&ks->trace);
		/* no consumer holds it: its consumer died for good, or none came */
		if (!c)
			none = ks->trace.state == LTT_CTRACE_LOST ? -EOWNERDEAD : -EPIPE;
		/* the trace reads whole only with every text its events need */
		err = c ? ltt_ctrace_meta_send_owed(&ks->trace, c) : 0;
		ret = ret ? ret : err;
		cds_list_for_each_entry(kc, &ks->trace.chans, cc.node)
			n++;
		keys = calloc(n ? n : 1, sizeof(*keys));
		n = 0;
		cds_list_for_each_entry(kc, &ks->trace.chans, cc.node)
			if (keys)
				keys[n++] = kc->cc.key;
	}
	ltt_session_unlock(session);
	if (none)
		ret = none;
	/*
	 * No lock held: the consumer writes what the buffers hold, and closes
	 * each stream's packet at the stop, even empty (the streams span the
	 * session), --no-wait or not, as the user-space domain's stop does.
	 */
	for (i = 0; c && i < n; i++) {
		err = ltt_consumer_flush_stopped(c, keys[i], 0);
		/* -ENOENT: a destroy took the channel meanwhile, and flushed it. */
		if (err && err != -ENOENT && !ret)
			ret = err;
	}
	free(keys);
	ltt_kernel_stop_owed(session, ret);
	return ret;
}

static void kernel_destroy(struct ltt_domain_impl *d, struct ltt_session *session)
{
	if (state_of(session))
		session_release(to_kernel(d), session);
}

/* The status of @channel's kernel channel now (its last where none answers). */
static void channel_status(struct kernel_session *ks, const struct ltt_channel *channel,
			   struct ltt_consumer_channel_stats *ret)
{
	struct ltt_consumer *c = ks ? ltt_ctrace_now(&ks->trace) : NULL;
	struct ltt_consumer_channel_stats sum = { 0 }, st;
	struct kernel_chan *kc;

	cds_list_for_each_entry(kc, ks ? &ks->trace.chans : &no_chans, cc.node) {
		if (kc->cc.channel != channel)
			continue;
		if (chan_status(kc, c, &st))
			st = kc->cached;
		ltt_add_sat(&sum.events_lost, st.events_lost);
		ltt_add_sat(&sum.packets_lost, st.packets_lost);
		ltt_add_sat(&sum.error_events, st.error_events);
		ltt_add_sat(&sum.error_packets, st.error_packets);
		if (st.error && !sum.error) {
			sum.error = st.error;
			sum.error_since = st.error_since;
		}
	}
	*ret = sum;
}

static void kernel_channel_stats(struct ltt_domain_impl *d, struct ltt_session *session,
				 const struct ltt_channel *channel, uint64_t *ret_events_lost,
				 uint64_t *ret_packets_lost)
{
	struct ltt_consumer_channel_stats st;

	(void)d;
	channel_status(state_of(session), channel, &st);
	*ret_events_lost = channel->discarded_events + st.events_lost;
	*ret_packets_lost = channel->lost_packets + st.packets_lost;
}

static void kernel_channel_failure(struct ltt_domain_impl *d, struct ltt_session *session,
				   const struct ltt_channel *channel, struct ltt_domain_failure *ret)
{
	struct ltt_consumer_channel_stats st;

	(void)d;
	channel_status(state_of(session), channel, &st);
	*ret = (struct ltt_domain_failure){
		.events = channel->error_events + st.error_events,
		.packets = channel->error_packets + st.error_packets,
		.error = st.error,
		.since = st.error_since,
	};
}

/*
 * channel-buffer-usage: what each of @channel's streams holds unread, as
 * the tracer says it (the kernel thread answers at once: no consumer is
 * asked, so a stalled one, the usual reason a channel fills, delays
 * nothing).
 */
static int kernel_channel_usage(struct ltt_domain_impl *d, struct ltt_session *session,
				const struct ltt_channel *channel, struct ltt_domain_usage *ret)
{
	struct ltt_kernel *k = to_kernel(d);
	struct kernel_session *ks = state_of(session);
	struct ltt_domain_usage u = {
		.lowest = UINT64_MAX,
		.capacity = channel->attr.subbuf_size * channel->attr.num_subbuf,
	};
	struct ltt_kabi_stream_usage su;
	struct kernel_chan *kc;
	size_t i;

	cds_list_for_each_entry(kc, ks ? &ks->trace.chans : &no_chans, cc.node) {
		if (kc->cc.channel != channel)
			continue;
		for (i = 0; kc->streams && i < k->nr_cpus; i++) {
			if (!kc->streams[i] || ltt_kabi_stream_usage(k->kabi, kc->streams[i], &su))
				continue;
			u.highest = su.bytes > u.highest ? su.bytes : u.highest;
			u.lowest = su.bytes < u.lowest ? su.bytes : u.lowest;
		}
	}
	if (u.lowest == UINT64_MAX)
		return -ENOENT;	/* no stream, or none could be read */
	*ret = u;
	return 0;
}

static void kernel_settle_wait(struct ltt_domain_impl *d, void *pending, const char *what)
{
	(void)d;
	(void)what;
	free(pending);
}

static void kernel_release(struct ltt_kernel *k)
{
	ltt_kabi_close(k->kabi);
	ltt_kernel_catalog_fini(k);
	free(k->syscalls);
	free(k->cpus);
}

static void kernel_fini(struct ltt_domain_impl *d)
{
	struct ltt_kernel *k = to_kernel(d);

	ltt_knotify_free(k->notify);	/* before the tracer closes */
	k->notify = NULL;
	ltt_kmaps_detach(k);
	ltt_supervisor_fini(&k->consumer);
	ltt_khotplug_free(k->hotplug);	/* after its loop */
	k->hotplug = NULL;
	kernel_release(k);
	if (k->module_loaded)
		ltt_kmodule_unload(LTT_KMODULE_TRACER);
}

static int kernel_relay_pending(struct ltt_domain_impl *d, struct ltt_session *session,
				bool *ret_pending)
{
	struct kernel_session *ks = state_of(session);
	struct ltt_consumer *c;

	*ret_pending = false;
	if (!ks || session->output_type != LTT_OUTPUT_NET)
		return 0;
	c = ltt_ctrace_now(&ks->trace);
	return ltt_relay_pending(&ks->relay, c, ks->trace.gen, ret_pending);
}

static int kernel_relay_status(struct ltt_domain_impl *d, struct ltt_session *session,
			       struct ltt_relay_desc *ret)
{
	struct kernel_session *ks = state_of(session);

	if (!ks || session->output_type != LTT_OUTPUT_NET || (!ks->relay.key && !ks->relay.error))
		return -ENOENT;
	ltt_relay_status(&ks->relay, ltt_ctrace_now(&ks->trace), ks->trace.gen, ret);
	return 0;
}

/* ---- trace chunks ---- */

static int kernel_rotate(struct ltt_domain_impl *d, struct ltt_session *session,
			 const char *old_root, const char *new_root, bool clear)
{
	struct kernel_session *ks = state_of(session);

	(void)d;
	(void)old_root;	/* the trace's own chunk root: it may have been left in an older one */
	return ks ? ltt_ctrace_rotate(&ks->trace, new_root, clear) : 0;
}

/* What the consumer wrote for the session's kernel channels (size rotation). */
static uint64_t kernel_written(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);
	struct ltt_consumer *c = ks ? ltt_ctrace_now(&ks->trace) : NULL;
	struct ltt_consumer_channel_stats st;
	struct kernel_chan *kc;
	uint64_t sum = 0;

	cds_list_for_each_entry(kc, ks ? &ks->trace.chans : &no_chans, cc.node) {
		chan_status(kc, c, &st);
		sum += kc->cached.bytes_written;
	}
	return sum;
}

static int kernel_triggers_changed(struct ltt_domain_impl *d)
{
	struct ltt_kernel *k = to_kernel(d);

	if (k->triggers)
		ltt_knotify_sync(k, k->triggers);
	ltt_kmaps_sync(k);
	return 0;
}

/* A kernel event rule of a trigger: a rule as enable-event's, and a tracefs. */
static enum ltt_error_code kernel_check_trigger(struct ltt_domain_impl *d,
						const struct ltt_trigger_conf *c)
{
	struct ltt_rule_conf *rule;
	enum ltt_error_code err;

	/* a probe (LTTng's kernel:kprobe, kernel:uprobe): placed for its notifier */
	if (c->rule.type == LTT_EVENT_FUNCTION)
		return LTT_ERR_EVENT_TYPE;	/* LTTng's triggers have no function rule */
	if (ltt_event_type_is_probe(c->rule.type))
		return c->rule.filter[0] || ltt_trigger_counts(c) ? LTT_ERR_TRIGGER_PROBE_RULE :
		       ltt_knotify_check(to_kernel(d), c);
	/* checked as a session's rule: a system call rule's site aside (knotify's) */
	rule = malloc(sizeof(*rule));
	if (!rule)
		return LTT_ERR_NOMEM;
	*rule = c->rule;
	if (rule->type == LTT_EVENT_SYSCALL)
		rule->location[0] = '\0';
	err = kernel_check_rule(d, rule);
	free(rule);
	if (!err && ltt_trigger_counts(c))
		return LTT_ERR_OK;	/* its kernel map was made: the kernel counts */
	return err ? err : ltt_knotify_check(to_kernel(d), c);
}

static enum ltt_error_code kernel_arm_trigger(struct ltt_domain_impl *d, struct ltt_trigger *t,
					      int client_fd)
{
	if (ltt_trigger_counts(&t->conf))
		return ltt_kmaps_arm(to_kernel(d), t);
	return ltt_knotify_arm(to_kernel(d), t, client_fd);
}

static const struct ltt_domain_ops kernel_ops = {
	.rotate = kernel_rotate,
	.written = kernel_written,
	.check_channel = kernel_check_channel,
	.check_rule = kernel_check_rule,
	.may_add_channel = kernel_may_add_channel,
	.check_tracker = ltt_kernel_check_tracker,
	.start = kernel_start,
	.update = kernel_update,
	.apply = kernel_apply,
	.stop = kernel_stop,
	.destroy = kernel_destroy,
	.channel_stats = kernel_channel_stats,
	.channel_failure = kernel_channel_failure,
	.channel_usage = kernel_channel_usage,
	.mem_usage = ltt_kernel_mem_usage,
	.triggers_changed = kernel_triggers_changed,
	.check_trigger = kernel_check_trigger,
	.arm_trigger = kernel_arm_trigger,
	.relay_pending = kernel_relay_pending,
	.relay_status = kernel_relay_status,
	.relay_archive = ltt_kernel_relay_archive,
	.snapshot = ltt_kernel_snapshot,
	.regenerate_metadata = ltt_kernel_regenerate_metadata,
	.regenerate_statedump = ltt_kernel_regenerate_statedump,
	.list_events = ltt_kernel_list_events,
	.describe_tracer = ltt_kernel_describe_tracer,
	.settle_wait = kernel_settle_wait,
	.fini = kernel_fini,
	.supervisor = ltt_kernel_supervisor,
};

/* ---- set-up ---- */

int ltt_kernel_init(struct ltt_kernel *kernel, enum ltt_kernel_backend choice, const char *probes,
		    struct ltt_session_registry *registry,
		    const struct ltt_consumer_config *consumer, char *why, size_t why_size)
{
	int ret;

	memset(kernel, 0, sizeof(*kernel));
	ret = ltt_kernel_open(kernel, choice, probes, why, why_size);
	if (ret)
		return ret;
	ret = ltt_kernel_read_cpus(kernel);
	if (!ret)
		ret = ltt_kernel_catalog_init(kernel);
	if (!ret)
		ret = ltt_kabi_list(kernel->kabi, LTT_KABI_LIST_SYSCALLS, &kernel->syscalls,
				    &kernel->nr_syscalls);
	if (ret) {
		snprintf(why, why_size, "the kernel tracer does not answer as expected: %s",
			 strerror(-ret));
		kernel_release(kernel);
		goto unload;
	}
	if (ltt_kernel_lacks(kernel, LTT_KABI_FEAT_SYSCALL_STRINGS, "system call paths and names",
			     kernel->strings_why, sizeof(kernel->strings_why)))
		LTT_INFO("kernel: %s", kernel->strings_why);
	else if (kernel->version.bpf)	/* said in list -k and the env: which source */
		snprintf(kernel->strings_why, sizeof(kernel->strings_why), "%s",
			 kernel->version.bpf == LTT_KABI_BPF_CHOSEN ? LTT_KERNEL_BPF_CHOSEN :
			 LTT_KERNEL_BPF_STRINGS);
	else
		kernel->strings_why[0] = '\0';
	uname(&kernel->uts);
	ltt_trace_host_init(&kernel->host);
	ltt_supervisor_init(&kernel->consumer, "kernel", consumer);
	kernel->consumer.cfg.lttng_health = LTT_CONSUMER_LTTNG_HEALTH_KERNEL;
	kernel->registry = registry;
	ltt_supervisor_set_takeover(&kernel->consumer, ltt_kernel_consumer_died, kernel);
	kernel->domain.type = LTT_DOMAIN_KERNEL;
	kernel->domain.ops = &kernel_ops;
	LTT_INFO("kernel tracer %s (ABI %u.%u, backend %s): %zu events, %zu system calls",
		 kernel->version.tracer_version, kernel->version.major, kernel->version.minor,
		 kernel->backend->name, kernel->catalog->nr, kernel->nr_syscalls);
	return 0;
unload:
	if (kernel->module_loaded)
		ltt_kmodule_unload(LTT_KMODULE_TRACER);
	return ret;
}
