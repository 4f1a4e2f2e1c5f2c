// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk-owner.c - what is done with a session's owner's rights on its
 * output (see chunk-owner.h): here, or by the privileged part.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/base/array.h"
#include "common/base/as-user.h"
#include "common/base/fault.h"
#include "ltt/ltt-ctl-common.h"
#include "common/base/log.h"
#include "common/proto/lttng-trigger-proto.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/priv/priv.h"

void ltt_chunk_stamp(int64_t when, char buf[LTT_CHUNK_STAMP_MAX])
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, LTT_CHUNK_STAMP_MAX, "%Y%m%dT%H%M%S%z", &tm))
		strcpy(buf, "19700101T000000+0000");
}

/* Make @path (a directory of @session's output) owned by its owner. */
static int mkdir_owned(const struct ltt_chunk_owner *session, const char *path)
{
	if (mkdir(path, 0770) && errno != EEXIST)
		return -errno;
	if ((session->uid != geteuid() || session->gid != getegid()) &&
	    lchown(path, session->uid, session->gid))
		return -errno;
	return 0;
}

/* Move @name, one of chunk 0's traces at the output's top, into @archive. */
static int move_chunk0_entry(const struct ltt_chunk_owner *session, const char *archive,
			     const char *name)
{
	char from[LTT_PATH_MAX], to[LTT_PATH_MAX];

	if ((size_t)snprintf(from, sizeof(from), "%s/%s", session->output, name) >= sizeof(from) ||
	    (size_t)snprintf(to, sizeof(to), "%s/%s", archive, name) >= sizeof(to))
		return -ENAMETOOLONG;
	return rename(from, to) && errno != ENOENT ? -errno : 0;
}

/*
 * Move chunk 0's traces into @archive: ust/, and kernel/ or the
 * kernel-N/ a kernel trace took when kernel/ held one (kernel-domain.c).
 */
static int archive_chunk0(const struct ltt_chunk_owner *session, const char *archive)
{
	char name[32];
	unsigned int n;
	int ret, first;

	first = move_chunk0_entry(session, archive, "ust");
	ltt_fault_point("archive-chunk0-partial");
	ret = move_chunk0_entry(session, archive, "kernel");
	first = first ? first : ret;
	for (n = 1; n < 100; n++) {
		snprintf(name, sizeof(name), "kernel-%u", n);
		ret = move_chunk0_entry(session, archive, name);
		first = first ? first : ret;
	}
	return first;
}

