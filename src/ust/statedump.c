// SPDX-License-Identifier: LGPL-2.1-only
/*
 * statedump.c - the objects a program has loaded, recorded as lttng-ust
 * records them (provider lttng_ust_statedump), so that readers map an
 * instruction pointer to an object, a function and a source line:
 * babeltrace2's debug-info filter reads bin_info (where an object lies,
 * its file), build_id and debug_link (where its separate debug
 * information is) with each event's ip and vpid contexts.
 *
 * A channel gets a dump when the program registers into an active session
 * and each time the channel is enabled (a session starting): before the
 * daemon's message is answered, so the dump precedes the program's events
 * that follow.  Only channels that enable these events get one; with none,
 * nothing is walked.
 *
 * Objects loaded and unloaded later (dlopen(), dlclose()) are recorded as
 * lttng-ust's dl helper has them recorded (provider lttng_ust_lib: load,
 * build_id, debug_link, unload) when liblttng-ust.so.1's
 * lttng_ust_dl_update() calls ltt_ust_objects_update(): each call
 * compares the objects loaded with those of the call before.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

#define LOGLEVEL_DEBUG_LINE 13	/* a plain tracepoint's, as lttng-ust gives these */
#define PROCNAME_LEN 16
#define BUILD_ID_MAX 64		/* SHA-1 ids are 20 bytes; longer ones are cut */
#define PAYLOAD_MAX (PATH_MAX + 64)
#define FIELDS_MAX 6

#define INT_FIELD(n, size, base) \
	{ n, LTT_UST_TYPE_INTEGER, size, 0, base, LTT_UST_ENCODING_NONE, 0, { 0, 0 }, 0, NULL }
#define STRING_FIELD(n) \
	{ n, LTT_UST_TYPE_STRING, 1, 0, 0, LTT_UST_ENCODING_NONE, 0, { 0, 0 }, 0, NULL }

static const struct ltt_ust_field bin_info_fields[] = {
	INT_FIELD("baddr", 8, 16),
	INT_FIELD("memsz", 8, 10),
	STRING_FIELD("path"),
	INT_FIELD("is_pic", 1, 10),
	INT_FIELD("has_build_id", 1, 10),
	INT_FIELD("has_debug_link", 1, 10),
};

static const struct ltt_ust_field build_id_fields[] = {
	INT_FIELD("baddr", 8, 16),
	{ "build_id", LTT_UST_TYPE_SEQUENCE, 1, 0, 16, LTT_UST_ENCODING_NONE, 0, { 0, 0 }, 0, NULL },
};

static const struct ltt_ust_field debug_link_fields[] = {
	INT_FIELD("baddr", 8, 16),
	INT_FIELD("crc", 4, 10),
	STRING_FIELD("filename"),
};

static const struct ltt_ust_field procname_fields[] = {
	{ "procname", LTT_UST_TYPE_ARRAY, 1, (char)-1 < 0, 10, LTT_UST_ENCODING_UTF8, 0, { 0, 0 },
	  PROCNAME_LEN, NULL },
};

static const struct ltt_ust_field load_fields[] = {
	INT_FIELD("baddr", 8, 16),
	INT_FIELD("memsz", 8, 10),
	STRING_FIELD("path"),
	INT_FIELD("has_build_id", 1, 10),
	INT_FIELD("has_debug_link", 1, 10),
};

#define TRACEPOINT(var, name, fields, nr) \
	static struct ltt_ust_tracepoint var = { \
		LTT_UST_TRACEPOINT_ABI, LOGLEVEL_DEBUG_LINE, name, nr, \
		fields, 0, NULL, NULL, { NULL, NULL, NULL }, \
	}
#define NR(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

TRACEPOINT(sd_start, "lttng_ust_statedump:start", NULL, 0);
TRACEPOINT(sd_bin_info, "lttng_ust_statedump:bin_info", bin_info_fields, NR(bin_info_fields));
TRACEPOINT(sd_build_id, "lttng_ust_statedump:build_id", build_id_fields, NR(build_id_fields));
TRACEPOINT(sd_debug_link, "lttng_ust_statedump:debug_link", debug_link_fields,
	   NR(debug_link_fields));
