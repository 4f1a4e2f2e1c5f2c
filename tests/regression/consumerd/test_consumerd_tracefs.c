// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumerd_tracefs.c - ltt-consumerd's tracefs channels (domain 2,
 * ADD_FTRACE_STREAM) on the kernel's own ftrace buffers.  The test plays
 * the session daemon: it makes a private ftrace instance (mono clock,
 * set_event_pid to itself), an event map of getppid's entry and exit
 * (CTF ids 0 and 1, from their format files), real TSDL from the session
 * daemon's generator, then drives a real consumer.  Checked:
 *   - bad input: a map fd that is not a map (EINVAL, nothing added: the
 *     same CPU is then added), another map than the channel's (EINVAL),
 *     ADD_FTRACE_STREAM to a user-space channel and ADD_KERNEL_STREAM to a
 *     tracefs channel (EPROTO);
 *   - exactly 1000 getppid() calls from this thread, pinned to CPU 0:
 *     the channel's switch timer writes the packet of the last ones
 *     before any flush; babeltrace2 reads exactly 1000 entries and 1000
 *     exits with this thread's tid and cpu_id 0, nothing lost;
 *   - discard: a 4 KB non-overwrite buffer, the consumer stopped
 *     (SIGSTOP) while 5000 calls run; CHANNEL_STATS, then DESTROY_CHANNEL
 *     with no flush before it: recorded + counted lost == 10000 events;
 *   - a BPF ring beside CPU 0's pipe (ADD_BPF_RING), written by this test
 *     (a BPF_PROG_TYPE_SYSCALL program run with BPF_PROG_TEST_RUN puts
 *     the records given): a record stamped ahead of the pipe's next ones
 *     waits for them (a flush between them takes the ring only up to
 *     what the pipe has given: a stream's time never goes back), and
 *     2000 records older than a page's first (the consumer stopped while
 *     they came) wait for room in the packet queue, none lost.  Skipped
 *     where the program can't be loaded.
 *   - a stream closed unread (its removal's deadline passed: a second
 *     consumer stops itself at LTT_FAULT's remove-channel-wait, is
 *     continued past the deadline): 50000 ring records and 10 getppid()
 *     behind a page the packet queue stopped; the stream's statistics
 *     page says the rest lost, recorded + counted == committed;
 *   - a stream taken over from a dead consumer: the discards its source
 *     counted itself, left in the statistics page's slot
 *     (source_own_discarded), are where the new source's count starts:
 *     in its packets' events_discarded, and published again.
 * Skipped, with the reason, without root, tracefs or babeltrace2.  The
 * instances are removed at exit and on a fatal signal.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "common/ftrace/ftrace-map.h"
#include "common/proto/consumer-proto.h"
#include "consumerd-harness.h"
#include "tracefs-harness.h"
#include "../../unit/tap.h"

#define NR_CALLS 1000
#define NR_DISCARD 5000
#define NR_RING 2000
#define NR_ABANDON 50000
#define NR_CARRIED 7
/* What a dead consumer's ledger says it held and had discarded itself. */
#define NR_HELD 5
#define PID_AHEAD 999001
#define PID_FLOOD 999002
#define SWITCH_US 50000

/* ---- the cases (their harness: tracefs-harness.c) ---- */

/* Bad input on channel 10 (tracefs) and 11 (user space); cpu 0 stays free. */
static void test_bad_input(struct ch_cons *c, int good_map)
{
	int plain = memfd_create("not-a-map", MFD_CLOEXEC), other = make_map();
	int pipe0 = open_pipe(0, 0), fds[2] = { pipe0, plain };
	struct ch_chan_args ua = { .key = 11, .trace_key = 1, .name = "uchan" };

	tap_ok(plain >= 0 && other >= 0 && pipe0 >= 0, "a memfd, a second map, cpu0's pipe");
	if (ftruncate(plain, LTT_FTRACE_MAP_SIZE))
		tap_diag("ftruncate: %s", strerror(errno));
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 0, fds, 2),
		   -EINVAL, "ADD_FTRACE_STREAM with a memfd that is not a map: EINVAL");
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 0, fds, 1),
		   -EPROTO, "ADD_FTRACE_STREAM with one fd: EPROTO");
	tap_is_int(ch_add_channel(c, &ua), 0, "a user-space channel beside it");
	fds[1] = good_map;
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 11, 0, fds, 2),
		   -EPROTO, "ADD_FTRACE_STREAM to a user-space channel: EPROTO");
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_KERNEL_STREAM, 10, 0, fds, 1),
		   -EPROTO, "ADD_KERNEL_STREAM to a tracefs channel: EPROTO");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 11), 0,
		   "the user-space channel destroyed");
	/* cpu 0 was not added by the refusals: the real one takes it below */
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 0, fds, 2), 0,
		   "cpu 0 with the channel's map: added (nothing was left by the refusals)");
	fds[1] = other;
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 1, fds, 2),
		   -EINVAL, "another map than the channel's: EINVAL");
	close(plain);
	close(other);
	close(pipe0);
}


