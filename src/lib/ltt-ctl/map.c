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

int ltt_ctl_list_maps(struct ltt_ctl *ctl, const char *session, struct ltt_map_desc **ret_maps,
		      size_t *ret_count)
{
	struct ltt_map_desc *maps = NULL;
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	size_t n, i;
	int ret;

	if (!ret_maps || !ret_count)
		return -LTT_ERR_INVAL;
	ret = ctl_session_call(ctl, LTT_CLIENT_CMD_LIST_MAPS, session,
			      LTT_CLIENT_MINOR_MAPS, &reply, &r);
	if (ret)
		return ret;
	maps = ctl_reply_array(&r, MAP_DESC_MIN, sizeof(*maps), &n);
	for (i = 0; maps && i < n && !r.err; i++)
		ltt_map_desc_get(&r, &maps[i]);
	ret = ctl_reply_end(&r, maps);
	free(reply);
	if (ret) {
		ltt_ctl_maps_free(maps, n);
		return ret;
	}
	*ret_maps = maps;
	*ret_count = n;
	return 0;
}
