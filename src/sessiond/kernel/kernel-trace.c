// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-trace.c - kernel traces in the consumer-trace layer (ctrace.h):
 * the source operations it calls (a channel's streams, dups of the
 * tracer's fds; the trace's directory; the relay link), and the takeover
 * of every session's trace when the kernel consumer died
 * (kernel-internal.h).
 *
 * The session daemon holds each stream's fd (the consumer gets dups of
 * the same open file), so the tracer's ring buffers and their reader
 * positions outlive the consumer: the new one reads each stream from
 * where the dead one released it, takes back a packet the dead one held
 * (GET_HELD_SUBBUF), and its file sink continues each file after the
 * last packet the index holds whole, refusing the packets written
 * already.  Nothing is read twice or skipped; what writers could not
 * record meanwhile is in the tracer's running counters.  The takeover
 * itself is the consumer-trace layer's (ctrace.h), as for user space.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sessiond/kernel/kernel-internal.h"

void ltt_kernel_mem_usage(struct ltt_domain_impl *d, struct ltt_session *session,
			  const struct ltt_channel *channel,
			  void (*fn)(void *arg, const struct ltt_domain_mem *m), void *arg)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	struct ltt_domain_mem m = {
		.uid = (uint32_t)session->uid,
		.size = channel->attr.subbuf_size * channel->attr.num_subbuf,
	};
	struct ltt_kabi_stream_usage su;
	struct kernel_chan *kc;
	unsigned int i;
	uint64_t bytes;

	if (!ks)
		return;
	cds_list_for_each_entry(kc, &ks->trace.chans, cc.node) {
		if (kc->cc.channel != channel)
			continue;
		for (i = 0; kc->streams && i < k->nr_cpus; i++) {
			if (!kc->streams[i])
				continue;
			m.cpu = k->cpus ? k->cpus[i] : i;
			m.how = LTT_MEM_CONFIGURED;
			m.resident = m.size;
			if (!ltt_kabi_channel_mem(k->kabi, kc->handle, m.cpu, &bytes)) {
				m.how = LTT_MEM_MODULE_COUNT;
				m.resident = bytes;
			} else if (!ltt_kabi_stream_usage(k->kabi, kc->streams[i], &su) &&
				   su.allocated) {
				m.how = LTT_MEM_KERNEL_COUNT;
				m.resident = su.allocated;
			}
			fn(arg, &m);
		}
	}
}

/*
 * What kabi object @which of @kc's CPU @cpu (BPF_RING) is: a dup of its fd
 * into *@ret_fd, the object released.
 */
static int bpf_fd(struct ltt_kernel *k, struct kernel_chan *kc, uint32_t cpu, uint32_t which,
		  int *ret_fd)
{
	ltt_khandle h;
	int ret = ltt_kabi_bpf_ring(k->kabi, kc->handle, cpu, which, &h);

	if (ret)
		return ret;
	ret = ltt_kabi_dup(k->kabi, h, ret_fd);
	ltt_kabi_release(k->kabi, h);
	return ret;
}

/*
 * The BPF ring of @kc's CPU @cpu and the lost counts to @c, before the
 * CPU's stream (the consumer keeps them for it), where the backend
 * records system call strings with BPF.
 */
static int bpf_to_consumer(struct ltt_kernel *k, struct kernel_chan *kc, struct ltt_consumer *c,
			   uint32_t cpu)
{
	int ring = -1, lost = -1, ret;

	if (!k->version.bpf)
		return 0;
	if (ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_BPF_RING) {
		LTT_WARN("kernel: channel %s: the consumer is too old for the BPF rings (consumer protocol 1.%u): system call strings are not recorded",
			 kc->cc.channel->attr.name, ltt_consumer_minor(c));
		return 0;
	}
	ret = bpf_fd(k, kc, cpu, LTT_KABI_BPF_RING, &ring);
	if (!ret)
		ret = bpf_fd(k, kc, cpu, LTT_KABI_BPF_LOST, &lost);
	if (!ret)
		ret = ltt_consumer_add_bpf_ring(c, kc->cc.key, cpu, ring, lost);
	if (ring >= 0)
		close(ring);
	if (lost >= 0)
		close(lost);
	return ret;
}

int ltt_kernel_streams_to_consumer(struct ltt_kernel *k, struct kernel_chan *kc,
				   struct ltt_consumer *c, const bool *only)
{
	bool paged = ltt_consumer_minor(c) >= LTT_CONSUMER_MINOR_KERNEL_STATS;
	int fd, map_fd = -1, ret = 0, stats_fd = paged ? kc->cc.stats.fd : -1;
	unsigned int i;

