// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger.c - libltt-ctl's triggers and notification channels (client
 * protocol minor 18; <ltt/ltt-ctl-trigger.h>).
 *
 * A notification channel is a connection of its own: after SUBSCRIBE the
 * daemon only writes NOTIFICATION messages on it, which
 * ltt_notification_channel_read() takes one at a time.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "common/model/convert.h"
#include "common/base/sock.h"
#include "common/probe/probe-loc.h"
#include "common/model/trigger.h"
#include "common/proto/trigger-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

/* How long the rest of a notification may take once its first byte is in. */
#define MSG_REST_MS 5000

struct ltt_notification_channel {
	struct ltt_ctl *ctl;
	bool ended;		/* the trigger was removed: -LTT_ERR_TRIGGER_NOT_FOUND from now on */
};

void ltt_ctl_trigger_attr_init(struct ltt_trigger_attr *attr)
{
	size_t i;

	if (!attr)
		return;
	memset(attr, 0, sizeof(*attr));
	attr->owner_uid = -1;
	for (i = 0; i < LTT_TRIGGER_MAX_ACTIONS; i++) {
		attr->actions[i].rate_policy = LTT_RATE_EVERY;
		attr->actions[i].rate_count = 1;
	}
}

static int check_ctl(struct ltt_ctl *ctl)
{
	if (!ctl)
		return -LTT_ERR_INVAL;
	return ctl_minor(ctl) < LTT_CLIENT_MINOR_TRIGGER ? -LTT_ERR_NOT_SUPPORTED : 0;
}

_Static_assert(LTT_TRIGGER_ADD_LTTNG == LTT_TRIGGER_FLAG_LTTNG, "one flag, two names");

/*
 * Does @flags change what adding @c does?  LTTNG only for a kernel rule
 * with a filter (the one the daemon may find fits none of its events).
 */
static bool flags_matter(const struct ltt_trigger_conf *c, uint32_t flags)
{
	return (flags & LTT_TRIGGER_FLAG_LTTNG) && c->cond == LTT_CONDITION_EVENT_RULE_MATCHES &&
	       c->domain == LTT_DOMAIN_KERNEL && c->rule.filter[0];
}

int ltt_lib_add_trigger_conf(struct ltt_ctl *ctl, const struct ltt_trigger_conf *c,
			     uint32_t flags, char *ret_name)
{
	struct ltt_trigger_conf *checked = malloc(sizeof(*checked));
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	const char *name;
	size_t n = 0;
	int ret;

	if (!checked)
		return -LTT_ERR_NOMEM;
	*checked = *c;
	ret = ctl_err(ltt_trigger_check(checked));
	if (!ret && ltt_trigger_counts(checked) &&
	    ctl_minor(ctl) < (checked->domain == LTT_DOMAIN_KERNEL ? LTT_CLIENT_MINOR_KERNEL_MAPS :
			      LTT_CLIENT_MINOR_MAPS))
		ret = -LTT_ERR_NOT_SUPPORTED;
	/* a system call rule of entries or exits alone: a daemon that reads its site */
	if (!ret && checked->rule.location[0] && ctl_minor(ctl) < LTT_CLIENT_MINOR_RULE_LOCATION)
		ret = -LTT_ERR_NOT_SUPPORTED;
	if (!ret && ltt_event_type_is_probe(checked->rule.type) &&
	    checked->cond == LTT_CONDITION_EVENT_RULE_MATCHES &&
	    ctl_minor(ctl) < LTT_CLIENT_MINOR_PROBE_TRIGGER)
		ret = -LTT_ERR_TRIGGER_PROBE_DAEMON;
	if (!ret && checked->nr_captures > LTT_TRIGGER_MAX_CAPTURES &&
	    ctl_minor(ctl) < LTT_CLIENT_MINOR_CAPTURES)
		ret = -LTT_ERR_TRIGGER_CAPTURES_DAEMON;
	/* an older daemon would refuse it as ltt does: say why, not its refusal */
	if (!ret && flags_matter(checked, flags) && ctl_minor(ctl) < LTT_CLIENT_MINOR_ADD_FLAGS)
		ret = -LTT_ERR_TRIGGER_LTTNG_DAEMON;
	if (ret) {
		free(checked);
		return ret;
	}
	ltt_wbuf_init(&w);
	ltt_trigger_add_put(&w, checked, flags, ctl_minor(ctl));
	free(checked);
	ret = ctl_transact(ctl, LTT_CLIENT_CMD_ADD_TRIGGER, &w, &reply, &n);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, n);
	name = ltt_rbuf_get_str(&r, LTT_NAME_MAX);
	if (ltt_rbuf_end(&r))
		ret = -LTT_ERR_PROTOCOL;
	else if (ret_name)
		strcpy(ret_name, name);
	free(reply);
	return ret;
}

