// SPDX-License-Identifier: GPL-2.0-only
/*
 * consumerd-harness.c - the fake session daemon of the consumer's tests:
 * a consumer spawned and commanded, test streams, the files checked
 * (consumerd-harness.h).
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

const uint8_t ch_trace_uuid[16] = {
	0x6c, 0x74, 0x74, 0x2d, 0x74, 0x65, 0x73, 0x74,
	0x2d, 0x75, 0x75, 0x69, 0x64, 0x2d, 0x30, 0x31,
};

char ch_tmpdir[PATH_MAX];
char ch_consumerd_path[PATH_MAX];
char ch_relayd_path[PATH_MAX];

/*
 * The fake session daemon's side.
 */

int ch_spawn(struct ch_cons *c)
{
	return ch_spawn_args(c, NULL);
}

int ch_spawn_args(struct ch_cons *c, const char *const *extra)
{
	struct timeval tv = { .tv_sec = 20 };
	const char *argv[16];
	char fdarg[16];
	int sv[2], n = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		fcntl(sv[1], F_SETFD, 0);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		argv[n++] = "ltt-consumerd";
		argv[n++] = "--cmd-fd";
		argv[n++] = fdarg;
		while (extra && *extra && n < 14)
			argv[n++] = *extra++;
		if (getenv("LTT_TEST_VERBOSE"))
			argv[n++] = "-vv";
		argv[n] = NULL;
		execv(ch_consumerd_path, (char *const *)argv);
		_exit(127);
	}
	close(sv[1]);
	c->fd = sv[0];
	c->seq = 0;
	/* a hung consumer fails the test instead of hanging it */
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	return c->pidfd < 0 ? -errno : 0;
}

int ch_hello(struct ch_cons *c, uint32_t major)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, major);
	ltt_wbuf_put_u32(&w, LTT_CONSUMER_MINOR);
	return ch_call_fds(c, LTT_CONSUMER_MSG_HELLO, &w, NULL, 0, NULL);
}

int ch_start(struct ch_cons *c)
{
	int ret = ch_spawn(c);

	return ret ? ret : ch_hello(c, LTT_CONSUMER_MAJOR);
}

int ch_wait(struct ch_cons *c, int ms)
{
	struct pollfd pfd = { .fd = c->pidfd, .events = POLLIN };
	int status, n;

	do
		n = poll(&pfd, 1, ms);
	while (n < 0 && errno == EINTR);
	if (n == 0) {
		tap_diag("consumer pid %ld did not exit in %d ms: killed", (long)c->pid, ms);
		kill(c->pid, SIGKILL);
	}
	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	close(c->pidfd);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	return n == 0 ? -1 : status;
}

int ch_call_fds(struct ch_cons *c, uint16_t type, struct ltt_wbuf *w, const int *fds,
		unsigned int nr_fds, struct ltt_msg *ret_reply)
{
	struct ltt_msg reply = { 0 };
	struct ltt_rbuf r;
	int32_t status;
	int ret;

	c->seq++;
	ret = ltt_msg_send(c->fd, LTT_CONSUMER_MAGIC, type, c->seq, w->data, w->len, fds, nr_fds);
	ltt_wbuf_fini(w);
	if (!ret)
		ret = ltt_msg_recv(c->fd, LTT_CONSUMER_MAGIC, LTT_CONSUMER_MSG_MAX, 0, &reply);
	if (ret) {
		tap_diag("command %u: no reply: %s", type, strerror(-ret));
		return TRANSPORT_ERR;
	}
	if (reply.hdr.type != type || reply.hdr.seq != c->seq) {
		tap_diag("reply type %u seq %u to command %u seq %u", reply.hdr.type,
			 reply.hdr.seq, type, c->seq);
		ltt_msg_fini(&reply);
		return TRANSPORT_ERR;
	}
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	status = (int32_t)ltt_rbuf_get_u32(&r);
	if (r.err)
		status = TRANSPORT_ERR;
	if (ret_reply)
		*ret_reply = reply;
	else
		ltt_msg_fini(&reply);
	return status;
}

int ch_call(struct ch_cons *c, uint16_t type, struct ltt_wbuf *w)
{
	return ch_call_fds(c, type, w, NULL, 0, NULL);
}

int ch_add_trace(struct ch_cons *c, uint64_t key, const char *dir, uid_t uid, gid_t gid)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_str(&w, dir);
	ltt_wbuf_put_bytes(&w, ch_trace_uuid, sizeof(ch_trace_uuid));
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_u32(&w, (uint32_t)gid);
	return ch_call(c, LTT_CONSUMER_MSG_ADD_TRACE, &w);
}

