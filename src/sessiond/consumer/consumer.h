/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * consumer.h - the session daemon's side of ltt-consumerd: spawning it
 * (consumer-proc.c) and calling its commands (common/proto/consumer-proto.h; the
 * trace commands in consumer-trace.c, the relay ones in consumer-relay.c).
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   relay.[ch]     a session's relay: the create-time check, each consumer's link
 *   supervisor.[ch] a domain's consumer daemon, spawned and replaced
 *   consumer.h     the link's API: every command of consumer-trace.c, -relay.c
 *   consumer-proc.c an ltt-consumerd: spawned, its handshake, reaped
 *   consumer-call.[ch] the one call every command makes: deadlines, owed and
 *                  late replies, stalled, lost and killed (.h: the consumer object)
 *   consumer-trace.c its trace commands: traces, channels, streams, metadata,
 *                  rotations, statistics, snapshots
 *   consumer-relay.c its relay output commands
 *
 * Each command is one call (consumer-call.c): it sends the command and
 * waits for its reply under the consumer's own lock, a leaf lock: callers
 * may hold session and UST locks, since the consumer never waits on the
 * session daemon.
 */
#ifndef LTT_SESSIOND_CONSUMER_H
#define LTT_SESSIOND_CONSUMER_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uuid/uuid.h>

#include "common/proto/consumer-proto.h"

struct ltt_consumer;

/* A consumer that does not answer (ltt_consumer_stall()). */
struct ltt_consumer_stall {
	bool stalled;		/* it owes a reply, or a call waited over after_ms */
	int64_t since;		/* then: since when, seconds since the Epoch */
	uint16_t type;		/* the command it has not answered (the oldest owed) */
};

/*
 * Is @err a failure of the call itself (the consumer stalled: -ETIMEDOUT;
 * gone or broken: -EPIPE, -ECONNRESET, -EPROTO) rather than its answer?
 */
static inline bool ltt_consumer_call_failed(int err)
{
	return err == -ETIMEDOUT || err == -EPIPE || err == -ECONNRESET || err == -EPROTO;
}

/*
 * How the session daemon starts each of its consumers: what its options
 * say, the same for every domain and owner.  Each supervisor keeps a copy.
 */
/* How long a user-space owner's consumer is kept with no session, by default. */
#define LTT_CONSUMER_IDLE_MS 10000
/*
 * How long a consumer may take to answer a command of bookkeeping (adding
 * or removing a trace, a channel, a stream), by default: --consumerd-reply-ms.
 */
#define LTT_CONSUMER_REPLY_MS 5000

/* Which of LTTng's consumer health sockets a consumer answers on (lttng-health.h). */
enum ltt_consumer_lttng_health {
	LTT_CONSUMER_LTTNG_HEALTH_NONE,
	LTT_CONSUMER_LTTNG_HEALTH_UST64,	/* ustconsumerd64/health: root's or a user's own */
	LTT_CONSUMER_LTTNG_HEALTH_KERNEL,	/* kconsumerd/health */
};

struct ltt_consumer_config {
	const char *path;		/* the program, NULL: ltt_consumer_path()'s (borrowed) */
	int verbose;			/* how many -v it gets (at most 3 are passed) */
	unsigned int data_threads;	/* --data-threads, 0: none passed (its environment decides) */
	unsigned int idle_ms;		/* a user-space owner's, kept this long with no session */
	unsigned int reply_ms;		/* a bookkeeping command's answer, 0: LTT_CONSUMER_REPLY_MS */
	/*
	 * its argv[0]: NULL for "ltt-consumerd"; "lttng-consumerd" for a
	 * daemon run as lttng-sessiond, whose consumers LTTng's tools find
	 * by that name (static)
	 */
	const char *argv0;
	/*
	 * --lttng-compat: LTTng's run directory (ltt_lttng_rundir(), static),
	 * else NULL; a consumer of ours (no --uid) then answers on the health
	 * socket of its kind there (--lttng-health), root's with @lttng_gid's
	 * group ((gid_t)-1: none)
	 */
	const char *lttng_dir;
	gid_t lttng_gid;
	enum ltt_consumer_lttng_health lttng_health;
};

/* consumer-proc.c: an ltt-consumerd: spawned, its handshake, reaped */

/**
 * ltt_consumer_path() - the consumer program: @configured if not NULL,
 * else $LTT_CONSUMERD_PATH, else the installed one (borrowed string)
 */
const char *ltt_consumer_path(const char *configured);

/**
 * ltt_consumer_fork() - start an ltt-consumerd whose command socket is
 * @cmd_fd (its fd 3 there; nothing else of ours but stdio): @cfg, @uid,
 * @gid as ltt_consumer_spawn() takes them; our child, or with @sibling
 * our parent's (the privileged part spawns it for the daemon)
 * @ret_pidfd: a pidfd of it
 *
 * Returns the child's pid, or a negative errno.
 */
