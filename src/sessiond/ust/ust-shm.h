/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust-shm.h - a session's user-space ring buffers as files (lttctl create
 * --shm-path DIR), so that what the programs recorded outlives them and
 * the daemons: ltt-crash (lttng-crash) reads the files after a crash
 * (doc/ust.md, "Buffers in files").  Each trace has a directory
 *
 *   DIR/NAME-DATE/ust/uid/UID/BITS-bit/     per-UID
 *   DIR/NAME-DATE/ust/pid/PROC-PID-DATE/    per-PID
 *
 * holding "metadata" (the trace's CTF metadata text, appended as the
 * daemon makes it) and one file per stream, "CHANNEL_CPU": the ring
 * buffer region itself (ringbuf.h), mapped by the programs and the
 * consumer as the memfd it replaces.  The same buffer code, another
 * backing.  A trace's files go when it ends (its program left, per-PID;
 * its session was destroyed), and the directories above them as they
 * empty.  Files and directories are made with the session owner's rights
 * (by the privileged part once a root daemon gave its own up: SHM_FILE),
 * and are the owner's only (0600, 0700); session lock held for all.
 */
#ifndef LTT_SESSIOND_UST_SHM_H
#define LTT_SESSIOND_UST_SHM_H

#include "common/base/codec.h"
#include "sessiond/priv/priv.h"	/* the jobs: LTT_PRIV_SHM_* */

struct ltt_channel;
struct ltt_ust_trace;


/**
 * ltt_ust_shm_job() - do @job on @path with the calling thread's rights
 * @path: absolute: the file (STREAM, METADATA; its missing directories
 *        are made, 0700) or the trace's directory (REMOVE)
 * @keep: REMOVE: directories are removed up to this many bytes of
 *        @path (NAME-DATE's end), no further
 * @ret_fd: the file opened, the caller's (STREAM, METADATA)
 *
 * For this file and for the privileged part, which runs it as a
 * session's owner.  Returns 0, -EINVAL, -ENAMETOOLONG, or mkdir()'s or
 * open()'s -errno (STREAM: -EEXIST when a file of that name is there).
 */
int ltt_ust_shm_job(unsigned int job, const char *path, size_t keep, int *ret_fd);

/**
 * ltt_ust_shm_stream() - create the file of @trace's stream @cpu of
 * @channel, empty, opened read-write into @ret_fd (the caller's)
 *
 * Makes the trace's directory as needed.  Returns 0, or as
 * ltt_ust_shm_job(), or the privileged part's -errno.
 */
int ltt_ust_shm_stream(const struct ltt_ust_trace *trace, const struct ltt_channel *channel,
		       unsigned int cpu, int *ret_fd);

/**
 * ltt_ust_shm_metadata() - append @text (borrowed) to @trace's metadata
 * file, when its session has a shared memory path; a failure is logged
 * (the trace goes on, its crash copy lacks it)
 */
void ltt_ust_shm_metadata(const struct ltt_ust_trace *trace, const struct ltt_wbuf *text);

/**
 * ltt_ust_shm_remove() - remove @trace's files and directory, and the
 * directories above it that it leaves empty, up to NAME-DATE; nothing
 * when its session has no shared memory path
 */
void ltt_ust_shm_remove(const struct ltt_ust_trace *trace);

#endif
