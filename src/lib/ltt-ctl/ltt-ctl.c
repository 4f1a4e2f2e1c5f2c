// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ltt-ctl.c - libltt-ctl: connections to a session daemon and the calls
 * of the client protocol (src/common/client-proto.h).
 */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/agent.h"
#include "common/attr.h"
#include "common/client-proto.h"
#include "common/convert.h"
#include "common/paths.h"
#include "common/sock.h"
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
	char home[PATH_MAX];

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
	if (ltt_home_dir(home, sizeof(home)))
		return -LTT_ERR_INVAL;
	if (ltt_path_join(buf, len, home, LTT_PERSONAL_RUNDIR_NAME))
		return -LTT_ERR_INVAL;
	return 0;
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

/*
 * Wait until @deadline for @pid to exit; kill it past that.  Returns its
 * wait status, or -1.
 */
static int wait_child_until(pid_t pid, int64_t deadline)
{
	struct pollfd pfd = { .events = POLLIN };
	int64_t left;
	int status, n;

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	while (pfd.fd >= 0) {
		left = deadline - ltt_deadline_ms(0);
		n = left > 0 ? poll(&pfd, 1, left > 60000 ? 60000 : (int)left) : 0;
		if (n > 0 || (n < 0 && errno != EINTR))
			break;
		if (n == 0 && left <= 60000) {
			kill(pid, SIGKILL);
			break;
		}
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/*
 * Take @rundir's spawn lock, creating the directory as the daemon would
 * (0755 for root's, 0700 otherwise; the daemon checks it).  The lock
 * serializes the lttctl processes that would start a daemon; none waits
 * past @deadline.  Returns the locked fd or a negative errno.
 */
static int spawn_lock(const char *rundir, int64_t deadline)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = ltt_mkdir_p(rundir, geteuid() == 0 ? 0755 : 0700);
	if (!ret)
		ret = ltt_path_join(path, sizeof(path), rundir, "spawn.lock");
	if (ret)
		return ret;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	/* The holder waits for one daemon start at most, itself bounded. */
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if ((errno != EWOULDBLOCK && errno != EINTR) ||
		    ltt_deadline_ms(0) >= deadline) {
			ret = errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
			close(fd);
			return ret;
		}
		poll(NULL, 0, 5);
	}
	return fd;
}

int ltt_ctl_spawn_sessiond(const char *rundir)
{
	const char *prog = getenv("LTT_SESSIOND_PATH"), *group = getenv("LTT_SESSIOND_GROUP");
	char dir[PATH_MAX], sock[PATH_MAX];
	unsigned int timeout_ms;
	int64_t deadline;
	int status, lock_fd;
	pid_t pid;

	if (!prog || !*prog)
		prog = LTT_BINDIR "/ltt-sessiond";
	if (!rundir) {
		if (ltt_ctl_default_rundir(dir, sizeof(dir)))
			return -LTT_ERR_SESSIOND_SPAWN;
		rundir = dir;
	}
	if (ltt_ctl_timeout_from_env(&timeout_ms) ||
	    ltt_path_join(sock, sizeof(sock), rundir, LTT_CLIENT_SOCKET_NAME))
		return -LTT_ERR_SESSIOND_SPAWN;
	deadline = ltt_deadline_ms(timeout_ms ? (int64_t)timeout_ms : INT64_MAX / 4);
	lock_fd = spawn_lock(rundir, deadline);
	if (lock_fd < 0)
		return -LTT_ERR_SESSIOND_SPAWN;
	/* Another caller started it while we waited for the lock. */
	if (ltt_sock_unix_answers(sock)) {
		close(lock_fd);
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		close(lock_fd);
		return -LTT_ERR_SESSIOND_SPAWN;
	}
	if (pid == 0) {
		/* --group only when asked for: the daemon's default is ltt's group. */
		if (group && *group)
			execl(prog, "ltt-sessiond", "--daemonize", "--rundir", rundir, "--group",
			      group, (char *)NULL);
		else
			execl(prog, "ltt-sessiond", "--daemonize", "--rundir", rundir, (char *)NULL);
		_exit(127);
	}
	/* --daemonize exits only once the daemon accepts connections. */
	status = wait_child_until(pid, deadline);
	close(lock_fd);
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* It lost to a daemon started by other means: that one serves. */
	return ltt_sock_unix_answers(sock) ? 1 : -LTT_ERR_SESSIOND_SPAWN;
}