pid_t ltt_consumer_fork(const struct ltt_consumer_config *cfg, uid_t uid, gid_t gid, int cmd_fd,
			bool sibling, int *ret_pidfd);

/**
 * ltt_consumer_spawn() - start an ltt-consumerd connected to us, by
 * the privileged part where the daemon has one (priv.h: CONSUMER_SPAWN)
 * @cfg: the program (ltt_consumer_path() of cfg->path) and its options
 *       (borrowed for the call)
 * @uid: the user it becomes once started (--uid, --gid: a root daemon's
 *       consumer serving one user), or (uid_t)-1 to keep ours
 * @gid: its group, with @uid
 * @ret_consumer: to release with ltt_consumer_destroy()
 *
 * Returns 0 or a negative errno.
 */
int ltt_consumer_spawn(const struct ltt_consumer_config *cfg, uid_t uid, gid_t gid,
		       struct ltt_consumer **ret_consumer);

/**
 * ltt_consumer_destroy() - close the command socket (the consumer then
 * writes what it holds and exits) and reap the process, waiting at most
 * @timeout_ms before killing it; accepts NULL.  One that still holds
 * events unwritten (ltt_consumer_unwritten_add()) is not killed: it is
 * left running, stalled, to write them once it runs again, and reaped by
 * a thread of its own (said, with the count).
 */
void ltt_consumer_destroy(struct ltt_consumer *consumer, int timeout_ms);

/**
 * ltt_consumer_unwritten_add() - a trace was ended while @consumer, stalled,
 * still held @events of it unwritten: they are its to write, and lost if
 * it is killed.  Any thread.
 */
void ltt_consumer_unwritten_add(struct ltt_consumer *consumer, uint64_t events);

/**
 * ltt_consumer_pidfd() - a pidfd of the consumer's process, readable once
 * it exits (borrowed: valid until ltt_consumer_destroy()), or -1
 */
int ltt_consumer_pidfd(const struct ltt_consumer *consumer);

/**
 * ltt_consumer_minor() - the protocol minor agreed at HELLO
 */
uint32_t ltt_consumer_minor(const struct ltt_consumer *consumer);

/* consumer-call.c: the one call every command makes: deadlines, owed and late replies */

/**
 * ltt_consumer_alive() - false once the consumer was found dead: its
 * socket closed, a message could not be read, or ltt_consumer_lost()
 */
bool ltt_consumer_alive(struct ltt_consumer *consumer);

/**
 * ltt_consumer_lost() - the consumer's process exited: reap it and fail
 * every later call with -EPIPE.  Takes the consumer's lock.  Returns
 * whether it was stopped on purpose (exit status 0: SIGTERM), found here
 * or by the call that found it dead first.
 */
bool ltt_consumer_lost(struct ltt_consumer *consumer);

/**
 * ltt_consumer_stalled() - does the consumer look stalled: it owes the
 * reply to a command that timed out, or the call under way has waited more
 * than @after_ms?  Any thread, no lock (a hint: it may change at once).
 */
bool ltt_consumer_stalled(struct ltt_consumer *consumer, int after_ms);

/**
 * ltt_consumer_stall() - ltt_consumer_stalled(), with since when and which
 * command (a dead consumer is not stalled).  Any thread, no lock, never
 * waits (a hint: it may change at once).
 */
void ltt_consumer_stall(struct ltt_consumer *consumer, int after_ms,
			struct ltt_consumer_stall *ret);

/**
 * ltt_consumer_owes() - does the consumer still owe the reply to a command
 * that timed out (a late ROTATE_TRACE, FLUSH_CHANNEL: it may still act
 * on it)?  Reads the late replies that came first.  Takes the consumer's
 * lock unless another call holds it: then true when that call has waited
 * over a second (ltt_consumer_stalled()).
 */
bool ltt_consumer_owes(struct ltt_consumer *consumer);

/* consumer-trace.c: its trace commands: traces, channels, streams, metadata, rotations */

/*
 * The commands.  Each returns 0, the consumer's negative errno, -EPIPE
 * when the consumer is gone, or -ETIMEDOUT when it did not answer in
 * time (it is slow, not dead: it is left running, and the command may
 * still be carried out later).  fds are borrowed.
 */
/*
 * @relay_key 0: a local trace in @dir; else @dir is relative to that relay's session (1.2).
 * @resume: continue the files a dead consumer wrote in @dir (1.4, local only).
 */
int ltt_consumer_add_trace(struct ltt_consumer *c, uint64_t key, const char *dir,
			   const uuid_t uuid, uid_t uid, gid_t gid, uint64_t relay_key,
			   bool resume);

