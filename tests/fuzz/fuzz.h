/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fuzz.h - what every fuzz target in tests/fuzz/ provides and uses.
 *
 * A target is one file defining LLVMFuzzerTestOneInput() (the libFuzzer
 * entry point: decode @data as a hostile peer would send it, check what
 * the decoder promises, free everything) and ltt_fuzz_seeds() (valid
 * inputs built with the encoders, from which the corpus in
 * tests/fuzz/corpus/<target>/ was written).  Built with clang's
 * -fsanitize=fuzzer the target is a libFuzzer binary; built otherwise it
 * links driver.c, which replays the corpus and mutations of it through
 * the same entry point (doc/fuzzing.md).
 *
 * A broken promise calls ltt_fuzz_fail() (through FUZZ_CHECK), which
 * aborts so that both libFuzzer and the driver report the input.
 */
#ifndef LTT_TESTS_FUZZ_H
#define LTT_TESTS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"

/* One seed: @name is a file name (letters, digits, '-', '_', '.'). */
typedef void (*ltt_fuzz_emit_fn)(const char *name, const void *data, size_t len);

/** LLVMFuzzerTestOneInput() - run one input; always returns 0 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** ltt_fuzz_seeds() - hand each of the target's seeds to @emit */
void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit);

/** ltt_fuzz_fail() - report a broken promise and abort() */
void ltt_fuzz_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

#define FUZZ_CHECK(cond) \
	do { \
		if (!(cond)) \
			ltt_fuzz_fail(__FILE__, __LINE__, #cond); \
	} while (0)

#define FUZZ_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * One message decoder and its encoder, type-erased.  What every decoder
 * promises, checked by ltt_fuzz_codec_run(): no read outside the input
 * (the sanitizers and the driver's exact-size copies see it); and what it
 * accepts, its encoder writes back into a message that decodes again to
 * the same encoding.  A canonical codec promises more: the bytes it
 * read are exactly what its encoder writes (no two encodings of one
 * value, no junk accepted in padding or spare bits).  Decoders of a
 * reply's head (status, header) may leave the rest to their caller.
 */
struct ltt_fuzz_codec {
	const char *name;
	size_t size;			/* of the decoded struct */
	int (*get)(struct ltt_rbuf *r, void *ret);	/* 0 when accepted */
	void (*put)(struct ltt_wbuf *w, const void *m);
	bool canonical;
};

/* A codec whose get returns 0 or -errno and whose put takes a pointer. */
#define FUZZ_CODEC(id, type, getfn, putfn, canon) \
	static int id##_get(struct ltt_rbuf *r, void *m) { return getfn(r, (type *)m); } \
	static void id##_put(struct ltt_wbuf *w, const void *m) { putfn(w, (const type *)m); } \
	static const struct ltt_fuzz_codec id = { #id, sizeof(type), id##_get, id##_put, canon }

/* Same, for a put that takes the value (a key, a status). */
#define FUZZ_CODEC_VAL(id, type, getfn, putfn, canon) \
	static int id##_get(struct ltt_rbuf *r, void *m) { return getfn(r, (type *)m); } \
	static void id##_put(struct ltt_wbuf *w, const void *m) { putfn(w, *(const type *)m); } \
	static const struct ltt_fuzz_codec id = { #id, sizeof(type), id##_get, id##_put, canon }

/* Same, for a void get that leaves its verdict in the cursor's error. */
#define FUZZ_CODEC_VOID(id, type, getfn, putfn, canon) \
	static int id##_get(struct ltt_rbuf *r, void *m) \
	{ getfn(r, (type *)m); return ltt_rbuf_end(r); } \
	static void id##_put(struct ltt_wbuf *w, const void *m) { putfn(w, (const type *)m); } \
	static const struct ltt_fuzz_codec id = { #id, sizeof(type), id##_get, id##_put, canon }

/**
 * ltt_fuzz_codec_run() - decode @data with @c and check its promises
 * @ret: where the accepted value goes (@c->size bytes), or NULL for a
 *       scratch one; its borrowed strings point into @data
 * Returns true when @c accepted @data.
 */
bool ltt_fuzz_codec_run(const struct ltt_fuzz_codec *c, const uint8_t *data, size_t size,
			void *ret);

/**
 * ltt_fuzz_codec_pick() - run the codec of @table that @data's first byte
 * selects (modulo @nr) on the rest of @data; nothing for an empty input
 */
void ltt_fuzz_codec_pick(const struct ltt_fuzz_codec *const *table, size_t nr,
			 const uint8_t *data, size_t size);

/**
 * ltt_fuzz_codec_seed() - emit the seed "@c->name-@nr": @m (borrowed)
 * encoded by @c and prefixed with @index, the byte that selects @c
 */
void ltt_fuzz_codec_seed(ltt_fuzz_emit_fn emit, const struct ltt_fuzz_codec *c, uint8_t index,
			 unsigned int nr, const void *m);

#endif /* LTT_TESTS_FUZZ_H */