int ltt_ctl_add_trigger(struct ltt_ctl *ctl, const struct ltt_trigger_attr *attr,
			char *ret_name, size_t len)
{
	return ltt_ctl_add_trigger_flags(ctl, attr, 0, ret_name, len);
}

int ltt_ctl_add_trigger_flags(struct ltt_ctl *ctl, const struct ltt_trigger_attr *attr,
			      unsigned int flags, char *ret_name, size_t len)
{
	char name[LTT_NAME_MAX];
	struct ltt_trigger_conf *c;
	int ret = check_ctl(ctl);

	if (ret)
		return ret;
	if (!attr || (flags & ~LTT_TRIGGER_FLAGS_KNOWN))
		return -LTT_ERR_INVAL;
	c = malloc(sizeof(*c));
	if (!c)
		return -LTT_ERR_NOMEM;
	ret = ctl_err(ltt_conv_trigger_attr_to_conf(attr, c));
	if (!ret)
		ret = ltt_lib_add_trigger_conf(ctl, c, flags, name);
	free(c);
	if (!ret && ret_name && strlen(name) >= len)
		ret = -LTT_ERR_INVAL;
	else if (!ret && ret_name)
		strcpy(ret_name, name);
	return ret;
}

int ltt_ctl_remove_trigger(struct ltt_ctl *ctl, const char *name)
{
	struct ltt_wbuf w;
	int ret = check_ctl(ctl);

	if (ret)
		return ret;
	if (!name || !ltt_trigger_name_valid(name))
		return name ? -LTT_ERR_TRIGGER_NAME : -LTT_ERR_INVAL;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, name);
	ret = ctl_transact(ctl, LTT_CLIENT_CMD_REMOVE_TRIGGER, &w, NULL, NULL);
	ltt_wbuf_fini(&w);
	return ret;
}

/* The captures of one trigger after its info's array: more_captures' pointers. */
#define MORE_CAPTURES (LTT_TRIGGER_CAPTURES_LIMIT - LTT_TRIGGER_MAX_CAPTURES)

/*
 * The triggers of a LIST_TRIGGERS reply (protocol minor @minor): @count
 * infos, then their descriptions (the rules' strings point into those),
 * then each one's more_captures pointers (into its description), in one
 * block.
 */
static int decode_list(struct ltt_rbuf *r, uint32_t minor, uint32_t count,
		       struct ltt_trigger_info **ret)
{
	struct ltt_trigger_info *infos;
	struct ltt_trigger_desc *descs;
	const char **more;
	uint32_t i;

	infos = calloc(count, sizeof(*infos) + sizeof(*descs) + MORE_CAPTURES * sizeof(*more));
	if (!infos)
		return -LTT_ERR_NOMEM;
	descs = (struct ltt_trigger_desc *)(infos + count);
	more = (const char **)(descs + count);
	for (i = 0; i < count; i++) {
		ltt_trigger_desc_get(r, &descs[i], minor);
		ltt_conv_trigger_desc_to_info(&descs[i], &infos[i], more + (size_t)i * MORE_CAPTURES);
	}
	if (ltt_rbuf_end(r)) {
		free(infos);
		return -LTT_ERR_PROTOCOL;
	}
	*ret = infos;
	return 0;
}

