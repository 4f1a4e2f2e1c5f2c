// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumerd.c - ltt-consumerd against a fake session daemon.
 *
 * The test plays the session daemon: it creates memfd ring buffers,
 * spawns the real consumer over a socketpair, sends it commands, writes
 * events with the ring buffer's writer API and checks what lands on disk:
 * stream files, packet headers, every event exactly once, index files,
 * the metadata file, rotation, loss accounting, error replies, and a
 * clean exit when the socket closes or on SIGTERM (the relay output:
 * test_consumerd_relay.c; the fake session daemon: consumerd-harness.c).
 *
 * Nothing waits with a blind sleep: replies are synchronous, exits are
 * waited for on a pidfd with a bound, and the few asynchronous paths
 * (wakeups, timers) are polled on the files with a bound.  alarm() stops
 * a hung test.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../unit/tap.h"
#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/msg.h"
#include "common/trace/ctf.h"
#include "common/trace/ringbuf.h"
#include "consumerd-harness.h"

/* Commands that must fail before anything exists; nothing is created. */
static void test_bad_commands(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = 10, .trace_key = 1, .name = "chan" };
	int efd = eventfd(0, EFD_CLOEXEC), fds[2] = { efd, efd };
	char path[PATH_MAX];
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	tap_is_int(ch_call(c, 99, &w), -EOPNOTSUPP, "unknown command: not supported");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_str(&w, dir);
	tap_is_int(ch_call(c, LTT_CONSUMER_MSG_ADD_TRACE, &w), -EPROTO, "truncated ADD_TRACE: malformed");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_u8(&w, 0);
	tap_is_int(ch_call(c, LTT_CONSUMER_MSG_DESTROY_TRACE, &w), -EPROTO,
		   "DESTROY_TRACE with a trailing byte: malformed");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_str(&w, dir);
	ltt_wbuf_put_bytes(&w, ch_trace_uuid, 16);
	ltt_wbuf_put_u32(&w, (uint32_t)getuid());
	ltt_wbuf_put_u32(&w, (uint32_t)getgid());
	tap_is_int(ch_call_fds(c, LTT_CONSUMER_MSG_ADD_TRACE, &w, fds, 1, NULL), -EPROTO,
		   "ADD_TRACE with an fd: refused");
	tap_is_int(ch_add_trace(c, 1, "relative/dir", getuid(), getgid()), -EINVAL,
		   "ADD_TRACE with a relative directory: invalid");
	ch_pathf(path, "%s/../x", dir);
	tap_is_int(ch_add_trace(c, 1, path, getuid(), getgid()), -EINVAL,
		   "ADD_TRACE with a '..' component: invalid");
	tap_is_int(ch_metadata(c, 1, "x", 1), -ENOENT, "METADATA to an unknown trace");
	tap_is_int(ch_add_channel(c, &ca), -ENOENT, "ADD_CHANNEL to an unknown trace");
	tap_is_int(ch_add_stream_fds(c, 10, 0, fds, 2), -ENOENT, "ADD_STREAM to an unknown channel");
	tap_is_int(ch_flush(c, 10, 0), -ENOENT, "FLUSH_CHANNEL of an unknown channel");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_CHANNEL_STATS, 10), -ENOENT,
		   "CHANNEL_STATS of an unknown channel");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 10), -ENOENT,
		   "DESTROY_CHANNEL of an unknown channel");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), -ENOENT,
		   "DESTROY_TRACE of an unknown trace");
	ch_pathf(path, "%s/out", ch_tmpdir);
	tap_ok(!ch_exists(path), "failed commands created nothing");
	close(efd);
}

/* ADD_TRACE and METADATA, good and bad; returns the text accepted. */
static void test_trace(struct ch_cons *c, const char *dir, char **ret_text, size_t *ret_len)
{
	char path[PATH_MAX], other[PATH_MAX], *text;
	size_t len = 0, i;
	struct ltt_wbuf w;

	tap_is_int(ch_add_trace(c, 1, dir, getuid(), getgid()), 0, "ADD_TRACE");
	ch_pathf(other, "%s/elsewhere", ch_tmpdir);
	tap_is_int(ch_add_trace(c, 1, other, getuid(), getgid()), -EEXIST, "ADD_TRACE: key in use");
	tap_is_int(ch_add_trace(c, 2, dir, getuid(), getgid()), -EEXIST, "ADD_TRACE: directory in use");
	tap_ok(ch_exists(ch_path_of(path, dir, "index")), "trace directory and index/ created");
	/* a chunk that spans two packets, then a small one */
	text = malloc(8192);
	for (i = 0; len < 5000; i++)
		len += (size_t)sprintf(text + len, "typealias integer { size = %zu; } t%zu;\n",
				       i % 64 + 1, i);
	tap_is_int(ch_metadata(c, 1, text, len), 0, "METADATA: %zu bytes", len);
	tap_is_int(ch_metadata(c, 1, "event { id = 0; };\n", 19), 0, "METADATA: appended");
	memcpy(text + len, "event { id = 0; };\n", 19);
	len += 19;
	tap_is_int(ch_metadata(c, 1, "a\0b", 3), -EINVAL, "METADATA with a NUL byte: invalid");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_u32(&w, 100);
	ltt_wbuf_put_bytes(&w, "short", 5);
	tap_is_int(ch_call(c, LTT_CONSUMER_MSG_METADATA, &w), -EPROTO,
		   "METADATA shorter than its length: malformed");
	tap_is_int(ch_metadata(c, 1, "", 0), 0, "METADATA of no text: nothing to do");
	ch_check_metadata(ch_path_of(path, dir, "metadata"), text, len);
	*ret_text = text;
	*ret_len = len;
}

