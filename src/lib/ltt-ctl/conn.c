// SPDX-License-Identifier: LGPL-2.1-only
/*
 * conn.c - libltt-ctl's connection to a session daemon: its run
 * directory, the call timeout, HELLO, and one request and its reply
 * (transact) on which every call of the client protocol
 * (src/common/proto/client-proto.h) is built.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/model/agent.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

struct ltt_ctl {
	int fd;			/* non-blocking: every call has a deadline */
	unsigned int timeout_ms;	/* per call; 0: none */
	bool timed_out;		/* a call timed out: the stream is out of step */
	uint32_t minor;		/* agreed protocol minor */
	char rundir[PATH_MAX];
	char daemon_version[64];
	char detail[LTT_LIB_DETAIL_MAX];	/* ltt_ctl_error_detail() */
};

char *ltt_lib_detail(struct ltt_ctl *ctl)
{
	ctl->detail[0] = '\0';
	return ctl->detail;
}

const char *ltt_ctl_error_detail(const struct ltt_ctl *ctl)
{
	return ctl ? ctl->detail : "";
}

/* Is the calling user a member of @group (primary or supplementary)? */
static bool in_group(const char *group)
{
	struct group *gr = getgrnam(group);
	gid_t groups[NGROUPS_MAX];
	int i, n;

	if (!gr)
		return false;
	if (getegid() == gr->gr_gid)
		return true;
	n = getgroups(NGROUPS_MAX, groups);
	for (i = 0; i < n; i++)
		if (groups[i] == gr->gr_gid)
			return true;
	return false;
}

/* The tracing group: $LTT_SESSIOND_GROUP (lttctl -g), else ltt's. */
static const char *tracing_group(void)
{
	const char *env = getenv("LTT_SESSIOND_GROUP");

	return env && *env ? env : LTT_TRACING_GROUP;
}

int ltt_ctl_default_rundir(char *buf, size_t len)
{
	const char *env = getenv("LTT_RUNDIR");

	if (!buf)
		return -LTT_ERR_INVAL;
	if (env && *env)
		return ltt_path_absolute(buf, len, env) ? -LTT_ERR_INVAL : 0;
	if (geteuid() == 0 ||
	    (in_group(tracing_group()) &&
	     access(LTT_ROOT_RUNDIR "/" LTT_CLIENT_SOCKET_NAME, F_OK) == 0)) {
		if (strlen(LTT_ROOT_RUNDIR) >= len)
			return -LTT_ERR_INVAL;
		strcpy(buf, LTT_ROOT_RUNDIR);
		return 0;
	}
	return ltt_home_find(LTT_HOME_RUNDIR, buf, len) ? -LTT_ERR_INVAL : 0;
}

int ltt_ctl_timeout_from_env(unsigned int *ret_ms)
{
	const char *env = getenv("LTT_CTL_TIMEOUT");
	unsigned long ms = 0, scale = 1000;
	const char *p;

	if (!ret_ms)
		return -LTT_ERR_INVAL;
	*ret_ms = LTT_CTL_DEFAULT_TIMEOUT_MS;
	if (!env || !*env)
		return 0;
	for (p = env; *p >= '0' && *p <= '9' && p - env < 6; p++)
		ms = ms * 10 + (unsigned long)(*p - '0') * 1000;
	if (p == env)
		return -LTT_ERR_INVAL;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9' && scale > 1; p++) {
			scale /= 10;
			ms += (unsigned long)(*p - '0') * scale;
		}
	}
	if (*p || ms > 86400UL * 1000)
		return -LTT_ERR_INVAL;
	*ret_ms = (unsigned int)ms;
	return 0;
}

int ltt_ctl_set_timeout(struct ltt_ctl *ctl, unsigned int ms)
{
	if (!ctl)
		return -LTT_ERR_INVAL;
	ctl->timeout_ms = ms;
	return 0;
}

/* The deadline of a call starting now. */
static int64_t call_deadline(const struct ltt_ctl *ctl)
{
	/* No deadline: far enough that it never comes, near enough not to overflow. */
	return ltt_deadline_ms(ctl->timeout_ms ? (int64_t)ctl->timeout_ms : INT64_MAX / 4);
}