TRACEPOINT(sd_procname, "lttng_ust_statedump:procname", procname_fields, NR(procname_fields));
TRACEPOINT(sd_end, "lttng_ust_statedump:end", NULL, 0);
TRACEPOINT(lib_load, "lttng_ust_lib:load", load_fields, NR(load_fields));
TRACEPOINT(lib_build_id, "lttng_ust_lib:build_id", build_id_fields, NR(build_id_fields));
TRACEPOINT(lib_debug_link, "lttng_ust_lib:debug_link", debug_link_fields, NR(debug_link_fields));
TRACEPOINT(lib_unload, "lttng_ust_lib:unload", build_id_fields, 1);	/* baddr */

static struct ltt_ust_tracepoint *const all[UST_STATEDUMP_EVENTS] = {
	&sd_start, &sd_bin_info, &sd_build_id, &sd_debug_link, &sd_procname, &sd_end,
};

static struct ltt_ust_tracepoint *const lib_events[UST_LIB_EVENTS] = {
	&lib_load, &lib_build_id, &lib_debug_link, &lib_unload,
};

void ust_statedump_tracepoints(struct ltt_ust_tracepoint **out)
{
	memcpy(out, all, sizeof(all));
	memcpy(out + UST_STATEDUMP_EVENTS, lib_events, sizeof(lib_events));
}

/* One loaded object, as bin_info, build_id and debug_link describe it. */
struct object {
	uint64_t baddr, memsz;
	char *path;
	bool is_pic;
	uint32_t build_id_len;	/* 0: none */
	uint8_t build_id[BUILD_ID_MAX];
	char *debug_link;	/* NULL: none */
	uint32_t crc;
};

struct objects {
	struct object *o;
	size_t nr, cap;
	bool failed;		/* out of memory: the dump is cut short */
};

/* An event's payload as the probes lay it out, and its arguments for filters. */
struct payload {
	uint8_t buf[PAYLOAD_MAX];
	size_t len;
	struct ltt_ust_arg args[FIELDS_MAX];
	uint32_t nr;
};

static void put_bytes(struct payload *p, const void *v, size_t len, uint32_t n)
{
	p->args[p->nr++] = (struct ltt_ust_arg){ p->buf + p->len, n };
	memcpy(p->buf + p->len, v, len);
	p->len += len;
}

static void put_u64(struct payload *p, uint64_t v)
{
	put_bytes(p, &v, sizeof(v), 0);
}

static void put_u32(struct payload *p, uint32_t v)
{
	put_bytes(p, &v, sizeof(v), 0);
}

static void put_u8(struct payload *p, uint8_t v)
{
	put_bytes(p, &v, sizeof(v), 0);
}

/* @s (all objects' paths are below PATH_MAX: the payload has room) */
static void put_string(struct payload *p, const char *s)
{
	size_t n = strnlen(s, PATH_MAX - 1);

	put_bytes(p, s, n, (uint32_t)n);
	p->buf[p->len++] = '\0';
}

static void put_sequence(struct payload *p, const uint8_t *v, uint32_t n)
{
	memcpy(p->buf + p->len, &n, sizeof(n));
	p->len += sizeof(n);
	put_bytes(p, v, n, n);
}

/* Record @p as an event of @tp in @chan, if @chan records it. */
static void record(struct ltt_ust_tracepoint *tp, const struct payload *p,
		   const struct ust_channel *chan)
{
	const struct ltt_ust_call call = { p->args, p->nr, 0, 0 };
	struct ltt_ust_ctx ctx;
	void *room;

	if (!tp->state)
		return;
	room = ust_probe_reserve_in(&ctx, tp, p->len, chan, &call);
	if (!room)
		return;
	memcpy(room, p->buf, p->len);
	ltt_ust_probe_commit(&ctx);
}

/* Where an event goes: one channel (@chan: the state dump), or every session. */
struct dest {
	const struct ust_channel *chan;
	uint64_t ip;		/* the call site, for every session */
};

