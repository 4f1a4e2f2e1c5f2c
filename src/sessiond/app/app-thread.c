// SPDX-License-Identifier: GPL-2.0-only
/*
 * app-thread.c - registered applications and the app thread (see app.h); the
 * commands sent to them are app-out.c's, the application object and its
 * channel records app-object.c's.
 *
 * The thread owns the listening socket and reads every application's
 * messages.  An application is another user's process and may lie or
 * stall: its credentials come from SO_PEERCRED, not from what it says;
 * every message is validated.  No program can hold the thread, or make
 * the daemon hold much for it:
 *
 * - Deadlines: a connection must be registered (REGISTER, then its first
 *   TRACEPOINTS) within REGISTER_TIMEOUT of its connection; a message
 *   must be whole within RECV_TIMEOUT of its first byte; a queued command
 *   must be taken within SEND_TIMEOUT of reaching the queue's head.  A
 *   program past a deadline is dropped (it may register again).
 * - Sends never block (ltt_app_send()): what the socket does not take is
 *   queued, at most LTT_APP_OUTQ_MAX bytes, and written by this thread.
 * - Connections: at most MAX_UNREGISTERED waiting to register, and per
 *   user (root excepted) at most cfg.max_per_uid connections, of which
 *   cfg.max_unregistered_per_uid unregistered; beyond, refused at accept.
 * - Memory: a message's buffer grows as its bytes arrive; before
 *   registration, and for every message but TRACEPOINTS, a message is at
 *   most SMALL_MSG_MAX bytes; TRACEPOINTS messages are refused (read and
 *   discarded, the program stays) once a program's descriptions would
 *   pass cfg.metadata_max bytes, or its user's program messages being
 *   read would pass the bytes a user may hold at once (cfg.budget, the
 *   programs' own: the user's client requests can't exhaust it); the
 *   listener hears of each refusal (refused()), which `list` counts.
 * - Logs a program can trigger are rate-limited (LTT_WARN_RL()).
 *
 * The thread is an event loop (common/base/evloop.h): a watch on the listener
 * and on each connection, two deadline timers per connection (its
 * messages in, its commands out), and a timer that resumes accepting
 * after a pause.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/base/budget.h"
#include "common/base/evloop.h"
#include "common/base/testpoint.h"
#include "common/proto/lttng-health.h"
#include "common/base/log.h"
#include "common/base/proc-status.h"
#include "common/base/sock.h"
#include "common/proto/msg.h"
#include "sessiond/app/app.h"
#include "sessiond/priv/priv.h"

#define RECV_TIMEOUT_MS 2000
#define SEND_TIMEOUT_MS 2000	/* the head of a program's queue taken by then */
#define REGISTER_TIMEOUT_MS 3000
#define MAX_UNREGISTERED 256
#define SMALL_MSG_MAX 4096	/* payload of any message but TRACEPOINTS */
#define BUF_STEP (64U << 10)	/* a message buffer grows by at most this much ahead */
#define DONE_CHECK_MS 50	/* unanswered messages checked for stalled consumers */

struct ltt_app_thread {
	struct ltt_app_thread_config cfg;
	struct ltt_evloop_server srv;	/* on cfg.listen_fd */
	struct cds_list_head conns;	/* ltt_app being served, registered or not */
	unsigned int nr_unregistered;
	struct ltt_app_done *dones;	/* messages not answered yet */
	struct ltt_evloop_timer *done_timer;	/* armed while there are some */
	struct ltt_app_tpcache *tpcache;	/* the last descriptions decoded */
};

#define NS_PER_MS 1000000ULL

/* Per-connection state kept by the thread beside the ltt_app. */
struct conn {
	struct cds_list_head node;
	struct ltt_app_thread *t;
	struct ltt_app *app;	/* a reference */
	struct ltt_evloop_watch *watch;
	struct ucred cred;
	bool registered;	/* REGISTER accepted */
	bool described;		/* its first TRACEPOINTS handled: registration complete */
	bool own_clock;		/* its CLOCK_MONOTONIC offset from ours (checked at accept) */
	uint64_t register_by;	/* ns: registration complete by then */
	uint64_t msg_by;	/* ns: the message begun whole by then */
	struct ltt_evloop_timer *deadline;	/* the earliest of the two that applies */
	struct ltt_evloop_timer *send_deadline;	/* armed: the queue's head taken by then */
	uint64_t meta_bytes;	/* event descriptions kept, bytes as received */
	/* The message being gathered. */
	uint8_t hdrbuf[LTT_MSG_HDR_SIZE];
	size_t hdr_got;
	struct ltt_msg_hdr hdr;
	uint8_t *payload;	/* cap bytes; NULL while discarding */
	size_t cap;
	uint64_t held;		/* in the user's budget: cap */
	size_t got;
	bool discard;		/* over the description limit: read and drop */
	uint8_t head[4];	/* the payload's first bytes (TRACEPOINTS: its count) */
	struct ltt_app_notify_reader notify;	/* its notification socket, once it has one */
};

