/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * evloop-harness.h - what the tests of common/base/evloop.c share
 * (test_evloop.c, test_evloop_threads.c): a loop made or the test ends,
 * and a guard deadline that stops a loop which runs too long and says
 * that it had to.
 */
#ifndef LTT_TESTS_UNIT_EVLOOP_HARNESS_H
#define LTT_TESTS_UNIT_EVLOOP_HARNESS_H

#include <stdbool.h>

#include "common/base/evloop.h"

#define MS 1000000ULL
#define GUARD_NS (10000 * MS)	/* a guard's deadline */

/* A set-up step failed (errno says why): the test ends, status 99. */
void __attribute__((noreturn)) evl_die(const char *what);

/* A new loop, or evl_die(). */
struct ltt_evloop *evl_new_loop(void);

/* Set when the last guard armed fired: its loop ran past GUARD_NS. */
extern bool evl_guard_fired;

/* A timer on @loop that stops it in GUARD_NS, armed; clears evl_guard_fired. */
struct ltt_evloop_timer *evl_guard(struct ltt_evloop *loop);

#endif /* LTT_TESTS_UNIT_EVLOOP_HARNESS_H */
