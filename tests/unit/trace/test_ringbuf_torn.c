// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ringbuf_torn.c - writers that die between reserve and commit
 * (src/common/trace/ringbuf.c, ltt_rb_repair_subbuf(); doc/ust.md, "Writers
 * that die").
 *
 * Writers are forked processes on one memfd region, each holding a writer
 * block by an OFD lock from a description of its own, as libltt-ust does.
 * A writer dies with SIGKILL at a chosen point: mid-copy after a fast-path
 * reserve, after a reserve that opened a packet, after its commit but
 * before its record is cleared, or before its CAS (a stale intent).  Each case checks exactly: every event
 * a writer committed is read, once, intact; the torn one is read as a skip
 * event and counted in events_lost; a writer that comes after records
 * every event, laps later.  A stopped writer keeps its slot.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/tap.h"

#define S		4096u
#define NSUB		4u
#define HDR		84u
#define EV		40u		/* every test event: 40 bytes */
#define TORN_MARK	0xffffffffu	/* "writer" of a skip event */

/* What a dead writer committed, reported before it dies. */
struct report {
	uint64_t committed;
};

struct region {
	void *mem;
	size_t len;
	int fd;
	int lock_fd;		/* the reader's own description */
};

/* What the reader found. */
struct tally {
	uint64_t events[4];	/* per writer */
	uint64_t last_seq[4];
	uint64_t torn;
	uint64_t torn_bytes;
	uint64_t packets;
	uint64_t bad_counts;	/* packets whose event count is not their events' */
	unsigned int errors;
	uint64_t last_ts;
};

static int region_create(struct region *r)
{
	struct ltt_rb_config cfg = { .subbuf_size = S, .num_subbuf = NSUB, .stream_id = 1 };

	r->len = ltt_rb_region_size(S, NSUB);
	r->fd = memfd_create("ltt-rb-torn", MFD_CLOEXEC);
	if (r->fd < 0 || ftruncate(r->fd, (off_t)r->len) < 0)
		return -1;
	r->mem = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->mem == MAP_FAILED)
		return -1;
	r->lock_fd = ltt_rb_own_fd(r->fd);
	if (r->lock_fd < 0)
		return -1;
	return ltt_rb_init_region(r->mem, r->len, &cfg);
}

static void region_destroy(struct region *r)
{
	munmap(r->mem, r->len);
	close(r->fd);
	close(r->lock_fd);
}

static int ofd_lock(int fd, unsigned int block, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = block, .l_len = 1 };

	return fcntl(fd, F_OFD_SETLK, &fl);
}

static int reader_lock(void *arg, unsigned int block)
{
	struct region *r = arg;

	if (!ofd_lock(r->lock_fd, block, F_WRLCK))
		return 1;
	return errno == EAGAIN || errno == EACCES ? 0 : -errno;
}

static void reader_unlock(void *arg, unsigned int block)
{
	struct region *r = arg;

	ofd_lock(r->lock_fd, block, F_UNLCK);
}

/* The test's skip event: its length, the mark, its timestamp, zeros. */
static void fill(void *arg, void *dst, uint64_t len, uint64_t ts)
{
	uint32_t l = (uint32_t)len, mark = TORN_MARK;

	(void)arg;
	memset(dst, 0, (size_t)len);
	memcpy(dst, &l, 4);
	memcpy((char *)dst + 4, &mark, 4);
	memcpy((char *)dst + 16, &ts, 8);
}

static void put_event(void *dst, uint32_t writer, uint64_t seq, uint64_t ts, size_t upto)
{
	uint8_t ev[EV];
	uint32_t len = EV, sum = 0;
	unsigned int i;

	memset(ev, 0, sizeof(ev));
	memcpy(ev, &len, 4);
	memcpy(ev + 4, &writer, 4);
	memcpy(ev + 8, &seq, 8);
	memcpy(ev + 16, &ts, 8);
	for (i = 24; i < EV - 4; i++)
		ev[i] = (uint8_t)(seq + i);
	for (i = 0; i < EV - 4; i++)
		sum = sum * 31 + ev[i];
	memcpy(ev + EV - 4, &sum, 4);
	memcpy(dst, ev, upto);
}

