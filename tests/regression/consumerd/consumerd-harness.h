/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * consumerd-harness.h - what the tests of ltt-consumerd share
 * (test_consumerd.c, test_consumerd_relay.c): the test plays the session
 * daemon.  It spawns the real consumer over a socketpair (ch_start()),
 * sends it commands (ch_call() and the ch_add_*() helpers), writes events
 * into memfd ring buffers with the ring buffer's writer API (a test stream,
 * struct ch_tstream), and checks the files the consumer writes packet by
 * packet and event by event (struct ch_expect).  Names: ch_*.
 *
 * Nothing waits with a blind sleep: replies are synchronous, exits are
 * waited for on a pidfd with a bound, and asynchronous writes are polled
 * on the files with a bound (ch_wait_size()).
 */
#ifndef LTT_TESTS_CONSUMERD_HARNESS_H
#define LTT_TESTS_CONSUMERD_HARNESS_H

#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "common/proto/msg.h"
#include "common/trace/ringbuf.h"

#define SUBBUF 4096u
#define TRANSPORT_ERR INT32_MIN	/* a call that got no reply */
#define EV_MAGIC 0xE7E7E7E7u
#define EV_MIN 24		/* u32 len, u32 magic, u32 tag, u32 pad, u64 id */
#define WAIT_MS 10000

extern const uint8_t ch_trace_uuid[16];	/* every test trace's */
/* Set by ch_setup(). */
extern char ch_tmpdir[PATH_MAX];
extern char ch_consumerd_path[PATH_MAX];
extern char ch_relayd_path[PATH_MAX];

struct ch_cons {
	pid_t pid;
	int fd;		/* command socket, -1 once closed */
	int pidfd;
	uint32_t seq;
};

struct ch_chan_args {
	uint64_t key, trace_key;
	const char *name;
	uint64_t size, count;
	uint32_t switch_us, read_us;
	uint8_t overwrite;
};

struct ch_stats {
	uint64_t events_lost, packets_lost, bytes_written;
	int error;		/* the output's failure (1.5) */
};

struct ch_tstream {
	int shm_fd, efd;
	void *mem;
	size_t len;
	struct ltt_rb rb;	/* the writer's handle */
	uint32_t tag;		/* written in every event of this stream */
	uint64_t next_id;	/* of the next event */
	uint64_t subbuf_size;
};

struct ch_ts_args {
	uint64_t num_subbuf;
	bool overwrite;
	uint32_t stream_id, cpu;
	bool wakeups;		/* give the writer the eventfd */
	bool seal;
};

