// SPDX-License-Identifier: GPL-2.0-only
/*
 * priv-table.c - the privileged part's table of allowed requests, run in
 * the privileged process (see priv-table.h, priv/priv.h): nothing else
 * reaches what it keeps.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/array.h"
#include "common/base/as-user.h"
#include "common/base/daemon.h"
#include "common/base/fault.h"
#include "common/proto/app-proto.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/proto/msg.h"
#include "common/proto/client-proto.h"
#include "common/proto/lttng-client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "sessiond/app/app.h"
#include "sessiond/chunk/chunk-journal.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/consumer/consumer.h"

#include "sessiond/kabi/kabi-remote.h"
#include "sessiond/kabi/kabi-tracefs.h"
#include "sessiond/kernel/kmodule.h"
#include "lib/ltt-ctl/ctl-internal.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/priv/priv.h"
#include "sessiond/daemon/priv-table.h"
#include "sessiond/daemon/rundir.h"
#include "sessiond/ust/ust-shm.h"

/* A probes list as ltt-sessiond --kmod-probes takes it: names and commas. */
static bool probes_ok(const char *p)
{
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_,");

	return p[n] == '\0' && n < LTT_KMODULE_WHY_MAX / 2;
}

static int kmod_load(const struct ltt_priv_call *req)
{
	const char *name = ltt_rbuf_get_str(req->r, 64);
	int has_probes = ltt_rbuf_get_bool(req->r);
	const char *probes = ltt_rbuf_get_str(req->r, LTT_KMODULE_WHY_MAX);
	char why[LTT_KMODULE_WHY_MAX] = "";
	bool loaded = false;
	int ret;

	/* the tracer's module only, with probe names only */
	if (ltt_rbuf_end(req->r) || strcmp(name, LTT_KMODULE_TRACER) || !probes_ok(probes))
		return -EINVAL;
	ret = ltt_kmodule_load(name, has_probes ? probes : NULL, why, sizeof(why), &loaded);
	ltt_wbuf_put_u32(req->w, (uint32_t)ret);
	ltt_wbuf_put_u8(req->w, loaded);
	ltt_wbuf_put_str(req->w, why);
	return 0;
}

static int kmod_unload(const struct ltt_priv_call *req)
{
	const char *name = ltt_rbuf_get_str(req->r, 64);

	if (ltt_rbuf_end(req->r) || strcmp(name, LTT_KMODULE_TRACER))
		return -EINVAL;
	ltt_kmodule_unload(name);
	return 0;
}

/*
 * The consumers: the program and its options, fixed at start-up (the
 * daemon's options), and those it spawned still running, each with its
 * pidfd (which CONSUMER_KILL signals: never a pid the daemon names that
 * is not one of them, nor one reused since).
 */
static struct ltt_consumer_config consumer_cfg;
static struct child {
	pid_t pid;
	int pidfd;
} *children;
static size_t nr_children, cap_children;

void ltt_privsep_consumers(const struct ltt_consumer_config *cfg)
{
	consumer_cfg = *cfg;
}

/* Forget the children that exited (the daemon reaps them). */
static void prune_children(void)
{
	struct pollfd pfd = { .events = POLLIN };
	size_t i = 0;

	while (i < nr_children) {
		pfd.fd = children[i].pidfd;
		if (poll(&pfd, 1, 0) == 0) {
			i++;
			continue;
		}
		close(children[i].pidfd);
		children[i] = children[--nr_children];
	}
}

static int consumer_spawn(const struct ltt_priv_call *req)
{
	int as_user = ltt_rbuf_get_bool(req->r), pidfd;
	uid_t uid = (uid_t)ltt_rbuf_get_u32(req->r);
	gid_t gid = (gid_t)ltt_rbuf_get_u32(req->r);
	/* the daemon names the kind of the LTTng health socket, never a path */
	unsigned int health = ltt_rbuf_get_u8(req->r);
	struct ltt_consumer_config cfg = consumer_cfg;
	struct child *grown;
	pid_t pid;

	if (ltt_rbuf_end(req->r) || health > LTT_CONSUMER_LTTNG_HEALTH_KERNEL)
		return -EPROTO;
	cfg.lttng_health = (enum ltt_consumer_lttng_health)health;
	/* as root (the kernel domain's), or as a user: never as root by --uid */
	if (as_user && (uid == 0 || uid == (uid_t)-1 || gid == (gid_t)-1))
		return -EPERM;
	prune_children();
	if (nr_children == cap_children) {
		grown = ltt_array_grow(children, &cap_children, sizeof(*children));
		if (!grown)
			return -ENOMEM;
		children = grown;
	}
	/* the daemon's child, not ours: it reaps it, it waits on it */
	pid = ltt_consumer_fork(&cfg, as_user ? uid : (uid_t)-1, gid, req->in_fd, true,
				&pidfd);
	if (pid < 0)
		return pid;
	children[nr_children++] = (struct child){ .pid = pid, .pidfd = pidfd };
	ltt_wbuf_put_u32(req->w, (uint32_t)pid);
	return 0;
}