/* Read every packet there is, repairing what dead writers left. */
static void drain(struct ltt_rb *rb, struct region *r, struct tally *t)
{
	struct ltt_rb_repair_ops ops = { reader_lock, reader_unlock, fill, r };
	struct ltt_rb_packet pkt;
	uint64_t off, seq, ts, events;
	uint32_t len, writer, sum, i;
	const uint8_t *p;
	int ret;

	for (;;) {
		ret = ltt_rb_get_next_subbuf(rb, &pkt);
		if (ret == -EAGAIN && ltt_rb_repair_subbuf(rb, &ops) == 0)
			continue;
		if (ret)
			break;
		t->packets++;
		p = pkt.data;
		events = 0;
		for (off = HDR; off < pkt.content_size; off += len) {
			memcpy(&len, p + off, 4);
			memcpy(&writer, p + off + 4, 4);
			memcpy(&seq, p + off + 8, 8);
			memcpy(&ts, p + off + 16, 8);
			if (len < 24 || len > pkt.content_size - off) {
				t->errors++;
				break;
			}
			if (ts < t->last_ts || ts < pkt.timestamp_begin || ts > pkt.timestamp_end)
				t->errors++;
			t->last_ts = ts;
			if (writer == TORN_MARK) {
				t->torn++;
				t->torn_bytes += len;
				continue;
			}
			for (sum = 0, i = 0; i < EV - 4; i++)
				sum = sum * 31 + p[off + i];
			if (writer >= 4 || len != EV || memcmp(&sum, p + off + EV - 4, 4) ||
			    (t->events[writer] && seq != t->last_seq[writer] + 1)) {
				t->errors++;
				continue;
			}
			t->events[writer]++;
			t->last_seq[writer] = seq;
			events++;
		}
		/* the packet's count (commit word): its events, skip events not */
		if (pkt.events != events)
			t->bad_counts++;
		ltt_rb_put_subbuf(rb, &pkt);
	}
}

enum death {
	LIVE,		/* exit normally */
	MID_COPY,	/* fast-path reserve, half the event written */
	OPENER,		/* the reserve that opens a packet, nothing written */
	AFTER_COMMIT,	/* committed, record not cleared */
	BEFORE_CAS,	/* intent recorded, no reservation */
	STOP,		/* SIGSTOP mid-copy, then finish when continued */
};

/* A writer process: @n events, then @how; its committed count in @rep. */
static pid_t writer(struct region *r, unsigned int block, uint32_t id, uint64_t n,
		    enum death how, struct report *rep)
{
	struct ltt_rb_slot slot;
	struct ltt_rb_wrec *rec;
	struct ltt_rb rb;
	uint64_t i, w;
	pid_t pid;
	int lfd;

	fflush(stdout);
	pid = fork();
	if (pid)
		return pid;
	lfd = ltt_rb_own_fd(r->fd);
	if (lfd < 0 || ltt_rb_attach(&rb, r->mem, r->len) || ofd_lock(lfd, block, F_WRLCK) ||
	    !ltt_rb_writer_block_clean(&rb, block))
		_exit(2);
	rec = ltt_rb_writer_block(&rb, block);
	for (i = 0; i < n; i++) {
		if (ltt_rb_reserve_rec(&rb, rec, EV, EV, 0, &slot))
			_exit(3);
		put_event(slot.data, id, i, slot.ts, EV);
		ltt_rb_commit_add_rec(&rb, rec, slot.pos, slot.len);
		rep->committed = i + 1;
	}
	w = __atomic_load_n(&((struct ltt_rb_shm *)r->mem)->offset, __ATOMIC_RELAXED) & (S - 1);
	switch (how) {
	case LIVE:
		_exit(0);
	case OPENER:
		/* the caller chose @n so that the next event opens a packet */
		if (w + EV <= S)
			_exit(4);
		__attribute__((fallthrough));	/* the event opens the packet */
	case MID_COPY:
	case STOP:
		if (ltt_rb_reserve_rec(&rb, rec, EV, EV, 0, &slot))
			_exit(3);
		put_event(slot.data, id, i, slot.ts, EV / 2);
		if (how != STOP)
			raise(SIGKILL);
		raise(SIGSTOP);
		put_event(slot.data, id, i, slot.ts, EV);
		ltt_rb_commit_add_rec(&rb, rec, slot.pos, slot.len);
		rep->committed = i + 1;
		_exit(0);
	case AFTER_COMMIT:
		if (ltt_rb_reserve_rec(&rb, rec, EV, EV, 0, &slot))
			_exit(3);
		put_event(slot.data, id, i, slot.ts, EV);
		ltt_rb_commit_add(&rb, slot.pos, slot.len);	/* record left set */
		rep->committed = i + 1;
		raise(SIGKILL);
		break;
	case BEFORE_CAS:
		ltt_rb_wrec_set(rec, __atomic_load_n(&((struct ltt_rb_shm *)r->mem)->offset,
						     __ATOMIC_RELAXED), EV, ltt_tclock_mono());
		raise(SIGKILL);
		break;
	}
	_exit(5);
}

