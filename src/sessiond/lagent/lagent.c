// SPDX-License-Identifier: GPL-2.0-only
/*
 * lagent.c - the agent thread: LTTng's agents on TCP (lagent.h).
 *
 * Each connection reads REGISTER, then replies only: the agent answers
 * the daemon's commands in order, so the connection keeps the commands
 * it awaits an answer to (FIFO) and measures each answer by its command
 * (ltt_lagent_reply_size()).  What it sends goes through a queue written
 * as the socket takes it; nothing here blocks.  An agent that sends what
 * the protocol does not allow, too much, or nothing in time is closed,
 * with a line in the log; nothing else changes.
 *
 * Last, the jobs other threads post to the thread: a session's or the
 * triggers' rules (ltt_lagent_sync(), ltt_lagent_sync_triggers()) and a
 * listing (ltt_lagent_list()), made on the caller's thread and run on
 * the agent thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <urcu/list.h>

#include "common/base/codec.h"
#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/model/agent.h"
#include "common/proto/client-proto.h"
#include "common/proto/lagent-proto.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/model/trigger.h"

/* One rule as an agent is told it (ENABLE's fields). */
struct key {
	uint32_t domain;
	int32_t loglevel;
	uint32_t loglevel_type;
	char name[LTT_LAGENT_NAME_SIZE];
	char *filter;		/* never NULL: "" for none */
};

/* The rules one session (or the triggers, TRIGGERS_OWNER) wants of the agents. */
struct owner {
	struct cds_list_head node;
	uint64_t session_id;
	/* whose agents it reaches: every user's, or @uid's (ltt_session_reaches()) */
	bool reaches_all;
	uid_t uid;
	size_t nr;
	struct key *keys;
};

/* Does @o's session record the agents of user @uid ((uid_t)-1: not known)? */
static inline bool lagent_owner_reaches(const struct owner *o, uid_t uid)
{
	return o->reaches_all || (uid != (uid_t)-1 && o->uid == uid);
}

struct list_req;
struct sync_wait;

/* A command awaiting the agent's answer. */
struct expect {
	uint32_t cmd;
	struct list_req *req;	/* LIST's: a reference */
	struct sync_wait *wait;	/* an awaited change's ENABLE or DISABLE: a reference */
};

struct conn {
	struct cds_list_head node;
	struct ltt_lagent *lagent;
	int fd;
	struct ltt_evloop_watch *watch;
	struct ltt_evloop_timer *deadline;	/* REGISTER, then each awaited answer */
	uid_t uid;		/* its owner's (/proc/net/tcp); (uid_t)-1: not known */
	unsigned long inode;	/* its peer's socket there; 0: not known */
	bool registered;
	bool pid_claimed;	/* reg.pid not checked: the system can't tell */
	struct ltt_lagent_register reg;
	char procname[17];
	uint8_t *in;
	size_t in_len, in_cap;
	struct ltt_wbuf out;
	size_t out_pos;
	struct expect *exp;
	size_t exp_head, nr_exp, cap_exp;
	struct key *sent;	/* what it holds (ENABLEs not disabled) */
	size_t nr_sent;
};

struct ltt_lagent {
	struct ltt_evloop_server srv;
	char port_file[4096];
	bool removes;		/* the port file at stop (else who wrote it does) */
	unsigned int port;
	struct cds_list_head conns;	/* the thread's */
	unsigned int nr_conns;
	struct cds_list_head owners;	/* the thread's */
	struct sync_wait *wait;		/* the thread's: the change being told, if awaited */
};

/*
 * A change whose agents' answers its command awaits (ltt_lagent_sync_wait()):
 * the caller's reference, one per ENABLE or DISABLE awaited, one while
 * the agent thread tells them.
 */
struct sync_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int refs;	/* under lock */
	bool done;		/* under lock; then err is final */
	unsigned int pending;	/* the thread's: answers still to come, +1 while telling */
	int err;		/* the thread's until done: the first failure's -errno */
};

/* What one user's agents put in a listing, and left out of it. */
struct list_user {
	uid_t uid;
	size_t bytes;
	uint32_t past_agent;	/* names past LTT_LAGENT_AGENT_NAMES */
	uint32_t past_user;	/* names past LTT_LAGENT_USER_LIST_BYTES */
};

/* A listing: the caller's and each awaited LIST's reference. */
struct list_req {
	struct ltt_evloop_job job;
	struct ltt_lagent *lagent;
	uint32_t domain;
	uid_t uid;			/* whose agents: LTT_LIST_EVERY_USER, every user's */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int refs;		/* under lock */
	bool done;			/* under lock; then names are final */
	unsigned int pending;		/* the thread's */
	struct ltt_evloop_timer *timer;	/* the thread's, until done */
	struct ltt_wbuf names;		/* the thread's until done */
	uint32_t count;
	struct list_user *users;	/* the thread's: LTT_LAGENT_USER_LIST_BYTES each */
	size_t nr_users;
	/* the thread's, for the answer being taken */
	const struct conn *from;	/* whose names are being added */
	struct list_user *user;		/* its owner's, NULL: out of memory */
	uint32_t from_names;		/* names it added */
};

