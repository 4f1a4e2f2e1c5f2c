// SPDX-License-Identifier: GPL-2.0-only
/*
 * fswait - wait, bounded and without polling, until a command succeeds,
 * running it again each time something changes under the paths watched
 * (lib.sh's wait_fs):
 *
 *   fswait TIMEOUT_S PATH... -- COMMAND [ARG...]
 *
 * COMMAND runs once at the start, then again after each batch of
 * inotify(7) events on the PATHs, until it exits 0 or TIMEOUT_S seconds
 * have passed.  A file is watched for writes (IN_MODIFY, IN_CLOSE_WRITE)
 * and a directory for entries coming and going (IN_CREATE, IN_DELETE,
 * IN_MOVED_*); both for their own removal, and each one's directory for
 * entries created in it (a file replaced by a rename).  A PATH that does
 * not exist yet is waited for in its nearest existing ancestor, and
 * watched itself once it appears: the watches are brought up to date
 * after each batch, before COMMAND runs again.  The watches are in place
 * before COMMAND's first run, so no change between a run and the wait
 * goes unseen.  A PATH may be a glob(7) pattern: each match is watched,
 * and the directories its wildcards match, for new entries.  COMMAND is
 * not run again until something changes: it must not itself write under
 * the PATHs (reading opens nothing watched).
 *
 * Exits 0 when COMMAND succeeded, 1 on the timeout (saying on stderr
 * what it waited for; a COMMAND still running then is killed, and the
 * processes it started: a pipeline's), 2 on bad usage or a failure of its
 * own.
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILE_EVENTS (IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB)
#define DIR_EVENTS (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
#define SELF_EVENTS (IN_DELETE_SELF | IN_MOVE_SELF)
#define PARENT_EVENTS (IN_CREATE | IN_MOVED_TO)

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void watch(int ifd, const char *path, uint32_t mask)
{
	/* a path gone between the lookup and here: the next batch finds it */
	inotify_add_watch(ifd, path, mask | IN_MASK_ADD);
}

/* Watch every match of @pattern with @mask (or by its kind, @mask 0); how many. */
static size_t watch_glob(int ifd, const char *pattern, uint32_t mask)
{
	struct stat st;
	glob_t g;
	size_t i, n;

	if (glob(pattern, GLOB_NOSORT, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		if (mask)
			watch(ifd, g.gl_pathv[i], mask);
		else if (stat(g.gl_pathv[i], &st) == 0)
			watch(ifd, g.gl_pathv[i],
			      (S_ISDIR(st.st_mode) ? DIR_EVENTS : FILE_EVENTS) | SELF_EVENTS);
	}
	n = g.gl_pathc;
	globfree(&g);
	return n;
}

/*
 * Watch what @pattern (a path, or a glob(7) pattern) names, and the
 * directories above it that exist for what is created in them: its own,
 * or the nearest ancestor while it is missing; with a wildcard, each
 * level's matches up to the nearest directory named without one.
 */
static void watch_path(int ifd, const char *pattern)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", pattern) >= (int)sizeof(dir))
		return;
	watch_glob(ifd, pattern, 0);
	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash) {
			watch(ifd, ".", PARENT_EVENTS);
			return;
		}
		if (slash == dir) {
			watch(ifd, "/", PARENT_EVENTS);
			return;
		}
		*slash = '\0';
		/* up to a directory that exists, named without a wildcard */
		if (watch_glob(ifd, dir, PARENT_EVENTS | SELF_EVENTS) && !strpbrk(dir, "*?["))
			return;
	}
}

/* Whether the paths changed: read every event queued, without waiting. */
static bool drain(int ifd)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool any = false;
	ssize_t n;

	while ((n = read(ifd, buf, sizeof(buf))) > 0)
		any = true;
	return any;
}

/*
 * SIGKILL each process whose parent is this one, their pids into @pids
 * (@max at most); how many.  fswait is a subreaper: what a killed COMMAND
 * left running (a pipeline's other processes) comes to it.
 */
