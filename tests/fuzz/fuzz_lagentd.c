// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_lagentd.c - the session daemon's agent port as it runs: the real
 * server (src/sessiond/lagent/lagent.c and lagent-port.c, its own thread
 * and loop) on loopback, driven by one agent whose bytes are the input.
 *
 * Input: the agent's first 16 bytes are its REGISTER; the rest is what it
 * sends once the daemon asked it for its loggers (LIST).  Each input gets
 * a fresh agent port (its port file in a new directory).  The phases are
 * ordered: the registration is sent; once the daemon answers
 * REGISTRATION_DONE (or closes), a listing of the agent's domain is asked
 * on another thread (ltt_lagent_list(), as a client's list -j would);
 * once the daemon sent LIST, the rest is sent and the agent's side closed.
 * Promises checked: no crash, no leak (LeakSanitizer), the daemon closes
 * the connection whose peer closed and the listing returns (10 s: more is
 * a hang), and the listing's reply holds exactly its count of entries
 * {u32 pid, str procname, str name, u32 flags, u32 0}, every name one the
 * agent sent.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "common/proto/lagent-proto.h"
#include "fuzz.h"
#include "sessiond/lagent/lagent.h"

#define DEADLINE_MS 10000

/* The agent port never syncs a session here (no session daemon around it). */
struct ltt_session_domain *ltt_session_domain(struct ltt_session *session, enum ltt_domain d)
{
	(void)session;
	(void)d;
	FUZZ_CHECK(!"ltt_session_domain() called");
	return NULL;
}

struct lister {
	struct ltt_lagent *lagent;
	uint32_t domain;
	struct ltt_wbuf reply;
	uint32_t count;
	int ret;
};

static void *list_run(void *arg)
{
	struct lister *l = arg;

	l->ret = ltt_lagent_list(l->lagent, l->domain, LTT_LIST_EVERY_USER, &l->reply, &l->count);
	return NULL;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Read what the daemon sends until @want bytes of it came (a command's
 * header: its number into *@ret_cmd) or it closed.  false: closed.
 */
static bool read_cmd(int fd, int64_t deadline, uint32_t *ret_cmd)
{
	uint8_t hdr[LTT_LAGENT_CMD_HDR_SIZE], skip[4096];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t size = 0;
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(hdr)) {
		FUZZ_CHECK(now_ms() < deadline);
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, hdr + got, sizeof(hdr) - got, 0);
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	memcpy(&size, hdr, 8);
	size = be64toh(size);
	*ret_cmd = ntohl(*(uint32_t *)(hdr + 8));
	while (size) {	/* its payload: not looked at */
		FUZZ_CHECK(now_ms() < deadline);
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, skip, size < sizeof(skip) ? size : sizeof(skip), 0);
		if (n <= 0)
			return false;
		size -= (uint64_t)n;
	}
	return true;
}

/* Until the daemon closes the connection (what it sends is dropped). */
static void drain(int fd, int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t buf[4096];

	for (;;) {
		if (now_ms() >= deadline) {
			fprintf(stderr, "fuzz_lagentd: the daemon kept a connection its agent closed\n");
			FUZZ_CHECK(!"closed in time");
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		if (recv(fd, buf, sizeof(buf), 0) <= 0)
			return;
	}
}

static void send_all(int fd, const uint8_t *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n <= 0)
			return;		/* closed by the daemon: fine */
		p += n;
		len -= (size_t)n;
	}
}

