// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi.c - the kernel thread: the only code of the daemon that issues
 * ioctls to the kernel tracer (see kabi.h).
 *
 * The thread runs an event loop (common/evloop.h) with nothing but posted
 * jobs: a caller posts its request (on its own stack) with
 * ltt_evloop_post() and waits on the request's completion (lock, cond,
 * req->done) until the thread has run it.  The loop runs jobs one at a
 * time in the order they were posted, which serializes the calls.  Only
 * the thread touches the object table and the fds in it.  A request names
 * an operation of the table below and a handle; the thread checks that
 * the handle is live and of the kind the operation applies to before
 * issuing the ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/evloop.h"
#include "common/log.h"
#include "sessiond/kabi.h"

#define KABI_DEFAULT_PATH	"/proc/" LTT_KABI_PROC_NAME
#define KABI_MAX_OBJECTS	(1U << 20)	/* handle: 20 bits of index */
#define KABI_INDEX_MASK		(KABI_MAX_OBJECTS - 1)
#define KABI_GEN_SHIFT		20
#define KABI_LIST_TRIES		4

enum kobj_kind {
	KOBJ_NONE = 0,
	KOBJ_TRACER,
	KOBJ_SESSION,
	KOBJ_CHANNEL,
	KOBJ_STREAM,
};

enum kop {
	KOP_VERSION,
	KOP_LIST,
	KOP_EVENT_DESC,
	KOP_SESSION,
	KOP_CHANNEL,
	KOP_START,
	KOP_STOP,
	KOP_STREAM,
	KOP_EVENT_ENABLE,
	KOP_EVENT_DISABLE,
	KOP_TRACKER_SET,
	KOP_TRACKER_GET,
	KOP_EVENT_ENABLE_FILTERED,
	KOP_EVENT_SET_FILTER,
	KOP_CONTEXT_ADD,
	KOP_STATEDUMP,
	KOP_NR_IOCTLS_,
	/* Not ioctls: done by the thread on the object's fd. */
	KOP_DUP = KOP_NR_IOCTLS_,
	KOP_RELEASE,
};

