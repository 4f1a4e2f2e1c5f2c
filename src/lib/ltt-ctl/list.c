// SPDX-License-Identifier: LGPL-2.1-only
/*
 * list.c - libltt-ctl's listings: the sessions, one session in detail
 * (its channels, rules and stalled consumers), and the events the
 * tracers offer (tracepoints with their fields, syscalls, agents' loggers).
 */
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/model/agent.h"
#include "common/model/convert.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

/*
 * Read a u32 count of objects of at least @min_size bytes each, refusing
 * counts that the rest of the message cannot hold.
 */
static size_t get_count(struct ltt_rbuf *r, size_t min_size)
{
	uint32_t n = ltt_rbuf_get_u32(r);

	if (r->err || n > (r->len - r->pos) / min_size) {
		ltt_rbuf_fail(r);
		return 0;
	}
	return n;
}

/* Smallest encodings, to bound counts read from a reply. */
#define SESSION_INFO_MIN (3 * LTT_WIRE_STR_MIN + 8 + 4 + 1 + 1 + 4 + 4 + 8)
#define CHANNEL_INFO_MIN (4 + LTT_WIRE_STR_MIN + 8 * 4 + 1 + 4 * 3 + 1 + 8 * 2)
#define RULE_INFO_MIN (4 + 2 * LTT_WIRE_STR_MIN + 8 + 1)
#define TRACEPOINT_INFO_MIN (4 + 2 * LTT_WIRE_STR_MIN + 4 + 4)

int ltt_ctl_list_sessions(struct ltt_ctl *ctl, struct ltt_session_info **ret_sessions,
			  size_t *ret_count)
{
	struct ltt_session_info *sessions = NULL;
	struct ltt_session_desc desc;
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	size_t i, n, len = 0;
	int ret;

	if (!ctl || !ret_sessions || !ret_count)
		return -LTT_ERR_INVAL;
	ret = ctl_transact(ctl, LTT_CLIENT_CMD_LIST_SESSIONS, NULL, &reply, &len);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	n = get_count(&r, SESSION_INFO_MIN);
	/* One block: the sessions, then their clocks' reasons. */
	sessions = calloc(n ? n : 1, sizeof(*sessions) + LTT_CONV_REASON_ROOM);
	if (!sessions) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ltt_proto_get_session_info(&r, &desc, ctl_minor(ctl));
		ltt_conv_session_desc_to_info(&desc, &sessions[i],
					      (char *)(sessions + n) + i * LTT_CONV_REASON_ROOM);
	}
	if (ltt_rbuf_end(&r)) {
		ret = -LTT_ERR_PROTOCOL;
		goto out;
	}
	*ret_sessions = sessions;
	*ret_count = n;
	sessions = NULL;
out:
	free(sessions);
	free(reply);
	return ret;
}

/* Where a session detail's block keeps the clock's reason: after the stalls. */
static char *detail_reason(struct ltt_session_detail *d)
{
	return (char *)((struct ltt_consumer_stall_info *)(d + 1) + CTL_STALLS_MAX);
}

/* Then the TLS files: their struct and three paths; then the shm path. */
#define TLS_ROOM (sizeof(struct ltt_session_tls) + 4 * LTT_PATH_MAX)

static struct ltt_session_tls *detail_tls(struct ltt_session_detail *d)
{
	return (struct ltt_session_tls *)(detail_reason(d) + LTT_CONV_REASON_ROOM);
}

/*
 * The TLS files that end a GET_SESSION reply (LTT_CLIENT_MINOR_TLS) into
 * @conf's three fields ("" before, or for none).  Returns 0 or
 * -LTT_ERR_PROTOCOL.
 */
static int get_tls(struct ltt_rbuf *r, uint32_t minor, struct ltt_session_conf *conf)
{
	ltt_proto_get_session_tls(r, conf, minor);
	return r->err ? -LTT_ERR_PROTOCOL : 0;
}

