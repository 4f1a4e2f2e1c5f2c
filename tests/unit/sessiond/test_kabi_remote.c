// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kabi_remote.c - the kernel thread's operations forwarded to a
 * privileged part (sessiond/priv/priv.h, kabi/kabi-remote.c,
 * kabi/kabi-serve.c), generic over the operation table, with a fake
 * backend in the forked child: LIST's out entries come back into the
 * caller's array, a filter's programs and each program's code cross as
 * bytes (the child checks them), a tracker's ids go and come back, a
 * stream's fd is passed (read here what the child wrote into it), and
 * the caller's pointers are its own again after each call.  The
 * privileged end refuses what the table does not allow: a count above
 * its bound, an object of the wrong kind, an argument of the wrong size,
 * an unknown request.  Closing the link ends the child.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sessiond/kabi/kabi-remote.h"
#include "sessiond/kabi/kabi.h"
#include "sessiond/priv/priv.h"
#include "tests/unit/tap.h"

/* ---- the fake tracer, run in the child ---- */

static uint32_t fake_ids[LTT_KABI_TRACKER_MAX_IDS], fake_nr;

static int fake_open(const char *path, struct ltt_kabi_obj *ret)
{
	(void)path;
	*ret = (struct ltt_kabi_obj){ .fd = open("/dev/null", O_RDONLY | O_CLOEXEC) };
	return ret->fd < 0 ? -errno : 0;
}

/* LIST: three entries, "e0".."e2", as many as there is room for. */
static int fake_list(struct ltt_kabi_list *l)
{
	struct ltt_kabi_list_entry *e = (void *)(uintptr_t)l->entries;
	uint32_t i;

	for (i = 0; i < 3 && i < l->capacity; i++) {
		snprintf(e[i].name, sizeof(e[i].name), "e%u", i);
		e[i].nr_fields = i + 10;
	}
	l->count = 3;
	return 0;
}

/* A filter: program i is len bytes, each i + 1 (-EBADMSG otherwise). */
static int fake_filter(const struct ltt_kabi_event_filter *f)
{
	const struct ltt_kabi_filter_prog *p = (const void *)(uintptr_t)f->programs;
	const uint8_t *code;
	uint32_t i, j;

	for (i = 0; i < f->nr_programs; i++) {
		code = (const void *)(uintptr_t)p[i].code;
		for (j = 0; j < p[i].len; j++)
			if (code[j] != i + 1)
				return -EBADMSG;
	}
	return strcmp(f->event.name, "ev") ? -EBADMSG : 0;
}

static int fake_tracker(enum ltt_kabi_op op, struct ltt_kabi_tracker *t)
{
	uint32_t *ids = (void *)(uintptr_t)t->ids;

	if (op == LTT_KABI_OP_TRACKER_SET) {
		memcpy(fake_ids, ids, t->nr * sizeof(*ids));
		fake_nr = t->nr;
		return 0;
	}
	memcpy(ids, fake_ids, (t->nr < fake_nr ? t->nr : fake_nr) * sizeof(*ids));
	t->nr = fake_nr;
	t->policy = LTT_KABI_TRACKER_POLICY_SET;
	return 0;
}

/* STREAM: a pipe whose read end is the stream, "cpu N" in it. */
static int fake_stream(const struct ltt_kabi_stream *s, struct ltt_kabi_obj *ret)
{
	char text[32];
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	snprintf(text, sizeof(text), "cpu %u", s->cpu);
	if (write(p[1], text, strlen(text)) < 0)
		return -errno;
	close(p[1]);
	*ret = (struct ltt_kabi_obj){ .fd = p[0] };
	return 0;
}

