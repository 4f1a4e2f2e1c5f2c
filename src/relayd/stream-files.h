/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream-files.h - a relay stream's files: the data and index files of a
 * tracefile made, and writes that leave no partial packet.
 */
#ifndef LTT_RELAYD_STREAM_FILES_H
#define LTT_RELAYD_STREAM_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "relayd/registry.h"

/* Write all of @len bytes at @off: 0 or a negative errno. */
int ltt_relay_write_at(int fd, const void *buf, size_t len, uint64_t off);

/*
 * @len bytes of @data then @padding zeros at @off, in one pwritev() when
 * the padding allows (8 MiB): 0 or a negative errno.
 */
int ltt_relay_write_padded(int fd, const void *data, size_t len, uint64_t padding,
			   uint64_t off);

/* File @name in @dir_fd, created (@excl) or truncated, for writing, in *@ret_fd. */
int ltt_relay_create_file(int dir_fd, const char *name, bool excl, int *ret_fd);

/* The name of @st's tracefile @no, or of its index (@index), in @buf. */
int ltt_relay_stream_file_name(const struct ltt_relay_stream *st, uint64_t no, bool index,
			       char *buf, size_t len);

/* Tracefile @no of @st and its index (with the index header) created. */
int ltt_relay_stream_open_files(struct ltt_relay_stream *st, uint64_t no, int *ret_fd,
				int *ret_idx_fd);

#endif /* LTT_RELAYD_STREAM_FILES_H */
