// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust.c - the user-space domain: buffers, event ids, metadata and the
 * flows between sessions, applications and the consumer (see ust.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/attr.h"
#include "common/log.h"
#include "common/names.h"
#include "common/ringbuf.h"
#include "sessiond/app.h"
#include "sessiond/tsdl.h"
#include "sessiond/ust.h"

/* Bounded waits for applications. */
#define ACK_TIMEOUT_MS 3000

/* An event class: one event id in one channel of one trace. */
struct ust_class {
	struct cds_list_head node;
	uint32_t id;
	struct ltt_app_tracepoint *tp;	/* the layout, owned copy */
	pid_t pid;			/* who defined it first */
	char procname[17];
};

struct ltt_ust_chan {
	struct cds_list_head node;	/* in ltt_ust_trace.chans */
	uint64_t key;
	struct ltt_channel *channel;	/* the session's, same lifetime */
	unsigned int nr_streams;
	int *fds;			/* per stream: shm, then wakeup */
	uint32_t next_id;
	struct cds_list_head classes;
};

/* What the user-space domain keeps per session: ltt_session_domain.state. */
struct ust_session {
	struct cds_list_head traces;	/* ltt_ust_trace */
};

/* Commands sent to programs, to wait for once every lock is released. */
struct ust_ack {
	struct ltt_app *app;	/* a reference */
	uint32_t seq;
};

/* A settle's record of the user-space domain (ltt_domain_settle_slot()). */
struct ust_acks {
	struct ust_ack *v;
	size_t n;
	size_t cap;
};

struct ltt_ust_trace {
	struct cds_list_head node;	/* in ust_session.traces */
	uint64_t key;
	bool per_pid;
	uid_t uid;
	uint32_t bits_per_long;		/* per-UID traces are per ABI too */
	pid_t pid;			/* per-PID: the application */
	uuid_t uuid;
	uint64_t consumer_gen;		/* the consumer holding its files, 0: none */
	bool lost_consumer;		/* that consumer died while it held them */
	char path[PATH_MAX];
	struct cds_list_head chans;
};

/*
 * The monotonic clock's identity: the boot id, the same for every trace
 * of this boot, so readers put them on one time line.
 */
static void read_boot_id(uuid_t ret_id)
{
	char text[40] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	text[strcspn(text, "\n")] = '\0';
	if (uuid_parse(text, ret_id)) {
		LTT_WARN("no boot id: traces get a random clock id and won't merge with other sessions'");
		uuid_generate(ret_id);
	}
}

static const struct ltt_domain_ops ust_ops;

void ltt_ust_init(struct ltt_ust *ust, const char *consumerd_path, int verbose)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	memset(ust, 0, sizeof(*ust));
	ust->domain.type = LTT_DOMAIN_USER;
	ust->domain.ops = &ust_ops;
	pthread_mutex_init(&ust->apps_lock, NULL);
	pthread_mutex_init(&ust->consumer_lock, NULL);
	CDS_INIT_LIST_HEAD(&ust->apps);
	ust->consumerd_path = consumerd_path;
	ust->verbose = verbose;
	ust->next_key = 1;
	ust->nr_cpus = n > 0 ? (unsigned int)n : 1;
	if (gethostname(ust->hostname, sizeof(ust->hostname) - 1))
		strcpy(ust->hostname, "localhost");
	read_boot_id(ust->boot_id);
}

/* Release every application and stop the consumer; sessions are destroyed. */
static void ust_fini(struct ltt_domain_impl *d)
{
	struct ltt_ust *ust = caa_container_of(d, struct ltt_ust, domain);
	struct ltt_app *app, *tmp;

	pthread_mutex_lock(&ust->apps_lock);
	cds_list_for_each_entry_safe(app, tmp, &ust->apps, node) {
		cds_list_del(&app->node);
		ltt_app_put(app);
	}
	ust->nr_apps = 0;
	pthread_mutex_unlock(&ust->apps_lock);
	ltt_consumer_destroy(ust->consumer, 10000);
	ust->consumer = NULL;
	while (ust->nr_dead)
		ltt_consumer_destroy(ust->dead[--ust->nr_dead], 0);
	pthread_mutex_destroy(&ust->apps_lock);
	pthread_mutex_destroy(&ust->consumer_lock);
}

static uint64_t new_key(struct ltt_ust *ust)
{
	return __atomic_fetch_add(&ust->next_key, 1, __ATOMIC_RELAXED);
}

/*
 * The consumer, spawned on first use, and again after the last one died;
 * @ret_gen gets its generation (each spawn has a new one), so that a trace
 * knows whether the consumer that holds its files is still this one.
 */
static struct ltt_consumer *get_consumer(struct ltt_ust *ust, uint64_t *ret_gen)
{
	struct ltt_consumer *c;

	pthread_mutex_lock(&ust->consumer_lock);
	if (ust->consumer && !ltt_consumer_alive(ust->consumer)) {
		LTT_ERR("the consumer daemon died; starting a new one for new traces");
		/*
		 * Another thread may still hold a pointer to it (in a loop of
		 * calls, which now fail at once): keep it until ust_fini().
		 */
		if (ust->nr_dead < LTT_UST_MAX_DEAD_CONSUMERS) {
			ust->dead[ust->nr_dead++] = ust->consumer;
			ust->consumer = NULL;
		}
	}
	if (!ust->consumer) {
		if (ltt_consumer_spawn(ltt_consumer_path(ust->consumerd_path), ust->verbose,
				       &ust->consumer))
			LTT_ERR("can't start the consumer daemon %s",
				ltt_consumer_path(ust->consumerd_path));
		else
			ust->consumer_gen++;
	}
	c = ust->consumer;
	*ret_gen = ust->consumer_gen;
	pthread_mutex_unlock(&ust->consumer_lock);
	return c;
}