static int wait_for(pid_t pid, int *ret_sig)
{
	int status;

	if (waitpid(pid, &status, WUNTRACED) != pid)
		return -1;
	*ret_sig = WIFSIGNALED(status) ? WTERMSIG(status) : WIFSTOPPED(status) ? WSTOPSIG(status) :
		   -WEXITSTATUS(status);
	return 0;
}

/*
 * The next program on the stream, in this process: block 1, @n events in
 * rounds the buffer holds, read after each.  Returns the drops.
 */
static int write_after(struct region *r, struct ltt_rb *rb, struct tally *t, uint64_t n)
{
	struct ltt_rb_slot slot;
	struct ltt_rb_wrec *rec;
	struct ltt_rb wrb;
	uint64_t i;
	int lfd, drops = 0;

	lfd = ltt_rb_own_fd(r->fd);
	if (lfd < 0 || ltt_rb_attach(&wrb, r->mem, r->len) || ofd_lock(lfd, 1, F_WRLCK) ||
	    !ltt_rb_writer_block_clean(&wrb, 1))
		return -1;
	rec = ltt_rb_writer_block(&wrb, 1);
	for (i = 0; i < n; i++) {
		if (ltt_rb_reserve_rec(&wrb, rec, EV, EV, 0, &slot)) {
			drops++;
			continue;
		}
		put_event(slot.data, 1, i, slot.ts, EV);
		ltt_rb_commit_add_rec(&wrb, rec, slot.pos, slot.len);
		if (i % 50 == 49)
			drain(rb, r, t);
	}
	ltt_rb_flush(rb, false);
	drain(rb, r, t);
	close(lfd);
	return drops;
}

/*
 * Writer 0 dies as @how after @n events; writer 1 then writes @after
 * events on the same stream (from block 1); the reader reads everything.
 */
static void one_death(const char *name, enum death how, uint64_t n, uint64_t after)
{
	struct region r;
	struct report *rep;
	struct tally t;
	struct ltt_rb rb;
	int sig, want = how == LIVE ? 0 : SIGKILL;
	uint64_t torn = how == MID_COPY || how == OPENER;
	pid_t pid;

	memset(&t, 0, sizeof(t));
	rep = mmap(NULL, 2 * sizeof(*rep), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		   -1, 0);
	if (!tap_ok(rep != MAP_FAILED && region_create(&r) == 0, "%s: region", name))
		return;
	if (ltt_rb_attach(&rb, r.mem, r.len))
		return;
	pid = writer(&r, 0, 0, n, how, &rep[0]);
	tap_ok(pid > 0 && !wait_for(pid, &sig) && sig == want, "%s: writer 0 ends as planned", name);
	drain(&rb, &r, &t);
	ltt_rb_flush(&rb, false);
	drain(&rb, &r, &t);
	/* a program that comes after on the same CPU (us): laps of it */
	tap_is_int(write_after(&r, &rb, &t, after), 0, "%s: writer 1 never drops", name);
	tap_is_int(t.errors, 0, "%s: every packet valid, events intact and in order", name);
	tap_is_u64(t.bad_counts, 0, "%s: every packet's event count is its events'", name);
	tap_is_u64(t.events[0], rep[0].committed,
		   "%s: writer 0: every committed event read (%" PRIu64 ")", name, rep[0].committed);
	tap_is_u64(t.torn, torn, "%s: %" PRIu64 " skip event read", name, torn);
	tap_is_u64(ltt_rb_events_lost(&rb), torn, "%s: torn events counted lost", name);
	tap_is_u64(t.events[1], after, "%s: writer 1: all %" PRIu64 " events read", name, after);
	tap_is_u64(rb.stats.packets_abandoned + rb.stats.packets_corrupt, 0,
		   "%s: no packet given up or corrupt", name);
	region_destroy(&r);
	munmap(rep, 2 * sizeof(*rep));
}