/* The rest of instance 0's CPUs (cpu 0 is in), the load, the trace read. */
static void test_record(struct ch_cons *c, const char *dir, int map_fd)
{
	struct ch_stats st = { 0 };
	struct tally t;
	bool skipped;
	long tid = syscall(SYS_gettid);
	unsigned int cpu, nr = 1;
	int fds[2] = { -1, map_fd };
	char path[PATH_MAX];
	uint64_t last;

	for (cpu = 1; cpu < MAX_CPUS && (fds[0] = open_pipe(0, cpu)) >= 0; cpu++, nr++) {
		if (add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, cpu, fds, 2))
			tap_diag("cpu %u not added", cpu);
		close(fds[0]);
	}
	tap_diag("%u CPUs", nr);
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_STREAMS_SENT, 10), 0, "STREAMS_SENT");
	tap_ok(load(0, NR_CALLS, &last), "events on, %d getppid() on CPU 0, events off",
	       NR_CALLS);
	tap_ok(timer_wrote(ch_path_of(path, dir, "kchan_0"), last, WAIT_MS),
	       "the switch timer wrote the last events' packet before any flush");
	tap_is_int(ch_flush(c, 10, 1), 0, "FLUSH_CHANNEL final");
	tap_is_int(ch_stats(c, 10, &st), 0, "CHANNEL_STATS");
	tap_is_u64(st.events_lost, 0, "no event lost");
	tap_ok(st.bytes_written > 0, "%" PRIu64 " bytes written", st.bytes_written);
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 10), 0, "DESTROY_CHANNEL");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), 0, "DESTROY_TRACE");
	if (!read_trace(dir, tid, &t, &skipped))
		return;
	tap_diag("babeltrace2: %u lines; this thread: %u entries, %u exits", t.lines, t.entries,
		 t.exits);
	tap_is_int(t.entries, NR_CALLS, "exactly %d syscall_entry_getppid of this thread", NR_CALLS);
	tap_is_int(t.exits, NR_CALLS, "exactly %d syscall_exit_getppid of this thread", NR_CALLS);
	tap_is_int(t.on_cpu0, 2 * NR_CALLS, "each with cpu_id 0 (the pinned CPU)");
}


/* Instance 1: a 4 KB non-overwrite buffer, the consumer stopped during the load. */
static void test_discard(struct ch_cons *c, const char *dir, const struct ltt_ctx *ctx)
{
	struct ch_stats st = { 0 };
	struct tally t;
	bool skipped;
	long tid = syscall(SYS_gettid);
	int map_fd = make_map();
	uint64_t last;

	tap_ok(make_instance(1, "4", "0") && map_fd >= 0, "a 4 KB non-overwrite instance, a map");
	tap_is_int(ch_add_trace(c, 2, dir, getuid(), getgid()), 0, "ADD_TRACE 2");
	tap_ok(send_metadata(c, 2, ctx), "its metadata");
	tap_is_int(add_tracefs_channel(c, 20, 2, ctx, 2, 0), 0, "ADD_CHANNEL tracefs, 2 x 4 KB");
	tap_ok(add_all_cpus(c, 1, 20, map_fd) > 0, "every CPU added");
	close(map_fd);
	tap_ok(stop_consumer(c), "consumer stopped (its stop waited for)");
	tap_ok(load(1, NR_DISCARD, &last), "%d getppid() on CPU 0", NR_DISCARD);
	tap_is_int(kill(c->pid, SIGCONT), 0, "consumer continued");
	diag_stats(1, 0);
	/* no flush: the stats count the drops already, the destroy writes the rest */
	tap_is_int(ch_stats(c, 20, &st), 0, "CHANNEL_STATS");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 20), 0,
		   "DESTROY_CHANNEL without FLUSH_CHANNEL");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 2), 0, "DESTROY_TRACE");
	if (!read_trace(dir, tid, &t, &skipped))
		return;
	tap_diag("recorded %u entries, %u exits; lost %" PRIu64, t.entries, t.exits,
		 st.events_lost);
	tap_ok(st.events_lost > 0, "events were lost (the buffer was full)");
	tap_is_u64(t.entries + t.exits + st.events_lost, 2 * NR_DISCARD,
		   "recorded + counted lost == %d events", 2 * NR_DISCARD);
}


