// SPDX-License-Identifier: GPL-2.0-only
/*
 * consumer.c - spawning ltt-consumerd and calling its commands.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "common/codec.h"
#include "common/consumer-proto.h"
#include "common/log.h"
#include "common/msg.h"
#include "sessiond/consumer.h"

struct ltt_consumer {
	pthread_mutex_t lock;	/* leaf: one command at a time */
	int fd;			/* command socket, -1 once dead */
	pid_t pid;
	int pidfd;		/* readable once the process exits; -1 if none */
	uint32_t seq;
	uint32_t minor;		/* agreed at HELLO */
	uint32_t owed;		/* replies to commands that timed out, still to come */
	/* The last command that timed out, when it adds something (0: none). */
	uint16_t late_type;
	uint32_t late_seq;
	uint64_t late_key;
	/* What a late ADD_* that succeeded left behind: to destroy (0: none). */
	uint16_t undo_type;
	uint64_t undo_key;
	bool sent;		/* the last call's message went out (whole) */
	uint64_t busy_since_ms;	/* atomic: when the call under way began, 0: none */
	uint16_t busy_type;	/* atomic: its command */
	/* Atomic: when the oldest command whose reply is owed began (0: none), and which. */
	uint64_t owed_since_ms;
	uint16_t owed_type;
};

static int hello(struct ltt_consumer *c);

static const struct timeval io_timeout = { .tv_sec = 5 };
/* How long a command waits for the space to send itself whole. */
#define SEND_TIMEOUT_MS 5000
/* How long a command waits for the replies still owed before it. */
#define OWED_GRACE_MS 250
/* ltt_consumer_owes(): a call under way this long is a stalled consumer's */
#define OWES_BUSY_MS 1000

const char *ltt_consumer_path(const char *configured)
{
	const char *env = getenv("LTT_CONSUMERD_PATH");

	if (configured && *configured)
		return configured;
	if (env && *env)
		return env;
	return LTT_LIBEXECDIR "/ltt-consumerd";
}

