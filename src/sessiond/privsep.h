/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * privsep.h - the root daemon's privileged part, what it serves
 * (privsep.c): the table of allowed requests (priv/priv.h lists them and
 * their forms) and their handlers, over the kernel tracer's backends
 * (kabi/kabi-serve.c), the module (kernel/kmodule.c) and the consumers
 * (consumer/consumer-proc.c).  Above every
 * folder, as main.c: the one place that knows both the link and what
 * runs behind it.
 */
#ifndef LTT_SESSIOND_PRIVSEP_H
#define LTT_SESSIOND_PRIVSEP_H

#include <sys/types.h>

struct ltt_consumer_config;

/**
 * ltt_privsep_consumers() - the consumers the privileged part spawns
 * (CONSUMER_SPAWN): @cfg's program and options (copied; its path
 * borrowed), set before ltt_priv_start(), never chosen by a request
 */
void ltt_privsep_consumers(const struct ltt_consumer_config *cfg);

/**
 * ltt_privsep_rundir() - the run directory of a daemon that drops root's
 * rights (ltt_priv_drop()): its sockets and pid file, which it can't
 * remove then, are removed by the privileged part when it ends, if the
 * pid file names the daemon; set before ltt_priv_start()
 */
void ltt_privsep_rundir(const char *path);

/**
 * ltt_privsep_serve() - the privileged process's life (ltt_priv_start()'s
 * @serve): serve @fd until it closes, then release every kernel object
 * @daemon: the daemon's pid, which the tracefs instances are named after
 *
 * Returns the process's exit status.
 */
int ltt_privsep_serve(int fd, pid_t daemon);

#endif /* LTT_SESSIOND_PRIVSEP_H */
