// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fault.c - fault points for tests (fault.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/fault.h"
#include "common/base/log.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char point_at[64];
static char *arm_file;		/* armed by this file, or NULL (no page of bss) */
static unsigned long nth = 1;	/* the hit that fires */
static unsigned long hits;
static bool stop;		/* else kill, or hang */
static bool hang;		/* the thread, alone, blocks for good */
static bool delay;		/* the thread, alone, sleeps LTT_FAULT_DELAY_MS, then goes on */

/*
 * LTT_FAULT="kill|stop|hang|delay POINT[:N] [FILE]"; anything else: no
 * fault.  Not in a set-user-ID or set-group-ID program (libltt-ust's
 * points): its user does not choose where it stops.
 */
static void init(void)
{
	const char *env = secure_getenv("LTT_FAULT");
	char action[8], where[80];
	char *colon, *file = NULL;
	int n;

	if (!env || !*env)
		return;
	n = sscanf(env, "%7s %79s %ms", action, where, &file);
	if (n < 2 || (strcmp(action, "kill") && strcmp(action, "stop") && strcmp(action, "hang") &&
		      strcmp(action, "delay"))) {
		LTT_WARN("LTT_FAULT='%s': not 'kill|stop|hang|delay POINT[:N] [FILE]'; ignored", env);
		free(file);
		return;
	}
	arm_file = file;
	stop = !strcmp(action, "stop");
	hang = !strcmp(action, "hang");
	delay = !strcmp(action, "delay");
	colon = strchr(where, ':');
	if (colon) {
		*colon = '\0';
		nth = strtoul(colon + 1, NULL, 10);
	}
	if (strlen(where) < sizeof(point_at))
		strcpy(point_at, where);
}

bool ltt_fault_due(const char *point)
{
	pthread_once(&once, init);
	if (!point_at[0] || !point || strcmp(point_at, point) ||
	    __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED) != nth)
		return false;
	/* armed by a file: only the process that takes it away */
	return !arm_file || !unlink(arm_file);
}

/* ltt_fault_with(): the process a fault here befalls too, 0: none */
static pid_t with;

void ltt_fault_with(pid_t pid)
{
	with = pid;
}

void ltt_fault_fire(void)
{
	struct timespec ts = { .tv_sec = LTT_FAULT_DELAY_MS / 1000,
			       .tv_nsec = LTT_FAULT_DELAY_MS % 1000 * 1000000L };

	LTT_WARN("LTT_FAULT: %s at %s, as asked",
		 delay ? "this thread sleeps" : hang ? "this thread hangs" :
		 stop ? "stopping" : "killed", point_at);
	if (delay) {
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return;
	}
	if (hang) {
		for (;;)
			sleep(3600);
	}
	if (with > 0)
		kill(with, stop ? SIGSTOP : SIGKILL);
	if (stop) {
		raise(SIGSTOP);
		return;
	}
	kill(getpid(), SIGKILL);
	pause();
}

void ltt_fault_point(const char *point)
{
	if (ltt_fault_due(point))
		ltt_fault_fire();
}
