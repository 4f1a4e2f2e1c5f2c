/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fault.h - fault points: where a test has a process killed or stopped at
 * a chosen phase, without racing it.  One mechanism for every daemon and
 * lttctl, driven by one environment variable:
 *
 *   LTT_FAULT="kill POINT[:N]"          SIGKILL to self the Nth time
 *                                       (default the first) POINT is reached
 *   LTT_FAULT="stop POINT[:N] [FILE]"   SIGSTOP to self there (a test then
 *                                       kills it or keeps it stopped)
 *   LTT_FAULT="hang POINT[:N] [FILE]"   the thread that reaches POINT blocks
 *                                       for good, the others run on (a
 *                                       stuck thread, for health checks)
 *   LTT_FAULT="delay POINT[:N] [FILE]"  the thread that reaches POINT sleeps
 *                                       LTT_FAULT_DELAY_MS, then goes on (a
 *                                       thread late to run: a race made
 *                                       certain)
 *
 * With FILE, the fault fires only in the process that removes FILE: once,
 * across the processes that inherit the variable (the consumers a session
 * daemon spawns in turn).  Points are named where they stand: "rotate-moved"
 * (ltt-sessiond), "replace-written" (any writer of a whole file), a
 * consumer command's protocol name ("ROTATE_TRACE", before it runs), ...
 * The variable is read once per process (secure_getenv(): never in a
 * set-user-ID program); unset, a point costs a test.
 */
#ifndef LTT_COMMON_FAULT_H
#define LTT_COMMON_FAULT_H

#include <stdbool.h>
#include <sys/types.h>

#define LTT_FAULT_DELAY_MS 1000	/* a "delay" fault's sleep */

/**
 * ltt_fault_due() - is this the time for the fault at @point?
 *
 * Counts one hit of @point.  Any thread; no lock.  A caller that must
 * leave its work half done first (as a SIGKILL inside a write() would)
 * does so, then calls ltt_fault_fire().
 */
bool ltt_fault_due(const char *point);

/**
 * ltt_fault_fire() - the fault: SIGKILL to self (never returns),
 * SIGSTOP to self (returns once continued), the thread blocked for good
 * or asleep LTT_FAULT_DELAY_MS (then returns), logged first
 */
void ltt_fault_fire(void);

/**
 * ltt_fault_with() - a fault in this process befalls @pid too, first:
 * a part of a daemon forked to do some of its work (ltt-sessiond's
 * privileged part) fails with it, as one process would
 */
void ltt_fault_with(pid_t pid);

/** ltt_fault_point() - ltt_fault_fire() when ltt_fault_due(@point) */
void ltt_fault_point(const char *point);

#endif /* LTT_COMMON_FAULT_H */
