/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sessiond.h - map of ltt-sessiond, module by module.  See doc/sessiond.md
 * for its threads, object tree, ownership and lock order.
 *
 *   main.c         options, run directory, daemonizing, signals, start/stop
 *   rundir.[ch]    the run directory: permissions, lock file, pid file
 *   worker.[ch]    runs the commands that may wait, off the client thread
 *   client.[ch]    the client thread: client.sock, credentials, framing
 *   cmd.[ch]       the command table and its helpers
 *   cmd-session.c  create, destroy, start, stop, list, get
 *   cmd-channel.c  enable-channel, disable-channel
 *   cmd-event.c    enable-event, disable-event
 *   cmd-chunk.c    rotate, enable-rotation, disable-rotation, clear, regenerate
 *   chunk.[ch]     trace chunks of local sessions: rotation, clear, regeneration
 *   chunk-sched.[ch] the rotation thread: timer and size schedules
 *   session.[ch]   the object tree: registry, sessions, domains, channels, rules
 *   domain.[ch]    the domain interface the commands call; the domains served
 *   ust.[ch]       the user-space domain: its operations, programs coming and going
 *   ust-push.[ch]  its program push protocol (CHANNEL_ADD, EVENT_ENABLE, ...; acks)
 *   ust-buffers.[ch] its traces and channel buffers, per session
 *   ust-meta.[ch]  its event ids and metadata text
 *   kernel.[ch]    the kernel domain: its operations over the kernel tracer
 *   kabi.[ch]      the kernel thread: the only code that issues the tracer's ioctls
 *   kmodule.[ch]   loading the tracer module with libkmod, and why it failed
 *   trace-host.[ch] what every trace's metadata says of the host and session
 *   app.[ch]       registered applications and the app thread (app.sock)
 *   app-out.[ch]   commands to applications: never blocking, queued, acks
 *   supervisor.[ch] a domain's consumer daemon, spawned and replaced
 *   consumer.[ch]  spawning ltt-consumerd and calling its commands
 *   relay.[ch]     a session's relay: the create-time check, each consumer's link
 *   tsdl.[ch]      CTF metadata (TSDL) of user-space and kernel traces
 */
#ifndef LTT_SESSIOND_SESSIOND_H
#define LTT_SESSIOND_SESSIOND_H

#include "sessiond/app.h"
#include "sessiond/chunk-sched.h"
#include "sessiond/chunk.h"
#include "sessiond/client.h"
#include "sessiond/consumer.h"
#include "sessiond/cmd.h"
#include "sessiond/domain.h"
#include "sessiond/kernel.h"
#include "sessiond/rundir.h"
#include "sessiond/session.h"
#include "sessiond/supervisor.h"
#include "sessiond/tsdl.h"
#include "sessiond/ust.h"

#endif /* LTT_SESSIOND_SESSIOND_H */
