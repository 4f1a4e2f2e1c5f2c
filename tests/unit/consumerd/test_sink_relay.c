// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sink_relay.c - the relay output against a fake relay run by this
 * test on loopback: the handshake and its errors, streams, packets and
 * their indexes as the relay receives them, metadata, a full socket
 * (would block, one packet queued, resumed), refused indexes, data
 * pending, beacons (never before a packet of their stream that waits),
 * and the relay dying mid-session.
 *
 * The fake relay (fake-relay.c) is a thread serving one control and one data
 * connection; the test's main thread plays the data thread's sink calls
 * and a pump thread does the relay's I/O as the data thread's loop does.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/model/uri.h"
#include "common/proto/relay-proto.h"
#include "common/net/relay-conn.h"
#include "consumerd/relay/relay-link.h"
#include "consumerd/sink/sink-relay.h"
#include "tests/unit/fake-relay.h"
#include "tests/unit/tap.h"

/* The pump thread: the data thread's loop over the relay's fds. */
struct pump {
	struct ltt_relay *relay;
	bool stop;	/* atomic: set by the test, read by the pump */
	pthread_t thread;
};

static void *pump_main(void *arg)
{
	struct pump *p = arg;
	uint32_t ce = POLLIN, de = 0;
	struct pollfd pfd[3];
	int c, d, k;

	ltt_rlink_fds(p->relay, &c, &d, &k);
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		pfd[0] = (struct pollfd){ .fd = c, .events = (short)ce };
		pfd[1] = (struct pollfd){ .fd = de ? d : -1, .events = POLLOUT };
		pfd[2] = (struct pollfd){ .fd = k, .events = POLLIN };
		poll(pfd, 3, 10);
		ltt_rlink_io(p->relay, &ce, &de);
		ce = ce ? POLLIN | ((ce & 4) ? POLLOUT : 0) : 0;	/* EPOLLOUT is 4 */
	}
	return NULL;
}

/* The fake relay's address, in @a (the caller's, as long as the cfg is used). */
static struct ltt_rlink_cfg cfg_for(struct fake *f, struct ltt_consumer_relay_addr *a)
{
	*a = (struct ltt_consumer_relay_addr){
		.family = LTT_URI_INET, .host = "127.0.0.1",
		.ctrl_port = (uint16_t)f->ctrl_port, .data_port = (uint16_t)f->data_port,
	};
	return (struct ltt_rlink_cfg){
		.key = 1, .addr = a, .hostname = "box",
		.session_name = "s1", .base_path = "", .live_timer_us = 0,
		.session_id = 5, .creation_time = 1700000000,
	};
}

static void test_connect_errors(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_rlink_cfg cfg;
	struct ltt_relay *r = NULL;
	struct fake f;
	int port, fd;

	fd = fake_listen_port(&port);
	close(fd);	/* nobody listens there now */
	addr = (struct ltt_consumer_relay_addr){
		.family = LTT_URI_INET, .host = "127.0.0.1",
		.ctrl_port = (uint16_t)port, .data_port = (uint16_t)port,
	};
	cfg = (struct ltt_rlink_cfg){ .key = 1, .addr = &addr,
					   .hostname = "box", .session_name = "s1" };
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), -ECONNREFUSED,
		   "no relay listening: ECONNREFUSED");
	addr.host[0] = '\0';
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), -EINVAL,
		   "an address without a host: EINVAL");
	strcpy(addr.host, "127.0.0.1");
	addr.ctrl_port = 0;
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), -EINVAL,
		   "an address without a control port: EINVAL");
	addr.ctrl_port = (uint16_t)port;
	addr.data_port = 0;
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), -EINVAL,
		   "an address without a data port: EINVAL");

	fake_start(&f, 3);
	cfg = cfg_for(&f, &addr);
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), -EPROTONOSUPPORT,
		   "a relay of protocol 3.x: EPROTONOSUPPORT");
	fake_stop(&f);

	/* a peer that accepts and closes: not a relay */
	fake_start(&f, 2);
	pthread_mutex_lock(&f.lock);
	f.die = true;
	pthread_mutex_unlock(&f.lock);
	cfg = cfg_for(&f, &addr);
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), -EPROTO,
		   "a peer that closes at once: EPROTO");
	fake_stop(&f);
}

/*
 * A packet of @len bytes: an 8-byte head of @tag, then @fill; two iovecs;
 * its content_size says the last 8 bytes are padding.
 */
