// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_chunk_owner.c - the privileged end of OWNER_FILES
 * (ltt_chunk_owner_serve(), chunk/chunk-owner.c), fed requests as the
 * daemon's other process could send them: a path outside the output it
 * names, one with "..", a relative output, an unknown job, a short
 * request are refused and change nothing; an archive is made with the
 * owner's rights (owned by the owner); and, run as root, a removal as a
 * user who may not remove gets the kernel's EACCES and removes nothing.
 * Once the daemon is not root (a child dropped to nobody stands for it),
 * a job for an owner no session was admitted for (OWNER_ADD: the
 * creating client's credentials read off its connection) is refused with
 * EPERM, and so is one for another output or after the session is gone;
 * so is a chunk journal (JOURNAL_WRITE) naming such an owner or output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/codec.h"
#include "sessiond/chunk/chunk-journal.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/priv/priv.h"
#include "tests/unit/tap.h"

#define USER 4133	/* a uid nobody has: its rights are only "others'" */

/* One OWNER_FILES request's payload through the privileged end. */
static int serve(uint8_t job, uid_t uid, const char *output, const char *path, uint64_t id,
		 char *ret_path, size_t len)
{
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_u8(&w, job);
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_str(&w, output);
	ltt_wbuf_put_str(&w, path);
	ltt_wbuf_put_u64(&w, 1000);
	ltt_wbuf_put_u64(&w, 2000);
	ltt_wbuf_put_u64(&w, id);
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_chunk_owner_serve(&r, &reply);
	if (!ret && ret_path) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		snprintf(ret_path, len, "%s", ltt_rbuf_get_str(&r, 4096));
	}
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return ret;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/*
 * OWNER_ADD of session @id, @output, shared memory path @shm, created by
 * @fd's peer: its uid, or -errno.
 */
static long admit_shm(int fd, uint64_t id, const char *output, const char *shm)
{
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	long ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_u64(&w, id);
	ltt_wbuf_put_str(&w, output);
	ltt_wbuf_put_str(&w, shm);
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_chunk_owner_serve_admit(&r, fd, &reply);
	if (!ret) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		ret = ltt_rbuf_get_u32(&r);
	}
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return ret;
}

static long admit(int fd, uint64_t id, const char *output)
{
	return admit_shm(fd, id, output, "");
}

/* OWNER_SHM of session @id, asked on @fd. */
static int set_shm(int fd, uint64_t id, const char *shm)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_wbuf_put_str(&w, shm);
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_chunk_owner_serve_set_shm(&r, fd);
	ltt_wbuf_fini(&w);
	return ret;
}

/* SHM_FILE's check: 0 when session @id's owner may have @path (keeping @keep bytes). */
static int shm_ok(uint64_t id, const char *path, size_t keep)
{
	uid_t u;
	gid_t g;

	return ltt_chunk_owner_serve_shm(id, path, keep, &u, &g);
}

/* OWNER_DROP of session @id. */
static int forget(uint64_t id)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_chunk_owner_serve_forget(&r);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * A daemon that gave root's rights up: a child that drops to nobody,
 * says so on a pipe and waits for its end to close.  Its pid, or -1.
 */
static pid_t dropped_daemon(int *ret_hold)
{
	int ready[2], hold[2];
	pid_t pid;
	char c;

	if (pipe(ready) || pipe(hold))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(hold[1]);
		if (ltt_priv_drop(65534, 65534) || write(ready[1], "d", 1) != 1)
			_exit(1);
		_exit(read(hold[0], &c, 1) < 0);
	}
	close(ready[1]);
	close(hold[0]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		close(hold[1]);
		return -1;
	}
	close(ready[0]);
	*ret_hold = hold[1];
	return pid;
}

/* The journal of session @id that journal() writes, in TOP/chunks. */
static const char *journal_file(const char *top, uint64_t id)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/chunks/%d-%llu", top, 77, (unsigned long long)id);
	return path;
}

