// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscalls.bpf.c - the BPF system call source's program (doc/kernel-bpf.md):
 * at each system call's entry (the BTF-typed tracepoint sys_enter), when
 * the call is one the daemon enabled (the map calls) and the session
 * records (ctl), the record ftrace's sys_enter_NAME would hold, its
 * string arguments read from the process (and connect's sockaddr, poll's
 * pollfds, epoll_ctl's event, as lttng-modules writes them), into this
 * CPU's ring (rings[cpu]); at the exits of accept, poll and epoll_wait
 * (the tracepoint sys_exit), sys_exit_NAME's record and the peer's
 * sockaddr, the pollfds ready, the events returned.  A record no ring
 * could take is counted in lost, per CPU.  bpf-abi.h says the records'
 * layout.
 * x86_64 (its system call registers).
 *
 * Compiled once at build time (clang -target bpf) and embedded in the
 * privileged part (bpftool gen skeleton): the only program it loads.
 */
#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpf-abi.h"

char LICENSE[] SEC("license") = "GPL";

/* The kernel's, as far as the program reads them: CO-RE finds the offsets. */
struct pt_regs {
	unsigned long r10, r9, r8, dx, si, di, orig_ax;
} __attribute__((preserve_access_index));

struct thread_info {
	__u32 status;
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
	int pid, tgid;
} __attribute__((preserve_access_index));

#define TS_COMPAT 0x0002	/* a 32-bit call: other numbers, not recorded (as ftrace) */

#define SCRATCH 8192
_Static_assert(8 + LTT_BPF_REC_MAX <= SCRATCH, "a record and its time stamp fit the scratch");
#define OFF_MASK 2047		/* bounds a string's place for the verifier */

struct ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* set by the loader */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);		/* the CPUs: set by the loader */
	__type(key, __u32);
	__array(values, struct ring);
} rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LTT_BPF_SC_MAX);
	__type(key, __u32);
	__type(value, struct ltt_bpf_call);
} calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LTT_BPF_CTL_NR);
	__type(key, __u32);
	__type(value, __u64);
} ctl SEC(".maps");

/* By CPU, mapped read-only by the consumer (BPF_F_MMAPABLE). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* the CPUs: set by the loader */
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

struct scratch {
	__u8 buf[SCRATCH];
	__u32 unasked;		/* bytes put in the ring since its fill was last asked */
};

/*
 * The ring's fill is asked once this many bytes went in, not at each
 * record: asking reads the reader's position, a line the consumer's CPU
 * writes.  The smallest ring is 64 KiB: a wakeup due at half comes at
 * most this and one record (LTT_BPF_REC_MAX) later, with room left.
 */
#define ASK_EVERY 2048
_Static_assert(32768 - ASK_EVERY - LTT_BPF_REC_MAX >= 16384, "the smallest ring keeps room after half");

/* A CPU's record being built (a program does not run twice at once on a CPU). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

/* The pid tracker's tasks (LTT_BPF_TRACK_SET): thread or thread group ids. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LTT_BPF_PIDS_MAX);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/*
 * The arguments an exit's payload reads, kept in the thread's own
 * storage from the call's entry to its exit: accept's buffer and its
 * length's address (ACCEPT), poll's array and count (POLL_EXIT),
 * epoll_wait's array and maxevents (EPOLL_WAIT); @nr the call they are
 * of, -1 once its exit took them.  Task storage (Linux 5.11), not a hash
 * by tid: no hashing, no lock, freed with the task.
 */
struct exit_args {
	__u64 addr, lenp;
	long nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct exit_args);
} pending SEC(".maps");

static __always_inline __u64 ctl_of(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&ctl, &slot);

	return v ? *v : 0;
}

static __always_inline bool listed(__u32 tid, __u32 tgid)
{
	return bpf_map_lookup_elem(&pids, &tid) || bpf_map_lookup_elem(&pids, &tgid);
}

