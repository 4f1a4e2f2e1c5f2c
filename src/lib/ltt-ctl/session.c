// SPDX-License-Identifier: LGPL-2.1-only
/*
 * session.c - libltt-ctl's session calls: create (with the defaults an
 * older daemon leaves to its client), destroy, start, stop, data pending,
 * and the state of a session's relay.
 */
#include <limits.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/base/paths.h"
#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

void ltt_ctl_session_attr_init(struct ltt_session_attr *attr)
{
	if (!attr)
		return;
	memset(attr, 0, sizeof(*attr));
	attr->output_type = LTT_OUTPUT_LOCAL;
}

/*
 * For a daemon older than client protocol minor 6, or LTTng's traces
 * directory (a home of LTTng's layout, $LTTNG_HOME, or @lttng: the
 * daemon knows ltt's only): fill in the automatic name and default
 * output of a session to create, as the daemon does from minor 6 on.
 * Automatic names are "auto-DATE", then "auto-DATE-N" for the
 * @attempt-th retry when several sessions are created in the same second.
 */
static int complete_session_attr(struct ltt_session_conf *attr, bool lttng,
				 unsigned int attempt)
{
	char date[LTT_SESSION_DATE_MAX], dir[PATH_MAX];
	bool automatic = !attr->name[0];

	if (ltt_attr_session_auto_name(attr, automatic, attempt, date))
		return -LTT_ERR_INVAL;
	if (attr->output_type != LTT_OUTPUT_LOCAL || attr->output[0])
		return 0;
	if (ltt_home_traces(lttng, dir, sizeof(dir)) ||
	    ltt_attr_session_auto_output(attr, automatic, dir, date))
		return -LTT_ERR_OUTPUT_PATH;
	return 0;
}

/* CREATE_SESSION's reply: the session's description. */
static void get_info(struct ltt_rbuf *r, void *desc, const struct ltt_ctl *ctl)
{
	ltt_proto_get_session_info(r, desc, ctl_minor(ctl));
}

/*
 * One CREATE_SESSION request.  From minor 6 on, @attr may leave its name
 * and local output empty, and our home goes with it, for the daemon to
 * resolve them; before, @attr must be complete.
 */
static int create_once(struct ltt_ctl *ctl, const struct ltt_session_conf *attr,
		       struct ltt_session_info *ret_info)
{
	bool defaults = ctl_minor(ctl) >= LTT_CLIENT_MINOR_DAEMON_DEFAULTS;
	struct ltt_session_create_req req = { .conf = *attr, .home = "" };
	struct ltt_session_desc info;
	char home[LTT_PATH_MAX];
	struct ltt_wbuf w;
	int ret;

	ret = ctl_err(defaults ? ltt_attr_check_session_request(attr) : ltt_attr_check_session(attr));
	if (ret)
		return ret;
	if (attr->tls_cert[0] && ctl_minor(ctl) < LTT_CLIENT_MINOR_TLS)
		return -LTT_ERR_NOT_SUPPORTED;	/* a daemon before TLS would stream in clear */
	if (attr->shm_path[0] && ctl_minor(ctl) < LTT_CLIENT_MINOR_SHM_PATH)
		return -LTT_ERR_SHM_PATH_DAEMON;	/* it would drop it: say so */
	if (attr->trace_format == LTT_TRACE_FORMAT_CTF_2 &&
	    ctl_minor(ctl) < LTT_CLIENT_MINOR_TRACE_FORMAT)
		return -LTT_ERR_TRACE_FORMAT_DAEMON;	/* it would write CTF 1.8 */
	/* No home known: the daemon uses the owner's. */
	if (defaults && !ltt_home_find(LTT_HOME_DIR, home, sizeof(home)) && home[0] == '/')
		req.home = home;
	ltt_wbuf_init(&w);
	ltt_proto_put_session_create(&w, &req, ctl_minor(ctl));
	ret = ctl_send_read(ctl, LTT_CLIENT_CMD_CREATE_SESSION, &w, get_info, &info);
	if (!ret && ret_info)
		ltt_conv_session_desc_to_info(&info, ret_info, NULL);
	return ret;
}

/* Automatic names taken in the same second are retried this many times. */
#define AUTO_NAME_ATTEMPTS 100

int ltt_ctl_create_session(struct ltt_ctl *ctl, const struct ltt_session_attr *attr,
			   struct ltt_session_info *ret_info)
{
	struct ltt_session_conf conf, full;
	unsigned int attempt = 0;
	int ret;

	if (!ctl || !attr || !memchr(attr->name, '\0', sizeof(attr->name)) ||
	    !memchr(attr->output, '\0', sizeof(attr->output)))
		return -LTT_ERR_INVAL;
	ret = ctl_err(ltt_conv_session_attr_to_conf(attr, &conf));
	if (ret)
		return ret;
	/*
	 * The daemon resolves the defaults itself (and retries automatic
	 * names), under ltt-traces.
	 */
	if (ctl_minor(ctl) >= LTT_CLIENT_MINOR_DAEMON_DEFAULTS && !ltt_home_is_lttng() &&
	    !attr->lttng_traces)
		return create_once(ctl, &conf, ret_info);
	do {
		full = conf;
		ret = complete_session_attr(&full, attr->lttng_traces, attempt);
		if (!ret)
			ret = create_once(ctl, &full, ret_info);
	} while (ret == -LTT_ERR_SESSION_EXISTS && !attr->name[0] && ++attempt < AUTO_NAME_ATTEMPTS);
	return ret;
}

