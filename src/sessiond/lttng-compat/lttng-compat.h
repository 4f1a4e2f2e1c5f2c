/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lttng-compat.h - LTTng 2.13's and 2.16's client protocols on ltt's commands
 * (ltt-sessiond --lttng-compat, doc/lttng-compat.md).  A request in
 * LTTng's layout (common/proto/lttng-client-proto.h) is decoded into the
 * requests ltt's own client protocol carries, run through the same
 * command table (cmd.h: ltt_cmd_dispatch()), and their replies are
 * encoded in LTTng's layout: no second command layer, the same sessions
 * for `lttng` and `lttctl`.  The client thread (client.c) frames the
 * requests on LTTng's socket and runs them on its workers.
 *
 *   lttng-compat.[ch]    the table of LTTng's commands, errors, sessions
 *   lttng-compat-chan.c  domains, channels, event rules, contexts
 *   lttng-compat-list.c  lists: domains, channels, event rules, tracepoints
 *   lttng-compat-view.c  rotation schedules, process attribute trackers
 *   lttng-compat-chunk.c snapshots, rotations, clear, regenerate
 *   lttng-compat-trigger.c triggers and error queries
 *   lttng-compat-notif.c the notification channel (sessiond-notification)
 *   lttng-compat-call.c  what they all call: ltt's commands, LTTng's codes,
 *                        refusals, the session's tree and rotation state
 *   lttng-compat-216.c   LTTng 2.16's clients: what is served them, and
 *                        the commands 2.16 added
 *   lttng-compat-map.c   LTTng 2.16's map channels, as ltt's
 *   lttng-compat-peer.c  which generation a client speaks (its liblttng-ctl)
 */
#ifndef LTT_SESSIOND_LTTNG_COMPAT_H
#define LTT_SESSIOND_LTTNG_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt-error.h>

#include "common/base/codec.h"
#include "common/proto/lttng-client-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/lust/lust.h"

/**
 * ltt_lttng_compat_extra() - the bytes that follow the fixed request at
 * @msg (LTT_LTTNG_MSG_SIZE bytes, borrowed) of a client of generation
 * @gen: its variable part; 0 for a malformed request, or one ltt does not
 * serve, which ltt_lttng_compat_run() answers.  Any thread.
 */
size_t ltt_lttng_compat_extra(const uint8_t *msg, enum ltt_lttng_gen gen);

/*
 * The descriptors one reply passes at most (the binaries of LIST_EVENTS'
 * and LIST_TRIGGERS' user-space probes): LTTng's on Linux
 * (LTTCOMM_MAX_SEND_FDS, the kernel's SCM_MAX_FD), which its client
 * takes in one message; a probe past them is not listed (logged).
 */
#define LTT_LTTNG_REPLY_FDS 253

/* The descriptors a reply passes after its bytes (SCM_RIGHTS), in order. */
struct ltt_lttng_fds {
	int fd[LTT_LTTNG_REPLY_FDS];
	unsigned int nr;
	bool stopped;	/* one could not be passed: no later one can (taken in order) */
};

struct ltt_lttng_call;

/**
 * ltt_lttng_fds_close() - close @fds' descriptors; none left
 */
void ltt_lttng_fds_close(struct ltt_lttng_fds *fds);

/**
 * ltt_lttng_compat_run() - run one LTTng request, @len bytes at @msg
 * (borrowed): its fixed part and its variable part; append LTTng's whole
 * reply (header, command header, payload) to @reply, and the
 * descriptors it passes (its header's fd_count) to @fds (the caller's
 * then: sent after the reply's bytes, on one more byte, then closed)
 *
 * What ltt does not serve, and what is malformed, is answered with an
 * LTTng error (and said in the daemon's log, with what to use instead);
 * nothing is changed then.  The client thread or its worker, as a
 * command.  Returns LTT_ERR_OK, or NOMEM when the reply could not be
 * written.
 */
enum ltt_error_code ltt_lttng_compat_run(const struct ltt_cmd_ctx *ctx, const uint8_t *msg,
					 size_t len, struct ltt_wbuf *reply, struct ltt_lttng_fds *fds);

/**
 * ltt_lttng_compat_error() - append an LTTng reply that says ltt's @err
 * (the daemon's own failure: no memory, too many bytes) to the request
 * whose fixed part is at @msg (NULL: unknown), in @gen's layout
 */