/* JOURNAL_WRITE of session @id, owner @uid, output @output, daemon pid 77. */
static int journal(const char *top, uint64_t id, uid_t uid, const char *output)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	char text[512];
	int ret;

	snprintf(text, sizeof(text), "ltt-chunks 1\nuid %u\ngid %u\nname s\noutput %s\nchunk 0 1 0 %s\n",
		 (unsigned int)uid, (unsigned int)uid, output, output);
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_wbuf_put_str(&w, text);
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_chunk_journal_serve_write(top, 77, &r);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * A listener at @path (the daemon's client.sock), a connection to it and
 * the one it accepted: sv[0] the accepted end, sv[1] the connecting one.
 */
static int client_pair(const char *path, int *ret_listener, int sv[2])
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(a.sun_path))
		return -1;
	memcpy(a.sun_path, path, strlen(path) + 1);
	*ret_listener = socket(AF_UNIX, SOCK_STREAM, 0);
	sv[1] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (*ret_listener < 0 || sv[1] < 0 ||
	    bind(*ret_listener, (struct sockaddr *)&a, sizeof(a)) || listen(*ret_listener, 1) ||
	    connect(sv[1], (struct sockaddr *)&a, sizeof(a)))
		return -1;
	sv[0] = accept(*ret_listener, NULL, NULL);
	return sv[0] < 0 ? -1 : 0;
}