/* A command whose request is one session name and whose reply is empty. */
static int session_cmd(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const char *session,
		       int extra_u8)
{
	struct ltt_wbuf w;
	int ret;

	ret = ctl_begin_session_req(&w, ctl, session, 0);
	if (ret)
		return ret;
	if (extra_u8 >= 0)
		ltt_wbuf_put_u8(&w, (uint8_t)extra_u8);
	return ctl_send_req(ctl, cmd, &w, NULL, NULL);
}

int ltt_ctl_destroy_session(struct ltt_ctl *ctl, const char *session)
{
	return session_cmd(ctl, LTT_CLIENT_CMD_DESTROY_SESSION, session, -1);
}

int ltt_ctl_start_session(struct ltt_ctl *ctl, const char *session)
{
	return session_cmd(ctl, LTT_CLIENT_CMD_START_SESSION, session, -1);
}

int ltt_ctl_stop_session(struct ltt_ctl *ctl, const char *session, bool wait)
{
	return session_cmd(ctl, LTT_CLIENT_CMD_STOP_SESSION, session, wait);
}

/* DATA_PENDING's reply: whether data is still to be written. */
static void get_pending(struct ltt_rbuf *r, void *pending, const struct ltt_ctl *ctl)
{
	(void)ctl;
	*(bool *)pending = ltt_rbuf_get_bool(r);
}

int ltt_ctl_data_pending(struct ltt_ctl *ctl, const char *session, bool *ret_pending)
{
	bool pending;
	int ret;

	if (!ret_pending)
		return -LTT_ERR_INVAL;
	ret = ctl_session_read(ctl, LTT_CLIENT_CMD_DATA_PENDING, session, 2, get_pending,
			       &pending);
	if (!ret)
		*ret_pending = pending;
	return ret;
}

/* Smallest encoding of a relay_info, to bound its count. */
#define RELAY_INFO_MIN (4 + 4 + 4 + LTT_WIRE_STR_MIN + 3 * 8)

static void get_relay(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	struct ltt_relay_desc desc;

	(void)ctl;
	ltt_proto_get_relay_info(r, &desc);
	ltt_conv_relay_desc_to_info(&desc, element);
}

static const struct ctl_list_call relay_status = {
	LTT_CLIENT_CMD_RELAY_STATUS, 2, RELAY_INFO_MIN, sizeof(struct ltt_relay_info), get_relay,
	NULL,
};

int ltt_ctl_relay_status(struct ltt_ctl *ctl, const char *session,
			 struct ltt_relay_info **ret_relays, size_t *ret_count)
{
	return ctl_session_list(ctl, &relay_status, session, ret_relays, ret_count);
}

/* Smallest encoding of a mem_stream, to bound its count. */
#define MEM_STREAM_MIN (4 + LTT_WIRE_STR_MIN + 3 * 4 + 2 * 8)

static void get_mem_stream(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	ltt_proto_get_mem_stream(r, element, ctl_minor(ctl));
}

static const struct ctl_list_call mem_usage = {
	LTT_CLIENT_CMD_MEM_USAGE, LTT_CLIENT_MINOR_MEM_USAGE, MEM_STREAM_MIN,
	sizeof(struct ltt_mem_stream), get_mem_stream, NULL,
};

int ltt_ctl_mem_usage(struct ltt_ctl *ctl, const char *session,
		      struct ltt_mem_stream **ret_streams, size_t *ret_count)
{
	return ctl_session_list(ctl, &mem_usage, session, ret_streams, ret_count);
}

/* RECLAIM_MEMORY's reply: the sub-buffers and the bytes given back. */
static void get_reclaimed(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	uint64_t *v = element;

	(void)ctl;
	v[0] = ltt_rbuf_get_u64(r);
	v[1] = ltt_rbuf_get_u64(r);
}

int ltt_ctl_reclaim_memory(struct ltt_ctl *ctl, const char *session, const char *channel,
			   uint64_t older_than_ns, uint64_t *ret_subbufs, uint64_t *ret_bytes)
{
	uint64_t reclaimed[2];		/* sub-buffers, bytes */
	struct ltt_wbuf w;
	int ret;

	if (!ret_subbufs || !ret_bytes || (channel && strlen(channel) >= LTT_NAME_MAX))
		return -LTT_ERR_INVAL;
	ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_MEM_USAGE);
	if (ret)
		return ret;
	ltt_wbuf_put_str(&w, channel ? channel : "");
	ltt_wbuf_put_u64(&w, older_than_ns);
	ret = ctl_send_read(ctl, LTT_CLIENT_CMD_RECLAIM_MEMORY, &w, get_reclaimed, reclaimed);
	if (!ret) {
		*ret_subbufs = reclaimed[0];
		*ret_bytes = reclaimed[1];
	}
	return ret;
}
