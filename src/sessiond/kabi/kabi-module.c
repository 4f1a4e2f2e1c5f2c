// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-module.c - the module backend of the kernel thread
 * (kabi-backend.h): every operation is the ioctl of that name on the
 * object's fd (/proc/ltt for the tracer, the fds the module returns for
 * sessions, channels and streams).  Nothing else is ever issued.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-backend.h"

#define MODULE_DEFAULT_PATH "/proc/" LTT_KABI_PROC_NAME

/* The ioctl of each operation. */
static const unsigned long requests[LTT_KABI_OP_NR] = {
	[LTT_KABI_OP_VERSION] = LTT_KABI_VERSION,
	[LTT_KABI_OP_LIST] = LTT_KABI_LIST,
	[LTT_KABI_OP_EVENT_DESC] = LTT_KABI_EVENT_DESC,
	[LTT_KABI_OP_SESSION] = LTT_KABI_SESSION,
	[LTT_KABI_OP_CHANNEL] = LTT_KABI_CHANNEL,
	[LTT_KABI_OP_START] = LTT_KABI_START,
	[LTT_KABI_OP_STOP] = LTT_KABI_STOP,
	[LTT_KABI_OP_STATEDUMP] = LTT_KABI_STATEDUMP,
	[LTT_KABI_OP_STREAM] = LTT_KABI_STREAM,
	[LTT_KABI_OP_EVENT_ENABLE] = LTT_KABI_EVENT_ENABLE,
	[LTT_KABI_OP_EVENT_DISABLE] = LTT_KABI_EVENT_DISABLE,
	[LTT_KABI_OP_TRACKER_SET] = LTT_KABI_TRACKER_SET,
	[LTT_KABI_OP_TRACKER_GET] = LTT_KABI_TRACKER_GET,
	[LTT_KABI_OP_EVENT_ENABLE_FILTERED] = LTT_KABI_EVENT_ENABLE_FILTERED,
	[LTT_KABI_OP_EVENT_SET_FILTER] = LTT_KABI_EVENT_SET_FILTER,
	[LTT_KABI_OP_CONTEXT_ADD] = LTT_KABI_CONTEXT_ADD,
	[LTT_KABI_OP_PROBE] = LTT_KABI_PROBE,
	[LTT_KABI_OP_MAP] = LTT_KABI_MAP,
	[LTT_KABI_OP_MAP_EVENT] = LTT_KABI_MAP_EVENT,
	[LTT_KABI_OP_MAP_UNEVENT] = LTT_KABI_MAP_UNEVENT,
	[LTT_KABI_OP_MAP_READ] = LTT_KABI_MAP_READ,
	[LTT_KABI_OP_MAP_CTL] = LTT_KABI_MAP_CTL,
	[LTT_KABI_OP_CHANNEL_MEM] = LTT_KABI_CHANNEL_MEM,
};

/* The first minor of kernel ABI with each feature, and what it is called. */
static const struct {
	unsigned int minor;
	const char *noun;
} features[] = {
	[LTT_KABI_FEAT_FILTER] = { LTT_KABI_MINOR_FILTER, "filters need" },
	[LTT_KABI_FEAT_CONTEXT] = { LTT_KABI_MINOR_CONTEXT, "contexts need" },
	[LTT_KABI_FEAT_TRACKER] = { LTT_KABI_MINOR_TRACKER, "trackers need" },
	[LTT_KABI_FEAT_STATEDUMP] = { LTT_KABI_MINOR_STATEDUMP, "a state dump on demand needs" },
	[LTT_KABI_FEAT_SNAPSHOT] = { LTT_KABI_MINOR_SNAPSHOT, "snapshots need" },
	[LTT_KABI_FEAT_RECORD] = { 0, "recording needs" },
	[LTT_KABI_FEAT_KPROBE] = { LTT_KABI_MINOR_PROBE, "kernel probes need" },
	[LTT_KABI_FEAT_UPROBE] = { LTT_KABI_MINOR_PROBE, "user-space probes need" },
	[LTT_KABI_FEAT_SYSCALL_STRINGS] = { 0, "system call strings need" },	/* always */
	[LTT_KABI_FEAT_MAP] = { LTT_KABI_MINOR_KMAP, "kernel map channels need" },
	[LTT_KABI_FEAT_HOTPLUG] = { LTT_KABI_MINOR_HOTPLUG, "buffers for the online CPUs only need" },
};

