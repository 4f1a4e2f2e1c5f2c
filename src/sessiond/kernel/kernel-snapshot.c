// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-snapshot.c - the kernel channels of snapshot sessions.
 *
 * Their trace is a snapshot trace of the kernel consumer (ADD_SNAPSHOT_
 * TRACE: metadata kept, nothing written), its channels in overwrite mode
 * (cmd-event.c, lttctl enable-channel).  A snapshot (SNAPSHOT_TRACE) goes
 * to DIR/kernel: the consumer copies each stream's packets with the
 * tracer's SNAPSHOT_SPAN and SNAPSHOT_PEEK (kernel ABI 1.2), which read
 * without consuming, through the same path as user-space streams.  A
 * snapshot to a relay goes the same way to the snapshot's relay session
 * in the kernel consumer (SNAPSHOT_TRACE_RELAY), as "kernel" there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/ctrace/snap-budget.h"

enum ltt_error_code ltt_kernel_snapshot_may_add(const struct ltt_kernel *k)
{
	return ltt_kernel_refuses(k, LTT_KABI_FEAT_SNAPSHOT,
				  "a kernel channel of a snapshot session refused",
				  LTT_ERR_SNAPSHOT_KERNEL);
}

static unsigned int chan_streams(const struct ltt_kernel *k, const struct kernel_chan *kc)
{
	unsigned int i, n = 0;

	for (i = 0; kc->streams && i < k->nr_cpus; i++)
		n += kc->streams[i] != 0;
	return n;
}

/*
 * Packets per stream within @max_size (snap-budget.h), and what the
 * buffers hold in all (*@ret_bytes, the consumer's reply deadline grows
 * with it).
 */
static int64_t budget(const struct ltt_kernel *k, struct kernel_session *ks, uint64_t max_size,
		      uint64_t *ret_bytes)
{
	struct ltt_snap_set set = { 0 };
	struct kernel_chan *kc;
	int64_t ret;

	cds_list_for_each_entry(kc, &ks->trace.chans, cc.node)
		ltt_snap_set_add(&set, kc->cc.channel->attr.subbuf_size,
				 kc->cc.channel->attr.num_subbuf, chan_streams(k, kc));
	ret = ltt_snap_set_packets(&set, max_size);
	*ret_bytes = set.bytes;
	return ret;
}

int ltt_kernel_snapshot(struct ltt_domain_impl *d, struct ltt_session *session, const char *dir,
			struct ltt_relay_snap *net, uint64_t max_size,
			struct ltt_domain_snapshot *ret)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	struct ltt_consumer_snapshot_reply rep = { 0 };
	char path[PATH_MAX];
	struct ltt_consumer *c;
	uint64_t bytes, relay;
	int64_t n;
	int err;

	memset(ret, 0, sizeof(*ret));
	if (!ks)
		return 0;	/* never started: its buffers hold nothing */
	c = ltt_ctrace_consumer(&ks->trace);
	if (!c)
		return -EPIPE;
	/* a snapshot's metadata describes every event in it */
	err = ltt_ctrace_meta_send_owed(&ks->trace, c);
	if (err)
		return err;
	n = budget(k, ks, max_size, &bytes);
	if (n < 0)
		return (int)n;
	if (snprintf(path, sizeof(path), "%s/%s", dir, ks->trace.path) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (net) {
		err = ltt_relay_snap_key(net, c, ks->trace.gen, ltt_kernel_new_key(k), &relay);
		if (!err)
			err = ltt_consumer_snapshot_trace_relay(c, ks->trace.key, relay, path,
								(uint64_t)n, bytes, &rep);
	} else {
		err = ltt_consumer_snapshot_trace(c, ks->trace.key, path, (uint64_t)n, bytes, &rep);
	}
	if (err) {
		LTT_WARN("session '%s': snapshot of the kernel trace in %s failed: %s",
			 session->name, path, strerror(-err));
		return err;
	}
	ret->packets = rep.packets;
	ret->bytes = rep.bytes;
	ret->packets_dropped = rep.packets_dropped;
	return 0;
}
