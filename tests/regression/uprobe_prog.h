/* SPDX-License-Identifier: GPL-2.0-only */
/* uprobe_prog.h - what uprobe_prog.c and uprobe_guarded.c share. */
#ifndef LTT_TESTS_UPROBE_PROG_H
#define LTT_TESTS_UPROBE_PROG_H

/* The guarded probe's semaphore: the tracer adds to it while the probe is placed. */
extern unsigned short ltt_test_guarded_semaphore;

/* The ELF function probed. */
long uprobe_target(long a, int b);

/* SDT ltt_test:guarded(i) when its semaphore is set: 1 then, else 0. */
int uprobe_guarded(long i);

#endif
