// SPDX-License-Identifier: LGPL-2.1-only
/*
 * relayd.c - a local ltt-relayd for "lttctl create --live" without a URL,
 * started when nothing listens on the default control port, as LTTng's
 * command line does.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/daemon.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "common/model/uri.h"
#include "ctl/ctl.h"

#define LTT_STR_(x) #x
#define LTT_STR(x) LTT_STR_(x)

/* How long a spawned relay daemon may take to say it is ready. */
#define RELAYD_READY_TIMEOUT_MS 10000

/* Does anything accept connections on 127.0.0.1:@port?  Loopback: no wait. */
static bool local_port_open(uint16_t port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool open;

	if (fd < 0)
		return false;
	open = connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0;
	close(fd);
	return open;
}

/*
 * The relay daemon program: $LTT_RELAYD_PATH, else ltt-relayd next to
 * this lttctl, else the installed one.
 */
static void relayd_path(char *buf, size_t len)
{
	const char *env = getenv("LTT_RELAYD_PATH");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		snprintf(buf, len, "%s/ltt-relayd", dirname(self));
		if (access(buf, X_OK) == 0)
			return;
	}
	snprintf(buf, len, "%s/ltt-relayd", LTT_BINDIR);
}

/*
 * Run "@prog -d --pidfile RUNDIR/relayd.pid" with LTT_RUNDIR=@rundir (its
 * port files go there too), and "-o @output" unless NULL: -d returns once
 * the daemon listens.
 */
static int spawn(const char *prog, const char *rundir, const char *output)
{
	char pidfile[PATH_MAX];
	int status, null;
	pid_t pid;

	if (snprintf(pidfile, sizeof(pidfile), "%s/relayd.pid", rundir) >= (int)sizeof(pidfile))
		return -ENAMETOOLONG;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* Its messages go to its log, not into lttctl's output. */
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		setenv("LTT_RUNDIR", rundir, 1);
		/*
		 * Loopback only: a relay started behind the user's back must
		 * not take traces from, nor show them to, the network.
		 */
		execl(prog, "ltt-relayd", "-d", "--pidfile", pidfile,
		      "-C", "tcp://127.0.0.1:" LTT_STR(LTT_DEFAULT_RELAYD_CTRL_PORT),
		      "-D", "tcp://127.0.0.1:" LTT_STR(LTT_DEFAULT_RELAYD_DATA_PORT),
		      "-L", "tcp://127.0.0.1:" LTT_STR(LTT_DEFAULT_RELAYD_LIVE_PORT),
		      output ? "-o" : (char *)NULL, output, (char *)NULL);
		_exit(127);
	}
	status = ltt_child_wait_until(pid, ltt_deadline_ms(RELAYD_READY_TIMEOUT_MS));
	if (status < 0 || !WIFEXITED(status))
		return -ETIMEDOUT;
	if (WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WEXITSTATUS(status) ? -EIO : 0;
}

int ctl_relayd_ensure_local(const struct ctl_ctx *ctx, const char *rundir)
{
	char prog[PATH_MAX], output[PATH_MAX] = "";
	int ret;

	if (local_port_open(LTT_DEFAULT_RELAYD_CTRL_PORT))
		return CTL_EXIT_OK;
	relayd_path(prog, sizeof(prog));
	/* run as lttng: where LTTng's lttng-relayd writes, the home's lttng-traces */
	if (ctx->lttng_name && ltt_home_traces(true, output, sizeof(output)))
		output[0] = '\0';
	ret = spawn(prog, rundir, output[0] ? output : NULL);
	if (!ret && !local_port_open(LTT_DEFAULT_RELAYD_CTRL_PORT))
		ret = -ECONNREFUSED;
	if (ret) {
		ctl_out_error(LTT_ERR_RELAYD_SPAWN, "local relay daemon %s: %s (%s)", prog,
			     ltt_strerror(LTT_ERR_RELAYD_SPAWN), strerror(-ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Spawned a relay daemon (%s, pid file %s/relayd.pid)", prog, rundir);
	return CTL_EXIT_OK;
}
