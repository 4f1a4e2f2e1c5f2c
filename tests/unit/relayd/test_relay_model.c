// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_relay_model.c - the relay's model without sockets: sessions and
 * their directories, streams, packets written in pieces, indexes paired
 * with their packets in either order (and the halves that never pair),
 * tracefile rotation with viewer offsets across files, metadata, data
 * pending, hang-ups, beacons, the read interface the live server uses
 * (model.h), checked against the files on disk, and RECONCILE_STREAM on
 * the files a dead session left (reconcile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trace/ctf.h"
#include "common/base/log.h"
#include "relayd/model.h"
#include "relayd/reconcile.h"
#include "relayd/session.h"
#include "relayd/stream.h"
#include "tests/unit/tap.h"

#define PKT 4096

static char tmpdir[PATH_MAX];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static struct ltt_relay_session *new_session(struct ltt_relay_model *m, const char *host,
					     const char *name, const char *base, int *ret)
{
	struct ltt_relay_create_session req = { .creation_time = 1700000000, .live_timer_us = 1000,
						.trace_format = LTT_RELAY_TRACE_FORMAT_CTF_1_8 };
	struct ltt_relay_session *s = NULL;

	snprintf(req.hostname, sizeof(req.hostname), "%s", host);
	snprintf(req.session_name, sizeof(req.session_name), "%s", name);
	snprintf(req.base_path, sizeof(req.base_path), "%s", base);
	*ret = ltt_relay_session_create(m, &req, &s);
	return s;
}

static int add(struct ltt_relay_session *s, const char *chan, uint64_t size, uint64_t count,
	       uint64_t *ret_handle)
{
	struct ltt_relay_add_stream req = { .tracefile_size = size, .tracefile_count = count };

	snprintf(req.channel_name, sizeof(req.channel_name), "%s", chan);
	snprintf(req.pathname, sizeof(req.pathname), "ust/uid/0/64-bit");
	return ltt_relay_stream_add(s, &req, ret_handle);
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 13);
}

/* Packet @seq of @len bytes (content @seed), written in three pieces. */
static int packet(struct ltt_relay_model *m, uint64_t h, uint64_t seq, size_t len, uint8_t seed)
{
	struct ltt_relay_data_hdr hdr = { .stream_handle = h, .net_seq_num = seq,
					  .data_size = (uint32_t)len };
	struct ltt_relay_packet pkt;
	uint8_t *buf = malloc(len);
	int ret;

	fill(buf, len, seed);
	ret = ltt_relay_packet_begin(m, &hdr, &pkt);
	if (!ret)
		ret = ltt_relay_packet_write(&pkt, buf, 100);
	if (!ret)
		ret = ltt_relay_packet_write(&pkt, buf + 100, len - 200);
	if (!ret)
		ret = ltt_relay_packet_write(&pkt, buf + len - 100, 100);
	if (!ret)
		ret = ltt_relay_packet_end(&pkt);
	free(buf);
	return ret;
}

