// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kabi.c - what of sessiond/kabi/kabi.c runs without the kernel tracer:
 * the kernel thread's event loop is started, answers the VERSION request
 * posted to it (here refused: /dev/null is not the tracer), and is
 * stopped and joined by the close that follows, leaving no thread and no
 * fd behind.  The tracer's own answers are tested in tests/kernel/.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sessiond/kabi/kabi.h"
#include "tap.h"

#define ROUNDS 200

/* Entries of a /proc/self directory (fds, threads), or -1. */
static int count_entries(const char *path)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - (strcmp(path, "/proc/self/fd") ? 0 : 1);	/* opendir's own fd */
}

int main(void)
{
	int fds = count_entries("/proc/self/fd"), tasks = count_entries("/proc/self/task");
	struct ltt_kabi_version version;
	struct ltt_kabi *kabi = NULL;
	int i, ret, wrong = 0;

	tap_plan(6);
	ret = ltt_kabi_open(&ltt_kabi_module, "/nonexistent/ltt", &kabi, &version);
	tap_is_int(ret, -ENOENT, "no tracer file: ENOENT");
	tap_ok(!kabi, "and no handle");

	ret = ltt_kabi_open(&ltt_kabi_module, "/dev/null", &kabi, &version);
	tap_is_int(ret, -ENOTTY, "a file that is not the tracer: its VERSION answer, ENOTTY");
	for (i = 0; i < ROUNDS; i++)
		if (ltt_kabi_open(&ltt_kabi_module, "/dev/null", &kabi, &version) != -ENOTTY)
			wrong++;
	tap_is_int(wrong, 0, "%d more opens, each answered by a new kernel thread", ROUNDS);

	tap_is_int(count_entries("/proc/self/task"), tasks,
		   "every kernel thread stopped and joined");
	tap_is_int(count_entries("/proc/self/fd"), fds,
		   "no fd left behind (the tracer's, the loop's epoll, eventfd, timerfd)");
	ltt_kabi_close(NULL);
	return tap_done();
}
