// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probe_loc.c - probe locations (common/probe/probe-loc.c) in LTTng's
 * syntax, SDT arguments (common/probe/elf-probe.c) in x86-64's operands, and
 * the file offsets of this very program's function and of a missing one;
 * a copy of this program truncated and corrupted, refused without a crash;
 * a FIFO and a device refused without being read.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sdt.h>
#include <unistd.h>

#include "common/probe/elf-probe.h"
#include "common/probe/probe-loc.h"
#include "tests/unit/tap.h"

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
	tap_is_int(parse(LTT_EVENT_UPROBE, "/opt/a b/prog:f"), -EINVAL, "a space in the path");
	tap_is_int(parse(LTT_EVENT_UPROBE, "sdt:/opt/a\vb:p:n"), -EINVAL,
		   "a vertical tab in the path (uprobe_events would split there)");
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

/* Every symbol at file offset 100. */
static int foffs_100(void *ctx, const char *name, uint64_t *ret)
{
	(void)ctx;
	(void)name;
	*ret = 100;
	return 0;
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
	tap_is_int(ltt_sdt_arg_parse("-9223372036854775808@%rax", &a, NULL, NULL), -EINVAL,
		   "a size of LONG_MIN");
	tap_is_int(ltt_sdt_arg_parse("8@var+8x(%rip)", &a, foffs_100, NULL), -EINVAL,
		   "var+8x(%%rip): not a displacement");
	tap_ok(ltt_sdt_arg_parse("8@var-8(%rip)", &a, foffs_100, NULL) == 0 &&
	       a.kind == LTT_KABI_ARG_FOFFS && a.value == 92, "var-8(%%rip): var's offset less 8");
}

long probe_loc_target(long x);

__attribute__((noinline, used)) long probe_loc_target(long x)
{
	STAP_PROBE2(ltt_unit, mangled, x, x + 1);
	return x + 1;
}

static void bail(const char *what, const char *path)
{
	printf("Bail out! %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* Write @len bytes of @data to @path (created or truncated). */
static void write_file(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		bail("can't write", path);
	close(fd);
}

/* Is @err one ltt_elf_probe_resolve() may return for a bad file? */
static int refused(int err)
{
	return err == 0 || err == -ENOENT || err == -ENOEXEC || err == -EOPNOTSUPP;
}

/*
 * A copy of this program, its SDT probe found; then the copy truncated
 * at many lengths and corrupted at many bytes (headers, section headers,
 * the SDT notes most), each resolved without a crash (run it under
 * -fsanitize=address,undefined to see reads out of bounds) and refused or
 * still found.
 */
static void corrupted(const char *self)
{
	char dir[] = "/tmp/test_probe_loc.XXXXXX", path[64], text[128];
	struct ltt_kabi_probe p;
	unsigned int i, bad = 0, found = 0;
	uint8_t *orig, *buf;
	struct stat st;
	size_t size;
	FILE *in;

	if (!mkdtemp(dir) || stat(self, &st))
		bail("no temp dir or no", self);
	size = (size_t)st.st_size;
	orig = malloc(size);
	buf = malloc(size);
	in = fopen(self, "re");
	if (!orig || !buf || !in || fread(orig, 1, size, in) != size)
		bail("can't read", self);
	fclose(in);
	snprintf(path, sizeof(path), "%s/prog", dir);
	write_file(path, orig, size);
	snprintf(text, sizeof(text), "sdt:%s:ltt_unit:mangled", path);
	tap_is_int(parse(LTT_EVENT_UPROBE, text), 0, "an SDT location in a copy of this program");
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), 0, "... found");
	tap_ok(p.offset > 0 && p.nr_args == 2 && p.args[0].size == 8, "... at an offset, 2 arguments");

	srand(1);
	for (i = 0; i < 400; i++) {
		size_t len = i < 64 ? i * 8 : (size_t)rand() % size;
		int err;

		write_file(path, orig, len);
		err = ltt_elf_probe_resolve(&loc, &p, why, sizeof(why));
		bad += !refused(err) || (err == 0 && len < size / 2);
	}
	tap_is_int((int)bad, 0, "400 truncated copies refused (or found), no crash");

	bad = 0;
	for (i = 0; i < 3000; i++) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)orig;
		size_t shtab = eh->e_shoff, shlen = (size_t)eh->e_shnum * sizeof(Elf64_Shdr);
		unsigned int k, n = 1 + (unsigned int)rand() % 8;
		int err;

		memcpy(buf, orig, size);
		for (k = 0; k < n; k++) {
			size_t at = i % 3 == 0 ? (size_t)rand() % sizeof(*eh) :
				    i % 3 == 1 ? shtab + (size_t)rand() % shlen : (size_t)rand() % size;

			buf[at] = (uint8_t)(rand() % 4 ? rand() : (rand() & 1 ? 0xff : 0));
		}
		write_file(path, buf, size);
		err = ltt_elf_probe_resolve(&loc, &p, why, sizeof(why));
		bad += !refused(err);
		found += !err;
	}
	tap_is_int((int)bad, 0, "3000 corrupted copies refused or found (%u found), no crash", found);
	unlink(path);
	rmdir(dir);
	free(orig);
	free(buf);
}

/* A FIFO and a character device: refused, not opened (a FIFO's open would block). */
static void not_regular(void)
{
	char dir[] = "/tmp/test_probe_loc.XXXXXX", path[64];
	struct ltt_kabi_probe p;

	if (!mkdtemp(dir))
		bail("no temp dir", dir);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	if (mkfifo(path, 0600))
		bail("no FIFO", path);
	snprintf(loc.path, sizeof(loc.path), "%s", path);
	loc.kind = LTT_PROBE_ELF;
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), -ENOEXEC, "a FIFO refused");
	tap_ok(strstr(why, "not a regular file") != NULL, "... said: %s", why);
	snprintf(loc.path, sizeof(loc.path), "/dev/zero");
	tap_is_int(ltt_elf_probe_resolve(&loc, &p, why, sizeof(why)), -ENOEXEC, "/dev/zero refused");
	unlink(path);
	rmdir(dir);
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
	corrupted(self);
	not_regular();
}

int main(void)
{
	tap_plan(48 + 13);
	locations();
	formats();
	args();
	files();
	return tap_done();
}
