// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ftrace_prefilter.c - the kernel filter the tracefs backend writes
 * beside the consumer's programs (common/ftrace/ftrace-prefilter.h): for filter
 * expressions compiled as the session daemon compiles them, against the
 * layouts of 6.18's sched_switch (prio biased as lttng-modules records
 * it) and sys_enter_read (arguments in 8-byte slots), the text ftrace is
 * given, or none where its grammar can't narrow what the programs keep.
 * That the kernel takes these texts and keeps at least what the programs
 * keep is test_kernel_tracefs_filter.sh's (natively).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ftrace/ftrace-prefilter.h"
#include "filter-vm/filter-vm.h"
#include "ltt/tracepoint-types.h"
#include "tests/unit/ftrace-pages.h"
#include "tests/unit/tap.h"

static const char sched_switch[] = FTRACE_TEST_SCHED_SWITCH;

static const char sys_enter_read[] =
	"name: sys_enter_read\n"
	"ID: 842\n"
	"format:\n"
	FTRACE_TEST_COMMON_FIELDS
	"\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"fd: 0x%08lx\", ((unsigned long)(REC->fd))\n";

static struct ltt_ftrace_event sw, rd;

static void parse(const char *system, const char *text, size_t len, struct ltt_ftrace_event *ret)
{
	const char *why = NULL;

	if (ltt_ftrace_format_parse(system, text, len, ret, &why)) {
		printf("Bail out! %s does not parse: %s\n", system, why ? why : "?");
		exit(1);
	}
}

/*
 * The kernel filter of @nr expressions on @ev: "" for none; @exact: only
 * one that says them exactly (ltt_ftrace_filter_exact()).
 */
static const char *translated(const struct ltt_ftrace_event *ev, const char *const *texts,
			      uint32_t nr, bool exact)
{
	static char buf[LTT_FTRACE_PREFILTER_MAX];
	uint8_t *code[8] = { NULL };
	uint32_t len[8], i;
	int ret = -1;

	for (i = 0; i < nr; i++)
		if (fp_compile(ev, texts[i], &code[i], &len[i]))
			goto out;
	ret = exact ? ltt_ftrace_filter_exact(ev, (const uint8_t *const *)code, len, nr, buf,
					      sizeof(buf)) :
		      ltt_ftrace_prefilter(ev, (const uint8_t *const *)code, len, nr, buf,
					   sizeof(buf));
out:
	for (i = 0; i < nr; i++)
		free(code[i]);
	if (ret < 0)
		return "(does not compile)";
	return ret ? buf : "";
}

static const char *prefilter(const struct ltt_ftrace_event *ev, const char *const *texts,
			     uint32_t nr)
{
	return translated(ev, texts, nr, false);
}

static void check(const struct ltt_ftrace_event *ev, const char *text, const char *want)
{
	tap_is_str(prefilter(ev, &text, 1), want, "'%s' -> '%s'", text, want);
}

static void check_fields(void)
{
	check(&sw, "prev_pid == 5", "prev_pid == 5");
	check(&sw, "5 < prev_pid", "prev_pid > 5");
	check(&sw, "next_pid >= -1", "next_pid >= -1");
	check(&sw, "prev_comm == \"kload\"", "prev_comm == \"kload\"");
	check(&sw, "\"kload\" != prev_comm", "prev_comm != \"kload\"");
	check(&sw, "next_comm == \"kl*\"", "next_comm ~ \"kl*\"");
	check(&sw, "next_comm != \"kl*\"", "!(next_comm ~ \"kl*\")");
	check(&sw, "prev_state & 1", "prev_state & 1");
	check(&sw, "(prev_state & 2) == 0", "!(prev_state & 2)");
	check(&sw, "(prev_state & 2) != 0", "prev_state & 2");
	check(&sw, "prev_pid", "prev_pid != 0");
	check(&sw, "$ctx.tid == 42", "common_pid == 42");
	check(&sw, "$ctx.cpu_id == 0", "CPU == 0");
	check(&rd, "count > 100", "count > 100");
	check(&rd, "count == 18446744073709551615", "count == 18446744073709551615");
}

