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
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <urcu/list.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/model/agent.h"
#include "common/proto/client-proto.h"
#include "common/proto/lagent-proto.h"
#include "sessiond/lagent/lagent-int.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/model/trigger.h"

#define OUT_MAX (4U << 20)	/* bytes of commands an agent has not taken */

/* the limits as add_name() and on_accept() say them */
_Static_assert(LTT_LAGENT_AGENT_NAMES == 4096, "add_name() says 4,096");
_Static_assert(LTT_LAGENT_USER_LIST_BYTES == 256 << 10, "add_name() says 256 KiB");
/* 16 users' listings (the most that LTT_LAGENT_MAX_AGENTS allows) fit a client's reply */
_Static_assert(LTT_LAGENT_MAX_AGENTS / LTT_LAGENT_USER_AGENTS * LTT_LAGENT_USER_LIST_BYTES <=
	       (4U << 20), "listings past 4 MiB");

void lagent_keys_free(struct key *keys, size_t nr)
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

void lagent_req_put(struct list_req *req)
{
	if (!unref(&req->lock, &req->refs))
		return;
	ltt_wbuf_fini(&req->names);
	free(req->users);
	pthread_mutex_destroy(&req->lock);
	pthread_cond_destroy(&req->cond);
	free(req);
}

void lagent_wait_put(struct sync_wait *w)
{
	if (!unref(&w->lock, &w->refs))
		return;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

void lagent_wait_answered(struct sync_wait *w, int err)
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
void lagent_req_finish(struct list_req *req)
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
int lagent_conn_send(struct conn *c, const struct ltt_wbuf *cmd, uint32_t type,
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

void lagent_reconcile_all(struct ltt_lagent *a)
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