static int index_of(struct ltt_relay_session *s, uint64_t h, uint64_t seq, size_t len,
		    uint64_t ts)
{
	struct ltt_relay_index idx = {
		.stream_handle = h, .net_seq_num = seq, .packet_size = len * 8,
		.content_size = len * 8 - 64, .timestamp_begin = ts, .timestamp_end = ts + 10,
		.stream_id = 3, .stream_instance_id = 0, .packet_seq_num = seq,
	};

	return ltt_relay_stream_index(s, &idx);
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

static void test_sessions(struct ltt_relay_model *m)
{
	struct ltt_relay_session_info *infos;
	struct ltt_relay_session *s;
	char path[PATH_MAX * 2];
	size_t n;
	int ret;

	s = new_session(m, "hostA", "sess", "", &ret);
	tap_is_int(ret, 0, "a session");
	snprintf(path, sizeof(path), "%s/out/hostA/sess-", tmpdir);
	tap_ok(!strncmp(s->output_path, path, strlen(path)) &&
	       strlen(s->output_path) == strlen(path) + 15,
	       "its directory is OUTPUT/HOST/SESSION-YYYYmmdd-HHMMSS (%s)", s->output_path);
	new_session(m, "../etc", "sess", "", &ret);
	tap_is_int(ret, -EINVAL, "a host name with '..' is refused");
	new_session(m, "h", "a/b", "", &ret);
	tap_is_int(ret, -EINVAL, "a session name with '/' is refused");
	new_session(m, "h", "s", "x/../../y", &ret);
	tap_is_int(ret, -EINVAL, "a base path with '..' is refused");
	new_session(m, "h", "s", "/abs", &ret);
	tap_is_int(ret, -EINVAL, "an absolute base path is refused");
	tap_is_int(ltt_relay_model_list_sessions(m, &infos, &n), 0, "list sessions");
	tap_ok(n == 1 && infos[0].id == s->id && !strcmp(infos[0].hostname, "hostA") &&
	       infos[0].live_timer_us == 1000 && !infos[0].closed, "one session, as created");
	free(infos);
	ltt_relay_session_close(s);
	ltt_relay_session_put(s);
	tap_is_int(ltt_relay_model_list_sessions(m, &infos, &n), 0, "list sessions again");
	tap_is_int((long long)n, 0, "a closed session nobody views is gone");
	free(infos);
}

static void test_pairing(struct ltt_relay_model *m)
{
	struct ltt_relay_stream_info si;
	struct ltt_relay_entry e;
	struct ltt_relay_session *s;
	uint64_t h, hm, h2, pos;
	uint8_t buf[PKT], want[PKT];
	char path[PATH_MAX * 2];
	size_t got;
	bool pending;
	int ret;

	s = new_session(m, "hostB", "pair", "pair", &ret);
	tap_is_int(add(s, "metadata", 0, 0, &hm), 0, "a metadata stream");
	tap_is_int(add(s, "metadata", 0, 0, &h2), -EEXIST, "a second one is refused");
	tap_is_int(add(s, "chan_0", 0, 0, &h), 0, "a data stream");
	tap_is_int(add(s, "chan_0", 0, 0, &h2), -EEXIST, "the same stream twice is refused");
	tap_is_int(add(s, "../x", 0, 0, &h2), -EINVAL, "a channel name with '..' is refused");
	tap_is_int(ltt_relay_model_stream_info(m, h, &si), 0, "stream info");
	tap_ok(!si.sent && si.metadata_handle == hm && !si.metadata, "not sent yet; its metadata stream");
	ltt_relay_session_streams_sent(s);
	ltt_relay_model_stream_info(m, h, &si);
	tap_ok(si.sent, "STREAMS_SENT makes it visible");

	/* packet 0 then its index; index 1 then its packet */
	tap_is_int(ltt_relay_model_get_index(m, h, 0, &e), -EAGAIN, "no entry yet: try again");
	tap_is_int(packet(m, h, 0, PKT, 1), 0, "packet 0 written in pieces");
	tap_is_int(ltt_relay_model_get_index(m, h, 0, &e), -EAGAIN, "a packet without its index is no entry");
	tap_is_int(index_of(s, h, 0, PKT, 100), 0, "its index");
	tap_is_int(ltt_relay_model_get_index(m, h, 0, &e), 0, "entry 0");
	tap_ok(e.entry.offset == 0 && e.viewer_offset == 0 && e.entry.packet_size == PKT * 8 &&
	       e.entry.timestamp_begin == 100 && e.entry.stream_id == 3, "entry 0's fields");
	tap_is_int(index_of(s, h, 1, PKT, 200), 0, "index 1 before its packet");
	tap_is_int(ltt_relay_stream_data_pending(s, h, 1, &pending), 0, "DATA_PENDING");
	tap_ok(pending && ltt_relay_session_pending(s), "packet 1 is pending");
	tap_is_int(packet(m, h, 1, PKT, 2), 0, "packet 1");
	ltt_relay_stream_data_pending(s, h, 1, &pending);
	tap_ok(!pending && !ltt_relay_session_pending(s), "nothing pending");
	tap_is_int(ltt_relay_model_get_index(m, h, 1, &e), 0, "entry 1");
	tap_ok(e.entry.offset == PKT && e.viewer_offset == PKT, "entry 1 follows entry 0");

	/* index 2 whose packet never comes, then packet 3 and its index */
	tap_is_int(index_of(s, h, 2, PKT, 300), 0, "index 2");
	tap_is_int(packet(m, h, 3, PKT, 4), 0, "packet 3 (packet 2 never came)");
	tap_is_int(index_of(s, h, 3, PKT, 400), 0, "index 3");
	tap_is_int(ltt_relay_model_get_index(m, h, 2, &e), 0, "entry 2 exists");
	tap_ok(e.entry.timestamp_begin == 400 && e.entry.offset == 2 * PKT,
	       "entry 2 is packet 3's: index 2 was dropped");
	/* a packet whose index disagrees on its size */
	tap_is_int(packet(m, h, 4, PKT, 5), 0, "packet 4");
	tap_is_int(index_of(s, h, 4, PKT / 2, 500), 0, "an index of another size");
	tap_is_int(ltt_relay_model_get_index(m, h, 3, &e), -EAGAIN, "is not paired");
	tap_is_int(index_of(s, h, 4, PKT, 500), -EINVAL, "an index number that does not grow: EINVAL");
	tap_is_int(packet(m, h, 4, PKT, 5), -EINVAL, "a packet number that does not grow: EINVAL");

	/* the files, and the read interface */
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/index/chan_0.idx", s->output_path);
	tap_is_int(file_size(path), 16 + 3 * 72, "three entries in the index file");
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/chan_0", s->output_path);
	tap_is_int(file_size(path), 4 * PKT, "four packets in the stream file");
	tap_is_int(ltt_relay_model_read_packet(m, h, PKT + 10, buf, sizeof(buf), &got), 0,
		   "read inside packet 1");
	fill(want, PKT, 2);
	tap_ok(got == PKT - 10 && !memcmp(buf, want + 10, got), "up to its end, its bytes");
	tap_is_int(ltt_relay_model_read_packet(m, h, 3 * PKT, buf, 10, &got), -ERANGE,
		   "packet 4 has no entry: out of range");
	tap_is_int(ltt_relay_model_seek_last(m, h, &pos), 0, "seek last");
	tap_is_u64(pos, 2, "the newest entry");

	/* beacons, close, hang-up */
	{
		struct ltt_relay_index b = { .stream_handle = h, .timestamp_end = 999, .stream_id = 3 };

		tap_is_int(ltt_relay_stream_index(s, &b), 0, "a beacon");
	}
	ltt_relay_model_stream_info(m, h, &si);
	tap_ok(si.has_beacon && si.beacon_ts == 999 && si.index_count == 3, "recorded as the beacon");
	tap_is_int(ltt_relay_stream_close(s, h, 4), 0, "CLOSE_STREAM at 4");
	ltt_relay_model_stream_info(m, h, &si);
	tap_ok(si.closed && si.hup, "closed, every packet in: hung up");
	tap_is_int(ltt_relay_model_get_index(m, h, 3, &e), -EPIPE, "past the last entry: EPIPE");
	tap_is_int(ltt_relay_stream_close(s, 12345, 0), -ENOENT, "closing an unknown stream: ENOENT");

	/* metadata */
	memset(buf, 'm', 100);
	tap_is_int(ltt_relay_stream_metadata(s, hm, buf, 100, 28), 0, "100 metadata bytes + 28 padding");
	tap_is_int(ltt_relay_stream_metadata(s, h, buf, 100, 0), -EINVAL, "metadata on a data stream: EINVAL");
	ltt_relay_model_stream_info(m, hm, &si);
	tap_is_u64(si.metadata_size, 128, "128 metadata bytes");
	tap_is_int(ltt_relay_model_read_metadata(m, hm, 90, buf, sizeof(buf), &got), 0, "read from 90");
	tap_ok(got == 38 && buf[0] == 'm' && buf[9] == 'm' && buf[10] == 0, "10 bytes then the zeros");

	/* a viewer keeps the closed session */
	tap_is_int(ltt_relay_model_viewer_get(m, s->id), 0, "a viewer attaches");
	ltt_relay_session_close(s);
	ltt_relay_session_put(s);
	tap_is_int(ltt_relay_model_get_index(m, h, 0, &e), 0, "closed, still readable by the viewer");
	ltt_relay_model_viewer_put(m, 424242);	/* no such session: nothing */
	tap_is_int(ltt_relay_model_stream_info(m, h, &si), 0, "still there");
	ltt_relay_model_viewer_put(m, si.session_id);
	tap_is_int(ltt_relay_model_stream_info(m, h, &si), -ENOENT, "gone with its last viewer");
}

/*
 * Packets whose padding does not travel: the data is written, the file
 * extended over the padding (zeros), the entry and the viewer's reads
 * span the whole packet, the next packet follows it.
 */
static void test_padding(struct ltt_relay_model *m)
{
	struct ltt_relay_data_hdr hdr = { .data_size = 1000, .padding_size = PKT - 1000 };
	struct ltt_relay_packet pkt;
	struct ltt_relay_session *s;
	struct ltt_relay_entry e;
	uint8_t data[1000], buf[PKT], want[PKT];
	char path[PATH_MAX * 2];
	struct stat sb;
	uint64_t h;
	size_t got;
	int ret;

	s = new_session(m, "hostP", "pad", "pad", &ret);
	tap_is_int(add(s, "chan_0", 0, 0, &h), 0, "padding: a data stream");
	ltt_relay_session_streams_sent(s);
	hdr.stream_handle = h;
	fill(data, sizeof(data), 7);
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), 0, "a packet of 1000 bytes + padding");
	tap_ok(!ltt_relay_packet_write(&pkt, data, 600) && !ltt_relay_packet_write(&pkt, data + 600, 400),
	       "its 1000 data bytes, in two pieces");
	tap_is_int(ltt_relay_packet_write(&pkt, data, 1), -EINVAL, "no byte more: the padding is not sent");
	tap_is_int(ltt_relay_packet_end(&pkt), 0, "the packet ends");
	tap_is_int(index_of(s, h, 0, PKT, 100), 0, "its index: packet_size counts the padding");
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/chan_0", s->output_path);
	tap_is_int(file_size(path), PKT, "the file holds the whole packet");
	tap_is_int(packet(m, h, 1, PKT, 3), 0, "a whole packet after it");
	tap_is_int(index_of(s, h, 1, PKT, 200), 0, "its index");
	tap_is_int(file_size(path), 2 * PKT, "written after the padding");
	tap_is_int(ltt_relay_model_get_index(m, h, 1, &e), 0, "entry 1");
	tap_ok(e.entry.offset == PKT && e.viewer_offset == PKT, "at the packet's full size");
	tap_is_int(ltt_relay_model_read_packet(m, h, 0, buf, sizeof(buf), &got), 0,
		   "a viewer reads packet 0");
	memset(want, 0, sizeof(want));
	memcpy(want, data, sizeof(data));
	tap_ok(got == PKT && !memcmp(buf, want, PKT), "its data then zeros, packet_size bytes");
	tap_ok(!stat(path, &sb) && (uint64_t)sb.st_blocks * 512 <= 2 * PKT,
	       "the padding takes no more room than data would (%llu bytes allocated)",
	       (unsigned long long)sb.st_blocks * 512);
	hdr = (struct ltt_relay_data_hdr){ .stream_handle = h, .net_seq_num = 2,
					   .padding_size = PKT };
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), -EINVAL, "a packet of padding alone: EINVAL");
	hdr.data_size = 1;
	hdr.padding_size = LTT_RELAY_MAX_PACKET;
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), -EINVAL,
		   "data + padding above the limit: EINVAL");
	hdr.padding_size = PKT + 100 - 1;
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), -EINVAL,
		   "a padded packet that does not end on a page: EINVAL");
	hdr.padding_size = 3 * PKT + 2048 - 1;
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), -EINVAL,
		   "a padded packet of 3.5 pages: EINVAL");
	hdr.padding_size = 1024 - 1;
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), -EINVAL,
		   "a padded packet under 4 KiB: EINVAL");
	hdr.padding_size = PKT - 1;
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), 0,
		   "a padded packet of one page: accepted");
	tap_is_int(ltt_relay_packet_write(&pkt, data, 1), 0, "its byte written");
	tap_is_int(ltt_relay_packet_end(&pkt), 0, "and ended");
	hdr.net_seq_num = 3;
	hdr.padding_size = 3 * PKT - 1;
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), 0,
		   "a padded packet of three pages, as LTTng pads to the page: accepted");
	tap_is_int(ltt_relay_packet_write(&pkt, data, 1), 0, "its byte written");
	tap_is_int(ltt_relay_packet_end(&pkt), 0, "and ended");
	ltt_relay_session_close(s);
	ltt_relay_session_put(s);
}

