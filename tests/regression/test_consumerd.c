// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumerd.c - ltt-consumerd against a fake session daemon.
 *
 * The test plays the session daemon: it creates memfd ring buffers,
 * spawns the real consumer over a socketpair, sends it commands, writes
 * events with the ring buffer's writer API and checks what lands on disk:
 * stream files, packet headers, every event exactly once, index files,
 * the metadata file, rotation, loss accounting, error replies, and a
 * clean exit when the socket closes or on SIGTERM; and the relay output
 * against a real ltt-relayd on loopback (the relay's files checked as the
 * local ones, data pending, the live timer, the relay killed mid-session).
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

#include "common/codec.h"
#include "common/consumer-proto.h"
#include "common/ctf.h"
#include "common/msg.h"
#include "common/ringbuf.h"
#include "../unit/tap.h"

#define SUBBUF 4096u
#define TRANSPORT_ERR INT32_MIN	/* a call that got no reply */
#define EV_MAGIC 0xE7E7E7E7u
#define EV_MIN 24		/* u32 len, u32 magic, u32 tag, u32 pad, u64 id */
#define WAIT_MS 10000

static const uint8_t trace_uuid[16] = {
	0x6c, 0x74, 0x74, 0x2d, 0x74, 0x65, 0x73, 0x74,
	0x2d, 0x75, 0x75, 0x69, 0x64, 0x2d, 0x30, 0x31,
};

static char tmpdir[PATH_MAX];
static char consumerd_path[PATH_MAX];
static char relayd_path[PATH_MAX];

/*
 * The fake session daemon's side.
 */

struct cons {
	pid_t pid;
	int fd;		/* command socket, -1 once closed */
	int pidfd;
	uint32_t seq;
};

static int cons_spawn(struct cons *c)
{
	struct timeval tv = { .tv_sec = 20 };
	char fdarg[16];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		fcntl(sv[1], F_SETFD, 0);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		execl(consumerd_path, "ltt-consumerd", "--cmd-fd", fdarg,
		      getenv("LTT_TEST_VERBOSE") ? "-vv" : NULL, (char *)NULL);
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

static int call_fds(struct cons *c, uint16_t type, struct ltt_wbuf *w, const int *fds,
		    unsigned int nr_fds, struct ltt_msg *ret_reply);

/* The version handshake every session daemon starts with. */
static int cons_hello(struct cons *c, uint32_t major)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, major);
	ltt_wbuf_put_u32(&w, LTT_CONSUMER_MINOR);
	return call_fds(c, LTT_CONSUMER_MSG_HELLO, &w, NULL, 0, NULL);
}

/* Spawn a consumer and say HELLO, as the session daemon does. */
static int cons_start(struct cons *c)
{
	int ret = cons_spawn(c);

	return ret ? ret : cons_hello(c, LTT_CONSUMER_MAJOR);
}

/* Wait for the consumer's exit, at most @ms; returns its wait status or -1. */
static int cons_wait(struct cons *c, int ms)
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

/*
 * Send one command (@w is consumed) and read its reply; returns the status,
 * or TRANSPORT_ERR.  @ret_reply, if not NULL, gets the reply (to fini).
 */
static int call_fds(struct cons *c, uint16_t type, struct ltt_wbuf *w, const int *fds,
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

static int call(struct cons *c, uint16_t type, struct ltt_wbuf *w)
{
	return call_fds(c, type, w, NULL, 0, NULL);
}

static int add_trace(struct cons *c, uint64_t key, const char *dir, uid_t uid, gid_t gid)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_str(&w, dir);
	ltt_wbuf_put_bytes(&w, trace_uuid, sizeof(trace_uuid));
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_u32(&w, (uint32_t)gid);
	return call(c, LTT_CONSUMER_MSG_ADD_TRACE, &w);
}

static int metadata(struct cons *c, uint64_t key, const void *text, size_t len)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, (uint32_t)len);
	ltt_wbuf_put_bytes(&w, text, len);
	return call(c, LTT_CONSUMER_MSG_METADATA, &w);
}

struct chan_args {
	uint64_t key, trace_key;
	const char *name;
	uint64_t size, count;
	uint32_t switch_us, read_us;
	uint8_t overwrite;
};

static int add_channel(struct cons *c, const struct chan_args *a)
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
	return call(c, LTT_CONSUMER_MSG_ADD_CHANNEL, &w);
}

static int add_stream_fds(struct cons *c, uint64_t key, uint32_t cpu, const int *fds,
			  unsigned int nr_fds)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, cpu);
	return call_fds(c, LTT_CONSUMER_MSG_ADD_STREAM, &w, fds, nr_fds, NULL);
}

static int key_cmd(struct cons *c, uint16_t type, uint64_t key)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	return call(c, type, &w);
}

static int flush(struct cons *c, uint64_t key, uint8_t final)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u8(&w, final);
	return call(c, LTT_CONSUMER_MSG_FLUSH_CHANNEL, &w);
}

struct stats {
	uint64_t events_lost, packets_lost, bytes_written;
	int error;		/* the output's failure (1.5) */
};

static int stats(struct cons *c, uint64_t key, struct stats *ret)
{
	struct ltt_consumer_channel_stats cs;
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	status = call_fds(c, LTT_CONSUMER_MSG_CHANNEL_STATS, &w, NULL, 0, &reply);
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

struct tstream {
	int shm_fd, efd;
	void *mem;
	size_t len;
	struct ltt_rb rb;	/* the writer's handle */
	uint32_t tag;		/* written in every event of this stream */
	uint64_t next_id;	/* of the next event */
	uint64_t subbuf_size;
};

struct ts_args {
	uint64_t num_subbuf;
	bool overwrite;
	uint32_t stream_id, cpu;
	bool wakeups;		/* give the writer the eventfd */
	bool seal;
};

static int tstream_init(struct tstream *ts, const struct ts_args *a, uint32_t tag)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = SUBBUF, .num_subbuf = a->num_subbuf, .overwrite = a->overwrite,
		.stream_id = a->stream_id, .cpu = a->cpu,
	};

	memset(ts, 0, sizeof(*ts));
	memcpy(cfg.uuid, trace_uuid, sizeof(cfg.uuid));
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

static void tstream_fini(struct tstream *ts)
{
	if (ts->mem && ts->mem != MAP_FAILED)
		munmap(ts->mem, ts->len);
	if (ts->shm_fd > 0)
		close(ts->shm_fd);
	if (ts->efd > 0)
		close(ts->efd);
	memset(ts, 0, sizeof(*ts));
}

static int add_stream(struct cons *c, uint64_t key, uint32_t cpu, const struct tstream *ts)
{
	int fds[2] = { ts->shm_fd, ts->efd };

	return add_stream_fds(c, key, cpu, fds, 2);
}

static size_t event_len(uint64_t id)
{
	return EV_MIN + (size_t)(id % 41);
}

/* Fill an event: header words, then bytes derived from its id. */
static void fill_event(uint8_t *p, size_t len, uint32_t tag, uint64_t id)
{
	uint32_t words[4] = { (uint32_t)len, EV_MAGIC, tag, 0 };
	size_t i;

	memcpy(p, words, sizeof(words));
	memcpy(p + 16, &id, sizeof(id));
	for (i = EV_MIN; i < len; i++)
		p[i] = (uint8_t)(id + i);
}

/* Write the stream's next event; returns 0 or the reserve error. */
static int put_event(struct tstream *ts)
{
	size_t len = event_len(ts->next_id);
	struct ltt_rb_slot slot;
	int ret;

	ret = ltt_rb_reserve(&ts->rb, len, &slot);
	if (ret)
		return ret;
	fill_event(slot.data, len, ts->tag, ts->next_id++);
	ltt_rb_commit(&ts->rb, &slot);
	return 0;
}

