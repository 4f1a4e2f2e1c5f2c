/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * kabi-struct.h - a kernel event's structure fields (LTT_KABI_FIELD_STRUCT,
 * LTT_KABI_FIELD_STRUCT_SEQUENCE in src/abi/ltt-abi.h): the one check of
 * their members, made by the TSDL writer (sessiond/ctrace/tsdl.c, of what
 * the module or the tracefs backend describes) and by the consumer's
 * converter (through ltt_ftrace_event_to_kabi(), of the layouts it is
 * given).  Header only: tsdl.c is linked alone into test programs.
 */
#ifndef LTT_COMMON_TRACE_KABI_STRUCT_H
#define LTT_COMMON_TRACE_KABI_STRUCT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi/ltt-abi.h"

#define LTT_KABI_STRUCT_DEPTH	2	/* a structure in a structure, no deeper */

static inline bool ltt_kabi_is_struct(const struct ltt_kabi_field *f)
{
	return f->type == LTT_KABI_FIELD_STRUCT || f->type == LTT_KABI_FIELD_STRUCT_SEQUENCE;
}

/* Is @name (of its field) a C identifier, NUL-terminated? */
static inline bool ltt_kabi_member_name_ok(const char *name)
{
	size_t i;

	if ((name[0] >= '0' && name[0] <= '9') || !name[0])
		return false;
	for (i = 0; i < LTT_KABI_FIELD_NAME_MAX && name[i]; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return i < LTT_KABI_FIELD_NAME_MAX;
}

/*
 * Is structure @fields[@i] (of @nr) well made: its @length members within
 * @nr, each a named integer (whole bytes or a bit field) or a structure
 * (at most LTT_KABI_STRUCT_DEPTH deep, a STRUCT), named as C names, no two of one
 * structure named alike, their bits summing to its @size bytes, those of
 * whole bytes (integers, structures) starting on a byte?
 * @depth: 1 for an event's field.
 */
static inline bool ltt_kabi_struct_ok(const struct ltt_kabi_field *fields, uint32_t nr,
				      uint32_t i, unsigned int depth)
{
	const struct ltt_kabi_field *s = &fields[i], *m;
	uint32_t j, k, end, bits = 0;

	if (!ltt_kabi_is_struct(s) || depth > LTT_KABI_STRUCT_DEPTH || !s->length ||
	    s->length >= nr - i || !s->size || s->bits || s->is_signed || s->encoding ||
	    s->enum_id || s->flags || (depth > 1 && s->type != LTT_KABI_FIELD_STRUCT))
		return false;
	end = i + 1 + s->length;
	for (j = i + 1; j < end; j = m->type == LTT_KABI_FIELD_STRUCT ? j + 1 + m->length : j + 1) {
		m = &fields[j];
		if (!ltt_kabi_member_name_ok(m->name))
			return false;
		for (k = i + 1; k < j; k++)
			if (!strcmp(fields[k].name, m->name))
				return false;
		/* whole bytes start on a byte, as the TSDL aligns them (align 8) */
		if ((m->type == LTT_KABI_FIELD_STRUCT || !m->bits) && bits % 8)
			return false;
		if (m->type == LTT_KABI_FIELD_STRUCT) {
			if (m->length >= end - j || !ltt_kabi_struct_ok(fields, end, j, depth + 1))
				return false;
			bits += m->size * 8u;
			continue;
		}
		if (m->type != LTT_KABI_FIELD_INTEGER || m->encoding || m->enum_id ||
		    m->flags || m->length || (m->base != 10 && m->base != 16))
			return false;
		if (m->bits ? m->size || m->is_signed || m->bits > 64 :
			      m->size != 1 && m->size != 2 && m->size != 4 && m->size != 8)
			return false;
		bits += m->bits ? m->bits : m->size * 8u;
	}
	return bits == s->size * 8u;
}

/* The field after @fields[@i] and its members, if it is a structure. */
static inline uint32_t ltt_kabi_next_field(const struct ltt_kabi_field *fields, uint32_t i)
{
	return ltt_kabi_is_struct(&fields[i]) ? i + 1 + fields[i].length : i + 1;
}

/*
 * The event's field of @nr (its members skipped) counting the structure
 * sequence @fields[@i]: the unsigned integer named NAME_length before it;
 * @nr when there is none.
 */
static inline uint32_t ltt_kabi_struct_count(const struct ltt_kabi_field *fields, uint32_t nr,
					     uint32_t i)
{
	size_t len = strnlen(fields[i].name, sizeof(fields[i].name));
	uint32_t j;

	for (j = 0; j < i; j = ltt_kabi_next_field(fields, j))
		if (fields[j].type == LTT_KABI_FIELD_INTEGER && !fields[j].is_signed &&
		    fields[j].size && !fields[j].bits && !strncmp(fields[j].name, fields[i].name, len) &&
		    !strcmp(fields[j].name + len, "_length"))
			return j;
	return nr;
}

/* Are the structures among an event's @nr @fields well made (and counted)? */
static inline bool ltt_kabi_structs_ok(const struct ltt_kabi_field *fields, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i = ltt_kabi_next_field(fields, i)) {
		if (!ltt_kabi_is_struct(&fields[i]))
			continue;
		if (!ltt_kabi_struct_ok(fields, nr, i, 1) ||
		    (fields[i].type == LTT_KABI_FIELD_STRUCT_SEQUENCE &&
		     ltt_kabi_struct_count(fields, nr, i) == nr))
			return false;
	}
	return true;
}

#endif /* LTT_COMMON_TRACE_KABI_STRUCT_H */
