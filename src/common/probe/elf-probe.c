// SPDX-License-Identifier: LGPL-2.1-only
/*
 * elf-probe.c - where a user-space probe goes in an ELF file (see
 * elf-probe.h).
 *
 * The file is read into memory (not mapped: a file its owner truncates
 * while it is mapped would kill the daemon with SIGBUS) and every offset,
 * size and count read from it is checked against its size before use:
 * the file is the user's, and may be anything.  An address (a symbol's value, an SDT
 * note's pc or semaphore) becomes a file offset through the PT_LOAD
 * segment that holds it: offset = address - p_vaddr + p_offset.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/sock.h"
#include "common/probe/elf-probe.h"

#define SDT_NOTE_TYPE 3
#define SDT_NOTE_NAME "stapsdt"
#define SDT_MAX_ARGS 12
#define ELF_MAX_SIZE (512ULL << 20)	/* the largest file read */

struct elf_file {
	const uint8_t *data;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;	/* eh->e_shnum of them, checked */
	const Elf64_Phdr *ph;	/* eh->e_phnum of them, checked */
};

/* Is [off, off + len) inside the file? */
static bool in_file(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

static int elf_check(struct elf_file *f)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->data;

	if (f->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
#else
	    eh->e_ident[EI_DATA] != ELFDATA2MSB ||
#endif
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN))
		return -ENOEXEC;
	if ((eh->e_shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) ||
			     !in_file(f, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))) ||
	    (eh->e_phnum && (eh->e_phentsize != sizeof(Elf64_Phdr) ||
			     !in_file(f, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))) ||
	    eh->e_shoff % 8 || eh->e_phoff % 8 || eh->e_shstrndx >= (eh->e_shnum ? eh->e_shnum : 1))
		return -ENOEXEC;
	f->eh = eh;
	f->sh = (const Elf64_Shdr *)(f->data + eh->e_shoff);
	f->ph = (const Elf64_Phdr *)(f->data + eh->e_phoff);
	return 0;
}