/*
 * @conf's TLS files and shm path into @d's room, d->tls and d->shm_path
 * pointing at them (NULL: none).
 */
static void keep_tls(struct ltt_session_detail *d, const struct ltt_session_conf *conf)
{
	struct ltt_session_tls *t = detail_tls(d);
	char *p = (char *)(t + 1);

	d->shm_path = conf->shm_path[0] ? strcpy(p + 3 * LTT_PATH_MAX, conf->shm_path) : NULL;
	d->shm_error = conf->shm_error;
	d->shm_error_since = conf->shm_error_since;
	d->tls = NULL;
	if (!conf->tls_cert[0])
		return;
	t->cert = strcpy(p, conf->tls_cert);
	t->key = strcpy(p + LTT_PATH_MAX, conf->tls_key);
	t->ca = strcpy(p + 2 * LTT_PATH_MAX, conf->tls_ca);
	d->tls = t;
}

int ltt_ctl_get_session(struct ltt_ctl *ctl, const char *session,
			struct ltt_session_detail **ret_detail)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_session_conf *tls = NULL;
	struct ltt_channel_desc cdesc;
	struct ltt_session_desc info;
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	size_t i, nch, nr;
	int ret;

	if (!ret_detail)
		return -LTT_ERR_INVAL;
	ret = ctl_session_call(ctl, LTT_CLIENT_CMD_GET_SESSION, session, 0, &reply, &r);
	if (ret)
		return ret;
	ltt_proto_get_session_info(&r, &info, ctl_minor(ctl));
	nch = get_count(&r, CHANNEL_INFO_MIN);
	/*
	 * One block: the detail, room for the stalls, the clock's reason,
	 * the channels, the rules.
	 */
	d = calloc(1, sizeof(*d) + CTL_STALLS_MAX * sizeof(d->stalls[0]) + LTT_CONV_REASON_ROOM +
			      TLS_ROOM + nch * sizeof(d->channels[0]));
	tls = calloc(1, sizeof(*tls));
	if (!d || !tls) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	d->nr_channels = nch;
	d->channels = (struct ltt_channel_info *)((char *)detail_tls(d) + TLS_ROOM);
	for (i = 0; i < nch; i++) {
		ltt_proto_get_channel(&r, &cdesc, ctl_minor(ctl));
		ltt_conv_channel_desc_to_info(&cdesc, &d->channels[i]);
	}
	nr = get_count(&r, RULE_INFO_MIN);
	ret = ctl_get_rules(&r, ctl_minor(ctl), nr, &d);
	if (!ret)
		ret = ctl_get_stalls(&r, ctl_minor(ctl), d);
	if (!ret)
		ret = get_tls(&r, ctl_minor(ctl), tls);
	if (ret)
		goto out;
	if (ltt_rbuf_end(&r)) {
		ret = -LTT_ERR_PROTOCOL;
		goto out;
	}
	/* after the rules, which move the block */
	ltt_conv_session_desc_to_info(&info, &d->info, detail_reason(d));
	keep_tls(d, tls);
	*ret_detail = d;
	d = NULL;
out:
	free(d);
	free(tls);
	free(reply);
	return ret;
}

/* One listed tracepoint, its fields at @fields (room for nr_fields). */
static uint32_t get_tracepoint_info(struct ltt_rbuf *r, struct ltt_tracepoint_info *tp,
				    struct ltt_field_info *fields, bool fill)
{
	uint32_t i, n;

	tp->pid = (pid_t)ltt_rbuf_get_u32(r);
	ltt_rbuf_get_str_copy(r, tp->procname, sizeof(tp->procname));
	ltt_rbuf_get_str_copy(r, tp->name, sizeof(tp->name));
	tp->loglevel = (int)ltt_rbuf_get_u32(r);
	n = ltt_rbuf_get_u32(r);
	for (i = 0; i < n && !r->err; i++) {
		struct ltt_field_info scratch, *f = fill ? &fields[i] : &scratch;

		ltt_rbuf_get_str_copy(r, f->name, sizeof(f->name));
		ltt_rbuf_get_str_copy(r, f->type, sizeof(f->type));
	}
	tp->nr_fields = n;
	tp->fields = fill ? fields : NULL;
	return n;
}

