/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-filter.h - event filters in the kernel tracer: the programs of one
 * event in one channel, set by EVENT_ENABLE_FILTERED / EVENT_SET_FILTER
 * (ltt-abi.h), validated and run by the same source as libltt-ust's
 * (src/filter-vm/filter-validate.c and filter-interp.c, objects of the
 * module: Kbuild).
 */
#ifndef LTT_FILTER_H
#define LTT_FILTER_H

#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "abi/ltt-abi.h"
#include "filter-vm/filter-vm.h"	/* struct ltt_filter_arg */

struct ltt_channel;
struct ltt_event_desc;
struct ltt_kfilter;

/**
 * ltt_kfilter_accept() - does any program of @f accept the event?
 * @f: the target's filter
 * @args: the event's field values, one per field, as the probe computed
 *        them (ltt-event.h)
 * @nr: how many
 *
 * The probe calls it before reserving.  Any context (NMI included),
 * preemption disabled; no allocation, no lock; about 800 bytes of stack.
 */
bool ltt_kfilter_accept(const struct ltt_kfilter *f, const struct ltt_filter_arg *args,
			unsigned int nr);

/**
 * ltt_filter_ioctl() - EVENT_ENABLE_FILTERED and EVENT_SET_FILTER of a
 * channel fd
 * @chan: the channel
 * @cmd: one of the two
 * @uarg: the user's struct ltt_kabi_event_filter
 *
 * Copies and checks the argument and the programs (limits, reserved
 * words), validates each program against the event's fields, then
 * enables the event with them or replaces its programs.  Context:
 * process, takes ltt_mutex.  Return: 0 or -errno (ltt-abi.h); nothing
 * changes on error.
 */
long ltt_filter_ioctl(struct ltt_channel *chan, unsigned int cmd, void __user *uarg);

/**
 * ltt_filter_get() - copy and check a struct ltt_kabi_event_filter and
 * its programs from user memory, as EVENT_ENABLE_FILTERED does
 * @a: filled
 * @uarg: the user's argument
 * @ret_filter: the programs (NULL when there are none), the caller's to
 *              publish or kvfree()
 *
 * Context: process.  Return: 0, -EINVAL, -EFAULT or -ENOMEM.
 */
int ltt_filter_get(struct ltt_kabi_event_filter *a, const void __user *uarg,
		   struct ltt_kfilter **ret_filter);

/**
 * ltt_kfilter_validate() - check every program of @f (NULL: none) against
 * @desc's fields
 *
 * Context: process, ltt_mutex held.  Return: 0, -EINVAL or -ENOMEM.
 */
int ltt_kfilter_validate(const struct ltt_kfilter *f, const struct ltt_event_desc *desc);

#endif /* LTT_FILTER_H */
