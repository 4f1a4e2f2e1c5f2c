// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-ctx.c - CONTEXT_ADD through the raw ABI (kernel ABI 1.4):
 * the size of each kernel type, every refusal errno by errno, and that a
 * refused request changes nothing (the sizes returned add up to what the
 * channel keeps).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ltt-ktest.h"

/* CONTEXT_ADD of @type on @cfd: 0 and its size in *@size, or -errno. */
static int ctx_add(int cfd, uint32_t type, uint32_t reserved0, uint32_t *size)
{
	struct ltt_kabi_context c = { .type = type };

	c.reserved[0] = reserved0;
	if (ioctl(cfd, LTT_KABI_CONTEXT_ADD, &c) < 0)
		return -errno;
	*size = c.size;
	return 0;
}

int cmd_contexts(void)
{
	/* The kernel's types and their sizes in each event (ltt-abi.h). */
	static const struct { uint32_t type, size; } types[] = {
		{ LTT_KABI_CTX_PID, 4 }, { LTT_KABI_CTX_TID, 4 }, { LTT_KABI_CTX_PPID, 4 },
		{ LTT_KABI_CTX_VPPID, 4 }, { LTT_KABI_CTX_PRIO, 4 }, { LTT_KABI_CTX_NICE, 4 },
		{ LTT_KABI_CTX_HOSTNAME, 65 }, { LTT_KABI_CTX_INTERRUPTIBLE, 1 },
		{ LTT_KABI_CTX_PREEMPTIBLE, 1 }, { LTT_KABI_CTX_NEED_RESCHEDULE, 1 },
		{ LTT_KABI_CTX_MIGRATABLE, 1 }, { LTT_KABI_CTX_UID, 4 }, { LTT_KABI_CTX_EUID, 4 },
		{ LTT_KABI_CTX_SUID, 4 }, { LTT_KABI_CTX_GID, 4 }, { LTT_KABI_CTX_EGID, 4 },
		{ LTT_KABI_CTX_SGID, 4 }, { LTT_KABI_CTX_VPID, 4 }, { LTT_KABI_CTX_VTID, 4 },
		{ LTT_KABI_CTX_PROCNAME, 17 }, { LTT_KABI_CTX_CPU_ID, 4 },
		{ LTT_KABI_CTX_CGROUP_NS, 8 }, { LTT_KABI_CTX_IPC_NS, 8 }, { LTT_KABI_CTX_MNT_NS, 8 },
		{ LTT_KABI_CTX_NET_NS, 8 }, { LTT_KABI_CTX_PID_NS, 8 }, { LTT_KABI_CTX_TIME_NS, 8 },
		{ LTT_KABI_CTX_USER_NS, 8 }, { LTT_KABI_CTX_UTS_NS, 8 }, { LTT_KABI_CTX_VUID, 4 },
		{ LTT_KABI_CTX_VEUID, 4 }, { LTT_KABI_CTX_VSUID, 4 },
		{ LTT_KABI_CTX_VGID, 4 }, { LTT_KABI_CTX_VEGID, 4 }, { LTT_KABI_CTX_VSGID, 4 },
	};
	unsigned int i, nr = sizeof(types) / sizeof(types[0]), sized = 0, added = 0;
	int tfd = tracer(), sfd, cfd, ret;
	struct ltt_kabi_channel attr = { .subbuf_size = 4096, .num_subbuf = 2 };
	uint32_t size = 0;

	sfd = ioctl(tfd, LTT_KABI_SESSION);
	if (sfd < 0)
		die("SESSION");
	cfd = ioctl(sfd, LTT_KABI_CHANNEL, &attr);
	if (cfd < 0)
		die("CHANNEL");
	check(ctx_add(cfd, 0, 0, &size) == -EINVAL, "CONTEXT_ADD type 0: EINVAL");
	check(ctx_add(cfd, 4, 0, &size) == -EINVAL, "CONTEXT_ADD ip (user space's): EINVAL");
	check(ctx_add(cfd, 21, 0, &size) == -EINVAL, "CONTEXT_ADD perf:thread: EINVAL");
	check(ctx_add(cfd, LTT_KABI_CTX_NR_, 0, &size) == -EINVAL, "CONTEXT_ADD type %u: EINVAL",
	      LTT_KABI_CTX_NR_);
	check(ctx_add(cfd, LTT_KABI_CTX_PID, 1, &size) == -EINVAL,
	      "CONTEXT_ADD reserved not zero: EINVAL");
	check(ioctl(cfd, LTT_KABI_CONTEXT_ADD, (void *)8) < 0 && errno == EFAULT,
	      "CONTEXT_ADD bad pointer: EFAULT");
	for (i = 0; i < LTT_KABI_MAX_CONTEXTS; i++) {
		ret = ctx_add(cfd, types[i].type, 0, &size);
		added += !ret;
		sized += !ret && size == types[i].size;
	}
	check(added == LTT_KABI_MAX_CONTEXTS, "CONTEXT_ADD: %u of the first %u types added", added,
	      LTT_KABI_MAX_CONTEXTS);
	check(sized == LTT_KABI_MAX_CONTEXTS, "  each with its size (hostname 65, procname 17, ...)");
	check(ctx_add(cfd, LTT_KABI_CTX_TID, 0, &size) == -EEXIST, "CONTEXT_ADD tid again: EEXIST");
	check(ctx_add(cfd, types[LTT_KABI_MAX_CONTEXTS].type, 0, &size) == -ENOSPC,
	      "CONTEXT_ADD a 33rd: ENOSPC");
	close(cfd);
	/* A fresh channel of the same session: the rest, then START, then EBUSY. */
	cfd = ioctl(sfd, LTT_KABI_CHANNEL, &attr);
	if (cfd < 0)
		die("CHANNEL");
	for (i = LTT_KABI_MAX_CONTEXTS, added = 0; i < nr; i++)
		added += !ctx_add(cfd, types[i].type, 0, &size) && size == types[i].size;
	check(added == nr - LTT_KABI_MAX_CONTEXTS, "CONTEXT_ADD in another channel: the last %u types",
	      nr - LTT_KABI_MAX_CONTEXTS);
	if (ioctl(sfd, LTT_KABI_START, 0) < 0)
		die("START");
	check(ctx_add(cfd, LTT_KABI_CTX_PID, 0, &size) == -EBUSY, "CONTEXT_ADD after START: EBUSY");
	if (ioctl(sfd, LTT_KABI_STOP, 0) < 0)
		die("STOP");
	check(ctx_add(cfd, LTT_KABI_CTX_PID, 0, &size) == -EBUSY, "  and after STOP: EBUSY");
	close(cfd);
	close(sfd);
	close(tfd);
	return 0;
}
