/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sessiond.h - map of ltt-sessiond, module by module.  See doc/sessiond.md
 * for its threads, object tree, ownership and lock order.
 *
 *   main.c         options, run directory, daemonizing, signals, start/stop
 *   autoload.[ch]  the sessions loaded at start (--load, autoload directories)
 *   rundir.[ch]    the run directory: permissions, lock file, pid file
 *   worker.[ch]    runs the commands that may wait, off the client thread
 *   client.[ch]    the client thread: client.sock, credentials, framing
 *
 * Below main, folder by folder, from the top layer down.  A file calls
 * and includes files of its own folder and of the folders listed after
 * it, never one listed before (test_sessiond_layers checks this map:
 * every file named, no call or include up).
 *
 * cmd/: the client commands
 *   cmd.h          the commands' handlers and helpers
 *   cmd-table.c    the table from command numbers to handlers
 *   cmd-view.c     what list is told, never held up by a consumer
 *   cmd-session.c  create, destroy, start, stop, list, get
 *   cmd-channel.c  enable-channel, disable-channel
 *   cmd-event.c    enable-event, disable-event
 *   cmd-context.c  add-context, list contexts
 *   cmd-tracker.c  track, untrack, tracker policies
 *   cmd-snapshot.c snapshot outputs and snapshot record
 *   cmd-chunk.c    rotate, enable-rotation, disable-rotation, clear, regenerate
 *   cmd-common.c   what every command uses: sessions found and locked,
 *                  changes begun and ended, failures mapped to public codes
 *
 * ust/: the user-space domain
 *   ust.[ch]       its operations, programs coming and going
 *   ust-push.[ch]  its program push protocol (CHANNEL_ADD, EVENT_ENABLE, ...; acks)
 *   ust-trace-ops.c snapshots, rotations, regeneration, relay queries
 *   ust-buffers.[ch] its traces and channel buffers, per session
 *   ust-buffers-internal.h what ust-buffers.c and ust-handover.c share
 *   ust-handover.c its traces in the consumer-trace layer; closing traces
 *   ust-meta.[ch]  its event ids and metadata text
 *
 * kernel/: the kernel domain
 *   kernel.h       its interface: the domain, the tracer's features
 *   kernel-internal.h what the kernel domain's files share: its traces
 *   kernel-domain.c its operations over the kernel tracer; its traces
 *   kernel-context.[ch] the context fields of kernel channels
 *   kernel-filter.[ch] filters of kernel rules
 *   kernel-tracker.c process trackers in the tracer
 *   kernel-snapshot.c snapshots of kernel channels
 *   kernel-relay.c chunks of kernel traces streamed to a relay
 *   kernel-regen.c regenerate metadata and statedump; the metadata's header
 *   kernel-open.c  the tracer opened at start: its backend, the CPUs
 *   kernel-stall.c a stalled kernel consumer: its supervisor, a stop's flush owed
 *   kernel-trace.c its traces in the consumer-trace layer; a dead consumer's taken over
 *   kmodule.[ch]   loading the tracer module with libkmod, and why it failed
 *
 * app/: registered programs
 *   app.h          the map of app/: the application object, file by file
 *   app-thread.c   registered applications and the app thread (app.sock)
 *   app-out.c      commands to applications: never blocking, queued, acks
 *
 * kabi/: the kernel tracer's backends
 *   kabi.[ch]      the kernel thread: the only code that acts on the kernel tracer
 *   kabi-backend.h what a kernel tracer backend gives that thread
 *   kabi-module.c  the module backend: the tracer's ioctls
 *   kabi-tracefs.[ch] the tracefs backend: the kernel's own tracing buffers
 *   kabi-tracefs-inst.c its sessions, channels and streams in ftrace instances
 *   kabi-tracefs-track.c its process trackers (the pid filters of instances)
 *   kabi-tracefs-statedump.c its state dump, recorded through trace_marker_raw
 *
 * chunk/: trace chunks of a session, over its domains' operations
 *   chunk.h        trace chunks: rotation, clear, regeneration, archives
 *   chunk-rotate.c trace chunks of local and streamed sessions
 *   chunk-journal.[ch] a local session's chunks kept for the next daemon
 *   chunk-sched.[ch] the rotation thread: timer and size schedules
 *
 * ctrace/: the consumer-trace layer (every domain's)
 *   ctrace.[ch]    a trace held by a consumer: hand-over, metadata, takeover,
 *                  settle, rotation (its domain's source operations); the
 *                  session's list of traces that owe their consumer work
 *   ctrace-owed.c  what those traces owe stalled consumers: due in O(1),
 *                  settled for every domain; what list says of a stall
 *   meta-regen.[ch] a trace's metadata sent again: the rest in order, or whole
 *   snap-budget.[ch] the packets per stream of a bounded snapshot
 *   trace-host.[ch] what every trace's metadata says of the host and session
 *   tsdl.[ch]      CTF metadata (TSDL) of user-space and kernel traces
 *
 * consumer/: the consumer link
 *   relay.[ch]     a session's relay: the create-time check, each consumer's link
 *   supervisor.[ch] a domain's consumer daemon, spawned and replaced
 *   consumer.h     the link's API: every command of consumer-trace.c, -relay.c
 *   consumer-proc.c an ltt-consumerd: spawned, its handshake, reaped
 *   consumer-call.[ch] the one call every command makes: deadlines, owed and
 *                  late replies, stalled or lost (.h: the consumer object)
 *   consumer-trace.c its trace commands: traces, channels, streams, metadata,
 *                  rotations, statistics, snapshots
 *   consumer-relay.c its relay output commands
 *
 * model/: the session model
 *   session.[ch]   the object tree: registry, sessions, domains, channels, rules
 *   domain.[ch]    the domain interface the commands call; the domains served
 *   rule-filter.[ch] rules matched against events, and their filter programs
 *   tracker.[ch]   process trackers: inclusion sets of ids
 */
#ifndef LTT_SESSIOND_SESSIOND_H
#define LTT_SESSIOND_SESSIOND_H

#include "sessiond/app/app.h"
#include "sessiond/chunk/chunk-sched.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/autoload.h"
#include "sessiond/client.h"
#include "sessiond/consumer/consumer.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"
#include "sessiond/kernel/kernel.h"
#include "sessiond/rundir.h"
#include "sessiond/model/session.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/ctrace/tsdl.h"
#include "sessiond/ust/ust.h"

#endif /* LTT_SESSIOND_SESSIOND_H */
