// SPDX-License-Identifier: LGPL-2.1-only
/*
 * context.c - the context fields a channel adds after each event header
 * (lttctl add-context; the layout is common/model/context.h's).
 *
 * The fast path writes them for the calling thread, cheaply:
 *   - what is the thread's and does not change is read once per thread
 *     and kept in thread-local storage: vtid, procname, the namespace ids
 *     (stat() of /proc/thread-self/ns/NAME: the inode number);
 *   - what is the process's is read once per process: vpid, the user and
 *     group ids (getresuid(), getresgid());
 *   - pthread_id is kept per thread too; cpu_id (rseq) and ip cost a
 *     load each;
 *   - once a thread keeps every field of a channel (ctx_have, set with
 *     the contexts), ust_ctx_write() writes them with loads and stores
 *     only, and a first read goes out of line (write_reading());
 *   - a perf counter is opened per thread on its first event
 *     (perf_event_open(), user space only) and read with rdpmc from its
 *     mapped page when the kernel allows, else with read().
 * A fork()ed child forgets them all (ust_ctx_fork_child()), as LTTng-UST
 * does.  A thread that enters namespaces forgets their ids
 * (ltt_ust_namespaces_changed()), as LTTng-UST's wrappers of unshare()
 * and setns() make it do: libltt-ust has its own wrappers (below), which
 * a program linking it calls in place of libc's, so the fast path reads
 * no more than before.  As LTTng-UST without its preloaded helper, a
 * thread that changes name, or a process that changes ids (setuid()...),
 * keeps the values read first.
 *
 * A value that cannot be read is written as 0 (procname: "").
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

#define NR_NS 8

static const char *const ns_names[NR_NS] = {
	"cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts",
};

/* One perf counter of one thread. */
struct perf_thread {
	int fd;					/* -1: could not open */
	struct perf_event_mmap_page *pc;	/* its page, or NULL */
};

/* What each thread keeps (thread-local, initial-exec: no allocation). */
struct ctx_tls {
	uint32_t have;				/* bits: HAVE_* */
	int32_t vtid;
	uint64_t pthread_id;
	char procname[LTT_CTX_PROCNAME_LEN];
	uint64_t ns[NR_NS];
	struct perf_thread *perf;		/* LTT_CTX_MAX slots, mmap()ed once */
	int perf_busy;				/* opening: a signal handler writes 0 */
};

#define HAVE_VTID (1u << 0)
#define HAVE_PROCNAME (1u << 1)
#define HAVE_NS(i) (1u << (2 + (i)))
#define HAVE_PROC (1u << (2 + NR_NS))		/* proc_vpid and proc_ids read */
#define HAVE_PTHREAD_ID (1u << (3 + NR_NS))
#define HAVE_NEVER (1u << 31)			/* never kept: cpu_id, perf counters */

static __thread struct ctx_tls tls;

/* Process-wide, read on first use; 0: not read yet (forgotten at fork). */
static int32_t proc_vpid;
static int proc_ids_read;
static uint32_t proc_ids[6];		/* ruid, euid, suid, rgid, egid, sgid */

/* The perf counters of the process: slot -> (type, config); ust lock. */
static struct {
	uint32_t type;
	uint64_t config;
} perf_slots[LTT_CTX_MAX];
static uint32_t nr_perf_slots;

static pthread_key_t perf_key;
static pthread_once_t perf_key_once = PTHREAD_ONCE_INIT;

/* Slot of counter @c, added when new; ust lock held.  -1 when full. */
static int perf_slot(const struct ltt_ctx *c)
{
	uint32_t i;

	for (i = 0; i < nr_perf_slots; i++)
		if (perf_slots[i].type == c->perf_type && perf_slots[i].config == c->perf_config)
			return (int)i;
	if (nr_perf_slots == LTT_CTX_MAX)
		return -1;
	perf_slots[nr_perf_slots].type = c->perf_type;
	perf_slots[nr_perf_slots].config = c->perf_config;
	return (int)nr_perf_slots++;
}

/* The HAVE_* bits a thread keeps when it can write field @type without a call. */
static uint32_t field_kept(uint32_t type)
{
	switch (type) {
	case LTT_CONTEXT_VTID:
		return HAVE_VTID;
	case LTT_CONTEXT_PROCNAME:
		return HAVE_PROCNAME;
	case LTT_CONTEXT_CGROUP_NS ... LTT_CONTEXT_UTS_NS:
		return HAVE_NS(type - LTT_CONTEXT_CGROUP_NS);
	case LTT_CONTEXT_VPID:
	case LTT_CONTEXT_VUID ... LTT_CONTEXT_VSGID:
		return HAVE_PROC;
	case LTT_CONTEXT_PTHREAD_ID:
		return HAVE_PTHREAD_ID;
	case LTT_CONTEXT_IP:
		return 0;
	default:
		return HAVE_NEVER;
	}
}

