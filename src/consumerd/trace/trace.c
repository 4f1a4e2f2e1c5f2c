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
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/proto/relay-proto.h"
#include "common/trace/ctf.h"
#include "consumerd/sink/sink-file.h"
#include "consumerd/sink/sink-relay.h"
#include "consumerd/trace/trace.h"

/* The metadata file's limit: text beyond it is refused (-EFBIG). */
#define METADATA_MAX_TEXT ((uint64_t)1 << 30)

_Static_assert(LTT_TRACE_UUID_LEN == LTT_CTF_UUID_LEN, "uuid length");

/* A trace with no directory and no output yet, named @path; NULL without memory. */
static struct ltt_trace *trace_alloc(uint64_t key, const uint8_t *uuid,
				     const struct ltt_owner *owner, const char *path)
{
	struct ltt_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->dir_fd = t->index_fd = -1;
	t->key = key;
	memcpy(t->uuid, uuid, sizeof(t->uuid));
	t->owner = *owner;
	t->path = strdup(path);
	if (!t->path) {
		free(t);
		return NULL;
	}
	return t;
}

int ltt_trace_create(uint64_t key, const char *dir, const uint8_t *uuid,
		     const struct ltt_owner *owner, bool resume, struct ltt_trace **ret_trace)
{
	struct ltt_sink_file_cfg out = { 0 };
	struct ltt_trace *t;
	int ret;

	if (!dir || !uuid || !owner || !ret_trace)
		return -EINVAL;
	t = trace_alloc(key, uuid, owner, dir);
	if (!t)
		return -ENOMEM;
	t->resume = resume;
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
	if (ret == -EEXIST) {
		/*
		 * Not an error: the session daemon names the trace anew (a
		 * program registered again in the same second, after an exec,
		 * or an output used again) and says it if it has to give up.
		 */
		LTT_INFO("trace %s: a trace is there already: not written over", dir);
		goto fail;
	}
	if (ret) {
		LTT_ERR("trace %s: can't create its metadata file: %s", dir, strerror(-ret));
		goto fail;
	}
	*ret_trace = t;
	return 0;
fail:
	ltt_trace_destroy(t);
	return ret;
}

int ltt_trace_create_snapshot(uint64_t key, const uint8_t *uuid, const struct ltt_owner *owner,
			      struct ltt_trace **ret_trace)
{
	struct ltt_trace *t;

	if (!uuid || !owner || !ret_trace)
		return -EINVAL;
	t = trace_alloc(key, uuid, owner, "(snapshot)");
	if (!t)
		return -ENOMEM;
	t->snapshot = true;
	*ret_trace = t;
	return 0;
}