static void make_packet(struct ltt_sink_packet *pkt, uint8_t *buf, size_t len, uint8_t tag,
			uint8_t fill, uint64_t seq)
{
	memset(buf, tag, 8);
	memset(buf + 8, fill, len - 8);
	memset(pkt, 0, sizeof(*pkt));
	pkt->len = len;
	pkt->iov[0] = (struct iovec){ buf, 8 };
	pkt->iov[1] = (struct iovec){ buf + 8, len - 8 };
	pkt->iovcnt = 2;
	pkt->splice_fd = -1;
	pkt->entry = (struct ltt_ctf_index_entry){
		.packet_size = len * 8, .content_size = len * 8 - 64, .timestamp_begin = 1000 + seq,
		.timestamp_end = 2000 + seq, .stream_id = 3, .stream_instance_id = 1,
		.packet_seq_num = seq,
	};
}

/*
 * ltt_rlink_reconcile() of @r, whose connection died, with stderr
 * in a file: whether the file then holds @want and @also.
 */
static bool reconcile_says(struct ltt_relay *r, const char *want, const char *also)
{
	char tmp[] = "/tmp/ltt-test-sink-relay.XXXXXX", text[2048];
	int fd = mkstemp(tmp), saved = dup(2);
	ssize_t n = -1;

	fflush(stderr);
	if (fd >= 0 && saved >= 0 && dup2(fd, 2) >= 0) {
		ltt_rlink_reconcile(r);
		fflush(stderr);
		dup2(saved, 2);
		n = pread(fd, text, sizeof(text) - 1, 0);
	}
	if (saved >= 0)
		close(saved);
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	if (n < 0)
		return false;
	text[n] = '\0';
	if (!strstr(text, want) || !strstr(text, also))
		tap_diag("the log: %s", text);
	return strstr(text, want) && strstr(text, also);
}

/*
 * A relay started again on the control port of @r's dead one refuses to
 * say which of the unconfirmed packets it holds: each refusal makes the
 * next ask wait (1 s, then twice as long each time), so asks in a row
 * (each stop, destroy, wait for data) do not ask again; the fifth refusal
 * is the last, said in a warning; the packets stay counted lost, as
 * @lost_packets and @lost_events of @sink say.  Before, every call asked
 * again at once, without end.  The waits are not waited out: the test
 * sets the time of the next ask to the past.
 */
static void test_reconcile_refused(struct fake *f, struct ltt_relay *r, struct ltt_sink *sink,
				   uint64_t lost_packets, uint64_t lost_events)
{
	uint64_t wait, packets, events;
	unsigned int per, k;
	bool ok = true;

	fake_reconcile_start(f, LTT_RELAY_ERR_NOENT);
	ltt_rlink_reconcile(r);
	pthread_mutex_lock(&f->lock);
	per = f->reconciles;
	pthread_mutex_unlock(&f->lock);
	wait = r->reconcile_retry_ms - ltt_relay_conn_now_ms();
	tap_ok(per >= 1 && wait > 900 && wait <= 1000,
	       "reconcile refused: the relay was asked (%u streams), the next ask waits %llu ms",
	       per, (unsigned long long)wait);
	ltt_rlink_reconcile(r);
	ltt_rlink_reconcile(r);
	pthread_mutex_lock(&f->lock);
	tap_is_int((int)f->reconciles, (int)per, "... two more calls at once ask nothing");
	pthread_mutex_unlock(&f->lock);
	for (k = 2; k < 5; k++) {
		r->reconcile_retry_ms = 1;	/* the wait is over */
		ltt_rlink_reconcile(r);
		wait = r->reconcile_retry_ms - ltt_relay_conn_now_ms();
		pthread_mutex_lock(&f->lock);
		ok = ok && f->reconciles == k * per && wait > (1000u << (k - 1)) - 100 &&
		     wait <= 1000u << (k - 1);
		pthread_mutex_unlock(&f->lock);
	}
	tap_ok(ok, "... asked again once each wait is over, each wait twice the one before "
	       "(the fourth %llu ms)", (unsigned long long)wait);
	r->reconcile_retry_ms = 1;
	tap_ok(reconcile_says(r, "the relay refused 5 times to say which of the", "they stay counted lost"),
	       "... the fifth refusal is the last: a warning says the packets stay counted lost");
	r->reconcile_retry_ms = 1;
	ltt_rlink_reconcile(r);
	pthread_mutex_lock(&f->lock);
	tap_is_int((int)f->reconciles, (int)(5 * per), "... and the relay is not asked again");
	pthread_mutex_unlock(&f->lock);
	ltt_sink_lost(sink, &packets, &events);
	tap_ok(packets == lost_packets && events == lost_events,
	       "... the unconfirmed packets stay counted lost (%llu, %llu events)",
	       (unsigned long long)packets, (unsigned long long)events);
	fake_reconcile_stop(f);
}

