// SPDX-License-Identifier: GPL-2.0-only
/*
 * tfs-inst.c - the private ftrace instance of a tracefs benchmark.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs-inst.h"
#include "common/base/paths.h"

char tfs_inst[300];
static void (*release_fn)(void);

void tfs_inst_remove(void)
{
	if (tfs_inst[0] && rmdir(tfs_inst))
		fprintf(stderr, "rmdir %s: %s\n", tfs_inst, strerror(errno));
	tfs_inst[0] = '\0';
}

static void on_signal(int sig)
{
	if (release_fn)
		release_fn();	/* an instance with open files can't go */
	if (tfs_inst[0])
		rmdir(tfs_inst);
	signal(sig, SIG_DFL);
	raise(sig);
}

int tfs_inst_create(const char *what, void (*release)(void))
{
	snprintf(tfs_inst, sizeof(tfs_inst), "/sys/kernel/tracing/instances/lttbench-%s-%ld", what,
		 (long)getpid());
	if (mkdir(tfs_inst, 0755)) {
		fprintf(stderr, "mkdir %s: %s (root and tracefs at /sys/kernel/tracing needed)\n",
			tfs_inst, strerror(errno));
		tfs_inst[0] = '\0';
		return -1;
	}
	release_fn = release;
	atexit(tfs_inst_remove);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGSEGV, on_signal);
	return 0;
}

int tfs_inst_write(const char *rel, const char *text)
{
	char path[700];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", tfs_inst, rel);
	ret = ltt_write_control(AT_FDCWD, path, text);
	if (ret)
		fprintf(stderr, "write %s: %s\n", path, strerror(-ret));
	return ret ? -1 : 0;
}
