// SPDX-License-Identifier: GPL-2.0-only
/* fake-sessiond.c - see fake-sessiond.h */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/proto/client-proto.h"
#include "tests/unit/fake-sessiond.h"

int fake_sessiond_start(struct fake_sessiond *f, const char *tag, void (*serve)(int lfd, int log_fd))
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd, pipefd[2];

	snprintf(f->dir, sizeof(f->dir), "/tmp/ltt-test-%s.XXXXXX", tag);
	if (!mkdtemp(f->dir) || pipe(pipefd))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, LTT_CLIENT_SOCKET_NAME);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1))
		return -1;
	f->pid = fork();
	if (f->pid < 0)
		return -1;
	if (f->pid == 0) {
		close(pipefd[0]);
		serve(lfd, pipefd[1]);
		_exit(0);
	}
	close(pipefd[1]);
	close(lfd);
	f->log_fd = pipefd[0];
	return 0;
}

void fake_sessiond_log(struct fake_sessiond *f, char *buf, size_t len)
{
	ssize_t n = read(f->log_fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
}

void fake_sessiond_stop(struct fake_sessiond *f)
{
	kill(f->pid, SIGKILL);
	waitpid(f->pid, NULL, 0);
	close(f->log_fd);
	unlink(f->path);
	rmdir(f->dir);
}

int fake_sessiond_reply(int fd, uint16_t cmd, const struct ltt_wbuf *w)
{
	struct ltt_client_hdr h = { LTT_CLIENT_MAGIC, cmd, 0, 0, (uint32_t)w->len };
	uint8_t buf[LTT_CLIENT_HDR_SIZE];

	ltt_client_hdr_encode(&h, buf);
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return -1;
	return w->len && write(fd, w->data, w->len) != (ssize_t)w->len ? -1 : 0;
}