int ch_metadata(struct ch_cons *c, uint64_t key, const void *text, size_t len)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, (uint32_t)len);
	ltt_wbuf_put_bytes(&w, text, len);
	return ch_call(c, LTT_CONSUMER_MSG_METADATA, &w);
}

int ch_add_channel(struct ch_cons *c, const struct ch_chan_args *a)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, a->key);
	ltt_wbuf_put_u64(&w, a->trace_key);
	ltt_wbuf_put_str(&w, a->name);
	ltt_wbuf_put_u64(&w, a->size);
	ltt_wbuf_put_u64(&w, a->count);
	ltt_wbuf_put_u32(&w, a->switch_us);
	ltt_wbuf_put_u32(&w, a->read_us);
	ltt_wbuf_put_u8(&w, a->overwrite);
	return ch_call(c, LTT_CONSUMER_MSG_ADD_CHANNEL, &w);
}

int ch_add_stream_fds(struct ch_cons *c, uint64_t key, uint32_t cpu, const int *fds,
		      unsigned int nr_fds)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, cpu);
	return ch_call_fds(c, LTT_CONSUMER_MSG_ADD_STREAM, &w, fds, nr_fds, NULL);
}

int ch_key_cmd(struct ch_cons *c, uint16_t type, uint64_t key)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	return ch_call(c, type, &w);
}

int ch_flush(struct ch_cons *c, uint64_t key, uint8_t final)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u8(&w, final);
	return ch_call(c, LTT_CONSUMER_MSG_FLUSH_CHANNEL, &w);
}

int ch_stats(struct ch_cons *c, uint64_t key, struct ch_stats *ret)
{
	struct ltt_consumer_channel_stats cs;
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	status = ch_call_fds(c, LTT_CONSUMER_MSG_CHANNEL_STATS, &w, NULL, 0, &reply);
	if (status) {
		ltt_msg_fini(&reply);	/* an error reply has its status payload */
		return status;
	}
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	ltt_rbuf_get_u32(&r);
	/* 1.5 appends the output's failure: decoded as the session daemon does */
	if (ltt_consumer_get_channel_stats(&r, &cs)) {
		status = TRANSPORT_ERR;
	} else {
		ret->events_lost = cs.events_lost;
		ret->packets_lost = cs.packets_lost;
		ret->bytes_written = cs.bytes_written;
		ret->error = cs.error;
	}
	ltt_msg_fini(&reply);
	return status;
}

/*
 * Ring buffers, as the session daemon and an application make them.
 */

int ch_tstream_init(struct ch_tstream *ts, const struct ch_ts_args *a, uint32_t tag)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = SUBBUF, .num_subbuf = a->num_subbuf, .overwrite = a->overwrite,
		.stream_id = a->stream_id, .cpu = a->cpu,
	};

	memset(ts, 0, sizeof(*ts));
	memcpy(cfg.uuid, ch_trace_uuid, sizeof(cfg.uuid));
	ts->tag = tag;
	ts->subbuf_size = SUBBUF;
	ts->len = ltt_rb_region_size(SUBBUF, a->num_subbuf);
	ts->shm_fd = memfd_create("test-stream", MFD_CLOEXEC | (a->seal ? MFD_ALLOW_SEALING : 0));
	ts->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ts->shm_fd < 0 || ts->efd < 0 || ftruncate(ts->shm_fd, (off_t)ts->len))
		return -errno;
	ts->mem = mmap(NULL, ts->len, PROT_READ | PROT_WRITE, MAP_SHARED, ts->shm_fd, 0);
	if (ts->mem == MAP_FAILED)
		return -errno;
	if (ltt_rb_init_region(ts->mem, ts->len, &cfg) || ltt_rb_attach(&ts->rb, ts->mem, ts->len))
		return -EINVAL;
	if (a->wakeups)
		ltt_rb_set_wakeup_fd(&ts->rb, ts->efd);
	if (a->seal && fcntl(ts->shm_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		return -errno;
	return 0;
}

void ch_tstream_fini(struct ch_tstream *ts)
{
	if (ts->mem && ts->mem != MAP_FAILED)
		munmap(ts->mem, ts->len);
	if (ts->shm_fd > 0)
		close(ts->shm_fd);
	if (ts->efd > 0)
		close(ts->efd);
	memset(ts, 0, sizeof(*ts));
}

int ch_add_stream(struct ch_cons *c, uint64_t key, uint32_t cpu, const struct ch_tstream *ts)
{
	int fds[2] = { ts->shm_fd, ts->efd };

	return ch_add_stream_fds(c, key, cpu, fds, 2);
}

size_t ch_event_len(uint64_t id)
{
	return EV_MIN + (size_t)(id % 41);
}

void ch_fill_event(uint8_t *p, size_t len, uint32_t tag, uint64_t id)
{
	uint32_t words[4] = { (uint32_t)len, EV_MAGIC, tag, 0 };
	size_t i;

	memcpy(p, words, sizeof(words));
	memcpy(p + 16, &id, sizeof(id));
	for (i = EV_MIN; i < len; i++)
		p[i] = (uint8_t)(id + i);
}

int ch_put_event(struct ch_tstream *ts)
{
	size_t len = ch_event_len(ts->next_id);
	struct ltt_rb_slot slot;
	int ret;

	ret = ltt_rb_reserve(&ts->rb, len, &slot);
	if (ret)
		return ret;
	ch_fill_event(slot.data, len, ts->tag, ts->next_id++);
	ltt_rb_commit(&ts->rb, &slot);
	return 0;
}

unsigned int ch_put_events(struct ch_tstream *ts, unsigned int n)
{
	unsigned int i, dropped = 0;

	for (i = 0; i < n; i++) {
		if (ch_put_event(ts))
			dropped++;
	}
	return dropped;
}

/*
 * What the consumer wrote.
 */

ssize_t ch_slurp(const char *path, uint8_t **ret_buf)
{
	struct stat st;
	uint8_t *buf;
	ssize_t n = -1;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st)) {
		buf = malloc((size_t)st.st_size + 1);
		if (buf) {
			n = read(fd, buf, (size_t)st.st_size);
			if (n == st.st_size)
				*ret_buf = buf;
			else
				free(buf), n = -1;
		}
	}
	close(fd);
	return n;
}

