// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk.c - trace chunks of a local session (see chunk.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/evloop.h"
#include "common/log.h"
#include "common/relay-proto.h"
#include "common/uri.h"
#include "sessiond/chunk.h"
#include "sessiond/relay.h"

/* "20261122T173000+0000": LTTng's ISO 8601 form of a chunk's times. */
#define STAMP_MAX 32

static void stamp(int64_t when, char buf[STAMP_MAX])
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, STAMP_MAX, "%Y%m%dT%H%M%S%z", &tm))
		strcpy(buf, "19700101T000000+0000");
}

/* Why @session can't rotate (or be cleared: @clear), or LTT_ERR_OK. */
static enum ltt_error_code refusal(const struct ltt_session *session, bool clear)
{
	/* first: a snapshot session's output type is NONE (its output is the snapshots') */
	if (session->snapshot)
		return clear ? LTT_ERR_NOT_SUPPORTED : LTT_ERR_ROTATE_SNAPSHOT;
	if (session->output_type != LTT_OUTPUT_LOCAL && session->output_type != LTT_OUTPUT_NET)
		return LTT_ERR_ROTATE_OUTPUT;
	if (!session->chunk_begin && !clear)
		return LTT_ERR_ROTATE_NEVER_STARTED;
	return LTT_ERR_OK;
}

uint64_t ltt_chunk_written(const struct ltt_domains *set, struct ltt_session *session)
{
	struct ltt_domain_impl *d;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (d && d->ops->written && session->domains[i].nr_channels)
			sum += d->ops->written(d, session);
	}
	return sum;
}

void ltt_chunk_started(const struct ltt_domains *set, struct ltt_session *session)
{
	if (!session->chunk_begin) {
		session->chunk_begin = (int64_t)time(NULL);
		session->rotate_written = 0;
	}
	if (session->rotate_timer_us)
		session->rotate_next_ns = ltt_evloop_now_ns() + session->rotate_timer_us * 1000;
}

/* Make @path (a directory of @session's output) owned by the session's owner. */
static int mkdir_owned(const struct ltt_session *session, const char *path)
{
	if (mkdir(path, 0770) && errno != EEXIST)
		return -errno;
	if ((session->uid != geteuid() || session->gid != getegid()) &&
	    lchown(path, session->uid, session->gid))
		return -errno;
	return 0;
}