int ltt_consumer_spawn(const char *path, int verbose, uid_t uid, gid_t gid,
		       struct ltt_consumer **ret_consumer)
{
	struct ltt_consumer *c;
	char fdarg[16], uidarg[16], gidarg[16], *argv[12];
	int sv[2], argc = 0, i, ret;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(sv[0]);
		close(sv[1]);
		return -ENOMEM;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(sv[0]);
		close(sv[1]);
		free(c);
		return ret;
	}
	if (pid == 0) {
		sigset_t all;

		/* Our blocked signals would be inherited: unblock them. */
		sigemptyset(&all);
		pthread_sigmask(SIG_SETMASK, &all, NULL);
		fcntl(sv[1], F_SETFD, 0);	/* the consumer's end survives exec */
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		argv[argc++] = (char *)"ltt-consumerd";
		argv[argc++] = (char *)"--cmd-fd";
		argv[argc++] = fdarg;
		if (uid != (uid_t)-1) {
			snprintf(uidarg, sizeof(uidarg), "%u", (unsigned int)uid);
			snprintf(gidarg, sizeof(gidarg), "%u", (unsigned int)gid);
			argv[argc++] = (char *)"--uid";
			argv[argc++] = uidarg;
			argv[argc++] = (char *)"--gid";
			argv[argc++] = gidarg;
		}
		for (i = 0; i < verbose && i < 3; i++)
			argv[argc++] = (char *)"-v";
		argv[argc] = NULL;
		execv(path, argv);
		fprintf(stderr, "ltt-sessiond: Error: can't run the consumer daemon %s: %s\n", path,
			strerror(errno));
		_exit(127);
	}
	close(sv[1]);
	pthread_mutex_init(&c->lock, NULL);
	c->fd = sv[0];
	/* our child: nobody else can reap it first, the pid is still its own */
	c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (c->pidfd >= 0)
		fcntl(c->pidfd, F_SETFD, FD_CLOEXEC);
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
		LTT_INFO("consumer daemon %s started as uid %u gid %u, pid %ld", path,
			 (unsigned int)uid, (unsigned int)gid, (long)pid);
	else
		LTT_INFO("consumer daemon %s started, pid %ld", path, (long)pid);
	*ret_consumer = c;
	return 0;
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
			LTT_WARN("consumer daemon pid %ld did not exit in %d ms: killed",
				 (long)c->pid, timeout_ms);
			kill(c->pid, SIGKILL);
		}
		close(pidfd);
	} else {
		kill(c->pid, SIGKILL);
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

/*
 * The consumer is gone (its socket closed) or can't be talked to any more
 * (a broken message): make sure it is dead and reap it, so that it can
 * never read a buffer again once another one reads it.  Consumer lock held.
 */
static void lose_locked(struct ltt_consumer *c, const char *why)
{
	if (c->fd < 0)
		return;
	LTT_ERR("consumer daemon pid %ld: %s; a new one takes over its traces", (long)c->pid,
		why);
	kill(c->pid, SIGKILL);
	close(c->fd);
	__atomic_store_n(&c->fd, -1, __ATOMIC_RELAXED);	/* ltt_consumer_stall() reads it */
	while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
		;
	c->pid = 0;
}

void ltt_consumer_lost(struct ltt_consumer *c)
{
	pthread_mutex_lock(&c->lock);
	lose_locked(c, "it exited");
	pthread_mutex_unlock(&c->lock);
}

bool ltt_consumer_alive(struct ltt_consumer *c)
{
	bool alive;

	pthread_mutex_lock(&c->lock);
	alive = c->fd >= 0;
	pthread_mutex_unlock(&c->lock);
	return alive;
}

/*
 * How long the consumer may take to answer: writing what a channel holds
 * is bounded by its buffers' size, everything else is bookkeeping.  A
 * consumer that does not answer in time fails the command with
 * -ETIMEDOUT but is left alone: slow is not dead (a stopped process, a
 * disk that stalls), and killing it would lose what its buffers hold.
 */
static int reply_timeout_ms(uint16_t type)
{
	switch (type) {
	case LTT_CONSUMER_MSG_FLUSH_CHANNEL:
	case LTT_CONSUMER_MSG_DESTROY_CHANNEL:
	case LTT_CONSUMER_MSG_ROTATE_TRACE:	/* flushes every channel of the trace */
		return 30000;
	case LTT_CONSUMER_MSG_ADD_RELAY:	/* connecting: its own 5 s deadline per port */
		return 15000;
	default:
		return 5000;
	}
}

/* Wait for the reply's first byte; -ETIMEDOUT if it does not come in time. */
static int wait_reply(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n;

	do
		n = poll(&pfd, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n ? 0 : -ETIMEDOUT;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * One more reply owed, to a @type command begun at @since_ms (the oldest
 * owed is the one ltt_consumer_stall() names).  Consumer lock held.
 */
static void owed_add(struct ltt_consumer *c, uint16_t type, uint64_t since_ms)
{
	if (!c->owed) {
		__atomic_store_n(&c->owed_type, type, __ATOMIC_RELAXED);
		__atomic_store_n(&c->owed_since_ms, since_ms ? since_ms : now_ms(),
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&c->owed, c->owed + 1, __ATOMIC_RELAXED);
}

/* A reply owed came.  Consumer lock held. */
static void owed_done(struct ltt_consumer *c)
{
	__atomic_store_n(&c->owed, c->owed - 1, __ATOMIC_RELAXED);
	if (!c->owed)
		__atomic_store_n(&c->owed_since_ms, 0, __ATOMIC_RELAXED);
}

/*
 * A reply to a command that timed out came, late: when that command added
 * a trace or a channel and succeeded, what it added is destroyed before
 * the next command (the caller was told it failed, and holds nothing of
 * it).  Consumer lock held.
 */
static void late_reply(struct ltt_consumer *c, const struct ltt_msg *reply)
{
	struct ltt_rbuf r;
	int32_t status;

	if (!c->late_type || reply->hdr.seq != c->late_seq || reply->hdr.type != c->late_type)
		return;
	ltt_rbuf_init(&r, reply->payload, reply->hdr.payload_len);
	if (!ltt_consumer_get_status(&r, &status) && status == 0) {
		LTT_WARN("consumer daemon pid %ld: %s %" PRIu64 " succeeded after it had failed here (timed out): undone",
			 (long)c->pid, ltt_consumer_msg_name(c->late_type), c->late_key);
		c->undo_type = c->late_type == LTT_CONSUMER_MSG_ADD_TRACE ?
				       LTT_CONSUMER_MSG_DESTROY_TRACE :
				       LTT_CONSUMER_MSG_DESTROY_CHANNEL;
		c->undo_key = c->late_key;
	}
	c->late_type = 0;
}

/*
 * Read the reply to command c->seq within @timeout_ms, dropping the late
 * replies to commands that timed out before (the consumer answers in
 * order).  Returns 0, -ETIMEDOUT (not answered in time: one more reply
 * owed), or a transport error.
 */
static int read_reply(struct ltt_consumer *c, uint16_t type, int timeout_ms,
		      struct ltt_msg *reply)
{
	uint64_t deadline = now_ms() + (uint64_t)timeout_ms, now;
	int ret;

	for (;;) {
		now = now_ms();
		ret = wait_reply(c->fd, now < deadline ? (int)(deadline - now) : 0);
		if (ret == -ETIMEDOUT) {
			owed_add(c, type, __atomic_load_n(&c->busy_since_ms, __ATOMIC_RELAXED));
			return ret;
		}
		if (!ret)
			ret = ltt_msg_recv(c->fd, LTT_CONSUMER_MAGIC, LTT_CONSUMER_MSG_MAX, 0, reply);
		if (ret)
			return ret;
		if (reply->hdr.seq == c->seq || !c->owed ||
		    (int32_t)(c->seq - reply->hdr.seq) <= 0)
			return 0;
		/* the answer to a command we gave up waiting for */
		owed_done(c);
		late_reply(c, reply);
		ltt_msg_fini(reply);
	}
}

/*
 * Read the late replies that have come, without waiting.  Consumer lock
 * held.  Returns 0, or a transport error (the consumer is then lost).
 */
static int drain_owed(struct ltt_consumer *c)
{
	struct ltt_msg reply = { 0 };
	int ret = 0;

	while (c->fd >= 0 && c->owed && !wait_reply(c->fd, 0)) {
		ret = ltt_msg_recv(c->fd, LTT_CONSUMER_MAGIC, LTT_CONSUMER_MSG_MAX, 0, &reply);
		if (ret) {
			lose_locked(c, "a late reply could not be read");
			return ret;
		}
		owed_done(c);
		late_reply(c, &reply);
		ltt_msg_fini(&reply);
	}
	return 0;
}

/*
 * Wait, until @deadline (ms), for the room to send @len bytes whole:
 * what the socket still holds and @len within its send buffer, so that
 * the send never blocks halfway.  A message larger than the buffer gets a
 * larger buffer where allowed, else waits for an empty socket.  Returns
 * 0, or -ETIMEDOUT: nothing was sent.
 */
static int wait_room(int fd, size_t len, uint64_t deadline)
{
	/* the kernel charges each packet's overhead too */
	size_t need = len + len / 4 + 4096, room;
	socklen_t sl;
	int sndbuf, outq, want;
	uint64_t now;

	for (;;) {
		sl = sizeof(sndbuf);
		if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &sl) ||
		    ioctl(fd, SIOCOUTQ, &outq) || sndbuf < 0 || outq < 0)
			return 0;	/* can't tell: send, SO_SNDTIMEO bounds it */
		if ((size_t)sndbuf < need && need < INT32_MAX / 2) {
			want = (int)need;	/* the kernel doubles it */
			setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want));
			sl = sizeof(sndbuf);
			if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &sl) || sndbuf < 0)
				return 0;
		}
		room = (size_t)sndbuf > (size_t)outq ? (size_t)sndbuf - (size_t)outq : 0;
		if (need <= room || (!outq && (size_t)sndbuf < need))
			return 0;
		now = now_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		/* the socket signals room only at a quarter full: step */
		poll(NULL, 0, deadline - now < 5 ? (int)(deadline - now) : 5);
	}
}