void ltt_lttng_compat_error(const uint8_t *msg, enum ltt_lttng_gen gen, enum ltt_error_code err,
			    struct ltt_wbuf *reply);

/**
 * ltt_lttng_compat_socket() - the path of LTTng's client socket in
 * ltt_lttng_rundir() (lttng-health.h); 0 or its negative errno
 */
int ltt_lttng_compat_socket(char *buf, size_t len);

struct group;

/**
 * ltt_lttng_compat_listen() - listen on LTTng's client socket
 * (ltt_lttng_rundir()'s client-lttng-sessiond), its notification
 * channel's (sessiond-notification beside it), its health socket
 * (sessiond-health) and LTTng-UST's application sockets, made as LTTng
 * makes them: root's root:@gr 0660 (0600 without the group), a user's
 * 0600; and write lttng-sessiond.pid beside them
 * @path: receives the client socket's path (@len bytes; "" on failure)
 * @ret_fd: the listening client socket
 * @ret_notif_fd: the listening notification channel socket
 * @ret_health_fd: the listening health socket
 * @ret_lust_fds: the listening LTTng-UST application sockets (lust.h's
 *                LTT_LUST_SOCKET_NAMES), mode 0666 for root's daemon:
 *                every user's programs register
 * (each -1 on entry, and again on failure)
 *
 * All of them, or none, then the pid file beside them.  Never replaces
 * a socket a live daemon answers on.  Main thread, before root's rights
 * are given up.  Returns 0, -EADDRINUSE when one answers there, or a
 * negative errno; each logged in one sentence.
 */
int ltt_lttng_compat_listen(bool root, const struct group *gr, char *path, size_t len,
			    int *ret_fd, int *ret_notif_fd, int *ret_health_fd,
			    int ret_lust_fds[LTT_LUST_SOCKETS]);

/**
 * ltt_lttng_compat_clean() - remove LTTng's client socket at @path ("" or
 * NULL: none), the notification channel's, the health socket's and
 * LTTng-UST's application sockets beside it, and the pid file,
 * while the pid file names @owner: the daemon itself at its stop, the
 * privileged part after its dropped daemon's (a socket another daemon
 * took since is left alone).  A file that is not a socket is left too.
 */
void ltt_lttng_compat_clean(const char *path, pid_t owner);

/* lttng-compat-peer.c: which generation of LTTng's protocols a client speaks */

/**
 * ltt_lttng_peer_gen() - the generation of LTTng's client protocol that
 * the client on connection @client_fd (process @pid) speaks, told by the
 * liblttng-ctl it runs (lttng-compat-peer.c): 2.13 for a client without
 * one, LTT_LTTNG_GEN_UNKNOWN where the daemon could not look.  Any
 * thread; reads /proc, and a library once.
 */
enum ltt_lttng_gen ltt_lttng_peer_gen(int client_fd, pid_t pid);

/**
 * ltt_lttng_peer_gen_here() - as ltt_lttng_peer_gen(), for process @pid,
 * read by this process whatever its rights (the privileged part's
 * LTTNG_GEN)
 */
enum ltt_lttng_gen ltt_lttng_peer_gen_here(pid_t pid);

/* lttng-compat-chan.c: what the table of lttng-compat.c runs there */

/* One LTTng request being served. */
struct ltt_lttng_call {
	const struct ltt_cmd_ctx *ctx;
	enum ltt_lttng_gen gen;	/* the client's: its numbers, its layouts */
	struct ltt_lttng_req req;
	struct ltt_rbuf extra;	/* its variable part */
	struct ltt_wbuf hdr;	/* the reply's command header */
	struct ltt_wbuf data;	/* the reply's payload */
	struct ltt_lttng_fds fds;	/* the descriptors it passes */
};

/* A handler: an LTTng return code (LTT_LTTNG_OK or an error). */
typedef uint32_t (*ltt_lttng_fn)(struct ltt_lttng_call *call);

uint32_t ltt_lttng_enable_channel(struct ltt_lttng_call *call);
uint32_t ltt_lttng_enable_event(struct ltt_lttng_call *call);
uint32_t ltt_lttng_add_context(struct ltt_lttng_call *call);
uint32_t ltt_lttng_disable_channel(struct ltt_lttng_call *call);
uint32_t ltt_lttng_disable_event(struct ltt_lttng_call *call);

