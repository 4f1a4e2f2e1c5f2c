// SPDX-License-Identifier: GPL-2.0-only
/*
 * kemit - a known writer of the test probe for the kernel tracker tests
 * (tests/kernel/scenarios/kernel_track.sh): it records in its own
 * context, so its pid, uid and gid are those the trackers see.
 *
 *   kemit [UID GID]
 *              opens /proc/ltt-test (root only), then becomes user UID
 *              and group GID (no supplementary group) when given, prints "pid=P uid=U gid=G", then for
 *              each line N read on
 *              stdin writes N to /proc/ltt-test (N ltt_test_event, seq 0
 *              to N - 1) and prints "n=N ns=T": T the write's duration
 *              (CLOCK_MONOTONIC); stdout is flushed after each line, so a
 *              reader of it knows when a round is done.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	char line[64];
	long long t0, t1;
	size_t len;
	int fd;

	fd = open("/proc/ltt-test", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kemit: /proc/ltt-test: %s\n", strerror(errno));
		return 1;
	}
	if (argc == 3 && (setgroups(0, NULL) || setgid((gid_t)atoi(argv[2])) ||
			  setuid((uid_t)atoi(argv[1])))) {
		fprintf(stderr, "kemit: to uid %s gid %s: %s\n", argv[1], argv[2], strerror(errno));
		close(fd);
		return 1;
	}
	printf("pid=%d uid=%u gid=%u\n", (int)getpid(), (unsigned int)getuid(),
	       (unsigned int)getgid());
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		len = strcspn(line, "\n");
		line[len] = '\0';
		if (!len)
			continue;
		t0 = now_ns();
		if (write(fd, line, len) != (ssize_t)len) {
			fprintf(stderr, "kemit: write %s: %s\n", line, strerror(errno));
			return 1;
		}
		t1 = now_ns();
		printf("n=%s ns=%lld\n", line, t1 - t0);
		fflush(stdout);
	}
	close(fd);
	return 0;
}
