// SPDX-License-Identifier: GPL-2.0-only
/*
 * testpoint_pause.c - LD_PRELOADed into ltt-sessiond by
 * test_trigger_testpoint.sh: LTTng's test point that pauses the reading
 * of programs' notifications (common/base/testpoint.h), driven by a file
 * instead of LTTng's FIFO.  Each call writes a line to $LTT_TEST_TP_CALLS
 * (a FIFO the test holds open, or a file: the test sees whether and when
 * the daemon called it); the pause is on while $LTT_TEST_TP_PAUSE exists.
 * The consumers inherit the library: LTTng's consumer poll point pauses
 * their reading while $LTT_TEST_TP_CONSUMER_PAUSE exists.  With
 * $LTT_TEST_TP_HOLD (a FIFO), the first call, once its line is written,
 * holds the daemon's thread until that FIFO's writers are all gone (EOF):
 * the test holds it open, and closes it to let the thread go.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int __testpoint_sessiond_handle_notifier_event_pipe(void);
int __testpoint_consumerd_thread_data_poll(void);

/* *@name (the daemon's export) = whether the file @env names exists; -1: no such export */
static int pause_from(const char *name, const char *env)
{
	const char *path = getenv(env);
	int *paused = dlsym(RTLD_DEFAULT, name);

	if (!paused)
		return -1;	/* the daemon does not export it: the test sees no pause */
	*paused = path && access(path, F_OK) == 0;
	return 0;
}

/* The first call reads $LTT_TEST_TP_HOLD to its end (the test's close). */
static void hold_once(void)
{
	static int held;
	const char *path = getenv("LTT_TEST_TP_HOLD");
	char buf[64];
	int fd;

	if (!path || __atomic_exchange_n(&held, 1, __ATOMIC_RELAXED))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

int __testpoint_sessiond_handle_notifier_event_pipe(void)
{
	const char *calls = getenv("LTT_TEST_TP_CALLS");
	int fd;

	if (calls) {
		fd = open(calls, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0600);
		if (fd >= 0) {
			(void)!write(fd, "call\n", 5);
			close(fd);
		}
	}
	hold_once();
	return pause_from("notifier_consumption_paused", "LTT_TEST_TP_PAUSE");
}

int __testpoint_consumerd_thread_data_poll(void)
{
	return pause_from("data_consumption_paused", "LTT_TEST_TP_CONSUMER_PAUSE");
}
