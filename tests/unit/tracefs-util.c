// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracefs-util.c - see tracefs-util.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/paths.h"
#include "tracefs-util.h"

static char mount_dir[256];
static bool mounted_here;

/* An existing tracefs mount from /proc/mounts, into mount_dir. */
static bool find_mount(void)
{
	char line[1024], dev[256], dir[256], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %255s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "tracefs") && !strchr(dir, '\\')) {
			snprintf(mount_dir, sizeof(mount_dir), "%s", dir);
			found = true;
		}
	fclose(f);
	return found;
}

static bool kernel_has_tracefs(void)
{
	static char buf[16384];

	return tu_read_text("/proc/filesystems", buf, sizeof(buf)) > 0 &&
	       strstr(buf, "\ttracefs\n");
}

const char *tu_tracefs_open(const char **reason)
{
	const char *base = getenv("TMPDIR");

	if (mount_dir[0])
		return mount_dir;
	if (find_mount())
		return mount_dir;
	if (!kernel_has_tracefs()) {
		*reason = "this kernel has no tracefs";
		return NULL;
	}
	if (geteuid() != 0) {
		*reason = "tracefs is not mounted and only root can mount it";
		return NULL;
	}
	snprintf(mount_dir, sizeof(mount_dir), "%s/ltt-tracefs.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(mount_dir)) {
		mount_dir[0] = '\0';
		*reason = "no temporary directory to mount tracefs on";
		return NULL;
	}
	if (mount("nodev", mount_dir, "tracefs", 0, NULL)) {
		rmdir(mount_dir);
		mount_dir[0] = '\0';
		*reason = "mounting tracefs failed (a container without the right?)";
		return NULL;
	}
	mounted_here = true;
	return mount_dir;
}

void tu_tracefs_close(void)
{
	if (mounted_here && !umount(mount_dir))
		rmdir(mount_dir);
	mounted_here = false;
	mount_dir[0] = '\0';
}

long tu_read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 1;

	if (fd < 0 || !size)
		return fd < 0 ? -1 : (close(fd), -1);
	while (n > 0 && len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n > 0)
			len += (size_t)n;
	}
	close(fd);
	if (n < 0)
		return -1;
	buf[len] = '\0';
	return (long)len;
}

int tu_write_text(const char *path, const char *text)
{
	return ltt_write_control(AT_FDCWD, path, text);
}

int tu_babeltrace(const char *dir, const char *option, char *buf, size_t size)
{
	char out_path[4096 + 8];
	int status = -1;
	pid_t pid;

	snprintf(out_path, sizeof(out_path), "%s.txt", dir);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		setenv("LC_ALL", "C", 1);
		if (option)
			execlp("babeltrace2", "babeltrace2", option, dir, (char *)NULL);
		else
			execlp("babeltrace2", "babeltrace2", dir, (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (tu_read_text(out_path, buf, size) < 0)
		buf[0] = '\0';
	unlink(out_path);
	return status;
}