static void test_rotation(struct ltt_relay_model *m)
{
	struct ltt_relay_session *s;
	struct ltt_relay_entry e;
	struct ltt_relay_packet pkt;
	struct ltt_relay_data_hdr hdr;
	uint8_t buf[PKT], want[PKT];
	char path[PATH_MAX * 2];
	uint64_t h, i;
	size_t got;
	int ret;

	s = new_session(m, "hostC", "rot", "rot", &ret);
	tap_is_int(add(s, "chan_1", 2 * PKT + 1, 2, &h), 0, "a stream of 2-packet files, 2 kept");
	for (i = 0; i < 5; i++) {
		packet(m, h, i, PKT, (uint8_t)(10 + i));
		index_of(s, h, i, PKT, 1000 + i);
	}
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/chan_1_0", s->output_path);
	tap_is_int(file_size(path), -1, "file 0 was deleted (count 2)");
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/chan_1_1", s->output_path);
	tap_is_int(file_size(path), 2 * PKT, "file 1 holds packets 2 and 3");
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/index/chan_1_2.idx", s->output_path);
	tap_is_int(file_size(path), 16 + 72, "index 2 holds packet 4's entry");
	tap_is_int(ltt_relay_model_get_index(m, h, 4, &e), 0, "entry 4");
	tap_ok(e.file_no == 2 && e.entry.offset == 0 && e.viewer_offset == 4 * PKT,
	       "entry 4: file 2 at 0, viewer offset 4 packets");
	tap_is_int(ltt_relay_model_read_packet(m, h, 3 * PKT, buf, sizeof(buf), &got), 0,
		   "read packet 3 by its viewer offset");
	fill(want, PKT, 13);
	tap_ok(got == PKT && !memcmp(buf, want, PKT), "packet 3's bytes, from file 1");
	tap_is_int(ltt_relay_model_read_packet(m, h, PKT, buf, sizeof(buf), &got), -ESTALE,
		   "packet 1's file was deleted: ESTALE");
	tap_is_int(ltt_relay_model_get_index(m, h, 1, &e), -ESTALE,
		   "entry 1 of the deleted file is no longer kept: ESTALE");
	ret = ltt_relay_model_seek_first(m, h, &i);
	tap_ok(!ret && i == 2, "the oldest entry kept is 2, the first of file 1 (%llu)",
	       (unsigned long long)i);

	/* a packet cut short is removed; its number may come again */
	hdr = (struct ltt_relay_data_hdr){ .stream_handle = h, .net_seq_num = 5, .data_size = PKT };
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &pkt), 0, "packet 5 begins");
	tap_is_int(ltt_relay_packet_begin(m, &hdr, &(struct ltt_relay_packet){ 0 }), -EBUSY,
		   "another packet of the stream meanwhile: EBUSY");
	ltt_relay_packet_write(&pkt, buf, 1000);
	ltt_relay_packet_abort(&pkt);
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/chan_1_2", s->output_path);
	tap_is_int(file_size(path), PKT, "the half packet was cut from the file");
	tap_is_int(packet(m, h, 5, PKT, 15), 0, "packet 5 sent again");
	tap_is_int(file_size(path), 2 * PKT, "and written");
	ltt_relay_session_close(s);
	ltt_relay_session_put(s);
}

