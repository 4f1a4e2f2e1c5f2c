/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * base.h - map of src/common/base, what every process of ltt stands on:
 * diagnostics, errors, strings from users, containers, the event loop,
 * threads, sockets, files and daemon start-up.  It includes no other
 * wing of src/common.
 *
 *   base.h            this map
 *   durable.[ch]      files that survive a crash whole (replaced at once,
 *                     synced), with fault points
 *   fault.[ch]        fault points: where a test has a process killed or
 *                     stopped (LTT_FAULT)
 *   testpoint.[ch]    LTTng's test points (LTTNG_TESTPOINT_ENABLE), for
 *                     lttng-tools' own tests
 *   daemon.[ch]       what the daemons share to start: daemonizing, pid
 *                     files, the readiness signal; a child's bounded wait
 *   daemon-popt.h     their option loop over popt (inline: libcommon
 *                     links no popt)
 *   as-user.[ch]      a root daemon's thread working on files with a
 *                     user's ids and groups
 *   evloop.[ch]       the one event loop every serving thread runs: fds,
 *                     deadlines, a cross-thread wakeup
 *   heartbeat.[ch]    a loop's heartbeat: stuck threads, for health checks
 *   thread.[ch]       threads that take no signal, regions no signal
 *                     handler enters, and timed waits' deadlines
 *   sock.[ch]         Unix socket and fd I/O helpers
 *   paths.[ch]        where ltt keeps its files: home, run directories,
 *                     traces
 *   proc-status.[ch]  a number of a task's status file in /proc (Tgid,
 *                     NSpid), without allocation
 *   log.[ch]          leveled diagnostics on stderr, rate-limited
 *   module.[ch]       ltt's private modules, dlopen()ed on first use
 *   escape.[ch]       strings from users, programs and peers made safe to
 *                     print
 *   names.[ch]        the names users give (sessions, channels, events),
 *                     globs, UTF-8
 *   size.[ch]         sizes and counts as users write them ("4k", "1M")
 *   budget.[ch]       bytes a daemon buffers for each user, within one
 *                     budget per user
 *   codec.[ch]        bounded cursors, field tables and the encoder and
 *                     decoder that walk them; the one rule for trailing
 *                     bytes (every protocol's messages, and the model's
 *                     objects that travel in them)
 *   array.[ch]        arrays that grow by doubling
 *   dlist.h           doubly linked lists of structs with their own prev
 *                     and next (macros)
 *   name-index.[ch]   an index of names to positions in the caller's array
 *   errmap.[ch]       internal failures (negative errno) to public codes,
 *                     by table
 *   output-error.[ch] the public code of a trace output's failure
 *   error.c           names and messages of the public error codes, from
 *                     the table of <ltt/ltt-error.h>
 */
#ifndef LTT_COMMON_BASE_BASE_H
#define LTT_COMMON_BASE_BASE_H
#endif /* LTT_COMMON_BASE_BASE_H */
