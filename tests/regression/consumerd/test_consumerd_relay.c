// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumerd_relay.c - ltt-consumerd's relay output against a real
 * ltt-relayd on loopback, the test playing the session daemon
 * (consumerd-harness.h): the relay's files checked as the local ones,
 * data pending, status, the live timer, the relay killed mid-session.
 *
 * Nothing waits with a blind sleep (see consumerd-harness.h); alarm()
 * stops a hung test.
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
#include "consumerd/sink/sink-relay.h"

/*
 * Streaming to a real ltt-relayd (1.2): ADD_RELAY, relayed traces, the
 * relay's files checked as the local ones are, data pending, status, the
 * live timer's partial packets, and the relay killed mid-session.
 */

/*
 * The bytes of the packets' content in index file @path (content_size
 * rounded up to a byte, summed), and in *ret_whole their packet_size.
 */
static uint64_t index_content(const char *path, uint64_t *ret_whole)
{
	struct ltt_ctf_index_entry e;
	uint64_t sum = 0;
	uint8_t *buf = NULL;
	ssize_t n = ch_slurp(path, &buf), off;

	*ret_whole = 0;
	for (off = LTT_CTF_INDEX_HEADER_SIZE; off + 72 <= n; off += 72) {
		if (ltt_ctf_index_entry_decode(buf + off, 72, &e))
			break;
		sum += (e.content_size + 7) / 8;
		*ret_whole += e.packet_size / 8;
	}
	free(buf);
	return sum;
}

/* ltt-relayd -b on loopback ports 0, writing under @out; its ports and pid. */
static int relayd_start(const char *run, const char *out, int *cport, int *dport, pid_t *pid)
{
	char path[PATH_MAX], pidfile[PATH_MAX];
	uint8_t *buf = NULL;
	int status;
	pid_t child;

	ch_pathf(pidfile, "%s/relayd.pid", run);
	mkdir(run, 0700);
	child = fork();
	if (child == 0) {
		setenv("LTT_RUNDIR", run, 1);
		execl(ch_relayd_path, "ltt-relayd", "-b", "-q", "-p", pidfile, "-C",
		      "tcp://127.0.0.1:0", "-D", "tcp://127.0.0.1:0", "-L", "tcp://127.0.0.1:0",
		      "-o", out, (char *)NULL);
		_exit(127);
	}
	/* -b returns once the ports listen and their files are written */
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	if (ch_slurp(ch_pathf(path, "%s/relayd-control.port", run), &buf) <= 0)
		return -1;
	*cport = atoi((char *)buf);
	free(buf);
	buf = NULL;
	if (ch_slurp(ch_pathf(path, "%s/relayd-data.port", run), &buf) <= 0)
		return -1;
	*dport = atoi((char *)buf);
	free(buf);
	buf = NULL;
	if (ch_slurp(pidfile, &buf) <= 0)
		return -1;
	*pid = (pid_t)atoi((char *)buf);
	free(buf);
	return *cport > 0 && *dport > 0 && *pid > 0 ? 0 : -1;
}

/*
 * Send ltt-relayd @pid signal @sig and wait for it to be gone, WAIT_MS at
 * most (it is not our child: -b detached it); 0 once it is.  Its sockets
 * are closed by then, so the consumer's connections to it see their end.
 */
static int relayd_stop(pid_t pid, int sig)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0), n;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return -errno;
	n = kill(pid, sig) ? -1 : 0;
	while (!n && (n = poll(&pfd, 1, WAIT_MS)) < 0 && errno == EINTR)
		n = 0;
	close(fd);
	return n == 1 ? 0 : -ETIMEDOUT;
}

/* ADD_RELAY; @ret_path gets the relay's output path. */
static int add_relay(struct ch_cons *c, uint64_t key, int cport, int dport, const char *session,
		     uint32_t live_us, char *ret_path)
{
	struct ltt_consumer_add_relay m = {
		.relay_key = key,
		.addr = { .family = 4, .host = "127.0.0.1", .ctrl_port = (uint16_t)cport,
			  .data_port = (uint16_t)dport },
		.hostname = "box",
		.session_name = session, .base_path = "", .live_timer_us = live_us,
		.session_id = key, .creation_time = (uint64_t)time(NULL),
	};
	struct ltt_consumer_add_relay_reply rep;
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m, LTT_CONSUMER_MINOR);
	status = ch_call_fds(c, LTT_CONSUMER_MSG_ADD_RELAY, &w, NULL, 0, &reply);
	if (status == TRANSPORT_ERR)
		return status;
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	if (ltt_consumer_get_add_relay_reply(&r, &rep))
		status = TRANSPORT_ERR;
	else if (!status && ret_path)
		ch_pathf(ret_path, "%s", rep.output_path);
	ltt_msg_fini(&reply);
	return status;
}