bool ch_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

off_t ch_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

bool ch_wait_until(bool (*done)(void *arg), void *arg, int ms)
{
	struct timespec step = { .tv_nsec = 5 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited < ms; waited += 5) {
		if (done(arg))
			return true;
		nanosleep(&step, NULL);
	}
	return done(arg);
}

struct size_wait {
	const char *path;
	off_t min;
};

static bool size_reached(void *arg)
{
	const struct size_wait *w = arg;

	return ch_file_size(w->path) >= w->min;
}

bool ch_wait_size(const char *path, off_t min, int ms)
{
	struct size_wait w = { path, min };

	return ch_wait_until(size_reached, &w, ms);
}

uint64_t ch_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get_be64(const uint8_t *p)
{
	return be64toh(ch_get64(p));
}

#define FAIL(e, ...) do { if ((e)->errors++ < 5) tap_diag(__VA_ARGS__); } while (0)

void ch_expect_init(struct ch_expect *e, const char *what, uint32_t stream_id,
		    const struct ch_tstream *ts, uint32_t cpu)
{
	memset(e, 0, sizeof(*e));
	e->what = what;
	e->stream_id = stream_id;
	e->cpu = cpu;
	e->tag = ts->tag;
	e->nr_ids = ts->next_id;
	e->seen = calloc(ts->next_id + 1, 1);
}

/* The events between the header and content_size, each one checked. */
static void check_events(struct ch_expect *e, const uint8_t *pkt, uint64_t content)
{
	uint64_t pos = LTT_RB_PACKET_HEADER_SIZE, id, i;
	uint32_t len;

	while (pos < content) {
		len = get32(pkt + pos);
		if (content - pos < EV_MIN || len < EV_MIN || len > content - pos) {
			FAIL(e, "%s: bad event length %u at %" PRIu64, e->what, len, pos);
			return;
		}
		id = ch_get64(pkt + pos + 16);
		if (get32(pkt + pos + 4) != EV_MAGIC || get32(pkt + pos + 8) != e->tag ||
		    id >= e->nr_ids || len != ch_event_len(id) || id + 1 <= e->last_id) {
			FAIL(e, "%s: bad event at %" PRIu64 " (id %" PRIu64 ")", e->what, pos, id);
			return;
		}
		for (i = EV_MIN; i < len; i++) {
			if (pkt[pos + i] != (uint8_t)(id + i)) {
				FAIL(e, "%s: event %" PRIu64 " payload differs", e->what, id);
				break;
			}
		}
		e->seen[id]++;
		e->last_id = id + 1;
		pos += len;
	}
}