/* The allowed ioctls: nothing else is ever issued. */
static const struct kop_desc {
	const char *name;
	unsigned long request;
	enum kobj_kind on;		/* the object it is issued on */
	size_t arg_size;		/* 0: no argument */
	enum kobj_kind creates;		/* KOBJ_NONE: returns 0, else a new fd */
} kops[KOP_NR_IOCTLS_] = {
/* name, number and argument size all come from the ABI's LTT_KABI_<op> */
#define KOP(op, on, creates) \
	[KOP_##op] = { #op, LTT_KABI_##op, KOBJ_##on, _IOC_SIZE(LTT_KABI_##op), KOBJ_##creates }
	KOP(VERSION, TRACER, NONE),
	KOP(LIST, TRACER, NONE),
	KOP(EVENT_DESC, TRACER, NONE),
	KOP(SESSION, TRACER, SESSION),
	KOP(CHANNEL, SESSION, CHANNEL),
	KOP(START, SESSION, NONE),
	KOP(STOP, SESSION, NONE),
	KOP(STATEDUMP, SESSION, NONE),
	KOP(STREAM, CHANNEL, STREAM),
	KOP(EVENT_ENABLE, CHANNEL, NONE),
	KOP(EVENT_DISABLE, CHANNEL, NONE),
	KOP(TRACKER_SET, SESSION, NONE),
	KOP(TRACKER_GET, SESSION, NONE),
	KOP(EVENT_ENABLE_FILTERED, CHANNEL, NONE),
	KOP(EVENT_SET_FILTER, CHANNEL, NONE),
	KOP(CONTEXT_ADD, CHANNEL, NONE),
#undef KOP
};

struct kobj {
	int fd;			/* -1: free slot */
	enum kobj_kind kind;
	uint32_t gen;		/* bumped when the slot is freed */
};

/* A request: lives on its caller's stack until done. */
struct kreq {
	struct ltt_evloop_job job;	/* posted to the kernel thread's loop */
	struct ltt_kabi *kabi;
	enum kop op;
	ltt_khandle handle;
	void *arg;
	int ret;		/* 0 or -errno */
	ltt_khandle ret_handle;	/* created objects; KOP_DUP: unused */
	int ret_fd;		/* KOP_DUP */
	bool done;		/* under kabi->lock: the caller may go */
};

struct ltt_kabi {
	pthread_t tid;
	struct ltt_evloop *loop;	/* requests are posted to it */
	struct ltt_evloop_job stop_job;	/* posted by ltt_kabi_close() */
	pthread_mutex_t lock;		/* leaf; protects every kreq's done */
	pthread_cond_t cond;		/* a request is done */
	/* The thread's own. */
	struct kobj *objs;
	size_t nr_objs;
	ltt_khandle tracer;
};

static ltt_khandle make_handle(size_t index, uint32_t gen)
{
	return (ltt_khandle)(((gen & 0xfffU) << KABI_GEN_SHIFT) | (uint32_t)(index + 1));
}

static struct kobj *lookup(struct ltt_kabi *kabi, ltt_khandle handle)
{
	size_t index = (handle & KABI_INDEX_MASK);
	struct kobj *obj;

	if (index == 0 || index > kabi->nr_objs)
		return NULL;
	obj = &kabi->objs[index - 1];
	if (obj->fd < 0 || (obj->gen & 0xfffU) != handle >> KABI_GEN_SHIFT)
		return NULL;
	return obj;
}

/* Take ownership of @fd as a new object; closes it on failure. */
static int add_object(struct ltt_kabi *kabi, int fd, enum kobj_kind kind,
		      ltt_khandle *ret_handle)
{
	struct kobj *objs;
	size_t i;

	for (i = 0; i < kabi->nr_objs; i++)
		if (kabi->objs[i].fd < 0)
			goto found;
	if (kabi->nr_objs >= KABI_MAX_OBJECTS - 1) {
		close(fd);
		return -ENOSPC;
	}
	objs = realloc(kabi->objs, (kabi->nr_objs + 1) * sizeof(*objs));
	if (!objs) {
		close(fd);
		return -ENOMEM;
	}
	kabi->objs = objs;
	objs[kabi->nr_objs] = (struct kobj){ .fd = -1, .kind = KOBJ_NONE, .gen = 0 };
	i = kabi->nr_objs++;
found:
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	kabi->objs[i].fd = fd;
	kabi->objs[i].kind = kind;
	*ret_handle = make_handle(i, kabi->objs[i].gen);
	return 0;
}

static void release_object(struct kobj *obj)
{
	close(obj->fd);
	obj->fd = -1;
	obj->kind = KOBJ_NONE;
	obj->gen++;
}

/* Run one request on the kernel thread. */
static void run(struct ltt_kabi *kabi, struct kreq *req)
{
	struct kobj *obj = lookup(kabi, req->handle);
	const struct kop_desc *d;
	int rc;

	if (!obj) {
		req->ret = -EINVAL;
		return;
	}
	if (req->op == KOP_RELEASE) {
		release_object(obj);
		req->ret = 0;
		return;
	}
	if (req->op == KOP_DUP) {
		if (obj->kind != KOBJ_STREAM) {
			req->ret = -EINVAL;
			return;
		}
		rc = fcntl(obj->fd, F_DUPFD_CLOEXEC, 3);
		req->ret = rc < 0 ? -errno : 0;
		req->ret_fd = rc;
		return;
	}
	d = &kops[req->op];
	if (obj->kind != d->on || (d->arg_size != 0) != (req->arg != NULL)) {
		LTT_ERR("kernel: %s refused: wrong object or argument", d->name);
		req->ret = -EINVAL;
		return;
	}
	rc = d->arg_size ? ioctl(obj->fd, d->request, req->arg) : ioctl(obj->fd, d->request);
	if (rc < 0) {
		req->ret = -errno;
		LTT_DBG("kernel: %s: %s", d->name, strerror(errno));
		return;
	}
	req->ret = 0;
	if (d->creates != KOBJ_NONE)
		req->ret = add_object(kabi, rc, d->creates, &req->ret_handle);
}

/* A posted request (kernel thread): run it, wake its caller. */
static void on_request(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct kreq *req = (struct kreq *)((char *)job - offsetof(struct kreq, job));
	struct ltt_kabi *kabi = req->kabi;

	(void)loop;
	run(kabi, req);
	pthread_mutex_lock(&kabi->lock);
	req->done = true;	/* the caller may return (and free req) from here on */
	pthread_cond_broadcast(&kabi->cond);
	pthread_mutex_unlock(&kabi->lock);
}

/* Posted last by ltt_kabi_close(): every earlier request has run. */
static void on_stop(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	(void)job;
	ltt_evloop_stop(loop);
}

static void *thread_main(void *arg)
{
	struct ltt_kabi *kabi = arg;
	int ret;

	ret = ltt_evloop_run(kabi->loop);
	if (ret) {
		LTT_ERR("kernel thread: epoll_wait: %s", strerror(-ret));
		abort();	/* only EBADF, EFAULT, EINVAL: our bug; callers would wait forever */
	}
	return NULL;
}

/* Hand @req to the thread and wait for its answer. */
static int call(struct ltt_kabi *kabi, struct kreq *req)
{
	req->kabi = kabi;
	req->done = false;
	req->job.fn = on_request;
	ltt_evloop_post(kabi->loop, &req->job);
	pthread_mutex_lock(&kabi->lock);
	while (!req->done)
		pthread_cond_wait(&kabi->cond, &kabi->lock);
	pthread_mutex_unlock(&kabi->lock);
	return req->ret;
}

static int call_op(struct ltt_kabi *kabi, enum kop op, ltt_khandle handle, void *arg,
		   ltt_khandle *ret_handle)
{
	struct kreq req = { .op = op, .handle = handle, .arg = arg, .ret_fd = -1 };
	int ret = call(kabi, &req);

	if (ret == 0 && ret_handle)
		*ret_handle = req.ret_handle;
	return ret;
}

static void kabi_free(struct ltt_kabi *kabi)
{
	size_t i;

	for (i = 0; i < kabi->nr_objs; i++)
		if (kabi->objs[i].fd >= 0)
			close(kabi->objs[i].fd);
	free(kabi->objs);
	ltt_evloop_destroy(kabi->loop);
	pthread_cond_destroy(&kabi->cond);
	pthread_mutex_destroy(&kabi->lock);
	free(kabi);
}

int ltt_kabi_open(const char *path, struct ltt_kabi **ret_kabi,
		  struct ltt_kabi_version *ret_version)
{
	struct ltt_kabi_version version;
	struct ltt_kabi *kabi;
	int fd, ret;

	kabi = calloc(1, sizeof(*kabi));
	if (!kabi)
		return -ENOMEM;
	pthread_mutex_init(&kabi->lock, NULL);
	pthread_cond_init(&kabi->cond, NULL);
	ret = ltt_evloop_create(&kabi->loop);
	if (ret)
		goto err;
	fd = open(path ? path : KABI_DEFAULT_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto err;
	}
	ret = add_object(kabi, fd, KOBJ_TRACER, &kabi->tracer);
	if (ret)
		goto err;
	ret = -pthread_create(&kabi->tid, NULL, thread_main, kabi);
	if (ret)
		goto err;
	memset(&version, 0, sizeof(version));
	ret = call_op(kabi, KOP_VERSION, kabi->tracer, &version, NULL);
	if (ret) {
		ltt_kabi_close(kabi);
		return ret;
	}
	version.tracer_version[sizeof(version.tracer_version) - 1] = '\0';
	*ret_version = version;
	if (version.major != LTT_KABI_MAJOR) {
		ltt_kabi_close(kabi);
		return -EPROTO;
	}
	*ret_kabi = kabi;
	return 0;
err:
	kabi_free(kabi);
	return ret;
}

void ltt_kabi_close(struct ltt_kabi *kabi)
{
	if (!kabi)
		return;
	kabi->stop_job.fn = on_stop;
	ltt_evloop_post(kabi->loop, &kabi->stop_job);
	pthread_join(kabi->tid, NULL);
	kabi_free(kabi);
}

int ltt_kabi_list(struct ltt_kabi *kabi, enum ltt_kabi_list_kind kind,
		  struct ltt_kabi_list_entry **ret_entries, size_t *ret_count)
{
	struct ltt_kabi_list_entry *entries = NULL, *bigger;
	struct ltt_kabi_list list;
	uint32_t capacity = 0;
	int tries, ret;
	size_t i;

	for (tries = 0; tries < KABI_LIST_TRIES; tries++) {
		memset(&list, 0, sizeof(list));
		list.entries = (uint64_t)(uintptr_t)entries;
		list.capacity = capacity;
		list.kind = kind;
		ret = call_op(kabi, KOP_LIST, kabi->tracer, &list, NULL);
		if (ret)
			goto err;
		if (list.count <= capacity)
			goto done;
		/* The tracer has more (or grew meanwhile): make room, ask again. */
		capacity = list.count;
		bigger = realloc(entries, (size_t)capacity * sizeof(*entries));
		if (!bigger) {
			ret = -ENOMEM;
			goto err;
		}
		entries = bigger;
	}
	ret = -EAGAIN;
err:
	free(entries);
	return ret;
done:
	for (i = 0; i < list.count; i++)
		entries[i].name[sizeof(entries[i].name) - 1] = '\0';
	*ret_entries = entries;
	*ret_count = list.count;
	return 0;
}

/* Copy a name into a fixed ABI field; -EINVAL if it does not fit. */
static int put_name(char *dst, size_t size, const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= size)
		return -EINVAL;
	memcpy(dst, name, len + 1);
	return 0;
}