/* OWNER_FILES once the daemon is not root: its sessions' owners only. */
static void test_admitted(const char *top, const char *out)
{
	char path[4096], other[128], chunks[128], sock[128], lsock[128];
	int sv[2], lsv[2], pair[2], hold = -1, listener = -1, llistener = -1;
	pid_t d = dropped_daemon(&hold);

	snprintf(path, sizeof(path), "%s/gone", out);
	snprintf(other, sizeof(other), "%s/victim", top);
	snprintf(chunks, sizeof(chunks), "%s/chunks", top);
	snprintf(sock, sizeof(sock), "%s/client.sock", top);
	snprintf(lsock, sizeof(lsock), "%s/client-lttng-sessiond", top);
	if (d < 0 || mkdir(path, 0700) || client_pair(sock, &listener, sv) ||
	    client_pair(lsock, &llistener, lsv) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, pair) || mkdir(chunks, 0700)) {
		for (int i = 0; i < 28; i++)
			tap_skip("no daemon dropped to nobody: can't test");
		return;
	}
	ltt_chunk_owner_serve_daemon(d);
	ltt_chunk_owner_serve_clients(sock, NULL);
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) == -EPERM && exists(path),
	       "the daemon is nobody: removing for uid 0, which owns no session: EPERM, kept");
	tap_is_int((int)admit(sv[1], 6, "/"), -EPERM,
		   "OWNER_ADD with a connection the daemon made itself (its peer reads as the "
		   "listener's root): EPERM");
	tap_is_int((int)admit(pair[0], 6, "/"), -EPERM,
		   "OWNER_ADD with a socketpair, no connection client.sock accepted: EPERM");
	tap_ok(serve(2, 0, "/", path, 0, NULL, 0) == -EPERM && exists(path),
	       "so nothing is admitted for uid 0 in /: EPERM, kept");
	tap_is_int((int)admit(sv[0], 7, out), 0,
		   "OWNER_ADD of session 7: the owner read off the client's connection is uid 0");
	tap_is_int(serve(2, USER, out, path, 0, NULL, 0), -EPERM,
		   "removing for uid %u, the owner the daemon names, not the session's: EPERM", USER);
	tap_is_int(serve(2, 0, other, path, 0, NULL, 0), -EPERM,
		   "for uid 0 in an output no session of it has: EPERM");
	tap_is_int(forget(7), 0, "OWNER_DROP of session 7");
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) == -EPERM && exists(path),
	       "once it is gone, removing for uid 0: EPERM, kept");
	tap_is_int((int)admit(lsv[0], 10, out), -EPERM,
		   "OWNER_ADD with a connection of another socket of root's (LTTng's client "
		   "socket, not served): EPERM");
	ltt_chunk_owner_serve_clients(sock, lsock);
	tap_ok(admit(lsv[0], 10, out) == 0 && !forget(10),
	       "OWNER_ADD with a connection LTTng's client socket accepted, the daemon serving "
	       "it (--lttng-compat): admitted");
	tap_is_int((int)admit_shm(sv[0], 11, out, "/s/shm"), 0,
		   "session 11 admitted with shared memory path /s/shm");
	tap_is_int(shm_ok(11, "/s/shm/n-1/ust/uid/0/64-bit/c_0", strlen("/s/shm/n-1")), 0,
		   "SHM_FILE: a stream file below it, removals kept to n-1: taken");
	tap_is_int(shm_ok(11, "/root/.bashrc", strlen("/s/shm")), -EPERM,
		   "SHM_FILE: a file outside its shared memory path: EPERM");
	tap_is_int(shm_ok(11, "/s/shm/../etc/x", strlen("/s/shm")), -EPERM,
		   "SHM_FILE: a way out with \"..\": EPERM");
	tap_is_int(shm_ok(11, "/s/shm/n-1/ust", 2), -EPERM,
		   "SHM_FILE: a removal that would climb above it: EPERM");
	tap_is_int(shm_ok(12, "/s/shm/x", strlen("/s/shm")), -EPERM,
		   "SHM_FILE for a session never admitted: EPERM");
	tap_is_int(set_shm(sv[0], 11, "/t"), -EPERM, "OWNER_SHM of a session that has one: EPERM");
	tap_ok(!admit(sv[0], 13, out) && shm_ok(13, "/t/x", 2) == -EPERM,
	       "session 13 admitted without one: SHM_FILE EPERM");
	tap_is_int(set_shm(pair[0], 13, "/t"), -EPERM,
		   "OWNER_SHM on a connection client.sock did not accept: EPERM");
	tap_ok(!set_shm(sv[0], 13, "/t") && !shm_ok(13, "/t/n/ust/c_0", 2),
	       "OWNER_SHM by its owner (LTTng's SET_SESSION_SHM_PATH): SHM_FILE below /t taken");
	forget(11);
	forget(13);
	tap_is_int((int)admit(sv[0], 8, out), 0, "session 8 admitted, uid 0");
	tap_is_int((int)admit(sv[0], 8, out), -EEXIST, "session 8 again: EEXIST");
	tap_ok(journal(top, 8, 0, out) == 0 && exists(journal_file(top, 8)),
	       "JOURNAL_WRITE of session 8, naming its owner and output: written");
	tap_ok(journal(top, 9, USER, out) == -EPERM && !exists(journal_file(top, 9)),
	       "JOURNAL_WRITE naming uid %u, who owns no session: EPERM, nothing written", USER);
	tap_ok(journal(top, 9, 0, other) == -EPERM && !exists(journal_file(top, 9)),
	       "JOURNAL_WRITE naming another output: EPERM, nothing written");
	tap_ok(journal(top, 9, 0, out) == -EPERM && !exists(journal_file(top, 9)),
	       "JOURNAL_WRITE of session 9, never admitted, naming session 8's owner and "
	       "output: EPERM, nothing written");
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) == 0 && !exists(path),
	       "removing for its owner, uid 0, in its output: done");
	forget(8);
	ltt_chunk_owner_serve_daemon(0);
	ltt_chunk_owner_serve_clients(NULL, NULL);
	close(sv[0]);
	close(sv[1]);
	close(lsv[0]);
	close(lsv[1]);
	close(llistener);
	close(pair[0]);
	close(pair[1]);
	close(listener);
	unlink(sock);
	unlink(lsock);
	close(hold);
	waitpid(d, NULL, 0);
}

