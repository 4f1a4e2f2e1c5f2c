// SPDX-License-Identifier: LGPL-2.1-only
/*
 * daemon.c - detaching, readiness and signals of the daemons (daemon.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/daemon.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"

int ltt_fork_split(int pair[2], bool sockets, int child_end)
{
	pid_t pid;
	int err;

	if (sockets ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) :
		      pipe2(pair, O_CLOEXEC))
		return -errno;
	pid = fork();
	err = errno;
	if (pid < 0) {
		close(pair[0]);
		close(pair[1]);
		return -err;
	}
	close(pair[pid ? child_end : !child_end]);
	return pid;
}

int ltt_child_wait_until(pid_t pid, int64_t deadline)
{
	struct pollfd pfd = { .events = POLLIN };
	int64_t left;
	int status, n;

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	while (pfd.fd >= 0) {
		left = deadline - ltt_deadline_ms(0);
		n = left > 0 ? poll(&pfd, 1, left > 60000 ? 60000 : (int)left) : 0;
		if (n > 0 || (n < 0 && errno != EINTR))
			break;
		if (n == 0 && left <= 60000) {
			kill(pid, SIGKILL);
			break;
		}
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int ltt_daemon_detach(int *ret_ready_fd)
{
	int pipefd[2];
	char byte;
	pid_t pid;

	pid = ltt_fork_split(pipefd, false, 1);
	if (pid < 0)
		return pid;
	if (pid > 0) {
		ssize_t n;

		do
			n = read(pipefd[0], &byte, 1);
		while (n < 0 && errno == EINTR);
		/* The intermediate child exits at once; reap it. */
		waitpid(pid, NULL, 0);
		exit(n == 1 ? 0 : 1);
	}
	if (setsid() < 0)
		_exit(1);
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid > 0)
		_exit(0);
	*ret_ready_fd = pipefd[1];
	return 0;
}

/*
 * --sig-parent: the link to the process that signals the starter once the
 * daemon is ready, or -1.  A daemon that gives root's rights up can no
 * longer signal a root starter itself: a helper forked beforehand, which
 * keeps the rights the daemon had, waits on the link for a byte, sends
 * SIGUSR1, and answers; it ends with the link (the daemon failed: no
 * signal), leaving the daemon no child to reap.
 */
static int sig_parent_fd = -1;

int ltt_daemon_sig_parent(void)
{
	pid_t starter = getppid(), pid;
	int pair[2], fd;
	char byte;
	ssize_t n;

	pid = ltt_fork_split(pair, true, 0);
	if (pid < 0)
		return pid;
	if (pid == 0) {
		fd = pair[0];
		/* its own process: the intermediate one ends at once */
		if (fork() != 0)
			_exit(0);
		/* nothing of the daemon's kept open (a lock, a log) but the link */
		if (fd > 0)
			close_range(0, (unsigned int)fd - 1, 0);
		close_range((unsigned int)fd + 1, ~0U, 0);
		do
			n = read(fd, &byte, 1);
		while (n < 0 && errno == EINTR);
		if (n == 1) {
			kill(starter, SIGUSR1);
			(void)!send(fd, &byte, 1, MSG_NOSIGNAL);
		}
		_exit(0);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	sig_parent_fd = pair[1];
	return 0;
}

/* ltt_daemon_ready(): the starter signalled, through the helper, and the helper gone. */
static void signal_starter(void)
{
	char byte = 0;
	ssize_t n;

	if (sig_parent_fd < 0)
		return;
	if (send(sig_parent_fd, &byte, 1, MSG_NOSIGNAL) == 1) {
		do
			n = read(sig_parent_fd, &byte, 1);
		while (n < 0 && errno == EINTR);
	} else {
		n = -1;
	}
	if (n != 1)
		LTT_WARN("--sig-parent: the starter could not be signalled");
	close(sig_parent_fd);
	sig_parent_fd = -1;
}

/* systemd's socket, connected before the daemon gave its rights up */
static int notify_fd = -1;

/*
 * The address of the socket $NOTIFY_SOCKET names (a path, or "@" for an
 * abstract name) into @sun: its length, or 0 when there is none.
 */
static socklen_t notify_addr(struct sockaddr_un *sun)
{
	const char *path = getenv("NOTIFY_SOCKET");

	*sun = (struct sockaddr_un){ .sun_family = AF_UNIX };
	if (!path || !*path || (path[0] != '/' && path[0] != '@') ||
	    strlen(path) >= sizeof(sun->sun_path))
		return 0;
	memcpy(sun->sun_path, path, strlen(path));
	if (path[0] == '@')
		sun->sun_path[0] = '\0';	/* an abstract socket */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
}

void ltt_daemon_notify_connect(void)
{
	struct sockaddr_un sun;
	socklen_t len = notify_addr(&sun);
	int fd;

	if (!len || notify_fd >= 0)
		return;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, len)) {
		LTT_WARN("can't connect to systemd's %s: %s", getenv("NOTIFY_SOCKET"),
			 strerror(errno));
		close(fd);
		fd = -1;
	}
	notify_fd = fd;
}