/* Is the current task one the pid tracker records? */
static __always_inline bool tracked(void)
{
	__u64 track = ctl_of(LTT_BPF_CTL_TRACK), id;

	if (track == LTT_BPF_TRACK_ALL)
		return true;
	if (track != LTT_BPF_TRACK_SET)
		return false;
	id = bpf_get_current_pid_tgid();
	return listed((__u32)id, (__u32)(id >> 32));
}

/* A listed task's child is listed too (as ftrace's event-fork). */
SEC("tp_btf/sched_process_fork")
int ltt_fork(__u64 *ctx)
{
	struct task_struct *parent = (struct task_struct *)ctx[0];
	struct task_struct *child = (struct task_struct *)ctx[1];
	__u32 pid;
	__u8 one = 1;

	if (ctl_of(LTT_BPF_CTL_TRACK) != LTT_BPF_TRACK_SET ||
	    !listed((__u32)parent->pid, (__u32)parent->tgid))
		return 0;
	pid = (__u32)child->pid;
	bpf_map_update_elem(&pids, &pid, &one, BPF_ANY);
	return 0;
}

static __always_inline void count_lost(__u32 cpu)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &cpu);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/*
 * The call's six arguments into @a: the registers the kernel saved, each
 * a plain load (the program's tracepoints are BTF-typed: @regs is the
 * kernel's struct pt_regs, read without a helper call).
 */
static __always_inline void read_args(struct pt_regs *regs, __u64 *a)
{
	a[0] = regs->di;
	a[1] = regs->si;
	a[2] = regs->dx;
	a[3] = regs->r10;
	a[4] = regs->r8;
	a[5] = regs->r9;
}

/*
 * The string at @uptr into @rec at @off (bounded): its __data_loc, and
 * @off past it.  Cut strings end with the mark; unreadable ones are "".
 */
static __always_inline __u32 read_str(__u8 *rec, __u32 *off, __u64 uptr)
{
	__u32 at = *off & OFF_MASK;
	__u8 *p = rec + at;
	long n = bpf_probe_read_user_str(p, LTT_BPF_STR_MAX, (const void *)uptr);

	if (n <= 0) {
		p[0] = '\0';
		n = 1;
	} else if (n == LTT_BPF_STR_MAX) {
		p[LTT_BPF_STR_MAX - 4] = 0xe2;
		p[LTT_BPF_STR_MAX - 3] = 0x80;
		p[LTT_BPF_STR_MAX - 2] = 0xa6;
		p[LTT_BPF_STR_MAX - 1] = '\0';
	}
	*off = at + (__u32)n;
	return ((__u32)n << 16) | at;
}

#define AF_INET 2
#define AF_INET6 10

static __always_inline __u16 swab16(__u16 v)
{
	return (__u16)((v >> 8) | (v << 8));
}

/*
 * A sockaddr at @uptr (@alen bytes) as lttng-modules writes connect's
 * and accept's: its 12 bytes of fields at @p, its address at @off
 * (bpf-abi.h, SOCKADDR).  What can't be read is left 0, as
 * lttng-modules leaves it.
 */
static __always_inline void read_sockaddr(__u8 *rec, __u8 *p, __u32 *off, __u64 uptr, long alen)
{
	__u32 at = *off & OFF_MASK, v4 = at, v6 = at;
	__u16 family = 0, port = 0, *g;
	__u8 *a = rec + at;
	int i;

	if (alen >= 2 && bpf_probe_read_user(&family, sizeof(family), (const void *)uptr))
		family = 0;
	if (family == AF_INET && alen >= 16) {
		bpf_probe_read_user(&port, sizeof(port), (const void *)(uptr + 2));
		if (bpf_probe_read_user(a, 4, (const void *)(uptr + 4)))
			*(__u32 *)a = 0;
		v4 = (4u << 16) | at;
		at += 4;
	} else if (family == AF_INET6 && alen >= 28) {
		bpf_probe_read_user(&port, sizeof(port), (const void *)(uptr + 2));
		if (bpf_probe_read_user(a, 16, (const void *)(uptr + 8)))
			__builtin_memset(a, 0, 16);
		g = (__u16 *)a;
#pragma unroll
		for (i = 0; i < 8; i++)
			g[i] = swab16(g[i]);
		v6 = (16u << 16) | at;
		at += 16;
	}
	*(__u16 *)p = family;
	*(__u16 *)(p + 2) = swab16(port);
	*(__u32 *)(p + 4) = v4;
	*(__u32 *)(p + 8) = v6;
	*off = at;
}

