// SPDX-License-Identifier: LGPL-2.1-only
/*
 * kfilter_client - event filters of ltt-tracer.ko through the raw ABI
 * (src/abi/ltt-abi.h 1.3, EVENT_ENABLE_FILTERED / EVENT_SET_FILTER), no daemon
 * in between; run in the test guest (tests/kernel, scenario kernel_filter).
 *
 *   kfilter_client emit N
 *       write N to /proc/ltt-test (N ltt_test_event from a process whose
 *       comm is "kfilter_client")
 *   kfilter_client hostile
 *       hand the tracer handcrafted bad arguments and programs, then every
 *       truncation and one-byte mutant of a compiled program (each
 *       accepted one runs on 3 events; the mutated byte takes every opcode
 *       value, 0x7f, 0x80, 0xfe, 0xff and its neighbours); prints one
 *       line per check:
 *       "ok NAME" or "not ok NAME: ...", then "mutants=M accepted=A
 *       mismatch=X stricter=Y" (X: the tracer took what src/common's
 *       validator refuses, must be 0; Y: the reverse, floats)
 *   kfilter_client bench N
 *       ns per event of N test events with the event disabled, enabled
 *       without filter, with a filter rejecting all, accepting all, and
 *       a string glob accepting all, 9 rounds interleaved: "NAME MIN
 *       MEDIAN MAX" lines (the minimum is the figure least disturbed by
 *       other work on the host)
 *   kfilter_client swap N
 *       replace the filter of an enabled event N times while a child
 *       process records it without pause; prints "swaps=N"
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "abi/ltt-abi.h"
#include "common/filter/filter-compile.h"
#include "filter-vm/filter-vm.h"

#define EVENT "ltt_test_event"

static int failures;

static void check(int cond, const char *name, const char *why)
{
	if (cond) {
		printf("ok %s\n", name);
	} else {
		printf("not ok %s: %s\n", name, why);
		failures++;
	}
}

static int emit(unsigned long n)
{
	char buf[32];
	int fd = open("/proc/" LTT_KABI_TEST_PROC_NAME, O_WRONLY | O_CLOEXEC);
	int len = snprintf(buf, sizeof(buf), "%lu\n", n);
	int ret = fd >= 0 && write(fd, buf, (size_t)len) == len ? 0 : -1;

	if (fd >= 0)
		close(fd);
	return ret;
}

/* A channel of a new session: its fd (the session's in @sess). */
static int make_channel(int *tracer, int *sess)
{
	struct ltt_kabi_channel c = {
		.subbuf_size = 4096, .num_subbuf = 2, .stream_id = 0,
	};

	*tracer = open("/proc/" LTT_KABI_PROC_NAME, O_RDWR | O_CLOEXEC);
	if (*tracer < 0)
		return -1;
	*sess = ioctl(*tracer, LTT_KABI_SESSION);
	if (*sess < 0)
		return -1;
	return ioctl(*sess, LTT_KABI_CHANNEL, &c);
}

/* EVENT_ENABLE_FILTERED (@enable) or EVENT_SET_FILTER with one program: 0 or errno. */
static int set_one(int chan, int enable, const void *code, uint32_t len)
{
	struct ltt_kabi_filter_prog p = { .code = (uintptr_t)code, .len = len };
	struct ltt_kabi_event_filter a;

	memset(&a, 0, sizeof(a));
	strcpy(a.event.name, EVENT);
	a.programs = (uintptr_t)&p;
	a.nr_programs = 1;
	return ioctl(chan, enable ? LTT_KABI_EVENT_ENABLE_FILTERED : LTT_KABI_EVENT_SET_FILTER,
		     &a) ? errno : 0;
}

/* A program: header then @code. */
static size_t prog(uint8_t *out, uint8_t max_stack, const uint8_t *code, size_t len)
{
	memcpy(out, LTT_FILTER_MAGIC, 4);
	out[4] = LTT_FILTER_VERSION;
	out[5] = max_stack;
	out[6] = out[7] = 0;
	out[8] = (uint8_t)len;
	out[9] = (uint8_t)(len >> 8);
	out[10] = out[11] = 0;
	memcpy(out + 12, code, len);
	return 12 + len;
}