bool ltt_trace_relay_path_ok(const char *p)
{
	const char *c = p;
	size_t n;

	if (!*p || *p == '/')
		return false;
	if (strlen(p) >= LTT_RELAY_PATH_MAX)
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
	if (!ltt_trace_relay_path_ok(pathname))
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

/* Let go of where @t writes: its output, directory, index directory and path. */
static void release_place(struct ltt_trace *t)
{
	ltt_output_destroy(t->output);
	ltt_fd_close(&t->index_fd);
	ltt_fd_close(&t->dir_fd);
	free(t->path);
}

void ltt_trace_destroy(struct ltt_trace *t)
{
	if (!t)
		return;
	release_place(t);
	free(t->meta_pending);
	free(t->meta_all);
	free(t);
}

/* Append @len bytes at @buf to *@kept, of *@kept_len bytes. */
static int keep(uint8_t **kept, size_t *kept_len, const void *buf, size_t len)
{
	uint8_t *grown;

	if (!len)
		return 0;	/* realloc() of 0 bytes would free *kept */
	grown = realloc(*kept, *kept_len + len);
	if (!grown)
		return -ENOMEM;
	memcpy(grown + *kept_len, buf, len);
	*kept = grown;
	*kept_len += len;
	return 0;
}

/* Keep @len bytes of packets to write at the next try (local traces). */
static int keep_pending(struct ltt_trace *t, const void *buf, size_t len, int err)
{
	if (keep(&t->meta_pending, &t->meta_pending_len, buf, len))
		return -ENOMEM;
	if (!t->meta_error) {
		t->meta_error_since = (int64_t)time(NULL);
		LTT_ERR("trace %s: can't write metadata: %s; kept, written once the output works again",
			t->path, strerror(-err));
	}
	t->meta_error = err;
	return 0;
}

/* Keep a copy of @len bytes of packets: every chunk (and snapshot) gets them all. */
static int keep_all(struct ltt_trace *t, const void *buf, size_t len)
{
	return keep(&t->meta_all, &t->meta_all_len, buf, len);
}

/* Forget the packets kept for the next try: written, or in a new file whole. */
static void drop_pending(struct ltt_trace *t)
{
	free(t->meta_pending);
	t->meta_pending = NULL;
	t->meta_pending_len = 0;
	t->meta_error = 0;
}

/* Forget every packet so far and the text's count: a new text starts. */
static void drop_all(struct ltt_trace *t)
{
	free(t->meta_all);
	t->meta_all = NULL;
	t->meta_all_len = 0;
	t->meta_text = 0;
}

int ltt_trace_retry(struct ltt_trace *t)
{
	int ret;

	if (!t->meta_pending_len)
		return 0;
	ret = ltt_output_metadata(t->output, t->meta_pending, t->meta_pending_len);
	if (ret) {
		t->meta_error = ret;
		return ret;
	}
	drop_pending(t);
	LTT_INFO("trace %s: pending metadata written", t->path);
	return 0;
}

int ltt_trace_failure(struct ltt_trace *t, int64_t *ret_since)
{
	struct stat st;

	if (t->dir_fd >= 0 && !fstat(t->dir_fd, &st) && !st.st_nlink) {
		if (!t->removed_since) {
			t->removed_since = (int64_t)time(NULL);
			LTT_ERR("trace %s: its directory was removed", t->path);
		}
		*ret_since = t->removed_since;
		return -ENOENT;
	}
	if (t->meta_error)
		*ret_since = t->meta_error_since;
	return t->meta_error;
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
	/* the first text says the format: CTF 2's JSON text sequence starts with RS */
	if (!t->meta_text)
		t->ctf2 = *(const uint8_t *)text == LTT_CTF2_RS;
	else if (t->ctf2 != (*(const uint8_t *)text == LTT_CTF2_RS))
		return -EINVAL;
	size = t->ctf2 ? len : ltt_ctf_metadata_size(len);
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	ret = 0;
	if (t->ctf2)	/* not packetized */
		memcpy(buf, text, len);
	else
		ret = ltt_ctf_metadata_packet(t->uuid, text, len, buf, size, &size);
	/* a snapshot trace writes nothing now: each snapshot gets it all */
	if (!ret && (t->snapshot || t->dir_fd >= 0 || t->relay))
		ret = keep_all(t, buf, size);
	if (!ret && !t->snapshot) {
		/* in order: what is pending goes first */
		ret = ltt_trace_retry(t);
		if (!ret)
			ret = ltt_output_metadata(t->output, buf, size);
		if (ret && t->dir_fd >= 0)
			ret = keep_pending(t, buf, size, ret);
		else if (ret)
			LTT_ERR("trace %s: can't write metadata: %s", t->path, strerror(-ret));
	}
	free(buf);
	if (ret)
		return ret;
	t->meta_text += len;
	return 0;
}

/* A relayed trace's next chunk: trace @path of the same relay session. */
static int relay_chunk_create(struct ltt_trace *t, const char *path, struct ltt_trace_chunk *ret)
{
	struct ltt_trace_chunk c = { .dir_fd = -1, .index_fd = -1 };
	int err;

	if (!path || !ltt_trace_relay_path_ok(path))
		return -EINVAL;
	c.path = strdup(path);
	if (!c.path)
		return -ENOMEM;
	err = ltt_sink_relay_output_create(t->relay, path, 0, 0, true, &c.output);
	if (!err && t->meta_all_len)
		err = ltt_output_metadata(c.output, t->meta_all, t->meta_all_len);
	if (err) {
		LTT_ERR("trace %s: can't start chunk %s on the relay: %s", t->path, path,
			strerror(-err));
		ltt_trace_chunk_abort(&c);
		return err;
	}
	*ret = c;
	return 0;
}

int ltt_trace_chunk_create(struct ltt_trace *t, const char *dir, struct ltt_trace_chunk *ret)
{
	struct ltt_sink_file_cfg out = { 0 };
	struct ltt_trace_chunk c = { .dir_fd = -1, .index_fd = -1 };
	int err;

	if (t->relay)
		return relay_chunk_create(t, dir, ret);
	if (t->dir_fd < 0 || !dir || dir[0] != '/')
		return -EINVAL;
	c.path = strdup(dir);
	if (!c.path)
		return -ENOMEM;
	err = ltt_fs_mkdir_path(dir, &t->owner, &c.dir_fd);
	if (!err)
		err = ltt_fs_mkdirat(c.dir_fd, LTT_TRACE_INDEX_DIR_NAME, &t->owner, &c.index_fd);
	if (err) {
		LTT_ERR("trace %s: can't create the chunk directory %s: %s", t->path, dir,
			strerror(-err));
		goto fail;
	}
	out.dir_fd = c.dir_fd;
	out.index_dir_fd = c.index_fd;
	out.owner = t->owner;
	out.metadata = true;
	err = ltt_sink_file_output_create(&out, &c.output);
	if (err) {
		LTT_ERR("trace %s: can't create the metadata file of chunk %s: %s%s", t->path, dir,
			strerror(-err), err == -EEXIST ? " (a trace is there already)" : "");
		goto fail;
	}
	if (t->meta_all_len)
		err = ltt_output_metadata(c.output, t->meta_all, t->meta_all_len);
	if (err) {
		LTT_ERR("trace %s: can't write the metadata of chunk %s: %s", t->path, dir,
			strerror(-err));
		goto fail;
	}
	*ret = c;
	return 0;
fail:
	ltt_trace_chunk_abort(&c);
	return err;
}

void ltt_trace_chunk_commit(struct ltt_trace *t, struct ltt_trace_chunk *c)
{
	release_place(t);
	t->output = c->output;
	t->dir_fd = c->dir_fd;
	t->index_fd = c->index_fd;
	t->path = c->path;
	/* the new metadata file holds every packet: nothing is pending there */
	drop_pending(t);
	t->removed_since = 0;
	t->resume = false;
	*c = (struct ltt_trace_chunk){ .dir_fd = -1, .index_fd = -1 };
}

void ltt_trace_chunk_abort(struct ltt_trace_chunk *c)
{
	if (c->output) {
		ltt_output_destroy(c->output);
		unlinkat(c->dir_fd, LTT_TRACE_METADATA_NAME, 0);
	}
	if (c->index_fd >= 0) {
		close(c->index_fd);
		unlinkat(c->dir_fd, LTT_TRACE_INDEX_DIR_NAME, AT_REMOVEDIR);
	}
	if (c->dir_fd >= 0) {
		close(c->dir_fd);
		rmdir(c->path);	/* only if empty: a directory that was there stays */
	}
	free(c->path);
	*c = (struct ltt_trace_chunk){ .dir_fd = -1, .index_fd = -1 };
}

int ltt_trace_reset_metadata(struct ltt_trace *t, bool rewrite)
{
	int ret;

	if (t->snapshot && !rewrite) {
		/* nothing written yet: the next snapshot gets the new text whole */
		drop_all(t);
		return 0;
	}
	if (t->relay && !rewrite) {
		/* the relay output sends the next text as the new one */
		ret = ltt_output_reset_metadata(t->output);
		if (ret)
			return ret;
		drop_all(t);
		return 0;
	}
	if (t->dir_fd < 0)
		return -EOPNOTSUPP;
	drop_pending(t);
	if (!rewrite)
		drop_all(t);
	ret = ltt_output_reset_metadata(t->output);
	if (ret) {
		LTT_ERR("trace %s: can't empty its metadata file: %s", t->path, strerror(-ret));
		return ret;
	}
	if (!rewrite || !t->meta_all_len)
		return 0;
	ret = ltt_output_metadata(t->output, t->meta_all, t->meta_all_len);
	if (ret)
		ret = keep_pending(t, t->meta_all, t->meta_all_len, ret);
	return ret;
}
