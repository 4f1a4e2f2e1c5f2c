// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kabi.c - what of sessiond/kabi/kabi.c runs without the kernel tracer:
 * the kernel thread's event loop is started, answers the VERSION request
 * posted to it (here refused: /dev/null is not the tracer), and is
 * stopped and joined by the close that follows, leaving no thread and no
 * fd behind.  And, with a stub backend whose SESSION waits until the test
 * lets it go, that a request gives the caller's session's state lock back
 * while the kernel thread works (list reads on; the gate stays held), and
 * keeps it when the caller is pinned or tried the session.  The tracer's
 * own answers are tested in tests/kernel/.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sessiond/kabi/kabi-backend.h"
#include "sessiond/kabi/kabi.h"
#include "sessiond/model/session.h"
#include "tests/unit/tap.h"

#define ROUNDS 200

/* Entries of a /proc/self directory (fds, threads), or -1. */
static int count_entries(const char *path)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - (strcmp(path, "/proc/self/fd") ? 0 : 1);	/* opendir's own fd */
}

/* The stub tracer: SESSION waits in the kernel thread until let go. */
static pthread_mutex_t stub_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stub_cond = PTHREAD_COND_INITIALIZER;
static bool stub_in, stub_go;

static int stub_open(const char *path, struct ltt_kabi_obj *ret)
{
	(void)path;
	ret->fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ret->priv = NULL;
	return ret->fd < 0 ? -errno : 0;
}

static int stub_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		    struct ltt_kabi_obj *ret_new)
{
	struct ltt_kabi_version *v = arg;

	(void)obj;
	if (op == LTT_KABI_OP_VERSION) {
		memset(v, 0, sizeof(*v));
		v->major = LTT_KABI_MAJOR;
		v->minor = LTT_KABI_MINOR;
		return 0;
	}
	if (op != LTT_KABI_OP_SESSION)
		return -ENOTTY;
	pthread_mutex_lock(&stub_lock);
	stub_in = true;
	pthread_cond_broadcast(&stub_cond);
	while (!stub_go)
		pthread_cond_wait(&stub_cond, &stub_lock);
	stub_go = stub_in = false;
	pthread_mutex_unlock(&stub_lock);
	*ret_new = (struct ltt_kabi_obj){ .fd = open("/dev/null", O_RDONLY | O_CLOEXEC) };
	return ret_new->fd < 0 ? -errno : 0;
}

static void stub_release(struct ltt_kabi_obj *obj)
{
	if (obj->fd >= 0)
		close(obj->fd);
}

static const struct ltt_kabi_backend stub = {
	.name = "stub", .open = stub_open, .run = stub_run, .release = stub_release,
};

/* How the requesting thread holds the session around its request. */
enum hold { HOLD_LOCK, HOLD_PINNED, HOLD_TRIED };

struct requester {
	struct ltt_kabi *kabi;
	struct ltt_session *session;
	enum hold hold;
	int ret;
	bool held_after;	/* it held the state lock again when the answer came */
};

static void *request_main(void *arg)
{
	struct requester *r = arg;
	ltt_khandle h;

	if (r->hold == HOLD_TRIED) {
		while (!ltt_session_trylock(r->session))
			;
	} else {
		ltt_session_lock(r->session);
	}
	if (r->hold == HOLD_PINNED)
		ltt_session_pin();
	r->ret = ltt_kabi_session_create(r->kabi, &h);
	r->held_after = pthread_mutex_trylock(&r->session->lock) == EBUSY;
	if (!r->ret)
		ltt_kabi_release(r->kabi, h);
	if (r->hold == HOLD_PINNED)
		ltt_session_unpin();
	ltt_session_unlock(r->session);
	return NULL;
}

/*
 * A request of a thread holding @s as @hold, waiting in the kernel
 * thread: is @s's state lock free meanwhile (@ret_free), and its gate
 * (@ret_gate_free)?  True when the request then succeeded and the thread
 * had the state lock back.
 */
static bool request_while(struct ltt_kabi *kabi, struct ltt_session *s, enum hold hold,
			  bool *ret_free, bool *ret_gate_free)
{
	struct requester r = { .kabi = kabi, .session = s, .hold = hold, .ret = -1 };
	pthread_t tid;

	if (pthread_create(&tid, NULL, request_main, &r))
		return false;
	pthread_mutex_lock(&stub_lock);
	while (!stub_in)
		pthread_cond_wait(&stub_cond, &stub_lock);
	pthread_mutex_unlock(&stub_lock);
	*ret_free = !pthread_mutex_trylock(&s->lock);
	if (*ret_free)
		pthread_mutex_unlock(&s->lock);
	*ret_gate_free = ltt_session_trylock(s);
	if (*ret_gate_free)
		ltt_session_unlock(s);
	pthread_mutex_lock(&stub_lock);
	stub_go = true;
	pthread_cond_broadcast(&stub_cond);
	pthread_mutex_unlock(&stub_lock);
	pthread_join(tid, NULL);
	return !r.ret && r.held_after;
}