/*
 * The consumer that holds @trace's files, or NULL when it has none, or
 * when that consumer died: a new one knows nothing of the trace, and what
 * the dead one held is lost (said once).  Session lock held.
 */
static struct ltt_consumer *trace_consumer(struct ltt_ust *ust, struct ltt_ust_trace *trace)
{
	struct ltt_consumer *c;
	uint64_t gen;

	if (!trace->consumer_gen)
		return NULL;
	c = get_consumer(ust, &gen);
	if (c && gen == trace->consumer_gen)
		return c;
	LTT_ERR("trace %s: the consumer daemon writing it died; it ends there", trace->path);
	trace->consumer_gen = 0;
	trace->lost_consumer = true;
	return NULL;
}

static bool rule_matches(const struct ltt_event_rule *rule, const struct ltt_app_tracepoint *tp)
{
	if (!rule->enabled || !ltt_glob_match(rule->attr.pattern, tp->name))
		return false;
	switch (rule->attr.loglevel_type) {
	case LTT_LOGLEVEL_RANGE:
		return tp->loglevel <= rule->attr.loglevel;
	case LTT_LOGLEVEL_SINGLE:
		return tp->loglevel == rule->attr.loglevel;
	default:
		return true;
	}
}

static bool channel_wants(const struct ltt_channel *channel, const struct ltt_app_tracepoint *tp)
{
	const struct ltt_event_rule *rule;

	cds_list_for_each_entry(rule, &channel->rules, node)
		if (rule_matches(rule, tp))
			return true;
	return false;
}

/* Send the trace's metadata text appended since @from to the consumer. */
static void send_metadata(struct ltt_ust *ust, struct ltt_ust_trace *trace,
			  const struct ltt_wbuf *text)
{
	struct ltt_consumer *c;
	int ret;

	if (text->err || !text->len)
		return;
	c = trace_consumer(ust, trace);
	if (!c)
		return;
	ret = ltt_consumer_metadata(c, trace->key, text->data, text->len);
	if (ret)
		LTT_ERR("trace %s: metadata not written: %s", trace->path, strerror(-ret));
}

static void trace_free_chan(struct ltt_ust_chan *chan)
{
	struct ust_class *cls, *tmp;
	unsigned int i;

	cds_list_for_each_entry_safe(cls, tmp, &chan->classes, node) {
		cds_list_del(&cls->node);
		free(cls->tp);
		free(cls);
	}
	for (i = 0; chan->fds && i < 2 * chan->nr_streams; i++)
		if (chan->fds[i] >= 0)
			close(chan->fds[i]);
	free(chan->fds);
	free(chan);
}

/*
 * Remove a trace from the consumer (writing what it holds) and free it.
 * Its losses are kept in the session's channels, so that the count the
 * user sees does not shrink when a per-PID trace closes with its program.
 */
static void trace_destroy(struct ltt_ust *ust, struct ltt_ust_trace *trace)
{
	struct ltt_ust_chan *chan, *tmp;
	struct ltt_consumer *c = trace_consumer(ust, trace);
	uint64_t events, packets;

	cds_list_for_each_entry_safe(chan, tmp, &trace->chans, node) {
		if (c && !ltt_consumer_flush_channel(c, chan->key, true) &&
		    !ltt_consumer_channel_stats(c, chan->key, &events, &packets)) {
			chan->channel->discarded_events += events;
			chan->channel->lost_packets += packets;
		}
		if (c && ltt_consumer_destroy_channel(c, chan->key))
			LTT_WARN("trace %s: channel %s not closed cleanly", trace->path,
				 chan->channel->attr.name);
		cds_list_del(&chan->node);
		trace_free_chan(chan);
	}
	if (c)
		ltt_consumer_destroy_trace(c, trace->key);
	cds_list_del(&trace->node);
	free(trace);
}

/* The directory of the trace an application writes to in a session. */
/*
 * The directory of the trace @app writes to in @session; the @attempt-th
 * retry (the directory held a trace: the same process after an exec in
 * the same second, or an output directory used again) gets "-N".
 */