static int add_relayed_trace(struct ch_cons *c, uint64_t key, const char *dir, uint64_t relay_key)
{
	struct ltt_consumer_add_trace m = { .key = key, .dir = dir, .uid = getuid(),
					    .gid = getgid(), .relay_key = relay_key };
	struct ltt_wbuf w;

	memcpy(m.uuid, ch_trace_uuid, sizeof(m.uuid));
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_trace(&w, &m);
	return ch_call(c, LTT_CONSUMER_MSG_ADD_TRACE, &w);
}

static int relay_pending(struct ch_cons *c, uint64_t key, int *ret_pending)
{
	struct ltt_consumer_relay_pending_reply rep = { 0 };
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_consumer_put_relay_key(&w, key);
	status = ch_call_fds(c, LTT_CONSUMER_MSG_RELAY_DATA_PENDING, &w, NULL, 0, &reply);
	if (status == TRANSPORT_ERR)
		return status;
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	if (ltt_consumer_get_relay_pending_reply(&r, &rep))
		status = TRANSPORT_ERR;
	*ret_pending = rep.pending;
	ltt_msg_fini(&reply);
	return status;
}

/* Poll RELAY_DATA_PENDING until 0, WAIT_MS at most; the last status. */
static int relay_drained(struct ch_cons *c, uint64_t key)
{
	struct timespec step = { .tv_nsec = 5 * 1000 * 1000 };
	int waited, pending = 1, status = 0;

	for (waited = 0; waited < WAIT_MS && pending && !status; waited += 5) {
		status = relay_pending(c, key, &pending);
		if (pending)
			nanosleep(&step, NULL);
	}
	return status ? status : pending;
}

static int relay_status(struct ch_cons *c, uint64_t key, struct ltt_consumer_relay_status_reply *ret)
{
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_consumer_put_relay_key(&w, key);
	status = ch_call_fds(c, LTT_CONSUMER_MSG_RELAY_STATUS, &w, NULL, 0, &reply);
	if (status == TRANSPORT_ERR)
		return status;
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	if (ltt_consumer_get_relay_status_reply(&r, ret))
		status = TRANSPORT_ERR;
	ltt_msg_fini(&reply);
	return status;
}

struct relay_death {
	struct ch_cons *c;
	struct ltt_consumer_relay_status_reply rs;
};

/* Has the consumer recorded relay 7's connection error (ch_wait_until)? */
static bool relay_failed(void *arg)
{
	struct relay_death *d = arg;

	return !relay_status(d->c, 7, &d->rs) && d->rs.conn_error;
}

/* The commands a relayed trace refuses. */
static void test_relay_refusals(struct ch_cons *c, int cport, int dport)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	char path[PATH_MAX];
	int fd;

	tap_is_int(add_relay(c, 7, cport, dport, "rs", 0, path), -EEXIST,
		   "ADD_RELAY of a key in use: EEXIST");
	/* a port that was free a moment ago, closed again: nobody listens */
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len))
		sa.sin_port = 0;
	close(fd);
	tap_is_int(add_relay(c, 8, ntohs(sa.sin_port), dport, "x", 0, path), -ECONNREFUSED,
		   "ADD_RELAY to a port nobody listens on: ECONNREFUSED");
	tap_is_int(add_relayed_trace(c, 2, "ust/uid/0/64-bit", 99), -ENOENT,
		   "ADD_TRACE to an unknown relay: ENOENT");
	tap_is_int(add_relayed_trace(c, 2, "/abs/path", 7), -EINVAL,
		   "a relayed trace with an absolute path: EINVAL");
	tap_is_int(add_relayed_trace(c, 2, "ust/../../etc", 7), -EINVAL,
		   "a relayed trace with a .. component: EINVAL");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_RELAY_STATUS, 99), -ENOENT,
		   "RELAY_STATUS of an unknown relay: ENOENT");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DEL_RELAY, 7), -EBUSY,
		   "DEL_RELAY while a trace uses it: EBUSY");
}

