// SPDX-License-Identifier: LGPL-2.1-only
/*
 * comm.c - one thread per session daemon: connect to its app socket,
 * register (REGISTER, TRACEPOINTS), then serve its commands until it goes
 * away, and try again later.  The first time, the program's constructor
 * connects and sends the registration itself, without blocking
 * (ust_comm_preconnect(), connect_early()), and serves the daemon's
 * answers until REGISTER_DONE, as long as its bounded wait allows
 * (serve_registrations()); the thread, started meanwhile, waits for it,
 * and serves the connection from there.
 *
 * Daemons: $LTT_RUNDIR/app.sock alone when LTT_RUNDIR is set; otherwise
 * the root daemon's /run/ltt/app.sock and the user's own
 * $LTT_HOME/.ltt/app.sock (the home of common/base/paths.h's
 * ltt_home_find(): LTT_HOME, else LTTNG_HOME, else HOME).
 *
 * The threads are the library's own: they block every signal, never record
 * events, and may block on their socket (with 10 s send and receive
 * timeouts against a stuck daemon) or on an RCU grace period, but never
 * while holding the ust lock, so the program's threads never wait for them
 * (but in ltt_ust_register_module()'s bounded wait).  They are detached and
 * never joined: the program may exit at any time.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define _LGPL_SOURCE

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "common/base/fault.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/proto/app-proto.h"
#include "common/proto/msg.h"
#include "ust/comm-cmd.h"
#include "ust/rcu.h"
#include "ust/notify.h"
#include "ust/ust.h"

#define MAX_DAEMONS 2
#define IO_TIMEOUT_S 10
#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 3200
#define MAX_PAYLOAD (LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE)
#define REGISTER_DUMP_STACK 64	/* channels a registration dumps into without malloc() */

static struct daemon daemons[MAX_DAEMONS];
static unsigned int nr_daemons;
static bool configured;

/* ---- configuration ---- */

static void add_daemon(const char *dir)
{
	struct daemon *d = &daemons[nr_daemons];
	unsigned int i;

	if (nr_daemons == MAX_DAEMONS ||
	    ltt_path_join(d->path, sizeof(d->path), dir, LTT_APP_SOCKET_NAME))
		return;
	for (i = 0; i < nr_daemons; i++)
		if (!strcmp(daemons[i].path, d->path))
			return;
	d->wake_fd = -1;
	d->sock = -1;
	d->phase = PHASE_DOWN;
	nr_daemons++;
}

/*
 * The daemons this program registers with: LTT_RUNDIR's, else the root
 * daemon's and the user's own.  A set-user-ID or set-group-ID program
 * (AT_SECURE) registers with the root daemon alone, whatever its
 * environment names: the user who ran it chose that environment, and a
 * daemon of theirs would command a privileged process (LTTng-UST reads
 * neither HOME nor LTTNG_HOME there either).
 */
static void configure(void)
{
	const char *rundir = secure_getenv("LTT_RUNDIR");
	char dir[4096];

	configured = true;
	if (getauxval(AT_SECURE)) {
		add_daemon(LTT_ROOT_RUNDIR);
		return;
	}
	if (rundir && *rundir) {
		add_daemon(rundir);
		return;
	}
	add_daemon(LTT_ROOT_RUNDIR);
	if (!ltt_home_find(LTT_HOME_RUNDIR, dir, sizeof(dir)))
		add_daemon(dir);
}

/* ---- sending ---- */

/*
 * Send the queued acks.  Acks never block the reading of commands: the
 * daemon may send many commands before it reads our acks (a program with
 * hundreds of events), and if we stopped reading to push an ack through,
 * both sides would wait for each other.  @block: until everything is out
 * (before another message, or when too much is queued).
 */
