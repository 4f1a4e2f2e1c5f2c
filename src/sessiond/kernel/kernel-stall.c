// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-stall.c - the kernel domain with a stalled (stopped, not dead)
 * consumer (kernel-internal.h).
 *
 * A slow consumer is not a dead one: nothing the tracer records is lost
 * for waiting on it.  What a stalled consumer was owed (metadata it
 * lacks, a channel it did not take, a stop's flush it did not do) is kept
 * by the consumer-trace layer (ctrace.h, ctrace-owed.c), as for user
 * space, and done once it answers: the rotation thread's tick finds it
 * and the owner's thread settles it, without a command.  Meanwhile stop,
 * rotate and snapshot fail with CONSUMERD_STALLED rather than leave a
 * trace whose metadata lacks what its events need, and destroy refuses
 * while that work or a rotation's move waits for the consumer
 * (ltt_ctrace_destroy_waits(), ltt_ctrace_domain_owes()).  What is the kernel's
 * here: its one consumer's supervisor, and the stop that tells the layer
 * a flush is owed.  The kernel consumer is root's own: one whose output
 * blocks for good can be killed, and a new one takes over.
 */
#include <errno.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"

void ltt_kernel_stop_owed(struct ltt_session *session, int ret)
{
	struct kernel_session *ks;

	if (ret != -ETIMEDOUT)
		return;
	ltt_session_lock(session);
	ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	if (ks && !session->destroyed) {
		ltt_ctrace_owe_flush(&ks->trace);
		LTT_WARN("session '%s': kernel trace %s: its stalled consumer daemon did not flush it; flushed once the consumer answers",
			 session->name, ks->trace.path);
	}
	ltt_session_unlock(session);
}

struct ltt_supervisor *ltt_kernel_supervisor(struct ltt_domain_impl *d,
					     const struct ltt_session *session)
{
	(void)session;
	return &caa_container_of(d, struct ltt_kernel, domain)->consumer;
}
