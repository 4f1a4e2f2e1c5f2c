// SPDX-License-Identifier: GPL-2.0-only
/*
 * privsep.c - the privileged part's table of allowed requests (see
 * privsep.h, priv/priv.h): nothing else reaches what it keeps.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/fault.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/consumer/consumer.h"

#include "sessiond/kabi/kabi-remote.h"
#include "sessiond/kabi/kabi-tracefs.h"
#include "sessiond/kernel/kmodule.h"
#include "sessiond/priv/priv.h"
#include "sessiond/privsep.h"

/* A probes list as ltt-sessiond --kmod-probes takes it: names and commas. */
static bool probes_ok(const char *p)
{
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_,");

	return p[n] == '\0' && n < LTT_KMODULE_WHY_MAX / 2;
}

static int kmod_load(void *state, struct ltt_rbuf *r, int in_fd, struct ltt_wbuf *w, int *ret_fd)
{
	const char *name = ltt_rbuf_get_str(r, 64);
	int has_probes = ltt_rbuf_get_bool(r);
	const char *probes = ltt_rbuf_get_str(r, LTT_KMODULE_WHY_MAX);
	char why[LTT_KMODULE_WHY_MAX] = "";
	bool loaded = false;
	int ret;

	(void)state;
	(void)in_fd;
	(void)ret_fd;
	/* the tracer's module only, with probe names only */
	if (ltt_rbuf_end(r) || strcmp(name, LTT_KMODULE_TRACER) || !probes_ok(probes))
		return -EINVAL;
	ret = ltt_kmodule_load(name, has_probes ? probes : NULL, why, sizeof(why), &loaded);
	ltt_wbuf_put_u32(w, (uint32_t)ret);
	ltt_wbuf_put_u8(w, loaded);
	ltt_wbuf_put_str(w, why);
	return 0;
}

static int kmod_unload(void *state, struct ltt_rbuf *r, int in_fd, struct ltt_wbuf *w,
		       int *ret_fd)
{
	const char *name = ltt_rbuf_get_str(r, 64);

	(void)state;
	(void)in_fd;
	(void)w;
	(void)ret_fd;
	if (ltt_rbuf_end(r) || strcmp(name, LTT_KMODULE_TRACER))
		return -EINVAL;
	ltt_kmodule_unload(name);
	return 0;
}

/*
 * The consumers: the program and its options, fixed at start-up (the
 * daemon's options), and those it spawned still running, each with its
 * pidfd (which CONSUMER_KILL signals: never a pid the daemon names that
 * is not one of them, nor one reused since).
 */
static struct ltt_consumer_config consumer_cfg;
static struct child {
	pid_t pid;
	int pidfd;
} *children;
static size_t nr_children, cap_children;

void ltt_privsep_consumers(const struct ltt_consumer_config *cfg)
{
	consumer_cfg = *cfg;
}

/* Forget the children that exited (the daemon reaps them). */
static void prune_children(void)
{
	struct pollfd pfd = { .events = POLLIN };
	size_t i = 0;

	while (i < nr_children) {
		pfd.fd = children[i].pidfd;
		if (poll(&pfd, 1, 0) == 0) {
			i++;
			continue;
		}
		close(children[i].pidfd);
		children[i] = children[--nr_children];
	}
}

static int consumer_spawn(void *state, struct ltt_rbuf *r, int in_fd, struct ltt_wbuf *w,
			  int *ret_fd)
{
	int as_user = ltt_rbuf_get_bool(r), pidfd;
	uid_t uid = (uid_t)ltt_rbuf_get_u32(r);
	gid_t gid = (gid_t)ltt_rbuf_get_u32(r);
	struct child *grown;
	pid_t pid;

	(void)state;
	(void)ret_fd;
	if (ltt_rbuf_end(r))
		return -EPROTO;
	/* as root (the kernel domain's), or as a user: never as root by --uid */
	if (as_user && (uid == 0 || uid == (uid_t)-1 || gid == (gid_t)-1))
		return -EPERM;
	prune_children();
	if (nr_children == cap_children) {
		grown = realloc(children, (cap_children * 2 + 4) * sizeof(*children));
		if (!grown)
			return -ENOMEM;
		children = grown;
		cap_children = cap_children * 2 + 4;
	}
	/* the daemon's child, not ours: it reaps it, it waits on it */
	pid = ltt_consumer_fork(&consumer_cfg, as_user ? uid : (uid_t)-1, gid, in_fd, true, &pidfd);
	if (pid < 0)
		return pid;
	children[nr_children++] = (struct child){ .pid = pid, .pidfd = pidfd };
	ltt_wbuf_put_u32(w, (uint32_t)pid);
	return 0;
}

static int consumer_kill(void *state, struct ltt_rbuf *r, int in_fd, struct ltt_wbuf *w,
			 int *ret_fd)
{
	pid_t pid = (pid_t)ltt_rbuf_get_u32(r);
	size_t i;

	(void)state;
	(void)in_fd;
	(void)w;
	(void)ret_fd;
	if (ltt_rbuf_end(r))
		return -EPROTO;
	prune_children();
	for (i = 0; i < nr_children && children[i].pid != pid; i++)
		;
	if (i == nr_children)
		return -ESRCH;
	return syscall(SYS_pidfd_send_signal, children[i].pidfd, SIGKILL, NULL, 0) ? -errno : 0;
}

static int owner_files(void *state, struct ltt_rbuf *r, int in_fd, struct ltt_wbuf *w,
		       int *ret_fd)
{
	(void)state;
	(void)in_fd;
	(void)ret_fd;
	return ltt_chunk_owner_serve(r, w);
}

static const struct ltt_priv_handler requests[] = {
	{ LTT_PRIV_KABI_OPEN, "KABI_OPEN", 6, false, ltt_kabi_serve_open },
	{ LTT_PRIV_KABI_RUN, "KABI_RUN", 12, false, ltt_kabi_serve_run },
	{ LTT_PRIV_KABI_RELEASE, "KABI_RELEASE", 4, false, ltt_kabi_serve_release },
	{ LTT_PRIV_KMOD_LOAD, "KMOD_LOAD", 3, false, kmod_load },
	{ LTT_PRIV_KMOD_UNLOAD, "KMOD_UNLOAD", 1, false, kmod_unload },
	{ LTT_PRIV_CONSUMER_SPAWN, "CONSUMER_SPAWN", 9, true, consumer_spawn },
	{ LTT_PRIV_CONSUMER_KILL, "CONSUMER_KILL", 4, false, consumer_kill },
	{ LTT_PRIV_OWNER_FILES, "OWNER_FILES", 9, false, owner_files },
};

/* The kernel tracer's backends the privileged part runs (KABI_OPEN names one). */
static const struct ltt_kabi_backend *const backends[] = { &ltt_kabi_module, &ltt_kabi_tracefs };

int ltt_privsep_serve(int fd, pid_t daemon)
{
	struct ltt_kabi_server kabi = {
		.backends = backends, .nr_backends = sizeof(backends) / sizeof(backends[0]),
	};

	ltt_kabi_tracefs_name_pid(daemon);
	ltt_fault_with(daemon);	/* a fault point here (an archive's) is the daemon's */
	ltt_priv_serve(fd, requests, sizeof(requests) / sizeof(requests[0]), &kabi);
	ltt_kabi_server_fini(&kabi);
	while (nr_children)
		close(children[--nr_children].pidfd);
	free(children);
	return 0;
}
