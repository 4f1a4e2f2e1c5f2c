// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-trigger.c - the triggers saved with sessions and loaded with
 * them (config-trigger.h, doc/save-load.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/trigger.h"
#include "lib/ltt-ctl/config/config-trigger.h"
#include "lib/ltt-ctl/ctl-internal.h"

/* The session a trigger is saved with: the first it names; NULL if none. */
static const char *trigger_home(const struct ltt_trigger_conf *c)
{
	uint32_t i;

	if (ltt_trigger_needs_session(c->cond))
		return c->session;
	for (i = 0; i < c->nr_actions; i++)
		if (c->actions[i].session[0])
			return c->actions[i].session;
	return NULL;
}

int ltt_cfg_save_triggers(struct ltt_ctl *ctl, char (*names)[LTT_NAME_MAX], size_t n,
			  struct ltt_cfg_extra *extras)
{
	const struct ltt_trigger_desc *d;
	struct ltt_trigger_info *v = NULL;
	const char *home;
	size_t i, k, count = 0;
	int ret = ltt_ctl_list_triggers(ctl, &v, &count);

	if (ret == -LTT_ERR_NOT_SUPPORTED)
		return 0;
	if (ret)
		return ret;
	d = ltt_lib_trigger_descs(v, count);
	for (i = 0; i < n && !ret; i++) {
		extras[i].triggers = calloc(count ? count : 1, sizeof(*extras[i].triggers));
		if (!extras[i].triggers) {
			ret = -LTT_ERR_NOMEM;
			break;
		}
		for (k = 0; k < count; k++) {
			home = trigger_home(&d[k].conf);
			if (d[k].conf.owner_uid != (int64_t)geteuid() || !home || strcmp(home, names[i]))
				continue;
			extras[i].triggers[extras[i].nr_triggers] = d[k].conf;
			extras[i].triggers[extras[i].nr_triggers++].owner_uid = -1;
		}
	}
	free(v);
	return ret;
}

void ltt_cfg_rename_in_triggers(struct ltt_cfg_session *s, const char *from, const char *to)
{
	struct ltt_trigger_conf *c;
	size_t i, k;

	for (i = 0; i < s->nr_triggers; i++) {
		c = &s->triggers[i];
		if (!strcmp(c->session, from))
			snprintf(c->session, sizeof(c->session), "%s", to);
		for (k = 0; k < c->nr_actions; k++)
			if (!strcmp(c->actions[k].session, from))
				snprintf(c->actions[k].session, sizeof(c->actions[k].session), "%s", to);
	}
}

/* Does the caller have a trigger @name among the @n of @d? */
static bool trigger_exists(const struct ltt_trigger_desc *d, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (d[i].conf.owner_uid == (int64_t)geteuid() && !strcmp(d[i].conf.name, name))
			return true;
	return false;
}

int ltt_cfg_load_triggers(struct ltt_ctl *ctl, bool force, struct ltt_cfg_session **sel, size_t n)
{
	struct ltt_trigger_info *v = NULL;
	const struct ltt_trigger_desc *d;
	const struct ltt_trigger_conf *c;
	size_t i, k, count = 0, added = 0, total = 0;
	bool *replaced;
	int ret;

	for (i = 0; i < n; i++)
		total += sel[i]->nr_triggers;
	if (!total)
		return 0;
	ret = ltt_ctl_list_triggers(ctl, &v, &count);
	if (ret)
		return ret;
	d = ltt_lib_trigger_descs(v, count);
	replaced = calloc(count ? count : 1, sizeof(*replaced));
	if (!replaced) {
		free(v);
		return -LTT_ERR_NOMEM;
	}
	for (i = 0; i < n && !ret; i++) {
		for (k = 0; k < sel[i]->nr_triggers && !ret; k++) {
			c = &sel[i]->triggers[k];
			if (trigger_exists(d, count, c->name) && !force) {
				snprintf(ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX,
					 "%s:%ld: trigger '%s' exists (remove it, or load with -f)",
				       sel[i]->file, sel[i]->trigger_lines[k], c->name);
				ret = -LTT_ERR_TRIGGER_EXISTS;
				break;
			}
			for (size_t j = 0; j < count && !ret; j++) {
				if (replaced[j] || d[j].conf.owner_uid != (int64_t)geteuid() ||
				    strcmp(d[j].conf.name, c->name))
					continue;
				ret = ltt_ctl_remove_trigger(ctl, c->name);
				replaced[j] = !ret;
			}
			if (!ret)
				ret = ltt_lib_add_trigger_conf(ctl, c, 0, NULL);
			if (ret)
				snprintf(ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX, "%s:%ld: trigger '%s'",
					 sel[i]->file,
				       sel[i]->trigger_lines[k], c->name);
			else
				added++;
		}
	}
	if (ret) {
		char saved[LTT_LIB_DETAIL_MAX];

		strcpy(saved, ltt_ctl_error_detail(ctl));
		for (i = 0; i < n && added; i++)
			for (k = 0; k < sel[i]->nr_triggers && added; k++, added--)
				ltt_ctl_remove_trigger(ctl, sel[i]->triggers[k].name);
		for (k = 0; k < count; k++)
			if (replaced[k])
				ltt_lib_add_trigger_conf(ctl, &d[k].conf, 0, NULL);
		strcpy(ltt_lib_detail(ctl), saved);
	}
	free(replaced);
	free(v);
	return ret;
}
