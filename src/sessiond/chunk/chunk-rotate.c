// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk-rotate.c - trace chunks of a session, local or streamed to a relay (see
 * chunk.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/base/durable.h"
#include "common/base/errmap.h"
#include "common/base/evloop.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/base/output-error.h"
#include "common/model/uri.h"
#include "common/proto/relay-proto.h"
#include "common/trace/trace-repair.h"
#include "sessiond/chunk/chunk-journal.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/model/trigger.h"
#include "sessiond/ctrace/trace-host.h"
#include "sessiond/consumer/relay.h"

/* @session's owner and output, as chunk-owner.c takes them */
#define OWNER(session) \
	((struct ltt_chunk_owner){ .uid = (session)->uid, .gid = (session)->gid, \
				   .output = (session)->output })

/* Why @session can't rotate (or be cleared: @clear), or LTT_ERR_OK. */
static enum ltt_error_code refusal(const struct ltt_session *session, bool clear)
{
	/* first: a snapshot session's output type is NONE (its output is the snapshots') */
	if (session->snapshot && !clear)
		return session->snapshot_mode ? LTT_ERR_ROTATE_SNAPSHOT : LTT_ERR_ROTATE_OUTPUT;
	if (session->snapshot)
		return LTT_ERR_OK;	/* a clear empties its buffers */
	if (session->live_timer_us && !clear)
		return LTT_ERR_ROTATE_LIVE;	/* as LTTng (a clear is taken) */
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

void ltt_chunk_timer_arm(struct ltt_session *session)
{
	uint64_t now = ltt_evloop_now_ns();
	/* at most UINT64_MAX: ltt_attr_check_rotation() takes no more than UINT64_MAX / 1000 us */
	uint64_t period = session->rotate_timer_us * 1000;

	/* saturated: now + period wrapped past 2^64 ns, and rotated at every tick */
	session->rotate_next_ns = period > UINT64_MAX - now ? UINT64_MAX : now + period;
}

void ltt_chunk_started(const struct ltt_domains *set, struct ltt_session *session)
{
	session->cleared_stopped = false;
	if (!session->chunk_begin || session->rotated_stopped) {
		/* the first chunk, or the one a rotation of the stopped session began */
		session->rotate_written = session->chunk_begin ? ltt_chunk_written(set, session) : 0;
		session->rotated_stopped = false;
		session->chunk_begin = (int64_t)time(NULL);
		ltt_chunk_journal_write_live(session);
	}
	if (session->rotate_timer_us)
		ltt_chunk_timer_arm(session);
	ltt_session_wake(session);	/* a schedule or a trigger may want the tick now */
}


/*
 * How the relay of a session streamed to one archives a domain's part of
 * a chunk: @fn has it move @from (a directory of the relay session's) to
 * @to ("": delete it), waits until it did, and gives the relay session's
 * directory in @ret_dir; 0 or -errno.  Each domain streams through its
 * own consumer and relay session (both in one relay directory): it
 * archives its own traces, CHUNK/kernel or CHUNK/ust (@domain:
 * LTT_DOMAIN_IDX_*).
 */
struct ltt_chunk_relay {
	int (*fn)(void *arg, const char *from, const char *to, char *ret_dir, size_t len);
	void *arg;
	int domain;
};

/* The relays that archive a net:// session's chunks: one per domain with channels. */
struct relays {
	unsigned int n;
	struct ltt_chunk_relay v[LTT_NR_DOMAINS];
};

static int relay_chunk(const struct relays *rs, struct ltt_chunk_left *chunk, int64_t end,
		       char *ret_path);

int ltt_chunk_remove_tree(const struct ltt_session *session, const char *path)
{
	return ltt_chunk_owner_remove(&OWNER(session), path);
}

int ltt_chunk_list_dir(const struct ltt_session *session, const char *dir,
		       void (*fn)(void *arg, const char *name), void *arg)
{
	return ltt_chunk_owner_list(&OWNER(session), dir, fn, arg);
}

/* @session's current chunk, as a chunk left would be remembered. */
static void current_chunk(const struct ltt_session *session, struct ltt_chunk_left *ret)
{
	memset(ret, 0, sizeof(*ret));
	strcpy(ret->dir, session->chunk_dir);
	ret->begin = session->chunk_begin;
	ret->id = session->chunk_id;
}

/*
 * Archive @chunk, which ended at @end: into OUTPUT/archives/BEGIN-END-N
 * (@ret_path), with the session's owner's rights; or, for a session
 * streamed to a relay, have the relays do it through @rs (@ret_path: the
 * archive on the relay's host; @chunk->relayed records each domain's
 * part archived).  Returns 0 or -errno.
 */
static int archive(const struct relays *rs, struct ltt_session *session,
		   struct ltt_chunk_left *chunk, int64_t end, char *ret_path)
{
	if (session->output_type == LTT_OUTPUT_NET)
		return rs ? relay_chunk(rs, chunk, end, ret_path) : -EOPNOTSUPP;
	return ltt_chunk_owner_archive(&OWNER(session), chunk->dir, chunk->begin, chunk->id, end,
				       ret_path);
}

/* The directory of domain @idx's traces in a chunk. */
static const char *domain_subdir(int idx)
{
	return idx == LTT_DOMAIN_IDX_KERNEL ? "kernel" : "ust";
}

/*
 * One domain's part of a chunk of a session streamed to a relay: its
 * relay moves the domain's directory ("kernel" or "ust" for chunk 0, else
 * "BEGIN-N/kernel", relative to the relay session's directory) to
 * archives/BEGIN-END-N/kernel once every stream there is closed and every
 * packet of them written; @end 0: it deletes it instead (a clear).
 * @ret_path (not NULL when @end): the archive's directory on the relay's
 * host.
 */
static int relay_chunk_part(const struct ltt_chunk_relay *r, const struct ltt_chunk_left *chunk,
			    int64_t end, char *ret_path)
{
	char begin_s[LTT_CHUNK_STAMP_MAX], end_s[LTT_CHUNK_STAMP_MAX];
	char from[LTT_PATH_MAX], to[LTT_PATH_MAX];
	const char *sub = domain_subdir(r->domain);
	char dir[LTT_PATH_MAX] = "";
	int ret;

	ltt_chunk_stamp(chunk->begin, begin_s);
	ltt_chunk_stamp(end, end_s);
	if ((size_t)snprintf(from, sizeof(from), "%s%s%s", chunk->dir,
			     chunk->dir[0] ? "/" : "", sub) >= sizeof(from) ||
	    (size_t)snprintf(to, sizeof(to), "%s/%s-%s-%" PRIu64 "/%s", LTT_CHUNK_ARCHIVES_DIR,
			     begin_s, end_s, chunk->id, sub) >= sizeof(to))
		return -ENAMETOOLONG;
	if (!end)
		to[0] = '\0';
	ret = r->fn(r->arg, from, to, dir, sizeof(dir));
	if (ret || !end)
		return ret;
	*strrchr(to, '/') = '\0';
	if ((size_t)snprintf(ret_path, LTT_PATH_MAX, "%s%s%s", dir, dir[0] ? "/" : "", to) >=
	    LTT_PATH_MAX)
		ret_path[0] = '\0';
	return 0;
}

/*
 * Every domain's part of @chunk, through its relay in @rs, but those
 * archived already (a domain's archive that failed is tried again later:
 * the others are not moved twice).  Returns 0 or the first -errno.
 */
static int relay_chunk(const struct relays *rs, struct ltt_chunk_left *chunk, int64_t end,
		       char *ret_path)
{
	char path[LTT_PATH_MAX] = "";
	unsigned int i, bit;
	int ret = 0, err;

	if (ret_path)
		ret_path[0] = '\0';
	for (i = 0; i < rs->n; i++) {
		bit = 1u << rs->v[i].domain;
		if (chunk->relayed & bit)
			continue;
		err = relay_chunk_part(&rs->v[i], chunk, end, path);
		if (!err) {
			chunk->relayed |= bit;
			if (ret_path && end && !ret_path[0])
				strcpy(ret_path, path);
		}
		ret = ret ? ret : err;
	}
	return ret;
}

/* A domain's relay_archive, as a struct ltt_chunk_relay. */
struct domain_relay {
	struct ltt_domain_impl *d;
	struct ltt_session *session;
};

static int domain_relay_archive(void *arg, const char *from, const char *to, char *ret_dir,
				size_t len)
{
	struct domain_relay *dr = arg;

	return dr->d->ops->relay_archive(dr->d, dr->session, from, to, ret_dir, len);
}

/*
 * @rs through the domains of @set with channels in @session (@dr: their
 * arguments); NULL when @session is not streamed to a relay.  A domain
 * without relay_archive is left out (net_refusal() refused it first).
 */
static const struct relays *domain_relays(const struct ltt_domains *set,
					  struct ltt_session *session,
					  struct domain_relay dr[LTT_NR_DOMAINS], struct relays *rs)
{
	struct ltt_domain_impl *d;
	int i;