static size_t kill_children(pid_t *pids, size_t max)
{
	char path[300], buf[512];
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		const char *close_paren;
		FILE *f;
		int ppid;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* "PID (COMM) STATE PPID ...": COMM may hold anything, ')' too */
		if (fgets(buf, sizeof(buf), f) && (close_paren = strrchr(buf, ')')) &&
		    sscanf(close_paren + 1, " %*c %d", &ppid) == 1 && ppid == (int)getpid() &&
		    !kill((pid_t)atoi(e->d_name), SIGKILL))
			pids[n++] = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return n;
}

/* End COMMAND @pid and whatever it started, down to the last (bounded rounds). */
static void kill_tree(pid_t pid)
{
	pid_t pids[256];
	size_t i, n;
	int round;

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* each round's dead hand their own children to this process */
	for (round = 0; round < 64 && (n = kill_children(pids, 256)); round++)
		for (i = 0; i < n; i++)
			waitpid(pids[i], NULL, 0);
}

/*
 * Run @argv; its exit status, or -1 when it is still running at
 * @deadline (then killed, with what it started), -2 when it could not be
 * started.
 */
static int run(char **argv, int64_t deadline)
{
	int status, pidfd;
	struct pollfd p;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -2;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "fswait: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd >= 0) {
		p = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		for (;;) {
			int64_t left = deadline - now_ms();
			int r = poll(&p, 1, left > 0 ? (int)left : 0);

			if (r > 0)
				break;
			if (r == 0) {
				kill_tree(pid);
				close(pidfd);
				return -1;
			}
			if (errno != EINTR)
				break;
		}
		close(pidfd);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -2;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static void usage(void)
{
	fprintf(stderr, "usage: fswait TIMEOUT_S PATH... -- COMMAND [ARG...]\n");
	exit(2);
}

static void timed_out(const char *timeout, char **paths, int npaths, char **cmd)
{
	int i;

	fprintf(stderr, "fswait: not true within %s s:", timeout);
	for (i = 0; cmd[i]; i++)
		fprintf(stderr, " %s", cmd[i]);
	fprintf(stderr, "\nfswait: watched");
	for (i = 0; i < npaths; i++)
		fprintf(stderr, " %s", paths[i]);
	fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
	int64_t deadline;
	int i, npaths, ifd, rc, ready;
	char **cmd, *end;
	double timeout;

	if (argc < 4)
		usage();
	timeout = strtod(argv[1], &end);
	if (*end || end == argv[1] || !(timeout >= 0) || timeout > 86400)
		usage();
	for (npaths = 0; 2 + npaths < argc && strcmp(argv[2 + npaths], "--"); npaths++)
		;
	if (2 + npaths >= argc - 1 || npaths == 0)
		usage();
	cmd = &argv[2 + npaths + 1];
	deadline = now_ms() + (int64_t)(timeout * 1000);

	/* a COMMAND's orphans come here, to be ended with it at the bound */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ifd < 0) {
		perror("fswait: inotify_init1");
		return 2;
	}
	for (;;) {
		struct pollfd p = { .fd = ifd, .events = POLLIN };
		int64_t left;

		for (i = 0; i < npaths; i++)
			watch_path(ifd, argv[2 + i]);
		rc = run(cmd, deadline);
		if (rc == 0)
			return 0;
		if (rc == -2) {
			perror("fswait: fork");
			return 2;
		}
		/* block until the next change, or the deadline */
		do {
			left = deadline - now_ms();
			if (rc == -1 || left <= 0) {
				timed_out(argv[1], &argv[2], npaths, cmd);
				return 1;
			}
			ready = poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left);
			if (ready < 0 && errno != EINTR) {
				perror("fswait: poll");
				return 2;
			}
		} while (ready <= 0 || !drain(ifd));
	}
}
