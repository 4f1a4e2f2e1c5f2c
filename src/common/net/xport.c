// SPDX-License-Identifier: LGPL-2.1-only
/*
 * xport.c - a relay connection, plain or TLS 1.3 (xport.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "common/net/xport.h"

struct ltt_xport_ctx {
	SSL_CTX *ssl_ctx;
	bool server;
};

struct ltt_xport {
	int fd;
	SSL *ssl;			/* NULL: plain */
	bool shaken;			/* the handshake is done */
	bool client;			/* our end is the client's */
	bool accepted;			/* client: the server's ticket came */
	uint32_t events;		/* what the last -EAGAIN waits for */
	char err[LTT_XPORT_ERR_MAX];
};

/* OpenSSL's oldest queued reason, or @what; the queue is emptied. */
static void ssl_reason(char *buf, size_t len, const char *what)
{
	unsigned long e = ERR_get_error();

	if (e)
		ERR_error_string_n(e, buf, len);
	else
		snprintf(buf, len, "%s", what);
	ERR_clear_error();
}

/*
 * A client's ticket from the server.  In TLS 1.3 the client's handshake
 * ends before the server has checked the client's certificate; ltt's
 * relay sends its ticket only once it has, so the ticket says "accepted"
 * and an alert instead says why not, before any request is sent.  The
 * session is not kept (0: OpenSSL frees it).
 */
static int on_ticket(SSL *ssl, SSL_SESSION *sess)
{
	struct ltt_xport *x = SSL_get_app_data(ssl);

	(void)sess;
	if (x)
		x->accepted = true;
	return 0;
}

/* A client's end's settings, whatever its files were read from. */
static void client_end(SSL_CTX *c)
{
	SSL_CTX_set_verify(c, SSL_VERIFY_PEER, NULL);
	SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(c, on_ticket);
}