/* Is @call's domain an agent's (-j, -l, -p)? */
bool ltt_lttng_agent_domain(const struct ltt_lttng_call *call);

/*
 * The domains ltt serves to LTTng's clients: the kernel and user space,
 * and (@agents) the agents'.  LTT_LTTNG_OK, or the code that refuses @call.
 */
uint32_t ltt_lttng_check_domain(const struct ltt_lttng_call *call, bool agents);

/* lttng-compat-216.c: is 2.13's @cmd served to 2.16's clients (in 2.16's layouts)? */
bool ltt_lttng_served_216(uint32_t cmd);

/* lttng-compat-216.c: a command 2.16 added (@call's wire_cmd), served or refused */
uint32_t ltt_lttng_new_216(struct ltt_lttng_call *call);

/* lttng-compat-map.c: a command of 2.16's map channels (@call's wire_cmd) */
uint32_t ltt_lttng_map_216(struct ltt_lttng_call *call);

/* lttng-compat-list.c: the lists the table of lttng-compat.c runs there */
uint32_t ltt_lttng_list_domains(struct ltt_lttng_call *call);
uint32_t ltt_lttng_list_channels(struct ltt_lttng_call *call);
uint32_t ltt_lttng_list_events(struct ltt_lttng_call *call);
uint32_t ltt_lttng_list_tracepoints(struct ltt_lttng_call *call);
uint32_t ltt_lttng_list_tracepoint_fields(struct ltt_lttng_call *call);
uint32_t ltt_lttng_list_syscalls(struct ltt_lttng_call *call);

/**
 * ltt_lttng_probe_fd() - the binary of user-space probe location
 * @location ("elf:PATH:FUNCTION", "sdt:PATH:PROVIDER:NAME"), opened
 * read-only into @call's descriptors, which LTTng's client takes with
 * the location: with the rights of session @session's owner (once the
 * daemon gave root's up, by the privileged part, which opens only a
 * regular ELF file of an admitted session), or for a trigger's (@session
 * 0) the client's (CLIENT_PROBE_FILE); else here with the client's
 * (as-user.h), who lists only its own sessions and triggers, or is root.
 * True, or false (none: no room, a file it may not read): the client
 * gets no descriptor of a file it could not open.
 */
bool ltt_lttng_probe_fd(struct ltt_lttng_call *call, uint64_t session, const char *location);

/* lttng-compat-view.c: likewise */

uint32_t ltt_lttng_list_rotation_schedules(struct ltt_lttng_call *call);
uint32_t ltt_lttng_tracker_policy(struct ltt_lttng_call *call);
/*
 * Does @domain (kernel, user space) of @call's session track processes,
 * one of its trackers other than "all"?  LTTng lists a domain a tracker
 * command named (LIST_DOMAINS), channels or not.
 */
bool ltt_lttng_domain_tracks(struct ltt_lttng_call *call, uint32_t domain);
uint32_t ltt_lttng_tracker_values(struct ltt_lttng_call *call);
uint32_t ltt_lttng_tracker_set_policy(struct ltt_lttng_call *call);
uint32_t ltt_lttng_tracker_add(struct ltt_lttng_call *call);
uint32_t ltt_lttng_tracker_remove(struct ltt_lttng_call *call);

/* lttng-compat-chunk.c: likewise */

uint32_t ltt_lttng_snapshot_add_output(struct ltt_lttng_call *call);
uint32_t ltt_lttng_snapshot_del_output(struct ltt_lttng_call *call);
uint32_t ltt_lttng_snapshot_list_output(struct ltt_lttng_call *call);
uint32_t ltt_lttng_snapshot_record(struct ltt_lttng_call *call);
uint32_t ltt_lttng_rotate_session(struct ltt_lttng_call *call);
uint32_t ltt_lttng_rotation_get_info(struct ltt_lttng_call *call);
uint32_t ltt_lttng_rotation_set_schedule(struct ltt_lttng_call *call);
uint32_t ltt_lttng_clear_session(struct ltt_lttng_call *call);
uint32_t ltt_lttng_regenerate_metadata(struct ltt_lttng_call *call);
uint32_t ltt_lttng_regenerate_statedump(struct ltt_lttng_call *call);

/* lttng-compat-trigger.c: REGISTER_TRIGGER, UNREGISTER_TRIGGER, LIST_TRIGGERS, EXECUTE_ERROR_QUERY */