static void test_bad_channels(struct ch_cons *c)
{
	struct ch_chan_args ca = { .key = 10, .trace_key = 1, .name = "other" };

	tap_is_int(ch_add_channel(c, &ca), -EEXIST, "ADD_CHANNEL: key in use");
	ca.key = 90;
	ca.name = "chan";
	tap_is_int(ch_add_channel(c, &ca), -EEXIST, "ADD_CHANNEL: name in use in the trace");
	ca.name = "a/b";
	tap_is_int(ch_add_channel(c, &ca), -EINVAL, "ADD_CHANNEL: name with a slash");
	ca.name = "metadata";
	tap_is_int(ch_add_channel(c, &ca), -EINVAL, "ADD_CHANNEL: reserved name");
	ca.name = "x";
	ca.count = 3;
	tap_is_int(ch_add_channel(c, &ca), -EINVAL, "ADD_CHANNEL: tracefile count without size");
	ca.count = 0;
	ca.overwrite = 4;	/* bit 0 overwrite, bit 1 fsync (1.12): bit 2 is no flag */
	tap_is_int(ch_add_channel(c, &ca), -EPROTO, "ADD_CHANNEL: an unknown flag bit");
}

/* ADD_STREAM refusals: the channel (key 10, discard) keeps working. */
static void test_bad_streams(struct ch_cons *c)
{
	struct ch_ts_args a = { .num_subbuf = 2, .cpu = 8, .seal = true };
	struct ch_tstream ts;
	int fds[3], pfd[2];

	ch_tstream_init(&ts, &a, 0);
	tap_is_int(ch_add_stream(c, 10, 0, &ts), -EEXIST, "ADD_STREAM: cpu in use");
	fds[0] = fds[1] = fds[2] = ts.efd;
	fds[0] = ts.shm_fd;
	tap_is_int(ch_add_stream_fds(c, 10, 7, fds, 1), -EPROTO, "ADD_STREAM with 1 fd: refused");
	tap_is_int(ch_add_stream_fds(c, 10, 7, fds, 3), -EPROTO, "ADD_STREAM with 3 fds: refused");
	tap_is_int(ch_add_stream(c, 10, 7, &ts), -EINVAL, "ADD_STREAM: region of another cpu");
	if (pipe2(pfd, O_CLOEXEC) == 0) {
		fds[1] = pfd[0];
		tap_is_int(ch_add_stream_fds(c, 10, 8, fds, 2), -EINVAL,
			   "ADD_STREAM: wakeup fd not an eventfd");
		close(pfd[0]);
		close(pfd[1]);
	}
	memset(ts.mem, 0xff, 4096);	/* a lying region header */
	tap_is_int(ch_add_stream(c, 10, 8, &ts), -EINVAL, "ADD_STREAM: garbage region");
	ch_tstream_fini(&ts);
	a.cpu = 11;
	a.overwrite = true;
	ch_tstream_init(&ts, &a, 0);
	tap_is_int(ch_add_stream(c, 10, 11, &ts), -EINVAL, "ADD_STREAM: overwrite region, discard channel");
	ch_tstream_fini(&ts);
	a.overwrite = false;
	a.seal = false;
	ch_tstream_init(&ts, &a, 0);
	tap_is_int(ch_add_stream(c, 10, 11, &ts), -EPERM, "ADD_STREAM: memory that can shrink");
	ch_tstream_fini(&ts);
}

/* ADD_CHANNEL with the domain block of protocol 1.1. */
static int add_channel_domain(struct ch_cons *c, const struct ch_chan_args *a, uint8_t domain,
			      uint64_t subbuf_size, uint64_t num_subbuf)
{
	struct ltt_consumer_add_channel m = {
		.key = a->key, .trace_key = a->trace_key, .name = a->name,
		.tracefile_size = a->size, .tracefile_count = a->count,
		.switch_timer_us = a->switch_us, .read_timer_us = a->read_us,
		.overwrite = a->overwrite, .domain = domain,
		.subbuf_size = subbuf_size, .num_subbuf = num_subbuf,
	};
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	return ch_call(c, LTT_CONSUMER_MSG_ADD_CHANNEL, &w);
}