/* Write @n events; returns how many were dropped. */
static unsigned int put_events(struct tstream *ts, unsigned int n)
{
	unsigned int i, dropped = 0;

	for (i = 0; i < n; i++) {
		if (put_event(ts))
			dropped++;
	}
	return dropped;
}

/*
 * What the consumer wrote.
 */

/* Read a whole file into a new buffer; returns its length, or -1. */
static ssize_t slurp(const char *path, uint8_t **ret_buf)
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

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* Poll a file until it holds @min bytes, at most @ms (an asynchronous write). */
static bool wait_size(const char *path, off_t min, int ms)
{
	struct timespec step = { .tv_nsec = 5 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited < ms; waited += 5) {
		if (file_size(path) >= min)
			return true;
		nanosleep(&step, NULL);
	}
	return file_size(path) >= min;
}

static uint64_t get64(const uint8_t *p)
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
	return be64toh(get64(p));
}

/* What one stream's files must hold, and what was found so far. */
struct expect {
	const char *what;
	uint32_t stream_id, cpu, tag;
	uint64_t nr_ids;	/* events written: ids 0 .. nr_ids - 1 */
	uint8_t *seen;		/* per id: times found */
	bool gaps;		/* packet_seq_num may jump (lost packets) */
	uint64_t packets;	/* packets found */
	uint64_t next_seq;	/* packet_seq_num of the next packet */
	uint64_t last_ts;
	uint64_t last_id;	/* + 1; 0 before the first event */
	uint64_t last_discarded;
	unsigned int errors;
};

#define FAIL(e, ...) do { if ((e)->errors++ < 5) tap_diag(__VA_ARGS__); } while (0)

