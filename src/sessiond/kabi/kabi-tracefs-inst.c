// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-inst.c - sessions, channels and streams of the tracefs
 * backend (doc/kernel-tracefs.md).
 *
 * A channel is an ftrace instance of its own, instances/ltt-PID-N: its
 * trace_clock is mono (CLOCK_MONOTONIC: the time line on which the traces
 * of user-space events put their clock, doc/clock.md),
 * its per-CPU buffer_size_kb the channel's sub-buffer size times their
 * count, options/overwrite its mode, buffer_percent one sub-buffer's
 * share (the level that wakes the consumer's poll), tracing_on off until
 * its session starts.  The channel object's fd is its event map
 * (common/ftrace/ftrace-map.h): EVENT_ENABLE publishes the event's layout and
 * CTF id there before it writes the event's enable file, so the consumer
 * never meets a record it cannot lay out.  A stream is the CPU's
 * per_cpu/cpuN/trace_pipe_raw, opened non-blocking.
 *
 * The top-level buffer, which other tools use, is never touched.  An
 * instance is removed when its channel is released, or, while a reader
 * still holds one of its files (the consumer's copies), once its
 * session is released; what a daemon that died left behind, the next
 * one removes at start (tracefs_reap_stale()).  A session's pid tracker
 * (kabi-tracefs-track.c) is written to each of its instances, a new one
 * before it records.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/model/context.h"
#include "common/base/evloop.h"
#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-map.h"
#include "common/ftrace/ftrace-prefilter.h"
#include "common/base/log.h"
#include "filter-vm/filter-vm.h"
#include "sessiond/kabi/kabi-tracefs.h"

/* ---- instances left to remove ---- */

static int remove_instance(struct tracefs *t, const char *name)
{
	char path[sizeof("instances/") + TRACEFS_INSTANCE_MAX];

	snprintf(path, sizeof(path), "instances/%s", name);
	if (!unlinkat(t->root_fd, path, AT_REMOVEDIR) || errno == ENOENT)
		return 0;
	return -errno;
}

void tracefs_doom(struct tracefs *t, const char *name)
{
	char (*bigger)[TRACEFS_INSTANCE_MAX];
	int ret = remove_instance(t, name);

	if (!ret)
		return;
	bigger = realloc(t->doomed, (t->nr_doomed + 1) * sizeof(*bigger));
	if (!bigger) {
		LTT_WARN("kernel: ftrace instance %s not removed: %s", name, strerror(-ret));
		return;
	}
	t->doomed = bigger;
	snprintf(t->doomed[t->nr_doomed++], TRACEFS_INSTANCE_MAX, "%s", name);
}

void tracefs_reap(struct tracefs *t)
{
	size_t i, kept = 0;

	for (i = 0; i < t->nr_doomed; i++)
		if (remove_instance(t, t->doomed[i]))
			memmove(t->doomed[kept++], t->doomed[i], TRACEFS_INSTANCE_MAX);
	t->nr_doomed = kept;
}

/* ---- the tracer's state: a reference for the tracer and each session ---- */

struct tracefs *tracefs_get(struct tracefs *t)
{
	t->refs++;
	return t;
}

void tracefs_put(struct tracefs *t)
{
	size_t i;

	if (--t->refs)
		return;
	tracefs_reap(t);
	tracefs_eprobes_remove(t);
	for (i = 0; i < t->nr_doomed; i++)
		LTT_WARN("kernel: ftrace instance %s/instances/%s is still in use: not removed (the next daemon removes it)",
			 t->root, t->doomed[i]);
	close(t->root_fd);
	free(t->events);
	free(t->doomed);
	free(t);
}

/* Is instance @name a daemon's that is gone (or this daemon's, from before)? */
static bool stale(const char *name)
{
	const char *rest = name + strlen(TRACEFS_INSTANCE_PREFIX);
	unsigned int n;
	size_t len;
	int end = 0;

	if (strncmp(name, TRACEFS_INSTANCE_PREFIX, strlen(TRACEFS_INSTANCE_PREFIX)))
		return false;
	if (!tracefs_name_stale(rest, &len))
		return false;
	return sscanf(rest + len, "-%u%n", &n, &end) == 1 && !rest[len + end];
}

void tracefs_reap_stale(struct tracefs *t)
{
	int fd = openat(t->root_fd, "instances", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *d;
	int ret;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dir)))
		if (stale(d->d_name)) {
			ret = remove_instance(t, d->d_name);
			if (ret)
				LTT_WARN("kernel: ftrace instance %s of a daemon that is gone: not removed: %s",
					 d->d_name, strerror(-ret));
			else
				LTT_INFO("kernel: removed ftrace instance %s, left by a daemon that is gone",
					 d->d_name);
		}
	closedir(dir);
}

