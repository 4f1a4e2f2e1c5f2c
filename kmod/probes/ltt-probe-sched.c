// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-sched.c - scheduler events, named and shaped as LTTng's:
 * prio is the task's prio minus MAX_RT_PRIO (0..39 for normal tasks,
 * negative for real-time ones), tid the thread id, pid the process id.
 */
#include <linux/binfmts.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>

#include "../wrapper/ltt-probe-wrapper.h"	/* before the trace header */
#include <trace/events/sched.h>

#include "../ltt-event.h"

/* A task's priority as LTTng shows it. */
static inline int sched_prio(const struct task_struct *p)
{
	return p->prio - MAX_RT_PRIO;
}

LTT_TRACEPOINT_EVENT(sched_switch, sched_switch,
	LTT_PROTO(bool preempt, struct task_struct *prev, struct task_struct *next,
		  unsigned int prev_state),
	LTT_FIELDS(
		ltt_field_array_text(prev_comm, prev->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, prev_tid, prev->pid)
		ltt_field_integer(s32, prev_prio, sched_prio(prev))
		ltt_field_integer(s64, prev_state,
				  ltt_sched_switch_state(preempt, prev_state, prev))
		ltt_field_array_text(next_comm, next->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, next_tid, next->pid)
		ltt_field_integer(s32, next_prio, sched_prio(next))));

#define SCHED_WAKEUP_EVENT(name) \
	LTT_TRACEPOINT_EVENT(name, name, \
		LTT_PROTO(struct task_struct *p), \
		LTT_FIELDS( \
			ltt_field_array_text(comm, p->comm, TASK_COMM_LEN) \
			ltt_field_integer(s32, tid, p->pid) \
			ltt_field_integer(s32, prio, sched_prio(p)) \
			ltt_field_integer(s32, target_cpu, task_cpu(p))))

SCHED_WAKEUP_EVENT(sched_waking);
SCHED_WAKEUP_EVENT(sched_wakeup);
SCHED_WAKEUP_EVENT(sched_wakeup_new);

LTT_TRACEPOINT_EVENT(sched_migrate_task, sched_migrate_task,
	LTT_PROTO(struct task_struct *p, int dest_cpu),
	LTT_FIELDS(
		ltt_field_array_text(comm, p->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, tid, p->pid)
		ltt_field_integer(s32, prio, sched_prio(p))
		ltt_field_integer(s32, orig_cpu, task_cpu(p))
		ltt_field_integer(s32, dest_cpu, dest_cpu)));

#define SCHED_PROCESS_FIELDS \
	ltt_field_array_text(comm, p->comm, TASK_COMM_LEN) \
	ltt_field_integer(s32, tid, p->pid) \
	ltt_field_integer(s32, prio, sched_prio(p))

#if LTT_HAVE_EXIT_GROUP_DEAD
LTT_TRACEPOINT_EVENT(sched_process_exit, sched_process_exit,
	LTT_PROTO(struct task_struct *p, bool group_dead),
	LTT_FIELDS(
		SCHED_PROCESS_FIELDS
		ltt_field_integer(u8, group_dead, group_dead)));
#else
LTT_TRACEPOINT_EVENT(sched_process_exit, sched_process_exit,
	LTT_PROTO(struct task_struct *p),
	LTT_FIELDS(SCHED_PROCESS_FIELDS));
#endif
LTT_TRACEPOINT_EVENT(sched_process_free, sched_process_free,
	LTT_PROTO(struct task_struct *p),
	LTT_FIELDS(SCHED_PROCESS_FIELDS));

/* The waiter is current; @pid is what it waits for (NULL: any child). */
LTT_TRACEPOINT_EVENT(sched_process_wait, sched_process_wait,
	LTT_PROTO(struct pid *pid),
	LTT_FIELDS(
		ltt_field_array_text(comm, current->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, tid, pid_nr(pid))
		ltt_field_integer(s32, prio, sched_prio(current))));

LTT_TRACEPOINT_EVENT(sched_process_fork, sched_process_fork,
	LTT_PROTO(struct task_struct *parent, struct task_struct *child),
	LTT_FIELDS(
		ltt_field_array_text(parent_comm, parent->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, parent_tid, parent->pid)
		ltt_field_integer(s32, parent_pid, parent->tgid)
		ltt_field_array_text(child_comm, child->comm, TASK_COMM_LEN)
		ltt_field_integer(s32, child_tid, child->pid)
		ltt_field_integer(s32, child_pid, child->tgid)));

LTT_TRACEPOINT_EVENT(sched_process_exec, sched_process_exec,
	LTT_PROTO(struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm),
	LTT_FIELDS(
		ltt_field_string(filename, bprm->filename)
		ltt_field_integer(s32, tid, p->pid)
		ltt_field_integer(s32, old_tid, old_pid)));

LTT_PROBE(sched, NULL, NULL,
	  LTT_EVENT_DESC(sched_switch),
	  LTT_EVENT_DESC(sched_waking),
	  LTT_EVENT_DESC(sched_wakeup),
	  LTT_EVENT_DESC(sched_wakeup_new),
	  LTT_EVENT_DESC(sched_migrate_task),
	  LTT_EVENT_DESC(sched_process_exit),
	  LTT_EVENT_DESC(sched_process_free),
	  LTT_EVENT_DESC(sched_process_wait),
	  LTT_EVENT_DESC(sched_process_fork),
	  LTT_EVENT_DESC(sched_process_exec));
