// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracker.c - unit tests of src/sessiond/model/tracker.c: the inclusion
 * sets of process trackers and their all/none/set states.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sessiond/model/tracker.h"
#include "tests/unit/tap.h"

/* "A B C" of @t's set, or "all" / "none". */
static const char *show(const struct ltt_tracker *t)
{
	static char buf[256];
	size_t i, n = 0;

	if (t->policy != LTT_TRACKER_SET)
		return t->policy == LTT_TRACKER_ALL ? "all" : "none";
	buf[0] = '\0';
	for (i = 0; i < t->nr; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? " " : "", t->ids[i]);
	return buf;
}

/* Apply an edit to *@t (replacing it on success); the result code. */
static int edit(struct ltt_tracker *t, bool add, const uint32_t *ids, size_t nr, bool *changed)
{
	struct ltt_tracker n;
	int ret = ltt_tracker_edit(t, add, ids, nr, &n, changed);

	if (!ret) {
		ltt_tracker_fini(t);
		*t = n;
	}
	return ret;
}

static void test_edit(void)
{
	struct ltt_tracker t = { .policy = LTT_TRACKER_ALL };
	static const uint32_t a[] = { 30, 10, 20, 10 }, r[] = { 20, 99 }, one[] = { 5 };
	bool changed[4];

	tap_is_int(edit(&t, false, one, 1, changed), -EPERM, "removing from 'all': -EPERM");
	tap_is_str(show(&t), "all", "... 'all' unchanged");
	tap_is_int(edit(&t, true, a, 4, changed), 0, "track 30,10,20,10 on 'all'");
	tap_is_str(show(&t), "10 20 30", "the set only, in order, once each");
	tap_ok(changed[0] && changed[1] && changed[2] && !changed[3], "the repeated 10 did not change it");
	tap_ok(ltt_tracker_has(&t, 20) && !ltt_tracker_has(&t, 25), "has 20, not 25");
	tap_is_int(edit(&t, false, r, 2, changed), 0, "untrack 20,99");
	tap_is_str(show(&t), "10 30", "20 gone");
	tap_ok(changed[0] && !changed[1], "99 was not there: unchanged");
	tap_is_int(edit(&t, false, (const uint32_t[]){ 10, 30 }, 2, changed), 0, "untrack the rest");
	tap_is_str(show(&t), "none", "an emptied set includes no process");
	tap_is_int(edit(&t, false, one, 1, changed), -EPERM, "removing from 'none': -EPERM");
	tap_is_int(edit(&t, true, one, 1, changed), 0, "track 5 on 'none'");
	tap_is_str(show(&t), "5", "'none' then track: that id only");
	ltt_tracker_fini(&t);
	tap_is_str(show(&t), "all", "fini: every process again");
}

static void test_limit(void)
{
	struct ltt_tracker t = { .policy = LTT_TRACKER_ALL };
	uint32_t *ids = calloc(LTT_TRACKER_MAX_IDS + 1, sizeof(*ids));
	bool *changed = calloc(LTT_TRACKER_MAX_IDS + 1, sizeof(*changed));
	size_t i;

	if (!ids || !changed)
		abort();
	for (i = 0; i <= LTT_TRACKER_MAX_IDS; i++)
		ids[i] = (uint32_t)(LTT_TRACKER_MAX_IDS - i);
	tap_is_int(edit(&t, true, ids, LTT_TRACKER_MAX_IDS + 1, changed), -ENOSPC,
		   "1025 ids at once: -ENOSPC");
	tap_is_int(edit(&t, true, ids, LTT_TRACKER_MAX_IDS, changed), 0, "1024 ids: taken");
	tap_is_int(t.nr, LTT_TRACKER_MAX_IDS, "... all of them");
	tap_ok(t.ids[0] == 1 && t.ids[LTT_TRACKER_MAX_IDS - 1] == LTT_TRACKER_MAX_IDS,
	       "... sorted");
	tap_is_int(edit(&t, true, ids + LTT_TRACKER_MAX_IDS, 1, changed), -ENOSPC,
		   "one more: -ENOSPC");
	tap_is_int(t.nr, LTT_TRACKER_MAX_IDS, "... and the set is unchanged");
	tap_is_int(edit(&t, true, ids, 1, changed), 0, "one already there: fine");
	ltt_tracker_fini(&t);
	free(ids);
	free(changed);
}

static void test_include(void)
{
	struct ltt_trackers tr = { 0 };
	struct ltt_tracker n;
	bool c[1];

	tap_ok(ltt_trackers_include(&tr, 1, 2, 3), "zeroed trackers include every process");
	ltt_tracker_edit(&tr.t[LTT_TRACKER_VUID], true, (const uint32_t[]){ 1000 }, 1, &n, c);
	tr.t[LTT_TRACKER_VUID] = n;
	tap_ok(ltt_trackers_include(&tr, 7, 1000, 3), "vuid 1000: its processes");
	tap_ok(!ltt_trackers_include(&tr, 7, 0, 3), "... not root's");
	tr.t[LTT_TRACKER_VGID].policy = LTT_TRACKER_NONE;
	tap_ok(!ltt_trackers_include(&tr, 7, 1000, 3), "vgid none: every tracker must include");
	ltt_trackers_fini(&tr);
	tap_ok(ltt_trackers_include(&tr, 7, 0, 3), "fini: all again");
}

int main(void)
{
	test_edit();
	test_limit();
	test_include();
	return tap_done();
}