/* A stopped writer keeps its slot; continued, it commits and nothing is lost. */
static void stopped_writer(void)
{
	struct region r;
	struct report *rep;
	struct tally t;
	struct ltt_rb rb;
	int sig;
	pid_t pid;
	struct ltt_rb_repair_ops ops = { reader_lock, reader_unlock, fill, &r };

	memset(&t, 0, sizeof(t));
	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(rep != MAP_FAILED && region_create(&r) == 0, "stopped: region"))
		return;
	if (ltt_rb_attach(&rb, r.mem, r.len))
		return;
	pid = writer(&r, 0, 0, 10, STOP, rep);
	tap_ok(pid > 0 && !wait_for(pid, &sig) && sig == SIGSTOP, "stopped: writer stopped mid-copy");
	ltt_rb_flush(&rb, false);
	tap_is_int(ltt_rb_repair_subbuf(&rb, &ops), -EBUSY, "stopped: its slot is not taken (-EBUSY)");
	kill(pid, SIGCONT);
	tap_ok(!wait_for(pid, &sig) && sig == 0, "stopped: continued, it commits and exits");
	drain(&rb, &r, &t);
	tap_is_u64(t.events[0], 11, "stopped: all 11 events read");
	tap_is_u64(t.torn + ltt_rb_events_lost(&rb), 0, "stopped: nothing torn, nothing lost");
	tap_is_int(t.errors, 0, "stopped: packet intact");
	region_destroy(&r);
	munmap(rep, sizeof(*rep));
}

/*
 * A live writer stopped (SIGSTOP: as preempted, only longer) between the
 * reserve that opened a packet and its commit, read by a reader that took
 * the stream over (a handle attached afresh, as a new consumer's): a dead
 * writer's stale intent for that very slot, same position and length,
 * accounts exactly for what the packet misses, which lengths alone would
 * take for a torn event.  The live writer's record is read with the dead
 * one's and its block is locked by it: -EBUSY, nothing written.  Continued,
 * it commits, and the packet is read whole, nothing torn or lost.
 */
static void slow_opener_takeover(void)
{
	struct ltt_rb_repair_ops ops;
	struct ltt_rb_packet pkt;
	struct ltt_rb_wrec *stale;
	struct report *rep;
	struct region r;
	struct tally t;
	struct ltt_rb rb, rb2, w;
	uint64_t opener;
	int sig;
	pid_t pid;

	memset(&t, 0, sizeof(t));
	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(rep != MAP_FAILED && region_create(&r) == 0 && !ltt_rb_attach(&rb, r.mem, r.len) &&
		    !ltt_rb_attach(&w, r.mem, r.len), "slow opener: region"))
		return;
	ops = (struct ltt_rb_repair_ops){ reader_lock, reader_unlock, fill, &r };
	/* S - HDR = 100 * EV + 12: its event 100 opens packet 1 */
	pid = writer(&r, 0, 0, 100, STOP, rep);
	tap_ok(pid > 0 && !wait_for(pid, &sig) && sig == SIGSTOP,
	       "slow opener: stopped after the reserve that opened packet 1");
	drain(&rb, &r, &t);
	tap_is_u64(t.events[0], 100, "slow opener: packet 0, closed by the opener, read (100 events)");
	opener = __atomic_load_n(&((struct ltt_rb_shm *)r.mem)->offset, __ATOMIC_RELAXED) - EV;
	tap_is_u64(opener, S + HDR, "slow opener: its slot is packet 1's first");
	/* nobody holds block 2: a writer that died before its CAS, same slot */
	stale = ltt_rb_writer_block(&w, 2);
	ltt_rb_wrec_set(&stale[0], opener, EV, ltt_tclock_mono());
	/* a new reader takes the stream over, and closes packet 1 */
	tap_ok(!ltt_rb_attach(&rb2, r.mem, r.len) && !ltt_rb_flush(&rb2, false) &&
	       ltt_rb_get_next_subbuf(&rb2, &pkt) == -EAGAIN,
	       "slow opener: the new reader finds packet 1 closed, short of the live slot");
	tap_is_int(ltt_rb_repair_subbuf(&rb2, &ops), -EBUSY,
		   "slow opener: the live writer's slot is not taken for the dead intent (-EBUSY)");
	tap_is_u64(rb2.stats.events_torn + ltt_rb_events_lost(&rb2), 0,
		   "slow opener: nothing torn, nothing counted lost");
	kill(pid, SIGCONT);
	tap_ok(!wait_for(pid, &sig) && sig == 0, "slow opener: continued, it commits and exits");
	drain(&rb2, &r, &t);
	tap_is_u64(t.events[0], 101, "slow opener: its event is read: 101 in all");
	tap_is_u64(t.torn + t.errors + t.bad_counts, 0, "slow opener: no skip event, packets intact");
	region_destroy(&r);
	munmap(rep, sizeof(*rep));
}