/* ---- sessions ---- */

static int session_new(struct tracefs *t, struct ltt_kabi_obj *ret_new)
{
	struct tf_session *s = calloc(1, sizeof(*s));
	int fd = s ? fcntl(t->root_fd, F_DUPFD_CLOEXEC, 3) : -1;

	if (fd < 0) {
		free(s);
		return s ? -errno : -ENOMEM;
	}
	s->t = tracefs_get(t);
	*ret_new = (struct ltt_kabi_obj){ .fd = fd, .priv = s };
	return 0;
}

/* START, STOP: every channel's tracing_on. */
static int session_switch(struct tf_session *s, bool on)
{
	struct tf_chan *c;
	int ret = 0, err;

	for (c = s->chans; c; c = c->next) {
		err = ltt_write_control(c->dir_fd, "tracing_on", on ? "1" : "0");
		if (err && !ret)
			ret = err;
	}
	if (!ret)
		s->started = on;
	for (c = s->chans; c; c = c->next) {
		err = tracefs_bpf_switch(c);
		if (err && !ret)
			ret = err;
	}
	return ret;
}

/*
 * The state dump into the session's channels that enabled some of its
 * events (kabi-tracefs-statedump.c); at START and at STATEDUMP.
 */
static int session_statedump(struct tf_session *s)
{
	struct tracefs_sd_target *tg;
	struct tf_chan *c;
	size_t n = 0;
	int ret;

	for (c = s->chans; c; c = c->next)
		n += c->sd_events != 0;
	if (!n)
		return 0;
	tg = calloc(n, sizeof(*tg));
	if (!tg)
		return -ENOMEM;
	n = 0;
	for (c = s->chans; c; c = c->next)
		if (c->sd_events)
			tg[n++] = (struct tracefs_sd_target){ c->dir_fd, c->sd_events, c->name };
	ret = tracefs_statedump_run(tg, n);
	free(tg);
	return ret;
}

/* START: tracing on, then the state dump (its failure is logged, START stands). */
static int session_start(struct tf_session *s)
{
	int ret = session_switch(s, true);

	if (!ret)
		(void)session_statedump(s);
	return ret;
}

/* ---- channels ---- */

/* The instance's settings from @attr; tracing stays off. */
static int chan_setup(struct tf_chan *c, const struct ltt_kabi_channel *attr)
{
	uint64_t kb = attr->subbuf_size * attr->num_subbuf / 1024;
	unsigned int percent = (unsigned int)(100 / attr->num_subbuf);
	char text[32];
	int ret;

	ret = ltt_write_control(c->dir_fd, "tracing_on", "0");
	if (!ret)
		ret = ltt_write_control(c->dir_fd, "trace_clock", "mono");
	snprintf(text, sizeof(text), "%" PRIu64, kb);
	if (!ret)
		ret = ltt_write_control(c->dir_fd, "buffer_size_kb", text);
	if (!ret)
		ret = ltt_write_control(c->dir_fd, "options/overwrite", attr->overwrite ? "1" : "0");
	snprintf(text, sizeof(text), "%u", percent ? percent : 1);
	if (!ret)
		ret = ltt_write_control(c->dir_fd, "buffer_percent", text);
	return ret;
}

/* A new instance for @c, its directory open. */
static int chan_instance(struct tf_chan *c)
{
	struct tracefs *t = c->t;
	char path[sizeof("instances/") + TRACEFS_INSTANCE_MAX];

	snprintf(c->name, sizeof(c->name), TRACEFS_INSTANCE_PREFIX "%s-%u", tracefs_name_tag(),
		 t->next_instance++);
	snprintf(path, sizeof(path), "instances/%s", c->name);
	if (mkdirat(t->root_fd, path, 0700))
		return -errno;
	c->dir_fd = openat(t->root_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->dir_fd < 0) {
		int err = -errno;

		tracefs_doom(t, c->name);
		return err;
	}
	return 0;
}