#define OUT_MAX (4U << 20)	/* bytes of commands an agent has not taken */

/* the limits as add_name() and on_accept() say them */
_Static_assert(LTT_LAGENT_AGENT_NAMES == 4096, "add_name() says 4,096");
_Static_assert(LTT_LAGENT_USER_LIST_BYTES == 256 << 10, "add_name() says 256 KiB");
/* 16 users' listings (the most that LTT_LAGENT_MAX_AGENTS allows) fit a client's reply */
_Static_assert(LTT_LAGENT_MAX_AGENTS / LTT_LAGENT_USER_AGENTS * LTT_LAGENT_USER_LIST_BYTES <=
	       (4U << 20), "listings past 4 MiB");

/* Free @nr @keys and their filters; accepts NULL. */
static void lagent_keys_free(struct key *keys, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(keys[i].filter);
	free(keys);
}

static bool key_eq(const struct key *a, const struct key *b)
{
	return a->domain == b->domain && a->loglevel == b->loglevel &&
	       a->loglevel_type == b->loglevel_type && !strcmp(a->name, b->name) &&
	       !strcmp(a->filter, b->filter);
}

/* Drop one of @refs (under @lock); true when it was the last. */
static bool unref(pthread_mutex_t *lock, unsigned int *refs)
{
	bool last;

	pthread_mutex_lock(lock);
	last = !--*refs;
	pthread_mutex_unlock(lock);
	return last;
}

/* Drop a reference to @req; the last frees it. */
static void lagent_req_put(struct list_req *req)
{
	if (!unref(&req->lock, &req->refs))
		return;
	ltt_wbuf_fini(&req->names);
	free(req->users);
	pthread_mutex_destroy(&req->lock);
	pthread_cond_destroy(&req->cond);
	free(req);
}

