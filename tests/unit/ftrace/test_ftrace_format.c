// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ftrace_format.c - common/ftrace/ftrace-format: the format files of the
 * kernel's own trace events, parsed.
 *
 * Known texts with every kind of field (taken from a 6.18 kernel, and
 * the rarer kinds written by hand), refusals with their reasons, every
 * truncation and thousands of garbled copies (an answer, never a crash
 * or a read past the text), header_page, and the layouts turned into
 * TSDL by the session daemon's own generator.  Then, where tracefs can
 * be reached (as root it is mounted privately), every events/SYS/EV/format
 * of the running kernel: each parses, or is refused as something the
 * converter cannot carry (-ENOTSUP, with its reason), never as garbage.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ftrace/ftrace-format.h"
#include "common/base/codec.h"
#include "sessiond/ctrace/meta.h"
#include "tests/unit/ftrace-pages.h"
#include "tests/unit/tap.h"
#include "tests/unit/tracefs-util.h"

static const char sched_switch[] = FTRACE_TEST_SCHED_SWITCH;

/* Every other kind: strings, dynamic arrays, arrays, pointers, __rel_loc. */
static const char kinds[] =
	"name: kinds\n"
	"ID: 65535\n"
	"format:\n"
	FTRACE_TEST_COMMON_FIELDS
	"\n"
	"\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u64[] ips;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc cpumask_t mask;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long args[6];\toffset:24;\tsize:48;\tsigned:0;\n"
	"\tfield:u8 addr[TASK_COMM_LEN];\toffset:72;\tsize:16;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:88;\tsize:8;\tsigned:0;\n"
	"\tfield:s8 small;\toffset:96;\tsize:1;\tsigned:1;\n"
	"\n"
	"print fmt: \"%s\", __get_str(name)\n";

static void check_sched_switch(void)
{
	struct ltt_ftrace_event ev;
	const char *why = NULL;
	const struct ltt_ftrace_field *f = ev.fields;

	tap_is_int(ltt_ftrace_format_parse("sched", sched_switch, sizeof(sched_switch) - 1, &ev,
					   &why), 0, "sched_switch parses");
	tap_ok(ev.id == 372 && !strcmp(ev.system, "sched") && !strcmp(ev.name, "sched_switch"),
	       "its id, system and name");
	tap_ok(ev.pid_offset == 4 && ev.min_size == 64 && ev.nr_fields == 7,
	       "common_pid at 4, 64 bytes, 7 own fields (common_* apart)");
	tap_ok(!strcmp(f[0].name, "prev_comm") && f[0].kind == LTT_FTRACE_CHARS &&
	       f[0].offset == 8 && f[0].length == 16 && f[0].elem_size == 1,
	       "char prev_comm[16]: text of 16 bytes at 8");
	tap_ok(f[1].kind == LTT_FTRACE_INT && f[1].size == 4 && f[1].is_signed &&
	       f[1].base == 10 && f[3].size == 8 && !strcmp(f[3].name, "prev_state"),
	       "pid_t prev_pid: a signed 4-byte integer; long prev_state 8 bytes");
}

/* A system call's arguments: each in an unsigned long slot. */
#define OPENAT_HEAD \
	"name: sys_enter_openat\n" \
	"ID: 782\n" \
	"format:\n" \
	FTRACE_TEST_COMMON_FIELDS \
	"\n" \
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n" \
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n" \
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n"
#define OPENAT_TAIL "\n" "print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n"
static const char sys_enter_openat[] =
	OPENAT_HEAD
	"\tfield:unsigned long len;\toffset:48;\tsize:8;\tsigned:0;\n"
	OPENAT_TAIL;

