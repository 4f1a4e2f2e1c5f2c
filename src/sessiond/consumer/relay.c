// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay.c - a session's relay daemon, as the session daemon sees it (see
 * relay.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/as-user.h"
#include "common/base/errmap.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/net/relay-conn.h"
#include "common/net/xport.h"
#include "common/proto/relay-proto.h"
#include "sessiond/consumer/relay.h"
#include "sessiond/priv/priv.h"

/*
 * The client end of @files, or NULL with none; -EKEYREJECTED (logged).
 * The files are read with @uid's rights (as-user.h): a root daemon never
 * reads for a session a key its owner could not read, even one put in
 * place of the file checked at create.  @text: the files' texts, where
 * the daemon gave root's rights up (ltt_relay_tls_check() read them).
 */
static int tls_context(const char *session, const char *cert, const char *key, const char *ca,
		       const struct ltt_session_tls_text *text, uid_t uid, gid_t gid,
		       struct ltt_xport_ctx **ret_ctx)
{
	struct ltt_xport_tls_files f = { cert, key, ca };
	char why[LTT_XPORT_ERR_MAX] = "can't take the owner's rights";
	struct ltt_xport_pem pem[3];
	struct ltt_as_user as;
	int ret, i;

	*ret_ctx = NULL;
	if (!cert[0])
		return 0;
	if (text && text->text[0]) {
		for (i = 0; i < 3; i++)
			pem[i] = (struct ltt_xport_pem){ text->text[i], text->len[i] };
		ret = ltt_xport_ctx_create_pem(&f, pem, why, sizeof(why), ret_ctx);
	} else {
		ret = ltt_as_user_begin(uid, gid, &as);
		if (!ret)
			ret = ltt_xport_ctx_create(&f, false, why, sizeof(why), ret_ctx);
		ltt_as_user_end(&as);
	}
	if (ret) {
		LTT_WARN("session '%s': %s", session, why);
		return -EKEYREJECTED;
	}
	return 0;
}

/*
 * May @uid, @gid read regular file @path?  Asked by opening it with their
 * rights (as-user.h), so the directories on its path, its ACLs and their
 * supplementary groups count as they would for them; a FIFO or device is
 * not opened.  Logs why not.
 */
static bool owner_reads(const char *session, const char *path, uid_t uid, gid_t gid)
{
	struct ltt_as_user as;
	struct stat st;
	int fd = -1;
	bool ok;

	ok = !ltt_as_user_begin(uid, gid, &as) && !stat(path, &st) && S_ISREG(st.st_mode) &&
	     (fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) >= 0 &&
	     !fstat(fd, &st) && S_ISREG(st.st_mode);
	ltt_as_user_end(&as);
	if (fd >= 0)
		close(fd);
	if (ok)
		return true;
	LTT_WARN("session '%s': TLS file %s: not a regular file that uid %u (gid %u) may read; "
		 "the daemon reads TLS files only for owners who may read them",
		 session, path, (unsigned int)uid, (unsigned int)gid);
	return false;
}

/*
 * The text of TLS file @path into @ret_text, @ret_len (malloc'd), read
 * from @fd, which the privileged part opened with the client's rights.
 */
static int read_text(const char *session, const char *path, int fd, char **ret_text,
		     size_t *ret_len)
{
	void *data;
	size_t len;
	int err = ltt_io_read_file(fd, LTT_PRIV_TLS_FILE_MAX, &data, &len);

	if (!err && !len) {
		free(data);
		err = -ENODATA;
	}
	if (err) {
		LTT_WARN("session '%s': TLS file %s: %s", session, path,
			 err == -ENODATA ? "empty" : strerror(-err));
		return err;
	}
	*ret_text = data;
	*ret_len = len;
	return 0;
}

/*
 * A daemon that gave root's rights up: @f's texts read into @ret, each
 * opened by the privileged part with the rights of the client on
 * @client_fd (@uid, @gid).  1: the daemon reads them itself.  Logs why
 * not.
 */
