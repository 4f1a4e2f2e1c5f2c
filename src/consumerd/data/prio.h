/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prio.h - each data thread's scheduling: it must get a CPU within a
 * fraction of a millisecond of a writer's wakeup, or a writer that fills
 * the buffers meanwhile loses events.
 *
 * A consumer that may use a real-time policy runs each of its data
 * threads (up to 16 by default, doc/consumerd.md "Keeping up") in
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

#include <stdint.h>

/*
 * Timers more frequent than this keep a data thread busy without data
 * (each expiry flushes and reads every stream of the channel): measured,
 * 10 us timers took 97% of a CPU in SCHED_FIFO, 32% at nice -10.
 */
#define LTT_PRIO_MIN_FIFO_TIMER_US 100u

enum ltt_prio_granted {
	LTT_PRIO_FIFO = 0,	/* SCHED_FIFO, priority 1 */
	LTT_PRIO_NICE = 1,	/* SCHED_OTHER with nice -10 (and a short slice if the
				 * kernel has them) */
	LTT_PRIO_DEFAULT = 2,	/* nothing was granted: as it was */
};

/**
 * ltt_prio_raise() - give the calling thread the data thread's scheduling
 *
 * Call from each data thread itself, once, before its loop.  The policy is
 * reset in children (SCHED_RESET_ON_FORK), though the data thread forks
 * none.  Failures are not errors: the thread keeps what it had, and the
 * return value says what it got (logged at debug level).
 * Returns an enum ltt_prio_granted.
 */
enum ltt_prio_granted ltt_prio_raise(void);

/**
 * ltt_prio_timer() - a channel with a timer of @period_us starts
 * @chan_name: for the log (borrowed)
 * @period_us: the switch or read timer's period, 0 for none
 *
 * Data thread only (each that runs a part of the channel), after
 * ltt_prio_raise().  A period under
 * LTT_PRIO_MIN_FIFO_TIMER_US makes that SCHED_FIFO data thread leave the
 * real-time policy for the rest of its life (nice -10 and a short slice,
 * as granted), with a warning: such timers would keep it running, and a
 * real-time thread that never sleeps starves the CPU's other tasks.
 */
void ltt_prio_timer(const char *chan_name, uint32_t period_us);

#endif /* LTT_CONSUMERD_PRIO_H */