/*
 * @msg (READY=1, STOPPING=1) to systemd when it asked (Type=notify): one
 * datagram to the socket $NOTIFY_SOCKET names, on the connection made
 * beforehand if any.
 */
static void notify_systemd(const char *msg)
{
	struct sockaddr_un sun;
	socklen_t len = notify_addr(&sun);
	int fd = notify_fd;

	if (!len)
		return;
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if ((notify_fd >= 0 ? send(fd, msg, strlen(msg), MSG_NOSIGNAL) :
	     sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sun, len)) < 0)
		LTT_WARN("can't notify systemd on %s: %s", getenv("NOTIFY_SOCKET"),
			 strerror(errno));
	if (fd != notify_fd)
		close(fd);
}

void ltt_daemon_ready(int ready_fd, unsigned int flags)
{
	char byte = 0;
	int null;

	notify_systemd("READY=1");
	if (flags & LTT_DAEMON_CLOSE_STDIO) {
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	if ((flags & LTT_DAEMON_CHDIR_ROOT) && chdir("/"))
		LTT_DBG("chdir /: %s", strerror(errno));
	/* the starter's signal first: pending when the detached caller exits */
	signal_starter();
	if (ready_fd >= 0) {
		if (write(ready_fd, &byte, 1) != 1)
			LTT_WARN("could not tell the caller we are ready: %s", strerror(errno));
		close(ready_fd);
	}
}

void ltt_daemon_stopping(void)
{
	notify_systemd("STOPPING=1");
}

int ltt_daemon_block_signals(bool nonblock, int *ret_sfd)
{
	sigset_t set;
	int sfd;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL))
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | (nonblock ? SFD_NONBLOCK : 0));
	if (sfd < 0)
		return -errno;
	*ret_sfd = sfd;
	return 0;
}

/* ltt_daemon_started_as(): daemon.h */
bool ltt_daemon_started_as(int argc, const char **argv, const char *name)
{
	const char *base;

	if (argc < 1 || !argv[0])
		return false;
	base = strrchr(argv[0], '/');
	return !strcmp(base ? base + 1 : argv[0], name);
}

/* ltt_daemon_raise_nofile(): daemon.h */
int ltt_daemon_raise_nofile(uint64_t *ret_limit)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit want = { rl.rlim_max, rl.rlim_max };

		if (!setrlimit(RLIMIT_NOFILE, &want))
			rl.rlim_cur = rl.rlim_max;
		else
			LTT_DBG("can't raise the open file limit to %llu: %s",
				(unsigned long long)rl.rlim_max, strerror(errno));
	}
	*ret_limit = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
	return 0;
}

/* ltt_daemon_opt(): daemon.h */
int ltt_daemon_opt(const char *prog, int rc, int *verbose, void (*help)(void *arg), void *arg)
{
	switch (rc) {
	case LTT_DAEMON_OPT_VERBOSE:
		(*verbose)++;
		return 0;
	case LTT_DAEMON_OPT_HELP:
		help(arg);
		return 1;
	case LTT_DAEMON_OPT_VERSION:
		printf("%s %s\n", prog, PACKAGE_VERSION);
		return 1;
	}
	return 0;
}

/* ltt_daemon_args_end(): daemon.h */
int ltt_daemon_args_end(const char *prog, int rc, const char *bad, const char *why,
			const char *rest)
{
	if (rc < -1)
		fprintf(stderr, "%s: Error: %s: %s\nTry '%s --help'.\n", prog, bad, why, prog);
	else if (rest)
		fprintf(stderr, "%s: Error: unexpected argument '%s'\nTry '%s --help'.\n", prog,
			rest, prog);
	else
		return 0;
	return -1;
}

/* ltt_daemon_state_dir(): daemon.h */
int ltt_daemon_state_dir(const char *prog, const char *rundir, char *buf, size_t len)
{
	int ret = ltt_state_dir(rundir, buf, len);

	if (ret >= 0)
		return ret;
	fprintf(stderr, "%s: Error: %s=%s: %s\n", prog, LTT_STATEDIR_ENV,
		getenv(LTT_STATEDIR_ENV),
		ret == -EINVAL ? "give the absolute path of a directory on disk, where the daemon keeps its journals across a reboot, or unset it to keep them in the run directory" :
		"a path too long: give a shorter one");
	return -1;
}