int ltt_kabi_event_desc(struct ltt_kabi *kabi, const char *name,
			struct ltt_kabi_event_desc *ret_desc)
{
	struct ltt_kabi_event_desc *desc;
	uint32_t i;
	int ret;

	desc = calloc(1, sizeof(*desc));
	if (!desc)
		return -ENOMEM;
	ret = put_name(desc->name, sizeof(desc->name), name);
	if (!ret)
		ret = call_op(kabi, KOP_EVENT_DESC, kabi->tracer, desc, NULL);
	if (!ret && desc->nr_fields > LTT_KABI_MAX_FIELDS)
		ret = -EPROTO;
	if (!ret) {
		for (i = 0; i < desc->nr_fields; i++)
			desc->fields[i].name[sizeof(desc->fields[i].name) - 1] = '\0';
		*ret_desc = *desc;
	}
	free(desc);
	return ret;
}

int ltt_kabi_session_create(struct ltt_kabi *kabi, ltt_khandle *ret_session)
{
	return call_op(kabi, KOP_SESSION, kabi->tracer, NULL, ret_session);
}

int ltt_kabi_channel_create(struct ltt_kabi *kabi, ltt_khandle session,
			    const struct ltt_kabi_channel *attr, ltt_khandle *ret_channel)
{
	struct ltt_kabi_channel arg = *attr;

	return call_op(kabi, KOP_CHANNEL, session, &arg, ret_channel);
}