int ust_channel_set_contexts(struct ust_channel *chan, const struct ltt_ctx *ctx, uint32_t nr)
{
	size_t len = ltt_ctx_len(ctx, nr);
	uint32_t i;
	int slot;

	if (nr > LTT_CTX_MAX)
		return -EINVAL;
	for (i = 0; i < chan->nr_streams; i++)
		if (chan->streams[i].rb.event_ctx_len != len)
			return -EINVAL;
	ust_lock();
	for (i = 0; i < nr; i++) {
		chan->ctx[i].type = ctx[i].type;
		chan->ctx[i].perf_idx = 0;
		if (ctx[i].type != LTT_CONTEXT_PERF_THREAD)
			continue;
		slot = perf_slot(&ctx[i]);
		if (slot < 0) {
			ust_unlock();
			return -ENOSPC;
		}
		chan->ctx[i].perf_idx = (uint32_t)slot;
	}
	ust_unlock();
	chan->nr_ctx = nr;
	chan->ctx_len = (uint32_t)len;
	chan->ctx_ip = false;
	chan->ctx_have = 0;
	for (i = 0; i < nr; i++) {
		if (ctx[i].type == LTT_CONTEXT_IP)
			chan->ctx_ip = true;
		chan->ctx_have |= field_kept(ctx[i].type);
	}
	if (chan->enabled)	/* the fast path's word says whether it has contexts */
		ust_channel_set_enabled(chan, true);
	return 0;
}

/* A thread ends: close its counters. */
static void perf_thread_end(void *arg)
{
	struct perf_thread *perf = arg;
	uint32_t i;

	for (i = 0; i < LTT_CTX_MAX; i++) {
		if (perf[i].pc)
			munmap(perf[i].pc, (size_t)sysconf(_SC_PAGESIZE));
		if (perf[i].fd > 0)
			ust_fd_close(perf[i].fd);
	}
	munmap(perf, LTT_CTX_MAX * sizeof(*perf));
	if (tls.perf == perf)
		tls.perf = NULL;
}

static void perf_key_create(void)
{
	if (pthread_key_create(&perf_key, perf_thread_end))
		perf_key = (pthread_key_t)-1;
}

/* Open slot @idx's counter for this thread (its first event).  fd 0: not tried. */
static __attribute__((noinline)) void perf_open(struct perf_thread *p, uint32_t idx)
{
	struct perf_event_attr attr;
	struct ltt_ctx c = { 0 };
	long fd;
	void *pc;

	/* written under the ust lock before the channel was published (RCU) */
	c.perf_type = perf_slots[idx].type;
	c.perf_config = perf_slots[idx].config;
	ltt_ctx_perf_attr(&c, &attr);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd <= 0) {
		if (!fd)	/* 0 means "not tried": not kept (close() is a cancellation point) */
			syscall(SYS_close, 0);
		p->fd = -1;	/* written as 0 from now on */
		return;
	}
	p->fd = (int)fd;
	/* in a probe: added without the fd lock (see fds.c) */
	ltt_ust_fd_own(p->fd);
	pc = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, (int)fd, 0);
	p->pc = pc == MAP_FAILED ? NULL : pc;
}

/* This thread's counter table, made on its first perf context; NULL if it can't be. */
static __attribute__((noinline)) struct perf_thread *perf_table(void)
{
	struct perf_thread *t;

	if (tls.perf_busy)
		return NULL;
	tls.perf_busy = 1;
	pthread_once(&perf_key_once, perf_key_create);
	t = mmap(NULL, LTT_CTX_MAX * sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		tls.perf_busy = 0;
		return NULL;
	}
	if (perf_key != (pthread_key_t)-1)
		pthread_setspecific(perf_key, t);
	tls.perf = t;
	tls.perf_busy = 0;
	return t;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

/* The counter from its page (no system call), or false when the kernel says no. */
static inline bool perf_read_mapped(const struct perf_event_mmap_page *pc, uint64_t *ret)
{
	uint32_t seq, idx;
	uint64_t count;
	int64_t pmc;

	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return false;
		count = pc->offset;
		pmc = (int64_t)rdpmc(idx - 1);
		/* sign-extend the counter's width */
		pmc <<= 64 - pc->pmc_width;
		pmc >>= 64 - pc->pmc_width;
		count += (uint64_t)pmc;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) != seq);
	*ret = count;
	return true;
}
#else
static inline bool perf_read_mapped(const struct perf_event_mmap_page *pc, uint64_t *ret)
{
	(void)pc;
	(void)ret;
	return false;
}
#endif