static void test_session(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_rlink_stats stats;
	struct ltt_rlink_cfg cfg;
	struct ltt_output *tout = NULL, *cout = NULL;
	struct ltt_sink *sink = NULL;
	struct ltt_sink_packet pkt;
	struct ltt_relay *r = NULL;
	static uint8_t buf[1 << 20];
	uint8_t meta[8192];
	struct pump pump = { 0 };
	struct pollfd pfd;
	unsigned int i, accepted = 0, refused = 0, blocked = 0, written = 0;
	uint64_t lost_packets = 0, lost_events = 0, base_packets = 0, base_events = 0;
	bool pending = true;
	struct fake f;

	fake_start(&f, 2);
	pthread_mutex_lock(&f.lock);
	f.reconcile = true;	/* asked after its death (test_reconcile_refused()) */
	pthread_mutex_unlock(&f.lock);
	cfg = cfg_for(&f, &addr);
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), 0, "connected to the relay");
	tap_is_str(path, "/out/box/s1", "with the relay's output path");
	pump.relay = r;
	pthread_create(&pump.thread, NULL, pump_main, &pump);

	tap_is_int(ltt_sink_relay_output_create(r, "ust/uid/0/64-bit", 0, 0, true, &tout), 0,
		   "a trace output: its metadata stream is added");
	tap_ok(fake_wait(&f, &f.nr_streams, 1) && !strcmp(f.stream_names[0], "metadata") &&
	       !strcmp(f.stream_paths[0], "ust/uid/0/64-bit"), "as 'metadata' of the trace's path");
	memset(meta, 'm', sizeof(meta));
	tap_is_int(ltt_output_metadata(tout, meta, sizeof(meta)), 0, "metadata is queued");
	fake_wait(&f, &f.metadata_msgs, 1);
	tap_ok(f.metadata_bytes == 8192 && f.metadata_first[0] == 'm',
	       "and reaches the relay (SEND_METADATA), %zu bytes", f.metadata_bytes);

	tap_is_int(ltt_sink_relay_output_create(r, "ust/uid/0/64-bit", 0, 0, false, &cout), 0,
		   "a channel output");
	tap_is_int(ltt_output_open_sink(cout, "chan_0", &sink), 0, "a sink: ADD_STREAM");
	tap_ok(fake_wait(&f, &f.nr_streams, 2) && !strcmp(f.stream_names[1], "chan_0") &&
	       sink->poll_fd >= 0, "named CHANNEL_CPU, with an fd to wait on");
	pfd = (struct pollfd){ .fd = sink->poll_fd, .events = POLLIN };
	tap_ok((ltt_sink_ready(sink) == 0 || poll(&pfd, 1, 5000) == 1) &&
	       ltt_sink_ready(sink) == 0,
	       "the sink (waiting for its stream's handle) wakes, ready once it came");
	tap_ok(f.streams_sent == 0, "no STREAMS_SENT yet: the channel's streams may still come");
	tap_ok(!ltt_sink_wants_packet(sink),
	       "ltt-relayd takes beacons at any time: a stream needs no first packet");
	ltt_output_streams_added(cout);
	tap_ok(fake_wait(&f, &f.streams_sent, 1) && f.streams_at_sent == 2,
	       "the channel's streams all added: STREAMS_SENT");
	for (i = 0; i < 3; i++) {
		make_packet(&pkt, buf, 4096, (uint8_t)i, (uint8_t)(0x10 + i), i);
		if (ltt_sink_ready(sink) == 0 && ltt_sink_write(sink, &pkt) == 0)
			accepted++;
	}
	tap_is_int((int)accepted, 3, "three packets written");
	tap_ok(fake_wait(&f, &f.nr_packets, 3) && fake_wait(&f, &f.nr_indexes, 3),
	       "the relay got three packets and three indexes");
	tap_ok(f.streams_sent == 1, "and no other STREAMS_SENT");
	tap_ok(f.pkt_handle[0] == 101 && f.pkt_seq[0] == 0 && f.pkt_seq[2] == 2 &&
	       f.pkt_len[1] == 4088 && f.pkt_pad[1] == 8 && f.pkt_first[1] == 1 &&
	       f.pkt_last[1] == 0x11 && f.pkt_uniform[2],
	       "in order, on the stream's handle, their content sent, the padding announced");
	tap_ok(f.last_index.stream_handle == 101 && f.last_index.net_seq_num == 2 &&
	       f.last_index.packet_size == 4096 * 8 && f.last_index.timestamp_end == 2002 &&
	       f.last_index.stream_id == 3 && f.last_index.packet_seq_num == 2,
	       "the index names the packet and carries its fields");

	/*
	 * Metadata the relay has not answered (written) holds new packets
	 * back: a relay killed at any instant never has packets whose
	 * metadata it does not have.
	 */
	pthread_mutex_lock(&f.lock);
	f.hold_metadata = true;
	i = f.metadata_msgs;
	pthread_mutex_unlock(&f.lock);
	tap_is_int(ltt_output_metadata(tout, meta, 4096), 0, "more metadata is queued");
	tap_ok(fake_wait(&f, &f.metadata_msgs, i + 1), "it reaches the relay, which does not answer");
	tap_is_int(ltt_sink_ready(sink), -EAGAIN, "the sink holds its next packet back meanwhile");
	pfd = (struct pollfd){ .fd = sink->poll_fd, .events = POLLIN };
	tap_is_int(poll(&pfd, 1, 0), 0, "and its fd does not wake it");
	pthread_mutex_lock(&f.lock);
	f.hold_metadata = false;
	pthread_mutex_unlock(&f.lock);
	tap_is_int(poll(&pfd, 1, 5000), 1, "the relay answers: the fd wakes the sink");
	tap_is_int(ltt_sink_ready(sink), 0, "which is ready again");
	tap_is_int((int)f.meta_unanswerable, 0,
		   "ltt-relayd (GET_CONFIGURATION's LTT flag) is asked to answer every SEND_METADATA");

	/*
	 * live, to ltt-relayd (which serves a beacon only once the packets
	 * before it are written): a tick after a write sends a beacon too,
	 * so that a viewer knows at once nothing follows that packet
	 */
	ltt_sink_idle(sink, 123456789, 3);
	tap_ok(fake_wait(&f, &f.nr_beacons, 1) && f.nr_beacons == 1 &&
	       f.last_beacon.timestamp_end == 123456789,
	       "ltt-relayd: a tick just after a packet sends a beacon");
	/*
	 * The tick read its clock before the switch that closed the packet
	 * just sent (timestamp_end 2002): the beacon is not before that end,
	 * where a viewer has read to (babeltrace2 fails on a time going back)
	 */
	ltt_sink_idle(sink, 1500, 3);
	tap_ok(fake_wait(&f, &f.nr_beacons, 2) && f.nr_beacons == 2 &&
	       f.last_beacon.timestamp_end == 2002,
	       "a beacon whose time is before the last packet's end says that end");
	ltt_sink_idle(sink, 223456789, 3);
	tap_ok(fake_wait(&f, &f.nr_beacons, 3) && f.nr_beacons == 3 &&
	       f.last_beacon.timestamp_end == 223456789 && f.last_beacon.stream_id == 3 &&
	       f.last_beacon.stream_handle == 101, "an idle stream sends one beacon with the time");

	/*
	 * the relay stops reading data: the sink says it would block.  The
	 * fake's round under way may still read a packet, which would make
	 * room and rightly wake the sink: the writes start once a round
	 * began that no longer reads.
	 */
	pthread_mutex_lock(&f.lock);
	f.stop_reading_data = true;
	i = f.loops;
	pthread_mutex_unlock(&f.lock);
	fake_wait(&f, &f.loops, i + 1);
	accepted = 0;
	refused = 0;
	for (i = 0; i < 40; i++) {
		if (ltt_sink_ready(sink) == -EAGAIN) {
			blocked = 1;
			break;
		}
		make_packet(&pkt, buf, sizeof(buf), (uint8_t)(3 + i), (uint8_t)(0x20 + i), 3 + i);
		refused += ltt_sink_write(sink, &pkt) != 0;
		accepted++;
	}
	/* one check for them all: how many the socket takes before it fills varies */
	tap_ok(accepted && !refused, "each packet written while ready is taken (%u, %u refused)",
	       accepted, refused);
	tap_ok(blocked, "a full socket: ready() says EAGAIN after %u MiB packets", accepted);
	pfd = (struct pollfd){ .fd = sink->poll_fd, .events = POLLIN };
	tap_is_int(poll(&pfd, 1, 0), 0, "and its fd does not wake it");
	pthread_mutex_lock(&f.lock);
	f.stop_reading_data = false;
	pthread_mutex_unlock(&f.lock);
	tap_is_int(poll(&pfd, 1, 5000), 1, "the relay reads again: the fd wakes the sink");
	for (i = 0; i < 500 && ltt_sink_ready(sink); i++)
		poll(&pfd, 1, 10);
	tap_is_int(ltt_sink_ready(sink), 0, "and the sink ready once the queued rest is sent");
	fake_wait(&f, &f.nr_packets, 3 + accepted);
	tap_ok(f.nr_packets == 3 + accepted, "every packet arrived (%u)", f.nr_packets);
	tap_ok(f.pkt_len[3 + accepted - 1] == sizeof(buf) - 8 &&
	       f.pkt_first[3 + accepted - 1] == (uint8_t)(3 + accepted - 1) &&
	       f.pkt_uniform[3 + accepted - 1] && f.pkt_seq[3 + accepted - 1] == 3 + accepted - 1,
	       "whole, the last one too (its rest went through the queue)");

	/* refused indexes are counted (the earlier ones all answered first) */
	tap_ok(fake_wait(&f, &f.nr_indexes, 3 + accepted), "every index arrived (%u)",
	       f.nr_indexes);
	pthread_mutex_lock(&f.lock);
	f.refuse_index = true;
	pthread_mutex_unlock(&f.lock);
	make_packet(&pkt, buf, 4096, 9, 9, 99);
	tap_ok(!ltt_sink_ready(sink) && !ltt_sink_write(sink, &pkt), "a packet whose index is refused");
	tap_ok(!ltt_rlink_data_pending(r, &pending) && pending,
	       "data pending asks the relay, and says pending until it answers");
	for (i = 0; i < 500 && pending; i++) {
		poll(NULL, 0, 10);
		if (ltt_rlink_data_pending(r, &pending))
			break;
	}
	ltt_rlink_stats(r, &stats);
	tap_ok(stats.replies_refused == 1, "the refused index is counted (%llu)",
	       (unsigned long long)stats.replies_refused);
	tap_ok(!pending, "nothing pending once the relay says so");
	pthread_mutex_lock(&f.lock);
	f.refuse_index = false;
	f.pending_answer = 1;
	pthread_mutex_unlock(&f.lock);
	make_packet(&pkt, buf, 4096, 10, 10, 100);	/* something new: asked again */
	tap_ok(!ltt_sink_ready(sink) && !ltt_sink_write(sink, &pkt), "another packet");
	for (i = 0; i < 20; i++) {	/* the asking call, the answer, again */
		if (ltt_rlink_data_pending(r, &pending) || !pending)
			break;
		poll(NULL, 0, 10);
	}
	tap_ok(i == 20 && pending, "pending while the relay says a stream misses packets");
	tap_ok(stats.packets_sent == 4 + accepted && stats.packets_lost == 1 && !stats.conn_error,
	       "stats: %llu packets sent, the one whose index was refused lost (not confirmed written)",
	       (unsigned long long)stats.packets_sent);
	ltt_sink_lost(sink, &base_packets, &base_events);
	tap_ok(base_packets == 1, "in its stream too (%llu)", (unsigned long long)base_packets);
	tap_ok(stats.bytes_sent == 4 * 4088 + (uint64_t)accepted * (sizeof(buf) - 8),
	       "stats: the bytes sent are the packets' content, no padding (%llu)",
	       (unsigned long long)stats.bytes_sent);

	/*
	 * Packets sent when the relay dies, in the socket or still queued:
	 * the relay never confirmed them written (their SEND_INDEX is not
	 * answered), so each is lost in its stream, with its events, once.
	 */
	pthread_mutex_lock(&f.lock);
	f.stop_reading_data = true;
	i = f.loops;
	pthread_mutex_unlock(&f.lock);
	fake_wait(&f, &f.loops, i + 2);	/* a round that no longer reads data */
	for (i = 0, blocked = 0, written = 0; i < 40; i++) {
		if (ltt_sink_ready(sink) == -EAGAIN) {
			blocked = 1;
			break;
		}
		make_packet(&pkt, buf, sizeof(buf), (uint8_t)(50 + i), (uint8_t)(0x50 + i), 200 + i);
		pkt.events = 7;
		if (!ltt_sink_write(sink, &pkt))
			written++;
	}
	ltt_sink_lost(sink, &lost_packets, &lost_events);
	tap_ok(blocked && written && lost_packets == base_packets && lost_events == base_events,
	       "the relay stops reading again: %u packets sent, nothing lost yet", written);

	/* the relay dies */
	pthread_mutex_lock(&f.lock);
	f.die = true;
	pthread_mutex_unlock(&f.lock);
	pthread_join(f.thread, NULL);
	for (i = 0; i < 500; i++) {
		ltt_rlink_stats(r, &stats);
		if (stats.conn_error)
			break;
		poll(NULL, 0, 10);
	}
	tap_ok(stats.conn_error != 0, "the relay's death is recorded: %s",
	       strerror(-stats.conn_error));
	ltt_sink_lost(sink, &lost_packets, &lost_events);
	tap_ok(lost_packets - base_packets == written && lost_events - base_events == 7ull * written,
	       "the %u packets it never confirmed are lost in their stream, 7 events each (%llu, %llu)",
	       written, (unsigned long long)(lost_packets - base_packets),
	       (unsigned long long)(lost_events - base_events));
	tap_is_int(ltt_sink_ready(sink), 0, "a dead relay's sink never blocks");
	make_packet(&pkt, buf, 4096, 1, 1, 101);
	tap_ok(ltt_sink_write(sink, &pkt) < 0, "and drops what it is given");
	ltt_rlink_stats(r, &stats);
	tap_ok(stats.packets_lost == 2 + written, "counted lost, after the unconfirmed ones (%llu)",
	       (unsigned long long)stats.packets_lost);
	tap_is_int(ltt_rlink_data_pending(r, &pending), -ECONNRESET,
		   "data pending: ECONNRESET");
	tap_ok(!pending, "and nothing pending");
	{
		struct ltt_sink *late = NULL;

		tap_is_int(ltt_output_open_sink(cout, "chan_1", &late), 0,
			   "a sink opened after the death still opens");
		tap_ok(late && !ltt_sink_ready(late) && ltt_sink_write(late, &pkt) < 0,
		       "and drops what it is given");
		ltt_rlink_stats(r, &stats);
		tap_ok(stats.packets_lost == 3 + written, "counted lost too (%llu)",
		       (unsigned long long)stats.packets_lost);
		ltt_sink_destroy(late);
	}
	ltt_sink_lost(sink, &lost_packets, &lost_events);
	test_reconcile_refused(&f, r, sink, lost_packets, lost_events);

	__atomic_store_n(&pump.stop, true, __ATOMIC_RELEASE);
	pthread_join(pump.thread, NULL);
	ltt_sink_destroy(sink);
	ltt_output_destroy(cout);
	ltt_output_destroy(tout);
	ltt_rlink_destroy(r);
	tap_ok(1, "closed without hanging");
	close(f.lctrl);
	close(f.ldata);
}

