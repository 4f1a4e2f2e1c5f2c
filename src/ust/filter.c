// SPDX-License-Identifier: LGPL-2.1-only
/*
 * filter.c - the filter programs of libltt-ust: a set per event and
 * channel, validated when it arrives (it comes from another process) and
 * run by ltt_ust_probe_reserve_filter() before an event is reserved, with
 * the context fields ($ctx.NAME) a program may read (and a notifier
 * captures: ust_filter_read_ctx()).
 *
 * Context fields cost nothing until a filter reads one.  The process's
 * pid and each thread's tid, process name and NSpid-derived ids are
 * cached (per thread where they are per thread) as LTTng-UST caches them,
 * and forgotten in a child after fork().  vuid, vgid and vppid are read at
 * each use: setuid() and a parent's exit change them, and libltt-ust
 * wraps neither.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "common/base/proc-status.h"
#include "common/proto/app-proto.h"
#include "ust/ust.h"

struct ust_filters {
	struct ust_filters *retired_next;	/* in a struct ust_retire */
	uint32_t nr;
	const uint8_t *prog[];			/* then the programs' bytes */
};

/* Never enabled, never in the channel list, never destroyed (ust.h). */
struct ust_channel ust_chan_hidden;

/* The public and the interpreter's argument are the same thing. */
_Static_assert(sizeof(struct ltt_ust_arg) == sizeof(struct ltt_filter_arg) &&
	       offsetof(struct ltt_ust_arg, p) == offsetof(struct ltt_filter_arg, p) &&
	       offsetof(struct ltt_ust_arg, n) == offsetof(struct ltt_filter_arg, n),
	       "struct ltt_ust_arg must match struct ltt_filter_arg");

int ust_filters_create(uint32_t nr, const struct ltt_app_filter_program *progs,
		       const struct ltt_filter_field_desc *fields, uint32_t nr_fields,
		       struct ust_filters **ret)
{
	size_t bytes = sizeof(struct ust_filters) + nr * sizeof(const uint8_t *);
	struct ust_filters *f;
	uint8_t *p;
	uint32_t i;
	int err;

	for (i = 0; i < nr; i++) {
		err = ltt_filter_validate(progs[i].code, progs[i].len, fields, nr_fields);
		if (err) {
			ust_debug("filter program %u of %u refused (%s)", i + 1, nr,
				  strerror(-err));
			return -EINVAL;
		}
		bytes += progs[i].len;
	}
	f = malloc(bytes);
	if (!f)
		return -ENOMEM;
	f->retired_next = NULL;
	f->nr = nr;
	p = (uint8_t *)&f->prog[nr];
	for (i = 0; i < nr; i++) {
		memcpy(p, progs[i].code, progs[i].len);
		f->prog[i] = p;
		p += progs[i].len;
	}
	*ret = f;
	return 0;
}

void ust_filters_free(struct ust_filters *f)
{
	free(f);
}

struct ust_filters *ust_filters_next_retired(const struct ust_filters *f)
{
	return f->retired_next;
}

void ust_filters_retire(struct ust_filters *f, struct ust_retire *retire)
{
	if (f) {
		f->retired_next = retire->filters;
		retire->filters = f;
	}
}

/* ---- context fields ---- */

#define NO_ID (-1)

static long cached_pid = NO_ID;		/* NSpid: the pid outside namespaces */
static long cached_vpid = NO_ID;

static __thread struct {
	long tid;			/* NSpid of the thread */
	long vtid;
	char procname[LTT_APP_PROCNAME_MAX];
} tcache = { NO_ID, NO_ID, "" };

/*
 * The first number of the "NSpid:" line of @path (the id in the
 * outermost pid namespace), or NO_ID.  Async-signal-safe, no allocation
 * (ltt_proc_status_number()).
 */
static long read_nspid(const char *path)
{
	long v;

	return ltt_proc_status_number(path, "NSpid", &v) ? NO_ID : v;
}

