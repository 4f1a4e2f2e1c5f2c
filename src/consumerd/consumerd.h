/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * consumerd.h - map of ltt-consumerd, module by module.  See
 * doc/consumerd.md for its threads, object tree, ownership, lock order
 * and flush protocol.
 *
 *   main.c          options, signals, starting and stopping the threads
 *   cmd.[ch]        the command thread: socket, validation, the command
 *                   table, the registry of traces, channels and relays
 *   data.[ch]       the data thread: one event loop over sources, sinks,
 *                   relays, timers, requests
 *   prio.[ch]       the data thread's scheduling: real-time, else nice -10
 *   trace.[ch]      a trace: local directories or a relay path, its
 *                   packetized metadata through its output
 *   channel.[ch]    a channel: configuration, its streams, their stats
 *   stream.[ch]     a stream: packets from its source to its sink
 *   source.[ch]     the source interface: what a stream reads from
 *   source-ust.[ch] the "ust" source: a user-space shared-memory ring buffer
 *   source-kernel.[ch]  the "kernel" source: an ltt-tracer.ko stream fd
 *   sink.[ch]       the sink and output interface: where packets go
 *   sink-file.[ch]  the file output: data and index files, rotation, splice
 *   sink-relay.[ch] the relay output: streams sent to ltt-relayd, queues,
 *                   replies, beacons, data pending, connection loss
 *   fs.[ch]         creating directories and files for the trace's owner
 *   ftrace-conv.[ch]  the kernel's own ring-buffer pages (tracefs) into
 *                   CTF packets, for a tracefs source
 *   fault.[ch]      a test's fault point: stop on a given command
 */
#ifndef LTT_CONSUMERD_CONSUMERD_H
#define LTT_CONSUMERD_CONSUMERD_H

#include "consumerd/channel.h"
#include "consumerd/cmd.h"
#include "consumerd/data.h"
#include "consumerd/fs.h"
#include "consumerd/prio.h"
#include "consumerd/source-kernel.h"
#include "consumerd/source-ust.h"
#include "consumerd/source.h"
#include "consumerd/stream.h"
#include "consumerd/sink-file.h"
#include "consumerd/sink-relay.h"
#include "consumerd/sink.h"
#include "consumerd/trace.h"

#endif /* LTT_CONSUMERD_CONSUMERD_H */