/*
 * The streams of a channel are announced together: a packet or a live
 * tick while they are still being added announces nothing; the channel's
 * STREAMS_SENT does, once; a channel that goes before its streams were
 * all added does not hold the others back.
 */
static void test_announce(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_output *tout = NULL, *cout = NULL, *other = NULL;
	struct ltt_sink *a = NULL, *b = NULL, *c = NULL;
	struct ltt_rlink_cfg cfg;
	struct ltt_sink_packet pkt;
	struct ltt_relay *r = NULL;
	static uint8_t buf[4096];
	struct pump pump = { 0 };
	struct pollfd pfd;
	struct fake f;

	fake_start(&f, 2);
	cfg = cfg_for(&f, &addr);
	cfg.live_timer_us = 10000;
	tap_is_int(ltt_rlink_connect(&cfg, &r, path, sizeof(path)), 0, "announce: connected");
	pump.relay = r;
	pthread_create(&pump.thread, NULL, pump_main, &pump);
	ltt_sink_relay_output_create(r, "kernel", 0, 0, true, &tout);
	ltt_sink_relay_output_create(r, "kernel", 0, 0, false, &cout);
	tap_ok(cout && !ltt_output_open_sink(cout, "chan_0", &a), "the channel's first stream");
	pfd = (struct pollfd){ .fd = a->poll_fd, .events = POLLIN };
	tap_ok((ltt_sink_ready(a) == 0 || poll(&pfd, 1, 5000) == 1) && ltt_sink_ready(a) == 0,
	       "has its handle");
	make_packet(&pkt, buf, sizeof(buf), 1, 1, 0);
	tap_ok(!ltt_sink_write(a, &pkt) && fake_wait(&f, &f.nr_indexes, 1),
	       "a packet of it reached the relay, with its index");
	tap_is_int((int)f.streams_sent, 0, "not announced while its channel's streams may come");
	ltt_sink_idle(a, 5000, 3);	/* wrote since the last tick: a beacon (ltt-relayd) */
	ltt_sink_idle(a, 6000, 3);	/* a beacon, after what the tick would announce */
	tap_ok(fake_wait(&f, &f.nr_beacons, 2), "two live ticks (two beacons came)");
	tap_is_int((int)f.streams_sent, 0, "and still not announced: a tick does not split a channel");
	tap_ok(!ltt_output_open_sink(cout, "chan_1", &b) && fake_wait(&f, &f.nr_streams, 3),
	       "the channel's second stream is added");
	ltt_output_streams_added(cout);
	tap_ok(fake_wait(&f, &f.streams_sent, 1) && f.streams_at_sent == 3,
	       "STREAMS_SENT once its streams are all added: both announced at once");

	/* another channel whose streams never complete: its end releases them */
	ltt_sink_relay_output_create(r, "kernel", 0, 0, false, &other);
	tap_ok(other && !ltt_output_open_sink(other, "other_0", &c) &&
	       fake_wait(&f, &f.nr_streams, 4), "another channel's stream");
	ltt_sink_idle(a, 7000, 3);
	ltt_sink_idle(a, 8000, 3);
	fake_wait(&f, &f.nr_beacons, 4);
	tap_ok(f.nr_beacons == 4 && f.streams_sent == 1,
	       "ticks while it is incomplete announce nothing");
	ltt_sink_destroy(c);
	ltt_output_destroy(other);
	tap_ok(fake_wait(&f, &f.streams_sent, 2) && f.streams_sent == 2,
	       "a channel gone before its STREAMS_SENT holds nothing back");

	pump.stop = true;
	pthread_join(pump.thread, NULL);
	ltt_sink_destroy(a);
	ltt_sink_destroy(b);
	ltt_output_destroy(cout);
	ltt_output_destroy(tout);
	ltt_rlink_destroy(r);
	fake_stop(&f);
}