/* What a call may do besides waiting for the lock and its reply. */
#define CALL_TRY (1u << 0)		/* never wait: -EBUSY when another call holds the
					 * consumer, -ETIMEDOUT at once when it owes replies */
#define CALL_UNSENT_AGAIN (1u << 1)	/* -EAGAIN when nothing of it was sent (the
					 * consumer's own -EAGAIN becomes -EIO) */
#define CALL_SENT_INPROGRESS (1u << 2)	/* -EINPROGRESS when sent whole, not answered */

/*
 * One command to the consumer, as call() makes it: every command goes
 * through it, with these differences only.
 */
struct call {
	uint16_t type;
	struct ltt_wbuf req;	/* its payload, put by the caller; call() empties it */
	const int *fds;		/* borrowed */
	unsigned int nr_fds;
	int timeout_ms;		/* the reply's deadline; 0: the type's, reply_timeout_ms() */
	unsigned int flags;	/* CALL_* */
	uint32_t minor;		/* the consumer's minor it needs, else -EOPNOTSUPP */
	uint64_t key;		/* what an ADD_TRACE or ADD_CHANNEL adds: undone if it
				 * succeeds after it timed out */
	/* A reply beyond the status: read whole (its status, 0, included) into @out. */
	int (*decode)(struct ltt_rbuf *r, void *out);
	void *out;
};

static int call_locked(struct ltt_consumer *c, const struct call *k, struct ltt_msg *reply);

/*
 * Before a command: read the replies still owed, waiting for them a short
 * while only (a consumer that owes one is stalled: the command fails at
 * once rather than waiting its whole deadline again), then destroy what a
 * late ADD_* left.  Consumer lock held.  Returns 0, -ETIMEDOUT (still
 * stalled) or a transport error.
 */
static int settle_locked(struct ltt_consumer *c)
{
	uint64_t deadline = now_ms() + OWED_GRACE_MS, now;
	struct ltt_msg reply = { 0 };
	struct call undo = { 0 };
	int ret;

	for (;;) {
		ret = drain_owed(c);
		if (ret || !c->owed)
			break;
		now = now_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		ret = wait_reply(c->fd, (int)(deadline - now));
		if (ret && ret != -ETIMEDOUT)
			return ret;
	}
	if (ret || !c->undo_type)
		return ret;
	undo.type = c->undo_type;
	c->undo_type = 0;
	ltt_consumer_put_key(&undo.req, c->undo_key);
	ret = call_locked(c, &undo, &reply);
	ltt_wbuf_fini(&undo.req);
	ltt_msg_fini(&reply);
	if (ret && ret != -ETIMEDOUT)
		LTT_WARN("consumer daemon pid %ld: %s %" PRIu64 " (what a late command left): %s",
			 (long)c->pid, ltt_consumer_msg_name(undo.type), c->undo_key, strerror(-ret));
	return c->fd < 0 ? -EPIPE : c->owed ? -ETIMEDOUT : 0;
}

/*
 * Send @k whole, or nothing of it.  Consumer lock held.  Returns 0,
 * -ETIMEDOUT (no room in time: nothing sent) or a transport error (part
 * of it may have gone: the stream can't be resynchronized, the consumer
 * is lost).
 */
