// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ust_notify_app.c - notifiers through a real app.sock connection to
 * a real instrumented program (test_tracepoint_app "count 100", linked to
 * the shared library), with the fake session daemon of fake-app.h sending
 * NOTIFIER_ADD and NOTIFIER_REMOVE with real AF_UNIX SOCK_SEQPACKET pairs,
 * as the session daemon does:
 *
 *   - refusals: no fd (EPROTO), a key without LTT_APP_NOTIFIER_KEY_BIT
 *     (EPROTO), a capture the parser refuses and an fd that is not a
 *     SOCK_SEQPACKET socket (/dev/null, a pipe, a stream pair: EINVAL), a
 *     key taken (EEXIST); CHANNEL_* can't reach a notifier (ENOENT),
 *     CHANNEL_ADD can't take its key (EINVAL);
 *   - app:first {int v, string s} recorded in a channel and notified with
 *     a filter (v >= 90): the channel gets the 100 events, the socket the
 *     10 messages, one a record, with v, s and $ctx.vpid;
 *   - NOTIFIER_REMOVE: acked, its socket closed by the program, nothing on
 *     it;
 *   - a notifier whose daemon end is closed before the events (a daemon
 *     gone), SIGPIPE at its default action in the program: it runs its
 *     100 events and exits normally.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/filter/filter-compile.h"
#include "common/filter/filter-parse.h"
#include "tests/unit/fake-app.h"
#include "tests/unit/tap.h"

#define CHAN_KEY 91
#define NKEY (LTT_APP_NOTIFIER_KEY_BIT | 1)
#define NKEY2 (LTT_APP_NOTIFIER_KEY_BIT | 2)
#define NKEY3 (LTT_APP_NOTIFIER_KEY_BIT | 3)
#define EVENT "app:first"

/* NOTIFIER_ADD of @key with @nr captures and @fds; the ACK status. */
static int notifier_add(struct fake *f, uint64_t key, uint32_t nr, const char *const *caps,
			const int *fds, unsigned int nr_fds)
{
	struct ltt_app_notifier_add m = { .key = key, .nr_captures = nr };
	struct ltt_wbuf w;
	uint32_t i;
	int ret;

	for (i = 0; i < nr; i++)
		m.captures[i] = caps[i];
	ltt_wbuf_init(&w);
	/* by hand: the encoder would not send a key without its bit */
	ltt_wbuf_put_u64(&w, m.key);
	ltt_wbuf_put_u32(&w, m.nr_captures);
	for (i = 0; i < nr; i++)
		ltt_wbuf_put_str(&w, m.captures[i]);
	ret = fake_command(f, LTT_APP_MSG_NOTIFIER_ADD, &w, fds, nr_fds);
	ltt_wbuf_fini(&w);
	return ret;
}

/* EVENT_FILTER of one program, compiled for app:first {int v, string s}. */
static int send_filter(struct fake *f, uint64_t key, const char *expr)
{
	static const struct ltt_filter_field_desc fields[] = {
		{ "v", LTT_UST_TYPE_INTEGER, 4, 1, LTT_UST_ENCODING_NONE, 0, 0 },
		{ "s", LTT_UST_TYPE_STRING, 1, 0, LTT_UST_ENCODING_NONE, 0, 0 },
	};
	struct ltt_app_event_filter m = { .channel_key = key, .name = EVENT, .nr_programs = 1 };
	struct ltt_filter_node *root = NULL;
	uint8_t *code = NULL;
	struct ltt_wbuf w;
	size_t len = 0;
	int ret;

	if (ltt_filter_parse(expr, &root, NULL) ||
	    ltt_filter_compile(root, fields, 2, &code, &len, NULL))
		exit(1);
	m.programs[0].code = code;
	m.programs[0].len = (uint32_t)len;
	ltt_wbuf_init(&w);
	ltt_app_put_event_filter(&w, &m);
	ret = fake_command(f, LTT_APP_MSG_EVENT_FILTER, &w, NULL, 0);
	ltt_wbuf_fini(&w);
	ltt_filter_free(root);
	free(code);
	return ret;
}

/* A socket pair as the daemon makes one: [0] the daemon's end, [1] the program's. */
static void make_pair(int *p)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p)) {
		tap_diag("socketpair: %s", strerror(errno));
		exit(1);
	}
}

/*
 * The next record of @fd (blocking) into @buf (@max bytes): its length, 0
 * at EOF (the program's end closed), -1 on an error or a record cut.
 */
static ssize_t recv_record(int fd, uint8_t *buf, size_t max)
{
	struct iovec iov = { .iov_base = buf, .iov_len = max };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;

	do {
		r = recvmsg(fd, &mh, 0);
	} while (r < 0 && errno == EINTR);
	return r < 0 || (mh.msg_flags & MSG_TRUNC) ? -1 : r;
}

