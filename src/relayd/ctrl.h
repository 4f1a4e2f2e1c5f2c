/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctrl.h - the control server's protocol (common/proto/relay-proto.h, control
 * connection): a state machine per connection that reads each request
 * whole into a buffer bounded by LTT_RELAY_MAX_CTRL_PAYLOAD, validates
 * it, serves it from one command table and queues the reply.
 *
 * States: NEW (only VERSION is accepted; any other command closes),
 * VERSIONED (CREATE_SESSION, or any command not needing a session),
 * BOUND (the connection's relay session exists: every command).  A
 * malformed request (a header or payload that does not add up, a string
 * without its NUL, a stream the session lacks, a request larger than
 * the limit, a peer that stops in the middle of one for the idle time)
 * is logged with the peer's address and closes the connection; closing
 * closes the session (session.h).  Commands the relay does not serve get
 * LTT_RELAY_ERR_UNSUPPORTED.
 */
#ifndef LTT_RELAYD_CTRL_H
#define LTT_RELAYD_CTRL_H

#include "relayd/server.h"

extern const struct ltt_relay_proto_ops ltt_relay_ctrl_ops;

#endif /* LTT_RELAYD_CTRL_H */
