// SPDX-License-Identifier: LGPL-2.1-only
/*
 * proc-status.c - a task's small files in /proc, read whole, and a number
 * of its status file (proc-status.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/proc-status.h"

int ltt_proc_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return (int)n;
}

int ltt_proc_status_number(const char *path, const char *key, long *ret)
{
	char buf[2048], *at, *end;
	size_t klen = strlen(key);
	int n = ltt_proc_read(path, buf, sizeof(buf));
	long v;

	if (n < 0)
		return n;
	/* a line's start, then the key and its colon */
	for (at = strstr(buf, key); at; at = strstr(at + 1, key))
		if (at > buf && at[-1] == '\n' && at[klen] == ':')
			break;
	if (!at)
		return -ENOENT;
	at += klen + 1;
	v = strtol(at, &end, 10);
	if (end == at)
		return -ENOENT;
	*ret = v;
	return 0;
}