/* Past the window, only the newest entries stay in memory; the files are whole. */
static void test_window(struct ltt_relay_model *m)
{
	struct ltt_relay_stream_info si;
	struct ltt_relay_session *s;
	struct ltt_relay_stream *st;
	struct ltt_relay_entry e;
	uint8_t buf[PKT], want[PKT];
	char path[PATH_MAX * 2];
	uint64_t h, i, first = 0;
	size_t got, most = 0;
	int ret, fails = 0;

	m->index_window = 8;
	s = new_session(m, "hostD", "win", "win", &ret);
	tap_is_int(add(s, "chan_0", 0, 0, &h), 0, "a stream, no rotation, a window of 8 entries");
	st = s->streams;
	for (i = 0; i < 100; i++) {
		fails += packet(m, h, i, PKT, (uint8_t)i) != 0;
		fails += index_of(s, h, i, PKT, 1000 + i) != 0;
		if (st->entry_count - st->entry_base > most)
			most = (size_t)(st->entry_count - st->entry_base);
	}
	tap_is_int(fails, 0, "100 packets and their indexes");
	tap_ok(most <= 8 && st->entry_cap <= 64, "never more than 8 entries in memory (%zu)", most);
	snprintf(path, sizeof(path), "%s/ust/uid/0/64-bit/index/chan_0.idx", s->output_path);
	tap_is_int(file_size(path), 16 + 100 * 72, "the index file holds all 100 entries");
	tap_ok(!ltt_relay_model_stream_info(m, h, &si) && si.index_count == 100,
	       "index_count counts all 100");
	ret = ltt_relay_model_seek_first(m, h, &first);
	tap_ok(!ret && first > 90 && first < 100,
	       "the oldest entry kept is one of the newest 8 (%llu)", (unsigned long long)first);
	tap_is_int(ltt_relay_model_get_index(m, h, 0, &e), -ESTALE, "entry 0 is gone: ESTALE");
	tap_is_int(ltt_relay_model_get_index(m, h, 99, &e), 0, "entry 99");
	tap_ok(e.viewer_offset == 99 * PKT && e.entry.timestamp_begin == 1099,
	       "entry 99 is packet 99's");
	tap_is_int(ltt_relay_model_read_packet(m, h, 0, buf, sizeof(buf), &got), -ESTALE,
		   "packet 0 by offset: ESTALE");
	tap_is_int(ltt_relay_model_read_packet(m, h, first * PKT, buf, sizeof(buf), &got), 0,
		   "the oldest packet kept is read");
	fill(want, PKT, (uint8_t)first);
	tap_ok(got == PKT && !memcmp(buf, want, PKT), "with its bytes");
	ltt_relay_session_close(s);
	ltt_relay_session_put(s);
	m->index_window = LTT_RELAY_INDEX_WINDOW;
}