/* The event's fields from the tracer, as the compiler and the validator take them. */
static struct ltt_kabi_event_desc desc;
static struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];

static int describe(int tracer)
{
	uint32_t i;

	memset(&desc, 0, sizeof(desc));
	strcpy(desc.name, EVENT);
	if (ioctl(tracer, LTT_KABI_EVENT_DESC, &desc))
		return -1;
	for (i = 0; i < desc.nr_fields; i++)
		fields[i] = (struct ltt_filter_field_desc){
			.name = desc.fields[i].name, .type = desc.fields[i].type,
			.size = desc.fields[i].size, .is_signed = desc.fields[i].is_signed,
			.encoding = desc.fields[i].encoding, .length = desc.fields[i].length,
		};
	return 0;
}

static int compile(const char *text, uint8_t **code, size_t *len)
{
	struct ltt_filter_node *root = NULL;
	int ret = ltt_filter_parse(text, &root, NULL);

	if (!ret)
		ret = ltt_filter_compile(root, fields, desc.nr_fields, code, len, NULL);
	ltt_filter_free(root);
	return ret;
}

struct bad {
	const char *name;
	uint8_t max_stack;
	uint8_t code[48];
	size_t len;
};

/* LOAD_FIELD operands: u16 field, u8 type, u8 size, u8 flags. */
#define LF(idx, type, size, flags) LTT_FOP_LOAD_FIELD, idx, 0, type, size, flags
#define S64(v) LTT_FOP_PUSH_S64, v, 0, 0, 0, 0, 0, 0, 0
static const struct bad bad_programs[] = {
	{ "return on an empty stack", 1, { LTT_FOP_RETURN }, 1 },
	{ "no return", 1, { S64(1) }, 9 },
	{ "unknown opcode", 1, { 0xff, LTT_FOP_RETURN }, 2 },
	{ "field index beyond the event's", 1, { LF(7, 1, 8, 0), LTT_FOP_RETURN }, 7 },
	{ "field of another type (seq as a string)", 1, { LF(0, 3, 1, 0), LTT_FOP_RETURN }, 7 },
	{ "field of another size", 1, { LF(0, 1, 4, 0), LTT_FOP_RETURN }, 7 },
	{ "field of another signedness", 1, { LF(1, 1, 4, 0), LTT_FOP_RETURN }, 7 },
	{ "array index out of bounds", 1,
	  { LTT_FOP_LOAD_ELEM, 5, 0, 4, 1, 1, 8, 0, 0, 0, LTT_FOP_RETURN }, 11 },
	{ "float literal", 1, { LTT_FOP_PUSH_DBL, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
				LTT_FOP_RETURN }, 10 },
	{ "stack deeper than declared", 1, { S64(1), S64(2), LTT_FOP_EQ, LTT_FOP_RETURN }, 20 },
	{ "string beyond the code", 1, { LTT_FOP_PUSH_STR, 200, 0, 'a', LTT_FOP_RETURN }, 5 },
	{ "jump beyond the code", 1, { S64(1), LTT_FOP_JUMP_TRUE, 40, 0, LTT_FOP_RETURN }, 13 },
	{ "jump into an instruction", 2,
	  { S64(1), LTT_FOP_JUMP_TRUE, 1, 0, S64(2), LTT_FOP_RETURN }, 22 },
	{ "unknown context", 1, { LTT_FOP_LOAD_CTX, 99, LTT_FOP_RETURN }, 3 },
	{ "string compared with an integer", 2,
	  { LF(4, 3, 1, 0), S64(1), LTT_FOP_EQ, LTT_FOP_RETURN }, 17 },
	{ "returning a string", 1, { LF(4, 3, 1, 0), LTT_FOP_RETURN }, 7 },
	{ "bad escape in a pattern", 1,
	  { LF(4, 3, 1, 0), LTT_FOP_GLOB_EQ, 2, 0, '\\', 'a', LTT_FOP_RETURN }, 12 },
	{ "code after the last return", 1, { S64(1), LTT_FOP_RETURN, LTT_FOP_RETURN }, 11 },
};

