/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-trigger.h - the triggers a saved session carries: which of the
 * user's triggers are saved with which session, and adding them back on
 * load, all or nothing.  Private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_TRIGGER_H
#define LTT_LIB_CONFIG_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>

#include <ltt/ltt-ctl.h>

#include "lib/ltt-ctl/config/config-model.h"

/**
 * ltt_cfg_save_triggers() - into each of the @n sessions @names' extras,
 * the caller's triggers whose first named session (the condition's, else
 * the first action's) it is.  A daemon older than triggers has none.
 * Returns 0 or a negative ltt error code.
 */
int ltt_cfg_save_triggers(struct ltt_ctl *ctl, char (*names)[LTT_NAME_MAX], size_t n,
			  struct ltt_cfg_extra *extras);

/** ltt_cfg_rename_in_triggers() - @s's triggers name session @to where they named @from */
void ltt_cfg_rename_in_triggers(struct ltt_cfg_session *s, const char *from, const char *to);

/**
 * ltt_cfg_load_triggers() - add the triggers of the @n sessions @sel, once
 * all are made; one of the caller's of the same name is replaced with
 * @force, else refused (TRIGGER_EXISTS, the file and line in the detail).
 * On a failure the ones added are removed and the ones replaced added
 * back.  Returns 0 or a negative ltt error code.
 */
int ltt_cfg_load_triggers(struct ltt_ctl *ctl, bool force, struct ltt_cfg_session **sel,
			  size_t n);

#endif /* LTT_LIB_CONFIG_TRIGGER_H */
