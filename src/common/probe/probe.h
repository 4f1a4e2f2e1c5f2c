/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * probe.h - map of src/common/probe, probes placed from outside a
 * program: where the user says (a symbol, an address, an SDT note) and
 * where that is in the file.
 *
 *   probe.h          this map
 *   elf-probe.[ch]   an ELF file read (never mapped) for a probe's offset,
 *                    its SDT notes and their arguments
 *   probe-loc.[ch]   the location of a probe as users write it, parsed
 *                    and checked
 */
#ifndef LTT_COMMON_PROBE_PROBE_H
#define LTT_COMMON_PROBE_PROBE_H
#endif /* LTT_COMMON_PROBE_PROBE_H */
