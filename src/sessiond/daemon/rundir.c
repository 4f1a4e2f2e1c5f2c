// SPDX-License-Identifier: GPL-2.0-only
/*
 * rundir.c - the daemon's run directory (see rundir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/durable.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/proto/client-proto.h"
#include "sessiond/daemon/rundir.h"

int ltt_rundir_file(const struct ltt_rundir *rd, const char *name, char *buf, unsigned long len)
{
	return ltt_path_join(buf, len, rd->path, name);
}

/* The pid in the pid file, or 0. */
static long read_pid(const struct ltt_rundir *rd)
{
	char path[PATH_MAX];
	long pid = 0;
	FILE *f;

	if (ltt_rundir_file(rd, LTT_SESSIOND_PID_NAME, path, sizeof(path)))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

static int check_dir(const char *path, bool shared)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		LTT_ERR("run directory %s is not a directory", path);
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		LTT_ERR("run directory %s belongs to uid %u, not to us (uid %u)", path,
			(unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if (!shared && (st.st_mode & 077) && chmod(path, 0700)) {
		LTT_ERR("run directory %s is open to others and can't be closed: %s", path,
			strerror(errno));
		return -EPERM;
	}
	return 0;
}

int ltt_rundir_open(struct ltt_rundir *rd, const char *path, bool shared)
{
	char lock_path[PATH_MAX];
	long pid;
	int ret;

	rd->lock_fd = -1;
	rd->pid_written = false;
	if (strlen(path) >= sizeof(rd->path))
		return -ENAMETOOLONG;
	strcpy(rd->path, path);
	ret = ltt_mkdir_p(path, shared ? 0755 : 0700);
	if (ret) {
		LTT_ERR("can't create run directory %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = check_dir(path, shared);
	if (ret)
		return ret;
	ret = ltt_rundir_file(rd, LTT_SESSIOND_LOCK_NAME, lock_path, sizeof(lock_path));
	if (ret)
		return ret;
	rd->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (rd->lock_fd < 0) {
		ret = -errno;
		LTT_ERR("can't open lock file %s: %s", lock_path, strerror(errno));
		return ret;
	}
	if (flock(rd->lock_fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(rd->lock_fd);
		rd->lock_fd = -1;
		if (ret != -EBUSY) {
			LTT_ERR("can't lock %s: %s", lock_path, strerror(-ret));
			return ret;
		}
		pid = read_pid(rd);
		if (pid > 0)
			LTT_ERR("another ltt-sessiond (pid %ld) is already running with run directory %s; stop it first or use another --rundir",
				pid, path);
		else
			LTT_ERR("another ltt-sessiond is already running with run directory %s; stop it first or use another --rundir",
				path);
		return ret;
	}
	/*
	 * The lock file may have been deleted under a live daemon, whose lock
	 * is then on another inode: a daemon that answers on the socket is
	 * alive whatever the lock says.
	 */
	if (!ltt_rundir_file(rd, LTT_CLIENT_SOCKET_NAME, lock_path, sizeof(lock_path)) &&
	    ltt_sock_unix_answers(lock_path)) {
		close(rd->lock_fd);
		rd->lock_fd = -1;
		pid = read_pid(rd);
		LTT_ERR("another ltt-sessiond (pid %ld) answers on %s although %s/%s was not locked (deleted?); stop it first or use another --rundir",
			pid, lock_path, path, LTT_SESSIOND_LOCK_NAME);
		return -EBUSY;
	}
	return 0;
}

int ltt_rundir_write_pid(struct ltt_rundir *rd)
{
	char path[PATH_MAX], text[32];
	int ret;

	ret = ltt_rundir_file(rd, LTT_SESSIOND_PID_NAME, path, sizeof(path));
	if (ret)
		return ret;
	snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	ret = ltt_file_replace(path, text, strlen(text), 0644);
	if (ret)
		return ret;
	rd->pid_written = true;
	return 0;
}

void ltt_rundir_close(struct ltt_rundir *rd)
{
	char path[PATH_MAX];

	if (rd->pid_written && !ltt_rundir_file(rd, LTT_SESSIOND_PID_NAME, path, sizeof(path)))
		unlink(path);
	rd->pid_written = false;
	if (rd->lock_fd >= 0)
		close(rd->lock_fd);
	rd->lock_fd = -1;
}