/* A live session (10 ms) toward a relay without ltt's extensions, as LTTng's. */
struct live {
	struct fake f;
	struct ltt_consumer_relay_addr addr;
	struct ltt_relay *r;
	struct pump pump;
	struct ltt_output *tout, *cout;	/* a trace's metadata and a channel */
};

static void live_start(struct live *l, const char *what)
{
	struct ltt_rlink_cfg cfg;
	char path[256];

	memset(l, 0, sizeof(*l));
	fake_start(&l->f, 2);
	pthread_mutex_lock(&l->f.lock);
	l->f.lttng = true;
	pthread_mutex_unlock(&l->f.lock);
	cfg = cfg_for(&l->f, &l->addr);
	cfg.live_timer_us = 10000;
	tap_is_int(ltt_rlink_connect(&cfg, &l->r, path, sizeof(path)), 0,
		   "%s: connected to a relay without ltt's extensions", what);
	l->pump.relay = l->r;
	pthread_create(&l->pump.thread, NULL, pump_main, &l->pump);
	ltt_sink_relay_output_create(l->r, "ust/uid/0/64-bit", 0, 0, true, &l->tout);
	ltt_sink_relay_output_create(l->r, "ust/uid/0/64-bit", 0, 0, false, &l->cout);
}

/* Its end, the sinks of its channel destroyed first (by the caller). */
static void live_stop(struct live *l)
{
	__atomic_store_n(&l->pump.stop, true, __ATOMIC_RELEASE);
	pthread_join(l->pump.thread, NULL);
	ltt_output_destroy(l->cout);
	ltt_output_destroy(l->tout);
	ltt_rlink_destroy(l->r);
	fake_stop(&l->f);
}