/*
 * What @c holds in its user's budget becomes @bytes (ltt_budget_hold());
 * root's programs are not counted.
 */
static int budget_set(struct ltt_app_thread *t, struct conn *c, uint64_t bytes)
{
	return ltt_budget_hold(c->cred.uid ? t->cfg.budget : NULL, c->cred.uid, &c->held, bytes);
}

static void conn_close(struct ltt_app_thread *t, struct conn *c)
{
	ltt_app_notify_close(&c->notify);	/* what it sent before it went: counts included */
	if (!c->registered)
		t->nr_unregistered--;
	free(c->payload);
	budget_set(t, c, 0);
	ltt_evloop_unwatch(c->watch);
	ltt_evloop_timer_destroy(c->deadline);
	ltt_evloop_timer_destroy(c->send_deadline);
	pthread_mutex_lock(&c->app->lock);
	ltt_app_mark_dead_locked(c->app);
	c->app->conn = NULL;
	pthread_mutex_unlock(&c->app->lock);
	if (c->registered)
		t->cfg.listener.removed(t->cfg.listener.arg, c->app);
	cds_list_del(&c->node);
	ltt_app_put(c->app);
	free(c);
}

/*
 * Arm the read deadline that applies now: registration, message, or none
 * (an instant: the same one again sets no timer anew).
 */
static void rearm_deadline(struct conn *c)
{
	uint64_t by = 0;

	if (!c->described)
		by = c->register_by;
	if (c->hdr_got && (!by || c->msg_by < by))
		by = c->msg_by;
	if (by)
		ltt_evloop_timer_arm_at(c->deadline, by);
	else
		ltt_evloop_timer_disarm(c->deadline);
}

/*
 * The CLOCK_MONOTONIC offset of process @who's time namespace, its
 * timens_offsets' line "monotonic SECONDS NANOSECONDS" (the namespace its
 * children enter, its own once it runs a program: /proc/PID/timens_offsets
 * is any user's to read, where /proc/PID/ns/time is root's) into @line.
 * Its length, or -errno (-ENOENT: no time namespaces, or no such process).
 */