/* Remove what directory @fd (closed here) holds, then @name in @parent_fd. */
static int remove_at(int parent_fd, const char *name, int depth)
{
	struct dirent *e;
	int fd, ret = 0, err;
	DIR *dir;

	if (!unlinkat(parent_fd, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	if (depth > 32)
		return -ELOOP;
	fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		err = remove_at(dirfd(dir), e->d_name, depth + 1);
		ret = ret ? ret : err;
	}
	closedir(dir);
	if (unlinkat(parent_fd, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = ret ? ret : -errno;
	return ret;
}

/* Archive the chunk of @dir, @begin, @id, ended at @end (see ltt_chunk_owner_archive()). */
static int archive_files(const struct ltt_chunk_owner *session, const char *chunk_dir,
			 int64_t begin, uint64_t id, int64_t end, char *ret_path)
{
	char begin_s[LTT_CHUNK_STAMP_MAX], end_s[LTT_CHUNK_STAMP_MAX], dir[LTT_PATH_MAX];
	int ret;

	ltt_chunk_stamp(begin, begin_s);
	ltt_chunk_stamp(end, end_s);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", session->output, LTT_CHUNK_ARCHIVES_DIR) >=
		    sizeof(dir) ||
	    (size_t)snprintf(ret_path, LTT_PATH_MAX, "%s/%s-%s-%" PRIu64, dir, begin_s, end_s,
			     id) >= LTT_PATH_MAX)
		return -ENAMETOOLONG;
	ret = mkdir_owned(session, session->output);
	if (!ret)
		ret = mkdir_owned(session, dir);
	if (ret)
		return ret;
	if (id == 0) {
		ret = mkdir_owned(session, ret_path);
		return ret ? ret : archive_chunk0(session, ret_path);
	}
	if (!rename(chunk_dir, ret_path))
		return 0;
	/* a chunk no trace wrote into has no directory: an empty archive */
	return errno == ENOENT ? mkdir_owned(session, ret_path) : -errno;
}


/* Does @path end with @tail? */
static bool ends_with(const char *path, const char *tail)
{
	size_t n = strlen(path), t = strlen(tail);

	return n >= t && !strcmp(path + n - t, tail);
}

/* Is @path @output itself or below it, with no "." or ".." on the way? */
static bool below(const char *output, const char *path, bool or_itself)
{
	size_t n = strlen(output);

	if (output[0] != '/' || strstr(path, "/../") || ends_with(path, "/..") ||
	    strstr(path, "/./") || ends_with(path, "/."))
		return false;
	if (strncmp(path, output, n))
		return false;
	return path[n] == '/' ? path[n + 1] != '\0' : or_itself && path[n] == '\0';
}

/*
 * Remove @path, below @output, walking from @output without following a
 * symlink below it: a root owner's job acts with root's rights, and a
 * symlink someone else planted in the output must not take it elsewhere.
 */
static int remove_beneath(const char *output, const char *path)
{
	const char *rel = path + strlen(output) + 1, *slash;
	char name[NAME_MAX + 1];
	int fd, next, ret;

	fd = open(output, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	while ((slash = strchr(rel, '/'))) {
		if (slash == rel) {
			rel++;	/* "a//b" */
			continue;
		}
		if ((size_t)(slash - rel) > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(name, rel, (size_t)(slash - rel));
		name[slash - rel] = '\0';
		next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		ret = -errno;
		close(fd);
		if (next < 0)
			return ret == -ENOENT ? 0 : ret;
		fd = next;
		rel = slash + 1;
	}
	ret = *rel ? remove_at(fd, rel, 0) : -EINVAL;
	close(fd);
	return ret;
}

/* One job with an owner's rights: what OWNER_FILES carries. */
enum job_op {
	JOB_ARCHIVE = 1,
	JOB_REMOVE = 2,
	JOB_REPAIR = 3,
	JOB_LIST = 4,		/* answered with {u32 n, n x str name} */
};

struct job {
	uint8_t op;
	struct ltt_chunk_owner o;
	const char *path;	/* ARCHIVE: the chunk's directory; REMOVE: what goes */
	int64_t begin, end;
	uint64_t id;
};

/* What it answers: ARCHIVE's path, REPAIR's counts, LIST's names. */
struct job_result {
	char path[LTT_PATH_MAX];
	struct ltt_repair_stats st;
	struct ltt_wbuf *names;		/* LIST: {u32 n, n x str} */
};

/* The names in directory @path, into @w: {u32 n, n x str}. */
static int list_names(const char *path, struct ltt_wbuf *w)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t at;
	uint32_t n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	at = w->len;
	ltt_wbuf_put_u32(w, 0);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			ltt_wbuf_put_str(w, e->d_name);
			n++;
		}
	closedir(d);
	if (w->err)
		return -ENOMEM;
	memcpy(w->data + at, &(uint32_t){ htole32(n) }, sizeof(n));
	return 0;
}

/*
 * The job, here, with the owner's rights (as-user.h): a root daemon then
 * never creates, moves or chowns anything in an output where the owner
 * could not, whatever symlinks the owner put in its path.  Nothing to do
 * for a personal daemon (it is the owner) or a root owner.
 */
static int run_here(const struct job *j, struct job_result *res)
{
	struct ltt_as_user ao;
	int ret = ltt_as_user_begin(j->o.uid, j->o.gid, &ao);

	if (ret) {
		ltt_as_user_end(&ao);
		return -EPERM;
	}
	if (j->op == JOB_ARCHIVE)
		ret = archive_files(&j->o, j->path, j->begin, j->id, j->end, res->path);
	else if (j->op == JOB_REMOVE && j->o.uid == 0 && below(j->o.output, j->path, false))
		ret = remove_beneath(j->o.output, j->path);
	else if (j->op == JOB_REMOVE)
		ret = remove_at(AT_FDCWD, j->path, 0);
	else if (j->op == JOB_LIST)
		ret = list_names(j->path, res->names);
	else
		ret = ltt_trace_repair(j->o.output, &res->st);
	ltt_as_user_end(&ao);
	return ret;
}

static void put_job(struct ltt_wbuf *w, const struct job *j)
{
	ltt_wbuf_put_u8(w, j->op);
	ltt_wbuf_put_u32(w, (uint32_t)j->o.uid);
	ltt_wbuf_put_u32(w, (uint32_t)j->o.gid);
	ltt_wbuf_put_str(w, j->o.output);
	ltt_wbuf_put_str(w, j->path ? j->path : "");
	ltt_wbuf_put_u64(w, (uint64_t)j->begin);
	ltt_wbuf_put_u64(w, (uint64_t)j->end);
	ltt_wbuf_put_u64(w, j->id);
}

static void put_result(struct ltt_wbuf *w, const struct job_result *res)
{
	ltt_wbuf_put_str(w, res->path);
	ltt_wbuf_put_u32(w, res->st.dirs);
	ltt_wbuf_put_u32(w, res->st.busy);
	ltt_wbuf_put_u32(w, res->st.cut);
	ltt_wbuf_put_u64(w, res->st.bytes);
	ltt_wbuf_put_u32(w, res->st.errors);
}

static int get_result(struct ltt_rbuf *r, struct job_result *res)
{
	const char *path = ltt_rbuf_get_str(r, LTT_PATH_MAX - 1);

	res->st.dirs = ltt_rbuf_get_u32(r);
	res->st.busy = ltt_rbuf_get_u32(r);
	res->st.cut = ltt_rbuf_get_u32(r);
	res->st.bytes = ltt_rbuf_get_u64(r);
	res->st.errors = ltt_rbuf_get_u32(r);
	if (ltt_rbuf_end(r))
		return -EPROTO;
	snprintf(res->path, sizeof(res->path), "%s", path);
	return 0;
}

/* The job: by the privileged part where the daemon has one, else here. */
static int run(const struct job *j, struct job_result *res)
{
	struct ltt_priv *p = ltt_priv_get();
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!p)
		return run_here(j, res);
	ltt_wbuf_init(&w);
	put_job(&w, j);
	ret = ltt_priv_call(p, LTT_PRIV_OWNER_FILES, &w, &m, &r);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ret = get_result(&r, res);
	ltt_msg_fini(&m);
	return ret;
}

/*
 * The privileged end's sessions (OWNER_ADD): each with the credentials of
 * the client that created it, read off that client's connection, not
 * taken from the daemon's word.
 */
#define MAX_ADMITTED 65536
static struct admitted {
	uint64_t id;
	uid_t uid;
	gid_t gid;
	char *output;
	char *shm;	/* its --shm-path ("" none): SHM_FILE's files only below it */
} *admitted;
static size_t nr_admitted, cap_admitted;
static pid_t serve_daemon;
static char client_sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
static char lttng_sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
static char notif_sock[sizeof(((struct sockaddr_un *)0)->sun_path)];	/* LTTng's, beside it */

void ltt_chunk_owner_serve_daemon(pid_t daemon)
{
	serve_daemon = daemon;
}

void ltt_chunk_owner_serve_clients(const char *path, const char *lttng_path)
{
	const char *slash = lttng_path ? strrchr(lttng_path, '/') : NULL;

	snprintf(client_sock, sizeof(client_sock), "%s", path ? path : "");
	snprintf(lttng_sock, sizeof(lttng_sock), "%s", lttng_path ? lttng_path : "");
	notif_sock[0] = '\0';
	if (slash && snprintf(notif_sock, sizeof(notif_sock), "%.*s/%s", (int)(slash - lttng_path),
			      lttng_path, LTT_LTTNG_NOTIF_SOCKET) >= (int)sizeof(notif_sock))
		notif_sock[0] = '\0';
}

/*
 * A connection a socket the daemon calls client.sock (or LTTng's client
 * socket, --lttng-compat) accepted, as opposed
 * to one the daemon connected itself: SO_PEERCRED on a connecting end
 * reports its listener's credentials, so a dropped daemon that connected
 * to any listener of root's (its own app.sock, bound while it was root)
 * would pass for root.  An accepted socket's own name is its listener's
 * path; a connecting end's is unnamed.
 */
/* Is @path (of a sockaddr_un's size) @sock's, a path set ("" none)? */
static bool named(const char *path, const char *sock)
{
	return sock[0] && !strncmp(path, sock, sizeof(((struct sockaddr_un *)0)->sun_path));
}

/* The peer of @fd, accepted on a client socket (@notif: or on LTTng's notification channel's). */
static int accepted_cred(int fd, bool notif, struct ucred *ret_cred)
{
	struct sockaddr_un a;
	socklen_t alen = sizeof(a), len = sizeof(*ret_cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ret_cred, &len))
		return -errno;
	if (!client_sock[0])
		return 0;	/* a daemon trusted as root: it could do this itself */
	if (getsockname(fd, (struct sockaddr *)&a, &alen) || a.sun_family != AF_UNIX ||
	    alen <= offsetof(struct sockaddr_un, sun_path) ||
	    !(named(a.sun_path, client_sock) || named(a.sun_path, lttng_sock) ||
	      (notif && named(a.sun_path, notif_sock))) ||
	    (serve_daemon > 0 && ret_cred->pid == serve_daemon))
		return -EPERM;
	return 0;
}