static int trace_path(const struct ltt_session *session, const struct ltt_app *app, bool per_pid,
		      unsigned int attempt, char *buf, size_t len)
{
	char date[32], suffix[16] = "";
	struct tm tm;
	int n;

	if (attempt)
		snprintf(suffix, sizeof(suffix), "-%u", attempt);
	if (per_pid) {
		if (!localtime_r(&app->registered_at, &tm) ||
		    !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
			return -EINVAL;
		n = snprintf(buf, len, "%s/ust/pid/%s-%ld-%s%s", session->output, app->procname,
			     (long)app->pid, date, suffix);
	} else {
		n = snprintf(buf, len, "%s/ust/uid/%u/%u-bit%s", session->output,
			     (unsigned int)app->uid, app->bits_per_long, suffix);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Trace directories tried before giving up on a trace. */
#define TRACE_PATH_ATTEMPTS 100

/* Start a trace's metadata: the header and one stream per channel. */
static int trace_metadata_header(struct ltt_ust *ust, struct ltt_session *session,
				 struct ltt_ust_trace *trace, const struct ltt_app *app,
				 struct ltt_wbuf *text)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	char created[64];
	struct ltt_tsdl_trace info = {
		.hostname = ust->hostname,
		.trace_name = session->name,
		.creation_datetime = created,
		.buffering = trace->per_pid ? "pid" : "uid",
		.buffering_id = trace->per_pid ? (uint32_t)app->pid : (uint32_t)app->uid,
		.bits_per_long = app->bits_per_long,
		.vpid = trace->per_pid ? (int32_t)app->pid : -1,
		.procname = trace->per_pid ? app->procname : NULL,
	};
	struct timespec rt, mono;
	struct ltt_channel *channel;
	time_t ctime = (time_t)session->creation_time;
	struct tm tm;
	int ret;

	memcpy(info.uuid, trace->uuid, sizeof(info.uuid));
	memcpy(info.clock_uuid, ust->boot_id, sizeof(info.clock_uuid));
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	info.clock_offset_ns = ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000LL +
			       (rt.tv_nsec - mono.tv_nsec);
	if (!localtime_r(&ctime, &tm) || !strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%S%z", &tm))
		strcpy(created, "1970-01-01T00:00:00+0000");
	ret = ltt_tsdl_trace_header(text, &info);
	cds_list_for_each_entry(channel, &dom->channels, node)
		if (!ret)
			ret = ltt_tsdl_stream(text, channel->stream_id);
	return ret;
}

/*
 * @session's user-space state, made first if @create; NULL when it has
 * none (or no memory for it).  Session lock held.
 */
static struct ust_session *ust_state(struct ltt_session *session, bool create)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ust_session *us = dom->state;

	if (!us && create) {
		us = calloc(1, sizeof(*us));
		if (us) {
			CDS_INIT_LIST_HEAD(&us->traces);
			dom->state = us;
		}
	}
	return us;
}

static struct ltt_ust_trace *find_trace(struct ltt_session *session, const struct ltt_app *app,
					bool per_pid)
{
	struct ust_session *us = ust_state(session, false);
	struct ltt_ust_trace *trace;

	if (!us)
		return NULL;
	cds_list_for_each_entry(trace, &us->traces, node) {
		if (trace->per_pid != per_pid)
			continue;
		if (per_pid ? trace->pid == app->pid :
			      trace->uid == app->uid && trace->bits_per_long == app->bits_per_long)
			return trace;
	}
	return NULL;
}

/* The trace @app writes to in @session, created on first need. */
static struct ltt_ust_trace *get_trace(struct ltt_ust *ust, struct ltt_session *session,
				       const struct ltt_app *app)
{
	bool per_pid = ltt_session_domain(session, LTT_DOMAIN_USER)->buffer_type ==
		       LTT_BUFFER_PER_PID;
	struct ltt_ust_trace *trace = find_trace(session, app, per_pid);
	struct ust_session *us = ust_state(session, true);
	struct ltt_consumer *c;
	struct ltt_wbuf text;
	int ret;

	if (trace || !us)
		return trace;
	trace = calloc(1, sizeof(*trace));
	if (!trace)
		return NULL;
	trace->key = new_key(ust);
	trace->per_pid = per_pid;
	trace->uid = app->uid;
	trace->bits_per_long = app->bits_per_long;
	trace->pid = app->pid;
	uuid_generate(trace->uuid);
	CDS_INIT_LIST_HEAD(&trace->chans);
	if (session->output_type == LTT_OUTPUT_LOCAL) {
		unsigned int attempt = 0;
		uint64_t gen;

		/* Never write over a trace that is there: take the next name. */
		do {
			ret = trace_path(session, app, per_pid, attempt, trace->path,
					 sizeof(trace->path));
			c = ret ? NULL : get_consumer(ust, &gen);
			if (c)
				ret = ltt_consumer_add_trace(c, trace->key, trace->path, trace->uuid,
							     session->uid, session->gid);
			else if (!ret)
				ret = -EPIPE;
		} while (ret == -EEXIST && ++attempt < TRACE_PATH_ATTEMPTS);
		if (ret)
			LTT_ERR("session '%s': can't create trace %s: %s", session->name, trace->path,
				strerror(-ret));
		trace->consumer_gen = ret ? 0 : gen;
	}
	cds_list_add_tail(&trace->node, &us->traces);
	ltt_wbuf_init(&text);
	if (trace_metadata_header(ust, session, trace, app, &text))
		LTT_ERR("trace %s: can't generate its metadata", trace->path);
	else
		send_metadata(ust, trace, &text);
	ltt_wbuf_fini(&text);
	return trace;
}

/* Create one stream: sealed shared memory holding an initialised ring buffer. */
static int create_stream(const struct ltt_channel *channel, const struct ltt_ust_trace *trace,
			 unsigned int cpu, int *ret_shm, int *ret_wakeup)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = channel->attr.subbuf_size,
		.num_subbuf = channel->attr.num_subbuf,
		.overwrite = channel->attr.overwrite,
		.stream_id = channel->stream_id,
		.cpu = cpu,
	};
	size_t len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
	int fd, wfd, ret;
	void *mem;

	memcpy(cfg.uuid, trace->uuid, sizeof(cfg.uuid));
	if (!len)
		return -EINVAL;
	fd = memfd_create("ltt-ust-stream", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)len)) {
		ret = -errno;
		goto err;
	}
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		ret = -errno;
		goto err;
	}
	ret = ltt_rb_init_region(mem, len, &cfg);
	munmap(mem, len);
	if (ret)
		goto err;
	/* Nobody may resize it under the others' mappings (SIGBUS). */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		ret = -errno;
		goto err;
	}
	wfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wfd < 0) {
		ret = -errno;
		goto err;
	}
	*ret_shm = fd;
	*ret_wakeup = wfd;
	return 0;
err:
	close(fd);
	return ret;
}

static struct ltt_ust_chan *find_chan(struct ltt_ust_trace *trace,
				      const struct ltt_channel *channel)
{
	struct ltt_ust_chan *chan;

	cds_list_for_each_entry(chan, &trace->chans, node)
		if (chan->channel == channel)
			return chan;
	return NULL;
}

