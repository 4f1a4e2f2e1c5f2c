// SPDX-License-Identifier: GPL-2.0-only
/*
 * domain.c - the set of domains a daemon serves, and settles (see domain.h).
 */
#include <string.h>

#include "common/base/log.h"
#include "sessiond/model/domain.h"

int ltt_domain_index(enum ltt_domain type)
{
	switch (type) {
	case LTT_DOMAIN_KERNEL:
		return LTT_DOMAIN_IDX_KERNEL;
	case LTT_DOMAIN_USER:
		return LTT_DOMAIN_IDX_USER;
	default:
		return -1;
	}
}

void ltt_domains_init(struct ltt_domains *set)
{
	size_t i;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < LTT_NR_DOMAINS; i++)
		set->why_not[i] = LTT_ERR_DOMAIN;
}

void ltt_domains_register(struct ltt_domains *set, struct ltt_domain_impl *d)
{
	int i = ltt_domain_index(d->type);

	set->v[i] = d;
	set->why_not[i] = LTT_ERR_OK;
}

void ltt_domains_refuse(struct ltt_domains *set, enum ltt_domain type, enum ltt_error_code why,
			const char *reason)
{
	int i = ltt_domain_index(type);

	set->v[i] = NULL;
	set->why_not[i] = why;
	LTT_INFO("%s tracing is not available: %s", ltt_domain_name(type), reason);
}

enum ltt_error_code ltt_domains_get(const struct ltt_domains *set, enum ltt_domain type,
				    struct ltt_domain_impl **ret_domain)
{
	int i = ltt_domain_index(type);

	if (i < 0)
		return LTT_ERR_DOMAIN;
	if (!set->v[i])
		return set->why_not[i];
	*ret_domain = set->v[i];
	return LTT_ERR_OK;
}

void ltt_domains_fini(struct ltt_domains *set)
{
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		if (set->v[i])
			set->v[i]->ops->fini(set->v[i]);
		set->v[i] = NULL;
	}
}

void ltt_domain_settle_init(struct ltt_domain_settle *settle)
{
	memset(settle, 0, sizeof(*settle));
}

void **ltt_domain_settle_slot(struct ltt_domain_settle *settle, struct ltt_domain_impl *d)
{
	int i = ltt_domain_index(d->type);

	settle->slot[i].domain = d;
	return &settle->slot[i].pending;
}

void ltt_domain_settle_wait(struct ltt_domain_settle *settle, const char *what)
{
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		struct ltt_domain_impl *d = settle->slot[i].domain;

		if (d && settle->slot[i].pending)
			d->ops->settle_wait(d, settle->slot[i].pending, what);
	}
	ltt_domain_settle_init(settle);
}
