// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk-journal.c - a local session's chunks kept in the state directory
 * for the next daemon after a crash (see chunk-journal.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/base/durable.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "sessiond/chunk/chunk-journal.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/priv/priv.h"

#define JOURNAL_MAGIC "ltt-chunks 1"
#define JOURNAL_MAX_LEN (64 * 1024)

static char journal_dir[PATH_MAX];
static bool remote;	/* written and removed by the privileged part */
static int lock_fd = -1;	/* @journal_dir's, flock()ed: no other daemon's */

/* @rundir's state directory's journal directory into @buf: 0, 1 ($LTT_STATEDIR's) or -errno. */
static int journal_dir_of(const char *rundir, char *buf, size_t len)
{
	char state[PATH_MAX];
	int given = ltt_state_dir(rundir, state, sizeof(state));

	if (given < 0)
		return given;
	return ltt_path_join(buf, len, state, "chunks") ? -ENAMETOOLONG : given;
}

int ltt_chunk_journal_dir(const char *rundir, char *buf, size_t len)
{
	int ret = journal_dir_of(rundir, buf, len);

	return ret < 0 ? ret : 0;
}

/*
 * @journal_dir made and its flock() taken into @lock_fd: 0, -EWOULDBLOCK
 * (another daemon's), or -errno.  A directory removed between its open
 * and its lock (a daemon that stopped removes it when empty) is made
 * again and locked again: the lock is on the directory of that name.
 */
static int lock_journal_dir(void)
{
	struct stat held, named;
	int tries, ret = -ESTALE;

	for (tries = 0; tries < 8 && ret == -ESTALE; tries++) {
		ltt_fd_close(&lock_fd);
		if (mkdir(journal_dir, 0700) && errno != EEXIST)
			return -errno;
		lock_fd = open(journal_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) || fstat(lock_fd, &held))
			return -errno;
		ret = stat(journal_dir, &named) ? -ESTALE :
		      held.st_dev == named.st_dev && held.st_ino == named.st_ino ? 0 : -ESTALE;
	}
	return ret;
}

int ltt_chunk_journal_init(const char *rundir)
{
	/* a $LTT_STATEDIR not absolute: refused with the options (-EINVAL) */
	int given = journal_dir_of(rundir, journal_dir, sizeof(journal_dir));
	const char *state = getenv(LTT_STATEDIR_ENV);
	int ret = given < 0 ? given : 0;

	if (ret)	/* a path too long for its journals' names */
		LTT_ERR("can't keep journals below %s: %s", state && *state ? state : rundir,
			strerror(-ret));
	/* $LTT_STATEDIR made as asked; the run directory exists */
	if (!ret && given > 0) {
		ret = ltt_mkdir_p(state, 0700);
		if (ret)
			LTT_ERR("%s=%s: can't make it (%s): give a directory the daemon can write, or unset %s to keep the journals in the run directory",
				LTT_STATEDIR_ENV, state, strerror(-ret), LTT_STATEDIR_ENV);
	} else if (!ret) {
		state = NULL;
	}
	if (!ret) {
		ret = lock_journal_dir();
		if (ret == -EWOULDBLOCK) {
			/* two run directories, one state directory: each would repair the other's */
			LTT_ERR("%s: another session daemon keeps its journals there: give each daemon a state directory of its own (%s)",
				journal_dir, LTT_STATEDIR_ENV);
			ret = -EBUSY;
		} else if (ret && state) {
			LTT_ERR("%s=%s: can't keep the journals in %s (%s): give a directory the daemon can write, or unset %s to keep them in the run directory",
				LTT_STATEDIR_ENV, state, journal_dir, strerror(-ret), LTT_STATEDIR_ENV);
		} else if (ret) {
			LTT_ERR("can't keep journals in %s (%s): a crash will leave traces unrepaired and chunks unarchived",
				journal_dir, strerror(-ret));
		}
	}
	if (ret) {
		ltt_fd_close(&lock_fd);
		journal_dir[0] = '\0';
	}
	/* a state directory given must serve (the daemon stops); the run directory's may fail */
	return ret == -EBUSY || state ? ret : 0;
}

void ltt_chunk_journal_remote(void)
{
	remote = journal_dir[0] != '\0' && ltt_priv_get();
}

/* JOURNAL_WRITE of @text, JOURNAL_REMOVE without: 0 or a negative errno. */
static int ask_priv(enum ltt_priv_request type, uint64_t id, const char *text)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, id);
	if (text)
		ltt_wbuf_put_str(&w, text);
	ret = ltt_priv_ask(ltt_priv_get(), type, &w);
	ltt_wbuf_fini(&w);
	return ret;
}

static int journal_path(const struct ltt_session *session, char *buf, size_t len)
{
	if (!journal_dir[0])
		return -ENOENT;
	return (size_t)snprintf(buf, len, "%s/%ld-%" PRIu64, journal_dir, (long)getpid(),
				session->id) >= len ? -ENAMETOOLONG : 0;
}

