/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sessiond.h - map of ltt-sessiond, module by module.  See doc/sessiond.md
 * for its threads, object tree, ownership and lock order.
 *
 *   main.c         run directory, daemonizing, signals, start/stop
 *   options.[ch]   the command line: options, bounds, clock, backend, user
 *   autoload.[ch]  the sessions loaded at start (--load, autoload directories)
 *   rundir.[ch]    the run directory: permissions, lock file, pid file
 *   triggers.[ch]  the trigger runner: the actions of triggers that fired
 *   privsep.[ch]   the privileged part's table of allowed requests (root)
 *
 * Below main, folder by folder, from the top layer down, each with its
 * map header, which names the folder's files and declares their
 * functions grouped by file.  A file calls and includes files of its own
 * folder and of the folders listed after it, never one listed before
 * (test_sessiond_layers holds the tree to these maps: every file named,
 * every prototype under its file, no call or include up).
 *
 * client/ (client.h): the client thread: ltt's and LTTng's sockets, framing, workers
 * lttng-compat/ (lttng-compat.h): LTTng 2.13's and 2.16's client protocols on the commands
 * cmd/ (cmd.h): the client commands
 * ust/ (ust.h): the user-space domain
 * lagent/ (lagent.h): LTTng's agents (their TCP port, their protocol)
 * lust/ (lust.h): programs of LTTng-UST's own library (read, refused, listed)
 * kernel/ (kernel.h): the kernel domain
 * app/ (app.h): registered programs
 * kabi/ (kabi.h): the kernel tracer's backends
 * chunk/ (chunk.h): trace chunks of a session, over its domains' operations
 * ctrace/ (ctrace.h): the consumer-trace layer (every domain's)
 * consumer/ (consumer.h): the consumer link
 * model/ (session.h): the session model
 * priv/ (priv.h): the root daemon's privileged part: its process, its link
 */
#ifndef LTT_SESSIOND_SESSIOND_H
#define LTT_SESSIOND_SESSIOND_H

#include "sessiond/app/app.h"
#include "sessiond/chunk/chunk-sched.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/autoload.h"
#include "sessiond/client/client.h"
#include "sessiond/consumer/consumer.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"
#include "sessiond/kernel/kernel.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/rundir.h"
#include "sessiond/model/session.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/ctrace/meta.h"
#include "sessiond/ust/ust.h"

#endif /* LTT_SESSIOND_SESSIOND_H */