static int flush_acks(struct daemon *d, int fd, bool block)
{
	while (d->acks_off < d->acks.len) {
		ssize_t n = send(fd, d->acks.data + d->acks_off, d->acks.len - d->acks_off,
				 MSG_NOSIGNAL | (block ? 0 : MSG_DONTWAIT));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !block)
			return 0;
		if (n < 0)
			return -errno;
		d->acks_off += (size_t)n;
	}
	ltt_wbuf_reset(&d->acks);
	d->acks_off = 0;
	d->ok_ack_end = 0;
	return 0;
}

static bool acks_pending(const struct daemon *d)
{
	return d->acks_off < d->acks.len;
}

/*
 * Queue the header of a message of @len bytes of payload behind what is
 * queued (the acks); the caller queues the payload.
 */
static int queue_hdr(struct daemon *d, uint16_t type, uint32_t seq, size_t len)
{
	struct ltt_msg_hdr hdr = {
		.magic = LTT_APP_MAGIC,
		.type = type,
		.seq = seq,
		.payload_len = (uint32_t)len,
	};
	uint8_t *p = ltt_wbuf_reserve(&d->acks, LTT_MSG_HDR_SIZE);

	if (p)
		ltt_msg_hdr_encode(&hdr, p);
	return d->acks.err ? -ENOMEM : 0;
}

/* A message this large or smaller is sent from the queue: header and payload in one write. */
#define QUEUED_MSG_MAX (64 * 1024)

/* Queue message @type whole, to go out with the next send_msg(). */
static int queue_msg(struct daemon *d, uint16_t type, uint32_t seq, const struct ltt_wbuf *w)
{
	int ret = queue_hdr(d, type, seq, w->len);

	if (!ret)
		ltt_wbuf_put_bytes(&d->acks, w->data, w->len);
	return ret || d->acks.err ? -ENOMEM : 0;
}

/*
 * Send message @type after what is queued.  A small one joins the queue,
 * and all of it goes in one write: the daemon is woken once, and finds
 * the header and payload of each message there together.
 */
static int send_msg(struct daemon *d, int fd, uint16_t type, uint32_t seq,
		    const struct ltt_wbuf *w)
{
	int ret;

	if (w->len <= QUEUED_MSG_MAX) {
		ret = queue_msg(d, type, seq, w);
		return ret ? ret : flush_acks(d, fd, true);
	}
	ret = flush_acks(d, fd, true);	/* messages never interleave */
	return ret ? ret : ltt_msg_send(fd, LTT_APP_MAGIC, type, seq, w->data, w->len, NULL, 0);
}