static int send_locked(struct ltt_consumer *c, const struct call *k)
{
	const char *name = ltt_consumer_msg_name(k->type);
	char why[160];
	int ret;

	ret = wait_room(c->fd, LTT_MSG_HDR_SIZE + k->req.len, now_ms() + SEND_TIMEOUT_MS);
	if (ret) {
		LTT_ERR("consumer daemon pid %ld did not take %s within %d ms: it is alive but stalled; the command failed, nothing of it sent",
			(long)c->pid, name, SEND_TIMEOUT_MS);
		return ret;
	}
	c->seq++;
	ret = ltt_msg_send(c->fd, LTT_CONSUMER_MAGIC, k->type, c->seq, k->req.data, k->req.len,
			   k->fds, k->nr_fds);
	if (!ret) {
		c->sent = true;
		return 0;
	}
	if (ret == -EPIPE || ret == -ECONNRESET)
		snprintf(why, sizeof(why), "%s failed: its socket closed", name);
	else
		snprintf(why, sizeof(why), "a %s message was cut in the middle (%s): the command stream is broken",
			 name, strerror(-ret));
	lose_locked(c, why);
	return ret == -ECONNRESET || ret == -EAGAIN ? -EPIPE : ret;
}

/*
 * Send one command and read its reply; @reply then holds it (caller
 * fini's it).  Returns the consumer's status or a transport error.  A
 * consumer that does not answer in time is slow, not dead: the call fails
 * with -ETIMEDOUT and the consumer goes on (its late reply is dropped by
 * the next call).  One whose socket closed, or that sends what can't be
 * read, is dead: it is reaped, and the supervisor starts another.
 * Consumer lock held.
 */
static int exchange_locked(struct ltt_consumer *c, const struct call *k, struct ltt_msg *reply)
{
	int timeout_ms = k->timeout_ms ? k->timeout_ms : reply_timeout_ms(k->type);
	const char *name = ltt_consumer_msg_name(k->type);
	char why[160];
	struct ltt_rbuf r;
	int32_t status;
	int ret;

	c->sent = false;
	if (c->fd < 0)
		return -EPIPE;
	if (k->req.err)
		return k->req.err;
	ret = settle_locked(c);
	c->sent = false;	/* settle_locked()'s own call set it */
	if (ret == -ETIMEDOUT) {
		LTT_ERR("consumer daemon pid %ld still owes the reply to an earlier command: it is alive but stalled; %s failed at once",
			(long)c->pid, name);
		return ret;
	}
	if (ret)
		return c->fd < 0 ? -EPIPE : ret;
	ret = send_locked(c, k);
	if (ret)
		return ret;
	ret = read_reply(c, k->type, timeout_ms, reply);
	if (ret == -ETIMEDOUT) {
		LTT_ERR("consumer daemon pid %ld did not answer %s within %d ms: it is alive but stalled; the command failed",
			(long)c->pid, name, timeout_ms);
		c->late_type = k->type == LTT_CONSUMER_MSG_ADD_TRACE ||
				       k->type == LTT_CONSUMER_MSG_ADD_CHANNEL ? k->type : 0;
		c->late_seq = c->seq;
		c->late_key = k->key;
		return ret;
	}
	if (!ret && (reply->hdr.type != k->type || reply->hdr.seq != c->seq))
		ret = -EPROTO;
	if (ret) {
		snprintf(why, sizeof(why), "%s failed: %s", name,
			 ret == -ECONNRESET || ret == -EPIPE ? "its socket closed" :
			 strerror(-ret));
		lose_locked(c, why);
		ltt_msg_fini(reply);
		return ret == -ECONNRESET ? -EPIPE : ret < 0 ? ret : -EPROTO;
	}
	ltt_rbuf_init(&r, reply->payload, reply->hdr.payload_len);
	if (ltt_consumer_get_status(&r, &status))
		return -EPROTO;
	return status;
}

/*
 * exchange_locked() under @k's flags, the call's start kept for
 * ltt_consumer_stalled() (the outermost call's: the undo settle_locked()
 * may call within it leaves it alone).  Consumer lock held.
 */
static int call_locked(struct ltt_consumer *c, const struct call *k, struct ltt_msg *reply)
{
	bool outer = !__atomic_load_n(&c->busy_since_ms, __ATOMIC_RELAXED);
	int ret;

	if (k->flags & CALL_TRY) {	/* a stalled consumer: no grace, no log */
		ret = drain_owed(c);
		if (ret || c->owed)
			return ret ? ret : -ETIMEDOUT;
	}
	if (outer) {
		__atomic_store_n(&c->busy_type, k->type, __ATOMIC_RELAXED);
		__atomic_store_n(&c->busy_since_ms, now_ms(), __ATOMIC_RELAXED);
	}
	ret = exchange_locked(c, k, reply);
	if (outer)
		__atomic_store_n(&c->busy_since_ms, 0, __ATOMIC_RELAXED);
	if ((k->flags & CALL_UNSENT_AGAIN) && ret == -ETIMEDOUT && !c->sent)
		ret = -EAGAIN;	/* nothing of it went */
	else if ((k->flags & CALL_UNSENT_AGAIN) && ret == -EAGAIN)
		ret = -EIO;	/* the consumer's own status: not "not sent" */
	else if ((k->flags & CALL_SENT_INPROGRESS) && ret == -ETIMEDOUT && c->sent)
		ret = -EINPROGRESS;	/* sent whole: carried out once the consumer runs */
	return ret;
}

