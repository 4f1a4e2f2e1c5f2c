/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-filter.h - filters and exclusions of kernel rules: the checks of
 * a rule's filter against what the kernel tracer can run, and each
 * event's programs, compiled from its fields as the tracer describes them
 * (LTT_KABI_EVENT_DESC) by the rule matching of ust-filter.c, set with
 * EVENT_ENABLE_FILTERED / EVENT_SET_FILTER (kernel ABI 1.3).
 */
#ifndef LTT_SESSIOND_KERNEL_FILTER_H
#define LTT_SESSIOND_KERNEL_FILTER_H

#include <stdbool.h>

#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/model/rule-filter.h"

/**
 * ltt_kernel_filter_check_rule() - may the kernel domain take @attr's
 * filter?  Refused: a tracer older than kernel ABI 1.3
 * (LTT_ERR_FILTER_KERNEL_MODULE), a float literal (FILTER_KERNEL_FLOAT),
 * $app or a $ctx the kernel lacks (FILTER_KERNEL_CONTEXT), and, when the
 * pattern names one event, a type error against its fields
 * (FILTER_KERNEL_TYPE; the daemon logs the expression with a caret).
 * A field the event lacks is not an error: the rule takes no event then,
 * as in LTTng.  Any thread (asks the tracer for the event's fields).
 */
enum ltt_error_code ltt_kernel_filter_check_rule(struct ltt_kernel *k,
						 const struct ltt_rule_conf *attr);

/**
 * ltt_kernel_event_apply() - have the tracer record event @ev in @kc as
 * @wanted says, with the programs of the channel's rules that take it: a
 * rule whose filter does not apply to the event (a field it lacks, of
 * another type) does not take it; any rule without filter: no program.
 * Enables with EVENT_ENABLE(_FILTERED), replaces the programs with
 * EVENT_SET_FILTER when they changed, disables.
 *
 * Session lock held.  Returns 0 or the tracer's -errno (logged; -ENOTTY
 * or -EINVAL from an older module: reload it).
 */
int ltt_kernel_event_apply(struct ltt_kernel *k, struct kernel_chan *kc, struct kernel_event *ev,
			   bool wanted);

/**
 * ltt_kernel_rule_programs() - what the rules of @channel want of kernel
 * event @event, its fields as @kabi's tracer describes them (@k's own, or
 * the tracefs tracer of the kernel notifiers): ltt_rule_filters_get().
 * Release @f with ltt_ust_filters_fini().
 */
void ltt_kernel_rule_programs(const struct ltt_kernel *k, struct ltt_kabi *kabi,
			      const struct ltt_channel *channel, const char *event,
			      struct ltt_ust_filters *f);

#endif /* LTT_SESSIOND_KERNEL_FILTER_H */
