// SPDX-License-Identifier: GPL-2.0-only
/*
 * testpoint_pause.c - LD_PRELOADed into ltt-sessiond by
 * test_trigger_testpoint.sh: LTTng's test point that pauses the reading
 * of programs' notifications (common/base/testpoint.h), driven by a file
 * instead of LTTng's FIFO.  Each call writes a line to $LTT_TEST_TP_CALLS
 * (a FIFO the test holds open, or a file: the test sees whether and when
 * the daemon called it); the pause is on while $LTT_TEST_TP_PAUSE exists.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int __testpoint_sessiond_handle_notifier_event_pipe(void);

int __testpoint_sessiond_handle_notifier_event_pipe(void)
{
	const char *calls = getenv("LTT_TEST_TP_CALLS");
	const char *pause = getenv("LTT_TEST_TP_PAUSE");
	int *paused = dlsym(RTLD_DEFAULT, "notifier_consumption_paused");
	int fd;

	if (calls) {
		fd = open(calls, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0600);
		if (fd >= 0) {
			(void)!write(fd, "call\n", 5);
			close(fd);
		}
	}
	if (!paused)
		return -1;	/* the daemon does not export it: the test sees no pause */
	*paused = pause && access(pause, F_OK) == 0;
	return 0;
}