int ltt_chunk_owner_client_cred(int fd, struct ucred *ret_cred)
{
	return accepted_cred(fd, false, ret_cred);
}

int ltt_chunk_owner_lttng_cred(int fd, struct ucred *ret_cred)
{
	return accepted_cred(fd, true, ret_cred);
}

/* Was session @id admitted for @uid, @gid? */
bool ltt_chunk_owner_is(uint64_t id, uid_t uid, gid_t gid)
{
	uid_t u;
	gid_t g;

	return !ltt_chunk_owner_serve_owner(id, &u, &g) && u == uid && g == gid;
}

/* Did the daemon give root's rights up (its effective uid, in /proc)? */
static bool daemon_dropped(void)
{
	char path[64], line[256];
	unsigned long ruid, euid;
	bool dropped = true;	/* unreadable: as if it had */
	FILE *f;

	if (serve_daemon <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/status", (long)serve_daemon);
	f = fopen(path, "re");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %lu %lu", &ruid, &euid) == 2) {
			dropped = euid != 0;
			break;
		}
	fclose(f);
	return dropped;
}

bool ltt_chunk_owner_admitted(uid_t uid, gid_t gid, const char *output)
{
	size_t i;

	for (i = 0; output[0] == '/' && i < nr_admitted; i++)
		if (admitted[i].uid == uid && admitted[i].gid == gid &&
		    !strcmp(admitted[i].output, output))
			return true;
	return false;
}