static int chan_to_consumer(struct ltt_ust *ust, struct ltt_ust_trace *trace,
			    struct ltt_ust_chan *chan)
{
	const struct ltt_channel_attr *a = &chan->channel->attr;
	struct ltt_consumer_channel cc = {
		.key = chan->key,
		.trace_key = trace->key,
		.name = a->name,
		.tracefile_size = a->tracefile_size,
		.tracefile_count = a->tracefile_count,
		.switch_timer_us = a->switch_timer_us,
		.read_timer_us = a->read_timer_us,
		.overwrite = a->overwrite,
	};
	struct ltt_consumer *c = trace_consumer(ust, trace);
	unsigned int i;
	int ret;

	if (!c)
		return -EPIPE;
	ret = ltt_consumer_add_channel(c, &cc);
	for (i = 0; !ret && i < chan->nr_streams; i++)
		ret = ltt_consumer_add_stream(c, chan->key, i, chan->fds[2 * i], chan->fds[2 * i + 1]);
	return ret;
}

/* The buffers of @channel in @trace, created on first need. */
static struct ltt_ust_chan *get_chan(struct ltt_ust *ust, struct ltt_ust_trace *trace,
				     struct ltt_channel *channel)
{
	struct ltt_ust_chan *chan = find_chan(trace, channel);
	unsigned int i;
	int ret = 0;

	if (chan)
		return chan;
	chan = calloc(1, sizeof(*chan));
	if (!chan)
		return NULL;
	chan->key = new_key(ust);
	chan->channel = channel;
	chan->nr_streams = ust->nr_cpus;
	CDS_INIT_LIST_HEAD(&chan->classes);
	chan->fds = malloc(2 * chan->nr_streams * sizeof(int));
	if (!chan->fds) {
		free(chan);
		return NULL;
	}
	for (i = 0; i < 2 * chan->nr_streams; i++)
		chan->fds[i] = -1;
	for (i = 0; !ret && i < chan->nr_streams; i++)
		ret = create_stream(channel, trace, i, &chan->fds[2 * i], &chan->fds[2 * i + 1]);
	if (ret) {
		LTT_ERR("channel %s: can't create its buffers: %s", channel->attr.name, strerror(-ret));
		trace_free_chan(chan);
		return NULL;
	}
	if (trace->consumer_gen) {
		ret = chan_to_consumer(ust, trace, chan);
		if (ret)
			LTT_ERR("channel %s: the consumer refused it: %s", channel->attr.name,
				strerror(-ret));
	}
	cds_list_add_tail(&chan->node, &trace->chans);
	return chan;
}

/* A copy of a decoded description: encode it as on the wire, decode it. */
static struct ltt_app_tracepoint *tp_dup(const struct ltt_app_tracepoint *tp)
{
	struct ltt_app_tracepoint *copy = NULL;
	const struct ltt_app_field *f;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t i, e;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, tp->name);
	ltt_wbuf_put_u32(&w, (uint32_t)tp->loglevel);
	ltt_wbuf_put_u32(&w, tp->nr_fields);
	for (i = 0; i < tp->nr_fields; i++) {
		f = &tp->fields[i];
		ltt_wbuf_put_str(&w, f->name);
		ltt_wbuf_put_u8(&w, f->type);
		ltt_wbuf_put_u8(&w, f->size);
		ltt_wbuf_put_u8(&w, f->is_signed);
		ltt_wbuf_put_u8(&w, f->base);
		ltt_wbuf_put_u8(&w, f->encoding);
		ltt_wbuf_put_u32(&w, f->length);
		ltt_wbuf_put_u32(&w, f->nr_enum_entries);
		for (e = 0; e < f->nr_enum_entries; e++) {
			ltt_wbuf_put_u64(&w, (uint64_t)f->enum_entries[e].start);
			ltt_wbuf_put_u64(&w, (uint64_t)f->enum_entries[e].end);
			ltt_wbuf_put_str(&w, f->enum_entries[e].label);
		}
		ltt_wbuf_put_str(&w, f->enum_name ? f->enum_name : "");
	}
	if (!w.err) {
		ltt_rbuf_init(&r, w.data, w.len);
		if (ltt_app_get_tracepoint(&r, &copy) || ltt_rbuf_end(&r)) {
			free(copy);
			copy = NULL;
		}
	}
	ltt_wbuf_fini(&w);
	return copy;
}

/*
 * The event id of @tp in @chan: the existing class of that name if the
 * layout is the same, a new class (and its metadata) otherwise.  A second
 * layout for a name is refused with a warning naming both programs, so a
 * shared trace is never corrupted.  Returns 0 or -EEXIST / -ENOMEM.
 */
static int class_id(struct ltt_ust *ust, struct ltt_ust_trace *trace, struct ltt_ust_chan *chan,
		    const struct ltt_app *app, const struct ltt_app_tracepoint *tp,
		    uint32_t *ret_id)
{
	struct ust_class *cls;
	struct ltt_wbuf text;

	cds_list_for_each_entry(cls, &chan->classes, node) {
		if (strcmp(cls->tp->name, tp->name))
			continue;
		if (!ltt_app_tracepoint_same_layout(cls->tp, tp)) {
			LTT_WARN("event %s of %s (pid %ld) has other fields than the same event of %s (pid %ld), already in trace %s: not recorded for pid %ld",
				 tp->name, app->procname, (long)app->pid, cls->procname,
				 (long)cls->pid, trace->path, (long)app->pid);
			return -EEXIST;
		}
		*ret_id = cls->id;
		return 0;
	}
	cls = calloc(1, sizeof(*cls));
	if (!cls)
		return -ENOMEM;
	cls->tp = tp_dup(tp);
	if (!cls->tp) {
		free(cls);
		return -ENOMEM;
	}
	cls->id = chan->next_id++;
	cls->pid = app->pid;
	strcpy(cls->procname, app->procname);
	cds_list_add_tail(&cls->node, &chan->classes);
	ltt_wbuf_init(&text);
	if (ltt_tsdl_event(&text, tp, cls->id, chan->channel->stream_id))
		LTT_ERR("trace %s: can't describe event %s", trace->path, tp->name);
	else
		send_metadata(ust, trace, &text);
	ltt_wbuf_fini(&text);
	*ret_id = cls->id;
	return 0;
}

