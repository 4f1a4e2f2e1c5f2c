/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ftrace.h - map of src/common/ftrace, the kernel's own trace events
 * (tracefs): what the session daemon sets up and the consumer daemon
 * converts to ltt's CTF.
 *
 *   ftrace.h              this map
 *   ftrace-conv.[ch]      the kernel's ring-buffer pages converted to CTF
 *                         packets, event by event
 *   ftrace-conv-setup.c   a converter made and told its events, filters,
 *                         contexts and task table
 *   ftrace-map.[ch]       the events a tracefs channel records, shared by
 *                         the session daemon (setup) and the consumer
 *   ftrace-prefilter.[ch] what of an event's filter the kernel can run
 *                         itself, before the conversion's own check
 *   ftrace-tasks.[ch]     the task table the conversion keeps (names,
 *                         pids) for the events' contexts
 *   ftrace-format.[ch]    the layout of an event's fields, read from its
 *                         tracefs format file
 *   ftrace-names.[ch]     the tag (pid, PID namespace) in the names of a
 *                         daemon's instances and probe groups
 */
#ifndef LTT_COMMON_FTRACE_FTRACE_H
#define LTT_COMMON_FTRACE_FTRACE_H
#endif /* LTT_COMMON_FTRACE_FTRACE_H */