/* A connection error: -ETIMEDOUT leaves the stream out of step for good. */
static int io_error(struct ltt_ctl *ctl, int err)
{
	if (err != -ETIMEDOUT)
		return -LTT_ERR_SESSIOND_IO;
	ctl->timed_out = true;
	return -LTT_ERR_SESSIOND_TIMEOUT;
}

static int conn_check(struct ltt_ctl *ctl);

/*
 * One request and its reply.  On success *ret_reply is a heap buffer of
 * *ret_len bytes (NULL when empty) that the caller frees.  Returns 0, the
 * negated status of the reply, or a connection error.
 */
static int transact(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const struct ltt_wbuf *req,
		    uint8_t **ret_reply, size_t *ret_len)
{
	uint8_t hdrbuf[LTT_CLIENT_HDR_SIZE];
	struct ltt_client_hdr hdr = {
		.magic = LTT_CLIENT_MAGIC,
		.cmd = (uint16_t)cmd,
		.payload_len = req ? (uint32_t)req->len : 0,
	};
	int64_t deadline = call_deadline(ctl);
	uint8_t *payload = NULL;
	bool written = true;
	int ret;

	if (ctl->timed_out)
		return -LTT_ERR_SESSIOND_TIMEOUT;
	if (req && req->err)
		return -LTT_ERR_NOMEM;
	if (req && req->len > LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE)
		return -LTT_ERR_INVAL;
	if (cmd != LTT_CLIENT_CMD_HELLO) {
		ret = conn_check(ctl);
		if (ret)
			return ret;
	}
	ltt_client_hdr_encode(&hdr, hdrbuf);
	/*
	 * A daemon that refuses us (credentials, too many clients) replies
	 * first and closes, so a failed write may still have a reply to read.
	 */
	ret = ltt_io_write_all_until(ctl->fd, hdrbuf, sizeof(hdrbuf), deadline);
	if (!ret && req && req->len)
		ret = ltt_io_write_all_until(ctl->fd, req->data, req->len, deadline);
	if (ret == -ETIMEDOUT)
		return io_error(ctl, ret);
	if (ret)
		written = false;
	ret = ltt_io_read_all_until(ctl->fd, hdrbuf, sizeof(hdrbuf), deadline);
	if (ret)
		return io_error(ctl, ret);
	if (ltt_client_hdr_decode(hdrbuf, &hdr))
		return -LTT_ERR_PROTOCOL;
	if (!written && !hdr.status)
		return -LTT_ERR_SESSIOND_IO;
	if (hdr.status) {
		/*
		 * A code this library does not know (a newer daemon's) is still
		 * the daemon's answer: ltt_strerror() says its number.
		 */
		if (hdr.status > LTT_CLIENT_STATUS_MAX || hdr.payload_len)
			return -LTT_ERR_PROTOCOL;
		return ctl_err((enum ltt_error_code)hdr.status);
	}
	if (hdr.cmd != cmd)
		return -LTT_ERR_PROTOCOL;
	if (hdr.payload_len) {
		payload = malloc(hdr.payload_len);
		if (!payload)
			return -LTT_ERR_NOMEM;
		ret = ltt_io_read_all_until(ctl->fd, payload, hdr.payload_len, deadline);
		if (ret) {
			free(payload);
			return io_error(ctl, ret);
		}
	}
	if (ret_reply) {
		*ret_reply = payload;
		*ret_len = hdr.payload_len;
	} else {
		free(payload);
		if (hdr.payload_len)
			return -LTT_ERR_PROTOCOL;
	}
	return 0;
}

static int hello(struct ltt_ctl *ctl)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint8_t *reply = NULL;
	size_t len = 0;
	uint32_t major, minor;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, LTT_CLIENT_MAJOR);
	ltt_wbuf_put_u32(&w, LTT_CLIENT_MINOR);
	ret = transact(ctl, LTT_CLIENT_CMD_HELLO, &w, &reply, &len);
	ltt_wbuf_fini(&w);
	if (ret == -LTT_ERR_PERM)
		return -LTT_ERR_SESSIOND_PERM;
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	major = ltt_rbuf_get_u32(&r);
	minor = ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_str_copy(&r, ctl->daemon_version, sizeof(ctl->daemon_version));
	ret = ltt_rbuf_end(&r) ? -LTT_ERR_PROTOCOL : 0;
	free(reply);
	if (!ret && major != LTT_CLIENT_MAJOR)
		ret = -LTT_ERR_VERSION_MISMATCH;
	ctl->minor = minor > LTT_CLIENT_MINOR ? LTT_CLIENT_MINOR : minor;
	return ret;
}