/* Instance 2, CPU 0 with a BPF ring this test writes: time order, and no loss. */
static void test_bpf(struct ch_cons *c, const char *dir, const struct ltt_ctx *ctx)
{
	int ring = make_bpf_map(BPF_MAP_TYPE_RINGBUF, 1 << 18);
	int lost = make_bpf_map(BPF_MAP_TYPE_ARRAY, MAX_CPUS);
	int prog = ring >= 0 ? load_ring_writer(ring, 0) : -1, map_fd = make_map();
	struct ch_stats st = { 0 };
	struct timespec until;
	long tid = syscall(SYS_gettid);
	uint64_t last, ahead;
	bool skipped, ok = true;
	unsigned int i;

	if (ring < 0 || lost < 0 || prog < 0) {
		tap_skip("BPF ring: a ring, its lost counts and a program that writes it can't be made here (%s)",
			 strerror(errno));
		goto out;
	}
	tap_ok(make_instance(2, "64", "0") && map_fd >= 0, "bpf: an instance, a map, a BPF ring");
	tap_ok(!ch_add_trace(c, 3, dir, getuid(), getgid()) && send_metadata(c, 3, ctx) &&
	       !add_tracefs_channel(c, 30, 3, ctx, 16, 0), "bpf: its trace, a channel of 16 x 4 KB");
	ok = add_ring_stream(c, 30, 2, ring, lost, map_fd, -1);
	tap_ok(ok, "bpf: CPU 0's ring, then its stream");

	/* a record stamped 300 ms ahead; a flush; the pipe's records of now */
	ahead = now_mono() + 300000000;
	tap_ok(ring_put(prog, ahead, PID_AHEAD) && !ch_flush(c, 30, 0) && load(2, 10, &last),
	       "bpf: a ring record stamped 300 ms ahead, a flush, then 10 getppid()");
	until.tv_sec = (time_t)((ahead + 1000000) / 1000000000);
	until.tv_nsec = (long)((ahead + 1000000) % 1000000000);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;	/* its time passed: the pipe can't give older records */

	/* the consumer stopped: 2000 ring records, then the pipe's */
	tap_ok(stop_consumer(c), "bpf: consumer stopped");
	for (i = 0; i < NR_RING && ok; i++)
		ok = ring_put(prog, now_mono(), PID_FLOOD);
	tap_ok(ok && load(2, 10, &last), "bpf: %d ring records, then 10 getppid()", NR_RING);
	tap_is_int(kill(c->pid, SIGCONT), 0, "bpf: consumer continued");
	tap_ok(!ch_flush(c, 30, 1) && !ch_stats(c, 30, &st), "bpf: flushed, its stats");
	tap_is_u64(st.events_lost, 0, "bpf: nothing lost (the ring's records waited for room)");
	tap_ok(!ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 30) &&
	       !ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 3), "bpf: destroyed");
	if (!read_trace(dir, tid, &(struct tally){ 0 }, &skipped))
		goto out;
	tap_is_int(entries_before(bt_out, tid, PID_AHEAD), 10,
		   "bpf: the record stamped ahead after the 10 entries older than it");
	tap_is_int((int)count_pid(bt_out, PID_FLOOD), NR_RING, "bpf: the %d ring records, each once",
		   NR_RING);
out:
	close_fds((const int[]){ prog, ring, lost, map_fd }, 4);
}

/* The consumer stopped by its fault, continued once its removal's deadline passed. */
struct resumer {
	pid_t pid;
	bool stopped;
	const int *done;	/* atomic: the DESTROY_CHANNEL was answered */
	pthread_t thread;
};