int ltt_ctl_list_tracepoints(struct ltt_ctl *ctl, bool with_fields,
			     struct ltt_tracepoint_info **ret_tps, size_t *ret_count)
{
	return ltt_ctl_list_events(ctl, LTT_DOMAIN_USER, LTT_EVENT_TRACEPOINT, with_fields,
				   ret_tps, ret_count);
}

int ltt_ctl_list_events(struct ltt_ctl *ctl, enum ltt_domain domain, enum ltt_event_type type,
			bool with_fields, struct ltt_tracepoint_info **ret_tps, size_t *ret_count)
{
	struct ltt_list_tracepoints_req req = {
		.with_fields = with_fields, .domain = domain, .type = type,
	};
	struct ltt_tracepoint_info *tps = NULL, scratch;
	struct ltt_field_info *fields;
	size_t i, n, nr_fields = 0, len = 0;
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	int ret;

	if (!ctl || !ret_tps || !ret_count ||
	    (domain != LTT_DOMAIN_USER && domain != LTT_DOMAIN_KERNEL && !ltt_agent_domain(domain)))
		return -LTT_ERR_INVAL;
	if (type != LTT_EVENT_TRACEPOINT && (type != LTT_EVENT_SYSCALL || domain != LTT_DOMAIN_KERNEL))
		return -LTT_ERR_EVENT_TYPE;
	if (!ltt_proto_domain_known(ctl_minor(ctl), domain))
		return -LTT_ERR_NOT_SUPPORTED;
	/* Minor 0 lists the user-space tracepoints only. */
	if (ctl_minor(ctl) < 1 && (domain != LTT_DOMAIN_USER || type != LTT_EVENT_TRACEPOINT))
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(&w);
	ltt_proto_put_list_tracepoints(&w, &req, ctl_minor(ctl));
	ret = ctl_send_req(ctl, LTT_CLIENT_CMD_LIST_TRACEPOINTS, &w, &reply, &len);
	if (ret)
		return ret;
	/* Count the fields first, so that one block holds everything. */
	ltt_rbuf_init(&r, reply, len);
	n = get_count(&r, TRACEPOINT_INFO_MIN);
	for (i = 0; i < n && !r.err; i++)
		nr_fields += get_tracepoint_info(&r, &scratch, NULL, false);
	if (ltt_rbuf_end(&r)) {
		ret = -LTT_ERR_PROTOCOL;
		goto out;
	}
	tps = calloc(1, n * sizeof(*tps) + nr_fields * sizeof(*fields) + 1);
	if (!tps) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	fields = (struct ltt_field_info *)(tps + n);
	ltt_rbuf_init(&r, reply, len);
	ltt_rbuf_get_u32(&r);
	for (i = 0; i < n; i++) {
		fields += get_tracepoint_info(&r, &tps[i], fields, true);
		/* a logger has no level: the word holds its entry's flags */
		if (ltt_agent_domain(domain)) {
			tps[i].pid_claimed = !!((uint32_t)tps[i].loglevel & LTT_LIST_AGENT_PID_CLAIMED);
			tps[i].loglevel = 0;
		} else if (domain == LTT_DOMAIN_USER &&
			   ((uint32_t)tps[i].loglevel & LTT_LIST_OWN_LTTNG_UST)) {
			/* a program of LTTng-UST's own library: the word is its ABI */
			tps[i].own_lttng_ust = (uint32_t)tps[i].loglevel;
			tps[i].loglevel = 0;
		}
	}
	*ret_tps = tps;
	*ret_count = n;
out:
	free(reply);
	return ret;
}