/* REGISTER, queued: it goes out with the first TRACEPOINTS, in one write. */
static int queue_register(struct daemon *d)
{
	char name[LTT_APP_PROCNAME_MAX] = "";
	struct ltt_app_register m = {
		.major = LTT_APP_MAJOR,
		.minor = LTT_APP_MINOR,
		.pid = (uint32_t)getpid(),
		.ppid = (uint32_t)getppid(),
		.uid = (uint32_t)getuid(),
		.gid = (uint32_t)getgid(),
		.bits_per_long = (uint32_t)(sizeof(long) * 8),
		.procname = name,
	};
	struct ltt_wbuf w;
	int ret;

	/* PR_GET_NAME writes at most 16 bytes, its NUL included. */
	prctl(PR_GET_NAME, name, 0, 0, 0);
	name[LTT_APP_PROCNAME_MAX - 1] = '\0';
	ltt_wbuf_init(&w);
	ltt_app_put_register(&w, &m);
	ret = w.err ? -ENOMEM : queue_msg(d, LTT_APP_MSG_REGISTER, 0, &w);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * The next TRACEPOINTS message into @w (reset), of *@count descriptions
 * (0 and not @first: none to send this time, ask again); ust lock held.
 * Returns 0, 1 when the daemon was told of every event, or w->err.
 */
static int tracepoints_msg_locked(struct daemon *d, struct ltt_wbuf *w, bool first,
				  uint32_t *count)
{
	size_t start;

	*count = 0;
	/* before the message's start, which allocates (a thread's first malloc(): serve_registrations()) */
	if (d->sent >= ust_registry_nr_events() && !first)
		return 1;
	start = ltt_app_put_tracepoints_start(w);
	d->sent = ust_registry_encode(w, d->sent, start + MAX_PAYLOAD, count);
	if (w->err)
		return w->err;
	if (*count || first) {
		d->msgs_sent++;		/* before the answer can come */
		ltt_app_put_tracepoints_finish(w, start, *count);
	}
	return 0;
}

/*
 * Report the events this connection has not heard of, in as few messages as
 * fit (the registration's first: queue_registration_locked()).
 */
static int send_tracepoints(struct daemon *d, int fd)
{
	struct ltt_wbuf w;
	uint32_t count;
	int ret = 0;

	ltt_wbuf_init(&w);
	while (!ret) {
		ltt_wbuf_reset(&w);
		ust_lock();
		ret = tracepoints_msg_locked(d, &w, false, &count);
		ust_unlock();
		if (ret || !count)
			continue;
		ret = send_msg(d, fd, LTT_APP_MSG_TRACEPOINTS, 0, &w);
	}
	ltt_wbuf_fini(&w);
	return ret > 0 ? 0 : ret;
}

/*
 * REGISTER and the first TRACEPOINTS queued, to go in one write; ust
 * lock held.  Both before REGISTER_OK, without waiting for it: the
 * daemon handles a connection's messages in order, so the descriptions
 * find the program registered, and the registration costs one round
 * trip instead of two (app-proto.h).
 */
static int queue_registration_locked(struct daemon *d)
{
	uint32_t count;
	size_t hdr;
	int ret = queue_register(d);

	if (ret)
		return ret;
	/* TRACEPOINTS written in the queue itself: no second buffer, no copy */
	hdr = d->acks.len;
	ret = queue_hdr(d, LTT_APP_MSG_TRACEPOINTS, 0, 0);
	if (!ret)
		ret = tracepoints_msg_locked(d, &d->acks, true, &count);
	if (!ret) {
		struct ltt_msg_hdr h = {
			.magic = LTT_APP_MAGIC, .type = LTT_APP_MSG_TRACEPOINTS,
			.payload_len = (uint32_t)(d->acks.len - hdr - LTT_MSG_HDR_SIZE),
		};

		ltt_msg_hdr_encode(&h, d->acks.data + hdr);
	}
	return ret ? ret : d->acks.err ? -ENOMEM : 0;
}

/* Payload of a LOGGERS message: a small one (app-proto.h). */
#define LOGGERS_MAX 4096

/* Report the agent's loggers the daemon was not told of yet (LOGGERS). */
static int send_loggers(struct daemon *d, int fd)
{
	struct ltt_wbuf w;
	uint32_t count;
	int ret = 0;

	if (d->minor < LTT_APP_MINOR_AGENT)
		return 0;	/* a daemon that knows no agent */
	ltt_wbuf_init(&w);
	while (!ret) {
		ltt_wbuf_reset(&w);
		ust_lock();
		if (d->loggers_sent >= ust_agent_nr_loggers()) {
			ust_unlock();
			break;
		}
		d->loggers_sent = ust_agent_encode_loggers(&w, d->loggers_sent, LOGGERS_MAX, &count);
		ust_unlock();
		ltt_fault_point("loggers-send");	/* a thread late to send them (tests) */
		ret = w.err ? w.err : send_msg(d, fd, LTT_APP_MSG_LOGGERS, 0, &w);
	}
	ltt_wbuf_fini(&w);
	return ret;
}

/* Acks queued beyond this are pushed out even if that blocks. */
#define ACK_QUEUE_MAX (2 * 1024 * 1024)

/* An ACK message's bytes. */
#define ACK_MSG_SIZE (LTT_MSG_HDR_SIZE + LTT_APP_ACK_SIZE)

/*
 * Queue the ACK of command @seq.  It goes out once no command waits to be
 * read (serve_ready()), with the acks of the commands before it: a burst
 * of commands, a registration's push, is acked in one write that wakes
 * the daemon once.  An ACK of status 0 still queued last, none of it
 * sent, gives way to this one when it is of status 0 too: an ACK answers
 * every command up to its seq (app-proto.h), so the daemon reads one
 * message for a burst of successes.  A failure's ACK stays, and is not
 * replaced, for the daemon to say.
 */
static int send_ack(struct daemon *d, int fd, uint32_t seq, int status)
{
	struct ltt_app_ack ack = { .seq = seq, .status = status };

	if (!status && d->ok_ack_end && d->ok_ack_end == d->acks.len &&
	    d->acks.len - ACK_MSG_SIZE >= d->acks_off)
		d->acks.len -= ACK_MSG_SIZE;
	if (!queue_hdr(d, LTT_APP_MSG_ACK, seq, LTT_APP_ACK_SIZE))
		ltt_app_put_ack(&d->acks, &ack);
	if (d->acks.err)
		return -ENOMEM;
	d->ok_ack_end = status ? 0 : d->acks.len;
	return d->acks.len - d->acks_off > ACK_QUEUE_MAX ? flush_acks(d, fd, true) : 0;
}

/*
 * The waiters are told after the unlock: told while it is held, a waiter
 * wakes only to sleep again on the lock until it is released.
 */
static void set_phase(struct daemon *d, enum phase phase)
{
	ust_lock();
	d->phase = phase;
	ust_unlock();
	ust_state_changed();
}

/*
 * The time since the previous daemon went away, to a daemon that takes
 * it: it tells the user that what this program did meanwhile is in no
 * trace.  Said once.
 */
static int send_gap(struct daemon *d, int fd)
{
	struct ltt_wbuf w;
	int ret;

	if (!d->gap.gone_ns || d->minor < LTT_APP_MINOR_GAP)
		return 0;
	ltt_wbuf_init(&w);
	ltt_app_put_gap(&w, &d->gap);
	ret = w.err ? -ENOMEM : send_msg(d, fd, LTT_APP_MSG_GAP, 0, &w);
	ltt_wbuf_fini(&w);
	if (!ret)
		d->gap.gone_ns = 0;
	return ret;
}

/* REGISTER_OK {u32 major, u32 minor} */
static int registered(struct daemon *d, int fd, struct ltt_msg *msg)
{
	struct ltt_app_version v = { 0 };
	struct ltt_rbuf r;
	int ret;

	ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
	if (ltt_app_get_version(&r, &v) || v.major != LTT_APP_MAJOR || d->registered) {
		ust_debug("%s: registration refused (protocol %u, ours %u)", d->path, v.major,
			  LTT_APP_MAJOR);
		return -EPROTO;
	}
	d->registered = true;
	d->minor = v.minor;
	/* The first TRACEPOINTS went with REGISTER: only what was learnt since. */
	ret = send_gap(d, fd);
	if (!ret)
		ret = send_tracepoints(d, fd);
	return ret ? ret : send_loggers(d, fd);
}

/*
 * The state dump of the channels the daemon's sessions record in, once
 * the events they enable are known, before the program goes on: of those
 * that owe one.  The daemon answers each TRACEPOINTS message with a
 * REGISTER_DONE (a program sends several as its modules register):
 * a channel that got its dump at the first, or at a start's
 * CHANNEL_ENABLE since, gets none at the next; nor one whose enable is
 * still to come (a start racing the registration: the enable dumps it,
 * once its events are).
 */
static void registration_dump(struct daemon *d)
{
	struct ust_channel *stack[REGISTER_DUMP_STACK], **chans = stack, **grown = NULL;
	unsigned int i, k, n, max = REGISTER_DUMP_STACK;

	ust_lock();
	n = ust_channel_count();
	if (n > max) {
		grown = malloc(n * sizeof(*grown));
		if (grown) {
			chans = grown;
			max = n;
		} else {
			ust_debug("out of memory: the state dump goes to %u of %u channels", max, n);
		}
	}
	n = ust_channels_enabled_of(d, chans, max);
	for (i = k = 0; i < n; i++) {
		if (!chans[i]->dump_owed || chans[i]->enable_due)
			continue;
		chans[i]->dump_owed = false;
		chans[k++] = chans[i];
	}
	ust_unlock();
	ust_statedump(chans, k);
	free(grown);
}

/* Read and handle one message.  Non-zero: the connection is over. */
static int handle_message(struct daemon *d, int fd)
{
	struct ltt_msg msg;
	int ret;

	ret = ltt_msg_recv(fd, LTT_APP_MAGIC, MAX_PAYLOAD, LTT_APP_MAX_FDS, &msg);
	if (ret)
		return ret;
	switch (msg.hdr.type) {
	case LTT_APP_MSG_REGISTER_OK:
		ret = registered(d, fd, &msg);
		break;
	case LTT_APP_MSG_LOGGERS_SYNC:
		/* what the agent knew of when it came goes before the ack (list -p) */
		ret = send_loggers(d, fd);
		if (!ret)
			ret = send_ack(d, fd, msg.hdr.seq,
				       msg.hdr.payload_len || msg.nr_fds ? -EPROTO : 0);
		break;
	case LTT_APP_MSG_REGISTER_DONE:
		registration_dump(d);
		ust_lock();
		d->msgs_done++;
		d->phase = PHASE_READY;
		ust_unlock();
		ust_state_changed();	/* after the unlock, as set_phase() */
		break;
	default:
		ret = send_ack(d, fd, msg.hdr.seq, ust_comm_cmd_run(d, &msg));
		break;
	}
	ltt_msg_fini(&msg);
	return ret;
}

static void drain(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) > 0)
		;
}

