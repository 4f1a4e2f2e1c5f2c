// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_io.c - unit tests of the file and process helpers the daemons
 * share: ltt_io_pwritev_all() (common/base/sock.c), ltt_fork_split()
 * (common/base/daemon.c), ltt_proc_read() and ltt_proc_status_number()
 * (common/base/proc-status.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/daemon.h"
#include "common/base/proc-status.h"
#include "common/base/sock.h"
#include "tests/unit/tap.h"

/* Every buffer written at its place, the empty one skipped, all consumed. */
static void test_pwritev_whole(void)
{
	char a[] = "abc", c[] = "defgh", back[9] = "";
	struct iovec iov[3] = {
		{ .iov_base = a, .iov_len = 3 },
		{ .iov_base = NULL, .iov_len = 0 },
		{ .iov_base = c, .iov_len = 5 },
	};
	int fd = memfd_create("test_io", MFD_CLOEXEC);
	struct stat st;

	tap_is_int(ltt_io_pwritev_all(fd, iov, 3, 10), 0, "three buffers, one empty, written at 10");
	tap_ok(pread(fd, back, 8, 10) == 8 && !strcmp(back, "abcdefgh"),
	       "the file holds them in order at 10 (\"%s\")", back);
	if (fstat(fd, &st))
		st.st_size = -1;
	tap_ok(st.st_size == 18, "and nothing past them (%lld bytes)", (long long)st.st_size);
	tap_ok(!iov[0].iov_len && !iov[2].iov_len, "the buffers are consumed");
	tap_is_int(ltt_io_pwritev_all(fd, iov, 0, 0), 0, "no buffer: nothing to do");
	tap_is_int(ltt_io_pwritev_all(fd, iov, 1, (uint64_t)INT64_MAX + 1), -EINVAL,
		   "an offset past INT64_MAX is refused");
	close(fd);
}

/*
 * A write the file size limit cuts short: the part written is taken off
 * the buffers, the next write's error returned.
 */
static void test_pwritev_short(void)
{
	char a[] = "abcd", b[] = "efgh", back[8] = "";
	struct iovec iov[2] = { { .iov_base = a, .iov_len = 4 }, { .iov_base = b, .iov_len = 4 } };
	struct rlimit old, lim = { .rlim_cur = 6 };
	int fd = memfd_create("test_io_short", MFD_CLOEXEC), ret;

	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	ret = ltt_io_pwritev_all(fd, iov, 2, 0);
	setrlimit(RLIMIT_FSIZE, &old);
	tap_is_int(ret, -EFBIG, "a write past the file size limit: -EFBIG");
	tap_ok(pread(fd, back, sizeof(back) - 1, 0) == 6 && !strcmp(back, "abcdef"),
	       "the 6 bytes that fit were written (\"%s\")", back);
	tap_ok(!iov[0].iov_len && iov[1].iov_len == 2 && iov[1].iov_base == b + 2,
	       "what went out is taken off the buffers (%zu, %zu left)", iov[0].iov_len,
	       iov[1].iov_len);
	close(fd);
}

/* A pipe to the parent: the child's end closed in the parent. */
static void test_fork_pipe(void)
{
	char got[2] = "";
	int pair[2], status = -1;
	pid_t pid = ltt_fork_split(pair, false, 1);

	if (pid == 0)
		_exit(write(pair[1], "x", 1) == 1 ? 0 : 1);
	tap_ok(pid > 0, "forked with a pipe");
	tap_ok(read(pair[0], got, 1) == 1 && got[0] == 'x', "the parent reads what the child wrote");
	tap_is_int(read(pair[0], got, 1), 0, "then the end of the pipe: no copy of its end here");
	tap_ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status),
	       "the child exited 0");
	close(pair[0]);
}