const struct ltt_trigger_desc *ltt_lib_trigger_descs(const struct ltt_trigger_info *v, size_t n)
{
	return v ? (const struct ltt_trigger_desc *)(v + n) : NULL;	/* none: NULL */
}

/*
 * ltt_ctl_list_triggers@@LTT_CTL_1.8 (libltt-ctl.sym): more_captures and
 * nr_more_captures set; the LTT_CTL_1.4 one below for older programs.
 */
int ltt_ctl_list_triggers(struct ltt_ctl *ctl, struct ltt_trigger_info **ret_triggers,
			  size_t *ret_count)
{
	struct ltt_trigger_info *infos = NULL;
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	uint32_t count;
	size_t n = 0;
	int ret = check_ctl(ctl);

	if (ret)
		return ret;
	if (!ret_triggers || !ret_count)
		return -LTT_ERR_INVAL;
	ret = ctl_transact(ctl, LTT_CLIENT_CMD_LIST_TRIGGERS, NULL, &reply, &n);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, n);
	count = ltt_rbuf_get_u32(&r);
	/* each trigger takes at least a few dozen bytes: a count that can't fit is a lie */
	if (count > n / 32)
		ret = -LTT_ERR_PROTOCOL;
	else if (count)
		ret = decode_list(&r, ctl_minor(ctl), count, &infos);
	else if (ltt_rbuf_end(&r))
		ret = -LTT_ERR_PROTOCOL;
	free(reply);
	if (ret)
		return ret;
	*ret_triggers = infos;
	*ret_count = count;
	return 0;
}

/*
 * ltt_ctl_list_triggers@LTT_CTL_1.4, which programs built before
 * more_captures (client 1.33) call: for them, more_captures and
 * nr_more_captures are reserved room, which a library returns zeroed and
 * takes back zeroed only.  Such a program may copy a listed condition,
 * free the list and add the copy; with those fields set, it would pass
 * this library a pointer into the freed block.  So its triggers come
 * with the room zeroed: the captures in the array (the first
 * LTT_TRIGGER_MAX_CAPTURES), as that program knows them.
 */
int ltt_lib_list_triggers_1_4(struct ltt_ctl *ctl, struct ltt_trigger_info **ret_triggers,
			      size_t *ret_count)
{
	struct ltt_trigger_condition *c;
	size_t i, n = 0;
	int ret;

	ret = ltt_ctl_list_triggers(ctl, ret_triggers, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		c = &(*ret_triggers)[i].attr.condition;
		c->more_captures = NULL;
		c->nr_more_captures = 0;
	}
	*ret_count = n;
	return 0;
}
__asm__(".symver ltt_lib_list_triggers_1_4, ltt_ctl_list_triggers@LTT_CTL_1.4");

int ltt_ctl_subscribe(const char *rundir, const char *trigger,
		      struct ltt_notification_channel **ret_channel)
{
	struct ltt_notification_channel *ch;
	struct ltt_wbuf w;
	int ret;

	if (!ret_channel || (trigger && trigger[0] && !ltt_trigger_name_valid(trigger)))
		return trigger && trigger[0] ? -LTT_ERR_TRIGGER_NAME : -LTT_ERR_INVAL;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -LTT_ERR_NOMEM;
	ret = ltt_ctl_connect(rundir, &ch->ctl);
	if (!ret)
		ret = check_ctl(ch->ctl);
	if (!ret) {
		ltt_wbuf_init(&w);
		ltt_wbuf_put_str(&w, trigger ? trigger : "");
		ret = ctl_transact(ch->ctl, LTT_CLIENT_CMD_SUBSCRIBE, &w, NULL, NULL);
		ltt_wbuf_fini(&w);
	}
	if (ret) {
		ltt_notification_channel_close(ch);
		return ret;
	}
	*ret_channel = ch;
	return 0;
}

int ltt_notification_channel_fd(const struct ltt_notification_channel *ch)
{
	return ch ? ctl_fd(ch->ctl) : -1;
}

/* Wait at most @timeout_ms (-1: no limit) for @fd to be readable: 0, or the error. */
static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -LTT_ERR_SESSIOND_IO;
	return n ? 0 : -LTT_ERR_NOTIFICATION_TIMEOUT;
}