static int add_kernel_stream(struct ch_cons *c, uint64_t key, uint32_t cpu, const int *fds,
			     unsigned int nr_fds)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = key, .cpu = cpu };
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_consumer_put_add_kernel_stream(&w, &m);
	return ch_call_fds(c, LTT_CONSUMER_MSG_ADD_KERNEL_STREAM, &w, fds, nr_fds, NULL);
}

/*
 * Kernel channels (protocol 1.1) as far as they go without the module:
 * the domain and geometry checks, the stream commands kept to their
 * domain, a descriptor that is not a tracer stream refused, and a kernel
 * channel with no stream flushed and destroyed at once.  The user-space
 * channel 10 keeps working (untouched: later tests read its streams).
 */
static void test_kernel_commands(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = 80, .trace_key = 1, .name = "kern" };
	struct ch_ts_args a = { .num_subbuf = 2, .cpu = 30, .seal = true };
	char path[PATH_MAX];
	struct ch_tstream ts;
	int pfd[2], fds[2];
	struct ch_stats st;

	tap_is_int(add_channel_domain(c, &ca, 9, 4096, 4), -EOPNOTSUPP,
		   "ADD_CHANNEL of an unknown domain: not supported");
	tap_is_int(add_channel_domain(c, &ca, LTT_CONSUMER_DOMAIN_KERNEL, 4096, 3), -EINVAL,
		   "ADD_CHANNEL kernel, 3 sub-buffers: invalid");
	tap_is_int(add_channel_domain(c, &ca, LTT_CONSUMER_DOMAIN_KERNEL, 65536, 4), 0,
		   "ADD_CHANNEL kernel, 4 x 64 KiB");
	ch_tstream_init(&ts, &a, 0);
	tap_is_int(ch_add_stream(c, 80, 30, &ts), -EPROTO, "ADD_STREAM to a kernel channel: refused");
	ch_tstream_fini(&ts);
	if (tap_ok(pipe2(pfd, O_CLOEXEC) == 0, "a pipe to pass")) {
		tap_is_int(add_kernel_stream(c, 80, 0, pfd, 1), -EINVAL,
			   "ADD_KERNEL_STREAM of a pipe: not a tracer stream");
		tap_is_int(add_kernel_stream(c, 10, 0, pfd, 1), -EPROTO,
			   "ADD_KERNEL_STREAM to a user-space channel: refused");
		tap_is_int(add_kernel_stream(c, 81, 0, pfd, 1), -ENOENT,
			   "ADD_KERNEL_STREAM to an unknown channel");
		fds[0] = pfd[0];
		fds[1] = pfd[1];
		tap_is_int(add_kernel_stream(c, 80, 0, fds, 2), -EPROTO,
			   "ADD_KERNEL_STREAM with 2 fds: refused");
		tap_is_int(add_kernel_stream(c, 80, 0, NULL, 0), -EPROTO,
			   "ADD_KERNEL_STREAM without its fd: refused");
		close(pfd[0]);
		close(pfd[1]);
	}
	tap_ok(!ch_exists(ch_path_of(path, dir, "kern_0")), "refused streams created no file");
	tap_is_int(ch_flush(c, 80, 1), 0, "FLUSH_CHANNEL final of a kernel channel without streams");
	tap_is_int(ch_stats(c, 80, &st), 0, "CHANNEL_STATS of it");
	tap_ok(!st.events_lost && !st.packets_lost && !st.bytes_written, "all zero");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 80), 0, "DESTROY_CHANNEL of it");
	tap_is_int(ch_stats(c, 10, &st), 0, "the user-space channel still answers");
}

