/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trace.h - map of src/common/trace, the trace as it is written and read
 * back: its binary framing, the user-space ring buffer, the repair of
 * what a crash leaves, the events' clock and the stream files' names.
 *
 *   trace.h             this map
 *   ringbuf.[ch]        the lock-free ring buffer of one user-space stream
 *                       in shared memory: layout and the writers' path
 *   ringbuf-read.[ch]   its reading half: flush, reclaim, packets,
 *                       snapshots, loss counters (the flush, a switch,
 *                       is ringbuf.c's)
 *   ringbuf-repair.c    a ring buffer whose writer died, repaired for its
 *                       reader
 *   ringbuf-internal.h  what ringbuf.c, ringbuf-read.c and
 *                       ringbuf-repair.c share
 *   trace-repair.[ch]   what a crash leaves at the end of a trace's files,
 *                       cut back to whole packets
 *   ctf.[ch]            the binary framing of ltt's CTF 1.8 traces that
 *                       is not TSDL: packet headers, indexes
 *   tracefile.[ch]      a stream's files: names, the current ones, rotation
 *                       and the file count (consumer, relay)
 *   tclock-abi.c        in a daemon's executable: the functions a clock
 *                       plugin calls, exported
 *   tclock-plugin.[ch]  LTTng-UST's clock plugin: loaded, its callbacks,
 *                       its read; ltt's own clock without one (below
 *                       tclock.[ch])
 *   tclock.[ch]         the clock of user-space events, and which
 *                       plugin a process chooses
 *   kabi-struct.h       a kernel layout's structure fields and their
 *                       members, checked once for the TSDL and the
 *                       converter
 *   kabi-enum.h         the kernel enumerations a kernel layout's integer
 *                       may be written as: names and labels
 */
#ifndef LTT_COMMON_TRACE_TRACE_H
#define LTT_COMMON_TRACE_TRACE_H
#endif /* LTT_COMMON_TRACE_TRACE_H */