/*
 * poll's and ppoll's array at @uptr of @nfds pollfds, as lttng-modules
 * writes it at the entry (bpf-abi.h, POLLFD): its fields at @p, the
 * pollfds read (a page's at most: cut, and marked overflow) at @off,
 * packed.  An array that can't be read whole is none, as lttng-modules'
 * copy failing.
 */
static __always_inline void read_pollfd(__u8 *rec, __u8 *p, __u32 *off, __u64 uptr, __u32 nfds)
{
	__u32 at = *off & OFF_MASK, len = nfds > LTT_BPF_POLL_MAX ? LTT_BPF_POLL_MAX : nfds, i;
	__u8 *a = rec + at, *e;
	__u32 fd;
	__u16 ev;

	/* the bound made plain to the verifier: 8 to 4096 bytes */
	if (len && bpf_probe_read_user(a, (((len - 1) & (LTT_BPF_POLL_MAX - 1)) + 1) * 8,
				       (const void *)uptr))
		len = 0;
	for (i = 0; i < LTT_BPF_POLL_MAX; i++) {
		if (i >= len)
			break;
		e = a + 8 * i;
		fd = *(__u32 *)e;
		ev = *(__u16 *)(e + 4);
		e = a + LTT_BPF_POLLFD_BYTES * i;
		e[0] = (__u8)fd;
		e[1] = (__u8)(fd >> 8);
		e[2] = (__u8)(fd >> 16);
		e[3] = (__u8)(fd >> 24);
		e[4] = (__u8)ev;
		e[5] = (__u8)(ev >> 8);
		e[6] = (__u8)ev;
	}
	*(__u32 *)p = len;
	*(__u32 *)(p + 4) = nfds > LTT_BPF_POLL_MAX;
	*(__u32 *)(p + 8) = ((len * LTT_BPF_POLLFD_BYTES) << 16) | at;
	*off = at + len * LTT_BPF_POLLFD_BYTES;
}

/*
 * epoll_ctl's event at @uptr as lttng-modules writes it (bpf-abi.h,
 * EPOLL) at @p: zeros when it can't be read, as there.
 */
static __always_inline void read_epoll_event(__u8 *p, __u64 uptr)
{
	struct {
		__u32 events;
		__u64 data;
	} __attribute__((packed)) ev;
	int i;

	if (bpf_probe_read_user(&ev, sizeof(ev), (const void *)uptr))
		__builtin_memset(&ev, 0, sizeof(ev));
#pragma unroll
	for (i = 0; i < 8; i++)
		p[i] = (__u8)(ev.data >> (8 * i));
#pragma unroll
	for (i = 0; i < 4; i++) {
		p[8 + i] = (__u8)(ev.data >> (8 * i));
		p[12 + i] = (__u8)(ev.events >> (8 * i));
	}
	p[16] = (__u8)ev.events;
}

/*
 * This CPU's record, begun: its time stamp and the common header of
 * event @id of call @nr (bpf-abi.h); NULL when there is no scratch.
 */
static __always_inline __u8 *begin_record(__u16 id, long nr)
{
	__u32 zero = 0;
	struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	__u8 *rec;

	if (!s)
		return NULL;
	*(__u64 *)s->buf = bpf_ktime_get_ns();
	rec = s->buf + 8;
	*(__u16 *)rec = id;
	rec[2] = 0;
	rec[3] = 0;
	*(__s32 *)(rec + 4) = (__s32)bpf_get_current_pid_tgid();
	*(__s32 *)(rec + 8) = (__s32)nr;
	*(__u32 *)(rec + 12) = 0;
	return rec;
}

