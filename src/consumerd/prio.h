/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prio.h - the data thread's scheduling: it must get a CPU within a
 * fraction of a millisecond of a writer's wakeup, or a writer that fills
 * the buffers meanwhile loses events.
 *
 * A consumer that may use a real-time policy runs its data thread in
 * SCHED_FIFO at priority 1, the lowest: it preempts ordinary tasks as soon
 * as it wakes, and any real-time task of the system still preempts it.
 * Its work is bounded by the data the writers produce (it sleeps whenever
 * the buffers are empty), and the kernel's real-time throttling bounds it
 * further.  Otherwise it asks for nice -10 and a short time slice (kernels
 * with EEVDF's custom slices let a task with a short slice preempt at
 * wakeup).  doc/consumerd.md has the measurements behind this.
 */
#ifndef LTT_CONSUMERD_PRIO_H
#define LTT_CONSUMERD_PRIO_H

enum ltt_prio_granted {
	LTT_PRIO_FIFO = 0,	/* SCHED_FIFO, priority 1 */
	LTT_PRIO_NICE = 1,	/* SCHED_OTHER with nice -10 (and a short slice if the
				 * kernel has them) */
	LTT_PRIO_DEFAULT = 2,	/* nothing was granted: as it was */
};

/**
 * ltt_prio_raise() - give the calling thread the data thread's scheduling
 *
 * Call from the data thread itself, once, before its loop.  The policy is
 * reset in children (SCHED_RESET_ON_FORK), though the data thread forks
 * none.  Failures are not errors: the thread keeps what it had, and the
 * return value says what it got (logged at debug level).
 * Returns an enum ltt_prio_granted.
 */
enum ltt_prio_granted ltt_prio_raise(void);

#endif /* LTT_CONSUMERD_PRIO_H */