/* The handcrafted programs and headers: each refused with EINVAL. */
static void bad_ones(int chan)
{
	uint8_t buf[128];
	size_t i, len;
	char name[160];

	for (i = 0; i < sizeof(bad_programs) / sizeof(bad_programs[0]); i++) {
		const struct bad *b = &bad_programs[i];

		len = prog(buf, b->max_stack, b->code, b->len);
		snprintf(name, sizeof(name), "EINVAL: %s", b->name);
		check(set_one(chan, 1, buf, (uint32_t)len) == EINVAL, name, strerror(errno));
	}
	len = prog(buf, 1, (const uint8_t[]){ S64(1), LTT_FOP_RETURN }, 10);
	check(set_one(chan, 1, buf, (uint32_t)len) == 0, "a valid handcrafted program", "refused");
	ioctl(chan, LTT_KABI_EVENT_DISABLE, &(struct ltt_kabi_event){ .name = EVENT });
	buf[0] = 'X';
	check(set_one(chan, 1, buf, (uint32_t)len) == EINVAL, "EINVAL: bad magic", "");
	buf[0] = 'L';
	buf[4] = 2;
	check(set_one(chan, 1, buf, (uint32_t)len) == EINVAL, "EINVAL: another version", "");
	buf[4] = LTT_FILTER_VERSION;
	buf[5] = 0;
	check(set_one(chan, 1, buf, (uint32_t)len) == EINVAL, "EINVAL: max_stack 0", "");
	buf[5] = 33;
	check(set_one(chan, 1, buf, (uint32_t)len) == EINVAL, "EINVAL: max_stack 33", "");
	buf[5] = 1;
	check(set_one(chan, 1, buf, (uint32_t)len - 1) == EINVAL, "EINVAL: code_len too long", "");
	check(set_one(chan, 1, buf, 11) == EINVAL, "EINVAL: shorter than a header", "");
	check(set_one(chan, 1, buf, 70000) == EINVAL, "EINVAL: longer than 64 KiB", "");
	check(set_one(chan, 1, (void *)16, (uint32_t)len) == EFAULT, "EFAULT: unmapped code", "");
}

/* The argument's own checks. */
static void bad_args(int chan)
{
	uint8_t buf[64];
	size_t len = prog(buf, 1, (const uint8_t[]){ S64(1), LTT_FOP_RETURN }, 10);
	struct ltt_kabi_filter_prog p[65];
	struct ltt_kabi_event_filter a;
	unsigned int i;

	for (i = 0; i < 65; i++)
		p[i] = (struct ltt_kabi_filter_prog){ .code = (uintptr_t)buf, .len = (uint32_t)len };
	memset(&a, 0, sizeof(a));
	strcpy(a.event.name, EVENT);
	a.programs = (uintptr_t)p;
	a.nr_programs = 65;
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == EINVAL,
	      "EINVAL: 65 programs", "");
	a.nr_programs = 64;
	a.reserved[2] = 1;
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == EINVAL,
	      "EINVAL: reserved word", "");
	a.reserved[2] = 0;
	p[3].reserved = 1;
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == EINVAL,
	      "EINVAL: a program's reserved word", "");
	p[3].reserved = 0;
	a.event.id = UINT32_MAX;
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == EINVAL,
	      "EINVAL: id 2^32-1", "");
	a.event.id = 0;
	a.programs = 8;
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == EFAULT,
	      "EFAULT: unmapped program array", "");
	a.programs = (uintptr_t)p;
	check(ioctl(chan, LTT_KABI_EVENT_SET_FILTER, &a) && errno == ENOENT,
	      "ENOENT: SET_FILTER of an event not enabled", "");
	strcpy(a.event.name, "no_such_event");
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == ENOENT,
	      "ENOENT: no such event", "");
	strcpy(a.event.name, EVENT);
	check(!ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a), "64 programs enabled", "");
	check(ioctl(chan, LTT_KABI_EVENT_ENABLE_FILTERED, &a) && errno == EEXIST,
	      "EEXIST: enabled twice", "");
	a.nr_programs = 0;
	check(!ioctl(chan, LTT_KABI_EVENT_SET_FILTER, &a), "SET_FILTER with no program", "");
	check(!emit(10), "events recorded with the filters set and removed", "");
}