static int module_open(const char *path, struct ltt_kabi_obj *ret_tracer)
{
	int fd = open(path ? path : MODULE_DEFAULT_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	*ret_tracer = (struct ltt_kabi_obj){ .fd = fd };
	return 0;
}

/*
 * STREAM_USAGE: from SNAPSHOT_SPAN, what was written since the oldest
 * packet to read; from STREAM_STATS, the events discarded.
 */
static int module_usage(struct ltt_kabi_obj *stream, struct ltt_kabi_stream_usage *ret)
{
	struct ltt_kabi_snapshot_span span = { 0 };
	struct ltt_kabi_stream_stats st = { 0 };

	if (ioctl(stream->fd, LTT_KABI_SNAPSHOT_SPAN, &span) < 0 ||
	    ioctl(stream->fd, LTT_KABI_STREAM_STATS, &st) < 0)
		return -errno;
	ret->bytes = span.produced > span.begin ? span.produced - span.begin : 0;
	ret->dropped = st.events_discarded;
	return 0;
}

static int module_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		      struct ltt_kabi_obj *ret_new)
{
	int rc;

	if (op == LTT_KABI_OP_STREAM_USAGE)
		return module_usage(obj, arg);
	if (op == LTT_KABI_OP_WAKE_EARLY || !requests[op])
		return -ENOTTY;	/* readers woken per sub-buffer */
	/* no argument: 0, which the tracer checks (a missing third argument is garbage) */
	rc = ioctl(obj->fd, requests[op], arg ? (unsigned long)arg : 0UL);

	if (rc < 0) {
		LTT_DBG("kernel: %s: %s", ltt_kabi_ops[op].name, strerror(errno));
		return -errno;
	}
	if (ltt_kabi_ops[op].creates != LTT_KABI_KIND_NONE) {
		(void)fcntl(rc, F_SETFD, FD_CLOEXEC);
		*ret_new = (struct ltt_kabi_obj){ .fd = rc };
	}
	return 0;
}

static void module_release(struct ltt_kabi_obj *obj)
{
	close(obj->fd);
}

/* A probe the module of @version does not place (ltt_kabi_version.probes). */
static int probe_lacks(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
		       const char *what, char *why, size_t why_size)
{
	uint32_t bit = feature == LTT_KABI_FEAT_UPROBE ? 1U << LTT_KABI_UPROBE :
		       1U << LTT_KABI_KPROBE | 1U << LTT_KABI_KRETPROBE;

	if ((version->probes & bit) == bit)
		return 0;
	snprintf(why, why_size, "%s: ltt's module places no %s probes: run the session daemon with the tracefs backend (ltt-sessiond --kernel-backend=tracefs), which places them through the kernel's %s",
		 what, feature == LTT_KABI_FEAT_UPROBE ? "user-space" : "kernel",
		 feature == LTT_KABI_FEAT_UPROBE ? "uprobe_events" : "kprobe_events");
	return -EOPNOTSUPP;
}

static int module_lacks(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
			const char *what, char *why, size_t why_size)
{
	if (version->minor >= features[feature].minor &&
	    (feature == LTT_KABI_FEAT_KPROBE || feature == LTT_KABI_FEAT_UPROBE))
		return probe_lacks(version, feature, what, why, why_size);
	if (version->minor >= features[feature].minor)
		return 0;
	snprintf(why, why_size, "%s: the loaded kernel tracer speaks ABI %u.%u, %s %u.%u: reload the module",
		 what, version->major, version->minor, features[feature].noun, LTT_KABI_MAJOR,
		 features[feature].minor);
	return -ENOTTY;
}

const struct ltt_kabi_backend ltt_kabi_module = {
	.name = "module",
	.open = module_open,
	.run = module_run,
	.release = module_release,
	.lacks = module_lacks,
};
