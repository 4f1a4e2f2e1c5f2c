/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-ktest-meta.h - metadata for the module's test programs' traces.
 */
#ifndef LTT_KTEST_META_H
#define LTT_KTEST_META_H

#include <stdbool.h>
#include <stdint.h>

#include "kmod/ltt-abi.h"

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

#endif /* LTT_KTEST_META_H */
