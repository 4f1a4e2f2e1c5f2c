/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-ktest-meta.h - what the module's test programs share: their traces'
 * metadata, the CPUs their channels have streams for.
 */
#ifndef LTT_KTEST_META_H
#define LTT_KTEST_META_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/ltt-abi.h"

/**
 * ltt_ktest_metadata() - write DIR/metadata: a kernel trace of one stream
 * (id 0) whose event i (for each i < @n with @have[i]) is @descs[i]
 * @tracer: the trace's name
 *
 * Returns 0, or non-zero when a description is refused or the file can't
 * be written.
 */
int ltt_ktest_metadata(const char *dir, const uint8_t uuid[16], const char *tracer,
		       const struct ltt_kabi_event_desc *descs, const bool *have, unsigned int n);

/**
 * ltt_ktest_possible_cpus() - how many possible CPUs, from
 * /sys/devices/system/cpu/possible ("0" or "0-N"): -1 when it can't be
 * read or is not that shape, or when there are more than @max
 */
int ltt_ktest_possible_cpus(int max);

#endif /* LTT_KTEST_META_H */