static void chan_free(struct tf_chan *c, int map_fd)
{
	tracefs_bpf_chan_close(c);
	tracefs_eprobe_copies_remove(c);	/* disabled in the instance first */
	if (c->dir_fd >= 0) {
		(void)ltt_write_control(c->dir_fd, "tracing_on", "0");
		close(c->dir_fd);
		tracefs_doom(c->t, c->name);
	}
	if (map_fd >= 0)
		close(map_fd);
	ltt_ftrace_map_unmap(c->map);
	tracefs_put(c->t);
	free(c);
}

static int chan_new(struct tf_session *s, const struct ltt_kabi_channel *attr,
		    struct ltt_kabi_obj *ret_new)
{
	struct tf_chan *c = calloc(1, sizeof(*c));
	int map_fd = -1, ret;

	if (!c)
		return -ENOMEM;
	c->t = tracefs_get(s->t);
	c->dir_fd = -1;
	ret = chan_instance(c);
	if (!ret)
		ret = chan_setup(c, attr);
	if (!ret)
		ret = ltt_ftrace_map_create(&s->t->page, &map_fd, &c->map);
	if (!ret)
		ret = tracefs_bpf_chan_open(c, attr);	/* before the tracker: it has its own */
	if (!ret)
		ret = tracefs_track_chan(s, c);
	if (!ret && s->started)
		ret = ltt_write_control(c->dir_fd, "tracing_on", "1");
	if (ret) {
		LTT_WARN("kernel: ftrace instance %s: %s", c->name, strerror(-ret));
		chan_free(c, map_fd);
		return ret;
	}
	c->s = s;
	c->next = s->chans;
	s->chans = c;
	*ret_new = (struct ltt_kabi_obj){ .fd = map_fd, .priv = c };
	return 0;
}

static void chan_unlink(struct tf_chan *c)
{
	struct tf_chan **p;

	if (!c->s)
		return;
	for (p = &c->s->chans; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	c->s = NULL;
}

/*
 * The programs of @ef, each checked against the fields of @layout, into
 * @code and @len: 0, or -EINVAL (as the module: a program its validation
 * refuses, or past the limits).  The kernel thread's.
 */
int tracefs_programs_get(const struct ltt_kabi_event_filter *ef,
			 const struct ltt_ftrace_event *layout, const uint8_t **code, uint32_t *len)
{
	static struct ltt_kabi_event_desc desc;
	static struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
	const struct ltt_kabi_filter_prog *prog =
		(const struct ltt_kabi_filter_prog *)(uintptr_t)ef->programs;
	uint32_t i;

	if (ef->nr_programs > LTT_KABI_FILTER_MAX_PROGRAMS || (ef->nr_programs && !prog) ||
	    ltt_ftrace_filter_fields(layout, &desc, fields))
		return -EINVAL;
	for (i = 0; i < ef->nr_programs; i++) {
		code[i] = (const uint8_t *)(uintptr_t)prog[i].code;
		len[i] = prog[i].len;
		if (len[i] < LTT_FILTER_HEADER_LEN || len[i] > LTT_KABI_FILTER_MAX_LEN ||
		    ltt_filter_validate(code[i], len[i], fields, desc.nr_fields))
			return -EINVAL;
	}
	return 0;
}

/*
 * The events the consumer's task table follows (common/ftrace/ftrace-tasks.h),
 * by their names in the catalog.
 */
static const char *const task_events[] = {
	"sched_switch", "task_rename", "task_newtask", "sched_process_exec", "sched_process_free",
};

static bool task_event(const struct tracefs_event *ev)
{
	size_t i;

	for (i = 0; i < sizeof(task_events) / sizeof(task_events[0]); i++)
		if (!strcmp(ev->name, task_events[i]))
			return true;
	return false;
}

/*
 * The kernel's own filter of @ev in @c's instance: @text, or none (NULL):
 * 0 or the write's error.  One the kernel refuses (an older grammar)
 * leaves none, logged: the consumer judges every record anyway.
 */
static int kernel_filter(struct tf_chan *c, const struct tracefs_event *ev, const char *text)
{
	char path[3 * LTT_FTRACE_NAME_MAX];
	int ret;

	if (ev->bpf)
		return 0;	/* recorded by the BPF program: the consumer filters alone */
	snprintf(path, sizeof(path), "events/%s/%s/filter", ev->system, ev->event);
	ret = ltt_write_control(c->dir_fd, path, text ? text : "0");
	if (ret && text) {
		LTT_DBG("kernel: ftrace instance %s: %s: the kernel refused the filter '%s' (%s): the consumer filters alone",
			c->name, ev->name, text, strerror(-ret));
		return ltt_write_control(c->dir_fd, path, "0");
	}
	if (ret)
		LTT_WARN("kernel: ftrace instance %s: %s: can't clear its filter: %s", c->name,
			 ev->name, strerror(-ret));
	else if (text)
		LTT_DBG("kernel: ftrace instance %s: %s: filter '%s'", c->name, ev->name, text);
	return ret;
}

/*
 * What the kernel's filter can say of @nr programs of @layout (@ev's),
 * into the kernel (none when it can say nothing).  When the event was
 * enabled before (@live), only once every record stamped before the
 * programs' moment is committed: ftrace judges a record when it commits
 * it, by the filter of that moment, and a record stamped before is the
 * old programs' to judge.  Records are written with preemption off, so
 * an RCU grace period (membarrier's global command) covers them; without
 * one, no kernel filter.  A new event has no record yet: no wait (an
 * `enable-event -a --filter` would otherwise wait one per event).
 */
static void kernel_prefilter(struct tf_chan *c, const struct tracefs_event *ev,
			     const struct ltt_ftrace_event *layout, const uint8_t *const *code,
			     const uint32_t *len, uint32_t nr, bool live)
{
	static struct ltt_ftrace_event names;
	static char text[LTT_FTRACE_PREFILTER_MAX];

	if ((c->tasks && task_event(ev)) || ev->bpf)
		return;		/* the task table reads all its records; no ftrace event */
	names = *layout;
	tracefs_kernel_names(ev, &names);
	if (ltt_ftrace_prefilter(&names, code, len, nr, text, sizeof(text)) != 1)
		return;
	if (live && syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0)) {
		LTT_DBG("kernel: ftrace instance %s: %s: no grace period (membarrier: %s): the consumer filters alone",
			c->name, ev->name, strerror(errno));
		return;
	}
	(void)kernel_filter(c, ev, text);	/* its failure leaves none */
}

