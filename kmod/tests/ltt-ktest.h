/* SPDX-License-Identifier: GPL-2.0-only */
/* ltt-ktest.h - what the parts of ltt-ktest share (see ltt-ktest.c). */
#ifndef LTT_KTEST_H
#define LTT_KTEST_H

#include <stdbool.h>
#include <stdint.h>

#include "../ltt-abi.h"

#define MAX_CPUS	64

struct chan {
	int fd;
	int nr;
	int streams[MAX_CPUS];
	struct ltt_kabi_channel attr;
};

extern int test_failed;

/* Print "ok N - ..." or "not ok N - ..."; returns @ok. */
bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "not ok" with errno's message and exit 1. */
void die(const char *what) __attribute__((noreturn));
int tracer(void);
int nr_cpus(void);
/* A channel of @sfd with its streams, one per possible CPU (dies on error). */
void channel(int sfd, uint64_t sbsize, uint64_t nsb, int overwrite, struct chan *c);
int enable(int cfd, const char *name, uint32_t id);
void close_chan(struct chan *c);

/* ltt-ktest-errors.c */
int cmd_errors(void);
int cmd_fuzz(unsigned long iters);

#endif
