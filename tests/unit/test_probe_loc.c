// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probe_loc.c - probe locations (common/probe-loc.c) in LTTng's
 * syntax, SDT arguments (common/elf-probe.c) in x86-64's operands, and
 * the file offsets of this very program's function and of a missing one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/elf-probe.h"
#include "common/probe-loc.h"
#include "tap.h"

static struct ltt_probe_loc loc;
static char why[256];

static int parse(int type, const char *text)
{
	return ltt_probe_loc_parse(type, text, &loc, why, sizeof(why));
}

static void locations(void)
{
	tap_is_int(parse(LTT_EVENT_UPROBE, "elf:/usr/bin/prog:main"), 0, "elf:PATH:FUNCTION");
	tap_ok(loc.kind == LTT_PROBE_ELF && !strcmp(loc.path, "/usr/bin/prog") &&
	       !strcmp(loc.symbol, "main"), "... its path and function");
	tap_is_int(parse(LTT_EVENT_UPROBE, "/opt/a:b/prog:f_1"), 0, "PATH:FUNCTION, a ':' in the path");
	tap_ok(loc.kind == LTT_PROBE_ELF && !strcmp(loc.path, "/opt/a:b/prog") &&
	       !strcmp(loc.symbol, "f_1"), "... the last ':' separates the function");
	tap_is_int(parse(LTT_EVENT_UPROBE, "sdt:/lib/x.so:prov:name"), 0, "sdt:PATH:PROVIDER:NAME");
	tap_ok(loc.kind == LTT_PROBE_SDT && !strcmp(loc.path, "/lib/x.so") &&
	       !strcmp(loc.provider, "prov") && !strcmp(loc.symbol, "name"), "... each part");
	tap_is_int(parse(LTT_EVENT_UPROBE, "sdt:/lib/x.so:name"), -EINVAL, "sdt: without provider");
	tap_is_int(parse(LTT_EVENT_UPROBE, "prog:main"), -EINVAL, "a relative path");
	tap_is_int(parse(LTT_EVENT_UPROBE, "/bin/prog:ma in"), -EINVAL, "a function that is no symbol");
	tap_is_int(parse(LTT_EVENT_UPROBE, "/bin/prog:"), -EINVAL, "no function");
	tap_is_int(parse(LTT_EVENT_UPROBE, ""), -EINVAL, "nothing");
	tap_is_int(parse(LTT_EVENT_KPROBE, "do_sys_open+0x10"), 0, "SYMBOL+OFFSET");
	tap_ok(loc.kind == LTT_PROBE_KSYM && !strcmp(loc.symbol, "do_sys_open") && loc.offset == 16,
	       "... symbol and offset");
	tap_is_int(parse(LTT_EVENT_FUNCTION, "0xffffffff81000000"), 0, "0xADDR");
	tap_ok(loc.kind == LTT_PROBE_KADDR && loc.addr == 0xffffffff81000000ULL, "... the address");
	tap_is_int(parse(LTT_EVENT_KPROBE, "sym+-1"), -EINVAL, "a negative offset");
	tap_is_int(parse(LTT_EVENT_KPROBE, "0x"), -EINVAL, "an address without digits");
	tap_is_int(parse(LTT_EVENT_TRACEPOINT, "x"), -EINVAL, "a tracepoint has no location");
}

/* Each location as text, parsed back (saved files hold them in parts). */
static void formats(void)
{
	static const struct {
		int type;
		const char *text;
		bool elf_prefix;
	} cases[] = {
		{ LTT_EVENT_UPROBE, "elf:/usr/bin/prog:main", true },
		{ LTT_EVENT_UPROBE, "/opt/a:b/prog:f_1", false },
		{ LTT_EVENT_UPROBE, "sdt:/lib/x.so:prov:name", false },
		{ LTT_EVENT_KPROBE, "do_sys_open+16", false },
		{ LTT_EVENT_KPROBE, "do_sys_open", false },
		{ LTT_EVENT_FUNCTION, "0xffffffff81000000", false },
	};
	char buf[LTT_LOCATION_MAX];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse(cases[i].type, cases[i].text);
		tap_ok(!ltt_probe_loc_format(&loc, cases[i].elf_prefix, buf, sizeof(buf)) &&
		       !strcmp(buf, cases[i].text), "format: %s", cases[i].text);
	}
	parse(LTT_EVENT_KPROBE, "do_sys_open+0x10");
	tap_ok(!ltt_probe_loc_format(&loc, false, buf, sizeof(buf)) &&
	       !strcmp(buf, "do_sys_open+16"), "format: an offset in decimal");
	tap_is_int(ltt_probe_loc_format(&loc, false, buf, 8), -ENAMETOOLONG,
		   "format: a buffer too small");
}