static bool app_chan_has(const struct ltt_app_chan *ac, const char *name, size_t *ret_i)
{
	size_t i;

	for (i = 0; i < ac->nr_events; i++) {
		if (!strcmp(ac->events[i].name, name)) {
			*ret_i = i;
			return true;
		}
	}
	return false;
}

static int send_chan_add(struct ltt_app *app, uint64_t session_id, struct ltt_ust_chan *chan,
			 bool enabled, uint32_t *ret_seq)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, chan->key);
	ltt_wbuf_put_u64(&w, session_id);
	ltt_wbuf_put_u32(&w, chan->channel->stream_id);
	ltt_wbuf_put_u8(&w, enabled);
	ltt_wbuf_put_u32(&w, chan->nr_streams);
	ret = ltt_app_send(app, LTT_APP_MSG_CHANNEL_ADD, &w, chan->fds, 2 * chan->nr_streams,
			   ret_seq);
	ltt_wbuf_fini(&w);
	return ret;
}

/* Send a command whose payload is {u64 key[, str name[, u32 id]]}. */
static int send_key_cmd(struct ltt_app *app, uint16_t type, uint64_t key, const char *name,
			int64_t id, uint32_t *ret_seq)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	if (name)
		ltt_wbuf_put_str(&w, name);
	if (id >= 0)
		ltt_wbuf_put_u32(&w, (uint32_t)id);
	ret = ltt_app_send(app, type, &w, NULL, 0, ret_seq);
	ltt_wbuf_fini(&w);
	return ret;
}

/* Make @app's events in @chan match the channel's rules.  apps_lock held. */
static void sync_events(struct ltt_ust *ust, struct ltt_ust_trace *trace,
			struct ltt_ust_chan *chan, struct ltt_app *app, struct ltt_app_chan *ac,
			uint32_t *last)
{
	size_t t, i;
	uint32_t id;

	for (t = 0; t < app->nr_tps; t++) {
		const struct ltt_app_tracepoint *tp = app->tps[t];
		bool want = channel_wants(chan->channel, tp);
		bool have = app_chan_has(ac, tp->name, &i);

		if (want && !have) {
			if (class_id(ust, trace, chan, app, tp, &id))
				continue;
			if (ac->nr_events == ac->cap_events) {
				size_t cap = ac->cap_events ? 2 * ac->cap_events : 16;
				struct ltt_app_event *ev = realloc(ac->events, cap * sizeof(*ev));

				if (!ev)
					continue;
				ac->events = ev;
				ac->cap_events = cap;
			}
			if (send_key_cmd(app, LTT_APP_MSG_EVENT_ENABLE, chan->key, tp->name, id, last))
				return;
			ac->events[ac->nr_events++] = (struct ltt_app_event){ .name = tp->name, .id = id };
		} else if (!want && have) {
			if (send_key_cmd(app, LTT_APP_MSG_EVENT_DISABLE, chan->key, tp->name, -1, last))
				return;
			ac->events[i] = ac->events[--ac->nr_events];
		}
	}
}

/*
 * Bring @app up to date with an active @session: buffers, channels and
 * events.  @last receives the seq of the last command sent, if any was.
 * Session lock and apps_lock held.
 */
static void push_app(struct ltt_ust *ust, struct ltt_session *session, struct ltt_app *app,
		     uint32_t *last)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ltt_channel *channel;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_app_chan *ac;

	if (!session->active || app->dead || !dom->nr_channels)
		return;
	trace = get_trace(ust, session, app);
	if (!trace)
		return;
	cds_list_for_each_entry(channel, &dom->channels, node) {
		chan = get_chan(ust, trace, channel);
		if (!chan)
			continue;
		ac = ltt_app_find_chan(app, chan->key);
		if (!ac) {
			ac = calloc(1, sizeof(*ac));
			if (!ac)
				continue;
			if (send_chan_add(app, session->id, chan, channel->enabled, last)) {
				free(ac);
				return;
			}
			ac->key = chan->key;
			ac->session_id = session->id;
			ac->enabled = channel->enabled;
			cds_list_add_tail(&ac->node, &app->chans);
		} else if (ac->enabled != channel->enabled) {
			if (send_key_cmd(app, channel->enabled ? LTT_APP_MSG_CHANNEL_ENABLE :
				       LTT_APP_MSG_CHANNEL_DISABLE, chan->key, NULL, -1, last))
				return;
			ac->enabled = channel->enabled;
		}
		sync_events(ust, trace, chan, app, ac, last);
	}
}

static void acks_init(struct ust_acks *acks)
{
	acks->v = NULL;
	acks->n = 0;
	acks->cap = 0;
}

/* Remember to wait for @app's command @seq (and all before it). */
static void acks_add(struct ust_acks *acks, struct ltt_app *app, uint32_t seq)
{
	struct ust_ack *grown;

	if (!acks)
		return;	/* no memory for the set: we just do not wait */
	if (acks->n == acks->cap) {
		size_t cap = acks->cap ? 2 * acks->cap : 16;

		grown = realloc(acks->v, cap * sizeof(*grown));
		if (!grown)
			return;	/* then we just do not wait for this one */
		acks->v = grown;
		acks->cap = cap;
	}
	ltt_app_get(app);
	acks->v[acks->n++] = (struct ust_ack){ .app = app, .seq = seq };
}

