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
 *   kemit abi  the tracker ioctls of the raw ABI (kernel ABI 1.5) on a
 *              new session: prints "NAME errno=E" for each request (0 when
 *              it succeeded), and "NAME policy=P nr=N ids=..." for reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "abi/ltt-abi.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* TRACKER_SET of @type, @policy and @nr ids at @ids, @flags; prints its errno. */
static void set(int s, const char *name, __u32 type, __u32 policy, const __u32 *ids, __u32 nr,
		__u32 flags)
{
	struct ltt_kabi_tracker t = {
		.type = type, .policy = policy, .nr = nr, .flags = flags,
		.ids = (__u64)(unsigned long)ids,
	};

	printf("%s errno=%d\n", name, ioctl(s, LTT_KABI_TRACKER_SET, &t) ? errno : 0);
}

/* TRACKER_GET of @type with room for 4 ids; prints what it read. */
static void get(int s, const char *name, __u32 type)
{
	__u32 ids[4] = { 0 }, i;
	struct ltt_kabi_tracker t = { .type = type, .nr = 4, .ids = (__u64)(unsigned long)ids };

	if (ioctl(s, LTT_KABI_TRACKER_GET, &t)) {
		printf("%s errno=%d\n", name, errno);
		return;
	}
	printf("%s policy=%u nr=%u ids=", name, t.policy, t.nr);
	for (i = 0; i < t.nr && i < 4; i++)
		printf("%s%u", i ? "," : "", ids[i]);
	printf("\n");
}

static int abi(void)
{
	static __u32 many[LTT_KABI_TRACKER_MAX_IDS + 1];
	__u32 ids[3] = { 30, 10, 20 }, dup[2] = { 7, 7 }, big = 0x80000000u, neg = 0xffffffffu;
	struct ltt_kabi_tracker t;
	int fd, s;
	__u32 i;

	fd = open("/proc/" LTT_KABI_PROC_NAME, O_RDWR | O_CLOEXEC);
	s = fd < 0 ? -1 : ioctl(fd, LTT_KABI_SESSION);
	if (s < 0) {
		fprintf(stderr, "kemit: a session: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i <= LTT_KABI_TRACKER_MAX_IDS; i++)
		many[i] = i + 1;
	get(s, "get_new", LTT_KABI_TRACKER_PID);
	set(s, "set_pid", LTT_KABI_TRACKER_PID, LTT_KABI_TRACKER_POLICY_SET, ids, 3, 0);
	get(s, "get_pid", LTT_KABI_TRACKER_PID);
	set(s, "set_flags", LTT_KABI_TRACKER_PID, LTT_KABI_TRACKER_POLICY_SET, ids, 3, 1);
	set(s, "set_type", LTT_KABI_TRACKER_NR, LTT_KABI_TRACKER_POLICY_SET, ids, 3, 0);
	set(s, "set_policy", LTT_KABI_TRACKER_PID, 3, ids, 3, 0);
	set(s, "set_empty", LTT_KABI_TRACKER_PID, LTT_KABI_TRACKER_POLICY_SET, ids, 0, 0);
	set(s, "set_too_many", LTT_KABI_TRACKER_UID, LTT_KABI_TRACKER_POLICY_SET, many,
	    LTT_KABI_TRACKER_MAX_IDS + 1, 0);
	set(s, "set_max", LTT_KABI_TRACKER_UID, LTT_KABI_TRACKER_POLICY_SET, many,
	    LTT_KABI_TRACKER_MAX_IDS, 0);
	set(s, "set_dup", LTT_KABI_TRACKER_GID, LTT_KABI_TRACKER_POLICY_SET, dup, 2, 0);
	set(s, "set_big_pid", LTT_KABI_TRACKER_VPID, LTT_KABI_TRACKER_POLICY_SET, &big, 1, 0);
	set(s, "set_uid_minus1", LTT_KABI_TRACKER_VUID, LTT_KABI_TRACKER_POLICY_SET, &neg, 1, 0);
	set(s, "set_all_ids", LTT_KABI_TRACKER_GID, LTT_KABI_TRACKER_POLICY_ALL, ids, 3, 0);
	set(s, "set_fault", LTT_KABI_TRACKER_GID, LTT_KABI_TRACKER_POLICY_SET, (__u32 *)8, 1, 0);
	set(s, "set_none", LTT_KABI_TRACKER_VGID, LTT_KABI_TRACKER_POLICY_NONE, NULL, 0, 0);
	get(s, "get_none", LTT_KABI_TRACKER_VGID);
	get(s, "get_uid", LTT_KABI_TRACKER_UID);
	get(s, "get_gid", LTT_KABI_TRACKER_GID);
	memset(&t, 0, sizeof(t));
	t.type = LTT_KABI_TRACKER_PID;
	t.reserved[1] = 1;
	printf("get_reserved errno=%d\n", ioctl(s, LTT_KABI_TRACKER_GET, &t) ? errno : 0);
	set(s, "set_all", LTT_KABI_TRACKER_PID, LTT_KABI_TRACKER_POLICY_ALL, NULL, 0, 0);
	get(s, "get_all", LTT_KABI_TRACKER_PID);
	close(s);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	char line[64];
	long long t0, t1;
	size_t len;
	int fd;

	if (argc == 2 && !strcmp(argv[1], "abi"))
		return abi();
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