/*
 * Toward LTTng's relay (no LTT flag in GET_CONFIGURATION) a stream needs
 * a first packet: that relay ignores the beacons of a stream that never
 * had one, and its viewers wait on the stream meanwhile.
 */
static void test_first_packet(void)
{
	struct ltt_sink_packet pkt;
	struct ltt_sink *a = NULL;
	static uint8_t buf[4096];
	static struct live l;
	struct fake *fk = &l.f;
	struct pollfd pfd;

	live_start(&l, "first packet");
	tap_ok(l.cout && !ltt_output_open_sink(l.cout, "chan_0", &a), "a stream");
	pfd = (struct pollfd){ .fd = a->poll_fd, .events = POLLIN };
	tap_ok((ltt_sink_ready(a) == 0 || poll(&pfd, 1, 5000) == 1) && ltt_sink_ready(a) == 0,
	       "has its handle");
	tap_ok(ltt_sink_wants_packet(a), "without a packet yet, it needs one");
	make_packet(&pkt, buf, sizeof(buf), 1, 1, 0);
	tap_ok(!ltt_sink_write(a, &pkt) && fake_wait(fk, &fk->nr_indexes, 1),
	       "a packet of it reached the relay, with its index");
	tap_ok(!ltt_sink_wants_packet(a), "it needs none afterwards: beacons do");
	ltt_sink_destroy(a);
	live_stop(&l);
}

