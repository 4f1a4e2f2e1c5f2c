/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace-pages.h - ring-buffer pages as the kernel's ring_buffer.c writes
 * them, built entry by entry for test_ftrace_conv.c, with one test event
 * (its format text, the records, and its CTF payload decoded back).
 */
#ifndef LTT_TESTS_FTRACE_PAGES_H
#define LTT_TESTS_FTRACE_PAGES_H

/* The common header of every event's format file (Linux 6.x, 64-bit). */
#define FTRACE_TEST_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

/* sched_switch's format file (Linux 6.18, x86-64); its print fmt cut short. */
#define FTRACE_TEST_SCHED_SWITCH \
	"name: sched_switch\n" \
	"ID: 372\n" \
	"format:\n" \
	FTRACE_TEST_COMMON_FIELDS \
	"\n" \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n" \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n"

#include <stdbool.h>
#include <stdint.h>

#include "common/ftrace/ftrace-format.h"

#define PAGE 4096
#define PKT_SIZE 4096
#define FP_ID 100	/* the test event's ftrace id */
#define FP_RAW_ID 19	/* ftrace:raw_data's */

/* A page being built: @len bytes of data after the 16-byte header. */
struct page {
	uint8_t b[PAGE];
	size_t len;
};

/* The test event's fields, as decoded from a CTF payload. */
struct fp_event {
	uint32_t a;
	char s[4200];
	char comm[17];
	uint32_t nr_arr;
	uint16_t arr[2200];
	int64_t v;
};

/** fp_layout() - the test event's layout, parsed from its format text */
bool fp_layout(struct ltt_ftrace_event *ret);

/** fp_page_init() - an empty page of timestamp @ts */
void fp_page_init(struct page *pg, uint64_t ts);

/**
 * fp_record() - a record of the test event @delta ns after the previous
 * entry: common_pid @pid, a = @a, s = @s, comm = "comm<pid>", arr =
 * 1000, 1001, ... (@nr_arr of them), v = -pid * 10^9
 */
void fp_record(struct page *pg, uint32_t delta, int32_t pid, int32_t a, const char *s,
	       unsigned int nr_arr);
/** fp_record_bad_loc() - a test record whose string lies outside it */
void fp_record_bad_loc(struct page *pg, uint32_t delta);
/** fp_record_unmapped() - a record of event id 99 */
void fp_record_unmapped(struct page *pg, uint32_t delta);
/**
 * fp_record_raw() - a record of ftrace:raw_data (id FP_RAW_ID), what a
 * write of @len bytes (@data: the u32 raw id first) to trace_marker_raw
 * records: the common header (common_pid @pid), then @data
 */
void fp_record_raw(struct page *pg, uint32_t delta, int32_t pid, const void *data, size_t len);
/** fp_record_big() - a record whose string and array share 4000 bytes */
void fp_record_big(struct page *pg, uint32_t delta);
/** fp_time_extend() - a time extend of @delta */
void fp_time_extend(struct page *pg, uint64_t delta);
/** fp_time_stamp() - an absolute time stamp (the low 59 bits of @ts) */
void fp_time_stamp(struct page *pg, uint64_t ts);
/** fp_padding() - a discarded event's padding of @total bytes */
void fp_padding(struct page *pg, uint32_t total);
/** fp_raw_u32() - 4 bytes as they are */
void fp_raw_u32(struct page *pg, uint32_t v);
/**
 * fp_page_finish() - the commit word; @missed: events lost before the
 * page, @count stored after the data when not 0
 */
void fp_page_finish(struct page *pg, bool missed, uint64_t count);
/** fp_set_commit() - overwrite the commit word (a lie) */
void fp_set_commit(struct page *pg, uint64_t commit);

/** fp_decode_payload() - the test event's CTF payload at @p; its length */
size_t fp_decode_payload(const uint8_t *p, size_t avail, struct fp_event *ret);

/**
 * fp_compile() - filter expression @text compiled for @ev as the session
 * daemon compiles it (the fields ltt_ftrace_filter_fields() gives), and
 * validated: 0 with *@code (malloc()ed) of *@len bytes, or an error
 */
int fp_compile(const struct ltt_ftrace_event *ev, const char *text, uint8_t **code,
	       uint32_t *len);

/** ftrace_real_test() - the real-data test (test_ftrace_real.c) */
void ftrace_real_test(void);

#endif /* LTT_TESTS_FTRACE_PAGES_H */
