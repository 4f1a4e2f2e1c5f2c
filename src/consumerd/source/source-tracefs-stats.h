/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source-tracefs-stats.h - ftrace's per-CPU statistics file
 * (per_cpu/cpuN/stats), which a tracefs source reads beside its
 * trace_pipe_raw: what ftrace dropped or overwrote of the CPU's events,
 * and its other counts ("read events", "entries").  The file is read
 * whole at each call (pread at offset 0); nothing is kept between calls.
 */
#ifndef LTT_CONSUMERD_SOURCE_TRACEFS_STATS_H
#define LTT_CONSUMERD_SOURCE_TRACEFS_STATS_H

#include <stdint.h>

/*
 * The stats file beside the trace_pipe_raw open at @pipe_fd, found
 * through /proc/self/fd (the protocol passes only the pipe): its fd, or
 * -1 when it can't be, logged with @label.
 */
int ltt_tfs_stats_open(int pipe_fd, const char *label);

/* The line "@key: N" ("read events", "entries"...) of the file at @fd: 0 or -errno (-EBADF: @fd < 0). */
int ltt_tfs_stats_read(int fd, const char *key, uint64_t *ret);

/*
 * What ftrace lost of the CPU's events, a running total: "dropped
 * events" + "overrun" + "commit overrun" of the file at @fd.  0 or -errno.
 */
int ltt_tfs_stats_lost(int fd, uint64_t *ret);

#endif