	kc->paged = paged && stats_fd >= 0;
	if (k->backend->pages)
		ret = ltt_kabi_dup(k->kabi, kc->handle, &map_fd);
	for (i = 0; !ret && kc->streams && i < k->nr_cpus; i++) {
		if (!kc->streams[i] || (only && !only[i]))
			continue;
		ret = ltt_kabi_dup(k->kabi, kc->streams[i], &fd);
		if (ret)
			break;
		if (map_fd >= 0)
			ret = bpf_to_consumer(k, kc, c, k->cpus[i]);
		if (!ret && map_fd >= 0)
			ret = ltt_consumer_add_ftrace_stream(c, kc->cc.key, k->cpus[i], fd, map_fd,
							     stats_fd);
		else
			ret = ltt_consumer_add_kernel_stream(c, kc->cc.key, k->cpus[i], fd,
							     stats_fd);
		close(fd);
	}
	if (map_fd >= 0)
		close(map_fd);
	return ret;
}

/*
 * What the consumer needs of a channel whose pages it converts: the
 * timers (no tracer runs them), the stream class and the contexts it
 * writes into each event.
 */
static void pages_channel(const struct ltt_channel *channel, struct ltt_consumer_add_channel *cc)
{
	uint32_t i;

	cc->domain = LTT_CONSUMER_DOMAIN_TRACEFS;
	cc->switch_timer_us = channel->attr.switch_timer_us;
	cc->read_timer_us = channel->attr.read_timer_us;
	cc->stream_id = channel->stream_id;
	cc->nr_ctx = channel->nr_contexts;
	for (i = 0; i < channel->nr_contexts && i < LTT_CTX_MAX; i++)
		cc->ctx[i] = channel->contexts[i];
}

/* The ctrace chan_add operation: @ch's streams, dups of the tracer's, to @c. */
static int trace_chan_add(struct ltt_ctrace *t, struct ltt_cchan *ch, struct ltt_consumer *c)
{
	struct kernel_session *ks = caa_container_of(t, struct kernel_session, trace);
	struct kernel_chan *kc = caa_container_of(ch, struct kernel_chan, cc);
	const struct ltt_channel *channel = ch->channel;
	struct ltt_kernel *k = ks->k;
	struct ltt_consumer_add_channel cc;
	int ret, err;

	ltt_ctrace_chan_msg(t, ch, &cc);
	/* The tracer runs the timers and wakes the consumer: none here. */
	cc.domain = LTT_CONSUMER_DOMAIN_KERNEL;
	cc.subbuf_size = channel->attr.subbuf_size;
	cc.num_subbuf = channel->attr.num_subbuf;
	if (k->backend->pages)
		pages_channel(channel, &cc);

	ret = ltt_consumer_add_channel(c, &cc);
	if (ret)
		return ret;
	ret = ltt_kernel_streams_to_consumer(k, kc, c, NULL);
	/* even after a failure: the streams added are announced, not held back */
	err = ltt_consumer_streams_sent(c, kc->cc.key);
	return ret ? ret : err;
}

/*
 * The ctrace path operation: OUTPUT/kernel, or OUTPUT/kernel-N if that
 * holds a trace; "kernel" in the relay's session for a streamed session,
 * in the snapshot's directory for a snapshot session.
 */
static int trace_path(struct ltt_ctrace *t, unsigned int attempt, char *buf, size_t len)
{
	const struct ltt_session *session = t->session;
	int n;

	if (session->snapshot || session->output_type == LTT_OUTPUT_NET)
		n = attempt ? snprintf(buf, len, "kernel-%u", attempt) : snprintf(buf, len, "kernel");
	else if (attempt)
		n = snprintf(buf, len, "%s/kernel-%u", session->chunk_dir, attempt);
	else
		n = snprintf(buf, len, "%s/kernel", session->chunk_dir);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static struct ltt_supervisor *trace_supervisor(struct ltt_ctrace *t)
{
	return &caa_container_of(t, struct kernel_session, trace)->k->consumer;
}

static struct ltt_relay_link *trace_relay(struct ltt_ctrace *t)
{
	return &caa_container_of(t, struct kernel_session, trace)->relay;
}

static uint64_t trace_new_key(struct ltt_ctrace *t)
{
	return ltt_kernel_new_key(caa_container_of(t, struct kernel_session, trace)->k);
}

/*
 * How long new metadata waits for the consumer's reply: sent whole, it is
 * written in order even when the reply comes late, so an enable-event
 * need not wait the consumer's usual 5 s.
 */
#define KERNEL_META_REPLY_MS 1000

/* What the consumer-trace layer knows of a kernel trace. */
const struct ltt_ctrace_ops ltt_kernel_trace_ops = {
	.noun = "kernel trace",
	.meta_reply_ms = KERNEL_META_REPLY_MS,
	.supervisor = trace_supervisor,
	.path = trace_path,
	.chan_add = trace_chan_add,
	.relay = trace_relay,
	.new_key = trace_new_key,
};

/*
 * A live session's kernel trace, if it has one, to a new consumer (a
 * snapshot trace waits for a command: ltt_ctrace_consumer_died()).
 * Session lock held.
 */
static void take_over(struct ltt_session *session, void *arg)
{
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;

	(void)arg;
	if (ks)
		ltt_ctrace_consumer_died(&ks->trace);
}

void ltt_kernel_consumer_died(void *arg)
{
	struct ltt_kernel *k = arg;

	if (k->registry)
		ltt_session_each_live(k->registry, take_over, NULL);
}