/* A socket pair the other way: the child keeps pair[0] and echoes. */
static void test_fork_sockets(void)
{
	int pair[2], status = -1, flags;
	char got = 0;
	pid_t pid = ltt_fork_split(pair, true, 0);

	if (pid == 0) {
		char c;

		_exit(read(pair[0], &c, 1) == 1 && write(pair[0], &c, 1) == 1 ? 0 : 1);
	}
	tap_ok(pid > 0, "forked with a socket pair");
	flags = fcntl(pair[1], F_GETFD);
	tap_ok(flags >= 0 && (flags & FD_CLOEXEC), "the parent's end is close-on-exec");
	tap_ok(write(pair[1], "y", 1) == 1 && read(pair[1], &got, 1) == 1 && got == 'y',
	       "the child echoes on its end");
	tap_is_int(read(pair[1], &got, 1), 0, "then the pair ends: no copy of the child's end here");
	tap_ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status),
	       "the child exited 0");
	close(pair[1]);
}

/* A status file's numbers by key: a whole line's key only, a number after it. */
static void test_proc_status(void)
{
	static const char text[] = "Name:\tx\nXTgid:\t9\nTgid:\t4242\nNSpid:\t77\t3\n"
				   "Empty:\t\nPid:\t-5\n";
	char path[] = "/tmp/test_io_status_XXXXXX";
	long v = -1;
	int fd = mkstemp(path);

	if (!tap_ok(fd >= 0 && write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1,
		    "a status file written at %s", path))
		return;
	close(fd);
	tap_is_int(ltt_proc_status_number(path, "Tgid", &v), 0, "Tgid found, not XTgid's line");
	tap_is_int(v, 4242, "its number (%ld)", v);
	tap_is_int(ltt_proc_status_number(path, "NSpid", &v), 0, "NSpid found");
	tap_is_int(v, 77, "its first number, the outermost namespace's (%ld)", v);
	tap_is_int(ltt_proc_status_number(path, "Pid", &v), 0, "Pid found");
	tap_is_int(v, -5, "a sign read (%ld)", v);
	v = 1;
	tap_is_int(ltt_proc_status_number(path, "Empty", &v), -ENOENT, "no number: -ENOENT");
	tap_is_int(ltt_proc_status_number(path, "Gid", &v), -ENOENT, "no such line: -ENOENT");
	tap_is_int(ltt_proc_status_number(path, "Name", &v), -ENOENT, "the first line is no key");
	tap_is_int(v, 1, "and a failure leaves the number alone");
	unlink(path);
	tap_is_int(ltt_proc_status_number(path, "Tgid", &v), -ENOENT, "a file gone: open's -ENOENT");
	tap_is_int(ltt_proc_status_number("/proc/self/status", "Tgid", &v), 0, "our own status");
	tap_is_int(v, getpid(), "its Tgid is our pid (%ld)", v);
}

/* A small file read whole, or its first bytes, always NUL-terminated. */
static void test_proc_read(void)
{
	char path[] = "/tmp/test_io_read_XXXXXX", buf[8];
	int fd = mkstemp(path);

	if (!tap_ok(fd >= 0 && write(fd, "monotonic 5 0\n", 14) == 14, "a file written at %s", path))
		return;
	close(fd);
	memset(buf, 'x', sizeof(buf));
	tap_is_int(ltt_proc_read(path, buf, sizeof(buf)), 7,
		   "a file larger than the buffer: its first 7 bytes");
	tap_is_str(buf, "monoton", "NUL-terminated in the buffer's last byte");
	unlink(path);
	tap_is_int(ltt_proc_read(path, buf, sizeof(buf)), -ENOENT, "a file gone: open's -ENOENT");
	tap_ok(ltt_proc_read("/proc/self/status", buf, sizeof(buf)) == 7 &&
	       !strncmp(buf, "Name:\t", 6) && !buf[7], "our own status's first bytes");
}

int main(void)
{
	test_pwritev_whole();
	test_pwritev_short();
	test_fork_pipe();
	test_fork_sockets();
	test_proc_status();
	test_proc_read();
	return tap_done();
}
