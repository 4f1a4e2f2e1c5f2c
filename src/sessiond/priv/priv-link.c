// SPDX-License-Identifier: GPL-2.0-only
/*
 * priv-link.c - the daemon's end of the link to its privileged part, the
 * unprivileged side (see priv.h; priv-server.c is the privileged one).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/daemon.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "sessiond/priv/priv.h"

struct ltt_priv {
	int fd;
	pid_t pid;
	pthread_mutex_t lock;	/* leaf: one call at a time */
	uint32_t seq;
};

/* The process's link: set once by ltt_priv_start(), before any thread. */
static struct ltt_priv *the_link;
static bool dropped;	/* ltt_priv_drop() succeeded: root's daemon still */

/*
 * The child: keep the link (as fd 3) and stderr (unless @quiet), nothing
 * of the caller's else (a caller waiting for the daemon's stdout to
 * close must not wait for this process), then serve.
 */
static void child(int fd, pid_t daemon, bool quiet, const char *name,
		  int (*serve)(int fd, pid_t daemon))
{
	int null = open("/dev/null", O_RDWR);

	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || (quiet && dup2(null, 2) < 0))
		_exit(1);
	if (ltt_fd_keep_only(fd))
		_exit(1);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	_exit(serve(3, daemon));
}

int ltt_priv_start(int (*serve)(int fd, pid_t daemon), bool quiet, const char *name)
{
	struct ltt_priv *p = calloc(1, sizeof(*p));
	pid_t daemon = getpid();
	int sv[2], ret;

	if (!p)
		return -ENOMEM;
	p->pid = ltt_fork_split(sv, true, 1);
	if (p->pid < 0) {
		ret = p->pid;
		free(p);
		return ret;
	}
	if (p->pid == 0)
		child(sv[1], daemon, quiet, name, serve);
	p->fd = sv[0];
	pthread_mutex_init(&p->lock, NULL);
	the_link = p;
	LTT_INFO("privileged part: pid %ld (the kernel tracer, the module, the consumers)", (long)p->pid);
	return 0;
}

struct ltt_priv *ltt_priv_get(void)
{
	return the_link;
}

pid_t ltt_priv_pid(const struct ltt_priv *p)
{
	return p->pid;
}

int ltt_priv_call(struct ltt_priv *p, enum ltt_priv_request type, const struct ltt_wbuf *req,
		  struct ltt_msg *ret_reply, struct ltt_rbuf *ret_r)
{
	return ltt_priv_call_fd(p, type, req, -1, ret_reply, ret_r);
}

int ltt_priv_ask(struct ltt_priv *p, enum ltt_priv_request type, const struct ltt_wbuf *req)
{
	struct ltt_msg reply;
	struct ltt_rbuf r;
	int ret = ltt_priv_call(p, type, req, &reply, &r);

	if (!ret)
		ltt_msg_fini(&reply);
	return ret;
}

int ltt_priv_call_fd(struct ltt_priv *p, enum ltt_priv_request type, const struct ltt_wbuf *req,
		     int fd, struct ltt_msg *ret_reply, struct ltt_rbuf *ret_r)
{
	struct ltt_msg m = { 0 };
	int32_t status;
	uint32_t seq;
	int ret;

	if (req->err)
		return -ENOMEM;
	pthread_mutex_lock(&p->lock);
	seq = ++p->seq;
	ret = p->fd < 0 ? -EPIPE :
	      ltt_msg_send(p->fd, LTT_PRIV_MAGIC, (uint16_t)type, seq, req->data, req->len,
			   &fd, fd >= 0 ? 1 : 0);
	if (!ret)
		ret = ltt_msg_recv(p->fd, LTT_PRIV_MAGIC, LTT_PRIV_MAX_PAYLOAD, 1, &m);
	if (!ret && (m.hdr.type != type || m.hdr.seq != seq))
		ret = -EPROTO;
	if (ret && ret != -EPIPE && p->fd >= 0) {
		/* out of step with it: no later reply could be trusted */
		LTT_ERR("privileged part: request %u: %s; no more requests", (unsigned int)type,
			strerror(-ret));
		shutdown(p->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&p->lock);
	if (ret) {
		ltt_msg_fini(&m);
		return ret == -ECONNRESET ? -EPIPE : ret;
	}
	ltt_rbuf_init(ret_r, m.payload, m.hdr.payload_len);
	status = (int32_t)ltt_rbuf_get_u32(ret_r);
	if (ret_r->err || status > 0) {
		ltt_msg_fini(&m);
		return -EPROTO;
	}
	if (status) {
		ltt_msg_fini(&m);
		return status;
	}
	*ret_reply = m;
	return 0;
}

/* The highest capability number this kernel knows. */
static int cap_last(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int last = 63;

	if (f) {
		if (fscanf(f, "%d", &last) != 1 || last < 0 || last > 63)
			last = 63;
		fclose(f);
	}
	return last;
}

int ltt_priv_drop(uid_t uid, gid_t gid)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
	int cap, last = cap_last();
	size_t i;

	if (uid == 0 || gid == 0)
		return -EINVAL;
	/*
	 * The bounding set first: emptying it takes CAP_SETPCAP, which a
	 * unit's CapabilityBoundingSet= may have taken away (EPERM): then it
	 * stays, and no_new_privs keeps an exec from ever gaining from it.
	 */
	for (cap = 0; cap <= last; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL) {
			if (errno != EPERM)
				return -errno;
			break;
		}
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return -errno;
	/* no uid 0 left: the kernel cleared the permitted and effective sets */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return -errno;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(SYS_capget, &hdr, caps))
		return -errno;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (caps[i].effective || caps[i].permitted || caps[i].inheritable)
			return -EPERM;
	if (!setresuid(0, 0, 0) || geteuid() == 0)
		return -EPERM;	/* it could go back: not dropped */
	dropped = true;
	return 0;
}

