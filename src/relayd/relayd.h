/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * relayd.h - map of ltt-relayd, module by module.  See doc/relayd.md for
 * its threads, connection state machines, object tree and on-disk layout.
 *
 *   main.c          options, detaching, signals, start-up and shutdown
 *   listen.[ch]     -C/-D/-L addresses, listening sockets, port files
 *   ctrl.[ch]       the control protocol: requests, the command table
 *   data.[ch]       the data protocol: packets streamed into their files
 *   live.[ch]       the live viewer server (lttng-live protocol): its
 *                   connections, their state machine and deadlines
 *   live-cmd.[ch]   its commands: what each request answers, a viewer's
 *                   state
 *   server.[ch]     connections on the event loop: buffers, deadlines
 *   model.[ch]      the model's start and end, and the thread-safe view
 *                   for live.c
 *   session.[ch]    relay sessions: directories, closing, archives, data
 *                   pending
 *   stream.[ch]     relay streams: files, rotation, packets, index pairing
 *   stream-files.[ch]  a stream's tracefile and index made, writes that
 *                   leave no partial packet (rotation and the file
 *                   count: common/trace/tracefile.h)
 *   reconcile.[ch]  RECONCILE_STREAM: a dead relay's stream files, cut
 *                   back to their indexed packets, and those packets'
 *                   sequence numbers for the consumer that streamed them
 *   registry.[ch]   the objects (model, sessions, traces, streams): lookup
 *                   by id and handle, references and freeing, valid names
 *   journal.[ch]    the session directories written, kept in the state
 *                   directory ($LTT_STATEDIR, else the run directory):
 *                   the next relay repairs what a death tore
 *
 * Each file calls only files listed below it.
 */
#ifndef LTT_RELAYD_RELAYD_H
#define LTT_RELAYD_RELAYD_H

#include "relayd/ctrl.h"
#include "relayd/data.h"
#include "relayd/listen.h"
#include "relayd/live.h"
#include "relayd/model.h"
#include "relayd/registry.h"
#include "relayd/server.h"
#include "relayd/session.h"
#include "relayd/stream.h"

/* Milliseconds a peer may stall in the middle of a message (default 30 s). */
#define LTT_RELAYD_IDLE_ENV "LTT_RELAYD_IDLE_TIMEOUT_MS"
/* The same once its connection is established (default 10 min, at least
 * the idle time: a shaped slow link's segments may be minutes apart). */
#define LTT_RELAYD_BOUND_IDLE_ENV "LTT_RELAYD_BOUND_IDLE_TIMEOUT_MS"
#define LTT_RELAYD_DEFAULT_BOUND_IDLE_MS 600000
/* Milliseconds a new control or data connection has to send its first
 * message (default 30 s). */
#define LTT_RELAYD_HELLO_ENV "LTT_RELAYD_HELLO_TIMEOUT_MS"
/* struct ltt_relay_limits (registry.h): sessions, streams, streams a session. */
#define LTT_RELAYD_MAX_SESSIONS_ENV "LTT_RELAYD_MAX_SESSIONS"
#define LTT_RELAYD_MAX_STREAMS_ENV "LTT_RELAYD_MAX_STREAMS"
#define LTT_RELAYD_MAX_SESSION_STREAMS_ENV "LTT_RELAYD_MAX_SESSION_STREAMS"

#endif /* LTT_RELAYD_RELAYD_H */