int ltt_chunk_owner_serve_admit(struct ltt_rbuf *r, int fd, struct ltt_wbuf *w)
{
	uint64_t id = ltt_rbuf_get_u64(r);
	const char *output = ltt_rbuf_get_str(r, LTT_PATH_MAX - 1);
	const char *shm = ltt_rbuf_get_str(r, LTT_PATH_MAX - 1);
	struct ucred cred;
	struct admitted *grown;
	uid_t u;
	gid_t g;
	char *copy, *shm_copy;
	int ret;

	/* "": a session with no local output (its probe files only) */
	if (ltt_rbuf_end(r) || (output[0] && output[0] != '/') || (shm[0] && shm[0] != '/'))
		return -EINVAL;
	ret = ltt_chunk_owner_client_cred(fd, &cred);
	if (ret)
		return ret;
	if (!ltt_chunk_owner_serve_owner(id, &u, &g))
		return -EEXIST;		/* an id is admitted once */
	if (nr_admitted == MAX_ADMITTED)
		return -ENOSPC;
	if (nr_admitted == cap_admitted) {
		grown = ltt_array_grow(admitted, &cap_admitted, sizeof(*admitted));
		if (!grown)
			return -ENOMEM;
		admitted = grown;
	}
	copy = strdup(output);
	shm_copy = strdup(shm);
	if (!copy || !shm_copy) {
		free(copy);
		free(shm_copy);
		return -ENOMEM;
	}
	admitted[nr_admitted++] = (struct admitted){ id, cred.uid, cred.gid, copy, shm_copy };
	ltt_wbuf_put_u32(w, cred.uid);
	ltt_wbuf_put_u32(w, cred.gid);
	return 0;
}

int ltt_chunk_owner_serve_owner(uint64_t id, uid_t *ret_uid, gid_t *ret_gid)
{
	size_t i;

	for (i = 0; i < nr_admitted && admitted[i].id != id; i++)
		;
	if (i == nr_admitted)
		return -EPERM;
	*ret_uid = admitted[i].uid;
	*ret_gid = admitted[i].gid;
	return 0;
}

