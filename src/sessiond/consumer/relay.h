/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * relay.h - a session's relay daemon, as the session daemon sees it.
 *
 * The session daemon never streams: its consumers do (ADD_RELAY, then
 * ADD_TRACE with the relay's key: common/proto/consumer-proto.h).  What it does
 * itself is check, when a session is created, that the relay answers: it
 * connects to the control port, does the VERSION handshake of
 * common/proto/relay-proto.h, and closes.  It also derives, from the session's
 * net URL, what every consumer's ADD_RELAY says: the two ports as tcp
 * URLs, the base path, the traced host's name.
 *
 * Each domain keeps one struct ltt_relay_link per session and consumer:
 * attached once (ADD_RELAY) before the domain's first trace, asked for
 * data pending and status, detached (DEL_RELAY) after its traces.
 */
#ifndef LTT_SESSIOND_RELAY_H
#define LTT_SESSIOND_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

#include "common/model/uri.h"
#include "sessiond/consumer/consumer.h"
#include "sessiond/model/session.h"

/* How long the create-time check may take: connecting, then the answer. */
#define LTT_RELAY_CHECK_TIMEOUT_MS 5000

/**
 * ltt_relay_check() - does a relay daemon answer at @uri's control port?
 * @uri: a net URL; a tls:// one is reached in TLS 1.3 with @session's files
 * @session: whose TLS files go (a constant of the session's), read with
 *           its owner's rights (as-user.h)
 * @timeout_ms: for the whole check (name resolution aside)
 *
 * Connects (every address the host resolves to, in order, until one
 * accepts), sends VERSION and reads the answer, then closes.  Blocks up to
 * @timeout_ms: call it with no lock held but a session's (its state
 * lock is given back meanwhile, ltt_session_wait_begin(); @uri must then
 * be a constant of the session's).  Returns 0, -ENOENT (the name
 * does not resolve), -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH (or
 * -ENETUNREACH), -EPROTO (the peer answered something else than a relay,
 * or closed), -EPROTONOSUPPORT (a relay of another major version), or
 * another -errno of socket().  @ret_minor (may be NULL): the relay
 * protocol minor both speak (LTT_RELAY_MINOR_ARCHIVE and up: it archives
 * rotated chunks).  @ret_flags (may be NULL): the relay's
 * LTT_RELAY_CONFIG_* flags (GET_CONFIGURATION; 0 from a relay older than
 * minor 12).  A tls:// URL: -EKEYREJECTED when the files can't be used
 * or the handshake fails (logged with OpenSSL's reason).
 */
int ltt_relay_check(const struct ltt_uri *uri, const struct ltt_session *session, int timeout_ms,
		    uint32_t *ret_minor, uint64_t *ret_flags);

/**
 * ltt_relay_tls_check() - can @attr's TLS files make a client's TLS end,
 * and may the session's owner @uid, @gid read them?  (all "": yes)
 * @client_fd: the creating client's connection (borrowed)
 * @ret_text: where the daemon gave root's rights up, the files' texts,
 *            read by the privileged part with the rights of the client
 *            on @client_fd (ltt_priv_open_tls()): the session keeps them
 *            for ltt_relay_check(); untouched otherwise
 *
 * The consumer reads them with the daemon's rights: for an owner other
 * than the daemon's user, each must be a regular file that @uid (with
 * @gid and its supplementary groups) may open, directories on the way
 * included, so that a client of a root daemon can't lend itself a key
 * only root reads.
 * Logs why for @attr's session.  Returns 0 or -EKEYREJECTED.
 */
int ltt_relay_tls_check(const struct ltt_session_conf *attr, uid_t uid, gid_t gid, int client_fd,
			struct ltt_session_tls_text *ret_text);

/**
 * ltt_relay_error_code() - the public code of a -errno of ltt_relay_check()
 * or of a consumer's ADD_RELAY
 */
enum ltt_error_code ltt_relay_error_code(int err);

/* One consumer's connection to a session's relay (a domain keeps one). */
struct ltt_relay_link {
	uint64_t key;			/* the consumer's relay key, 0: not attached */
	uint64_t consumer_gen;		/* the consumer generation holding it */
	int error;			/* 0, or the -errno that ended it (known here) */
	bool lost;			/* it was attached, and its consumer died */
	unsigned int restarts;		/* relay sessions re-created after a consumer
					 * died: the next one is written in
					 * BASE-N (N = restarts) */
	char output_path[LTT_PATH_MAX];	/* the relay's directory, as it says */
};

/**
 * ltt_relay_attach() - have consumer @c connect to @session's relay
 * @link: not attached; on success its key, generation and output path set
 * @key: a new key, unique in @c
 * @gen: @c's generation
 *
 * Sends ADD_RELAY (blocks up to the consumer's connection deadline).  A
 * link re-created after its consumer died (@link->restarts N > 0) asks
 * for a relay session in a directory of its own: the URL's path, or
 * SESSION-DATE, followed by "-N" (the relay never writes over a trace).
 * Session lock held.  Returns 0, the consumer's -errno (see
 * consumer-proto.h), -EINVAL for a session without a net URL; the error
 * is also kept in @link->error and logged.
 */
int ltt_relay_attach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		     uint64_t key, const struct ltt_session *session);