int ltt_consumer_metadata(struct ltt_consumer *c, uint64_t trace_key, const void *text,
			  size_t len);

/*
 * ltt_consumer_metadata_try() - METADATA, its reply waited for @timeout_ms,
 * but -EAGAIN when nothing of it was sent (the consumer still owes a
 * reply, or its socket had no room): the caller sends it again later,
 * before any text after it.  -ETIMEDOUT still means sent and not answered
 * in time: the consumer writes it, in order, once it runs.
 */
int ltt_consumer_metadata_try(struct ltt_consumer *c, uint64_t trace_key, const void *text,
			      size_t len, int timeout_ms);

/*
 * ltt_consumer_metadata_all() - the whole of @text (a trace's metadata
 * kept whole, sent again to a consumer taking the trace over), in as many
 * METADATA messages as the protocol needs.  Returns 0, @text's error, or
 * the first message's failure (the rest then not sent).
 */
int ltt_consumer_metadata_all(struct ltt_consumer *c, uint64_t trace_key,
			      const struct ltt_wbuf *text);

/* ADD_CHANNEL: @chan as the protocol's codec puts it (a zeroed domain block: user space). */
int ltt_consumer_add_channel(struct ltt_consumer *c, const struct ltt_consumer_add_channel *chan);

/*
 * ROTATE_TRACE (consumer-proto.h): the trace moves to @dir, or with @clear
 * drops what it holds and stays where it is (@dir ""); RESET_METADATA
 * empties its metadata (the caller sends the text again).  -EOPNOTSUPP
 * from a consumer older than 1.6 (LTT_CONSUMER_MINOR_ROTATE).  A move
 * sent whole but not answered in time gives -EINPROGRESS: the consumer
 * carries it out (or fails it) before any later command, once it runs
 * again; until a later call succeeds the trace may write in either place.
 */
int ltt_consumer_rotate_trace(struct ltt_consumer *c, uint64_t trace_key, const char *dir,
			      bool clear);

/*
 * RESET_METADATA: -EAGAIN when nothing of it was sent (the metadata is
 * not emptied), -ETIMEDOUT when sent and not answered (it is emptied once
 * the consumer runs: what follows it must be sent after it).
 */
int ltt_consumer_reset_metadata(struct ltt_consumer *c, uint64_t trace_key);

int ltt_consumer_add_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
			    int shm_fd, int wakeup_fd);

/* ADD_STREAM with the channel's statistics page (1.4; -EOPNOTSUPP before). */
int ltt_consumer_add_stream_stats(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				  int shm_fd, int wakeup_fd, int stats_fd);

/*
 * A kernel channel's stream (ltt-abi.h's LTT_KABI_STREAM fd); consumer
 * 1.1.  With the channel's statistics page when @stats_fd is not -1
 * (ADD_KERNEL_STREAM_STATS: consumer 1.14, the caller checks).
 */
int ltt_consumer_add_kernel_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				   int stream_fd, int stats_fd);

/*
 * A tracefs channel's stream: the CPU's trace_pipe_raw and the channel's
 * event map (common/ftrace/ftrace-map.h); consumer 1.9.  @stats_fd as above
 * (ADD_FTRACE_STREAM_STATS).
 */
/*
 * The BPF ring of a tracefs channel's CPU and the channel's lost counts
 * (doc/kernel-bpf.md), sent right before that CPU's ADD_FTRACE_STREAM;
 * consumer 1.18 (the caller checks).
 */
int ltt_consumer_add_bpf_ring(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
			      int ring_fd, int lost_fd);

int ltt_consumer_add_ftrace_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				   int pipe_fd, int map_fd, int stats_fd);

int ltt_consumer_flush_channel(struct ltt_consumer *c, uint64_t channel_key, bool final);

/*
 * FLUSH_CHANNEL of a channel whose buffers hold @buffer_bytes in all: its
 * deadline is 5 s plus the time to write them at 8 MiB/s (instead of 30 s).
 */
int ltt_consumer_flush_channel_sized(struct ltt_consumer *c, uint64_t channel_key, bool final,
				     uint64_t buffer_bytes);

/*
 * A session's stop: FLUSH_CHANNEL (not final) with the stopped flag when
 * the consumer speaks 1.11, so the channel's timers slow down until its
 * writers write again; @buffer_bytes as above, 0: the usual deadline.
 */
int ltt_consumer_flush_stopped(struct ltt_consumer *c, uint64_t channel_key,
			       uint64_t buffer_bytes);

int ltt_consumer_channel_stats(struct ltt_consumer *c, uint64_t channel_key,
			       uint64_t *ret_events_lost, uint64_t *ret_packets_lost);

