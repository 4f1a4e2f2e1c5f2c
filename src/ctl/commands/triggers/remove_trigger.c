// SPDX-License-Identifier: LGPL-2.1-only
/*
 * remove_trigger.c - lttctl remove-trigger: remove one of the caller's
 * triggers (root: anyone's); it fires no more once this returns, and
 * its subscribers (wait-trigger) are told.  --mi xml: the trigger
 * removed, as LTTng's remove-trigger writes it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/trigger.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

/*
 * The trigger @name of @owner (-1: the caller's, else the one of that name
 * the daemon picks) as listed before its removal (for --mi xml, which
 * writes the trigger removed, as LTTng's does); NULL when not listed.
 * *@all: the list, which the caller frees; *@same_name: how many
 * triggers, of any owner, have @name.
 */
static const struct ltt_trigger_info *find(struct ltt_ctl *ctl, const char *name, int64_t owner,
					   struct ltt_trigger_info **all, size_t *same_name)
{
	const struct ltt_trigger_info *found = NULL;
	size_t count = 0, i;

	*all = NULL;
	*same_name = 0;
	if (ltt_ctl_list_triggers(ctl, all, &count))
		return NULL;
	for (i = 0; i < count; i++) {
		if (strcmp((*all)[i].attr.name, name))
			continue;
		++*same_name;
		if (owner < 0 ? !found : (*all)[i].attr.owner_uid == owner)
			found = &(*all)[i];
	}
	return found;
}

/*
 * LTTng's --owner-uid @uid into *@owner: the caller's own uid is what
 * remove-trigger removes anyway (-1); only root names another user's.
 */
static int parse_owner(const struct ctl_ctx *ctx, const char *uid, int64_t *owner)
{
	uint64_t v;

	*owner = -1;
	if (!uid)
		return CTL_GO_ON;
	if (ctl_util_parse_u64(uid, UINT32_MAX - 1, &v))
		return ctl_util_usage_error(ctx, "--owner-uid '%s': give a user id, a number "
					    "from 0 to %u", uid, UINT32_MAX - 1);
	if (v == (uint64_t)geteuid())
		return CTL_GO_ON;
	if (geteuid() != 0)
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_TRIGGER_OWNER);
	*owner = (int64_t)v;
	return CTL_GO_ON;
}

/*
 * Remove @name (of @owner, -1: the caller's).  The daemon removes root's
 * trigger of that name, else another user's when it is the only one: root
 * names another's only then.
 */
static int remove_one(struct ltt_ctl *ctl, const char *name, int64_t owner)
{
	const struct ltt_trigger_info *removed;
	struct ltt_trigger_info *triggers;
	size_t same_name;
	int ret;

	removed = find(ctl, name, owner, &triggers, &same_name);
	if (owner >= 0 && !removed) {
		ctl_out_error(LTT_ERR_TRIGGER_NOT_FOUND, "trigger '%s' of uid %" PRId64 ": %s",
			      name, owner, ltt_strerror(LTT_ERR_TRIGGER_NOT_FOUND));
		free(triggers);
		return CTL_EXIT_FAILURE;
	}
	if (owner >= 0 && same_name > 1) {
		free(triggers);
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_TRIGGER_OWNER);
	}
	ret = ltt_ctl_remove_trigger(ctl, name);
	if (ret) {
		ctl_util_trigger_error(name, ret);
	} else {
		ctl_out_info("Removed trigger `%s`.", name);
		if (removed)
			ctl_obj_trigger(removed, 0);
	}
	free(triggers);
	return ret ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

/* The trigger of the line, of --owner-uid (@arg, the command's values), removed. */
static int remove_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	char **values = arg;
	struct ltt_ctl *ctl = NULL;
	const char **args, *name;
	int64_t owner;
	int ret, nr;

	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret)
		ret = parse_owner(ctx, values[0], &owner);
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
	if (!ret)
		ret = remove_one(ctl, name, owner);
	ltt_ctl_disconnect(ctl);
	return ret;
}

int cmd_remove_trigger(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[1] = { NULL };
	struct poptOption options[] = {
		{ "owner-uid", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE,
		  "the trigger's owner: the caller (root: any user whose trigger alone has "
		  "that name)", "UID" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, 1, remove_run, values);
}
