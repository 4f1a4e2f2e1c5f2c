/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * daemon.h - the map of daemon/: the process itself, above every other
 * folder (src/sessiond/sessiond.h lists them): what starts and stops it
 * and what only it knows.
 *
 * Its files:
 *   main.c          the process: run directory, daemonizing, signals, the
 *                   threads started and stopped in order
 *   options.[ch]    the command line: options, bounds, clock, backend, user
 *   autoload.[ch]   the sessions loaded at start (--load, autoload directories)
 *   rundir.[ch]     the run directory: permissions, lock file, pid file
 *   triggers.[ch]   the trigger runner: the actions of triggers that fired
 *   priv-table.[ch] the privileged part's table of allowed requests and
 *                   their handlers, run in the privileged process (root
 *                   daemon; priv/ is the link to it)
 *   daemon.h        this map
 *
 * Each header declares the functions of the file of its name.
 */
#ifndef LTT_SESSIOND_DAEMON_DAEMON_H
#define LTT_SESSIOND_DAEMON_DAEMON_H
#endif /* LTT_SESSIOND_DAEMON_DAEMON_H */
