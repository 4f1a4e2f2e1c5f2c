// SPDX-License-Identifier: LGPL-2.1-only
/*
 * context.c - the context types: names, sizes, metadata, wire form (see
 * context.h).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/model/context.h"

#define PERF_PREFIX "perf:thread:"
#define RAW_PREFIX "raw:r"

/* The shapes of the context fields: integers (bits, signed, base), or text. */
#define S32 { .bits = 32, .is_signed = true, .base = 10 }
#define U32 { .bits = 32, .base = 10 }
#define U8 { .bits = 8, .base = 10 }
#define U64 { .bits = 64, .base = 10 }
#define X64 { .bits = 64, .base = 16 }
#define TEXT { .bits = 8, .base = 10, .text = true }

#define U LTT_CTX_DOMAIN_USER
#define K LTT_CTX_DOMAIN_KERNEL

/* The fixed types, by enum ltt_context_type. */
static const struct {
	const char *name;
	uint8_t size;
	uint8_t domains;	/* LTT_CTX_DOMAIN_* */
	struct ltt_ctx_shape shape;	/* text: @size bytes of it */
} types[] = {
	[LTT_CONTEXT_VPID] = { "vpid", 4, U | K, S32 },
	[LTT_CONTEXT_VTID] = { "vtid", 4, U | K, S32 },
	[LTT_CONTEXT_PROCNAME] = { "procname", LTT_CTX_PROCNAME_LEN, U | K, TEXT },
	[LTT_CONTEXT_IP] = { "ip", 8, U, X64 },
	[LTT_CONTEXT_PTHREAD_ID] = { "pthread_id", 8, U, U64 },
	[LTT_CONTEXT_CPU_ID] = { "cpu_id", 4, U | K, S32 },
	[LTT_CONTEXT_CGROUP_NS] = { "cgroup_ns", 8, U | K, U64 },
	[LTT_CONTEXT_IPC_NS] = { "ipc_ns", 8, U | K, U64 },
	[LTT_CONTEXT_MNT_NS] = { "mnt_ns", 8, U | K, U64 },
	[LTT_CONTEXT_NET_NS] = { "net_ns", 8, U | K, U64 },
	[LTT_CONTEXT_PID_NS] = { "pid_ns", 8, U | K, U64 },
	[LTT_CONTEXT_TIME_NS] = { "time_ns", 8, U | K, U64 },
	[LTT_CONTEXT_USER_NS] = { "user_ns", 8, U | K, U64 },
	[LTT_CONTEXT_UTS_NS] = { "uts_ns", 8, U | K, U64 },
	[LTT_CONTEXT_VUID] = { "vuid", 4, U | K, U32 },
	[LTT_CONTEXT_VEUID] = { "veuid", 4, U | K, U32 },
	[LTT_CONTEXT_VSUID] = { "vsuid", 4, U | K, U32 },
	[LTT_CONTEXT_VGID] = { "vgid", 4, U | K, U32 },
	[LTT_CONTEXT_VEGID] = { "vegid", 4, U | K, U32 },
	[LTT_CONTEXT_VSGID] = { "vsgid", 4, U | K, U32 },
	[LTT_CONTEXT_PERF_THREAD] = { NULL, 8, U, U64 },
	[LTT_CONTEXT_PID] = { "pid", 4, K, S32 },
	[LTT_CONTEXT_TID] = { "tid", 4, K, S32 },
	[LTT_CONTEXT_PPID] = { "ppid", 4, K, S32 },
	[LTT_CONTEXT_VPPID] = { "vppid", 4, K, S32 },
	[LTT_CONTEXT_PRIO] = { "prio", 4, K, S32 },
	[LTT_CONTEXT_NICE] = { "nice", 4, K, S32 },
	[LTT_CONTEXT_HOSTNAME] = { "hostname", LTT_CTX_HOSTNAME_LEN, K, TEXT },
	[LTT_CONTEXT_INTERRUPTIBLE] = { "interruptible", 1, K, U8 },
	[LTT_CONTEXT_PREEMPTIBLE] = { "preemptible", 1, K, U8 },
	[LTT_CONTEXT_NEED_RESCHEDULE] = { "need_reschedule", 1, K, U8 },
	[LTT_CONTEXT_MIGRATABLE] = { "migratable", 1, K, U8 },
	[LTT_CONTEXT_UID] = { "uid", 4, K, U32 },
	[LTT_CONTEXT_EUID] = { "euid", 4, K, U32 },
	[LTT_CONTEXT_SUID] = { "suid", 4, K, U32 },
	[LTT_CONTEXT_GID] = { "gid", 4, K, U32 },
	[LTT_CONTEXT_EGID] = { "egid", 4, K, U32 },
	[LTT_CONTEXT_SGID] = { "sgid", 4, K, U32 },
};

