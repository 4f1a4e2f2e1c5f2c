// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi.c - the kernel thread: the only code of the daemon that acts on
 * the kernel tracer (see kabi.h), through its backend (kabi-backend.h:
 * the module's ioctls or tracefs' files).
 *
 * The thread runs an event loop (common/base/evloop.h) with nothing but posted
 * jobs: a caller posts its request (on its own stack) with
 * ltt_evloop_post() and waits on the request's completion (lock, cond,
 * req->done) until the thread has run it.  The loop runs jobs one at a
 * time in the order they were posted, which serializes the calls.  Only
 * the thread touches the object table and the fds in it.  A request names
 * an operation of the table (kabi-ops.c) and a handle; the thread checks that
 * the handle is live and of the kind the operation applies to before
 * the backend runs it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/base/testpoint.h"
#include "common/proto/lttng-health.h"
#include "sessiond/kabi/kabi-backend.h"
#include "sessiond/kabi/kabi-remote.h"
#include "sessiond/kabi/kabi.h"
#include "sessiond/model/session.h"

#define KABI_MAX_OBJECTS	(1U << 20)	/* handle: 20 bits of index */
#define KABI_INDEX_MASK		(KABI_MAX_OBJECTS - 1)
#define KABI_GEN_SHIFT		20
#define KABI_LIST_TRIES		4

/* Not operations of a backend: done by the thread on the object's fd. */
enum {
	KOP_DUP = LTT_KABI_OP_NR,
	KOP_RELEASE,
};

struct kobj {
	struct ltt_kabi_obj o;	/* o.fd -1: free slot */
	uint32_t gen;		/* bumped when the slot is freed */
};

/* A request: lives on its caller's stack until done. */
struct kreq {
	struct ltt_evloop_job job;	/* posted to the kernel thread's loop */
	struct ltt_kabi *kabi;
	int op;			/* enum ltt_kabi_op, KOP_DUP or KOP_RELEASE */
	ltt_khandle handle;
	void *arg;
	int ret;		/* 0 or -errno */
	ltt_khandle ret_handle;	/* created objects; KOP_DUP: unused */
	int ret_fd;		/* KOP_DUP */
	bool done;		/* under kabi->lock: the caller may go */
};

struct ltt_kabi {
	const struct ltt_kabi_backend *backend;
	struct ltt_priv *remote;	/* runs the backend's open, run, release; NULL: here */
	struct ltt_kabi_version version;	/* the tracer's */
	pthread_t tid;
	struct ltt_evloop *loop;	/* requests are posted to it */
	struct ltt_evloop_job stop_job;	/* posted by ltt_kabi_close() */
	struct ltt_evloop_job points_job;	/* posted by ltt_kabi_run_points() */
	pthread_mutex_t lock;		/* leaf; protects every kreq's done */
	pthread_cond_t cond;		/* a request is done */
	/* The thread's own. */
	struct kobj *objs;
	size_t nr_objs;
	ltt_khandle tracer;
	bool failed;		/* its test point failed: requests are refused */
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
	if (obj->o.fd < 0 || (obj->gen & 0xfffU) != handle >> KABI_GEN_SHIFT)
		return NULL;
	return obj;
}

/* The backend's release, here or in the privileged part. */
static void b_release(struct ltt_kabi *kabi, struct ltt_kabi_obj *o)
{
	if (kabi->remote)
		ltt_kabi_remote_release(kabi->remote, o);
	else
		kabi->backend->release(o);
}

static void release_object(struct ltt_kabi *kabi, struct kobj *obj)
{
	b_release(kabi, &obj->o);
	obj->o = (struct ltt_kabi_obj){ .fd = -1 };
	obj->gen++;
}

/* Take ownership of @o as a new object of @kind; released on failure. */
static int add_object(struct ltt_kabi *kabi, struct ltt_kabi_obj o, enum ltt_kabi_kind kind,
		      ltt_khandle *ret_handle)
{
	struct kobj *objs;
	size_t i;

	o.kind = kind;	/* what the backend releases it as, on failure too */
	for (i = 0; i < kabi->nr_objs; i++)
		if (kabi->objs[i].o.fd < 0)
			goto found;
	objs = kabi->nr_objs < KABI_MAX_OBJECTS - 1 ?
	       realloc(kabi->objs, (kabi->nr_objs + 1) * sizeof(*objs)) : NULL;
	if (!objs) {
		b_release(kabi, &o);
		return kabi->nr_objs < KABI_MAX_OBJECTS - 1 ? -ENOMEM : -ENOSPC;
	}
	kabi->objs = objs;
	objs[kabi->nr_objs] = (struct kobj){ .o.fd = -1 };
	i = kabi->nr_objs++;
found:
	kabi->objs[i].o = o;
	*ret_handle = make_handle(i, kabi->objs[i].gen);
	return 0;
}

