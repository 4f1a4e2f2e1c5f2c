// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-health.c - LTTng 2.13's session daemon health socket
 * (sessiond-health, beside LTTng's client socket) on ltt's threads'
 * heartbeats (ltt_heartbeat_stalled()): what liblttng-ctl's
 * lttng_health_query() and lttng-tools' health_check ask.
 *
 * A client sends {u32 cmd}; for CHECK it reads {u64 ret_code}: the bits
 * of LTTng's thread slots (lttng-client-proto.h) whose ltt loop is stuck,
 * awake in one callback for longer than the delta.  Its own thread: the
 * answer comes while the others are stuck.  The mapping of slots to ltt's
 * threads, and the delta, are in doc/lttng-compat.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/heartbeat.h"
#include "common/base/log.h"
#include "common/proto/lttng-client-proto.h"
#include "sessiond/lttng-compat.h"

/* LTTng's delta (DEFAULT_HEALTH_CHECK_DELTA_S) and TCP timeout floor (DEFAULT_INET_TCP_TIMEOUT). */
#define HEALTH_DELTA_S 20ULL
#define HEALTH_TCP_TIMEOUT_S 180ULL
/* Connections waiting for their request at once; more are closed at once. */
#define HEALTH_CONNS_MAX 64
/* Every slot LTTng 2.13's session daemon has (NR_HEALTH_SESSIOND_TYPES). */
#define HEALTH_SLOTS ((1ULL << 12) - 1)

struct ltt_lttng_health {
	struct ltt_evloop_server srv;
	uint64_t delta_ns;
	unsigned int conns;	/* the loop's */
};

/*
 * LTTng's delta: 20 s more than its TCP timeout, which is
 * LTTNG_NETWORK_SOCKET_TIMEOUT's number when set (added as seconds, as
 * LTTng 2.13's health.c adds it), else 180 s.  LTT_SESSIOND_HEALTH_DELTA_MS,
 * ltt's, sets it outright (tests).
 */
static uint64_t health_delta_ns(void)
{
	const char *ltt = getenv("LTT_SESSIOND_HEALTH_DELTA_MS");
	const char *net = getenv("LTTNG_NETWORK_SOCKET_TIMEOUT");
	unsigned long long v;
	char *end;

	if (ltt && *ltt) {
		v = strtoull(ltt, &end, 10);
		if (!*end && v)
			return v * 1000000ULL;
		LTT_WARN("LTT_SESSIOND_HEALTH_DELTA_MS='%s': not a number of milliseconds above 0; LTTng's delta is used",
			 ltt);
	}
	v = HEALTH_TCP_TIMEOUT_S;
	if (net && *net) {
		long long n = strtoll(net, &end, 0);

		if (!*end && n > 0)
			v = (unsigned long long)n;
	}
	return (v + HEALTH_DELTA_S) * 1000000000ULL;
}

/* A health client's request: answered, then the connection ends. */
static void on_request(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_lttng_health *h = arg;
	uint64_t code;
	uint32_t cmd;
	ssize_t n;

	(void)events;
	n = recv(fd, &cmd, sizeof(cmd), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == (ssize_t)sizeof(cmd) && cmd == LTT_LTTNG_HEALTH_CMD_CHECK) {
		code = ltt_heartbeat_stalled(h->delta_ns, ltt_evloop_now_ns()) & HEALTH_SLOTS;
		if (send(fd, &code, sizeof(code), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(code))
			LTT_WARN_RL("health socket: reply not sent: %s", strerror(errno));
	} else if (n > 0) {
		LTT_WARN_RL("health socket: request of %zd bytes, command %u: only CHECK (0) is served",
			    n, n == (ssize_t)sizeof(cmd) ? cmd : 0U);
	}
	ltt_evloop_unwatch_fd(loop, fd);
	close(fd);
	h->conns--;
}

static void accept_one(struct ltt_evloop *loop, int fd, void *arg)
{
	struct ltt_lttng_health *h = arg;

	if (h->conns >= HEALTH_CONNS_MAX) {
		LTT_WARN_RL("health socket: %u connections wait for their request already: one more closed",
			    h->conns);
		close(fd);
		return;
	}
	if (ltt_evloop_watch(loop, fd, EPOLLIN, on_request, h, NULL))
		close(fd);
	else
		h->conns++;
}

int ltt_lttng_health_start(int fd, struct ltt_lttng_health **ret_health)
{
	struct ltt_lttng_health *h = calloc(1, sizeof(*h));
	int ret;

	if (h)
		h->delta_ns = health_delta_ns();
	*ret_health = ltt_evloop_server_adopt(h, h ? &h->srv : NULL, fd,
					      SOCK_CLOEXEC | SOCK_NONBLOCK, "health clients",
					      accept_one, NULL, "health thread", &ret);
	if (!ret)
		LTT_INFO("--lttng-compat: a thread is in bad health on LTTng's health socket after %llu ms stuck",
			 (unsigned long long)(h->delta_ns / 1000000ULL));
	return ret;
}

void ltt_lttng_health_stop(struct ltt_lttng_health *h)
{
	if (!h)
		return;
	ltt_evloop_server_stop(&h->srv);
	ltt_evloop_server_fini(&h->srv);
	free(h);
}