/* What to wait for on @d's connection: its commands, and room for its acks. */
static short conn_events(const struct daemon *d)
{
	return POLLIN | (acks_pending(d) ? POLLOUT : 0);
}

/*
 * Handle what poll() found on @d's connection (@conn) and its wake fd
 * (@wake): new events and loggers reported, one message read, or, when
 * none waits, the acks out.  Non-zero: the connection is over.
 */
static int serve_ready(struct daemon *d, int fd, short conn, short wake)
{
	int ret = 0;

	if (wake) {
		drain(d->wake_fd);
		if (d->registered)
			ret = send_tracepoints(d, fd);
		if (!ret && d->registered)
			ret = send_loggers(d, fd);
	}
	if (!ret && (conn & ~POLLOUT))
		ret = handle_message(d, fd);
	else if (!ret && (conn & POLLOUT))
		ret = flush_acks(d, fd, false);
	return ret;
}

/*
 * Serve one connection until it ends.  @queued: its REGISTER and first
 * TRACEPOINTS are queued already (connect_early()), maybe sent, maybe
 * answered (serve_registrations()).
 */
static void serve(struct daemon *d, int fd, bool queued)
{
	struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN }, { .events = POLLIN } };
	int ret = 0;

	ust_lock();
	pfd[1].fd = d->wake_fd;
	if (!queued)
		ret = queue_registration_locked(d);
	ust_unlock();
	/* in one write, which wakes the daemon once; then what did not fit */
	if (!ret)
		ret = flush_acks(d, fd, true);
	if (!ret)
		ret = send_tracepoints(d, fd);
	while (!ret) {
		pfd[0].events = conn_events(d);
		if (poll(pfd, 2, -1) < 0) {
			ret = errno == EINTR ? 0 : -errno;
			continue;
		}
		ret = serve_ready(d, fd, pfd[0].revents, pfd[1].revents);
	}
	ust_debug("%s: connection closed (%s)", d->path, strerror(ret < 0 ? -ret : ret));
}