/* Connect to the daemon of ctl->rundir and say HELLO: 0 or -LTT_ERR_*. */
static int conn_open(struct ltt_ctl *ctl)
{
	char path[PATH_MAX];
	int ret;

	if (ltt_path_join(path, sizeof(path), ctl->rundir, LTT_CLIENT_SOCKET_NAME))
		return -LTT_ERR_INVAL;
	ret = ltt_sock_connect_unix_nb(path, &ctl->fd);
	switch (ret) {
	case 0:
		break;
	case -EAGAIN:
		/* Its backlog is full: it has not accepted anyone for a while. */
		return -LTT_ERR_SESSIOND_TIMEOUT;
	case -EACCES:
	case -EPERM:
		return -LTT_ERR_SESSIOND_PERM;
	case -ENOENT:
	case -ECONNREFUSED:
	case -ENOTDIR:
		return -LTT_ERR_SESSIOND_NOT_RUNNING;
	case -ENAMETOOLONG:
		return -LTT_ERR_RUNDIR_TOO_LONG;
	default:
		return -LTT_ERR_SESSIOND_IO;
	}
	return hello(ctl);
}

/*
 * Between calls, the daemon closes a connection idle past its deadline
 * (ltt-sessiond --client-idle-timeout): before a request, a connection
 * the daemon hung up is opened again, so nothing was sent on it and no
 * request can run twice.  0 or -LTT_ERR_*.
 */
static int conn_check(struct ltt_ctl *ctl)
{
	struct pollfd p = { .fd = ctl->fd, .events = POLLIN | POLLRDHUP };
	char byte;

	if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR)))
		return 0;
	/* readable between calls: only the end of the stream can be there */
	if (recv(ctl->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0)
		return 0;	/* bytes nobody asked for: the call finds them out of step */
	close(ctl->fd);
	ctl->fd = -1;
	return conn_open(ctl);
}

int ltt_ctl_connect(const char *rundir, struct ltt_ctl **ret_ctl)
{
	struct ltt_ctl *ctl;
	int ret;

	if (!ret_ctl)
		return -LTT_ERR_INVAL;
	ctl = calloc(1, sizeof(*ctl));
	if (!ctl)
		return -LTT_ERR_NOMEM;
	ctl->fd = -1;
	ret = ltt_ctl_timeout_from_env(&ctl->timeout_ms);
	if (ret)
		goto err;
	if (rundir) {
		if (strlen(rundir) >= sizeof(ctl->rundir)) {
			ret = -LTT_ERR_INVAL;
			goto err;
		}
		strcpy(ctl->rundir, rundir);
	} else {
		ret = ltt_ctl_default_rundir(ctl->rundir, sizeof(ctl->rundir));
		if (ret)
			goto err;
	}
	ret = conn_open(ctl);
	if (ret)
		goto err;
	*ret_ctl = ctl;
	return 0;
err:
	ltt_ctl_disconnect(ctl);
	return ret;
}

void ltt_ctl_disconnect(struct ltt_ctl *ctl)
{
	if (!ctl)
		return;
	if (ctl->fd >= 0)
		close(ctl->fd);
	free(ctl);
}

const char *ltt_ctl_rundir(const struct ltt_ctl *ctl)
{
	return ctl ? ctl->rundir : NULL;
}

int ltt_ctl_daemon_version(struct ltt_ctl *ctl, char *buf, size_t len)
{
	if (!ctl || !buf || strlen(ctl->daemon_version) >= len)
		return -LTT_ERR_INVAL;
	strcpy(buf, ctl->daemon_version);
	return 0;
}