/* What one stream's files must hold, and what was found so far. */
struct ch_expect {
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

/*
 * The consumer and its commands: each returns the reply's status (0 or a
 * negative errno), or TRANSPORT_ERR.
 */

/** ch_spawn() - spawn ltt-consumerd on a socketpair; 0 or -1 */
int ch_spawn(struct ch_cons *c);

/** ch_spawn_args() - ch_spawn() with @extra options (NULL-terminated, at most 11) */
int ch_spawn_args(struct ch_cons *c, const char *const *extra);
/**
 * ch_call_fds() - send one command (@w is consumed) with @nr_fds fds and
 * read its reply; the status, or TRANSPORT_ERR.  @ret_reply, if not NULL,
 * gets the reply (to fini).
 */
int ch_call_fds(struct ch_cons *c, uint16_t type, struct ltt_wbuf *w, const int *fds,
		unsigned int nr_fds, struct ltt_msg *ret_reply);
/** ch_call() - ch_call_fds() without fds or reply */
int ch_call(struct ch_cons *c, uint16_t type, struct ltt_wbuf *w);
/** ch_hello() - the version handshake every session daemon starts with */
int ch_hello(struct ch_cons *c, uint32_t major);
/** ch_start() - spawn a consumer and say HELLO, as the session daemon does */
int ch_start(struct ch_cons *c);
/** ch_wait() - wait for the consumer's exit, at most @ms; its wait status or -1 */
int ch_wait(struct ch_cons *c, int ms);
/** ch_add_trace() - ADD_TRACE @key writing under @dir as @uid:@gid */
int ch_add_trace(struct ch_cons *c, uint64_t key, const char *dir, uid_t uid, gid_t gid);
/** ch_metadata() - METADATA: @len bytes of TSDL for trace @key */
int ch_metadata(struct ch_cons *c, uint64_t key, const void *text, size_t len);
/** ch_add_channel() - ADD_CHANNEL (user space) as @a says */
int ch_add_channel(struct ch_cons *c, const struct ch_chan_args *a);
/** ch_add_stream_fds() - ADD_STREAM of channel @key on @cpu with raw @fds */
int ch_add_stream_fds(struct ch_cons *c, uint64_t key, uint32_t cpu, const int *fds,
		      unsigned int nr_fds);
/** ch_add_stream() - ADD_STREAM of channel @key on @cpu: @ts's memfd and eventfd */
int ch_add_stream(struct ch_cons *c, uint64_t key, uint32_t cpu, const struct ch_tstream *ts);
/** ch_key_cmd() - a command whose payload is one key */
int ch_key_cmd(struct ch_cons *c, uint16_t type, uint64_t key);
/** ch_flush() - FLUSH channel @key (@final: the last one) */
int ch_flush(struct ch_cons *c, uint64_t key, uint8_t final);
/** ch_stats() - STATS of channel @key into @ret */
int ch_stats(struct ch_cons *c, uint64_t key, struct ch_stats *ret);

/* Test streams: a memfd ring buffer and the events written into it. */

/** ch_tstream_init() - a ring buffer as @a says, its events tagged @tag; 0 or -1 */
int ch_tstream_init(struct ch_tstream *ts, const struct ch_ts_args *a, uint32_t tag);
/** ch_tstream_fini() - unmap and close what ch_tstream_init() made */
void ch_tstream_fini(struct ch_tstream *ts);
/** ch_event_len() - the length of event @id (EV_MIN and more) */
size_t ch_event_len(uint64_t id);
/** ch_fill_event() - fill an event: header words, then bytes derived from its id */
void ch_fill_event(uint8_t *p, size_t len, uint32_t tag, uint64_t id);
/** ch_put_event() - write the stream's next event; 0 or the reserve error */
int ch_put_event(struct ch_tstream *ts);
/** ch_put_events() - write @n events; how many were dropped */
unsigned int ch_put_events(struct ch_tstream *ts, unsigned int n);

/* Files. */

/** ch_slurp() - read a whole file into a new buffer; its length, or -1 */
ssize_t ch_slurp(const char *path, uint8_t **ret_buf);
bool ch_exists(const char *path);
/** ch_file_size() - the size of @path, or -1 */
off_t ch_file_size(const char *path);
/**
 * ch_wait_until() - poll @done(@arg) every 5 ms until it holds, at most
 * @ms; what it says at the end
 */
bool ch_wait_until(bool (*done)(void *arg), void *arg, int ms);

/** ch_wait_size() - poll a file until it holds @min bytes, at most @ms */
bool ch_wait_size(const char *path, off_t min, int ms);
/** ch_get64() - a host-order u64 at @p */
uint64_t ch_get64(const uint8_t *p);
/** ch_pathf() - format a path into @buf of PATH_MAX bytes; too long ends the test */
const char *ch_pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** ch_path_of() - DIR/NAME into @buf (PATH_MAX bytes) */
const char *ch_path_of(char *buf, const char *dir, const char *name);
/** ch_rm_entry() - nftw() callback removing each entry */
int ch_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw);

/* What the consumer wrote, checked packet by packet and event by event. */

/** ch_expect_init() - expect @ts's events in stream @stream_id on @cpu; ch_expect_fini() it */
void ch_expect_init(struct ch_expect *e, const char *what, uint32_t stream_id,
		    const struct ch_tstream *ts, uint32_t cpu);
/** ch_check_file() - a stream file and its index; the number of packets, or -1 */
long ch_check_file(struct ch_expect *e, const char *data_path, const char *idx_path);
/** ch_check_all_seen() - every event written found exactly once (at most once if @lossy) */
void ch_check_all_seen(struct ch_expect *e, bool lossy);
void ch_expect_fini(struct ch_expect *e);
/** ch_verify_stream() - check DIR/NAME_CPU (no rotation) and its index, reported */
void ch_verify_stream(const char *dir, const char *name, uint32_t stream_id,
		      const struct ch_tstream *ts, uint32_t cpu, bool gaps, long want_packets);
/** ch_check_metadata() - the metadata file: packets whose text is exactly @text */
void ch_check_metadata(const char *path, const char *text, size_t len);

/**
 * ch_setup() - the programs' paths from LTT_TOP_BUILDDIR, a temporary
 * directory (ch_tmpdir), SIGPIPE ignored, alarm(300); 0, or -1 (bailed out)
 */
int ch_setup(void);

#endif /* LTT_TESTS_CONSUMERD_HARNESS_H */
