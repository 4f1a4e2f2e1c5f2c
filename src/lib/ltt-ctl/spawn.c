// SPDX-License-Identifier: LGPL-2.1-only
/*
 * spawn.c - libltt-ctl's start of a session daemon: ltt-sessiond
 * --daemonize on a run directory, one caller at a time (its spawn lock),
 * bounded by the call timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/base/daemon.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

/*
 * Take @rundir's spawn lock, creating the directory as the daemon would
 * (0755 for root's, 0700 otherwise; the daemon checks it).  The lock
 * serializes the lttctl processes that would start a daemon; none waits
 * past @deadline.  Returns the locked fd or a negative errno.
 */
static int spawn_lock(const char *rundir, int64_t deadline)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = ltt_mkdir_p(rundir, geteuid() == 0 ? 0755 : 0700);
	if (!ret)
		ret = ltt_path_join(path, sizeof(path), rundir, "spawn.lock");
	if (ret)
		return ret;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	/* The holder waits for one daemon start at most, itself bounded. */
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if ((errno != EWOULDBLOCK && errno != EINTR) ||
		    ltt_deadline_ms(0) >= deadline) {
			ret = errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
			close(fd);
			return ret;
		}
		poll(NULL, 0, 5);
	}
	return fd;
}

int ltt_ctl_spawn_sessiond(const char *rundir)
{
	const char *prog = getenv("LTT_SESSIOND_PATH"), *group = getenv("LTT_SESSIOND_GROUP");
	char dir[PATH_MAX], sock[PATH_MAX];
	unsigned int timeout_ms;
	int64_t deadline;
	int status, lock_fd;
	pid_t pid;

	if (!prog || !*prog)
		prog = LTT_BINDIR "/ltt-sessiond";
	if (!rundir) {
		if (ltt_ctl_default_rundir(dir, sizeof(dir)))
			return -LTT_ERR_SESSIOND_SPAWN;
		rundir = dir;
	}
	if (ltt_ctl_timeout_from_env(&timeout_ms) ||
	    ltt_path_join(sock, sizeof(sock), rundir, LTT_CLIENT_SOCKET_NAME))
		return -LTT_ERR_SESSIOND_SPAWN;
	deadline = ltt_deadline_ms(timeout_ms ? (int64_t)timeout_ms : INT64_MAX / 4);
	lock_fd = spawn_lock(rundir, deadline);
	if (lock_fd < 0)
		return -LTT_ERR_SESSIOND_SPAWN;
	/* Another caller started it while we waited for the lock. */
	if (ltt_sock_unix_answers(sock)) {
		close(lock_fd);
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		close(lock_fd);
		return -LTT_ERR_SESSIOND_SPAWN;
	}
	if (pid == 0) {
		/*
		 * argv[0] is the program's own name: run as lttng-sessiond (the
		 * ltt-lttng-compat package's, named by LTTNG_SESSIOND_PATH) the
		 * daemon serves LTTng's clients too, as its name promises.
		 */
		const char *name = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;

		/* --group only when asked for: the daemon's default is ltt's group. */
		if (group && *group)
			execl(prog, name, "--daemonize", "--rundir", rundir, "--group", group,
			      (char *)NULL);
		else
			execl(prog, name, "--daemonize", "--rundir", rundir, (char *)NULL);
		_exit(127);
	}
	/* --daemonize exits only once the daemon accepts connections. */
	status = ltt_child_wait_until(pid, deadline);
	close(lock_fd);
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* It lost to a daemon started by other means: that one serves. */
	return ltt_sock_unix_answers(sock) ? 1 : -LTT_ERR_SESSIOND_SPAWN;
}