static int consumer_kill(const struct ltt_priv_call *req)
{
	pid_t pid = (pid_t)ltt_rbuf_get_u32(req->r);
	size_t i;

	if (ltt_rbuf_end(req->r))
		return -EPROTO;
	prune_children();
	for (i = 0; i < nr_children && children[i].pid != pid; i++)
		;
	if (i == nr_children)
		return -ESRCH;
	return syscall(SYS_pidfd_send_signal, children[i].pidfd, SIGKILL, NULL, 0) ? -errno : 0;
}

static int owner_files(const struct ltt_priv_call *req)
{
	return ltt_chunk_owner_serve(req->r, req->w);
}

/*
 * What the daemon, once it dropped root's rights, can no longer write or
 * remove in root's directories (set before the fork): the agents' port
 * file (AGENT_PORT), and its run directory's files (sockets, pid file),
 * and the chunk journals' directory when empty (in the state directory:
 * ltt_chunk_journal_dir()), removed at a clean stop.
 */
static char rundir[PATH_MAX], port_file[PATH_MAX], lttng_sock[PATH_MAX];
static unsigned int agent_port;	/* 0: no port file written */
static bool stopping;		/* STOPPING came: a clean stop */

void ltt_privsep_drops(const char *path, const char *agent_port_file, const char *lttng_path)
{
	char client_sock[PATH_MAX];

	snprintf(rundir, sizeof(rundir), "%s", path);
	snprintf(port_file, sizeof(port_file), "%s", agent_port_file ? agent_port_file : "");
	/* as main.c names it (a path that does not fit: every connection refused) */
	if (ltt_path_join(client_sock, sizeof(client_sock), path, LTT_CLIENT_SOCKET_NAME))
		snprintf(client_sock, sizeof(client_sock), "/");
	snprintf(lttng_sock, sizeof(lttng_sock), "%s", lttng_path ? lttng_path : "");
	ltt_chunk_owner_serve_clients(client_sock, lttng_sock);
}

static int agent_port_write(const struct ltt_priv_call *req)
{
	uint32_t port = ltt_rbuf_get_u32(req->r);

	if (ltt_rbuf_end(req->r) || port == 0 || port > 65535)
		return -EINVAL;
	if (agent_port)
		return -EALREADY;	/* once, before any client or program is heard */
	if (!port_file[0])
		return -ENOENT;
	agent_port = port;
	return ltt_lagent_port_write(port_file, port);
}

static int stop_clean(const struct ltt_priv_call *req)
{
	stopping = true;
	return 0;
}

static int time_ns(const struct ltt_priv_call *req)
{
	uint32_t pid = ltt_rbuf_get_u32(req->r);

	if (ltt_rbuf_end(req->r) || pid == 0 || pid > INT_MAX)
		return -EINVAL;
	ltt_wbuf_put_u8(req->w, ltt_app_same_clock((pid_t)pid) != 0);
	return 0;
}

/*
 * The run directory's files of @daemon, if the pid file still names it
 * (a daemon refused for a directory another one holds wrote none).
 */
static void rundir_clean(pid_t daemon)
{
	static const char *const names[] = { LTT_CLIENT_SOCKET_NAME, LTT_APP_SOCKET_NAME };
	char text[32] = "", journals[PATH_MAX];
	struct stat st;
	ssize_t n;
	size_t i;
	int dfd, fd;

	dfd = rundir[0] ? open(rundir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (dfd < 0)
		return;
	fd = openat(dfd, LTT_SESSIOND_PID_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0 && strtol(text, NULL, 10) == (long)daemon) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) && S_ISSOCK(st.st_mode))
				unlinkat(dfd, names[i], 0);
		unlinkat(dfd, LTT_SESSIOND_PID_NAME, 0);
		/* the journals', when empty */
		if (!ltt_chunk_journal_dir(rundir, journals, sizeof(journals)))
			rmdir(journals);
	}
	close(dfd);
}