static int texts_of(const char *session, const char *const f[3], uid_t uid, gid_t gid,
		    int client_fd, struct ltt_session_tls_text *ret)
{
	int i, fd, err = 0;

	for (i = 0; !err && i < 3; i++) {
		fd = -1;
		err = ltt_priv_open_tls(client_fd, f[i], &fd);
		if (err == 1)
			return 1;
		if (err)
			LTT_WARN("session '%s': TLS file %s: not a regular file that uid %u (gid %u) may read; the daemon reads TLS files only for owners who may read them, PEM files of at most 1 MiB (%s)",
				 session, f[i], (unsigned int)uid, (unsigned int)gid, strerror(-err));
		else
			err = read_text(session, f[i], fd, &ret->text[i], &ret->len[i]);
		if (fd >= 0)
			close(fd);
	}
	if (err)
		ltt_session_tls_text_fini(ret);
	return err;
}

int ltt_relay_tls_check(const struct ltt_session_conf *attr, uid_t uid, gid_t gid, int client_fd,
			struct ltt_session_tls_text *ret_text)
{
	const char *f[3] = { attr->tls_cert, attr->tls_key, attr->tls_ca };
	struct ltt_xport_ctx *ctx;
	int i, ret;

	if (!attr->tls_cert[0])
		return 0;
	ret = texts_of(attr->name, f, uid, gid, client_fd, ret_text);
	if (ret < 0)
		return -EKEYREJECTED;
	for (i = 0; ret == 1 && uid != geteuid() && i < 3; i++)
		if (!owner_reads(attr->name, f[i], uid, gid))
			return -EKEYREJECTED;
	ret = tls_context(attr->name, attr->tls_cert, attr->tls_key, attr->tls_ca, ret_text, uid,
			  gid, &ctx);
	ltt_xport_ctx_destroy(ctx);
	if (ret)
		ltt_session_tls_text_fini(ret_text);
	return ret;
}

int ltt_relay_check(const struct ltt_uri *uri, const struct ltt_session *session, int timeout_ms,
		    uint32_t *ret_minor, uint64_t *ret_flags)
{
	uint64_t deadline = ltt_relay_conn_now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	struct ltt_xport_ctx *tls = NULL;
	struct ltt_session *waiting;
	struct ltt_xport *x;
	uint32_t minor = 0;
	int ret = 0;

	if (ret_flags)
		*ret_flags = 0;
	if (!uri || !session || uri->scheme != LTT_URI_NET)
		return -EINVAL;
	if (uri->tls)
		ret = tls_context(session->name, session->tls_cert, session->tls_key,
				  session->tls_ca, &session->tls_text, session->uid, session->gid,
				  &tls);
	if (uri->tls && !tls && !ret)
		ret = -EKEYREJECTED;	/* a tls:// URL without files: not created so */
	if (ret)
		return ret;
	/* a round trip to another process: no session's state lock across it */
	waiting = ltt_session_wait_begin();
	ret = ltt_relay_conn_open((int)uri->family, uri->host, uri->ctrl_port, tls, deadline,
				  uri->host, &x);
	if (!ret) {
		ret = ltt_relay_conn_version(x, deadline, uri->host, &minor);
		if (!ret && ret_flags && minor >= LTT_RELAY_MINOR_CONFIG)
			ret = ltt_relay_conn_get_configuration(x, deadline, uri->host, ret_flags);
		ltt_xport_destroy(x);
	}
	if (!ret && ret_minor)
		*ret_minor = minor;
	ltt_session_wait_end(waiting);
	ltt_xport_ctx_destroy(tls);
	return ret;
}