/* Drop a reference to @w; the last frees it. */
static void lagent_wait_put(struct sync_wait *w)
{
	if (!unref(&w->lock, &w->refs))
		return;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

/*
 * One awaited answer of @w came (@err: 0, or its failure's -errno) or
 * will never come; the last ends the wait.  Drops the reference it held.
 */
static void lagent_wait_answered(struct sync_wait *w, int err)
{
	if (err && !w->err)
		w->err = err;
	pthread_mutex_lock(&w->lock);
	if (!--w->pending) {
		w->done = true;
		pthread_cond_signal(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	lagent_wait_put(w);
}

/* The listing is complete (or out of time): wake its caller.  The thread's. */
static void lagent_req_finish(struct list_req *req)
{
	const struct list_user *u;
	size_t i;

	/* a line per user and limit: one user's lines don't hide another's */
	for (i = 0; i < req->nr_users; i++) {
		u = &req->users[i];
		if (u->past_agent)
			LTT_WARN("LTTng %s agents of uid %d: %u loggers left out of the listing, past the 4,096 loggers one agent may list",
				 ltt_lagent_domain_name(req->domain), (int)u->uid, u->past_agent);
		if (u->past_user)
			LTT_WARN("LTTng %s agents of uid %d: %u loggers left out of the listing, past the 256 KiB of loggers one user's agents may list",
				 ltt_lagent_domain_name(req->domain), (int)u->uid, u->past_user);
	}
	ltt_evloop_timer_destroy(req->timer);
	req->timer = NULL;
	pthread_mutex_lock(&req->lock);
	req->done = true;
	pthread_cond_signal(&req->cond);
	pthread_mutex_unlock(&req->lock);
}

/* One LIST of @req answered or lost. */
static void req_answered(struct list_req *req)
{
	bool done;

	pthread_mutex_lock(&req->lock);
	done = req->done;
	pthread_mutex_unlock(&req->lock);
	if (!done && !--req->pending)
		lagent_req_finish(req);
	lagent_req_put(req);
}

static void conn_close(struct conn *c, const char *why)
{
	struct ltt_lagent *a = c->lagent;
	size_t i;

	if (why)
		LTT_WARN_RL("LTTng %s agent of pid %u (%s): %s; connection closed",
			    c->registered ? ltt_lagent_domain_name(c->reg.domain) : "(unregistered)",
			    c->reg.pid, c->procname[0] ? c->procname : "?", why);
	else if (c->registered)
		LTT_INFO("LTTng %s agent of pid %u (%s) left", ltt_lagent_domain_name(c->reg.domain),
			 c->reg.pid, c->procname);
	for (i = 0; i < c->nr_exp; i++) {
		struct expect *e = &c->exp[(c->exp_head + i) % c->cap_exp];

		if (e->req)
			req_answered(e->req);
		if (e->wait)	/* never answered: the change did not reach it */
			lagent_wait_answered(e->wait, -ENOLINK);
	}
	cds_list_del(&c->node);
	a->nr_conns--;
	ltt_evloop_unwatch(c->watch);
	ltt_evloop_timer_destroy(c->deadline);
	close(c->fd);
	free(c->in);
	ltt_wbuf_fini(&c->out);
	free(c->exp);
	lagent_keys_free(c->sent, c->nr_sent);
	free(c);
}

/* Write what the socket takes of @c's queue.  Returns 0 or -1 (@c closed). */
static int conn_flush(struct conn *c)
{
	while (c->out_pos < c->out.len) {
		ssize_t n = send(c->fd, c->out.data + c->out_pos, c->out.len - c->out_pos,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			conn_close(c, "its socket failed");
			return -1;
		}
		c->out_pos += (size_t)n;
	}
	if (c->out_pos == c->out.len) {
		ltt_wbuf_reset(&c->out);
		c->out_pos = 0;
	}
	ltt_evloop_watch_set(c->watch, EPOLLIN | (c->out.len ? EPOLLOUT : 0));
	return 0;
}

/*
 * A command that will never be sent: a LIST for @req as if answered, an
 * awaited change's ENABLE or DISABLE (@wait) failed (NULL: none).
 */
static void lost_command(struct list_req *req, struct sync_wait *wait)
{
	if (wait && !wait->err)
		wait->err = -ENOLINK;
	if (!req)
		return;
	pthread_mutex_lock(&req->lock);
	req->refs++;
	pthread_mutex_unlock(&req->lock);
	req_answered(req);
}

/*
 * Queue the command in @cmd (a whole one) for @c, awaiting its answer
 * unless it has none.  @req: LIST's listing (a reference taken), which
 * gets exactly one req_answered() for it, also when @c closes first.
 * Returns 0 or -1 (@c closed).
 */
static int lagent_conn_send(struct conn *c, const struct ltt_wbuf *cmd, uint32_t type,
		     struct list_req *req)
{
	struct sync_wait *wait = type == LTT_LAGENT_ENABLE || type == LTT_LAGENT_DISABLE ?
		c->lagent->wait : NULL;
	size_t reply;

	if (cmd->err || c->out.len - c->out_pos + cmd->len > OUT_MAX) {
		lost_command(req, wait);
		conn_close(c, cmd->err ? "out of memory" : "it does not read its commands");
		return -1;
	}
	ltt_wbuf_put_bytes(&c->out, cmd->data, cmd->len);
	if (ltt_lagent_reply_size(type, NULL, 0, &reply) == 0 && reply) {
		if (c->nr_exp == c->cap_exp) {
			size_t cap = c->cap_exp ? c->cap_exp * 2 : 8, i;
			struct expect *e = malloc(cap * sizeof(*e));

			if (!e) {
				lost_command(req, wait);
				conn_close(c, "out of memory");
				return -1;
			}
			for (i = 0; i < c->nr_exp; i++)
				e[i] = c->exp[(c->exp_head + i) % c->cap_exp];
			free(c->exp);
			c->exp = e;
			c->cap_exp = cap;
			c->exp_head = 0;
		}
		if (req) {
			pthread_mutex_lock(&req->lock);
			req->refs++;
			pthread_mutex_unlock(&req->lock);
		}
		if (wait) {
			pthread_mutex_lock(&wait->lock);
			wait->refs++;
			wait->pending++;
			pthread_mutex_unlock(&wait->lock);
		}
		c->exp[(c->exp_head + c->nr_exp) % c->cap_exp] =
			(struct expect){ .cmd = type, .req = req, .wait = wait };
		if (!c->nr_exp++)
			ltt_evloop_timer_arm(c->deadline, LTT_LAGENT_REPLY_MS * 1000000ULL, 0);
	}
	if (c->out.err) {
		conn_close(c, "out of memory");
		return -1;
	}
	return conn_flush(c);
}

/* Is @k among the @nr keys at @v? */
static bool has_key(const struct key *v, size_t nr, const struct key *k)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (key_eq(&v[i], k))
			return true;
	return false;
}

/* Is @k wanted by an owner that reaches @c's user? */
static bool wanted(const struct ltt_lagent *a, const struct conn *c, const struct key *k)
{
	const struct owner *o;

	cds_list_for_each_entry(o, &a->owners, node)
		if (lagent_owner_reaches(o, c->uid) && has_key(o->keys, o->nr, k))
			return true;
	return false;
}

/* Tell @c to disable its key @i (the last takes its place).  0 or -1 (closed). */
static int disable_key(struct conn *c, size_t i)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_lagent_put_disable(&w, c->sent[i].name);
	free(c->sent[i].filter);
	c->sent[i] = c->sent[--c->nr_sent];
	ret = lagent_conn_send(c, &w, LTT_LAGENT_DISABLE, NULL);
	ltt_wbuf_fini(&w);
	return ret;
}

/* Tell @c to enable @k (copied).  0 or -1 (closed). */
static int enable_key(struct conn *c, const struct key *k)
{
	struct key *v = realloc(c->sent, (c->nr_sent + 1) * sizeof(*v));
	struct ltt_wbuf w;
	int ret;

	if (v)
		c->sent = v;
	if (!v || !(c->sent[c->nr_sent].filter = strdup(k->filter))) {
		conn_close(c, "out of memory");
		return -1;
	}
	memcpy(c->sent[c->nr_sent].name, k->name, sizeof(k->name));
	c->sent[c->nr_sent].domain = k->domain;
	c->sent[c->nr_sent].loglevel = k->loglevel;
	c->sent[c->nr_sent].loglevel_type = k->loglevel_type;
	c->nr_sent++;
	ltt_wbuf_init(&w);
	ltt_lagent_put_enable(&w, k->loglevel, k->loglevel_type, k->name, k->filter);
	ret = lagent_conn_send(c, &w, LTT_LAGENT_ENABLE, NULL);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * Make registered @c hold exactly the keys of its domain that an owner
 * reaching its user wants: one ENABLE per key, one DISABLE per key no
 * longer wanted.
 * Returns 0 or -1 (@c closed).
 */
static int reconcile(struct conn *c)
{
	struct ltt_lagent *a = c->lagent;
	const struct owner *o;
	size_t i;

	for (i = c->nr_sent; i-- > 0;)
		if (!wanted(a, c, &c->sent[i]) && disable_key(c, i))
			return -1;
	cds_list_for_each_entry(o, &a->owners, node)
		for (i = 0; i < o->nr && lagent_owner_reaches(o, c->uid); i++)
			if (o->keys[i].domain == c->reg.domain &&
			    !has_key(c->sent, c->nr_sent, &o->keys[i]) && enable_key(c, &o->keys[i]))
				return -1;
	return 0;
}

/* Tell every registered agent what the owners' rules now want. */
static void lagent_reconcile_all(struct ltt_lagent *a)
{
	struct conn *c, *tmp;

	cds_list_for_each_entry_safe(c, tmp, &a->conns, node)
		if (c->registered)
			reconcile(c);
}

/* /proc/PID/comm, "" when not readable. */
static void read_procname(uint32_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* REGISTER: the rules it must follow, then REGISTRATION_DONE.  0 or -1 (closed). */
static int on_register(struct conn *c)
{
	struct ltt_wbuf w;
	char why[128];
	int ret;

	ret = ltt_lagent_register_decode(c->in, &c->reg);
	if (ret == -EPROTONOSUPPORT) {
		snprintf(why, sizeof(why), "refused: it speaks the agent protocol %u.%u, ltt %u.%u",
			 c->reg.major, c->reg.minor, LTT_LAGENT_MAJOR, LTT_LAGENT_MINOR);
		conn_close(c, why);
		return -1;
	}
	if (ret) {
		c->reg.pid = 0;
		conn_close(c, "refused: a registration of no LTTng agent domain or pid");
		return -1;
	}
	/*
	 * The pid is the agent's word: checked against the process that
	 * holds the connection's other end where the system can tell, so
	 * that no agent lists its loggers under another program's name.
	 */
	ret = ltt_lagent_pid_check(c->reg.pid, c->uid, c->inode);
	if (ret == 0) {
		snprintf(why, sizeof(why),
			 "refused: it claims pid %u, a process that does not hold its connection",
			 c->reg.pid);
		conn_close(c, why);
		return -1;
	}
	c->pid_claimed = ret < 0;
	if (!c->pid_claimed)
		read_procname(c->reg.pid, c->procname, sizeof(c->procname));
	c->registered = true;
	ltt_evloop_timer_disarm(c->deadline);
	LTT_INFO("LTTng %s agent of pid %u (%s) registered (protocol %u.%u)%s",
		 ltt_lagent_domain_name(c->reg.domain), c->reg.pid,
		 c->pid_claimed ? "?" : c->procname, c->reg.major, c->reg.minor,
		 c->pid_claimed ? "; its pid is its claim, not checked (the system can't tell which process holds its connection)" : "");
	if (reconcile(c))
		return -1;
	ltt_wbuf_init(&w);
	ltt_lagent_put_cmd(&w, LTT_LAGENT_REGISTRATION_DONE);
	ret = lagent_conn_send(c, &w, LTT_LAGENT_REGISTRATION_DONE, NULL);
	ltt_wbuf_fini(&w);
	return ret;
}

static void skip_name(void *arg, const char *name)
{
	(void)arg;
	(void)name;
}

/*
 * An entry of the listing, unless it is past a limit: the answering
 * agent's LTT_LAGENT_AGENT_NAMES loggers, its owner's
 * LTT_LAGENT_USER_LIST_BYTES in this listing (4 MiB for 16 users: one
 * user's agents can't take the reply past what a client takes).
 */
static void add_name(void *arg, const char *name)
{
	struct list_req *req = arg;
	size_t bytes = 4 + strlen(req->from->procname) + 1 + strlen(name) + 1 + 8;

	if (!req->user)
		return;		/* out of memory: not listed */
	if (req->from_names >= LTT_LAGENT_AGENT_NAMES) {
		req->user->past_agent++;
		return;
	}
	if (req->user->bytes + bytes > LTT_LAGENT_USER_LIST_BYTES) {
		req->user->past_user++;
		return;
	}
	req->from_names++;
	req->user->bytes += bytes;
	ltt_wbuf_put_u32(&req->names, req->from->reg.pid);
	ltt_wbuf_put_str(&req->names, req->from->procname);
	ltt_wbuf_put_str(&req->names, name);
	/* loggers have no level: the word holds the entry's flags */
	ltt_wbuf_put_u32(&req->names, req->from->pid_claimed ? LTT_LIST_AGENT_PID_CLAIMED : 0);
	ltt_wbuf_put_u32(&req->names, 0);
	req->count++;
}

/* @uid's share of listing @req, NULL: out of memory.  The thread's. */
static struct list_user *list_user(struct list_req *req, uid_t uid)
{
	struct list_user *v;
	size_t i;

	for (i = 0; i < req->nr_users; i++)
		if (req->users[i].uid == uid)
			return &req->users[i];
	v = realloc(req->users, (req->nr_users + 1) * sizeof(*v));
	if (!v)
		return NULL;
	req->users = v;
	v[req->nr_users] = (struct list_user){ .uid = uid };
	return &v[req->nr_users++];
}

/* One whole answer to @e, @len bytes at c->in.  0 or -1 (closed). */
static int on_answer(struct conn *c, const struct expect *e, size_t len)
{
	uint32_t status = LTT_LAGENT_STATUS_SUCCESS;
	struct list_req *req = e->req;
	bool done;
	int ret = 0;

	if (e->cmd == LTT_LAGENT_LIST && req) {
		pthread_mutex_lock(&req->lock);
		done = req->done;
		pthread_mutex_unlock(&req->lock);
		req->from = c;
		req->user = done ? NULL : list_user(req, c->uid);
		req->from_names = 0;
		ret = ltt_lagent_list_decode(c->in, len, &status, done ? skip_name : add_name, req);
	} else {
		status = ltt_lagent_status_decode(c->in);
	}
	if (ret) {
		conn_close(c, "its answer to LIST is malformed");
		return -1;
	}
	if (status != LTT_LAGENT_STATUS_SUCCESS)
		LTT_WARN_RL("LTTng %s agent of pid %u (%s) refused %s (status %u%s)",
			    ltt_lagent_domain_name(c->reg.domain), c->reg.pid, c->procname,
			    ltt_lagent_cmd_name(e->cmd), status,
			    status == LTT_LAGENT_STATUS_UNKNOWN_NAME ? ": no such logger" : "");
	/* LTTng's daemon tells an unknown name from another refusal */
	if (e->wait)
		lagent_wait_answered(e->wait, status == LTT_LAGENT_STATUS_SUCCESS ? 0 :
				     status == LTT_LAGENT_STATUS_UNKNOWN_NAME ? -ENOMSG : -EBADE);
	return 0;
}

/* Take the whole answers in c->in.  0 or -1 (closed). */
static int take_answers(struct conn *c)
{
	size_t size;

	while (c->in_len) {
		struct expect e;

		if (!c->nr_exp) {
			conn_close(c, "it sent bytes that answer no command");
			return -1;
		}
		e = c->exp[c->exp_head];
		if (ltt_lagent_reply_size(e.cmd, c->in, c->in_len, &size)) {
			conn_close(c, "its answer to LIST announces too many bytes");
			return -1;
		}
		if (c->in_len < size || (e.cmd == LTT_LAGENT_LIST &&
					 c->in_len < LTT_LAGENT_LIST_HDR_SIZE))
			return 0;
		/* a listing that ended meanwhile still needs the bytes skipped */
		c->exp_head = (c->exp_head + 1) % c->cap_exp;
		c->nr_exp--;
		if (c->nr_exp)
			ltt_evloop_timer_arm(c->deadline, LTT_LAGENT_REPLY_MS * 1000000ULL, 0);
		else
			ltt_evloop_timer_disarm(c->deadline);
		if (on_answer(c, &e, size)) {
			if (e.req)
				req_answered(e.req);
			return -1;
		}
		if (e.req)
			req_answered(e.req);
		memmove(c->in, c->in + size, c->in_len - size);
		c->in_len -= size;
	}
	return 0;
}

static void conn_event(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct conn *c = arg;
	ssize_t n;

	(void)loop;
	if ((events & EPOLLOUT) && conn_flush(c))
		return;
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return;
	n = read(fd, c->in + c->in_len, c->in_cap - c->in_len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		conn_close(c, n < 0 ? "its socket failed" : NULL);
		return;
	}
	c->in_len += (size_t)n;
	if (!c->registered) {
		if (c->in_len < LTT_LAGENT_REGISTER_SIZE)
			return;
		if (on_register(c))
			return;
		memmove(c->in, c->in + LTT_LAGENT_REGISTER_SIZE,
			c->in_len - LTT_LAGENT_REGISTER_SIZE);
		c->in_len -= LTT_LAGENT_REGISTER_SIZE;
	}
	take_answers(c);
}

static void conn_late(struct ltt_evloop *loop, void *arg)
{
	struct conn *c = arg;

	(void)loop;
	conn_close(c, c->registered ? "it did not answer a command in time" :
		   "it did not register in time");
}

static void on_accept(struct ltt_evloop *loop, int fd, void *arg)
{
	struct ltt_lagent *a = arg;
	unsigned int mine = 0;
	unsigned long inode;
	uid_t uid;
	struct conn *c;

	if (a->nr_conns >= LTT_LAGENT_MAX_AGENTS) {
		LTT_WARN_RL("%u LTTng agents are connected, the limit of all users': another one refused",
			    LTT_LAGENT_MAX_AGENTS);
		close(fd);
		return;
	}
	/* one user's agents, silent or not, can't take the others' slots */
	if (ltt_lagent_peer(fd, &uid, &inode)) {
		uid = (uid_t)-1;
		inode = 0;
	}
	cds_list_for_each_entry(c, &a->conns, node)
		mine += c->uid == uid;
	if (mine >= LTT_LAGENT_USER_AGENTS) {
		LTT_WARN_RL("uid %d has %u LTTng agents connected, the limit per user: another one refused",
			    (int)uid, LTT_LAGENT_USER_AGENTS);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c) {
		c->in_cap = LTT_LAGENT_LIST_HDR_SIZE + LTT_LAGENT_LIST_MAX;
		c->in = malloc(c->in_cap);
	}
	if (!c || !c->in) {
		if (c)
			free(c->in);
		free(c);
		close(fd);
		return;
	}
	c->lagent = a;
	c->fd = fd;
	c->uid = uid;
	c->inode = inode;
	ltt_wbuf_init(&c->out);
	if (ltt_evloop_timer_create(loop, conn_late, c, &c->deadline) ||
	    ltt_evloop_watch(loop, fd, EPOLLIN, conn_event, c, &c->watch)) {
		ltt_evloop_timer_destroy(c->deadline);
		free(c->in);
		free(c);
		close(fd);
		return;
	}
	cds_list_add_tail(&c->node, &a->conns);
	a->nr_conns++;
	ltt_evloop_timer_arm(c->deadline, LTT_LAGENT_REGISTER_MS * 1000000ULL, 0);
}

/* --- the module's functions */

int ltt_lagent_start(const char *port_file, ltt_lagent_port_fn *write_port,
		     struct ltt_lagent **ret_lagent)
{
	struct ltt_lagent *a;
	int fd = -1, ret;

	if (strlen(port_file) >= sizeof(a->port_file))
		return -ENAMETOOLONG;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	strcpy(a->port_file, port_file);
	CDS_INIT_LIST_HEAD(&a->conns);
	CDS_INIT_LIST_HEAD(&a->owners);
	ret = ltt_lagent_listen(&fd, &a->port);
	if (ret) {
		LTT_ERR("can't listen for LTTng's agents on 127.0.0.1: %s", strerror(-ret));
		free(a);
		return ret;
	}
	ret = ltt_evloop_server_open(&a->srv, fd, SOCK_NONBLOCK | SOCK_CLOEXEC, "LTTng agents",
				     on_accept, a, NULL, "agent thread");
	if (ret) {
		LTT_ERR("can't start the agent thread: %s", strerror(-ret));
		free(a);
		return ret;
	}
	a->removes = !write_port;
	ret = (write_port ? write_port : ltt_lagent_port_write)(a->port_file, a->port);
	if (ret)
		LTT_WARN("can't write %s: %s; LTTng's agents won't find this daemon's port %u",
			 a->port_file, strerror(-ret), a->port);
	else
		LTT_INFO("LTTng's agents: port %u on 127.0.0.1, written to %s", a->port,
			 a->port_file);
	*ret_lagent = a;
	return 0;
}

/* A job that never ran, told so by its function called without a loop. */
static void job_cancel(struct ltt_evloop_job *job)
{
	job->fn(NULL, job);
}

void ltt_lagent_stop(struct ltt_lagent *a)
{
	struct conn *c, *ctmp;
	struct owner *o, *otmp;

	if (!a)
		return;
	ltt_evloop_server_stop(&a->srv);
	cds_list_for_each_entry_safe(c, ctmp, &a->conns, node)
		conn_close(c, NULL);
	/* jobs never run: a sync's rules dropped, a listing ended empty */
	ltt_evloop_jobs_drop(ltt_evloop_take_jobs(a->srv.loop), job_cancel);
	cds_list_for_each_entry_safe(o, otmp, &a->owners, node) {
		lagent_keys_free(o->keys, o->nr);
		free(o);
	}
	ltt_evloop_server_fini(&a->srv);
	if (a->removes)
		ltt_lagent_port_remove(a->port_file, a->port);
	free(a);
}

/* ---- the jobs other threads post to the agent thread ---- */

/* The owner of the triggers' rules: no session's id (they count up from 1). */
#define TRIGGERS_OWNER UINT64_MAX

struct sync_job {
	struct ltt_evloop_job job;
	struct ltt_lagent *lagent;
	uint64_t session_id;
	bool reaches_all;	/* the owner's reach (struct owner) */
	uid_t uid;
	size_t nr;
	struct key *keys;
	struct sync_wait *wait;	/* the caller's awaiting the answers (a reference), NULL: none */
};

/* --- jobs from other threads */

static void sync_run(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct sync_job *j = caa_container_of(job, struct sync_job, job);
	struct ltt_lagent *a = j->lagent;
	struct owner *o, *found = NULL;

	(void)loop;
	cds_list_for_each_entry(o, &a->owners, node)
		if (o->session_id == j->session_id)
			found = o;
	if (!found && j->nr) {
		found = calloc(1, sizeof(*found));
		if (!found) {
			if (j->session_id == TRIGGERS_OWNER)
				LTT_WARN("out of memory: LTTng's agents don't follow the triggers' rules");
			else
				LTT_WARN("out of memory: LTTng's agents don't follow session %llu's rules",
					 (unsigned long long)j->session_id);
			goto out;
		}
		found->session_id = j->session_id;
		cds_list_add_tail(&found->node, &a->owners);
	}
	if (found) {
		found->reaches_all = j->reaches_all;
		found->uid = j->uid;
		lagent_keys_free(found->keys, found->nr);
		found->keys = j->keys;
		found->nr = j->nr;
		j->keys = NULL;
		j->nr = 0;
		if (!found->nr) {
			cds_list_del(&found->node);
			free(found);
		}
	}
	/* the ENABLEs and DISABLEs this sends are the ones awaited */
	a->wait = j->wait;
	lagent_reconcile_all(a);
	a->wait = NULL;
out:
	if (j->wait)
		lagent_wait_answered(j->wait, found || !j->nr ? 0 : -ENOMEM);
	lagent_keys_free(j->keys, j->nr);
	free(j);
}

static void list_late(struct ltt_evloop *loop, void *arg)
{
	(void)loop;
	lagent_req_finish(arg);
}

static void list_run(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct list_req *req = caa_container_of(job, struct list_req, job);
	struct ltt_wbuf w;
	struct conn *c, *tmp;

	ltt_wbuf_init(&w);
	ltt_lagent_put_cmd(&w, LTT_LAGENT_LIST);
	/* a pending count of one while sending: no answer ends it early */
	req->pending = 1;
	cds_list_for_each_entry_safe(c, tmp, &req->lagent->conns, node) {
		if (!c->registered || c->reg.domain != req->domain ||
		    (req->uid != LTT_LIST_EVERY_USER && c->uid != req->uid))
			continue;
		req->pending++;
		lagent_conn_send(c, &w, LTT_LAGENT_LIST, req);
	}
	ltt_wbuf_fini(&w);
	if (loop && !--req->pending)
		lagent_req_finish(req);
	else if (!loop || ltt_evloop_timer_create(loop, list_late, req, &req->timer))
		lagent_req_finish(req);
	else
		ltt_evloop_timer_arm(req->timer, LTT_LAGENT_LIST_MS * 1000000ULL, 0);
	lagent_req_put(req);	/* the job's */
}

/* The keys of @channel's enabled rules appended to @v.  0 or -ENOMEM. */
static int channel_keys(const struct ltt_channel *channel, struct key **v, size_t *nr)
{
	const struct ltt_event_rule *rule;

	cds_list_for_each_entry(rule, &channel->rules, node) {
		const struct ltt_rule_conf *attr = &rule->attr;
		size_t flen = strlen(attr->filter) + 2 * LTT_LAGENT_NAME_SIZE + 64;
		struct key *k, *grown;

		if (!rule->enabled)
			continue;
		grown = realloc(*v, (*nr + 1) * sizeof(**v));
		if (!grown)
			return -ENOMEM;
		*v = grown;
		k = &grown[*nr];
		k->filter = malloc(flen);
		if (!k->filter)
			return -ENOMEM;
		(*nr)++;
		/* LTTng numbers its agents' domains as its own (agent.h) */
		k->domain = (uint32_t)channel->agent->domain;
		k->loglevel_type = (uint32_t)attr->loglevel_type;
		k->loglevel = attr->loglevel_type == LTT_LOGLEVEL_ALL ? channel->agent->all_level :
			attr->loglevel;
		snprintf(k->name, sizeof(k->name), "%s", attr->pattern);
		if (ltt_lagent_filter(k->filter, flen, attr->filter, k->name, k->loglevel_type,
				      k->loglevel))
			k->filter[0] = '\0';
	}
	return 0;
}

/*
 * Post the job of @owner's @nr @keys (taken), or drop them when @oom (they
 * could not all be made: the agents keep what they had); the log names
 * @whose rules.  @session: the owner's, whose reach the agents' users
 * meet (NULL: the triggers', every user's agents: each trigger sees its
 * own user's events).  @wait: await the agents' answers to the ENABLEs and
 * DISABLEs it sends, LTT_LAGENT_SYNC_MS at most.  Returns 0, -ENOMEM, or
 * (@wait) an agent's failure (lagent.h: ltt_lagent_sync_wait()).
 */
static int sync_post(struct ltt_lagent *a, uint64_t owner, const struct ltt_session *session,
		     struct key *keys, size_t nr, bool oom, const char *whose, bool wait)
{
	struct sync_job *j = oom ? NULL : calloc(1, sizeof(*j));
	struct sync_wait *w = j && wait ? calloc(1, sizeof(*w)) : NULL;
	struct ltt_session *waiting;
	struct timespec until;
	bool done;
	int err;

	if (!j || (wait && !w)) {
		LTT_WARN("out of memory: LTTng's agents don't follow %s", whose);
		lagent_keys_free(keys, nr);
		free(j);
		return -ENOMEM;
	}
	j->job.fn = sync_run;
	j->lagent = a;
	j->session_id = owner;
	j->reaches_all = !session || session->reaches_all;
	j->uid = session ? session->uid : 0;
	j->keys = keys;
	j->nr = nr;
	j->wait = w;
	if (w) {
		pthread_mutex_init(&w->lock, NULL);
		pthread_cond_init(&w->cond, NULL);
		w->refs = 2;		/* the caller's and the job's */
		w->pending = 1;		/* the job's, while it tells the agents */
	}
	ltt_evloop_post(a->srv.loop, &j->job);
	if (!w)
		return 0;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += LTT_LAGENT_SYNC_MS / 1000;
	/* a wait on other processes: list reads the session meanwhile (its gate stays held) */
	waiting = ltt_session_wait_begin();
	pthread_mutex_lock(&w->lock);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cond, &w->lock, &until) == ETIMEDOUT)
			break;
	done = w->done;
	err = done ? w->err : -ENOLINK;	/* an agent that has not answered by then */
	pthread_mutex_unlock(&w->lock);
	ltt_session_wait_end(waiting);
	lagent_wait_put(w);
	return err;
}

/*
 * Post @session's rules (none once @gone), whether it is active or not,
 * to the agent thread, @wait awaiting the answers: sync_post()'s.
 */
static int session_post(struct ltt_lagent *a, struct ltt_session *session, bool gone, bool wait)
{
	struct ltt_session_domain *dom;
	const struct ltt_channel *channel;
	struct key *keys = NULL;
	char whose[LTT_NAME_MAX + 16];
	size_t nr = 0;
	bool oom = false;

	dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	if (!gone && dom) {
		cds_list_for_each_entry(channel, &dom->channels, node)
			if (channel->agent && channel->enabled && !oom)
				oom = channel_keys(channel, &keys, &nr) != 0;
	}
	snprintf(whose, sizeof(whose), "session '%s'", session->name);
	return sync_post(a, session->id, session, keys, nr, oom, whose, wait);
}

void ltt_lagent_sync(struct ltt_lagent *a, struct ltt_session *session, bool gone)
{
	if (a)
		(void)session_post(a, session, gone, false);
}

/* Has @session an agent channel in user space (enabled or not)? */
static bool has_agent_channel(struct ltt_session *session)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	const struct ltt_channel *channel;

	if (dom)
		cds_list_for_each_entry(channel, &dom->channels, node)
			if (channel->agent)
				return true;
	return false;
}

