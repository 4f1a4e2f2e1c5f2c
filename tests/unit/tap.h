/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tap.h - a tiny Test Anything Protocol producer for the unit tests.
 *
 * Each check prints "ok N - description" or "not ok N - description" on
 * stdout; diagnostics go to stdout as "# ..." lines.  Call tap_plan() first
 * when the number of checks is known, or let tap_done() print the plan at
 * the end ("1..N" last is valid TAP).  Not thread-safe.
 */
#ifndef LTT_TESTS_TAP_H
#define LTT_TESTS_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TAP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/** tap_plan() - announce @n checks; tap_done() then checks the count */
void tap_plan(unsigned int n);

/** tap_diag() - print a "# " diagnostic line */
void tap_diag(const char *fmt, ...) TAP_PRINTF(1, 2);

/** tap_ok() - one check; returns @cond */
bool tap_ok(bool cond, const char *fmt, ...) TAP_PRINTF(2, 3);

/* A test skipped: "ok N - # SKIP why" (the why escaped as a description is). */
void tap_skip(const char *fmt, ...) TAP_PRINTF(1, 2);

/** tap_is_int() - check that @got == @want; prints both on failure */
bool tap_is_int(long long got, long long want, const char *fmt, ...) TAP_PRINTF(3, 4);

/** tap_is_u64() - check that @got == @want; prints both on failure */
bool tap_is_u64(uint64_t got, uint64_t want, const char *fmt, ...) TAP_PRINTF(3, 4);

/**
 * tap_is_str() - check that two strings are equal; NULL equals only NULL
 */
bool tap_is_str(const char *got, const char *want, const char *fmt, ...) TAP_PRINTF(3, 4);

/**
 * tap_rand() - the next number of a test's own deterministic sequence
 * (xorshift), @state its seed, not 0, then its state: the same inputs
 * each run, to mutate or pick with
 */
uint32_t tap_rand(uint64_t *state);

/**
 * tap_fuzz_input() - the @n-th input of a decoder's fuzz run, into @buf:
 * for odd @n (or no @sample), under 96 random bytes, small values
 * favoured; else @sample's @sample_len bytes with one changed, one time
 * in four cut short.  Drawn from tap_rand(@state); @buf holds 96 bytes
 * and @sample_len.  Returns the input's length.
 */
size_t tap_fuzz_input(uint64_t *state, int n, uint8_t *buf, const uint8_t *sample,
		      size_t sample_len);

/**
 * tap_dup() - a heap copy of exactly @len bytes of @p (free() it), so that
 * a decoder's read past them is caught (ASan); out of memory aborts
 */
void *tap_dup(const void *p, size_t len);

/**
 * tap_done() - end the test: print the plan if none was given
 *
 * Returns the exit code for main(): 0 when every check passed and their
 * number matches the plan, 1 otherwise.
 */
int tap_done(void);

#endif /* LTT_TESTS_TAP_H */