/*
 * A live writer without a record must keep the repair off its packet: a
 * dead writer's stale record (its slot committed, the record not cleared)
 * has the very length the live writer still owes, which lengths alone
 * would take for the dead one's debt and write a skip event over
 * committed bytes.  The repair waits (-EBUSY); the live writer commits;
 * both events are read intact.  A writer without a record that dies keeps
 * the repair off for good.
 */
static void untracked_live(void)
{
	struct ltt_rb_repair_ops ops;
	struct ltt_rb_slot a, b;
	struct ltt_rb_packet pkt;
	struct ltt_rb_wrec *dead;
	struct region r;
	struct ltt_rb w, rb;
	uint8_t before[EV];
	int ret;

	if (!tap_ok(region_create(&r) == 0 && !ltt_rb_attach(&w, r.mem, r.len) &&
		    !ltt_rb_attach(&rb, r.mem, r.len), "untracked: region"))
		return;
	ops = (struct ltt_rb_repair_ops){ reader_lock, reader_unlock, fill, &r };
	dead = ltt_rb_writer_block(&w, 0);	/* nobody holds block 0: its owner is dead */
	ret = ltt_rb_reserve_rec(&w, &dead[0], EV, EV, 0, &a);
	put_event(a.data, 0, 0, a.ts, EV);
	memcpy(before, a.data, EV);
	ltt_rb_commit_add(&w, a.pos, a.len);	/* died before clearing its record */
	tap_ok(!ret && dead[0].pos == a.pos, "untracked: a dead writer's stale record");
	ret = ltt_rb_reserve_untracked(&w, EV, EV, 0, &b);
	tap_ok(!ret && b.pos == a.pos + EV, "untracked: a live writer without a record reserves");
	ltt_rb_flush(&rb, false);
	tap_is_int(ltt_rb_get_next_subbuf(&rb, &pkt), -EAGAIN, "untracked: packet short");
	tap_is_int(ltt_rb_repair_subbuf(&rb, &ops), -EBUSY,
		   "untracked: the repair waits for the live writer (-EBUSY)");
	tap_ok(!memcmp(a.data, before, EV), "untracked: committed bytes untouched");
	put_event(b.data, 1, 0, b.ts, EV);
	ltt_rb_commit_untracked(&w, b.pos, b.len);
	ret = ltt_rb_get_next_subbuf(&rb, &pkt);
	tap_ok(!ret && pkt.events == 2, "untracked: committed, the packet is read with 2 events");
	tap_ok(!memcmp(a.data, before, EV), "untracked: first event intact");
	if (!ret)
		ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_u64(rb.stats.packets_repaired + rb.stats.events_torn + ltt_rb_events_lost(&rb), 0,
		   "untracked: nothing repaired, torn or lost");
	/* a stale record and a torn slot of one length: which is owed is unknown */
	ret = ltt_rb_reserve_rec(&w, &dead[2], EV, EV, 0, &a);
	put_event(a.data, 0, 1, a.ts, EV);
	memcpy(before, a.data, EV);
	ltt_rb_commit_add(&w, a.pos, a.len);
	ret |= ltt_rb_reserve_rec(&w, &dead[3], EV, EV, 0, &b);
	ltt_rb_flush(&rb, false);
	tap_ok(!ret && ltt_rb_repair_subbuf(&rb, &ops) == -ENOTRECOVERABLE &&
	       !memcmp(a.data, before, EV),
	       "untracked: stale and torn records of one length: -ENOTRECOVERABLE, committed bytes untouched");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "untracked: that packet is given up");
	tap_is_u64(rb.stats.events_abandoned, 1, "untracked: its committed event counted");
	/* one that dies: the repair never takes its packet, even a torn slot's */
	region_destroy(&r);
	if (!tap_ok(region_create(&r) == 0 && !ltt_rb_attach(&w, r.mem, r.len) &&
		    !ltt_rb_attach(&rb, r.mem, r.len), "untracked: region 2"))
		return;
	ops.arg = &r;
	dead = ltt_rb_writer_block(&w, 0);

	ret = ltt_rb_reserve_rec(&w, &dead[1], EV, EV, 0, &a);
	ret |= ltt_rb_reserve_untracked(&w, EV, EV, 0, &b);
	ltt_rb_flush(&rb, false);
	tap_ok(!ret && ltt_rb_repair_subbuf(&rb, &ops) == -EBUSY,
	       "untracked: a dead one keeps the repair off (-EBUSY)");
	region_destroy(&r);
	/*
	 * A slot without a record, and no record owing the packet: a live
	 * writer's, not one the reader may give up (-ENOTRECOVERABLE would say
	 * so, -ENOENT that no record owes it).
	 */
	if (!tap_ok(region_create(&r) == 0 && !ltt_rb_attach(&w, r.mem, r.len) &&
		    !ltt_rb_attach(&rb, r.mem, r.len), "untracked: region 3"))
		return;
	ops.arg = &r;
	ret = ltt_rb_reserve_untracked(&w, EV, EV, 0, &b);
	ltt_rb_flush(&rb, false);
	tap_ok(!ret && ltt_rb_repair_subbuf(&rb, &ops) == -EBUSY,
	       "untracked: alone, no record owing: the repair waits (-EBUSY)");
	put_event(b.data, 1, 0, b.ts, EV);
	ltt_rb_commit_untracked(&w, b.pos, b.len);
	ret = ltt_rb_get_next_subbuf(&rb, &pkt);
	tap_ok(!ret && pkt.events == 1, "untracked: alone, committed: read with its event");
	if (!ret)
		ltt_rb_put_subbuf(&rb, &pkt);
	region_destroy(&r);
}