/* Move @name, one of chunk 0's traces at the output's top, into @archive. */
static int move_chunk0_entry(const struct ltt_session *session, const char *archive,
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
 * kernel-N/ a kernel trace took when kernel/ held one (kernel.c).
 */
static int archive_chunk0(const struct ltt_session *session, const char *archive)
{
	char name[32];
	unsigned int n;
	int ret, first;

	first = move_chunk0_entry(session, archive, "ust");
	ret = move_chunk0_entry(session, archive, "kernel");
	first = first ? first : ret;
	for (n = 1; n < 100; n++) {
		snprintf(name, sizeof(name), "kernel-%u", n);
		ret = move_chunk0_entry(session, archive, name);
		first = first ? first : ret;
	}
	return first;
}

/* The supplementary groups a thread of the daemon had before it became a session's owner. */
#define AS_OWNER_GROUPS 256

struct as_owner {
	bool changed;
	int nr_groups;
	gid_t groups[AS_OWNER_GROUPS];
};

/*
 * Have this thread (only: the raw system calls, not glibc's wrappers
 * that change every thread) work on files with @session's owner's rights:
 * its fsuid, fsgid and supplementary groups.  A root daemon then never
 * creates, moves or chowns anything in an output where the owner could
 * not, whatever symlinks the owner put in its path (the kernel drops the
 * file capabilities while the fsuid is not 0).  Nothing to do for a
 * personal daemon (it is the owner) or a root owner.  Returns 0 or -errno
 * (nothing changed).
 */
static int as_owner_begin(const struct ltt_session *session, struct as_owner *o)
{
	gid_t groups[AS_OWNER_GROUPS];
	struct passwd pw, *res = NULL;
	int n = AS_OWNER_GROUPS;
	char buf[4096];

	o->changed = false;
	if (geteuid() != 0 || session->uid == 0)
		return 0;
	o->nr_groups = getgroups(AS_OWNER_GROUPS, o->groups);
	if (o->nr_groups < 0)
		return -errno;
	if (getpwuid_r(session->uid, &pw, buf, sizeof(buf), &res) || !res ||
	    getgrouplist(res->pw_name, session->gid, groups, &n) < 0) {
		groups[0] = session->gid;	/* unknown user, or too many groups: the primary one */
		n = 1;
	}
	if (syscall(SYS_setgroups, (size_t)n, groups))
		return -errno;
	setfsgid(session->gid);
	setfsuid(session->uid);
	o->changed = true;
	if ((uid_t)setfsuid((uid_t)-1) != session->uid || (gid_t)setfsgid((gid_t)-1) != session->gid)
		return -EPERM;	/* the caller still calls as_owner_end() */
	return 0;
}

/* Back to the daemon's own rights after as_owner_begin(). */
static void as_owner_end(struct as_owner *o)
{
	if (!o->changed)
		return;
	setfsuid(0);
	setfsgid(0);
	if (syscall(SYS_setgroups, (size_t)o->nr_groups, o->groups))
		LTT_ERR("can't restore this thread's groups: %s", strerror(errno));
}

static int archive_files(struct ltt_session *session, int64_t end, char *ret_path);

/*
 * Archive the current chunk, which ended at @end: into
 * OUTPUT/archives/BEGIN-END-N (@ret_path), with the session's owner's
 * rights.  Returns 0 or -errno.
 */
static int archive(struct ltt_session *session, int64_t end, char *ret_path)
{
	struct as_owner o;
	int ret = as_owner_begin(session, &o);

	if (!ret)
		ret = archive_files(session, end, ret_path);
	as_owner_end(&o);
	return ret;
}

static int archive_files(struct ltt_session *session, int64_t end, char *ret_path)
{
	char begin_s[STAMP_MAX], end_s[STAMP_MAX], dir[LTT_PATH_MAX];
	int ret;

	stamp(session->chunk_begin, begin_s);
	stamp(end, end_s);
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", session->output, LTT_CHUNK_ARCHIVES_DIR) >=
		    sizeof(dir) ||
	    (size_t)snprintf(ret_path, LTT_PATH_MAX, "%s/%s-%s-%" PRIu64, dir, begin_s, end_s,
			     session->chunk_id) >= LTT_PATH_MAX)
		return -ENAMETOOLONG;
	ret = mkdir_owned(session, session->output);
	if (!ret)
		ret = mkdir_owned(session, dir);
	if (ret)
		return ret;
	if (session->chunk_id == 0) {
		ret = mkdir_owned(session, ret_path);
		return ret ? ret : archive_chunk0(session, ret_path);
	}
	if (!rename(session->chunk_dir, ret_path))
		return 0;
	/* a chunk no trace wrote into has no directory: an empty archive */
	return errno == ENOENT ? mkdir_owned(session, ret_path) : -errno;
}

static enum ltt_error_code archive_error(int err)
{
	switch (err) {
	case -ENOSPC:
	case -EDQUOT:
		return LTT_ERR_OUTPUT_NO_SPACE;
	case -EACCES:
	case -EPERM:
		return LTT_ERR_OUTPUT_ACCESS;
	case -EROFS:
		return LTT_ERR_OUTPUT_READ_ONLY;
	case -ENOENT:
	case -ENOTDIR:
		return LTT_ERR_OUTPUT_GONE;
	case -ENOMEM:
		return LTT_ERR_NOMEM;
	default:
		return LTT_ERR_OUTPUT_IO;
	}
}

/* Each domain with channels moves its traces (or clears them); the first error. */
static int rotate_domains(const struct ltt_domains *set, struct ltt_session *session,
			  const char *new_root, bool clear)
{
	struct ltt_domain_impl *d;
	int ret = 0, err;
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (!d || !session->domains[i].nr_channels)
			continue;
		err = d->ops->rotate ? d->ops->rotate(d, session, clear ? NULL : session->chunk_dir,
						      new_root, clear) : -EOPNOTSUPP;
		ret = ret ? ret : err;
	}
	return ret;
}