/*
 * KOP_DUP: a duplicate of a stream's fd (or a BPF ring's), for a consumer; or of a channel's
 * when the backend's channel fd is the event map consumers read (pages).
 */
static void dup_fd(struct ltt_kabi *kabi, struct kobj *obj, struct kreq *req)
{
	bool may = obj->o.kind == LTT_KABI_KIND_STREAM || obj->o.kind == LTT_KABI_KIND_BPF ||
		   (obj->o.kind == LTT_KABI_KIND_CHANNEL && kabi->backend->pages);
	int rc = may ? fcntl(obj->o.fd, F_DUPFD_CLOEXEC, 3) : -1;

	req->ret = !may ? -EINVAL : rc < 0 ? -errno : 0;
	req->ret_fd = rc;
}

/* Run one request on the kernel thread. */
static void run(struct ltt_kabi *kabi, struct kreq *req)
{
	struct kobj *obj = lookup(kabi, req->handle);
	struct ltt_kabi_obj made = { .fd = -1 };
	const struct ltt_kabi_op_desc *d;

	if (!obj) {
		req->ret = -EINVAL;
		return;
	}
	if (req->op == KOP_RELEASE) {
		release_object(kabi, obj);
		req->ret = 0;
		return;
	}
	if (req->op == KOP_DUP) {
		dup_fd(kabi, obj, req);
		return;
	}
	d = &ltt_kabi_ops[req->op];
	if (obj->o.kind != d->on || (d->arg_size != 0) != (req->arg != NULL)) {
		LTT_ERR("kernel: %s refused: wrong object or argument", d->name);
		req->ret = -EINVAL;
		return;
	}
	req->ret = kabi->remote ?
		   ltt_kabi_remote_run(kabi->remote, (enum ltt_kabi_op)req->op, &obj->o, req->arg,
				       &made) :
		   kabi->backend->run(req->op, &obj->o, req->arg, &made);
	if (!req->ret && d->creates != LTT_KABI_KIND_NONE)
		req->ret = add_object(kabi, made, d->creates, &req->ret_handle);
}

/* A posted request (kernel thread): run it, wake its caller. */
static void on_request(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct kreq *req = (struct kreq *)((char *)job - offsetof(struct kreq, job));
	struct ltt_kabi *kabi = req->kabi;

	(void)loop;
	if (kabi->failed)
		req->ret = -ECANCELED;
	else
		run(kabi, req);
	pthread_mutex_lock(&kabi->lock);
	req->done = true;	/* the caller may return (and free req) from here on */
	pthread_cond_broadcast(&kabi->cond);
	pthread_mutex_unlock(&kabi->lock);
}

/*
 * LTTng's kernel thread's test point (ltt_kabi_run_points()): stuck there,
 * the kernel thread's slot is in bad health and requests wait; failed,
 * the slot is in bad health for good and every later request is refused,
 * as LTTng's kernel thread, once ended in error, does its work no more.
 */
static void on_points(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	static struct ltt_testpoint tp = LTT_TESTPOINT_INIT(sessiond_thread_manage_kernel);
	static const struct ltt_evloop_point points[] = { { &tp, LTT_LTTNG_HEALTH_KERNEL } };
	struct ltt_kabi *kabi = (struct ltt_kabi *)((char *)job -
						    offsetof(struct ltt_kabi, points_job));

	if (ltt_evloop_run_points(loop, points, 1)) {
		LTT_ERR("kernel thread: LTTng's test point failed: the kernel tracer's requests are refused from now on");
		kabi->failed = true;
	}
}

