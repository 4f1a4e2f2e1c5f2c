// SPDX-License-Identifier: LGPL-2.1-only
/*
 * show_maps.c - lttctl show-maps: the counters of a session's map
 * channels, each key's value per user, summed over the CPUs (doc/maps.md).
 * LTTng 2.16's filters, sorts and aggregations are refused with their
 * sentence: export-maps and sqlite3 do them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/lttng-gap.h"
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_SESSION, NR_VALS };

/* How map @a keeps its counters: "kernel", "user" or "process". */
static const char *per_of(const struct ltt_map_attr *a)
{
	return a->ownership == LTT_MAP_OWNER_KERNEL ? "kernel" :
	       a->ownership == LTT_MAP_OWNER_PROCESS ? "process" : "user";
}

int ctl_maps_fetch(const struct ctl_ctx *ctx, const char *given, char *session_buf,
		   size_t len, const char **ret_session, struct ltt_map_desc **ret_maps,
		   size_t *ret_count)
{
	struct ltt_ctl *ctl;
	int ret;

	ret = ctl_util_session_connect(ctx, given, session_buf, len, ret_session, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_list_maps(ctl, *ret_session, ret_maps, ret_count);
	if (ret) {
		ctl_report_error(ctl, *ret_session, ret);
		ret = CTL_EXIT_FAILURE;
	}
	ltt_ctl_disconnect(ctl);
	return ret;
}

int ctl_maps_list_one(struct ltt_ctl *ctl, const char *session, const char *map)
{
	struct ltt_map_desc *maps, *m = NULL;
	size_t n, i;
	int ret;

	if (ctl_out_format() == CTL_OUT_XML) {
		ctl_out_error(LTT_ERR_INVAL, "--map-channel has no place in LTTng 2.13's machine "
			      "interface, which --mi xml writes: use 'lttctl --mi xml show-maps -c %s'",
			      map);
		return CTL_EXIT_USAGE;
	}
	ret = ltt_ctl_list_maps(ctl, session, &maps, &n);
	if (ret) {
		ctl_report_error(ctl, session, ret);
		return CTL_EXIT_FAILURE;
	}
	for (i = 0; i < n && !m; i++)
		if (!strcmp(maps[i].attr.name, map))
			m = &maps[i];
	if (!m) {
		ctl_out_error(LTT_ERR_MAP_NOT_FOUND, "map channel '%s' of session %s: %s", map,
			      session, ltt_strerror(LTT_ERR_MAP_NOT_FOUND));
		ret = CTL_EXIT_FAILURE;
	} else {
		ctl_out_text("Map channel %s of session %s: %s, %s, %u of %u keys taken, "
			     "per %s%s, %s\n", m->attr.name, session,
			     m->attr.ownership == LTT_MAP_OWNER_KERNEL ? "kernel" : "user space",
			     ltt_map_value_type_name(m->attr.value_type), m->nr_keys,
			     m->attr.max_keys, per_of(&m->attr),
			     m->attr.dead_policy == LTT_MAP_DEAD_SUM ?
			     " (summed into the shared set once gone)" : "",
			     m->active ? "counting" : "not counting (the session is stopped)");
		if (m->key_overflow)
			ctl_out_text("  %" PRIu64 " events counted under no key\n", m->key_overflow);
	}
	ltt_ctl_maps_free(maps, n);
	return ret;
}

/* Entries by key, then by user, then by process (the shared set last). */
static int by_key(const void *a, const void *b)
{
	const struct ltt_map_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->uid != y->uid)
		return x->uid < 0 ? 1 : y->uid < 0 ? -1 : (x->uid > y->uid) - (x->uid < y->uid);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Whose @e (of map @m) is: "kernel", "1000" (a user), "1000/4242" (a
 * process of it), "shared".
 */
static const char *owner_of(const struct ltt_map_desc *m, const struct ltt_map_entry *e,
			    char *buf, size_t len)
{
	if (m->attr.ownership == LTT_MAP_OWNER_KERNEL)
		return "kernel";
	if (e->pid < 0)
		return "shared";
	if (e->pid)
		snprintf(buf, len, "%" PRId64 "/%" PRId64, e->uid, e->pid);
	else
		snprintf(buf, len, "%" PRId64, e->uid);
	return buf;
}

static void show_one(struct ltt_map_desc *m)
{
	uint32_t i;
	int w = 3;

	if (m->nr_entries)	/* entries is NULL without one, which qsort() may not take */
		qsort(m->entries, m->nr_entries, sizeof(*m->entries), by_key);
	for (i = 0; i < m->nr_entries; i++)
		if ((int)strlen(m->entries[i].key) > w)
			w = (int)strlen(m->entries[i].key);
	ctl_out_text("Map channel %s (%s, %s, %u of %u keys, per %s, %s):\n", m->attr.name,
		     m->attr.ownership == LTT_MAP_OWNER_KERNEL ? "kernel" : "user",
		     ltt_map_value_type_name(m->attr.value_type), m->nr_keys, m->attr.max_keys,
		     per_of(&m->attr),
		     m->active ? "counting" : "not counting: the session is stopped");
	if (m->nr_entries)
		ctl_out_text("  %-*s %20s %16s  %s\n", w, "Key", "Value", "Uid[/pid]",
			     "Overflow?");
	ctl_out_open("map_channel");
	ctl_out_str("name", m->attr.name);
	ctl_out_str("value_type", ltt_map_value_type_name(m->attr.value_type));
	ctl_out_u64("max_key_count", m->attr.max_keys);
	ctl_out_u64("key_overflow", m->key_overflow);
	ctl_out_open("counters");
	for (i = 0; i < m->nr_entries; i++) {
		const struct ltt_map_entry *e = &m->entries[i];
		char owner[48];

		ctl_out_text("  %-*s %20" PRId64 " %16s  %s\n", w, e->key, e->value,
			     owner_of(m, e, owner, sizeof(owner)), e->overflow ? "yes" : "");
		ctl_out_open("counter");
		ctl_out_str("key", e->key);
		ctl_out_i64("uid", e->uid);
		ctl_out_i64("pid", e->pid);
		ctl_out_i64("value", e->value);
		ctl_out_bool("overflow", e->overflow);
		ctl_out_close();
	}
	ctl_out_close();
	ctl_out_close();
	if (m->key_overflow)
		ctl_out_text("  %" PRIu64 " events counted under no key: the map keeps %u keys "
			     "(--max-key-count)\n", m->key_overflow, m->attr.max_keys);
}

/* Is @name one of the @nr channels asked for (all when none)? */
static bool asked(const char *name, const char *const *channels)
{
	size_t i;

	for (i = 0; channels && channels[i]; i++)
		if (!strcmp(channels[i], name))
			return true;
	return !channels;
}

/* What show-maps was asked. */
struct show_args {
	char *values[NR_VALS];
	const char **channels;		/* --channel, NULL-terminated; NULL: every one */
};

static int show(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct show_args *a = arg;
	const char *const *channels = a->channels;
	char **v = a->values;
	char current[LTT_NAME_MAX];
	struct ltt_map_desc *maps;
	const char *session, **args;
	size_t n, i, shown = 0;
	int nr = ctl_util_args(pc, &args);
	int ret = ctl_util_check_nr_args(ctx, args, nr, 0);

	if (ret)
		return ret;
	ret = ctl_maps_fetch(ctx, v[VAL_SESSION], current, sizeof(current), &session, &maps, &n);
	if (ret)
		return ret;
	ctl_out_open("map_channels");
	for (i = 0; i < n; i++) {
		if (!asked(maps[i].attr.name, channels))
			continue;
		ctl_out_text("%sSession %s, ", shown++ ? "\n" : "", session);
		show_one(&maps[i]);
	}
	ctl_out_close();
	for (i = 0; channels && channels[i] && !ret; i++) {
		size_t j;

		for (j = 0; j < n && strcmp(maps[j].attr.name, channels[i]); j++)
			;
		if (j == n) {
			ctl_out_error(LTT_ERR_MAP_NOT_FOUND, "map channel '%s' of session %s: %s",
				      channels[i], session, ltt_strerror(LTT_ERR_MAP_NOT_FOUND));
			ret = CTL_EXIT_FAILURE;
		}
	}
	if (!n)
		ctl_out_text("Session %s has no map channel\n", session);
	ltt_ctl_maps_free(maps, n);
	return ret;
}

#define VIEW_GAP(name, arg, help, what) \
	CTL_UTIL_GAP_OPTION(name, 0, arg, LTT_LTTNG_GAP_MAP_VIEW, help, what)

int cmd_show_maps(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct show_args a = { { 0 }, NULL };
	int ret;
	struct poptOption options[] = {
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "channel", 'c', POPT_ARG_ARGV, &a.channels, 0,
		  "only this map channel (repeat for more)", "CHANNEL" },
		VIEW_GAP("type", POPT_ARG_STRING, "LTTng's (refused: ltt's maps are user space)",
			 "TYPE"),
		VIEW_GAP("per", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "LEVEL"),
		VIEW_GAP("uid", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "USER"),
		VIEW_GAP("all-uids", POPT_ARG_NONE, "LTTng's (refused: export-maps)", NULL),
		VIEW_GAP("pid", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "PID"),
		VIEW_GAP("all-pids", POPT_ARG_NONE, "LTTng's (refused: export-maps)", NULL),
		VIEW_GAP("shared", POPT_ARG_NONE, "LTTng's (refused: export-maps)", NULL),
		VIEW_GAP("system", POPT_ARG_NONE, "LTTng's (refused: export-maps)", NULL),
		VIEW_GAP("part-id", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "ID"),
		VIEW_GAP("cpu-id", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "ID"),
		VIEW_GAP("key", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "KEY"),
		VIEW_GAP("key-glob", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "GLOB"),
		VIEW_GAP("non-init-values", POPT_ARG_NONE, "LTTng's (refused: export-maps)", NULL),
		VIEW_GAP("sort-by", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "WHAT"),
		VIEW_GAP("sort-order", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "ORDER"),
		VIEW_GAP("limit", POPT_ARG_STRING, "LTTng's (refused: export-maps)", "COUNT"),
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, show, &a);
	ctl_util_free_argv(a.channels);
	return ret;
}