/* Milliseconds left until @deadline (CLOCK_MONOTONIC), at least 0. */
static int ms_left(const struct timespec *deadline)
{
	struct timespec now;
	int64_t ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = ((int64_t)deadline->tv_sec - now.tv_sec) * 1000 +
	     (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

/*
 * Wait (at most ACK_TIMEOUT_MS for them all) until every program confirmed
 * what it was sent, then empty the set; no lock held (the app thread needs
 * them to read acks).  @what: named in the warning about a program that
 * does not answer; NULL to empty the set without waiting.
 */
static void acks_wait(struct ust_acks *acks, const char *what)
{
	struct timespec deadline;
	size_t i;

	/* One deadline for them all: programs that don't answer cost it once. */
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += ACK_TIMEOUT_MS / 1000;
	for (i = 0; i < acks->n; i++) {
		struct ltt_app *app = acks->v[i].app;

		if (what && ltt_app_wait_ack(app, acks->v[i].seq, ms_left(&deadline)) == -ETIMEDOUT)
			LTT_WARN("%s (pid %ld) did not confirm the %s in %d ms; some of its events may be missing",
				 app->procname, (long)app->pid, what, ACK_TIMEOUT_MS);
		ltt_app_put(app);
	}
	free(acks->v);
	acks_init(acks);
}

/* @settle's acks of the user-space domain, made on first need (NULL: no memory). */
static struct ust_acks *settle_acks(struct ltt_ust *ust, struct ltt_domain_settle *settle)
{
	void **slot = ltt_domain_settle_slot(settle, &ust->domain);

	if (!*slot)
		*slot = calloc(1, sizeof(struct ust_acks));
	return *slot;
}

/* The seq of the last command sent to @app. */
static uint32_t last_seq(struct ltt_app *app)
{
	uint32_t seq;

	pthread_mutex_lock(&app->lock);
	seq = app->seq_sent;
	pthread_mutex_unlock(&app->lock);
	return seq;
}

/* Bring every program up to date; note the commands to wait for. */
static void push_all_apps(struct ltt_ust *ust, struct ltt_session *session,
			  struct ust_acks *acks)
{
	struct ltt_app *app;
	uint32_t before, last;

	pthread_mutex_lock(&ust->apps_lock);
	cds_list_for_each_entry(app, &ust->apps, node) {
		/* The seq of the last command this push sent, not of any other. */
		before = last = last_seq(app);
		push_app(ust, session, app, &last);
		if (last != before)
			acks_add(acks, app, last);
	}
	pthread_mutex_unlock(&ust->apps_lock);
}

static struct ltt_ust *to_ust(struct ltt_domain_impl *d)
{
	return caa_container_of(d, struct ltt_ust, domain);
}

static int ust_start(struct ltt_domain_impl *d, struct ltt_session *session,
		     struct ltt_domain_settle *settle)
{
	struct ltt_ust *ust = to_ust(d);

	push_all_apps(ust, session, settle_acks(ust, settle));
	return 0;
}

static void ust_update(struct ltt_domain_impl *d, struct ltt_session *session,
		       struct ltt_domain_settle *settle)
{
	struct ltt_ust *ust = to_ust(d);

	if (session->active)
		push_all_apps(ust, session, settle_acks(ust, settle));
}

/* Disable the session's channels in every application; collect the acks. */
static void disable_in_apps(struct ltt_ust *ust, struct ltt_session *session,
			    struct ust_acks *acks)
{
	struct ltt_app_chan *ac;
	struct ltt_app *app;
	uint32_t seq;

	pthread_mutex_lock(&ust->apps_lock);
	cds_list_for_each_entry(app, &ust->apps, node) {
		cds_list_for_each_entry(ac, &app->chans, node) {
			if (ac->session_id != session->id || !ac->enabled)
				continue;
			if (send_key_cmd(app, LTT_APP_MSG_CHANNEL_DISABLE, ac->key, NULL, -1, &seq))
				break;
			ac->enabled = false;
			acks_add(acks, app, seq);
		}
	}
	pthread_mutex_unlock(&ust->apps_lock);
}

/*
 * The consumer keys of a session's channels, all held by the current
 * consumer (generation @ret_gen); @ret_lost: some trace lost its consumer.
 * Session lock held.
 */
static size_t channel_keys(struct ltt_ust *ust, struct ltt_session *session, uint64_t **ret_keys,
			   uint64_t *ret_gen, bool *ret_lost)
{
	struct ust_session *us = ust_state(session, false);
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	uint64_t *keys = NULL, *grown;
	size_t n = 0;

	*ret_gen = 0;
	*ret_lost = false;
	*ret_keys = NULL;
	if (!us)
		return 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		if (!trace_consumer(ust, trace)) {
			*ret_lost |= trace->lost_consumer;
			continue;
		}
		*ret_gen = trace->consumer_gen;
		cds_list_for_each_entry(chan, &trace->chans, node) {
			grown = realloc(keys, (n + 1) * sizeof(*keys));
			if (!grown)
				break;
			keys = grown;
			keys[n++] = chan->key;
		}
	}
	*ret_keys = keys;
	return n;
}

static int ust_stop(struct ltt_domain_impl *d, struct ltt_session *session, bool wait)
{
	struct ltt_ust *ust = to_ust(d);
	struct ust_acks acks;
	struct ltt_consumer *c;
	uint64_t *keys, gen, now;
	size_t i, nr_keys;
	bool lost;
	int ret = 0;

	acks_init(&acks);
	pthread_mutex_lock(&session->lock);
	disable_in_apps(ust, session, &acks);
	nr_keys = channel_keys(ust, session, &keys, &gen, &lost);
	pthread_mutex_unlock(&session->lock);
	/* No lock held: the app thread must be free to read the acks. */
	acks_wait(&acks, wait ? "stop" : NULL);
	c = nr_keys ? get_consumer(ust, &now) : NULL;
	if (lost || (c && now != gen)) {
		LTT_ERR("session '%s': the consumer daemon died while it held its traces; they end there",
			session->name);
		ret = -EPIPE;
	}
	for (i = 0; c && now == gen && i < nr_keys; i++) {
		int err = ltt_consumer_flush_channel(c, keys[i], false);

		/* -ENOENT: its program left meanwhile, and its trace was closed, flushed. */
		if (err && err != -ENOENT) {
			LTT_ERR("session '%s': the consumer failed to write a channel", session->name);
			ret = ret ? ret : -EIO;
		}
	}
	free(keys);
	return ret;
}

static void ust_destroy(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_ust *ust = to_ust(d);
	struct ust_session *us = ust_state(session, false);
	struct ltt_app_chan *ac, *tmp;
	struct ltt_ust_trace *trace, *ttmp;
	struct ltt_app *app;

	pthread_mutex_lock(&ust->apps_lock);
	cds_list_for_each_entry(app, &ust->apps, node) {
		cds_list_for_each_entry_safe(ac, tmp, &app->chans, node) {
			if (ac->session_id != session->id)
				continue;
			send_key_cmd(app, LTT_APP_MSG_CHANNEL_REMOVE, ac->key, NULL, -1, NULL);
			cds_list_del(&ac->node);
			free(ac->events);
			free(ac);
		}
	}
	pthread_mutex_unlock(&ust->apps_lock);
	if (!us)
		return;
	cds_list_for_each_entry_safe(trace, ttmp, &us->traces, node)
		trace_destroy(ust, trace);
	free(us);
	ltt_session_domain(session, LTT_DOMAIN_USER)->state = NULL;
}

static void ust_channel_stats(struct ltt_domain_impl *d, struct ltt_session *session,
			      const struct ltt_channel *channel, uint64_t *ret_events_lost,
			      uint64_t *ret_packets_lost)
{
	struct ltt_ust *ust = to_ust(d);
	struct ust_session *us = ust_state(session, false);
	/* What closed traces lost, then what the open ones have lost so far. */
	uint64_t events = channel->discarded_events, packets = channel->lost_packets, e, p;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_consumer *c = NULL;

	if (us) {
		cds_list_for_each_entry(trace, &us->traces, node) {
			chan = find_chan(trace, channel);
			c = chan ? trace_consumer(ust, trace) : NULL;
			if (c && !ltt_consumer_channel_stats(c, chan->key, &e, &p)) {
				events += e;
				packets += p;
			}
		}
	}
	*ret_events_lost = events;
	*ret_packets_lost = packets;
}

int ltt_ust_app_add(struct ltt_ust *ust, struct ltt_app *app)
{
	int ret = 0;

	pthread_mutex_lock(&ust->apps_lock);
	if (ust->nr_apps >= LTT_UST_MAX_APPS) {
		ret = -LTT_ERR_LIMIT;
	} else {
		ltt_app_get(app);
		cds_list_add_tail(&app->node, &ust->apps);
		ust->nr_apps++;
	}
	pthread_mutex_unlock(&ust->apps_lock);
	return ret;
}

/* Keep the tracepoints an application announced; skip names it already gave. */
/* FNV-1a, for the name set below. */
static size_t name_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/*
 * An open-addressing set of the tracepoints kept so far, by name: finding
 * a program's duplicates costs O(n), not O(n^2) (a program may announce
 * tens of thousands).  @slots is a power of two, over twice the count.
 */
static struct ltt_app_tracepoint **name_slot(struct ltt_app_tracepoint **set, size_t slots,
					     const char *name)
{
	size_t i = name_hash(name) & (slots - 1);

	while (set[i] && strcmp(set[i]->name, name))
		i = (i + 1) & (slots - 1);
	return &set[i];
}

/*
 * Keep the tracepoints an application announced: names it already gave
 * are skipped (with a warning if the fields differ), and no application
 * keeps more than LTT_APP_MAX_TRACEPOINTS, whatever it sends.
 */
static void app_keep_tracepoints(struct ltt_app *app, struct ltt_app_tracepoint **tps, size_t nr)
{
	struct ltt_app_tracepoint **all, **set, **slot;
	size_t i, slots = 16, over = 0;

	while (slots < 2 * (app->nr_tps + nr))
		slots *= 2;
	set = calloc(slots, sizeof(*set));
	all = set ? realloc(app->tps, (app->nr_tps + nr) * sizeof(*all)) : NULL;
	if (!all) {
		for (i = 0; i < nr; i++)
			free(tps[i]);
		free(set);
		return;
	}
	app->tps = all;
	for (i = 0; i < app->nr_tps; i++)
		*name_slot(set, slots, all[i]->name) = all[i];
	for (i = 0; i < nr; i++) {
		slot = name_slot(set, slots, tps[i]->name);
		if (*slot && !ltt_app_tracepoint_same_layout(*slot, tps[i]))
			LTT_WARN("%s (pid %ld) declares event %s twice with different fields: the second is ignored",
				 app->procname, (long)app->pid, tps[i]->name);
		if (!*slot && app->nr_tps >= LTT_APP_MAX_TRACEPOINTS) {
			over++;
			slot = NULL;
		}
		if (!slot || *slot) {
			free(tps[i]);
			continue;
		}
		*slot = tps[i];
		all[app->nr_tps++] = tps[i];
	}
	if (over)
		LTT_WARN("%s (pid %ld) announces more than %u events: %zu are ignored",
			 app->procname, (long)app->pid, LTT_APP_MAX_TRACEPOINTS, over);
	free(set);
}

void ltt_ust_app_tracepoints(struct ltt_ust *ust, struct ltt_session_registry *reg,
			     struct ltt_app *app, struct ltt_app_tracepoint **tps, size_t nr)
{
	struct ltt_session **sessions;
	size_t i, n;

	pthread_mutex_lock(&ust->apps_lock);
	app_keep_tracepoints(app, tps, nr);
	pthread_mutex_unlock(&ust->apps_lock);
	/* Sessions first (registry, then each session), then the apps lock. */
	if (ltt_session_snapshot_list(reg, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&sessions[i]->lock);
		if (!sessions[i]->destroyed && sessions[i]->active) {
			pthread_mutex_lock(&ust->apps_lock);
			uint32_t last;

			push_app(ust, sessions[i], app, &last);
			pthread_mutex_unlock(&ust->apps_lock);
		}
		pthread_mutex_unlock(&sessions[i]->lock);
		ltt_session_put(reg, sessions[i]);
	}
	free(sessions);
}

void ltt_ust_app_remove(struct ltt_ust *ust, struct ltt_session_registry *reg,
			struct ltt_app *app)
{
	struct ltt_session **sessions;
	struct ltt_ust_trace *trace;
	size_t i, n;

	pthread_mutex_lock(&ust->apps_lock);
	cds_list_del(&app->node);
	ust->nr_apps--;
	pthread_mutex_unlock(&ust->apps_lock);
	/* Its per-PID traces are complete: nobody else writes to them. */
	if (!ltt_session_snapshot_list(reg, 0, &sessions, &n)) {
		for (i = 0; i < n; i++) {
			pthread_mutex_lock(&sessions[i]->lock);
			trace = find_trace(sessions[i], app, true);
			if (trace)
				trace_destroy(ust, trace);
			pthread_mutex_unlock(&sessions[i]->lock);
			ltt_session_put(reg, sessions[i]);
		}
		free(sessions);
	}
	LTT_INFO("%s (pid %ld) unregistered", app->procname, (long)app->pid);
	ltt_app_put(app);
}

/* "integer", "string", ... for lttctl list -u -f. */
static const char *type_name(const struct ltt_app_field *f)
{
	switch (f->type) {
	case LTT_UST_TYPE_INTEGER:
		return f->base == 16 ? "integer (hex)" : "integer";
	case LTT_UST_TYPE_FLOAT:
		return f->size == 4 ? "float" : "double";
	case LTT_UST_TYPE_STRING:
		return "string";
	case LTT_UST_TYPE_ARRAY:
		return f->encoding ? "text array" : "integer array";
	case LTT_UST_TYPE_SEQUENCE:
		return f->encoding ? "text sequence" : "integer sequence";
	case LTT_UST_TYPE_ENUM:
		return "enum";
	default:
		return "unknown";
	}
}

static int ust_list_events(struct ltt_domain_impl *d, bool with_fields, struct ltt_wbuf *reply)
{
	struct ltt_ust *ust = to_ust(d);
	struct ltt_app *app;
	uint32_t count = 0, i;
	size_t t, at;

	at = reply->len;
	ltt_wbuf_put_u32(reply, 0);	/* patched below */
	pthread_mutex_lock(&ust->apps_lock);
	cds_list_for_each_entry(app, &ust->apps, node) {
		for (t = 0; t < app->nr_tps; t++) {
			const struct ltt_app_tracepoint *tp = app->tps[t];

			ltt_wbuf_put_u32(reply, (uint32_t)app->pid);
			ltt_wbuf_put_str(reply, app->procname);
			ltt_wbuf_put_str(reply, tp->name);
			ltt_wbuf_put_u32(reply, (uint32_t)tp->loglevel);
			ltt_wbuf_put_u32(reply, with_fields ? tp->nr_fields : 0);
			for (i = 0; with_fields && i < tp->nr_fields; i++) {
				ltt_wbuf_put_str(reply, tp->fields[i].name);
				ltt_wbuf_put_str(reply, type_name(&tp->fields[i]));
			}
			count++;
		}
	}
	pthread_mutex_unlock(&ust->apps_lock);
	if (!reply->err) {
		uint32_t le = htole32(count);

		memcpy(reply->data + at, &le, sizeof(le));
	}
	return reply->err ? -ENOMEM : 0;
}

static enum ltt_error_code ust_check_channel(struct ltt_domain_impl *d, struct ltt_channel_attr *attr)
{
	(void)d;
	return (enum ltt_error_code)-ltt_attr_check_channel(attr, LTT_DOMAIN_USER);
}

static enum ltt_error_code ust_check_rule(struct ltt_domain_impl *d,
					  const struct ltt_event_rule_attr *attr)
{
	(void)d;
	return (enum ltt_error_code)-ltt_attr_check_rule(attr);
}

static void ust_settle_wait(struct ltt_domain_impl *d, void *pending, const char *what)
{
	(void)d;
	acks_wait(pending, what);
	free(pending);
}

static const struct ltt_domain_ops ust_ops = {
	.check_channel = ust_check_channel,
	.check_rule = ust_check_rule,
	.start = ust_start,
	.update = ust_update,
	.stop = ust_stop,
	.destroy = ust_destroy,
	.channel_stats = ust_channel_stats,
	.list_events = ust_list_events,
	.settle_wait = ust_settle_wait,
	.fini = ust_fini,
};