/**
 * ltt_relay_link_key() - the key of @link in consumer @c (generation
 * @gen), attached on first need with @key (a new key, unique in @c): a
 * new relay session (ltt_relay_attach()'s restart) when the consumer that
 * held the last one died
 *
 * Session lock held.  Returns the key, or the -errno of the attach, kept
 * in @link->error and returned again until the link is cleared.
 */
int64_t ltt_relay_link_key(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
			   uint64_t key, const struct ltt_session *session);

/**
 * ltt_relay_detach() - DEL_RELAY, if @link is attached to @c (and @c is
 * still its consumer); the link is then not attached
 */
void ltt_relay_detach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen);

/**
 * ltt_relay_pending() - is some data of @link not yet at the relay?
 * @c: the consumer now, NULL if none; @gen its generation
 * @ret_pending: true while it is
 *
 * Returns 0 (also for a link never attached: nothing pending), or
 * -ECONNRESET when the relay connection is lost (or the consumer holding
 * it died): nothing more will arrive.
 */
int ltt_relay_pending(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      bool *ret_pending);

/**
 * ltt_relay_archive() - have the relay of @link archive the closed chunk
 * directory @from (relative to its relay session's directory) as @to
 * ("": delete it: a clear), through consumer @c (generation @gen), and
 * wait for the answer (up to LTT_RELAY_SNAP_DRAIN_MS: the relay first
 * writes every packet sent there)
 * @ret_dir: the relay session's directory, as the relay names it
 *
 * Session lock held.  Returns 0 (also for a link never attached: nothing
 * was sent), -ECONNRESET (its consumer died), -ETIMEDOUT, or the
 * consumer's or relay's -errno (-EOPNOTSUPP: a relay older than 2.12).
 */
int ltt_relay_archive(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      const char *from, const char *to, char *ret_dir, size_t len);

/**
 * ltt_relay_status() - the state of @link for lttctl list
 * @ret: domain set by the caller; the rest filled here
 */
void ltt_relay_status(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      struct ltt_relay_desc *ret);

/* The consumers a snapshot may involve (one per owner; more after a death). */
#define LTT_RELAY_SNAP_MAX 4

/* The longest a snapshot waits for the relay to write what it was sent. */
#define LTT_RELAY_SNAP_DRAIN_MS 30000

/*
 * One snapshot sent to a relay: a short relay session per consumer that
 * holds a trace of it (ADD_RELAY, live timer 0), all in one directory of
 * the relay, HOST/BASE/NAME-DATE-N (BASE: the URL's path, else the
 * session's name), each trace a SNAPSHOT_TRACE_RELAY; then the relay
 * sessions are drained (RELAY_DATA_PENDING), checked (RELAY_STATUS) and
 * closed (DEL_RELAY).  On the caller's heap or stack, session lock held.
 */
struct ltt_relay_snap_conn {
	struct ltt_consumer *c;
	struct ltt_relay_link link;
};

struct ltt_relay_snap {
	const struct ltt_session *session;
	struct ltt_uri net;
	char base_path[LTT_CONSUMER_BASE_PATH_MAX];	/* the URL's path, "": none */
	unsigned int nr;
	struct ltt_relay_snap_conn v[LTT_RELAY_SNAP_MAX];
	int relay_err;			/* the relay's failure (-errno), 0 if none */
	char output_path[LTT_PATH_MAX];	/* the relay's directory, as it says */
};

/**
 * ltt_relay_snap_init() - a snapshot of @session to the relay of net URL
 * @net (parsed where it came in): its relay sessions are in the
 * directory the relay names after the session (or the URL's path), as
 * the session's own would be; the domains send their traces below the
 * snapshot's directory there ("NAME-DATE-N/ust/..."), as LTTng's
 * snapshots are laid out on a relay.
 * Returns 0, -EINVAL (not a net URL), -ENAMETOOLONG.
 */
int ltt_relay_snap_init(struct ltt_relay_snap *s, const struct ltt_session *session,
			const struct ltt_uri *net);

/**
 * ltt_relay_snap_key() - the relay key of @s in consumer @c (generation
 * @gen): attached (ADD_RELAY with key @new_key) on first need
 * Blocks up to the consumer's connection deadline.  Returns 0 and
 * *@ret_key, or the consumer's -errno (kept in @s->relay_err: map it with
 * ltt_relay_error_code()), -ENOBUFS past LTT_RELAY_SNAP_MAX consumers.
 */
int ltt_relay_snap_key(struct ltt_relay_snap *s, struct ltt_consumer *c, uint64_t gen,
		       uint64_t new_key, uint64_t *ret_key);

/**
 * ltt_relay_snap_end() - end @s's relay sessions
 * @err: 0, or the snapshot's failure: then nothing is waited for
 * Without @err, waits (up to LTT_RELAY_SNAP_DRAIN_MS in all, polling the
 * consumers) until the relay wrote everything, and checks that the
 * connections delivered every packet.  Every relay session is closed
 * (DEL_RELAY) in either case.  Returns @err, else 0, -ETIMEDOUT, -EIO
 * (packets lost on the way), or the connection's -errno (also in
 * @s->relay_err).
 */
int ltt_relay_snap_end(struct ltt_relay_snap *s, int err);

#endif /* LTT_SESSIOND_RELAY_H */