int ltt_kabi_stream_create(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu,
			   ltt_khandle *ret_stream)
{
	struct ltt_kabi_stream arg = { .cpu = cpu };

	return call_op(kabi, KOP_STREAM, channel, &arg, ret_stream);
}

int ltt_kabi_stream_dup(struct ltt_kabi *kabi, ltt_khandle stream, int *ret_fd)
{
	struct kreq req = { .op = KOP_DUP, .handle = stream, .ret_fd = -1 };
	int ret = call(kabi, &req);

	if (ret == 0)
		*ret_fd = req.ret_fd;
	return ret;
}

int ltt_kabi_session_start(struct ltt_kabi *kabi, ltt_khandle session)
{
	return call_op(kabi, KOP_START, session, NULL, NULL);
}

int ltt_kabi_session_stop(struct ltt_kabi *kabi, ltt_khandle session)
{
	return call_op(kabi, KOP_STOP, session, NULL, NULL);
}

int ltt_kabi_session_statedump(struct ltt_kabi *kabi, ltt_khandle session)
{
	return call_op(kabi, KOP_STATEDUMP, session, NULL, NULL);
}

static int event_op(struct ltt_kabi *kabi, enum kop op, ltt_khandle channel, const char *name,
		    uint32_t id)
{
	struct ltt_kabi_event arg;
	int ret;

	memset(&arg, 0, sizeof(arg));
	ret = put_name(arg.name, sizeof(arg.name), name);
	if (ret)
		return ret;
	arg.id = id;
	return call_op(kabi, op, channel, &arg, NULL);
}

