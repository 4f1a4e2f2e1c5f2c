// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-notify.c - the kernel's event-rule-matches conditions of
 * triggers: a tracefs channel per trigger, read by one thread (see
 * kernel-notify.h).
 *
 * Locks: kn->sync_lock makes one sync at a time (they make and release
 * notifiers, which takes the kernel thread a while); kn->lock over the
 * list of notifiers, taken by the reader around each batch of streams it
 * drains (it fires triggers under it: the triggers' own lock comes after)
 * and by sync only to take a notifier out or put one in.  Streams are
 * tagged in epoll by their notifier's serial number and their index,
 * looked up under the lock: a notifier taken out meanwhile is not found.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/base/errmap.h"
#include "common/base/evloop.h"
#include "common/ftrace/ftrace-conv.h"
#include "common/ftrace/ftrace-map.h"
#include "common/base/log.h"
#include "common/proto/trigger-proto.h"
#include "filter-vm/filter-vm.h"
#include "sessiond/kernel/kernel-capture.h"
#include "sessiond/kernel/kernel-filter.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/kernel/kernel-notify.h"
#include "sessiond/kernel/kernel-probe.h"

#define KN_SUBBUF_SIZE	4096
#define KN_NUM_SUBBUF	16	/* 64 KiB a CPU: a burst waits there for the reader */
#define KN_PACKET_SIZE	4096	/* the converter's (it opens no packet here) */
#define KN_TAG_STREAMS	20	/* a tag: serial << 20 | the stream's index */
#define KN_DRAIN_PAGES	KN_NUM_SUBBUF	/* pages read a wake-up: epoll says the rest */
#define KN_WAKE_TAG	0	/* the eventfd's: no notifier has serial 0 */
/*
 * ftrace's dropped count of a stream is read (a round trip to the
 * privileged part) at most this often: read at every drain, a busy rule
 * (sched_switch, which the reader's own wake-ups feed) kept both
 * processes busy on it.  A stream drained since its last reading is read
 * again once due, drained or not: a drop is counted at most about two
 * intervals late.
 */
#define KN_USAGE_INTERVAL_MS	100

struct knotifier;

/* One CPU's buffer of a notifier. */
struct kn_stream {
	struct knotifier *n;
	uint32_t cpu;
	int fd;				/* its trace_pipe_raw (a dup), non-blocking */
	ltt_khandle handle;
	struct ltt_ftrace_conv conv;	/* the notifier's events and programs */
	uint64_t lost;			/* conv's discarded counted as dropped so far */
	uint64_t torn_pages;		/* conv's torn pages counted so far (1 each) */
	uint64_t dropped;		/* ftrace's dropped events counted so far */
	uint64_t usage_due_ns;		/* monotonic: when @dropped may be read again */
	bool usage_stale;		/* drained since @dropped was read */
};

/* The channel of one trigger, and what its records are read with. */
struct knotifier {
	struct cds_list_head node;	/* in ltt_knotify.list */
	struct ltt_knotify *kn;
	struct ltt_trigger *t;		/* a reference; NULL for a check's */
	uint64_t key;			/* the trigger's */
	uint64_t serial;
	ltt_khandle session, chan;
	ltt_khandle probe;		/* a probe rule's, placed for it (kernel-probe.h) */
	const struct ltt_ftrace_map_shm *shm;	/* the channel's event map */
	char (*events)[LTT_KABI_NAME_MAX];	/* by CTF id */
	uint32_t nr_events;
	struct ltt_ftrace_event *layouts;	/* the map's entries, copied */
	uint32_t *ctf_ids;			/* each one's: its index in @events */
	uint32_t nr_layouts;
	struct ltt_ftrace_map_filter *filters;	/* the map's filter log, copied */
	uint32_t nr_filters;
	struct ltt_capture_expr caps[LTT_TRIGGER_CAPTURES_LIMIT];
	struct kn_stream *streams;
	uint32_t nr_streams;
};

struct ltt_knotify {
	struct ltt_kernel *k;
	struct ltt_kabi *kabi;		/* a tracefs tracer: k's, or its own */
	struct ltt_kabi_version version;	/* @kabi's: the probes it places */
	bool own_kabi;
	struct ltt_triggers *trs;	/* k's */
	pthread_mutex_t sync_lock;
	pthread_mutex_t lock;
	struct cds_list_head list;	/* of struct knotifier */
	uint64_t next_serial;
	int epfd, wake_fd;
	pthread_t reader;
	bool reading;
	bool stopping;			/* atomic: set under @lock */
	bool usage_stale;		/* the reader's: a stream's is (or may be) */
	uint8_t *page;			/* the reader's */
	size_t page_size;
};

/* ---- the tracefs tracer ---- */

/* Over k->notify's making (the one kernel domain's). */
static pthread_mutex_t get_lock = PTHREAD_MUTEX_INITIALIZER;

/* @k's notifier state, its tracefs tracer opened the first time; NULL if it can't be. */
static struct ltt_knotify *knotify_get(struct ltt_kernel *k)
{
	struct ltt_knotify *kn;
	int ret;

	pthread_mutex_lock(&get_lock);
	kn = k->notify;
	if (kn)
		goto out;
	kn = calloc(1, sizeof(*kn));
	if (!kn)
		goto out;
	kn->k = k;
	kn->trs = k->triggers;
	kn->epfd = kn->wake_fd = -1;
	kn->next_serial = 1;
	pthread_mutex_init(&kn->sync_lock, NULL);
	pthread_mutex_init(&kn->lock, NULL);
	CDS_INIT_LIST_HEAD(&kn->list);
	if (k->backend == &ltt_kabi_tracefs) {
		kn->kabi = k->kabi;
		kn->version = k->version;
	} else {
		ret = ltt_kabi_open(&ltt_kabi_tracefs, NULL, &kn->kabi, &kn->version);
		if (ret) {
			LTT_WARN("kernel event rules of triggers need tracefs, which can't be opened: %s",
				 strerror(-ret));
			pthread_mutex_destroy(&kn->lock);
			pthread_mutex_destroy(&kn->sync_lock);
			free(kn);
			kn = NULL;
			goto out;
		}
		kn->own_kabi = true;
	}
	k->notify = kn;
out:
	pthread_mutex_unlock(&get_lock);
	return kn;
}

/* ---- a notifier ---- */

/* What tracefs said to a notifier's channel, as a trigger's refusal. */
static const struct ltt_errmap refusals[] = {
	{ -ENOMEM, LTT_ERR_NOMEM },
	{ -EINVAL, LTT_ERR_FILTER_KERNEL_CONTEXT },	/* programs it can't run */
	{ -EOPNOTSUPP, LTT_ERR_FILTER_KERNEL_CONTEXT },
	{ LTT_ERRMAP_ELSE, LTT_ERR_TRIGGER_UNSUPPORTED },
};

static void notifier_free(struct knotifier *n)
{
	struct ltt_knotify *kn = n->kn;
	struct ltt_kabi_stream_usage u;
	uint32_t i;

	for (i = 0; i < n->nr_streams; i++) {
		/* what ftrace dropped since the reader last looked (it looks at intervals) */
		if (n->t && n->streams[i].handle &&
		    !ltt_kabi_stream_usage(kn->kabi, n->streams[i].handle, &u) &&
		    u.dropped > n->streams[i].dropped)
			ltt_triggers_count_dropped(kn->trs, n->t, u.dropped - n->streams[i].dropped);
		if (n->streams[i].fd >= 0) {
			if (kn->epfd >= 0)
				(void)epoll_ctl(kn->epfd, EPOLL_CTL_DEL, n->streams[i].fd, NULL);
			close(n->streams[i].fd);
		}
		ltt_ftrace_conv_fini(&n->streams[i].conv);
		if (n->streams[i].handle)
			ltt_kabi_release(kn->kabi, n->streams[i].handle);
	}
	if (n->session)
		(void)ltt_kabi_session_stop(kn->kabi, n->session);
	if (n->chan)
		ltt_kabi_release(kn->kabi, n->chan);
	if (n->probe)
		ltt_kabi_release(kn->kabi, n->probe);	/* after its channel: none enables it */
	if (n->session)
		ltt_kabi_release(kn->kabi, n->session);
	ltt_ftrace_map_unmap(n->shm);
	for (i = 0; i < n->nr_filters; i++)
		free(n->filters[i].buf);
	free(n->filters);
	free(n->layouts);
	free(n->ctf_ids);
	free(n->events);
	free(n->streams);
	if (n->t)
		ltt_triggers_put(kn->trs, n->t);
	free(n);
}

/* What enabling the events of a rule needs to carry. */
struct enabling {
	struct knotifier *n;
	const struct ltt_channel *rule;
	uint32_t refused;		/* events of the rule's names its filter does not apply to */
	int site;			/* a system call rule's (enum ltt_syscall_site) */
	bool probe;			/* a probe rule's event: no program (no filter) */
	int err;			/* the first failure other than a missing event */
};

/* Does a rule of system call site @site take event @name (any other event: yes)? */
static bool site_takes(int site, const char *name)
{
	const char *other = site == LTT_SYSCALL_SITE_ENTRY ? LTT_KABI_SYSCALL_EXIT_PREFIX :
			    site == LTT_SYSCALL_SITE_EXIT ? LTT_KABI_SYSCALL_ENTRY_PREFIX : NULL;

	return !other || strncmp(name, other, strlen(other));
}

/* Enable event @name in the notifier's channel if the rule takes it, with its programs. */
static int enable_event(void *arg, const char *name)
{
	struct enabling *e = arg;
	struct knotifier *n = e->n;
	struct ltt_knotify *kn = n->kn;
	struct ltt_ust_filters f;
	void *grown;
	int ret;

	if (!strncmp(name, "lttng_statedump_", strlen("lttng_statedump_")))
		return 0;	/* the daemon writes those at a session's start: no kernel event */
	if (!site_takes(e->site, name))
		return 0;	/* a system call rule of its entries (exits) alone: not the others */
	if (e->probe)
		f = (struct ltt_ust_filters){ .want = true };	/* its rule takes no filter */
	else
		ltt_kernel_rule_programs(kn->k, kn->kabi, e->rule, name, &f);
	if (!f.want) {
		LTT_DBG("trigger's kernel event %s: its rule does not take it (a field its filter reads is not the event's)",
			name);
		ltt_ust_filters_fini(&f);
		e->refused++;
		return 0;
	}
	grown = realloc(n->events, (n->nr_events + 1) * sizeof(*n->events));
	if (!grown) {
		ltt_ust_filters_fini(&f);
		return -ENOMEM;
	}
	n->events = grown;
	ret = f.nr ? ltt_kabi_event_filter(kn->kabi, n->chan, name, n->nr_events, true,
					   (uint8_t *const *)f.code, f.len, f.nr) :
		     ltt_kabi_event_enable(kn->kabi, n->chan, name, n->nr_events);
	ltt_ust_filters_fini(&f);
	if (ret == -ENOENT) {
		LTT_DBG("trigger's kernel event %s: tracefs has no such event", name);
		return 0;	/* not an event of ftrace's (the module's own) */
	}
	if (ret) {
		LTT_WARN("trigger's kernel event %s: tracefs refused it: %s", name, strerror(-ret));
		if (!e->err)
			e->err = ret;
		return 0;
	}
	snprintf(n->events[n->nr_events++], LTT_KABI_NAME_MAX, "%s", name);
	return 0;
}

/* The channel's event map: its layouts and the programs of each event, copied. */
static int read_map(struct knotifier *n)
{
	struct ltt_ftrace_map_entry e;
	struct ltt_ftrace_map_filter f;
	uint32_t cursor = 0, i, pub;
	void *grown;
	int fd, ret;

	ret = ltt_kabi_dup(n->kn->kabi, n->chan, &fd);
	if (ret)
		return ret;
	ret = ltt_ftrace_map_open(fd, &n->shm);
	close(fd);
	if (ret)
		return ret;
	pub = ltt_ftrace_map_published(n->shm);
	n->layouts = calloc(pub ? pub : 1, sizeof(*n->layouts));
	n->ctf_ids = calloc(pub ? pub : 1, sizeof(*n->ctf_ids));
	if (!n->layouts || !n->ctf_ids)
		return -ENOMEM;
	for (i = 0; i < pub; i++) {
		ret = ltt_ftrace_map_entry_get(n->shm, i, &e);
		if (ret)
			return ret;
		if (e.raw_id)
			continue;	/* the state dump's: the daemon writes them, never here */
		n->layouts[n->nr_layouts] = e.layout;
		n->ctf_ids[n->nr_layouts++] = e.ctf_id;
	}
	while (!(ret = ltt_ftrace_map_filter_next(n->shm, &cursor, &f))) {
		if (f.raw_id) {	/* a state dump event's: none is enabled here */
			free(f.buf);
			continue;
		}
		grown = realloc(n->filters, (n->nr_filters + 1) * sizeof(*n->filters));
		if (!grown) {
			free(f.buf);
			return -ENOMEM;
		}
		n->filters = grown;
		n->filters[n->nr_filters++] = f;
	}
	return ret == -ENODATA ? 0 : ret;
}

/* Stream @s's converter: the notifier's events and their programs. */
static int stream_conv(struct knotifier *n, struct kn_stream *s)
{
	uint32_t i;
	int ret;

	ret = ltt_ftrace_conv_init(&s->conv, (const uint8_t[LTT_CTF_UUID_LEN]){ 0 }, 0, s->cpu,
				   KN_PACKET_SIZE, &n->shm->page);
	for (i = 0; i < n->nr_layouts && !ret; i++)
		ret = ltt_ftrace_conv_map(&s->conv, n->layouts[i].id, n->ctf_ids[i], &n->layouts[i]);
	/* the log holds each event's programs once: none changes after */
	for (i = 0; i < n->nr_filters && !ret; i++)
		ret = ltt_ftrace_conv_set_filter(&s->conv, n->filters[i].ftrace_id,
						 n->filters[i].raw_id, &n->filters[i]);
	return ret;
}

/* One stream a CPU, each read (a dup of its fd) by the reader from now on. */
static int open_streams(struct knotifier *n)
{
	struct ltt_kernel *k = n->kn->k;
	struct kn_stream *s;
	uint32_t i;
	int ret;

	n->streams = calloc(k->nr_cpus, sizeof(*n->streams));
	if (!n->streams)
		return -ENOMEM;
	for (i = 0; i < k->nr_cpus; i++) {
		s = &n->streams[n->nr_streams];
		s->n = n;
		s->cpu = k->cpus[i];
		s->fd = -1;
		ret = ltt_kabi_stream_create(n->kn->kabi, n->chan, s->cpu, 0, &s->handle);
		if (ret == -ENOENT)
			continue;	/* not a CPU of this machine after all */
		n->nr_streams++;
		if (!ret)
			ret = ltt_kabi_dup(n->kn->kabi, s->handle, &s->fd);
		if (!ret)
			ret = stream_conv(n, s);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Probe rule @er of trigger @t placed for notifier @n (in its session),
 * its event enabled in its channel: 0, or the ltt error code (logged).
 */
static enum ltt_error_code probe_enable(struct knotifier *n, const struct ltt_trigger *t,
					const struct ltt_event_rule *er, int client_fd,
					struct enabling *e)
{
	char event[LTT_KABI_NAME_MAX], event_return[LTT_KABI_NAME_MAX];
	struct ltt_probe_owner owner;
	int err;

	ltt_probe_owner_of_trigger(t->owner, client_fd, &owner);
	err = ltt_kernel_probe_place(n->kn->kabi, n->session, &er->attr, &owner, &n->probe, event,
				     event_return);
	if (err)
		return ltt_kernel_probe_code(err);
	e->probe = true;
	err = enable_event(e, event);
	return err ? LTT_ERRMAP(refusals, err, NULL) : LTT_ERR_OK;
}

/*
 * A notifier of trigger @t (its rule as a channel of one rule): its
 * channel with the events enabled (a probe rule's probe placed first, its
 * file read as the owner or as the client on @client_fd), its map read.
 * Returns 0 with *@ret, or an ltt error code (logged) with nothing made.
 */
static enum ltt_error_code notifier_make(struct ltt_knotify *kn, const struct ltt_trigger *t,
					 int client_fd, struct knotifier **ret)
{
	const struct ltt_channel *rule = &t->chan;
	struct ltt_kabi_channel attr = {
		.subbuf_size = KN_SUBBUF_SIZE, .num_subbuf = KN_NUM_SUBBUF,
	};
	struct knotifier *n = calloc(1, sizeof(*n));
	struct enabling e = { .n = n, .rule = rule };
	const struct ltt_event_rule *er;
	enum ltt_error_code perr;
	int err;

	*ret = NULL;
	if (!n)
		return LTT_ERR_NOMEM;
	n->kn = kn;
	err = ltt_kabi_session_create(kn->kabi, &n->session);
	if (!err)
		err = ltt_kabi_channel_create(kn->kabi, n->session, &attr, &n->chan);
	if (!err)
		err = ltt_kabi_channel_wake_early(kn->kabi, n->chan);
	er = cds_list_first_entry(&rule->rules, struct ltt_event_rule, node);
	e.site = er->attr.type == LTT_EVENT_SYSCALL ? ltt_syscall_site_parse(er->attr.location) : 0;
	if (!err && ltt_event_type_is_probe(er->attr.type)) {
		perr = probe_enable(n, t, er, client_fd, &e);
		if (perr) {
			notifier_free(n);
			return perr;
		}
	}
	if (!err)
		err = ltt_kernel_for_each_event(kn->k, er, enable_event, &e);
	if (!err && e.err)
		err = e.err;
	if (!err && !n->nr_events) {
		notifier_free(n);
		if (e.refused) {
			LTT_WARN("a trigger's kernel event rule: its filter applies to none of its %" PRIu32 " event(s) as tracefs has them",
				 e.refused);
			return LTT_ERR_FILTER_KERNEL_TYPE;
		}
		LTT_WARN("a trigger's kernel event rule takes no event tracefs has");
		return LTT_ERR_KERNEL_EVENT_NOT_FOUND;
	}
	if (!err)
		err = read_map(n);
	if (err) {
		notifier_free(n);
		LTT_WARN("a trigger's kernel event rule: tracefs refused it: %s", strerror(-err));
		return LTT_ERRMAP(refusals, err, NULL);
	}
	*ret = n;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_knotify_check(struct ltt_kernel *k, const struct ltt_trigger_conf *c)
{
	struct ltt_knotify *kn = knotify_get(k);

	/* what tracefs takes of the rule is known once its channel is made; a probe's kind now */
	if (!kn)
		return LTT_ERR_TRIGGER_UNSUPPORTED;
	return ltt_event_type_is_probe(c->rule.type) ?
	       ltt_kernel_probe_check_tracefs(&kn->version, &c->rule) : LTT_ERR_OK;
}

/* ---- the reader ---- */

/* A record the notifier's programs kept: its trigger fires. */
static void on_record(void *arg, const struct ltt_ftrace_map *m, uint64_t ts, const void *rec,
		      size_t len)
{
	struct kn_stream *s = arg;
	struct knotifier *n = s->n;
	struct ltt_triggers *trs = n->kn->trs;
	struct ltt_filter_arg args[LTT_FTRACE_MAX_FIELDS];
	int32_t biased[LTT_FTRACE_MAX_FIELDS], tid;
	const struct ltt_trigger_conf *c = &n->t->conf;
	struct ltt_firing *f;
	size_t used = 0;
	uint32_t i;

	(void)ts;
	if (!ltt_ftrace_record_args(m->layout, rec, len, args, biased)) {
		ltt_triggers_count_dropped(trs, n->t, 1);	/* torn: its values lie */
		return;
	}
	f = ltt_firing_new(trs, n->t);
	if (!f) {
		ltt_triggers_count_dropped(trs, n->t, 1);
		return;
	}
	/* a probe's event: the rule's name, not the tracer's (as in a session's trace) */
	snprintf(f->event, sizeof(f->event), "%s", n->probe ? c->rule.pattern :
		 m->ctf_id < n->nr_events ? n->events[m->ctf_id] : m->layout->name);
	memcpy(&tid, (const uint8_t *)rec + m->layout->pid_offset, 4);
	f->n.pid = tid;
	f->n.nr_captures = c->nr_captures;
	for (i = 0; i < c->nr_captures; i++)
		ltt_knotify_capture(f, i, &n->caps[i], m->layout, args, rec, s->cpu, &used);
	ltt_triggers_fire(trs, f, 0);
}

/*
 * ftrace's dropped count of @s (a round trip to the privileged part),
 * what it grew by counted as the trigger's dropped notifications: if @s
 * was drained since the last reading and KN_USAGE_INTERVAL_MS passed
 * since.  kn->lock held.
 */
static void read_usage(struct ltt_knotify *kn, struct kn_stream *s, uint64_t now)
{
	struct ltt_kabi_stream_usage u;

	if (!s->usage_stale)
		return;
	if (now < s->usage_due_ns) {
		kn->usage_stale = true;
		return;
	}
	s->usage_stale = false;
	s->usage_due_ns = now + (uint64_t)KN_USAGE_INTERVAL_MS * 1000000;
	if (!ltt_kabi_stream_usage(kn->kabi, s->handle, &u) && u.dropped > s->dropped) {
		ltt_triggers_count_dropped(kn->trs, s->n->t, u.dropped - s->dropped);
		s->dropped = u.dropped;
	}
}

/*
 * The pages @s holds now, at most KN_DRAIN_PAGES (a stream that keeps
 * filling is reported again, level-triggered, after the others had their
 * turn); what ftrace could not keep (its full buffer's "dropped events",
 * a page's missed ones, torn records, at least one a torn page) counted
 * as the trigger's dropped notifications, ftrace's at most every
 * KN_USAGE_INTERVAL_MS (read_usage()).  kn->lock held.
 */
static void drain(struct ltt_knotify *kn, struct kn_stream *s)
{
	struct ltt_ftrace_conv_stats st;
	ssize_t r = 1;
	int i;

	for (i = 0; i < KN_DRAIN_PAGES && r > 0; i++) {
		r = read(s->fd, kn->page, kn->page_size);
		if (r > 0)
			(void)ltt_ftrace_conv_visit(&s->conv, kn->page, (size_t)r, on_record, s);
	}
	ltt_ftrace_conv_stats(&s->conv, &st);
	if (st.discarded > s->lost || st.torn_pages > s->torn_pages) {
		ltt_triggers_count_dropped(kn->trs, s->n->t, st.discarded - s->lost +
								 st.torn_pages - s->torn_pages);
		s->lost = st.discarded;
		s->torn_pages = st.torn_pages;
	}
	s->usage_stale = true;
	read_usage(kn, s, ltt_evloop_now_ns());
}

/*
 * Each stream's dropped count read if it is stale and due; kn->usage_stale
 * says whether one is left stale.  kn->lock held.
 */
static void read_usages(struct ltt_knotify *kn)
{
	uint64_t now = ltt_evloop_now_ns();
	struct knotifier *n;
	uint32_t i;

	kn->usage_stale = false;
	cds_list_for_each_entry(n, &kn->list, node)
		for (i = 0; i < n->nr_streams; i++)
			read_usage(kn, &n->streams[i], now);
}

/* The stream tagged @tag, if its notifier is still there.  kn->lock held. */
static struct kn_stream *find_stream(struct ltt_knotify *kn, uint64_t tag)
{
	uint64_t serial = tag >> KN_TAG_STREAMS, i = tag & ((1u << KN_TAG_STREAMS) - 1);
	struct knotifier *n;

	cds_list_for_each_entry(n, &kn->list, node)
		if (n->serial == serial)
			return i < n->nr_streams ? &n->streams[i] : NULL;
	return NULL;
}

static void *reader_main(void *arg)
{
	struct ltt_knotify *kn = arg;
	struct epoll_event ev[32];
	struct kn_stream *s;
	uint64_t count;
	int i, nr;

	for (;;) {
		/* a stale dropped count is read when due, whether more comes or not */
		nr = epoll_wait(kn->epfd, ev, 32, kn->usage_stale ? KN_USAGE_INTERVAL_MS : -1);
		if (nr < 0 && errno == EINTR)
			continue;
		if (nr < 0) {
			LTT_ERR("kernel notifiers: epoll_wait: %s: no more kernel event triggers",
				strerror(errno));
			return NULL;
		}
		for (i = 0; i < nr; i++) {
			if (ev[i].data.u64 == KN_WAKE_TAG) {
				(void)!read(kn->wake_fd, &count, sizeof(count));
				continue;
			}
			/* the lock a stream at a time: a sync waits for one drain at most */
			pthread_mutex_lock(&kn->lock);
			s = kn->stopping ? NULL : find_stream(kn, ev[i].data.u64);
			if (s)
				drain(kn, s);
			pthread_mutex_unlock(&kn->lock);
		}
		if (kn->usage_stale) {
			pthread_mutex_lock(&kn->lock);
			read_usages(kn);
			pthread_mutex_unlock(&kn->lock);
		}
		if (__atomic_load_n(&kn->stopping, __ATOMIC_ACQUIRE))
			return NULL;
	}
}

/* The reader, started with the first notifier.  kn->lock held. */
static int reader_start(struct ltt_knotify *kn)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = KN_WAKE_TAG };
	int ret;

	if (kn->reading)
		return 0;
	kn->page_size = (size_t)sysconf(_SC_PAGESIZE);
	kn->page = malloc(kn->page_size);
	kn->epfd = epoll_create1(EPOLL_CLOEXEC);
	kn->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = !kn->page ? -ENOMEM : kn->epfd < 0 || kn->wake_fd < 0 ? -EMFILE : 0;
	if (!ret && epoll_ctl(kn->epfd, EPOLL_CTL_ADD, kn->wake_fd, &ev))
		ret = -errno;
	if (!ret)
		ret = -pthread_create(&kn->reader, NULL, reader_main, kn);
	if (!ret) {
		kn->reading = true;
		return 0;
	}
	/* as before the first: the next notifier tries again */
	free(kn->page);
	kn->page = NULL;
	if (kn->epfd >= 0)
		close(kn->epfd);
	if (kn->wake_fd >= 0)
		close(kn->wake_fd);
	kn->epfd = kn->wake_fd = -1;
	return ret;
}

/* @n (of trigger @t) read from now on, recording; its streams tagged.  kn->lock held. */
static int notifier_start(struct ltt_knotify *kn, struct knotifier *n, struct ltt_trigger *t)
{
	struct epoll_event ev = { .events = EPOLLIN };
	uint32_t i;
	int ret;

	n->t = t;
	n->key = t->key;
	n->serial = kn->next_serial++;
	for (i = 0; i < t->conf.nr_captures; i++)
		if (ltt_capture_parse(t->conf.captures[i], &n->caps[i]))
			n->caps[i] = (struct ltt_capture_expr){ .kind = LTT_CAPTURE_KIND_PAYLOAD };
	ret = reader_start(kn);
	if (!ret)
		ret = open_streams(n);
	for (i = 0; i < n->nr_streams && !ret; i++) {
		ev.data.u64 = n->serial << KN_TAG_STREAMS | i;
		if (epoll_ctl(kn->epfd, EPOLL_CTL_ADD, n->streams[i].fd, &ev))
			ret = -errno;
	}
	if (!ret)
		ret = ltt_kabi_session_start(kn->kabi, n->session);
	return ret;
}

/* ---- following the triggers ---- */

/* Has @kn a notifier of @t? kn->lock held. */
static bool has_notifier(struct ltt_knotify *kn, const struct ltt_trigger *t)
{
	struct knotifier *n;

	cds_list_for_each_entry(n, &kn->list, node)
		if (n->key == t->key)
			return true;
	return false;
}

/* Take out the notifiers of triggers not in @v (sync_lock held), then release them. */
static void drop_unwanted(struct ltt_knotify *kn, struct ltt_trigger *const *v, size_t nr)
{
	struct knotifier *n, *tmp;
	CDS_LIST_HEAD(gone);

	pthread_mutex_lock(&kn->lock);
	cds_list_for_each_entry_safe(n, tmp, &kn->list, node)
		if (!ltt_triggers_has_key(v, nr, n->key))
			cds_list_move(&n->node, &gone);
	pthread_mutex_unlock(&kn->lock);
	cds_list_for_each_entry_safe(n, tmp, &gone, node) {
		cds_list_del(&n->node);
		notifier_free(n);	/* out of the list: the reader finds it no more */
	}
}

/* What starting a notifier's reading can fail with, as a trigger's refusal. */
static const struct ltt_errmap start_refusals[] = {
	{ -ENOMEM, LTT_ERR_NOMEM },
	{ -EMFILE, LTT_ERR_LIMIT },
	{ -ENFILE, LTT_ERR_LIMIT },
	{ LTT_ERRMAP_ELSE, LTT_ERR_TRIGGER_UNSUPPORTED },
};

/* A notifier for trigger @t made, started and listed (sync_lock held). */
static enum ltt_error_code add_notifier(struct ltt_knotify *kn, struct ltt_trigger *t,
					int client_fd)
{
	struct knotifier *n;
	enum ltt_error_code err;
	int ret;

	err = notifier_make(kn, t, client_fd, &n);
	if (err || !n)
		return err ? err : LTT_ERR_NOMEM;	/* logged */
	ltt_triggers_get(kn->trs, t);
	pthread_mutex_lock(&kn->lock);
	ret = notifier_start(kn, n, t);
	if (!ret)
		cds_list_add_tail(&n->node, &kn->list);
	pthread_mutex_unlock(&kn->lock);
	if (ret) {
		LTT_ERR("trigger '%s': its kernel events can't be read: %s", t->conf.name,
			strerror(-ret));
		notifier_free(n);
		return LTT_ERRMAP(start_refusals, ret, NULL);
	}
	LTT_INFO("trigger '%s': %" PRIu32 " kernel event(s) evaluated through tracefs",
		 t->conf.name, n->nr_events);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_knotify_arm(struct ltt_kernel *k, struct ltt_trigger *t, int client_fd)
{
	struct ltt_knotify *kn = knotify_get(k);
	enum ltt_error_code err = LTT_ERR_OK;
	bool has;

	if (!kn)
		return LTT_ERR_TRIGGER_UNSUPPORTED;
	pthread_mutex_lock(&kn->sync_lock);
	pthread_mutex_lock(&kn->lock);
	has = has_notifier(kn, t);
	pthread_mutex_unlock(&kn->lock);
	if (!has && !t->removed)
		err = add_notifier(kn, t, client_fd);
	pthread_mutex_unlock(&kn->sync_lock);
	return err;
}

void ltt_knotify_sync(struct ltt_kernel *k, struct ltt_triggers *trs)
{
	struct ltt_trigger **v = NULL;
	struct ltt_knotify *kn;
	size_t nr;

	(void)trs;	/* k's: the notifiers' */
	pthread_mutex_lock(&get_lock);
	kn = k->notify;
	pthread_mutex_unlock(&get_lock);
	if (!kn)
		return;	/* no notifier was ever made */
	/* the triggers read under it: a sync never acts on an older list */
	pthread_mutex_lock(&kn->sync_lock);
	nr = ltt_triggers_select(kn->trs, LTT_CONDITION_EVENT_RULE_MATCHES, LTT_DOMAIN_KERNEL, &v);
	drop_unwanted(kn, v, nr);
	ltt_triggers_put_all(kn->trs, v, nr);
	pthread_mutex_unlock(&kn->sync_lock);
}

void ltt_knotify_stop(struct ltt_knotify *kn)
{
	uint64_t one = 1;

	if (!kn || !kn->reading)
		return;
	pthread_mutex_lock(&kn->lock);
	__atomic_store_n(&kn->stopping, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&kn->lock);
	(void)!write(kn->wake_fd, &one, sizeof(one));
	pthread_join(kn->reader, NULL);
	kn->reading = false;
}

void ltt_knotify_free(struct ltt_knotify *kn)
{
	struct knotifier *n, *tmp;

	if (!kn)
		return;
	ltt_knotify_stop(kn);
	cds_list_for_each_entry_safe(n, tmp, &kn->list, node) {
		cds_list_del(&n->node);
		notifier_free(n);
	}
	if (kn->epfd >= 0)
		close(kn->epfd);
	if (kn->wake_fd >= 0)
		close(kn->wake_fd);
	if (kn->own_kabi)
		ltt_kabi_close(kn->kabi);
	free(kn->page);
	pthread_mutex_destroy(&kn->lock);
	pthread_mutex_destroy(&kn->sync_lock);
	free(kn);
}
