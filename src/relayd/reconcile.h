/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reconcile.h - RECONCILE_STREAM (relay-proto.h): after a consumer's
 * connection died, which of the packets it never saw confirmed are in a
 * stream's files.  A packet is recorded iff its entry is in the stream's
 * index file: the bytes past the last indexed packet (a relay killed
 * between a packet's data and its index) are cut, so that no reader
 * (babeltrace2 indexes a data file itself when its index is short) sees
 * a packet the consumer counts lost.  doc/relayd.md, "Exact counts
 * across a relay's death".
 */
#ifndef LTT_RELAYD_RECONCILE_H
#define LTT_RELAYD_RECONCILE_H

#include <stdint.h>

#include "common/proto/relay-proto.h"
#include "relayd/registry.h"

/**
 * ltt_relay_reconcile() - serve one RECONCILE_STREAM
 * @m: the relay's model (its output directory; its sessions, whose
 *     streams are never touched)
 * @req: the request (borrowed)
 * @ret_seqs: LTT_RELAY_RECONCILE_MAX slots: the packet_seq_num of the
 *            indexed packets from req->first_packet_seq on, oldest first
 * @ret_count: how many
 *
 * Server thread.  Returns 0; -EINVAL, a path outside the output or a
 * name that is not one, or more packets than fit; -ENOENT, no such
 * stream files; -EEXIST, a session of the relay holds the stream; -EIO
 * (or another -errno), its files could not be read or cut.
 */
int ltt_relay_reconcile(struct ltt_relay_model *m, const struct ltt_relay_reconcile_stream *req,
			uint64_t *ret_seqs, uint32_t *ret_count);

#endif /* LTT_RELAYD_RECONCILE_H */