static void expect_init(struct expect *e, const char *what, uint32_t stream_id,
			const struct tstream *ts, uint32_t cpu)
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
static void check_events(struct expect *e, const uint8_t *pkt, uint64_t content)
{
	uint64_t pos = LTT_RB_PACKET_HEADER_SIZE, id, i;
	uint32_t len;

	while (pos < content) {
		len = get32(pkt + pos);
		if (content - pos < EV_MIN || len < EV_MIN || len > content - pos) {
			FAIL(e, "%s: bad event length %u at %" PRIu64, e->what, len, pos);
			return;
		}
		id = get64(pkt + pos + 16);
		if (get32(pkt + pos + 4) != EV_MAGIC || get32(pkt + pos + 8) != e->tag ||
		    id >= e->nr_ids || len != event_len(id) || id + 1 <= e->last_id) {
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
static void check_packet(struct expect *e, const uint8_t *pkt)
{
	uint64_t seq = get64(pkt + LTT_RB_PH_PACKET_SEQ_NUM);
	uint64_t content = get64(pkt + LTT_RB_PH_CONTENT_SIZE) / 8;
	uint64_t tb = get64(pkt + LTT_RB_PH_TIMESTAMP_BEGIN), te = get64(pkt + LTT_RB_PH_TIMESTAMP_END);
	uint64_t disc = get64(pkt + LTT_RB_PH_EVENTS_DISCARDED);

	if (get32(pkt) != LTT_RB_PACKET_MAGIC || memcmp(pkt + LTT_RB_PH_UUID, trace_uuid, 16) ||
	    get32(pkt + LTT_RB_PH_STREAM_ID) != e->stream_id ||
	    get64(pkt + LTT_RB_PH_STREAM_INSTANCE_ID) != e->cpu ||
	    get32(pkt + LTT_RB_PH_CPU_ID) != e->cpu ||
	    get64(pkt + LTT_RB_PH_PACKET_SIZE) != SUBBUF * 8) {
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
static void check_entry(struct expect *e, const uint8_t *ent, const uint8_t *pkt, uint64_t off)
{
	const uint64_t want[9] = {
		off,
		get64(pkt + LTT_RB_PH_PACKET_SIZE),
		get64(pkt + LTT_RB_PH_CONTENT_SIZE),
		get64(pkt + LTT_RB_PH_TIMESTAMP_BEGIN),
		get64(pkt + LTT_RB_PH_TIMESTAMP_END),
		get64(pkt + LTT_RB_PH_EVENTS_DISCARDED),
		get32(pkt + LTT_RB_PH_STREAM_ID),
		get64(pkt + LTT_RB_PH_STREAM_INSTANCE_ID),
		get64(pkt + LTT_RB_PH_PACKET_SEQ_NUM),
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

/* A stream file and its index; returns the number of packets, or -1. */
static long check_file(struct expect *e, const char *data_path, const char *idx_path)
{
	uint8_t *data = NULL, *idx = NULL;
	ssize_t len, idx_len;
	long n = -1, i;

	len = slurp(data_path, &data);
	idx_len = slurp(idx_path, &idx);
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

/* Every event written was found exactly once (or at most once if @lossy). */
static void check_all_seen(struct expect *e, bool lossy)
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

static void expect_fini(struct expect *e)
{
	free(e->seen);
	e->seen = NULL;
}

/* The metadata file: packets whose text is exactly @text. */
static void check_metadata(const char *path, const char *text, size_t len)
{
	uint8_t *buf = NULL, *got = NULL;
	size_t off, got_len = 0, i;
	bool headers_ok = true;
	ssize_t n;

	n = slurp(path, &buf);
	if (!tap_ok(n > 0 && n % 4096 == 0, "metadata file is whole 4 KiB packets (%zd bytes)", n))
		goto out;
	got = malloc((size_t)n);
	for (off = 0; got && off < (size_t)n; off += 4096) {
		const uint8_t *p = buf + off;
		uint32_t content = get32(p + 24);
		static const uint8_t tail[5] = { 0, 0, 0, 1, 8 };

		if (get32(p) != 0x75D11D57u || memcmp(p + 4, trace_uuid, 16) || get32(p + 20) ||
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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/*
 * The scenarios.
 */

/* Format a path into @buf of PATH_MAX bytes; a path too long ends the test. */
static const char *pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *pathf(char *buf, const char *fmt, ...)
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

static const char *path_of(char *buf, const char *dir, const char *name)
{
	return pathf(buf, "%s/%s", dir, name);
}

/* Commands that must fail before anything exists; nothing is created. */
static void test_bad_commands(struct cons *c, const char *dir)
{
	struct chan_args ca = { .key = 10, .trace_key = 1, .name = "chan" };
	int efd = eventfd(0, EFD_CLOEXEC), fds[2] = { efd, efd };
	char path[PATH_MAX];
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	tap_is_int(call(c, 99, &w), -EOPNOTSUPP, "unknown command: not supported");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_str(&w, dir);
	tap_is_int(call(c, LTT_CONSUMER_MSG_ADD_TRACE, &w), -EPROTO, "truncated ADD_TRACE: malformed");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_u8(&w, 0);
	tap_is_int(call(c, LTT_CONSUMER_MSG_DESTROY_TRACE, &w), -EPROTO,
		   "DESTROY_TRACE with a trailing byte: malformed");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_str(&w, dir);
	ltt_wbuf_put_bytes(&w, trace_uuid, 16);
	ltt_wbuf_put_u32(&w, (uint32_t)getuid());
	ltt_wbuf_put_u32(&w, (uint32_t)getgid());
	tap_is_int(call_fds(c, LTT_CONSUMER_MSG_ADD_TRACE, &w, fds, 1, NULL), -EPROTO,
		   "ADD_TRACE with an fd: refused");
	tap_is_int(add_trace(c, 1, "relative/dir", getuid(), getgid()), -EINVAL,
		   "ADD_TRACE with a relative directory: invalid");
	pathf(path, "%s/../x", dir);
	tap_is_int(add_trace(c, 1, path, getuid(), getgid()), -EINVAL,
		   "ADD_TRACE with a '..' component: invalid");
	tap_is_int(metadata(c, 1, "x", 1), -ENOENT, "METADATA to an unknown trace");
	tap_is_int(add_channel(c, &ca), -ENOENT, "ADD_CHANNEL to an unknown trace");
	tap_is_int(add_stream_fds(c, 10, 0, fds, 2), -ENOENT, "ADD_STREAM to an unknown channel");
	tap_is_int(flush(c, 10, 0), -ENOENT, "FLUSH_CHANNEL of an unknown channel");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_CHANNEL_STATS, 10), -ENOENT,
		   "CHANNEL_STATS of an unknown channel");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 10), -ENOENT,
		   "DESTROY_CHANNEL of an unknown channel");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), -ENOENT,
		   "DESTROY_TRACE of an unknown trace");
	pathf(path, "%s/out", tmpdir);
	tap_ok(!exists(path), "failed commands created nothing");
	close(efd);
}

/* ADD_TRACE and METADATA, good and bad; returns the text accepted. */
static void test_trace(struct cons *c, const char *dir, char **ret_text, size_t *ret_len)
{
	char path[PATH_MAX], other[PATH_MAX], *text;
	size_t len = 0, i;
	struct ltt_wbuf w;

	tap_is_int(add_trace(c, 1, dir, getuid(), getgid()), 0, "ADD_TRACE");
	pathf(other, "%s/elsewhere", tmpdir);
	tap_is_int(add_trace(c, 1, other, getuid(), getgid()), -EEXIST, "ADD_TRACE: key in use");
	tap_is_int(add_trace(c, 2, dir, getuid(), getgid()), -EEXIST, "ADD_TRACE: directory in use");
	tap_ok(exists(path_of(path, dir, "index")), "trace directory and index/ created");
	/* a chunk that spans two packets, then a small one */
	text = malloc(8192);
	for (i = 0; len < 5000; i++)
		len += (size_t)sprintf(text + len, "typealias integer { size = %zu; } t%zu;\n",
				       i % 64 + 1, i);
	tap_is_int(metadata(c, 1, text, len), 0, "METADATA: %zu bytes", len);
	tap_is_int(metadata(c, 1, "event { id = 0; };\n", 19), 0, "METADATA: appended");
	memcpy(text + len, "event { id = 0; };\n", 19);
	len += 19;
	tap_is_int(metadata(c, 1, "a\0b", 3), -EINVAL, "METADATA with a NUL byte: invalid");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	ltt_wbuf_put_u32(&w, 100);
	ltt_wbuf_put_bytes(&w, "short", 5);
	tap_is_int(call(c, LTT_CONSUMER_MSG_METADATA, &w), -EPROTO,
		   "METADATA shorter than its length: malformed");
	tap_is_int(metadata(c, 1, "", 0), 0, "METADATA of no text: nothing to do");
	check_metadata(path_of(path, dir, "metadata"), text, len);
	*ret_text = text;
	*ret_len = len;
}

static void test_bad_channels(struct cons *c)
{
	struct chan_args ca = { .key = 10, .trace_key = 1, .name = "other" };

	tap_is_int(add_channel(c, &ca), -EEXIST, "ADD_CHANNEL: key in use");
	ca.key = 90;
	ca.name = "chan";
	tap_is_int(add_channel(c, &ca), -EEXIST, "ADD_CHANNEL: name in use in the trace");
	ca.name = "a/b";
	tap_is_int(add_channel(c, &ca), -EINVAL, "ADD_CHANNEL: name with a slash");
	ca.name = "metadata";
	tap_is_int(add_channel(c, &ca), -EINVAL, "ADD_CHANNEL: reserved name");
	ca.name = "x";
	ca.count = 3;
	tap_is_int(add_channel(c, &ca), -EINVAL, "ADD_CHANNEL: tracefile count without size");
	ca.count = 0;
	ca.overwrite = 2;
	tap_is_int(add_channel(c, &ca), -EPROTO, "ADD_CHANNEL: overwrite not a boolean");
}

/* ADD_STREAM refusals: the channel (key 10, discard) keeps working. */
static void test_bad_streams(struct cons *c)
{
	struct ts_args a = { .num_subbuf = 2, .cpu = 8, .seal = true };
	struct tstream ts;
	int fds[3], pfd[2];

	tstream_init(&ts, &a, 0);
	tap_is_int(add_stream(c, 10, 0, &ts), -EEXIST, "ADD_STREAM: cpu in use");
	fds[0] = fds[1] = fds[2] = ts.efd;
	fds[0] = ts.shm_fd;
	tap_is_int(add_stream_fds(c, 10, 7, fds, 1), -EPROTO, "ADD_STREAM with 1 fd: refused");
	tap_is_int(add_stream_fds(c, 10, 7, fds, 3), -EPROTO, "ADD_STREAM with 3 fds: refused");
	tap_is_int(add_stream(c, 10, 7, &ts), -EINVAL, "ADD_STREAM: region of another cpu");
	if (pipe2(pfd, O_CLOEXEC) == 0) {
		fds[1] = pfd[0];
		tap_is_int(add_stream_fds(c, 10, 8, fds, 2), -EINVAL,
			   "ADD_STREAM: wakeup fd not an eventfd");
		close(pfd[0]);
		close(pfd[1]);
	}
	memset(ts.mem, 0xff, 4096);	/* a lying region header */
	tap_is_int(add_stream(c, 10, 8, &ts), -EINVAL, "ADD_STREAM: garbage region");
	tstream_fini(&ts);
	a.cpu = 11;
	a.overwrite = true;
	tstream_init(&ts, &a, 0);
	tap_is_int(add_stream(c, 10, 11, &ts), -EINVAL, "ADD_STREAM: overwrite region, discard channel");
	tstream_fini(&ts);
	a.overwrite = false;
	a.seal = false;
	tstream_init(&ts, &a, 0);
	tap_is_int(add_stream(c, 10, 11, &ts), -EPERM, "ADD_STREAM: memory that can shrink");
	tstream_fini(&ts);
}

/* ADD_CHANNEL with the domain block of protocol 1.1. */
static int add_channel_domain(struct cons *c, const struct chan_args *a, uint8_t domain,
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
	return call(c, LTT_CONSUMER_MSG_ADD_CHANNEL, &w);
}

static int add_kernel_stream(struct cons *c, uint64_t key, uint32_t cpu, const int *fds,
			     unsigned int nr_fds)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = key, .cpu = cpu };
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_consumer_put_add_kernel_stream(&w, &m);
	return call_fds(c, LTT_CONSUMER_MSG_ADD_KERNEL_STREAM, &w, fds, nr_fds, NULL);
}

/*
 * Kernel channels (protocol 1.1) as far as they go without the module:
 * the domain and geometry checks, the stream commands kept to their
 * domain, a descriptor that is not a tracer stream refused, and a kernel
 * channel with no stream flushed and destroyed at once.  The user-space
 * channel 10 keeps working (untouched: later tests read its streams).
 */
static void test_kernel_commands(struct cons *c, const char *dir)
{
	struct chan_args ca = { .key = 80, .trace_key = 1, .name = "kern" };
	struct ts_args a = { .num_subbuf = 2, .cpu = 30, .seal = true };
	char path[PATH_MAX];
	struct tstream ts;
	int pfd[2], fds[2];
	struct stats st;

	tap_is_int(add_channel_domain(c, &ca, 9, 4096, 4), -EOPNOTSUPP,
		   "ADD_CHANNEL of an unknown domain: not supported");
	tap_is_int(add_channel_domain(c, &ca, LTT_CONSUMER_DOMAIN_KERNEL, 4096, 3), -EINVAL,
		   "ADD_CHANNEL kernel, 3 sub-buffers: invalid");
	tap_is_int(add_channel_domain(c, &ca, LTT_CONSUMER_DOMAIN_KERNEL, 65536, 4), 0,
		   "ADD_CHANNEL kernel, 4 x 64 KiB");
	tstream_init(&ts, &a, 0);
	tap_is_int(add_stream(c, 80, 30, &ts), -EPROTO, "ADD_STREAM to a kernel channel: refused");
	tstream_fini(&ts);
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
	tap_ok(!exists(path_of(path, dir, "kern_0")), "refused streams created no file");
	tap_is_int(flush(c, 80, 1), 0, "FLUSH_CHANNEL final of a kernel channel without streams");
	tap_is_int(stats(c, 80, &st), 0, "CHANNEL_STATS of it");
	tap_ok(!st.events_lost && !st.packets_lost && !st.bytes_written, "all zero");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 80), 0, "DESTROY_CHANNEL of it");
	tap_is_int(stats(c, 10, &st), 0, "the user-space channel still answers");
}

/* Check a stream file without rotation: DIR/NAME_CPU and its index. */
static void verify_stream(const char *dir, const char *name, uint32_t stream_id,
			  const struct tstream *ts, uint32_t cpu, bool gaps, long want_packets)
{
	char data[PATH_MAX], idx[PATH_MAX], what[PATH_MAX];
	struct expect e;
	long n;

	pathf(what, "%s_%u", name, cpu);
	pathf(data, "%s/%s", dir, what);
	pathf(idx, "%s/index/%s.idx", dir, what);
	expect_init(&e, what, stream_id, ts, cpu);
	e.gaps = gaps;
	n = check_file(&e, data, idx);
	tap_ok(n >= 0 && !e.errors, "%s: %ld packets, headers, events and index entries valid", what, n);
	if (want_packets >= 0)
		tap_is_int(n, want_packets, "%s: packet count", what);
	if (!gaps)
		check_all_seen(&e, false);
	expect_fini(&e);
}

/* Channel 10 "chan" with two streams: flushes, wakeups, stats. */
static void test_data(struct cons *c, const char *dir, struct tstream *s0, struct tstream *s1)
{
	struct chan_args ca = { .key = 10, .trace_key = 1, .name = "chan" };
	struct ts_args a = { .num_subbuf = 8, .stream_id = 0, .wakeups = true, .seal = true };
	char p0[PATH_MAX], p1[PATH_MAX];
	unsigned int dropped = 0, r;
	struct stats st = { 0 };
	off_t before;

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL chan");
	test_bad_channels(c);
	a.cpu = 0;
	tstream_init(s0, &a, 100);
	a.cpu = 1;
	tstream_init(s1, &a, 101);
	tap_is_int(add_stream(c, 10, 0, s0), 0, "ADD_STREAM chan cpu 0");
	tap_is_int(add_stream(c, 10, 1, s1), 0, "ADD_STREAM chan cpu 1");
	test_bad_streams(c);
	path_of(p0, dir, "chan_0");
	path_of(p1, dir, "chan_1");
	tap_ok(exists(p0) && exists(p1), "stream files created");
	/* no flush yet: the writers' wakeups alone make the consumer read */
	before = file_size(p0);
	dropped = put_events(s0, 300);
	tap_ok(!dropped && wait_size(p0, before + 3 * SUBBUF, WAIT_MS),
	       "complete packets written on the writers' wakeups");
	for (r = 0; r < 3; r++) {
		dropped += put_events(s0, 150);
		dropped += put_events(s1, 120);
		if (flush(c, 10, 0))
			dropped += 1000000;
	}
	tap_is_int(dropped, 0, "three rounds written and flushed");
	tap_is_int(flush(c, 10, 0), 0, "FLUSH_CHANNEL");
	tap_is_int(stats(c, 10, &st), 0, "CHANNEL_STATS");
	tap_is_u64(st.events_lost, 0, "no event lost");
	tap_is_u64(st.packets_lost, 0, "no packet lost");
	tap_is_u64(st.bytes_written, (uint64_t)(file_size(p0) + file_size(p1)),
		   "bytes written = the stream files' sizes");
	verify_stream(dir, "chan", 0, s0, 0, false, -1);
	verify_stream(dir, "chan", 0, s1, 1, false, -1);
}

/* Channel 11 "rot": 2 packets per file, 3 files kept. */
static void test_rotation(struct cons *c, const char *dir)
{
	struct chan_args ca = { .key = 11, .trace_key = 1, .name = "rot",
				.size = 2 * SUBBUF, .count = 3 };
	struct ts_args a = { .num_subbuf = 4, .stream_id = 1, .wakeups = true, .seal = true };
	char data[PATH_MAX], idx[PATH_MAX];
	static const long want[] = { 2, 2, 1 };
	struct tstream ts;
	struct expect e;
	bool gone = true, ok = true;
	int i, fails = 0;

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL rot (size 2 packets, count 3)");
	tstream_init(&ts, &a, 200);
	tap_is_int(add_stream(c, 11, 0, &ts), 0, "ADD_STREAM rot cpu 0");
	for (i = 0; i < 9; i++) {
		fails += (int)put_events(&ts, 20);
		fails += flush(c, 11, 0) != 0;
	}
	tap_is_int(fails, 0, "9 packets written, one per flush");
	for (i = 0; i < 2; i++) {
		pathf(data, "%s/rot_0_%d", dir, i);
		pathf(idx, "%s/index/rot_0_%d.idx", dir, i);
		gone = gone && !exists(data) && !exists(idx);
	}
	tap_ok(gone, "the oldest files and their indexes deleted (rot_0_0, rot_0_1)");
	pathf(data, "%s/rot_0_5", dir);
	tap_ok(!exists(data) && !exists(path_of(idx, dir, "rot_0")), "no rot_0_5, no rot_0");
	expect_init(&e, "rot_0", 1, &ts, 0);
	e.next_seq = 4;		/* packets 0-3 went with the deleted files */
	for (i = 2; i <= 4; i++) {
		pathf(data, "%s/rot_0_%d", dir, i);
		pathf(idx, "%s/index/rot_0_%d.idx", dir, i);
		ok = check_file(&e, data, idx) == want[i - 2] && ok;
	}
	tap_ok(ok && !e.errors && e.packets == 5 && e.next_seq == 9,
	       "rot_0_2..4 hold packets 4-8 (2, 2, 1), index offsets restart in each file");
	for (i = 0; i < 80; i++)
		ok = ok && !e.seen[i];
	for (; i < (int)e.nr_ids; i++)
		ok = ok && e.seen[i] == 1;
	tap_ok(ok, "the newest 100 events present once, the oldest 80 deleted");
	expect_fini(&e);
	tstream_fini(&ts);
}

/* Channel 12 "tiny": two sub-buffers, no reader wakeups: events dropped. */
static void test_lost_events(struct cons *c, const char *dir, const struct tstream *s0)
{
	struct chan_args ca = { .key = 12, .trace_key = 1, .name = "tiny" };
	struct ts_args a = { .num_subbuf = 2, .stream_id = 2, .seal = true };
	char path[PATH_MAX];
	struct ltt_rb_slot slot;
	struct stats st = { 0 };
	uint8_t *buf = NULL;
	unsigned int dropped;
	struct tstream ts;

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL tiny");
	tap_is_int(add_stream(c, 12, 0, s0), -EEXIST,
		   "ADD_STREAM: memory another stream reads (chan cpu 0)");
	tstream_init(&ts, &a, 300);
	tap_is_int(add_stream(c, 12, 0, &ts), 0, "ADD_STREAM tiny cpu 0");
	dropped = put_events(&ts, 300);
	if (ltt_rb_reserve(&ts.rb, SUBBUF, &slot) == -EMSGSIZE)
		dropped++;
	tap_ok(dropped > 100, "the writer dropped %u events (buffer full, one too large)", dropped);
	tap_is_int(stats(c, 12, &st), 0, "CHANNEL_STATS tiny");
	tap_is_u64(st.events_lost, dropped, "events lost = what the writer dropped");
	tap_is_int(flush(c, 12, 0), 0, "FLUSH_CHANNEL tiny");
	verify_stream(dir, "tiny", 2, &ts, 0, false, 2);
	if (slurp(path_of(path, dir, "tiny_0"), &buf) == 2 * SUBBUF)
		tap_is_u64(get64(buf + SUBBUF + LTT_RB_PH_EVENTS_DISCARDED), dropped,
			   "the last packet's events_discarded counts them");
	else
		tap_ok(false, "the last packet's events_discarded counts them");
	free(buf);
	tap_is_int(stats(c, 12, &st), 0, "CHANNEL_STATS tiny after the flush");
	tap_is_u64(st.packets_lost, 0, "no packet lost");
	tstream_fini(&ts);
}

/* Channel 13 "dead": a writer killed mid-event; the final flush gives up. */
static void test_abandoned(struct cons *c, const char *dir)
{
	struct chan_args ca = { .key = 13, .trace_key = 1, .name = "dead" };
	struct ts_args a = { .num_subbuf = 4, .stream_id = 3, .seal = true };
	char path[PATH_MAX], idx[PATH_MAX];
	struct ltt_rb_slot slot;
	struct stats st = { 0 };
	struct tstream ts;
	struct expect e;
	bool ok = true;
	unsigned int i;

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL dead");
	tstream_init(&ts, &a, 400);
	tap_is_int(add_stream(c, 13, 0, &ts), 0, "ADD_STREAM dead cpu 0");
	put_events(&ts, 10);
	tap_is_int(flush(c, 13, 0), 0, "FLUSH_CHANNEL dead: packet 0");
	put_events(&ts, 5);
	tap_is_int(ltt_rb_reserve(&ts.rb, 40, &slot), 0, "a slot reserved and never committed");
	tap_is_int(flush(c, 13, 0), 0, "FLUSH_CHANNEL dead: the incomplete packet waits");
	tap_is_int(file_size(path_of(path, dir, "dead_0")), SUBBUF, "only packet 0 on disk");
	tap_is_int(stats(c, 13, &st), 0, "CHANNEL_STATS dead");
	tap_is_u64(st.packets_lost, 0, "nothing lost yet");
	tap_is_int(flush(c, 13, 1), 0, "final FLUSH_CHANNEL dead");
	tap_is_int(stats(c, 13, &st), 0, "CHANNEL_STATS dead after the final flush");
	tap_is_u64(st.packets_lost, 1, "the incomplete packet given up and counted lost");
	expect_init(&e, "dead_0", 3, &ts, 0);
	tap_is_int(check_file(&e, path, path_of(idx, dir, "index/dead_0.idx")), 1,
		   "dead_0 still holds packet 0 only");
	for (i = 0; i < e.nr_ids; i++)
		ok = ok && e.seen[i] == (i < 10);
	tap_ok(ok && !e.errors, "its 10 events, not the 5 of the abandoned packet");
	expect_fini(&e);
	tstream_fini(&ts);
}

/* Write one packet's worth of @n events; returns its header in the region. */
static uint8_t *put_packet(struct tstream *ts, unsigned int n)
{
	size_t len = event_len(ts->next_id);
	struct ltt_rb_slot slot;
	uint8_t *hdr;

	if (ltt_rb_reserve(&ts->rb, len, &slot))
		return NULL;
	/* the packet's first event follows its header */
	hdr = (uint8_t *)slot.data - LTT_RB_PACKET_HEADER_SIZE;
	fill_event(slot.data, len, ts->tag, ts->next_id++);
	ltt_rb_commit(&ts->rb, &slot);
	put_events(ts, n - 1);
	return hdr;
}

/* Channel 14 "bad": packets and a region header damaged by the writer. */
static void test_corrupt(struct cons *c, const char *dir)
{
	struct chan_args ca = { .key = 14, .trace_key = 1, .name = "bad" };
	struct ts_args a = { .num_subbuf = 4, .stream_id = 4, .seal = true };
	uint64_t huge = 2 * SUBBUF * 8, first_bad, end_bad;
	char path[PATH_MAX], idx[PATH_MAX];
	struct stats st = { 0 };
	struct ltt_rb_shm *shm;
	struct tstream ts;
	struct expect e;
	uint8_t *hdr;
	bool ok = true;
	uint64_t i;

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL bad");
	tstream_init(&ts, &a, 500);
	tap_is_int(add_stream(c, 14, 0, &ts), 0, "ADD_STREAM bad cpu 0");
	shm = ts.mem;
	put_packet(&ts, 10);
	flush(c, 14, 0);
	first_bad = ts.next_id;
	hdr = put_packet(&ts, 10);
	if (hdr)
		memset(hdr, 0, 4);	/* magic */
	flush(c, 14, 0);
	/* fill packet 2 until a writer closes it, then lie about its size */
	hdr = put_packet(&ts, 1);
	for (i = shm->offset / SUBBUF; shm->offset / SUBBUF == i;)
		put_event(&ts);
	if (hdr)
		memcpy(hdr + LTT_RB_PH_CONTENT_SIZE, &huge, 8);
	/* the event that moved the position opened packet 3, unless it ended 2 exactly */
	end_bad = shm->offset % SUBBUF ? ts.next_id - 1 : ts.next_id;
	put_events(&ts, 5);
	flush(c, 14, 0);
	tap_is_int(file_size(path_of(path, dir, "bad_0")), 2 * SUBBUF,
		   "the packet after a corrupt one written by the same flush");
	tap_is_int(stats(c, 14, &st), 0, "CHANNEL_STATS bad");
	tap_is_u64(st.packets_lost, 2, "bad magic and oversized content_size: 2 packets skipped");
	/* a writer scribbles over the region's geometry: the consumer kept its own */
	shm->subbuf_size = (uint64_t)1 << 40;
	shm->num_subbuf = 3;
	shm->data_offset = UINT64_MAX;
	put_packet(&ts, 10);
	tap_is_int(flush(c, 14, 0), 0, "FLUSH_CHANNEL bad after the region header was overwritten");
	expect_init(&e, "bad_0", 4, &ts, 0);
	e.gaps = true;
	tap_is_int(check_file(&e, path_of(path, dir, "bad_0"), path_of(idx, dir, "index/bad_0.idx")),
		   3, "bad_0 holds the 3 good packets");
	for (i = 0; i < e.nr_ids; i++)
		ok = ok && e.seen[i] == (i < first_bad || i >= end_bad);
	tap_ok(ok && !e.errors && e.next_seq == 5,
	       "their events once (packets 0, 3, 4), index consistent");
	expect_fini(&e);
	tstream_fini(&ts);
}

/* Channel 15 "ow": overwrite mode, the writer laps a reader that sleeps. */
static void test_overwrite(struct cons *c, const char *dir)
{
	struct chan_args ca = { .key = 15, .trace_key = 1, .name = "ow", .overwrite = 1 };
	struct ts_args a = { .num_subbuf = 2, .stream_id = 5, .overwrite = true, .seal = true };
	char path[PATH_MAX], idx[PATH_MAX];
	struct stats st = { 0 };
	struct tstream ts;
	struct expect e;
	long n;

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL ow (overwrite)");
	tstream_init(&ts, &a, 600);
	tap_is_int(add_stream(c, 15, 0, &ts), 0, "ADD_STREAM ow cpu 0");
	tap_is_int(put_events(&ts, 600), 0, "600 events over about 7 packets, none dropped");
	tap_is_int(flush(c, 15, 0), 0, "FLUSH_CHANNEL ow");
	tap_is_int(stats(c, 15, &st), 0, "CHANNEL_STATS ow");
	expect_init(&e, "ow_0", 5, &ts, 0);
	e.gaps = true;
	n = check_file(&e, path_of(path, dir, "ow_0"), path_of(idx, dir, "index/ow_0.idx"));
	tap_ok(n >= 1 && n <= 2 && !e.errors, "ow_0: the latest %ld packets, valid", n);
	tap_is_u64(st.packets_lost + (uint64_t)n, e.next_seq,
		   "packets lost (overwritten) + written = packets produced");
	tap_ok(e.nr_ids && e.seen[e.nr_ids - 1] == 1, "the newest event is there");
	check_all_seen(&e, true);
	expect_fini(&e);
	tstream_fini(&ts);
}

/* Channels 16 and 17: the switch timer, the read timer, no wakeups. */
static void test_timers(struct cons *c, const char *dir, struct tstream *sw, struct tstream *rd)
{
	struct chan_args ca = { .key = 16, .trace_key = 1, .name = "sw", .switch_us = 20000 };
	struct ts_args a = { .num_subbuf = 8, .stream_id = 6, .seal = true };
	char path[PATH_MAX];

	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL sw (switch timer 20 ms)");
	tstream_init(sw, &a, 700);
	tap_is_int(add_stream(c, 16, 0, sw), 0, "ADD_STREAM sw cpu 0");
	put_events(sw, 5);
	tap_ok(wait_size(path_of(path, dir, "sw_0"), SUBBUF, WAIT_MS),
	       "the switch timer closed and wrote a packet of 5 events");
	ca = (struct chan_args){ .key = 17, .trace_key = 1, .name = "rd", .read_us = 20000 };
	a.stream_id = 7;
	tap_is_int(add_channel(c, &ca), 0, "ADD_CHANNEL rd (read timer 20 ms)");
	tstream_init(rd, &a, 800);
	tap_is_int(add_stream(c, 17, 0, rd), 0, "ADD_STREAM rd cpu 0");
	put_events(rd, 250);
	tap_ok(wait_size(path_of(path, dir, "rd_0"), 2 * SUBBUF, WAIT_MS),
	       "the read timer wrote the complete packets");
}

static void test_destroy(struct cons *c, const char *dir)
{
	char path[PATH_MAX];
	struct stats st;

	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), -EBUSY,
		   "DESTROY_TRACE with channels: busy");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 12), 0, "DESTROY_CHANNEL tiny");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 12), -ENOENT,
		   "DESTROY_CHANNEL tiny again: unknown");
	tap_is_int(stats(c, 12, &st), -ENOENT, "CHANNEL_STATS of a destroyed channel");
	tap_is_int(file_size(path_of(path, dir, "tiny_0")), 2 * SUBBUF, "its files stay");
}

