/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * priv-table.h - the root daemon's privileged part, what it serves
 * (priv-table.c, run in the privileged process): the table of allowed
 * requests (priv/priv.h lists them and their forms) and their handlers,
 * over the kernel tracer's backends (kabi/kabi-serve.c), the module
 * (kernel/kmodule.c) and the consumers (consumer/consumer-proc.c).  In
 * daemon/, above every folder, as main.c: the one place that knows both
 * the link and what runs behind it.
 */
#ifndef LTT_SESSIOND_DAEMON_PRIV_TABLE_H
#define LTT_SESSIOND_DAEMON_PRIV_TABLE_H

#include <sys/types.h>

struct ltt_consumer_config;

/*
 * The user a root daemon's main process drops to when neither
 * --privsep-user nor $LTT_PRIVSEP_USER names one, if it exists (Debian's
 * postinst makes it); else nobody.
 */
#define LTT_PRIVSEP_DEFAULT "ltt"

/**
 * ltt_privsep_consumers() - the consumers the privileged part spawns
 * (CONSUMER_SPAWN): @cfg's program and options (copied; its path
 * borrowed), set before ltt_priv_start(), never chosen by a request
 */
void ltt_privsep_consumers(const struct ltt_consumer_config *cfg);

/**
 * ltt_privsep_drops() - the daemon drops root's rights (ltt_priv_drop()):
 * what it can't write or remove then, set before ltt_priv_start(), never
 * named by a request: @port_file, LTTng's agents' port file (NULL: none),
 * which AGENT_PORT writes; and @rundir, whose sockets and pid file, and
 * the empty journals' directory of its state directory
 * (ltt_chunk_journal_dir()), the privileged part removes at a clean stop
 * (STOPPING), if the pid file names the daemon; @lttng_sock, LTTng's
 * client socket it serves (--lttng-compat; NULL: none), whose clients
 * are the daemon's too, and which it removes likewise with its
 * lttng-sessiond.pid.  All copied.
 */
void ltt_privsep_drops(const char *rundir, const char *port_file, const char *lttng_sock);

/**
 * ltt_privsep_serve() - the privileged process's life (ltt_priv_start()'s
 * @serve): serve @fd until it closes, then release every kernel object
 * @daemon: the daemon's pid, which the tracefs instances are named after
 *
 * Returns the process's exit status.
 */
int ltt_privsep_serve(int fd, pid_t daemon);

#endif /* LTT_SESSIOND_DAEMON_PRIV_TABLE_H */
