// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-user.c - copies of user memory for probe field expressions.
 *
 * A probe's fields are evaluated with preemption disabled, where a page
 * fault cannot be served: user strings are copied with page faults
 * disabled (a fault fails the copy instead of sleeping; the kernel does
 * not export strncpy_from_user_nofault() to modules) into per-CPU
 * scratch buffers, one per
 * string of an event (its "slot").  Strings whose pages are not resident
 * are recorded as "(fault)", which is rare at system call entry: the
 * caller has just written them.
 */
#include <linux/percpu.h>
#include <linux/uaccess.h>

#include "../ltt-tracer.h"
#include "ltt-user.h"

struct ltt_user_scratch {
	char str[LTT_USER_STR_SLOTS][LTT_STRING_MAX];
};

static struct ltt_user_scratch __percpu *scratch;

/**
 * ltt_user_init() - allocate the per-CPU scratch buffers
 *
 * Context: process context, at module load (a probe's init).
 * Return: 0 or -ENOMEM.
 */
int ltt_user_init(void)
{
	scratch = alloc_percpu(struct ltt_user_scratch);
	return scratch ? 0 : -ENOMEM;
}

/**
 * ltt_user_exit() - free them
 *
 * Context: process context, no probe running (module unload).
 */
void ltt_user_exit(void)
{
	free_percpu(scratch);
	scratch = NULL;
}

/**
 * ltt_user_string() - copy the NUL-terminated user string at @uaddr
 * @uaddr: a user address (0: "(null)")
 * @slot: which of this CPU's LTT_USER_STR_SLOTS buffers to use: distinct
 *        for each string of one event
 *
 * Context: preemption disabled, process context (a system call's
 * tracepoint), never reentered on this CPU for the same slot while the
 * result is in use: the buffer is this CPU's.  Never faults, never sleeps.
 * Return: the copy (at most LTT_STRING_MAX - 1 bytes kept), "(null)" or
 * "(fault)"; valid until preemption is enabled again.
 */
const char *ltt_user_string(unsigned long uaddr, unsigned int slot)
{
	char *buf;
	long n;

	if (!uaddr)
		return "(null)";
	if (WARN_ON_ONCE(slot >= LTT_USER_STR_SLOTS || !scratch))
		return "(fault)";
	buf = this_cpu_ptr(scratch)->str[slot];
	pagefault_disable();
	n = strncpy_from_user(buf, (const char __user *)uaddr, LTT_STRING_MAX);
	pagefault_enable();
	if (n < 0)
		return "(fault)";
	buf[min_t(long, n, LTT_STRING_MAX - 1)] = '\0';
	return buf;
}