/* Channel 10 "chan" with two streams: flushes, wakeups, stats. */
static void test_data(struct ch_cons *c, const char *dir, struct ch_tstream *s0, struct ch_tstream *s1)
{
	struct ch_chan_args ca = { .key = 10, .trace_key = 1, .name = "chan" };
	struct ch_ts_args a = { .num_subbuf = 8, .stream_id = 0, .wakeups = true, .seal = true };
	char p0[PATH_MAX], p1[PATH_MAX];
	unsigned int dropped = 0, r;
	struct ch_stats st = { 0 };
	off_t before;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL chan");
	test_bad_channels(c);
	a.cpu = 0;
	ch_tstream_init(s0, &a, 100);
	a.cpu = 1;
	ch_tstream_init(s1, &a, 101);
	tap_is_int(ch_add_stream(c, 10, 0, s0), 0, "ADD_STREAM chan cpu 0");
	tap_is_int(ch_add_stream(c, 10, 1, s1), 0, "ADD_STREAM chan cpu 1");
	test_bad_streams(c);
	ch_path_of(p0, dir, "chan_0");
	ch_path_of(p1, dir, "chan_1");
	tap_ok(ch_exists(p0) && ch_exists(p1), "stream files created");
	/* no flush yet: the writers' wakeups alone make the consumer read */
	before = ch_file_size(p0);
	dropped = ch_put_events(s0, 300);
	tap_ok(!dropped && ch_wait_size(p0, before + 3 * SUBBUF, WAIT_MS),
	       "complete packets written on the writers' wakeups");
	for (r = 0; r < 3; r++) {
		dropped += ch_put_events(s0, 150);
		dropped += ch_put_events(s1, 120);
		if (ch_flush(c, 10, 0))
			dropped += 1000000;
	}
	tap_is_int(dropped, 0, "three rounds written and flushed");
	tap_is_int(ch_flush(c, 10, 0), 0, "FLUSH_CHANNEL");
	tap_is_int(ch_stats(c, 10, &st), 0, "CHANNEL_STATS");
	tap_is_u64(st.events_lost, 0, "no event lost");
	tap_is_u64(st.packets_lost, 0, "no packet lost");
	tap_is_u64(st.bytes_written, (uint64_t)(ch_file_size(p0) + ch_file_size(p1)),
		   "bytes written = the stream files' sizes");
	ch_verify_stream(dir, "chan", 0, s0, 0, false, -1);
	ch_verify_stream(dir, "chan", 0, s1, 1, false, -1);
}

/* Channel 11 "rot": 2 packets per file, 3 files kept. */
static void test_rotation(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = 11, .trace_key = 1, .name = "rot",
				.size = 2 * SUBBUF, .count = 3 };
	struct ch_ts_args a = { .num_subbuf = 4, .stream_id = 1, .wakeups = true, .seal = true };
	char data[PATH_MAX], idx[PATH_MAX];
	static const long want[] = { 2, 2, 1 };
	struct ch_tstream ts;
	struct ch_expect e;
	bool gone = true, ok = true;
	int i, fails = 0;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL rot (size 2 packets, count 3)");
	ch_tstream_init(&ts, &a, 200);
	tap_is_int(ch_add_stream(c, 11, 0, &ts), 0, "ADD_STREAM rot cpu 0");
	for (i = 0; i < 9; i++) {
		fails += (int)ch_put_events(&ts, 20);
		fails += ch_flush(c, 11, 0) != 0;
	}
	tap_is_int(fails, 0, "9 packets written, one per flush");
	for (i = 0; i < 2; i++) {
		ch_pathf(data, "%s/rot_0_%d", dir, i);
		ch_pathf(idx, "%s/index/rot_0_%d.idx", dir, i);
		gone = gone && !ch_exists(data) && !ch_exists(idx);
	}
	tap_ok(gone, "the oldest files and their indexes deleted (rot_0_0, rot_0_1)");
	ch_pathf(data, "%s/rot_0_5", dir);
	tap_ok(!ch_exists(data) && !ch_exists(ch_path_of(idx, dir, "rot_0")), "no rot_0_5, no rot_0");
	ch_expect_init(&e, "rot_0", 1, &ts, 0);
	e.next_seq = 4;		/* packets 0-3 went with the deleted files */
	for (i = 2; i <= 4; i++) {
		ch_pathf(data, "%s/rot_0_%d", dir, i);
		ch_pathf(idx, "%s/index/rot_0_%d.idx", dir, i);
		ok = ch_check_file(&e, data, idx) == want[i - 2] && ok;
	}
	tap_ok(ok && !e.errors && e.packets == 5 && e.next_seq == 9,
	       "rot_0_2..4 hold packets 4-8 (2, 2, 1), index offsets restart in each file");
	for (i = 0; i < 80; i++)
		ok = ok && !e.seen[i];
	for (; i < (int)e.nr_ids; i++)
		ok = ok && e.seen[i] == 1;
	tap_ok(ok, "the newest 100 events present once, the oldest 80 deleted");
	ch_expect_fini(&e);
	ch_tstream_fini(&ts);
}

