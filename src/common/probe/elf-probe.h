/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * elf-probe.h - where a user-space probe goes in an ELF file: the file
 * offset of a function (its symbol in .symtab or .dynsym), or of a
 * SystemTap SDT probe (its note in .note.stapsdt: address, semaphore,
 * arguments), as the kernel's uprobes take them.  64-bit ELF files of
 * this machine's byte order; SDT arguments in x86-64's assembler syntax.
 */
#ifndef LTT_COMMON_ELF_PROBE_H
#define LTT_COMMON_ELF_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "common/probe/probe-loc.h"
#include "abi/ltt-abi.h"

/**
 * ltt_elf_probe_resolve() - fill @ret (instrumentation UPROBE, path,
 * offset, ref_ctr_offset, args) for @loc (ELF or SDT)
 * @why: on failure, what was not found or not understood (a phrase)
 *
 * Reads the file (the caller's rights).  Any thread.  Returns 0, -ENOENT
 * (no such file, function or SDT probe), -ENOEXEC (not an ELF file of
 * this machine, or not a regular file: a device or FIFO is not opened),
 * -EFBIG (a file over 512 MiB), -EOPNOTSUPP (an SDT argument ltt can't
 * fetch), -ENOMEM, or another -errno of reading the file.
 */
int ltt_elf_probe_resolve(const struct ltt_probe_loc *loc, struct ltt_kabi_probe *ret,
			  char *why, size_t why_size);

/**
 * ltt_elf_probe_resolve_fd() - ltt_elf_probe_resolve() of @loc's file
 * opened already as @fd (borrowed; -1: opened here), by whoever had the
 * rights to (a dropped session daemon's privileged part, PROBE_FILE)
 */
int ltt_elf_probe_resolve_fd(const struct ltt_probe_loc *loc, int fd, struct ltt_kabi_probe *ret,
			     char *why, size_t why_size);

/**
 * ltt_sdt_arg_parse() - one SDT argument ("-8@%rdx", "4@-4(%rbp)",
 * "8@$5", "4@counter(%rip)") into @ret
 * @sym_foffs: file offset of a symbol named in a %rip operand, or NULL
 *             (then such an argument is -EOPNOTSUPP)
 * @ctx: its argument
 *
 * Returns 0, -EINVAL (not an SDT argument) or -EOPNOTSUPP (one ltt can't
 * fetch: a register it does not know, an index register, an address
 * relative to the instruction).
 */
int ltt_sdt_arg_parse(const char *text, struct ltt_kabi_probe_arg *ret,
		      int (*sym_foffs)(void *ctx, const char *name, uint64_t *ret), void *ctx);

#endif /* LTT_COMMON_ELF_PROBE_H */
