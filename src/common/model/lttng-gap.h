/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-gap.h - what LTTng has and ltt does not, in one sentence each: how
 * lttctl refuses one of LTTng's options and how "lttctl load" refuses the
 * same thing in an LTTng session file, from one table (lttng-gap.c).
 */
#ifndef LTT_COMMON_LTTNG_GAP_H
#define LTT_COMMON_LTTNG_GAP_H

#include <stddef.h>

enum ltt_lttng_gap {
	LTT_LTTNG_GAP_MONITOR_TIMER,	/* lttng enable-channel --monitor-timer under 50 ms */
	LTT_LTTNG_GAP_TRIGGER_PROBE,	/* add-trigger --type=probe|function|uprobe|... (not 2.13's) */
	LTT_LTTNG_GAP_TRIGGER_OWNER,	/* lttng remove-trigger --owner-uid (another user) */
	LTT_LTTNG_GAP_KERNEL_PERF,	/* lttng add-context -k -t perf:cpu:... or perf:thread:... */
	LTT_LTTNG_GAP_APP_CONTEXT,	/* lttng add-context -t '$app.PROVIDER:TYPE' */
	LTT_LTTNG_GAP_CALLSTACK,	/* lttng add-context -t callstack-user|callstack-kernel */
	LTT_LTTNG_GAP_LOG4J2,		/* lttng ... --log4j2 (2.14) */
	LTT_LTTNG_GAP_PER_CHANNEL,	/* lttng enable-channel -k --buffer-allocation=per-channel */
	LTT_LTTNG_GAP_MAPS,		/* <map_channels> in an LTTng session file (2.16) */
	LTT_LTTNG_GAP_MAP_UPDATE,	/* lttng add-map-channel --update-policy */
	LTT_LTTNG_GAP_MAP_VIEW,		/* lttng show-maps --per, --key, --sort-by, ... */
	LTT_LTTNG_GAP_LIST_STYLE,	/* lttng list or status --style (2.15) */
	LTT_LTTNG_NR_GAPS,
};

/*
 * The shortest --monitor-timer ltt meets: its session daemon samples the
 * buffer usage of every channel of an active session this often (us).
 */
#define LTT_LTTNG_MONITOR_PERIOD_US 50000

/* Where the user asked for it: what to do differs. */
enum ltt_lttng_gap_where {
	LTT_LTTNG_GAP_CLI,	/* an option of lttctl */
	LTT_LTTNG_GAP_FILE,	/* an element of an LTTng session file (load) */
};

/**
 * ltt_lttng_gap_sentence() - "WHAT (lttng OPTION) is not supported by ltt:
 * WHAT TO DO; WHY" for @gap asked for @where, into @buf (@len bytes, cut
 * to fit, always terminated)
 *
 * Returns @buf.
 */
char *ltt_lttng_gap_sentence(enum ltt_lttng_gap gap, enum ltt_lttng_gap_where where, char *buf,
			     size_t len);

#endif /* LTT_COMMON_LTTNG_GAP_H */