/* The daemon went away from a registered program: when, and what it recorded into. */
static void note_gap(struct daemon *d)
{
	struct ust_channel *chans[256];
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	ust_lock();
	d->gap.channels = ust_channels_enabled_of(d, chans, sizeof(chans) / sizeof(chans[0]));
	ust_unlock();
	d->gap.gone_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* The daemon went away: its channels and notifiers are of no use any more. */
static void drop_daemon_state(struct daemon *d)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	unsigned int stuck;

	ust_lock();
	stuck = ust_channels_remove_owner(d, &retire);
	stuck += ust_notifiers_remove_owner(d, &retire);
	ust_agent_forget_owner(d);
	ust_unlock();
	ust_retire_flush(&retire);
	if (stuck)
		ust_debug("%s: %u channels or notifiers could not be released", d->path, stuck);
}

/*
 * Connect to @d under the ust lock, which fork() holds too: a child never
 * inherits a socket not yet recorded in d->sock (it closes those).  The
 * connect does not block (a daemon whose backlog is full is retried
 * later), so neither does a fork waiting for the lock.  Returns the
 * socket, blocking again, or -errno.  Called and returns with the lock
 * held.
 */
static int connect_locked(struct daemon *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, err;

	if (strlen(d->path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, d->path);
	ltt_ust_fd_lock();
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	err = errno;
	ltt_ust_fd_own(fd);
	ltt_ust_fd_unlock();
	if (fd < 0)
		return -err;
	/* our socket: O_RDWR and O_NONBLOCK, nothing else to keep */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) || fcntl(fd, F_SETFL, 0)) {
		err = errno;
		ust_fd_close(fd);
		return -err;
	}
	return fd;
}