/*
 * A writer killed just after marking its record busy (its first store,
 * so that a signal handler of its thread goes untracked) left no slot:
 * its record, with a length and timestamp from an earlier event, owes
 * nothing, and a torn slot beside it is repaired as if it were alone.
 */
static void busy_record(void)
{
	struct ltt_rb_repair_ops ops;
	struct ltt_rb_slot a;
	struct ltt_rb_packet pkt;
	struct ltt_rb_wrec *dead;
	struct region r;
	struct ltt_rb w, rb;
	int ret;

	if (!tap_ok(region_create(&r) == 0 && !ltt_rb_attach(&w, r.mem, r.len) &&
		    !ltt_rb_attach(&rb, r.mem, r.len), "busy: region"))
		return;
	ops = (struct ltt_rb_repair_ops){ reader_lock, reader_unlock, fill, &r };
	dead = ltt_rb_writer_block(&w, 0);	/* nobody holds block 0: its owners are dead */
	ret = ltt_rb_reserve_rec(&w, &dead[0], EV, EV, 0, &a);	/* torn: never committed */
	/* killed after the busy mark: an earlier event's length and timestamp */
	__atomic_store_n(&dead[1].len, (uint64_t)EV, __ATOMIC_RELAXED);
	__atomic_store_n(&dead[1].ts, a.ts, __ATOMIC_RELAXED);
	__atomic_store_n(&dead[1].pos, LTT_RB_WREC_BUSY, __ATOMIC_RELAXED);
	ltt_rb_flush(&rb, false);
	tap_ok(!ret && ltt_rb_get_next_subbuf(&rb, &pkt) == -EAGAIN, "busy: packet short");
	tap_is_int(ltt_rb_repair_subbuf(&rb, &ops), 0, "busy: the torn slot is repaired");
	tap_ok(rb.stats.events_torn == 1 && rb.stats.packets_repaired == 1,
	       "busy: one torn event, the busy record owed nothing");
	ret = ltt_rb_get_next_subbuf(&rb, &pkt);
	tap_ok(!ret && pkt.events == 0, "busy: the packet is read (a skip event, no event)");
	if (!ret)
		ltt_rb_put_subbuf(&rb, &pkt);
	region_destroy(&r);
}