/*
 * The programs of the event @layout (@ev, @raw_id) into the map's filter
 * log: @ef's, or none (@ef NULL) when the event had some.  The kernel's
 * filter accepts at least what the consumer keeps at every moment: it
 * accepts all before the record is published (a record is judged by the
 * programs of its time stamp), and takes the new programs' part after.
 */
static int filter_publish(struct tf_chan *c, const struct tracefs_event *ev,
			  const struct ltt_ftrace_event *layout, uint32_t raw_id,
			  const struct ltt_kabi_event_filter *ef)
{
	const uint8_t *code[LTT_KABI_FILTER_MAX_PROGRAMS];
	uint32_t len[LTT_KABI_FILTER_MAX_PROGRAMS];
	bool live = ltt_ftrace_map_has(c->map, layout->id, raw_id);	/* enabled before */
	int ret;

	if (ef) {
		ret = tracefs_programs_get(ef, layout, code, len);
		if (ret)
			return ret;
	}
	/* the daemon writes raw ones itself: no ftrace event */
	ret = raw_id ? 0 : kernel_filter(c, ev, NULL);
	if (ret)
		return ret;	/* the old filter holds: the old programs stay */
	if (!ef)
		return ltt_ftrace_map_filtered(c->map, layout->id, raw_id) ?
		       ltt_ftrace_map_publish_filter(c->map, layout->id, raw_id,
						     ltt_evloop_now_ns(), NULL, NULL, 0) :
		       0;
	ret = ltt_ftrace_map_publish_filter(c->map, layout->id, raw_id, ltt_evloop_now_ns(),
					    code, len, ef->nr_programs);
	if (ret == -ENOSPC)
		LTT_WARN("kernel: ftrace instance %s: its filter log is full (%u bytes of filter changes): start a new session",
			 c->name, LTT_FTRACE_MAP_FILTER_BYTES);
	if (!ret && !raw_id && ef->nr_programs)
		kernel_prefilter(c, ev, layout, code, len, ef->nr_programs, live);
	return ret;
}

/*
 * The event @name as @c records it (@ret_ev: a system call's event probe
 * is the channel's copy, tracefs_eprobe_copy()) and its layout.
 */
