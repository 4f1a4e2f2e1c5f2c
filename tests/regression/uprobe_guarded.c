// SPDX-License-Identifier: GPL-2.0-only
/* uprobe_guarded.c - uprobe_prog's SDT probe guarded by a semaphore. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "uprobe_prog.h"

unsigned short ltt_test_guarded_semaphore __attribute__((section(".probes"), used));

int uprobe_guarded(long i)
{
	if (!ltt_test_guarded_semaphore)
		return 0;
	STAP_PROBE1(ltt_test, guarded, i);
	return 1;
}
