/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf.h - map of src/common/bpf, the BPF system call source
 * (doc/kernel-bpf.md): where the kernel refuses event probes, ltt's own
 * BPF program records the system calls that take paths and names, their
 * strings read from the process.  From the top layer down:
 *
 *   bpf.h           this map
 *   bpf-sc.[ch]     the loader: the embedded program, its maps, the fds a
 *                   consumer reads (the privileged part's; libbpf, HAVE_BPF)
 *   bpf-ring.[ch]   a consumer's side: a CPU's ring and the lost counts,
 *                   read through their mapped fds alone (no libbpf)
 *   syscalls.bpf.c  the program, compiled for the BPF target at build time
 *   bpf-abi.h       what the program and user space agree on: its maps,
 *                   its records
 */
#ifndef LTT_COMMON_BPF_BPF_H
#define LTT_COMMON_BPF_BPF_H
#endif /* LTT_COMMON_BPF_BPF_H */