int ltt_priv_bounding_set(void)
{
	int cap, last = cap_last(), n = 0;

	for (cap = 0; cap <= last; cap++)
		n += prctl(PR_CAPBSET_READ, cap, 0, 0, 0) > 0;
	return n;
}

uid_t ltt_priv_daemon_uid(void)
{
	return dropped ? 0 : geteuid();
}

int ltt_priv_agent_port(const char *path, unsigned int port)
{
	struct ltt_wbuf w;
	int ret;

	(void)path;
	if (!the_link)
		return -EPIPE;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, port);
	ret = ltt_priv_ask(the_link, LTT_PRIV_AGENT_PORT, &w);
	ltt_wbuf_fini(&w);
	return ret;
}

/* @type {u32 pid} -> {u8}, or {} + @fd (-1: none) -> {u8}: the byte, or a negative errno. */
static int ask_byte(enum ltt_priv_request type, pid_t pid, int fd)
{
	struct ltt_msg reply;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	if (!the_link)
		return -EPIPE;
	ltt_wbuf_init(&w);
	if (fd < 0)
		ltt_wbuf_put_u32(&w, (uint32_t)pid);
	ret = fd < 0 ? ltt_priv_call(the_link, type, &w, &reply, &r) :
		       ltt_priv_call_fd(the_link, type, &w, fd, &reply, &r);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ret = ltt_rbuf_get_u8(&r);
	if (ltt_rbuf_end(&r))
		ret = -EPROTO;
	ltt_msg_fini(&reply);
	return ret;
}

int ltt_priv_time_ns(pid_t pid)
{
	int ret = ask_byte(LTT_PRIV_TIME_NS, pid, -1);

	return ret > 0 ? 1 : ret;
}

int ltt_priv_lttng_gen(int client_fd)
{
	int ret;

	if (!the_link || !dropped)
		return 0;
	ret = ask_byte(LTT_PRIV_LTTNG_GEN, 0, client_fd);
	return ret < 0 ? ret : 1 + ret;
}

/* A file the privileged part opens for a dropped daemon: @type's reply's fd. */
static int open_file(enum ltt_priv_request type, const struct ltt_wbuf *w, int client_fd,
		     int *ret_fd)
{
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret, fd;

	if (!the_link || !dropped)
		return 1;	/* the caller reads it with the owner's rights itself */
	ret = ltt_priv_call_fd(the_link, type, w, client_fd, &m, &r);
	if (ret)
		return ret;
	fd = ltt_msg_take_fd(&m, 0);
	ltt_msg_fini(&m);
	if (fd < 0)
		return -EPROTO;
	*ret_fd = fd;
	return 0;
}

int ltt_priv_open_probe(uint64_t id, const char *path, int *ret_fd)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_wbuf_put_str(&w, path);
	ret = open_file(LTT_PRIV_PROBE_FILE, &w, -1, ret_fd);
	ltt_wbuf_fini(&w);
	return ret;
}

/* File @path opened by the privileged part with the rights of the client on @client_fd (@type). */
static int open_as_client(enum ltt_priv_request type, int client_fd, const char *path, int *ret_fd)
{
	struct ltt_wbuf w;
	int ret;

	if (client_fd < 0 && the_link && dropped)
		return -EPERM;	/* no client: no one's rights to read it with */
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, path);
	ret = open_file(type, &w, client_fd, ret_fd);
	ltt_wbuf_fini(&w);
	return ret;
}

int ltt_priv_open_client_probe(int client_fd, const char *path, int *ret_fd)
{
	return open_as_client(LTT_PRIV_CLIENT_PROBE_FILE, client_fd, path, ret_fd);
}

int ltt_priv_open_tls(int client_fd, const char *path, int *ret_fd)
{
	return open_as_client(LTT_PRIV_TLS_FILE, client_fd, path, ret_fd);
}

int ltt_priv_shm_file(uint64_t id, unsigned int job, const char *path, size_t keep, int *ret_fd)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret;

	if (!the_link || !dropped)
		return 1;	/* the caller does it with the owner's rights itself */
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_wbuf_put_u8(&w, (uint8_t)job);
	ltt_wbuf_put_u64(&w, keep);
	ltt_wbuf_put_str(&w, path);
	if (job == LTT_PRIV_SHM_REMOVE) {	/* no file comes back */
		ret = ltt_priv_call(the_link, LTT_PRIV_SHM_FILE, &w, &m, &r);
		if (!ret)
			ltt_msg_fini(&m);
	} else {
		ret = open_file(LTT_PRIV_SHM_FILE, &w, -1, ret_fd);
	}
	ltt_wbuf_fini(&w);
	return ret;
}

int ltt_priv_save_lttng(int client_fd, const char *session, const char *dir, bool force,
			int *ret_fd)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, session ? session : "");
	ltt_wbuf_put_str(&w, dir ? dir : "");
	ltt_wbuf_put_u8(&w, force);
	ret = open_file(LTT_PRIV_SAVE_LTTNG, &w, client_fd, ret_fd);
	ltt_wbuf_fini(&w);
	return ret;
}

void ltt_priv_stop(void)
{
	struct ltt_priv *p = the_link;
	struct ltt_wbuf w;

	if (!p)
		return;
	ltt_wbuf_init(&w);
	ltt_priv_ask(p, LTT_PRIV_STOPPING, &w);
	ltt_wbuf_fini(&w);
	the_link = NULL;
	close(p->fd);
	while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
		;
	pthread_mutex_destroy(&p->lock);
	free(p);
}