/* Record @p as an event of @tp in every session that records it. */
static void record_all(struct ltt_ust_tracepoint *tp, const struct payload *p, uint64_t ip)
{
	const struct ltt_ust_call call = { p->args, p->nr, 0, ip };
	int state = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	struct ltt_ust_ctx ctx;
	void *room;

	if (!state)
		return;
	if (state & LTT_UST_STATE_CALL)
		room = ltt_ust_probe_reserve_filter(&ctx, tp, p->len, &call);
	else
		room = ltt_ust_probe_reserve(&ctx, tp, p->len);
	if (!room)
		return;
	memcpy(room, p->buf, p->len);
	ltt_ust_probe_commit_copy(&ctx, room, p->len);
}

static void emit(struct ltt_ust_tracepoint *tp, const struct payload *p, const struct dest *d)
{
	if (d->chan)
		record(tp, p, d->chan);
	else
		record_all(tp, p, d->ip);
}

/*
 * The events describing @o: @tps[0] (bin_info, with is_pic, or
 * lttng_ust_lib:load, without), then @tps[1] (build_id) and @tps[2]
 * (debug_link) when @o has them.
 */
static void record_object(struct payload *p, const struct object *o,
			  struct ltt_ust_tracepoint *const tps[3], const struct dest *d)
{
	p->len = p->nr = 0;
	put_u64(p, o->baddr);
	put_u64(p, o->memsz);
	put_string(p, o->path);
	if (tps[0] == &sd_bin_info)
		put_u8(p, o->is_pic);
	put_u8(p, o->build_id_len != 0);
	put_u8(p, o->debug_link != NULL);
	emit(tps[0], p, d);
	if (o->build_id_len) {
		p->len = p->nr = 0;
		put_u64(p, o->baddr);
		put_sequence(p, o->build_id, o->build_id_len);
		emit(tps[1], p, d);
	}
	if (o->debug_link) {
		p->len = p->nr = 0;
		put_u64(p, o->baddr);
		put_u32(p, o->crc);
		put_string(p, o->debug_link);
		emit(tps[2], p, d);
	}
}

/* Does [@vaddr, @vaddr + @len) lie inside a loaded segment of @info's object? */
static bool mapped(const struct dl_phdr_info *info, uint64_t vaddr, uint64_t len)
{
	ElfW(Half) i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr && len <= ph->p_memsz &&
		    vaddr - ph->p_vaddr <= ph->p_memsz - len)
			return true;
	}
	return false;
}

/*
 * The GNU build id among the notes of @phdr, read in memory where a
 * loaded segment holds them.  Sizes are 64-bit: rounding a 32-bit size
 * up can't wrap.
 */
static void read_build_id(const struct dl_phdr_info *info, const ElfW(Phdr) *phdr,
			  struct object *o)
{
	const uint8_t *p = (const uint8_t *)(info->dlpi_addr + phdr->p_vaddr);
	const uint8_t *end = p + phdr->p_filesz;

	if (!mapped(info, phdr->p_vaddr, phdr->p_filesz))
		return;
	while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)p;
		uint64_t name = ((uint64_t)n->n_namesz + 3) & ~(uint64_t)3;
		uint64_t desc = ((uint64_t)n->n_descsz + 3) & ~(uint64_t)3;

		p += sizeof(*n);
		if (name > (uint64_t)(end - p) || desc > (uint64_t)(end - p) - name)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(p, "GNU", 4) &&
		    n->n_descsz > 0) {
			o->build_id_len = n->n_descsz < BUILD_ID_MAX ? n->n_descsz : BUILD_ID_MAX;
			memcpy(o->build_id, p + name, o->build_id_len);
			return;
		}
		p += name + desc;
	}
}

