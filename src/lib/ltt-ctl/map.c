// SPDX-License-Identifier: LGPL-2.1-only
/*
 * map.c - map channels (ltt-ctl-map.h): add one, read their counters.
 */
#include <stdlib.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "common/model/map.h"
#include "lib/ltt-ctl/ctl-internal.h"

#define MAP_DESC_MIN (5 + 4 * 4 + 1 + 4 + 8 + 4)	/* the smallest map_desc */

int ltt_ctl_add_map_channel(struct ltt_ctl *ctl, const char *session,
			    const struct ltt_map_attr *attr)
{
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	size_t len = 0;
	int ret;

	if (!attr || !memchr(attr->name, '\0', sizeof(attr->name)) || !ltt_map_attr_valid(attr))
		return -LTT_ERR_INVAL;
	ret = ctl_begin_session_req(&w, ctl, session, attr->ownership == LTT_MAP_OWNER_KERNEL ?
				    LTT_CLIENT_MINOR_KERNEL_MAPS : LTT_CLIENT_MINOR_MAPS);
	if (ret)
		return ret;
	ltt_map_attr_put(&w, attr);
	ret = ctl_send_req(ctl, LTT_CLIENT_CMD_ADD_MAP_CHANNEL, &w, &reply, &len);
	free(reply);
	return ret;
}

void ltt_ctl_maps_free(struct ltt_map_desc *maps, size_t count)
{
	size_t i;

	for (i = 0; maps && i < count; i++)
		free(maps[i].entries);
	free(maps);
}

static void get_map(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	(void)ctl;
	ltt_map_desc_get(r, element);
}

static void drop_maps(void *array, size_t n)
{
	ltt_ctl_maps_free(array, n);
}

static const struct ctl_list_call list_maps = {
	LTT_CLIENT_CMD_LIST_MAPS, LTT_CLIENT_MINOR_MAPS, MAP_DESC_MIN, sizeof(struct ltt_map_desc),
	get_map, drop_maps,
};

int ltt_ctl_list_maps(struct ltt_ctl *ctl, const char *session, struct ltt_map_desc **ret_maps,
		      size_t *ret_count)
{
	return ctl_session_list(ctl, &list_maps, session, ret_maps, ret_count);
}
