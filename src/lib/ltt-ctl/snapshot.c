// SPDX-License-Identifier: LGPL-2.1-only
/*
 * snapshot.c - libltt-ctl: a snapshot session's outputs and its snapshots
 * (lttctl snapshot add-output, del-output, list-output, record).
 */
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/model/convert.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

/* A snapshot output from the caller: reserved room zero, strings terminated. */
static int check_snapshot_output(const struct ltt_snapshot_output *o,
				 struct ltt_snapshot_output_conf *ret)
{
	if (!memchr(o->name, '\0', sizeof(o->name)) || !memchr(o->output, '\0', sizeof(o->output)))
		return -LTT_ERR_INVAL;
	return ctl_err(ltt_conv_snapshot_output_to_conf(o, ret));
}

static void get_output(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	struct ltt_snapshot_output_conf conf;

	(void)ctl;
	ltt_proto_get_snapshot_output(r, &conf);
	ltt_conv_snapshot_output_conf_to_output(&conf, element);
}

int ltt_ctl_snapshot_add_output(struct ltt_ctl *ctl, const char *session,
				const struct ltt_snapshot_output *output,
				struct ltt_snapshot_output *ret_output)
{
	struct ltt_snapshot_output_conf conf;
	struct ltt_snapshot_output got;
	struct ltt_wbuf w;
	int ret;

	if (!output || output->id)
		return -LTT_ERR_INVAL;
	ret = check_snapshot_output(output, &conf);
	if (!ret)
		ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_SNAPSHOT);
	if (ret)
		return ret;
	ltt_proto_put_snapshot_output(&w, &conf);
	ret = ctl_send_read(ctl, LTT_CLIENT_CMD_SNAPSHOT_ADD_OUTPUT, &w, get_output, &got);
	if (!ret && ret_output)
		*ret_output = got;
	return ret;
}

int ltt_ctl_snapshot_del_output(struct ltt_ctl *ctl, const char *session, uint32_t id,
				const char *name)
{
	struct ltt_wbuf w;
	int ret;

	if (!id && (!name || !name[0] || strlen(name) >= LTT_NAME_MAX))
		return -LTT_ERR_INVAL;
	ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_SNAPSHOT);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(&w, id);
	ltt_wbuf_put_str(&w, id ? "" : name);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_SNAPSHOT_DEL_OUTPUT, &w, NULL, NULL);
}

static const struct ctl_list_call list_outputs = {
	LTT_CLIENT_CMD_SNAPSHOT_LIST_OUTPUT, LTT_CLIENT_MINOR_SNAPSHOT, LTT_SNAPSHOT_OUTPUT_MIN,
	sizeof(struct ltt_snapshot_output), get_output, NULL,
};

int ltt_ctl_snapshot_list_outputs(struct ltt_ctl *ctl, const char *session,
				  struct ltt_snapshot_output **ret_outputs, size_t *ret_count)
{
	return ctl_session_list(ctl, &list_outputs, session, ret_outputs, ret_count);
}

static void get_result(struct ltt_rbuf *r, void *result, const struct ltt_ctl *ctl)
{
	struct ltt_snapshot_result_desc desc;

	(void)ctl;
	ltt_proto_get_snapshot_result(r, &desc);
	ltt_conv_snapshot_result_desc_to_result(&desc, result);
}

int ltt_ctl_snapshot_record(struct ltt_ctl *ctl, const char *session,
			    const struct ltt_snapshot_output *output,
			    struct ltt_snapshot_result *ret)
{
	struct ltt_snapshot_output_conf conf;
	struct ltt_snapshot_result res;
	struct ltt_wbuf w;
	int err;

	err = output ? check_snapshot_output(output, &conf) : 0;
	if (!err)
		err = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_SNAPSHOT);
	if (err)
		return err;
	ltt_wbuf_put_u8(&w, output ? 1 : 0);
	if (output)
		ltt_proto_put_snapshot_output(&w, &conf);
	err = ctl_send_read(ctl, LTT_CLIENT_CMD_SNAPSHOT_RECORD, &w, get_result, &res);
	if (!err && ret)
		*ret = res;
	return err;
}