static bool journaled(const struct ltt_session *session)
{
	return session->output_type == LTT_OUTPUT_LOCAL && !session->snapshot;
}

void ltt_chunk_journal_write(const struct ltt_session *session,
			     const struct ltt_chunk_left *chunks, const int64_t *ends,
			     unsigned int n)
{
	char path[PATH_MAX], *text;
	size_t len = 0, cap = JOURNAL_MAX_LEN;
	unsigned int i;
	int ret;

	if (!journaled(session) || journal_path(session, path, sizeof(path)))
		return;
	text = malloc(cap);
	if (!text) {
		LTT_ERR_RL("session '%s': no memory to journal its chunks", session->name);
		return;
	}
	len += (size_t)snprintf(text + len, cap - len, "%s\nuid %u\ngid %u\nname %s\noutput %s\n",
				JOURNAL_MAGIC, (unsigned int)session->uid,
				(unsigned int)session->gid, session->name, session->output);
	for (i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"chunk %" PRIu64 " %" PRId64 " %" PRId64 " %s\n",
					chunks[i].id, chunks[i].begin, ends[i], chunks[i].dir);
	ret = len >= cap || strchr(session->output, '\n') ? -EINVAL :
	      remote ? ask_priv(LTT_PRIV_JOURNAL_WRITE, session->id, text) :
	      ltt_file_replace(path, text, len, 0600);
	free(text);
	if (ret)
		LTT_ERR_RL("session '%s': can't journal its chunks in %s (%s): a crash would leave them unarchived",
			   session->name, path, strerror(-ret));
}

void ltt_chunk_journal_write_live(const struct ltt_session *session)
{
	struct ltt_chunk_left chunks[LTT_CHUNK_JOURNAL_MAX];
	int64_t ends[LTT_CHUNK_JOURNAL_MAX] = { 0 };
	unsigned int n;

	for (n = 0; n < session->nr_left; n++)
		chunks[n] = session->left[n];
	strcpy(chunks[n].dir, session->chunk_dir);
	chunks[n].begin = session->chunk_begin;
	chunks[n].id = session->chunk_id;
	chunks[n].idle = false;
	ltt_chunk_journal_write(session, chunks, ends, n + 1);
}

void ltt_chunk_journal_remove(const struct ltt_session *session)
{
	char path[PATH_MAX];

	int ret;

	if (!journaled(session) || journal_path(session, path, sizeof(path)))
		return;
	ret = remote ? ask_priv(LTT_PRIV_JOURNAL_REMOVE, session->id, NULL) :
	      unlink(path) ? -errno : 0;
	if (ret && ret != -ENOENT)
		LTT_WARN("session '%s': can't remove its chunk journal %s: %s", session->name, path,
			 strerror(-ret));
}

void ltt_chunk_journal_fini(void)
{
	/* remote: the privileged part removes it at a clean stop (daemon/priv-table.c) */
	if (journal_dir[0] && !remote && rmdir(journal_dir) && errno != ENOTEMPTY &&
	    errno != ENOENT)
		LTT_WARN("can't remove %s: %s", journal_dir, strerror(errno));
	ltt_fd_close(&lock_fd);
}

/* The value of line "KEY VALUE" at *@pos (advanced past it), or NULL. */
static char *take_line(char **pos, const char *key)
{
	char *line = *pos, *nl = strchr(line, '\n');
	size_t klen = strlen(key);

	if (!nl)
		return NULL;
	*nl = '\0';
	*pos = nl + 1;
	if (strncmp(line, key, klen) || line[klen] != ' ')
		return NULL;
	return line + klen + 1;
}

/* Parse journal @text into @s and @chunks; the number of chunks, or -EPROTO. */
static int parse(char *text, struct ltt_session *s, struct ltt_chunk_left *chunks, int64_t *ends)
{
	char *pos = text, *v, *end;
	unsigned int n = 0;
	int used;

	if (strncmp(text, JOURNAL_MAGIC "\n", sizeof(JOURNAL_MAGIC)))
		return -EPROTO;
	pos += sizeof(JOURNAL_MAGIC);
	if (!(v = take_line(&pos, "uid")))
		return -EPROTO;
	s->uid = (uid_t)strtoul(v, NULL, 10);
	if (!(v = take_line(&pos, "gid")))
		return -EPROTO;
	s->gid = (gid_t)strtoul(v, NULL, 10);
	if (!(v = take_line(&pos, "name")) || strlen(v) >= sizeof(s->name))
		return -EPROTO;
	strcpy(s->name, v);
	if (!(v = take_line(&pos, "output")) || !*v || strlen(v) >= sizeof(s->output))
		return -EPROTO;
	strcpy(s->output, v);
	while (*pos && n < LTT_CHUNK_JOURNAL_MAX) {
		if (!(v = take_line(&pos, "chunk")) ||
		    sscanf(v, "%" SCNu64 " %" SCNd64 " %" SCNd64 " %n", &chunks[n].id,
			   &chunks[n].begin, &ends[n], &used) != 3)
			return -EPROTO;
		end = v + used;
		if (strlen(end) >= sizeof(chunks[n].dir))
			return -EPROTO;
		strcpy(chunks[n].dir, end);
		chunks[n++].idle = true;
	}
	return n ? (int)n : -EPROTO;
}

