// SPDX-License-Identifier: GPL-2.0-only
/*
 * kslew - slew the test guest's kernel clock as NTP does, and read the
 * clocks, for the slewing scenario (tests/kernel/scenarios/ust_clock_slew.sh).
 * Only ever run in the guest: it changes the system's clock rate.
 *
 *   kslew set PPM US   adjtimex(2): ADJ_FREQUENCY at PPM ppm (-500..500),
 *                      then an adjtime(3)-style ADJ_OFFSET_SINGLESHOT slew
 *                      of US microseconds, which the kernel works off at
 *                      500 ppm, from the next second of its own on (0
 *                      cancels one in progress).  Returns once the kernel
 *                      has begun to work it off (the offset left moved),
 *                      at most 5 s, so that from then on the clock runs at
 *                      PPM + 500 ppm (or - 500, for US < 0); then as read
 *   kslew read         the clocks, as KEY=VALUE lines:
 *                        mono_ns, raw_ns: CLOCK_MONOTONIC and
 *                          CLOCK_MONOTONIC_RAW (which no slew changes) at
 *                          one instant, the narrowest of 16 brackets
 *                          (raw, mono, raw)
 *                        real_ns: CLOCK_REALTIME, read after them
 *                        freq: the kernel's frequency offset (ppm << 16)
 *                        adjust_us: the adjtime slew still to work off
 *
 * The host compares two reads: (mono - raw) / raw of their differences is
 * the rate the slew gave CLOCK_MONOTONIC meanwhile.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>

#define BRACKETS	16
#define MAX_PPM		500
#define BEGIN_WAIT_MS	5000

static int die(const char *what)
{
	fprintf(stderr, "kslew: %s: %s\n", what, strerror(errno));
	return 1;
}

static int64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* adjtimex's state without changing it: the frequency and the adjtime left. */
static int adj_read(struct timex *tx)
{
	memset(tx, 0, sizeof(*tx));
	tx->modes = ADJ_OFFSET_SS_READ;
	return adjtimex(tx) < 0 ? -1 : 0;
}

static int do_read(void)
{
	int64_t r0, m, r1, best_w = INT64_MAX, mono = 0, raw = 0;
	struct timex tx;
	int i;

	for (i = 0; i < BRACKETS; i++) {
		r0 = now_ns(CLOCK_MONOTONIC_RAW);
		m = now_ns(CLOCK_MONOTONIC);
		r1 = now_ns(CLOCK_MONOTONIC_RAW);
		if (r1 - r0 < best_w) {
			best_w = r1 - r0;
			mono = m;
			raw = r0 + (r1 - r0) / 2;
		}
	}
	printf("mono_ns=%lld\nraw_ns=%lld\nreal_ns=%lld\n", (long long)mono, (long long)raw,
	       (long long)now_ns(CLOCK_REALTIME));
	if (adj_read(&tx))
		return die("adjtimex");
	printf("freq=%ld\nadjust_us=%ld\n", (long)tx.freq, (long)tx.offset);
	return 0;
}

static int do_set(long ppm, long us)
{
	struct timespec tick = { 0, 1000000 };
	struct timex tx;
	int ms;

	if (ppm < -MAX_PPM || ppm > MAX_PPM) {
		fprintf(stderr, "kslew: %ld ppm: out of -%d..%d\n", ppm, MAX_PPM, MAX_PPM);
		return 1;
	}
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_FREQUENCY;
	tx.freq = ppm * 65536;
	if (adjtimex(&tx) < 0)
		return die("adjtimex ADJ_FREQUENCY");
	/* the singleshot slew takes no other mode bit */
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_OFFSET_SINGLESHOT;
	tx.offset = us;
	if (adjtimex(&tx) < 0)
		return die("adjtimex ADJ_OFFSET_SINGLESHOT");
	for (ms = 0; us; ms++) {
		if (adj_read(&tx))
			return die("adjtimex");
		if (tx.offset != us)
			break;
		if (ms == BEGIN_WAIT_MS) {
			fprintf(stderr, "kslew: the kernel did not begin the slew in %d ms\n", ms);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	return do_read();
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "set"))
		return do_set(strtol(argv[2], NULL, 10), strtol(argv[3], NULL, 10));
	if (argc == 2 && !strcmp(argv[1], "read"))
		return do_read();
	fprintf(stderr, "usage: kslew set PPM US | read\n");
	return 2;
}