/*
 * The record begun at @rec (in this CPU's scratch, begin_record()), @len
 * bytes, into this CPU's ring, or counted lost.
 */
static __always_inline void emit_record(__u8 *rec, __u32 len)
{
	struct scratch *s = (struct scratch *)(rec - 8);
	__u32 cpu = bpf_get_smp_processor_id();
	void *ring = bpf_map_lookup_elem(&rings, &cpu);
	__u64 wake = BPF_RB_NO_WAKEUP;

	if (!ring) {
		count_lost(cpu);
		return;
	}
	/* the reader is woken once the ring is half full, not for each record */
	s->unasked += 8 + len;
	if (s->unasked >= ASK_EVERY) {
		s->unasked = 0;
		if (bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) * 2 >=
		    bpf_ringbuf_query(ring, BPF_RB_RING_SIZE))
			wake = BPF_RB_FORCE_WAKEUP;
	}
	if (bpf_ringbuf_output(ring, rec - 8, (8 + len) & (SCRATCH - 1), wake))
		count_lost(cpu);
}

/* The call's entry in calls when the session records this task's native calls. */
static __always_inline struct ltt_bpf_call *recorded(long nr)
{
	__u32 key = LTT_BPF_CTL_ON, k;
	struct task_struct *task;
	__u64 *on;

	struct ltt_bpf_call *sc;

	on = bpf_map_lookup_elem(&ctl, &key);
	if (!on || !*on || nr < 0 || nr >= LTT_BPF_SC_MAX)
		return NULL;
	k = (__u32)nr;
	sc = bpf_map_lookup_elem(&calls, &k);
	if (!sc || (!sc->enter_id && !sc->exit_id))
		return NULL;	/* most calls: before reading the task */
	task = bpf_get_current_task_btf();
	if (task->thread_info.status & TS_COMPAT)
		return NULL;
	return sc;
}

SEC("tp_btf/sys_enter")
int ltt_sys_enter(__u64 *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	long nr = (long)ctx[1];
	__u64 v, args[LTT_BPF_ARGS];
	struct exit_args *acc;
	struct ltt_bpf_call *sc;
	__u32 off, pay;
	__u8 *rec;
	int i;

	sc = recorded(nr);
	if (!sc || !tracked())
		return 0;
	read_args(regs, args);
	if (sc->exit_id && sc->exit_payload) {
		/* poll's array and count are its first two arguments, the others' the next two */
		acc = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), NULL,
					   BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (acc && (sc->exit_payload == LTT_BPF_PAYLOAD_POLL_EXIT ||
			    sc->exit_payload == LTT_BPF_PAYLOAD_PPOLL_EXIT)) {
			acc->addr = args[0];
			acc->lenp = args[1];
			acc->nr = nr;
		} else if (acc) {
			acc->addr = args[1];
			acc->lenp = args[2];
			acc->nr = nr;
		}
	}
	if (!sc->enter_id)
		return 0;
	rec = begin_record(sc->enter_id, nr);
	if (!rec)
		return 0;
	pay = LTT_BPF_HDR + 8 * (sc->nargs > LTT_BPF_ARGS ? LTT_BPF_ARGS : sc->nargs);
	off = pay + (sc->payload ? LTT_BPF_PAYLOAD_BYTES : 0);
#pragma unroll
	for (i = 0; i < LTT_BPF_ARGS; i++) {
		if (i >= sc->nargs)
			break;
		v = args[i];
		if (sc->str_mask & (1u << i))
			v = read_str(rec, &off, v);
		*(__u64 *)(rec + LTT_BPF_HDR + 8 * i) = v;
	}
	if (sc->payload)	/* what a payload leaves is 0, not a former record's */
		__builtin_memset(rec + (pay & 127), 0, LTT_BPF_PAYLOAD_BYTES);
	if (sc->payload == LTT_BPF_PAYLOAD_SOCKADDR) {
		read_sockaddr(rec, rec + (pay & 127), &off, args[1], (int)args[2]);
	} else if (sc->payload == LTT_BPF_PAYLOAD_POLLFD) {
		read_pollfd(rec, rec + (pay & 127), &off, args[0], (__u32)args[1]);
	} else if (sc->payload == LTT_BPF_PAYLOAD_EPOLL) {
		read_epoll_event(rec + (pay & 127), args[3]);
	}
	emit_record(rec, off);
	return 0;
}