/* @session's traces moved to the chunk at @new_root, begun at @now. */
static void next_chunk(const struct ltt_domains *set, struct ltt_session *session,
		       const char *new_root, int64_t now)
{
	strcpy(session->chunk_dir, new_root);
	session->chunk_id++;
	session->chunk_begin = now;
	session->rotate_written = ltt_chunk_written(set, session);
	if (session->rotate_timer_us)
		session->rotate_next_ns = ltt_evloop_now_ns() + session->rotate_timer_us * 1000;
}

/*
 * May @session's relay archive chunks (relay protocol 2.12)?  A new
 * connection asks it (at most LTT_RELAY_CHECK_TIMEOUT_MS): a relay
 * too old is refused before anything moves.
 */
static enum ltt_error_code net_refusal(const struct ltt_domains *set,
				       const struct ltt_session *session)
{
	const struct ltt_domain_impl *d = set->v[LTT_DOMAIN_IDX_USER];
	uint32_t minor = 0;
	struct ltt_uri uri;
	int err;

	if (session->domains[LTT_DOMAIN_IDX_KERNEL].nr_channels)
		return LTT_ERR_ROTATE_NET_KERNEL;
	if (!d || !d->ops->relay_archive)
		return LTT_ERR_NOT_SUPPORTED;
	if (ltt_uri_parse(session->output, &uri))
		return LTT_ERR_URL;
	err = ltt_relay_check(&uri, LTT_RELAY_CHECK_TIMEOUT_MS, &minor);
	if (err)
		return ltt_relay_error_code(err);
	return minor < LTT_RELAY_MINOR_ARCHIVE ? LTT_ERR_RELAY_NO_ROTATE : LTT_ERR_OK;
}

/*
 * Rotate a session streamed to a relay: its traces move to the relay
 * directory BEGIN-N (relative to the relay session's), then the relay
 * archives the old chunk's, "ust" or "BEGIN-(N-1)/ust", as
 * archives/BEGIN-END-(N-1)/ust once the old streams are closed and
 * written; with @clear it deletes it instead.  @ret_archive gets the
 * archive's directory on the relay's host.
 */
static enum ltt_error_code net_rotate(const struct ltt_domains *set,
				      struct ltt_session *session, bool clear, char *ret_archive)
{
	char new_root[LTT_PATH_MAX], begin_s[STAMP_MAX], end_s[STAMP_MAX];
	char from[LTT_PATH_MAX], to[LTT_PATH_MAX], dir[LTT_PATH_MAX] = "";
	struct ltt_domain_impl *d = set->v[LTT_DOMAIN_IDX_USER];
	enum ltt_error_code code = net_refusal(set, session);
	int64_t now = (int64_t)time(NULL);
	int ret;