/* Start a request whose payload opens with {str session, u32 domain}. */
int ctl_begin_domain_req(struct ltt_wbuf *w, const struct ltt_ctl *ctl, const char *session,
			 enum ltt_domain domain)
{
	if (!ctl || !session || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	if (domain != LTT_DOMAIN_KERNEL && domain != LTT_DOMAIN_USER && !ltt_agent_domain(domain))
		return -LTT_ERR_DOMAIN;
	/* the agent domains have rules only: the daemon refuses them elsewhere */
	if (!ltt_proto_domain_known(ctl->minor, domain))
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(w);
	ltt_wbuf_put_str(w, session);
	ltt_wbuf_put_u32(w, domain);
	return 0;
}

int ctl_begin_session_req(struct ltt_wbuf *w, const struct ltt_ctl *ctl, const char *session,
			  uint32_t minor)
{
	if (!ctl || !session || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	if (ctl->minor < minor)
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(w);
	ltt_wbuf_put_str(w, session);
	return 0;
}

void *ctl_reply_array(struct ltt_rbuf *r, size_t min_size, size_t size, size_t *ret_n)
{
	uint32_t n = ltt_rbuf_get_u32(r);

	*ret_n = 0;
	if (r->err || n > (r->len - r->pos) / min_size) {
		ltt_rbuf_fail(r);
		return NULL;
	}
	*ret_n = n;
	return calloc(n ? n : 1, size);
}

int ctl_reply_end(struct ltt_rbuf *r, const void *array)
{
	if (!array && !r->err)
		return -LTT_ERR_NOMEM;
	return ltt_rbuf_end(r) ? -LTT_ERR_PROTOCOL : 0;
}

int ctl_session_list(struct ltt_ctl *ctl, const struct ctl_list_call *call, const char *session,
		     void *ret_array, size_t *ret_count)
{
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	size_t i, n;
	char *array;
	int ret;

	if (!ret_array || !ret_count)
		return -LTT_ERR_INVAL;
	ret = ctl_session_call(ctl, call->cmd, session, call->minor, &reply, &r);
	if (ret)
		return ret;
	array = ctl_reply_array(&r, call->min_size, call->size, &n);
	for (i = 0; array && i < n && !r.err; i++)
		call->get(&r, array + i * call->size, ctl);
	ret = ctl_reply_end(&r, array);
	free(reply);
	if (ret) {
		if (call->drop)
			call->drop(array, n);
		else
			free(array);
		return ret;
	}
	/* every object pointer has one representation: the caller's type */
	memcpy(ret_array, &array, sizeof(array));
	*ret_count = n;
	return 0;
}

int ctl_session_call(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const char *session,
		     uint32_t minor, uint8_t **ret_reply, struct ltt_rbuf *r)
{
	struct ltt_wbuf w;
	size_t len = 0;
	int ret = ctl_begin_session_req(&w, ctl, session, minor);

	if (!ret)
		ret = ctl_send_req(ctl, cmd, &w, ret_reply, ret_reply ? &len : NULL);
	if (!ret && r)
		ltt_rbuf_init(r, *ret_reply, len);
	return ret;
}

int ctl_send_req(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, struct ltt_wbuf *w,
		 uint8_t **ret_reply, size_t *ret_len)
{
	int ret = transact(ctl, cmd, w, ret_reply, ret_len);

	ltt_wbuf_fini(w);
	return ret;
}

int ctl_send_read(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, struct ltt_wbuf *w,
		  void (*get)(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl),
		  void *element)
{
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	size_t len = 0;
	int ret;

	ret = ctl_send_req(ctl, cmd, w, &reply, &len);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	get(&r, element, ctl);
	ret = ltt_rbuf_end(&r) ? -LTT_ERR_PROTOCOL : 0;
	free(reply);
	return ret;
}

/* The request {str session} of @cmd, its reply read whole by @get. */
int ctl_session_read(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const char *session,
		     uint32_t minor,
		     void (*get)(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl),
		     void *element)
{
	struct ltt_wbuf w;
	int ret = ctl_begin_session_req(&w, ctl, session, minor);

	if (ret)
		return ret;
	return ctl_send_read(ctl, cmd, &w, get, element);
}

int ctl_transact(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const struct ltt_wbuf *req,
		 uint8_t **ret_reply, size_t *ret_len)
{
	return transact(ctl, cmd, req, ret_reply, ret_len);
}

int ctl_fd(const struct ltt_ctl *ctl)
{
	return ctl->fd;
}

uint32_t ctl_minor(const struct ltt_ctl *ctl)
{
	return ctl->minor;
}