static int monotonic_offset(const char *who, char *line, size_t size)
{
	char path[48], buf[160], *p, *end;
	int n;

	snprintf(path, sizeof(path), "/proc/%s/timens_offsets", who);
	n = ltt_proc_read(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	p = strstr(buf, "monotonic ");
	if (!p)
		return -EPROTO;
	end = strchrnul(p, '\n');
	if ((size_t)(end - p) >= size)
		return -EPROTO;
	memcpy(line, p, (size_t)(end - p));
	line[end - p] = '\0';
	return (int)(end - p);
}

/* This process's, read once: it never enters another time namespace. */
static char own_offset[64];
static int own_offset_len;
static pthread_once_t own_offset_once = PTHREAD_ONCE_INIT;

static void find_own_offset(void)
{
	own_offset_len = monotonic_offset("self", own_offset, sizeof(own_offset));
}

int ltt_app_same_clock(pid_t pid)
{
	char who[24], theirs[sizeof(own_offset)];
	int n;

	pthread_once(&own_offset_once, find_own_offset);
	if (own_offset_len < 0)
		return 1;	/* no time namespaces here, or no /proc: nothing to compare */
	snprintf(who, sizeof(who), "%ld", (long)pid);
	n = monotonic_offset(who, theirs, sizeof(theirs));
	if (n < 0)
		return n;
	return n == own_offset_len && !memcmp(theirs, own_offset, (size_t)n);
}

/*
 * ltt_app_same_clock(); where this process can't read the program's
 * /proc (hidepid: -EACCES, or -ENOENT, as for a process gone), a root
 * daemon that dropped root's rights asks its privileged part, which can.
 */
static bool same_clock(pid_t pid)
{
	int ret = ltt_app_same_clock(pid);

	if (ret >= 0)
		return ret;
	if (geteuid() == 0 || !ltt_priv_get())
		return true;	/* gone, or nothing to compare, as without /proc */
	ret = ltt_priv_time_ns(pid);
	return ret != 0;	/* a link gone: nothing to compare either */
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

	/* The gid (the credentials' wins) and nr_cpus (ours) are not used. */
	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	if (ltt_app_get_register(&r, &m) || msg->nr_fds)
		return -EPROTO;
	_Static_assert(sizeof(app->procname) == LTT_APP_PROCNAME_MAX, "procname size");
	memcpy(app->procname, m.procname, strlen(m.procname) + 1);
	app->ppid = (pid_t)m.ppid;
	app->minor = m.minor;
	if (m.major != LTT_APP_MAJOR) {
		LTT_WARN_RL("pid %ld speaks app protocol %u.x, this daemon %u.x: refused",
			 (long)c->cred.pid, m.major, LTT_APP_MAJOR);
		return -EPROTO;
	}
	/* What the kernel says wins over what the process says. */
	if (m.uid != c->cred.uid || (m.pid != (uint32_t)c->cred.pid && c->cred.pid > 0))
		LTT_DBG("pid %ld claims pid %u uid %u; using its credentials", (long)c->cred.pid,
			m.pid, m.uid);
	if (m.bits_per_long != 32 && m.bits_per_long != 64)
		return -EPROTO;
	if (c->own_clock) {
		LTT_WARN_RL("%s (pid %ld) runs in another time namespace, its CLOCK_MONOTONIC offset from the daemon's: its timestamps would not fit the traces, not traced",
			 app->procname, (long)c->cred.pid);
		return -EPROTO;
	}
	app->pid = c->cred.pid;
	app->uid = c->cred.uid;
	app->gid = c->cred.gid;
	app->bits_per_long = m.bits_per_long;
	app->minor = m.minor < LTT_APP_MINOR ? m.minor : LTT_APP_MINOR;
	app->registered_at = time(NULL);
	ret = t->cfg.listener.added(t->cfg.listener.arg, app);
	if (ret) {
		LTT_WARN_RL("too many applications: %s (pid %ld) refused", app->procname,
			    (long)app->pid);
		return -EPROTO;
	}
	c->registered = true;
	t->nr_unregistered--;
	ltt_wbuf_init(&w);
	ltt_app_put_version(&w, &ours);
	ret = ltt_app_send(app, LTT_APP_MSG_REGISTER_OK, &w, NULL, 0, NULL);
	ltt_wbuf_fini(&w);
	LTT_INFO_RL("%s (pid %ld, uid %u) registered", app->procname, (long)app->pid,
		    (unsigned int)app->uid);
	return ret;
}

/* App thread, every DONE_CHECK_MS while some messages are not answered. */
static void on_done_timer(struct ltt_evloop *loop, void *arg)
{
	struct ltt_app_thread *t = arg;

	(void)loop;
	if (ltt_app_done_sweep(&t->dones))
		ltt_evloop_timer_arm(t->done_timer, DONE_CHECK_MS * NS_PER_MS, 0);
}

static int answer(struct ltt_app_thread *t, struct conn *c, struct ltt_app_done *d);

static int handle_tracepoints(struct ltt_app_thread *t, struct conn *c, struct ltt_msg *msg)
{
	struct ltt_app_done *d;
	struct ltt_app_tracepoint **tps;
	uint32_t n;
	int ret;

	if (msg->nr_fds)
		return -EPROTO;
	ret = ltt_app_tpcache_decode(&t->tpcache, msg->payload, msg->hdr.payload_len, &tps, &n);
	if (ret) {
		LTT_WARN_RL("%s (pid %ld) sent malformed tracepoint descriptions: dropped",
			    c->app->procname, (long)c->app->pid);
		return ret;
	}
	c->meta_bytes += msg->hdr.payload_len;
	d = ltt_app_done_create(c->app);
	t->cfg.listener.tracepoints(t->cfg.listener.arg, c->app, tps, n, d);
	free(tps);
	return answer(t, c, d);
}

/*
 * Answer @c's TRACEPOINTS message with REGISTER_DONE once the work that
 * holds @d is done (NULL: now).  Returns 0 or an error to drop the app.
 */
static int answer(struct ltt_app_thread *t, struct conn *c, struct ltt_app_done *d)
{
	if (!d)
		return ltt_app_send(c->app, LTT_APP_MSG_REGISTER_DONE, NULL, NULL, 0, NULL);
	/* Everything the active sessions want of them pushed: let it go on. */
	if (ltt_app_done_settle(d))
		return 0;
	/* Else the work it waits for runs elsewhere: checked until answered. */
	if (!t->dones)
		ltt_evloop_timer_arm(t->done_timer, DONE_CHECK_MS * NS_PER_MS, 0);
	ltt_app_done_queue(&t->dones, d);
	return 0;
}

/* LOGGERS {u32 count, count x str}: what its python agent knows, for list -p. */
static int handle_loggers(struct ltt_app_thread *t, struct conn *c, struct ltt_msg *msg)
{
	const char *names[SMALL_MSG_MAX / 5];
	struct ltt_rbuf r;
	uint32_t n;

	if (msg->nr_fds || c->app->minor < LTT_APP_MINOR_AGENT)
		return -EPROTO;
	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	if (ltt_app_get_loggers(&r, names, sizeof(names) / sizeof(names[0]), &n))
		return -EPROTO;
	/* logger names count against the program's description bytes */
	if (c->meta_bytes + msg->hdr.payload_len > t->cfg.metadata_max) {
		LTT_WARN_RL("%s (pid %ld, uid %u) reports more than %llu bytes of events and loggers: %u loggers left out of list -p (ltt-sessiond --app-metadata-max)",
			    c->app->procname, (long)c->app->pid, (unsigned int)c->cred.uid,
			    (unsigned long long)t->cfg.metadata_max, n);
		return 0;
	}
	c->meta_bytes += msg->hdr.payload_len;
	if (t->cfg.listener.loggers)
		t->cfg.listener.loggers(t->cfg.listener.arg, c->app, names, n);
	return 0;
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
		LTT_WARN_RL("%s (pid %ld) failed command %u: %s", app->procname, (long)app->pid,
			    seq, strerror(status < 0 ? -status : status));
	return 0;
}

/*
 * GAP {u64 gone_ns, u32 channels}: the program's previous daemon went
 * away while it was registered; what it did since is in no trace.  Said
 * in the log, a warning when it was being recorded then.
 */
static int handle_gap(struct conn *c, struct ltt_msg *msg)
{
	struct ltt_app_gap g;
	struct ltt_rbuf r;
	struct timespec now;
	uint64_t now_ns;
	double gap_s;

	if (msg->nr_fds || c->app->minor < LTT_APP_MINOR_GAP)
		return -EPROTO;
	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	if (ltt_app_get_gap(&r, &g))
		return -EPROTO;
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	gap_s = now_ns > g.gone_ns ? (double)(now_ns - g.gone_ns) / 1e9 : 0;
	if (g.channels)
		LTT_WARN_RL("%s (pid %ld, uid %u) registered again %.1f s after its previous session daemon went away; it was recording into %u channels then: what it did in between is in no trace",
			    c->app->procname, (long)c->app->pid, (unsigned int)c->cred.uid, gap_s,
			    g.channels);
	else
		LTT_INFO("%s (pid %ld, uid %u) registered again %.1f s after its previous session daemon went away (no session recorded it then)",
			 c->app->procname, (long)c->app->pid, (unsigned int)c->cred.uid, gap_s);
	return 0;
}

/*
 * The descriptions a refused TRACEPOINTS message held, as its count says
 * (the payload was not kept), at most LTT_APP_MAX_TRACEPOINTS.
 */
static uint32_t refused_count(const struct conn *c)
{
	struct ltt_rbuf r;
	uint32_t n;

	if (c->hdr.payload_len < sizeof(c->head))
		return 0;
	ltt_rbuf_init(&r, c->head, sizeof(c->head));
	n = ltt_rbuf_get_u32(&r);
	return n < LTT_APP_MAX_TRACEPOINTS ? n : LTT_APP_MAX_TRACEPOINTS;
}

/* A refused TRACEPOINTS message: counted, then answered.  0 or an error to drop the app. */
static int refused(struct ltt_app_thread *t, struct conn *c)
{
	struct ltt_app_done *d = NULL;
	uint32_t n = refused_count(c);

	if (c->registered && n && t->cfg.listener.refused) {
		d = ltt_app_done_create(c->app);
		t->cfg.listener.refused(t->cfg.listener.arg, c->app, n, d);
	}
	return answer(t, c, d);
}

/* A whole message is in: handle it.  Returns 0, or an error to drop the app. */
static int dispatch(struct ltt_app_thread *t, struct conn *c)
{
	struct ltt_msg msg = { .hdr = c->hdr, .payload = c->payload };
	int ret;

	c->payload = NULL;
	c->cap = 0;
	budget_set(t, c, 0);	/* msg holds the payload until the end: bounded, one at a time */
	if (c->discard) {
		/* Over its description limit: answered, kept out, counted, the program goes on. */
		c->discard = false;
		ret = refused(t, c);
	} else if (!c->registered && msg.hdr.type != LTT_APP_MSG_REGISTER)
		ret = -EPROTO;
	else if (c->registered && msg.hdr.type == LTT_APP_MSG_REGISTER)
		ret = -EPROTO;
	else if (msg.hdr.type == LTT_APP_MSG_REGISTER)
		ret = handle_register(t, c, &msg);
	else if (msg.hdr.type == LTT_APP_MSG_TRACEPOINTS)
		ret = handle_tracepoints(t, c, &msg);
	else if (msg.hdr.type == LTT_APP_MSG_ACK)
		ret = handle_ack(c, &msg);
	else if (msg.hdr.type == LTT_APP_MSG_LOGGERS)
		ret = handle_loggers(t, c, &msg);
	else if (msg.hdr.type == LTT_APP_MSG_GAP)
		ret = handle_gap(c, &msg);
	else
		ret = -EPROTO;
	if (ret == -EPROTO)
		LTT_WARN_RL("pid %ld sent a malformed or unexpected %s message: dropped",
			    (long)c->cred.pid, ltt_app_msg_name(msg.hdr.type) ?: "unknown");
	if (!ret && c->registered && msg.hdr.type == LTT_APP_MSG_TRACEPOINTS)
		c->described = true;
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
 * The largest payload @c may send in a message of @type: small ones but
 * for the descriptions of a registered program, which may not pass its
 * limit.  Sets c->discard for descriptions over the limit.
 */
static int check_length(struct ltt_app_thread *t, struct conn *c)
{
	uint32_t len = c->hdr.payload_len;

	if (!c->registered || c->hdr.type != LTT_APP_MSG_TRACEPOINTS) {
		if (len <= SMALL_MSG_MAX)
			return 0;
		LTT_WARN_RL("pid %ld sent a %s message of %u bytes (at most %u here): dropped",
			    (long)c->cred.pid, ltt_app_msg_name(c->hdr.type) ?: "unknown", len,
			    SMALL_MSG_MAX);
		return -EPROTO;
	}
	if (c->meta_bytes + len > t->cfg.metadata_max) {
		LTT_WARN_RL("%s (pid %ld, uid %u) describes more than %llu bytes of events: %u more bytes refused, its events there are not traced (ltt-sessiond --app-metadata-max)",
			    c->app->procname, (long)c->app->pid, (unsigned int)c->cred.uid,
			    (unsigned long long)t->cfg.metadata_max, len);
		c->discard = true;
	}
	return 0;
}

/* Room for the next bytes of the payload: the buffer grows as they come. */
static int payload_room(struct ltt_app_thread *t, struct conn *c, uint8_t **ret_p,
			size_t *ret_len)
{
	static uint8_t sink[BUF_STEP];
	size_t want = c->hdr.payload_len - c->got, cap;
	bool bound = c->registered && c->hdr.type == LTT_APP_MSG_TRACEPOINTS;
	uint8_t *p;

	if (c->discard) {
		*ret_p = sink;
		*ret_len = want < sizeof(sink) ? want : sizeof(sink);
		return 0;
	}
	if (c->got == c->cap) {
		cap = c->cap + (want < BUF_STEP ? want : BUF_STEP);
		if (cap < 2 * c->cap && 2 * c->cap <= c->hdr.payload_len)
			cap = 2 * c->cap;
		/* the small messages are bounded by the connections a user may hold */
		if (bound && budget_set(t, c, cap)) {
			LTT_WARN_RL("%s (pid %ld, uid %u): a message of %u bytes would pass the %llu bytes its user may hold at once (ltt-sessiond --max-bytes-per-uid): refused, its events there are not traced",
				    c->app ? c->app->procname : "a program", (long)c->cred.pid,
				    (unsigned int)c->cred.uid, c->hdr.payload_len,
				    (unsigned long long)t->cfg.budget->limit);
			free(c->payload);
			c->payload = NULL;
			c->cap = 0;
			budget_set(t, c, 0);
			c->discard = true;
			return payload_room(t, c, ret_p, ret_len);
		}
		p = realloc(c->payload, cap ? cap : 1);
		if (!p) {
			if (bound)
				budget_set(t, c, c->cap);
			return -ENOMEM;
		}
		c->payload = p;
		c->cap = cap;
	}
	*ret_p = c->payload + c->got;
	*ret_len = c->cap - c->got;
	return 0;
}

/* A header is whole: check it.  Returns 0, or an error to drop the app. */
static int header_done(struct ltt_app_thread *t, struct conn *c)
{
	if (ltt_msg_hdr_decode(c->hdrbuf, LTT_APP_MAGIC, LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE,
			       &c->hdr)) {
		LTT_WARN_RL("pid %ld sent a malformed message header: dropped", (long)c->cred.pid);
		return -EPROTO;
	}
	c->got = 0;
	c->cap = 0;
	return check_length(t, c);
}

/* What a recv() of a connection's returned: 0 to read on, else conn_read()'s return. */
static int recv_result(ssize_t n, int err)
{
	if (n == 0)
		return -ECONNRESET;
	if (n < 0)
		return err == EAGAIN || err == EWOULDBLOCK || err == EINTR ? 1 : -err;
	return 0;
}

/*
 * Read what is there of the current message, without blocking, and handle
 * it once whole: its header, then at once its payload, which the program
 * most often wrote with it (not at the loop's next pass: that would cost
 * a wait and the deadline's timer set twice).  The message's deadline is
 * armed when one is left part read.  Returns 0, or an error to drop the app.
 */
static int conn_read(struct ltt_app_thread *t, struct conn *c)
{
	int fd = c->app->fd, ret;
	uint8_t *p = NULL;
	size_t len;
	ssize_t n;

	if (c->hdr_got < LTT_MSG_HDR_SIZE) {
		n = recv_header(fd, c->hdrbuf + c->hdr_got, LTT_MSG_HDR_SIZE - c->hdr_got);
		if (n == -EPROTO) {
			LTT_WARN_RL("pid %ld sent file descriptors: dropped", (long)c->cred.pid);
			return -EPROTO;
		}
		ret = recv_result(n, (int)-n);
		if (ret)
			return ret < 0 ? ret : 0;
		if (!c->hdr_got)	/* a message begins */
			c->msg_by = ltt_evloop_now_ns() + RECV_TIMEOUT_MS * NS_PER_MS;
		c->hdr_got += (size_t)n;
		if (c->hdr_got < LTT_MSG_HDR_SIZE)
			goto partial;
		ret = header_done(t, c);
		if (ret)
			return ret;
	}
	if (c->got < c->hdr.payload_len) {
		ret = payload_room(t, c, &p, &len);
		if (ret)
			return ret;
		n = recv(fd, p, len, MSG_DONTWAIT);
		ret = recv_result(n, errno);
		if (ret < 0)
			return ret;
		if (ret)
			goto partial;
		if (c->got < sizeof(c->head))	/* kept or discarded: its count is known */
			memcpy(c->head + c->got, p,
			       (size_t)n < sizeof(c->head) - c->got ? (size_t)n :
			       sizeof(c->head) - c->got);
		c->got += (size_t)n;
		if (c->got < c->hdr.payload_len)
			goto partial;
	}
	c->hdr_got = 0;
	ret = dispatch(t, c);
	if (!ret)
		rearm_deadline(c);
	return ret;
partial:
	rearm_deadline(c);
	return 0;
}

/* A connection past its deadline is dropped. */
static void on_deadline(struct ltt_evloop *loop, void *arg)
{
	struct conn *c = arg;

	(void)loop;
	/* One call site per reason: each has its own rate limit. */
	if (c->hdr_got && ltt_evloop_now_ns() >= c->msg_by)
		LTT_WARN_RL("%s (pid %ld, uid %u): a message did not arrive whole in time: dropped",
			    c->app->procname, (long)c->cred.pid, (unsigned int)c->cred.uid);
	else if (!c->registered)
		LTT_WARN_RL("pid %ld (uid %u): no REGISTER in time: dropped", (long)c->cred.pid,
			    (unsigned int)c->cred.uid);
	else
		LTT_WARN_RL("%s (pid %ld, uid %u): no event descriptions in time: dropped",
			    c->app->procname, (long)c->cred.pid, (unsigned int)c->cred.uid);
	conn_close(c->t, c);
}

/* A program that leaves a command unread too long is dropped. */
static void on_send_deadline(struct ltt_evloop *loop, void *arg)
{
	struct conn *c = arg;

	(void)loop;
	LTT_WARN_RL("%s (pid %ld, uid %u) did not take a command in %d ms: dropped",
		    c->app->procname, (long)c->cred.pid, (unsigned int)c->cred.uid,
		    SEND_TIMEOUT_MS);
	conn_close(c->t, c);
}

/*
 * Write what the program takes of its queue; watch for output while some
 * is left, each command at the head taken within SEND_TIMEOUT.  Returns 0,
 * or an error to drop the app.
 */
static int conn_flush(struct conn *c)
{
	bool progress, left;
	int ret;

	ret = ltt_app_outq_flush(c->app, &progress, &left);
	if (ret)
		return ret;
	if (!left)
		ltt_evloop_timer_disarm(c->send_deadline);
	else if (progress || !ltt_evloop_timer_armed(c->send_deadline))
		ltt_evloop_timer_arm(c->send_deadline, SEND_TIMEOUT_MS * NS_PER_MS, 0);
	return ltt_evloop_watch_set(c->watch, left ? EPOLLIN | EPOLLOUT : EPOLLIN);
}

/*
 * Posted by ltt_app_send(): commands were queued for the program; or by
 * ltt_app_notify_fd(): it has a notification socket to watch.
 */
static void on_flush_job(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct ltt_app *app = caa_container_of(job, struct ltt_app, flush_job);
	struct conn *c;

	(void)loop;
	pthread_mutex_lock(&app->lock);
	app->flush_posted = false;
	c = app->conn;
	pthread_mutex_unlock(&app->lock);
	if (c)
		ltt_app_notify_watch(&c->notify, c->t->srv.loop);
	if (c && conn_flush(c))
		conn_close(c->t, c);
	ltt_app_put(app);
}

static void on_conn(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct conn *c = arg;
	int ret = 0;

	(void)loop, (void)fd;
	if (events & EPOLLOUT)
		ret = conn_flush(c);
	if (!ret && (events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		ret = conn_read(c->t, c);
	if (ret)
		conn_close(c->t, c);
}

/* Each connection with something to read (a message, its end) is read as the loop would. */
static void sync_conns(void *arg)
{
	struct ltt_app_thread *t = arg;
	struct conn *c, *next;
	struct pollfd p;

	cds_list_for_each_entry_safe(c, next, &t->conns, node) {
		p = (struct pollfd){ .fd = c->app->fd, .events = POLLIN };
		if (poll(&p, 1, 0) == 1)
			on_conn(t->srv.loop, p.fd,
				((p.revents & POLLIN) ? EPOLLIN : 0) | ((p.revents & POLLHUP) ? EPOLLHUP : 0) |
				((p.revents & POLLERR) ? EPOLLERR : 0), c);
	}
}

void ltt_app_thread_sync(struct ltt_app_thread *t)
{
	(void)ltt_evloop_call(t->srv.loop, sync_conns, t, 1000);	/* else the counters as they are */
}

/*
 * May one more connection of @cred's user be served?  Root's always are
 * (within MAX_UNREGISTERED and the domain's program limit).
 */
static bool room_for(struct ltt_app_thread *t, const struct ucred *cred)
{
	unsigned int all = 0, unregistered = 0;
	struct conn *c;

	if (t->nr_unregistered >= MAX_UNREGISTERED) {
		LTT_WARN_RL("%d connections already wait to register: pid %ld (uid %u) refused",
			    MAX_UNREGISTERED, (long)cred->pid, (unsigned int)cred->uid);
		return false;
	}
	if (cred->uid == 0)
		return true;
	cds_list_for_each_entry(c, &t->conns, node) {
		if (c->cred.uid != cred->uid)
			continue;
		all++;
		unregistered += !c->registered;
	}
	if (all >= t->cfg.max_per_uid) {
		LTT_WARN_RL("uid %u has %u program connections (at most %u, ltt-sessiond --max-apps-per-uid): pid %ld refused",
			    (unsigned int)cred->uid, all, t->cfg.max_per_uid, (long)cred->pid);
		return false;
	}
	if (unregistered >= t->cfg.max_unregistered_per_uid) {
		LTT_WARN_RL("uid %u has %u connections waiting to register (at most %u): pid %ld refused",
			    (unsigned int)cred->uid, unregistered,
			    t->cfg.max_unregistered_per_uid, (long)cred->pid);
		return false;
	}
	return true;
}

/* The record of a program just connected on @fd. */
static struct conn *conn_new(struct ltt_app_thread *t, int fd, const struct ucred *cred)
{
	struct ltt_app *app;
	struct conn *c;

	c = calloc(1, sizeof(*c));
	app = calloc(1, sizeof(*app));
	if (!c || !app) {
		free(c);
		free(app);
		return NULL;
	}
	app->fd = fd;
	app->notify_rd = -1;
	app->notify_wr = -1;
	app->refcount = 1;	/* the connection's */
	app->pid = cred->pid;
	strcpy(app->procname, "?");
	CDS_INIT_LIST_HEAD(&app->chans);
	pthread_mutex_init(&app->lock, NULL);
	pthread_cond_init(&app->acked_cond, NULL);
	app->outq_tail = &app->outq;
	app->flush_job.fn = on_flush_job;
	app->loop = t->srv.loop;
	app->conn = c;
	c->t = t;
	c->app = app;
	c->notify.app = app;
	c->notify.listener = &t->cfg.listener;
	c->cred = *cred;
	return c;
}

static void accept_one(struct ltt_evloop *loop, int fd, void *arg)
{
	struct ltt_app_thread *t = arg;
	struct ucred cred;
	struct conn *c;

	if (ltt_sock_peer_cred(fd, &cred) || !room_for(t, &cred)) {
		close(fd);
		return;
	}
	c = conn_new(t, fd, &cred);
	if (!c) {
		close(fd);
		return;
	}
	if (ltt_evloop_timer_create(loop, on_deadline, c, &c->deadline) ||
	    ltt_evloop_timer_create(loop, on_send_deadline, c, &c->send_deadline) ||
	    ltt_evloop_watch(loop, fd, EPOLLIN, on_conn, c, &c->watch)) {
		ltt_evloop_timer_destroy(c->deadline);
		ltt_evloop_timer_destroy(c->send_deadline);
		c->app->conn = NULL;
		ltt_app_put(c->app);
		free(c);
		return;
	}
	c->register_by = ltt_evloop_now_ns() + REGISTER_TIMEOUT_MS * NS_PER_MS;
	rearm_deadline(c);
	/*
	 * Its clock now, while it prepares its REGISTER, rather than once
	 * that came.  (A process that changes namespaces between its connect
	 * and its REGISTER could as well change them after its REGISTER.)
	 */
	c->own_clock = cred.pid > 0 && !same_clock(cred.pid);
	t->nr_unregistered++;
	cds_list_add_tail(&c->node, &t->conns);
}

/* The app thread's timer of programs' done messages, made before it starts. */
static int add_done_timer(struct ltt_evloop *loop, void *arg)
{
	/* LTTng's program threads' test points; its hash table cleanup's too (ltt has none) */
	static struct ltt_testpoint manage = LTT_TESTPOINT_INIT(sessiond_thread_manage_apps),
		reg = LTT_TESTPOINT_INIT(sessiond_thread_registration_apps),
		notify = LTT_TESTPOINT_INIT(sessiond_thread_app_manage_notify),
		dispatch = LTT_TESTPOINT_INIT(sessiond_thread_app_reg_dispatch),
		cleanup = LTT_TESTPOINT_INIT(sessiond_thread_ht_cleanup);
	static const struct ltt_evloop_point points[] = {
		{ &manage, LTT_LTTNG_HEALTH_APP_MANAGE }, { &reg, LTT_LTTNG_HEALTH_APP_REG },
		{ &notify, LTT_LTTNG_HEALTH_APP_MANAGE_NOTIFY },
		{ &dispatch, LTT_LTTNG_HEALTH_APP_REG_DISPATCH },
		{ &cleanup, LTT_LTTNG_HEALTH_HT_CLEANUP },
	};
	struct ltt_app_thread *t = arg;

	ltt_evloop_set_tag(loop, t->cfg.health_tag);
	if (t->cfg.health_tag)
		ltt_evloop_set_points(loop, points, sizeof(points) / sizeof(points[0]));
	return ltt_evloop_timer_create(loop, on_done_timer, t, &t->done_timer);
}

int ltt_app_thread_start(const struct ltt_app_thread_config *cfg,
			 struct ltt_app_thread **ret_thread)
{
	struct ltt_app_thread *t = calloc(1, sizeof(*t));
	int ret;

	if (t) {
		t->cfg = *cfg;
		CDS_INIT_LIST_HEAD(&t->conns);
	}
	*ret_thread = ltt_evloop_server_adopt(t, t ? &t->srv : NULL, cfg->listen_fd, SOCK_CLOEXEC,
					      "programs", accept_one, add_done_timer, "app thread",
					      &ret);
	return ret;
}

/* A flush job that never ran: its program's reference dropped. */
static void flush_job_drop(struct ltt_evloop_job *j)
{
	ltt_app_put(caa_container_of(j, struct ltt_app, flush_job));
}

void ltt_app_thread_stop(struct ltt_app_thread *t)
{
	struct conn *c, *tmp;

	if (!t)
		return;
	ltt_evloop_server_stop(&t->srv);
	cds_list_for_each_entry_safe(c, tmp, &t->conns, node)
		conn_close(t, c);
	ltt_app_done_drop_all(&t->dones);
	/* Flushes never run: their programs are gone; drop the jobs' references. */
	ltt_evloop_jobs_drop(ltt_evloop_take_jobs(t->srv.loop), flush_job_drop);
	ltt_evloop_server_fini(&t->srv);
	ltt_app_tpcache_free(t->tpcache);
	free(t);
}