static int chan_event_layout(struct tf_chan *c, const char *name, bool define,
			     struct tracefs_event *ret_ev, struct ltt_ftrace_event **ret_layout)
{
	const struct tracefs_event *ev;
	int ret = tracefs_event_layout(c->t, name, &ev, ret_layout);

	if (ret || !ev->eprobe) {
		if (!ret)
			*ret_ev = *ev;
		return ret;
	}
	ret = tracefs_eprobe_copy(c, ev, define, ret_ev);
	if (!ret)
		ret = tracefs_eprobe_layout(c->t, ret_ev, *ret_layout);
	if (ret)
		free(*ret_layout);
	return ret;
}

/*
 * EVENT_ENABLE(_FILTERED): the event's programs (@ef; NULL: none) and its
 * layout in the map under its id, then its enable file.
 */
static int event_enable(struct tf_chan *c, const struct ltt_kabi_event *e,
			const struct ltt_kabi_event_filter *ef)
{
	struct tracefs_event copy, *ev = &copy;
	struct ltt_ftrace_event *layout;
	char path[4 * LTT_FTRACE_NAME_MAX];
	uint32_t raw_id, id;
	int ret;

	ret = chan_event_layout(c, e->name, true, &copy, &layout);
	if (ret)
		return ret;
	raw_id = tracefs_statedump_raw_id(ev);
	id = layout->id;
	ret = 0;
	if (c->tasks && task_event(ev) && !ltt_ftrace_map_recorded(c->map, layout->id))
		/* read for the table until now: its records before this one are not the user's */
		ret = ltt_ftrace_map_publish_reject(c->map, layout->id, 0, 0);
	if (!ret)
		ret = filter_publish(c, ev, layout, raw_id, ef);
	if (!ret)
		ret = ltt_ftrace_map_publish_raw(c->map, e->id, raw_id, layout);
	free(layout);
	if (!ret && raw_id)	/* the daemon writes it: nothing to enable in ftrace */
		c->sd_events |= 1u << (raw_id - TRACEFS_SD_RAW_ID_FIRST);
	snprintf(path, sizeof(path), "events/%s/%s/enable", ev->system, ev->event);
	if (!ret && ev->bpf)	/* its records: the BPF program's, in @c's rings */
		return tracefs_bpf_enable(c, ev, id, true);
	if (!ret && !raw_id)
		ret = ltt_write_control(c->dir_fd, path, "1");
	return ret;
}

/* EVENT_SET_FILTER: new programs for an event of the map (-ENOENT: none). */
static int event_set_filter(struct tf_chan *c, const struct ltt_kabi_event_filter *ef)
{
	struct tracefs_event copy, *ev = &copy;
	struct ltt_ftrace_event *layout;
	uint32_t raw_id;
	int ret;

	ret = chan_event_layout(c, ef->event.name, false, &copy, &layout);
	if (ret)
		return ret;
	raw_id = tracefs_statedump_raw_id(ev);
	ret = ltt_ftrace_map_has(c->map, layout->id, raw_id) ?
	      filter_publish(c, ev, layout, raw_id, ef) : -ENOENT;
	free(layout);
	return ret;
}

/*
 * A task table's event the user disabled: read on, its records from now
 * on rejected (those before it, still in the kernel's buffer, are
 * written as the module writes what fired before a disable).
 */
static int event_untask(struct tf_chan *c, const struct tracefs_event *ev)
{
	struct ltt_ftrace_event *layout;
	int ret;

	ret = tracefs_event_layout(c->t, ev->name, &ev, &layout);
	if (ret)
		return ret;
	ret = ltt_ftrace_map_publish_reject(c->map, layout->id, 0, ltt_evloop_now_ns());
	free(layout);
	return ret;
}

static int event_disable(struct tf_chan *c, const struct ltt_kabi_event *e)
{
	const struct tracefs_event *found = tracefs_find(c->t, e->name);
	struct tracefs_event copy, *ev = &copy;
	char path[4 * LTT_FTRACE_NAME_MAX];
	uint32_t raw_id;

	if (!found || tracefs_eprobe_copy(c, found, false, &copy))
		return -ENOENT;
	raw_id = tracefs_statedump_raw_id(ev);
	if (raw_id) {
		c->sd_events &= ~(1u << (raw_id - TRACEFS_SD_RAW_ID_FIRST));
		return 0;
	}
	if (c->tasks && task_event(ev))
		return event_untask(c, ev);
	if (ev->bpf)
		return tracefs_bpf_enable(c, ev, 0, false);
	snprintf(path, sizeof(path), "events/%s/%s/enable", ev->system, ev->event);
	return ltt_write_control(c->dir_fd, path, "0");
}