#undef U
#undef K
#undef S32
#undef U32
#undef U8
#undef U64
#undef X64
#undef TEXT

#define NR_TYPES (sizeof(types) / sizeof(types[0]))

#define HW(n, c) { PERF_PREFIX n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, c) { PERF_PREFIX n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }
#define CACHE(n, c, op, res) { PERF_PREFIX n, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_##c | \
	(PERF_COUNT_HW_CACHE_OP_##op << 8) | ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_##res << 16) }
#define CACHE6(p, c) \
	CACHE(p "-loads", c, READ, ACCESS), CACHE(p "-load-misses", c, READ, MISS), \
	CACHE(p "-stores", c, WRITE, ACCESS), CACHE(p "-store-misses", c, WRITE, MISS), \
	CACHE(p "-prefetches", c, PREFETCH, ACCESS), CACHE(p "-prefetch-misses", c, PREFETCH, MISS)

/* The named counters, perf:thread:NAME (LTTng's, and four software ones). */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} counters[] = {
	HW("cpu-cycles", CPU_CYCLES), HW("cycles", CPU_CYCLES),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("instructions", INSTRUCTIONS), HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES), HW("branch-instructions", BRANCH_INSTRUCTIONS),
	HW("branches", BRANCH_INSTRUCTIONS), HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	CACHE6("L1-dcache", L1D),
	CACHE("L1-icache-loads", L1I, READ, ACCESS), CACHE("L1-icache-load-misses", L1I, READ, MISS),
	CACHE("L1-icache-prefetches", L1I, PREFETCH, ACCESS),
	CACHE("L1-icache-prefetch-misses", L1I, PREFETCH, MISS),
	CACHE6("LLC", LL), CACHE6("dTLB", DTLB),
	CACHE("iTLB-loads", ITLB, READ, ACCESS), CACHE("iTLB-load-misses", ITLB, READ, MISS),
	CACHE("branch-loads", BPU, READ, ACCESS), CACHE("branch-load-misses", BPU, READ, MISS),
	SW("task-clock", TASK_CLOCK), SW("page-fault", PAGE_FAULTS),
	SW("context-switches", CONTEXT_SWITCHES), SW("cpu-migrations", CPU_MIGRATIONS),
};

#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

static int parse_raw(const char *s, struct ltt_ctx *ret)
{
	const char *name;
	char *end;
	unsigned long long config;
	size_t i;

	/* rN:NAME, N hexadecimal, NAME [A-Za-z0-9_]+ */
	if (strncmp(s, RAW_PREFIX, strlen(RAW_PREFIX)))
		return -EINVAL;
	s += strlen(RAW_PREFIX);
	if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
		return -EINVAL;
	errno = 0;
	config = strtoull(s, &end, 16);
	if (errno || *end != ':' || end - s > 16)
		return -EINVAL;
	name = end + 1;
	if (!*name)
		return -EINVAL;
	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return -EINVAL;
	}
	ret->perf_type = PERF_TYPE_RAW;
	ret->perf_config = config;
	return 0;
}

int ltt_ctx_parse(const char *name, struct ltt_ctx *ret)
{
	struct ltt_ctx c = { 0 };
	size_t i;

	if (!name || !ret || strlen(name) >= sizeof(c.name))
		return -EINVAL;
	strcpy(c.name, name);
	if (!strncmp(name, PERF_PREFIX, strlen(PERF_PREFIX))) {
		const char *counter = name + strlen(PERF_PREFIX);

		c.type = LTT_CONTEXT_PERF_THREAD;
		for (i = 0; i < NR_COUNTERS; i++) {
			if (!strcmp(name, counters[i].name)) {
				c.perf_type = counters[i].type;
				c.perf_config = counters[i].config;
				*ret = c;
				return 0;
			}
		}
		if (parse_raw(counter, &c))
			return -EINVAL;
		*ret = c;
		return 0;
	}
	for (i = 1; i < NR_TYPES; i++) {
		if (types[i].name && !strcmp(name, types[i].name)) {
			c.type = (uint32_t)i;
			*ret = c;
			return 0;
		}
	}
	return -EINVAL;
}

