// SPDX-License-Identifier: LGPL-2.1-only
/*
 * driver.c - a stand-in for libFuzzer when the compiler has none (gcc):
 * replays files through a target's LLVMFuzzerTestOneInput(), then runs
 * deterministic mutations of them, so that 'make check' exercises every
 * target with any compiler.  It does not learn from coverage: for real
 * fuzzing, build with clang (scripts/fuzz.sh, doc/fuzzing.md).
 *
 *   TARGET [-n RUNS] [-t SECONDS] [-s SEED] PATH...
 *                                       replay each file (or each file of
 *                                       each directory), then RUNS mutants
 *                                       (or as many as SECONDS allow)
 *   TARGET -x N [-s SEED] PATH...       write mutant N to stdout
 *   TARGET --write-seeds DIR            write the target's seeds into DIR
 *
 * Mutant N depends only on SEED, N and the inputs, so a failure printed as
 * "mutant N" is reproduced with -x N.  When an input makes the target
 * abort or crash (a failed check, a sanitizer report, a signal), the input
 * is written first to $LTT_FUZZ_CRASH, else to
 * $TMPDIR/fuzz-crash-TARGET.PID (TMPDIR unset: /tmp): never into the
 * directory it runs in, a source tree's root among them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define FUZZ_MAX_INPUT (64 * 1024)

struct input {
	uint8_t *data;
	size_t len;
};

static struct input *inputs;
static size_t nr_inputs;
static const char *seeds_dir;

/* Where a crashing input goes, and what says so: made before any input runs. */
static char crash_path[4096];
static char crash_msg[4200];

/* The input being run, for the crash handlers (no allocation there). */
static const uint8_t *volatile cur_data;
static volatile size_t cur_len;

static void save_current(void)
{
	const uint8_t *p = cur_data;
	size_t left = cur_len;
	int fd;

	if (!p)
		return;
	fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n <= 0)
			break;
		p += n;
		left -= (size_t)n;
	}
	close(fd);
	cur_data = NULL;
}