	if (session->output_type != LTT_OUTPUT_NET || !set)
		return NULL;
	rs->n = 0;
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (!d || !d->ops->relay_archive || !session->domains[i].nr_channels)
			continue;
		dr[rs->n] = (struct domain_relay){ d, session };
		rs->v[rs->n] = (struct ltt_chunk_relay){ domain_relay_archive, &dr[rs->n], i };
		rs->n++;
	}
	return rs;
}

/*
 * May @session's relay archive chunks (relay protocol 2.12)?  A new
 * connection asks it (at most LTT_RELAY_CHECK_TIMEOUT_MS): a relay too
 * old, or kernel channels, are refused before anything moves.
 */
static enum ltt_error_code net_refusal(const struct ltt_domains *set,
				       const struct ltt_session *session, bool clear)
{
	const struct ltt_domain_impl *d;
	uint64_t flags = 0;
	uint32_t minor = 0;
	int err, i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (session->domains[i].nr_channels && (!d || !d->ops->relay_archive))
			return LTT_ERR_NOT_SUPPORTED;
	}
	err = ltt_relay_check(&session->relay, session, LTT_RELAY_CHECK_TIMEOUT_MS, &minor,
			      clear ? &flags : NULL);
	if (err)
		return ltt_relay_error_code(err);
	if (minor < LTT_RELAY_MINOR_ARCHIVE)
		return LTT_ERR_RELAY_NO_ROTATE;
	return flags & LTT_RELAY_CONFIG_NO_CLEAR ? LTT_ERR_RELAY_NO_CLEAR : LTT_ERR_OK;
}

