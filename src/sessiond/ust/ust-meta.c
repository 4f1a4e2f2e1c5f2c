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

#include "common/base/array.h"
#include "common/trace/ctf.h"
#include "common/base/escape.h"
#include "common/base/log.h"
#include "sessiond/ctrace/meta.h"
#include "sessiond/ust/ust-meta.h"

/* An event class: one event id in one channel of one trace. */
struct ust_class {
	uint32_t id;
	struct ltt_app_tracepoint *tp;	/* the layout, owned copy */
	uint64_t fields;		/* ltt_app_tracepoint_fields_hash(tp) */
	pid_t pid;			/* who defined it first */
	char procname[17];
};

int ltt_ust_meta_header(struct ltt_wbuf *text, const struct ltt_trace_host *host,
			struct ltt_session *session, const struct ltt_app *app, bool per_pid,
			const uuid_t trace_uuid)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	char created[LTT_TRACE_DATETIME_MAX], registered[LTT_TRACE_DATETIME_MAX];
	char name[LTT_ESCAPE_SIZE(sizeof(app->procname))];
	struct ltt_meta_trace info = {
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
	if (per_pid) {
		/* the date of its directory's name (ltt_ust_trace_path()) */
		ltt_trace_host_datetime(app->registered_at, registered);
		info.vpid_datetime = registered;
	}
	ltt_trace_host_user_clock(session, &info);
	memcpy(info.uuid, trace_uuid, sizeof(info.uuid));
	ret = ltt_meta_trace_header(text, session->trace_format, &info);
	cds_list_for_each_entry(channel, &dom->channels, node) {
		if (!ret)
			ret = ltt_meta_stream(text, session->trace_format, channel->stream_id,
					      channel->attr.allocation == LTT_ALLOC_PER_CHANNEL,
					      channel->contexts, channel->nr_contexts);
		if (!ret)
			ret = ltt_meta_torn_events(text, session->trace_format, channel->stream_id);
	}
	return ret;
}

static const char *class_name_at(const void *classes, size_t pos)
{
	return ((const struct ltt_ust_classes *)classes)->all[pos]->tp->name;
}

static uint64_t class_fields_at(const void *classes, size_t pos)
{
	return ((const struct ltt_ust_classes *)classes)->all[pos]->fields;
}

void ltt_ust_meta_classes_init(struct ltt_ust_classes *classes, enum ltt_trace_format format)
{
	*classes = (struct ltt_ust_classes){ .format = format };
	ltt_name_index_init_tagged(&classes->by_name, class_name_at, class_fields_at, classes);
}

void ltt_ust_meta_classes_fini(struct ltt_ust_classes *classes)
{
	size_t i;

	for (i = 0; i < classes->nr; i++) {
		free(classes->all[i]->tp);
		free(classes->all[i]);
	}
	free(classes->all);
	ltt_name_index_fini(&classes->by_name);
	ltt_ust_meta_classes_init(classes, classes->format);
}

/* Room for one more class in @classes->all. */
static int reserve_class(struct ltt_ust_classes *classes)
{
	struct ust_class **all;

	if (classes->nr < classes->cap)
		return 0;
	all = ltt_array_grow(classes->all, &classes->cap, sizeof(*all));
	if (!all)
		return -ENOMEM;
	classes->all = all;
	return 0;
}

/* A copy of a decoded description, or NULL. */
static struct ltt_app_tracepoint *tp_dup(const struct ltt_app_tracepoint *tp)
{
	struct ltt_app_tracepoint *copy;

	return ltt_app_tracepoint_dup(tp, &copy) ? NULL : copy;
}


/* The class in @classes of @tp's name and fields hash (@fields), or NULL. */
static struct ust_class *class_of(struct ltt_ust_classes *classes,
				  const struct ltt_app_tracepoint *tp, uint64_t fields)
{
	long at = ltt_name_index_find_tagged(&classes->by_name, tp->name, fields);

	return at >= 0 ? classes->all[at] : NULL;
}

bool ltt_ust_meta_class_known(struct ltt_ust_classes *classes, const struct ltt_app_tracepoint *tp)
{
	struct ust_class *cls = class_of(classes, tp, ltt_app_tracepoint_fields_hash(tp));

	return cls && ltt_app_tracepoint_same_layout(cls->tp, tp);
}

int ltt_ust_meta_class(struct ltt_ust_classes *classes, uint32_t stream_id,
		       const struct ltt_app *app, const struct ltt_app_tracepoint *tp,
		       const char *trace_path, struct ltt_wbuf *text, uint32_t *ret_id)
{
	uint64_t fields = ltt_app_tracepoint_fields_hash(tp);
	struct ust_class *cls = class_of(classes, tp, fields);

	if (cls) {
		if (!ltt_app_tracepoint_same_layout(cls->tp, tp)) {
			/* two layouts of one hash: 2^-64, or a program that tries */
			LTT_WARN_RL("event %s of %s (pid %ld) has other fields than the same event of %s (pid %ld), already in trace %s, and the same hash: not recorded for pid %ld",
				    tp->name, app->procname, (long)app->pid, cls->procname,
				    (long)cls->pid, trace_path, (long)app->pid);
			return -EEXIST;
		}
		*ret_id = cls->id;
		return 0;
	}
	if (!text)
		return -ENOENT;
	if (classes->nr >= LTT_UST_CLASSES_MAX) {
		if (!classes->refused++)
			LTT_WARN_RL("trace %s holds %u event classes in a channel, at most: event %s of %s (pid %ld, uid %u) and later new names are not recorded there",
				    trace_path, (unsigned int)LTT_UST_CLASSES_MAX, tp->name,
				    app->procname, (long)app->pid, (unsigned int)app->uid);
		return -ENOSPC;
	}
	if (reserve_class(classes))
		return -ENOMEM;
	cls = calloc(1, sizeof(*cls));
	if (!cls)
		return -ENOMEM;
	cls->tp = tp_dup(tp);
	cls->fields = fields;
	classes->all[classes->nr] = cls;
	if (!cls->tp || ltt_name_index_add(&classes->by_name, classes->nr)) {
		free(cls->tp);
		free(cls);
		return -ENOMEM;
	}
	cls->id = LTT_CTF_FIRST_EVENT_ID + (uint32_t)classes->nr++;
	cls->pid = app->pid;
	strcpy(cls->procname, app->procname);
	if (ltt_meta_event(text, classes->format, tp, cls->id, stream_id))
		LTT_ERR_RL("trace %s: can't describe event %s", trace_path, tp->name);
	*ret_id = cls->id;
	return 0;
}