/*
 * Every truncation and one-byte mutant of a compiled program, on an
 * enabled event: the tracer takes exactly what src/common's validator
 * takes (both the same source); each accepted one runs on 3 events.
 */
static void mutants(int chan)
{
	static const char text[] = "(seq < 10 && name == \"ltt-test-1*\") || bytes[1] == 8 || "
				   "$ctx.procname == \"kfilter*\" || (flags & 3) != ~neg";
	unsigned long total = 0, accepted = 0, mismatch = 0, stricter = 0;
	uint8_t *code = NULL, *m;
	size_t len = 0, i;
	unsigned int v;

	if (compile(text, &code, &len)) {
		check(0, "compile the mutants' program", "failed");
		return;
	}
	check(set_one(chan, 0, code, (uint32_t)len) == 0, "the compiled program", "refused");
	m = malloc(len);
	for (i = LTT_FILTER_HEADER_LEN; i < len; i++) {
		int k = set_one(chan, 0, code, (uint32_t)i), u = ltt_filter_validate(code, i, fields,
										    desc.nr_fields);

		total++;
		mismatch += k == 0 && u != 0;
		stricter += k != 0 && u == 0;
	}
	for (i = 0; i < len; i++) {
		for (v = 0; v < 256; v++) {
			int k, u;

			/* every opcode, the edges, and the neighbours of the byte */
			if (v == code[i] || (v > 0x22 && v != 0x7f && v != 0x80 && v < 0xfe &&
					     v != (code[i] ^ 0x80u) && v != code[i] + 1u &&
					     v != code[i] - 1u))
				continue;
			memcpy(m, code, len);
			m[i] = (uint8_t)v;
			k = set_one(chan, 0, m, (uint32_t)len);
			u = ltt_filter_validate(m, len, fields, desc.nr_fields);
			total++;
			mismatch += k == 0 && u != 0;
			stricter += k != 0 && u == 0;	/* floats: user space takes them */
			if (!k) {
				accepted++;
				emit(3);
			}
		}
	}
	printf("mutants=%lu accepted=%lu mismatch=%lu stricter=%lu\n", total, accepted, mismatch,
	       stricter);
	free(m);
	free(code);
}

static int cmd_hostile(void)
{
	int tracer, sess, chan = make_channel(&tracer, &sess);
	uint8_t buf[64];
	size_t len;

	if (chan < 0 || describe(tracer)) {
		perror("kfilter_client: session, channel or EVENT_DESC");
		return 1;
	}
	bad_ones(chan);
	bad_args(chan);
	mutants(chan);
	len = prog(buf, 1, (const uint8_t[]){ S64(1), LTT_FOP_RETURN }, 10);
	check(set_one(chan, 0, buf, (uint32_t)len) == 0, "still usable after all that", "");
	printf("failures=%d\n", failures);
	return failures != 0;
}