/* A streamed chunk's archive: what the relay answered. */
static const struct ltt_errmap relay_archive_errors[] = {
	{ -EOPNOTSUPP, LTT_ERR_RELAY_NO_ROTATE },
	{ -EPROTONOSUPPORT, LTT_ERR_RELAY_NO_ROTATE },
	{ -ECONNRESET, LTT_ERR_RELAY_LOST },
	{ -EPIPE, LTT_ERR_RELAY_LOST },
	{ LTT_ERRMAP_ELSE, LTT_ERR_RELAY_ARCHIVE },
};

/* A local chunk's archive, which the session daemon makes itself: its file system's answer. */
static const struct ltt_errmap local_archive_errors[] = {
	{ -ENOMEM, LTT_ERR_NOMEM },
};

/* Why a chunk's archive failed. */
static enum ltt_error_code archive_error(const struct ltt_session *session, int err)
{
	if (session->output_type == LTT_OUTPUT_NET)
		return LTT_ERRMAP(relay_archive_errors, err, NULL);
	return LTT_ERRMAP(local_archive_errors, err, ltt_output_error_code);
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

/*
 * Archive the chunks earlier rotations left: all of them once every trace
 * moved out (@all), else those no trace writes in; those that can't be
 * archived stay left, for the next rotation or destroy.  @r: the relays
 * that archive a net:// session's chunks, NULL for a local session.
 */
static void archive_left(const struct relays *r, struct ltt_session *session,
			 int64_t now, bool all)
{
	char path[LTT_PATH_MAX];
	unsigned int i, kept = 0;
	int ret;

	for (i = 0; i < session->nr_left; i++) {
		ret = all || session->left[i].idle ?
		      archive(r, session, &session->left[i], now, path) : -EBUSY;
		if (ret == -EBUSY) {
			session->left[kept++] = session->left[i];
			continue;
		}
		if (ret) {
			LTT_ERR_RL("session '%s': chunk %" PRIu64 " (%s) can't be archived: %s",
				   session->name, session->left[i].id, session->left[i].dir,
				   strerror(-ret));
			session->left[kept] = session->left[i];
			session->left[kept++].idle = true;
		} else {
			LTT_INFO("session '%s': chunk %" PRIu64 ", left by a failed rotation, archived in %s",
				 session->name, session->left[i].id, path);
		}
	}
	session->nr_left = kept;
}

/* The next chunk begins at @now in @new_root; the old one is archived or left. */
static void next_chunk(const struct ltt_domains *set, struct ltt_session *session,
		       const char *new_root, int64_t now)
{
	strcpy(session->chunk_dir, new_root);
	session->chunk_id++;
	session->chunk_begin = now;
	session->rotate_written = ltt_chunk_written(set, session);
	if (session->rotate_timer_us)
		ltt_chunk_timer_arm(session);
	ltt_session_wake(session);	/* a schedule or a trigger may want the tick now */
}

/*
 * @chunk (the current one when NULL), which a trace may still write in:
 * archived later (room checked).
 */
static struct ltt_chunk_left *remember_left(struct ltt_session *session,
					    const struct ltt_chunk_left *chunk, bool idle)
{
	struct ltt_chunk_left *left = &session->left[session->nr_left++];

	if (chunk)
		*left = *chunk;
	else
		current_chunk(session, left);
	left->idle = idle;
	return left;
}

/*
 * The time a new chunk's directory is named after: @now, unless
 * LTT_SESSIOND_CHUNK_NAME_TIME gives one (seconds since the Epoch, digits
 * only; anything else is ignored).  For tests that put a fault where a
 * chunk's directory will go: they must know its name beforehand, which no
 * guess of the clock makes certain on a loaded machine.
 */
static int64_t name_time(int64_t now)
{
	const char *env = getenv("LTT_SESSIOND_CHUNK_NAME_TIME");
	unsigned long long v;
	char *end;

	if (!env || *env < '0' || *env > '9')
		return now;
	errno = 0;
	v = strtoull(env, &end, 10);
	return errno || *end || v > INT64_MAX ? now : (int64_t)v;
}

/*
 * The next chunk's root, begun at @now: OUTPUT/BEGIN-N, or BEGIN-N in the
 * relay session's directory.  Returns 0 or -ENAMETOOLONG.
 */
static int new_root_of(const struct ltt_session *session, int64_t now, char ret[LTT_PATH_MAX])
{
	bool net = session->output_type == LTT_OUTPUT_NET;
	char begin_s[LTT_CHUNK_STAMP_MAX];
	int w;

	ltt_chunk_stamp(name_time(now), begin_s);
	w = snprintf(ret, LTT_PATH_MAX, "%s%s%s-%" PRIu64, net ? "" : session->output,
		     net ? "" : "/", begin_s, session->chunk_id + 1);
	return w < 0 || w >= LTT_PATH_MAX ? -ENAMETOOLONG : 0;
}

/*
 * Every trace moved to @new_root (begun @now): journal the chunks about to
 * be archived, ended @now (so that the next daemon, after a crash, gives
 * them the same archive), and the new one.
 */
static void journal_rotation(const struct ltt_session *session, const char *new_root,
			     int64_t now)
{
	struct ltt_chunk_left chunks[LTT_CHUNK_JOURNAL_MAX];
	int64_t ends[LTT_CHUNK_JOURNAL_MAX];
	unsigned int n;

	for (n = 0; n < session->nr_left; n++) {
		chunks[n] = session->left[n];
		ends[n] = now;
	}
	strcpy(chunks[n].dir, session->chunk_dir);
	chunks[n].begin = session->chunk_begin;
	chunks[n].id = session->chunk_id;
	ends[n++] = now;
	strcpy(chunks[n].dir, new_root);
	chunks[n].begin = now;
	chunks[n].id = session->chunk_id + 1;
	ends[n++] = 0;
	ltt_chunk_journal_write(session, chunks, ends, n);
	ltt_fault_point("rotate-moved");
}

/*
 * Two phases: every trace moves to the new chunk; only when all did is
 * the old chunk (and any an earlier failure left) archived.  When none
 * moved, nothing changed: the error is the output's.  When some did, the
 * session goes on in the new chunk and the old one is left as it is (the
 * traces that failed still write in it) until a rotation moves them too:
 * ROTATE_INCOMPLETE.
 */
enum ltt_error_code ltt_chunk_rotate(const struct ltt_domains *set, struct ltt_session *session,
				     char *ret_archive)
{
	char new_root[LTT_PATH_MAX], path[LTT_PATH_MAX];
	enum ltt_error_code code = refusal(session, false);
	struct domain_relay dr[LTT_NR_DOMAINS];
	int64_t now = (int64_t)time(NULL);
	struct ltt_chunk_left *left, cur;
	const struct relays *r;
	struct relays rs;
	int err, ret;

	if (!code && session->rotated_stopped)
		code = LTT_ERR_ROTATE_AFTER_STOP;	/* as LTTng: its chunk ended */
	if (!code && session->cleared_stopped)
		code = LTT_ERR_ROTATE_AFTER_CLEAR;	/* as LTTng: the chunk would be empty */
	if (!code && session->output_type == LTT_OUTPUT_NET)
		code = net_refusal(set, session, false);
	if (code)
		return code;
	r = domain_relays(set, session, dr, &rs);
	if (session->nr_left == sizeof(session->left) / sizeof(session->left[0]))
		archive_left(r, session, now, false);	/* room from those only their archive held */
	if (session->nr_left == sizeof(session->left) / sizeof(session->left[0]))
		return LTT_ERR_ROTATE_INCOMPLETE;	/* nowhere to remember one more */
	if (new_root_of(session, now, new_root))
		return LTT_ERR_INVAL;
	session->rotate_moved = 0;
	ltt_triggers_session_event(set->triggers, session, LTT_CONDITION_SESSION_ROTATION_STARTS,
				   "");
	err = rotate_domains(set, session, new_root, false);
	if (err && !session->rotate_moved) {
		LTT_ERR("session '%s': no trace could move to a new chunk (%s): chunk %" PRIu64
			" goes on, not archived", session->name, strerror(-err), session->chunk_id);
		if (err == -ETIMEDOUT)
			return LTT_ERR_CONSUMERD_STALLED;	/* nothing sent: tried again later */
		if (err == -EPIPE)	/* it died with the rotation in hand */
			return LTT_ERR_ROTATE_CONSUMER_DIED;
		return err == -EOPNOTSUPP ? LTT_ERR_CONSUMERD : LTT_ERR_ROTATE_FAILED;
	}
	if (err) {
		left = remember_left(session, NULL, false);	/* the traces that did not move write in it */
		LTT_ERR("session '%s': some traces could not move to chunk %" PRIu64 " (%s): chunk %"
			PRIu64 " (%s) is not archived until they do", session->name,
			session->chunk_id + 1, strerror(-err), left->id, left->dir);
		next_chunk(set, session, new_root, now);
		ltt_chunk_journal_write_live(session);
		/* only moves the consumer has yet to answer: they come */
		return err == -EINPROGRESS ? LTT_ERR_ROTATE_LATE : LTT_ERR_ROTATE_INCOMPLETE;
	}
	journal_rotation(session, new_root, now);
	archive_left(r, session, now, true);
	current_chunk(session, &cur);
	ret = archive(r, session, &cur, now, path);
	ltt_fault_point("rotate-archived");
	if (ret) {
		LTT_ERR("session '%s': chunk %" PRIu64 " (%s) can't be archived: %s", session->name,
			session->chunk_id, session->chunk_dir, strerror(-ret));
		/* tried again by the next rotation, or destroy (its parts archived kept) */
		remember_left(session, &cur, true);
	}
	/* the traces are in the new chunk either way */
	next_chunk(set, session, new_root, now);
	ltt_chunk_journal_write_live(session);
	if (ret)
		return archive_error(session, ret);
	strcpy(session->last_archive, path);
	strcpy(ret_archive, path);
	session->rotated_stopped = !session->active;
	session->rotate_err = 0;	/* what a schedule's failure said is over */
	session->rotate_retry_ns = 0;
	LTT_INFO("session '%s': trace chunk archived in %s", session->name, path);
	ltt_triggers_session_event(set->triggers, session,
				   LTT_CONDITION_SESSION_ROTATION_FINISHES, path);
	return LTT_ERR_OK;
}

/* A consumer's failure for a clear or a regeneration, as the user reads it. */
static enum ltt_error_code consumer_code(int err)
{
	if (err == -EOPNOTSUPP)
		return LTT_ERR_NOT_SUPPORTED;
	/* alive but stalled: nothing killed, the command may be tried again */
	return err == -ETIMEDOUT ? LTT_ERR_CONSUMERD_STALLED : LTT_ERR_CONSUMERD;
}

/*
 * Clear a session streamed to a relay (the relay can't truncate a stream
 * it writes): as a rotation, every trace moves to a new chunk; only when
 * all did does the relay delete the old chunk and those earlier
 * rotations left (relay_chunk()).  When some could not move, the old
 * chunk is left as a failed rotation leaves it (archived once they move).
 */
static enum ltt_error_code net_clear(const struct ltt_domains *set, struct ltt_session *session)
{
	enum ltt_error_code code = net_refusal(set, session, true);
	char new_root[LTT_PATH_MAX];
	struct domain_relay dr[LTT_NR_DOMAINS];
	int64_t now = (int64_t)time(NULL);
	struct ltt_chunk_left cur;
	const struct relays *r;
	struct relays rs;
	unsigned int i;
	int err, ret;