/*
 * The task table's events on in @c's instance, read and not written
 * (LTT_FTRACE_CTF_TASKS_ONLY) unless the user enabled them, and without
 * a kernel filter: a record the kernel drops would leave the table
 * wrong.  An event this kernel lacks is logged and left out.
 */
static int tasks_enable(struct tf_chan *c)
{
	const struct tracefs_event *ev;
	struct ltt_ftrace_event *layout;
	char path[3 * LTT_FTRACE_NAME_MAX];
	size_t i;
	int ret;

	if (c->tasks)
		return 0;
	for (i = 0; i < sizeof(task_events) / sizeof(task_events[0]); i++) {
		ret = tracefs_event_layout(c->t, task_events[i], &ev, &layout);
		if (ret) {
			LTT_WARN("kernel: ftrace instance %s: no event %s (%s): the process contexts don't follow what it says",
				 c->name, task_events[i], strerror(-ret));
			continue;
		}
		/* a user's filter, or one left by a disabled event, would drop records */
		ret = kernel_filter(c, ev, NULL);
		if (!ret && !ltt_ftrace_map_recorded(c->map, layout->id))
			ret = ltt_ftrace_map_publish(c->map, LTT_FTRACE_CTF_TASKS_ONLY, layout);
		free(layout);
		snprintf(path, sizeof(path), "events/%s/%s/enable", ev->system, ev->event);
		if (!ret)
			ret = ltt_write_control(c->dir_fd, path, "1");
		if (ret)
			return ret;
	}
	c->tasks = true;
	return 0;
}

/*
 * CONTEXT_ADD: the consumer writes the contexts a record holds (the
 * kernel domain hands them over with the channel), and the process
 * contexts from its task table, whose events go on; the size is theirs.
 */
static int context_add(struct tf_chan *c, struct ltt_kabi_context *ctx)
{
	int ret;

	switch (ctx->type) {
	case LTT_KABI_CTX_PROCNAME:
	case LTT_KABI_CTX_PID:
	case LTT_KABI_CTX_PPID:
	case LTT_KABI_CTX_VPID:
	case LTT_KABI_CTX_VTID:
		ret = tasks_enable(c);
		if (ret)
			return ret;
		break;
	case LTT_KABI_CTX_TID:
	case LTT_KABI_CTX_CPU_ID:
		break;
	default:
		return -EOPNOTSUPP;
	}
	ctx->size = (uint32_t)ltt_ctx_type_size(ctx->type);
	return 0;
}

/* ---- streams ---- */

/* A stream: its CPU's trace_pipe_raw (the object's fd), statistics and size. */
struct tf_stream {
	int stats_fd;			/* per_cpu/cpuN/stats */
	int size_fd;			/* per_cpu/cpuN/buffer_size_kb, or -1 */
};

static int stream_new(struct tf_chan *c, const struct ltt_kabi_stream *st,
		      struct ltt_kabi_obj *ret_new)
{
	struct tf_stream *s = malloc(sizeof(*s));
	char path[64];
	int fd, ret;

	if (!s)
		return -ENOMEM;
	snprintf(path, sizeof(path), "per_cpu/cpu%u/buffer_size_kb", st->cpu);
	s->size_fd = openat(c->dir_fd, path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "per_cpu/cpu%u/stats", st->cpu);
	s->stats_fd = openat(c->dir_fd, path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "per_cpu/cpu%u/trace_pipe_raw", st->cpu);
	fd = s->stats_fd < 0 ? -1 : openat(c->dir_fd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;	/* ENOENT: no such CPU */
		if (s->stats_fd >= 0)
			close(s->stats_fd);
		if (s->size_fd >= 0)
			close(s->size_fd);
		free(s);
		return ret;
	}
	*ret_new = (struct ltt_kabi_obj){ .fd = fd, .priv = s };
	return 0;
}

/*
 * The kernel's count of a CPU buffer's memory: buffer_size_kb ("1408",
 * or "7 (expanded: 1408)" for a buffer not expanded yet: 7), 0 when the
 * file can't be read.
 */