int main(void)
{
	char tmpl[] = "/tmp/ltt-chunk-owner.XXXXXX", out[64], victim[64], chunk[128],
	     path[4096], up[128], link[128];
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	struct stat st;
	bool root = geteuid() == 0;
	uid_t owner = root ? USER : geteuid();
	char *top = mkdtemp(tmpl);

	tap_plan(42);
	if (!top)
		return 1;
	snprintf(out, sizeof(out), "%s/out", top);
	snprintf(victim, sizeof(victim), "%s/victim", top);
	snprintf(chunk, sizeof(chunk), "%s/19700101T000000+0000-1", out);
	snprintf(up, sizeof(up), "%s/../victim", out);
	if (chmod(top, 0711) || mkdir(out, 0770) || mkdir(victim, 0700) || mkdir(chunk, 0770) ||
	    (root && (chown(out, USER, USER) || chown(chunk, USER, USER))))
		return 1;

	tap_is_int(serve(2, owner, out, victim, 0, NULL, 0), -EINVAL,
		   "remove a path outside the output: EINVAL");
	tap_is_int(serve(2, owner, out, up, 0, NULL, 0), -EINVAL,
		   "remove OUTPUT/../victim: EINVAL");
	tap_is_int(serve(2, owner, "out", "out/x", 0, NULL, 0), -EINVAL,
		   "a relative output: EINVAL");
	tap_is_int(serve(2, owner, out, "", 0, NULL, 0), -EINVAL, "remove an empty path: EINVAL");
	snprintf(path, sizeof(path), "%s/.", out);
	tap_is_int(serve(2, owner, out, path, 0, NULL, 0), -EINVAL, "remove OUTPUT/.: EINVAL");
	snprintf(path, sizeof(path), "%s/./x/..", out);
	tap_is_int(serve(2, owner, out, path, 0, NULL, 0), -EINVAL, "remove OUTPUT/./x/..: EINVAL");
	tap_is_int(serve(9, owner, out, chunk, 0, NULL, 0), -EPROTO, "job 9: EPROTO");
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_u8(&w, 2);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_chunk_owner_serve(&r, &reply), -EPROTO, "a request cut short: EPROTO");
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	tap_ok(exists(victim), "the directory outside the output is still there");

	tap_is_int(serve(1, owner, out, chunk, 1, path, sizeof(path)), 0,
		   "archive chunk 1 as its owner (%s)", path);
	tap_ok(!stat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == owner && !exists(chunk),
	       "the chunk moved into archives/, owned by the owner (uid %u)", (unsigned int)owner);
	if (root) {
		snprintf(path, sizeof(path), "%s/rootonly", out);
		if (mkdir(path, 0755) || mknod(strcat(path, "/f"), S_IFREG | 0600, 0))
			return 1;
		tap_ok(serve(2, USER, out, path, 0, NULL, 0) == -EACCES && exists(path),
		       "as the owner, removing root's file in root's directory below the output: EACCES, kept");
	} else {
		tap_skip("not root: no owner's rights to take");
	}
	/* a root owner's job: no symlink below the output followed */
	snprintf(path, sizeof(path), "%s/f", victim);
	snprintf(link, sizeof(link), "%s/link", out);
	if (mknod(path, S_IFREG | 0600, 0) || symlink(victim, link))
		return 1;
	snprintf(path, sizeof(path), "%s/link/f", out);
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) < 0 && !access(strcat(strcpy(path, victim), "/f"), F_OK),
	       "as root, removing OUTPUT/link/f where link leads out of the output: refused, kept");
	snprintf(path, sizeof(path), "%s/d", out);
	if (mkdir(path, 0700) || mknod(strcat(path, "/f"), S_IFREG | 0600, 0))
		return 1;
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) == 0 && !exists(path),
	       "as root, removing OUTPUT/d/f: removed");
	if (root)
		test_admitted(top, out);
	else
		for (int i = 0; i < 10; i++)
			tap_skip("not root: no daemon to drop");
	snprintf(path, sizeof(path), "rm -rf '%s'", top);
	if (system(path))
		tap_diag("can't remove %s", top);
	return tap_done();
}
