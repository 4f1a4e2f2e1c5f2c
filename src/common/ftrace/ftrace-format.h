/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ftrace-format.h - the layout of the kernel's own trace events (tracefs):
 * the text of an event's `events/SYS/EV/format` file, and of
 * `events/header_page`, parsed into fixed-size structs that the consumer's
 * converter (common/ftrace/ftrace-conv.h) reads records with and that the
 * session daemon turns into metadata (through ltt_ftrace_event_to_kabi() and
 * sessiond/ctrace/meta.h's ltt_meta_kernel_event()).
 *
 * A format file lists every field of the event's record as
 *   "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;"
 * after "name: EV" and "ID: N".  The record starts with the common header
 * (common_type u16 at 0, common_flags, common_preempt_count, common_pid);
 * the event's own fields follow.  What a field can be, and what it becomes:
 *
 *   DECL                       kind                    CTF payload
 *   T name                     LTT_FTRACE_INT          integer, as it is
 *   char name[N]               LTT_FTRACE_CHARS        N 8-bit UTF8 integers
 *   T name[N]                  LTT_FTRACE_ARRAY        N integers
 *   __data_loc char[] name     LTT_FTRACE_STRING       NUL-terminated string
 *   __data_loc T[] name        LTT_FTRACE_DYN_ARRAY    uint32 count, elements
 *
 * A __data_loc field is a u32 in the record: the offset (low 16 bits,
 * from the record's start) and the length in bytes (high 16 bits) of its
 * data; a __rel_loc field is the same with the offset counted from the
 * end of the u32.  Pointers are integers in base 16.  An integer whose
 * declared type is narrower than its size (a system call's "int dfd" in
 * 8 bytes) is read as that type: its low bytes, with the type's sign.
 *
 * Pure functions over the caller's memory: no allocation, no global
 * state, any thread.
 */
#ifndef LTT_COMMON_FTRACE_FORMAT_H
#define LTT_COMMON_FTRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "abi/ltt-abi.h"

#define LTT_FTRACE_NAME_MAX	64	/* system, event and field names, NUL included */
#define LTT_FTRACE_MAX_FIELDS	64	/* the event's own fields (common_* aside) */
#define LTT_FTRACE_MAX_TEXT	65536	/* bytes of a format file we look at */

enum ltt_ftrace_kind {
	LTT_FTRACE_INT = 1,	/* @size 1, 2, 4 or 8 */
	LTT_FTRACE_CHARS,	/* char name[@length]: text, NUL-padded */
	LTT_FTRACE_ARRAY,	/* @length integers of @elem_size bytes */
	LTT_FTRACE_STRING,	/* __data_loc char[]: NUL-terminated within its length */
	LTT_FTRACE_DYN_ARRAY,	/* __data_loc T[]: length / @elem_size integers */
	/*
	 * Structures, as lttng-modules writes those it reads from a process
	 * (LTT_KABI_FIELD_STRUCT*, src/abi/ltt-abi.h): never in a format file,
	 * the BPF source's layouts add them (sessiond's tracefs_bpf_parse()).
	 * Their @length members follow them in fields[]: INTs (of @elem_size
	 * bytes, or bit fields of @length bits, @elem_size 0) and STRUCTs,
	 * their offsets unused: the record holds the structure as the trace
	 * does, packed.
	 */
	LTT_FTRACE_STRUCT,	/* @size bytes at @offset (or a member structure's) */
	LTT_FTRACE_STRUCTS,	/* __data_loc of structures of @elem_size bytes, as many
				 * as the earlier field NAME_length says */
};

/*
 * Fields written as lttng-modules writes them, computed by the converter:
 * each an INT of 4 bytes in the trace (@elem_size 4), read from @size
 * bytes at @offset.  The kernel's own filter can't read them.
 */
enum ltt_ftrace_derived {
	LTT_FTRACE_DERIVED_TGID = 1,	/* the thread group of the s32 tid
					 * there (/proc when converted):
					 * sched_process_fork's parent_pid,
					 * child_pid */
	LTT_FTRACE_DERIVED_RWBS,	/* the LTT_RWBS_* bits of blktrace's
					 * text there (char[@size]): the block
					 * events' rwbs */
	LTT_FTRACE_DERIVED_TID,		/* the record's common_pid, as it is:
					 * block_rq_issue's tid */
};

/* One field of an event's record. */
struct ltt_ftrace_field {
	char name[LTT_FTRACE_NAME_MAX];	/* a C identifier */
	uint32_t offset;		/* bytes from the record's start */
	uint32_t size;			/* bytes in the record (4 for a __data_loc) */
	uint32_t length;		/* CHARS, ARRAY: elements; STRUCT*:
					 * members; a member INT: bits of a bit
					 * field; otherwise 0 */
	uint8_t kind;			/* enum ltt_ftrace_kind */
	uint8_t elem_size;		/* INT: @size; arrays: an element's; STRING: 1 */
	uint8_t is_signed;		/* the integer or element's */
	uint8_t base;			/* 10, or 16 for pointers; STRING: 0 */
	uint8_t rel;			/* STRING, DYN_ARRAY: 1 for __rel_loc */
	int8_t bias;			/* INT of 4 signed bytes: added to the value
					 * (0 from a parse; lttng-modules' prio is
					 * the kernel's minus 100) */
	uint8_t slot;			/* INT read narrower than the record holds
					 * it (a system call's argument): the
					 * slot's bytes, which the kernel's own
					 * filter compares; else 0 */
	uint8_t derived;		/* enum ltt_ftrace_derived: a field of
					 * lttng-modules' that the converter
					 * computes from the record; 0: none */
	uint8_t enum_id;		/* INT: written as the kernel enumeration
					 * LTT_KABI_ENUM_* (src/abi/ltt-abi.h), as
					 * lttng-modules writes it; 0: none */
};

/* An event's layout, as its format file gives it. */
struct ltt_ftrace_event {
	uint32_t id;			/* "ID:", the record's common_type */
	char system[LTT_FTRACE_NAME_MAX];
	char name[LTT_FTRACE_NAME_MAX];
	uint32_t pid_offset;		/* common_pid (the tid), 4 bytes */
	uint32_t min_size;		/* bytes a record needs: the fixed fields' end */
	uint32_t nr_fields;		/* the event's own fields, in record order */
	struct ltt_ftrace_field fields[LTT_FTRACE_MAX_FIELDS];
};

/* The field of @ev after its field @i, a structure's members skipped. */
static inline uint32_t ltt_ftrace_next_field(const struct ltt_ftrace_event *ev, uint32_t i)
{
	const struct ltt_ftrace_field *f = &ev->fields[i];

	return i + 1 + (f->kind == LTT_FTRACE_STRUCT || f->kind == LTT_FTRACE_STRUCTS ? f->length : 0);
}

/* The ring buffer page header, from events/header_page. */
struct ltt_ftrace_page_layout {
	uint32_t ts_offset;		/* u64 timestamp */
	uint32_t commit_offset;		/* local_t commit: flags in bits 30 and 31 */
	uint32_t commit_size;		/* 8 (64-bit kernels) or 4 */
	uint32_t data_offset;		/* the first entry */
};

/**
 * ltt_ftrace_format_parse() - parse the text of an event's format file
 * @system: the event's system (the directory above it: the text does not
 *          name it), 1..LTT_FTRACE_NAME_MAX - 1 bytes; borrowed
 * @text: @len bytes, not NUL-terminated; borrowed
 * @len: at most LTT_FTRACE_MAX_TEXT
 * @ret: the layout, set only on success
 * @reason: set on failure (when not NULL) to a constant sentence saying
 *           what is wrong, for a log or a client's error message
 *
 * Every field line must be well-formed, offsets and sizes consistent and
 * names unique; common_type must be the u16 at offset 0 and common_pid a
 * 4-byte integer.  Returns 0; -EINVAL for text that is not a format file
 * (truncated, garbled, inconsistent); -ENOTSUP for a well-formed field
 * this converter cannot carry (a flexible array `T x[]`, which has no
 * length in the record; an integer of another size; a __data_loc of an
 * unknown element type); -E2BIG for more than LTT_FTRACE_MAX_FIELDS
 * fields; -ENAMETOOLONG for a name of LTT_FTRACE_NAME_MAX bytes or more.
 */
int ltt_ftrace_format_parse(const char *system, const char *text, size_t len,
			    struct ltt_ftrace_event *ret, const char **reason);

/**
 * ltt_ftrace_header_page_parse() - parse the text of events/header_page
 * @text: @len bytes (at most LTT_FTRACE_MAX_TEXT); borrowed
 * @ret: set only on success
 *
 * Needs the timestamp (8 bytes), commit (4 or 8) and data fields, data
 * after both.  Returns 0 or -EINVAL.
 */
int ltt_ftrace_header_page_parse(const char *text, size_t len,
				 struct ltt_ftrace_page_layout *ret);

/**
 * ltt_ftrace_page_layout_default() - the page header of 64-bit kernels
 * (timestamp at 0, an 8-byte commit at 8, data at 16), for callers that
 * did not read events/header_page
 */
void ltt_ftrace_page_layout_default(struct ltt_ftrace_page_layout *ret);

/**
 * ltt_ftrace_event_to_kabi() - describe an event's payload as the kernel
 * tracer describes its own events, so that the session daemon writes its
 * metadata with ltt_meta_kernel_event() (sessiond/ctrace/meta.h), the very
 * layout the converter's payload matches
 * @ev: borrowed
 * @name: the event's name in the trace ("sched_switch",
 *        "syscall_entry_getppid"): [A-Za-z0-9_], below LTT_KABI_NAME_MAX
 *        bytes; borrowed
 * @ret: set only on success
 *
 * INT -> integer, CHARS -> an array of 1-byte UTF-8 integers, ARRAY ->
 * an array, STRING -> a string, DYN_ARRAY -> a sequence (TSDL: uint32_t
 * _N_length then the elements).  Returns 0, -EINVAL for a bad @name or
 * @ev, or -E2BIG when @ev has more than LTT_KABI_MAX_FIELDS fields.
 */
int ltt_ftrace_event_to_kabi(const struct ltt_ftrace_event *ev, const char *name,
			     struct ltt_kabi_event_desc *ret);

/**
 * ltt_ftrace_filter_fields() - the fields of @ev as a filter program
 * compiled for it reads them: those ltt_ftrace_event_to_kabi() describes,
 * through ltt_filter_kabi_fields() (common/filter/filter-compile.h)
 * @desc: scratch the names of @ret live in
 * @ret: @ev->nr_fields entries
 *
 * Returns 0, or ltt_ftrace_event_to_kabi()'s error.
 */
struct ltt_filter_field_desc;
int ltt_ftrace_filter_fields(const struct ltt_ftrace_event *ev, struct ltt_kabi_event_desc *desc,
			     struct ltt_filter_field_desc *ret);

#endif /* LTT_COMMON_FTRACE_FORMAT_H */