/* One packet's header and events; @pkt is SUBBUF bytes. */
static void check_packet(struct ch_expect *e, const uint8_t *pkt)
{
	uint64_t seq = ch_get64(pkt + LTT_RB_PH_PACKET_SEQ_NUM);
	uint64_t content = ch_get64(pkt + LTT_RB_PH_CONTENT_SIZE) / 8;
	uint64_t tb = ch_get64(pkt + LTT_RB_PH_TIMESTAMP_BEGIN), te = ch_get64(pkt + LTT_RB_PH_TIMESTAMP_END);
	uint64_t disc = ch_get64(pkt + LTT_RB_PH_EVENTS_DISCARDED);

	if (get32(pkt) != LTT_RB_PACKET_MAGIC || memcmp(pkt + LTT_RB_PH_UUID, ch_trace_uuid, 16) ||
	    get32(pkt + LTT_RB_PH_STREAM_ID) != e->stream_id ||
	    ch_get64(pkt + LTT_RB_PH_STREAM_INSTANCE_ID) != e->cpu ||
	    get32(pkt + LTT_RB_PH_CPU_ID) != e->cpu ||
	    ch_get64(pkt + LTT_RB_PH_PACKET_SIZE) != SUBBUF * 8) {
		FAIL(e, "%s: packet %" PRIu64 ": bad header", e->what, e->packets);
		return;
	}
	if (e->gaps ? seq < e->next_seq : seq != e->next_seq)
		FAIL(e, "%s: packet_seq_num %" PRIu64 ", want %s%" PRIu64, e->what, seq,
		     e->gaps ? ">= " : "", e->next_seq);
	if (content < LTT_RB_PACKET_HEADER_SIZE || content > SUBBUF || tb > te || tb < e->last_ts ||
	    disc < e->last_discarded)
		FAIL(e, "%s: packet %" PRIu64 ": bad content_size, timestamps or events_discarded",
		     e->what, seq);
	else
		check_events(e, pkt, content);
	e->next_seq = seq + 1;
	e->last_ts = te;
	e->last_discarded = disc;
}

/* The index entry @i of @idx must describe the packet at offset @off of @data. */
static void check_entry(struct ch_expect *e, const uint8_t *ent, const uint8_t *pkt, uint64_t off)
{
	const uint64_t want[9] = {
		off,
		ch_get64(pkt + LTT_RB_PH_PACKET_SIZE),
		ch_get64(pkt + LTT_RB_PH_CONTENT_SIZE),
		ch_get64(pkt + LTT_RB_PH_TIMESTAMP_BEGIN),
		ch_get64(pkt + LTT_RB_PH_TIMESTAMP_END),
		ch_get64(pkt + LTT_RB_PH_EVENTS_DISCARDED),
		get32(pkt + LTT_RB_PH_STREAM_ID),
		ch_get64(pkt + LTT_RB_PH_STREAM_INSTANCE_ID),
		ch_get64(pkt + LTT_RB_PH_PACKET_SEQ_NUM),
	};
	int i;

	for (i = 0; i < 9; i++) {
		if (get_be64(ent + i * 8) != want[i]) {
			FAIL(e, "%s: index entry for offset %" PRIu64 ": field %d is %" PRIu64
			     ", want %" PRIu64, e->what, off, i, get_be64(ent + i * 8), want[i]);
			return;
		}
	}
}

long ch_check_file(struct ch_expect *e, const char *data_path, const char *idx_path)
{
	uint8_t *data = NULL, *idx = NULL;
	ssize_t len, idx_len;
	long n = -1, i;

	len = ch_slurp(data_path, &data);
	idx_len = ch_slurp(idx_path, &idx);
	if (len < 0 || idx_len < 16) {
		FAIL(e, "%s: can't read %s or %s", e->what, data_path, idx_path);
		goto out;
	}
	if (len % SUBBUF) {
		FAIL(e, "%s: %s is %zd bytes, not whole packets", e->what, data_path, len);
		goto out;
	}
	n = (long)(len / SUBBUF);
	if (be32toh(get32(idx)) != 0xC1F1DCC1u || be32toh(get32(idx + 4)) != 1 ||
	    be32toh(get32(idx + 8)) != 1 || be32toh(get32(idx + 12)) != 72)
		FAIL(e, "%s: bad index header in %s", e->what, idx_path);
	if (idx_len != 16 + 72 * n)
		FAIL(e, "%s: %s has %zd bytes for %ld packets", e->what, idx_path, idx_len, n);
	for (i = 0; i < n; i++) {
		const uint8_t *pkt = data + (size_t)i * SUBBUF;

		check_packet(e, pkt);
		if (16 + 72 * (i + 1) <= idx_len)
			check_entry(e, idx + 16 + 72 * i, pkt, (uint64_t)i * SUBBUF);
		e->packets++;
	}
out:
	free(data);
	free(idx);
	return n;
}

