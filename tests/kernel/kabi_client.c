// SPDX-License-Identifier: LGPL-2.1-only
/*
 * kabi_client - talk to ltt-tracer.ko through /proc/ltt in the test guest
 * (tests/kernel): the raw ABI of src/abi/ltt-abi.h, no daemon in between.
 *
 *   kabi_client version
 *       print "major=M minor=N tracer=VERSION" from LTT_KABI_VERSION
 *   kabi_client hold-session CMD [ARGS...]
 *       open a session (LTT_KABI_SESSION), run CMD while it is open, print
 *       "cmd_status=N" (CMD's exit status), then close the session
 *
 * Errors print "kabi_client: WHAT: strerror (errno=N)" and exit 1, so a
 * scenario can assert on the errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/ltt-abi.h"

#define TRACER_PATH "/proc/" LTT_KABI_PROC_NAME

static int fail(const char *what)
{
	int err = errno;

	fprintf(stderr, "kabi_client: %s: %s (errno=%d)\n", what, strerror(err), err);
	return 1;
}

static int open_tracer(void)
{
	return open(TRACER_PATH, O_RDWR | O_CLOEXEC);
}

static int cmd_version(void)
{
	struct ltt_kabi_version v;
	int fd = open_tracer();

	if (fd < 0)
		return fail("open " TRACER_PATH);
	memset(&v, 0xa5, sizeof(v));
	if (ioctl(fd, LTT_KABI_VERSION, &v)) {
		close(fd);
		return fail("LTT_KABI_VERSION");
	}
	close(fd);
	v.tracer_version[sizeof(v.tracer_version) - 1] = '\0';
	printf("major=%u minor=%u tracer=%s\n", v.major, v.minor, v.tracer_version);
	return 0;
}

/* Run @argv and return its exit status (128 + signal if killed), -1 on error. */
static int run_child(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "kabi_client: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int cmd_hold_session(char **argv)
{
	int fd, sfd, status;

	fd = open_tracer();
	if (fd < 0)
		return fail("open " TRACER_PATH);
	sfd = ioctl(fd, LTT_KABI_SESSION);
	if (sfd < 0) {
		close(fd);
		return fail("LTT_KABI_SESSION");
	}
	close(fd);
	fflush(stdout);
	status = run_child(argv);
	if (status < 0) {
		close(sfd);
		return fail("running the command");
	}
	printf("cmd_status=%d\n", status);
	close(sfd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "version"))
		return cmd_version();
	if (argc >= 3 && !strcmp(argv[1], "hold-session"))
		return cmd_hold_session(argv + 2);
	fprintf(stderr, "usage: kabi_client version | hold-session CMD [ARGS...]\n");
	return 2;
}