	r = domain_relays(set, session, dr, &rs);
	if (!code && !r)
		code = LTT_ERR_NOT_SUPPORTED;
	if (code)
		return code;
	if (session->nr_left == sizeof(session->left) / sizeof(session->left[0]))
		return LTT_ERR_ROTATE_INCOMPLETE;
	if (new_root_of(session, now, new_root))
		return LTT_ERR_INVAL;
	session->rotate_moved = 0;
	err = rotate_domains(set, session, new_root, false);
	if (err) {
		LTT_ERR("session '%s': not every trace could be cleared (%s): %s", session->name,
			strerror(-err), session->rotate_moved ? "the chunk they write in stays" :
			"nothing changed");
		if (session->rotate_moved) {
			remember_left(session, NULL, false);
			next_chunk(set, session, new_root, now);
		}
		return consumer_code(err);
	}
	ret = 0;
	for (i = 0; i < session->nr_left; i++) {
		err = relay_chunk(r, &session->left[i], 0, NULL);
		ret = ret ? ret : err;
	}
	session->nr_left = 0;
	current_chunk(session, &cur);
	err = relay_chunk(r, &cur, 0, NULL);
	ret = ret ? ret : err;
	next_chunk(set, session, new_root, now);
	if (ret) {
		LTT_ERR("session '%s': the relay did not delete every cleared chunk: %s",
			session->name, strerror(-ret));
		return archive_error(session, ret);
	}
	LTT_INFO("session '%s' cleared: the relay deleted chunk %" PRIu64, session->name, cur.id);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_chunk_clear(const struct ltt_domains *set, struct ltt_session *session)
{
	enum ltt_error_code code = refusal(session, true);
	int ret;

	if (code)
		return code;
	if (!session->chunk_begin)
		return LTT_ERR_OK;	/* nothing recorded yet */
	if (session->output_type == LTT_OUTPUT_NET && !session->snapshot) {
		code = net_clear(set, session);
	} else {
		ret = rotate_domains(set, session, NULL, true);
		if (ret) {
			LTT_ERR("session '%s': not every trace could be cleared: %s",
				session->name, strerror(-ret));
			return consumer_code(ret);
		}
		session->rotate_written = ltt_chunk_written(set, session);
		LTT_INFO("session '%s' cleared", session->name);
	}
	if (!code)
		session->cleared_stopped = !session->active;
	return code;
}

enum ltt_error_code ltt_chunk_regenerate_metadata(const struct ltt_domains *set,
						  struct ltt_session *session)
{
	struct ltt_domain_impl *d;
	int ret = 0, err;
	size_t i;