static int fake_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		    struct ltt_kabi_obj *ret_new)
{
	struct ltt_kabi_version *v = arg;

	(void)obj;
	switch (op) {
	case LTT_KABI_OP_VERSION:
		memset(v, 0, sizeof(*v));
		v->major = LTT_KABI_MAJOR;
		v->minor = LTT_KABI_MINOR;
		return 0;
	case LTT_KABI_OP_LIST:
		return fake_list(arg);
	case LTT_KABI_OP_SESSION:
	case LTT_KABI_OP_CHANNEL:
		return fake_open(NULL, ret_new);
	case LTT_KABI_OP_STREAM:
		return fake_stream(arg, ret_new);
	case LTT_KABI_OP_EVENT_ENABLE_FILTERED:
	case LTT_KABI_OP_EVENT_SET_FILTER:
		return fake_filter(arg);
	case LTT_KABI_OP_TRACKER_SET:
	case LTT_KABI_OP_TRACKER_GET:
		return fake_tracker(op, arg);
	default:
		return -ENOTTY;
	}
}

static void fake_release(struct ltt_kabi_obj *obj)
{
	close(obj->fd);
}

static const struct ltt_kabi_backend fake = {
	.name = "fake", .open = fake_open, .run = fake_run, .release = fake_release,
};
static const struct ltt_kabi_backend *const fake_backends[] = { &fake };

static const struct ltt_priv_handler handlers[] = {
	{ LTT_PRIV_KABI_OPEN, "KABI_OPEN", 6, false, ltt_kabi_serve_open },
	{ LTT_PRIV_KABI_RUN, "KABI_RUN", 12, false, ltt_kabi_serve_run },
	{ LTT_PRIV_KABI_RELEASE, "KABI_RELEASE", 4, false, ltt_kabi_serve_release },
};

static int serve(int fd, pid_t daemon)
{
	struct ltt_kabi_server s = { .backends = fake_backends, .nr_backends = 1 };

	(void)daemon;
	ltt_priv_serve(fd, handlers, sizeof(handlers) / sizeof(handlers[0]), &s);
	ltt_kabi_server_fini(&s);
	return 0;
}

/* ---- the daemon's side ---- */

/* A raw KABI_RUN of @op on object @id with @arg (@size bytes), then @extra. */
static int raw_run(uint32_t op, uint32_t id, const void *arg, uint32_t size, const void *extra,
		   size_t extra_len)
{
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, op);
	ltt_wbuf_put_u32(&w, id);
	ltt_wbuf_put_u32(&w, size);
	ltt_wbuf_put_bytes(&w, arg, size);
	ltt_wbuf_put_bytes(&w, extra, extra_len);
	ret = ltt_priv_call(ltt_priv_get(), LTT_PRIV_KABI_RUN, &w, &m, &r);
	ltt_wbuf_fini(&w);
	if (!ret)
		ltt_msg_fini(&m);
	return ret;
}

static void test_refusals(void)
{
	struct ltt_kabi_tracker t = { .type = 0, .nr = LTT_KABI_TRACKER_MAX_IDS + 1 };
	struct ltt_kabi_version v;
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	/* object 1 is the tracer (the first opened), 2 a session */
	tap_is_int(raw_run(LTT_KABI_OP_TRACKER_SET, 2, &t, sizeof(t), NULL, 0), -EINVAL,
		   "a tracker of %u ids (above its bound): EINVAL", t.nr);
	tap_is_int(raw_run(LTT_KABI_OP_START, 1, NULL, 0, NULL, 0), -EINVAL,
		   "START on the tracer (a session's operation): EINVAL");
	tap_is_int(raw_run(LTT_KABI_OP_VERSION, 1, &v, sizeof(v) - 1, NULL, 0), -EINVAL,
		   "VERSION with an argument one byte short: EINVAL");
	tap_is_int(raw_run(LTT_KABI_OP_NR, 1, NULL, 0, NULL, 0), -EINVAL,
		   "an operation past the table: EINVAL");
	tap_is_int(raw_run(LTT_KABI_OP_VERSION, 999, &v, sizeof(v), NULL, 0), -EINVAL,
		   "an object never given: EINVAL");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, 1);
	tap_is_int(ltt_priv_call(ltt_priv_get(), (enum ltt_priv_request)99, &w, &m, &r), -ENOSYS,
		   "a request not in the table: ENOSYS");
	ltt_wbuf_fini(&w);
}

