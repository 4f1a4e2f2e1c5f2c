// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ftrace_names.c - common/ftrace/ftrace-names: the tag in a daemon's
 * tracefs names, and which names a daemon may judge left behind.  A
 * daemon in a PID namespace of its own sees other namespaces' daemons
 * as gone: it must judge only its own namespace's names.  Pids above
 * PID_MAX_LIMIT stand for daemons that are gone.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/ftrace/ftrace-names.h"
#include "tests/unit/tap.h"

#define GONE	5000000		/* above PID_MAX_LIMIT: no process */
#define OTHER_NS 4026532999ULL

static size_t parse(const char *s, pid_t *pid, uint64_t *ns)
{
	*pid = -1;
	*ns = 7;
	return ltt_ftrace_tag_parse(s, pid, ns);
}

/*
 * From the initial namespace, a daemon of a live namespace: its name is
 * not stale while it runs (its pid 1 there), another pid of that
 * namespace's is, and its own is once it exited.
 */
static void check_live_namespace(uint64_t own)
{
	int go[2], ready[2], status = 0;
	uint64_t ns = 0;
	pid_t pid;

	if (geteuid() || own != 0 || pipe(go) || pipe(ready)) {
		tap_skip("a new PID namespace, judged from the initial one, needs root there");
		tap_skip("a new PID namespace, judged from the initial one, needs root there");
		tap_skip("a new PID namespace, judged from the initial one, needs root there");
		return;
	}
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		close(ready[0]);
		if (unshare(CLONE_NEWPID))
			_exit(2);
		if (fork() == 0) {	/* pid 1 there: says its namespace, waits until told */
			ns = ltt_ftrace_pidns();
			if (write(ready[1], &ns, sizeof(ns)) != (ssize_t)sizeof(ns))
				_exit(3);
			(void)!read(go[0], &c, 1);
			_exit(0);
		}
		close(go[0]);
		close(ready[1]);
		wait(NULL);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &ns, sizeof(ns)) != (ssize_t)sizeof(ns))
		ns = 0;
	close(ready[0]);
	tap_ok(ns && !ltt_ftrace_tag_stale(1, ns, getpid(), own),
	       "from the initial namespace, a running daemon's name of another namespace is not stale");
	tap_ok(ns && ltt_ftrace_tag_stale(2, ns, getpid(), own), "a pid no process has there is");
	close(go[1]);
	waitpid(pid, &status, 0);
	tap_ok(ns && ltt_ftrace_tag_stale(1, ns, getpid(), own),
	       "and the daemon's, once it is gone with its namespace");
}

int main(void)
{
	char tag[LTT_FTRACE_TAG_MAX];
	uint64_t ns, own = ltt_ftrace_pidns();
	pid_t pid;
	int status = 0;

	ltt_ftrace_tag(tag, sizeof(tag), 1234, 0);
	tap_is_str(tag, "1234", "in the initial namespace the tag is the pid alone, as before");
	ltt_ftrace_tag(tag, sizeof(tag), 7, OTHER_NS);
	tap_is_str(tag, "7_ns4026532999", "in another, the pid and the namespace's inode");

	tap_is_int((int)parse("1234-0", &pid, &ns), 4, "a tag is parsed up to what follows it");
	tap_ok(pid == 1234 && ns == 0, "its pid, and no namespace");
	tap_is_int((int)parse("7_ns4026532999-3", &pid, &ns), 14, "a namespaced tag is parsed whole");
	tap_ok(pid == 7 && ns == OTHER_NS, "its pid and namespace");
	tap_is_int((int)parse("0-1", &pid, &ns), 0, "pid 0 is no tag");
	tap_is_int((int)parse("01-1", &pid, &ns), 0, "nor a pid with a leading zero");
	tap_is_int((int)parse("99999999999-1", &pid, &ns), 0, "nor a pid past 32 bits");
	tap_is_int((int)parse("test-1", &pid, &ns), 0, "nor a word (the unit tests' own instances)");
	tap_is_int((int)parse("7_ns-1", &pid, &ns), 0, "nor _ns without an inode");
	tap_is_int((int)parse("7_ns0", &pid, &ns), 0, "nor _ns0");
	tap_is_int((int)parse("7_ns4026531836", &pid, &ns), 0,
		   "nor the initial namespace's inode, which names carry as no _ns at all");
	tap_ok(pid == -1 && ns == 7, "a refused tag leaves the results alone");

	tap_ok(own != LTT_FTRACE_PIDNS_UNKNOWN, "this process's namespace is known (%llu)",
	       (unsigned long long)own);
	tap_ok(ltt_ftrace_tag_stale(GONE, own, getpid(), own), "a gone daemon's name in this namespace is stale");
	tap_ok(ltt_ftrace_tag_stale(getpid(), own, getpid(), own),
	       "this daemon's own pid is a daemon of before (it names afresh)");
	tap_ok(!ltt_ftrace_tag_stale(getppid(), own, getpid(), own), "a live daemon's name is not");
	if (own == 0) {
		tap_ok(ltt_ftrace_tag_stale(GONE, OTHER_NS, getpid(), own),
		       "from the initial namespace, a name of a namespace no process lives in is stale");
		tap_ok(ltt_ftrace_tag_stale(getpid(), OTHER_NS, getpid(), own),
		       "... whatever its pid");
	} else {
		tap_ok(!ltt_ftrace_tag_stale(GONE, 0, getpid(), own),
		       "from a namespace of its own, a name of another is never judged");
		tap_ok(!ltt_ftrace_tag_stale(getpid(), 0, getpid(), own),
		       "not even when its pid is this daemon's own");
	}
	tap_ok(!ltt_ftrace_tag_stale(GONE, own, getpid(), LTT_FTRACE_PIDNS_UNKNOWN),
	       "a daemon that can't tell its namespace judges nothing");

	/*
	 * A child in a PID namespace of its own names with _ns, and its pid 1
	 * is no one else's.  The namespace is made by a child, not by this
	 * process: LeakSanitizer's check at exit forks, and a fork after
	 * unshare(CLONE_NEWPID) would be the new namespace's init.
	 */
	if (geteuid()) {
		tap_skip("a new PID namespace needs root");
		tap_skip("a new PID namespace needs root");
	} else {
		pid = fork();
		if (pid == 0) {
			pid_t inner_pid;

			if (unshare(CLONE_NEWPID))
				_exit(2);
			inner_pid = fork();
			if (inner_pid == 0) {
				uint64_t inner = ltt_ftrace_pidns();

				ltt_ftrace_tag(tag, sizeof(tag), getpid(), inner);
				/* 0: tagged with the inner namespace, judging its own names only */
				_exit(!(inner && inner != LTT_FTRACE_PIDNS_UNKNOWN && getpid() == 1 &&
					strstr(tag, "_ns") &&
					!ltt_ftrace_tag_stale(GONE, own, getpid(), inner)) ? 1 : 0);
			}
			if (inner_pid < 0 || waitpid(inner_pid, &status, 0) != inner_pid)
				_exit(3);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 4);
		}
		tap_ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		       WEXITSTATUS(status) != 2 && WEXITSTATUS(status) != 3,
		       "the child in a new PID namespace ran (exit %d)",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		tap_ok(WIFEXITED(status) && !WEXITSTATUS(status),
		       "it names with its namespace and judges none of the outer one's names");
	}
	check_live_namespace(own);
	return tap_done();
}