static int owner_add(const struct ltt_priv_call *req)
{
	return ltt_chunk_owner_serve_admit(req->r, req->in_fd, req->w);
}

static int owner_drop(const struct ltt_priv_call *req)
{
	return ltt_chunk_owner_serve_forget(req->r);
}

/*
 * A file a dropped daemon needs and may not open, opened with @uid's and
 * @gid's rights (as-user.h) if it is a regular file of at most @max
 * bytes whose first @len bytes are @head, or that holds @head somewhere
 * (@anywhere): a probe's ELF file, a session's PEM TLS files, never any
 * other.  The fd passed back is closed at the next such request.
 */
static int passed_fd = -1;

/* The magic of open_as()'s answer from its child (not a protocol: a pipe of its own). */
#define OPEN_MAGIC 0x6c74704fu

/* Do @fd's first @len bytes, of the @size checked, read @head? */
static bool starts(int fd, const char *head, size_t len, off_t size)
{
	char buf[64];

	return len <= sizeof(buf) && (off_t)len <= size && pread(fd, buf, len, 0) == (ssize_t)len &&
	       !memcmp(buf, head, len);
}

/*
 * Does @fd hold @head anywhere in its first @size bytes, the size checked?
 * Read in pieces that overlap by @len - 1 bytes, never past @size: a file
 * grown since the check (or a /proc file, of size 0, that reads on for
 * hundreds of GiB) must not hold this loop.  A certificate's text dump
 * may run for kilobytes before its PEM block.
 */
static bool holds(int fd, const char *head, size_t len, off_t size)
{
	char buf[4096];
	size_t have = 0, want;
	off_t off = 0;
	ssize_t n;

	if (!len || len >= sizeof(buf))
		return false;
	while (off < size) {
		want = sizeof(buf) - have;
		if ((off_t)want > size - off)
			want = (size_t)(size - off);
		n = pread(fd, buf + have, want, off);
		if (n <= 0)
			break;
		off += n;
		have += (size_t)n;
		if (memmem(buf, have, head, len))
			return true;
		if (have >= len) {	/* the last len - 1 bytes may begin @head */
			memmove(buf, buf + have - (len - 1), len - 1);
			have = len - 1;
		}
	}
	return false;
}

/* What open_as() opens and checks (open_here()), with whose rights. */
struct open_args {
	uid_t uid;
	gid_t gid;
	const char *path;
	off_t max;
	const char *head;
	size_t len;
	bool anywhere;
};

