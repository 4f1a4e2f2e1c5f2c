/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter-vm.h - the filter VM that both tracers run: check a filter
 * program that came from another process, then run it on an event's
 * arguments.  libltt-ust links it through src/common/libcommon.la; the
 * kernel module compiles the same .c files as its own objects
 * (kmod/Kbuild), under GPL-2.0 there (LGPL-2.1 allows it).  The files:
 *
 *   filter-bytecode.h   the program format: header, opcodes, slot types,
 *                       the $ctx table, struct ltt_filter_field_desc
 *   filter-vm.h         this API: validate, run, $ctx names, glob
 *   filter-validate.c   ltt_filter_validate(), the $ctx table, the glob
 *   filter-interp.c     ltt_filter_run()
 *   filter-libc.h       what the VM takes from the C library, or from
 *                       <linux/...> under __KERNEL__ (LTT_FILTER_NO_FLOAT
 *                       there: no floats)
 *
 * Nothing here includes another directory of src/: the parser and the
 * compiler (src/common/filter/filter-parse.c, filter-compile.c, user space only)
 * build on this, never the other way.
 */
#ifndef LTT_FILTER_VM_H
#define LTT_FILTER_VM_H

#include "filter-bytecode.h"

/**
 * ltt_filter_validate() - check a program against the event it filters
 * @prog: header and code (filter-bytecode.h), borrowed
 * @len: bytes of @prog
 * @fields: the event's fields
 * @nr_fields: how many
 *
 * Checks the header (magic, version, exact length, limits), that every
 * instruction and operand lies inside the code, every field reference
 * names a field of the event with its exact type, every array index is in
 * bounds, jumps go forward to an instruction boundary with the same stack
 * on every path, the stack never underflows nor exceeds the declared
 * max_stack, every operator gets the types it takes, no code is
 * unreachable and the program ends with RETURN of one integer.  Allocates
 * nothing; any thread.
 *
 * Return: 0 when ltt_filter_run() may run @prog; -EINVAL otherwise;
 * -E2BIG when a limit is exceeded; -EPROTO for another version.
 */
int ltt_filter_validate(const uint8_t *prog, size_t len,
			const struct ltt_filter_field_desc *fields, uint32_t nr_fields);

/**
 * ltt_filter_insn_len() - the bytes of the instruction at @ins: its
 * opcode, operands and string (PUSH_STR, LOAD_APP, GLOB_*), @avail bytes
 * readable there
 *
 * Return: its length, or 0 when it is none (an unknown opcode, a string
 * over LTT_FILTER_MAX_STR, or cut short).
 */
uint32_t ltt_filter_insn_len(const uint8_t *ins, uint32_t avail);

/* A run-time value: a field's, a context's. */
struct ltt_filter_value {
	uint8_t type;		/* enum ltt_filter_type (not DYN) */
	union {
		int64_t s;
		uint64_t u;
#ifndef LTT_FILTER_NO_FLOAT
		double d;
#endif
		struct {
			const char *p;
			uint32_t n;	/* bytes; the string ends at the first NUL within */
		} str;
	} v;
};

/*
 * One field's value as the probe has it, before it is copied to the
 * buffer.  INTEGER, ENUM, FLOAT: @p points to the value (of the size the
 * field declares); STRING: @p the bytes, @n their length; ARRAY and
 * SEQUENCE: @p the elements (or NULL: all zeros), @n their count.
 */
struct ltt_filter_arg {
	const void *p;
	uint32_t n;
};

/* What a program reads when it runs.  Callbacks: 0, or -1 when absent. */
struct ltt_filter_env {
	const struct ltt_filter_arg *args;	/* one per event field */
	uint32_t nr_args;
	int (*ctx)(void *priv, unsigned int id, struct ltt_filter_value *out);
	int (*app)(void *priv, const char *name, size_t len, struct ltt_filter_value *out);
	void *priv;
};

/**
 * ltt_filter_run() - run a program that ltt_filter_validate() accepted
 * @prog: the program, validated for this event's fields
 * @env: the event's arguments and the context callbacks
 *
 * No allocation, no lock, no system call of its own (the callbacks may);
 * the stack lives in the caller's frame (LTT_FILTER_MAX_STACK slots).
 * Return: non-zero to record the event, 0 to drop it (the expression is
 * false, or a run-time error: filter-bytecode.h).
 */
int ltt_filter_run(const uint8_t *prog, const struct ltt_filter_env *env);

/**
 * ltt_filter_ctx_lookup() - the id of context field @name ("vpid")
 * Return: the id, or -1 when there is no such context.
 */
int ltt_filter_ctx_lookup(const char *name);

/**
 * ltt_filter_ctx_type() - the type (enum ltt_filter_type) LOAD_CTX @id
 * pushes, LTT_FTYPE_NONE for an unknown id
 */
int ltt_filter_ctx_type(unsigned int id);

/**
 * ltt_filter_glob() - does @s (@n bytes, ending at a NUL within) match
 * @pat (@plen bytes; '*' any bytes, "\*" a star, "\\" a backslash)?
 */
int ltt_filter_glob(const char *pat, size_t plen, const char *s, size_t n);

#endif /* LTT_FILTER_VM_H */