	/* refused as LTTng refuses them */
	if (session->live_timer_us)
		return LTT_ERR_REGEN_LIVE;
	if (!session->active)
		return LTT_ERR_SESSION_NOT_STARTED;
	if (session->domains[LTT_DOMAIN_IDX_USER].buffer_type == LTT_BUFFER_PER_PID)
		return LTT_ERR_REGEN_PER_PID;
	/* a snapshot session's next snapshots hold the new text; a relay rewrites it */
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (d && session->domains[i].nr_channels && !d->ops->regenerate_metadata)
			return LTT_ERR_NOT_SUPPORTED;
	}
	ltt_session_clock_offset_take(session);	/* the clock may have been set */
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = set->v[i];
		if (!d || !session->domains[i].nr_channels)
			continue;
		err = d->ops->regenerate_metadata(d, session);
		ret = ret ? ret : err;
	}
	if (ret == -EPROTONOSUPPORT)
		return LTT_ERR_REGEN_RELAY;	/* refused before anything changed */
	return ret ? consumer_code(ret) : LTT_ERR_OK;
}

bool ltt_chunk_move_pending(const struct ltt_session *session)
{
	unsigned int i;

	for (i = 0; i < session->nr_left; i++)
		if (!session->left[i].idle)
			return true;
	return false;
}