/* Events left in the buffers are written when the session daemon goes. */
static void test_close(struct cons *c, const char *dir, struct tstream *s0, struct tstream *s1)
{
	int status;

	put_events(s0, 50);
	put_events(s1, 50);
	close(c->fd);
	c->fd = -1;
	status = cons_wait(c, WAIT_MS);
	tap_ok(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the consumer exits 0 when the command socket closes (status 0x%x)", status);
	verify_stream(dir, "chan", 0, s0, 0, false, -1);
	verify_stream(dir, "chan", 0, s1, 1, false, -1);
}

/* A second consumer: SIGTERM writes what is there and exits 0. */
static void test_sigterm(const char *dir)
{
	struct chan_args ca = { .key = 1, .trace_key = 7, .name = "term" };
	struct ts_args a = { .num_subbuf = 4, .stream_id = 0, .wakeups = true, .seal = true };
	struct tstream ts;
	struct cons c;
	int status;

	if (!tap_ok(cons_start(&c) == 0, "second consumer started"))
		return;
	tap_is_int(add_trace(&c, 7, dir, getuid(), getgid()), 0, "ADD_TRACE");
	tap_is_int(add_channel(&c, &ca), 0, "ADD_CHANNEL term");
	tstream_init(&ts, &a, 900);
	tap_is_int(add_stream(&c, 1, 3, &ts), -EINVAL, "ADD_STREAM: region for cpu 0 as cpu 3");
	tap_is_int(add_stream(&c, 1, 0, &ts), 0, "ADD_STREAM term cpu 0");
	put_events(&ts, 120);
	kill(c.pid, SIGTERM);
	status = cons_wait(&c, WAIT_MS);
	tap_ok(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "SIGTERM: the consumer exits 0 (status 0x%x)", status);
	verify_stream(dir, "term", 0, &ts, 0, false, -1);
	tstream_fini(&ts);
}

/* As root: what the consumer creates belongs to the trace's owner. */
static void test_owner(const char *dir)
{
	struct chan_args ca = { .key = 1, .trace_key = 1, .name = "own" };
	struct ts_args a = { .num_subbuf = 2, .seal = true };
	const char *names[] = { "", "/index", "/metadata", "/own_0", "/index/own_0.idx" };
	char path[PATH_MAX], parent[PATH_MAX];
	struct tstream ts;
	struct stat st;
	struct cons c;
	bool ok = true;
	size_t i;

	if (geteuid() != 0) {
		tap_diag("not root: file ownership not checked");
		return;
	}
	if (!tap_ok(cons_start(&c) == 0, "third consumer started"))
		return;
	/*
	 * The consumer acts as the trace's owner: where nobody may not write
	 * (a root directory), nothing is created for nobody...
	 */
	pathf(path, "%s/rootonly", tmpdir);
	mkdir(path, 0755);
	chmod(tmpdir, 0711);
	pathf(path, "%s/rootonly/etc.d", tmpdir);
	tap_is_int(add_trace(&c, 2, path, 65534, 65534), -EACCES,
		   "ADD_TRACE for 65534 in a directory only root may write: EACCES");
	tap_ok(stat(path, &st) && errno == ENOENT, "and nothing was created there");
	/* ...while in a home of nobody's, what is created is nobody's. */
	pathf(path, "%s/owned", tmpdir);
	mkdir(path, 0755);
	chown(path, 65534, 65534);
	tap_is_int(add_trace(&c, 1, dir, 65534, 65534), 0, "ADD_TRACE for uid:gid 65534:65534");
	tap_is_int(add_channel(&c, &ca), 0, "ADD_CHANNEL own");
	tstream_init(&ts, &a, 1000);
	tap_is_int(add_stream(&c, 1, 0, &ts), 0, "ADD_STREAM own cpu 0");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		pathf(path, "%s%s", dir, names[i]);
		ok = ok && !stat(path, &st) && st.st_uid == 65534 && st.st_gid == 65534;
	}
	pathf(parent, "%s/..", dir);
	ok = ok && !stat(parent, &st) && st.st_uid == 65534;
	/* ("owned" itself was made by the test, as a user's home would be.) */
	tap_ok(ok, "new directories and files belong to 65534:65534");
	close(c.fd);
	c.fd = -1;
	tap_ok(cons_wait(&c, WAIT_MS) == 0, "third consumer exits 0");
	tstream_fini(&ts);
}