/* Nothing reported on @d's connection yet: the counts kept per connection.  ust lock held. */
static void conn_counts_reset(struct daemon *d)
{
	d->sent = 0;
	d->msgs_sent = 0;
	d->msgs_done = 0;
	d->loggers_sent = 0;
}

/*
 * The constructor's connect to @d failed with @err (connect_locked()'s):
 * when nobody listens (no socket, or a dead daemon's), the constructor
 * neither connects again nor waits for the thread to find the same; the
 * thread still tries at once and then every backoff, as for a daemon
 * that goes away.  A backlog full or any other failure: the thread's.
 */
static void note_absent(struct daemon *d, int err)
{
	d->absent = err == -ENOENT || err == -ECONNREFUSED;
}

/* @fd is @d's connection from now on: its timeouts, a new one's state.  ust lock held. */
static void session_begin(struct daemon *d, int fd)
{
	struct timeval tv = { .tv_sec = IO_TIMEOUT_S };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	d->sock = fd;
	d->phase = PHASE_CONNECTING;
	conn_counts_reset(d);
	d->registered = false;
	ltt_wbuf_reset(&d->acks);
	d->acks_off = 0;
	d->ok_ack_end = 0;
}

/*
 * The registration's start, by the thread that starts the library's
 * thread for @d (ust lock held): connect, queue REGISTER and the first
 * TRACEPOINTS and send what the socket takes without blocking, so that
 * the daemon answers while the new thread starts instead of after; the
 * thread finds the connection in d->sock, sends what is left, and
 * serves it.  Nothing blocks here (the connect and the send as in
 * connect_locked()): a daemon absent or slow to take its messages is
 * the thread's, as before.
 */
static void connect_early(struct daemon *d)
{
	int fd = d->sock;	/* ust_comm_preconnect()'s */

	if (fd < 0) {
		if (d->absent)	/* ust_comm_preconnect() found nobody, just now */
			return;
		fd = connect_locked(d);
		if (fd < 0) {
			note_absent(d, fd);
			return;
		}
		session_begin(d, fd);
	}
	/* a daemon that dropped a preconnected program: the thread connects again */
	if (queue_registration_locked(d) || flush_acks(d, fd, false)) {
		d->sock = -1;
		ust_fd_close(fd);
	}
}

/*
 * @d's connection @fd is over: what it recorded into dropped (the time it
 * ended kept for the next daemon), the socket closed.  Returns whether it
 * had got as far as REGISTER_DONE.
 */