bool ltt_ctx_check(const struct ltt_ctx *c)
{
	struct ltt_ctx p;

	if (!c || !memchr(c->name, '\0', sizeof(c->name)) || ltt_ctx_parse(c->name, &p))
		return false;
	return ltt_ctx_same(c, &p);
}

const char *ltt_ctx_list_name(size_t i)
{
	return ltt_ctx_list_name_domain(i, LTT_CTX_DOMAIN_USER | LTT_CTX_DOMAIN_KERNEL);
}

const char *ltt_ctx_list_name_domain(size_t i, unsigned int domains)
{
	size_t k;

	for (k = 1; k < NR_TYPES; k++) {
		if (!types[k].name || !(types[k].domains & domains))
			continue;
		if (!i--)
			return types[k].name;
	}
	/* The perf counters are user space's only. */
	if (!(domains & LTT_CTX_DOMAIN_USER))
		return NULL;
	if (i < NR_COUNTERS)
		return counters[i].name;
	return i == NR_COUNTERS ? PERF_PREFIX "raw:rN:NAME" : NULL;
}

unsigned int ltt_ctx_domains(const struct ltt_ctx *c)
{
	return c->type && c->type < NR_TYPES ? types[c->type].domains : 0;
}

size_t ltt_ctx_type_size(uint32_t type)
{
	return type && type < NR_TYPES ? types[type].size : 0;
}

size_t ltt_ctx_len(const struct ltt_ctx *ctx, uint32_t nr)
{
	size_t len = 0;
	uint32_t i;

	for (i = 0; i < nr; i++)
		len += ltt_ctx_type_size(ctx[i].type);
	return len;
}

void ltt_ctx_field_name(const struct ltt_ctx *c, char *buf)
{
	size_t i;

	for (i = 0; c->name[i] && i < LTT_CTX_NAME_MAX - 1; i++) {
		char ch = c->name[i];

		buf[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') ? ch : '_';
	}
	buf[i] = '\0';
}

bool ltt_ctx_shape(const struct ltt_ctx *c, struct ltt_ctx_shape *ret, uint32_t *ret_len)
{
	if (!c->type || c->type >= NR_TYPES)
		return false;
	*ret = types[c->type].shape;
	*ret_len = ret->text ? types[c->type].size : 0;
	return true;
}

bool ltt_ctx_same(const struct ltt_ctx *a, const struct ltt_ctx *b)
{
	if (a->type != b->type)
		return false;
	if (a->type != LTT_CONTEXT_PERF_THREAD)
		return true;
	return a->perf_type == b->perf_type && a->perf_config == b->perf_config &&
	       !strcmp(a->name, b->name);
}

void ltt_ctx_perf_attr(const struct ltt_ctx *c, struct perf_event_attr *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->size = sizeof(*ret);
	ret->type = c->perf_type;
	ret->config = c->perf_config;
	ret->exclude_kernel = 1;
	ret->exclude_hv = 1;
}

/* /proc/sys/kernel/perf_event_paranoid, or 2 (the kernel's default) when unreadable. */
static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

int ltt_ctx_perf_probe(const struct ltt_ctx *c, uid_t uid)
{
	struct perf_event_attr attr;
	long fd;

	/* Counting one's own threads in user space needs a level of 2 at most. */
	if (uid != 0 && paranoid_level() > 2)
		return -EACCES;
	ltt_ctx_perf_attr(c, &attr);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		switch (errno) {
		case ENOENT:
		case ENODEV:
		case EOPNOTSUPP:
		case EINVAL:
			return -ENOENT;
		case EPERM:
		case EACCES:
			return -EACCES;
		default:
			return -errno;
		}
	}
	close((int)fd);
	return 0;
}

#define LTT_MSG struct ltt_ctx
LTT_CODEC(ctx_wire, LTT_CODEC_LE,
	  LTT_ROW_U32(type), LTT_ROW_U32(perf_type), LTT_ROW_U64(perf_config), LTT_ROW_STR(name));
#undef LTT_MSG

const struct ltt_codec *const ltt_ctx_codec = &ctx_wire;

void ltt_ctx_put(struct ltt_wbuf *w, const struct ltt_ctx *c)
{
	ltt_codec_put(w, &ctx_wire, c);
}

void ltt_ctx_get(struct ltt_rbuf *r, struct ltt_ctx *ret)
{
	struct ltt_ctx c = { 0 };

	ltt_codec_get(r, &ctx_wire, &c);
	*ret = c;
}
