// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-notif.c - LTTng 2.13's notification channel
 * (sessiond-notification) on ltt's notifications (lttng-compat.h): a
 * connection of the client thread of wire LTT_CLIENT_WIRE_LTTNG_NOTIF
 * says its handshake, then subscribes to conditions; each notification
 * ltt's trigger runner hands that thread (client-notify.c) goes, as
 * LTTng writes it (the trigger, the evaluation), to the connections of
 * the trigger's owner subscribed to a condition equal to the trigger's.
 * Conditions are compared in LTTng's form, re-encoded from ltt's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/model/attr.h"
#include "common/proto/lttng-trigger-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/model/trigger.h"

/* Conditions one connection may hold. */
#define SUBS_MAX 256

struct ltt_lttng_subs {
	enum ltt_lttng_gen gen;		/* the client's: the layout of its conditions */
	size_t n;
	struct ltt_wbuf cond[SUBS_MAX];	/* LTTng's form, as ltt re-encodes it */
};

void ltt_lttng_notif_free(struct ltt_lttng_subs *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		ltt_wbuf_fini(&s->cond[i]);
	free(s);
}

size_t ltt_lttng_notif_extra(const uint8_t *hdr)
{
	struct ltt_lttng_notif_hdr h;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, hdr, LTT_LTTNG_NOTIF_HDR_SIZE);
	ltt_lttng_notif_hdr_get(&r, &h);
	/* as LTTng's daemon: a message has a payload, no descriptors, one of three types */
	if (r.err || !h.size || h.size > LTT_LTTNG_NOTIF_MSG_MAX || h.fds ||
	    h.type > LTT_LTTNG_NOTIF_UNSUBSCRIBE)
		return 0;
	return h.size;
}

/* A message of @type with @payload (@len bytes) into @out. */
static void put_msg(struct ltt_wbuf *out, uint8_t type, const void *payload, size_t len)
{
	struct ltt_lttng_notif_hdr h = { .type = type, .size = (uint32_t)len };

	ltt_lttng_notif_hdr_put(out, &h);
	if (len)
		ltt_wbuf_put_bytes(out, payload, len);
}

static void put_reply(struct ltt_wbuf *out, int8_t status)
{
	uint8_t b = (uint8_t)status;

	put_msg(out, LTT_LTTNG_NOTIF_COMMAND_REPLY, &b, 1);
}

/* @c's condition as ltt compares it: LTTng's form of ltt's reading of it. */
static int canonical(struct ltt_trigger_conf *c, enum ltt_lttng_gen gen, struct ltt_wbuf *ret)
{
	if (c->cond == LTT_CONDITION_EVENT_RULE_MATCHES && c->rule.exclusions[0] &&
	    ltt_attr_normalize_exclusions(c->rule.pattern, c->rule.exclusions,
					  sizeof(c->rule.exclusions)))
		return -EINVAL;
	ltt_wbuf_init(ret);
	if (ltt_lttng_condition_put(ret, gen, c) || ret->err) {
		ltt_wbuf_fini(ret);
		return -EINVAL;
	}
	return 0;
}

static ssize_t find(const struct ltt_lttng_subs *s, const struct ltt_wbuf *cond)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (s->cond[i].len == cond->len && !memcmp(s->cond[i].data, cond->data, cond->len))
			return (ssize_t)i;
	return -1;
}

/* SUBSCRIBE, UNSUBSCRIBE: the reply's status. */
static int8_t subscription(struct ltt_lttng_subs **subs, const struct ucred *cred,
			   enum ltt_lttng_gen gen, bool add, const uint8_t *payload, size_t len)
{
	struct ltt_trigger_conf *c = malloc(sizeof(*c));
	const char *why = NULL;
	struct ltt_wbuf cond;
	struct ltt_rbuf r;
	ssize_t at;
	int err;

	if (!c)
		return LTT_LTTNG_NOTIF_ERROR;
	ltt_rbuf_init(&r, payload, len);
	err = ltt_lttng_condition_get(&r, gen, c, &why);
	if (!err && ltt_rbuf_end(&r))
		err = -EPROTO;
	if (!err)
		err = canonical(c, gen, &cond);
	free(c);
	if (err) {
		LTT_WARN_RL("LTTng notification client pid %d: %s a condition ltt can't take (%s): refused",
			    (int)cred->pid, add ? "subscribes to" : "unsubscribes from",
			    err == -ENOTSUP ? why : "malformed");
		return LTT_LTTNG_NOTIF_INVALID;
	}
	at = find(*subs, &cond);
	if (!add) {
		ltt_wbuf_fini(&cond);
		if (at < 0)
			return LTT_LTTNG_NOTIF_UNKNOWN_CONDITION;
		ltt_wbuf_fini(&(*subs)->cond[at]);
		(*subs)->cond[at] = (*subs)->cond[--(*subs)->n];
		return LTT_LTTNG_NOTIF_OK;
	}
	if (at >= 0) {
		ltt_wbuf_fini(&cond);
		return LTT_LTTNG_NOTIF_ALREADY_SUBSCRIBED;
	}
	if (!*subs) {
		*subs = calloc(1, sizeof(**subs));
		if (*subs)
			(*subs)->gen = gen;
	}
	if (!*subs || (*subs)->n == SUBS_MAX) {
		ltt_wbuf_fini(&cond);
		LTT_WARN_RL("LTTng notification client pid %d: more than %d conditions on one channel: refused",
			    (int)cred->pid, SUBS_MAX);
		return LTT_LTTNG_NOTIF_ERROR;
	}
	(*subs)->cond[(*subs)->n++] = cond;
	return LTT_LTTNG_NOTIF_OK;
}

