// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-relay.c - trace chunks of kernel sessions streamed to a relay.
 *
 * The kernel consumer streams a session's kernel trace ("kernel" in the
 * relay session's directory, "BEGIN-N/kernel" after rotations) through
 * its own relay session (ks->relay).  A rotation moves the trace like a
 * local one (kernel_rotate(): ROTATE_TRACE with the relative path); this
 * file is the rest: the relay archives the kernel part of a chunk that
 * ended (ARCHIVE_CHUNK through the consumer, ltt_relay_archive()), for
 * chunk-rotate.c's rotations and clears (at destroy, kernel-domain.c has
 * ltt_chunk_relay_last() do it with the same link).
 */
#include <errno.h>

#include "sessiond/kernel/kernel-internal.h"

int ltt_kernel_relay_archive(struct ltt_domain_impl *d, struct ltt_session *session,
			     const char *from, const char *to, char *ret_dir, size_t len)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	struct ltt_consumer *c;
	uint64_t gen;

	if (!ks || !ks->relay.key)
		return 0;	/* nothing was ever sent: nothing to archive */
	c = ltt_supervisor_current(&k->consumer, &gen);
	return ltt_relay_archive(&ks->relay, c, gen, from, to, ret_dir, len);
}