static void check_logic(void)
{
	check(&sw, "prev_pid == 1 && next_pid == 2", "(prev_pid == 1) && (next_pid == 2)");
	check(&sw, "prev_pid == 1 || next_pid == 2", "(prev_pid == 1) || (next_pid == 2)");
	check(&sw, "!(prev_pid == 1)", "!(prev_pid == 1)");
	check(&sw, "prev_pid == 1 && (next_pid == 2 || next_comm == \"x\")",
	      "(prev_pid == 1) && ((next_pid == 2) || (next_comm == \"x\"))");
	check(&sw, "!(prev_pid == 1 || next_pid < 3)", "!((prev_pid == 1) || (next_pid < 3))");
	/* an operand it can't say: dropped from an &&, all of an || or a ! */
	check(&sw, "prev_pid == 1 && (prev_state | 2) == 3", "prev_pid == 1");
	check(&sw, "(prev_state ^ 1) == 0 && next_pid == 4", "next_pid == 4");
	check(&sw, "prev_pid == 1 || (prev_state | 2) == 3", "");
	check(&sw, "!(prev_pid == 1 && (prev_state | 2) == 3)", "");
	check(&sw, "!!(prev_pid == 1 && (prev_state | 2) == 3)", "");
}

/* prev_prio as lttng-modules records it: the kernel's less 100. */
static void check_bias(void)
{
	check(&sw, "prev_prio == 20", "prev_prio == 120");
	check(&sw, "prev_prio != -1", "prev_prio != 99");
	check(&sw, "prev_prio", "prev_prio != 100");
	check(&sw, "prev_prio < 20", "prev_prio < 120 || prev_prio < -2147483548");
	check(&sw, "!(prev_prio < 20)", "");
	check(&sw, "prev_prio == 2147483647", "");
}

/*
 * A field the converter derives (sched_process_fork's parent_pid and
 * child_pid: thread groups) is not in the record: the kernel can't say it.
 */
static void check_tgid(void)
{
	static struct ltt_ftrace_event d;
	uint32_t i;

	d = sw;
	for (i = 0; i < d.nr_fields; i++)
		if (!strcmp(d.fields[i].name, "next_pid"))
			d.fields[i].derived = LTT_FTRACE_DERIVED_TGID;
	check(&d, "next_pid == 5", "");
	check(&d, "next_pid == 5 && prev_pid == 1", "prev_pid == 1");
	check(&d, "next_pid == 5 || prev_pid == 1", "");
}

/*
 * Globs and strings as ftrace reads them: a "*suffix" on a char array
 * matches at the array's end, "*middle*" reads past its NUL (more, never
 * negated), a leading '!' is ftrace's "not", a leading digit its index
 * match; the compare of a char array stops at its size.
 */
static void check_strings(void)
{
	check(&sw, "next_comm == \"*ad\"", "");
	check(&sw, "next_comm == \"*oa*\"", "next_comm ~ \"*oa*\"");
	check(&sw, "next_comm != \"*oa*\"", "");
	check(&sw, "next_comm == \"k*d\"", "");
	check(&sw, "next_comm == \"!*\"", "");
	check(&sw, "next_comm != \"!foo*\"", "");
	check(&sw, "next_comm == \"1*\"", "");
	check(&sw, "prev_comm == \"a123456789abcde\"", "prev_comm == \"a123456789abcde\"");
	check(&sw, "prev_comm != \"a123456789abcdef\"", "");
}

/* What ftrace can't say, or would read otherwise: no kernel filter. */
static void check_none(void)
{
	check(&sw, "prev_pid == 5000000000", "");
	check(&sw, "prev_pid == prev_prio", "");
	check(&sw, "prev_comm == \"a?b\"", "");
	check(&sw, "prev_comm == \"a[b]*\"", "");
	check(&sw, "prev_comm == \"a\\\\b\"", "");
	check(&sw, "prev_comm < \"b\"", "");
	check(&sw, "$ctx.procname == \"x\"", "");
	check(&sw, "$ctx.vpid == 1", "");
	check(&sw, "-prev_pid == -2", "");			/* negation: not in ftrace's grammar */
	check(&sw, "(prev_pid << 1) == 2", "");
	check(&sw, "1 & 2", "");				/* constants alone */
	check(&sw, "prev_pid == 1 && (2 & 3)", "prev_pid == 1");
	check(&sw, "prev_pid == 1 || 1", "");
	check(&sw, "$ctx.cpu_id & 1", "");			/* ftrace's CPU takes no & */
	check(&sw, "$ctx.tid & 1", "common_pid & 1");
	check(&sw, "prev_prio != -2147483698", "");		/* beyond a biased s32 */
	check(&rd, "fd == 3", "");		/* unsigned int in an 8-byte slot */
	check(&rd, "buf == 0", "");		/* a pointer */
	check(&rd, "count == -1", "");		/* negative, an unsigned field */
}

/*
 * A program the compiler does not make but the validator takes: two
 * RETURNs, the first before a jump lands (prev_pid == 1 || next_pid == 2).
 */