int ltt_lttng_notif_request(struct ltt_lttng_subs **subs, const struct ucred *cred,
			    enum ltt_lttng_gen gen, bool *handshaken, const uint8_t *msg, size_t len,
			    struct ltt_wbuf *out)
{
	struct ltt_lttng_notif_hdr h;
	uint8_t version[2] = { LTT_LTTNG_NOTIF_MAJOR, LTT_LTTNG_NOTIF_MINOR };
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, msg, len);
	ltt_lttng_notif_hdr_get(&r, &h);
	if (r.err || len != LTT_LTTNG_NOTIF_HDR_SIZE + (size_t)h.size)
		return -1;
	if (h.type == LTT_LTTNG_NOTIF_HANDSHAKE) {
		const uint8_t *v = ltt_rbuf_get_bytes(&r, 2);

		if (!v || h.size != 2)
			return -1;
		put_msg(out, LTT_LTTNG_NOTIF_HANDSHAKE, version, sizeof(version));
		if (v[0] != LTT_LTTNG_NOTIF_MAJOR) {
			LTT_WARN_RL("LTTng notification client pid %d speaks the notification protocol %u.%u, ltt-sessiond --lttng-compat LTTng 2.13's %d.%d: refused",
				    (int)cred->pid, v[0], v[1], LTT_LTTNG_NOTIF_MAJOR,
				    LTT_LTTNG_NOTIF_MINOR);
			put_reply(out, LTT_LTTNG_NOTIF_UNSUPPORTED_VERSION);
			return 1;	/* closed once the reply is written */
		}
		put_reply(out, LTT_LTTNG_NOTIF_OK);
		*handshaken = true;
		return 0;
	}
	if (!*handshaken) {
		LTT_WARN_RL("LTTng notification client pid %d: a command before the handshake: disconnected",
			    (int)cred->pid);
		return -1;
	}
	/* conditions are read in the layouts of 2.13 and 2.16, whose clients ltt serves */
	if (gen != LTT_LTTNG_GEN_2_13 && gen != LTT_LTTNG_GEN_2_16) {
		LTT_WARN_RL("LTTng notification client pid %d runs %s liblttng-ctl: ltt-sessiond --lttng-compat takes the conditions of LTTng 2.13's and 2.16's: refused",
			    (int)cred->pid, gen == LTT_LTTNG_GEN_UNKNOWN ? "an unknown" :
			    gen == LTT_LTTNG_GEN_2_14 ? "LTTng 2.14's" : "LTTng 2.15's");
		put_reply(out, LTT_LTTNG_NOTIF_ERROR);
		return 0;
	}
	put_reply(out, subscription(subs, cred, gen, h.type == LTT_LTTNG_NOTIF_SUBSCRIBE,
				    msg + r.pos, h.size));
	return 0;
}

bool ltt_lttng_notif_message(const struct ltt_lttng_subs *subs, const struct ltt_firing *f,
			     bool dropped, struct ltt_wbuf *out)
{
	const struct ltt_trigger_conf *c = &f->trigger->conf;
	struct ltt_wbuf cond, body;
	struct ltt_wbuf fix;
	bool match;

	if (!subs || !subs->n)
		return false;
	ltt_wbuf_init(&cond);
	match = !ltt_lttng_condition_put(&cond, subs->gen, c) && !cond.err &&
		find(subs, &cond) >= 0;
	ltt_wbuf_fini(&cond);
	if (!match)
		return false;
	ltt_wbuf_init(&body);
	ltt_wbuf_put_u32(&body, 0);	/* its length, below */
	if (ltt_lttng_trigger_put(&body, subs->gen, c)) {
		ltt_wbuf_fini(&body);
		return false;	/* not LTTng's to see: it could not have subscribed */
	}
	ltt_lttng_evaluation_put(&body, c, &f->n, f->capacity);
	if (!body.err) {
		ltt_wbuf_init_fixed(&fix, body.data, 4);
		ltt_wbuf_put_u32(&fix, (uint32_t)(body.len - 4));
	}
	if (dropped)
		put_msg(out, LTT_LTTNG_NOTIF_DROPPED, NULL, 0);
	put_msg(out, LTT_LTTNG_NOTIF_NOTIFICATION, body.data, body.len);
	if (body.err)
		out->err = body.err;
	ltt_wbuf_fini(&body);
	return true;
}