/*
 * The one way to call the consumer: send @k, wait for its reply, decode
 * what follows its status.  Takes the consumer's lock (or, CALL_TRY,
 * fails with -EBUSY when it is held); empties @k->req.  Returns 0, the
 * consumer's negative errno, or the call's failure (-ETIMEDOUT, -EPIPE,
 * -EPROTO, -EOPNOTSUPP, and what @k->flags ask for).
 */
static int call(struct ltt_consumer *c, struct call *k)
{
	struct ltt_msg reply = { 0 };
	struct ltt_rbuf r;
	int ret;

	if (c->minor < k->minor) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (!(k->flags & CALL_TRY)) {
		pthread_mutex_lock(&c->lock);
	} else if (pthread_mutex_trylock(&c->lock)) {
		ltt_wbuf_fini(&k->req);
		return -EBUSY;
	}
	ret = call_locked(c, k, &reply);
	pthread_mutex_unlock(&c->lock);
	if (!ret && k->decode) {
		ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
		ret = k->decode(&r, k->out);
	}
	ltt_msg_fini(&reply);
out:
	ltt_wbuf_fini(&k->req);
	if (ret)
		LTT_DBG("consumer: %s -> %s", ltt_consumer_msg_name(k->type), strerror(-ret));
	return ret;
}

void ltt_consumer_stall(struct ltt_consumer *c, int after_ms, struct ltt_consumer_stall *ret)
{
	uint64_t owed_since = __atomic_load_n(&c->owed_since_ms, __ATOMIC_RELAXED);
	uint64_t busy_since = __atomic_load_n(&c->busy_since_ms, __ATOMIC_RELAXED);
	uint64_t now = now_ms(), since;
	uint16_t type;

	*ret = (struct ltt_consumer_stall){ 0 };
	if (__atomic_load_n(&c->fd, __ATOMIC_RELAXED) < 0)
		return;	/* dead, not stalled: the next one takes over */
	if (__atomic_load_n(&c->owed, __ATOMIC_RELAXED)) {
		since = owed_since ? owed_since : now;
		type = __atomic_load_n(&c->owed_type, __ATOMIC_RELAXED);
	} else if (busy_since && now - busy_since > (uint64_t)after_ms) {
		since = busy_since;
		type = __atomic_load_n(&c->busy_type, __ATOMIC_RELAXED);
	} else {
		return;
	}
	ret->stalled = true;
	ret->since = (int64_t)time(NULL) - (int64_t)((now > since ? now - since : 0) / 1000);
	ret->type = type;
}

bool ltt_consumer_stalled(struct ltt_consumer *c, int after_ms)
{
	uint64_t since = __atomic_load_n(&c->busy_since_ms, __ATOMIC_RELAXED);

	if (__atomic_load_n(&c->owed, __ATOMIC_RELAXED))
		return true;
	return since && now_ms() - since > (uint64_t)after_ms;
}

bool ltt_consumer_owes(struct ltt_consumer *c)
{
	bool owes;

	if (pthread_mutex_trylock(&c->lock))	/* a call under way: one waiting long? */
		return ltt_consumer_stalled(c, OWES_BUSY_MS);
	owes = !drain_owed(c) && c->fd >= 0 && c->owed;
	pthread_mutex_unlock(&c->lock);
	return owes;
}

