// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rc.c - the current session, the line "session=NAME" of $LTT_HOME/.lttrc.
 *
 * The file may hold other lines; they are kept as they are.  Updates write
 * a temporary file next to it and rename it over the old one, so a reader
 * sees the old file or the new one, never half of one.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/durable.h"
#include "common/base/names.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "ctl/ctl.h"

#define RC_KEY "session="
#define RC_SIZE_MAX (64 * 1024)	/* a bigger file is not ours */

int ctl_rc_path(char *buf, size_t len)
{
	return ltt_home_find(LTT_HOME_RC, buf, len);
}

/*
 * The whole file, its path in @path (LTT_PATH_MAX), as a string
 * (returns-must-free); "" when it does not exist.
 */
static int rc_load(char *path, char **ret_text)
{
	size_t len = 0;
	ssize_t n;
	char *text;
	int fd, ret = ctl_rc_path(path, LTT_PATH_MAX);

	if (ret)
		return ret;
	text = malloc(RC_SIZE_MAX + 1);
	if (!text)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT) {
		ret = -errno;
		goto error;
	}
	while (fd >= 0 && len <= RC_SIZE_MAX) {
		n = read(fd, text + len, RC_SIZE_MAX + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto error;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > RC_SIZE_MAX) {
		ret = -EFBIG;
		goto error;
	}
	ltt_fd_close(&fd);
	text[len] = '\0';
	*ret_text = text;
	return 0;
error:
	ltt_fd_close(&fd);
	free(text);
	return ret;
}

/* The length of the line at @line, without its '\n'. */
static size_t line_len(const char *line)
{
	return strcspn(line, "\n");
}

/* The next line after @line, whose length is @len. */
static const char *next_line(const char *line, size_t len)
{
	return line + len + (line[len] == '\n');
}

static bool is_session_line(const char *line)
{
	return !strncmp(line, RC_KEY, strlen(RC_KEY));
}

int ctl_rc_read(char *buf, size_t len)
{
	char path[LTT_PATH_MAX];
	const char *line;
	size_t value_len;
	char *text;
	int ret;

	ret = rc_load(path, &text);
	if (ret)
		return ret;
	line = text;
	while (*line && !is_session_line(line))
		line = next_line(line, line_len(line));
	value_len = *line ? line_len(line) - strlen(RC_KEY) : 0;
	if (!value_len) {
		ret = -ENOENT;
		goto end;
	}
	if (value_len >= len) {
		ret = value_len >= LTT_NAME_MAX ? -EINVAL : -ENAMETOOLONG;
		goto end;
	}
	memcpy(buf, line + strlen(RC_KEY), value_len);
	buf[value_len] = '\0';
	if (!ltt_session_ref_valid(buf))
		ret = -EINVAL;
end:
	free(text);
	return ret;
}

/* Set the session line to @session, or remove it when @session is NULL. */
static int rc_update(const char *session)
{
	char path[LTT_PATH_MAX];
	size_t len, n = 0;
	const char *line;
	char *text, *out;
	int ret;

	ret = rc_load(path, &text);
	if (ret)
		return ret;
	out = malloc(strlen(text) + strlen(RC_KEY) + (session ? strlen(session) : 0) + 3);
	if (!out) {
		free(text);
		return -ENOMEM;
	}
	/* Keep the other lines, each ending with '\n'; drop every session line. */
	for (line = text; *line; line = next_line(line, len)) {
		len = line_len(line);
		if (is_session_line(line))
			continue;
		memcpy(out + n, line, len);
		n += len;
		out[n++] = '\n';
	}
	out[n] = '\0';
	if (session)
		sprintf(out + n, "%s%s\n", RC_KEY, session);
	if (!*out)
		ret = unlink(path) && errno != ENOENT ? -errno : 0;
	else
		ret = ltt_file_replace(path, out, strlen(out), 0600);
	free(out);
	free(text);
	return ret;
}

int ctl_rc_write(const char *session)
{
	if (!ltt_session_ref_valid(session))
		return -EINVAL;
	return rc_update(session);
}

int ctl_rc_clear(void)
{
	return rc_update(NULL);
}
