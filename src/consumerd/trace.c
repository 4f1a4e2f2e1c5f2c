// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - a trace's directories and its packetized metadata file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/ctf.h"
#include "common/relay-proto.h"
#include "common/log.h"
#include "consumerd/sink-file.h"
#include "consumerd/sink-relay.h"
#include "consumerd/trace.h"

/* The metadata file's limit: text beyond it is refused (-EFBIG). */
#define METADATA_MAX_TEXT ((uint64_t)1 << 30)

_Static_assert(LTT_TRACE_UUID_LEN == LTT_CTF_UUID_LEN, "uuid length");

int ltt_trace_create(uint64_t key, const char *dir, const uint8_t *uuid,
		     const struct ltt_owner *owner, bool resume, struct ltt_trace **ret_trace)
{
	struct ltt_sink_file_cfg out = { 0 };
	struct ltt_trace *t;
	int ret;

	if (!dir || !uuid || !owner || !ret_trace)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->dir_fd = t->index_fd = -1;
	t->key = key;
	t->resume = resume;
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
	/* the trace's output makes the metadata file: never over another trace's */
	out.dir_fd = t->dir_fd;
	out.index_dir_fd = t->index_fd;
	out.owner = *owner;
	out.metadata = true;
	out.resume = resume;
	ret = ltt_sink_file_output_create(&out, &t->output);
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

/* A relative path without "", "." or ".." components. */
static bool relative_path_ok(const char *p)
{
	const char *c = p;
	size_t n;

	if (!*p || *p == '/')
		return false;
	while (*c) {
		n = strcspn(c, "/");
		if (!n || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c == '/' && !*++c)
			return false;	/* a trailing slash */
	}
	return true;
}

int ltt_trace_create_relayed(uint64_t key, const char *pathname, const uint8_t *uuid,
			     const struct ltt_owner *owner, struct ltt_relay *relay,
			     struct ltt_trace **ret_trace)
{
	struct ltt_trace *t;
	int ret;

	if (!pathname || !uuid || !owner || !relay || !ret_trace)
		return -EINVAL;
	if (!relative_path_ok(pathname) || strlen(pathname) >= LTT_RELAY_PATH_MAX)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->dir_fd = t->index_fd = -1;
	t->key = key;
	memcpy(t->uuid, uuid, sizeof(t->uuid));
	t->owner = *owner;
	t->relay = relay;
	t->path = strdup(pathname);
	if (!t->path) {
		ltt_trace_destroy(t);
		return -ENOMEM;
	}
	ret = ltt_sink_relay_output_create(relay, pathname, 0, 0, true, &t->output);
	if (ret) {
		LTT_ERR("trace %s: can't add its metadata stream to the relay: %s", pathname,
			strerror(-ret));
		ltt_trace_destroy(t);
		return ret;
	}
	*ret_trace = t;
	return 0;
}

void ltt_trace_remove_if_empty(struct ltt_trace *t)
{
	struct stat st;

	if (!t || t->dir_fd < 0 || t->resume || t->meta_text || t->nr_channels)
		return;
	/* no stream ever wrote an index here, and the metadata file is empty */
	if (unlinkat(t->dir_fd, LTT_TRACE_INDEX_DIR_NAME, AT_REMOVEDIR))
		return;
	if (fstatat(t->dir_fd, LTT_TRACE_METADATA_NAME, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISREG(st.st_mode) || st.st_size ||
	    unlinkat(t->dir_fd, LTT_TRACE_METADATA_NAME, 0))
		return;
	if (rmdir(t->path))
		LTT_WARN("trace %s: its empty directory stays: %s", t->path, strerror(errno));
	else
		LTT_INFO("trace %s: closed before any metadata: its empty directory removed",
			 t->path);
}

void ltt_trace_destroy(struct ltt_trace *t)
{
	if (!t)
		return;
	ltt_output_destroy(t->output);
	if (t->index_fd >= 0)
		close(t->index_fd);
	if (t->dir_fd >= 0)
		close(t->dir_fd);
	free(t->path);
	free(t);
}

int ltt_trace_append_metadata(struct ltt_trace *t, const void *text, size_t len)
{
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
		ret = ltt_output_metadata(t->output, buf, size);
		if (ret)
			LTT_ERR("trace %s: can't write metadata: %s", t->path, strerror(-ret));
	}
	free(buf);
	if (ret)
		return ret;
	t->meta_text += len;
	return 0;
}