static int cmd_swap(unsigned long n)
{
	int tracer, sess, chan = make_channel(&tracer, &sess);
	uint8_t *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	unsigned long i, done = 0;
	pid_t child;

	if (chan < 0 || describe(tracer) || compile("seq < 5", &a, &la) ||
	    compile("name == \"ltt-test-*\" && bytes[0] != 1000", &b, &lb) ||
	    set_one(chan, 1, a, (uint32_t)la)) {
		perror("kfilter_client swap: setup");
		return 1;
	}
	child = fork();
	if (child == 0) {
		for (;;)
			emit(100);
	}
	for (i = 0; i < n; i++)
		done += set_one(chan, 0, i & 1 ? a : b, (uint32_t)(i & 1 ? la : lb)) == 0;
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("swaps=%lu\n", done);
	return done != n;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per event of writing @n events to /proc/ltt-test. */
static double timed_emit(unsigned long n)
{
	double t0 = now_ns();

	emit(n);
	return (now_ns() - t0) / (double)n;
}

#define BENCH_ROUNDS 9
#define BENCH_CONFIGS 5

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Put the event of @chan in bench configuration @c: 0 or -1. */
static int bench_config(int chan, unsigned int c, uint8_t *const *code, const size_t *len)
{
	struct ltt_kabi_event ev = { .name = EVENT };
	struct ltt_kabi_event_filter none;

	ioctl(chan, LTT_KABI_EVENT_DISABLE, &ev);
	if (c == 0)
		return 0;
	if (ioctl(chan, LTT_KABI_EVENT_ENABLE, &ev))
		return -1;
	if (c == 1) {
		memset(&none, 0, sizeof(none));
		strcpy(none.event.name, EVENT);
		return ioctl(chan, LTT_KABI_EVENT_SET_FILTER, &none);
	}
	return set_one(chan, 0, code[c - 2], (uint32_t)len[c - 2]) ? -1 : 0;
}

/*
 * The probe's cost with and without filters, in one boot: @n events in
 * each configuration (the event disabled, enabled without filter, with a
 * filter that rejects every event, one that accepts every event, a string
 * glob that accepts every event), on a started overwrite channel (never
 * full), BENCH_ROUNDS rounds interleaved; prints each one's minimum, median
 * and maximum in ns per event.
 */
static int cmd_bench(unsigned long n)
{
	static const char *const names[BENCH_CONFIGS] = {
		"disabled", "no_filter", "filter_reject", "filter_accept", "glob_accept",
	};
	static const char *const texts[BENCH_CONFIGS - 2] = {
		"seq > 100000000000", "seq >= 0", "name == \"ltt-test-*\"",
	};
	struct ltt_kabi_channel c = { .subbuf_size = 65536, .num_subbuf = 16, .overwrite = 1 };
	int tracer = open("/proc/" LTT_KABI_PROC_NAME, O_RDWR | O_CLOEXEC);
	int sess = tracer < 0 ? -1 : ioctl(tracer, LTT_KABI_SESSION);
	int chan = sess < 0 ? -1 : ioctl(sess, LTT_KABI_CHANNEL, &c);
	double t[BENCH_CONFIGS][BENCH_ROUNDS];
	uint8_t *code[BENCH_CONFIGS - 2] = { NULL };
	size_t len[BENCH_CONFIGS - 2] = { 0 };
	unsigned int i, r;

	if (chan < 0 || describe(tracer) || ioctl(sess, LTT_KABI_START, 0)) {
		perror("kfilter_client bench: setup");
		return 1;
	}
	for (i = 0; i < BENCH_CONFIGS - 2; i++)
		if (compile(texts[i], &code[i], &len[i]))
			return 1;
	emit(n / 10);	/* warm up */
	for (r = 0; r < BENCH_ROUNDS; r++) {
		for (i = 0; i < BENCH_CONFIGS; i++) {
			if (bench_config(chan, i, code, len)) {
				perror("kfilter_client bench: configuration");
				return 1;
			}
			t[i][r] = timed_emit(n);
		}
	}
	for (i = 0; i < BENCH_CONFIGS; i++) {
		qsort(t[i], BENCH_ROUNDS, sizeof(t[i][0]), cmp_double);
		printf("%s %.1f %.1f %.1f\n", names[i], t[i][0], t[i][BENCH_ROUNDS / 2],
		       t[i][BENCH_ROUNDS - 1]);
	}
	for (i = 0; i < BENCH_CONFIGS - 2; i++)
		free(code[i]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "bench"))
		return cmd_bench(strtoul(argv[2], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "emit"))
		return emit(strtoul(argv[2], NULL, 10)) ? 1 : 0;
	if (argc == 2 && !strcmp(argv[1], "hostile"))
		return cmd_hostile();
	if (argc == 3 && !strcmp(argv[1], "swap"))
		return cmd_swap(strtoul(argv[2], NULL, 10));
	fprintf(stderr, "usage: kfilter_client emit N | hostile | swap N\n");
	return 2;
}
