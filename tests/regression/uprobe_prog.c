// SPDX-License-Identifier: GPL-2.0-only
/*
 * uprobe_prog.c - a program for test_kernel_tracefs_uprobe.sh, probed
 * from outside: an ELF function, two SDT probes (one guarded by a
 * semaphore, one not), and a function of a shared library (libc's
 * getppid).
 *
 *   uprobe_prog N   call each N times, with i = 1..N:
 *                   uprobe_target(i, -i); SDT ltt_test:plain(i, -i, i * 3);
 *                   SDT ltt_test:guarded(i) when its semaphore is set;
 *                   getppid()
 *
 * It prints "pid P sem S guarded G": its pid, the guarded probe's
 * semaphore as it read it before its first call, and how many times the
 * guarded probe fired.  The guarded probe and its semaphore are in
 * uprobe_guarded.c (sdt.h gives every probe of a file a semaphore, or
 * none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

#include "uprobe_prog.h"

__attribute__((noinline, used)) long uprobe_target(long a, int b)
{
	__asm__ volatile("" ::: "memory");	/* not folded into its caller */
	return a + b;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 0, sum = 0;
	unsigned short sem = ltt_test_guarded_semaphore;
	int guarded = 0;

	for (i = 1; i <= n; i++) {
		int neg = (int)-i;
		long triple = i * 3;

		sum += uprobe_target(i, neg);
		DTRACE_PROBE3(ltt_test, plain, i, neg, triple);
		guarded += uprobe_guarded(i);
		sum += getppid() ? 0 : 1;
	}
	printf("pid %d sem %u guarded %d sum %ld\n", (int)getpid(), sem, guarded, sum);
	return 0;
}