/* Channel 12 "tiny": two sub-buffers, no reader wakeups: events dropped. */
static void test_lost_events(struct ch_cons *c, const char *dir, const struct ch_tstream *s0)
{
	struct ch_chan_args ca = { .key = 12, .trace_key = 1, .name = "tiny" };
	struct ch_ts_args a = { .num_subbuf = 2, .stream_id = 2, .seal = true };
	char path[PATH_MAX];
	struct ltt_rb_slot slot;
	struct ch_stats st = { 0 };
	uint8_t *buf = NULL;
	unsigned int dropped;
	struct ch_tstream ts;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL tiny");
	tap_is_int(ch_add_stream(c, 12, 0, s0), -EEXIST,
		   "ADD_STREAM: memory another stream reads (chan cpu 0)");
	ch_tstream_init(&ts, &a, 300);
	tap_is_int(ch_add_stream(c, 12, 0, &ts), 0, "ADD_STREAM tiny cpu 0");
	dropped = ch_put_events(&ts, 300);
	if (ltt_rb_reserve(&ts.rb, SUBBUF, &slot) == -EMSGSIZE)
		dropped++;
	tap_ok(dropped > 100, "the writer dropped %u events (buffer full, one too large)", dropped);
	tap_is_int(ch_stats(c, 12, &st), 0, "CHANNEL_STATS tiny");
	tap_is_u64(st.events_lost, dropped, "events lost = what the writer dropped");
	tap_is_int(ch_flush(c, 12, 0), 0, "FLUSH_CHANNEL tiny");
	ch_verify_stream(dir, "tiny", 2, &ts, 0, false, 2);
	if (ch_slurp(ch_path_of(path, dir, "tiny_0"), &buf) == 2 * SUBBUF)
		tap_is_u64(ch_get64(buf + SUBBUF + LTT_RB_PH_EVENTS_DISCARDED), dropped,
			   "the last packet's events_discarded counts them");
	else
		tap_ok(false, "the last packet's events_discarded counts them");
	free(buf);
	tap_is_int(ch_stats(c, 12, &st), 0, "CHANNEL_STATS tiny after the flush");
	tap_is_u64(st.packets_lost, 0, "no packet lost");
	ch_tstream_fini(&ts);
}

/* Channel 13 "dead": a writer killed mid-event; the final flush gives up. */
static void test_abandoned(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = 13, .trace_key = 1, .name = "dead" };
	struct ch_ts_args a = { .num_subbuf = 4, .stream_id = 3, .seal = true };
	char path[PATH_MAX], idx[PATH_MAX];
	struct ltt_rb_slot slot;
	struct ch_stats st = { 0 };
	struct ch_tstream ts;
	struct ch_expect e;
	bool ok = true;
	unsigned int i;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL dead");
	ch_tstream_init(&ts, &a, 400);
	tap_is_int(ch_add_stream(c, 13, 0, &ts), 0, "ADD_STREAM dead cpu 0");
	ch_put_events(&ts, 10);
	tap_is_int(ch_flush(c, 13, 0), 0, "FLUSH_CHANNEL dead: packet 0");
	ch_put_events(&ts, 5);
	tap_is_int(ltt_rb_reserve(&ts.rb, 40, &slot), 0, "a slot reserved and never committed");
	tap_is_int(ch_flush(c, 13, 0), 0, "FLUSH_CHANNEL dead: the incomplete packet waits");
	tap_is_int(ch_file_size(ch_path_of(path, dir, "dead_0")), SUBBUF, "only packet 0 on disk");
	tap_is_int(ch_stats(c, 13, &st), 0, "CHANNEL_STATS dead");
	tap_is_u64(st.packets_lost, 0, "nothing lost yet");
	tap_is_int(ch_flush(c, 13, 1), 0, "final FLUSH_CHANNEL dead");
	tap_is_int(ch_stats(c, 13, &st), 0, "CHANNEL_STATS dead after the final flush");
	tap_is_u64(st.packets_lost, 1, "the incomplete packet given up and counted lost");
	ch_expect_init(&e, "dead_0", 3, &ts, 0);
	tap_is_int(ch_check_file(&e, path, ch_path_of(idx, dir, "index/dead_0.idx")), 1,
		   "dead_0 still holds packet 0 only");
	for (i = 0; i < e.nr_ids; i++)
		ok = ok && e.seen[i] == (i < 10);
	tap_ok(ok && !e.errors, "its 10 events, not the 5 of the abandoned packet");
	ch_expect_fini(&e);
	ch_tstream_fini(&ts);
}

/* Write one packet's worth of @n events; returns its header in the region. */
static uint8_t *put_packet(struct ch_tstream *ts, unsigned int n)
{
	size_t len = ch_event_len(ts->next_id);
	struct ltt_rb_slot slot;
	uint8_t *hdr;

	if (ltt_rb_reserve(&ts->rb, len, &slot))
		return NULL;
	/* the packet's first event follows its header */
	hdr = (uint8_t *)slot.data - LTT_RB_PACKET_HEADER_SIZE;
	ch_fill_event(slot.data, len, ts->tag, ts->next_id++);
	ltt_rb_commit(&ts->rb, &slot);
	ch_put_events(ts, n - 1);
	return hdr;
}