static void check_two_returns(void)
{
	static struct ltt_kabi_event_desc desc;
	struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
	static const uint8_t prog[] = {
		'L', 'T', 'T', 'F', LTT_FILTER_VERSION, 2, 0, 0, 37, 0, 0, 0,
		LTT_FOP_LOAD_FIELD, 1, 0, LTT_UST_TYPE_INTEGER, 4, LTT_FILTER_F_SIGNED,
		LTT_FOP_PUSH_S64, 1, 0, 0, 0, 0, 0, 0, 0,
		LTT_FOP_EQ,
		LTT_FOP_JUMP_TRUE, 17, 0,
		LTT_FOP_LOAD_FIELD, 5, 0, LTT_UST_TYPE_INTEGER, 4, LTT_FILTER_F_SIGNED,
		LTT_FOP_PUSH_S64, 2, 0, 0, 0, 0, 0, 0, 0,
		LTT_FOP_EQ,
		LTT_FOP_RETURN,
		LTT_FOP_RETURN,
	};
	const uint8_t *code[] = { prog };
	uint32_t len[] = { sizeof(prog) };
	char buf[LTT_FTRACE_PREFILTER_MAX];

	tap_ok(!ltt_ftrace_filter_fields(&sw, &desc, fields) &&
	       !ltt_filter_validate(prog, sizeof(prog), fields, desc.nr_fields),
	       "a program with two RETURNs validates");
	tap_is_int(ltt_ftrace_prefilter(&sw, code, len, 1, buf, sizeof(buf)), 0,
		   "... no kernel filter for it (not the second operand alone)");
}

static void check_programs(void)
{
	const char *two[] = { "prev_pid == 1", "next_comm == \"k*\"" };
	const char *one_open[] = { "prev_pid == 1", "(prev_state | 1) == 1" };
	char big[512];
	const char *many[8];
	size_t i;

	tap_is_str(prefilter(&sw, two, 2), "(prev_pid == 1) || (next_comm ~ \"k*\")",
		   "two rules' programs: either's");
	tap_is_str(prefilter(&sw, one_open, 2), "", "a program it can't narrow: none");
	tap_is_str(prefilter(&sw, two, 0), "", "no program: none");
	/* past what the kernel takes in one write: none */
	i = (size_t)snprintf(big, sizeof(big), "prev_pid == 1");
	while (i + 20 < sizeof(big))
		i += (size_t)snprintf(big + i, sizeof(big) - i, " || prev_pid == %zu", i);
	for (i = 0; i < 8; i++)
		many[i] = big;
	tap_is_str(prefilter(&sw, many, 8), "", "a filter of more than %d bytes: none",
		   LTT_FTRACE_PREFILTER_MAX);
}

/* A histogram trigger's filter: what the programs take exactly, or none. */
static void check_exact(void)
{
	static const struct {
		const char *text, *want;
	} v[] = {
		{ "prev_pid == 5", "prev_pid == 5" },
		{ "$ctx.tid > 1", "common_pid > 1" },
		{ "prev_pid == 1 && next_comm == \"k*\"", "(prev_pid == 1) && (next_comm ~ \"k*\")" },
		{ "!(prev_pid == 1 || next_pid < 3)", "!((prev_pid == 1) || (next_pid < 3))" },
		/* widened (an operand dropped from an &&, a "*middle*" glob): none */
		{ "prev_pid == 1 && (prev_state | 2) == 3", "" },
		{ "next_comm == \"*x*\"", "" },
		{ "$ctx.tid == $ctx.cpu_id", "" },
	};
	const char *two[] = { "prev_pid == 1", "next_comm == \"k*\"" };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		tap_is_str(translated(&sw, &v[i].text, 1, true), v[i].want, "exactly: '%s' -> '%s'",
			   v[i].text, v[i].want);
	tap_is_str(translated(&sw, two, 2, true), "(prev_pid == 1) || (next_comm ~ \"k*\")",
		   "exactly: two rules' programs, either's");
}

int main(void)
{
	tap_plan(76);
	parse("sched", sched_switch, sizeof(sched_switch) - 1, &sw);
	parse("syscalls", sys_enter_read, sizeof(sys_enter_read) - 1, &rd);
	sw.fields[2].bias = -100;	/* prev_prio, as kabi-tracefs.c sets it */
	/* the system call's number left out, as lttng-modules lays it out */
	memmove(&rd.fields[0], &rd.fields[1], 3 * sizeof(rd.fields[0]));
	rd.nr_fields = 3;
	check_fields();
	check_logic();
	check_bias();
	check_tgid();
	check_strings();
	check_none();
	check_two_returns();
	check_programs();
	check_exact();
	return tap_done();
}