/* @n bytes (1 to 8) of @v at @p, little endian, whatever @p's alignment. */
static __always_inline void put_le(__u8 *p, __u64 v, int n)
{
	int i;

#pragma unroll
	for (i = 0; i < 8; i++)
		if (i < n)
			p[i] = (__u8)(v >> (8 * i));
}

/* poll's exit's array being packed (bpf_loop()'s steps): @nr kept of @len */
struct poll_pack {
	__u8 *a;
	__u32 len, nr;
};

/* Pollfd @i of the array read: kept, packed at nr, when its revents is set. */
static long poll_keep(__u64 i, void *arg)
{
	struct poll_pack *pp = arg;
	__u8 *e = pp->a + 8 * (i & (LTT_BPF_POLL_MAX - 1));
	__u32 fd = *(__u32 *)e;
	__u16 rev = *(__u16 *)(e + 6);

	if (pp->nr >= pp->len)
		return 1;
	if (!rev)
		return 0;
	e = pp->a + LTT_BPF_POLLFD_BYTES * (pp->nr & (LTT_BPF_POLL_MAX - 1));
	put_le(e, fd, 4);
	put_le(e + 4, rev, 2);
	e[6] = (__u8)rev;
	pp->nr++;
	return 0;
}

/* A pollfd of zeros at nr, while fewer than @len are set (as lttng-modules). */
static long poll_zero(__u64 i, void *arg)
{
	struct poll_pack *pp = arg;

	(void)i;
	if (pp->nr >= pp->len)
		return 1;
	put_le(pp->a + LTT_BPF_POLLFD_BYTES * (pp->nr & (LTT_BPF_POLL_MAX - 1)), 0,
	       LTT_BPF_POLLFD_BYTES);
	pp->nr++;
	return 0;
}

/*
 * poll's and ppoll's exit as lttng-modules writes it (bpf-abi.h,
 * POLL_EXIT): the pollfds whose revents is set, @ret of them at most (the
 * rest zeros), a page's at most when there were more (overflow).  The
 * array read at @at is packed in place, by bpf_loop(): as many steps as
 * it has pollfds (a loop of the program's own would be 512 steps each
 * time, or too many paths for the verifier).
 */
static __always_inline __u32 poll_exit(__u8 *rec, __u8 *p, __u32 at, __u64 uptr, __u32 nfds,
				       long ret)
{
	struct poll_pack pp = { .a = rec + at };
	__u32 max = 0;

	if (ret > 0 && ret <= nfds) {
		max = nfds > LTT_BPF_POLL_MAX ? LTT_BPF_POLL_MAX : nfds;
		pp.len = nfds > LTT_BPF_POLL_MAX ? LTT_BPF_POLL_MAX : (__u32)ret;
		p[8] = nfds > LTT_BPF_POLL_MAX;
	}
	if (max && bpf_probe_read_user(pp.a, (((max - 1) & (LTT_BPF_POLL_MAX - 1)) + 1) * 8,
				       (const void *)uptr))
		max = pp.len = 0;
	if (max) {
		bpf_loop(max, poll_keep, &pp, 0);
		if (pp.nr < pp.len)	/* fewer set than ret says: the rest zeros */
			bpf_loop(LTT_BPF_POLL_MAX, poll_zero, &pp, 0);
	}
	*(__u32 *)p = nfds;
	*(__u32 *)(p + 4) = pp.len;
	*(__u32 *)(p + 12) = ((pp.len * LTT_BPF_POLLFD_BYTES) << 16) | at;
	return pp.len * LTT_BPF_POLLFD_BYTES;
}

