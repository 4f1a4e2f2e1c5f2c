/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chunk-journal.h - what a local session's trace chunks are, kept in
 * the state directory (STATEDIR/chunks/PID-ID: the run directory unless
 * $LTT_STATEDIR names one on disk) while the session lives, so
 * that the next daemon finishes what a crash interrupted: it cuts what
 * the crash left torn in the traces, completes an interrupted rotation
 * (a chunk half-moved into archives/) and archives the dead session's
 * chunks as its destroy would have.  Sessions themselves are not
 * restored (as in LTTng): only their files are made whole.
 */
#ifndef LTT_SESSIOND_CHUNK_JOURNAL_H
#define LTT_SESSIOND_CHUNK_JOURNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "sessiond/model/session.h"

/* At most: the chunks a failed rotation left, the current one and the next. */
#define LTT_CHUNK_JOURNAL_MAX 6

/**
 * ltt_chunk_journal_init() - keep the journals in STATEDIR/chunks (made
 * 0700 when missing, STATEDIR too), STATEDIR ltt_state_dir()'s for
 * @rundir, and hold its flock() (one daemon's journals, even of
 * two run directories).  Called once at start, before any session.
 * Return: 0 (journals not kept when @rundir's can't be used: logged), or
 * -errno, logged, for the daemon to stop: $LTT_STATEDIR not absolute
 * (-EINVAL) or not usable, or another daemon's (-EBUSY).
 */
int ltt_chunk_journal_init(const char *rundir);

/**
 * ltt_chunk_journal_dir() - the journals' directory for @rundir
 * (STATEDIR/chunks) into @buf.  Returns 0 or -errno.
 */
int ltt_chunk_journal_dir(const char *rundir, char *buf, size_t len);

/**
 * ltt_chunk_journal_remote() - from now on journals are written and
 * removed by the privileged part (JOURNAL_WRITE, JOURNAL_REMOVE), which
 * takes only those of the sessions it admitted (chunk-owner.h): for a
 * daemon about to give root's rights up, whose journals the next start
 * trusts.  Call after ltt_chunk_journal_recover(), before any thread.
 */
void ltt_chunk_journal_remote(void);

/**
 * ltt_chunk_journal_serve_write() - JOURNAL_WRITE's end: @r {u64 id, str
 * text}, a journal of session @id of @daemon, kept in @rundir's state
 * directory's chunks/ if
 * it parses and names the owner and output of a session admitted
 * (-EPERM otherwise).  Returns 0 or a negative errno.
 */
int ltt_chunk_journal_serve_write(const char *rundir, pid_t daemon, struct ltt_rbuf *r);

/** ltt_chunk_journal_serve_remove() - JOURNAL_REMOVE's end: @r {u64 id} */
int ltt_chunk_journal_serve_remove(const char *rundir, pid_t daemon, struct ltt_rbuf *r);

/**
 * ltt_chunk_journal_write() - record @session's chunks, replacing what
 * was recorded (ltt_file_replace(): whole across a crash)
 * @session: a local session, under its lock
 * @chunks: @n chunks, ended at @ends[i] (0: not ended, the time of the
 *          recovery is taken)
 *
 * Not for net:// or snapshot sessions (nothing done).  A failure is
 * logged: the session goes on, a crash then leaves what it leaves.
 */
void ltt_chunk_journal_write(const struct ltt_session *session,
			     const struct ltt_chunk_left *chunks, const int64_t *ends,
			     unsigned int n);

/**
 * ltt_chunk_journal_write_live() - record @session's left chunks and
 * its current one (none ended): the state between rotations.
 */
void ltt_chunk_journal_write_live(const struct ltt_session *session);

/** ltt_chunk_journal_remove() - @session is gone whole: forget it. */
void ltt_chunk_journal_remove(const struct ltt_session *session);

/**
 * ltt_chunk_journal_fini() - at a clean exit, every session destroyed:
 * remove the journal directory when empty (the run directory holds only
 * the lock file then).
 */
void ltt_chunk_journal_fini(void);

/* What repairs a journal's session: ltt_chunk_recover(), chunk.h. */
typedef void ltt_chunk_recover_fn(struct ltt_session *session, const struct ltt_chunk_left *chunks,
				  const int64_t *ends, unsigned int n, int64_t now);

/**
 * ltt_chunk_journal_recover() - at start, before serving: for each
 * journal a dead daemon left, have @recover (ltt_chunk_recover()) repair
 * its session's traces and archive its chunks, each step logged, then
 * remove it.
 */
void ltt_chunk_journal_recover(ltt_chunk_recover_fn *recover);

#endif /* LTT_SESSIOND_CHUNK_JOURNAL_H */