/* Read journal @name of the journal directory; its text (free()), or NULL. */
static char *load(int dir_fd, const char *name)
{
	char *text = NULL;
	struct stat st;
	ssize_t got;
	int fd;

	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size < JOURNAL_MAX_LEN)
		text = malloc((size_t)st.st_size + 1);
	if (text) {
		got = pread(fd, text, (size_t)st.st_size, 0);
		if (got != st.st_size) {
			free(text);
			text = NULL;
		} else {
			text[got] = '\0';
		}
	}
	close(fd);
	return text;
}

static void recover_one(int dir_fd, const char *name, ltt_chunk_recover_fn *recover)
{
	struct ltt_chunk_left chunks[LTT_CHUNK_JOURNAL_MAX];
	int64_t ends[LTT_CHUNK_JOURNAL_MAX];
	struct ltt_session *s = calloc(1, sizeof(*s));
	char *text = load(dir_fd, name);
	int n = -ENOMEM;

	if (s && text)
		n = parse(text, s, chunks, ends);
	if (n < 0) {
		LTT_WARN("chunk journal %s/%s unreadable (%s): removed", journal_dir, name,
			 strerror(n == -ENOMEM ? ENOMEM : EPROTO));
	} else {
		s->output_type = LTT_OUTPUT_LOCAL;
		/* a daemon died: said as the relay says it, not only with -v */
		LTT_WARN("session '%s' of a daemon that died: its traces in %s are made whole",
			 s->name, s->output);
		recover(s, chunks, ends, (unsigned int)n, (int64_t)time(NULL));
	}
	if (unlinkat(dir_fd, name, 0) && errno != ENOENT)
		LTT_WARN("can't remove chunk journal %s/%s: %s", journal_dir, name, strerror(errno));
	free(text);
	free(s);
}

/* The journal of session @id of @daemon in @rundir's journal directory, into @buf. */
static int served_path(const char *rundir, pid_t daemon, uint64_t id, char *buf, size_t len)
{
	char dir[PATH_MAX];
	int ret;

	if (!rundir[0])
		return -ENOENT;
	ret = journal_dir_of(rundir, dir, sizeof(dir));
	if (ret < 0)
		return ret;
	return (size_t)snprintf(buf, len, "%s/%ld-%" PRIu64, dir, (long)daemon, id) >= len ?
	       -ENAMETOOLONG : 0;
}

int ltt_chunk_journal_serve_write(const char *rundir, pid_t daemon, struct ltt_rbuf *r)
{
	struct ltt_chunk_left chunks[LTT_CHUNK_JOURNAL_MAX];
	int64_t ends[LTT_CHUNK_JOURNAL_MAX];
	uint64_t id = ltt_rbuf_get_u64(r);
	const char *text = ltt_rbuf_get_str(r, JOURNAL_MAX_LEN - 1);
	struct ltt_session *s = calloc(1, sizeof(*s));
	char *copy = strdup(text), path[PATH_MAX];
	int ret = -ENOMEM;

	if (ltt_rbuf_end(r))
		ret = -EPROTO;
	else if (s && copy)
		ret = parse(copy, s, chunks, ends) < 0 ? -EINVAL :
		      /* only what the next start may do with an owner's rights */
		      !ltt_chunk_owner_admitted(s->uid, s->gid, s->output) ||
		      !ltt_chunk_owner_is(id, s->uid, s->gid) ? -EPERM :
		      served_path(rundir, daemon, id, path, sizeof(path));
	if (!ret)
		ret = ltt_file_replace(path, text, strlen(text), 0600);
	free(copy);
	free(s);
	return ret;
}

int ltt_chunk_journal_serve_remove(const char *rundir, pid_t daemon, struct ltt_rbuf *r)
{
	uint64_t id = ltt_rbuf_get_u64(r);
	char path[PATH_MAX];
	int ret;

	if (ltt_rbuf_end(r))
		return -EPROTO;
	ret = served_path(rundir, daemon, id, path, sizeof(path));
	if (!ret && unlink(path))
		ret = -errno;
	return ret;
}

void ltt_chunk_journal_recover(ltt_chunk_recover_fn *recover)
{
	struct dirent *de;
	DIR *dir;
	int fd;

	if (!journal_dir[0])
		return;
	fd = open(journal_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strstr(de->d_name, ".tmp-"))
			continue;
		recover_one(dirfd(dir), de->d_name, recover);
	}
	rewinddir(dir);
	while ((de = readdir(dir)))	/* a crash inside ltt_file_replace() */
		if (strstr(de->d_name, ".tmp-"))
			unlinkat(dirfd(dir), de->d_name, 0);
	closedir(dir);
}