/* The listing's reply: exactly @count entries, each a name @sent holds. */
static void check_listing(const struct lister *l, const uint8_t *sent, size_t sent_len)
{
	struct ltt_rbuf r;
	char procname[64], name[LTT_LAGENT_LIST_MAX < 4096 ? LTT_LAGENT_LIST_MAX : 4096];
	uint32_t i;

	FUZZ_CHECK(!l->ret || l->ret == -ENOMEM || l->ret == -ETIMEDOUT);
	ltt_rbuf_init(&r, l->reply.data, l->reply.len);
	for (i = 0; i < l->count; i++) {
		ltt_rbuf_get_u32(&r);
		ltt_rbuf_get_str_copy(&r, procname, sizeof(procname));
		ltt_rbuf_get_str_copy(&r, name, sizeof(name));
		FUZZ_CHECK((ltt_rbuf_get_u32(&r) & ~LTT_LIST_AGENT_PID_CLAIMED) == 0);
		FUZZ_CHECK(ltt_rbuf_get_u32(&r) == 0);
		FUZZ_CHECK(!r.err);
		FUZZ_CHECK(memmem(sent, sent_len, name, strlen(name) + 1));
	}
	FUZZ_CHECK(!ltt_rbuf_end(&r));
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool once;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct lister l = { .ret = 0 };
	char dir[64] = "/tmp/ltt-fuzz-lagentd.XXXXXX", file[128], text[16] = "";
	size_t reg = size < LTT_LAGENT_REGISTER_SIZE ? size : LTT_LAGENT_REGISTER_SIZE;
	int64_t deadline = now_ms() + DEADLINE_MS;
	bool listing = false;
	pthread_t thread;
	uint32_t cmd = 0;
	FILE *f;
	int fd;

	if (!once) {
		ltt_log_init("fuzz_lagentd", getenv("LTT_FUZZ_VERBOSE") ? LTT_LOG_DEBUG : -1);
		signal(SIGPIPE, SIG_IGN);
		once = true;
	}
	FUZZ_CHECK(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/agent.port", dir);
	FUZZ_CHECK(!ltt_lagent_start(file, NULL, &l.lagent));
	f = fopen(file, "re");
	FUZZ_CHECK(f && fgets(text, sizeof(text), f));
	fclose(f);
	a.sin_port = htons((uint16_t)atoi(text));
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	FUZZ_CHECK(fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)));
	send_all(fd, data, reg);
	if (reg == LTT_LAGENT_REGISTER_SIZE && read_cmd(fd, deadline, &cmd) &&
	    cmd == LTT_LAGENT_REGISTRATION_DONE) {
		/* registered: its domain's listing asks it for its loggers */
		memcpy(&l.domain, data, 4);
		l.domain = ntohl(l.domain);
		ltt_wbuf_init(&l.reply);
		FUZZ_CHECK(!pthread_create(&thread, NULL, list_run, &l));
		listing = true;
		if (read_cmd(fd, deadline, &cmd))
			FUZZ_CHECK(cmd == LTT_LAGENT_LIST);
		send_all(fd, data + reg, size - reg);
	}
	shutdown(fd, SHUT_WR);
	drain(fd, deadline);
	close(fd);
	if (listing) {
		FUZZ_CHECK(!pthread_join(thread, NULL));
		check_listing(&l, data + reg, size - reg);
		if (getenv("LTT_FUZZ_VERBOSE"))
			fprintf(stderr, "fuzz_lagentd: the listing: %d, %u loggers\n", l.ret, l.count);
		ltt_wbuf_fini(&l.reply);
	}
	ltt_lagent_stop(l.lagent);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* REGISTER of @domain for a pid no process has (a claim the daemon takes). */
static void put_register(struct ltt_wbuf *w, uint32_t domain)
{
	ltt_wbuf_put_be32(w, domain);
	ltt_wbuf_put_be32(w, 4194303);
	ltt_wbuf_put_be32(w, LTT_LAGENT_MAJOR);
	ltt_wbuf_put_be32(w, LTT_LAGENT_MINOR);
}

/* LIST's reply: @n names "logger.N". */
static void put_list_reply(struct ltt_wbuf *w, uint32_t n)
{
	struct ltt_wbuf names;
	char name[32];
	uint32_t i;

	ltt_wbuf_init(&names);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "logger.%u", i);
		ltt_wbuf_put_bytes(&names, name, strlen(name) + 1);
	}
	ltt_wbuf_put_be32(w, LTT_LAGENT_STATUS_SUCCESS);
	ltt_wbuf_put_be32(w, (uint32_t)names.len);
	ltt_wbuf_put_be32(w, n);
	ltt_wbuf_put_bytes(w, names.data, names.len);
	ltt_wbuf_fini(&names);
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	put_register(&w, LTT_LAGENT_DOMAIN_PYTHON);
	put_list_reply(&w, 3);
	FUZZ_CHECK(!w.err);
	emit("python-list-3", w.data, w.len);
	ltt_wbuf_reset(&w);
	put_register(&w, LTT_LAGENT_DOMAIN_JUL);
	put_list_reply(&w, 0);
	emit("jul-list-0", w.data, w.len);
	ltt_wbuf_reset(&w);
	put_register(&w, LTT_LAGENT_DOMAIN_LOG4J);
	emit("log4j-silent", w.data, w.len);
	ltt_wbuf_fini(&w);
}