int ltt_lagent_sync_wait(struct ltt_lagent *a, struct ltt_session *session)
{
	if (!a)
		return 0;
	/* a session without agents' rules tells an agent nothing to take */
	return session_post(a, session, false, has_agent_channel(session));
}

int ltt_lagent_sync_triggers(struct ltt_lagent *a, struct ltt_trigger *const *v, size_t n)
{
	struct key *keys = NULL;
	size_t i, nr = 0;
	bool oom = false;

	if (!a)
		return 0;
	/* an agent domain's rule: its channel of one rule has that agent */
	for (i = 0; i < n && !oom; i++)
		if (v[i]->conf.cond == LTT_CONDITION_EVENT_RULE_MATCHES && v[i]->chan.agent)
			oom = channel_keys(&v[i]->chan, &keys, &nr) != 0;
	/* awaited while a rule is to be taken, as LTTng's REGISTER_TRIGGER awaits it */
	return sync_post(a, TRIGGERS_OWNER, NULL, keys, nr, oom, "the triggers' rules", nr > 0);
}

int ltt_lagent_list(struct ltt_lagent *a, uint32_t domain, uid_t uid, struct ltt_wbuf *reply,
		    uint32_t *count)
{
	struct list_req *req;
	struct timespec until;
	bool done;
	int ret = 0;

	if (!a)
		return 0;
	req = calloc(1, sizeof(*req));
	if (!req)
		return -ENOMEM;
	req->job.fn = list_run;
	req->lagent = a;
	req->domain = domain;
	req->uid = uid;
	req->refs = 2;		/* the caller's and the job's */
	pthread_mutex_init(&req->lock, NULL);
	pthread_cond_init(&req->cond, NULL);
	ltt_wbuf_init(&req->names);
	ltt_evloop_post(a->srv.loop, &req->job);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += LTT_LAGENT_LIST_MS / 1000 + 1;
	pthread_mutex_lock(&req->lock);
	while (!req->done)
		if (pthread_cond_timedwait(&req->cond, &req->lock, &until) == ETIMEDOUT)
			break;
	done = req->done;
	pthread_mutex_unlock(&req->lock);
	if (!done) {
		ret = -ETIMEDOUT;
	} else if (req->names.err) {
		ret = -ENOMEM;
	} else {
		ltt_wbuf_put_bytes(reply, req->names.data, req->names.len);
		*count += req->count;
	}
	lagent_req_put(req);
	return ret;
}