/* The deadline of a command that writes what buffers hold: 5 s, and that at 8 MiB/s. */
static int sized_timeout_ms(uint64_t buffer_bytes)
{
	uint64_t ms = 5000 + buffer_bytes / (8 * 1024 * 1024) * 1000;

	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

int ltt_consumer_add_trace(struct ltt_consumer *c, uint64_t key, const char *dir,
			   const uuid_t uuid, uid_t uid, gid_t gid, uint64_t relay_key, bool resume)
{
	struct ltt_consumer_add_trace m = {
		.key = key,
		.dir = dir,
		.uid = (uint32_t)uid,
		.gid = (uint32_t)gid,
		.relay_key = relay_key,
		.resume = resume,
	};
	struct call k = {
		.type = LTT_CONSUMER_MSG_ADD_TRACE,
		.key = key,
		/* relay output: 1.2; resuming: 1.4 (the greater) */
		.minor = resume ? LTT_CONSUMER_MINOR_TAKEOVER : relay_key ? 2 : 0,
	};

	memcpy(m.uuid, uuid, sizeof(m.uuid));
	ltt_consumer_put_add_trace(&k.req, &m);
	return call(c, &k);
}

/* METADATA, its reply waited for @timeout_ms (0: the type's deadline). */
static int metadata(struct ltt_consumer *c, uint64_t trace_key, const void *text, size_t len,
		    int timeout_ms)
{
	struct ltt_consumer_metadata m = {
		.trace_key = trace_key, .text = text, .len = (uint32_t)len,
	};
	struct call k = {
		.type = LTT_CONSUMER_MSG_METADATA,
		.timeout_ms = timeout_ms,
		.flags = CALL_UNSENT_AGAIN,
	};

	if (len > LTT_CONSUMER_METADATA_MAX)
		return -E2BIG;
	ltt_consumer_put_metadata(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_metadata(struct ltt_consumer *c, uint64_t trace_key, const void *text,
			  size_t len)
{
	int ret = metadata(c, trace_key, text, len, 0);

	return ret == -EAGAIN ? -ETIMEDOUT : ret;
}

int ltt_consumer_metadata_try(struct ltt_consumer *c, uint64_t trace_key, const void *text,
			      size_t len, int timeout_ms)
{
	return metadata(c, trace_key, text, len, timeout_ms > 0 ? timeout_ms : 1);
}

int ltt_consumer_metadata_all(struct ltt_consumer *c, uint64_t trace_key,
			      const struct ltt_wbuf *text)
{
	size_t off = 0, n;
	int ret = text->err;

	while (!ret && off < text->len) {
		n = text->len - off;
		if (n > LTT_CONSUMER_METADATA_MAX)
			n = LTT_CONSUMER_METADATA_MAX;
		ret = ltt_consumer_metadata(c, trace_key, (const char *)text->data + off, n);
		off += n;
	}
	return ret;
}

int ltt_consumer_rotate_trace(struct ltt_consumer *c, uint64_t trace_key, const char *dir,
			      bool clear)
{
	struct ltt_consumer_rotate_trace m = { .trace_key = trace_key, .clear = clear, .dir = dir };
	struct call k = {
		.type = LTT_CONSUMER_MSG_ROTATE_TRACE,
		.minor = LTT_CONSUMER_MINOR_ROTATE,
		/* a move sent whole, not answered: made when the consumer runs again (in order) */
		.flags = clear ? 0 : CALL_SENT_INPROGRESS,
	};

	ltt_consumer_put_rotate_trace(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_reset_metadata(struct ltt_consumer *c, uint64_t trace_key)
{
	struct call k = {
		.type = LTT_CONSUMER_MSG_RESET_METADATA,
		.minor = LTT_CONSUMER_MINOR_ROTATE,
		.flags = CALL_UNSENT_AGAIN,
	};

	ltt_consumer_put_key(&k.req, trace_key);
	return call(c, &k);
}

int ltt_consumer_add_channel(struct ltt_consumer *c, const struct ltt_consumer_add_channel *chan)
{
	struct call k = { .type = LTT_CONSUMER_MSG_ADD_CHANNEL, .key = chan->key };

	ltt_consumer_put_add_channel(&k.req, chan);
	return call(c, &k);
}

int ltt_consumer_add_kernel_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				   int stream_fd)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = channel_key, .cpu = cpu };
	struct call k = {
		.type = LTT_CONSUMER_MSG_ADD_KERNEL_STREAM, .fds = &stream_fd, .nr_fds = 1,
	};

	ltt_consumer_put_add_kernel_stream(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_add_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
			    int shm_fd, int wakeup_fd)
{
	struct ltt_consumer_add_stream m = { .channel_key = channel_key, .cpu = cpu };
	int fds[2] = { shm_fd, wakeup_fd };
	struct call k = { .type = LTT_CONSUMER_MSG_ADD_STREAM, .fds = fds, .nr_fds = 2 };

	ltt_consumer_put_add_stream(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_add_stream_stats(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				  int shm_fd, int wakeup_fd, int stats_fd)
{
	struct ltt_consumer_add_stream m = { .channel_key = channel_key, .cpu = cpu };
	int fds[3] = { shm_fd, wakeup_fd, stats_fd };
	struct call k = {
		.type = LTT_CONSUMER_MSG_ADD_STREAM_STATS, .fds = fds, .nr_fds = 3,
		.minor = LTT_CONSUMER_MINOR_TAKEOVER,
	};

	ltt_consumer_put_add_stream(&k.req, &m);
	return call(c, &k);
}

/* FLUSH_CHANNEL, its reply waited for @timeout_ms (0: the type's deadline). */
static int flush_channel(struct ltt_consumer *c, uint64_t channel_key, bool final, int timeout_ms)
{
	struct ltt_consumer_flush_channel m = { .channel_key = channel_key, .final = final };
	struct call k = { .type = LTT_CONSUMER_MSG_FLUSH_CHANNEL, .timeout_ms = timeout_ms };

	ltt_consumer_put_flush_channel(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_flush_channel(struct ltt_consumer *c, uint64_t channel_key, bool final)
{
	return flush_channel(c, channel_key, final, 0);
}

int ltt_consumer_flush_channel_sized(struct ltt_consumer *c, uint64_t channel_key, bool final,
				     uint64_t buffer_bytes)
{
	return flush_channel(c, channel_key, final, sized_timeout_ms(buffer_bytes));
}

/* The reply after its status (a reply's decode reads it whole). */
static int skip_status(struct ltt_rbuf *r)
{
	int32_t status;

	return ltt_consumer_get_status(r, &status);
}

static int decode_channel_stats(struct ltt_rbuf *r, void *out)
{
	return skip_status(r) ? -EPROTO : ltt_consumer_get_channel_stats(r, out);
}

/* CHANNEL_STATS, under @flags (CALL_TRY: a caller that must not wait). */
static int channel_stats(struct ltt_consumer *c, uint64_t channel_key, unsigned int flags,
			 int timeout_ms, struct ltt_consumer_channel_stats *ret)
{
	struct call k = {
		.type = LTT_CONSUMER_MSG_CHANNEL_STATS,
		.flags = flags,
		.timeout_ms = timeout_ms,
		.decode = decode_channel_stats,
		.out = ret,
	};

	ltt_consumer_put_key(&k.req, channel_key);
	return call(c, &k);
}

int ltt_consumer_channel_status(struct ltt_consumer *c, uint64_t channel_key,
				struct ltt_consumer_channel_stats *ret)
{
	return channel_stats(c, channel_key, 0, 0, ret);
}

int ltt_consumer_channel_status_now(struct ltt_consumer *c, uint64_t channel_key,
				    int timeout_ms, struct ltt_consumer_channel_stats *ret)
{
	/* its deadline is @timeout_ms, 1 ms at the least (0 would be the type's) */
	return channel_stats(c, channel_key, CALL_TRY, timeout_ms > 0 ? timeout_ms : 1, ret);
}

int ltt_consumer_channel_stats(struct ltt_consumer *c, uint64_t channel_key,
			       uint64_t *ret_events_lost, uint64_t *ret_packets_lost)
{
	struct ltt_consumer_channel_stats stats;
	int ret = ltt_consumer_channel_status(c, channel_key, &stats);

	if (!ret) {
		*ret_events_lost = stats.events_lost;
		*ret_packets_lost = stats.packets_lost;
	}
	return ret;
}

int ltt_consumer_probe_output(struct ltt_consumer *c, const char *dir, uid_t uid, gid_t gid)
{
	struct ltt_consumer_probe_output m = { .dir = dir, .uid = uid, .gid = gid };
	struct call k = {
		.type = LTT_CONSUMER_MSG_PROBE_OUTPUT, .minor = LTT_CONSUMER_MINOR_OUTPUT_ERRORS,
	};

	ltt_consumer_put_probe_output(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_add_snapshot_trace(struct ltt_consumer *c, uint64_t key, const uuid_t uuid,
				    uid_t uid, gid_t gid)
{
	struct ltt_consumer_add_snapshot_trace m = {
		.key = key, .uid = (uint32_t)uid, .gid = (uint32_t)gid,
	};
	struct call k = {
		.type = LTT_CONSUMER_MSG_ADD_SNAPSHOT_TRACE, .key = key,
		.minor = LTT_CONSUMER_MINOR_SNAPSHOT,
	};

	memcpy(m.uuid, uuid, sizeof(m.uuid));
	ltt_consumer_put_add_snapshot_trace(&k.req, &m);
	return call(c, &k);
}

static int decode_snapshot(struct ltt_rbuf *r, void *out)
{
	return skip_status(r) ? -EPROTO : ltt_consumer_get_snapshot_reply(r, out);
}

/* SNAPSHOT_TRACE, or SNAPSHOT_TRACE_RELAY when @m->relay_key is set. */
static int snapshot(struct ltt_consumer *c, const struct ltt_consumer_snapshot_trace *m,
		    uint64_t buffer_bytes, struct ltt_consumer_snapshot_reply *ret)
{
	struct call k = {
		.type = m->relay_key ? LTT_CONSUMER_MSG_SNAPSHOT_TRACE_RELAY :
				       LTT_CONSUMER_MSG_SNAPSHOT_TRACE,
		.minor = m->relay_key ? LTT_CONSUMER_MINOR_NET : LTT_CONSUMER_MINOR_SNAPSHOT,
		.timeout_ms = sized_timeout_ms(buffer_bytes),	/* as a flush */
		.decode = decode_snapshot,
		.out = ret,
	};

	if (m->relay_key)
		ltt_consumer_put_snapshot_trace_relay(&k.req, m);
	else
		ltt_consumer_put_snapshot_trace(&k.req, m);
	return call(c, &k);
}

int ltt_consumer_snapshot_trace(struct ltt_consumer *c, uint64_t trace_key, const char *dir,
				uint64_t max_packets, uint64_t buffer_bytes,
				struct ltt_consumer_snapshot_reply *ret)
{
	struct ltt_consumer_snapshot_trace m = {
		.trace_key = trace_key, .dir = dir, .max_packets = max_packets,
	};

	return snapshot(c, &m, buffer_bytes, ret);
}

int ltt_consumer_snapshot_trace_relay(struct ltt_consumer *c, uint64_t trace_key,
				      uint64_t relay_key, const char *path, uint64_t max_packets,
				      uint64_t buffer_bytes, struct ltt_consumer_snapshot_reply *ret)
{
	struct ltt_consumer_snapshot_trace m = {
		.trace_key = trace_key, .relay_key = relay_key, .dir = path,
		.max_packets = max_packets,
	};

	if (!relay_key)
		return -EINVAL;
	return snapshot(c, &m, buffer_bytes, ret);
}

int ltt_consumer_destroy_channel(struct ltt_consumer *c, uint64_t channel_key)
{
	struct call k = { .type = LTT_CONSUMER_MSG_DESTROY_CHANNEL };

	ltt_consumer_put_key(&k.req, channel_key);
	return call(c, &k);
}

int ltt_consumer_streams_sent(struct ltt_consumer *c, uint64_t channel_key)
{
	struct call k = { .type = LTT_CONSUMER_MSG_STREAMS_SENT };

	if (c->minor < LTT_CONSUMER_MINOR_STREAMS_SENT)
		return 0;	/* it announces each stream on its own */
	ltt_consumer_put_key(&k.req, channel_key);
	return call(c, &k);
}

int ltt_consumer_destroy_trace(struct ltt_consumer *c, uint64_t trace_key)
{
	struct call k = { .type = LTT_CONSUMER_MSG_DESTROY_TRACE };

	ltt_consumer_put_key(&k.req, trace_key);
	return call(c, &k);
}

/* ADD_RELAY's reply: its path copied out before the message is freed. */
struct add_relay_path {
	char *path;
	size_t len;
};

static int decode_add_relay(struct ltt_rbuf *r, void *out)
{
	struct ltt_consumer_add_relay_reply reply;
	struct add_relay_path *res = out;
	int err = ltt_consumer_get_add_relay_reply(r, &reply);

	if (err)
		return err;
	snprintf(res->path, res->len, "%s", reply.output_path ? reply.output_path : "");
	return 0;
}

int ltt_consumer_add_relay(struct ltt_consumer *c, const struct ltt_consumer_add_relay *m,
			   char *output_path, size_t len)
{
	struct add_relay_path res = { .path = output_path, .len = len };
	struct call k = {
		.type = LTT_CONSUMER_MSG_ADD_RELAY, .minor = 2,
		.decode = decode_add_relay, .out = &res,
	};

	ltt_consumer_put_add_relay(&k.req, m);
	return call(c, &k);
}

static int decode_pending(struct ltt_rbuf *r, void *out)
{
	struct ltt_consumer_relay_pending_reply reply;
	int err = ltt_consumer_get_relay_pending_reply(r, &reply);

	if (!err)
		*(bool *)out = reply.pending;
	return err;
}

int ltt_consumer_relay_data_pending(struct ltt_consumer *c, uint64_t relay_key,
				    bool *ret_pending)
{
	struct call k = {
		.type = LTT_CONSUMER_MSG_RELAY_DATA_PENDING, .minor = 2,
		.decode = decode_pending, .out = ret_pending,
	};

	ltt_consumer_put_relay_key(&k.req, relay_key);
	return call(c, &k);
}

int ltt_consumer_relay_archive(struct ltt_consumer *c, uint64_t relay_key, const char *from,
			       const char *to)
{
	struct ltt_consumer_relay_archive m = { .relay_key = relay_key, .from = from, .to = to };
	struct call k = { .type = LTT_CONSUMER_MSG_RELAY_ARCHIVE, .minor = LTT_CONSUMER_MINOR_NET };

	ltt_consumer_put_relay_archive(&k.req, &m);
	return call(c, &k);
}

int ltt_consumer_relay_archive_result(struct ltt_consumer *c, uint64_t relay_key)
{
	struct call k = {
		.type = LTT_CONSUMER_MSG_RELAY_ARCHIVE_RESULT, .minor = LTT_CONSUMER_MINOR_NET,
	};

	ltt_consumer_put_relay_key(&k.req, relay_key);
	return call(c, &k);
}

static int decode_relay_status(struct ltt_rbuf *r, void *out)
{
	return ltt_consumer_get_relay_status_reply(r, out);
}

int ltt_consumer_relay_status(struct ltt_consumer *c, uint64_t relay_key,
			      struct ltt_consumer_relay_status_reply *ret_status)
{
	struct call k = {
		.type = LTT_CONSUMER_MSG_RELAY_STATUS, .minor = 2,
		.decode = decode_relay_status, .out = ret_status,
	};

	ltt_consumer_put_relay_key(&k.req, relay_key);
	return call(c, &k);
}

int ltt_consumer_del_relay(struct ltt_consumer *c, uint64_t relay_key)
{
	struct call k = { .type = LTT_CONSUMER_MSG_DEL_RELAY };

	ltt_consumer_put_key(&k.req, relay_key);
	return call(c, &k);
}

static int decode_version(struct ltt_rbuf *r, void *out)
{
	return skip_status(r) ? -EPROTO : ltt_consumer_get_version(r, out);
}

/* The version handshake: same major, the consumer's minor noted. */
static int hello(struct ltt_consumer *c)
{
	struct ltt_consumer_version ours = {
		.major = LTT_CONSUMER_MAJOR, .minor = LTT_CONSUMER_MINOR,
	}, theirs;
	struct call k = { .type = LTT_CONSUMER_MSG_HELLO, .decode = decode_version, .out = &theirs };
	int ret;

	ltt_consumer_put_version(&k.req, &ours);
	ret = call(c, &k);
	if (ret)
		return ret;
	if (theirs.major != LTT_CONSUMER_MAJOR)
		return -EPROTONOSUPPORT;
	/* The consumer's minor: relay output needs 1.2. */
	c->minor = theirs.minor < LTT_CONSUMER_MINOR ? theirs.minor : LTT_CONSUMER_MINOR;
	return 0;
}