/* Channel 14 "bad": packets and a region header damaged by the writer. */
static void test_corrupt(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = 14, .trace_key = 1, .name = "bad" };
	struct ch_ts_args a = { .num_subbuf = 4, .stream_id = 4, .seal = true };
	uint64_t huge = 2 * SUBBUF * 8, first_bad, end_bad;
	char path[PATH_MAX], idx[PATH_MAX];
	struct ch_stats st = { 0 };
	struct ltt_rb_shm *shm;
	struct ch_tstream ts;
	struct ch_expect e;
	uint8_t *hdr;
	bool ok = true;
	uint64_t i;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL bad");
	ch_tstream_init(&ts, &a, 500);
	tap_is_int(ch_add_stream(c, 14, 0, &ts), 0, "ADD_STREAM bad cpu 0");
	shm = ts.mem;
	put_packet(&ts, 10);
	ch_flush(c, 14, 0);
	first_bad = ts.next_id;
	hdr = put_packet(&ts, 10);
	if (hdr)
		memset(hdr, 0, 4);	/* magic */
	ch_flush(c, 14, 0);
	/* fill packet 2 until a writer closes it, then lie about its size */
	hdr = put_packet(&ts, 1);
	for (i = shm->offset / SUBBUF; shm->offset / SUBBUF == i;)
		ch_put_event(&ts);
	if (hdr)
		memcpy(hdr + LTT_RB_PH_CONTENT_SIZE, &huge, 8);
	/* the event that moved the position opened packet 3, unless it ended 2 exactly */
	end_bad = shm->offset % SUBBUF ? ts.next_id - 1 : ts.next_id;
	ch_put_events(&ts, 5);
	ch_flush(c, 14, 0);
	tap_is_int(ch_file_size(ch_path_of(path, dir, "bad_0")), 2 * SUBBUF,
		   "the packet after a corrupt one written by the same flush");
	tap_is_int(ch_stats(c, 14, &st), 0, "CHANNEL_STATS bad");
	tap_is_u64(st.packets_lost, 2, "bad magic and oversized content_size: 2 packets skipped");
	/* a writer scribbles over the region's geometry: the consumer kept its own */
	shm->subbuf_size = (uint64_t)1 << 40;
	shm->num_subbuf = 3;
	shm->data_offset = UINT64_MAX;
	put_packet(&ts, 10);
	tap_is_int(ch_flush(c, 14, 0), 0, "FLUSH_CHANNEL bad after the region header was overwritten");
	ch_expect_init(&e, "bad_0", 4, &ts, 0);
	e.gaps = true;
	tap_is_int(ch_check_file(&e, ch_path_of(path, dir, "bad_0"), ch_path_of(idx, dir, "index/bad_0.idx")),
		   3, "bad_0 holds the 3 good packets");
	for (i = 0; i < e.nr_ids; i++)
		ok = ok && e.seen[i] == (i < first_bad || i >= end_bad);
	tap_ok(ok && !e.errors && e.next_seq == 5,
	       "their events once (packets 0, 3, 4), index consistent");
	ch_expect_fini(&e);
	ch_tstream_fini(&ts);
}

/* Channel 15 "ow": overwrite mode, the writer laps a reader that sleeps. */
static void test_overwrite(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = 15, .trace_key = 1, .name = "ow", .overwrite = 1 };
	struct ch_ts_args a = { .num_subbuf = 2, .stream_id = 5, .overwrite = true, .seal = true };
	char path[PATH_MAX], idx[PATH_MAX];
	struct ch_stats st = { 0 };
	struct ch_tstream ts;
	struct ch_expect e;
	long n;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL ow (overwrite)");
	ch_tstream_init(&ts, &a, 600);
	tap_is_int(ch_add_stream(c, 15, 0, &ts), 0, "ADD_STREAM ow cpu 0");
	tap_is_int(ch_put_events(&ts, 600), 0, "600 events over about 7 packets, none dropped");
	tap_is_int(ch_flush(c, 15, 0), 0, "FLUSH_CHANNEL ow");
	tap_is_int(ch_stats(c, 15, &st), 0, "CHANNEL_STATS ow");
	ch_expect_init(&e, "ow_0", 5, &ts, 0);
	e.gaps = true;
	n = ch_check_file(&e, ch_path_of(path, dir, "ow_0"), ch_path_of(idx, dir, "index/ow_0.idx"));
	tap_ok(n >= 1 && n <= 2 && !e.errors, "ow_0: the latest %ld packets, valid", n);
	tap_is_u64(st.packets_lost + (uint64_t)n, e.next_seq,
		   "packets lost (overwritten) + written = packets produced");
	tap_ok(e.nr_ids && e.seen[e.nr_ids - 1] == 1, "the newest event is there");
	ch_check_all_seen(&e, true);
	ch_expect_fini(&e);
	ch_tstream_fini(&ts);
}