static bool session_end(struct daemon *d, int fd)
{
	bool ready;

	if (d->registered)
		note_gap(d);
	drop_daemon_state(d);
	ust_lock();
	d->sock = -1;
	ready = d->phase == PHASE_READY;
	ust_unlock();
	ust_fd_close(fd);
	return ready;
}

/* One connection attempt; true if it got as far as REGISTER_DONE. */
static bool session(struct daemon *d)
{
	bool early;
	int fd;

	ust_lock();
	fd = d->sock;	/* connect_early()'s */
	early = fd >= 0;
	if (!early) {
		fd = connect_locked(d);
		if (fd < 0) {
			ust_unlock();
			return false;
		}
		session_begin(d, fd);
	}
	ust_unlock();
	serve(d, fd, early);
	return session_end(d, fd);
}

static void *daemon_thread(void *arg)
{
	struct daemon *d = arg;
	unsigned int backoff = BACKOFF_MIN_MS;
	struct pollfd pfd = { .events = POLLIN };

	/* the constructor serves the registration first; nothing allocated before */
	ust_lock();
	while (d->lent)
		ust_state_wait(NULL);
	ust_unlock();
	for (;;) {
		if (session(d))
			backoff = BACKOFF_MIN_MS;
		else if (backoff < BACKOFF_MAX_MS)
			backoff *= 2;
		set_phase(d, PHASE_DOWN);
		ust_lock();
		pfd.fd = d->wake_fd;
		ust_unlock();
		/* Kicks while disconnected need no answer: the next connection reports all. */
		if (poll(&pfd, 1, (int)backoff) > 0)
			drain(pfd.fd);
	}
	return NULL;
}

/* ---- the module's interface ---- */

static int start_thread(struct daemon *d)
{
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	ltt_ust_fd_lock();
	d->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ltt_ust_fd_own(d->wake_fd);
	ltt_ust_fd_unlock();
	if (d->wake_fd < 0)
		return -errno;
	/* the program's signals stay its own threads' */
	ret = pthread_attr_init(&attr);
	if (!ret) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		ret = -ltt_thread_create(&tid, &attr, daemon_thread, d);
		pthread_attr_destroy(&attr);
	}
	if (ret) {
		ust_fd_close(d->wake_fd);
		d->wake_fd = -1;
		return -ret;
	}
	/* nobody listening: nothing to wait for, the thread tries on its own */
	d->phase = d->absent ? PHASE_DOWN : PHASE_CONNECTING;
	d->absent = false;
	d->running = true;
	return 0;
}

