// SPDX-License-Identifier: GPL-2.0-only
/*
 * prio.c - each data thread's scheduling (see prio.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/log.h"
#include "consumerd/data/prio.h"

#define PRIO_FIFO_PRIORITY 1
#define PRIO_NICE -10
#define PRIO_SLICE_NS 100000u	/* EEVDF's minimum custom slice: 0.1 ms */

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

/* The kernel's struct sched_attr, first version (48 bytes). */
struct prio_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;		/* SCHED_OTHER since Linux 6.12: the slice */
	uint64_t sched_deadline;
	uint64_t sched_period;
};

#define PRIO_FLAG_RESET_ON_FORK 0x01

/*
 * A short slice for a SCHED_OTHER thread at @nice.  Kernels before 6.12
 * ignore sched_runtime for this policy, which is harmless.
 */
static int short_slice(int nice)
{
#ifdef SYS_sched_setattr
	struct prio_sched_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = SCHED_OTHER;
	attr.sched_flags = PRIO_FLAG_RESET_ON_FORK;
	attr.sched_nice = nice;
	attr.sched_runtime = PRIO_SLICE_NS;
	if (syscall(SYS_sched_setattr, 0, &attr, 0))
		return -errno;
	return 0;
#else
	(void)nice;
	return -ENOSYS;
#endif
}

/*
 * What the calling data thread has, set by its own calls: scheduling is
 * per thread, and so is this (each data thread has its own).
 */
static _Thread_local enum ltt_prio_granted granted = LTT_PRIO_DEFAULT;

/* SCHED_OTHER at nice -10 with a short slice, as far as granted. */
static enum ltt_prio_granted raise_nice(void)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int ret, nice;

	ret = setpriority(PRIO_PROCESS, (id_t)tid, PRIO_NICE);
	if (ret)
		LTT_DBG("data thread: nice %d not granted: %s", PRIO_NICE, strerror(errno));
	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)tid);
	if (nice == -1 && errno)
		nice = 0;
	if (short_slice(nice) < 0)
		LTT_DBG("data thread: no short slice: %s", strerror(errno));
	return ret ? LTT_PRIO_DEFAULT : LTT_PRIO_NICE;
}

enum ltt_prio_granted ltt_prio_raise(void)
{
	struct sched_param sp = { .sched_priority = PRIO_FIFO_PRIORITY };

	/* pid 0: the calling thread */
	if (!sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp)) {
		LTT_DBG("data thread: SCHED_FIFO priority %d", PRIO_FIFO_PRIORITY);
		granted = LTT_PRIO_FIFO;
		return granted;
	}
	LTT_DBG("data thread: SCHED_FIFO not granted (%s): nice %d", strerror(errno), PRIO_NICE);
	granted = raise_nice();
	return granted;
}

void ltt_prio_timer(const char *chan_name, uint32_t period_us)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (!period_us || period_us >= LTT_PRIO_MIN_FIFO_TIMER_US || granted != LTT_PRIO_FIFO)
		return;
	if (sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &sp)) {
		LTT_ERR("channel %s: a %" PRIu32 " us timer, and the data thread can't leave SCHED_FIFO: %s",
			chan_name, period_us, strerror(errno));
		return;
	}
	granted = raise_nice();
	LTT_WARN("channel %s: a timer of %" PRIu32 " us (under %u us): the data thread leaves SCHED_FIFO for nice %d, or such timers would keep it running",
		 chan_name, period_us, LTT_PRIO_MIN_FIFO_TIMER_US, PRIO_NICE);
}