/* Channels 16 and 17: the switch timer, the read timer, no wakeups. */
static void test_timers(struct ch_cons *c, const char *dir, struct ch_tstream *sw, struct ch_tstream *rd)
{
	struct ch_chan_args ca = { .key = 16, .trace_key = 1, .name = "sw", .switch_us = 20000 };
	struct ch_ts_args a = { .num_subbuf = 8, .stream_id = 6, .seal = true };
	char path[PATH_MAX];

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL sw (switch timer 20 ms)");
	ch_tstream_init(sw, &a, 700);
	tap_is_int(ch_add_stream(c, 16, 0, sw), 0, "ADD_STREAM sw cpu 0");
	ch_put_events(sw, 5);
	tap_ok(ch_wait_size(ch_path_of(path, dir, "sw_0"), SUBBUF, WAIT_MS),
	       "the switch timer closed and wrote a packet of 5 events");
	ca = (struct ch_chan_args){ .key = 17, .trace_key = 1, .name = "rd", .read_us = 20000 };
	a.stream_id = 7;
	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL rd (read timer 20 ms)");
	ch_tstream_init(rd, &a, 800);
	tap_is_int(ch_add_stream(c, 17, 0, rd), 0, "ADD_STREAM rd cpu 0");
	ch_put_events(rd, 250);
	tap_ok(ch_wait_size(ch_path_of(path, dir, "rd_0"), 2 * SUBBUF, WAIT_MS),
	       "the read timer wrote the complete packets");
}

static void test_destroy(struct ch_cons *c, const char *dir)
{
	char path[PATH_MAX];
	struct ch_stats st;

	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), -EBUSY,
		   "DESTROY_TRACE with channels: busy");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 12), 0, "DESTROY_CHANNEL tiny");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 12), -ENOENT,
		   "DESTROY_CHANNEL tiny again: unknown");
	tap_is_int(ch_stats(c, 12, &st), -ENOENT, "CHANNEL_STATS of a destroyed channel");
	tap_is_int(ch_file_size(ch_path_of(path, dir, "tiny_0")), 2 * SUBBUF, "its files stay");
}

/* Events left in the buffers are written when the session daemon goes. */
static void test_close(struct ch_cons *c, const char *dir, struct ch_tstream *s0, struct ch_tstream *s1)
{
	int status;

	ch_put_events(s0, 50);
	ch_put_events(s1, 50);
	close(c->fd);
	c->fd = -1;
	status = ch_wait(c, WAIT_MS);
	tap_ok(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the consumer exits 0 when the command socket closes (status 0x%x)", status);
	ch_verify_stream(dir, "chan", 0, s0, 0, false, -1);
	ch_verify_stream(dir, "chan", 0, s1, 1, false, -1);
}

/* A second consumer: SIGTERM writes what is there and exits 0. */
static void test_sigterm(const char *dir)
{
	struct ch_chan_args ca = { .key = 1, .trace_key = 7, .name = "term" };
	struct ch_ts_args a = { .num_subbuf = 4, .stream_id = 0, .wakeups = true, .seal = true };
	struct ch_tstream ts;
	struct ch_cons c;
	int status;

	if (!tap_ok(ch_start(&c) == 0, "second consumer started"))
		return;
	tap_is_int(ch_add_trace(&c, 7, dir, getuid(), getgid()), 0, "ADD_TRACE");
	tap_is_int(ch_add_channel(&c, &ca), 0, "ADD_CHANNEL term");
	ch_tstream_init(&ts, &a, 900);
	tap_is_int(ch_add_stream(&c, 1, 3, &ts), -EINVAL, "ADD_STREAM: region for cpu 0 as cpu 3");
	tap_is_int(ch_add_stream(&c, 1, 0, &ts), 0, "ADD_STREAM term cpu 0");
	ch_put_events(&ts, 120);
	kill(c.pid, SIGTERM);
	status = ch_wait(&c, WAIT_MS);
	tap_ok(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "SIGTERM: the consumer exits 0 (status 0x%x)", status);
	ch_verify_stream(dir, "term", 0, &ts, 0, false, -1);
	ch_tstream_fini(&ts);
}

/* As root: what the consumer creates belongs to the trace's owner. */
static void test_owner(const char *dir)
{
	struct ch_chan_args ca = { .key = 1, .trace_key = 1, .name = "own" };
	struct ch_ts_args a = { .num_subbuf = 2, .seal = true };
	const char *names[] = { "", "/index", "/metadata", "/own_0", "/index/own_0.idx" };
	char path[PATH_MAX], parent[PATH_MAX];
	struct ch_tstream ts;
	struct stat st;
	struct ch_cons c;
	bool ok = true;
	size_t i;

	if (geteuid() != 0) {
		tap_diag("not root: file ownership not checked");
		return;
	}
	if (!tap_ok(ch_start(&c) == 0, "third consumer started"))
		return;
	/*
	 * The consumer acts as the trace's owner: where nobody may not write
	 * (a root directory), nothing is created for nobody...
	 */
	ch_pathf(path, "%s/rootonly", ch_tmpdir);
	mkdir(path, 0755);
	chmod(ch_tmpdir, 0711);
	ch_pathf(path, "%s/rootonly/etc.d", ch_tmpdir);
	tap_is_int(ch_add_trace(&c, 2, path, 65534, 65534), -EACCES,
		   "ADD_TRACE for 65534 in a directory only root may write: EACCES");
	tap_ok(stat(path, &st) && errno == ENOENT, "and nothing was created there");
	/* ...while in a home of nobody's, what is created is nobody's. */
	ch_pathf(path, "%s/owned", ch_tmpdir);
	mkdir(path, 0755);
	chown(path, 65534, 65534);
	tap_is_int(ch_add_trace(&c, 1, dir, 65534, 65534), 0, "ADD_TRACE for uid:gid 65534:65534");
	tap_is_int(ch_add_channel(&c, &ca), 0, "ADD_CHANNEL own");
	ch_tstream_init(&ts, &a, 1000);
	tap_is_int(ch_add_stream(&c, 1, 0, &ts), 0, "ADD_STREAM own cpu 0");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ch_pathf(path, "%s%s", dir, names[i]);
		ok = ok && !stat(path, &st) && st.st_uid == 65534 && st.st_gid == 65534;
	}
	ch_pathf(parent, "%s/..", dir);
	ok = ok && !stat(parent, &st) && st.st_uid == 65534;
	/* ("owned" itself was made by the test, as a user's home would be.) */
	tap_ok(ok, "new directories and files belong to 65534:65534");
	close(c.fd);
	c.fd = -1;
	tap_ok(ch_wait(&c, WAIT_MS) == 0, "third consumer exits 0");
	ch_tstream_fini(&ts);
}

