/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fault.h - a test's fault point in the command thread: the consumer
 * stops itself (SIGSTOP) on a command it has read and not yet run, so a
 * test can kill it, or keep it stopped, exactly there.
 *
 * LTT_CONSUMERD_FAULT="stop COMMAND FILE": on receiving COMMAND (its
 * name, e.g. ROTATE_TRACE), a consumer that can remove FILE stops.
 * Removing the file makes it one-shot, across the consumers a session
 * daemon spawns in turn.  Unset, it costs one test per command.
 */
#ifndef LTT_CONSUMERD_FAULT_H
#define LTT_CONSUMERD_FAULT_H

/**
 * ltt_fault_command() - the fault point before command @name runs;
 * command thread
 */
void ltt_fault_command(const char *name);

#endif /* LTT_CONSUMERD_FAULT_H */
