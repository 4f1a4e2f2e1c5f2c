// SPDX-License-Identifier: LGPL-2.1-only
/*
 * remove_trigger.c - lttctl remove-trigger: remove one of the caller's
 * triggers (root: anyone's); it fires no more once this returns, and
 * its subscribers (wait-trigger) are told.  --mi xml: the trigger
 * removed, as LTTng's remove-trigger writes it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/trigger.h"
#include "ctl/ctl.h"

/*
 * The trigger @name as listed before its removal (for --mi xml, which
 * writes the trigger removed, as LTTng's does); NULL when not listed.
 * *@all: the list, which the caller frees.
 */
static const struct ltt_trigger_info *find(struct ltt_ctl *ctl, const char *name,
					   struct ltt_trigger_info **all)
{
	size_t count = 0, i;

	*all = NULL;
	if (ltt_ctl_list_triggers(ctl, all, &count))
		return NULL;
	for (i = 0; i < count; i++)
		if (!strcmp((*all)[i].attr.name, name))
			return &(*all)[i];
	return NULL;
}

/*
 * LTTng's --owner-uid UID: the caller's own uid names the trigger
 * remove-trigger removes anyway; another's is refused.
 */
static int check_owner(const struct ctl_ctx *ctx, const char *uid)
{
	uint64_t v;

	if (ctl_util_parse_u64(uid, UINT32_MAX - 1, &v))
		return ctl_util_usage_error(ctx, "--owner-uid '%s': give a user id, a number "
					    "from 0 to %u", uid, UINT32_MAX - 1);
	if (v != (uint64_t)geteuid())
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_TRIGGER_OWNER);
	return CTL_GO_ON;
}

int cmd_remove_trigger(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	const struct ltt_trigger_info *removed = NULL;
	struct ltt_trigger_info *triggers = NULL;
	char *values[1] = { NULL };
	struct ltt_ctl *ctl = NULL;
	const char **args, *name;
	poptContext pc;
	int ret, nr;
	struct poptOption options[] = {
		{ "owner-uid", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE,
		  "the trigger's owner: the caller's own uid (another user's refused)", "UID" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, values, &pc);
	if (ret != CTL_GO_ON)
		goto end;
	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (ret)
		goto out;
	ret = values[0] ? check_owner(ctx, values[0]) : CTL_GO_ON;
	if (ret != CTL_GO_ON)
		goto out;
	name = args[0];
	if (!nr) {
		ret = ctl_util_usage_error(ctx, "the trigger's name is needed "
					   "('lttctl list-triggers' shows yours)");
	} else if (!ltt_trigger_name_valid(name)) {
		ctl_util_trigger_error(name, -LTT_ERR_TRIGGER_NAME);
		ret = CTL_EXIT_FAILURE;
	} else {
		ret = ctl_util_connect(ctx, false, &ctl);
	}
	if (!ret) {
		removed = find(ctl, name, &triggers);
		ret = ltt_ctl_remove_trigger(ctl, name);
		if (ret)
			ctl_util_trigger_error(name, ret);
		ret = ret ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
	}
	if (!ret) {
		ctl_out_info("Removed trigger %s.", name);
		if (removed)
			ctl_obj_trigger(removed);
	}
	free(triggers);
	ltt_ctl_disconnect(ctl);
out:
	poptFreeContext(pc);
end:
	ctl_util_free_values(values, 1);
	return ret;
}
