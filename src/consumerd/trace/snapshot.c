// SPDX-License-Identifier: GPL-2.0-only
/*
 * snapshot.c - writing a snapshot trace's current content (snapshot.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "consumerd/sink/sink-file.h"
#include "consumerd/sink/sink-relay.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/snapshot.h"
#include "consumerd/trace/stream.h"

/*
 * A packet closed by the snapshot's flush may still wait for commits of
 * writers that reserved before it: they are given this long, then the
 * packet is left out (counted).
 */
#define PEEK_TRIES	200
#define PEEK_WAIT_NS	50000L

int ltt_snapshot_open(const struct ltt_trace *t, const char *dir, struct ltt_snapshot_out *ret)
{
	struct ltt_sink_file_cfg cfg = { 0 };
	struct ltt_snapshot_out o = { .dir_fd = -1, .index_fd = -1 };
	int err;

	if (!t || !t->snapshot || !dir || dir[0] != '/')
		return -EINVAL;
	err = ltt_fs_mkdir_path(dir, &t->owner, &o.dir_fd);
	if (!err)
		err = ltt_fs_mkdirat(o.dir_fd, LTT_TRACE_INDEX_DIR_NAME, &t->owner, &o.index_fd);
	cfg.dir_fd = o.dir_fd;
	/* no index files, as LTTng's snapshots: its index/ is left empty */
	cfg.index_dir_fd = -1;
	cfg.owner = t->owner;
	cfg.metadata = true;
	if (!err)
		err = ltt_sink_file_output_create(&cfg, &o.meta);
	cfg.metadata = false;
	if (!err)
		err = ltt_sink_file_output_create(&cfg, &o.streams);
	if (!err && t->meta_all_len)
		err = ltt_output_metadata(o.meta, t->meta_all, t->meta_all_len);
	if (err) {
		LTT_WARN("snapshot of trace %" PRIu64 " in %s: %s%s", t->key, dir, strerror(-err),
			 err == -EEXIST ? " (a trace is there already)" : "");
		ltt_snapshot_close(&o);
		return err;
	}
	*ret = o;
	return 0;
}

int ltt_snapshot_open_relay(const struct ltt_trace *t, struct ltt_relay *relay,
			    const char *path, struct ltt_snapshot_out *ret)
{
	struct ltt_snapshot_out o = { .dir_fd = -1, .index_fd = -1 };
	int err;

	if (!t || !t->snapshot || !relay || !path || !ltt_trace_relay_path_ok(path))
		return -EINVAL;
	err = ltt_sink_relay_output_create(relay, path, 0, 0, true, &o.meta);
	if (!err)
		err = ltt_sink_relay_output_create(relay, path, 0, 0, false, &o.streams);
	if (!err && t->meta_all_len)
		err = ltt_output_metadata(o.meta, t->meta_all, t->meta_all_len);
	if (err) {
		LTT_WARN("snapshot of trace %" PRIu64 " to the relay as %s: %s", t->key, path,
			 strerror(-err));
		ltt_snapshot_close(&o);
		return err;
	}
	*ret = o;
	return 0;
}

void ltt_snapshot_close(struct ltt_snapshot_out *out)
{
	/* a relay's viewers see the streams together (STREAMS_SENT) */
	if (out->streams)
		ltt_output_streams_added(out->streams);
	ltt_output_destroy(out->meta);
	ltt_output_destroy(out->streams);
	ltt_fd_close(&out->index_fd);
	ltt_fd_close(&out->dir_fd);
	out->meta = out->streams = NULL;
}

/* The packet at @pos; one still owed commits gets a short while. */
static int peek(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
		struct ltt_sink_packet *pkt)
{
	const struct timespec wait = { 0, PEEK_WAIT_NS };
	unsigned int tries;
	int ret;

	for (tries = 0;; tries++) {
		ret = ltt_source_snap_peek(src, pos, scratch, pkt);
		if (ret != -EAGAIN || tries == PEEK_TRIES)
			return ret;
		nanosleep(&wait, NULL);
	}
}

/* One stream's packets into a sink of @out, opened for the first one. */
static int snapshot_stream(struct ltt_stream *s, const struct ltt_output *out,
			   uint64_t max_packets, struct ltt_scratch *scratch,
			   struct ltt_snapshot_counts *counts)
{
	char name[LTT_SINK_FILE_BASE_MAX + 1];
	struct ltt_sink *sink = NULL;
	struct ltt_sink_packet pkt;
	uint64_t begin, end, pos;
	int ret, n;

	ret = ltt_source_snap_span(s->src, max_packets, &begin, &end);
	if (ret)
		return ret;
	if (begin < s->snap_floor)
		begin = s->snap_floor;	/* a clear dropped what was before */
	n = snprintf(name, sizeof(name), "%s_%" PRIu32, s->chan->name, s->cpu);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	for (pos = begin; pos < end; pos += s->src->packet_size) {
		ret = peek(s->src, pos, scratch, &pkt);
		if (ret) {
			LTT_DBG("%s: snapshot: packet at %" PRIu64 " left out: %s", s->src->label,
				pos, strerror(-ret));
			counts->packets_dropped++;
			continue;
		}
		if (!sink) {
			ret = ltt_output_open_sink(out, name, &sink);
			if (ret)
				return ret;
		}
		ret = ltt_sink_wait_ready(sink);
		if (!ret)
			ret = ltt_sink_write(sink, &pkt);
		if (ret) {
			ltt_sink_destroy(sink);
			return ret == -EAGAIN ? -EBUSY : ret;	/* never a packet left out */
		}
		counts->packets++;
		counts->bytes += pkt.len;
	}
	ltt_sink_destroy(sink);
	return ret == -EAGAIN || ret == -ESTALE || ret == -EIO ? 0 : ret;
}

int ltt_snapshot_clear_part(struct ltt_chan_part *part)
{
	uint64_t begin, end;
	struct ltt_stream *s;
	int ret;

	for (s = part->streams; s; s = s->next) {
		ret = ltt_source_snap_span(s->src, 0, &begin, &end);
		if (ret) {
			LTT_WARN("%s: snapshot clear: %s", s->src->label, strerror(-ret));
			return ret;
		}
		s->snap_floor = end;
	}
	return 0;
}

int ltt_snapshot_part(struct ltt_chan_part *part, const struct ltt_output *out,
		      uint64_t max_packets, struct ltt_scratch *scratch,
		      struct ltt_snapshot_counts *counts)
{
	struct ltt_stream *s;
	int ret;

	for (s = part->streams; s; s = s->next) {
		if (scratch->len < s->src->packet_size)
			return -ENOMEM;
		ret = snapshot_stream(s, out, max_packets, scratch, counts);
		if (ret) {
			LTT_WARN("%s: snapshot: %s", s->src->label, strerror(-ret));
			return ret;
		}
	}
	return 0;
}
