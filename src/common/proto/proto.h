/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * proto.h - the map of src/common/proto, the wire forms of ltt's
 * protocols: one header per protocol, each message a field table that the
 * codec (common/base/codec.h) walks, and the framing two of them share.
 *
 *   proto.h            this map
 *   msg.[ch]           the framing of the app and consumer protocols: header, payload, fds
 *   client-proto.[ch]  lttctl and libltt-ctl to ltt-sessiond: commands, objects, minors
 *   app-proto.[ch]     ltt-sessiond and libltt-ust: registration, channels, event rules
 *   app-tracepoint.c   the app protocol's tracepoint descriptions (declared in app-proto.h)
 *   consumer-proto.[ch] ltt-sessiond to ltt-consumerd: channels, streams, traces, relays
 *   consumer-proto-relay.h  its relay commands (ADD_RELAY, the relays' replies)
 *   lagent-proto.[ch]  LTTng's agent protocol (its Python and Java agents) to ltt-sessiond
 *   lust-proto.[ch]    LTTng-UST's registration, which ltt-sessiond --lttng-compat reads and refuses
 *   relay-proto.[ch]   a consumer to ltt-relayd: LTTng's relay protocol, big-endian
 *   live-proto.[ch]    ltt-relayd's live port to viewers: LTTng's live protocol, big-endian
 *   lttng-client-proto.[ch] LTTng 2.13's client protocol (ltt-sessiond --lttng-compat)
 *   lttng-trigger-proto.[ch] its serialized triggers, conditions, actions, evaluations,
 *                      error queries and notification channel messages, on ltt's triggers
 *   lttng-eval-proto.c its notification channel header, evaluations, captured values and
 *                      capture descriptors (declared in lttng-trigger-proto.h)
 *   lttng-probe-proto.c its kprobe and uprobe event rules (declared in lttng-trigger-wire.h)
 *   lttng-map-proto.c   LTTng 2.16's incr-map-value action (declared in lttng-trigger-wire.h)
 *   lttng-trigger-wire.h the type numbers, byte order and string helpers of those three
 *   lttng-health.[ch]  LTTng's health sockets (session, consumer and relay daemons):
 *                      their paths, thread slots, and the thread that answers them
 *   trigger-proto.[ch] the client protocol's triggers, their counters, notifications and
 *                      captures (the capture form app-proto.c reads too)
 *
 * Layers, top down: app-proto (it reads trigger-proto.c's captures),
 * trigger-proto (a trigger's rule and snapshot output travel in
 * client-proto.c's forms), lttng-trigger-proto (a snapshot action's
 * output and a user-space rule's exclusions travel in
 * lttng-client-proto.c's forms), the other protocols,
 * msg.  Every protocol uses base/codec.h; client-proto.c and the app and
 * consumer protocols' users msg.h too.  But for those three arrows, no
 * protocol's file includes another's.  Include the header of the protocol you speak,
 * not this one.
 */
#ifndef LTT_COMMON_PROTO_PROTO_H
#define LTT_COMMON_PROTO_PROTO_H
#endif /* LTT_COMMON_PROTO_PROTO_H */