static int setup(void)
{
	const char *top = getenv("LTT_TOP_BUILDDIR"), *tmp = getenv("TMPDIR");

	if (!top || !*top) {
		printf("Bail out! LTT_TOP_BUILDDIR is not set: run through make check\n");
		return -1;
	}
	pathf(consumerd_path, "%s/src/consumerd/ltt-consumerd", top);
	pathf(relayd_path, "%s/src/relayd/ltt-relayd", top);
	pathf(tmpdir, "%s/ltt-test-consumerd-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp %s: %s\n", tmpdir, strerror(errno));
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(300);	/* a hung consumer or test fails instead of hanging */
	return 0;
}

/*
 * The version handshake: nothing before HELLO, a foreign major makes the
 * consumer leave, ours is answered with the consumer's version.
 */
static void test_handshake(struct cons *c)
{
	struct ltt_msg reply = { 0 };
	struct cons other;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, 1);
	tap_is_int(call(c, LTT_CONSUMER_MSG_DESTROY_TRACE, &w), -EPROTO,
		   "a command before HELLO is refused");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, LTT_CONSUMER_MAJOR);
	ltt_wbuf_put_u32(&w, LTT_CONSUMER_MINOR + 7);
	tap_is_int(call_fds(c, LTT_CONSUMER_MSG_HELLO, &w, NULL, 0, &reply), 0,
		   "HELLO with our major (and a newer minor) is accepted");
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	ltt_rbuf_get_u32(&r);
	tap_is_int((int)ltt_rbuf_get_u32(&r), LTT_CONSUMER_MAJOR, "the reply gives the consumer's major");
	tap_is_int((int)ltt_rbuf_get_u32(&r), LTT_CONSUMER_MINOR, "and its own minor");
	tap_ok(ltt_rbuf_end(&r) == 0, "and nothing else");
	ltt_msg_fini(&reply);
	if (!tap_ok(cons_spawn(&other) == 0, "another consumer started"))
		return;
	tap_is_int(cons_hello(&other, LTT_CONSUMER_MAJOR + 1), -EPROTONOSUPPORT,
		   "HELLO with another major: EPROTONOSUPPORT");
	status = cons_wait(&other, 10000);
	tap_ok(status >= 0 && WIFEXITED(status), "and that consumer exits by itself");
}

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
	ssize_t n = slurp(path, &buf), off;

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

	pathf(pidfile, "%s/relayd.pid", run);
	mkdir(run, 0700);
	child = fork();
	if (child == 0) {
		setenv("LTT_RUNDIR", run, 1);
		execl(relayd_path, "ltt-relayd", "-b", "-q", "-p", pidfile, "-C",
		      "tcp://127.0.0.1:0", "-D", "tcp://127.0.0.1:0", "-L", "tcp://127.0.0.1:0",
		      "-o", out, (char *)NULL);
		_exit(127);
	}
	/* -b returns once the ports listen and their files are written */
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	if (slurp(pathf(path, "%s/relayd-control.port", run), &buf) <= 0)
		return -1;
	*cport = atoi((char *)buf);
	free(buf);
	buf = NULL;
	if (slurp(pathf(path, "%s/relayd-data.port", run), &buf) <= 0)
		return -1;
	*dport = atoi((char *)buf);
	free(buf);
	buf = NULL;
	if (slurp(pidfile, &buf) <= 0)
		return -1;
	*pid = (pid_t)atoi((char *)buf);
	free(buf);
	return *cport > 0 && *dport > 0 && *pid > 0 ? 0 : -1;
}

