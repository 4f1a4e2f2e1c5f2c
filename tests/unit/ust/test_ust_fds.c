// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ust_fds.c - the set of fds libltt-ust keeps open (fds.c), which
 * LTTng's fd helper asks about through liblttng-ust-common: an fd added
 * is owned until taken out or closed by ust_fd_close(); out-of-range fds
 * are never owned; the fd lock nests within a thread and says so.
 * The library's own thread opens sockets meanwhile (it looks for a
 * daemon, none here), which take the lowest free numbers: the test's fds
 * are far above them, so that a closed one's number is not taken again
 * by that thread before it is looked at.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "tests/unit/tap.h"
#include "ust/ust.h"

/* /dev/null open at the lowest free fd from 1000 up (half the fd limit where that is lower) */
static int open_high(void)
{
	struct rlimit lim;
	int from = 1000;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int high;

	if (!getrlimit(RLIMIT_NOFILE, &lim) && lim.rlim_cur / 2 < (rlim_t)from)
		from = (int)(lim.rlim_cur / 2);
	high = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, from);

	if (fd >= 0)
		close(fd);
	return high;
}

int main(void)
{
	int a = open_high();
	int b = open_high();

	tap_plan(12);
	tap_ok(a >= 0 && b >= 0, "two fds to play with");
	tap_is_int(ltt_ust_fd_owned(a), 0, "an fd not added is not owned");
	ltt_ust_fd_own(a);
	ltt_ust_fd_own(b);
	tap_is_int(ltt_ust_fd_owned(a) + ltt_ust_fd_owned(b), 2, "both added fds are owned");
	ltt_ust_fd_disown(b);
	tap_is_int(ltt_ust_fd_owned(b), 0, "an fd taken out is not owned");
	tap_is_int(ltt_ust_fd_owned(a), 1, "... and the other one still is");
	tap_is_int(ust_fd_close(a), 0, "ust_fd_close() closes an owned fd");
	tap_ok(fcntl(a, F_GETFD) < 0 && errno == EBADF, "... which is closed");
	tap_is_int(ltt_ust_fd_owned(a), 0, "... and no longer owned (its number may come back)");
	ltt_ust_fd_own(-1);
	ltt_ust_fd_own(UST_FDS_MAX);
	tap_is_int(ltt_ust_fd_owned(-1) + ltt_ust_fd_owned(UST_FDS_MAX), 0,
		   "a negative fd and one past the set are never owned");
	tap_is_int(ltt_ust_fd_lock_held(), 0, "the fd lock is not held at first");
	ltt_ust_fd_lock();
	ltt_ust_fd_lock();	/* nests: a signal handler's close inside the creation */
	ltt_ust_fd_unlock();
	tap_is_int(ltt_ust_fd_lock_held(), 1, "held after two locks and one unlock");
	ltt_ust_fd_unlock();
	tap_is_int(ltt_ust_fd_lock_held(), 0, "released after the second unlock");
	close(b);
	return tap_done();
}