static void check_syscall_slots(void)
{
	struct ltt_ftrace_event ev;
	const char *why = NULL;
	const struct ltt_ftrace_field *f = ev.fields;

	tap_is_int(ltt_ftrace_format_parse("syscalls", sys_enter_openat,
					   sizeof(sys_enter_openat) - 1, &ev, &why), 0,
		   "sys_enter_openat parses");
	tap_ok(ev.min_size == 56 && ev.nr_fields == 6, "56 bytes, 6 own fields");
	tap_ok(f[1].offset == 16 && f[1].size == 4 && f[1].elem_size == 4 && f[1].is_signed,
	       "int dfd in an 8-byte slot, signed:0: a signed 4-byte integer at the slot's start");
	tap_ok(f[2].size == 8 && f[2].base == 16 && !f[2].is_signed,
	       "const char * filename: the whole slot, a pointer in hex");
	tap_ok(f[3].size == 4 && f[3].is_signed && f[4].size == 2 && !f[4].is_signed &&
	       f[4].offset == 40, "int flags: signed, 4 bytes; umode_t mode: unsigned, 2 bytes");
	tap_ok(f[5].size == 8 && !f[5].is_signed, "unsigned long len: the slot, as it is");
}

/* Later kernels (sid's 7.2): the path the kernel read, beside its address. */
static const char sys_enter_openat_val[] =
	OPENAT_HEAD
	"\tfield:__data_loc char[] __filename_val;\toffset:48;\tsize:4;\tsigned:0;\n"
	OPENAT_TAIL;

static void check_syscall_kernel_copies(void)
{
	struct ltt_ftrace_event ev;
	const char *why = NULL;
	uint32_t i, copies = 0;

	tap_is_int(ltt_ftrace_format_parse("syscalls", sys_enter_openat_val,
					   sizeof(sys_enter_openat_val) - 1, &ev, &why), 0,
		   "sys_enter_openat with the kernel's copy of the path parses");
	for (i = 0; i < ev.nr_fields; i++)
		copies += !strcmp(ev.fields[i].name, "__filename_val");
	tap_ok(ev.nr_fields == 5 && !copies && !strcmp(ev.fields[4].name, "mode") &&
	       ev.fields[2].base == 16 && ev.min_size == 52,
	       "the kernel's __filename_val left out of the layout (lttng-modules' on every kernel), "
	       "the record's size kept: %u fields, %u bytes", ev.nr_fields, ev.min_size);
	tap_is_int(ltt_ftrace_format_parse("other", sys_enter_openat_val,
					   sizeof(sys_enter_openat_val) - 1, &ev, &why), 0,
		   "the same text as another system's event parses");
	tap_ok(ev.nr_fields == 6 && !strcmp(ev.fields[5].name, "__filename_val"),
	       "... and keeps its __filename_val: only system calls' copies go");
}

static void check_kinds(void)
{
	struct ltt_ftrace_event ev;
	const char *why = NULL;
	const struct ltt_ftrace_field *f = ev.fields;

	tap_is_int(ltt_ftrace_format_parse("test", kinds, sizeof(kinds) - 1, &ev, &why), 0,
		   "every kind of field parses");
	tap_ok(ev.id == 65535 && ev.nr_fields == 8 && ev.min_size == 97, "8 fields, 97 bytes");
	tap_ok(f[0].kind == LTT_FTRACE_STRING && f[0].size == 4 && !f[0].rel && f[0].offset == 8 &&
	       f[7].offset == 96,
	       "__data_loc char[]: a string");
	tap_ok(f[1].kind == LTT_FTRACE_DYN_ARRAY && f[1].elem_size == 8 && !f[1].is_signed,
	       "__data_loc u64[]: a dynamic array of u64");
	tap_ok(f[2].kind == LTT_FTRACE_DYN_ARRAY && f[2].elem_size == 8 && f[2].base == 16,
	       "__data_loc cpumask_t: words in hex");
	tap_ok(f[3].kind == LTT_FTRACE_STRING && f[3].rel, "__rel_loc char[]: relative");
	tap_ok(f[4].kind == LTT_FTRACE_ARRAY && f[4].length == 6 && f[4].elem_size == 8,
	       "unsigned long args[6]: 6 integers of 8 bytes");
	tap_ok(f[5].kind == LTT_FTRACE_ARRAY && f[5].length == 16 && f[5].elem_size == 1,
	       "u8 addr[TASK_COMM_LEN]: the length from the size, integers not text");
	tap_ok(f[6].kind == LTT_FTRACE_INT && f[6].base == 16 && f[7].is_signed &&
	       f[7].size == 1, "a pointer in hex, a signed byte");
}

