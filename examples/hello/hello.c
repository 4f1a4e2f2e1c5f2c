// SPDX-License-Identifier: MIT
/*
 * hello - the ltt example program: records a few events of every kind.
 *
 *   hello [LOOPS]       LOOPS iterations (default 10), one event each
 *
 * Trace it with a session daemon running:
 *
 *   lttctl create demo
 *   lttctl enable-event -u 'hello_world:*'
 *   lttctl enable-event -u lttng_ust_tracef:event
 *   lttctl start
 *   ./hello 5
 *   lttctl stop
 *   lttctl view
 *
 * Build your own the same way: cc prog.c -lltt-ust (or pkg-config ltt-ust).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hello-tp.h"

int main(int argc, char **argv)
{
	/*
	 * Arrays of 8 bytes, zero-padded: the event's array fields read 4
	 * bytes of the text whatever its length (ltt-ust(3)), so each text
	 * must have at least that many ("is" alone has 3).
	 */
	static const char words[][8] = { "hello", "world", "tracing", "is", "fun" };
	uint32_t values[8];
	long loops = 10;
	int i;

	if (argc > 1) {
		char *end;

		loops = strtol(argv[1], &end, 10);
		if (*end || loops < 0 || loops > 1000000000L) {
			fprintf(stderr, "usage: %s [LOOPS]\n", argv[0]);
			return 2;
		}
	}
	ltt_tracepoint(hello_world, starting, (int)loops, argv[0]);
	for (i = 0; i < loops; i++) {
		const char *text = words[i % 5];
		size_t n = (size_t)(i % 8) + 1, j;

		for (j = 0; j < n; j++)
			values[j] = (uint32_t)(i * 10 + (int)j);
		ltt_tracepoint(hello_world, my_first_tracepoint, i, text, values, n, i / 3.0);
		if (i % 2)
			ltt_tracepoint(hello_world, odd_iteration, i);
	}
	ltt_tracef("hello did %ld iterations as pid %ld", loops, (long)getpid());
	ltt_tracepoint(hello_world, done);
	printf("hello: %ld iterations\n", loops);
	return 0;
}