static void *resume_main(void *arg)
{
	struct resumer *r = arg;
	struct timespec until;
	int status, i;
	pid_t got = 0;

	/* the stop, or the answer without it (then the test fails), 20 s at most */
	for (i = 0; i < 20000 && !got && !__atomic_load_n(r->done, __ATOMIC_ACQUIRE); i++) {
		got = waitpid(r->pid, &status, WUNTRACED | WNOHANG);
		if (!got)
			usleep(1000);
	}
	r->stopped = got == r->pid && WIFSTOPPED(status);
	if (!r->stopped)
		return NULL;
	/* past the removal's 2 s (END_WAIT_MS): time itself is what is waited for */
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 3;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	kill(r->pid, SIGCONT);
	return NULL;
}

/* The DESTROY_CHANNEL of test_abandon(), sent while the consumer is stopped. */
struct destroyer {
	struct ch_cons *c;
	int ret;
	int done;		/* atomic */
	pthread_t thread;
};

static void *destroy_main(void *arg)
{
	struct destroyer *d = arg;

	d->ret = ch_key_cmd(d->c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 40);
	__atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Bytes sent on @fd its peer has not read yet (SIOCOUTQ), waited for up to 10 s. */
static bool wait_queued(int fd)
{
	int n = 0, i;

	for (i = 0; i < 10000; i++) {
		if (ioctl(fd, SIOCOUTQ, &n) == 0 && n > 0)
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * Instance 3, a second consumer (LTT_FAULT="stop remove-channel-wait"):
 * CPU 0's stream closed while its packet queue holds a backlog and a
 * page stopped, as a removal whose deadline passed closes it.  What the
 * source held is counted lost in the stream's statistics page.
 */
static void test_abandon(const char *dir, const struct ltt_ctx *ctx)
{
	int ring = make_bpf_map(BPF_MAP_TYPE_RINGBUF, 1 << 22);
	int lost = make_bpf_map(BPF_MAP_TYPE_ARRAY, MAX_CPUS);
	int prog = ring >= 0 ? load_ring_writer(ring, BPF_RB_NO_WAKEUP) : -1, map_fd = make_map();
	int stats = memfd_create("stats", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	struct resumer r = { 0 };
	struct destroyer d = { .ret = -1 };
	const struct ltt_consumer_stream_stats *st = MAP_FAILED;
	struct ch_cons c;
	struct tally t = { 0 };
	long tid = syscall(SYS_gettid);
	uint64_t last, counted, recorded;
	unsigned int i, flood;
	bool skipped, ok;

	if (ring < 0 || lost < 0 || prog < 0) {
		tap_skip("abandon: a BPF ring and its writer can't be made here (%s)", strerror(errno));
		goto out;
	}
	ok = stats >= 0 && !ftruncate(stats, (off_t)LTT_CONSUMER_STATS_SIZE(1)) &&
	     !fcntl(stats, F_ADD_SEALS, F_SEAL_SHRINK);
	st = ok ? mmap(NULL, LTT_CONSUMER_STATS_SIZE(1), PROT_READ, MAP_SHARED, stats, 0) :
		  MAP_FAILED;
	setenv("LTT_FAULT", "stop remove-channel-wait", 1);
	ok = ok && st != MAP_FAILED && !ch_start(&c);
	unsetenv("LTT_FAULT");
	/* no wakeup from the pipe (buffer_percent 100) or the ring: read at the removal only */
	if (!tap_ok(ok && make_instance(3, "64", "0") && !inst_write(3, "buffer_percent", "100") &&
		    map_fd >= 0,
		    "abandon: a consumer that stops at remove-channel-wait, an instance, a ring"))
		goto out;
	ok = !ch_add_trace(&c, 4, dir, getuid(), getgid()) && send_metadata(&c, 4, ctx) &&
	     !add_tracefs_channel(&c, 40, 4, ctx, 2, 0) &&
	     add_ring_stream(&c, 40, 3, ring, lost, map_fd, stats);
	tap_ok(ok, "abandon: a channel of 2 x 4 KB, CPU 0's ring and stream with a statistics page");

	/* stopped: the ring's records, older than the page's, then the pipe's */
	ok = stop_consumer(&c);
	for (i = 0; i < NR_ABANDON && ok; i++)
		ok = ring_put(prog, now_mono(), PID_FLOOD);
	tap_ok(ok && load(3, 10, &last), "abandon: consumer stopped, %d ring records, 10 getppid()",
	       NR_ABANDON);
	/* the removal waits for the backlog, stops there, and is continued past its deadline */
	r.pid = c.pid;
	r.done = &d.done;
	d.c = &c;
	ok = !pthread_create(&d.thread, NULL, destroy_main, &d);
	ok = ok && wait_queued(c.fd) && !pthread_create(&r.thread, NULL, resume_main, &r);
	kill(c.pid, SIGCONT);
	if (ok) {
		pthread_join(r.thread, NULL);
		pthread_join(d.thread, NULL);
	}
	tap_ok(ok && r.stopped && d.ret == 0,
	       "abandon: DESTROY_CHANNEL stopped at remove-channel-wait, answered past its deadline");
	tap_ok(!ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_TRACE, 4) && !kill(c.pid, SIGTERM) &&
	       ch_wait(&c, WAIT_MS) == 0, "abandon: trace destroyed, the consumer exits 0");
	if (!read_trace(dir, tid, &t, &skipped))
		goto out;
	flood = count_pid(bt_out, PID_FLOOD);
	recorded = (uint64_t)t.entries + t.exits + flood;
	counted = st->events_lost + st->source_events_lost;
	tap_diag("abandon: recorded %u entries, %u exits, %u ring records; counted lost %" PRIu64
		 " (%" PRIu64 " of them the source's)", t.entries, t.exits, flood, counted,
		 st->source_events_lost);
	tap_ok(recorded < 2 * 10 + NR_ABANDON, "abandon: the stream closed before its backlog was read");
	tap_is_u64(recorded + counted, 2 * 10 + NR_ABANDON,
		   "abandon: recorded + counted lost == %d committed", 2 * 10 + NR_ABANDON);
out:
	if (st != MAP_FAILED)
		munmap((void *)st, LTT_CONSUMER_STATS_SIZE(1));
	close_fds((const int[]){ stats, prog, ring, lost, map_fd }, 5);
}


/*
 * A stream taken over: its statistics page's slot holds what a dead
 * consumer's source discarded itself (NR_CARRIED); the new one counts on
 * from there.  With @ledger, the slot holds that consumer's ledger too,
 * which says NR_HELD (its own discards and the events it held, on an
 * instance nobody read: ftrace's "read events" 0): the new one counts on
 * from that, not from the published own count.
 */
static void test_carry(const char *dir, const struct ltt_ctx *ctx, int i, bool ledger)
{
	const char *what = ledger ? "ledger" : "carry";
	uint64_t want = ledger ? NR_HELD : NR_CARRIED, nread = 0, discarded;
	int stats = memfd_create("stats", MFD_CLOEXEC | MFD_ALLOW_SEALING), map_fd = make_map();
	struct ltt_consumer_stream_stats *st = MAP_FAILED;
	int fds[3] = { -1, map_fd, stats };
	char path[PATH_MAX];
	struct tally t = { 0 };
	long tid = syscall(SYS_gettid);
	struct ch_cons c;
	uint64_t last;
	bool ok, skipped;

	ok = stats >= 0 && !ftruncate(stats, (off_t)LTT_CONSUMER_STATS_SIZE(1)) &&
	     !fcntl(stats, F_ADD_SEALS, F_SEAL_SHRINK);
	st = ok ? mmap(NULL, LTT_CONSUMER_STATS_SIZE(1), PROT_READ | PROT_WRITE, MAP_SHARED,
		       stats, 0) : MAP_FAILED;
	if (st != MAP_FAILED) {
		st->source_own_discarded = NR_CARRIED;	/* as the dead consumer left it */
		st->ledger.value = ledger ? NR_HELD : 0;
		st->ledger.pending_seq = UINT64_MAX;
		st->ledger.kept = ledger;
	}
	if (!tap_ok(st != MAP_FAILED && map_fd >= 0 && make_instance(i, "64", "0") &&
		    !ch_start(&c), "%s: a statistics page a dead consumer left, an instance", what))
		goto out;
	fds[0] = open_pipe(i, 0);
	ok = !ch_add_trace(&c, 5, dir, getuid(), getgid()) && send_metadata(&c, 5, ctx) &&
	     !add_tracefs_channel(&c, 50, 5, ctx, 2, 0) && fds[0] >= 0 &&
	     !add_ftrace_stream(&c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS, 50, 0, fds, 3) &&
	     !ch_key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 50);
	tap_ok(ok, "%s: CPU 0's stream added with that page", what);
	tap_ok(load(i, 10, &last), "%s: 10 getppid() on CPU 0", what);
	tap_ok(!ch_flush(&c, 50, 1) && !ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 50) &&
	       !ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_TRACE, 5) && !kill(c.pid, SIGTERM) &&
	       ch_wait(&c, WAIT_MS) == 0, "%s: flushed, destroyed, the consumer exits 0", what);
	last_packet(ch_path_of(path, dir, "kchan_0"), NULL, &discarded);
	tap_is_u64(discarded, want,
		   "%s: the packets' events_discarded start from the dead consumer's %" PRIu64,
		   what, want);
	tap_is_u64(st->source_own_discarded, want,
		   "%s: the slot's source_own_discarded published again, %" PRIu64, what, want);
	ok = read_events(i, &nread);
	tap_ok(ok && st->ledger.kept == 1 && st->ledger.value + nread == want,
	       "%s: the new consumer's ledger kept: with ftrace's %" PRIu64
	       " records read, what it carried (%" PRIu64 ")", what, nread,
	       st->ledger.value + nread);
	if (read_trace(dir, tid, &t, &skipped))
		tap_ok(t.entries == 10 && t.exits == 10, "%s: the 10 calls recorded (%u, %u)",
		       what, t.entries, t.exits);
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (st != MAP_FAILED)
		munmap(st, LTT_CONSUMER_STATS_SIZE(1));
	close_fds((const int[]){ stats, map_fd }, 2);
}


