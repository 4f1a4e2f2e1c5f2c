// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-hotplug.c - the streams of CPUs that come online while sessions
 * trace (kernel-internal.h).
 *
 * ltt's module of kernel ABI 1.10 makes a channel's buffer for a CPU as
 * the CPU comes online, before it runs (doc/kmod.md, "Buffers for the
 * online CPUs only").  The kernel announces each CPU it brought online
 * with a uevent ("online@/devices/system/cpu/cpuN"), sent once the CPU
 * runs, so after that buffer exists: one thread, started with the first
 * channel made, waits for them on a kobject uevent netlink socket (no
 * privilege needed) and posts a job to the kernel consumer's supervisor
 * (the one thread that waits for that consumer on no client's behalf),
 * which takes the new streams of every live session and hands them to
 * its consumer (ltt_kernel_streams_catch_up(), the path of each start and
 * stop).  The channels' own fds poll readable
 * too, but the daemon never holds a module channel's fd outside the
 * kernel thread (kabi.c: only streams leave it), so the uevent it is.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"

struct ltt_khotplug {
	struct ltt_kernel *k;
	int nl;			/* NETLINK_KOBJECT_UEVENT, the kernel's group */
	int wake_fd;		/* eventfd: stop */
	pthread_t thread;
};

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

/* Is the uevent in @msg (@len bytes) a CPU come online? */
static bool cpu_online_event(const char *msg, size_t len)
{
	static const char want[] = "online@/devices/system/cpu/cpu";

	return len > sizeof(want) && !memcmp(msg, want, sizeof(want) - 1);
}

struct catch_up_job {
	struct ltt_supervisor_job sj;
	struct ltt_kernel *k;
};

static void catch_up_session(struct ltt_session *session, void *arg)
{
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;

	if (ks)
		ltt_kernel_streams_catch_up(arg, ks);
}

/* On the supervisor's thread: every live session's new streams. */
static void catch_up_run(struct ltt_supervisor_job *sj)
{
	struct catch_up_job *j = caa_container_of(sj, struct catch_up_job, sj);

	ltt_session_each_live(j->k->registry, catch_up_session, j->k);
	free(j);
}

static void catch_up_cancel(struct ltt_supervisor_job *sj)
{
	free(caa_container_of(sj, struct catch_up_job, sj));
}

static void catch_up_post(struct ltt_kernel *k)
{
	struct catch_up_job *j = calloc(1, sizeof(*j));

	if (!j)
		return;	/* the next start or stop takes them */
	j->sj.run = catch_up_run;
	j->sj.cancel = catch_up_cancel;
	j->k = k;
	if (ltt_supervisor_post(&k->consumer, &j->sj))
		free(j);
}

static void *watcher_main(void *arg)
{
	struct ltt_khotplug *h = arg;
	struct pollfd p[2] = { { .fd = h->nl, .events = POLLIN },
			       { .fd = h->wake_fd, .events = POLLIN } };
	char msg[2048];
	sigset_t all;
	ssize_t n;
	bool online;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		online = false;
		while ((n = recv(h->nl, msg, sizeof(msg), MSG_DONTWAIT)) > 0)
			online |= cpu_online_event(msg, (size_t)n);
		if (n < 0 && errno == ENOBUFS)
			online = true;	/* some lost: look anyway */
		if (online)
			catch_up_post(h->k);
	}
	return NULL;
}

int ltt_khotplug_start(struct ltt_kernel *k)
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
	h->nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	h->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (h->nl < 0 || h->wake_fd < 0 || bind(h->nl, (struct sockaddr *)&addr, sizeof(addr)))
		ret = -errno;
	if (!ret)
		ret = -pthread_create(&h->thread, NULL, watcher_main, h);
	if (ret) {
		LTT_WARN("kernel: no watch on CPUs coming online (%s): their streams are taken at the next start or stop",
			 strerror(-ret));
		if (h->nl >= 0)
			close(h->nl);
		if (h->wake_fd >= 0)
			close(h->wake_fd);
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
	uint64_t one = 1;

	if (!h)
		return;
	(void)!write(h->wake_fd, &one, sizeof(one));
	pthread_join(h->thread, NULL);
	close(h->nl);
	close(h->wake_fd);
	free(h);
}
