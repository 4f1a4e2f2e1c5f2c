// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-meta.c - event ids and the metadata text of user-space traces (see
 * ust-meta.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/ctf.h"
#include "common/escape.h"
#include "common/log.h"
#include "sessiond/tsdl.h"
#include "sessiond/ust-meta.h"

/* An event class: one event id in one channel of one trace. */
struct ust_class {
	struct cds_list_head node;	/* in ltt_ust_classes.list */
	uint32_t id;
	struct ltt_app_tracepoint *tp;	/* the layout, owned copy */
	pid_t pid;			/* who defined it first */
	char procname[17];
};

int ltt_ust_meta_header(struct ltt_wbuf *text, const struct ltt_trace_host *host,
			struct ltt_session *session, const struct ltt_app *app, bool per_pid,
			const uuid_t trace_uuid)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	char created[LTT_TRACE_DATETIME_MAX], name[LTT_ESCAPE_SIZE(sizeof(app->procname))];
	struct ltt_tsdl_trace info = {
		.buffering = per_pid ? "pid" : "uid",
		.buffering_id = per_pid ? (uint32_t)app->pid : (uint32_t)app->uid,
		.bits_per_long = app->bits_per_long,
		.vpid = per_pid ? (int32_t)app->pid : -1,
		/* as its directory names it: TSDL strings take no control character */
		.procname = per_pid ? ltt_escape_file_name(app->procname, name, sizeof(name)) : NULL,
	};
	struct ltt_channel *channel;
	int ret;

	ltt_trace_host_fill(host, session, &info, created);
	memcpy(info.uuid, trace_uuid, sizeof(info.uuid));
	ret = ltt_tsdl_trace_header(text, &info);
	cds_list_for_each_entry(channel, &dom->channels, node) {
		if (!ret)
			ret = ltt_tsdl_stream(text, channel->stream_id, channel->contexts,
					      channel->nr_contexts);
		if (!ret)
			ret = ltt_tsdl_torn_events(text, channel->stream_id);
	}
	return ret;
}

void ltt_ust_meta_classes_init(struct ltt_ust_classes *classes)
{
	CDS_INIT_LIST_HEAD(&classes->list);
	classes->next_id = LTT_CTF_FIRST_EVENT_ID;	/* after the torn events' */
}

void ltt_ust_meta_classes_fini(struct ltt_ust_classes *classes)
{
	struct ust_class *cls, *tmp;

	cds_list_for_each_entry_safe(cls, tmp, &classes->list, node) {
		cds_list_del(&cls->node);
		free(cls->tp);
		free(cls);
	}
}
/* A copy of a decoded description, or NULL. */
static struct ltt_app_tracepoint *tp_dup(const struct ltt_app_tracepoint *tp)
{
	struct ltt_app_tracepoint *copy;

	return ltt_app_tracepoint_dup(tp, &copy) ? NULL : copy;
}


int ltt_ust_meta_class(struct ltt_ust_classes *classes, uint32_t stream_id,
		       const struct ltt_app *app, const struct ltt_app_tracepoint *tp,
		       const char *trace_path, struct ltt_wbuf *text, uint32_t *ret_id)
{
	struct ust_class *cls;

	cds_list_for_each_entry(cls, &classes->list, node) {
		if (strcmp(cls->tp->name, tp->name))
			continue;
		if (!ltt_app_tracepoint_same_layout(cls->tp, tp)) {
			LTT_WARN_RL("event %s of %s (pid %ld) has other fields than the same event of %s (pid %ld), already in trace %s: not recorded for pid %ld",
				    tp->name, app->procname, (long)app->pid, cls->procname,
				    (long)cls->pid, trace_path, (long)app->pid);
			return -EEXIST;
		}
		*ret_id = cls->id;
		return 0;
	}
	if (!text)
		return -ENOENT;
	cls = calloc(1, sizeof(*cls));
	if (!cls)
		return -ENOMEM;
	cls->tp = tp_dup(tp);
	if (!cls->tp) {
		free(cls);
		return -ENOMEM;
	}
	cls->id = classes->next_id++;
	cls->pid = app->pid;
	strcpy(cls->procname, app->procname);
	cds_list_add_tail(&cls->node, &classes->list);
	if (ltt_tsdl_event(text, tp, cls->id, stream_id))
		LTT_ERR_RL("trace %s: can't describe event %s", trace_path, tp->name);
	*ret_id = cls->id;
	return 0;
}