int main(void)
{
	char dir[PATH_MAX], dir2[PATH_MAX], dir3[PATH_MAX], dir4[PATH_MAX], dir5[PATH_MAX],
		dir6[PATH_MAX];
	struct ltt_ctx ctx[2];
	const char *why;
	struct ch_cons c;
	int map_fd;

	if (ch_setup())
		return 1;
	why = can_run();
	if (why) {
		/* TAP's skip of the whole test (tap.c escapes '#' in descriptions) */
		printf("1..0 # SKIP tracefs channels: %s\n", why);
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		return 0;
	}
	ltt_ctx_parse("tid", &ctx[0]);
	ltt_ctx_parse("cpu_id", &ctx[1]);
	ch_pathf(dir, "%s/out/kernel", ch_tmpdir);
	ch_pathf(dir2, "%s/out/discard", ch_tmpdir);
	ch_pathf(dir3, "%s/out/bpf", ch_tmpdir);
	ch_pathf(dir4, "%s/out/abandon", ch_tmpdir);
	ch_pathf(dir5, "%s/out/carry", ch_tmpdir);
	ch_pathf(dir6, "%s/out/ledger", ch_tmpdir);
	map_fd = make_map();
	if (!tap_ok(map_fd >= 0, "an event map of getppid's entry and exit") ||
	    !tap_ok(ch_start(&c) == 0, "consumer started (%s)", ch_consumerd_path))
		return tap_done();
	tap_is_int(ch_add_trace(&c, 1, dir, getuid(), getgid()), 0, "ADD_TRACE");
	tap_ok(send_metadata(&c, 1, ctx), "METADATA from the TSDL generator");
	tap_is_int(add_tracefs_channel(&c, 10, 1, ctx, 16, SWITCH_US), 0,
		   "ADD_CHANNEL tracefs, 16 x 4 KB, switch timer %d us", SWITCH_US);
	test_bad_input(&c, map_fd);
	test_record(&c, dir, map_fd);
	close(map_fd);
	test_discard(&c, dir2, ctx);
	test_bpf(&c, dir3, ctx);
	tap_is_int(kill(c.pid, SIGTERM), 0, "SIGTERM");
	tap_is_int(ch_wait(&c, WAIT_MS), 0, "the consumer exits 0");
	test_abandon(dir4, ctx);
	test_carry(dir5, ctx, 4, false);
	test_carry(dir6, ctx, 5, true);
	remove_instances();
	if (!getenv("LTT_TEST_KEEP"))
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		tap_diag("kept %s", ch_tmpdir);
	return tap_done();
}