/* dl_iterate_phdr()'s callback: where each object lies, and its build id. */
static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct objects *objs = arg;
	uint64_t low = UINT64_MAX, high = 0;
	bool header_mapped = false;
	char exe[PATH_MAX];
	const char *path = info->dlpi_name;
	const ElfW(Ehdr) *eh;
	struct object *o;
	ElfW(Half) i;
	ssize_t n;

	(void)size;
	if (!path || !path[0]) {
		/* the program itself */
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return 0;
		exe[n] = '\0';
		path = exe;
	}
	if (path[0] != '/') {
		/* dlopen("./x.so"), a relative LD_LIBRARY_PATH; the vDSO has no file */
		if (!realpath(path, exe))
			return 0;
		path = exe;
	}
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_vaddr < low) {
			low = ph->p_vaddr;
			header_mapped = ph->p_offset == 0;
		}
		if (ph->p_vaddr + ph->p_memsz > high)
			high = ph->p_vaddr + ph->p_memsz;
	}
	if (low >= high)
		return 0;
	if (objs->nr == objs->cap) {
		size_t cap = objs->cap ? 2 * objs->cap : 32;
		struct object *grown = realloc(objs->o, cap * sizeof(*grown));

		if (!grown) {
			objs->failed = true;
			return 1;
		}
		objs->o = grown;
		objs->cap = cap;
	}
	o = &objs->o[objs->nr];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path) {
		objs->failed = true;
		return 1;
	}
	o->baddr = info->dlpi_addr + low;
	o->memsz = high - low;
	/* position-independent: loaded anywhere, so ips are offsets from baddr */
	eh = (const ElfW(Ehdr) *)(uintptr_t)o->baddr;
	o->is_pic = header_mapped ? eh->e_type == ET_DYN : info->dlpi_addr != 0;
	for (i = 0; i < info->dlpi_phnum && !o->build_id_len; i++)
		if (info->dlpi_phdr[i].p_type == PT_NOTE)
			read_build_id(info, &info->dlpi_phdr[i], o);
	objs->nr++;
	return 0;
}

/* Read exactly @len bytes at @off of @fd. */
static bool read_at(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off) == (ssize_t)len;
}

/* Section headers read at once by read_debug_link(): 4 KiB on the stack. */
#define SHDR_BATCH 64
/* The most of a section-name table read_debug_link() reads at once. */
#define SHSTRTAB_MAX ((ElfW(Xword))1 << 16)

/*
 * The .gnu_debuglink section of @o's file (not loaded: read from the
 * file): the name of its separate debug file, then its CRC-32, 4-aligned.
 * The section headers are read SHDR_BATCH at a time and the section-name
 * table in one read (the start of it, past SHSTRTAB_MAX): a few reads an
 * object, not two a section (the state dump is on a program's start-up
 * path: bench/README.md, "Start-up of an instrumented program").
 */
static void read_debug_link(struct object *o)
{
	int fd = open(o->path, O_RDONLY | O_CLOEXEC);
	ElfW(Ehdr) eh;
	ElfW(Shdr) strtab, sh[SHDR_BATCH];
	static const char want[] = ".gnu_debuglink";
	char *names = NULL, *data = NULL;
	ElfW(Xword) names_len;
	size_t end;
	ElfW(Half) i, j, n;

	if (fd < 0)
		return;
	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shstrndx >= eh.e_shnum ||
	    !read_at(fd, &strtab, sizeof(strtab),
		     (off_t)(eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(strtab))))
		goto out;
	names_len = strtab.sh_size < SHSTRTAB_MAX ? strtab.sh_size : SHSTRTAB_MAX;
	names = malloc(names_len + 1);
	if (!names || !read_at(fd, names, names_len, (off_t)strtab.sh_offset))
		goto out;
	names[names_len] = 0;	/* a name running off the end stops here */
	for (i = 0; i < eh.e_shnum; i += n) {
		n = eh.e_shnum - i < SHDR_BATCH ? eh.e_shnum - i : SHDR_BATCH;
		if (!read_at(fd, sh, n * sizeof(sh[0]),
			     (off_t)(eh.e_shoff + (uint64_t)i * sizeof(sh[0]))))
			goto out;
		for (j = 0; j < n; j++) {
			if (sh[j].sh_type != SHT_PROGBITS || sh[j].sh_name >= names_len ||
			    strcmp(names + sh[j].sh_name, want))
				continue;
			if (sh[j].sh_size < 8 || sh[j].sh_size > PATH_MAX)
				goto out;
			data = malloc(sh[j].sh_size);
			if (!data || !read_at(fd, data, sh[j].sh_size, (off_t)sh[j].sh_offset))
				goto out;
			end = strnlen(data, sh[j].sh_size);
			/* the name, its NUL, padding to 4, then the CRC */
			if (end == 0 || ((end + 4) & ~(size_t)3) + 4 > sh[j].sh_size)
				goto out;
			memcpy(&o->crc, data + ((end + 4) & ~(size_t)3), sizeof(o->crc));
			o->debug_link = data;
			data = NULL;
			goto out;
		}
	}