/* The domain of @session that records a state dump at index @i, or NULL. */
static struct ltt_domain_impl *statedump_domain(const struct ltt_domains *set,
						struct ltt_session *session, unsigned int i)
{
	static const enum ltt_domain domains[] = { LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER };
	struct ltt_domain_impl *d = set->v[ltt_domain_index(domains[i])];

	if (!d || !d->ops->regenerate_statedump ||
	    !ltt_session_domain(session, domains[i])->nr_channels)
		return NULL;
	return d;
}

enum ltt_error_code ltt_chunk_regenerate_statedump(const struct ltt_domains *set,
						   struct ltt_session *session,
						   struct ltt_domain_settle *settle)
{
	struct ltt_domain_impl *d;
	unsigned int i, nr = 0;
	int ret;

	for (i = 0; i < 2; i++)
		nr += statedump_domain(set, session, i) != NULL;
	if (!nr)
		return LTT_ERR_STATEDUMP_DOMAIN;
	if (!session->active)
		return LTT_ERR_SESSION_NOT_STARTED;
	/* the kernel's first: a kernel tracer that lacks it changes nothing */
	for (i = 0; i < 2; i++) {
		d = statedump_domain(set, session, i);
		ret = d ? d->ops->regenerate_statedump(d, session, settle) : 0;
		if (ret == -EOPNOTSUPP)
			return LTT_ERR_STATEDUMP_KERNEL;
		if (ret == -EBUSY)
			return LTT_ERR_SESSION_NOT_STARTED;
		if (ret)
			return LTT_ERR_UNKNOWN;	/* logged: the tracer said why */
	}
	return LTT_ERR_OK;
}

