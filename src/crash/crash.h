/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crash.h - ltt-crash (also run as lttng-crash): the ring buffers a
 * session kept as files (lttctl create --shm-path, sessiond/ust/ust-shm.h)
 * made into a CTF trace after the programs or the daemons crashed.
 *
 *   main.c     the command line (lttng-crash's), the viewer
 *   extract.c  the walk over the input, one trace, one stream
 *
 * Each stream file is read into memory of its own: the reader's code of
 * the consumer (common/trace/ringbuf-read.h) closes the packet being
 * written, finishes the slots of dead writers and takes every packet
 * from the read position on, and none of it reaches the files.  The
 * input is untrusted (extract.c): no link followed, no other file system
 * entered, only regular files and directories of its owner (or root),
 * opened with the owner's rights when root reads another user's.
 */
#ifndef LTT_CRASH_CRASH_H
#define LTT_CRASH_CRASH_H

#include <stdint.h>

/* What an extraction recovered and counted lost, summed over its streams. */
struct crash_counts {
	uint64_t traces;
	uint64_t streams;
	uint64_t packets;
	uint64_t events;	/* committed events in the packets written */
	uint64_t lost;		/* dropped by the writers (full buffer), torn, abandoned */
	unsigned int warnings;	/* what could not be read (said) */
};

/**
 * crash_extract() - extract every trace under @input into @output
 * @input: a directory (a link followed to it; none below it), read only
 * @output: an existing empty directory; the input's tree below each
 *          trace ("metadata" and its stream files) is made again there
 * @verbose: say each stream's counts on stderr
 * @ret: the counts, the caller's, summed into
 *
 * Returns 0 (warnings counted in @ret, said), or -errno when @input
 * can't be read at all.
 */
int crash_extract(const char *input, const char *output, int verbose, struct crash_counts *ret);

#endif
