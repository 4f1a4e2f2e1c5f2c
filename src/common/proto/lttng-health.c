// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-health.c - LTTng 2.13's health sockets (lttng-health.h) on ltt's
 * threads' heartbeats (ltt_heartbeat_stalled()): what liblttng-ctl's
 * lttng_health_query() and lttng-tools' health_check ask the session
 * daemon, its consumers and the relay daemon.
 *
 * A client sends {u32 cmd}; for CHECK it reads {u64 ret_code}: the bits
 * of the daemon's thread slots whose ltt loop is stuck, awake in one
 * callback for longer than the delta.  Its own thread: the answer comes
 * while the others are stuck.  The mapping of slots to ltt's threads, and
 * the delta, are in doc/lttng-compat.md.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/heartbeat.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/proto/lttng-health.h"

/* LTTng's delta (DEFAULT_HEALTH_CHECK_DELTA_S) and TCP timeout floor (DEFAULT_INET_TCP_TIMEOUT). */
#define HEALTH_DELTA_S 20ULL
#define HEALTH_TCP_TIMEOUT_S 180ULL
/*
 * Connections waiting for their request at once; one more closes the
 * oldest, so that clients that connect and send nothing can't keep a
 * health checker out.
 */
#define HEALTH_CONNS_MAX 64

struct ltt_lttng_health {
	struct ltt_evloop_server srv;
	uint64_t delta_ns;
	uint64_t slots;		/* the daemon's */
	int conns[HEALTH_CONNS_MAX];	/* the loop's, oldest first */
	unsigned int nr_conns;
	/* ltt_lttng_health_serve()'s socket file, removed at the stop while ours */
	char *path;
	dev_t dev;
	ino_t ino;
};

/*
 * LTTng's delta: 20 s more than its TCP timeout, which is
 * LTTNG_NETWORK_SOCKET_TIMEOUT's number when set (added as seconds, as
 * LTTng 2.13's health.c adds it), else 180 s.  @env, ltt's
 * (LTT_SESSIOND_HEALTH_DELTA_MS...), sets it outright (tests).
 */
static uint64_t health_delta_ns(const char *env)
{
	const char *ltt = getenv(env);
	const char *net = getenv("LTTNG_NETWORK_SOCKET_TIMEOUT");
	unsigned long long v;
	char *end;

	if (ltt && *ltt) {
		v = strtoull(ltt, &end, 10);
		if (!*end && v)
			return v * 1000000ULL;
		LTT_WARN("%s='%s': not a number of milliseconds above 0; LTTng's delta is used",
			 env, ltt);
	}
	v = HEALTH_TCP_TIMEOUT_S;
	if (net && *net) {
		long long n = strtoll(net, &end, 0);

		if (!*end && n > 0)
			v = (unsigned long long)n;
	}
	return (v + HEALTH_DELTA_S) * 1000000000ULL;
}

/* End connection @i of @h's. */
static void conn_close(struct ltt_evloop *loop, struct ltt_lttng_health *h, unsigned int i)
{
	ltt_evloop_unwatch_fd(loop, h->conns[i]);
	close(h->conns[i]);
	memmove(&h->conns[i], &h->conns[i + 1], (h->nr_conns - i - 1) * sizeof(h->conns[0]));
	h->nr_conns--;
}

