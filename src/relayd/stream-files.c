// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream-files.c - a relay stream's files (stream-files.h): made with
 * their index header, and written whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/trace/ctf.h"
#include "common/trace/tracefile.h"
#include "relayd/stream-files.h"

#define FILE_MODE 0640

/* Zeros for padding written in one call with the data (ltt_relay_write_padded()). */
#define ZEROS_SIZE 65536
#define PAD_IOVS 128
static const uint8_t zeros[ZEROS_SIZE];

/* Write all of @len bytes at @off. */
int ltt_relay_write_at(int fd, const void *buf, size_t len, uint64_t off)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return ltt_io_pwritev_all(fd, &iov, 1, off);
}

/*
 * @len bytes of @data then @padding zeros at @off, in ONE pwritev() when
 * the padding fits PAD_IOVS zero buffers (8 MiB): a process stopped or
 * killed between two system calls never leaves a packet without its
 * padding, which readers take for a truncated file.  A longer padding is
 * a hole made by ftruncate() after the data.  Short writes (a full disk)
 * go on where they stopped.
 */
int ltt_relay_write_padded(int fd, const void *data, size_t len, uint64_t padding,
			   uint64_t off)
{
	struct iovec iov[1 + PAD_IOVS];
	uint64_t pad = padding <= (uint64_t)PAD_IOVS * ZEROS_SIZE ? padding : 0;
	int n = 0, ret;

	iov[n++] = (struct iovec){ .iov_base = (void *)data, .iov_len = len };
	for (; pad; pad -= iov[n++].iov_len)
		iov[n] = (struct iovec){ .iov_base = (void *)zeros,
					 .iov_len = pad < ZEROS_SIZE ? (size_t)pad : ZEROS_SIZE };
	ret = ltt_io_pwritev_all(fd, iov, n, off);
	if (ret)
		return ret;
	if (padding > (uint64_t)PAD_IOVS * ZEROS_SIZE && ftruncate(fd, (off_t)(off + len + padding)))
		return -errno;
	return 0;
}

int ltt_relay_create_file(int dir_fd, const char *name, bool excl, int *ret_fd)
{
	int fd = openat(dir_fd, name,
			O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (excl ? O_EXCL : O_TRUNC),
			FILE_MODE);

	if (fd < 0)
		return -errno;
	*ret_fd = fd;
	return 0;
}

int ltt_relay_stream_file_name(const struct ltt_relay_stream *st, uint64_t no, bool index,
				char *buf, size_t len)
{
	return ltt_tracefile_name(st->channel_name, st->files.max_size != 0, no, index, buf, len);
}

/* Create tracefile @no and its index (with the index header). */
int ltt_relay_stream_open_files(struct ltt_relay_stream *st, uint64_t no, int *ret_fd,
				 int *ret_idx_fd)
{
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE];
	char name[NAME_MAX + 1], idx_name[NAME_MAX + 1];
	int fd = -1, idx_fd = -1, ret;

	ret = ltt_relay_stream_file_name(st, no, false, name, sizeof(name));
	if (!ret)
		ret = ltt_relay_stream_file_name(st, no, true, idx_name, sizeof(idx_name));
	if (ret)
		return ret;
	ret = ltt_relay_create_file(st->trace->dir_fd, name, false, &fd);
	if (ret) {
		LTT_ERR("session %" PRIu64 ": can't create %s/%s: %s", st->session->id,
			st->trace->pathname, name, strerror(-ret));
		return ret;
	}
	ret = ltt_relay_create_file(st->trace->index_fd, idx_name, false, &idx_fd);
	if (!ret) {
		ltt_ctf_index_header(hdr);
		ret = ltt_relay_write_at(idx_fd, hdr, sizeof(hdr), 0);
		if (ret) {
			close(idx_fd);
			unlinkat(st->trace->index_fd, idx_name, 0);
		}
	}
	if (ret) {
		LTT_ERR("session %" PRIu64 ": can't create %s/index/%s: %s", st->session->id,
			st->trace->pathname, idx_name, strerror(-ret));
		close(fd);
		unlinkat(st->trace->dir_fd, name, 0);
		return ret;
	}
	*ret_fd = fd;
	*ret_idx_fd = idx_fd;
	return 0;
}
