// SPDX-License-Identifier: GPL-2.0-only
/*
 * client-notify.c - the client thread's notification channels: a
 * trigger's notification (or its end) posted to the thread, written to
 * each of its subscribers (the connections that sent SUBSCRIBE, client.c)
 * behind what they have not taken yet, or counted missed when a
 * subscriber's queue is full (LTT_CLIENT_SUB_QUEUE_MAX): in the
 * subscriber's next notification, and as a failure of the notify action
 * that sent it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/evloop.h"
#include "common/proto/client-proto.h"
#include "common/proto/trigger-proto.h"
#include "sessiond/client/client-conn.h"
#include "sessiond/client/client-notify.h"
#include "sessiond/client/client-workers.h"
#include "sessiond/client/client.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/model/trigger.h"

/* A notification, or a trigger's end, on its way to the subscribers. */
struct notify_job {
	struct ltt_evloop_job job;	/* posted to the client thread */
	struct ltt_client_thread *t;
	struct ltt_firing *f;		/* NULL: trigger @name of @owner is gone */
	uint32_t action;		/* the notify action of @f's trigger that sends it */
	void (*done)(void *arg);
	void *arg;
	uid_t owner;
	char name[LTT_NAME_MAX];
};

void ltt_client_notify_job_free(struct notify_job *j)
{
	if (j->done)
		j->done(j->arg);
	free(j);
}

/*
 * Append a message to @c's output, behind what it has not taken yet.
 * Returns 0, or -ENOBUFS: past LTT_CLIENT_SUB_QUEUE_MAX, nothing appended.
 */
static int push_msg(struct conn *c, enum ltt_error_code status, const struct ltt_wbuf *body)
{
	struct ltt_client_hdr hdr = {
		.magic = LTT_CLIENT_MAGIC,
		.cmd = LTT_CLIENT_CMD_NOTIFICATION,
		.status = (uint32_t)status,
		.payload_len = body ? (uint32_t)body->len : 0,
	};
	size_t len = c->out.len;
	uint8_t *p;

	if (len + LTT_CLIENT_HDR_SIZE + hdr.payload_len > LTT_CLIENT_SUB_QUEUE_MAX)
		return -ENOBUFS;
	p = ltt_wbuf_reserve(&c->out, LTT_CLIENT_HDR_SIZE);
	if (p) {
		ltt_client_hdr_encode(&hdr, p);
		if (body)
			ltt_wbuf_put_bytes(&c->out, body->data, body->len);
	}
	if (c->out.err) {
		c->out.err = 0;
		c->out.len = len;	/* as it was: the message is dropped whole */
		return -ENOBUFS;
	}
	return 0;
}

/* @c missed @j's notification: told in its next one, and @j's action failed. */
static void missed(struct ltt_client_thread *t, struct conn *c, const struct notify_job *j)
{
	c->sub_dropped++;
	ltt_triggers_action_done(t->cfg.triggers, j->f->trigger, j->action,
				 LTT_ERR_TRIGGER_SUBSCRIBER_BEHIND);
}

static bool subscribed(const struct conn *c, uid_t owner, const char *name)
{
	return c && c->sub && !c->closing && c->sub_owner == owner &&
	       (!c->sub_name[0] || !strcmp(c->sub_name, name));
}

/*
 * LTTng's notification channel: @j's notification as LTTng sends it, if
 * @c subscribed to its trigger's condition; one that would pass
 * LTT_CLIENT_SUB_QUEUE_MAX is counted missed, and the next one sent is
 * preceded by LTTng's NOTIFICATION_DROPPED.
 */
static void notify_lttng(struct ltt_client_thread *t, struct conn *c,
			 const struct notify_job *j)
{
	struct ltt_firing *f = j->f;
	size_t len = c->out.len;

	if (!ltt_lttng_notif_message(c->lsubs, f, c->sub_dropped > 0, &c->out))
		return;
	if (c->out.err || c->out.len > LTT_CLIENT_SUB_QUEUE_MAX) {
		c->out.err = 0;
		c->out.len = len;	/* as it was: the message is dropped whole */
		missed(t, c, j);
	} else {
		c->sub_dropped = 0;
	}
	if (ltt_client_conn_rearm(c))
		ltt_client_conn_destroy(t, c);
}

/* Write @j's notification to one subscriber, or count it missed. */
static void notify_one(struct ltt_client_thread *t, struct conn *c, const struct notify_job *j)
{
	struct ltt_notif_desc n = j->f->n;
	struct ltt_wbuf body;

	n.dropped += c->sub_dropped;
	ltt_wbuf_init(&body);
	ltt_notif_put(&body, &n, c->minor);
	if (body.err || push_msg(c, LTT_ERR_OK, &body)) {
		missed(t, c, j);
	} else {
		c->sub_dropped = 0;
	}
	ltt_wbuf_fini(&body);
	if (ltt_client_conn_rearm(c))
		ltt_client_conn_destroy(t, c);
}

/* The trigger of @j is gone: its own subscribers get the news and close. */
static void gone_one(struct ltt_client_thread *t, struct conn *c)
{
	if (push_msg(c, LTT_ERR_TRIGGER_NOT_FOUND, NULL)) {
		ltt_client_conn_destroy(t, c);
		return;
	}
	c->closing = true;
	if (ltt_client_conn_rearm(c))
		ltt_client_conn_destroy(t, c);
}

void ltt_client_notify_job_run(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct notify_job *j = (struct notify_job *)job;
	struct ltt_client_thread *t = j->t;
	const char *name = j->f ? j->f->n.trigger : j->name;
	uid_t owner = j->f ? j->f->trigger->owner : j->owner;
	size_t i;

	(void)loop;
	for (i = 0; i < LTT_MAX_CLIENTS; i++) {
		struct conn *c = t->conns[i];

		if (!subscribed(c, owner, name))
			continue;
		if (j->f && t->cfg.wire == LTT_CLIENT_WIRE_LTTNG_NOTIF)
			notify_lttng(t, c, j);
		else if (j->f)
			notify_one(t, c, j);
		else if (!strcmp(c->sub_name, name))
			gone_one(t, c);
	}
	ltt_client_notify_job_free(j);
}

void ltt_client_thread_notify(struct ltt_client_thread *t, struct ltt_firing *f, uint32_t action,
			      void (*done)(void *arg), void *arg)
{
	struct notify_job *j = calloc(1, sizeof(*j));

	if (!j) {
		ltt_triggers_action_done(t->cfg.triggers, f->trigger, action, LTT_ERR_NOMEM);
		done(arg);
		return;
	}
	j->job.fn = ltt_client_notify_job_run;
	j->t = t;
	j->f = f;
	j->action = action;
	j->done = done;
	j->arg = arg;
	ltt_evloop_post(t->srv.loop, &j->job);
}

void ltt_client_thread_trigger_gone(struct ltt_client_thread *t, uid_t owner, const char *name)
{
	struct notify_job *j = calloc(1, sizeof(*j));

	if (!j)
		return;	/* its subscribers see nothing more, and close when they like */
	j->job.fn = ltt_client_notify_job_run;
	j->t = t;
	j->owner = owner;
	snprintf(j->name, sizeof(j->name), "%s", name);
	ltt_evloop_post(t->srv.loop, &j->job);
}