/* @text with line @from replaced by @repl ("" removes it). */
static void patched(char *buf, size_t size, const char *text, const char *from,
		    const char *repl)
{
	const char *at = strstr(text, from);

	snprintf(buf, size, "%.*s%s%s", (int)(at - text), text, repl, at + strlen(from));
}

struct refusal {
	const char *from, *to;
	int err;
	const char *what;
};

static void check_refusals(void)
{
	static const struct refusal r[] = {
		{ "\tfield:s8 small;", "\tfield:s8 flex[];\toffset:97;\tsize:0;\tsigned:1;\n//", -ENOTSUP,
		  "a flexible array (no length in the record)" },
		{ "\tfield:s8 small;\toffset:96;\tsize:1;", "\tfield:struct x small;\toffset:96;\tsize:3;",
		  -ENOTSUP, "a 3-byte field" },
		{ "__data_loc u64[] ips", "__data_loc struct foo[] ips", -ENOTSUP,
		  "a __data_loc of an unknown type" },
		{ "ID: 65535", "ID: 65536", -EINVAL, "an ID above 16 bits" },
		{ "ID: 65535", "ID: 12x", -EINVAL, "an ID that is no number" },
		{ "common_type;\toffset:0;", "common_type;\toffset:2;", -EINVAL,
		  "common_type not at 0" },
		{ "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n", "", -EINVAL,
		  "no common_pid" },
		{ "s8 small", "s8 ptr", -EINVAL, "two fields of one name" },
		{ "size:48;", "size:47;", -ENOTSUP, "an array whose size is not a multiple" },
		{ "name: kinds", "name: k!nds", -EINVAL, "a name with a '!'" },
		{ "offset:96;", "offset:99999;", -EINVAL, "an offset out of range" },
		{ "\tsize:1;\tsigned:1;", "\tsigned:1;", -EINVAL, "a field without a size" },
		{ "__data_loc char[] name;\toffset:8;\tsize:4;", "__data_loc char[] name;\toffset:8;\tsize:8;",
		  -EINVAL, "a __data_loc of 8 bytes" },
		{ "print fmt:", "print xxx:", -EINVAL, "no print fmt line (cut short)" },
	};
	static char buf[sizeof(kinds) + 256];
	struct ltt_ftrace_event ev;
	const char *why;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		patched(buf, sizeof(buf), kinds, r[i].from, r[i].to);
		why = NULL;
		ev.id = 7;
		ret = ltt_ftrace_format_parse("test", buf, strlen(buf), &ev, &why);
		tap_ok(ret == r[i].err && why && ev.id == 7, "refused: %s (%s)", r[i].what,
		       why ? why : "no reason");
	}
	tap_is_int(ltt_ftrace_format_parse("bad/sys", kinds, sizeof(kinds) - 1, &ev, &why),
		   -EINVAL, "a system name with a '/' refused");
}

/* Every truncation, then garbled copies: an answer, never a crash. */
static void check_fuzz(void)
{
	static char buf[sizeof(kinds)];
	struct ltt_ftrace_event ev;
	unsigned int i, ok = 0, bad_answers = 0, refused_cut = 0, seed = 1;
	const char *why;
	size_t len, cut;
	int ret;

	cut = (size_t)(strstr(kinds, "print fmt") - kinds);
	for (len = 0; len < sizeof(kinds) - 1; len++) {
		char *copy = tap_dup(kinds, len);	/* exact size: a read past it is caught */

		ret = ltt_ftrace_format_parse("test", copy, len, &ev, &why);
		free(copy);
		if (len <= cut && ret == -EINVAL)
			refused_cut++;
		if (len > cut + 10 && ret == 0)
			ok++;
	}
	tap_is_int(refused_cut, (long long)cut + 1, "every truncation before print fmt: -EINVAL");
	tap_is_int(ok, (long long)(sizeof(kinds) - 1 - cut - 11),
		   "truncations inside print fmt still parse (the layout is whole)");
	for (i = 0; i < 20000; i++) {
		unsigned int flips = 1 + (seed = seed * 1103515245 + 12345) % 8, j;

		memcpy(buf, kinds, sizeof(kinds));
		for (j = 0; j < flips; j++) {
			seed = seed * 1103515245 + 12345;
			buf[(seed >> 8) % (sizeof(kinds) - 1)] = (char)(seed >> 20);
		}
		why = NULL;
		ret = ltt_ftrace_format_parse("test", buf, sizeof(kinds) - 1, &ev, &why);
		if (ret != 0 && (!why || (ret != -EINVAL && ret != -ENOTSUP && ret != -E2BIG &&
					  ret != -ENAMETOOLONG)))
			bad_answers++;
	}
	tap_is_int(bad_answers, 0, "20000 garbled copies: each parses or is refused with a reason");
}