/*
 * The cost of a packet no repair can explain: records in ownerless blocks
 * that fit no way.  One search per state of the packet: asked again with
 * nothing moved, the repair answers at once; a commit makes it look
 * again.  And no more than 8 pieces are searched.
 */
static void repair_cost(void)
{
	struct ltt_rb_repair_ops ops;
	struct ltt_rb_slot a, b;
	struct ltt_rb_packet pkt;
	struct ltt_rb_wrec *rec;
	struct region r;
	struct ltt_rb w, rb;
	unsigned int i;
	int ret;

	if (!tap_ok(region_create(&r) == 0 && !ltt_rb_attach(&w, r.mem, r.len) &&
		    !ltt_rb_attach(&rb, r.mem, r.len), "cost: region"))
		return;
	ops = (struct ltt_rb_repair_ops){ reader_lock, reader_unlock, fill, &r };
	/* two slots nobody will ever commit through a record */
	ret = ltt_rb_reserve_ts(&w, 1000, 1000, 0, &a);
	ret |= ltt_rb_reserve_ts(&w, 2000, 2000, 0, &b);
	for (i = 0; i < 6; i++) {	/* 1..6 bytes: no subset makes 3000 */
		rec = &ltt_rb_writer_block(&w, i)[0];
		ltt_rb_wrec_set(rec, b.pos + 2000 + 10 * i, 1 + i, b.ts);
	}
	ltt_rb_flush(&rb, false);
	tap_ok(!ret && ltt_rb_get_next_subbuf(&rb, &pkt) == -EAGAIN, "cost: packet short");
	for (i = 0; i < 100; i++)
		ret = ltt_rb_repair_subbuf(&rb, &ops);
	tap_is_int(ret, -ENOENT, "cost: no repair fits (bytes owed without a record): -ENOENT");
	tap_is_u64(rb.stats.repair_searches, 1, "cost: 100 attempts, 1 search");
	ltt_rb_commit(&w, &a);
	tap_is_int(ltt_rb_repair_subbuf(&rb, &ops), -ENOENT, "cost: a commit: still none fits");
	tap_is_u64(rb.stats.repair_searches, 2, "cost: the commit made it search again");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "cost: given up");
	/* 9 dead pieces that fit exactly: beyond the bound, not searched */
	ret = 0;
	for (i = 0; i < 9; i++) {
		ret |= ltt_rb_reserve_ts(&w, EV, EV, 0, &a);
		rec = &ltt_rb_writer_block(&w, i)[1];
		ltt_rb_wrec_set(rec, a.pos, EV, a.ts);
	}
	ltt_rb_flush(&rb, false);
	tap_ok(!ret && ltt_rb_get_next_subbuf(&rb, &pkt) == -EAGAIN, "cost: 9 torn slots");
	tap_is_int(ltt_rb_repair_subbuf(&rb, &ops), -ENOTRECOVERABLE,
		   "cost: more than 8 pieces: -ENOTRECOVERABLE");
	region_destroy(&r);
}

int main(void)
{
	/* S - HDR = 4012 = 100 * 40 + 12: event 100 opens packet 1 */
	one_death("live", LIVE, 150, 1000);
	one_death("mid-copy", MID_COPY, 150, 1000);
	one_death("opener", OPENER, 100, 1000);
	one_death("after commit", AFTER_COMMIT, 150, 1000);
	one_death("before CAS", BEFORE_CAS, 150, 1000);
	stopped_writer();
	slow_opener_takeover();
	untracked_live();
	busy_record();
	repair_cost();
	return tap_done();
}
