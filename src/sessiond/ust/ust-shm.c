// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-shm.c - a session's user-space ring buffers as files under its
 * shared memory path (ust-shm.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/base/as-user.h"
#include "common/base/log.h"
#include "sessiond/ust/ust-shm.h"
#include "common/base/sock.h"
#include "sessiond/priv/priv.h"
#include "sessiond/ust/ust-buffers-internal.h"

/* @trace's directory into @buf; its session's part ends at *@ret_top. */
static int trace_dir(const struct ltt_ust_trace *trace, char *buf, size_t len, size_t *ret_top)
{
	char top[LTT_PATH_MAX];
	int ret = ltt_session_shm_dir(trace->ct.session, top, sizeof(top));

	if (!ret)
		ret = ltt_ust_trace_path_in(trace, top, 0, buf, len);
	if (!ret)
		*ret_top = strlen(top);
	return ret;
}

/* mkdir -p of the directory of file @path (absolute), as the caller's rights. */
static int make_parents(const char *path)
{
	char dir[PATH_MAX], *p;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return -EINVAL;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		if (!*p)
			return mkdir(dir, 0700) && errno != EEXIST ? -errno : 0;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
}

/* Directory @dir's files removed, then it and its parents while empty, down to @keep bytes. */
static int remove_dirs(char *dir, size_t keep)
{
	struct dirent *e;
	char *slash;
	DIR *d = opendir(dir);

	/* only files of ours in it: "metadata" and the streams */
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	while (strlen(dir) >= keep && !rmdir(dir)) {
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return 0;
}

int ltt_ust_shm_job(unsigned int job, const char *path, size_t keep, int *ret_fd)
{
	char dir[PATH_MAX];
	int fd, flags;

	if (path[0] != '/' || keep > strlen(path))
		return -EINVAL;
	if (job == LTT_PRIV_SHM_REMOVE) {
		if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
			return -ENAMETOOLONG;
		return remove_dirs(dir, keep);
	}
	if (job != LTT_PRIV_SHM_STREAM && job != LTT_PRIV_SHM_METADATA)
		return -EINVAL;
	fd = make_parents(path);
	if (fd)
		return fd;
	flags = job == LTT_PRIV_SHM_STREAM ? O_RDWR | O_CREAT | O_EXCL : O_WRONLY | O_APPEND | O_CREAT;
	fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	*ret_fd = fd;
	return 0;
}

/*
 * Job @job on @path for @trace's session: by the privileged part once a
 * root daemon gave its rights up, else here, with the owner's rights.
 */
static int job_for(const struct ltt_ust_trace *trace, unsigned int job, const char *path,
		   size_t keep, int *ret_fd)
{
	const struct ltt_session *session = trace->ct.session;
	struct ltt_as_user o;
	int ret = ltt_priv_shm_file(session->id, job, path, keep, ret_fd);

	if (ret != 1)
		return ret;
	ret = ltt_as_user_begin(session->uid, session->gid, &o);
	if (!ret)
		ret = ltt_ust_shm_job(job, path, keep, ret_fd);
	ltt_as_user_end(&o);
	return ret;
}

int ltt_ust_shm_stream(const struct ltt_ust_trace *trace, const struct ltt_channel *channel,
		       unsigned int cpu, int *ret_fd)
{
	char dir[LTT_PATH_MAX], path[LTT_PATH_MAX + LTT_NAME_MAX + 16];
	size_t top;
	int ret = trace_dir(trace, dir, sizeof(dir), &top);

	if (ret)
		return ret;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s_%u", dir, channel->attr.name, cpu) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	return job_for(trace, LTT_PRIV_SHM_STREAM, path, top, ret_fd);
}

/*
 * @session's crash copy failed (-errno @err): the first failure is kept,
 * for list and stop to say (its time first, published with the error).
 */
static void shm_failed(struct ltt_session *session, int err)
{
	int none = 0;
	int64_t now = (int64_t)time(NULL);

	if (__atomic_load_n(&session->shm_error, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&session->shm_error_since, now, __ATOMIC_RELAXED);
	__atomic_compare_exchange_n(&session->shm_error, &none, err, false, __ATOMIC_RELEASE,
				    __ATOMIC_RELAXED);
}

void ltt_ust_shm_metadata(const struct ltt_ust_trace *trace, const struct ltt_wbuf *text)
{
	char dir[LTT_PATH_MAX], path[LTT_PATH_MAX + 16];
	int fd = -1, ret;
	size_t top;

	if (!trace->ct.session->shm_path[0] || !text->len)
		return;
	ret = trace_dir(trace, dir, sizeof(dir), &top);
	if (!ret && (size_t)snprintf(path, sizeof(path), "%s/metadata", dir) >= sizeof(path))
		ret = -ENAMETOOLONG;
	if (!ret)
		ret = job_for(trace, LTT_PRIV_SHM_METADATA, path, top, &fd);
	if (!ret)
		ret = ltt_io_write_all(fd, text->data, text->len);
	if (fd >= 0)
		close(fd);
	if (!ret)
		return;
	LTT_ERR("trace %s: can't write its metadata under the shared memory path %s: %s (a crash copy of it would lack it)",
		trace->ct.path, trace->ct.session->shm_path, strerror(-ret));
	shm_failed(trace->ct.session, ret);
}

void ltt_ust_shm_remove(const struct ltt_ust_trace *trace)
{
	char dir[LTT_PATH_MAX];
	size_t top;
	int fd = -1;

	if (trace->ct.session->shm_path[0] && !trace_dir(trace, dir, sizeof(dir), &top))
		job_for(trace, LTT_PRIV_SHM_REMOVE, dir, top, &fd);
}
