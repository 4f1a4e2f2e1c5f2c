/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sessiond.h - map of ltt-sessiond, module by module.  See doc/sessiond.md
 * for its threads, object tree, ownership and lock order.
 *
 * Folder by folder, from the top layer down, each with its map header,
 * which names the folder's files and declares their functions grouped by
 * file.  A file calls and includes files of its own
 * folder and of the folders listed after it, never one listed before
 * (test_sessiond_layers holds the tree to these maps: every file named,
 * every prototype under its file, no call or include up).
 *
 * daemon/ (daemon.h): the process: main, options, run directory, autoload,
 *   the trigger runner, the privileged part's table of requests
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
 * priv/ (priv.h): the root daemon's privileged part: the daemon's end of
 *   the link (priv-link.c) and the privileged process's loop (priv-server.c)
 */
#ifndef LTT_SESSIOND_SESSIOND_H
#define LTT_SESSIOND_SESSIOND_H

#include "sessiond/app/app.h"
#include "sessiond/chunk/chunk-sched.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/client/client.h"
#include "sessiond/consumer/consumer.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"
#include "sessiond/kernel/kernel.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/model/session.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/ctrace/meta.h"
#include "sessiond/ust/ust.h"

#endif /* LTT_SESSIOND_SESSIOND_H */