void ltt_chunk_destroyed(struct ltt_session *session)
{
	struct ltt_chunk_left cur;
	char path[LTT_PATH_MAX];
	int ret;

	if (session->output_type != LTT_OUTPUT_LOCAL || !session->chunk_id) {
		ltt_chunk_journal_remove(session);
		return;
	}
	/* a local session's archives need no relay (ltt_chunk_relay_last() for those) */
	archive_left(NULL, session, (int64_t)time(NULL), true);
	if (session->rotated_stopped) {
		/* its chunk ended at that rotation: nothing was recorded since */
		ret = ltt_chunk_remove_tree(session, session->chunk_dir);
		if (ret)
			LTT_ERR("session '%s': can't remove %s, where nothing was recorded: %s",
				session->name, session->chunk_dir, strerror(-ret));
		ltt_chunk_journal_remove(session);
		return;
	}
	current_chunk(session, &cur);
	ret = archive(NULL, session, &cur, (int64_t)time(NULL), path);
	if (ret)
		LTT_ERR("session '%s': its last trace chunk (%s) can't be archived: %s",
			session->name, session->chunk_dir, strerror(-ret));
	else
		LTT_INFO("session '%s': last trace chunk archived in %s", session->name, path);
	ltt_chunk_journal_remove(session);
}