static void check_header_page(void)
{
	static const char text[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	struct ltt_ftrace_page_layout pl, def;

	ltt_ftrace_page_layout_default(&def);
	tap_ok(!ltt_ftrace_header_page_parse(text, sizeof(text) - 1, &pl) &&
	       !memcmp(&pl, &def, sizeof(pl)), "header_page: the 64-bit layout");
	tap_is_int(ltt_ftrace_header_page_parse(text, 60, &pl), -EINVAL,
		   "header_page cut short: refused");
}

/* The layout through the session daemon's TSDL generator. */
static void check_tsdl(void)
{
	struct ltt_kabi_event_desc d;
	struct ltt_ftrace_event ev;
	struct ltt_wbuf w;
	const char *why;
	char *t;

	ltt_ftrace_format_parse("test", kinds, sizeof(kinds) - 1, &ev, &why);
	tap_is_int(ltt_ftrace_event_to_kabi(&ev, "kinds", &d), 0, "kinds as a kernel description");
	ltt_wbuf_init(&w);
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 5, 1), 0, "... which the TSDL generator takes");
	ltt_wbuf_put_u8(&w, 0);
	t = (char *)w.data;
#define U64 "integer { size = 64; align = 8; signed = 0; encoding = none; base = 10; }"
	tap_ok(t && strstr(t, "string { encoding = UTF8; } _name;\n") &&
	       strstr(t, "uint32_t __ips_length;\n") && strstr(t, U64 " _ips[ __ips_length ];") &&
	       strstr(t, "base = 16; } _mask[ __mask_length ];") && strstr(t, U64 " _args[6];") &&
	       strstr(t, "signed = 1; encoding = none; base = 10; } _small;"),
	       "strings, sequences, arrays and integers as the generator writes them");
	if (t && !strstr(t, "_small;"))
		tap_diag("%s", t);
	ltt_ftrace_format_parse("sched", sched_switch, sizeof(sched_switch) - 1, &ev, &why);
	ltt_ftrace_event_to_kabi(&ev, "sched_switch", &d);
	w.len = 0;
	tap_ok(!ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0) && (ltt_wbuf_put_u8(&w, 0), 1) &&
	       strstr((char *)w.data, "encoding = UTF8; base = 10; } _prev_comm[16];"),
	       "char prev_comm[16]: 16 UTF8 bytes");
	tap_is_int(ltt_ftrace_event_to_kabi(&ev, "sched:switch", &d), -EINVAL,
		   "a trace name with ':' refused");
	/* an integer written as a kernel enumeration (epoll_ctl's op_enum) */
	ev.fields[1].enum_id = LTT_KABI_ENUM_EPOLL_OP;	/* prev_pid */
	w.len = 0;
	tap_ok(!ltt_ftrace_event_to_kabi(&ev, "sched_switch", &d) && d.fields[1].enum_id == 1 &&
	       !ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0) && (ltt_wbuf_put_u8(&w, 0), 1) &&
	       strstr((char *)w.data, "enum : integer { size = 32; align = 8; signed = 1;") &&
	       strstr((char *)w.data, "\"EPOLL_CTL_MOD\" = 3\n\t\t} _prev_pid;"),
	       "an INT's enum_id: the kernel description's, an enum in the TSDL");
	ev.fields[1].enum_id = 99;
	tap_is_int(ltt_ftrace_event_to_kabi(&ev, "sched_switch", &d), -EINVAL,
		   "an enumeration ltt has no table for refused");
	ev.fields[1].enum_id = 0;
	ev.fields[0].enum_id = LTT_KABI_ENUM_EPOLL_OP;	/* prev_comm, char[16] */
	tap_is_int(ltt_ftrace_event_to_kabi(&ev, "sched_switch", &d), -EINVAL,
		   "an enumeration on a field not an integer refused");
	ltt_wbuf_fini(&w);
}

