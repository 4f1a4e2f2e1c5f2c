/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter-compile.h - type-check a parsed filter against one event's
 * fields and compile it to bytecode (format in filter-bytecode.h).
 *
 * Types: integer fields, enums and integer literals are integers; float
 * fields and literals are floats; strings, and arrays or sequences of
 * 1-byte elements shown as text, are strings; field[N] of an array or
 * sequence of integers is an integer.  Numbers compare with numbers,
 * strings with strings (a literal with an unescaped '*' is a glob pattern,
 * with == and != only); &&, ||, ! and the bitwise operators take integers
 * (a comparison is an integer, 0 or 1).  $app contexts are typed when
 * read: they compare with a literal only.
 */
#ifndef LTT_FILTER_COMPILE_H
#define LTT_FILTER_COMPILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/filter/filter-parse.h"
#include "filter-vm/filter-bytecode.h"
#include "abi/ltt-abi.h"

/**
 * ltt_filter_compile() - type-check @root against an event and compile it
 * @root: a tree from ltt_filter_parse(), borrowed
 * @fields: the event's fields, borrowed
 * @nr_fields: how many
 * @ret: the program (header and code), the caller's to free()
 * @ret_len: its bytes
 * @err: on failure, what and where in the text; may be NULL
 *
 * Any thread; no shared state.
 * Return: 0; -ENOENT when the expression names a field the event lacks
 * (the event does not match, as LTTng; @err names it); -EINVAL for a type
 * error; -E2BIG when the program would exceed the format's limits;
 * -ENOMEM.
 */
int ltt_filter_compile(const struct ltt_filter_node *root,
		       const struct ltt_filter_field_desc *fields, uint32_t nr_fields,
		       uint8_t **ret, size_t *ret_len, struct ltt_filter_error *err);

/**
 * ltt_filter_kabi_fields() - the fields of a kernel event as the compiler
 * and the validator read them, from the kernel tracer's description of it
 * (LTT_KABI_EVENT_DESC, or ltt_ftrace_event_to_kabi() for tracefs)
 * @desc: its names NUL-terminated here; borrowed by @ret's names
 * @ret: @desc->nr_fields entries (at most LTT_KABI_MAX_FIELDS)
 *
 * Return: 0, or -EPROTO for more than LTT_KABI_MAX_FIELDS fields.
 */
int ltt_filter_kabi_fields(struct ltt_kabi_event_desc *desc, struct ltt_filter_field_desc *ret);

#endif /* LTT_FILTER_COMPILE_H */
