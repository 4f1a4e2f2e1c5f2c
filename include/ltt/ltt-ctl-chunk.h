/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-chunk.h - libltt-ctl, trace chunks of a session: rotation (now or
 * on a schedule), clear, regenerate.
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_CHUNK_H
#define LTT_CTL_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A session's rotation schedule and trace chunks (ltt_ctl_rotation_info()).
 * reserved: zeroed when returned.
 */
struct ltt_rotation_info {
	uint64_t timer_us;		/* rotate every timer_us microseconds; 0: no timer */
	uint64_t size;			/* rotate each time this many bytes were written; 0: no */
	uint64_t chunk_id;		/* the current trace chunk's number, from 0 */
	char last_archive[LTT_PATH_MAX];	/* the newest archived chunk, "" if none */
	/*
	 * 4120, 1.1 (daemon client protocol 1.13): the schedule's rotations
	 * fail (LTT_ERR_*, positive; 0: they don't), since error_since
	 * (seconds since the Epoch).  CONSUMERD_STALLED: the owner's consumer
	 * does not answer; they are tried again each second.
	 */
	int64_t error_since LTT_RESERVED_ALIGN;
	int32_t error;				/* 4128 */
	uint8_t reserved[48] LTT_RESERVED_ALIGN;	/* 4136 */
};

/* What ltt_ctl_regenerate() writes again. */
enum ltt_regenerate_what {
	LTT_REGENERATE_METADATA = 0,	/* every trace's metadata, whole */
	LTT_REGENERATE_STATEDUMP = 1,	/* the state dump of the kernel tracer and of the programs */
};

/*
 * Trace chunks (client protocol 1.4; an older daemon: -LTT_ERR_NOT_SUPPORTED).
 * A local session writes into its current trace chunk; a rotation closes
 * it at a packet boundary (nothing lost or written twice) and archives it
 * as OUTPUT/archives/BEGIN-END-N/, a complete trace of its own.
 */

/**
 * ltt_ctl_rotate_session() - archive the current trace chunk, start the next
 * @ret_archive: @len bytes: the archive's path
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_ROTATE_NEVER_STARTED,
 * -LTT_ERR_ROTATE_OUTPUT (not a local session), -LTT_ERR_ROTATE_SNAPSHOT,
 * -LTT_ERR_ROTATE_FAILED (no trace could move: nothing changed),
 * -LTT_ERR_ROTATE_INCOMPLETE (some could not: the old chunk is kept, not
 * archived, until a rotation moves them), -LTT_ERR_OUTPUT_* (the archive directory),
 * -LTT_ERR_INVAL (@len too small), or a connection error.
 */
int ltt_ctl_rotate_session(struct ltt_ctl *ctl, const char *session, char *ret_archive,
			   size_t len);

/**
 * ltt_ctl_enable_rotation() - rotate every @timer_us microseconds and/or
 * each time @size bytes were written (0: that schedule unchanged; not both)
 *
 * Returns 0, -LTT_ERR_ROTATION_VALUE (both 0, a timer over
 * UINT64_MAX / 1000),
 * -LTT_ERR_ROTATE_OUTPUT, -LTT_ERR_ROTATE_SNAPSHOT,
 * -LTT_ERR_SESSION_NOT_FOUND, or a connection error.
 */
int ltt_ctl_enable_rotation(struct ltt_ctl *ctl, const char *session, uint64_t timer_us,
			    uint64_t size);

/**
 * ltt_ctl_disable_rotation() - remove the timer and/or size schedule
 *
 * Returns 0, -LTT_ERR_ROTATION_NOT_SET (one asked for is not set: nothing
 * changed), -LTT_ERR_INVAL (neither asked for), or as above.
 */
int ltt_ctl_disable_rotation(struct ltt_ctl *ctl, const char *session, bool timer, bool size);

/**
 * ltt_ctl_clear_session() - discard what the session recorded in its
 * current chunk and its buffers; recording goes on.  Archives stay.
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_ROTATE_OUTPUT,
 * -LTT_ERR_NOT_SUPPORTED (a snapshot session), -LTT_ERR_CONSUMERD, or a
 * connection error.
 */
int ltt_ctl_clear_session(struct ltt_ctl *ctl, const char *session);

/**
 * ltt_ctl_regenerate() - write the session's metadata again whole (after a
 * clock change), or a state dump
 *
 * Returns 0, -LTT_ERR_ROTATE_OUTPUT (metadata of a session without
 * output), -LTT_ERR_REGEN_RELAY (metadata, a relay older than 2.13),
 * -LTT_ERR_STATEDUMP_DOMAIN (a state dump of a session without channels;
 * the programs are asked for theirs, lttng_ust_statedump:*, and record it
 * at once, not before this returns), -LTT_ERR_SESSION_NOT_STARTED (a state dump of a
 * stopped session), -LTT_ERR_STATEDUMP_KERNEL (an older module),
 * -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_CONSUMERD, or a connection error.
 */
int ltt_ctl_regenerate(struct ltt_ctl *ctl, const char *session, enum ltt_regenerate_what what);

/**
 * ltt_ctl_rotation_info() - the session's rotation schedule and chunks
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED, or a
 * connection error.
 */
int ltt_ctl_rotation_info(struct ltt_ctl *ctl, const char *session,
			  struct ltt_rotation_info *ret_info);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_CHUNK_H */