uint32_t ltt_lttng_trigger_cmd(struct ltt_lttng_call *call);

/* lttng-compat-notif.c: the notification channel (client.c, client-notify.c) */

struct ltt_lttng_subs;
struct ltt_firing;
struct ucred;

/**
 * ltt_lttng_notif_extra() - the payload's bytes of the notification
 * channel message whose header (LTT_LTTNG_NOTIF_HDR_SIZE bytes) is at
 * @hdr; 0 for one LTTng's daemon refuses (a bad type or size, descriptors)
 */
size_t ltt_lttng_notif_extra(const uint8_t *hdr);

/**
 * ltt_lttng_notif_request() - a whole message (@len bytes at @msg) of
 * the client of @cred, of generation @gen (ltt_lttng_peer_gen(): the
 * layout of its conditions): the handshake (*@handshaken set), a
 * subscription to a condition or its end (into *@subs, allocated at the
 * first); the replies appended to @out.  Client thread.
 *
 * Returns 0, 1 (close once @out is written: another major version), or
 * -1 (close now: malformed, or a command before the handshake).
 */
int ltt_lttng_notif_request(struct ltt_lttng_subs **subs, const struct ucred *cred,
			    enum ltt_lttng_gen gen, bool *handshaken, const uint8_t *msg, size_t len,
			    struct ltt_wbuf *out);

/**
 * ltt_lttng_notif_message() - append @f's notification to @out as LTTng
 * sends it (after a NOTIFICATION_DROPPED message when @dropped: some
 * were missed since the last), if @subs holds its trigger's condition;
 * returns whether it did.  Client thread.
 */
bool ltt_lttng_notif_message(const struct ltt_lttng_subs *subs, const struct ltt_firing *f,
			     bool dropped, struct ltt_wbuf *out);

/** ltt_lttng_notif_free() - a connection's conditions; accepts NULL */
void ltt_lttng_notif_free(struct ltt_lttng_subs *subs);
/* lttng-compat-call.c: what every handler above calls */

/**
 * ltt_lttng_ltt() - run ltt's command @cmd with the request @req (a
 * failed encoding is NOMEM); its reply payload into @reply (may be NULL)
 * Returns ltt's code.
 */
enum ltt_error_code ltt_lttng_ltt(struct ltt_lttng_call *call, unsigned int cmd,
				  const struct ltt_wbuf *req, struct ltt_wbuf *reply);

/**
 * ltt_lttng_code() - LTTng's code for ltt's @err in @call's command;
 * one with no close match is logged with ltt's sentence
 */
uint32_t ltt_lttng_code(const struct ltt_lttng_call *call, enum ltt_error_code err);

/**
 * ltt_lttng_refuse() - log that ltt does not serve @what of @call's
 * command (rate-limited, with @instead: what to use) and return
 * LTT_LTTNG_ERR_NOT_SUPPORTED
 */
uint32_t ltt_lttng_refuse(const struct ltt_lttng_call *call, const char *what,
			  const char *instead);

/**
 * ltt_lttng_session_tree() - GET_SESSION of @call's session into @reply:
 * on LTT_LTTNG_OK, @r reads it from its channel count on, and the
 * session's description is in @ret_info (NULL: not wanted)
 */
uint32_t ltt_lttng_session_tree(struct ltt_lttng_call *call, struct ltt_wbuf *reply,
				struct ltt_rbuf *r, struct ltt_session_desc *ret_info);

/**
 * ltt_lttng_session_cmd() - run ltt's command @cmd whose request is
 * @call's session name, then @extra in @extra_bytes bytes (1 or 4; 0:
 * none); its reply payload into @reply (may be NULL).  Returns ltt's code.
 */
enum ltt_error_code ltt_lttng_session_cmd(struct ltt_lttng_call *call, unsigned int cmd,
					  uint32_t extra, unsigned int extra_bytes,
					  struct ltt_wbuf *reply);

/**
 * ltt_lttng_rotation_info() - ROTATION_INFO of @call's session: its
 * rotation schedule and chunks into @rot.  Returns ltt's code.
 */
enum ltt_error_code ltt_lttng_rotation_info(struct ltt_lttng_call *call,
					    struct ltt_rotation_desc *rot);

#endif /* LTT_SESSIOND_LTTNG_COMPAT_H */