/*
 * The version handshake: nothing before HELLO, a foreign major makes the
 * consumer leave, ours is answered with the consumer's version.
 */
static void test_handshake(struct ch_cons *c)
{
	struct ltt_msg reply = { 0 };
	struct ch_cons other;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	tap_is_int(ch_call(c, LTT_CONSUMER_MSG_DESTROY_TRACE, &w), -EPROTO,
		   "a command before HELLO is refused");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, LTT_CONSUMER_MAJOR);
	ltt_wbuf_put_u32(&w, LTT_CONSUMER_MINOR + 7);
	tap_is_int(ch_call_fds(c, LTT_CONSUMER_MSG_HELLO, &w, NULL, 0, &reply), 0,
		   "HELLO with our major (and a newer minor) is accepted");
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	ltt_rbuf_get_u32(&r);
	tap_is_int((int)ltt_rbuf_get_u32(&r), LTT_CONSUMER_MAJOR, "the reply gives the consumer's major");
	tap_is_int((int)ltt_rbuf_get_u32(&r), LTT_CONSUMER_MINOR, "and its own minor");
	tap_ok(ltt_rbuf_end(&r) == 0, "and nothing else");
	ltt_msg_fini(&reply);
	if (!tap_ok(ch_spawn(&other) == 0, "another consumer started"))
		return;
	tap_is_int(ch_hello(&other, LTT_CONSUMER_MAJOR + 1), -EPROTONOSUPPORT,
		   "HELLO with another major: EPROTONOSUPPORT");
	status = ch_wait(&other, 10000);
	tap_ok(status >= 0 && WIFEXITED(status), "and that consumer exits by itself");
}

int main(void)
{
	struct ch_tstream s0, s1, sw, rd;
	char dir[PATH_MAX], mpath[PATH_MAX], *text = NULL;
	struct ch_cons c;
	size_t len;

	if (ch_setup())
		return 1;
	ch_pathf(dir, "%s/out/ust/uid/%u/64-bit", ch_tmpdir, (unsigned int)getuid());
	if (!tap_ok(ch_spawn(&c) == 0, "consumer started (%s)", ch_consumerd_path))
		return tap_done();
	test_handshake(&c);
	test_bad_commands(&c, dir);
	test_trace(&c, dir, &text, &len);
	test_data(&c, dir, &s0, &s1);
	test_kernel_commands(&c, dir);
	test_rotation(&c, dir);
	test_lost_events(&c, dir, &s0);
	test_abandoned(&c, dir);
	test_corrupt(&c, dir);
	test_overwrite(&c, dir);
	test_timers(&c, dir, &sw, &rd);
	test_destroy(&c, dir);
	test_close(&c, dir, &s0, &s1);
	ch_check_metadata(ch_path_of(mpath, dir, "metadata"), text, len);
	free(text);
	ch_tstream_fini(&s0);
	ch_tstream_fini(&s1);
	ch_tstream_fini(&sw);
	ch_tstream_fini(&rd);
	ch_pathf(dir, "%s/term", ch_tmpdir);
	test_sigterm(dir);
	ch_pathf(dir, "%s/owned/by/nobody", ch_tmpdir);
	test_owner(dir);
	if (!getenv("LTT_TEST_KEEP"))
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		tap_diag("kept %s", ch_tmpdir);
	return tap_done();
}
