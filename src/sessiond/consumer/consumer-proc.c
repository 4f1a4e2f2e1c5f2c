// SPDX-License-Identifier: GPL-2.0-only
/*
 * consumer-proc.c - an ltt-consumerd process: spawned, its handshake, reaped.
 * Where the daemon has a privileged part (priv.h), that spawns it, as
 * our child still (CLONE_PARENT), and kills it; we reap it.
 * Its commands go through the one call of consumer-call.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/base/thread.h"
#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/lttng-health.h"
#include "sessiond/consumer/consumer-call.h"
#include "sessiond/priv/priv.h"

static int hello(struct ltt_consumer *c);

static const struct timeval io_timeout = { .tv_sec = 5 };

const char *ltt_consumer_path(const char *configured)
{
	const char *env = getenv("LTT_CONSUMERD_PATH");

	if (configured && *configured)
		return configured;
	if (env && *env)
		return env;
	return LTT_LIBEXECDIR "/ltt-consumerd";
}

pid_t ltt_consumer_fork(const struct ltt_consumer_config *cfg, uid_t uid, gid_t gid, int cmd_fd,
			bool sibling, int *ret_pidfd)
{
	const char *path = ltt_consumer_path(cfg->path);
	/* a sibling's exit signal is our parent's (SIGCHLD: we are forked) */
	unsigned long flags = CLONE_PIDFD | (sibling ? CLONE_PARENT : SIGCHLD);
	char uidarg[16], gidarg[16], threadsarg[16], *argv[20], msg[512];
	char health[LTT_PATH_MAX], grouparg[16];
	int argc = 0, i;
	sigset_t all;
	pid_t pid;

	*ret_pidfd = -1;
	/*
	 * clone(), as fork() is made (no stack: the child runs on a copy of
	 * ours), with the pidfd at the parent_tid argument; not clone3(),
	 * which systemd's RestrictNamespaces= answers with ENOSYS (its
	 * filter can't read flags in memory).
	 */
	pid = (pid_t)syscall(SYS_clone, flags, NULL, ret_pidfd, NULL, 0UL);
	if (pid)
		return pid < 0 ? -errno : pid;
	/* Our blocked signals would be inherited: unblock them. */
	sigemptyset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	/* the command socket as fd 3, which survives exec; nothing else of ours */
	if (ltt_fd_keep_only(cmd_fd))
		_exit(127);
	argv[argc++] = (char *)(cfg->argv0 ? cfg->argv0 : "ltt-consumerd");
	argv[argc++] = (char *)"--cmd-fd";
	argv[argc++] = (char *)"3";
	if (uid != (uid_t)-1) {
		snprintf(uidarg, sizeof(uidarg), "%u", (unsigned int)uid);
		snprintf(gidarg, sizeof(gidarg), "%u", (unsigned int)gid);
		argv[argc++] = (char *)"--uid";
		argv[argc++] = uidarg;
		argv[argc++] = (char *)"--gid";
		argv[argc++] = gidarg;
	}
	if (cfg->data_threads) {
		snprintf(threadsarg, sizeof(threadsarg), "%u", cfg->data_threads);
		argv[argc++] = (char *)"--data-threads";
		argv[argc++] = threadsarg;
	}
	for (i = 0; i < cfg->verbose && i < 3; i++)
		argv[argc++] = (char *)"-v";
	/* ours (no --uid): LTTng's health socket of its kind (lttng-health.h) */
	if (cfg->lttng_dir && cfg->lttng_health != LTT_CONSUMER_LTTNG_HEALTH_NONE &&
	    uid == (uid_t)-1 &&
	    !ltt_path_join(health, sizeof(health), cfg->lttng_dir,
			   cfg->lttng_health == LTT_CONSUMER_LTTNG_HEALTH_KERNEL ?
				   LTT_LTTNG_KERNEL_HEALTH_SOCKET : LTT_LTTNG_UST64_HEALTH_SOCKET)) {
		argv[argc++] = (char *)"--lttng-health";
		argv[argc++] = health;
		if (cfg->lttng_gid != (gid_t)-1) {
			snprintf(grouparg, sizeof(grouparg), "%u", (unsigned int)cfg->lttng_gid);
			argv[argc++] = (char *)"--lttng-health-group";
			argv[argc++] = grouparg;
		}
	}
	argv[argc] = NULL;
	execv(path, argv);
	/* a raw clone of a threaded process: no lock (stdio's, the locale's) taken here */
	i = snprintf(msg, sizeof(msg), "ltt-sessiond: Error: can't run the consumer daemon %s: %s\n",
		     path, strerrordesc_np(errno));
	if (i > 0 && write(2, msg, (size_t)i < sizeof(msg) ? (size_t)i : sizeof(msg) - 1) < 0)
		i = 0;	/* stderr gone: nothing else to say it with */
	_exit(127);
}

/*
 * The privileged part spawns it (CONSUMER_SPAWN, priv.h) with @fd, its
 * end of the command socket, as our child: its pid comes back.
 */
static int spawn_remote(struct ltt_priv *p, const struct ltt_consumer_config *cfg, uid_t uid,
			gid_t gid, int fd, pid_t *ret_pid)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, uid != (uid_t)-1);
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_u32(&w, (uint32_t)gid);
	ltt_wbuf_put_u8(&w, (uint8_t)cfg->lttng_health);	/* its LTTng health socket's kind */
	ret = ltt_priv_call_fd(p, LTT_PRIV_CONSUMER_SPAWN, &w, fd, &m, &r);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	*ret_pid = (pid_t)ltt_rbuf_get_u32(&r);
	ret = !ltt_rbuf_end(&r) && *ret_pid > 0 ? 0 : -EPROTO;
	ltt_msg_fini(&m);
	return ret;
}

