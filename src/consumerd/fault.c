// SPDX-License-Identifier: GPL-2.0-only
/*
 * fault.c - the consumer's fault point for tests (fault.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "consumerd/fault.h"

void ltt_fault_command(const char *name)
{
	const char *spec = getenv("LTT_CONSUMERD_FAULT");
	char cmd[64], file[4096];

	if (!spec || !name)
		return;
	if (sscanf(spec, "stop %63s %4095s", cmd, file) != 2 || strcmp(cmd, name))
		return;
	if (unlink(file))
		return;	/* not armed, or already taken by another consumer */
	LTT_WARN("LTT_CONSUMERD_FAULT: stopping on %s, as asked", name);
	raise(SIGSTOP);
}
