// SPDX-License-Identifier: LGPL-2.1-only
/*
 * add_map_channel.c - lttctl add-map-channel: a map channel of a session,
 * counters that triggers' incr-map-value actions update in the programs
 * or, with --type=kernel, in the kernel
 * (doc/maps.md).  LTTng 2.16's command line; what ltt lacks of it is
 * refused with its sentence (lttng-gap.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/lttng-gap.h"
#include "common/model/map.h"
#include "common/base/names.h"
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_SESSION, VAL_TYPE, VAL_VALUE_TYPE, VAL_MAX_KEYS, VAL_OWNERSHIP, VAL_DEAD, NR_VALS };

/* --value-type's word as a type; 0 for a word that names none. */
static uint32_t value_type(const char *word)
{
	if (!word || !strcmp(word, "signed-int-64") || !strcmp(word, "signed-int-max"))
		return LTT_MAP_VALUE_S64;	/* signed-int-max: 64 bits on every host ltt runs */
	return strcmp(word, "signed-int-32") ? 0 : LTT_MAP_VALUE_S32;
}

/* @v's options as an attribute for map @name; CTL_GO_ON or the exit code of the error said. */
static int attr_of(const struct ctl_ctx *ctx, char **v, const char *name,
		   struct ltt_map_attr *ret)
{
	uint64_t keys = LTT_MAP_DEFAULT_KEYS;

	if (!v[VAL_TYPE])
		return ctl_util_usage_error(ctx, "give the map channel's type: --type=user or "
					    "--type=kernel");
	if (!strcmp(v[VAL_TYPE], "kernel")) {
		if (v[VAL_OWNERSHIP] || v[VAL_DEAD])
			return ctl_util_usage_error(ctx, "--buffer-ownership and "
						    "--dead-process-policy are for user-space maps: "
						    "a kernel map has one set of counters, the "
						    "kernel's; leave them out");
		ret->ownership = LTT_MAP_OWNER_KERNEL;
	} else if (strcmp(v[VAL_TYPE], "user")) {
		return ctl_util_usage_error(ctx, "invalid --type '%s': give user or kernel",
					    v[VAL_TYPE]);
	}
	if (v[VAL_OWNERSHIP] && !strcmp(v[VAL_OWNERSHIP], "process"))
		ret->ownership = LTT_MAP_OWNER_PROCESS;
	else if (v[VAL_OWNERSHIP] && strcmp(v[VAL_OWNERSHIP], "user"))
		return ctl_util_usage_error(ctx, "invalid --buffer-ownership '%s': give user or "
					    "process", v[VAL_OWNERSHIP]);
	if (v[VAL_DEAD] && ret->ownership != LTT_MAP_OWNER_PROCESS)
		return ctl_util_usage_error(ctx, "--dead-process-policy is for per-process maps: "
					    "give --buffer-ownership=process");
	if (v[VAL_DEAD] && !strcmp(v[VAL_DEAD], "sum-into-shared"))
		ret->dead_policy = LTT_MAP_DEAD_SUM;
	else if (v[VAL_DEAD] && strcmp(v[VAL_DEAD], "drop"))
		return ctl_util_usage_error(ctx, "invalid --dead-process-policy '%s': give drop or "
					    "sum-into-shared", v[VAL_DEAD]);
	ret->value_type = value_type(v[VAL_VALUE_TYPE]);
	if (!ret->value_type)
		return ctl_util_usage_error(ctx, "invalid --value-type '%s': give signed-int-32, "
					    "signed-int-64 or signed-int-max",
					    v[VAL_VALUE_TYPE]);
	if (v[VAL_MAX_KEYS] &&
	    (ctl_util_parse_u64(v[VAL_MAX_KEYS], LTT_MAP_MAX_KEYS, &keys) || !keys))
		return ctl_util_usage_error(ctx, "invalid --max-key-count '%s': give 1 to %d",
					    v[VAL_MAX_KEYS], LTT_MAP_MAX_KEYS);
	ret->max_keys = (uint32_t)keys;
	if (!ltt_channel_name_valid(name))
		return ctl_util_usage_error(ctx, "invalid map channel name '%s': %s", name,
					    ltt_strerror(LTT_ERR_CHANNEL_NAME));
	snprintf(ret->name, sizeof(ret->name), "%s", name);
	return CTL_GO_ON;
}

static int add(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct ltt_map_attr a = { .ownership = LTT_MAP_OWNER_USER };
	char current[LTT_NAME_MAX], **v = arg;
	const char *session, **args;
	int ret, nr = ctl_util_args(pc, &args);
	struct ltt_ctl *ctl;

	if (nr != 1)
		return ctl_util_usage_error(ctx, "give one map channel name");
	ret = attr_of(ctx, v, args[0], &a);
	if (ret != CTL_GO_ON)
		return ret;
	ret = ctl_util_session_connect(ctx, v[VAL_SESSION], current, sizeof(current),
				       &session, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_add_map_channel(ctl, session, &a);
	if (ret) {
		ctl_report_error(ctl, session, ret);
		ret = CTL_EXIT_FAILURE;
	} else {
		if (a.ownership == LTT_MAP_OWNER_KERNEL)
			ctl_out_text("Kernel map channel %s added to session %s (%s, %u keys at "
				     "most)\n", a.name, session,
				     ltt_map_value_type_name(a.value_type), a.max_keys);
		else
			ctl_out_text("User space map channel %s added to session %s (%s, %u keys at "
				     "most, per %s%s)\n", a.name, session,
				     ltt_map_value_type_name(a.value_type), a.max_keys,
				     a.ownership == LTT_MAP_OWNER_PROCESS ? "process" : "user",
			     a.dead_policy == LTT_MAP_DEAD_SUM ? ", summed into the shared set once "
			     "gone" : "");
		ctl_out_open("map_channel");
		ctl_out_str("session", session);
		ctl_out_str("name", a.name);
		ctl_out_str("value_type", ltt_map_value_type_name(a.value_type));
		ctl_out_u64("max_key_count", a.max_keys);
		ctl_out_close();
	}
	ltt_ctl_disconnect(ctl);
	return ret;
}

int cmd_add_map_channel(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALS] = { 0 };
	struct poptOption options[] = {
		{ "type", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TYPE,
		  "user: counters of programs' events; kernel: of kernel events, kept by the "
		  "kernel (tracefs's histogram triggers)", "TYPE" },
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "value-type", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_VALUE_TYPE,
		  "signed-int-32, signed-int-64 (default) or signed-int-max", "TYPE" },
		{ "max-key-count", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_MAX_KEYS,
		  "the keys the map keeps (default 4096); events of further keys are counted as "
		  "key overflow", "COUNT" },
		{ "buffer-ownership", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OWNERSHIP,
		  "user (default): one set of counters per user; process: one per program",
		  "OWNER" },
		{ "dead-process-policy", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_DEAD,
		  "with process: what a program's counters become once it is gone: drop "
		  "(default) or sum-into-shared", "POLICY" },
		CTL_UTIL_GAP_OPTION("update-policy", 0, POPT_ARG_STRING, LTT_LTTNG_GAP_MAP_UPDATE,
				    "LTTng's update policies (refused)", "POLICY"),
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALS, add, values);
}