void ltt_ctl_session_attr_init(struct ltt_session_attr *attr)
{
	if (!attr)
		return;
	memset(attr, 0, sizeof(*attr));
	attr->output_type = LTT_OUTPUT_LOCAL;
}

int ltt_ctl_channel_attr_init(struct ltt_channel_attr *attr, enum ltt_domain domain)
{
	struct ltt_channel_conf conf;
	int ret;

	if (!attr)
		return -LTT_ERR_INVAL;
	ret = ctl_err(ltt_attr_channel_defaults(&conf, domain));
	if (!ret)
		ltt_conv_channel_conf_to_attr(&conf, attr);
	return ret;
}

void ltt_ctl_event_rule_attr_init(struct ltt_event_rule_attr *attr)
{
	if (attr)
		memset(attr, 0, sizeof(*attr));
}

/*
 * For a daemon older than client protocol minor 6: fill in the automatic
 * name and default output of a session to create, as the daemon does from
 * minor 6 on.  Automatic names are "auto-DATE", then "auto-DATE-N" for
 * the @attempt-th retry when several sessions are created in the same
 * second.
 */
static int complete_session_attr(struct ltt_session_conf *attr, unsigned int attempt)
{
	char date[32], home[PATH_MAX], dir[PATH_MAX + 32];
	time_t now = time(NULL);
	bool automatic = !attr->name[0];
	struct tm tm;
	int n;

	if (!localtime_r(&now, &tm) || !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
		return -LTT_ERR_INVAL;
	if (automatic && attempt)
		snprintf(attr->name, sizeof(attr->name), "auto-%s-%u", date, attempt);
	else if (automatic)
		snprintf(attr->name, sizeof(attr->name), "auto-%s", date);
	if (attr->output_type != LTT_OUTPUT_LOCAL || attr->output[0])
		return 0;
	if (ltt_home_dir(home, sizeof(home)))
		return -LTT_ERR_OUTPUT_PATH;
	if (ltt_path_join(dir, sizeof(dir), home, LTT_TRACES_DIR_NAME))
		return -LTT_ERR_OUTPUT_PATH;
	/* An automatic name already holds the date. */
	if (automatic)
		n = snprintf(attr->output, sizeof(attr->output), "%s/%s", dir, attr->name);
	else
		n = snprintf(attr->output, sizeof(attr->output), "%s/%s-%s", dir, attr->name, date);
	if (n < 0 || (size_t)n >= sizeof(attr->output))
		return -LTT_ERR_OUTPUT_PATH;
	return 0;
}

/*
 * One CREATE_SESSION request.  From minor 6 on, @attr may leave its name
 * and local output empty, and our home goes with it, for the daemon to
 * resolve them; before, @attr must be complete.
 */
static int create_once(struct ltt_ctl *ctl, const struct ltt_session_conf *attr,
		       struct ltt_session_info *ret_info)
{
	bool defaults = ctl->minor >= LTT_CLIENT_MINOR_DAEMON_DEFAULTS;
	struct ltt_session_desc info;
	char home[LTT_PATH_MAX];
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint8_t *reply = NULL;
	size_t len = 0;
	int ret;

	ret = ctl_err(defaults ? ltt_attr_check_session_request(attr) : ltt_attr_check_session(attr));
	if (ret)
		return ret;
	ltt_wbuf_init(&w);
	ltt_proto_put_session_attr(&w, attr);
	if (defaults) {
		/* No home known: the daemon uses the owner's. */
		if (ltt_home_dir(home, sizeof(home)) || home[0] != '/')
			home[0] = '\0';
		ltt_wbuf_put_str(&w, home);
	}
	if (ctl->minor >= LTT_CLIENT_MINOR_TLS) {
		ltt_proto_put_session_tls(&w, attr);
	} else if (attr->tls_cert[0]) {
		ltt_wbuf_fini(&w);
		return -LTT_ERR_NOT_SUPPORTED;	/* a daemon before TLS would stream in clear */
	}
	ret = transact(ctl, LTT_CLIENT_CMD_CREATE_SESSION, &w, &reply, &len);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	ltt_proto_get_session_info(&r, &info, ctl->minor);
	ret = ltt_rbuf_end(&r) ? -LTT_ERR_PROTOCOL : 0;
	free(reply);
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
	/* The daemon resolves the defaults itself (and retries automatic names). */
	if (ctl->minor >= LTT_CLIENT_MINOR_DAEMON_DEFAULTS)
		return create_once(ctl, &conf, ret_info);
	do {
		full = conf;
		ret = complete_session_attr(&full, attempt);
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

	if (!ctl || !session || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, session);
	if (extra_u8 >= 0)
		ltt_wbuf_put_u8(&w, (uint8_t)extra_u8);
	ret = transact(ctl, cmd, &w, NULL, NULL);
	ltt_wbuf_fini(&w);
	return ret;
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

int ltt_ctl_data_pending(struct ltt_ctl *ctl, const char *session, bool *ret_pending)
{
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t len = 0;
	bool pending;
	int ret;

	if (!ctl || !session || !ret_pending || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	if (ctl->minor < 2)
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, session);
	ret = transact(ctl, LTT_CLIENT_CMD_DATA_PENDING, &w, &reply, &len);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	pending = ltt_rbuf_get_bool(&r);
	ret = ltt_rbuf_end(&r) ? -LTT_ERR_PROTOCOL : 0;
	free(reply);
	if (!ret)
		*ret_pending = pending;
	return ret;
}

/* Smallest encoding of a relay_info, to bound its count. */
#define RELAY_INFO_MIN (4 + 4 + 4 + LTT_WIRE_STR_MIN + 3 * 8)

int ltt_ctl_relay_status(struct ltt_ctl *ctl, const char *session,
			 struct ltt_relay_info **ret_relays, size_t *ret_count)
{
	struct ltt_relay_info *relays = NULL;
	struct ltt_relay_desc desc;
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t i, n, len = 0;
	int ret;

	if (!ctl || !session || !ret_relays || !ret_count || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	if (ctl->minor < 2)
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, session);
	ret = transact(ctl, LTT_CLIENT_CMD_RELAY_STATUS, &w, &reply, &len);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	n = ltt_rbuf_get_u32(&r);
	if (n > len / RELAY_INFO_MIN)
		ltt_rbuf_fail(&r);
	relays = r.err ? NULL : calloc(n ? n : 1, sizeof(*relays));
	for (i = 0; relays && i < n; i++) {
		ltt_proto_get_relay_info(&r, &desc);
		ltt_conv_relay_desc_to_info(&desc, &relays[i]);
	}
	if (!relays && !r.err)
		ret = -LTT_ERR_NOMEM;
	else if (ltt_rbuf_end(&r))
		ret = -LTT_ERR_PROTOCOL;
	free(reply);
	if (ret) {
		free(relays);
		return ret;
	}
	*ret_relays = relays;
	*ret_count = n;
	return 0;
}

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
	ret = transact(ctl, LTT_CLIENT_CMD_LIST_SESSIONS, NULL, &reply, &len);
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
		ltt_proto_get_session_info(&r, &desc, ctl->minor);
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

/* Then the TLS files: their struct and three paths. */
#define TLS_ROOM (sizeof(struct ltt_session_tls) + 3 * LTT_PATH_MAX)

static struct ltt_session_tls *detail_tls(struct ltt_session_detail *d)
{
	return (struct ltt_session_tls *)(detail_reason(d) + LTT_CONV_REASON_ROOM);
}

/*
 * The TLS files that end a GET_SESSION reply (minor 21) into @conf's
 * three fields ("" before, or for none).  Returns 0 or -LTT_ERR_PROTOCOL.
 */
static int get_tls(struct ltt_rbuf *r, uint32_t minor, struct ltt_session_conf *conf)
{
	if (minor >= LTT_CLIENT_MINOR_TLS)
		ltt_proto_get_session_tls(r, conf);
	return r->err ? -LTT_ERR_PROTOCOL : 0;
}

/* @conf's TLS files into @d's room, d->tls pointing at them (NULL: none). */
static void keep_tls(struct ltt_session_detail *d, const struct ltt_session_conf *conf)
{
	struct ltt_session_tls *t = detail_tls(d);
	char *p = (char *)(t + 1);

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
	struct ltt_wbuf w;
	size_t i, nch, nr, len = 0;
	int ret;

	if (!ctl || !session || !ret_detail || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, session);
	ret = transact(ctl, LTT_CLIENT_CMD_GET_SESSION, &w, &reply, &len);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, len);
	ltt_proto_get_session_info(&r, &info, ctl->minor);
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
		ltt_proto_get_channel(&r, &cdesc, ctl->minor);
		ltt_conv_channel_desc_to_info(&cdesc, &d->channels[i]);
	}
	nr = get_count(&r, RULE_INFO_MIN);
	ret = ctl_get_rules(&r, ctl->minor, nr, &d);
	if (!ret)
		ret = ctl_get_stalls(&r, ctl->minor, d);
	if (!ret)
		ret = get_tls(&r, ctl->minor, tls);
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

int ctl_send_domain_req(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, struct ltt_wbuf *w)
{
	int ret = transact(ctl, cmd, w, NULL, NULL);

	ltt_wbuf_fini(w);
	return ret;
}

int ltt_ctl_enable_channel(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			   const struct ltt_channel_attr *attr)
{
	struct ltt_channel_conf checked;
	enum ltt_error_code code;
	struct ltt_wbuf w;
	int ret;

	if (!attr)
		return -LTT_ERR_INVAL;
	code = ltt_conv_channel_attr_to_conf(attr, &checked);
	if (!code)
		code = ltt_attr_check_channel(&checked, domain);
	if (code)
		return ctl_err(code);
	if (checked.fsync && ctl->minor < LTT_CLIENT_MINOR_FSYNC)
		return -LTT_ERR_NOT_SUPPORTED;	/* the daemon predates --fsync */
	ret = ctl_begin_domain_req(&w, ctl, session, domain);
	if (ret)
		return ret;
	ltt_proto_put_channel_attr(&w, &checked);
	if (ctl->minor >= LTT_CLIENT_MINOR_FSYNC)
		ltt_wbuf_put_u8(&w, checked.fsync);
	return ctl_send_domain_req(ctl, LTT_CLIENT_CMD_ENABLE_CHANNEL, &w);
}

int ltt_ctl_disable_channel(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			    const char *channel)
{
	struct ltt_wbuf w;
	int ret;

	if (!channel || strlen(channel) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	ret = ctl_begin_domain_req(&w, ctl, session, domain);
	if (ret)
		return ret;
	ltt_wbuf_put_str(&w, channel);
	return ctl_send_domain_req(ctl, LTT_CLIENT_CMD_DISABLE_CHANNEL, &w);
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
	if (!ltt_proto_domain_known(ctl->minor, domain))
		return -LTT_ERR_NOT_SUPPORTED;
	/* Minor 0 lists the user-space tracepoints only. */
	if (ctl->minor < 1 && (domain != LTT_DOMAIN_USER || type != LTT_EVENT_TRACEPOINT))
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, with_fields);
	if (ctl->minor >= 1) {
		ltt_wbuf_put_u32(&w, domain);
		ltt_wbuf_put_u32(&w, type);
	}
	ret = transact(ctl, LTT_CLIENT_CMD_LIST_TRACEPOINTS, &w, &reply, &len);
	ltt_wbuf_fini(&w);
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
	for (i = 0; i < n; i++)
		fields += get_tracepoint_info(&r, &tps[i], fields, true);
	*ret_tps = tps;
	*ret_count = n;
out:
	free(reply);
	return ret;
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