/*
 * RECLAIM_CHANNEL (consumer 1.15): the consumer gives back the pages of
 * the channel's sub-buffers it consumed, closed @older_than_ns ago at
 * least (0: all); *@ret_subbufs: how many.  0,
 * -EOPNOTSUPP (an older consumer, an overwrite-mode channel) or the
 * call's error.
 */
int ltt_consumer_reclaim_channel(struct ltt_consumer *c, uint64_t channel_key,
				 uint64_t older_than_ns, uint64_t *ret_subbufs);

/*
 * CHANNEL_STATS whole: the counters and (consumer 1.5) the output's
 * failure; an older consumer leaves the failure 0.
 */
int ltt_consumer_channel_status(struct ltt_consumer *c, uint64_t channel_key,
				struct ltt_consumer_channel_stats *ret);

/*
 * CHANNEL_STATS for a caller that must not wait (list): -EBUSY when
 * another call holds the consumer, -ETIMEDOUT at once when it still owes
 * late replies (stalled) or when it does not answer within @timeout_ms.
 */
int ltt_consumer_channel_status_now(struct ltt_consumer *c, uint64_t channel_key,
				    int timeout_ms, struct ltt_consumer_channel_stats *ret);

/*
 * PROBE_OUTPUT (consumer 1.5; -EOPNOTSUPP before): can @uid:@gid write a
 * trace under @dir?  Creates it; returns 0 or the consumer's -errno.
 */
int ltt_consumer_probe_output(struct ltt_consumer *c, const char *dir, uid_t uid, gid_t gid);

int ltt_consumer_destroy_channel(struct ltt_consumer *c, uint64_t channel_key);

/*
 * ADD_SNAPSHOT_TRACE and SNAPSHOT_TRACE (1.6; -EOPNOTSUPP before): a
 * snapshot session's trace, and one snapshot of it in @dir; the reply's
 * wait grows with @buffer_bytes, what its buffers hold.
 */
int ltt_consumer_add_snapshot_trace(struct ltt_consumer *c, uint64_t key, const uuid_t uuid,
				    uid_t uid, gid_t gid);

int ltt_consumer_snapshot_trace(struct ltt_consumer *c, uint64_t trace_key, const char *dir,
				uint64_t max_packets, uint64_t buffer_bytes,
				struct ltt_consumer_snapshot_reply *ret);

/*
 * SNAPSHOT_TRACE_RELAY (1.8): the same snapshot sent to relay @relay_key
 * (ADD_RELAY) as trace @path of its relay session; -EOPNOTSUPP from an
 * older consumer.
 */
int ltt_consumer_snapshot_trace_relay(struct ltt_consumer *c, uint64_t trace_key,
				      uint64_t relay_key, const char *path, uint64_t max_packets,
				      uint64_t buffer_bytes, struct ltt_consumer_snapshot_reply *ret);

/*
 * STREAMS_SENT (1.3): every ADD_STREAM of the channel was sent (a relayed
 * channel then announces its streams together).  Returns 0 at once for an
 * older consumer, which announces each stream on its own.
 */
int ltt_consumer_streams_sent(struct ltt_consumer *c, uint64_t channel_key);

int ltt_consumer_destroy_trace(struct ltt_consumer *c, uint64_t trace_key);

/* consumer-relay.c: its relay output commands */

/*
 * Relay output (consumer 1.2; an older consumer gets -EOPNOTSUPP here).
 * ADD_RELAY connects, which takes up to the consumer's 5 s deadline; its
 * reply's output path is copied to @output_path (truncated to @len).
 * RELAY_DATA_PENDING and RELAY_STATUS answer at once; -ECONNRESET when
 * the relay connection is gone.
 */
int ltt_consumer_add_relay(struct ltt_consumer *c, const struct ltt_consumer_add_relay *m,
			   char *output_path, size_t len);

int ltt_consumer_relay_data_pending(struct ltt_consumer *c, uint64_t relay_key,
				    bool *ret_pending);

/*
 * RELAY_ARCHIVE and RELAY_ARCHIVE_RESULT (1.8; -EOPNOTSUPP before): have
 * the relay archive a closed chunk's directory, and how that went
 * (-EINPROGRESS while under way); consumer-proto.h.
 */
int ltt_consumer_relay_archive(struct ltt_consumer *c, uint64_t relay_key, const char *from,
			       const char *to);

int ltt_consumer_relay_archive_result(struct ltt_consumer *c, uint64_t relay_key);
int ltt_consumer_relay_status(struct ltt_consumer *c, uint64_t relay_key,
			      struct ltt_consumer_relay_status_reply *ret_status);
int ltt_consumer_del_relay(struct ltt_consumer *c, uint64_t relay_key);

#endif /* LTT_SESSIOND_CONSUMER_H */
