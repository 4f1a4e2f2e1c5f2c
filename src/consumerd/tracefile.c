// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefile.c - a stream's data and index files, with rotation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "consumerd/tracefile.h"

/* The name of file @no: BASE or BASE_N, with ".idx" for the index. */
static int file_name(const struct ltt_tracefile *tf, uint64_t no, bool index, char *buf,
		     size_t len)
{
	int n;

	if (tf->max_size)
		n = snprintf(buf, len, "%s_%" PRIu64 "%s", tf->base, no, index ? ".idx" : "");
	else
		n = snprintf(buf, len, "%s%s", tf->base, index ? ".idx" : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Create the data and index files of file @no; the index gets its header. */
static int open_files(struct ltt_tracefile *tf, uint64_t no, int *ret_fd, int *ret_idx_fd)
{
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE];
	struct iovec iov = { .iov_base = hdr, .iov_len = sizeof(hdr) };
	char name[NAME_MAX + 1], idx_name[NAME_MAX + 1];
	int fd, idx_fd, ret;

	ret = file_name(tf, no, false, name, sizeof(name));
	if (!ret)
		ret = file_name(tf, no, true, idx_name, sizeof(idx_name));
	if (ret)
		return ret;
	ret = ltt_fs_create(tf->dir_fd, name, tf->owner, &fd);
	if (ret) {
		LTT_ERR("can't create the stream file %s: %s", name, strerror(-ret));
		return ret;
	}
	ret = ltt_fs_create(tf->index_dir_fd, idx_name, tf->owner, &idx_fd);
	if (ret) {
		LTT_ERR("can't create the index file %s: %s", idx_name, strerror(-ret));
		goto fail_data;
	}
	ltt_ctf_index_header(hdr);
	ret = ltt_fs_pwritev_all(idx_fd, &iov, 1, 0);
	if (ret) {
		LTT_ERR("can't write the index file %s: %s", idx_name, strerror(-ret));
		close(idx_fd);
		unlinkat(tf->index_dir_fd, idx_name, 0);
		goto fail_data;
	}
	*ret_fd = fd;
	*ret_idx_fd = idx_fd;
	return 0;
fail_data:
	close(fd);
	unlinkat(tf->dir_fd, name, 0);
	return ret;
}

/* Delete file @no and its index; a file already gone is fine. */
static void remove_files(struct ltt_tracefile *tf, uint64_t no)
{
	char name[NAME_MAX + 1];

	if (!file_name(tf, no, false, name, sizeof(name)) &&
	    unlinkat(tf->dir_fd, name, 0) && errno != ENOENT)
		LTT_WARN("can't delete the old stream file %s: %s", name, strerror(errno));
	if (!file_name(tf, no, true, name, sizeof(name)) &&
	    unlinkat(tf->index_dir_fd, name, 0) && errno != ENOENT)
		LTT_WARN("can't delete the old index file %s: %s", name, strerror(errno));
}

int ltt_tracefile_init(struct ltt_tracefile *tf, const struct ltt_tracefile_cfg *cfg)
{
	int ret;

	tf->fd = tf->idx_fd = -1;
	if (strlen(cfg->base) > LTT_TRACEFILE_BASE_MAX)
		return -ENAMETOOLONG;
	strcpy(tf->base, cfg->base);
	tf->dir_fd = cfg->dir_fd;
	tf->index_dir_fd = cfg->index_dir_fd;
	tf->owner = cfg->owner;
	tf->max_size = cfg->max_size;
	tf->max_count = cfg->max_size ? cfg->max_count : 0;
	tf->file_no = tf->oldest_no = 0;
	tf->size = 0;
	tf->idx_size = LTT_CTF_INDEX_HEADER_SIZE;
	ret = open_files(tf, 0, &tf->fd, &tf->idx_fd);
	return ret;
}

void ltt_tracefile_fini(struct ltt_tracefile *tf)
{
	if (tf->fd >= 0)
		close(tf->fd);
	if (tf->idx_fd >= 0)
		close(tf->idx_fd);
	tf->fd = tf->idx_fd = -1;
}

/* Start file file_no + 1; past the count, delete the oldest ones. */
static int rotate(struct ltt_tracefile *tf)
{
	int fd, idx_fd, ret;

	ret = open_files(tf, tf->file_no + 1, &fd, &idx_fd);
	if (ret)
		return ret;	/* keep the current file; the next packet retries */
	ltt_tracefile_fini(tf);
	tf->fd = fd;
	tf->idx_fd = idx_fd;
	tf->file_no++;
	tf->size = 0;
	tf->idx_size = LTT_CTF_INDEX_HEADER_SIZE;
	while (tf->max_count && tf->file_no - tf->oldest_no + 1 > tf->max_count) {
		remove_files(tf, tf->oldest_no);
		tf->oldest_no++;
	}
	return 0;
}

/* Cut @fd back to @size after a failed append. */
static void cut_back(int fd, uint64_t size, const char *what)
{
	if (ftruncate(fd, (off_t)size))
		LTT_ERR("can't cut the %s back after a failed write: %s", what, strerror(errno));
}

int ltt_tracefile_write(struct ltt_tracefile *tf, const struct iovec *iov, int iovcnt,
			uint64_t len, struct ltt_ctf_index_entry *entry)
{
	uint8_t rec[LTT_CTF_INDEX_ENTRY_SIZE];
	struct iovec riov = { .iov_base = rec, .iov_len = sizeof(rec) };
	int ret;

	if (tf->fd < 0 || tf->idx_fd < 0)
		return -EBADF;
	if (tf->max_size && tf->size &&
	    (tf->size >= tf->max_size || len > tf->max_size - tf->size)) {
		ret = rotate(tf);
		if (ret)
			return ret;
	}
	if (len > INT64_MAX - tf->size)
		return -EFBIG;
	entry->offset = tf->size;
	ret = ltt_fs_pwritev_all(tf->fd, iov, iovcnt, tf->size);
	if (ret) {
		cut_back(tf->fd, tf->size, "stream file");
		return ret;
	}
	ltt_ctf_index_entry(entry, rec);
	ret = ltt_fs_pwritev_all(tf->idx_fd, &riov, 1, tf->idx_size);
	if (ret) {
		cut_back(tf->idx_fd, tf->idx_size, "index file");
		cut_back(tf->fd, tf->size, "stream file");
		return ret;
	}
	tf->size += len;
	tf->idx_size += sizeof(rec);
	return 0;
}
