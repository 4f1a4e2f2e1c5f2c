// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tap.c - a tiny Test Anything Protocol producer for the unit tests.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

static bool has_plan;		/* false: tap_done() prints the plan */
static unsigned int planned;
static unsigned int run;
static unsigned int failed;

void tap_plan(unsigned int n)
{
	has_plan = true;
	planned = n;
	printf("1..%u\n", n);
	fflush(stdout);
}

static void put_line(const char *prefix, bool escape_hash, const char *fmt, va_list ap)
	TAP_PRINTF(3, 0);

/*
 * Print @prefix then the formatted text on one line: control characters
 * (and '#', which would start a TAP directive, if @escape_hash) become \xNN.
 */
static void put_line(const char *prefix, bool escape_hash, const char *fmt, va_list ap)
{
	char text[1024];
	const char *p;

	vsnprintf(text, sizeof(text), fmt, ap);
	fputs(prefix, stdout);
	for (p = text; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f || (escape_hash && *p == '#'))
			printf("\\x%02x", (unsigned char)*p);
		else
			fputc(*p, stdout);
	}
	fputc('\n', stdout);
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_line("# ", false, fmt, ap);
	va_end(ap);
}

static bool vok(bool cond, const char *fmt, va_list ap) TAP_PRINTF(2, 0);

static bool vok(bool cond, const char *fmt, va_list ap)
{
	char prefix[32];

	run++;
	if (!cond)
		failed++;
	snprintf(prefix, sizeof(prefix), "%sok %u - ", cond ? "" : "not ", run);
	put_line(prefix, true, fmt, ap);
	return cond;
}

void tap_skip(const char *fmt, ...)
{
	char prefix[48];
	va_list ap;

	run++;
	snprintf(prefix, sizeof(prefix), "ok %u - # SKIP ", run);
	va_start(ap, fmt);
	put_line(prefix, true, fmt, ap);
	va_end(ap);
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vok(cond, fmt, ap);
	va_end(ap);
	return cond;
}

bool tap_is_int(long long got, long long want, const char *fmt, ...)
{
	bool cond = got == want;
	va_list ap;

	va_start(ap, fmt);
	vok(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		tap_diag("got %lld, want %lld", got, want);
	return cond;
}

bool tap_is_u64(uint64_t got, uint64_t want, const char *fmt, ...)
{
	bool cond = got == want;
	va_list ap;

	va_start(ap, fmt);
	vok(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		tap_diag("got %" PRIu64 ", want %" PRIu64, got, want);
	return cond;
}

bool tap_is_str(const char *got, const char *want, const char *fmt, ...)
{
	bool cond = got && want ? strcmp(got, want) == 0 : got == want;
	va_list ap;

	va_start(ap, fmt);
	vok(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		tap_diag("got \"%s\", want \"%s\"", got ? got : "(null)", want ? want : "(null)");
	return cond;
}

uint32_t tap_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 16);
}

size_t tap_fuzz_input(uint64_t *state, int n, uint8_t *buf, const uint8_t *sample,
		      size_t sample_len)
{
	size_t len;

	if (!sample || (n & 1)) {
		len = tap_rand(state) % 96;
		for (size_t j = 0; j < len; j++)
			buf[j] = (uint8_t)(tap_rand(state) % 4 ? tap_rand(state) : tap_rand(state) % 3);
		return len;
	}
	memcpy(buf, sample, sample_len);
	len = sample_len;
	buf[tap_rand(state) % len] = (uint8_t)tap_rand(state);
	if (tap_rand(state) % 4 == 0)
		len = tap_rand(state) % (len + 1);
	return len;
}

void *tap_dup(const void *p, size_t len)
{
	void *d = malloc(len ? len : 1);

	if (!d)
		abort();
	if (len)
		memcpy(d, p, len);
	return d;
}

int tap_done(void)
{
	if (!has_plan)
		printf("1..%u\n", run);
	else if (run != planned)
		tap_diag("planned %u checks but ran %u", planned, run);
	if (failed)
		tap_diag("%u of %u checks failed", failed, run);
	fflush(stdout);
	return failed || (has_plan && run != planned) ? 1 : 0;
}