int ltt_kabi_event_enable(struct ltt_kabi *kabi, ltt_khandle channel, const char *name,
			  uint32_t id)
{
	return event_op(kabi, KOP_EVENT_ENABLE, channel, name, id);
}

int ltt_kabi_event_disable(struct ltt_kabi *kabi, ltt_khandle channel, const char *name)
{
	return event_op(kabi, KOP_EVENT_DISABLE, channel, name, 0);
}

int ltt_kabi_tracker_set(struct ltt_kabi *kabi, ltt_khandle session, uint32_t type,
			 uint32_t policy, const uint32_t *ids, uint32_t nr)
{
	struct ltt_kabi_tracker arg = {
		.type = type, .policy = policy, .nr = nr, .ids = (uint64_t)(uintptr_t)ids,
	};

	return call_op(kabi, KOP_TRACKER_SET, session, &arg, NULL);
}

int ltt_kabi_tracker_get(struct ltt_kabi *kabi, ltt_khandle session, uint32_t type,
			 uint32_t *ret_policy, uint32_t *ids, uint32_t *nr)
{
	struct ltt_kabi_tracker arg = {
		.type = type, .nr = *nr, .ids = (uint64_t)(uintptr_t)ids,
	};
	int ret = call_op(kabi, KOP_TRACKER_GET, session, &arg, NULL);

	if (!ret) {
		*ret_policy = arg.policy;
		*nr = arg.nr;
	}
	return ret;
}

int ltt_kabi_event_filter(struct ltt_kabi *kabi, ltt_khandle channel, const char *name,
			  uint32_t id, bool enable, uint8_t *const *code, const uint32_t *len,
			  uint32_t nr)
{
	struct ltt_kabi_filter_prog progs[LTT_KABI_FILTER_MAX_PROGRAMS];
	struct ltt_kabi_event_filter arg;
	uint32_t i;
	int ret;

	if (nr > LTT_KABI_FILTER_MAX_PROGRAMS)
		return -E2BIG;
	memset(&arg, 0, sizeof(arg));
	memset(progs, 0, sizeof(progs));
	ret = put_name(arg.event.name, sizeof(arg.event.name), name);
	if (ret)
		return ret;
	arg.event.id = enable ? id : 0;
	for (i = 0; i < nr; i++) {
		progs[i].code = (uint64_t)(uintptr_t)code[i];
		progs[i].len = len[i];
	}
	arg.programs = (uint64_t)(uintptr_t)progs;
	arg.nr_programs = nr;
	return call_op(kabi, enable ? KOP_EVENT_ENABLE_FILTERED : KOP_EVENT_SET_FILTER, channel,
		       &arg, NULL);
}

int ltt_kabi_context_add(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t type,
			 uint32_t *ret_size)
{
	struct ltt_kabi_context arg = { .type = type };
	int ret = call_op(kabi, KOP_CONTEXT_ADD, channel, &arg, NULL);

	if (!ret)
		*ret_size = arg.size;
	return ret;
}

void ltt_kabi_release(struct ltt_kabi *kabi, ltt_khandle handle)
{
	if (handle && handle != kabi->tracer)
		(void)call_op(kabi, KOP_RELEASE, handle, NULL, NULL);
}