static uint64_t perf_value(uint32_t idx)
{
	struct perf_thread *t = tls.perf, *p;
	uint64_t v = 0;
	int saved;

	if (__builtin_expect(!t, 0)) {
		t = perf_table();
		if (!t)
			return 0;
	}
	p = &t[idx];
	if (__builtin_expect(!p->fd, 0)) {
		if (tls.perf_busy)
			return 0;
		tls.perf_busy = 1;
		perf_open(p, idx);
		tls.perf_busy = 0;
	}
	if (p->fd < 0)
		return 0;
	if (p->pc && perf_read_mapped(p->pc, &v))
		return v;
	/*
	 * The system call itself: glibc's read() is a cancellation point, and
	 * a thread cancelled here, between its reservation and its commit,
	 * would leave its slot open for as long as the program lives.  The
	 * program's errno is not ours.
	 */
	saved = errno;
	if (syscall(SYS_read, p->fd, &v, sizeof(v)) != (long)sizeof(v))
		v = 0;
	errno = saved;
	return v;
}

static __attribute__((noinline)) void read_procname(void)
{
	char name[LTT_CTX_PROCNAME_LEN] = { 0 };

	if (prctl(PR_GET_NAME, name, 0, 0, 0))
		name[0] = '\0';
	memcpy(tls.procname, name, sizeof(name));
	tls.have |= HAVE_PROCNAME;
}

static __attribute__((noinline)) void read_ns(unsigned int i)
{
	char path[48] = "/proc/thread-self/ns/";
	struct stat st;

	strcat(path, ns_names[i]);
	tls.ns[i] = stat(path, &st) ? 0 : (uint64_t)st.st_ino;
	tls.have |= HAVE_NS(i);
}

static __attribute__((noinline)) void read_ids(void)
{
	uid_t u[3] = { 0, 0, 0 };
	gid_t g[3] = { 0, 0, 0 };
	unsigned int i;

	/* Threads racing here store the same values. */
	if (getresuid(&u[0], &u[1], &u[2]))
		u[0] = u[1] = u[2] = 0;
	if (getresgid(&g[0], &g[1], &g[2]))
		g[0] = g[1] = g[2] = 0;
	for (i = 0; i < 3; i++) {
		__atomic_store_n(&proc_ids[i], (uint32_t)u[i], __ATOMIC_RELAXED);
		__atomic_store_n(&proc_ids[3 + i], (uint32_t)g[i], __ATOMIC_RELAXED);
	}
	__atomic_store_n(&proc_ids_read, 1, __ATOMIC_RELEASE);
}

static inline uint8_t *put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static inline uint8_t *put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

/* One field; @p has its size. */
static uint8_t *write_one(const struct ust_ctx_field *f, uint8_t *p, uintptr_t ip)
{
	unsigned int ns;

	switch (f->type) {
	case LTT_CONTEXT_VPID: {
		int32_t pid = __atomic_load_n(&proc_vpid, __ATOMIC_RELAXED);

		if (__builtin_expect(!pid, 0)) {
			pid = (int32_t)getpid();
			__atomic_store_n(&proc_vpid, pid, __ATOMIC_RELAXED);
		}
		return put32(p, (uint32_t)pid);
	}
	case LTT_CONTEXT_VTID:
		if (__builtin_expect(!(tls.have & HAVE_VTID), 0)) {
			tls.vtid = (int32_t)syscall(SYS_gettid);
			tls.have |= HAVE_VTID;
		}
		return put32(p, (uint32_t)tls.vtid);
	case LTT_CONTEXT_PROCNAME:
		if (__builtin_expect(!(tls.have & HAVE_PROCNAME), 0))
			read_procname();
		memcpy(p, tls.procname, LTT_CTX_PROCNAME_LEN);
		return p + LTT_CTX_PROCNAME_LEN;
	case LTT_CONTEXT_IP:
		return put64(p, ip);
	case LTT_CONTEXT_PTHREAD_ID:
		return put64(p, (uint64_t)pthread_self());
	case LTT_CONTEXT_CPU_ID:
		return put32(p, (uint32_t)ust_current_cpu());
	case LTT_CONTEXT_CGROUP_NS ... LTT_CONTEXT_UTS_NS:
		ns = f->type - LTT_CONTEXT_CGROUP_NS;
		if (__builtin_expect(!(tls.have & HAVE_NS(ns)), 0))
			read_ns(ns);
		return put64(p, tls.ns[ns]);
	case LTT_CONTEXT_VUID ... LTT_CONTEXT_VSGID:
		if (__builtin_expect(!__atomic_load_n(&proc_ids_read, __ATOMIC_ACQUIRE), 0))
			read_ids();
		return put32(p, __atomic_load_n(&proc_ids[f->type - LTT_CONTEXT_VUID],
						__ATOMIC_RELAXED));
	case LTT_CONTEXT_PERF_THREAD:
		return put64(p, perf_value(f->perf_idx));
	default:
		/* not reached: set_contexts() took known types only */
		memset(p, 0, ltt_ctx_type_size(f->type));
		return p + ltt_ctx_type_size(f->type);
	}
}