static uint64_t stream_allocated(const struct tf_stream *s)
{
	char text[64];
	ssize_t n = s->size_fd < 0 ? -1 : pread(s->size_fd, text, sizeof(text) - 1, 0);
	uint64_t kb;

	if (n <= 0)
		return 0;
	text[n] = '\0';
	return sscanf(text, "%" SCNu64, &kb) == 1 && kb <= UINT64_MAX / 1024 ? kb * 1024 : 0;
}

/*
 * STREAM_USAGE: the CPU's statistics: "bytes:", what its buffer holds
 * that no read took yet, and "dropped events:", what it could not keep;
 * its buffer's size as the kernel counts it (stream_allocated()).
 * -EIO when the kernel's file lacks either line.
 */
static int stream_usage(struct tf_stream *s, struct ltt_kabi_stream_usage *ret)
{
	char text[1024], *line;
	ssize_t n = pread(s->stats_fd, text, sizeof(text) - 1, 0);
	int found = 0;

	if (n < 0)
		return -errno;
	text[n] = '\0';
	for (line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		found += sscanf(line, "bytes: %" SCNu64, &ret->bytes) == 1;
		found += sscanf(line, "dropped events: %" SCNu64, &ret->dropped) == 1;
	}
	ret->allocated = stream_allocated(s);
	return found == 2 ? 0 : -EIO;
}

int tracefs_inst_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		     struct ltt_kabi_obj *ret_new)
{
	switch (op) {
	case LTT_KABI_OP_SESSION:
		return session_new(obj->priv, ret_new);
	case LTT_KABI_OP_START:
		return session_start(obj->priv);
	case LTT_KABI_OP_STOP:
		return session_switch(obj->priv, false);
	case LTT_KABI_OP_CHANNEL:
		return chan_new(obj->priv, arg, ret_new);
	case LTT_KABI_OP_STREAM:
		return stream_new(obj->priv, arg, ret_new);
	case LTT_KABI_OP_EVENT_ENABLE:
		return event_enable(obj->priv, arg, NULL);
	case LTT_KABI_OP_EVENT_ENABLE_FILTERED:
		return event_enable(obj->priv, &((struct ltt_kabi_event_filter *)arg)->event, arg);
	case LTT_KABI_OP_EVENT_SET_FILTER:
		return event_set_filter(obj->priv, arg);
	case LTT_KABI_OP_EVENT_DISABLE:
		return event_disable(obj->priv, arg);
	case LTT_KABI_OP_CONTEXT_ADD:
		return context_add(obj->priv, arg);
	case LTT_KABI_OP_TRACKER_SET:
		return tracefs_track_set(obj->priv, arg);
	case LTT_KABI_OP_TRACKER_GET:
		return tracefs_track_get(obj->priv, arg);
	case LTT_KABI_OP_STATEDUMP:
		return session_statedump(obj->priv);
	case LTT_KABI_OP_STREAM_USAGE:
		return stream_usage(obj->priv, arg);
	case LTT_KABI_OP_BPF_RING:
		return tracefs_bpf_ring(obj->priv, arg, ret_new);
	case LTT_KABI_OP_WAKE_EARLY:
		return ltt_write_control(((struct tf_chan *)obj->priv)->dir_fd, "buffer_percent", "0");
	default:
		return -ENOTTY;	/* not an operation of tracefs objects */
	}
}

void tracefs_inst_release(struct ltt_kabi_obj *obj)
{
	struct tf_session *s;
	struct tf_chan *c;

	switch (obj->kind) {
	case LTT_KABI_KIND_SESSION:
		s = obj->priv;
		for (c = s->chans; c; c = c->next)
			c->s = NULL;
		close(obj->fd);
		tracefs_reap(s->t);	/* the consumer has let go of its channels' files */
		tracefs_put(s->t);
		tracefs_track_fini(s);
		free(s);
		break;
	case LTT_KABI_KIND_CHANNEL:
		c = obj->priv;
		chan_unlink(c);
		chan_free(c, obj->fd);
		break;
	case LTT_KABI_KIND_STREAM:
		close(((struct tf_stream *)obj->priv)->stats_fd);
		if (((struct tf_stream *)obj->priv)->size_fd >= 0)
			close(((struct tf_stream *)obj->priv)->size_fd);
		free(obj->priv);
		close(obj->fd);
		break;
	default:
		close(obj->fd);
		break;
	}
}