static void test_state_lock_given_back(void)
{
	struct ltt_kabi_version version;
	struct ltt_kabi *kabi = NULL;
	struct ltt_session s;
	bool free_, gate_free;

	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.gate, NULL);
	pthread_mutex_init(&s.lock, NULL);
	tap_is_int(ltt_kabi_open(&stub, NULL, &kabi, &version), 0, "the stub tracer opens");
	if (!kabi) {
		for (int i = 0; i < 3; i++)
			tap_skip("no kernel thread");
		return;
	}
	tap_ok(request_while(kabi, &s, HOLD_LOCK, &free_, &gate_free) && free_ && !gate_free,
	       "a request gives the session's state lock back while the kernel thread works, "
	       "keeps its gate, and has the lock again once answered");
	tap_ok(request_while(kabi, &s, HOLD_PINNED, &free_, &gate_free) && !free_ && !gate_free,
	       "a pinned caller keeps the state lock across its request");
	tap_ok(request_while(kabi, &s, HOLD_TRIED, &free_, &gate_free) && !free_ && !gate_free,
	       "a session taken with trylock (the rotation thread) keeps its state lock");
	ltt_kabi_close(kabi);
	pthread_mutex_destroy(&s.gate);
	pthread_mutex_destroy(&s.lock);
}

/* The module refuses probes in one sentence: it places none (its probes bits are 0). */
static void test_module_probes(void)
{
	struct ltt_kabi_version v = { .major = LTT_KABI_MAJOR, .minor = LTT_KABI_MINOR_PROBE };
	char why[512];

	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_UPROBE, "probe p refused", why,
					 sizeof(why)),
		   -EOPNOTSUPP, "the module places no user-space probe: EOPNOTSUPP");
	tap_ok(strstr(why, "probe p refused: ltt's module places no user-space probes: run the session daemon with the tracefs backend") != NULL,
	       "... saying to use the tracefs backend: %s", why);
	v.minor = LTT_KABI_MINOR_PROBE - 1;
	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_KPROBE, "probe k refused", why,
					 sizeof(why)),
		   -ENOTTY, "a module older than 1.7: ENOTTY (reload it)");
	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_FILTER, "f", why, sizeof(why)), 0,
		   "... other features unchanged");
}

/* Kernel maps: the module's from 1.9 on; an older one refused, saying to reload it. */
static void test_module_maps(void)
{
	struct ltt_kabi_version v = { .major = LTT_KABI_MAJOR, .minor = LTT_KABI_MINOR_KMAP,
				      .maps = 1 };
	char why[512];

	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_MAP, "map m refused", why, sizeof(why)),
		   0, "a module of 1.9 keeps kernel maps");
	v = (struct ltt_kabi_version){ .major = LTT_KABI_MAJOR, .minor = LTT_KABI_MINOR_KMAP - 1 };
	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_MAP, "map m refused", why, sizeof(why)),
		   -ENOTTY, "a module of 1.8: ENOTTY");
	tap_ok(strstr(why, "map m refused: the loaded kernel tracer speaks ABI 1.8, kernel map channels need 1.9: reload the module") != NULL,
	       "... in one sentence: %s", why);
}

/*
 * Buffers for the online CPUs only: a module of 1.10 is asked with
 * STREAM_IF_ALLOCATED, one of 1.9 without (it has every possible CPU's
 * buffer).
 */
static void test_module_hotplug(void)
{
	struct ltt_kabi_version v = { .major = LTT_KABI_MAJOR, .minor = LTT_KABI_MINOR_HOTPLUG };
	char why[512];

	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_HOTPLUG, "h", why, sizeof(why)), 0,
		   "a module of 1.10 makes buffers for the online CPUs only");
	v.minor = LTT_KABI_MINOR_HOTPLUG - 1;
	tap_is_int(ltt_kabi_module.lacks(&v, LTT_KABI_FEAT_HOTPLUG, "h", why, sizeof(why)),
		   -ENOTTY, "a module of 1.9: asked for every possible CPU's stream, as before");
}

int main(void)
{
	int fds = count_entries("/proc/self/fd"), tasks = count_entries("/proc/self/task");
	struct ltt_kabi_version version;
	struct ltt_kabi *kabi = NULL;
	int i, ret, wrong = 0;

	tap_plan(19);
	ret = ltt_kabi_open(&ltt_kabi_module, "/nonexistent/ltt", &kabi, &version);
	tap_is_int(ret, -ENOENT, "no tracer file: ENOENT");
	tap_ok(!kabi, "and no handle");

	ret = ltt_kabi_open(&ltt_kabi_module, "/dev/null", &kabi, &version);
	tap_is_int(ret, -ENOTTY, "a file that is not the tracer: its VERSION answer, ENOTTY");
	for (i = 0; i < ROUNDS; i++)
		if (ltt_kabi_open(&ltt_kabi_module, "/dev/null", &kabi, &version) != -ENOTTY)
			wrong++;
	tap_is_int(wrong, 0, "%d more opens, each answered by a new kernel thread", ROUNDS);

	tap_is_int(count_entries("/proc/self/task"), tasks,
		   "every kernel thread stopped and joined");
	tap_is_int(count_entries("/proc/self/fd"), fds,
		   "no fd left behind (the tracer's, the loop's epoll, eventfd, timerfd)");
	ltt_kabi_close(NULL);
	test_state_lock_given_back();
	test_module_probes();
	test_module_maps();
	test_module_hotplug();
	return tap_done();
}
