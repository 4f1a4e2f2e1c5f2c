// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-gap.c - the sentences of what LTTng has and ltt does not (see
 * lttng-gap.h).
 */
#include <assert.h>
#include <stdio.h>

#include "common/model/lttng-gap.h"

static const struct {
	const char *what;	/* the thing, as a noun */
	const char *lttng;	/* how an LTTng user asks for it */
	const char *why;	/* what ltt does instead */
	const char *fix[2];	/* what to do: on the command line, in a file */
} gaps[LTT_LTTNG_NR_GAPS] = {
	[LTT_LTTNG_GAP_MONITOR_TIMER] = {
		"a buffer usage sampling period under 50 ms", "lttng enable-channel --monitor-timer",
		"ltt samples the buffer usage of every channel every 50 ms, which meets any "
		"longer period",
		{ "give --monitor-timer=50ms or more, or leave it out",
		  "set monitor_timer_interval to 50000 or more, or remove it" } },
	[LTT_LTTNG_GAP_TRIGGER_PROBE] = {
		"a probe rule of that spelling", "lttng add-trigger --type=probe, function, "
		"kernel:function, uprobe or userspace-probe",
		"its probe rules are LTTng 2.13's, kernel:kprobe and kernel:uprobe (a function's "
		"entry and return: enable-event --function)",
		{ "give --type=kernel:kprobe --location=SYMBOL[+OFFSET] (or 0xADDR), or "
		  "--type=kernel:uprobe --location=[elf:]PATH:FUNCTION", "" } },
	[LTT_LTTNG_GAP_TRIGGER_OWNER] = {
		"removing another user's trigger", "lttng remove-trigger --owner-uid",
		"ltt-sessiond lets only root remove another user's trigger, and only one whose "
		"name no other trigger has",
		{ "run 'lttctl remove-trigger NAME' as that user", "" } },
	[LTT_LTTNG_GAP_KERNEL_PERF] = {
		"a perf counter context in the kernel domain", "lttng add-context -k -t perf:...",
		"its perf counters are read by the programs, thread by thread",
		{ "add the counter to a user-space channel instead (-u -t perf:thread:...)",
		  "move this <context> to a UST channel or remove it" } },
	[LTT_LTTNG_GAP_APP_CONTEXT] = {
		"an application-specific context", "lttng add-context -t '$app.PROVIDER:TYPE'",
		"its contexts are those 'lttctl add-context --list' shows",
		{ "record the value as a field of the program's tracepoints instead",
		  "remove this <context>" } },
	[LTT_LTTNG_GAP_CALLSTACK] = {
		"a call stack context", "lttng add-context -t callstack-user or callstack-kernel",
		"it records no stacks with its events",
		{ "leave the type out ('lttctl add-context --list' shows the contexts ltt has)",
		  "remove this <context>" } },
	[LTT_LTTNG_GAP_LOG4J2] = {
		"an Apache Log4j 2 domain", "lttng enable-event, disable-event, add-context or "
		"list --log4j2, add-trigger --type=log4j2:logging or --domain=log4j2",
		"its Java domains are java.util.logging (-j) and log4j 1.x (-l), which LTTng's "
		"JUL and log4j agents feed",
		{ "record the loggers through LTTng's log4j 1.x agent with -l/--log4j, or "
		  "java.util.logging with -j/--jul", "remove the channels of the LOG4J2 <domain>" } },
	[LTT_LTTNG_GAP_PER_CHANNEL] = {
		"one ring buffer for a whole kernel channel",
		"lttng enable-channel --kernel --buffer-allocation=per-channel",
		"its kernel backends' buffers (the module's and tracefs's) are per CPU, written "
		"without a lock (one buffer for every CPU serialises its writers: bench/README.md); "
		"user-space channels (-u) take per-channel",
		{ "give --buffer-allocation=per-cpu or leave it out for the kernel channel",
		  "set the kernel channel's <allocation_policy> to PER_CPU or remove it" } },
	[LTT_LTTNG_GAP_MAPS] = {
		"a map channel in an LTTng session file", "<map_channels> in a session file",
		"it saves map channels in its own session files",
		{ "add the map channels with 'lttctl add-map-channel --type=user'",
		  "remove <map_channels> and add the map channels with 'lttctl add-map-channel "
		  "--type=user' after the load" } },
	[LTT_LTTNG_GAP_MAP_UPDATE] = {
		"a choice of map update policy", "lttng add-map-channel --update-policy",
		"each trigger whose rule takes an event adds 1 to its key, so two triggers counting "
		"one key of a map add 2",
		{ "leave --update-policy out", "remove <update_policy>" } },
	[LTT_LTTNG_GAP_MAP_VIEW] = {
		"a filter, sort or aggregation of show-maps", "lttng show-maps --type, --per, "
		"--uid, --pid, --all-uids, --all-pids, --shared, --system, --part-id, --cpu-id, "
		"--key, --key-glob, --non-init-values, --sort-by, --sort-order, --limit",
		"its show-maps prints every key of each map channel with its value per user, "
		"summed over the CPUs",
		{ "export the counters with 'lttctl export-maps' and query them with sqlite3 "
		  "(the vmap view)", "" } },
	[LTT_LTTNG_GAP_LIST_STYLE] = {
		"a choice of text layout", "lttng list or status --style=compact or breathe",
		"its list and status have one text layout, which names are never truncated in",
		{ "leave --style out, or give --mi xml for a document a program reads", "" } },
};

char *ltt_lttng_gap_sentence(enum ltt_lttng_gap gap, enum ltt_lttng_gap_where where, char *buf,
			     size_t len)
{
	assert(gap < LTT_LTTNG_NR_GAPS && len);
	snprintf(buf, len, "%s (%s) is not supported by ltt: %s; %s", gaps[gap].what,
		 gaps[gap].lttng, gaps[gap].fix[where == LTT_LTTNG_GAP_FILE], gaps[gap].why);
	return buf;
}