void ltt_kabi_run_points(struct ltt_kabi *kabi)
{
	if (!ltt_testpoints_on)
		return;
	kabi->points_job.fn = on_points;
	ltt_evloop_post(kabi->loop, &kabi->points_job);
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

/*
 * Hand @req to the thread and wait for its answer, without the caller's
 * session's state lock (a state dump may take the tracer a while).
 */
static int call(struct ltt_kabi *kabi, struct kreq *req)
{
	struct ltt_session *waiting = ltt_session_wait_begin();

	req->kabi = kabi;
	req->done = false;
	req->job.fn = on_request;
	ltt_evloop_post(kabi->loop, &req->job);
	pthread_mutex_lock(&kabi->lock);
	while (!req->done)
		pthread_cond_wait(&kabi->cond, &kabi->lock);
	pthread_mutex_unlock(&kabi->lock);
	ltt_session_wait_end(waiting);
	return req->ret;
}

static int call_op(struct ltt_kabi *kabi, int op, ltt_khandle handle, void *arg,
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
		if (kabi->objs[i].o.fd >= 0)
			b_release(kabi, &kabi->objs[i].o);
	free(kabi->objs);
	ltt_evloop_destroy(kabi->loop);
	pthread_cond_destroy(&kabi->cond);
	pthread_mutex_destroy(&kabi->lock);
	free(kabi);
}

int ltt_kabi_open(const struct ltt_kabi_backend *backend, const char *path,
		  struct ltt_kabi **ret_kabi, struct ltt_kabi_version *ret_version)
{
	struct ltt_kabi_obj tracer;
	struct ltt_kabi_version *v;
	struct ltt_kabi *kabi;
	int ret;

	kabi = calloc(1, sizeof(*kabi));
	if (!kabi)
		return -ENOMEM;
	kabi->backend = backend;
	kabi->remote = ltt_priv_get();
	pthread_mutex_init(&kabi->lock, NULL);
	pthread_cond_init(&kabi->cond, NULL);
	ret = ltt_evloop_create(&kabi->loop);
	if (!ret)	/* LTTng's kernel thread's health slot */
		ltt_evloop_set_tag(kabi->loop, LTT_LTTNG_HEALTH_KERNEL);
	if (!ret)
		ret = kabi->remote ? ltt_kabi_remote_open(kabi->remote, backend, path, &tracer) :
				     backend->open(path, &tracer);
	if (!ret)
		ret = add_object(kabi, tracer, LTT_KABI_KIND_TRACER, &kabi->tracer);
	if (!ret)
		ret = -pthread_create(&kabi->tid, NULL, thread_main, kabi);
	if (ret) {
		kabi_free(kabi);
		return ret;
	}
	v = &kabi->version;
	ret = call_op(kabi, LTT_KABI_OP_VERSION, kabi->tracer, v, NULL);
	v->tracer_version[sizeof(v->tracer_version) - 1] = '\0';
	*ret_version = *v;
	if (!ret && v->major != LTT_KABI_MAJOR)
		ret = -EPROTO;
	if (ret) {
		ltt_kabi_close(kabi);
		return ret;
	}
	*ret_kabi = kabi;
	return 0;
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

int ltt_kabi_catalog(struct ltt_kabi *kabi, const uint32_t *known, uint32_t *ret_gen,
		     struct ltt_kabi_list_entry **ret_entries, size_t *ret_count)
{
	struct ltt_kabi_version v = { 0 };
	int ret = call_op(kabi, LTT_KABI_OP_VERSION, kabi->tracer, &v, NULL);

	*ret_gen = ret ? 0 : v.catalog;
	*ret_entries = NULL;
	*ret_count = 0;
	if (ret || (known && *known == v.catalog))
		return ret;
	return ltt_kabi_list(kabi, LTT_KABI_LIST_TRACEPOINTS, ret_entries, ret_count);
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
		ret = call_op(kabi, LTT_KABI_OP_LIST, kabi->tracer, &list, NULL);
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
		ret = call_op(kabi, LTT_KABI_OP_EVENT_DESC, kabi->tracer, desc, NULL);
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
	return call_op(kabi, LTT_KABI_OP_SESSION, kabi->tracer, NULL, ret_session);
}

int ltt_kabi_channel_create(struct ltt_kabi *kabi, ltt_khandle session,
			    const struct ltt_kabi_channel *attr, ltt_khandle *ret_channel)
{
	struct ltt_kabi_channel arg = *attr;

	return call_op(kabi, LTT_KABI_OP_CHANNEL, session, &arg, ret_channel);
}

int ltt_kabi_stream_create(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu,
			   uint32_t flags, ltt_khandle *ret_stream)
{
	struct ltt_kabi_stream arg = { .cpu = cpu, .flags = flags };

	return call_op(kabi, LTT_KABI_OP_STREAM, channel, &arg, ret_stream);
}

int ltt_kabi_bpf_ring(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu, uint32_t which,
		      ltt_khandle *ret_obj)
{
	struct ltt_kabi_bpf_ring arg = { .cpu = cpu, .which = which };

	return call_op(kabi, LTT_KABI_OP_BPF_RING, channel, &arg, ret_obj);
}

int ltt_kabi_stream_usage(struct ltt_kabi *kabi, ltt_khandle stream,
			  struct ltt_kabi_stream_usage *ret)
{
	struct ltt_kabi_stream_usage arg = { 0 };
	int err = call_op(kabi, LTT_KABI_OP_STREAM_USAGE, stream, &arg, NULL);

	if (err == 0)
		*ret = arg;
	return err;
}

int ltt_kabi_channel_mem(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu,
			 uint64_t *ret_bytes)
{
	struct ltt_kabi_channel_mem arg = { .cpu = cpu };
	int err = call_op(kabi, LTT_KABI_OP_CHANNEL_MEM, channel, &arg, NULL);

	if (err == 0)
		*ret_bytes = arg.bytes;
	return err;
}

int ltt_kabi_channel_wake_early(struct ltt_kabi *kabi, ltt_khandle channel)
{
	return call_op(kabi, LTT_KABI_OP_WAKE_EARLY, channel, NULL, NULL);
}

int ltt_kabi_dup(struct ltt_kabi *kabi, ltt_khandle handle, int *ret_fd)
{
	struct kreq req = { .op = KOP_DUP, .handle = handle, .ret_fd = -1 };
	int ret = call(kabi, &req);

	if (ret == 0)
		*ret_fd = req.ret_fd;
	return ret;
}

int ltt_kabi_session_start(struct ltt_kabi *kabi, ltt_khandle session)
{
	return call_op(kabi, LTT_KABI_OP_START, session, NULL, NULL);
}

int ltt_kabi_session_stop(struct ltt_kabi *kabi, ltt_khandle session)
{
	return call_op(kabi, LTT_KABI_OP_STOP, session, NULL, NULL);
}

int ltt_kabi_session_statedump(struct ltt_kabi *kabi, ltt_khandle session)
{
	return call_op(kabi, LTT_KABI_OP_STATEDUMP, session, NULL, NULL);
}

static int event_op(struct ltt_kabi *kabi, enum ltt_kabi_op op, ltt_khandle channel, const char *name,
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
	return event_op(kabi, LTT_KABI_OP_EVENT_ENABLE, channel, name, id);
}

int ltt_kabi_event_disable(struct ltt_kabi *kabi, ltt_khandle channel, const char *name)
{
	return event_op(kabi, LTT_KABI_OP_EVENT_DISABLE, channel, name, 0);
}

int ltt_kabi_tracker_set(struct ltt_kabi *kabi, ltt_khandle session, uint32_t type,
			 uint32_t policy, const uint32_t *ids, uint32_t nr)
{
	struct ltt_kabi_tracker arg = {
		.type = type, .policy = policy, .nr = nr, .ids = (uint64_t)(uintptr_t)ids,
	};

	return call_op(kabi, LTT_KABI_OP_TRACKER_SET, session, &arg, NULL);
}

int ltt_kabi_tracker_get(struct ltt_kabi *kabi, ltt_khandle session, uint32_t type,
			 uint32_t *ret_policy, uint32_t *ids, uint32_t *nr)
{
	struct ltt_kabi_tracker arg = {
		.type = type, .nr = *nr, .ids = (uint64_t)(uintptr_t)ids,
	};
	int ret = call_op(kabi, LTT_KABI_OP_TRACKER_GET, session, &arg, NULL);

	if (!ret) {
		*ret_policy = arg.policy;
		*nr = arg.nr;
	}
	return ret;
}

/* @arg for event @name as @id with @nr programs (@progs: room for them). */
static int filter_arg(const char *name, uint32_t id, uint8_t *const *code, const uint32_t *len,
		      uint32_t nr, struct ltt_kabi_filter_prog *progs,
		      struct ltt_kabi_event_filter *arg)
{
	uint32_t i;

	if (nr > LTT_KABI_FILTER_MAX_PROGRAMS)
		return -E2BIG;
	memset(arg, 0, sizeof(*arg));
	memset(progs, 0, LTT_KABI_FILTER_MAX_PROGRAMS * sizeof(*progs));
	arg->event.id = id;
	for (i = 0; i < nr; i++) {
		progs[i].code = (uint64_t)(uintptr_t)code[i];
		progs[i].len = len[i];
	}
	arg->programs = (uint64_t)(uintptr_t)progs;
	arg->nr_programs = nr;
	return put_name(arg->event.name, sizeof(arg->event.name), name);
}

int ltt_kabi_event_filter(struct ltt_kabi *kabi, ltt_khandle channel, const char *name,
			  uint32_t id, bool enable, uint8_t *const *code, const uint32_t *len,
			  uint32_t nr)
{
	struct ltt_kabi_filter_prog progs[LTT_KABI_FILTER_MAX_PROGRAMS];
	struct ltt_kabi_event_filter arg;
	int ret = filter_arg(name, enable ? id : 0, code, len, nr, progs, &arg);

	return ret ? ret : call_op(kabi, enable ? LTT_KABI_OP_EVENT_ENABLE_FILTERED :
					 LTT_KABI_OP_EVENT_SET_FILTER, channel, &arg, NULL);
}

int ltt_kabi_context_add(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t type,
			 uint32_t *ret_size)
{
	struct ltt_kabi_context arg = { .type = type };
	int ret = call_op(kabi, LTT_KABI_OP_CONTEXT_ADD, channel, &arg, NULL);

	if (!ret)
		*ret_size = arg.size;
	return ret;
}

int ltt_kabi_probe_create(struct ltt_kabi *kabi, ltt_khandle session,
			  struct ltt_kabi_probe *probe, ltt_khandle *ret_probe)
{
	int ret = call_op(kabi, LTT_KABI_OP_PROBE, session, probe, ret_probe);

	probe->event[sizeof(probe->event) - 1] = '\0';
	probe->event_return[sizeof(probe->event_return) - 1] = '\0';
	if (!ret && !probe->event[0]) {
		ltt_kabi_release(kabi, *ret_probe);
		ret = -EPROTO;
	}
	return ret;
}

int ltt_kabi_map_create(struct ltt_kabi *kabi, ltt_khandle *ret_map)
{
	return call_op(kabi, LTT_KABI_OP_MAP, kabi->tracer, NULL, ret_map);
}

int ltt_kabi_map_event(struct ltt_kabi *kabi, ltt_khandle map, const char *name,
		       uint32_t counter, bool remove, uint8_t *const *code, const uint32_t *len,
		       uint32_t nr)
{
	struct ltt_kabi_filter_prog progs[LTT_KABI_FILTER_MAX_PROGRAMS];
	struct ltt_kabi_event_filter arg;
	int ret = filter_arg(name, counter, code, len, remove ? 0 : nr, progs, &arg);

	if (ret)
		return ret;
	return remove ? call_op(kabi, LTT_KABI_OP_MAP_UNEVENT, map, &arg.event, NULL) :
			call_op(kabi, LTT_KABI_OP_MAP_EVENT, map, &arg, NULL);
}

int ltt_kabi_map_read(struct ltt_kabi *kabi, ltt_khandle map, uint64_t *ret_values, uint32_t nr)
{
	struct ltt_kabi_map_read arg;
	uint32_t i;
	int err = 0;

	for (i = 0; i < nr && !err; i += LTT_KABI_MAP_READ_MAX) {
		memset(&arg, 0, sizeof(arg));
		arg.first = i;
		err = call_op(kabi, LTT_KABI_OP_MAP_READ, map, &arg, NULL);
		if (!err && arg.nr > LTT_KABI_MAP_READ_MAX)
			err = -EPROTO;
		if (!err)
			memcpy(ret_values + i, arg.values,
			       (nr - i < LTT_KABI_MAP_READ_MAX ? nr - i : LTT_KABI_MAP_READ_MAX) *
			       sizeof(*ret_values));
	}
	return err;
}

int ltt_kabi_map_ctl(struct ltt_kabi *kabi, ltt_khandle map, uint32_t cmd)
{
	struct ltt_kabi_map_ctl arg = { .cmd = cmd };

	return call_op(kabi, LTT_KABI_OP_MAP_CTL, map, &arg, NULL);
}

void ltt_kabi_release(struct ltt_kabi *kabi, ltt_khandle handle)
{
	if (handle && handle != kabi->tracer)
		(void)call_op(kabi, KOP_RELEASE, handle, NULL, NULL);
}