int ltt_consumer_spawn(const struct ltt_consumer_config *cfg, uid_t uid, gid_t gid,
		       struct ltt_consumer **ret_consumer)
{
	const char *path = ltt_consumer_path(cfg->path);
	struct ltt_priv *priv = ltt_priv_get();
	struct ltt_consumer *c;
	int sv[2], ret;
	pid_t pid = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(sv[0]);
		close(sv[1]);
		return -ENOMEM;
	}
	c->pidfd = -1;
	c->reply_ms = cfg->reply_ms ? cfg->reply_ms : LTT_CONSUMER_REPLY_MS;
	if (priv) {
		c->remote = true;
		ret = spawn_remote(priv, cfg, uid, gid, sv[1], &pid);
		/* our child all the same: nobody else can reap it, the pid is its own */
		if (!ret)
			c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	} else {
		ret = pid = ltt_consumer_fork(cfg, uid, gid, sv[1], false, &c->pidfd);
	}
	close(sv[1]);
	if (ret < 0) {
		close(sv[0]);
		free(c);
		return ret;
	}
	if (c->pidfd >= 0)
		fcntl(c->pidfd, F_SETFD, FD_CLOEXEC);
	pthread_mutex_init(&c->lock, NULL);
	c->fd = sv[0];
	/* A message, once started, comes whole soon; a command is taken soon. */
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &io_timeout, sizeof(io_timeout));
	setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &io_timeout, sizeof(io_timeout));
	c->pid = pid;
	ret = hello(c);
	if (ret) {
		LTT_ERR("the consumer daemon %s did not answer the handshake: %s", path,
			strerror(-ret));
		ltt_consumer_destroy(c, 1000);
		return ret;
	}
	if (uid != (uid_t)-1)
		LTT_INFO("consumer daemon %s started as uid %u gid %u, pid %ld%s", path,
			 (unsigned int)uid, (unsigned int)gid, (long)pid,
			 c->remote ? ", by the privileged part" : "");
	else
		LTT_INFO("consumer daemon %s started, pid %ld%s", path, (long)pid,
			 c->remote ? ", by the privileged part" : "");
	*ret_consumer = c;
	return 0;
}

void ltt_consumer_unwritten_add(struct ltt_consumer *c, uint64_t events)
{
	__atomic_add_fetch(&c->unwritten, events, __ATOMIC_RELAXED);
}

static void *reap_main(void *arg)
{
	pid_t pid = (pid_t)(intptr_t)arg;
	int status;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	LTT_INFO("consumer daemon pid %ld, left running with events to write, exited",
		 (long)pid);
	return NULL;
}

/*
 * @c did not exit in @timeout_ms and holds events unwritten: left running
 * (a detached thread reaps it; at the daemon's exit, init does).  Returns
 * false when it holds none, or no thread can wait for it: kill it.
 */
static bool leave_running(struct ltt_consumer *c, int timeout_ms)
{
	uint64_t n = __atomic_load_n(&c->unwritten, __ATOMIC_RELAXED);
	pthread_attr_t attr;
	pthread_t thread;
	int ret;

	if (!n || pthread_attr_init(&attr))
		return false;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* the daemon's signals stay the main thread's */
	ret = ltt_thread_create(&thread, &attr, reap_main, (void *)(intptr_t)c->pid);
	pthread_attr_destroy(&attr);
	if (ret)
		return false;
	LTT_WARN("consumer daemon pid %ld did not exit in %d ms (stalled): left running, it still holds %" PRIu64
		 " events of ended traces unwritten and writes them once it runs again (SIGCONT, or unblock its output); killing it loses them",
		 (long)c->pid, timeout_ms, n);
	return true;
}

void ltt_consumer_destroy(struct ltt_consumer *c, int timeout_ms)
{
	struct pollfd pfd;
	int pidfd, status;

	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (c->pid <= 0)	/* already reaped when it was found dead */
		goto out;
	/* Wait for the exit on a pidfd, bounded; then make sure. */
	pidfd = c->pidfd;
	c->pidfd = -1;
	if (pidfd >= 0) {
		pfd.fd = pidfd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, timeout_ms) == 0) {
			if (leave_running(c, timeout_ms)) {
				close(pidfd);
				goto out;
			}
			LTT_WARN("consumer daemon pid %ld did not exit in %d ms: killed",
				 (long)c->pid, timeout_ms);
			ltt_consumer_kill(c);
		}
		close(pidfd);
	} else {
		ltt_consumer_kill(c);
	}
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
out:
	if (c->pidfd >= 0)
		close(c->pidfd);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int ltt_consumer_pidfd(const struct ltt_consumer *c)
{
	return c->pidfd;
}

uint32_t ltt_consumer_minor(const struct ltt_consumer *c)
{
	return c->minor;
}

static int decode_version(struct ltt_rbuf *r, void *out)
{
	return ltt_consumer_call_skip_status(r) ? -EPROTO : ltt_consumer_get_version(r, out);
}

/* The version handshake: same major, the consumer's minor noted. */
static int hello(struct ltt_consumer *c)
{
	struct ltt_consumer_version ours = {
		.major = LTT_CONSUMER_MAJOR, .minor = LTT_CONSUMER_MINOR,
	}, theirs;
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_HELLO, .decode = decode_version, .out = &theirs,
	};
	int ret;

	ltt_consumer_put_version(&k.req, &ours);
	ret = ltt_consumer_call(c, &k);
	if (ret)
		return ret;
	if (theirs.major != LTT_CONSUMER_MAJOR)
		return -EPROTONOSUPPORT;
	/* The consumer's minor: relay output needs 1.2. */
	c->minor = theirs.minor < LTT_CONSUMER_MINOR ? theirs.minor : LTT_CONSUMER_MINOR;
	return 0;
}