out:
	free(names);
	free(data);
	close(fd);
}

static bool any_enabled(void)
{
	unsigned int i;

	for (i = 0; i < UST_STATEDUMP_EVENTS; i++)
		if (all[i]->state)
			return true;
	return false;
}

static void dump_into(const struct objects *objs, const struct ust_channel *chan)
{
	static struct ltt_ust_tracepoint *const dump_events[3] = {
		&sd_bin_info, &sd_build_id, &sd_debug_link,
	};
	const struct dest dest = { chan, 0 };
	struct payload *p = malloc(sizeof(*p));
	char procname[PROCNAME_LEN + 1] = "";
	size_t i;

	if (!p)
		return;
	p->len = p->nr = 0;
	record(&sd_start, p, chan);
	for (i = 0; i < objs->nr; i++)
		record_object(p, &objs->o[i], dump_events, &dest);
	p->len = p->nr = 0;
	prctl(PR_GET_NAME, procname, 0, 0, 0);
	put_bytes(p, procname, PROCNAME_LEN, PROCNAME_LEN);
	record(&sd_procname, p, chan);
	p->len = p->nr = 0;
	record(&sd_end, p, chan);
	free(p);
}

void ust_statedump(struct ust_channel *const *chans, unsigned int n)
{
	struct objects objs = { NULL, 0, 0, false };
	unsigned int c;
	size_t i;

	if (!n || !any_enabled())
		return;
	dl_iterate_phdr(add_object, &objs);
	if (objs.failed)
		ust_debug("state dump: out of memory, %zu objects described", objs.nr);
	for (i = 0; i < objs.nr; i++)
		read_debug_link(&objs.o[i]);
	for (c = 0; c < n; c++)
		dump_into(&objs, chans[c]);
	for (i = 0; i < objs.nr; i++) {
		free(objs.o[i].path);
		free(objs.o[i].debug_link);
	}
	free(objs.o);
}

/* ---- objects loaded and unloaded since: ltt_ust_objects_update() ---- */

static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *known;		/* the base addresses of the last call's objects */
static size_t nr_known;
static bool learned;		/* a call was made */

static bool has_baddr(const uint64_t *v, size_t n, uint64_t baddr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == baddr)
			return true;
	return false;
}

/* Record what changed from @known to @objs; under known_lock. */
static void record_changes(struct objects *objs, uint64_t ip)
{
	static struct ltt_ust_tracepoint *const load_events[3] = {
		&lib_load, &lib_build_id, &lib_debug_link,
	};
	const struct dest dest = { NULL, ip };
	struct payload *p = malloc(sizeof(*p));
	size_t i, j;

	if (!p)
		return;
	for (i = 0; i < objs->nr; i++) {
		if (has_baddr(known, nr_known, objs->o[i].baddr))
			continue;
		read_debug_link(&objs->o[i]);
		record_object(p, &objs->o[i], load_events, &dest);
	}
	for (i = 0; i < nr_known; i++) {
		for (j = 0; j < objs->nr && objs->o[j].baddr != known[i]; j++)
			;
		if (j < objs->nr)
			continue;
		p->len = p->nr = 0;
		put_u64(p, known[i]);
		record_all(&lib_unload, p, ip);
	}
	free(p);
}

void ltt_ust_objects_update(uint64_t ip)
{
	struct objects objs = { NULL, 0, 0, false };
	uint64_t *now = NULL;
	size_t i;

	pthread_mutex_lock(&known_lock);
	dl_iterate_phdr(add_object, &objs);
	if (objs.nr)
		now = malloc(objs.nr * sizeof(*now));
	if (objs.failed || !now) {
		ust_debug("loaded objects: out of memory, their load and unload events are not "
			  "recorded this time");
		free(now);
	} else {
		if (learned)
			record_changes(&objs, ip);
		for (i = 0; i < objs.nr; i++)
			now[i] = objs.o[i].baddr;
		free(known);
		known = now;
		nr_known = objs.nr;
		learned = true;
	}
	pthread_mutex_unlock(&known_lock);
	for (i = 0; i < objs.nr; i++) {
		free(objs.o[i].path);
		free(objs.o[i].debug_link);
	}
	free(objs.o);
}