/*
 * Toward LTTng's relay, a stream's beacon never overtakes its packet: with
 * one stream's packet in the data queue (the relay reads no data), another
 * stream whose sink was told to wait may hold a packet older than a
 * beacon's time, so it sends none; a third, which waits for nothing, does.
 */
static void test_beacon_waiting(void)
{
	struct ltt_sink *a = NULL, *b = NULL, *c = NULL;
	struct ltt_sink_packet pkt;
	static uint8_t buf[1 << 20];
	static struct live l;
	struct fake *fk = &l.f;
	struct pollfd pfd;
	unsigned int i, loops;
	bool blocked = false, came;

	live_start(&l, "beacons");
	tap_ok(l.cout && !ltt_output_open_sink(l.cout, "chan_0", &a) &&
	       !ltt_output_open_sink(l.cout, "chan_1", &b) &&
	       !ltt_output_open_sink(l.cout, "chan_2", &c), "three streams");
	ltt_output_streams_added(l.cout);
	for (i = 0; i < 500 && (ltt_sink_ready(a) || ltt_sink_ready(b) || ltt_sink_ready(c)); i++)
		poll(NULL, 0, 10);
	tap_ok(i < 500, "each has its handle");

	pthread_mutex_lock(&fk->lock);
	fk->stop_reading_data = true;
	loops = fk->loops;
	pthread_mutex_unlock(&fk->lock);
	fake_wait(fk, &fk->loops, loops + 2);	/* a round that no longer reads data */
	for (i = 0; i < 40; i++) {
		if (ltt_sink_ready(a) == -EAGAIN) {
			blocked = true;
			break;
		}
		make_packet(&pkt, buf, sizeof(buf), 1, 1, i);
		if (ltt_sink_write(a, &pkt))
			break;
	}
	tap_ok(blocked, "the relay reads no data: the first stream's packet waits in the queue");
	tap_is_int(ltt_sink_ready(b), -EAGAIN, "the second stream's sink is told to wait");
	ltt_sink_idle(b, 900000, 3);	/* its packet may end before 900000 */
	ltt_sink_idle(c, 900000, 3);
	pthread_mutex_lock(&fk->lock);
	fk->stop_reading_data = false;
	pthread_mutex_unlock(&fk->lock);
	came = fake_wait(fk, &fk->nr_beacons, 1);
	tap_ok(came && fk->nr_beacons == 1 &&
	       fk->last_beacon.stream_handle == 103,
	       "the relay reads again: one beacon came, the third stream's (handle %llu, %u beacons)",
	       (unsigned long long)fk->last_beacon.stream_handle, fk->nr_beacons);
	pfd = (struct pollfd){ .fd = b->poll_fd, .events = POLLIN };
	tap_ok(poll(&pfd, 1, 5000) == 1 && !ltt_sink_ready(b), "the waiting sink is woken, ready");
	make_packet(&pkt, buf, 4096, 2, 2, 0);
	tap_ok(!ltt_sink_write(b, &pkt), "its packet goes");
	ltt_sink_idle(b, 900000, 3);	/* wrote since the last tick: none */
	ltt_sink_idle(b, 950000, 3);
	came = fake_wait(fk, &fk->nr_beacons, 2);
	tap_ok(came && fk->last_beacon.stream_handle == 102 &&
	       fk->last_beacon.timestamp_end == 950000,
	       "its beacon comes after it, at the next tick");
	ltt_sink_destroy(a);
	ltt_sink_destroy(b);
	ltt_sink_destroy(c);
	live_stop(&l);
}

int main(void)
{
	tap_plan(96);
	test_connect_errors();
	test_session();
	test_announce();
	test_first_packet();
	test_beacon_waiting();
	return tap_done();
}