static void test_relay(const char *base)
{
	struct ch_chan_args ca = { .key = 10, .trace_key = 1, .name = "chan" };
	struct ch_chan_args la = { .key = 20, .trace_key = 3, .name = "loc" };
	struct ch_ts_args a = { .num_subbuf = 8, .wakeups = true, .seal = true };
	struct ltt_consumer_relay_status_reply rs = { 0 };
	struct relay_death ds = { 0 };
	char run[PATH_MAX], out[PATH_MAX], rpath[PATH_MAX], tdir[PATH_MAX], p[PATH_MAX];
	static const char text[] = "/* CTF 1.8 */ trace { major = 1; minor = 8; };\n";
	struct ch_tstream s0, s1, l0;
	int cport, dport, pending = 0, i;
	unsigned int dropped = 0;
	struct ch_stats st = { 0 };
	pid_t rpid;
	struct ch_cons c;

	ch_pathf(run, "%s/run", base);
	ch_pathf(out, "%s/traces", base);
	if (!tap_ok(relayd_start(run, out, &cport, &dport, &rpid) == 0,
		    "ltt-relayd started on loopback (%s)", ch_relayd_path))
		return;
	tap_ok(ch_start(&c) == 0, "a consumer for the relay");
	tap_is_int(add_relay(&c, 7, cport, dport, "rs", 0, rpath), 0, "ADD_RELAY");
	tap_ok(!strncmp(rpath, out, strlen(out)), "the relay's output path: %s", rpath);
	tap_is_int(add_relayed_trace(&c, 1, "ust/uid/0/64-bit", 7), 0, "ADD_TRACE to the relay");
	test_relay_refusals(&c, cport, dport);
	tap_is_int(ch_metadata(&c, 1, text, sizeof(text) - 1), 0, "METADATA to the relay");
	tap_is_int(ch_add_channel(&c, &ca), 0, "ADD_CHANNEL of the relayed trace");
	a.cpu = 0;
	ch_tstream_init(&s0, &a, 300);
	a.cpu = 1;
	ch_tstream_init(&s1, &a, 301);
	tap_ok(!ch_add_stream(&c, 10, 0, &s0) && !ch_add_stream(&c, 10, 1, &s1), "two relayed streams");
	tap_is_int(ch_key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 10), 0,
		   "STREAMS_SENT: the channel's streams are all added");
	tap_is_int(ch_key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 99), -ENOENT,
		   "STREAMS_SENT of an unknown channel: ENOENT");
	/* the relay answers ADD_STREAM later: pending until it has them both */
	tap_is_int(relay_drained(&c, 7), 0, "RELAY_DATA_PENDING: the relay has both streams");
	/* a local trace beside it, on the same consumer */
	ch_pathf(p, "%s/local", base);
	tap_is_int(ch_add_trace(&c, 3, p, getuid(), getgid()), 0, "a local trace too");
	tap_is_int(ch_add_channel(&c, &la), 0, "with a channel");
	a.cpu = 0;
	ch_tstream_init(&l0, &a, 400);
	tap_is_int(ch_add_stream(&c, 20, 0, &l0), 0, "and a stream");
	for (i = 0; i < 3; i++) {
		dropped += ch_put_events(&s0, 200) + ch_put_events(&s1, 150);
		dropped += ch_flush(&c, 10, 0) ? 1000000 : 0;
	}
	tap_is_int(dropped, 0, "events written and flushed");
	tap_is_int(relay_drained(&c, 7), 0, "RELAY_DATA_PENDING says all reached the relay");
	tap_is_int(relay_status(&c, 7, &rs), 0, "RELAY_STATUS");
	tap_ok(!rs.conn_error && rs.packets_sent > 0 && !rs.packets_lost, "connected, %" PRIu64
	       " packets (%" PRIu64 " bytes) sent, none lost", rs.packets_sent, rs.bytes_sent);
	ch_pathf(tdir, "%s/ust/uid/0/64-bit", rpath);
	{
		uint64_t w0, w1, sent = index_content(ch_path_of(p, tdir, "index/chan_0.idx"), &w0);

		sent += index_content(ch_path_of(p, tdir, "index/chan_1.idx"), &w1);
		tap_ok(rs.bytes_sent == sent && w0 + w1 == rs.packets_sent * SUBBUF,
		       "the bytes sent are the packets' content (%" PRIu64 " of %" PRIu64
		       "): no padding on the wire", rs.bytes_sent, w0 + w1);
	}
	ch_verify_stream(tdir, "chan", 0, &s0, 0, false, -1);
	ch_verify_stream(tdir, "chan", 0, &s1, 1, false, -1);
	ch_check_metadata(ch_path_of(p, tdir, "metadata"), text, sizeof(text) - 1);

	/* the relay dies: its streams drop, the local one goes on, nothing hangs */
	tap_is_int(relayd_stop(rpid, SIGKILL), 0, "ltt-relayd killed (SIGKILL) and gone");
	/*
	 * A packet on its way to the dead relay: the consumer gives the
	 * connection up when it sees its end, at the latest when its stall
	 * deadline passes (checked at its next tick).
	 */
	ch_put_events(&s0, 20);
	ch_flush(&c, 10, 0);
	ds.c = &c;
	ch_wait_until(relay_failed, &ds, LTT_RLINK_STALL_MS + LTT_RLINK_TICK_MS);
	rs = ds.rs;
	tap_ok(rs.conn_error != 0, "the relay's death is recorded: %s", strerror(-rs.conn_error));
	ch_put_events(&s0, 200);
	tap_is_int(ch_flush(&c, 10, 0), 0, "a flush of the dead relay's channel still answers");
	relay_status(&c, 7, &rs);
	tap_ok(rs.packets_lost > 0, "its packets are counted lost (%" PRIu64 ")", rs.packets_lost);
	tap_is_int(relay_pending(&c, 7, &pending), -ECONNRESET, "RELAY_DATA_PENDING: ECONNRESET");
	tap_ok(!pending, "with nothing pending");
	dropped = ch_put_events(&l0, 300);
	tap_ok(!dropped && !ch_flush(&c, 20, 0) && !ch_stats(&c, 20, &st) && !st.packets_lost,
	       "the local trace is not affected");
	ch_pathf(p, "%s/local", base);
	ch_verify_stream(p, "loc", 0, &l0, 0, false, -1);
	tap_ok(!ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 10) &&
	       !ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), "the relayed trace is destroyed");
	tap_is_int(ch_key_cmd(&c, LTT_CONSUMER_MSG_DEL_RELAY, 7), 0, "DEL_RELAY");
	tap_is_int(ch_key_cmd(&c, LTT_CONSUMER_MSG_RELAY_STATUS, 7), -ENOENT,
		   "the relay is gone, the consumer answers");
	close(c.fd);
	c.fd = -1;
	tap_is_int(ch_wait(&c, WAIT_MS), 0, "and exits 0");
	ch_tstream_fini(&s0);
	ch_tstream_fini(&s1);
	ch_tstream_fini(&l0);
}

