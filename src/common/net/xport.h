/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xport.h - the one transport seam of the relay's network paths: a
 * connected, non-blocking stream socket that reads and writes either
 * plain bytes or TLS 1.3 records (OpenSSL), so that the consumer's relay
 * output, the session daemon's relay check, the relay's servers and
 * lttctl's live bridge never call SSL_* themselves.
 *
 * TLS here is always mutual: both ends load a certificate, its key, and
 * the CA that must have signed the peer's certificate; a client also
 * checks the server's certificate against the host name it dialed.  A
 * client's handshake ends only once the server accepted its certificate
 * (the server's session ticket, which ltt's server ends send once they
 * have checked it), so a refusal is known before any request is sent.
 *
 * Non-blocking throughout, as the event loop (evloop.h) wants: every call
 * returns -EAGAIN instead of waiting, and ltt_xport_events() then says
 * what to wait for (a TLS write may need the socket readable, a read
 * writable).  A TLS connection may hold decrypted bytes the socket no
 * longer shows (ltt_xport_pending()): a reader that stops before -EAGAIN
 * must come back for them without waiting on the socket.  A write that
 * returned -EAGAIN must be retried with the same bytes first (more may
 * follow them; the buffer may move).
 *
 * One thread at a time per connection; contexts are shared read-only.
 */
#ifndef LTT_COMMON_XPORT_H
#define LTT_COMMON_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Bytes of an error text (OpenSSL's reason, the file, the peer's). */
#define LTT_XPORT_ERR_MAX 256

/* The three files of one end (strings borrowed). */
struct ltt_xport_tls_files {
	const char *cert;		/* PEM: our certificate (chain) */
	const char *key;		/* PEM: its private key */
	const char *ca;			/* PEM: the CA that signs the peer's */
};

struct ltt_xport_ctx;
struct ltt_xport;

/**
 * ltt_xport_ctx_create() - load the files of one TLS end
 * @files: all three set
 * @server: true for the relay's end (clients must show a certificate
 *          @files->ca signed), false for a client's
 * @err: on failure, a sentence naming the file and what is wrong with it
 * @err_len: bytes of @err
 * @ret_ctx: to free with ltt_xport_ctx_destroy()
 *
 * Any thread.  Returns 0; -EINVAL (a file missing, unreadable, not PEM,
 * or a key that is not the certificate's); -ENOMEM.
 */
int ltt_xport_ctx_create(const struct ltt_xport_tls_files *files, bool server,
			 char *err, size_t err_len, struct ltt_xport_ctx **ret_ctx);

/* A file's text, read by whoever had the rights to (borrowed). */
struct ltt_xport_pem {
	const void *data;
	size_t len;
};

/**
 * ltt_xport_ctx_create_pem() - ltt_xport_ctx_create() of a client's end
 * from the texts @pem of @names's files (certificate, key, CA, in that
 * order), read already: by a process that may read them for one that
 * may not (a session daemon that gave root's rights up).  @names name
 * them in @err.  Returns 0, -EINVAL or -ENOMEM.
 */
int ltt_xport_ctx_create_pem(const struct ltt_xport_tls_files *names,
			     const struct ltt_xport_pem pem[3], char *err, size_t err_len,
			     struct ltt_xport_ctx **ret_ctx);

/** ltt_xport_ctx_destroy() - free a context no connection uses any more; accepts NULL */
void ltt_xport_ctx_destroy(struct ltt_xport_ctx *ctx);

/**
 * ltt_xport_create() - wrap connected, non-blocking socket @fd
 * @ctx: NULL for plain bytes; else TLS with this context (borrowed: it
 *       must outlive the connection)
 * @host: a client's: the name or address literal the server's
 *        certificate must carry; NULL on the server's end
 * @ret_x: takes @fd on success (ltt_xport_destroy() closes it)
 *
 * A TLS connection must complete ltt_xport_handshake() before reading or
 * writing.  Returns 0, -EINVAL or -ENOMEM.
 */
int ltt_xport_create(int fd, struct ltt_xport_ctx *ctx, const char *host,
		     struct ltt_xport **ret_x);

/** ltt_xport_destroy() - close the socket and free; accepts NULL */
void ltt_xport_destroy(struct ltt_xport *x);

/** ltt_xport_fd() - the socket, for poll/epoll */
int ltt_xport_fd(const struct ltt_xport *x);

/**
 * ltt_xport_handshake() - advance the TLS handshake (plain: done at once)
 *
 * Returns 0 once done; -EAGAIN to be called again when
 * ltt_xport_events() is ready; -EKEYREJECTED when the peer failed the
 * handshake or its certificate, or refused ours (ltt_xport_error() says
 * why);
 * -ECONNRESET when it closed; another negative errno.
 */
int ltt_xport_handshake(struct ltt_xport *x);

/**
 * ltt_xport_handshake_until() - ltt_xport_handshake() to the end, waiting
 * in poll() at most until @deadline_ms (CLOCK_MONOTONIC milliseconds)
 *
 * Returns as ltt_xport_handshake(), or -ETIMEDOUT.
 */
int ltt_xport_handshake_until(struct ltt_xport *x, uint64_t deadline_ms);

/** ltt_xport_events() - EPOLLIN or EPOLLOUT: what the last -EAGAIN waits for */
uint32_t ltt_xport_events(const struct ltt_xport *x);

/** ltt_xport_error() - why the last call failed ("" when nothing is known) */
const char *ltt_xport_error(const struct ltt_xport *x);

/**
 * ltt_xport_read() - read at most @len bytes
 *
 * Returns the bytes read (> 0); 0 when the peer closed; -EAGAIN;
 * -EKEYREJECTED (a TLS error, an alert: in TLS 1.3 a server refuses a
 * client's certificate after the client's handshake is done, so the
 * client learns it here; ltt_xport_error()); another negative errno.
 */
ssize_t ltt_xport_read(struct ltt_xport *x, void *buf, size_t len);

/**
 * ltt_xport_write() - write at most @len bytes (never SIGPIPE)
 *
 * Returns the bytes taken (> 0); -EAGAIN; -EPIPE or -ECONNRESET when the
 * peer is gone; -EKEYREJECTED; another negative errno.
 */
ssize_t ltt_xport_write(struct ltt_xport *x, const void *buf, size_t len);

/**
 * ltt_xport_writev() - ltt_xport_write() of @cnt buffers in order: one
 * sendmsg() when plain; record by record when TLS
 *
 * Returns the bytes taken (> 0, maybe fewer than all), or as
 * ltt_xport_write() when none was.
 */
ssize_t ltt_xport_writev(struct ltt_xport *x, const struct iovec *iov, int cnt);

/** ltt_xport_pending() - decrypted bytes wait inside @x, unseen by poll */
bool ltt_xport_pending(const struct ltt_xport *x);

/**
 * ltt_xport_peer_subject() - the subject of the peer's certificate, one
 * line, into @buf ("" when plain or none)
 */
void ltt_xport_peer_subject(const struct ltt_xport *x, char *buf, size_t len);

#endif /* LTT_COMMON_XPORT_H */
