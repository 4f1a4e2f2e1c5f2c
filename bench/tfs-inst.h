/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tfs-inst.h - the private ftrace instance a tracefs benchmark records
 * into (tfs_conv, tfs_ftrace): made under /sys/kernel/tracing/instances,
 * removed at exit and on a fatal signal, its control files written.
 */
#ifndef LTT_BENCH_TFS_INST_H
#define LTT_BENCH_TFS_INST_H

/* The instance's directory ("" before tfs_inst_create() and after removal). */
extern char tfs_inst[300];

/**
 * tfs_inst_create() - make instances/lttbench-@what-PID, removed at exit
 * and on SIGINT, SIGTERM, SIGSEGV (after @release, if any, closed the
 * files that hold it)
 *
 * Returns 0, or -1 with a message (root and tracefs needed).
 */
int tfs_inst_create(const char *what, void (*release)(void));

/* Remove the instance now (at most once): its files must be closed. */
void tfs_inst_remove(void);

/* Write @text to the instance's control file @rel: 0, or -1 with a message. */
int tfs_inst_write(const char *rel, const char *text);

#endif /* LTT_BENCH_TFS_INST_H */