static void test_ops(struct ltt_kabi *kabi)
{
	static uint8_t p0[16], p1[40];
	uint8_t *code[2] = { p0, p1 };
	uint32_t len[2] = { sizeof(p0), sizeof(p1) }, ids[3] = { 5, 7, 9 }, got[8], nr = 8;
	uint32_t policy = 0;
	struct ltt_kabi_list_entry *e = NULL;
	struct ltt_kabi_channel attr = { .subbuf_size = 4096, .num_subbuf = 4 };
	ltt_khandle session = 0, chan = 0, stream = 0;
	char buf[32] = "";
	size_t n = 0;
	int fd = -1;

	memset(p0, 1, sizeof(p0));
	memset(p1, 2, sizeof(p1));
	tap_ok(!ltt_kabi_list(kabi, LTT_KABI_LIST_TRACEPOINTS, &e, &n) && n == 3 &&
	       !strcmp(e[0].name, "e0") && !strcmp(e[2].name, "e2") && e[2].nr_fields == 12,
	       "LIST: the child's three entries, into the caller's array");
	free(e);
	tap_ok(!ltt_kabi_session_create(kabi, &session) &&
	       !ltt_kabi_channel_create(kabi, session, &attr, &chan),
	       "a session and a channel, numbered in the child");
	tap_is_int(ltt_kabi_event_filter(kabi, chan, "ev", 1, true, code, len, 2), 0,
		   "a filter's two programs: each one's code crossed whole");
	p1[39] = 3;
	tap_is_int(ltt_kabi_event_filter(kabi, chan, "ev", 1, false, code, len, 2), -EBADMSG,
		   "one byte changed: the child saw it (EBADMSG)");
	tap_ok(!ltt_kabi_tracker_set(kabi, session, 0, LTT_KABI_TRACKER_POLICY_SET, ids, 3) &&
	       !ltt_kabi_tracker_get(kabi, session, 0, &policy, got, &nr) && nr == 3 &&
	       got[0] == 5 && got[2] == 9 && policy == LTT_KABI_TRACKER_POLICY_SET,
	       "a tracker's ids: set, then read back (5 7 9)");
	tap_ok(!ltt_kabi_stream_create(kabi, chan, 7, 0, &stream) && !ltt_kabi_dup(kabi, stream, &fd) &&
	       read(fd, buf, sizeof(buf) - 1) == 5 && !strcmp(buf, "cpu 7"),
	       "a stream's fd, passed back: what the child wrote in it reads here ('%s')", buf);
	if (fd >= 0)
		close(fd);
	tap_is_int(ltt_kabi_dup(kabi, session, &fd), -EINVAL,
		   "a session's fd stays in the child: no dup of it");
	ltt_kabi_release(kabi, stream);
}

int main(void)
{
	struct ltt_kabi_version version;
	struct ltt_kabi *kabi = NULL;
	pid_t child;
	int ret;

	tap_plan(16);
	ret = ltt_priv_start(serve, false, "ltt-priv");
	tap_is_int(ret, 0, "the privileged part is forked");
	if (ret)
		return tap_done();
	child = ltt_priv_pid(ltt_priv_get());
	ret = ltt_kabi_open(&fake, NULL, &kabi, &version);
	tap_ok(!ret && version.major == LTT_KABI_MAJOR,
	       "the fake tracer opened there answers VERSION (%d)", ret);
	if (ret)
		return tap_done();
	test_ops(kabi);
	test_refusals();
	ltt_kabi_close(kabi);
	ltt_priv_stop();
	tap_ok(waitpid(child, NULL, WNOHANG) < 0 && errno == ECHILD,
	       "the link closed, the child exited (reaped)");
	return tap_done();
}
