// SPDX-License-Identifier: LGPL-2.1-only
/*
 * remove_trigger.c - lttctl remove-trigger: remove one of the caller's
 * triggers (root: anyone's); it fires no more once this returns, and
 * its subscribers (wait-trigger) are told.  --mi xml: the trigger
 * removed, as LTTng's remove-trigger writes it.
 */
#include <stdlib.h>
#include <string.h>

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

int cmd_remove_trigger(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	const struct ltt_trigger_info *removed = NULL;
	struct ltt_trigger_info *triggers = NULL;
	struct ltt_ctl *ctl = NULL;
	const char **args, *name;
	poptContext pc;
	int ret, nr;

	ret = ctl_util_parse_args(ctx, argc, argv, 1, &pc, &args, &nr);
	if (ret != CTL_GO_ON)
		return ret;
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
	poptFreeContext(pc);
	return ret;
}