/* open_as()'s work, in a child of its own (in_child()). */
static int open_here(const void *arg, int *ret_fd)
{
	const struct open_args *a = arg;
	struct ltt_as_user as;
	struct stat st;
	int fd = -1, err;

	/* a device or FIFO is not even opened */
	err = ltt_as_user_begin(a->uid, a->gid, &as);
	if (!err && stat(a->path, &st))
		err = -errno;
	if (!err && !S_ISREG(st.st_mode))
		err = -ENOEXEC;
	if (!err && (fd = open(a->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0)
		err = -errno;
	ltt_as_user_end(&as);
	if (!err && (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > a->max))
		err = -ENOEXEC;
	if (!err && !(a->anywhere ? holds(fd, a->head, a->len, st.st_size) :
				    starts(fd, a->head, a->len, st.st_size)))
		err = -ENOEXEC;
	if (err) {
		if (fd >= 0)
			close(fd);
		return err == -ENOTDIR ? -ENOENT : err;
	}
	*ret_fd = fd;
	return 0;
}

/*
 * in_child()'s children killed and not reaped yet.  SIGKILL does not end
 * every wait on a file system: an operation a FUSE server has taken (read
 * from /dev/fuse) is waited for until it answers or the mount goes, as
 * an NFS hard mount may.  Such a child is never waited for here, only
 * reaped once gone (WNOHANG, at the next request); while IN_CHILD_STUCK
 * of them are left, requests are refused rather than leave more.
 */
#define IN_CHILD_STUCK 32
static pid_t killed[IN_CHILD_STUCK];
static unsigned int nr_killed;

/* Reap the killed children that are gone. */
static void reap_killed(void)
{
	unsigned int i = 0;

	while (i < nr_killed) {
		if (waitpid(killed[i], NULL, WNOHANG) == 0)
			i++;		/* still waiting on its file system */
		else
			killed[i] = killed[--nr_killed];
	}
}

/*
 * in_child()'s child @pid for @path closed its end without a whole
 * answer: it ended (its status said when it is there already: a crash,
 * an exit of its own) or is ending.  Logged as such, never as a file
 * system's silence; killed and reaped as one that timed out.
 */
static void child_ended(pid_t pid, const char *path)
{
	int status;

	if (waitpid(pid, &status, WNOHANG) == pid) {
		if (WIFSIGNALED(status))
			LTT_WARN("%s: the process opening it was killed by signal %d before it answered: refused",
				 path, WTERMSIG(status));
		else
			LTT_WARN("%s: the process opening it exited (status %d) before it answered: refused",
				 path, WEXITSTATUS(status));
		return;
	}
	LTT_WARN("%s: the process opening it ended without answering: refused", path);
	kill(pid, SIGKILL);
	if (waitpid(pid, NULL, WNOHANG) == 0)
		killed[nr_killed++] = pid;
}

/*
 * The file work of a request on @path, @work(@arg), done in a child of
 * its own, which hands back its status and the descriptor it opened (if
 * any, -1 else): a file system that never answers (a FUSE mount whose
 * server is stopped, an NFS server gone) holds that child, not this loop,
 * which kills it after LTT_PRIV_OPEN_MS and refuses the request
 * (-ETIMEDOUT), and never waits for it to end (reap_killed()); a child
 * that ends without an answer refuses it with -EIO, said as such.  The
 * descriptor passed back is closed at the next such request.  The one
 * way this loop touches a user's files.
 */
static int in_child(int (*work)(const void *arg, int *ret_fd), const void *arg,
		    const char *path, int *ret_fd)
{
	struct pollfd p = { .events = POLLIN };
	int32_t err = 0;
	struct ltt_msg m;
	int sv[2], fd = -1, ret;
	pid_t pid;

	if (passed_fd >= 0)
		close(passed_fd);
	passed_fd = -1;
	if (path[0] != '/')
		return -EINVAL;
	reap_killed();
	if (nr_killed == IN_CHILD_STUCK) {
		LTT_WARN_RL("%s: refused: %u children of earlier requests still wait on their file systems, killed",
			    path, nr_killed);
		return -ETIMEDOUT;
	}
	pid = ltt_fork_split(sv, true, 1);
	if (pid < 0)
		return pid;
	if (!pid) {
		/*
		 * Nothing of this loop's but the answer's socket (as fd 3):
		 * a child its file system holds through SIGKILL may outlive
		 * ltt-priv, and must not keep the daemon's link (whose end
		 * would then never close) or the tracer's objects open.
		 */
		if (ltt_fd_keep_only(sv[1]))
			_exit(1);
		ltt_fault_with(0);	/* a fault here is this child's alone */
		ltt_fault_point("priv-open-child");	/* a child that dies unanswered */
		err = work(arg, &fd);
		_exit(ltt_msg_send(3, OPEN_MAGIC, 0, 0, &err, sizeof(err), &fd,
				   !err && fd >= 0) ? 1 : 0);
	}
	p.fd = sv[0];
	do
		ret = poll(&p, 1, LTT_PRIV_OPEN_MS);
	while (ret < 0 && errno == EINTR);
	if (ret > 0 && !ltt_msg_recv(sv[0], OPEN_MAGIC, sizeof(err), 1, &m)) {
		if (m.hdr.payload_len == sizeof(err))
			memcpy(&err, m.payload, sizeof(err));
		else
			err = -EPROTO;
		fd = err || !m.nr_fds ? -1 : ltt_msg_take_fd(&m, 0);
		ltt_msg_fini(&m);
	} else if (ret > 0) {
		err = -EIO;
		child_ended(pid, path);
		pid = 0;
	} else {
		err = -ETIMEDOUT;
		LTT_WARN("%s: its file system did not answer within %d ms: refused", path,
			 LTT_PRIV_OPEN_MS);
	}
	close(sv[0]);
	/* gone already, or held by its file system: reaped now or later, never waited for */
	if (pid > 0) {
		kill(pid, SIGKILL);
		if (waitpid(pid, NULL, WNOHANG) == 0)
			killed[nr_killed++] = pid;
	}
	if (err)
		return err;
	if (fd >= 0)
		*ret_fd = passed_fd = fd;
	return 0;
}

/*
 * @path opened with @uid's and @gid's rights and checked (open_here()),
 * in a child of its own (in_child()); the file's descriptor must come
 * back.
 */
static int open_as(uid_t uid, gid_t gid, const char *path, off_t max, const char *head,
		   size_t len, bool anywhere, int *ret_fd)
{
	const struct open_args a = {
		.uid = uid, .gid = gid, .path = path, .max = max, .head = head, .len = len,
		.anywhere = anywhere,
	};
	int fd = -1, ret = in_child(open_here, &a, path, &fd);

	if (!ret && fd < 0)
		ret = -EPROTO;
	if (!ret)
		*ret_fd = fd;
	return ret;
}

/* PROBE_FILE {u64 id, str path}: the ELF file, as admitted session @id's owner */
static int probe_file(const struct ltt_priv_call *req)
{
	static const char elf[4] = { 0x7f, 'E', 'L', 'F' };
	uint64_t id = ltt_rbuf_get_u64(req->r);
	const char *path = ltt_rbuf_get_str(req->r, PATH_MAX - 1);
	uid_t uid;
	gid_t gid;
	int ret;

	if (ltt_rbuf_end(req->r))
		return -EINVAL;
	ret = ltt_chunk_owner_serve_owner(id, &uid, &gid);
	return ret ? ret : open_as(uid, gid, path, LTT_PRIV_PROBE_FILE_MAX, elf, sizeof(elf), false,
				   req->ret_fd);
}

/*
 * {str path} + a client's connection: the file opened as that client, if
 * it is at most @max bytes and holds @head (at its start; @anywhere: in
 * it), for TLS_FILE and CLIENT_PROBE_FILE.
 */
static int client_file(const struct ltt_priv_call *req, off_t max, const char *head, size_t len,
		       bool anywhere)
{
	const char *path = ltt_rbuf_get_str(req->r, PATH_MAX - 1);
	struct ucred cred;
	int ret;

	if (ltt_rbuf_end(req->r))
		return -EINVAL;
	ret = ltt_chunk_owner_client_cred(req->in_fd, &cred);
	return ret ? ret : open_as(cred.uid, cred.gid, path, max, head, len, anywhere, req->ret_fd);
}

/* TLS_FILE {str path} + a client's connection: a PEM file, as that client */
static int tls_file(const struct ltt_priv_call *req)
{
	static const char pem[] = "-----BEGIN ";

	return client_file(req, LTT_PRIV_TLS_FILE_MAX, pem, sizeof(pem) - 1, true);
}

/* CLIENT_PROBE_FILE {str path} + a client's connection: the ELF file, as that client */
static int client_probe_file(const struct ltt_priv_call *req)
{
	static const char elf[4] = { 0x7f, 'E', 'L', 'F' };

	return client_file(req, LTT_PRIV_PROBE_FILE_MAX, elf, sizeof(elf), false);
}

/*
 * LTTNG_GEN {} + an LTTng client's connection (its client socket's or its
 * notification channel's): its generation, read as root
 */
static int lttng_gen(const struct ltt_priv_call *req)
{
	struct ucred cred;
	int ret;

	if (ltt_rbuf_end(req->r))
		return -EINVAL;
	ret = ltt_chunk_owner_lttng_cred(req->in_fd, &cred);
	if (ret)
		return ret;
	ltt_wbuf_put_u8(req->w, (uint8_t)ltt_lttng_peer_gen_here(cred.pid));
	return 0;
}

/* OWNER_SHM {u64 id, str shm} + the owner's connection */
static int owner_shm(const struct ltt_priv_call *req)
{
	return ltt_chunk_owner_serve_set_shm(req->r, req->in_fd);
}

/* What SHM_FILE's child does (shm_here()), with whose rights. */
struct shm_args {
	uid_t uid;
	gid_t gid;
	unsigned int job;
	const char *path;
	size_t keep;
};

/* SHM_FILE's file work, in a child of its own (in_child()). */
static int shm_here(const void *arg, int *ret_fd)
{
	const struct shm_args *a = arg;
	struct ltt_as_user o;
	int ret = ltt_as_user_begin(a->uid, a->gid, &o);

	if (!ret)
		ret = ltt_ust_shm_job(a->job, a->path, a->keep, ret_fd);
	ltt_as_user_end(&o);
	return ret;
}

/*
 * SHM_FILE {u64 id, u8 job, u64 keep, str path}: as admitted session
 * @id's owner, below its shm path, in a child (in_child()): the shared
 * memory path is the owner's choice, on any file system
 */
static int shm_file(const struct ltt_priv_call *req)
{
	uint64_t id = ltt_rbuf_get_u64(req->r), keep;
	struct shm_args a = { .job = ltt_rbuf_get_u8(req->r) };
	int ret;

	keep = ltt_rbuf_get_u64(req->r);
	a.path = ltt_rbuf_get_str(req->r, PATH_MAX - 1);
	if (ltt_rbuf_end(req->r) || keep > PATH_MAX)
		return -EINVAL;
	a.keep = (size_t)keep;
	ret = ltt_chunk_owner_serve_shm(id, a.path, a.keep, &a.uid, &a.gid);
	return ret ? ret : in_child(shm_here, &a, a.path, req->ret_fd);
}

/*
 * SAVE_LTTNG {str session, str dir, u8 force} + root's client's
 * connection: root's sessions saved as root (root's files), in root's
 * .lttng/sessions only (a @dir: -EACCES), by a
 * process detached at once (a grandchild: this loop waits for no one,
 * and the daemon, whose client thread serves the save, is never held
 * by it), which writes its result on the pipe passed back: it keeps
 * none of this loop's descriptors, and is killed (SIGALRM) after
 * LTT_PRIV_SAVE_MS, which bounds the daemon's wait.
 */
static int save_lttng(const struct ltt_priv_call *req)
{
	const char *session = ltt_rbuf_get_str(req->r, LTT_NAME_MAX - 1);
	const char *dir = ltt_rbuf_get_str(req->r, PATH_MAX - 1);
	bool force = ltt_rbuf_get_u8(req->r) != 0;
	struct ltt_priv_save_result res = { 0 };
	struct ucred cred;
	size_t n = 0;
	int p[2], ret;
	pid_t pid;

	if (ltt_rbuf_end(req->r) || (dir[0] && dir[0] != '/'))
		return -EINVAL;
	ret = ltt_chunk_owner_client_cred(req->in_fd, &cred);
	if (ret)
		return ret;
	if (cred.uid != 0)
		return -EPERM;	/* root's sessions, root's files: root's client only */
	/*
	 * Only to root's own directory (.lttng/sessions of this process's
	 * home, fixed at start): a directory the daemon names could be any
	 * directory root can write, and the daemon can't be trusted to have
	 * read it from the client.
	 */
	if (dir[0])
		return -EACCES;
	if (passed_fd >= 0)
		close(passed_fd);
	passed_fd = -1;
	pid = ltt_fork_split(p, false, 1);
	if (pid < 0)
		return pid;
	if (pid == 0) {
		if (fork() == 0) {
			/*
			 * Nothing of this loop's but the pipe (as fd 3) and
			 * stderr (the link, the tracer's objects, the
			 * consumers' pidfds would live on in it), and an end:
			 * the daemon waits no longer than LTT_PRIV_SAVE_MS.
			 */
			if (ltt_fd_keep_only(p[1]))
				_exit(1);
			alarm(LTT_PRIV_SAVE_MS / 1000);
			ltt_fault_with(0);	/* a fault here is this process's alone */
			ltt_fault_point("save-lttng");
			res.ret = ltt_lib_save_lttng(rundir, session[0] ? session : NULL,
						     dir[0] ? dir : NULL, force, &n, res.err,
						     sizeof(res.err));
			res.count = (uint32_t)n;
			_exit(write(3, &res, sizeof(res)) == (ssize_t)sizeof(res) ? 0 : 1);
		}
		_exit(0);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	*req->ret_fd = passed_fd = p[0];
	return 0;
}

static pid_t served;	/* the daemon's pid: its journals are named after it */

static int journal_write(const struct ltt_priv_call *req)
{
	return ltt_chunk_journal_serve_write(rundir, served, req->r);
}

static int journal_remove(const struct ltt_priv_call *req)
{
	return ltt_chunk_journal_serve_remove(rundir, served, req->r);
}

static const struct ltt_priv_handler requests[] = {
	{ LTT_PRIV_KABI_OPEN, "KABI_OPEN", 6, false, ltt_kabi_serve_open },
	{ LTT_PRIV_KABI_RUN, "KABI_RUN", 12, false, ltt_kabi_serve_run },
	{ LTT_PRIV_KABI_RELEASE, "KABI_RELEASE", 4, false, ltt_kabi_serve_release },
	{ LTT_PRIV_KMOD_LOAD, "KMOD_LOAD", 3, false, kmod_load },
	{ LTT_PRIV_KMOD_UNLOAD, "KMOD_UNLOAD", 1, false, kmod_unload },
	{ LTT_PRIV_CONSUMER_SPAWN, "CONSUMER_SPAWN", 9, true, consumer_spawn },
	{ LTT_PRIV_CONSUMER_KILL, "CONSUMER_KILL", 4, false, consumer_kill },
	{ LTT_PRIV_OWNER_FILES, "OWNER_FILES", 9, false, owner_files },
	{ LTT_PRIV_AGENT_PORT, "AGENT_PORT", 4, false, agent_port_write },
	{ LTT_PRIV_TIME_NS, "TIME_NS", 4, false, time_ns },
	{ LTT_PRIV_OWNER_ADD, "OWNER_ADD", 9, true, owner_add },
	{ LTT_PRIV_OWNER_DROP, "OWNER_DROP", 8, false, owner_drop },
	{ LTT_PRIV_STOPPING, "STOPPING", 0, false, stop_clean },
	{ LTT_PRIV_JOURNAL_WRITE, "JOURNAL_WRITE", 12, false, journal_write },
	{ LTT_PRIV_JOURNAL_REMOVE, "JOURNAL_REMOVE", 8, false, journal_remove },
	{ LTT_PRIV_PROBE_FILE, "PROBE_FILE", 9, false, probe_file },
	{ LTT_PRIV_TLS_FILE, "TLS_FILE", 1, true, tls_file },
	{ LTT_PRIV_SAVE_LTTNG, "SAVE_LTTNG", 3, true, save_lttng },
	{ LTT_PRIV_SHM_FILE, "SHM_FILE", 18, false, shm_file },
	{ LTT_PRIV_OWNER_SHM, "OWNER_SHM", 9, true, owner_shm },
	{ LTT_PRIV_CLIENT_PROBE_FILE, "CLIENT_PROBE_FILE", 1, true, client_probe_file },
	{ LTT_PRIV_LTTNG_GEN, "LTTNG_GEN", 0, true, lttng_gen },
};

/* The kernel tracer's backends the privileged part runs (KABI_OPEN names one). */
static const struct ltt_kabi_backend *const backends[] = { &ltt_kabi_module, &ltt_kabi_tracefs };

int ltt_privsep_serve(int fd, pid_t daemon)
{
	struct ltt_kabi_server kabi = {
		.backends = backends, .nr_backends = sizeof(backends) / sizeof(backends[0]),
	};

	ltt_kabi_tracefs_name_pid(daemon);
	ltt_fault_with(daemon);	/* a fault point here (an archive's) is the daemon's */
	ltt_chunk_owner_serve_daemon(daemon);
	served = daemon;
	ltt_priv_serve(fd, requests, sizeof(requests) / sizeof(requests[0]), &kabi);
	ltt_kabi_server_fini(&kabi);
	/* as the daemon would have, at a clean stop (a killed one leaves them) */
	if (stopping && agent_port)
		ltt_lagent_port_remove(port_file, agent_port);
	if (stopping) {
		rundir_clean(daemon);
		ltt_lttng_compat_clean(lttng_sock, daemon);
	}
	ltt_chunk_owner_serve_fini();
	if (passed_fd >= 0)
		close(passed_fd);
	while (nr_children)
		close(children[--nr_children].pidfd);
	free(children);
	return 0;
}
