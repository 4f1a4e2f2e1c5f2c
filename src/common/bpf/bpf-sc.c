// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf-sc.c - the BPF system call source's loader: see bpf-sc.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/base/log.h"
#include "common/bpf/bpf-sc.h"
#include "syscalls.skel.h"	/* generated in the build tree: the program, embedded */

/* The C library's system call numbers, by name (generated at build time). */
static const struct {
	const char *name;
	int nr;
} numbers[] = {
#include "syscall-nrs.h"
};

/* ftrace's names (SYSCALL_DEFINE's) that <sys/syscall.h> spells otherwise. */
static const struct {
	const char *ftrace, *libc;
} spellings[] = {
	{ "sendfile64", "sendfile" },
	{ "umount", "umount2" },
};

static int number_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (!strcmp(numbers[i].name, name))
			return numbers[i].nr;
	return -ENOENT;
}

int ltt_bpf_sc_number(const char *name)
{
	int nr = number_of(name);
	size_t i;

	/* newstat, newlstat, newfstat, newuname: stat, lstat, fstat, uname */
	if (nr < 0 && !strncmp(name, "new", 3))
		nr = number_of(name + 3);
	for (i = 0; nr < 0 && i < sizeof(spellings) / sizeof(spellings[0]); i++)
		if (!strcmp(spellings[i].ftrace, name))
			nr = number_of(spellings[i].libc);
	return nr < LTT_BPF_SC_MAX ? nr : -ENOENT;
}

struct ltt_bpf_sc {
	struct ltt_syscalls *skel;
	int *rings;		/* by CPU */
	uint32_t nr_cpus;
	/* the exit's program, attached while some call's exit is the program's */
	struct bpf_link *exit_link;
	uint32_t exits;
};

/* libbpf's messages: its warnings at debug level (a refusal is said by us). */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];

	if (level == LIBBPF_DEBUG || ltt_log_level() < LTT_LOG_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	LTT_DBG("libbpf: %s", line);
	return 0;
}

/* A sentence for the kernel's @err at @step. */
static void say_why(int err, const char *step, char *why, size_t why_size)
{
	const char *hint = "";

	if (!why || !why_size)
		return;
	if (err == -EPERM || err == -EACCES)
		hint = ": BPF needs root (CAP_BPF and CAP_PERFMON); kernel.unprivileged_bpf_disabled does not matter to root, lockdown in confidentiality mode does";
	else if (err == -ENOENT || err == -ESRCH)
		hint = ": the kernel needs BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF) and BTF-typed raw tracepoints (Linux 5.5)";
	else if (err == -EINVAL || err == -EOPNOTSUPP)
		hint = ": the kernel needs BPF ring buffers (Linux 5.8) and map-in-map rings";
	snprintf(why, why_size, "the BPF program could not be %s (%s)%s", step, strerror(-err),
		 hint);
}

void ltt_bpf_sc_destroy(struct ltt_bpf_sc *b)
{
	uint32_t i;

	if (!b)
		return;
	for (i = 0; b->rings && i < b->nr_cpus; i++)
		if (b->rings[i] >= 0)
			close(b->rings[i]);
	free(b->rings);
	bpf_link__destroy(b->exit_link);
	ltt_syscalls__destroy(b->skel);
	free(b);
}

/* Each CPU's ring (before the load: the first is the template). */
static int make_rings(struct ltt_bpf_sc *b, uint32_t ring_bytes)
{
	uint32_t i;

	for (i = 0; i < b->nr_cpus; i++) {
		b->rings[i] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ltt_ring", 0, 0, ring_bytes,
					     NULL);
		if (b->rings[i] < 0)
			return -errno;
	}
	return 0;
}

/* The rings in the program's array of rings, by CPU (after the load). */
static int fill_rings(struct ltt_bpf_sc *b)
{
	int outer = bpf_map__fd(b->skel->maps.rings);
	uint32_t i;

	for (i = 0; i < b->nr_cpus; i++)
		if (bpf_map_update_elem(outer, &i, &b->rings[i], BPF_ANY))
			return -errno;
	return 0;
}

int ltt_bpf_sc_create(uint32_t nr_cpus, uint32_t ring_bytes, struct ltt_bpf_sc **ret,
		      char *why, size_t why_size)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ltt_bpf_sc *b;
	const char *step = "opened";
	uint32_t i;
	int err;

	if (!ret || !nr_cpus || nr_cpus > 65536 || ring_bytes < (uint32_t)page ||
	    (ring_bytes & (ring_bytes - 1)))
		return -EINVAL;
	libbpf_set_print(libbpf_print);
	b = calloc(1, sizeof(*b));
	if (b)
		b->rings = calloc(nr_cpus, sizeof(*b->rings));
	if (!b || !b->rings) {
		free(b);
		return -ENOMEM;
	}
	b->nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++)
		b->rings[i] = -1;
	b->skel = ltt_syscalls__open();
	if (!b->skel) {
		err = -errno;
		say_why(err, step, why, why_size);
		ltt_bpf_sc_destroy(b);
		return err;
	}
	/* sys_exit costs every call: attached only while an exit is enabled */
	bpf_program__set_autoattach(b->skel->progs.ltt_sys_exit, false);
	err = bpf_map__set_max_entries(b->skel->maps.rings, nr_cpus);
	if (!err)
		err = bpf_map__set_max_entries(b->skel->maps.lost, nr_cpus);
	/* the rings' template: the kernel takes only rings of its size */
	if (!err)
		err = make_rings(b, ring_bytes);
	if (!err)
		err = bpf_map__set_inner_map_fd(b->skel->maps.rings, b->rings[0]);
	if (!err) {
		step = "loaded";
		err = ltt_syscalls__load(b->skel);
	}
	if (!err) {
		step = "given its rings";
		err = fill_rings(b);
	}
	if (!err) {
		step = "attached to sys_enter";
		err = ltt_syscalls__attach(b->skel);
	}
	if (err) {
		say_why(err < 0 ? err : -EINVAL, step, why, why_size);
		ltt_bpf_sc_destroy(b);
		return err < 0 ? err : -EINVAL;
	}
	*ret = b;
	return 0;
}