/*
 * @chan's fields, each read once by the thread or the process (@need:
 * their HAVE_* bits): every one of them read, then kept in tls.have, so
 * that the next event of the thread writes them without a call.
 */
static __attribute__((noinline)) uint8_t *write_reading(const struct ust_channel *chan,
							 uint8_t *p, uintptr_t ip, uint32_t need)
{
	uint32_t i;

	if (need & HAVE_NEVER)		/* each event's: write_one() reads what it needs */
		goto write;
	if ((need & HAVE_PROC) && !(tls.have & HAVE_PROC)) {
		if (!__atomic_load_n(&proc_vpid, __ATOMIC_RELAXED))
			__atomic_store_n(&proc_vpid, (int32_t)getpid(), __ATOMIC_RELAXED);
		if (!__atomic_load_n(&proc_ids_read, __ATOMIC_ACQUIRE))
			read_ids();
		tls.have |= HAVE_PROC;
	}
	if ((need & HAVE_PTHREAD_ID) && !(tls.have & HAVE_PTHREAD_ID)) {
		tls.pthread_id = (uint64_t)pthread_self();
		tls.have |= HAVE_PTHREAD_ID;
	}
write:
	for (i = 0; i < chan->nr_ctx; i++)
		p = write_one(&chan->ctx[i], p, ip);
	return p;
}

/*
 * The fields of a channel whose values the thread keeps, all kept
 * (tls.have): loads and stores only, no call, so no register to save.
 */
uint8_t *ust_ctx_write(const struct ust_channel *chan, uint8_t *p, uintptr_t ip)
{
	uint32_t need = chan->ctx_have;
	uint32_t i;

	if (__builtin_expect((tls.have & need) != need, 0))
		return write_reading(chan, p, ip, need);
	for (i = 0; i < chan->nr_ctx; i++) {
		uint32_t type = chan->ctx[i].type;

		switch (type) {
		case LTT_CONTEXT_VPID:
			p = put32(p, (uint32_t)__atomic_load_n(&proc_vpid, __ATOMIC_RELAXED));
			break;
		case LTT_CONTEXT_VTID:
			p = put32(p, (uint32_t)tls.vtid);
			break;
		case LTT_CONTEXT_PROCNAME:
			memcpy(p, tls.procname, LTT_CTX_PROCNAME_LEN);
			p += LTT_CTX_PROCNAME_LEN;
			break;
		case LTT_CONTEXT_IP:
			p = put64(p, ip);
			break;
		case LTT_CONTEXT_PTHREAD_ID:
			p = put64(p, tls.pthread_id);
			break;
		case LTT_CONTEXT_CGROUP_NS ... LTT_CONTEXT_UTS_NS:
			p = put64(p, tls.ns[type - LTT_CONTEXT_CGROUP_NS]);
			break;
		default:	/* VUID ... VSGID: field_kept() keeps no other */
			p = put32(p, __atomic_load_n(&proc_ids[type - LTT_CONTEXT_VUID],
						     __ATOMIC_RELAXED));
			break;
		}
	}
	return p;
}

void ltt_ust_namespaces_changed(void)
{
	unsigned int i;

	for (i = 0; i < NR_NS; i++)
		tls.have &= ~HAVE_NS(i);
}

/*
 * unshare() and setns(), in place of libc's for the program that links
 * libltt-ust (the dynamic linker finds these first: libc comes after
 * libltt-ust in the program's list).  The system call as libc makes it,
 * then the thread's namespace ids are forgotten.
 */
__attribute__((visibility("default"))) int unshare(int flags)
{
	int ret = (int)syscall(SYS_unshare, flags);

	if (!ret)
		ltt_ust_namespaces_changed();
	return ret;
}

__attribute__((visibility("default"))) int setns(int fd, int nstype)
{
	int ret = (int)syscall(SYS_setns, fd, nstype);

	if (!ret)
		ltt_ust_namespaces_changed();
	return ret;
}

void ust_ctx_fork_child(void)
{
	/* The forking thread is the child's only one: its cache is the parent's. */
	proc_vpid = 0;
	proc_ids_read = 0;
	tls.have = 0;
	if (tls.perf) {
		uint32_t i;

		/* The parent's counters count the parent: open the child's own. */
		for (i = 0; i < LTT_CTX_MAX; i++) {
			if (tls.perf[i].pc)
				munmap(tls.perf[i].pc, (size_t)sysconf(_SC_PAGESIZE));
			if (tls.perf[i].fd > 0)
				ust_fd_close(tls.perf[i].fd);
			tls.perf[i].fd = 0;
			tls.perf[i].pc = NULL;
		}
	}
}
