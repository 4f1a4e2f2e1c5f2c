// SPDX-License-Identifier: GPL-2.0-only
/*
 * app.c - registered applications and the app thread (see app.h).
 *
 * The thread owns the listening socket and reads every application's
 * messages.  An application is another user's process and may lie or
 * stall: its credentials come from SO_PEERCRED, not from what it says;
 * every message is validated.  Messages are gathered without blocking as
 * their bytes arrive; a connection must say REGISTER within
 * REGISTER_TIMEOUT, a message must be whole within RECV_TIMEOUT of its
 * first byte, and a command to it must be taken within SEND_TIMEOUT, or
 * the application is dropped.  At most MAX_UNREGISTERED connections may
 * be waiting to register.
 *
 * The thread is an event loop (common/evloop.h): a watch on the listener
 * and on each connection, a deadline timer per connection, and a timer
 * that resumes accepting after a pause.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/evloop.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/sock.h"
#include "sessiond/app.h"

#define RECV_TIMEOUT_MS 2000
#define SEND_TIMEOUT_MS 2000
#define REGISTER_TIMEOUT_MS 3000
#define MAX_UNREGISTERED 256
#define ACCEPT_PAUSE_MS 100	/* out of fds: stop accepting for so long */
#define SLOW_SEND_MS 10		/* a send that waited so long counts as slow */

struct ltt_app_thread {
	struct ltt_app_thread_config cfg;
	pthread_t tid;
	struct ltt_evloop *loop;
	struct ltt_evloop_watch *listen_watch;
	struct ltt_evloop_timer *accept_timer;	/* armed: accepting is paused */
	struct cds_list_head conns;	/* ltt_app being served, registered or not */
	unsigned int nr_unregistered;
};