/* ---- the running kernel's events ---- */

struct tally {
	unsigned int files, parsed, tsdl_ok, notsup, other;
	char reasons[8][160];
	unsigned int nr_reasons;
};

static void note_reason(struct tally *t, const char *file, int ret, const char *why)
{
	if (t->nr_reasons < 8)
		snprintf(t->reasons[t->nr_reasons++], sizeof(t->reasons[0]), "%s: %s (%d)", file,
			 why ? why : "?", ret);
}

static void parse_one(struct tally *t, const char *sys, const char *path, const char *evname)
{
	static char text[LTT_FTRACE_MAX_TEXT];
	static struct ltt_ftrace_event ev;
	static struct ltt_kabi_event_desc d;
	struct ltt_wbuf w;
	const char *why = NULL;
	long len = tu_read_text(path, text, sizeof(text));
	int ret;

	if (len < 0)
		return;
	t->files++;
	ret = ltt_ftrace_format_parse(sys, text, (size_t)len, &ev, &why);
	if (ret == -ENOTSUP)
		t->notsup++;
	else if (ret)
		t->other++;
	if (ret) {
		note_reason(t, path, ret, why);
		return;
	}
	t->parsed++;
	ltt_wbuf_init(&w);
	if (!ltt_ftrace_event_to_kabi(&ev, evname, &d) && !ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 1, 0))
		t->tsdl_ok++;
	else
		note_reason(t, path, -1, "parsed, but the TSDL generator refuses it");
	ltt_wbuf_fini(&w);
}

static void scan_system(struct tally *t, const char *events, const char *sys)
{
	char dir[700], path[1000];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", events, sys);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		if (strlen(de->d_name) < LTT_KABI_NAME_MAX &&
		    strspn(de->d_name, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(de->d_name))
			parse_one(t, sys, path, de->d_name);
		else
			parse_one(t, sys, path, "renamed");
	}
	if (d)
		closedir(d);
}

static void check_real(void)
{
	static struct tally t;
	char events[400];
	const char *why = NULL, *root = tu_tracefs_open(&why);
	struct dirent *de;
	unsigned int i;
	DIR *d;

	if (!root) {
		tap_ok(true, "# SKIP the kernel's format files: %s", why);
		return;
	}
	snprintf(events, sizeof(events), "%s/events", root);
	d = opendir(events);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR)
			scan_system(&t, events, de->d_name);
	if (d)
		closedir(d);
	if (!t.files) {
		tap_ok(true, "# SKIP the kernel's format files: none readable here (not root?)");
		tu_tracefs_close();
		return;
	}
	tap_diag("%u format files: %u parsed (%u through the TSDL generator), %u refused as "
		 "not convertible, %u refused as malformed", t.files, t.parsed, t.tsdl_ok,
		 t.notsup, t.other);
	for (i = 0; i < t.nr_reasons; i++)
		tap_diag("  %s", t.reasons[i]);
	tap_ok(t.files > 0 && t.parsed + t.notsup == t.files,
	       "every format file of this kernel parses or is refused as not convertible");
	tap_ok(t.parsed >= t.files - t.files / 100, "at least 99%% of them parse");
	tap_is_int(t.tsdl_ok, t.parsed, "every parsed one goes through the TSDL generator");
	tu_tracefs_close();
}

int main(void)
{
	check_sched_switch();
	check_syscall_slots();
	check_syscall_kernel_copies();
	check_kinds();
	check_refusals();
	check_fuzz();
	check_header_page();
	check_tsdl();
	check_real();
	return tap_done();
}
