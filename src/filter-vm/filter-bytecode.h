/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter-bytecode.h - the compact, versioned bytecode of a filter
 * expression: what the session daemon compiles (src/common/filter/filter-compile.c),
 * sends to a tracer, and what libltt-ust and the kernel module validate
 * (filter-validate.c) and run (filter-interp.c) before reserving an event.
 *
 * A program is a header then code.  All integers are little-endian and
 * unaligned (read with memcpy).
 *
 *   offset size  header
 *   0      4     magic "LTTF"
 *   4      1     version (LTT_FILTER_VERSION); another version is refused
 *   5      1     max_stack: the deepest the stack gets (1..LTT_FILTER_MAX_STACK)
 *   6      2     reserved, zero
 *   8      4     code_len: bytes of code after the header; the program is
 *                exactly LTT_FILTER_HEADER_LEN + code_len bytes, at most
 *                LTT_FILTER_MAX_LEN
 *
 * The code is a stack machine.  Every instruction is one opcode byte then
 * its operands.  Stack slots are typed (the validator tracks the types of
 * every slot statically and the interpreter keeps a tag per slot):
 *
 *   S64  signed 64-bit integer     U64  unsigned 64-bit integer
 *   DBL  double                    STR  bytes (pointer, length; ends at
 *                                       the first NUL within the length)
 *   DYN  an application context ($app.P:N) whose type is known only when
 *        it is read: at run time it is one of the four above, or absent
 *
 *   op             operands                      stack effect
 *   RETURN         -                             int ->  (result: non-zero accepts)
 *   PUSH_S64       s64                           -> S64
 *   PUSH_U64       u64                           -> U64
 *   PUSH_DBL       f64 (IEEE 754 bits)           -> DBL
 *   PUSH_STR       u16 len, len bytes            -> STR
 *   LOAD_FIELD     u16 field, u8 type, u8 size,  -> S64|U64|DBL|STR
 *                  u8 flags (SIGNED, TEXT)
 *   LOAD_ELEM      u16 field, u8 type, u8 size,  -> S64|U64 (element @index of
 *                  u8 flags (SIGNED, BE),           an array or sequence; BE:
 *                  u32 index                        its elements are big endian)
 *   LOAD_CTX       u8 context id                 -> the context's type
 *   LOAD_APP       u16 len, len bytes "P:N"      -> DYN
 *   EQ NE LT LE    -                             a b -> S64 (0 or 1): numbers
 *   GT GE                                           with numbers, STR with STR
 *                                                   (bytewise), DYN with any
 *   GLOB_EQ        u16 len, len bytes pattern    STR|DYN -> S64 (matches)
 *   GLOB_NE        u16 len, len bytes pattern    STR|DYN -> S64 (does not)
 *   EQ and NE of two integers compare their 64 bits (as LTTng does:
 *   (1 << 63) == 9223372036854775808); the others compare values.
 *   NOT            -                             int -> S64 (!a)
 *   BIT_NOT        -                             int -> same type (~a)
 *   BIT_AND BIT_OR -                             int int -> U64 if either is
 *   BIT_XOR LSHIFT                                  U64, else S64; RSHIFT
 *   RSHIFT                                          shifts zeros in (LTTng's)
 *   TO_BOOL        -                             int|DBL -> S64 (a != 0)
 *   NEG            -                             int -> S64, DBL -> DBL (-a)
 *   JUMP_FALSE     u16 offset                    int: if 0, jump keeping it;
 *                                                   else pop it and go on
 *   JUMP_TRUE      u16 offset                    int: if not 0, jump keeping
 *                                                   it; else pop it and go on
 *
 * "int" is S64 or U64.  Jump offsets count from the end of the jump
 * instruction: jumps go forward only, to an instruction boundary, and the
 * stack (depth and every slot's type) where a jump lands is the same on
 * every path reaching it; at most LTT_FILTER_MAX_JUMPS jumps are
 * waiting to land at any point.  LOAD_FIELD's type, size and flags must be those
 * of the event's field (the program is validated against the event it is
 * attached to); LOAD_ELEM's index must be within an array's length.
 * Patterns: '*' matches any bytes, "\*" a star, "\\" a backslash (no
 * other backslash).  The code ends with RETURN at stack depth 1, and no
 * instruction is unreachable.
 *
 * At run time an error makes the whole filter reject the event (as LTTng):
 * a sequence index beyond the count, a shift count outside 0..63, an
 * application context absent or of a type its comparison cannot take.
 */
#ifndef LTT_FILTER_BYTECODE_H
#define LTT_FILTER_BYTECODE_H

#include "filter-libc.h"

#define LTT_FILTER_MAGIC "LTTF"
#define LTT_FILTER_VERSION 1
#define LTT_FILTER_HEADER_LEN 12
#define LTT_FILTER_MAX_LEN 65535	/* header and code */
#define LTT_FILTER_MAX_STACK 32
#define LTT_FILTER_MAX_STR 4096		/* a string literal, pattern or $app name */
#define LTT_FILTER_MAX_JUMPS 32		/* jumps not yet landed at any point */

enum ltt_filter_op {
	LTT_FOP_RETURN = 0x01,
	LTT_FOP_PUSH_S64 = 0x02,
	LTT_FOP_PUSH_U64 = 0x03,
	LTT_FOP_PUSH_DBL = 0x04,
	LTT_FOP_PUSH_STR = 0x05,
	LTT_FOP_LOAD_FIELD = 0x06,
	LTT_FOP_LOAD_ELEM = 0x07,
	LTT_FOP_LOAD_CTX = 0x08,
	LTT_FOP_LOAD_APP = 0x09,
	LTT_FOP_EQ = 0x10,
	LTT_FOP_NE = 0x11,
	LTT_FOP_LT = 0x12,
	LTT_FOP_LE = 0x13,
	LTT_FOP_GT = 0x14,
	LTT_FOP_GE = 0x15,
	LTT_FOP_GLOB_EQ = 0x16,
	LTT_FOP_GLOB_NE = 0x17,
	LTT_FOP_NOT = 0x18,
	LTT_FOP_BIT_NOT = 0x19,
	LTT_FOP_BIT_AND = 0x1a,
	LTT_FOP_BIT_OR = 0x1b,
	LTT_FOP_BIT_XOR = 0x1c,
	LTT_FOP_LSHIFT = 0x1d,
	LTT_FOP_RSHIFT = 0x1e,
	LTT_FOP_TO_BOOL = 0x1f,
	LTT_FOP_JUMP_FALSE = 0x20,
	LTT_FOP_JUMP_TRUE = 0x21,
	LTT_FOP_NEG = 0x22,
};

/* LOAD_FIELD / LOAD_ELEM flags. */
#define LTT_FILTER_F_SIGNED 0x01	/* integers: signed */
#define LTT_FILTER_F_TEXT 0x02		/* 1-byte array/sequence read as a string */
#define LTT_FILTER_F_BE 0x04		/* LOAD_ELEM: big-endian elements */

/* Slot types (static and run-time tags). */
enum ltt_filter_type {
	LTT_FTYPE_NONE = 0,	/* run time only: absent application context */
	LTT_FTYPE_S64 = 1,
	LTT_FTYPE_U64 = 2,
	LTT_FTYPE_DBL = 3,
	LTT_FTYPE_STR = 4,
	LTT_FTYPE_DYN = 5,	/* static only */
};

/*
 * Context fields ($ctx.NAME): LOAD_CTX's id, and the type it pushes.
 * Append only: the ids are part of the format.
 */
#define LTT_FILTER_CTX_TABLE(X) \
	X(VPID, 0, "vpid", S64) \
	X(VTID, 1, "vtid", S64) \
	X(PID, 2, "pid", S64) \
	X(TID, 3, "tid", S64) \
	X(PROCNAME, 4, "procname", STR) \
	X(PTHREAD_ID, 5, "pthread_id", U64) \
	X(CPU_ID, 6, "cpu_id", S64) \
	X(VUID, 7, "vuid", S64) \
	X(VGID, 8, "vgid", S64) \
	X(VPPID, 9, "vppid", S64)

#define LTT_FILTER_CTX_ENUM_(name, id, text, type) LTT_FILTER_CTX_##name = id,
enum ltt_filter_ctx { LTT_FILTER_CTX_TABLE(LTT_FILTER_CTX_ENUM_) LTT_FILTER_NR_CTX };
#undef LTT_FILTER_CTX_ENUM_

/*
 * One field of the event, as the compiler and the validator see it (the
 * daemon fills it from a program's description, libltt-ust from its
 * struct ltt_ust_field): the subset of ltt_ust_field a filter reads.
 */
struct ltt_filter_field_desc {
	const char *name;
	uint8_t type;		/* enum ltt_ust_type */
	uint8_t size;		/* integer/float bytes, or element bytes */
	uint8_t is_signed;
	uint8_t encoding;	/* enum ltt_ust_encoding */
	uint32_t length;	/* ARRAY: element count */
	uint8_t big_endian;	/* ARRAY, SEQUENCE: elements big endian (LTTng's network arrays) */
};

#endif /* LTT_FILTER_BYTECODE_H */