int ltt_chunk_owner_serve_shm(uint64_t id, const char *path, size_t keep, uid_t *ret_uid,
			       gid_t *ret_gid)
{
	size_t i;

	for (i = 0; i < nr_admitted && admitted[i].id != id; i++)
		;
	/* its own tree only, and never a directory above it removed */
	if (i == nr_admitted || !admitted[i].shm[0] || !below(admitted[i].shm, path, true) ||
	    keep < strlen(admitted[i].shm))
		return -EPERM;
	*ret_uid = admitted[i].uid;
	*ret_gid = admitted[i].gid;
	return 0;
}

int ltt_chunk_owner_serve_set_shm(struct ltt_rbuf *r, int fd)
{
	uint64_t id = ltt_rbuf_get_u64(r);
	const char *shm = ltt_rbuf_get_str(r, LTT_PATH_MAX - 1);
	struct ucred cred;
	char *copy;
	size_t i;
	int ret;

	if (ltt_rbuf_end(r) || shm[0] != '/')
		return -EINVAL;
	ret = ltt_chunk_owner_client_cred(fd, &cred);
	if (ret)
		return ret;
	for (i = 0; i < nr_admitted && admitted[i].id != id; i++)
		;
	/* the owner itself, and once */
	if (i == nr_admitted || admitted[i].uid != cred.uid || admitted[i].gid != cred.gid ||
	    admitted[i].shm[0])
		return -EPERM;
	copy = strdup(shm);
	if (!copy)
		return -ENOMEM;
	free(admitted[i].shm);
	admitted[i].shm = copy;
	return 0;
}

int ltt_chunk_owner_serve_forget(struct ltt_rbuf *r)
{
	uint64_t id = ltt_rbuf_get_u64(r);
	size_t i;

	if (ltt_rbuf_end(r))
		return -EPROTO;
	for (i = 0; i < nr_admitted && admitted[i].id != id; i++)
		;
	if (i == nr_admitted)
		return -ENOENT;
	free(admitted[i].output);
	free(admitted[i].shm);
	admitted[i] = admitted[--nr_admitted];
	return 0;
}

void ltt_chunk_owner_serve_fini(void)
{
	while (nr_admitted) {
		nr_admitted--;
		free(admitted[nr_admitted].output);
		free(admitted[nr_admitted].shm);
	}
	free(admitted);
	admitted = NULL;
	cap_admitted = 0;
}

/*
 * Request @type {u64 id, str @s1[, str @s2]} with the client's connection
 * @client_fd: its reply into @ret_m (to ltt_msg_fini()) and @ret_r.
 * Returns 0, 1 when there is nothing to ask (no privileged part, or no
 * client), or the call's -errno.
 */
static int owner_request(int client_fd, enum ltt_priv_request type, uint64_t id, const char *s1,
			 const char *s2, struct ltt_msg *ret_m, struct ltt_rbuf *ret_r)
{
	struct ltt_priv *p = ltt_priv_get();
	struct ltt_wbuf w;
	int ret;

	if (!p || client_fd < 0)
		return 1;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_wbuf_put_str(&w, s1);
	if (s2)
		ltt_wbuf_put_str(&w, s2);
	ret = ltt_priv_call_fd(p, type, &w, client_fd, ret_m, ret_r);
	ltt_wbuf_fini(&w);
	return ret;
}

int ltt_chunk_owner_admit(int client_fd, uint64_t id, const char *output, const char *shm,
			  uid_t uid, gid_t gid)
{
	uint32_t got_uid, got_gid;
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret = owner_request(client_fd, LTT_PRIV_OWNER_ADD, id, output, shm, &m, &r);

	if (ret)
		return ret == 1 ? 0 : ret;
	got_uid = ltt_rbuf_get_u32(&r);
	got_gid = ltt_rbuf_get_u32(&r);
	ret = ltt_rbuf_end(&r) ? -EPROTO : got_uid != uid || got_gid != gid ? -EPERM : 0;
	ltt_msg_fini(&m);
	return ret;
}

int ltt_chunk_owner_set_shm(int client_fd, uint64_t id, const char *shm)
{
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret = owner_request(client_fd, LTT_PRIV_OWNER_SHM, id, shm, NULL, &m, &r);

	if (ret)
		return ret == 1 ? 0 : ret;
	ltt_msg_fini(&m);
	return 0;
}