/*
 * Decode @payload into one block: the notification, the captures after
 * its array's (more_captures), its arrays' elements, then its strings.
 */
static int decode_notification(const uint8_t *payload, size_t len, struct ltt_notification **ret)
{
	struct ltt_capture_value *more, *elems, *v;
	struct ltt_notification *n;
	struct ltt_notif_desc d;
	struct ltt_capture_desc e;
	struct ltt_rbuf r;
	size_t nr_elems;
	char *strings;

	ltt_rbuf_init(&r, payload, len);
	ltt_notif_get(&r, &d);
	if (ltt_rbuf_end(&r))
		return -LTT_ERR_PROTOCOL;
	nr_elems = ltt_conv_notif_nr_elems(&d);	/* each took a byte of @payload at least */
	n = malloc(sizeof(*n) + (MORE_CAPTURES + nr_elems) * sizeof(*more) + len);
	if (!n)
		return -LTT_ERR_NOMEM;
	more = (struct ltt_capture_value *)(n + 1);
	elems = more + MORE_CAPTURES;
	strings = ltt_conv_notif_to_notification(&d, n, more, elems, (char *)(elems + nr_elems));
	/* the arrays' elements, checked by ltt_notif_get(): none an array */
	for (uint32_t i = 0; i < d.nr_captures; i++) {
		if (d.captures[i].type != LTT_CAPTURE_ARRAY || !d.captures[i].elems)
			continue;
		v = i < LTT_TRIGGER_MAX_CAPTURES ? &n->captures[i] :
						   &more[i - LTT_TRIGGER_MAX_CAPTURES];
		ltt_rbuf_init(&r, d.captures[i].elems, d.captures[i].elems_len);
		for (uint32_t j = 0; j < v->nr_elements; j++) {
			ltt_capture_get(&r, &e);
			strings = ltt_conv_capture_value(&e, (struct ltt_capture_value *)v->elements + j,
							 NULL, strings);
		}
	}
	*ret = n;
	return 0;
}

int ltt_notification_channel_read(struct ltt_notification_channel *ch, int timeout_ms,
				  struct ltt_notification **ret_notification)
{
	uint8_t hdrbuf[LTT_CLIENT_HDR_SIZE], *payload;
	struct ltt_client_hdr hdr;
	int64_t deadline;
	int fd, ret;

	if (!ch || !ret_notification)
		return -LTT_ERR_INVAL;
	if (ch->ended)
		return -LTT_ERR_TRIGGER_NOT_FOUND;
	fd = ctl_fd(ch->ctl);
	ret = wait_readable(fd, timeout_ms < 0 ? -1 : timeout_ms);
	if (ret)
		return ret;
	deadline = ltt_deadline_ms(MSG_REST_MS);
	if (ltt_io_read_all_until(fd, hdrbuf, sizeof(hdrbuf), deadline))
		return -LTT_ERR_SESSIOND_IO;
	if (ltt_client_hdr_decode(hdrbuf, &hdr) || hdr.cmd != LTT_CLIENT_CMD_NOTIFICATION)
		return -LTT_ERR_PROTOCOL;
	if (hdr.status) {
		if (hdr.payload_len || hdr.status > LTT_CLIENT_STATUS_MAX)
			return -LTT_ERR_PROTOCOL;
		ch->ended = hdr.status == LTT_ERR_TRIGGER_NOT_FOUND;
		return ctl_err((enum ltt_error_code)hdr.status);
	}
	payload = malloc(hdr.payload_len ? hdr.payload_len : 1);
	if (!payload)
		return -LTT_ERR_NOMEM;
	ret = ltt_io_read_all_until(fd, payload, hdr.payload_len, deadline) ?
	      -LTT_ERR_SESSIOND_IO : decode_notification(payload, hdr.payload_len, ret_notification);
	free(payload);
	return ret;
}

void ltt_notification_channel_close(struct ltt_notification_channel *ch)
{
	if (!ch)
		return;
	ltt_ctl_disconnect(ch->ctl);
	free(ch);
}