static const struct ltt_errmap relay_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -ENOENT, LTT_ERR_RELAY_HOST },
	{ -ECONNREFUSED, LTT_ERR_RELAY_REFUSED },
	{ -ETIMEDOUT, LTT_ERR_RELAY_TIMEOUT },
	{ -EPROTO, LTT_ERR_RELAY_NOT_RELAY },
	{ -EREMOTEIO, LTT_ERR_RELAY_SESSION_REFUSED },
	{ -EPROTONOSUPPORT, LTT_ERR_RELAY_VERSION },
	{ -EKEYREJECTED, LTT_ERR_RELAY_TLS },
	{ -ECONNRESET, LTT_ERR_RELAY_LOST },
	{ -EPIPE, LTT_ERR_RELAY_LOST },
	{ -ENOMEM, LTT_ERR_NOMEM },
	{ LTT_ERRMAP_ELSE, LTT_ERR_RELAY_UNREACHABLE },	/* EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL... */
};

enum ltt_error_code ltt_relay_error_code(int err)
{
	return LTT_ERRMAP(relay_errors, err, NULL);
}

/* The traced host's name as the relay files it (at most 63 bytes). */
static void host_name(char *buf, size_t len)
{
	if (gethostname(buf, len) || !buf[0])
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
}

/*
 * The directory a relay names for @session when the URL gives no path:
 * "SESSION-YYYYmmdd-HHMMSS", its creation's local time, in @buf (@len
 * bytes).  Returns 0, -EINVAL or -ENAMETOOLONG.
 */
static int session_dir(const struct ltt_session *session, char *buf, size_t len)
{
	char date[32];
	struct tm tm;
	int w;

	if (!localtime_r(&session->creation_time, &tm) ||
	    !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	w = snprintf(buf, len, "%s-%s", session->name, date);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/*
 * The base path of a relay session re-created after its consumer died:
 * the first one's ("PATH", or "SESSION-DATE" as the relay names it) and
 * "-N".
 */
static int restart_path(const struct ltt_session *session, const char *path, unsigned int n,
			char *buf, size_t len)
{
	char dir[LTT_NAME_MAX + 32];
	int w, ret;

	if (path && *path) {
		w = snprintf(buf, len, "%s-%u", path, n);
	} else {
		ret = session_dir(session, dir, sizeof(dir));
		if (ret)
			return ret;
		w = snprintf(buf, len, "%s-%u", dir, n);
	}
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/*
 * ADD_RELAY to consumer @c: a relay session of @session on the relay of
 * net URL @url, in @base_path (NULL or "": the relay names it), with
 * @live_timer_us.
 */
static int attach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		  uint64_t key, const struct ltt_session *session, const struct ltt_uri *net,
		  const char *base_path, uint32_t live_timer_us)
{
	char host[LTT_RELAY_HOST_NAME_MAX];
	struct ltt_consumer_add_relay m;
	int ret;

	if (net->scheme != LTT_URI_NET)
		return -EINVAL;
	host_name(host, sizeof(host));
	m = (struct ltt_consumer_add_relay){
		.relay_key = key,
		.addr = {
			.family = (uint8_t)net->family,
			.ctrl_port = net->ctrl_port,
			.data_port = net->data_port,
		},
		.hostname = host,
		.session_name = session->name,
		.base_path = base_path ? base_path : "",
		.live_timer_us = live_timer_us,
		.session_id = session->id,
		.creation_time = (uint64_t)session->creation_time,
		.has_uuid = ltt_consumer_minor(c) >= LTT_CONSUMER_MINOR_RELAY_UUID,
		.trace_format = (uint8_t)session->trace_format,
	};
	snprintf(m.addr.host, sizeof(m.addr.host), "%s", net->host);
	memcpy(m.uuid, session->uuid, sizeof(m.uuid));
	if (net->tls) {
		m.tls_cert = session->tls_cert;
		m.tls_key = session->tls_key;
		m.tls_ca = session->tls_ca;
	}
	ret = ltt_consumer_add_relay(c, &m, link->output_path, sizeof(link->output_path));
	if (ret) {
		LTT_ERR("session '%s': the consumer can't reach the relay %s (control port %u): %s",
			session->name, net->host, (unsigned int)net->ctrl_port, strerror(-ret));
		link->error = ret;
		return ret;
	}
	link->key = key;
	link->consumer_gen = gen;
	link->error = 0;
	link->lost = false;
	return 0;
}

int ltt_relay_attach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		     uint64_t key, const struct ltt_session *session)
{
	char base[LTT_CONSUMER_BASE_PATH_MAX];
	const char *net_path;
	int ret;

	if (session->output_type != LTT_OUTPUT_NET)
		return -EINVAL;
	net_path = session->relay.path;
	if (link->restarts) {
		ret = restart_path(session, session->relay.path, link->restarts, base, sizeof(base));
		if (ret)
			return ret;
		net_path = base;
	}
	ret = attach(link, c, gen, key, session, &session->relay, net_path,
		     session->live_timer_us);
	if (!ret)
		LTT_INFO("session '%s': streaming to %s, written there in %s", session->name,
			 session->output, link->output_path);
	return ret;
}

int64_t ltt_relay_link_key(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
			   uint64_t key, const struct ltt_session *session)
{
	int ret;

	if (link->key && link->consumer_gen == gen)
		return (int64_t)link->key;
	if (link->key) {
		/*
		 * Its consumer died, and the relay session with its connection:
		 * the new consumer streams to a new relay session, in a
		 * directory of its own (the relay never writes over a trace).
		 */
		link->key = 0;
		link->error = 0;
		link->restarts++;
		LTT_WARN("session '%s': its consumer died; streaming goes on in a new relay session (directory suffix -%u); what the dead one had not sent is lost",
			 session->name, link->restarts);
	}
	if (link->error)
		return link->error;
	ret = ltt_relay_attach(link, c, gen, key, session);
	return ret ? ret : (int64_t)link->key;
}

/* Is @link attached to @c, the consumer of generation @gen, right now? */
static bool attached_to(const struct ltt_relay_link *link, const struct ltt_consumer *c,
			uint64_t gen)
{
	return link->key && c && gen == link->consumer_gen;
}

void ltt_relay_detach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen)
{
	int ret;

	if (attached_to(link, c, gen)) {
		ret = ltt_consumer_del_relay(c, link->key);
		if (ret)
			LTT_WARN("relay connection %llu not closed cleanly: %s",
				 (unsigned long long)link->key, strerror(-ret));
	}
	link->key = 0;
	link->consumer_gen = 0;
}

