// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-tracefs-stats.c - ftrace's per-CPU statistics file, beside a
 * tracefs source's trace_pipe_raw (source-tracefs-stats.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/size.h"
#include "consumerd/source/source-tracefs-stats.h"

/* The value of the line "@key: N" in the stats file's text @s. */
static int parse_stat(const char *s, const char *key, uint64_t *ret)
{
	size_t len = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)); p += len)
		if ((p == s || p[-1] == '\n') && p[len] == ':')
			return sscanf(p + len + 1, " %" SCNu64, ret) == 1 ? 0 : -EINVAL;
	return -EINVAL;
}

/* The stats file's text, read now into @text (@len bytes, NUL-ended): 0 or -errno. */
static int stats_text(int fd, char *text, size_t len)
{
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	n = pread(fd, text, len - 1, 0);
	if (n < 0)
		return -errno;
	text[n] = '\0';
	return 0;
}

int ltt_tfs_stats_read(int fd, const char *key, uint64_t *ret)
{
	char text[1024];
	int err = stats_text(fd, text, sizeof(text));

	return err ? err : parse_stat(text, key, ret);
}

/*
 * The three counts are of distinct events: "dropped events" (a full
 * buffer in discard mode), "overrun" (overwritten in overwrite mode; a
 * page's missed flag says 1 when it had no room for the count, and the
 * converter does not count it: ltt_ftrace_conv_missed_elsewhere()) and
 * "commit overrun" (a write dropped in overwrite mode because the page
 * it needed was still being committed).
 */
int ltt_tfs_stats_lost(int fd, uint64_t *ret)
{
	char text[1024];
	uint64_t dropped, overrun, commit;
	int err = stats_text(fd, text, sizeof(text));

	if (!err)
		err = parse_stat(text, "dropped events", &dropped);
	if (!err)
		err = parse_stat(text, "overrun", &overrun);
	if (!err)
		err = parse_stat(text, "commit overrun", &commit);
	if (err)
		return err;
	ltt_add_sat(&dropped, overrun);
	ltt_add_sat(&dropped, commit);
	*ret = dropped;
	return 0;
}

int ltt_tfs_stats_open(int pipe_fd, const char *label)
{
	static const char pipe_name[] = "/trace_pipe_raw";
	char link[64], path[4096];
	size_t len;
	ssize_t n;
	int fd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", pipe_fd);
	n = readlink(link, path, sizeof(path) - 1);
	len = n > 0 ? (size_t)n : 0;
	path[len] = '\0';
	if (len < sizeof(pipe_name) || strcmp(path + len - (sizeof(pipe_name) - 1), pipe_name) ||
	    len + 6 >= sizeof(path)) {
		LTT_WARN("%s: the pipe's stats file can't be found (%s): events a full buffer drops are not counted",
			 label, n < 0 ? strerror(errno) : "not a trace_pipe_raw");
		return -1;
	}
	strcpy(path + len - (sizeof(pipe_name) - 1), "/stats");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		LTT_WARN("%s: can't open %s (%s): events a full buffer drops are not counted",
			 label, path, strerror(errno));
	return fd;
}
