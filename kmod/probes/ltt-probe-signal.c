// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-signal.c - signal generation and delivery, with LTTng's event
 * and field names.  For signals sent without a siginfo (SEND_SIG_NOINFO,
 * SEND_SIG_PRIV) errno is 0 and code SI_USER or SI_KERNEL, as the kernel's
 * own trace events show them.
 */
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <trace/events/signal.h>

#include "../ltt-event.h"

static inline int signal_errno(const struct kernel_siginfo *info)
{
	return info == SEND_SIG_NOINFO || info == SEND_SIG_PRIV ? 0 : info->si_errno;
}

static inline int signal_code(const struct kernel_siginfo *info)
{
	if (info == SEND_SIG_NOINFO)
		return SI_USER;
	if (info == SEND_SIG_PRIV)
		return SI_KERNEL;
	return info->si_code;
}

LTT_TRACEPOINT_EVENT(signal_generate, signal_generate,
	LTT_PROTO(int sig, struct kernel_siginfo *info, struct task_struct *task, int group,
		  int result),
	LTT_FIELDS(
		ltt_field_integer(s32, sig, sig)
		ltt_field_integer(s32, errno, signal_errno(info))
		ltt_field_integer(s32, code, signal_code(info))
		ltt_field_array_text(comm, task->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, pid, task->pid)
		ltt_field_integer(s32, group, group)
		ltt_field_integer(s32, result, result)));

LTT_TRACEPOINT_EVENT(signal_deliver, signal_deliver,
	LTT_PROTO(int sig, struct kernel_siginfo *info, struct k_sigaction *ka),
	LTT_FIELDS(
		ltt_field_integer(s32, sig, sig)
		ltt_field_integer(s32, errno, signal_errno(info))
		ltt_field_integer(s32, code, signal_code(info))
		ltt_field_integer_hex(u64, sa_handler, (unsigned long)ka->sa.sa_handler)
		ltt_field_integer_hex(u64, sa_flags, ka->sa.sa_flags)));

LTT_PROBE(signal, NULL, NULL,
	  LTT_EVENT_DESC(signal_generate),
	  LTT_EVENT_DESC(signal_deliver));