	if (code)
		return code;
	stamp(session->chunk_begin, begin_s);
	stamp(now, end_s);
	if ((size_t)snprintf(new_root, sizeof(new_root), "%s-%" PRIu64, end_s,
			     session->chunk_id + 1) >= sizeof(new_root) ||
	    (size_t)snprintf(from, sizeof(from), "%s%sust", session->chunk_dir,
			     session->chunk_dir[0] ? "/" : "") >= sizeof(from) ||
	    (size_t)snprintf(to, sizeof(to), "%s/%s-%s-%" PRIu64 "/ust", LTT_CHUNK_ARCHIVES_DIR,
			     begin_s, end_s, session->chunk_id) >= sizeof(to))
		return LTT_ERR_INVAL;
	if (clear)
		to[0] = '\0';
	ret = d->ops->rotate(d, session, session->chunk_dir, new_root, false);
	if (!ret)
		ret = d->ops->relay_archive(d, session, from, to, dir, sizeof(dir));
	if (ret) {
		LTT_ERR("session '%s': chunk %" PRIu64 " can't be %s on the relay: %s",
			session->name, session->chunk_id, clear ? "discarded" : "archived",
			strerror(-ret));
		return ret == -EOPNOTSUPP || ret == -EPROTONOSUPPORT ? LTT_ERR_RELAY_NO_ROTATE :
		       ret == -ECONNRESET ? LTT_ERR_RELAY_LOST : LTT_ERR_ROTATE_INCOMPLETE;
	}
	next_chunk(set, session, new_root, now);
	if (clear) {
		LTT_INFO("session '%s' cleared: the relay discarded %s", session->name, from);
		return LTT_ERR_OK;
	}
	*strrchr(to, '/') = '\0';
	if ((size_t)snprintf(ret_archive, LTT_PATH_MAX, "%s/%s", dir, to) >= LTT_PATH_MAX)
		ret_archive[0] = '\0';
	strcpy(session->last_archive, ret_archive);
	LTT_INFO("session '%s': trace chunk archived by the relay in %s", session->name,
		 ret_archive);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_chunk_rotate(const struct ltt_domains *set, struct ltt_session *session,
				     char *ret_archive)
{
	char new_root[LTT_PATH_MAX], begin_s[STAMP_MAX], path[LTT_PATH_MAX];
	enum ltt_error_code code = refusal(session, false);
	int64_t now = (int64_t)time(NULL);
	int moved, ret;

	if (code)
		return code;
	if (session->output_type == LTT_OUTPUT_NET)
		return net_rotate(set, session, false, ret_archive);
	stamp(now, begin_s);
	if ((size_t)snprintf(new_root, sizeof(new_root), "%s/%s-%" PRIu64, session->output,
			     begin_s, session->chunk_id + 1) >= sizeof(new_root))
		return LTT_ERR_INVAL;
	moved = rotate_domains(set, session, new_root, false);
	ret = archive(session, now, path);
	if (ret) {
		LTT_ERR("session '%s': chunk %" PRIu64 " (%s) can't be archived: %s", session->name,
			session->chunk_id, session->chunk_dir, strerror(-ret));
		if (moved)
			return LTT_ERR_ROTATE_INCOMPLETE;
		code = archive_error(ret);
	}
	/* the traces are in the new chunk either way */
	next_chunk(set, session, new_root, now);
	if (ret)
		return code;
	strcpy(session->last_archive, path);
	strcpy(ret_archive, path);
	LTT_INFO("session '%s': trace chunk archived in %s%s", session->name, path,
		 moved ? " (some traces could not move: they stay in it)" : "");
	return moved ? LTT_ERR_ROTATE_INCOMPLETE : LTT_ERR_OK;
}

enum ltt_error_code ltt_chunk_clear(const struct ltt_domains *set, struct ltt_session *session)
{
	enum ltt_error_code code = refusal(session, true);
	int ret;

	if (code)
		return code;
	if (!session->chunk_begin)
		return LTT_ERR_OK;	/* nothing recorded yet */
	if (session->output_type == LTT_OUTPUT_NET)
		return net_rotate(set, session, true, NULL);
	ret = rotate_domains(set, session, NULL, true);
	if (ret) {
		LTT_ERR("session '%s': not every trace could be cleared: %s", session->name,
			strerror(-ret));
		return ret == -EOPNOTSUPP ? LTT_ERR_NOT_SUPPORTED : LTT_ERR_CONSUMERD;
	}
	session->rotate_written = ltt_chunk_written(set, session);
	LTT_INFO("session '%s' cleared", session->name);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_chunk_regenerate_metadata(const struct ltt_domains *set,
						  struct ltt_session *session)
{
	struct ltt_domain_impl *d;
	int ret = 0, err;
	size_t i;

	if (session->snapshot)
		return LTT_ERR_NOT_SUPPORTED;	/* not yet: each snapshot has the metadata as sent */
	if (session->output_type != LTT_OUTPUT_LOCAL)
		return LTT_ERR_ROTATE_OUTPUT;
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (d && session->domains[i].nr_channels && !d->ops->regenerate_metadata)
			return LTT_ERR_NOT_SUPPORTED;
	}
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (!d || !session->domains[i].nr_channels)
			continue;
		err = d->ops->regenerate_metadata(d, session);
		ret = ret ? ret : err;
	}
	if (ret == -EOPNOTSUPP)
		return LTT_ERR_NOT_SUPPORTED;
	return ret ? LTT_ERR_CONSUMERD : LTT_ERR_OK;
}

void ltt_chunk_destroyed(struct ltt_session *session)
{
	char path[LTT_PATH_MAX];
	int ret;

	if (session->output_type != LTT_OUTPUT_LOCAL || !session->chunk_id)
		return;
	ret = archive(session, (int64_t)time(NULL), path);
	if (ret)
		LTT_ERR("session '%s': its last trace chunk (%s) can't be archived: %s",
			session->name, session->chunk_dir, strerror(-ret));
	else
		LTT_INFO("session '%s': last trace chunk archived in %s", session->name, path);
}