static void on_crash(int sig)
{
	save_current();
	if (write(STDERR_FILENO, crash_msg, strlen(crash_msg)) < 0) {
		/* nothing better to do */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* AddressSanitizer's hook, called before it reports and exits. */
void __asan_on_error(void);
void __asan_on_error(void)
{
	save_current();
}

/* Run an exact-size copy of the input, so a read past its end is caught. */
static int run(const uint8_t *data, size_t len)
{
	uint8_t *exact = malloc(len ? len : 1);

	if (!exact) {
		fprintf(stderr, "fuzz driver: out of memory\n");
		return -1;
	}
	memcpy(exact, data, len);
	cur_len = len;
	cur_data = exact;
	LLVMFuzzerTestOneInput(exact, len);
	cur_data = NULL;
	free(exact);
	return 0;
}

static int add_input(const char *path)
{
	struct input *grown, in = { 0 };
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
		return -1;
	}
	in.data = malloc(FUZZ_MAX_INPUT);
	if (in.data)
		in.len = fread(in.data, 1, FUZZ_MAX_INPUT, f);
	fclose(f);
	grown = realloc(inputs, (nr_inputs + 1) * sizeof(*inputs));
	if (!in.data || !grown) {
		free(in.data);
		fprintf(stderr, "fuzz driver: out of memory\n");
		return -1;
	}
	inputs = grown;
	inputs[nr_inputs++] = in;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's regular files, in name order so runs are reproducible. */
static int add_dir(const char *path, DIR *dir)
{
	char **names = NULL, full[4096];
	size_t n = 0, i;
	struct dirent *de;
	int ret = 0;

	while ((de = readdir(dir))) {
		char **grown;

		if (de->d_name[0] == '.')
			continue;
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown || !(grown[n] = strdup(de->d_name))) {
			free(grown ? grown : names);
			fprintf(stderr, "fuzz driver: out of memory\n");
			return -1;
		}
		names = grown;
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		if (!ret && !stat(full, &st) && S_ISREG(st.st_mode))
			ret = add_input(full);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int add_path(const char *path)
{
	DIR *dir = opendir(path);
	int ret;

	if (!dir)
		return errno == ENOTDIR ? add_input(path) :
			(fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno)), -1);
	ret = add_dir(path, dir);
	closedir(dir);
	return ret;
}

/* xorshift64*: small, deterministic, good enough to pick mutations. */
static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static size_t rnd_below(uint64_t *s, size_t n)
{
	return n ? (size_t)(rnd_next(s) % n) : 0;
}

static const uint32_t interesting[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x1000, 0x7fff, 0x8000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu,
};

/* One edit of buf[0..*len) (capacity FUZZ_MAX_INPUT). */
static void mutate_once(uint64_t *s, uint8_t *buf, size_t *len)
{
	size_t pos = rnd_below(s, *len), n;
	uint32_t v;

	switch (rnd_below(s, 8)) {
	case 0:	/* flip a bit */
		if (*len)
			buf[pos] ^= (uint8_t)(1u << rnd_below(s, 8));
		break;
	case 1:	/* a random byte */
		if (*len)
			buf[pos] = (uint8_t)rnd_next(s);
		break;
	case 2:	/* an interesting 32-bit value, either byte order */
		if (*len >= 4) {
			pos = rnd_below(s, *len - 3);
			v = interesting[rnd_below(s, FUZZ_ARRAY_SIZE(interesting))];
			if (rnd_next(s) & 1)
				v = __builtin_bswap32(v);
			memcpy(buf + pos, &v, 4);
		}
		break;
	case 3:	/* truncate */
		*len = rnd_below(s, *len + 1);
		break;
	case 4:	/* insert a few random bytes */
		n = 1 + rnd_below(s, 8);
		if (*len + n <= FUZZ_MAX_INPUT) {
			memmove(buf + pos + n, buf + pos, *len - pos);
			*len += n;
			while (n--)
				buf[pos + n] = (uint8_t)rnd_next(s);
		}
		break;
	case 5:	/* delete a few bytes */
		n = rnd_below(s, *len - pos + 1);
		memmove(buf + pos, buf + pos + n, *len - pos - n);
		*len -= n;
		break;
	case 6:	/* duplicate a chunk */
		n = rnd_below(s, *len - pos + 1);
		if (*len + n <= FUZZ_MAX_INPUT) {
			memmove(buf + pos + n, buf + pos, *len - pos);
			*len += n;
		}
		break;
	default: {	/* splice in part of another input */
		const struct input *o = &inputs[rnd_below(s, nr_inputs)];
		size_t from = rnd_below(s, o->len);

		n = rnd_below(s, o->len - from + 1);
		if (pos + n > FUZZ_MAX_INPUT)
			n = FUZZ_MAX_INPUT - pos;
		memcpy(buf + pos, o->data + from, n);
		if (pos + n > *len)
			*len = pos + n;
		break;
	}
	}
}

/* Mutant @n of the inputs: a function of @seed and @n only. */
static size_t mutant(uint64_t seed, uint64_t n, uint8_t *buf)
{
	uint64_t s = (seed ^ (n * 0x9e3779b97f4a7c15ULL)) | 1;
	const struct input *base;
	unsigned int edits, i;
	size_t len;

	rnd_next(&s);
	base = &inputs[rnd_below(&s, nr_inputs)];
	memcpy(buf, base->data, base->len);
	len = base->len;
	edits = 1 + (unsigned int)rnd_below(&s, 1 + rnd_below(&s, 16));
	for (i = 0; i < edits; i++)
		mutate_once(&s, buf, &len);
	return len;
}

static void emit_seed(const char *name, const void *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", seeds_dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* crash_path and crash_msg for the target @argv0. */
static void crash_path_init(const char *argv0)
{
	const char *env = getenv("LTT_FUZZ_CRASH"), *tmp = getenv("TMPDIR");
	const char *name = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;

	if (env && *env)
		snprintf(crash_path, sizeof(crash_path), "%s", env);
	else
		snprintf(crash_path, sizeof(crash_path), "%s/fuzz-crash-%s.%ld",
			 tmp && *tmp ? tmp : "/tmp", name, (long)getpid());
	snprintf(crash_msg, sizeof(crash_msg), "fuzz driver: input written to %s\n", crash_path);
}

static void usage(void)
{
	fprintf(stderr, "usage: fuzz-target [-n RUNS] [-t SECONDS] [-s SEED] PATH...\n"
		"       fuzz-target -x N [-s SEED] PATH...\n"
		"       fuzz-target --write-seeds DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long runs = 0, seed = 1, one = 0, i, seconds = 0;
	time_t end;
	bool write_one = false;
	uint8_t *buf;
	int opt;

	if (argc == 3 && !strcmp(argv[1], "--write-seeds")) {
		seeds_dir = argv[2];
		ltt_fuzz_seeds(emit_seed);
		return 0;
	}
	while ((opt = getopt(argc, argv, "n:s:t:x:")) != -1) {
		switch (opt) {
		case 't':
			seconds = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			runs = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'x':
			one = strtoull(optarg, NULL, 0);
			write_one = true;
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		usage();
	for (; optind < argc; optind++)
		if (add_path(argv[optind]))
			return 1;
	if (!nr_inputs) {
		fprintf(stderr, "fuzz driver: no input\n");
		return 1;
	}
	buf = malloc(FUZZ_MAX_INPUT);
	if (!buf)
		return 1;
	if (write_one) {
		size_t len = mutant(seed, one, buf);

		return fwrite(buf, 1, len, stdout) == len ? 0 : 1;
	}
	crash_path_init(argv[0]);
	signal(SIGABRT, on_crash);
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	for (i = 0; i < nr_inputs; i++)
		if (run(inputs[i].data, inputs[i].len))
			return 1;
	end = time(NULL) + (time_t)seconds;
	for (i = 0; i < runs && (!seconds || time(NULL) < end); i++)
		if (run(buf, mutant(seed, i, buf)))
			return 1;
	printf("fuzz driver: %zu inputs replayed, %llu mutants run (seed %llu)\n", nr_inputs, i,
	       seed);
	for (i = 0; i < nr_inputs; i++)
		free(inputs[i].data);
	free(inputs);
	free(buf);
	return 0;
}