void ltt_chunk_owner_forget(uint64_t id)
{
	struct ltt_priv *p = ltt_priv_get();
	struct ltt_wbuf w;

	if (!p)
		return;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	ltt_priv_ask(p, LTT_PRIV_OWNER_DROP, &w);
	ltt_wbuf_fini(&w);
}

int ltt_chunk_owner_serve(struct ltt_rbuf *r, struct ltt_wbuf *w)
{
	struct job j = { .op = ltt_rbuf_get_u8(r) };
	struct job_result res = { .path = "" };
	int ret;

	j.o.uid = (uid_t)ltt_rbuf_get_u32(r);
	j.o.gid = (gid_t)ltt_rbuf_get_u32(r);
	j.o.output = ltt_rbuf_get_str(r, LTT_PATH_MAX - 1);
	j.path = ltt_rbuf_get_str(r, LTT_PATH_MAX - 1);
	j.begin = (int64_t)ltt_rbuf_get_u64(r);
	j.end = (int64_t)ltt_rbuf_get_u64(r);
	j.id = ltt_rbuf_get_u64(r);
	if (ltt_rbuf_end(r) || j.op < JOB_ARCHIVE || j.op > JOB_LIST)
		return -EPROTO;
	/* a daemon that gave root's rights up names only its sessions' owners */
	if (daemon_dropped() && !ltt_chunk_owner_admitted(j.o.uid, j.o.gid, j.o.output))
		return -EPERM;
	/* never a path outside the output it names */
	if (!below(j.o.output, j.o.output, true) ||
	    (j.op == JOB_ARCHIVE && !below(j.o.output, j.path, true)) ||
	    ((j.op == JOB_REMOVE || j.op == JOB_LIST) && !below(j.o.output, j.path, false)))
		return -EINVAL;
	res.names = w;
	ret = run_here(&j, &res);
	if (ret)
		return ret;
	if (j.op != JOB_LIST)
		put_result(w, &res);
	return 0;
}

int ltt_chunk_owner_archive(const struct ltt_chunk_owner *o, const char *dir, int64_t begin,
			    uint64_t id, int64_t end, char *ret_path)
{
	struct job j = { .op = JOB_ARCHIVE, .o = *o, .path = dir, .begin = begin, .end = end,
			 .id = id };
	struct job_result res;
	int ret = run(&j, &res);

	snprintf(ret_path, LTT_PATH_MAX, "%s", res.path);
	return ret;
}

int ltt_chunk_owner_remove(const struct ltt_chunk_owner *o, const char *path)
{
	struct job j = { .op = JOB_REMOVE, .o = *o, .path = path };
	struct job_result res;

	return run(&j, &res);
}

int ltt_chunk_owner_list(const struct ltt_chunk_owner *o, const char *dir,
			 void (*fn)(void *arg, const char *name), void *arg)
{
	struct job j = { .op = JOB_LIST, .o = *o, .path = dir };
	struct ltt_priv *p = ltt_priv_get();
	struct job_result res = { .path = "" };
	struct ltt_wbuf names, w;
	struct ltt_rbuf r;
	struct ltt_msg m = { 0 };
	bool called = false;
	uint32_t n;
	int ret;

	ltt_wbuf_init(&names);
	if (p) {
		ltt_wbuf_init(&w);
		put_job(&w, &j);
		ret = ltt_priv_call(p, LTT_PRIV_OWNER_FILES, &w, &m, &r);
		called = !ret;
		ltt_wbuf_fini(&w);
	} else {
		res.names = &names;
		ret = run_here(&j, &res);
		ltt_rbuf_init(&r, names.data, names.len);
	}
	/* an empty answer: no such directory */
	for (n = ret || r.pos == r.len ? 0 : ltt_rbuf_get_u32(&r); n && !r.err; n--) {
		const char *name = ltt_rbuf_get_str(&r, NAME_MAX);

		if (!r.err)
			fn(arg, name);
	}
	if (!ret && r.err)
		ret = -EPROTO;
	if (called)
		ltt_msg_fini(&m);
	ltt_wbuf_fini(&names);
	return ret;
}

int ltt_chunk_owner_repair(const struct ltt_chunk_owner *o, struct ltt_repair_stats *st)
{
	struct job j = { .op = JOB_REPAIR, .o = *o };
	struct job_result res;
	int ret = run(&j, &res);

	*st = res.st;
	return ret;
}
