// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-hotplug.c - the watch on CPUs coming online, and on modules
 * coming and going (kernel-internal.h).
 *
 * ltt's module of kernel ABI 1.10 makes a channel's buffer for a CPU as
 * the CPU comes online, before it runs (doc/kmod.md, "Buffers for the
 * online CPUs only").  The kernel announces each CPU it brought online
 * with a uevent ("online@/devices/system/cpu/cpuN"), sent once the CPU
 * runs, so after that buffer exists.  A kobject uevent netlink socket (no
 * privilege needed), opened with the first channel made, is watched by
 * the kernel consumer's supervisor loop (the one thread that waits for
 * that consumer on no client's behalf); on such a uevent it calls the
 * domain's @online there, which takes the new streams of every live
 * session and hands them to its consumer (kernel-domain.c, the path of
 * each start and stop).  The channels' own fds poll readable too, but
 * the daemon never holds a module channel's fd outside the kernel thread
 * (kabi.c: only streams leave it), so the uevent it is.
 *
 * The same socket tells of modules loaded and removed ("add@/module/NAME",
 * "remove@/module/NAME", sent once the module's init ran, and its exit):
 * @modules then runs there too, which has the sessions' rules take the
 * events the tracer has now (lttng-test.ko's: doc/kmod.md), as LTTng's
 * lazy enablers do.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"

struct ltt_khotplug {
	struct ltt_supervisor_job job;	/* posted once: the watch set up on the loop */
	struct ltt_kernel *k;
	void (*online)(struct ltt_kernel *k);
	void (*modules)(struct ltt_kernel *k);
	int nl;			/* NETLINK_KOBJECT_UEVENT, the kernel's group */
};

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

/* Does the uevent in @msg (@len bytes) begin with @want? */
static bool uevent_is(const char *msg, size_t len, const char *want)
{
	size_t n = strlen(want);

	return len > n && !memcmp(msg, want, n);
}

/* The supervisor's loop: uevents to read. */
static void on_uevents(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_khotplug *h = arg;
	char msg[2048];
	bool online = false, modules = false;
	ssize_t n;

	(void)loop;
	(void)events;
	while ((n = recv(fd, msg, sizeof(msg), MSG_DONTWAIT)) > 0) {
		online |= uevent_is(msg, (size_t)n, "online@/devices/system/cpu/cpu");
		modules |= uevent_is(msg, (size_t)n, "add@/module/") ||
			   uevent_is(msg, (size_t)n, "remove@/module/");
	}
	if (n < 0 && errno == ENOBUFS)
		online = modules = true;	/* some lost: look anyway */
	if (online)
		h->online(h->k);
	if (modules)
		h->modules(h->k);
}

/* On the supervisor's thread: watch the socket there. */
static void watch_run(struct ltt_supervisor_job *job)
{
	struct ltt_khotplug *h = caa_container_of(job, struct ltt_khotplug, job);
	int ret = ltt_supervisor_watch_fd(&h->k->consumer, h->nl, on_uevents, h);

	if (ret)
		LTT_WARN("kernel: no watch on CPUs coming online (%s): their streams are taken at the next start or stop",
			 strerror(-ret));
}

static void watch_cancel(struct ltt_supervisor_job *job)
{
	(void)job;	/* the domain frees it (ltt_khotplug_free()) */
}

int ltt_khotplug_start(struct ltt_kernel *k, void (*online)(struct ltt_kernel *k),
		       void (*modules)(struct ltt_kernel *k))
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	struct ltt_khotplug *h;
	int ret = 0;

	pthread_mutex_lock(&start_lock);
	if (k->hotplug)
		goto out;
	h = calloc(1, sizeof(*h));
	if (!h) {
		ret = -ENOMEM;
		goto out;
	}
	h->k = k;
	h->online = online;
	h->modules = modules;
	h->job.run = watch_run;
	h->job.cancel = watch_cancel;
	h->nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_KOBJECT_UEVENT);
	if (h->nl < 0 || bind(h->nl, (struct sockaddr *)&addr, sizeof(addr)))
		ret = -errno;
	if (!ret)
		ret = ltt_supervisor_post(&k->consumer, &h->job);
	if (ret) {
		LTT_WARN("kernel: no watch on CPUs coming online (%s): their streams are taken at the next start or stop",
			 strerror(-ret));
		if (h->nl >= 0)
			close(h->nl);
		free(h);
		goto out;
	}
	k->hotplug = h;
out:
	pthread_mutex_unlock(&start_lock);
	return ret;
}

void ltt_khotplug_free(struct ltt_khotplug *h)
{
	if (!h)
		return;
	close(h->nl);
	free(h);
}
