/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data.h - the data server's protocol (common/proto/relay-proto.h, data
 * connection): a 32-byte header per packet, then its bytes, which go to
 * the stream's file as they arrive through a 64 KiB buffer (a packet is
 * never held in memory whole).
 *
 * States: HEADER (collecting 32 bytes), PACKET (writing the packet's
 * bytes; stream.h's ltt_relay_packet_*).  A header for an unknown or
 * closed stream, with a bad size or an out-of-sequence number, a write
 * that fails, or a peer that stops inside a header or packet for the
 * idle time, is logged with the peer's address and closes the
 * connection; a packet cut short is removed from its file.
 */
#ifndef LTT_RELAYD_DATA_H
#define LTT_RELAYD_DATA_H

#include "relayd/server.h"

extern const struct ltt_relay_proto_ops ltt_relay_data_ops;

#endif /* LTT_RELAYD_DATA_H */
