// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - a trace's directories and its packetized metadata file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/ctf.h"
#include "common/log.h"
#include "consumerd/trace.h"

/* The metadata file's limit: text beyond it is refused (-EFBIG). */
#define METADATA_MAX_TEXT ((uint64_t)1 << 30)

_Static_assert(LTT_TRACE_UUID_LEN == LTT_CTF_UUID_LEN, "uuid length");

int ltt_trace_create(uint64_t key, const char *dir, const uint8_t *uuid,
		     const struct ltt_owner *owner, struct ltt_trace **ret_trace)
{
	struct ltt_trace *t;
	int ret;

	if (!dir || !uuid || !owner || !ret_trace)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->dir_fd = t->index_fd = t->meta_fd = -1;
	t->key = key;
	memcpy(t->uuid, uuid, sizeof(t->uuid));
	t->owner = *owner;
	t->path = strdup(dir);
	if (!t->path) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = ltt_fs_mkdir_path(dir, owner, &t->dir_fd);
	if (ret) {
		LTT_ERR("trace %s: can't create the directory: %s", dir, strerror(-ret));
		goto fail;
	}
	ret = ltt_fs_mkdirat(t->dir_fd, LTT_TRACE_INDEX_DIR_NAME, owner, &t->index_fd);
	if (ret) {
		LTT_ERR("trace %s: can't create its index directory: %s", dir, strerror(-ret));
		goto fail;
	}
	/* A directory that already holds a trace is not written over. */
	ret = ltt_fs_create_new(t->dir_fd, LTT_TRACE_METADATA_NAME, owner, &t->meta_fd);
	if (ret) {
		LTT_ERR("trace %s: can't create its metadata file: %s%s", dir, strerror(-ret),
			ret == -EEXIST ? " (a trace is there already)" : "");
		goto fail;
	}
	*ret_trace = t;
	return 0;
fail:
	ltt_trace_destroy(t);
	return ret;
}

void ltt_trace_destroy(struct ltt_trace *t)
{
	if (!t)
		return;
	if (t->meta_fd >= 0)
		close(t->meta_fd);
	if (t->index_fd >= 0)
		close(t->index_fd);
	if (t->dir_fd >= 0)
		close(t->dir_fd);
	free(t->path);
	free(t);
}

int ltt_trace_append_metadata(struct ltt_trace *t, const void *text, size_t len)
{
	struct iovec iov;
	size_t size;
	void *buf;
	int ret;

	if (!t || (len && !text))
		return -EINVAL;
	if (!len)
		return 0;
	if (memchr(text, '\0', len))
		return -EINVAL;
	if (len > METADATA_MAX_TEXT - t->meta_text)
		return -EFBIG;
	size = ltt_ctf_metadata_size(len);
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	ret = ltt_ctf_metadata_packet(t->uuid, text, len, buf, size, &size);
	if (!ret) {
		iov.iov_base = buf;
		iov.iov_len = size;
		ret = ltt_fs_pwritev_all(t->meta_fd, &iov, 1, t->meta_size);
		if (ret) {
			LTT_ERR("trace %s: can't write metadata: %s", t->path, strerror(-ret));
			/* whole packets only: a reader never sees a torn one for long */
			if (ftruncate(t->meta_fd, (off_t)t->meta_size))
				LTT_ERR("trace %s: can't cut the metadata back: %s", t->path,
					strerror(errno));
		}
	}
	free(buf);
	if (ret)
		return ret;
	t->meta_size += size;
	t->meta_text += len;
	return 0;
}
