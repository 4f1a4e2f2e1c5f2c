// SPDX-License-Identifier: GPL-2.0-only
/*
 * lust.c - programs that bring LTTng-UST's own liblttng-ust: their
 * registrations read on LTTng's application sockets, refused, logged
 * once and listed (lust.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <urcu/list.h>

#include "common/base/codec.h"
#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/proto/client-proto.h"
#include "sessiond/lust/lust.h"

/* A connection, read until its registration is whole. */
struct conn {
	struct cds_list_head node;
	struct ltt_lust *lust;
	int fd;
	struct ucred cred;		/* the connecting process's, the kernel's word */
	uint8_t in[LTT_LUST_REG_SIZE];
	size_t got;
	struct ltt_evloop_watch *watch;
	struct ltt_evloop_timer *deadline;
};

/* A program seen: its registration's word, but for the kernel's pid and uid. */
struct program {
	pid_t pid;
	uid_t uid;
	uint32_t major, minor;
	char procname[17];
	unsigned long long start;	/* its start time (/proc/PID/stat): a pid reused is another */
};

struct ltt_lust {
	struct ltt_evloop_server srv;	/* on the first socket */
	struct ltt_evloop_listener more[LTT_LUST_SOCKETS - 1];	/* the others, on its loop */
	int more_fds[LTT_LUST_SOCKETS - 1];
	struct cds_list_head conns;	/* the server thread's */
	unsigned int nr_conns;
	pthread_mutex_t lock;		/* programs, nr_programs */
	struct program programs[LTT_LUST_MAX_PROGRAMS];
	size_t nr_programs;
};

