// SPDX-License-Identifier: LGPL-2.1-only
/*
 * retire.c - what the fast path may still see, freed once it cannot: the
 * target arrays, filter sets, channels and notifiers that the other
 * modules queued on a struct ust_retire (ust.h), after a grace period.
 */
#include "ust/rcu.h"
#include "ust/notify.h"
#include "ust/ust.h"

void ust_retire_flush(struct ust_retire *retire)
{
	struct ust_targets *t, *tnext;
	struct ust_channel *c, *cnext;
	struct ust_filters *f, *fnext;
	struct ust_notifier *n, *nnext;

	if (!retire->targets && !retire->channels && !retire->filters && !retire->notifiers)
		return;
	/*
	 * Waiting for ourselves would never end, and a grace period the
	 * kernel refused a fence for proves nothing: leak instead.
	 */
	if (ust_rcu_read_ongoing() || !ust_rcu_synchronize()) {
		ust_debug("a grace period could not be waited for: %s kept",
			  "retired targets and channels");
		*retire = (struct ust_retire)UST_RETIRE_INIT;
		return;
	}
	/* no probe can count a drop any more: the notifiers' last counts */
	ust_notifiers_flush_retired(retire->notifiers);
	for (t = retire->targets; t; t = tnext) {
		tnext = t->retired_next;
		ust_targets_free(t);
	}
	for (f = retire->filters; f; f = fnext) {
		fnext = ust_filters_next_retired(f);
		ust_filters_free(f);
	}
	retire->filters = NULL;
	for (c = retire->channels; c; c = cnext) {
		cnext = c->retired_next;
		ust_channel_destroy(c);
	}
	for (n = retire->notifiers; n; n = nnext) {
		nnext = ust_notifier_next_retired(n);
		ust_notifier_destroy(n);
	}
	retire->targets = NULL;
	retire->channels = NULL;
	retire->notifiers = NULL;
}
