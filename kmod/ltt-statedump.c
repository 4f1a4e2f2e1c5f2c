// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-statedump.c - the state dump at START, and again at STATEDUMP (1.6):
 * lttng_statedump_start, one lttng_statedump_process_state per thread,
 * lttng_statedump_end, recorded only into the channels of the session being
 * started (or asking) that enabled them.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "ltt-event.h"

LTT_EVENT_FLAGS(lttng_statedump_start, LTT_EVENT_STATEDUMP,
	LTT_PROTO(int unused),
	LTT_FIELDS());

LTT_EVENT_FLAGS(lttng_statedump_end, LTT_EVENT_STATEDUMP,
	LTT_PROTO(int unused),
	LTT_FIELDS());

LTT_EVENT_FLAGS(lttng_statedump_process_state, LTT_EVENT_STATEDUMP,
	LTT_PROTO(struct task_struct *t, pid_t ppid),
	LTT_FIELDS(
		ltt_field_integer(s32, tid, t->pid)
		ltt_field_integer(s32, pid, t->tgid)
		ltt_field_integer(s32, ppid, ppid)
		ltt_field_array_text(name, t->comm, TASK_COMM_LEN)));

static void dump_processes(void)
{
	struct task_struct *p, *t;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		pid_t ppid = task_tgid_nr(rcu_dereference(t->real_parent));

		ltt_event_call(lttng_statedump_process_state, t, ppid);
	}
	rcu_read_unlock();
}

/**
 * ltt_statedump_run() - record the state dump for @session
 *
 * Context: ltt_mutex held (one dump at a time), process context, the
 * session's channels active.  Does nothing when no channel of @session
 * enabled a state dump event.
 */
void ltt_statedump_run(struct ltt_session *session)
{
	lockdep_assert_held(&ltt_mutex);
	if (!ltt_event_enabled_in_session(LTT_EVENT_DESC(lttng_statedump_start), session) &&
	    !ltt_event_enabled_in_session(LTT_EVENT_DESC(lttng_statedump_end), session) &&
	    !ltt_event_enabled_in_session(LTT_EVENT_DESC(lttng_statedump_process_state), session))
		return;
	WRITE_ONCE(ltt_statedump_session, session);
	ltt_event_call(lttng_statedump_start, 0);
	dump_processes();
	ltt_event_call(lttng_statedump_end, 0);
	WRITE_ONCE(ltt_statedump_session, NULL);
}

LTT_PROBE(statedump, NULL, NULL,
	  LTT_EVENT_DESC(lttng_statedump_start),
	  LTT_EVENT_DESC(lttng_statedump_end),
	  LTT_EVENT_DESC(lttng_statedump_process_state));