static void refusals(struct fake *f)
{
	static const char *const bad[] = { "v[x]" };
	static const char *const good[] = { "v" };
	int p[2], q[2], s[2], null_fd = open("/dev/null", O_WRONLY);

	make_pair(p);
	if (pipe(q) || socketpair(AF_UNIX, SOCK_STREAM, 0, s))
		exit(1);
	tap_is_int(notifier_add(f, NKEY, 1, good, NULL, 0), -EPROTO,
		   "NOTIFIER_ADD without fd: EPROTO");
	tap_is_int(notifier_add(f, 7, 1, good, &p[1], 1), -EPROTO,
		   "a key without LTT_APP_NOTIFIER_KEY_BIT: EPROTO");
	tap_is_int(notifier_add(f, NKEY, 1, bad, &p[1], 1), -EINVAL, "a bad capture: EINVAL");
	tap_is_int(notifier_add(f, NKEY, 1, good, &null_fd, 1), -EINVAL,
		   "not a socket (/dev/null): EINVAL");
	tap_is_int(notifier_add(f, NKEY, 1, good, &q[1], 1), -EINVAL, "a pipe's write end: EINVAL");
	tap_is_int(notifier_add(f, NKEY, 1, good, &s[1], 1), -EINVAL,
		   "a SOCK_STREAM pair's end: EINVAL");
	tap_is_int(fake_key_command(f, LTT_APP_MSG_NOTIFIER_REMOVE, NKEY), -ENOENT,
		   "NOTIFIER_REMOVE of an unknown key: ENOENT");
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(s[0]);
	close(s[1]);
	close(null_fd);
}

int main(void)
{
	static const char *const caps[] = { "v", "s", "$ctx.vpid" };
	static const char *const args[] = { "count", "100", NULL };
	static uint8_t buf[1 << 16];
	uint32_t ids[256];
	int values[256];
	struct ltt_app_notify m;
	struct fake f;
	int p[2], q[2], g[2], n = 0, ret;
	size_t mlen;
	ssize_t len;
	bool good = true;
	pid_t pid;

	/* its default action, inherited by the program: a SIGPIPE would kill it */
	signal(SIGPIPE, SIG_DFL);
	fake_program_path("test_tracepoint_app", fake_app_path, sizeof(fake_app_path));
	fake_init(&f, true);
	pid = fake_spawn(&f, NULL, args, NULL);
	if (!fake_register(&f) || fake_channel_add(&f, CHAN_KEY)) {
		tap_diag("registration failed");
		fake_reap(pid, FAKE_WAIT_MS);
		return 1;
	}
	refusals(&f);
	make_pair(p);
	make_pair(q);
	make_pair(g);
	tap_is_int(notifier_add(&f, NKEY, 3, caps, &p[1], 1), 0,
		   "NOTIFIER_ADD with a SOCK_SEQPACKET pair's end: 0");
	tap_is_int(notifier_add(&f, NKEY, 3, caps, &q[1], 1), -EEXIST, "the same key: EEXIST");
	tap_is_int(fake_key_command(&f, LTT_APP_MSG_CHANNEL_ENABLE, NKEY), -ENOENT,
		   "CHANNEL_ENABLE of a notifier's key: ENOENT");
	tap_is_int(fake_key_command(&f, LTT_APP_MSG_CHANNEL_REMOVE, NKEY), -ENOENT,
		   "CHANNEL_REMOVE of a notifier's key: ENOENT");
	tap_is_int(fake_channel_add(&f, NKEY2), -EINVAL, "CHANNEL_ADD of a notifier's key: EINVAL");
	tap_is_int(send_filter(&f, NKEY, "v >= 90"), 0, "EVENT_FILTER on the notifier");
	tap_is_int(fake_event_enable(&f, NKEY, EVENT, 0), 0, "EVENT_ENABLE in the notifier");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, EVENT, 0), 0, "and in the channel");
	tap_is_int(notifier_add(&f, NKEY2, 0, NULL, &q[1], 1), 0, "a second notifier");
	tap_is_int(fake_event_enable(&f, NKEY2, EVENT, 0), 0, "the event in it too");
	tap_is_int(fake_key_command(&f, LTT_APP_MSG_NOTIFIER_REMOVE, NKEY2), 0, "NOTIFIER_REMOVE: 0");
	tap_is_int(notifier_add(&f, NKEY3, 0, NULL, &g[1], 1), 0, "a third notifier");
	tap_is_int(fake_event_enable(&f, NKEY3, EVENT, 0), 0, "the event in it, unfiltered");
	close(g[0]);	/* its daemon end gone before any event */
	close(g[1]);
	close(p[1]);
	close(q[1]);
	fake_done(&f);
	ret = fake_reap(pid, 3 * FAKE_WAIT_MS);
	tap_is_int(ret, 0, "the program ran \"count 100\" and exited, its third notifier's "
		   "daemon end closed, SIGPIPE at its default action");
	tap_is_int((int)fake_read_events(&f, ids, values, 256), 100,
		   "the channel has the 100 events");
	while ((len = recv_record(p[0], buf, sizeof(buf))) != 0) {
		char s[16];

		if (len < 0 || ltt_app_get_notify(buf, (size_t)len, &m, &mlen) ||
		    mlen != (size_t)len) {
			good = false;	/* not one whole message a record */
			break;
		}
		snprintf(s, sizeof(s), "ev-%d", 90 + n);
		good &= m.key == NKEY && !strcmp(m.event, EVENT) && !m.dropped &&
			m.nr_captures == 3 && m.captures[0].type == LTT_CAPTURE_SIGNED &&
			m.captures[0].bits == (uint64_t)(90 + n) &&
			m.captures[1].type == LTT_CAPTURE_STRING && !strcmp(m.captures[1].str, s) &&
			m.captures[2].type == LTT_CAPTURE_SIGNED && m.captures[2].bits == f.pid;
		n++;
	}
	tap_is_int(n, 10, "10 notifications (v >= 90), then EOF");
	tap_ok(good, "each one record: the key, app:first, v = 90..99, s = \"ev-v\", "
	       "$ctx.vpid the program's");
	tap_is_int((int)recv_record(q[0], buf, sizeof(buf)), 0,
		   "the removed notifier's socket: closed, nothing on it");
	close(p[0]);
	close(q[0]);
	fake_fini(&f);
	return tap_done();
}
