/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chunk.h - trace chunks of a session, local or streamed to a relay:
 * rotation, clear, metadata regeneration.
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   chunk.h        trace chunks: rotation, clear, regeneration, archives
 *   chunk-rotate.c trace chunks of local and streamed sessions
 *   chunk-owner.[ch] what is done with the owner's rights on a session's output
 *   chunk-journal.[ch] a local session's chunks kept for the next daemon
 *   chunk-sched.[ch] the rotation thread: timer and size schedules
 *
 * A session writes into its current chunk: chunk 0 is the session's
 * output directory itself (kernel/, ust/ below it, as a session that
 * never rotates has it); chunk N >= 1 is OUTPUT/BEGIN-N.  A rotation
 * moves every trace of every domain to the next chunk at a packet
 * boundary (the consumer's ROTATE_TRACE), then archives the chunk that
 * ended: OUTPUT/archives/BEGIN-END-N/ (LTTng's names; BEGIN and END are
 * ISO 8601 local times, 20261122T173000+0000), a complete trace of its
 * own.  Destroying a session that rotated archives its last chunk too.
 * A clear drops what the current chunk and the buffers hold and keeps
 * recording in place; archives stay.
 *
 * A session streamed to a relay (relay protocol 2.12, kernel and
 * user-space channels) has the same chunks in its relay session's directory, named
 * relative to it (chunk 0 is "", chunk N BEGIN-N): the traces move the
 * same way and the relay archives the chunk that ended (ARCHIVE_CHUNK,
 * through each domain's relay_archive, for its part of the chunk: kernel/
 * or ust/); its clear is a switch to a new
 * chunk with the relay deleting the old one.
 *
 * Every function runs with the session's lock held.
 */
#ifndef LTT_SESSIOND_CHUNK_H
#define LTT_SESSIOND_CHUNK_H

#include <stddef.h>

#include <ltt/ltt-error.h>

#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"

struct ltt_consumer;
struct ltt_relay_link;

/* Where ltt_chunk_archive_path() and the archives go, below the output. */
#define LTT_CHUNK_ARCHIVES_DIR "archives"

/* chunk-rotate.c: trace chunks of local and streamed sessions */

/**
 * ltt_chunk_started() - @session starts: its first chunk begins now, and
 * a rotation timer counts from now.  Session lock held.
 */
void ltt_chunk_started(const struct ltt_domains *set, struct ltt_session *session);

/**
 * ltt_chunk_timer_arm() - @session's timer rotation falls one period
 * (rotate_timer_us) from now; a period past the monotonic clock's range
 * never falls.  Session lock held.
 */
void ltt_chunk_timer_arm(struct ltt_session *session);

/**
 * ltt_chunk_rotate() - close the current chunk, archive it, start the next
 * @ret_archive: LTT_PATH_MAX bytes: the archive's path (set on success
 *               and on ROTATE_INCOMPLETE, when the archive exists)
 *
 * Session lock held.  Returns LTT_ERR_OK, ROTATE_OUTPUT (not a local
 * session), ROTATE_SNAPSHOT, ROTATE_LIVE (as LTTng), ROTATE_AFTER_STOP (a
 * rotation of the stopped session ended its chunk, as LTTng's: destroy
 * then archives nothing more), ROTATE_AFTER_CLEAR (the stopped session
 * was cleared: the chunk would be empty, refused as LTTng refuses it),
 * ROTATE_NEVER_STARTED, ROTATE_INCOMPLETE (a
 * trace could not move: logged), or OUTPUT_* / NOMEM for the archive
 * directory (the chunk then stays where it was written).
 */
enum ltt_error_code ltt_chunk_rotate(const struct ltt_domains *set, struct ltt_session *session,
				     char *ret_archive);

/**
 * ltt_chunk_clear() - drop what @session recorded in its current chunk and
 * its buffers; recording goes on in the same directories
 *
 * A session without output (a snapshot session, --no-output) has its
 * buffers emptied: the snapshots taken later hold only what is recorded
 * after, as LTTng's.  A clear of the stopped session refuses rotations
 * until the next start (ltt_chunk_rotate()).  Session lock held.  Returns
 * LTT_ERR_OK (also for a session never started: nothing to drop),
 * ROTATE_OUTPUT, or CONSUMERD when a trace could not be cleared (logged).
 */
enum ltt_error_code ltt_chunk_clear(const struct ltt_domains *set, struct ltt_session *session);

/**
 * ltt_chunk_remove_tree() - remove @path, a directory of @session's
 * output, and everything below it, with the session's owner's rights
 * (symbolic links removed, never followed).  Session lock held.
 *
 * Returns 0 (also when @path does not exist) or -errno of the first
 * failure (what could be removed is).
 */
int ltt_chunk_remove_tree(const struct ltt_session *session, const char *path);

/**
 * ltt_chunk_list_dir() - call @fn(@arg, name) for each entry of @dir, a
 * directory of @session's output, read with the session's owner's
 * rights ("." and ".." left out; @fn may not call back into the
 * privileged part).  Session lock held.  Returns 0 (also when @dir does
 * not exist) or a negative errno.
 */
int ltt_chunk_list_dir(const struct ltt_session *session, const char *dir,
		       void (*fn)(void *arg, const char *name), void *arg);

/**
 * ltt_chunk_regenerate_metadata() - write every trace's metadata again
 * whole (a clock changed)
 *
 * Session lock held.  Returns LTT_ERR_OK, REGEN_LIVE (a live session),
 * SESSION_NOT_STARTED (one not recording) or REGEN_PER_PID (per-PID
 * user-space buffers), as LTTng refuses them and in its order,
 * NOT_SUPPORTED (a domain with channels that can't), REGEN_RELAY (the
 * relay is older than protocol 2.13: refused by the first trace, before
 * any changed), or CONSUMERD (logged).  A snapshot session's next
 * snapshots hold the new text; a relay writes the new text over the old
 * (relay-proto.h, RESET_METADATA).
 */
enum ltt_error_code ltt_chunk_regenerate_metadata(const struct ltt_domains *set,
						  struct ltt_session *session);

/**
 * ltt_chunk_regenerate_statedump() - the kernel tracer records its state
 * dump again into @session's kernel channels, and the programs theirs
 * (lttng_ust_statedump:*) into its user-space channels
 * @settle: receives the programs' confirmations, to wait for once
 *          unlocked (ltt_domain_settle_wait()): then each has recorded it
 *
 * Session lock held.  Returns LTT_ERR_OK, STATEDUMP_DOMAIN (no channel in
 * either domain), SESSION_NOT_STARTED, STATEDUMP_KERNEL (the module is too
 * old: logged, and nothing asked), or UNKNOWN (the tracer failed: logged).
 */
enum ltt_error_code ltt_chunk_regenerate_statedump(const struct ltt_domains *set,
						   struct ltt_session *session,
						   struct ltt_domain_settle *settle);

/**
 * ltt_chunk_destroyed() - @session's traces are closed for good: a local
 * session that rotated archives its last chunk.  Session lock held.
 */
void ltt_chunk_destroyed(struct ltt_session *session);

/**
 * ltt_chunk_recover() - finish what a daemon's death left of a session:
 * with the session's owner's rights (@session: uid, gid, name, output),
 * cut what the crash left torn in its traces (ltt_trace_repair()), and
 * when it rotated, archive each of its @n @chunks as
 * archives/BEGIN-END-ID, ended at @ends[i] (0: @now): a chunk already
 * archived, or half-moved (chunk 0's traces), ends up there whole.  Each
 * step is logged.  At start, before serving.
 */
void ltt_chunk_recover(struct ltt_session *session, const struct ltt_chunk_left *chunks,
		       const int64_t *ends, unsigned int n, int64_t now);

/**
 * ltt_chunk_move_pending() - does a rotation's move wait for a stalled
 * consumer: a chunk kept because traces may still write in it (its
 * archive waits for them)?  Session lock held.
 */
bool ltt_chunk_move_pending(const struct ltt_session *session);

/**
 * ltt_chunk_relay_last() - @session, streamed to a relay, ends in domain
 * @domain (LTT_DOMAIN_IDX_*): its traces there are closed and every
 * packet sent, its relay still reached through @link in consumer @c
 * (generation @gen).  A session that rotated has the relay archive the
 * domain's part (CHUNK/kernel or CHUNK/ust) of the chunks failed
 * rotations left and of its last one (its relay directory then holds
 * archives/ only, once every domain did), as ltt_chunk_destroyed() does
 * locally; failures are logged.  Called by each domain's destroy before
 * it lets go of the relay.  Session lock held; waits for the consumer
 * and the relay.
 */
void ltt_chunk_relay_last(struct ltt_session *session, int domain, struct ltt_relay_link *link,
			  struct ltt_consumer *c, uint64_t gen);

/**
 * ltt_chunk_written() - bytes @session's domains wrote so far (size
 * rotation).  Session lock held.
 */
uint64_t ltt_chunk_written(const struct ltt_domains *set, struct ltt_session *session);

#endif /* LTT_SESSIOND_CHUNK_H */