/* Per-connection state kept by the thread beside the ltt_app. */
struct conn {
	struct cds_list_head node;
	struct ltt_app_thread *t;
	struct ltt_app *app;	/* a reference */
	struct ltt_evloop_watch *watch;
	struct ucred cred;
	bool registered;	/* REGISTER accepted */
	struct ltt_evloop_timer *deadline;	/* armed: REGISTER, or the message begun, by then */
	/* The message being gathered. */
	uint8_t hdrbuf[LTT_MSG_HDR_SIZE];
	size_t hdr_got;
	struct ltt_msg_hdr hdr;
	uint8_t *payload;
	size_t got;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void ltt_app_get(struct ltt_app *app)
{
	__atomic_fetch_add(&app->refcount, 1, __ATOMIC_RELAXED);
}

static void app_free(struct ltt_app *app)
{
	struct ltt_app_chan *ac, *tmp;
	size_t i;

	cds_list_for_each_entry_safe(ac, tmp, &app->chans, node) {
		cds_list_del(&ac->node);
		free(ac->events);
		free(ac);
	}
	for (i = 0; i < app->nr_tps; i++)
		free(app->tps[i]);
	free(app->tps);
	if (app->fd >= 0)
		close(app->fd);
	pthread_mutex_destroy(&app->lock);
	pthread_cond_destroy(&app->acked_cond);
	free(app);
}

void ltt_app_put(struct ltt_app *app)
{
	if (app && __atomic_sub_fetch(&app->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		app_free(app);
}

/* Mark dead and wake waiters; the app thread sees the hang-up. app->lock held. */
static void mark_dead_locked(struct ltt_app *app)
{
	if (!app->dead) {
		app->dead = true;
		shutdown(app->fd, SHUT_RDWR);
		pthread_cond_broadcast(&app->acked_cond);
	}
}

int ltt_app_send(struct ltt_app *app, uint16_t type, const struct ltt_wbuf *payload,
		 const int *fds, unsigned int nr_fds, uint32_t *ret_seq)
{
	uint64_t start, elapsed;
	uint32_t seq;
	int ret;

	if (payload && payload->err)
		return payload->err;
	pthread_mutex_lock(&app->lock);
	if (app->dead) {
		pthread_mutex_unlock(&app->lock);
		return -EPIPE;
	}
	seq = ++app->seq_sent;
	start = now_ms();
	ret = ltt_msg_send(app->fd, LTT_APP_MAGIC, type, seq, payload ? payload->data : NULL,
			   payload ? payload->len : 0, fds, nr_fds);
	/*
	 * The send timeout bounds one send; a program that takes each command
	 * just before it would still hold the sender (and its locks) for as
	 * long as it likes.  Waiting is summed over consecutive slow sends.
	 */
	elapsed = now_ms() - start;
	app->slow_send_ms = elapsed < SLOW_SEND_MS ? 0 : app->slow_send_ms + elapsed;
	if (!ret && app->slow_send_ms > SEND_TIMEOUT_MS)
		ret = -ETIMEDOUT;
	if (ret) {
		LTT_WARN("%s (pid %ld): can't send %s: %s; dropping it", app->procname,
			 (long)app->pid, ltt_app_msg_name(type), strerror(-ret));
		mark_dead_locked(app);
	}
	pthread_mutex_unlock(&app->lock);
	if (!ret && ret_seq)
		*ret_seq = seq;
	return ret;
}

int ltt_app_wait_ack(struct ltt_app *app, uint32_t seq, int timeout_ms)
{
	struct timespec deadline;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&app->lock);
	/* seq numbers wrap: compare by difference */
	while (!app->dead && (int32_t)(app->seq_acked - seq) < 0 && ret == 0)
		ret = pthread_cond_timedwait(&app->acked_cond, &app->lock, &deadline);
	if (app->dead && (int32_t)(app->seq_acked - seq) < 0)
		ret = -EPIPE;
	else if (ret)
		ret = -ETIMEDOUT;
	pthread_mutex_unlock(&app->lock);
	return ret;
}

struct ltt_app_chan *ltt_app_find_chan(struct ltt_app *app, uint64_t key)
{
	struct ltt_app_chan *ac;

	cds_list_for_each_entry(ac, &app->chans, node)
		if (ac->key == key)
			return ac;
	return NULL;
}

static void conn_close(struct ltt_app_thread *t, struct conn *c)
{
	if (!c->registered)
		t->nr_unregistered--;
	free(c->payload);
	ltt_evloop_unwatch(c->watch);
	ltt_evloop_timer_destroy(c->deadline);
	pthread_mutex_lock(&c->app->lock);
	mark_dead_locked(c->app);
	pthread_mutex_unlock(&c->app->lock);
	if (c->registered)
		t->cfg.listener.removed(t->cfg.listener.arg, c->app);
	cds_list_del(&c->node);
	ltt_app_put(c->app);
	free(c);
}

/*
 * Does process @pid see our CLOCK_MONOTONIC?  Not when it lives in another
 * time namespace: its timestamps would not fit the traces' clock (and the
 * consumer would reject its packets as coming from the future).
 */
static bool same_time_ns(pid_t pid)
{
	char path[64];
	struct stat ours, theirs;

	snprintf(path, sizeof(path), "/proc/%ld/ns/time", (long)pid);
	if (stat("/proc/self/ns/time", &ours) || stat(path, &theirs))
		return true;	/* no time namespaces here, or no /proc: nothing to compare */
	return ours.st_ino == theirs.st_ino && ours.st_dev == theirs.st_dev;
}

static int handle_register(struct ltt_app_thread *t, struct conn *c, struct ltt_msg *msg)
{
	static const struct ltt_app_version ours = {
		.major = LTT_APP_MAJOR, .minor = LTT_APP_MINOR,
	};
	struct ltt_app *app = c->app;
	struct ltt_app_register m;
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	int ret;

	/* The minor, gid (the credentials' wins) and nr_cpus (ours) are not used. */
	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	if (ltt_app_get_register(&r, &m) || msg->nr_fds)
		return -EPROTO;
	_Static_assert(sizeof(app->procname) == LTT_APP_PROCNAME_MAX, "procname size");
	memcpy(app->procname, m.procname, strlen(m.procname) + 1);
	app->ppid = (pid_t)m.ppid;
	if (m.major != LTT_APP_MAJOR) {
		LTT_WARN("pid %ld speaks app protocol %u.x, this daemon %u.x: refused",
			 (long)c->cred.pid, m.major, LTT_APP_MAJOR);
		return -EPROTO;
	}
	/* What the kernel says wins over what the process says. */
	if (m.uid != c->cred.uid || (m.pid != (uint32_t)c->cred.pid && c->cred.pid > 0))
		LTT_DBG("pid %ld claims pid %u uid %u; using its credentials", (long)c->cred.pid,
			m.pid, m.uid);
	if (m.bits_per_long != 32 && m.bits_per_long != 64)
		return -EPROTO;
	if (c->cred.pid > 0 && !same_time_ns(c->cred.pid)) {
		LTT_WARN("%s (pid %ld) runs in another time namespace: its clock differs from the traces', not traced",
			 app->procname, (long)c->cred.pid);
		return -EPROTO;
	}
	app->pid = c->cred.pid;
	app->uid = c->cred.uid;
	app->gid = c->cred.gid;
	app->bits_per_long = m.bits_per_long;
	app->registered_at = time(NULL);
	ret = t->cfg.listener.added(t->cfg.listener.arg, app);
	if (ret) {
		LTT_WARN("too many applications: %s (pid %ld) refused", app->procname,
			 (long)app->pid);
		return -EPROTO;
	}
	c->registered = true;
	ltt_evloop_timer_disarm(c->deadline);
	t->nr_unregistered--;
	ltt_wbuf_init(&w);
	ltt_app_put_version(&w, &ours);
	ret = ltt_app_send(app, LTT_APP_MSG_REGISTER_OK, &w, NULL, 0, NULL);
	ltt_wbuf_fini(&w);
	LTT_INFO("%s (pid %ld, uid %u) registered", app->procname, (long)app->pid,
		 (unsigned int)app->uid);
	return ret;
}

static int handle_tracepoints(struct ltt_app_thread *t, struct conn *c, struct ltt_msg *msg)
{
	struct ltt_app_tracepoint **tps;
	struct ltt_rbuf r;
	uint32_t n;
	int ret;

	if (msg->nr_fds)
		return -EPROTO;
	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	ret = ltt_app_get_tracepoints(&r, &tps, &n);
	if (ret) {
		LTT_WARN("%s (pid %ld) sent malformed tracepoint descriptions: dropped",
			 c->app->procname, (long)c->app->pid);
		return ret;
	}
	t->cfg.listener.tracepoints(t->cfg.listener.arg, c->app, tps, n);
	free(tps);
	/* Everything the active sessions want of them is pushed: let it go on. */
	return ltt_app_send(c->app, LTT_APP_MSG_REGISTER_DONE, NULL, NULL, 0, NULL);
}

static int handle_ack(struct conn *c, struct ltt_msg *msg)
{
	struct ltt_app *app = c->app;
	struct ltt_app_ack ack;
	struct ltt_rbuf r;
	uint32_t seq;
	int32_t status;

	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	if (ltt_app_get_ack(&r, &ack) || msg->nr_fds)
		return -EPROTO;
	seq = ack.seq;
	status = ack.status;
	pthread_mutex_lock(&app->lock);
	/* Acks come in order and never for a command not sent. */
	if ((int32_t)(seq - app->seq_acked) <= 0 || (int32_t)(app->seq_sent - seq) < 0) {
		pthread_mutex_unlock(&app->lock);
		return -EPROTO;
	}
	app->seq_acked = seq;
	pthread_cond_broadcast(&app->acked_cond);
	pthread_mutex_unlock(&app->lock);
	if (status)
		LTT_WARN("%s (pid %ld) failed command %u: %s", app->procname, (long)app->pid, seq,
			 strerror(status < 0 ? -status : status));
	return 0;
}

/* A whole message is in: handle it.  Returns 0, or an error to drop the app. */
static int dispatch(struct ltt_app_thread *t, struct conn *c)
{
	struct ltt_msg msg = { .hdr = c->hdr, .payload = c->payload };
	int ret;

	c->payload = NULL;
	if (!c->registered && msg.hdr.type != LTT_APP_MSG_REGISTER)
		ret = -EPROTO;
	else if (c->registered && msg.hdr.type == LTT_APP_MSG_REGISTER)
		ret = -EPROTO;
	else if (msg.hdr.type == LTT_APP_MSG_REGISTER)
		ret = handle_register(t, c, &msg);
	else if (msg.hdr.type == LTT_APP_MSG_TRACEPOINTS)
		ret = handle_tracepoints(t, c, &msg);
	else if (msg.hdr.type == LTT_APP_MSG_ACK)
		ret = handle_ack(c, &msg);
	else
		ret = -EPROTO;
	if (ret == -EPROTO)
		LTT_WARN("pid %ld sent a malformed or unexpected %s message: dropped",
			 (long)c->cred.pid, ltt_app_msg_name(msg.hdr.type) ?: "unknown");
	ltt_msg_fini(&msg);
	return ret;
}

/*
 * Receive header bytes; a program sends no fds, so a header that carries
 * some makes the message malformed (they are closed).  -EAGAIN: nothing.
 */
static ssize_t recv_header(int fd, void *buf, size_t len)
{
	char cbuf[CMSG_SPACE(8 * sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	bool fds = false;

	if (n < 0)
		return -errno;
	for (cmsg = CMSG_FIRSTHDR(&mh); cmsg; cmsg = CMSG_NXTHDR(&mh, cmsg)) {
		size_t i, nr = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < nr; i++) {
			int sent;

			memcpy(&sent, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
			close(sent);
		}
		fds = true;
	}
	return fds || (mh.msg_flags & MSG_CTRUNC) ? -EPROTO : n;
}

/*
 * Read what is there of the current message, without blocking (the
 * socket stays blocking for sends, so MSG_DONTWAIT), and handle it once
 * whole.  Returns 0, or an error to drop the app.
 */
static int conn_read(struct ltt_app_thread *t, struct conn *c)
{
	int fd = c->app->fd;
	ssize_t n;

	if (c->hdr_got < LTT_MSG_HDR_SIZE) {
		n = recv_header(fd, c->hdrbuf + c->hdr_got, LTT_MSG_HDR_SIZE - c->hdr_got);
		if (n == -EPROTO) {
			LTT_WARN("pid %ld sent file descriptors: dropped", (long)c->cred.pid);
			return -EPROTO;
		}
		if (n < 0) {
			errno = (int)-n;
			n = -1;
		}
	} else {
		n = recv(fd, c->payload + c->got, c->hdr.payload_len - c->got, MSG_DONTWAIT);
	}
	if (n == 0)
		return -ECONNRESET;
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
	if (c->hdr_got < LTT_MSG_HDR_SIZE) {
		if (!c->hdr_got && c->registered)	/* a message begins */
			ltt_evloop_timer_arm(c->deadline, (uint64_t)RECV_TIMEOUT_MS * 1000000, 0);
		c->hdr_got += (size_t)n;
		if (c->hdr_got < LTT_MSG_HDR_SIZE)
			return 0;
		if (ltt_msg_hdr_decode(c->hdrbuf, LTT_APP_MAGIC, LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE,
				       &c->hdr)) {
			LTT_WARN("pid %ld sent a malformed message header: dropped", (long)c->cred.pid);
			return -EPROTO;
		}
		c->payload = malloc(c->hdr.payload_len ? c->hdr.payload_len : 1);
		if (!c->payload)
			return -ENOMEM;
		c->got = 0;
	} else {
		c->got += (size_t)n;
	}
	if (c->got < c->hdr.payload_len)
		return 0;
	c->hdr_got = 0;
	if (c->registered)
		ltt_evloop_timer_disarm(c->deadline);
	return dispatch(t, c);
}

/* A connection past its deadline is dropped. */
static void on_deadline(struct ltt_evloop *loop, void *arg)
{
	struct conn *c = arg;

	(void)loop;
	LTT_WARN("pid %ld: %s in time: dropped", (long)c->cred.pid,
		 c->registered ? "a message did not arrive whole" : "no REGISTER");
	conn_close(c->t, c);
}

/* The pause is over: accept again. */
static void on_accept_timer(struct ltt_evloop *loop, void *arg)
{
	struct ltt_app_thread *t = arg;

	(void)loop;
	ltt_evloop_watch_set(t->listen_watch, EPOLLIN);
}

/* Commands to a program must be taken in time (reads never block). */
static void set_timeouts(int fd)
{
	struct timeval snd = { .tv_sec = SEND_TIMEOUT_MS / 1000,
			       .tv_usec = (SEND_TIMEOUT_MS % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &snd, sizeof(snd));
}

/* Out of fds: stop watching the listener for a while rather than spin. */
static void pause_accepting(struct ltt_app_thread *t)
{
	LTT_WARN("out of file descriptors: not accepting programs for %d ms", ACCEPT_PAUSE_MS);
	ltt_evloop_watch_set(t->listen_watch, 0);
	ltt_evloop_timer_arm(t->accept_timer, (uint64_t)ACCEPT_PAUSE_MS * 1000000, 0);
}

static void on_conn(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct conn *c = arg;

	(void)loop, (void)fd, (void)events;
	if (conn_read(c->t, c))
		conn_close(c->t, c);
}

static void accept_one(struct ltt_evloop *loop, int listen_fd, uint32_t events, void *arg)
{
	struct ltt_app_thread *t = arg;
	struct ltt_app *app;
	struct conn *c;
	int fd;

	(void)events;
	fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
			pause_accepting(t);
		return;
	}
	if (t->nr_unregistered >= MAX_UNREGISTERED) {
		LTT_WARN("%d connections already wait to register: one more refused",
			 MAX_UNREGISTERED);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	app = calloc(1, sizeof(*app));
	if (!c || !app || ltt_sock_peer_cred(fd, &c->cred)) {
		free(c);
		free(app);
		close(fd);
		return;
	}
	set_timeouts(fd);
	app->fd = fd;
	app->refcount = 1;	/* the connection's */
	app->pid = c->cred.pid;
	strcpy(app->procname, "?");
	CDS_INIT_LIST_HEAD(&app->chans);
	pthread_mutex_init(&app->lock, NULL);
	pthread_cond_init(&app->acked_cond, NULL);
	c->t = t;
	c->app = app;
	if (ltt_evloop_timer_create(loop, on_deadline, c, &c->deadline) ||
	    ltt_evloop_watch(loop, fd, EPOLLIN, on_conn, c, &c->watch)) {
		ltt_evloop_timer_destroy(c->deadline);
		ltt_app_put(app);
		free(c);
		return;
	}
	ltt_evloop_timer_arm(c->deadline, (uint64_t)REGISTER_TIMEOUT_MS * 1000000, 0);
	t->nr_unregistered++;
	cds_list_add_tail(&c->node, &t->conns);
}

static void *app_thread(void *arg)
{
	struct ltt_app_thread *t = arg;
	int ret;

	ret = ltt_evloop_run(t->loop);
	if (ret)
		LTT_ERR("app thread: epoll_wait: %s", strerror(-ret));
	return NULL;
}

int ltt_app_thread_start(const struct ltt_app_thread_config *cfg,
			 struct ltt_app_thread **ret_thread)
{
	struct ltt_app_thread *t;
	int ret;

	t = calloc(1, sizeof(*t));
	if (!t) {
		close(cfg->listen_fd);
		return -ENOMEM;
	}
	t->cfg = *cfg;
	CDS_INIT_LIST_HEAD(&t->conns);
	ret = ltt_evloop_create(&t->loop);
	if (!ret)
		ret = ltt_evloop_timer_create(t->loop, on_accept_timer, t, &t->accept_timer);
	if (!ret)
		ret = ltt_evloop_watch(t->loop, cfg->listen_fd, EPOLLIN, accept_one, t,
				       &t->listen_watch);
	if (!ret)
		ret = -pthread_create(&t->tid, NULL, app_thread, t);
	if (ret) {
		ltt_evloop_destroy(t->loop);
		close(cfg->listen_fd);
		free(t);
		return ret;
	}
	*ret_thread = t;
	return 0;
}

void ltt_app_thread_stop(struct ltt_app_thread *t)
{
	struct conn *c, *tmp;

	if (!t)
		return;
	ltt_evloop_stop(t->loop);
	pthread_join(t->tid, NULL);
	cds_list_for_each_entry_safe(c, tmp, &t->conns, node)
		conn_close(t, c);
	ltt_evloop_destroy(t->loop);
	close(t->cfg.listen_fd);
	free(t);
}