static void args(void)
{
	struct ltt_kabi_probe_arg a;

	tap_is_int(ltt_sdt_arg_parse("-8@%rdx", &a, NULL, NULL), 0, "-8@%%rdx");
	tap_ok(a.kind == LTT_KABI_ARG_REG && !strcmp(a.reg, "dx") && a.size == 8 && a.is_signed,
	       "... register dx, s64");
	tap_is_int(ltt_sdt_arg_parse("4@%r8d", &a, NULL, NULL), 0, "4@%%r8d");
	tap_ok(a.kind == LTT_KABI_ARG_REG && !strcmp(a.reg, "r8") && a.size == 4 && !a.is_signed,
	       "... register r8, u32");
	tap_is_int(ltt_sdt_arg_parse("4@-4(%rbp)", &a, NULL, NULL), 0, "4@-4(%%rbp)");
	tap_ok(a.kind == LTT_KABI_ARG_MEM && !strcmp(a.reg, "bp") && a.value == -4 && a.size == 4,
	       "... 4 bytes at bp - 4");
	tap_is_int(ltt_sdt_arg_parse("-2@(%rsp)", &a, NULL, NULL), 0, "-2@(%%rsp)");
	tap_ok(a.kind == LTT_KABI_ARG_MEM && !strcmp(a.reg, "sp") && a.value == 0, "... at sp");
	tap_is_int(ltt_sdt_arg_parse("8@$-5", &a, NULL, NULL), 0, "8@$-5");
	tap_ok(a.kind == LTT_KABI_ARG_CONST && a.value == -5, "... the constant -5");
	tap_is_int(ltt_sdt_arg_parse("8@var(%rip)", &a, NULL, NULL), -EOPNOTSUPP,
		   "a global variable without the file: not fetched");
	tap_is_int(ltt_sdt_arg_parse("8@(%rax,%rbx,8)", &a, NULL, NULL), -EOPNOTSUPP,
		   "an index register: not fetched");
	tap_is_int(ltt_sdt_arg_parse("3@%rax", &a, NULL, NULL), -EINVAL, "a size of 3");
	tap_is_int(ltt_sdt_arg_parse("8@%xmm0", &a, NULL, NULL), -EOPNOTSUPP, "a vector register");
}

long probe_loc_target(long x);

__attribute__((noinline, used)) long probe_loc_target(long x)
{
	return x + 1;
}

static void files(void)
{
	struct ltt_kabi_probe p;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char text[4200];

	self[n > 0 ? n : 0] = '\0';
	snprintf(text, sizeof(text), "%s:probe_loc_target", self);
	tap_is_int(parse(LTT_EVENT_UPROBE, text), 0, "this program's function");
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), 0, "... found");
	tap_ok(p.instrumentation == LTT_KABI_UPROBE && p.offset > 0 && !p.ref_ctr_offset &&
	       !p.nr_args && !strcmp(p.path, self), "... at a file offset, no semaphore, no argument");
	snprintf(text, sizeof(text), "%s:no_such_function_here", self);
	parse(LTT_EVENT_UPROBE, text);
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), -ENOENT, "a missing function");
	tap_ok(strstr(why, "has no function no_such_function_here") != NULL, "... said: %s", why);
	snprintf(text, sizeof(text), "sdt:%s:prov:none", self);
	parse(LTT_EVENT_UPROBE, text);
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), -ENOENT, "a missing SDT probe");
	parse(LTT_EVENT_UPROBE, "/nonexistent/prog:main");
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), -ENOENT, "a missing file");
	parse(LTT_EVENT_UPROBE, "/proc/self/status:main");
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), -ENOEXEC, "not an ELF file");
}

int main(void)
{
	tap_plan(48);
	locations();
	formats();
	args();
	files();
	return tap_done();
}