/* The file offset of address @addr, through its PT_LOAD segment. */
static int addr_to_offset(const struct elf_file *f, uint64_t addr, uint64_t *ret)
{
	unsigned int i;

	for (i = 0; i < f->eh->e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type == PT_LOAD && addr >= p->p_vaddr && addr - p->p_vaddr < p->p_memsz) {
			if (addr - p->p_vaddr >= p->p_filesz)
				return -ENOENT;	/* in .bss: no file offset */
			*ret = addr - p->p_vaddr + p->p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* A NUL-terminated string at @off of section @sec (a string table), or NULL. */
static const char *str_at(const struct elf_file *f, const Elf64_Shdr *sec, uint64_t off)
{
	const char *s;

	if (sec->sh_type != SHT_STRTAB || !in_file(f, sec->sh_offset, sec->sh_size) ||
	    off >= sec->sh_size)
		return NULL;
	s = (const char *)f->data + sec->sh_offset + off;
	return memchr(s, '\0', sec->sh_size - off) ? s : NULL;
}

/* The section called @name, or NULL. */
static const Elf64_Shdr *section(const struct elf_file *f, const char *name)
{
	const Elf64_Shdr *names = &f->sh[f->eh->e_shstrndx];
	unsigned int i;

	for (i = 0; f->eh->e_shnum && i < f->eh->e_shnum; i++) {
		const char *s = str_at(f, names, f->sh[i].sh_name);

		if (s && !strcmp(s, name))
			return &f->sh[i];
	}
	return NULL;
}

/* Symbol @name's value in the symbol tables (.symtab, then .dynsym); @func: functions only. */
static int symbol(const struct elf_file *f, const char *name, bool func, uint64_t *ret)
{
	unsigned int i, pass;
	uint64_t j, n;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < f->eh->e_shnum; i++) {
			const Elf64_Shdr *s = &f->sh[i];
			const Elf64_Sym *syms;

			if (s->sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) ||
			    s->sh_entsize != sizeof(Elf64_Sym) || s->sh_link >= f->eh->e_shnum ||
			    !in_file(f, s->sh_offset, s->sh_size) || s->sh_offset % 8)
				continue;
			syms = (const Elf64_Sym *)(f->data + s->sh_offset);
			n = s->sh_size / sizeof(Elf64_Sym);
			for (j = 0; j < n; j++) {
				const char *sn = str_at(f, &f->sh[s->sh_link], syms[j].st_name);
				int type = ELF64_ST_TYPE(syms[j].st_info);

				if (!sn || strcmp(sn, name) || syms[j].st_shndx == SHN_UNDEF ||
				    (func ? type != STT_FUNC && type != STT_GNU_IFUNC :
				     type != STT_OBJECT))
					continue;
				*ret = syms[j].st_value;
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* ---- SDT arguments ---- */

/* x86-64's registers as SDT writes them, and their names in pt_regs. */
static const char *pt_reg(const char *asm_name)
{
	static const struct {
		const char *names[4];	/* 64, 32, 16, 8 bits */
		const char *pt;
	} regs[] = {
		{ { "rax", "eax", "ax", "al" }, "ax" }, { { "rbx", "ebx", "bx", "bl" }, "bx" },
		{ { "rcx", "ecx", "cx", "cl" }, "cx" }, { { "rdx", "edx", "dx", "dl" }, "dx" },
		{ { "rsi", "esi", "si", "sil" }, "si" }, { { "rdi", "edi", "di", "dil" }, "di" },
		{ { "rbp", "ebp", "bp", "bpl" }, "bp" }, { { "rsp", "esp", "sp", "spl" }, "sp" },
		{ { "r8", "r8d", "r8w", "r8b" }, "r8" }, { { "r9", "r9d", "r9w", "r9b" }, "r9" },
		{ { "r10", "r10d", "r10w", "r10b" }, "r10" },
		{ { "r11", "r11d", "r11w", "r11b" }, "r11" },
		{ { "r12", "r12d", "r12w", "r12b" }, "r12" },
		{ { "r13", "r13d", "r13w", "r13b" }, "r13" },
		{ { "r14", "r14d", "r14w", "r14b" }, "r14" },
		{ { "r15", "r15d", "r15w", "r15b" }, "r15" },
	};
	size_t i, j;

	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (j = 0; j < 4; j++)
			if (!strcmp(asm_name, regs[i].names[j]))
				return regs[i].pt;
	return NULL;
}

/* "%reg)" or "%reg" at @s, the register's pt_regs name into @ret; @s after it. */
static int parse_reg(const char **s, char ret[LTT_KABI_REG_MAX])
{
	char name[8];
	size_t len = 0;
	const char *pt;

	if (**s != '%')
		return -EINVAL;
	(*s)++;
	while (((**s >= 'a' && **s <= 'z') || (**s >= '0' && **s <= '9')) && len < sizeof(name) - 1)
		name[len++] = *(*s)++;
	name[len] = '\0';
	if (!strcmp(name, "rip"))
		return -EOPNOTSUPP;
	pt = pt_reg(name);
	if (!pt)
		return -EOPNOTSUPP;
	snprintf(ret, LTT_KABI_REG_MAX, "%s", pt);
	return 0;
}

int ltt_sdt_arg_parse(const char *text, struct ltt_kabi_probe_arg *ret,
		      int (*sym_foffs)(void *ctx, const char *name, uint64_t *ret), void *ctx)
{
	const char *s = text, *open;
	char sym[LTT_PROBE_SYMBOL_MAX];
	uint64_t off;
	char *end;
	long size;
	int err;

	memset(ret, 0, sizeof(*ret));
	size = strtol(s, &end, 10);
	if (end == s || *end != '@' || size < -8 || size > 8 || (labs(size) != 1 && labs(size) != 2 && labs(size) != 4 &&
					 labs(size) != 8))
		return -EINVAL;
	ret->size = (uint8_t)labs(size);
	ret->is_signed = size < 0;
	s = end + 1;
	if (*s == '%') {
		ret->kind = LTT_KABI_ARG_REG;
		err = parse_reg(&s, ret->reg);
		return err ? err : *s ? -EINVAL : 0;
	}
	if (*s == '$') {
		ret->kind = LTT_KABI_ARG_CONST;
		ret->value = strtoll(s + 1, &end, 0);
		return end == s + 1 || *end ? -EINVAL : 0;
	}
	open = strchr(s, '(');
	if (!open || open[strlen(open) - 1] != ')' || strchr(open, ','))
		return open && strchr(open, ',') ? -EOPNOTSUPP : -EINVAL;	/* (base,index,scale) */
	if (!strncmp(open, "(%rip)", 6) && open[6] == '\0') {
		/* a global variable: "name(%rip)" or "name+8(%rip)" */
		size_t len = strcspn(s, "+-(");

		if (!sym_foffs || len == 0 || len >= sizeof(sym))
			return -EOPNOTSUPP;
		memcpy(sym, s, len);
		sym[len] = '\0';
		if (s[len] != '(' && ((void)strtoll(s + len, &end, 0), end != open))
			return -EINVAL;	/* "name+8x(%rip)" */
		if (sym_foffs(ctx, sym, &off))
			return -EOPNOTSUPP;
		ret->kind = LTT_KABI_ARG_FOFFS;
		ret->value = (int64_t)(off + (uint64_t)(s[len] == '(' ? 0 : strtoll(s + len, NULL, 0)));
		return 0;
	}
	ret->kind = LTT_KABI_ARG_MEM;
	ret->value = open == s ? 0 : strtoll(s, &end, 0);
	if (open != s && end != open)
		return -EOPNOTSUPP;	/* a symbol's address plus a register */
	s = open + 1;
	err = parse_reg(&s, ret->reg);
	return err ? err : strcmp(s, ")") ? -EINVAL : 0;
}

static int var_foffs(void *ctx, const char *name, uint64_t *ret)
{
	const struct elf_file *f = ctx;
	uint64_t addr;

	return symbol(f, name, false, &addr) ? -ENOENT : addr_to_offset(f, addr, ret);
}

/* The arguments text of an SDT note ("-4@%edx 8@-16(%rbp)") into @ret. */
static int sdt_args(const struct elf_file *f, const char *text, struct ltt_kabi_probe *ret,
		    char *why, size_t why_size)
{
	char word[256];
	size_t len;
	int err;

	ret->nr_args = 0;
	while (*text) {
		text += strspn(text, " ");
		len = strcspn(text, " ");
		if (!len)
			break;
		if (len >= sizeof(word) || ret->nr_args == SDT_MAX_ARGS) {
			snprintf(why, why_size, "its arguments are more than 12 or too long");
			return -EOPNOTSUPP;
		}
		memcpy(word, text, len);
		word[len] = '\0';
		err = ltt_sdt_arg_parse(word, &ret->args[ret->nr_args], var_foffs, (void *)f);
		if (err) {
			snprintf(why, why_size, "its argument %u, '%s', is not one ltt can fetch",
				 ret->nr_args + 1, word);
			return -EOPNOTSUPP;
		}
		ret->nr_args++;
		text += len;
	}
	return 0;
}

/* ---- SDT notes ---- */

struct sdt_note {
	uint64_t pc, base, semaphore;
	const char *provider, *name, *args;
};

/* The note of @desc (@len bytes) as an SDT note, or -EINVAL. */
static int sdt_note_read(const uint8_t *desc, size_t len, struct sdt_note *ret)
{
	const char *s = (const char *)desc + 24, *end = (const char *)desc + len;

	if (len < 24 + 3)
		return -EINVAL;
	memcpy(&ret->pc, desc, 8);
	memcpy(&ret->base, desc + 8, 8);
	memcpy(&ret->semaphore, desc + 16, 8);
	ret->provider = s;
	s = memchr(s, '\0', (size_t)(end - s));
	if (!s++ || s >= end)
		return -EINVAL;
	ret->name = s;
	s = memchr(s, '\0', (size_t)(end - s));
	if (!s++ || s >= end)
		return -EINVAL;
	ret->args = s;
	return memchr(s, '\0', (size_t)(end - s)) ? 0 : -EINVAL;
}

/* Find SDT note @provider:@name in .note.stapsdt. */
static int sdt_find(const struct elf_file *f, const char *provider, const char *name,
		    struct sdt_note *ret)
{
	const Elf64_Shdr *notes = section(f, ".note.stapsdt");
	uint64_t off, end;

	if (!notes || notes->sh_type != SHT_NOTE || !in_file(f, notes->sh_offset, notes->sh_size) ||
	    notes->sh_offset % 4)
		return -ENOENT;
	off = notes->sh_offset;
	end = off + notes->sh_size;
	while (off + sizeof(Elf64_Nhdr) <= end) {
		const Elf64_Nhdr *n = (const Elf64_Nhdr *)(f->data + off);
		uint64_t name_off = off + sizeof(*n);
		uint64_t desc_off = name_off + ((n->n_namesz + 3ULL) & ~3ULL);
		uint64_t next = desc_off + ((n->n_descsz + 3ULL) & ~3ULL);

		if (next > end)
			return -ENOENT;
		if (n->n_type == SDT_NOTE_TYPE && n->n_namesz == sizeof(SDT_NOTE_NAME) &&
		    !memcmp(f->data + name_off, SDT_NOTE_NAME, sizeof(SDT_NOTE_NAME)) &&
		    !sdt_note_read(f->data + desc_off, n->n_descsz, ret) &&
		    !strcmp(ret->provider, provider) && !strcmp(ret->name, name))
			return 0;
		off = next;
	}
	return -ENOENT;
}

static int resolve_sdt(const struct elf_file *f, const struct ltt_probe_loc *loc,
		       struct ltt_kabi_probe *ret, char *why, size_t why_size)
{
	const Elf64_Shdr *base = section(f, ".stapsdt.base");
	struct sdt_note note;
	uint64_t pc, off = 0, sem = 0;

	if (sdt_find(f, loc->provider, loc->symbol, &note)) {
		snprintf(why, why_size, "%s has no SDT probe %s:%s", loc->path, loc->provider,
			 loc->symbol);
		return -ENOENT;
	}
	/* A file prelinked after it was built: its notes' addresses moved with .stapsdt.base. */
	pc = note.pc + (base && note.base ? base->sh_addr - note.base : 0);
	if (addr_to_offset(f, pc, &off) ||
	    (note.semaphore && addr_to_offset(f, note.semaphore + (base && note.base ?
					      base->sh_addr - note.base : 0), &sem))) {
		snprintf(why, why_size, "SDT probe %s:%s of %s is at no place of the file",
			 loc->provider, loc->symbol, loc->path);
		return -ENOEXEC;
	}
	ret->offset = off;
	ret->ref_ctr_offset = sem;
	return sdt_args(f, note.args, ret, why, why_size);
}

static int resolve(const struct elf_file *f, const struct ltt_probe_loc *loc,
		   struct ltt_kabi_probe *ret, char *why, size_t why_size)
{
	uint64_t addr, off;

	if (loc->kind == LTT_PROBE_SDT)
		return resolve_sdt(f, loc, ret, why, why_size);
	if (symbol(f, loc->symbol, true, &addr)) {
		snprintf(why, why_size, "%s has no function %s", loc->path, loc->symbol);
		return -ENOENT;
	}
	if (addr_to_offset(f, addr, &off)) {
		snprintf(why, why_size, "function %s of %s is at no place of the file", loc->symbol,
			 loc->path);
		return -ENOEXEC;
	}
	ret->offset = off;
	return 0;
}

/* Read regular file @fd, @path's (at most ELF_MAX_SIZE bytes), into @f; @why on failure. */
static int elf_read_fd(int fd, const char *path, struct elf_file *f, char *why, size_t why_size)
{
	void *data;
	size_t len;
	int err = ltt_io_read_file(fd, ELF_MAX_SIZE, &data, &len);

	if (err == -ENOEXEC)
		snprintf(why, why_size, "%s: not a regular file", path);
	else if (err == -EFBIG)
		snprintf(why, why_size, "%s: larger than %llu MiB, the most ltt reads to place a probe",
			 path, ELF_MAX_SIZE >> 20);
	else if (err)
		snprintf(why, why_size, "%s: %s", path, strerror(-err));
	if (err)
		return err;
	f->data = data;
	f->size = len;
	return 0;
}

/* Read regular file @path into @f (elf_read_fd()); @why on failure. */
static int elf_read(const char *path, struct elf_file *f, char *why, size_t why_size)
{
	struct stat st;
	int fd, err;

	/* Not even opened unless regular: opening a device or a FIFO can block or act. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "%s: not a regular file", path);
		return -ENOEXEC;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		snprintf(why, why_size, "%s: %s", path, strerror(-err));
		return err == -ENOTDIR ? -ENOENT : err;
	}
	err = elf_read_fd(fd, path, f, why, why_size);
	close(fd);
	return err;
}

int ltt_elf_probe_resolve_fd(const struct ltt_probe_loc *loc, int fd, struct ltt_kabi_probe *ret,
			     char *why, size_t why_size)
{
	struct elf_file f = { 0 };
	int err;

	if (loc->kind != LTT_PROBE_ELF && loc->kind != LTT_PROBE_SDT)
		return -EINVAL;
	err = fd < 0 ? elf_read(loc->path, &f, why, why_size) :
		       elf_read_fd(fd, loc->path, &f, why, why_size);
	if (err)
		return err;
	memset(ret, 0, sizeof(*ret));
	ret->instrumentation = LTT_KABI_UPROBE;
	snprintf(ret->path, sizeof(ret->path), "%s", loc->path);
	err = elf_check(&f);
	if (err)
		snprintf(why, why_size, "%s: not a 64-bit ELF executable or library of this machine",
			 loc->path);
	else
		err = resolve(&f, loc, ret, why, why_size);
	free((void *)f.data);
	return err;
}

int ltt_elf_probe_resolve(const struct ltt_probe_loc *loc, struct ltt_kabi_probe *ret,
			  char *why, size_t why_size)
{
	return ltt_elf_probe_resolve_fd(loc, -1, ret, why, why_size);
}