/*
 * The live timer: a partial packet reaches the relay without any flush;
 * a stream without events sends ltt-relayd no empty packet (only LTTng's
 * relay needs a first packet before it takes beacons).
 */
static void test_relay_live(const char *base)
{
	struct ch_chan_args ca = { .key = 10, .trace_key = 1, .name = "live" };
	struct ch_ts_args a = { .num_subbuf = 4, .wakeups = true, .seal = true };
	char run[PATH_MAX], out[PATH_MAX], rpath[PATH_MAX], p[PATH_MAX];
	struct ch_tstream s0, s1;
	struct stat st;
	int cport, dport;
	pid_t rpid;
	struct ch_cons c;

	ch_pathf(run, "%s/run-live", base);
	ch_pathf(out, "%s/traces-live", base);
	if (!tap_ok(relayd_start(run, out, &cport, &dport, &rpid) == 0, "a second ltt-relayd"))
		return;
	tap_ok(ch_start(&c) == 0, "a consumer");
	tap_is_int(add_relay(&c, 9, cport, dport, "live", 20000, rpath), 0,
		   "ADD_RELAY with a 20 ms live timer");
	tap_ok(!add_relayed_trace(&c, 1, "kernel", 9) && !ch_add_channel(&c, &ca),
	       "a relayed trace and channel");
	a.cpu = 0;
	ch_tstream_init(&s0, &a, 500);
	tap_is_int(ch_add_stream(&c, 10, 0, &s0), 0, "a stream");
	a.cpu = 1;
	ch_tstream_init(&s1, &a, 500);
	tap_is_int(ch_add_stream(&c, 10, 1, &s1), 0, "and one that stays without events");
	tap_is_int(ch_key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 10), 0, "STREAMS_SENT");
	tap_is_int(ch_put_events(&s0, 10), 0, "10 events: less than a packet");
	ch_pathf(p, "%s/kernel/live_0", rpath);
	tap_ok(ch_wait_size(p, SUBBUF, WAIT_MS), "the live timer sent the partial packet, unflushed");
	ch_pathf(p, "%s/kernel/live_1", rpath);
	tap_ok(stat(p, &st) ? errno == ENOENT : st.st_size == 0,
	       "the stream without events sent ltt-relayd no packet, not even an empty one");
	tap_is_int(relay_drained(&c, 9), 0, "and nothing is pending");
	ch_pathf(p, "%s/kernel", rpath);
	ch_verify_stream(p, "live", 0, &s0, 0, false, -1);
	close(c.fd);
	c.fd = -1;
	tap_is_int(ch_wait(&c, WAIT_MS), 0, "the consumer exits 0 with a relay left (closed)");
	tap_is_int(relayd_stop(rpid, SIGTERM), 0, "ltt-relayd stops on SIGTERM");
	ch_tstream_fini(&s0);
	ch_tstream_fini(&s1);
}

int main(void)
{
	char dir[PATH_MAX];

	if (ch_setup())
		return 1;
	ch_pathf(dir, "%s/relay", ch_tmpdir);
	mkdir(dir, 0700);
	test_relay(dir);
	test_relay_live(dir);
	if (!getenv("LTT_TEST_KEEP"))
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		tap_diag("kept %s", ch_tmpdir);
	return tap_done();
}