/* Load one file into @c; 0, or -EINVAL with the sentence in @err. */
static int load(SSL_CTX *c, const struct ltt_xport_tls_files *f, bool server, char *err,
		size_t err_len)
{
	char why[200];

	if (SSL_CTX_use_certificate_chain_file(c, f->cert) != 1) {
		ssl_reason(why, sizeof(why), "unreadable");
		snprintf(err, err_len, "TLS certificate '%s' can't be used: %s (a PEM certificate is needed)",
			 f->cert, why);
		return -EINVAL;
	}
	if (SSL_CTX_use_PrivateKey_file(c, f->key, SSL_FILETYPE_PEM) != 1) {
		bool mismatch = ERR_GET_REASON(ERR_peek_error()) == X509_R_KEY_VALUES_MISMATCH;

		ssl_reason(why, sizeof(why), "unreadable");
		if (mismatch) {
			snprintf(err, err_len, "TLS key '%s' is not the key of certificate '%s' (%s)",
				 f->key, f->cert, why);
			return -EINVAL;
		}
		snprintf(err, err_len, "TLS key '%s' can't be used: %s (a PEM private key is needed)",
			 f->key, why);
		return -EINVAL;
	}
	if (SSL_CTX_check_private_key(c) != 1) {
		ssl_reason(why, sizeof(why), "mismatch");
		snprintf(err, err_len, "TLS key '%s' is not the key of certificate '%s' (%s)", f->key,
			 f->cert, why);
		return -EINVAL;
	}
	if (SSL_CTX_load_verify_locations(c, f->ca, NULL) != 1) {
		ssl_reason(why, sizeof(why), "unreadable");
		snprintf(err, err_len, "TLS CA '%s' can't be used: %s (a PEM CA certificate is needed)",
			 f->ca, why);
		return -EINVAL;
	}
	if (server) {
		STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(f->ca);

		if (names)
			SSL_CTX_set_client_CA_list(c, names);
		SSL_CTX_set_verify(c, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
		/* one ticket: the client's sign that we took its certificate */
		SSL_CTX_set_num_tickets(c, 1);
	} else {
		client_end(c);
	}
	return 0;
}

/* A TLS 1.3 end, with no file loaded yet; NULL for want of memory. */
static struct ltt_xport_ctx *ctx_new(bool server)
{
	struct ltt_xport_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->server = server;
	ctx->ssl_ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
	if (!ctx->ssl_ctx) {
		free(ctx);
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx->ssl_ctx, TLS1_3_VERSION);
	SSL_CTX_set_max_proto_version(ctx->ssl_ctx, TLS1_3_VERSION);
	SSL_CTX_set_mode(ctx->ssl_ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
				       SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	return ctx;
}

int ltt_xport_ctx_create(const struct ltt_xport_tls_files *files, bool server,
			 char *err, size_t err_len, struct ltt_xport_ctx **ret_ctx)
{
	struct ltt_xport_ctx *ctx;
	int ret;

	if (!files || !files->cert || !files->key || !files->ca || !err || !ret_ctx)
		return -EINVAL;
	ctx = ctx_new(server);
	if (!ctx)
		return -ENOMEM;
	ret = load(ctx->ssl_ctx, files, server, err, err_len);
	if (ret) {
		ltt_xport_ctx_destroy(ctx);
		return ret;
	}
	*ret_ctx = ctx;
	return 0;
}

/* @text's certificates (PEM) into @c: the first ours, the others its chain; or its CAs. */
static int pem_certs(SSL_CTX *c, const struct ltt_xport_pem *text, bool ca)
{
	BIO *b = BIO_new_mem_buf(text->data, (int)text->len);
	X509 *x;
	int n = 0, ok = b != NULL;

	while (ok && (x = PEM_read_bio_X509(b, NULL, NULL, NULL))) {
		ok = ca ? X509_STORE_add_cert(SSL_CTX_get_cert_store(c), x) == 1 :
		     n == 0 ? SSL_CTX_use_certificate(c, x) == 1 :
			      SSL_CTX_add1_chain_cert(c, x) == 1;
		X509_free(x);
		n++;
	}
	BIO_free(b);
	if (ok && n)
		ERR_clear_error();	/* the end of the text */
	return ok && n ? 0 : -EINVAL;
}

int ltt_xport_ctx_create_pem(const struct ltt_xport_tls_files *names,
			     const struct ltt_xport_pem pem[3], char *err, size_t err_len,
			     struct ltt_xport_ctx **ret_ctx)
{
	struct ltt_xport_ctx *ctx;
	EVP_PKEY *key = NULL;
	char why[200];
	BIO *b;

	if (!names || !pem || !err || !ret_ctx || !pem[0].len || !pem[1].len || !pem[2].len ||
	    pem[0].len > INT32_MAX || pem[1].len > INT32_MAX || pem[2].len > INT32_MAX)
		return -EINVAL;
	ctx = ctx_new(false);
	if (!ctx)
		return -ENOMEM;
	if (pem_certs(ctx->ssl_ctx, &pem[0], false)) {
		ssl_reason(why, sizeof(why), "no PEM certificate in it");
		snprintf(err, err_len, "TLS certificate '%s' can't be used: %s (a PEM certificate is needed)",
			 names->cert, why);
		goto fail;
	}
	b = BIO_new_mem_buf(pem[1].data, (int)pem[1].len);
	key = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
	BIO_free(b);
	if (!key || SSL_CTX_use_PrivateKey(ctx->ssl_ctx, key) != 1 ||
	    SSL_CTX_check_private_key(ctx->ssl_ctx) != 1) {
		ssl_reason(why, sizeof(why), "no PEM private key in it");
		snprintf(err, err_len, key ? "TLS key '%s' is not the key of certificate '%s' (%s)" :
				       "TLS key '%s' can't be used: %s (a PEM private key is needed)",
			 names->key, key ? names->cert : why, why);
		goto fail;
	}
	EVP_PKEY_free(key);
	if (pem_certs(ctx->ssl_ctx, &pem[2], true)) {
		ssl_reason(why, sizeof(why), "no PEM certificate in it");
		snprintf(err, err_len, "TLS CA '%s' can't be used: %s (a PEM CA certificate is needed)",
			 names->ca, why);
		ltt_xport_ctx_destroy(ctx);
		return -EINVAL;
	}
	client_end(ctx->ssl_ctx);
	*ret_ctx = ctx;
	return 0;
fail:
	EVP_PKEY_free(key);
	ltt_xport_ctx_destroy(ctx);
	return -EINVAL;
}

void ltt_xport_ctx_destroy(struct ltt_xport_ctx *ctx)
{
	if (!ctx)
		return;
	SSL_CTX_free(ctx->ssl_ctx);
	free(ctx);
}

/* A client's check of the server's name: a DNS name or an address literal. */
static int expect_host(SSL *ssl, const char *host)
{
	unsigned char addr[16];

	if (inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1)
		return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 ? 0 : -EINVAL;
	if (SSL_set1_host(ssl, host) != 1 || SSL_set_tlsext_host_name(ssl, host) != 1)
		return -EINVAL;
	return 0;
}

int ltt_xport_create(int fd, struct ltt_xport_ctx *ctx, const char *host,
		     struct ltt_xport **ret_x)
{
	struct ltt_xport *x;

	if (fd < 0 || !ret_x || (ctx && !ctx->server && !host))
		return -EINVAL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->fd = fd;
	x->shaken = !ctx;
	if (ctx) {
		x->ssl = SSL_new(ctx->ssl_ctx);
		if (!x->ssl || SSL_set_fd(x->ssl, fd) != 1 ||
		    (!ctx->server && expect_host(x->ssl, host))) {
			SSL_free(x->ssl);
			free(x);
			ERR_clear_error();
			return -ENOMEM;
		}
		SSL_set_app_data(x->ssl, x);
		x->client = !ctx->server;
		if (ctx->server)
			SSL_set_accept_state(x->ssl);
		else
			SSL_set_connect_state(x->ssl);
	}
	*ret_x = x;
	return 0;
}

void ltt_xport_destroy(struct ltt_xport *x)
{
	if (!x)
		return;
	if (x->ssl) {
		if (x->shaken)
			SSL_shutdown(x->ssl);	/* close_notify if the socket takes it; never waits */
		SSL_free(x->ssl);
		ERR_clear_error();
	}
	close(x->fd);
	free(x);
}

int ltt_xport_fd(const struct ltt_xport *x)
{
	return x->fd;
}

uint32_t ltt_xport_events(const struct ltt_xport *x)
{
	return x->events ? x->events : EPOLLIN;
}

const char *ltt_xport_error(const struct ltt_xport *x)
{
	return x->err;
}

/*
 * What SSL_*() returning @n means: -EAGAIN (x->events set), 0 for a
 * clean close, or a negative errno with x->err set: -EKEYREJECTED for
 * TLS's own failures (an alert: the peer refused our certificate, say).
 */
static int ssl_result(struct ltt_xport *x, int n, int saved_errno)
{
	int e = SSL_get_error(x->ssl, n);
	long v;

	switch (e) {
	case SSL_ERROR_WANT_READ:
		x->events = EPOLLIN;
		return -EAGAIN;
	case SSL_ERROR_WANT_WRITE:
		x->events = EPOLLOUT;
		return -EAGAIN;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	case SSL_ERROR_SYSCALL:
		ERR_clear_error();
		if (!saved_errno || saved_errno == ECONNRESET) {
			snprintf(x->err, sizeof(x->err), "the peer closed the connection");
			return -ECONNRESET;
		}
		snprintf(x->err, sizeof(x->err), "%s", strerror(saved_errno));
		return -saved_errno;
	default:
		v = SSL_get_verify_result(x->ssl);
		if (v != X509_V_OK && !x->shaken) {
			snprintf(x->err, sizeof(x->err), "the peer's certificate: %s",
				 X509_verify_cert_error_string(v));
			ERR_clear_error();
		} else {
			ssl_reason(x->err, sizeof(x->err), "TLS error");
		}
		return -EKEYREJECTED;
	}
}

int ltt_xport_handshake(struct ltt_xport *x)
{
	uint8_t byte;
	int n, ret;

	if (x->shaken)
		return 0;
	ERR_clear_error();
	errno = 0;
	n = SSL_do_handshake(x->ssl);
	if (n == 1 && x->client && !x->accepted) {
		/* the server's verdict on our certificate: its ticket, or an alert */
		errno = 0;
		n = SSL_peek(x->ssl, &byte, 1);
		if (n > 0)
			x->accepted = true;	/* data before a ticket: it took us anyway */
		if (x->accepted)
			n = 1;
	}
	if (n == 1 && (!x->client || x->accepted)) {
		x->shaken = true;
		return 0;
	}
	ret = ssl_result(x, n, errno);
	if (ret == 0) {
		snprintf(x->err, sizeof(x->err), "the peer closed the connection");
		ret = -ECONNRESET;
	}
	return ret;
}

int ltt_xport_handshake_until(struct ltt_xport *x, uint64_t deadline_ms)
{
	struct pollfd pfd = { .fd = x->fd };
	struct timespec ts;
	uint64_t now;
	int ret, n;

	for (;;) {
		ret = ltt_xport_handshake(x);
		if (ret != -EAGAIN)
			return ret;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
		if (now >= deadline_ms) {
			snprintf(x->err, sizeof(x->err), "no TLS handshake in time");
			return -ETIMEDOUT;
		}
		pfd.events = ltt_xport_events(x) == EPOLLOUT ? POLLOUT : POLLIN;
		n = poll(&pfd, 1, (int)(deadline_ms - now));
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

ssize_t ltt_xport_read(struct ltt_xport *x, void *buf, size_t len)
{
	ssize_t n;
	int r;

	if (!x->ssl) {
		do
			n = recv(x->fd, buf, len, MSG_DONTWAIT);
		while (n < 0 && errno == EINTR);
		if (n < 0 && errno == EWOULDBLOCK)
			return -EAGAIN;
		return n < 0 ? -errno : n;
	}
	if (len > INT32_MAX)
		len = INT32_MAX;
	ERR_clear_error();
	errno = 0;
	r = SSL_read(x->ssl, buf, (int)len);
	return r > 0 ? r : ssl_result(x, r, errno);
}

ssize_t ltt_xport_write(struct ltt_xport *x, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return ltt_xport_writev(x, &iov, 1);
}

ssize_t ltt_xport_writev(struct ltt_xport *x, const struct iovec *iov, int cnt)
{
	struct msghdr mh = { .msg_iov = (struct iovec *)iov, .msg_iovlen = (size_t)cnt };
	size_t done = 0, len;
	ssize_t n;
	int i, r;

	if (!x->ssl) {
		do
			n = sendmsg(x->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
		while (n < 0 && errno == EINTR);
		if (n < 0 && errno == EWOULDBLOCK)
			return -EAGAIN;
		return n < 0 ? -errno : n;
	}
	for (i = 0; i < cnt; i++) {
		len = iov[i].iov_len > INT32_MAX ? INT32_MAX : iov[i].iov_len;
		if (!len)
			continue;
		ERR_clear_error();
		errno = 0;
		r = SSL_write(x->ssl, iov[i].iov_base, (int)len);
		if (r <= 0) {
			n = ssl_result(x, r, errno);
			if (done)
				return (ssize_t)done;
			return n ? n : -EPIPE;
		}
		done += (size_t)r;
		if ((size_t)r < iov[i].iov_len)
			break;
	}
	return (ssize_t)done;
}

bool ltt_xport_pending(const struct ltt_xport *x)
{
	return x->ssl && SSL_pending(x->ssl) > 0;
}

void ltt_xport_peer_subject(const struct ltt_xport *x, char *buf, size_t len)
{
	X509 *cert = x->ssl ? SSL_get1_peer_certificate(x->ssl) : NULL;

	if (len)
		buf[0] = '\0';
	if (!cert)
		return;
	X509_NAME_oneline(X509_get_subject_name(cert), buf, (int)len);
	X509_free(cert);
}