/* Append @len zero bytes to @path (a torn index entry). */
static int append_zeros(const char *path, size_t len)
{
	static const uint8_t z[64];
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, z, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int reconcile(struct ltt_relay_model *m, struct ltt_relay_reconcile_stream *req,
		     const char *chan, uint64_t first, uint64_t *seqs, uint32_t *n)
{
	snprintf(req->channel_name, sizeof(req->channel_name), "%s", chan);
	req->first_packet_seq = first;
	return ltt_relay_reconcile(m, req, seqs, n);
}

static void test_reconcile(struct ltt_relay_model *m)
{
	struct ltt_relay_reconcile_stream req = { .pathname = "ust/uid/0/64-bit" };
	struct ltt_relay_session *s;
	uint64_t h, hr, i, *seqs = calloc(LTT_RELAY_RECONCILE_MAX, sizeof(*seqs));
	char dir[PATH_MAX * 2], path[PATH_MAX * 3];
	uint32_t n = 99;
	int ret;

	/* chan_0: packets 0..3, indexes 0..2; chan_1 rotating every 2 packets: 0..4, indexes 0..3 */
	s = new_session(m, "hostR", "rec", "rec", &ret);
	tap_ok(!ret && !add(s, "chan_0", 0, 0, &h) && !add(s, "chan_1", 2 * PKT, 0, &hr),
	       "a session of two streams, one rotating");
	ret = 0;
	for (i = 0; i < 5 && !ret; i++) {
		ret = i < 4 ? packet(m, h, i, PKT, (uint8_t)i) : 0;
		if (!ret && i < 3)
			ret = index_of(s, h, i, PKT, 100 * i + 100);
		if (!ret)
			ret = packet(m, hr, i, PKT, (uint8_t)i);
		if (!ret && i < 4)
			ret = index_of(s, hr, i, PKT, 100 * i + 100);
	}
	tap_is_int(ret, 0, "their packets, the last of each without its index (a relay killed there)");
	snprintf(req.session_path, sizeof(req.session_path), "%s", s->output_path);
	snprintf(dir, sizeof(dir), "%s/ust/uid/0/64-bit", s->output_path);
	tap_is_int(reconcile(m, &req, "chan_0", 1, seqs, &n), -EEXIST,
		   "a stream a session holds: refused");
	tap_ok(n == 0 && file_size(strcat(strcpy(path, dir), "/chan_0")) == 4 * PKT,
	       "nothing answered, nothing cut");
	ltt_relay_session_close(s);
	ltt_relay_session_put(s);
	snprintf(path, sizeof(path), "%s/index/chan_0.idx", dir);
	tap_is_int(append_zeros(path, 10), 0, "a torn index entry after them");

	tap_is_int(reconcile(m, &req, "chan_0", 1, seqs, &n), 0, "the session gone: served");
	tap_ok(n == 2 && seqs[0] == 1 && seqs[1] == 2, "indexed from the boundary on: 1, 2 (%u)", n);
	tap_is_int(file_size(path), LTT_CTF_INDEX_HEADER_SIZE + 3 * LTT_CTF_INDEX_ENTRY_SIZE,
		   "the torn entry is cut");
	snprintf(path, sizeof(path), "%s/chan_0", dir);
	tap_is_int(file_size(path), 3 * PKT, "packet 3, written but not indexed, is cut");
	tap_ok(!reconcile(m, &req, "chan_0", 1, seqs, &n) && n == 2 && file_size(path) == 3 * PKT,
	       "asked again: the same answer, nothing more cut");
	tap_ok(!reconcile(m, &req, "chan_0", 3, seqs, &n) && n == 0,
	       "a boundary past the last indexed packet: none");

	tap_is_int(reconcile(m, &req, "chan_1", 1, seqs, &n), -ENOENT,
		   "a rotating stream asked as a plain one: no such files");
	req.rotating = true;
	tap_is_int(reconcile(m, &req, "chan_1", 1, seqs, &n), 0, "asked as rotating");
	tap_ok(n == 3 && seqs[0] == 1 && seqs[1] == 2 && seqs[2] == 3,
	       "1, 2, 3 from tracefiles 0 and 1 (%u)", n);
	snprintf(path, sizeof(path), "%s/chan_1_2", dir);
	tap_is_int(file_size(path), 0, "tracefile 2's packet, not indexed, is cut");
	snprintf(path, sizeof(path), "%s/chan_1_1", dir);
	tap_is_int(file_size(path), 2 * PKT, "tracefile 1 keeps its two packets");
	req.rotating = false;

	tap_is_int(reconcile(m, &req, "chan_9", 0, seqs, &n), -ENOENT, "no such stream: ENOENT");
	tap_is_int(reconcile(m, &req, "../chan_0", 0, seqs, &n), -EINVAL, "a name with '..': EINVAL");
	strcpy(req.session_path, dir);	/* OUTPUT/hostR/rec/ust/uid/0/64-bit */
	strcat(req.session_path, "/../../../../../x");
	tap_is_int(reconcile(m, &req, "chan_0", 0, seqs, &n), -EINVAL, "a path with '..': EINVAL");
	snprintf(req.session_path, sizeof(req.session_path), "%s", tmpdir);
	tap_is_int(reconcile(m, &req, "chan_0", 0, seqs, &n), -EINVAL,
		   "a path outside the output: EINVAL");
	free(seqs);
}

int main(void)
{
	struct ltt_relay_model *m;
	char out[PATH_MAX + 8];

	ltt_log_init("test_relay_model", LTT_LOG_ERROR);
	snprintf(tmpdir, sizeof(tmpdir), "%s/ltt-relay-model.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(out, sizeof(out), "%s/out", tmpdir);
	tap_is_int(ltt_relay_model_create("relative", &m), -EINVAL, "a relative output is refused");
	tap_is_int(ltt_relay_model_create(out, &m), 0, "a model");
	test_sessions(m);
	test_pairing(m);
	test_padding(m);
	test_rotation(m);
	test_window(m);
	test_reconcile(m);
	ltt_relay_model_destroy(m);
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