static long ctx_vpid(void)
{
	long v = __atomic_load_n(&cached_vpid, __ATOMIC_RELAXED);

	if (__builtin_expect(v == NO_ID, 0)) {
		v = (long)getpid();
		__atomic_store_n(&cached_vpid, v, __ATOMIC_RELAXED);
	}
	return v;
}

static long ctx_pid(void)
{
	long v = __atomic_load_n(&cached_pid, __ATOMIC_RELAXED);

	if (__builtin_expect(v == NO_ID, 0)) {
		v = read_nspid("/proc/self/status");
		__atomic_store_n(&cached_pid, v, __ATOMIC_RELAXED);
	}
	return v;
}

static long ctx_vtid(void)
{
	if (__builtin_expect(tcache.vtid == NO_ID, 0))
		tcache.vtid = (long)syscall(SYS_gettid);
	return tcache.vtid;
}

static long ctx_tid(void)
{
	if (__builtin_expect(tcache.tid == NO_ID, 0))
		tcache.tid = read_nspid("/proc/thread-self/status");
	return tcache.tid;
}

static const char *ctx_procname(void)
{
	if (__builtin_expect(!tcache.procname[0], 0)) {
		char name[LTT_APP_PROCNAME_MAX] = "";

		if (prctl(PR_GET_NAME, name, 0, 0, 0) || !name[0])
			strcpy(name, "?");
		memcpy(tcache.procname, name, sizeof(name));
	}
	return tcache.procname;
}

static int set_s64(struct ltt_filter_value *out, long v)
{
	if (v == NO_ID)
		return -1;	/* unknown: the filter rejects the event */
	out->type = LTT_FTYPE_S64;
	out->v.s = v;
	return 0;
}

int ust_filter_read_ctx(unsigned int id, struct ltt_filter_value *out)
{
	const char *name;

	switch (id) {
	case LTT_FILTER_CTX_VPID:
		return set_s64(out, ctx_vpid());
	case LTT_FILTER_CTX_VTID:
		return set_s64(out, ctx_vtid());
	case LTT_FILTER_CTX_PID:
		return set_s64(out, ctx_pid());
	case LTT_FILTER_CTX_TID:
		return set_s64(out, ctx_tid());
	case LTT_FILTER_CTX_PROCNAME:
		name = ctx_procname();
		out->type = LTT_FTYPE_STR;
		out->v.str.p = name;
		out->v.str.n = (uint32_t)strlen(name);
		return 0;
	case LTT_FILTER_CTX_PTHREAD_ID:
		out->type = LTT_FTYPE_U64;
		out->v.u = (uint64_t)(uintptr_t)pthread_self();
		return 0;
	case LTT_FILTER_CTX_CPU_ID:
		return set_s64(out, ust_current_cpu());
	case LTT_FILTER_CTX_VUID:
		return set_s64(out, (long)getuid());
	case LTT_FILTER_CTX_VGID:
		return set_s64(out, (long)getgid());
	case LTT_FILTER_CTX_VPPID:
		return set_s64(out, (long)getppid());
	default:
		return -1;
	}
}

/* env->ctx: the value of context @id (filter-bytecode.h's table). */
static int read_ctx(void *priv, unsigned int id, struct ltt_filter_value *out)
{
	(void)priv;
	return ust_filter_read_ctx(id, out);
}

bool ust_filters_accept(const struct ust_filters *f, const struct ltt_filter_arg *args,
			uint32_t nr_args)
{
	/* No application contexts ($app.P:N) exist in libltt-ust: absent. */
	const struct ltt_filter_env env = { args, nr_args, read_ctx, NULL, NULL };
	uint32_t i;

	for (i = 0; i < f->nr; i++)
		if (ltt_filter_run(f->prog[i], &env))
			return true;
	return false;
}

void ust_filter_fork_child(void)
{
	cached_pid = NO_ID;
	cached_vpid = NO_ID;
	tcache.tid = NO_ID;
	tcache.vtid = NO_ID;
	tcache.procname[0] = '\0';
}