/*
 * epoll_wait's and epoll_pwait's exit as lttng-modules writes it
 * (bpf-abi.h, EPOLL_WAIT): the @ret events, a page's at most (overflow
 * past it), each widened in place from the kernel's 12 bytes, the last
 * first.
 */
static __always_inline __u32 epoll_wait_exit(__u8 *rec, __u8 *p, __u32 at, __u64 uptr,
					     long maxevents, long ret)
{
	__u32 max = 0, len = 0, i, k, events;
	__u8 *a = rec + at, *e;
	__u64 data;

	if (maxevents > 0 && ret > 0 && ret <= maxevents) {
		max = maxevents > LTT_BPF_EPOLL_MAX ? LTT_BPF_EPOLL_MAX : (__u32)maxevents;
		len = ret > max ? max : (__u32)ret;
		p[4] = ret > max;
	}
	if (max && bpf_probe_read_user(a, (((max - 1) & 511) + 1) * 12, (const void *)uptr))
		len = 0;
	for (k = 0; k < LTT_BPF_EPOLL_MAX; k++) {
		if (k >= len)
			break;
		i = (len - 1 - k) & 511;
		if (i >= LTT_BPF_EPOLL_MAX)
			break;
		e = a + 12 * i;
		events = *(__u32 *)e;
		data = *(__u64 *)(e + 4);
		e = a + LTT_BPF_EPOLL_BYTES * i;
		put_le(e, data, 8);
		put_le(e + 8, data, 4);
		put_le(e + 12, events, 4);
		e[16] = (__u8)events;
	}
	*(__u32 *)p = len;
	*(__u32 *)(p + 8) = ((len * LTT_BPF_EPOLL_BYTES) << 16) | at;
	return len * LTT_BPF_EPOLL_BYTES;
}

/*
 * At the exit of a call whose exit the daemon gave the program (accept,
 * accept4: the peer's address; poll, ppoll: the pollfds that fired;
 * epoll_wait, epoll_pwait: the events): ftrace's sys_exit_NAME record
 * (ret) and what lttng-modules writes there, read from the buffers its
 * entry passed.
 */
SEC("tp_btf/sys_exit")
int ltt_sys_exit(__u64 *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	long nr = (long)regs->orig_ax, ret = (long)ctx[1];
	struct exit_args *acc;
	struct ltt_bpf_call *sc;
	__s32 alen = 0;
	__u8 *rec, *p;
	__u32 off;

	sc = recorded(nr);
	if (!sc || !sc->exit_id)
		return 0;
	acc = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), NULL, 0);
	if (!acc || acc->nr != nr)
		return 0;	/* its entry was before the session recorded, or not tracked */
	acc->nr = -1;
	rec = begin_record(sc->exit_id, nr);
	if (!rec)
		return 0;
	*(__s64 *)(rec + LTT_BPF_HDR) = ret;
	p = rec + LTT_BPF_HDR + 8;
	__builtin_memset(p, 0, LTT_BPF_PAYLOAD_BYTES);
	off = LTT_BPF_HDR + 8 + LTT_BPF_PAYLOAD_BYTES;
	if (sc->exit_payload == LTT_BPF_PAYLOAD_POLL_EXIT ||
	    sc->exit_payload == LTT_BPF_PAYLOAD_PPOLL_EXIT) {
		off += poll_exit(rec, p, off, acc->addr, (__u32)acc->lenp, ret);
	} else if (sc->exit_payload == LTT_BPF_PAYLOAD_EPOLL_WAIT) {
		off += epoll_wait_exit(rec, p, off, acc->addr, (int)acc->lenp, ret);
	} else {
		/* a failed accept wrote nothing there: what the buffers hold is stale */
		if (ret < 0 || (acc->lenp &&
		    bpf_probe_read_user(&alen, sizeof(alen), (const void *)acc->lenp)))
			alen = 0;
		*(__s32 *)p = alen;
		read_sockaddr(rec, p + 4, &off, acc->addr, acc->addr ? alen : 0);
	}
	emit_record(rec, off);
	return 0;
}
