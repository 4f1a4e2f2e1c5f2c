/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * seed-tp.h - valid TRACEPOINTS payloads for fuzz seeds (seed-tp.c).
 */
#ifndef LTT_TESTS_FUZZ_SEED_TP_H
#define LTT_TESTS_FUZZ_SEED_TP_H

#include "common/base/codec.h"

#define LTT_FUZZ_SEED_TP_COUNT 3
#define LTT_FUZZ_SEED_TP_ALL 0xffffffffu

/**
 * ltt_fuzz_put_seed_tracepoints() - append a TRACEPOINTS payload holding
 * seed description @which (0 .. LTT_FUZZ_SEED_TP_COUNT - 1), or all of
 * them (LTT_FUZZ_SEED_TP_ALL)
 */
void ltt_fuzz_put_seed_tracepoints(struct ltt_wbuf *w, unsigned int which);

#endif