void ch_check_all_seen(struct ch_expect *e, bool lossy)
{
	uint64_t id, missing = 0, dups = 0;

	for (id = 0; id < e->nr_ids; id++) {
		if (e->seen[id] > 1)
			dups++;
		else if (!e->seen[id])
			missing++;
	}
	if (lossy)
		tap_ok(!dups, "%s: no event twice (%" PRIu64 " of %" PRIu64 " lost)", e->what,
		       missing, e->nr_ids);
	else
		tap_ok(!dups && !missing, "%s: all %" PRIu64 " events present exactly once (%" PRIu64
		       " missing, %" PRIu64 " twice)", e->what, e->nr_ids, missing, dups);
}

void ch_expect_fini(struct ch_expect *e)
{
	free(e->seen);
	e->seen = NULL;
}

void ch_check_metadata(const char *path, const char *text, size_t len)
{
	uint8_t *buf = NULL, *got = NULL;
	size_t off, got_len = 0, i;
	bool headers_ok = true;
	ssize_t n;

	n = ch_slurp(path, &buf);
	if (!tap_ok(n > 0 && n % 4096 == 0, "metadata file is whole 4 KiB packets (%zd bytes)", n))
		goto out;
	got = malloc((size_t)n);
	for (off = 0; got && off < (size_t)n; off += 4096) {
		const uint8_t *p = buf + off;
		uint32_t content = get32(p + 24);
		static const uint8_t tail[5] = { 0, 0, 0, 1, 8 };

		if (get32(p) != 0x75D11D57u || memcmp(p + 4, ch_trace_uuid, 16) || get32(p + 20) ||
		    get32(p + 28) != 4096 * 8 || memcmp(p + 32, tail, 5) || content % 8 ||
		    content < 37 * 8 || content > 4096 * 8) {
			headers_ok = false;
			break;
		}
		memcpy(got + got_len, p + 37, content / 8 - 37);
		got_len += content / 8 - 37;
		for (i = content / 8; i < 4096; i++)
			headers_ok = headers_ok && !p[i];
	}
	tap_ok(headers_ok, "metadata packet headers valid, padding zeroed");
	tap_ok(got && got_len == len && !memcmp(got, text, len),
	       "metadata decodes back to the %zu bytes sent (got %zu)", len, got_len);
out:
	free(buf);
	free(got);
}

int ch_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/*
 * Paths.
 */

const char *ch_pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX) {
		printf("Bail out! path too long\n");
		exit(1);
	}
	return buf;
}

const char *ch_path_of(char *buf, const char *dir, const char *name)
{
	return ch_pathf(buf, "%s/%s", dir, name);
}

void ch_verify_stream(const char *dir, const char *name, uint32_t stream_id,
		      const struct ch_tstream *ts, uint32_t cpu, bool gaps, long want_packets)
{
	char data[PATH_MAX], idx[PATH_MAX], what[PATH_MAX];
	struct ch_expect e;
	long n;

	ch_pathf(what, "%s_%u", name, cpu);
	ch_pathf(data, "%s/%s", dir, what);
	ch_pathf(idx, "%s/index/%s.idx", dir, what);
	ch_expect_init(&e, what, stream_id, ts, cpu);
	e.gaps = gaps;
	n = ch_check_file(&e, data, idx);
	tap_ok(n >= 0 && !e.errors, "%s: %ld packets, headers, events and index entries valid", what, n);
	if (want_packets >= 0)
		tap_is_int(n, want_packets, "%s: packet count", what);
	if (!gaps)
		ch_check_all_seen(&e, false);
	ch_expect_fini(&e);
}

int ch_setup(void)
{
	const char *top = getenv("LTT_TOP_BUILDDIR"), *tmp = getenv("TMPDIR");

	if (!top || !*top) {
		printf("Bail out! LTT_TOP_BUILDDIR is not set: run through make check\n");
		return -1;
	}
	ch_pathf(ch_consumerd_path, "%s/src/consumerd/ltt-consumerd", top);
	ch_pathf(ch_relayd_path, "%s/src/relayd/ltt-relayd", top);
	ch_pathf(ch_tmpdir, "%s/ltt-test-consumerd-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ch_tmpdir)) {
		printf("Bail out! mkdtemp %s: %s\n", ch_tmpdir, strerror(errno));
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(300);	/* a hung consumer or test fails instead of hanging */
	return 0;
}
