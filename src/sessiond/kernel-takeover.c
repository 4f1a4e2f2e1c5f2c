// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-takeover.c - a kernel consumer that died is replaced at once
 * and the new one continues every session's kernel trace
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
#include <stdlib.h>

#include "sessiond/kernel-internal.h"

void ltt_kernel_consumer_died(void *arg)
{
	struct ltt_kernel *k = arg;
	struct ltt_session **sessions;
	struct kernel_session *ks;
	size_t i, n;

	if (!k->registry || ltt_session_snapshot_list(k->registry, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&sessions[i]->lock);
		ks = ltt_session_domain(sessions[i], LTT_DOMAIN_KERNEL)->state;
		if (!sessions[i]->destroyed && ks)
			ltt_ctrace_consumer(&ks->trace);
		pthread_mutex_unlock(&sessions[i]->lock);
		ltt_session_put(k->registry, sessions[i]);
	}
	free(sessions);
}