void ltt_chunk_recover(struct ltt_session *session, const struct ltt_chunk_left *chunks,
		       const int64_t *ends, unsigned int n, int64_t now)
{
	struct ltt_repair_stats st = { 0 };
	char path[LTT_PATH_MAX];
	bool rotated = false;
	unsigned int i;
	int ret;

	ret = ltt_chunk_owner_repair(&OWNER(session), &st);
	if (ret == -EPERM) {
		LTT_ERR("session '%s': can't take its owner's rights (%s): its traces in %s are left as they are",
			session->name, strerror(-ret), session->output);
		return;
	}
	if (ret && ret != -ENOENT)
		LTT_ERR("session '%s': can't repair its traces in %s: %s", session->name,
			session->output, strerror(-ret));
	else if (!ret)
		LTT_INFO("session '%s': %u trace directories looked at, %u files cut (%" PRIu64
			 " bytes torn), %u still written, %u errors", session->name, st.dirs, st.cut,
			 st.bytes, st.busy, st.errors);
	for (i = 0; i < n; i++)
		rotated |= chunks[i].id != 0;
	/* a session that rotated: each chunk archived, as its destroy would have */
	for (i = 0; rotated && i < n; i++) {
		ret = ltt_chunk_owner_archive(&OWNER(session), chunks[i].dir, chunks[i].begin,
					      chunks[i].id, ends[i] ? ends[i] : now, path);
		if (ret)
			LTT_ERR("session '%s': chunk %" PRIu64 " (%s) can't be archived: %s",
				session->name, chunks[i].id, chunks[i].dir, strerror(-ret));
		else
			LTT_INFO("session '%s': chunk %" PRIu64 " (%s) archived in %s", session->name,
				 chunks[i].id, chunks[i].dir, path);
	}
}

/* A relay link, as ltt_chunk_relay_last()'s struct ltt_chunk_relay. */
struct link_relay {
	struct ltt_relay_link *link;
	struct ltt_consumer *c;
	uint64_t gen;
};

static int link_relay_archive(void *arg, const char *from, const char *to, char *ret_dir,
			      size_t len)
{
	struct link_relay *lr = arg;

	return ltt_relay_archive(lr->link, lr->c, lr->gen, from, to, ret_dir, len);
}

void ltt_chunk_relay_last(struct ltt_session *session, int domain, struct ltt_relay_link *link,
			  struct ltt_consumer *c, uint64_t gen)
{
	struct link_relay lr = { link, c, gen };
	const struct relays rs = { 1, { { link_relay_archive, &lr, domain } } };
	const struct ltt_chunk_relay *r = &rs.v[0];
	char path[LTT_PATH_MAX];
	struct ltt_chunk_left cur;
	unsigned int i;
	int ret;

	if (session->output_type != LTT_OUTPUT_NET || !session->chunk_id)
		return;
	/* the first domain's call ends the chunk: the others' parts go to the same archive */
	if (!session->last_end)
		session->last_end = (int64_t)time(NULL);
	/* each domain archives its part of what is left: the list stays for the others */
	for (i = 0; i < session->nr_left; i++) {
		ret = relay_chunk(&rs, &session->left[i], session->last_end, path);
		if (ret)
			LTT_ERR("session '%s': chunk %" PRIu64 " (%s, %s) can't be archived: %s",
				session->name, session->left[i].id, session->left[i].dir,
				domain_subdir(r->domain), strerror(-ret));
	}
	current_chunk(session, &cur);
	if (session->rotated_stopped) {
		/* its chunk ended at that rotation: the relay deletes where nothing was recorded */
		ret = relay_chunk(&rs, &cur, 0, NULL);
		if (ret)
			LTT_ERR("session '%s': the relay can't delete %s%s%s, where nothing was recorded: %s",
				session->name, cur.dir, cur.dir[0] ? "/" : "",
				domain_subdir(r->domain), strerror(-ret));
		return;
	}
	ret = relay_chunk(&rs, &cur, session->last_end, path);
	if (ret) {
		LTT_ERR("session '%s': its last trace chunk (%s%s%s on the relay) can't be archived: %s",
			session->name, cur.dir, cur.dir[0] ? "/" : "", domain_subdir(r->domain),
			strerror(-ret));
		return;
	}
	strcpy(session->last_archive, path);
	LTT_INFO("session '%s': last trace chunk archived by the relay in %s (its %s part)",
		 session->name, path, domain_subdir(r->domain));
}