int ltt_bpf_sc_available(char *why, size_t why_size)
{
	struct ltt_bpf_sc *b;
	int ret;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, why_size,
			 "this kernel has no BTF (/sys/kernel/btf/vmlinux: %s): the BPF program needs CONFIG_DEBUG_INFO_BTF",
			 strerror(errno));
		return -ENOENT;
	}
	ret = ltt_bpf_sc_create(1, (uint32_t)sysconf(_SC_PAGESIZE), &b, why, why_size);
	ltt_bpf_sc_destroy(b);
	return ret;
}

/* One exit more (@more) or less given to the program: its attachment follows. */
static int count_exit(struct ltt_bpf_sc *b, bool more)
{
	struct bpf_link *link;

	if (more && !b->exits) {
		link = bpf_program__attach(b->skel->progs.ltt_sys_exit);
		if (!link)
			return -errno;
		b->exit_link = link;
	}
	b->exits += more ? 1 : -1;
	if (!b->exits) {
		bpf_link__destroy(b->exit_link);
		b->exit_link = NULL;
	}
	return 0;
}

int ltt_bpf_sc_get(const struct ltt_bpf_sc *b, uint32_t nr, struct ltt_bpf_call *ret)
{
	if (!b || !ret || nr >= LTT_BPF_SC_MAX)
		return -EINVAL;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.calls), &nr, ret))
		return -errno;
	return 0;
}

int ltt_bpf_sc_set(struct ltt_bpf_sc *b, uint32_t nr, const struct ltt_bpf_call *call)
{
	struct ltt_bpf_call was = { 0 };
	int fd, ret;

	if (!b || !call || nr >= LTT_BPF_SC_MAX || call->nargs > LTT_BPF_ARGS)
		return -EINVAL;
	ret = ltt_bpf_sc_get(b, nr, &was);
	if (ret)
		return ret;
	fd = bpf_map__fd(b->skel->maps.calls);
	if (call->exit_id && !was.exit_id)
		ret = count_exit(b, true);
	if (!ret && bpf_map_update_elem(fd, &nr, call, BPF_ANY)) {
		ret = -errno;
		if (call->exit_id && !was.exit_id)
			count_exit(b, false);
		return ret;
	}
	if (!ret && !call->exit_id && was.exit_id)
		count_exit(b, false);
	return ret;
}

static int set_ctl(struct ltt_bpf_sc *b, uint32_t slot, uint64_t v)
{
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.ctl), &slot, &v, BPF_ANY))
		return -errno;
	return 0;
}

int ltt_bpf_sc_switch(struct ltt_bpf_sc *b, bool on)
{
	return b ? set_ctl(b, LTT_BPF_CTL_ON, on) : -EINVAL;
}

int ltt_bpf_sc_track(struct ltt_bpf_sc *b, uint32_t track, const uint32_t *ids, uint32_t nr)
{
	int fd, ret;
	uint32_t i, key;
	uint8_t one = 1;

	if (!b || track > LTT_BPF_TRACK_NONE || nr > LTT_BPF_PIDS_MAX || (nr && !ids))
		return -EINVAL;
	fd = bpf_map__fd(b->skel->maps.pids);
	ret = set_ctl(b, LTT_BPF_CTL_TRACK, LTT_BPF_TRACK_NONE);	/* while it changes */
	while (!ret && !bpf_map_get_next_key(fd, NULL, &key))
		if (bpf_map_delete_elem(fd, &key))
			ret = -errno;
	for (i = 0; !ret && track == LTT_BPF_TRACK_SET && i < nr; i++)
		if (bpf_map_update_elem(fd, &ids[i], &one, BPF_ANY))
			ret = -errno;
	return ret ? ret : set_ctl(b, LTT_BPF_CTL_TRACK, track);
}

int ltt_bpf_sc_ring_fd(const struct ltt_bpf_sc *b, uint32_t cpu)
{
	int fd;

	if (!b)
		return -EINVAL;
	if (cpu >= b->nr_cpus || b->rings[cpu] < 0)
		return -ENOENT;
	fd = fcntl(b->rings[cpu], F_DUPFD_CLOEXEC, 3);
	return fd < 0 ? -errno : fd;
}

/*
 * A dup of the map's own fd: the kernel maps a read-only fd's MAP_SHARED
 * as private, which a BPF map refuses.  The consumer maps it read-only;
 * what it could write is its own channel's counts, which it reports.
 */
int ltt_bpf_sc_lost_fd(const struct ltt_bpf_sc *b)
{
	int fd;

	if (!b)
		return -EINVAL;
	fd = fcntl(bpf_map__fd(b->skel->maps.lost), F_DUPFD_CLOEXEC, 3);
	return fd < 0 ? -errno : fd;
}

uint64_t ltt_bpf_sc_lost(const struct ltt_bpf_sc *b, uint32_t cpu)
{
	uint64_t v = 0;

	if (b && cpu < b->nr_cpus)
		(void)bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.lost), &cpu, &v);
	return v;
}