/* ADD_RELAY; @ret_path gets the relay's output path. */
static int add_relay(struct cons *c, uint64_t key, int cport, int dport, const char *session,
		     uint32_t live_us, char *ret_path)
{
	char curl[64], durl[64];
	struct ltt_consumer_add_relay m = {
		.relay_key = key, .ctrl_url = curl, .data_url = durl, .hostname = "box",
		.session_name = session, .base_path = "", .live_timer_us = live_us,
		.session_id = key, .creation_time = (uint64_t)time(NULL),
	};
	struct ltt_consumer_add_relay_reply rep;
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	snprintf(curl, sizeof(curl), "tcp://127.0.0.1:%d", cport);
	snprintf(durl, sizeof(durl), "tcp://127.0.0.1:%d", dport);
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m);
	status = call_fds(c, LTT_CONSUMER_MSG_ADD_RELAY, &w, NULL, 0, &reply);
	if (status == TRANSPORT_ERR)
		return status;
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	if (ltt_consumer_get_add_relay_reply(&r, &rep))
		status = TRANSPORT_ERR;
	else if (!status && ret_path)
		pathf(ret_path, "%s", rep.output_path);
	ltt_msg_fini(&reply);
	return status;
}

static int add_relayed_trace(struct cons *c, uint64_t key, const char *dir, uint64_t relay_key)
{
	struct ltt_consumer_add_trace m = { .key = key, .dir = dir, .uid = getuid(),
					    .gid = getgid(), .relay_key = relay_key };
	struct ltt_wbuf w;

	memcpy(m.uuid, trace_uuid, sizeof(m.uuid));
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_trace(&w, &m);
	return call(c, LTT_CONSUMER_MSG_ADD_TRACE, &w);
}

