// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tracepoint_app.c - an instrumented program, linked to the shared
 * libltt-ust as users link it, that test_tracepoint runs against a fake
 * session daemon.  Exit status 0 when its own checks pass.
 *
 *   quick            disabled tracepoints must not run their probes;
 *                    prints the library's start-up cost in ns
 *   first            record app:first(42, "first") and ltt_tracef("tracef 43")
 *                    at once, then exit
 *   loop MS          record app:first(i, "loop") every ms for MS ms
 *   fork             app:first 1, fork(): the child records 2, the parent 3
 *   dlopen PATH      dlopen() PATH: plugin:hello must be enabled when it
 *                    returns (the daemon enabled it meanwhile); record it
 *   layouts PATH     dlopen() PATH, whose shared:other is another layout
 *                    of ours; record ours (1, "app") then its (2, "plugin")
 *   count N          record app:first(i, "ev-i") for i = 0 .. N-1
 *   flood T          T threads record app:first(i, "flood"), i = 0, 1, ...,
 *                    flat out until the daemon disables the event
 */
#include <pthread.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

static int evals;

static int count_eval(int x)
{
	evals++;
	return x;
}

LTT_TRACEPOINT_EVENT(app, first,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, count_eval(v))
		ltt_field_string(s, s)))

LTT_TRACEPOINT_EVENT_LOGLEVEL(app, warn, LTT_LOGLEVEL_WARNING,
	LTT_TP_ARGS(unsigned long addr, const double *vals, size_t n),
	LTT_TP_FIELDS(
		ltt_field_integer_hex(unsigned long, addr, addr)
		ltt_field_float(double, first, n ? vals[0] : 0)
		ltt_field_sequence(uint8_t, raw, vals, n * sizeof(double))))

/* The plugin's shared:other is another layout of it (its level is DEBUG). */
LTT_TRACEPOINT_EVENT(shared, other,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

static uint64_t t_ctor;	/* before the other constructors of this program */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void __attribute__((constructor(101))) early(void)
{
	t_ctor = now_ns();
}

static int mode_quick(uint64_t t_main)
{
	double d = 1.0;

	ltt_tracepoint(app, first, 1, "x");
	ltt_tracepoint(app, warn, 0, &d, 1);
	ltt_tracef("%d", count_eval(1));
	printf("startup_ns %llu\n", (unsigned long long)(t_main - t_ctor));
	if (evals) {
		fprintf(stderr, "a disabled tracepoint ran its probe\n");
		return 1;
	}
	return 0;
}

static int mode_loop(long ms)
{
	struct timespec one = { 0, 1000000 };
	long i;

	for (i = 0; i < ms; i++) {
		ltt_tracepoint(app, first, (int)i, "loop");
		nanosleep(&one, NULL);
	}
	return 0;
}

static int mode_fork(void)
{
	int status = 1;
	pid_t pid;

	ltt_tracepoint(app, first, 1, "parent");
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		/* registered as itself, without the parent's channels */
		if (ltt_tracepoint_enabled(app, first))
			_exit(3);
		ltt_tracepoint(app, first, 2, "child");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ltt_tracepoint(app, first, 3, "parent");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

static int mode_dlopen(const char *path)
{
	void (*fire)(int);
	int (*enabled)(void);
	void *h = dlopen(path, RTLD_NOW);
	int i;

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	*(void **)&fire = dlsym(h, "plugin_fire");
	*(void **)&enabled = dlsym(h, "plugin_enabled");
	if (!fire || !enabled)
		return 1;
	/* the constructor waited until the daemon enabled it */
	i = enabled();
	fire(7);
	dlclose(h);
	return i ? 0 : 5;
}

static int mode_layouts(const char *path)
{
	void (*fire)(int);
	void *h = dlopen(path, RTLD_NOW);

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	*(void **)&fire = dlsym(h, "plugin_fire_other");
	if (!fire)
		return 1;
	ltt_tracepoint(shared, other, 1, "app");
	fire(2);
	dlclose(h);
	return 0;
}

static int mode_count(long n)
{
	char s[32];
	long i;

	for (i = 0; i < n; i++) {
		snprintf(s, sizeof(s), "ev-%ld", i);
		ltt_tracepoint(app, first, (int)i, s);
	}
	return 0;
}

/* Bounded: a test whose daemon died must not spin for ever. */
#define FLOOD_MAX 100000000

static void *flood_thread(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < FLOOD_MAX && ltt_tracepoint_enabled(app, first); i++)
		ltt_tracepoint(app, first, i, "flood");
	return NULL;
}

static int mode_flood(long nr_threads)
{
	pthread_t t[8];
	long i;

	if (nr_threads < 1 || nr_threads > 8)
		return 2;
	for (i = 0; i < nr_threads; i++)
		if (pthread_create(&t[i], NULL, flood_thread, NULL))
			return 1;
	for (i = 0; i < nr_threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t t_main = now_ns();

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "quick"))
		return mode_quick(t_main);
	if (!strcmp(argv[1], "first")) {
		ltt_tracepoint(app, first, 42, "first");
		ltt_tracef("tracef %d", 43);
		return 0;
	}
	if (!strcmp(argv[1], "loop") && argc > 2)
		return mode_loop(atol(argv[2]));
	if (!strcmp(argv[1], "fork"))
		return mode_fork();
	if (!strcmp(argv[1], "count") && argc > 2)
		return mode_count(atol(argv[2]));
	if (!strcmp(argv[1], "flood") && argc > 2)
		return mode_flood(atol(argv[2]));
	if (!strcmp(argv[1], "layouts") && argc > 2)
		return mode_layouts(argv[2]);
	if (!strcmp(argv[1], "dlopen") && argc > 2)
		return mode_dlopen(argv[2]);
	return 2;
}
