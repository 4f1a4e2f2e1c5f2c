/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf-sc.h - the BPF system call source's loader (doc/kernel-bpf.md):
 * the one program ltt embeds (syscalls.bpf.c, compiled at build time),
 * loaded with its maps and attached to the tracepoint sys_enter;
 * which calls it records and whether it records at all, set in its
 * maps; the fds a consumer reads (each CPU's ring, the lost counts).
 * Built where configure found libbpf, clang and bpftool (HAVE_BPF);
 * the privileged part's (root: CAP_BPF, CAP_PERFMON), no user-supplied
 * bytes ever reach the kernel.  One thread at a time per object.
 */
#ifndef LTT_COMMON_BPF_SC_H
#define LTT_COMMON_BPF_SC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "common/bpf/bpf-abi.h"

struct ltt_bpf_sc;

/**
 * ltt_bpf_sc_available() - can this process load the program here?
 * Loads it (one CPU's ring, nothing enabled) and lets go.  Returns 0, or
 * -errno with a sentence in @why saying what the kernel or the process
 * lacks (no BTF, BPF refused to this user, a kernel without BTF-typed
 * raw tracepoints or ring buffers) and what to do.
 */
int ltt_bpf_sc_available(char *why, size_t why_size);

/**
 * ltt_bpf_sc_number() - the number of the system call ftrace names
 * @name (events/syscalls/sys_enter_NAME), or -ENOENT
 */
int ltt_bpf_sc_number(const char *name);

/**
 * ltt_bpf_sc_create() - load and attach the program, recording nothing
 * @nr_cpus: rings, one per possible CPU (libbpf_num_possible_cpus())
 * @ring_bytes: each ring's size: a power of two, at least the page size
 * @ret: the object (ltt_bpf_sc_destroy())
 * @why: on failure, a sentence (libbpf's reason)
 * Returns 0, -EINVAL (sizes), -ENOMEM or the kernel's -errno.
 */
int ltt_bpf_sc_create(uint32_t nr_cpus, uint32_t ring_bytes, struct ltt_bpf_sc **ret,
		      char *why, size_t why_size);

/** ltt_bpf_sc_destroy() - detach and unload; accepts NULL. */
void ltt_bpf_sc_destroy(struct ltt_bpf_sc *b);

/**
 * ltt_bpf_sc_set() - what the program does at system call @nr's entry
 * (@call->enter_id 0: nothing) and exit (@call->exit_id 0: nothing; the
 * exit's program is attached while some call has one).  Returns 0,
 * -EINVAL (@nr out of range, more than LTT_BPF_ARGS arguments), the
 * attach's or the map update's -errno.
 */
int ltt_bpf_sc_set(struct ltt_bpf_sc *b, uint32_t nr, const struct ltt_bpf_call *call);

/**
 * ltt_bpf_sc_get() - what the program does at system call @nr, as last
 * set (all 0 at first).  Returns 0, -EINVAL or the map lookup's -errno.
 */
int ltt_bpf_sc_get(const struct ltt_bpf_sc *b, uint32_t nr, struct ltt_bpf_call *ret);

/** ltt_bpf_sc_switch() - record (@on) or not.  Returns 0 or -errno. */
int ltt_bpf_sc_switch(struct ltt_bpf_sc *b, bool on);

/**
 * ltt_bpf_sc_track() - the pid tracker: @track one of LTT_BPF_TRACK_*,
 * with SET's @nr @ids (thread group ids; their threads and the children
 * they fork from now on are recorded).  Nothing is recorded while the
 * set changes.  Returns 0, -EINVAL (@track, more than LTT_BPF_PIDS_MAX
 * ids) or a map update's -errno.
 */
int ltt_bpf_sc_track(struct ltt_bpf_sc *b, uint32_t track, const uint32_t *ids, uint32_t nr);

/**
 * ltt_bpf_sc_ring_fd() - a new fd of CPU @cpu's ring (the caller's, to
 * hand to a consumer: read and written, as a ring's reader must), or
 * -errno (-ENOENT: no such CPU)
 */
int ltt_bpf_sc_ring_fd(const struct ltt_bpf_sc *b, uint32_t cpu);

/**
 * ltt_bpf_sc_lost_fd() - a new fd of the lost counts (a u64 per CPU,
 * mappable; the consumer maps it read-only), the caller's, or -errno
 */
int ltt_bpf_sc_lost_fd(const struct ltt_bpf_sc *b);

/** ltt_bpf_sc_lost() - CPU @cpu's lost count so far (0 when unknown). */
uint64_t ltt_bpf_sc_lost(const struct ltt_bpf_sc *b, uint32_t cpu);

#endif /* LTT_COMMON_BPF_SC_H */
