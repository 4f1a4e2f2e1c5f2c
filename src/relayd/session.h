/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - relay sessions, writing side: their creation, closing,
 * streams made visible, archives and data pending, as the control
 * server asks (their objects: registry.h).
 */
#ifndef LTT_RELAYD_SESSION_H
#define LTT_RELAYD_SESSION_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/proto/relay-proto.h"
#include "relayd/registry.h"

/**
 * ltt_relay_session_create() - a new session from a CREATE_SESSION request
 * @req: validated by the codec (NUL-terminated strings); borrowed
 * @ret_session: holds one reference, the caller's (the control connection)
 *
 * Creates OUTDIR/HOSTNAME/(BASE_PATH or SESSION-YYYYmmdd-HHMMSS, local
 * time of creation_time; SESSION alone when the request says the name
 * holds its creation time), or with m->group_by_session
 * OUTDIR/SESSION/HOSTNAME-YYYYmmdd-HHMMSS[/BASE_PATH], as LTTng's relay
 * does.  An existing directory is used as it is (each
 * domain of one tracing session is a relay session of its own, all in one
 * directory); traces in it are never overwritten (ltt_relay_stream_add()).
 * Server thread.  Returns 0, -EINVAL for a name that is not a plain path
 * component or a base path that is not relative and ".."-free,
 * -EMFILE when the model holds limits.max_sessions sessions already,
 * -ENAMETOOLONG, -ENOMEM, or mkdir's error.
 */
int ltt_relay_session_create(struct ltt_relay_model *m, const struct ltt_relay_create_session *req,
			     struct ltt_relay_session **ret_session);

/**
 * ltt_relay_session_close() - the control connection is gone: close every
 * stream of @s (no more packets than those begun) and mark it closed
 *
 * Server thread.  Does not drop the caller's reference.
 */
void ltt_relay_session_close(struct ltt_relay_session *s);

/**
 * ltt_relay_session_streams_sent() - STREAMS_SENT: the streams added so
 * far become visible to viewers
 *
 * Server thread.
 */
void ltt_relay_session_streams_sent(struct ltt_relay_session *s);

/**
 * ltt_relay_session_pending() - END_DATA_PENDING: does any stream of @s
 * still wait for packets (a packet being received, or packets up to the
 * last number CLOSE_STREAM or DATA_PENDING announced)?
 *
 * Server thread.
 */
bool ltt_relay_session_pending(struct ltt_relay_session *s);

/**
 * ltt_relay_session_archive() - ARCHIVE_CHUNK: move @from, a directory of
 * @s's directory holding closed traces (a trace chunk), to @to (its
 * missing parents made), as LTTng's relay archives a closed chunk
 * @from, @to: relative, valid (ltt_relay_relpath_valid()), @to not below @from;
 *             @to "": a clear, @from and everything below it is deleted
 *
 * Every stream of @s whose trace is @from or below it must be closed and
 * have every packet it announced written.  A missing @from (no trace
 * wrote in that chunk) archives as an empty @to, and clears as nothing;
 * cleared streams are no viewer's any more (their next index is a hang
 * up, attaches skip them).  Server thread.  Returns 0,
 * -EINVAL, -ENAMETOOLONG, -EBUSY (a stream is open or pending), -EEXIST
 * (@to exists), or the file system's -errno.
 */
int ltt_relay_session_archive(struct ltt_relay_session *s, const char *from, const char *to);

#endif /* LTT_RELAYD_SESSION_H */