/* Process @pid's start time (field 22 of /proc/PID/stat), 0: gone or unreadable. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	size_t n = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* after the name, which may hold anything */
	for (i = 0; p && i < 20; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

/* The programs gone since they registered, forgotten.  Lock held. */
static void prune(struct ltt_lust *l)
{
	size_t i = 0;

	while (i < l->nr_programs) {
		if (start_time(l->programs[i].pid) == l->programs[i].start) {
			i++;
			continue;
		}
		l->programs[i] = l->programs[--l->nr_programs];
	}
}

/*
 * A whole registration @reg on @c: kept, and logged if the program is
 * new.  Its pid and uid are the kernel's (the connection's), not its word.
 */
static void registered(struct conn *c, const struct ltt_lust_reg *reg)
{
	struct ltt_lust *l = c->lust;
	struct program p = {
		.pid = c->cred.pid,
		.uid = c->cred.uid,
		.major = reg->major,
		.minor = reg->minor,
		.start = start_time(c->cred.pid),
	};
	unsigned int mine = 0;
	bool known = false;
	size_t i;

	memcpy(p.procname, reg->name, sizeof(p.procname));
	pthread_mutex_lock(&l->lock);
	prune(l);
	for (i = 0; i < l->nr_programs && !known; i++) {
		known = l->programs[i].pid == p.pid && l->programs[i].start == p.start;
		mine += l->programs[i].uid == p.uid;
	}
	/* one user's programs leave the others room in the listing */
	if (!known && p.start && l->nr_programs < LTT_LUST_MAX_PROGRAMS &&
	    mine < LTT_LUST_USER_PROGRAMS)
		l->programs[l->nr_programs++] = p;
	pthread_mutex_unlock(&l->lock);
	if (!known)
		LTT_WARN_RL("program pid %ld ('%s') of uid %u loads LTTng-UST's own liblttng-ust (ABI %u.%u), not ltt's: nothing of it is recorded; run it under ltt-run, or without that library in its search path (RPATH, LD_LIBRARY_PATH)",
			    (long)p.pid, p.procname, (unsigned int)p.uid, p.major, p.minor);
}

static void conn_close(struct conn *c)
{
	cds_list_del(&c->node);
	c->lust->nr_conns--;
	ltt_evloop_unwatch(c->watch);
	ltt_evloop_timer_destroy(c->deadline);
	close(c->fd);
	free(c);
}

static void conn_late(struct ltt_evloop *loop, void *arg)
{
	struct conn *c = arg;

	LTT_WARN_RL("a program of pid %ld sent no whole LTTng-UST registration within %d ms: closed",
		    (long)c->cred.pid, LTT_LUST_REGISTER_MS);
	conn_close(c);
}

static void conn_event(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_lust_reg reg;
	struct conn *c = arg;
	ssize_t n;

	n = recv(fd, c->in + c->got, sizeof(c->in) - c->got, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(c);
		return;
	}
	c->got += (size_t)n;
	if (c->got < sizeof(c->in))
		return;
	/* whole: LTTng-UST's, or bytes of something else, dropped unsaid */
	if (!ltt_lust_reg_decode(c->in, &reg))
		registered(c, &reg);
	/* closed: LTTng-UST takes it as a refusal and goes on untraced */
	conn_close(c);
}

static void on_accept(struct ltt_evloop *loop, int fd, void *arg)
{
	struct ltt_lust *l = arg;
	unsigned int mine = 0;
	struct ucred cred;
	struct conn *c;

	if (ltt_sock_peer_cred(fd, &cred)) {
		close(fd);
		return;
	}
	cds_list_for_each_entry(c, &l->conns, node)
		mine += c->cred.uid == cred.uid;
	if (l->nr_conns >= LTT_LUST_MAX_CONNS || mine >= LTT_LUST_USER_CONNS) {
		LTT_WARN_RL("LTTng-UST registrations being read: %u in all, %u of uid %u, the limit reached: another one closed",
			    l->nr_conns, mine, (unsigned int)cred.uid);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->lust = l;
	c->fd = fd;
	c->cred = cred;
	if (ltt_evloop_timer_create(loop, conn_late, c, &c->deadline) ||
	    ltt_evloop_watch(loop, fd, EPOLLIN, conn_event, c, &c->watch)) {
		ltt_evloop_timer_destroy(c->deadline);
		free(c);
		close(fd);
		return;
	}
	cds_list_add_tail(&c->node, &l->conns);
	l->nr_conns++;
	ltt_evloop_timer_arm(c->deadline, LTT_LUST_REGISTER_MS * 1000000ULL, 0);
}

/* The server's loop, made: it accepts on the other generations' sockets too. */
static int listen_more(struct ltt_evloop *loop, void *arg)
{
	struct ltt_lust *l = arg;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < LTT_LUST_SOCKETS - 1; i++)
		ret = ltt_evloop_listen(loop, &l->more[i], l->more_fds[i],
					SOCK_NONBLOCK | SOCK_CLOEXEC, "LTTng-UST programs", on_accept, l);
	return ret;
}

static void close_more(struct ltt_lust *l)
{
	size_t i;

	for (i = 0; i < LTT_LUST_SOCKETS - 1; i++)
		if (l->more_fds[i] >= 0)
			close(l->more_fds[i]);
}

int ltt_lust_start(int fds[LTT_LUST_SOCKETS], struct ltt_lust **ret_lust)
{
	struct ltt_lust *l;
	size_t i;
	int ret;

	l = calloc(1, sizeof(*l));
	for (i = 1; i < LTT_LUST_SOCKETS; i++) {
		if (l)
			l->more_fds[i - 1] = fds[i];
		else if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
	if (!l) {
		close(fds[0]);
		fds[0] = -1;
		return -ENOMEM;
	}
	CDS_INIT_LIST_HEAD(&l->conns);
	pthread_mutex_init(&l->lock, NULL);
	ret = ltt_evloop_server_open(&l->srv, fds[0], SOCK_NONBLOCK | SOCK_CLOEXEC,
				     "LTTng-UST programs", on_accept, l, listen_more, "lttng-ust thread");
	fds[0] = -1;
	if (ret) {
		LTT_ERR("can't start the thread of LTTng-UST's application sockets: %s",
			strerror(-ret));
		close_more(l);
		pthread_mutex_destroy(&l->lock);
		free(l);
		return ret;
	}
	*ret_lust = l;
	return 0;
}

void ltt_lust_stop(struct ltt_lust *l)
{
	struct conn *c, *tmp;

	if (!l)
		return;
	ltt_evloop_server_stop(&l->srv);
	cds_list_for_each_entry_safe(c, tmp, &l->conns, node)
		conn_close(c);
	ltt_evloop_server_fini(&l->srv);
	close_more(l);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

void ltt_lust_list(struct ltt_lust *l, uid_t uid, struct ltt_wbuf *reply, uint32_t *count)
{
	const struct program *p;
	size_t i;

	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	prune(l);
	for (i = 0; i < l->nr_programs; i++) {
		p = &l->programs[i];
		if (uid != (uid_t)-1 && p->uid != uid)
			continue;
		ltt_wbuf_put_u32(reply, (uint32_t)p->pid);
		ltt_wbuf_put_str(reply, p->procname);
		ltt_wbuf_put_str(reply, "");
		ltt_wbuf_put_u32(reply, LTT_LIST_OWN_LTTNG_UST | (p->major & 0xff) << 8 |
					(p->minor & 0xff));
		ltt_wbuf_put_u32(reply, 0);
		(*count)++;
	}
	pthread_mutex_unlock(&l->lock);
}