/* A health client's request: answered, then the connection ends. */
static void on_request(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_lttng_health *h = arg;
	unsigned int i;
	uint64_t code;
	uint32_t cmd;
	ssize_t n;

	(void)events;
	n = recv(fd, &cmd, sizeof(cmd), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == (ssize_t)sizeof(cmd) && cmd == LTT_LTTNG_HEALTH_CMD_CHECK) {
		code = ltt_heartbeat_stalled(h->delta_ns, ltt_evloop_now_ns()) & h->slots;
		if (send(fd, &code, sizeof(code), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(code))
			LTT_WARN_RL("health socket: reply not sent: %s", strerror(errno));
	} else if (n > 0) {
		LTT_WARN_RL("health socket: request of %zd bytes, command %u: only CHECK (0) is served",
			    n, n == (ssize_t)sizeof(cmd) ? cmd : 0U);
	}
	for (i = 0; i < h->nr_conns; i++)
		if (h->conns[i] == fd) {
			conn_close(loop, h, i);
			return;
		}
}

static void accept_one(struct ltt_evloop *loop, int fd, void *arg)
{
	struct ltt_lttng_health *h = arg;

	if (h->nr_conns == HEALTH_CONNS_MAX) {
		LTT_WARN_RL("health socket: %u connections wait for their request: the oldest closed",
			    h->nr_conns);
		conn_close(loop, h, 0);
	}
	if (ltt_evloop_watch(loop, fd, EPOLLIN, on_request, h, NULL))
		close(fd);
	else
		h->conns[h->nr_conns++] = fd;
}

int ltt_lttng_health_start(int fd, uint64_t slots, const char *delta_env,
			   struct ltt_lttng_health **ret_health)
{
	struct ltt_lttng_health *h = calloc(1, sizeof(*h));
	int ret;

	if (h) {
		h->delta_ns = health_delta_ns(delta_env);
		h->slots = slots;
	}
	*ret_health = ltt_evloop_server_adopt(h, h ? &h->srv : NULL, fd,
					      SOCK_CLOEXEC | SOCK_NONBLOCK, "health clients",
					      accept_one, NULL, "health thread", &ret);
	if (!ret)
		LTT_INFO("a thread is in bad health on LTTng's health socket after %llu ms stuck",
			 (unsigned long long)(h->delta_ns / 1000000ULL));
	return ret;
}

int ltt_lttng_rundir(char *buf, size_t len)
{
	int n;

	if (geteuid() == 0) {
		n = snprintf(buf, len, "%s", LTT_LTTNG_ROOT_RUNDIR);
		return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	return ltt_home_find(LTT_HOME_LTTNG_RUNDIR, buf, len);
}

int ltt_lttng_listen(const char *path, bool root, gid_t gid, int *ret_fd)
{
	bool group = root && gid != (gid_t)-1;
	int fd, ret;

	/* A daemon that answers there keeps it: LTTng's, or another ltt one. */
	if (!ltt_sock_connect_unix(path, &fd)) {
		close(fd);
		return -EADDRINUSE;
	}
	ret = ltt_sock_listen_unix(path, group ? 0660 : 0600, &fd);
	if (!ret && group && chown(path, 0, gid)) {
		ret = -errno;
		close(fd);
		unlink(path);
	}
	if (!ret)
		*ret_fd = fd;
	return ret;
}

int ltt_lttng_make_dir(const char *dir, mode_t mode, gid_t gid)
{
	struct stat st;
	int ret = 0;

	if (!mkdir(dir, mode)) {
		if (geteuid() == 0 && gid != (gid_t)-1 && chown(dir, 0, gid))
			ret = -errno;
	} else if (errno != EEXIST) {
		ret = -errno;
	}
	if (!ret && stat(dir, &st))
		ret = -errno;
	if (!ret && !S_ISDIR(st.st_mode))
		ret = -ENOTDIR;
	if (ret) {
		LTT_ERR("can't make %s, a directory of LTTng's sockets: %s", dir, strerror(-ret));
		return ret;
	}
	/*
	 * ours or root's, and no other user may replace what we put there:
	 * a socket is chmod()ed and chown()ed by its name after its bind()
	 */
	if ((st.st_uid != geteuid() && st.st_uid != 0) ||
	    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
		LTT_ERR("%s belongs to uid %u, mode %04o: LTTng's sockets go only in a directory of this user's or root's that no other user may write; remove it, or choose another place",
			dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/*
 * @path's directory, made as LTTng makes its daemons' (root's 0750
 * root:@gid, a user's 0700), in its parent, made first if missing
 * (root's 0755, a user's 0700): both checked by ltt_lttng_make_dir().
 */
static int make_parent(const char *path, gid_t gid)
{
	char buf[PATH_MAX], dir[PATH_MAX], top[PATH_MAX];
	bool root = geteuid() == 0;
	int ret;

	/* dirname() may return a static "." and leave its argument as it is */
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	snprintf(dir, sizeof(dir), "%s", dirname(buf));
	snprintf(buf, sizeof(buf), "%s", dir);
	snprintf(top, sizeof(top), "%s", dirname(buf));
	ret = ltt_lttng_make_dir(top, root ? 0755 : 0700, (gid_t)-1);
	if (!ret)
		ret = ltt_lttng_make_dir(dir, root ? 0750 : 0700, gid);
	return ret;
}

int ltt_lttng_health_serve(const char *path, gid_t gid, uint64_t slots, const char *delta_env,
			   struct ltt_lttng_health **ret_health)
{
	char abs[PATH_MAX];
	struct stat st;
	int fd = -1, ret;

	*ret_health = NULL;
	/* absolute: a daemon that detaches goes to / after, and removes it at its stop */
	ret = ltt_path_absolute(abs, sizeof(abs), path);
	if (ret) {
		LTT_ERR("can't name LTTng's health socket %s from the directory the daemon runs in: %s",
			path, strerror(-ret));
		return ret;
	}
	path = abs;
	ret = make_parent(path, gid);
	if (ret)
		return ret;	/* ltt_lttng_make_dir() said which directory, and why */
	ret = ltt_lttng_listen(path, geteuid() == 0, gid, &fd);
	if (ret == -EADDRINUSE) {
		LTT_ERR("a live daemon (LTTng's, or an ltt one) answers LTTng's health checks on %s already; it is never taken over",
			path);
		return ret;
	}
	/* the file's identity (a socket's fstat() says sockfs's), to remove only ours */
	if (!ret && lstat(path, &st))
		ret = -errno;
	if (ret) {
		LTT_ERR("can't listen on LTTng's health socket %s: %s", path, strerror(-ret));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return ret;
	}
	ret = ltt_lttng_health_start(fd, slots, delta_env, ret_health);
	if (!ret) {
		(*ret_health)->path = strdup(path);
		(*ret_health)->dev = st.st_dev;
		(*ret_health)->ino = st.st_ino;
		LTT_INFO("answering LTTng's health checks on %s", path);
	} else {
		LTT_ERR("can't start the thread of LTTng's health socket %s: %s", path,
			strerror(-ret));
		unlink(path);
	}
	return ret;
}

void ltt_lttng_health_stop(struct ltt_lttng_health *h)
{
	struct stat st;
	unsigned int i;

	if (!h)
		return;
	ltt_evloop_server_stop(&h->srv);
	for (i = 0; i < h->nr_conns; i++)	/* its thread is gone: the ones waiting for their request */
		close(h->conns[i]);
	/* our socket still, not a later daemon's that took the path since */
	if (h->path && !lstat(h->path, &st) && S_ISSOCK(st.st_mode) && st.st_dev == h->dev &&
	    st.st_ino == h->ino)
		unlink(h->path);
	ltt_evloop_server_fini(&h->srv);
	free(h->path);
	free(h);
}