static int relay_pending(struct cons *c, uint64_t key, int *ret_pending)
{
	struct ltt_consumer_relay_pending_reply rep = { 0 };
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_consumer_put_relay_key(&w, key);
	status = call_fds(c, LTT_CONSUMER_MSG_RELAY_DATA_PENDING, &w, NULL, 0, &reply);
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
static int relay_drained(struct cons *c, uint64_t key)
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

static int relay_status(struct cons *c, uint64_t key, struct ltt_consumer_relay_status_reply *ret)
{
	struct ltt_msg reply = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int status;

	ltt_wbuf_init(&w);
	ltt_consumer_put_relay_key(&w, key);
	status = call_fds(c, LTT_CONSUMER_MSG_RELAY_STATUS, &w, NULL, 0, &reply);
	if (status == TRANSPORT_ERR)
		return status;
	ltt_rbuf_init(&r, reply.payload, reply.hdr.payload_len);
	if (ltt_consumer_get_relay_status_reply(&r, ret))
		status = TRANSPORT_ERR;
	ltt_msg_fini(&reply);
	return status;
}

/* The commands a relayed trace refuses. */
static void test_relay_refusals(struct cons *c, int cport, int dport)
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
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_RELAY_STATUS, 99), -ENOENT,
		   "RELAY_STATUS of an unknown relay: ENOENT");
	tap_is_int(key_cmd(c, LTT_CONSUMER_MSG_DEL_RELAY, 7), -EBUSY,
		   "DEL_RELAY while a trace uses it: EBUSY");
}

