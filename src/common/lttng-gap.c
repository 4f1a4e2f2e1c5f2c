// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-gap.c - the sentences of what LTTng has and ltt does not (see
 * lttng-gap.h).
 */
#include <assert.h>
#include <stdio.h>

#include "common/lttng-gap.h"

static const struct {
	const char *what;	/* the thing, as a noun */
	const char *lttng;	/* how an LTTng user asks for it */
	const char *why;	/* what ltt does instead */
	const char *fix[2];	/* what to do: on the command line, in a file */
} gaps[LTT_LTTNG_NR_GAPS] = {
	[LTT_LTTNG_GAP_SHM_PATH] = {
		"a shared memory path", "lttng create --shm-path",
		"ltt places its buffers itself",
		{ "leave out --shm-path", "remove <shared_memory_path>" } },
	[LTT_LTTNG_GAP_BLOCKING_TIMEOUT] = {
		"a blocking timeout", "lttng enable-channel --blocking-timeout",
		"its applications never wait for room in a buffer (a full buffer "
		"drops the event and counts it)",
		{ "give --blocking-timeout=0 or leave it out", "set it to 0 or remove it" } },
	[LTT_LTTNG_GAP_MONITOR_TIMER] = {
		"a buffer usage sampling period under 50 ms", "lttng enable-channel --monitor-timer",
		"ltt samples the buffer usage of every channel every 50 ms, which meets any "
		"longer period",
		{ "give --monitor-timer=50ms or more, or leave it out",
		  "set monitor_timer_interval to 50000 or more, or remove it" } },
};

char *ltt_lttng_gap_sentence(enum ltt_lttng_gap gap, enum ltt_lttng_gap_where where, char *buf,
			     size_t len)
{
	assert(gap < LTT_LTTNG_NR_GAPS && len);
	snprintf(buf, len, "%s (%s) is not supported by ltt: %s; %s", gaps[gap].what,
		 gaps[gap].lttng, gaps[gap].fix[where == LTT_LTTNG_GAP_FILE], gaps[gap].why);
	return buf;
}
