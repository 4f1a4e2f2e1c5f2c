// SPDX-License-Identifier: GPL-2.0-only
/*
 * consumer-call.c - the consumer link: the one call every command goes
 * through (settle what is owed, send whole, wait for the reply within its
 * deadline), the replies owed by a consumer that did not answer in time
 * and read late, and what that says: stalled, or lost.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "common/base/log.h"
#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/msg.h"
#include "sessiond/consumer/consumer-call.h"
#include "sessiond/model/session.h"
#include "sessiond/priv/priv.h"

/* How long a command waits for the space to send itself whole. */
#define SEND_TIMEOUT_MS 5000
/* How long a command waits for the replies still owed before it. */
#define OWED_GRACE_MS 250
/* ltt_consumer_owes(): a call under way this long is a stalled consumer's */
#define OWES_BUSY_MS 1000

static int call_locked(struct ltt_consumer *c, const struct ltt_consumer_call *k,
		       struct ltt_msg *reply);

/*
 * The consumer is gone (its socket closed) or can't be talked to any more
 * (a broken message): make sure it is dead and reap it, so that it can
 * never read a buffer again once another one reads it.  Consumer lock held.
 *
 * ltt-consumerd exits with status 0 only when told to (SIGTERM, or its
 * socket closed, which only we do), after writing what it held: one that
 * did so on its own was stopped on purpose, by whoever signalled it
 * (@c->stopped).  It is not replaced at once (see supervisor.h), as
 * systemd's Restart=on-failure leaves a clean stop alone, and LTTng's
 * session daemon never replaces a consumer.
 */
static void lose_locked(struct ltt_consumer *c, const char *why)
{
	int status = -1;	/* not reaped: not taken for a clean exit */

	if (c->fd < 0)
		return;
	ltt_consumer_kill(c);
	close(c->fd);
	__atomic_store_n(&c->fd, -1, __ATOMIC_RELAXED);	/* ltt_consumer_stall() reads it */
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	c->stopped = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (c->stopped)
		LTT_WARN("consumer daemon pid %ld: %s, stopped on purpose (SIGTERM: it wrote what it held and exited with status 0); not replaced now: the next command that needs its traces starts a new one, which takes them over",
			 (long)c->pid, why);
	else
		LTT_ERR("consumer daemon pid %ld: %s; a new one takes over its traces", (long)c->pid,
			why);
	c->pid = 0;
}

bool ltt_consumer_lost(struct ltt_consumer *c)
{
	bool stopped;

	pthread_mutex_lock(&c->lock);
	lose_locked(c, "it exited");
	stopped = c->stopped;
	pthread_mutex_unlock(&c->lock);
	return stopped;
}

bool ltt_consumer_alive(struct ltt_consumer *c)
{
	/* never its lock: a call under way holds it for the round trip (30 s at worst) */
	return __atomic_load_n(&c->fd, __ATOMIC_RELAXED) >= 0;
}

/*
 * How long the consumer may take to answer: writing what a channel holds
 * is bounded by its buffers' size, everything else is bookkeeping.  A
 * consumer that does not answer in time fails the command with
 * -ETIMEDOUT but is left alone: slow is not dead (a stopped process, a
 * disk that stalls), and killing it would lose what its buffers hold.
 */
static int reply_timeout_ms(const struct ltt_consumer *c, uint16_t type)
{
	unsigned int ms = c->reply_ms;	/* --consumerd-reply-ms */

	switch (type) {
	case LTT_CONSUMER_MSG_FLUSH_CHANNEL:
	case LTT_CONSUMER_MSG_DESTROY_CHANNEL:
	case LTT_CONSUMER_MSG_ROTATE_TRACE:	/* flushes every channel of the trace */
		return (int)(ms > 30000 ? ms : 30000);
	case LTT_CONSUMER_MSG_ADD_RELAY:	/* connecting: its own 5 s deadline per port */
		return (int)(ms > 15000 ? ms : 15000);
	default:
		return (int)ms;
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
	struct ltt_consumer_call undo = { 0 };
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
static int send_locked(struct ltt_consumer *c, const struct ltt_consumer_call *k)
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
static int exchange_locked(struct ltt_consumer *c, const struct ltt_consumer_call *k,
			   struct ltt_msg *reply)
{
	int timeout_ms = k->timeout_ms ? k->timeout_ms : reply_timeout_ms(c, k->type);
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
static int call_locked(struct ltt_consumer *c, const struct ltt_consumer_call *k,
		       struct ltt_msg *reply)
{
	bool outer = !__atomic_load_n(&c->busy_since_ms, __ATOMIC_RELAXED);
	int ret;

	if (k->flags & LTT_CALL_TRY) {	/* a stalled consumer: no grace, no log */
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
	if ((k->flags & LTT_CALL_UNSENT_AGAIN) && ret == -ETIMEDOUT && !c->sent)
		ret = -EAGAIN;	/* nothing of it went */
	else if ((k->flags & LTT_CALL_UNSENT_AGAIN) && ret == -EAGAIN)
		ret = -EIO;	/* the consumer's own status: not "not sent" */
	else if ((k->flags & LTT_CALL_SENT_INPROGRESS) && ret == -ETIMEDOUT && c->sent)
		ret = -EINPROGRESS;	/* sent whole: carried out once the consumer runs */
	return ret;
}

int ltt_consumer_call(struct ltt_consumer *c, struct ltt_consumer_call *k)
{
	struct ltt_msg reply = { 0 };
	struct ltt_session *waiting;
	struct ltt_rbuf r;
	int ret;

	if (c->minor < k->minor) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	/* no session's state lock across the round trip: list reads on */
	waiting = ltt_session_wait_begin();
	if (!(k->flags & LTT_CALL_TRY)) {
		pthread_mutex_lock(&c->lock);
	} else if (pthread_mutex_trylock(&c->lock)) {
		ltt_session_wait_end(waiting);
		ltt_wbuf_fini(&k->req);
		return -EBUSY;
	}
	ret = call_locked(c, k, &reply);
	pthread_mutex_unlock(&c->lock);
	ltt_session_wait_end(waiting);
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

void ltt_consumer_kill(struct ltt_consumer *c)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret;

	if (!c->remote) {
		kill(c->pid, SIGKILL);
		return;
	}
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, (uint32_t)c->pid);
	ret = ltt_priv_call(ltt_priv_get(), LTT_PRIV_CONSUMER_KILL, &w, &m, &r);
	ltt_wbuf_fini(&w);
	if (!ret)
		ltt_msg_fini(&m);
	else if (ret != -ESRCH)
		LTT_ERR("consumer daemon pid %ld: the privileged part can't kill it: %s",
			(long)c->pid, strerror(-ret));
}