static void test_relay(const char *base)
{
	struct chan_args ca = { .key = 10, .trace_key = 1, .name = "chan" };
	struct chan_args la = { .key = 20, .trace_key = 3, .name = "loc" };
	struct ts_args a = { .num_subbuf = 8, .wakeups = true, .seal = true };
	struct ltt_consumer_relay_status_reply rs = { 0 };
	char run[PATH_MAX], out[PATH_MAX], rpath[PATH_MAX], tdir[PATH_MAX], p[PATH_MAX];
	static const char text[] = "/* CTF 1.8 */ trace { major = 1; minor = 8; };\n";
	struct tstream s0, s1, l0;
	int cport, dport, pending = 0, i;
	unsigned int dropped = 0;
	struct stats st = { 0 };
	pid_t rpid;
	struct cons c;

	pathf(run, "%s/run", base);
	pathf(out, "%s/traces", base);
	if (!tap_ok(relayd_start(run, out, &cport, &dport, &rpid) == 0,
		    "ltt-relayd started on loopback (%s)", relayd_path))
		return;
	tap_ok(cons_start(&c) == 0, "a consumer for the relay");
	tap_is_int(add_relay(&c, 7, cport, dport, "rs", 0, rpath), 0, "ADD_RELAY");
	tap_ok(!strncmp(rpath, out, strlen(out)), "the relay's output path: %s", rpath);
	tap_is_int(add_relayed_trace(&c, 1, "ust/uid/0/64-bit", 7), 0, "ADD_TRACE to the relay");
	test_relay_refusals(&c, cport, dport);
	tap_is_int(metadata(&c, 1, text, sizeof(text) - 1), 0, "METADATA to the relay");
	tap_is_int(add_channel(&c, &ca), 0, "ADD_CHANNEL of the relayed trace");
	a.cpu = 0;
	tstream_init(&s0, &a, 300);
	a.cpu = 1;
	tstream_init(&s1, &a, 301);
	tap_ok(!add_stream(&c, 10, 0, &s0) && !add_stream(&c, 10, 1, &s1), "two relayed streams");
	tap_is_int(key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 10), 0,
		   "STREAMS_SENT: the channel's streams are all added");
	tap_is_int(key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 99), -ENOENT,
		   "STREAMS_SENT of an unknown channel: ENOENT");
	/* the relay answers ADD_STREAM later: pending until it has them both */
	tap_is_int(relay_drained(&c, 7), 0, "RELAY_DATA_PENDING: the relay has both streams");
	/* a local trace beside it, on the same consumer */
	pathf(p, "%s/local", base);
	tap_is_int(add_trace(&c, 3, p, getuid(), getgid()), 0, "a local trace too");
	tap_is_int(add_channel(&c, &la), 0, "with a channel");
	a.cpu = 0;
	tstream_init(&l0, &a, 400);
	tap_is_int(add_stream(&c, 20, 0, &l0), 0, "and a stream");
	for (i = 0; i < 3; i++) {
		dropped += put_events(&s0, 200) + put_events(&s1, 150);
		dropped += flush(&c, 10, 0) ? 1000000 : 0;
	}
	tap_is_int(dropped, 0, "events written and flushed");
	tap_is_int(relay_drained(&c, 7), 0, "RELAY_DATA_PENDING says all reached the relay");
	tap_is_int(relay_status(&c, 7, &rs), 0, "RELAY_STATUS");
	tap_ok(!rs.conn_error && rs.packets_sent > 0 && !rs.packets_lost, "connected, %" PRIu64
	       " packets (%" PRIu64 " bytes) sent, none lost", rs.packets_sent, rs.bytes_sent);
	pathf(tdir, "%s/ust/uid/0/64-bit", rpath);
	{
		uint64_t w0, w1, sent = index_content(path_of(p, tdir, "index/chan_0.idx"), &w0);

		sent += index_content(path_of(p, tdir, "index/chan_1.idx"), &w1);
		tap_ok(rs.bytes_sent == sent && w0 + w1 == rs.packets_sent * SUBBUF,
		       "the bytes sent are the packets' content (%" PRIu64 " of %" PRIu64
		       "): no padding on the wire", rs.bytes_sent, w0 + w1);
	}
	verify_stream(tdir, "chan", 0, &s0, 0, false, -1);
	verify_stream(tdir, "chan", 0, &s1, 1, false, -1);
	check_metadata(path_of(p, tdir, "metadata"), text, sizeof(text) - 1);

	/* the relay dies: its streams drop, the local one goes on, nothing hangs */
	kill(rpid, SIGKILL);
	for (i = 0; i < WAIT_MS / 5 && !rs.conn_error; i++) {
		dropped = put_events(&s0, 20);
		flush(&c, 10, 0);
		relay_status(&c, 7, &rs);
	}
	tap_ok(rs.conn_error != 0, "the relay's death is recorded: %s", strerror(-rs.conn_error));
	put_events(&s0, 200);
	tap_is_int(flush(&c, 10, 0), 0, "a flush of the dead relay's channel still answers");
	relay_status(&c, 7, &rs);
	tap_ok(rs.packets_lost > 0, "its packets are counted lost (%" PRIu64 ")", rs.packets_lost);
	tap_is_int(relay_pending(&c, 7, &pending), -ECONNRESET, "RELAY_DATA_PENDING: ECONNRESET");
	tap_ok(!pending, "with nothing pending");
	dropped = put_events(&l0, 300);
	tap_ok(!dropped && !flush(&c, 20, 0) && !stats(&c, 20, &st) && !st.packets_lost,
	       "the local trace is not affected");
	pathf(p, "%s/local", base);
	verify_stream(p, "loc", 0, &l0, 0, false, -1);
	tap_ok(!key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 10) &&
	       !key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), "the relayed trace is destroyed");
	tap_is_int(key_cmd(&c, LTT_CONSUMER_MSG_DEL_RELAY, 7), 0, "DEL_RELAY");
	tap_is_int(key_cmd(&c, LTT_CONSUMER_MSG_RELAY_STATUS, 7), -ENOENT,
		   "the relay is gone, the consumer answers");
	close(c.fd);
	c.fd = -1;
	tap_is_int(cons_wait(&c, WAIT_MS), 0, "and exits 0");
	tstream_fini(&s0);
	tstream_fini(&s1);
	tstream_fini(&l0);
}

/* The live timer: a partial packet reaches the relay without any flush. */
static void test_relay_live(const char *base)
{
	struct chan_args ca = { .key = 10, .trace_key = 1, .name = "live" };
	struct ts_args a = { .num_subbuf = 4, .wakeups = true, .seal = true };
	char run[PATH_MAX], out[PATH_MAX], rpath[PATH_MAX], p[PATH_MAX];
	struct tstream s0;
	int cport, dport;
	pid_t rpid;
	struct cons c;

	pathf(run, "%s/run-live", base);
	pathf(out, "%s/traces-live", base);
	if (!tap_ok(relayd_start(run, out, &cport, &dport, &rpid) == 0, "a second ltt-relayd"))
		return;
	tap_ok(cons_start(&c) == 0, "a consumer");
	tap_is_int(add_relay(&c, 9, cport, dport, "live", 20000, rpath), 0,
		   "ADD_RELAY with a 20 ms live timer");
	tap_ok(!add_relayed_trace(&c, 1, "kernel", 9) && !add_channel(&c, &ca),
	       "a relayed trace and channel");
	a.cpu = 0;
	tstream_init(&s0, &a, 500);
	tap_is_int(add_stream(&c, 10, 0, &s0), 0, "a stream");
	tap_is_int(key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 10), 0, "STREAMS_SENT");
	tap_is_int(put_events(&s0, 10), 0, "10 events: less than a packet");
	pathf(p, "%s/kernel/live_0", rpath);
	tap_ok(wait_size(p, SUBBUF, WAIT_MS), "the live timer sent the partial packet, unflushed");
	tap_is_int(relay_drained(&c, 9), 0, "and nothing is pending");
	pathf(p, "%s/kernel", rpath);
	verify_stream(p, "live", 0, &s0, 0, false, -1);
	close(c.fd);
	c.fd = -1;
	tap_is_int(cons_wait(&c, WAIT_MS), 0, "the consumer exits 0 with a relay left (closed)");
	kill(rpid, SIGTERM);
	tstream_fini(&s0);
}

int main(void)
{
	struct tstream s0, s1, sw, rd;
	char dir[PATH_MAX], mpath[PATH_MAX], *text = NULL;
	struct cons c;
	size_t len;

	if (setup())
		return 1;
	pathf(dir, "%s/out/ust/uid/%u/64-bit", tmpdir, (unsigned int)getuid());
	if (!tap_ok(cons_spawn(&c) == 0, "consumer started (%s)", consumerd_path))
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
	check_metadata(path_of(mpath, dir, "metadata"), text, len);
	free(text);
	tstream_fini(&s0);
	tstream_fini(&s1);
	tstream_fini(&sw);
	tstream_fini(&rd);
	pathf(dir, "%s/term", tmpdir);
	test_sigterm(dir);
	pathf(dir, "%s/owned/by/nobody", tmpdir);
	test_owner(dir);
	pathf(dir, "%s/relay", tmpdir);
	mkdir(dir, 0700);
	test_relay(dir);
	test_relay_live(dir);
	if (!getenv("LTT_TEST_KEEP"))
		nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		tap_diag("kept %s", tmpdir);
	return tap_done();
}