/* Milliseconds from now to @deadline (CLOCK_MONOTONIC), rounded up; 0 once past. */
static int ms_until(const struct timespec *deadline)
{
	struct timespec now;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (int64_t)(deadline->tv_sec - now.tv_sec) * 1000000000 +
	     (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return 0;
	return ns / 1000000 >= INT_MAX ? INT_MAX : (int)((ns + 999999) / 1000000);
}

/*
 * Serve the registrations connect_early() began with the daemons lent
 * to the calling thread, the constructor that waits for them anyway,
 * until every daemon is settled or gone, or @deadline; then give them
 * back to their threads, which take the connections over as they are.
 * A library thread that served the registration would make a malloc()
 * arena of its own (glibc's, for each new thread that allocates: a
 * mapping of 64 MiB reserved, its page tables, torn down at exit), and
 * each answer would cost a wake-up of the constructor; a short program
 * pays both in its start-up.  The threads start meanwhile, waiting
 * without allocating.  ust lock held, released while waiting and
 * serving, as the wait does.
 */
static void serve_registrations(const struct timespec *deadline)
{
	struct pollfd pfd[2 * MAX_DAEMONS];
	struct daemon *of[MAX_DAEMONS];
	unsigned int i, n;
	bool said = false;
	int ret, ms;

	while (deadline && !ust_comm_settled(ust_registry_nr_events()) &&
	       (ms = ms_until(deadline)) > 0) {
		for (i = n = 0; i < nr_daemons; i++) {
			struct daemon *d = &daemons[i];

			if (!d->lent || d->sock < 0 || d->phase == PHASE_DOWN)
				continue;
			of[n] = d;
			pfd[2 * n] = (struct pollfd){ .fd = d->sock, .events = conn_events(d) };
			pfd[2 * n + 1] = (struct pollfd){ .fd = d->wake_fd, .events = POLLIN };
			n++;
		}
		if (!n)
			break;
		if (!said)
			ust_debug("registration: waiting at most %d ms for the session daemons", ms);
		said = true;
		ust_unlock();
		ret = poll(pfd, 2 * n, ms);
		for (i = 0; ret > 0 && i < n; i++) {
			int fd = pfd[2 * i].fd;
			int err;

			if (!pfd[2 * i].revents && !pfd[2 * i + 1].revents)
				continue;
			err = serve_ready(of[i], fd, pfd[2 * i].revents, pfd[2 * i + 1].revents);
			if (!err)
				continue;
			ust_debug("%s: connection closed (%s)", of[i]->path,
				  strerror(err < 0 ? -err : err));
			session_end(of[i], fd);	/* its thread connects again */
			set_phase(of[i], PHASE_DOWN);
		}
		ust_lock();
	}
	for (i = 0; i < nr_daemons; i++)
		daemons[i].lent = false;
	ust_state_changed();
}

int ust_comm_start(const struct timespec *deadline)
{
	unsigned int i, started = 0;
	int ret = 0;

	if (!configured)
		configure();
	for (i = 0; i < nr_daemons; i++) {
		struct daemon *d = &daemons[i];

		if (d->running) {
			started++;
			continue;
		}
		connect_early(d);
		d->lent = deadline && d->sock >= 0;
		ret = start_thread(d);
		if (ret) {
			ust_debug("%s: cannot start a thread: %s", d->path, strerror(-ret));
			ust_fd_close(d->sock);	/* nobody would serve it */
			d->sock = -1;
			d->absent = false;
			d->lent = false;
		} else {
			started++;
		}
	}
	serve_registrations(deadline);
	return started || !nr_daemons ? 0 : ret;
}

void ust_comm_preconnect(void)
{
	unsigned int i;
	int fd;

	if (!configured)
		configure();
	for (i = 0; i < nr_daemons; i++) {
		struct daemon *d = &daemons[i];

		if (d->running || d->sock >= 0)
			continue;
		fd = connect_locked(d);
		if (fd >= 0)
			session_begin(d, fd);
		else
			note_absent(d, fd);
	}
}

void ust_comm_kick(void)
{
	uint64_t one = 1;
	unsigned int i;

	for (i = 0; i < nr_daemons; i++) {
		if (daemons[i].running && write(daemons[i].wake_fd, &one, sizeof(one)) < 0)
			ust_debug("%s: cannot wake the thread", daemons[i].path);
	}
}

bool ust_comm_settled(uint64_t nr_events)
{
	unsigned int i;

	for (i = 0; i < nr_daemons; i++) {
		const struct daemon *d = &daemons[i];

		if (!d->running || d->phase == PHASE_DOWN)
			continue;
		/* registered, told of every event, and every message answered */
		if (d->phase != PHASE_READY || d->sent < nr_events || d->msgs_done < d->msgs_sent)
			return false;
	}
	return true;
}

void ust_comm_fork_child(void)
{
	unsigned int i;

	for (i = 0; i < nr_daemons; i++) {
		struct daemon *d = &daemons[i];

		/* The parent's: closing our copies leaves its connection alone. */
		ust_fd_close(d->sock);
		ust_fd_close(d->wake_fd);
		d->sock = -1;
		d->wake_fd = -1;
		d->running = false;
		d->lent = false;
		d->absent = false;
		d->phase = PHASE_DOWN;
		conn_counts_reset(d);
	}
}
