// SPDX-License-Identifier: LGPL-2.1-only
/*
 * live_emit.c - the instrumented program of bench/live_latency.sh.
 *
 *   live_emit [-n EVENTS] [-a MIN_US] [-b MAX_US] [-s SEED]
 *
 * Records EVENTS bench:stamp events, each carrying its sequence number
 * and the CLOCK_REALTIME at which it was recorded (ns since the epoch),
 * with a pseudo-random pause of MIN_US..MAX_US µs (default 10000..90000)
 * before each, so that the events fall at every phase of the consumer's
 * live timer.  A reader of the live trace subtracts `t` from the time it
 * printed the event: the live latency.  Prints "emitted N" at the end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifdef LIVE_EMIT_LTTNG
/*
 * The same program for LTTng-UST, built by bench/live_latency.sh
 * (TRACERS=lttng: gcc -DLIVE_EMIT_LTTNG -Ibench/lttng ... -llttng-ust),
 * never by make: bench/lttng/live_tp.h declares the same event.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "live_tp.h"
#define EMIT(seq, t) lttng_ust_tracepoint(bench, stamp, seq, t)
#else
#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT(bench, stamp,
	LTT_TP_ARGS(uint64_t seq, uint64_t t),
	LTT_TP_FIELDS(
		ltt_field_integer(uint64_t, seq, seq)
		ltt_field_integer(uint64_t, t, t)))
#define EMIT(seq, t) ltt_tracepoint(bench, stamp, seq, t)
#endif

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pause_us(unsigned long us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000),
			       .tv_nsec = (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static int parse(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return (errno || *end || end == s) ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 200, lo = 10000, hi = 90000, seed = 1, i;
	int c;

	while ((c = getopt(argc, argv, "n:a:b:s:")) != -1) {
		unsigned long *v = c == 'n' ? &n : c == 'a' ? &lo : c == 'b' ? &hi :
				   c == 's' ? &seed : NULL;

		if (!v || parse(optarg, v)) {
			fprintf(stderr, "usage: live_emit [-n EVENTS] [-a MIN_US] [-b MAX_US] [-s SEED]\n");
			return 2;
		}
	}
	if (hi < lo) {
		fprintf(stderr, "live_emit: -b MAX_US (%lu) is below -a MIN_US (%lu)\n", hi, lo);
		return 2;
	}
	srandom((unsigned int)seed);
	for (i = 0; i < n; i++) {
		pause_us(lo + (unsigned long)random() % (hi - lo + 1));
		EMIT(i, realtime_ns());
	}
	printf("emitted %lu\n", n);
	return 0;
}