int ltt_relay_archive(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      const char *from, const char *to, char *ret_dir, size_t len)
{
	const struct timespec nap = { 0, 2000000L };
	uint64_t deadline = ltt_relay_conn_now_ms() + LTT_RELAY_SNAP_DRAIN_MS;
	int ret;

	if (!link->key)
		return 0;	/* nothing was ever sent: nothing to archive */
	if (!attached_to(link, c, gen))
		return -ECONNRESET;
	ret = ltt_consumer_relay_archive(c, link->key, from, to);
	while (!ret) {
		ret = ltt_consumer_relay_archive_result(c, link->key);
		if (ret != -EINPROGRESS)
			break;
		if (ltt_relay_conn_now_ms() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		nanosleep(&nap, NULL);
		ret = 0;
	}
	snprintf(ret_dir, len, "%s", link->output_path);
	return ret;
}

int ltt_relay_pending(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      bool *ret_pending)
{
	bool pending = false;
	int ret;

	*ret_pending = false;
	/* Never attached (the start failed): nothing was sent, nothing is pending. */
	if (!link->key)
		return link->lost ? -ECONNRESET : 0;
	if (!attached_to(link, c, gen)) {
		/* The consumer that held the connection died with it. */
		link->error = -ECONNRESET;
		link->lost = true;
		return -ECONNRESET;
	}
	ret = ltt_consumer_relay_data_pending(c, link->key, &pending);
	if (ret) {
		if (!link->error)
			link->error = ret;
		return -ECONNRESET;
	}
	*ret_pending = pending;
	return 0;
}

void ltt_relay_status(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      struct ltt_relay_desc *ret)
{
	struct ltt_consumer_relay_status_reply st = { 0 };
	int err;

	ret->state = LTT_RELAY_STATE_NONE;
	ret->error = 0;
	snprintf(ret->output_path, sizeof(ret->output_path), "%s", link->output_path);
	if (!link->key) {
		if (link->error) {
			ret->state = LTT_RELAY_STATE_LOST;
			ret->error = -link->error;
		}
		return;
	}
	err = attached_to(link, c, gen) ? ltt_consumer_relay_status(c, link->key, &st) : -EPIPE;
	if (err) {
		/* The consumer died, taking the connection with it. */
		ret->state = LTT_RELAY_STATE_LOST;
		ret->error = -err;
		return;
	}
	ret->state = st.conn_error ? LTT_RELAY_STATE_LOST : LTT_RELAY_STATE_CONNECTED;
	ret->error = -st.conn_error;
	ret->packets_sent = st.packets_sent;
	ret->bytes_sent = st.bytes_sent;
	ret->packets_lost = st.packets_lost;
}

int ltt_relay_snap_init(struct ltt_relay_snap *s, const struct ltt_session *session,
			const struct ltt_uri *net)
{
	int n;

	memset(s, 0, sizeof(*s));
	s->session = session;
	if (net->scheme != LTT_URI_NET)
		return -EINVAL;
	s->net = *net;
	n = snprintf(s->base_path, sizeof(s->base_path), "%s", s->net.path);
	return n < 0 || (size_t)n >= sizeof(s->base_path) ? -ENAMETOOLONG : 0;
}

int ltt_relay_snap_key(struct ltt_relay_snap *s, struct ltt_consumer *c, uint64_t gen,
		       uint64_t new_key, uint64_t *ret_key)
{
	struct ltt_relay_snap_conn *sc;
	unsigned int i;
	int ret;

	for (i = 0; i < s->nr; i++) {
		if (s->v[i].c == c && s->v[i].link.consumer_gen == gen) {
			*ret_key = s->v[i].link.key;
			return 0;
		}
	}
	if (s->nr == LTT_RELAY_SNAP_MAX)
		return -ENOBUFS;
	sc = &s->v[s->nr];
	memset(sc, 0, sizeof(*sc));
	ret = attach(&sc->link, c, gen, new_key, s->session, &s->net, s->base_path, 0);
	if (ret) {
		s->relay_err = ret;
		return ret;
	}
	sc->c = c;
	s->nr++;
	if (!s->output_path[0])
		snprintf(s->output_path, sizeof(s->output_path), "%s", sc->link.output_path);
	*ret_key = sc->link.key;
	return 0;
}

/* Wait until everything sent on @sc is written by the relay; then its status. */
static int snap_conn_end(struct ltt_relay_snap_conn *sc, uint64_t deadline_ms)
{
	const struct timespec nap = { 0, 2000000L };
	struct ltt_consumer_relay_status_reply st = { 0 };
	bool pending = true;
	int ret;

	while (pending) {
		ret = ltt_consumer_relay_data_pending(sc->c, sc->link.key, &pending);
		if (ret)
			return ret;
		if (!pending)
			break;
		if (ltt_relay_conn_now_ms() > deadline_ms)
			return -ETIMEDOUT;
		nanosleep(&nap, NULL);
	}
	ret = ltt_consumer_relay_status(sc->c, sc->link.key, &st);
	if (ret)
		return ret;
	if (st.conn_error)
		return st.conn_error < 0 ? st.conn_error : -st.conn_error;
	return st.packets_lost ? -EIO : 0;
}

int ltt_relay_snap_end(struct ltt_relay_snap *s, int err)
{
	uint64_t deadline = ltt_relay_conn_now_ms() + LTT_RELAY_SNAP_DRAIN_MS;
	unsigned int i;
	int ret;

	for (i = 0; i < s->nr; i++) {
		ret = err ? 0 : snap_conn_end(&s->v[i], deadline);
		if (ret) {
			LTT_WARN("session '%s': snapshot to the relay: %s", s->session->name,
				 strerror(-ret));
			s->relay_err = ret;
			err = ret;
		}
		ltt_relay_detach(&s->v[i].link, s->v[i].c, s->v[i].link.consumer_gen);
	}
	s->nr = 0;
	return err;
}
